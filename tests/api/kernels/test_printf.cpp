// printf in kernels (OpenCL C 1.2 6.12.13): the output of one launch is
// written to stdout when the kernel command completes; it is captured here
// and compared with the exact text for every conversion, flags, width and
// precision, length modifiers, vectors, strings and the return values.
// Many work-items keep each work-item's order; a full buffer makes the
// printf calls that do not fit return -1 and print nothing, without losing
// what was printed before.
#include "kernel_test.hpp"
#include "stdout_capture.hpp"

#include <map>
#include <sstream>

using namespace cl_test;
using namespace kernel_test;

namespace {

struct Launch {
    cl_int enqueued = CL_SUCCESS;
    cl_int finished = CL_SUCCESS;
    std::string output;
};

// Runs kernel on a 1D range and returns what it printed. No assertion runs
// while stdout is captured.
Launch run_captured(cl_command_queue queue, cl_kernel kernel, size_t global, size_t local = 0) {
    Launch launch;
    StdoutCapture capture;
    launch.enqueued = clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global,
                                             local ? &local : nullptr, 0, nullptr, nullptr);
    launch.finished = clFinish(queue);
    launch.output = capture.finish();
    REQUIRE_OK(launch.enqueued);
    REQUIRE_OK(launch.finished);
    return launch;
}

std::vector<std::string> lines_of(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line))
        lines.push_back(line);
    return lines;
}

const char* const scalars_source = R"CLC(
__kernel void scalars(__global int* ret, int neg, float f, double d, char c, ulong big) {
    int k = 0;
    ret[k++] = printf("%d %i %o %u %x %X\n", neg, 7, 8, 4000000000u, 255, 0xABCDu);
    ret[k++] = printf("%ld %lu %lx %hd %hu %hhd %hhu %hhx\n", -9000000000L, big,
                      0x123456789abcUL, (short)-3, (ushort)65535, (char)-5, (uchar)200,
                      (uchar)0xAB);
    ret[k++] = printf("%hd %hhd\n", 70000, 300);
    ret[k++] = printf("[%5d] [%-5d] [%05d] [%+d] [% d] [%#o] [%#x] [%.3d]\n", 42, 42, 42, 42,
                      42, 8, 255, 7);
    ret[k++] = printf("%c%c%c %s [%8s] [%-8s] [%.2s]\n", c, 'b', 'c', "str", "right", "left",
                      "truncate");
    ret[k++] = printf("%f %F %e %E %g %G %a %A\n", f, 2.25f, 12345.678f, 0.000123f, 0.0001f,
                      1e20f, 1.0f, 0.5f);
    ret[k++] = printf("[%.2f] [%10.3f] [%-10.1e] [%+.0f] [%#.0f] [%08.3f]\n", 3.14159f, -2.5f,
                      1234.5f, 2.5f, 3.0f, -1.5f);
    ret[k++] = printf("%.10f %lf %e %g\n", d, 2.0, 1e300, -0.0);
    ret[k++] = printf("%p\n", (__global void*)0x1234);
    ret[k++] = printf("100%% done\n");
    ret[k++] = printf("%s\n", "no puts");
    ret[k++] = printf("x\n");
    ret[k++] = printf("\n");
    ret[k++] = printf("%s|%5.1s|\n", "", "ab");
}
)CLC";

const char* const scalars_expected = "-42 7 10 4000000000 ff ABCD\n"
                                     "-9000000000 18000000000000000000 123456789abc -3 65535 -5 "
                                     "200 ab\n"
                                     "4464 44\n"
                                     "[   42] [42   ] [00042] [+42] [ 42] [010] [0xff] [007]\n"
                                     "abc str [   right] [left    ] [tr]\n"
                                     "1.500000 2.250000 1.234568e+04 1.230000E-04 0.0001 1E+20 "
                                     "0x1p+0 0X1P-1\n"
                                     "[3.14] [    -2.500] [1.2e+03   ] [+2] [3.] [-001.500]\n"
                                     "0.1000000000 2.000000 1.000000e+300 -0\n"
                                     "0x1234\n"
                                     "100% done\n"
                                     "no puts\n"
                                     "x\n"
                                     "\n"
                                     "|    a|\n";

const char* const vectors_source = R"CLC(
__kernel void vectors(__global int* ret, float4 f4, int8 i8, float16 f16) {
    int k = 0;
    ret[k++] = printf("%v4hhd|%v2hd|%v4hld|%v3hlu|%v2ld|%v8hhx|%v16hhu\n",
                      (char4)(1, -2, 3, -4), (short2)(-300, 300), (int4)(1, 2, 3, -1),
                      (uint3)(7, 8, 9), (long2)(-1, 1L << 40),
                      (uchar8)(0, 1, 2, 3, 0xa, 0xb, 0xfe, 0xff),
                      (uchar16)(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15));
    ret[k++] = printf("%v4hlf|%v2lf|%v3hle|%v2hlg|%#v2hlx|%5v2hld|%v2hhX\n", f4,
                      (double2)(0.5, -1.0), (float3)(1.0f, 10.0f, 100.0f),
                      (float2)(1e-5f, 123456789.0f), (int2)(255, 16), (int2)(1, -22),
                      (uchar2)(0xAB, 0xCD));
    ret[k++] = printf("%v8hld\n", i8);
    ret[k++] = printf("%.1v16hlf\n", f16);
    ret[k++] = printf("%v3hhd %v3hd %v4hu %v2lu\n", (char3)(-1, 2, -3), (short3)(4, -5, 6),
                      (ushort4)(1, 2, 3, 65535), (ulong2)(0, 18446744073709551615UL));
}
)CLC";

const char* const vectors_expected =
    "1,-2,3,-4|-300,300|1,2,3,-1|7,8,9|-1,1099511627776|0,1,2,3,a,b,fe,ff|"
    "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15\n"
    "1.000000,2.500000,-3.250000,0.000000|0.500000,-1.000000|"
    "1.000000e+00,1.000000e+01,1.000000e+02|1e-05,1.23457e+08|0xff,0x10|    1,  -22|AB,CD\n"
    "1,2,3,4,5,6,7,-8\n"
    "0.0,1.0,2.0,3.0,4.0,5.0,6.0,7.0,8.0,9.0,10.0,11.0,12.0,13.0,14.0,15.0\n"
    "-1,2,-3 4,-5,6 1,2,3,65535 0,18446744073709551615\n";

} // namespace

TEST_CASE("printf: every conversion, flag, width, precision and length modifier") {
    Fixture f;
    for (const char* options : {"", "-cl-std=CL3.0", "-cl-opt-disable"}) {
        INFO("options: " << options);
        ProgramPtr program = f.build(scalars_source, options);
        KernelPtr kernel = make_kernel(program.get(), "scalars");
        MemPtr ret = make_buffer<cl_int>(f.ctx(), 16);
        const std::vector<cl_int> minus(16, 99);
        write_buffer(f.q(), ret.get(), minus);
        set_arg(kernel.get(), 0, ret);
        set_arg(kernel.get(), 1, cl_int{-42});
        set_arg(kernel.get(), 2, cl_float{1.5f});
        set_arg(kernel.get(), 3, cl_double{0.1});
        set_arg(kernel.get(), 4, cl_char{'a'});
        set_arg(kernel.get(), 5, cl_ulong{18000000000000000000ull});
        const Launch launch = run_captured(f.q(), kernel.get(), 1);
        CHECK(launch.output == scalars_expected);
        const std::vector<cl_int> results = read_buffer<cl_int>(f.q(), ret.get(), 16);
        for (int i = 0; i < 14; ++i) {
            INFO("printf " << i);
            CHECK(results[i] == 0);
        }
    }
}

TEST_CASE("printf: vector specifiers print the elements separated by commas") {
    Fixture f;
    ProgramPtr program = f.build(vectors_source);
    KernelPtr kernel = make_kernel(program.get(), "vectors");
    MemPtr ret = make_buffer<cl_int>(f.ctx(), 8);
    set_arg(kernel.get(), 0, ret);
    const cl_float4 f4 = {{1.0f, 2.5f, -3.25f, 0.0f}};
    const cl_int8 i8 = {{1, 2, 3, 4, 5, 6, 7, -8}};
    cl_float16 f16;
    for (int i = 0; i < 16; ++i)
        f16.s[i] = static_cast<float>(i);
    set_arg(kernel.get(), 1, f4);
    set_arg(kernel.get(), 2, i8);
    set_arg(kernel.get(), 3, f16);
    const Launch launch = run_captured(f.q(), kernel.get(), 1);
    CHECK(launch.output == vectors_expected);
    const std::vector<cl_int> results = read_buffer<cl_int>(f.q(), ret.get(), 5);
    CHECK(results == std::vector<cl_int>(5, 0));
}

TEST_CASE("printf: many work-items, each in its own order, in helpers and around barriers") {
    Fixture f;
    ProgramPtr program = f.build(R"CLC(
void say(int id, int step) { printf("wi %d step %d\n", id, step); }
__kernel void many(__global int* ret) {
    int id = get_global_id(0);
    int r = 0;
    for (int step = 0; step < 3; ++step) {
        say(id, step);
        if (step == 1)
            barrier(CLK_LOCAL_MEM_FENCE);
    }
    r |= printf("wi %d done %s\n", id, "ok");
    ret[id] = r;
}
)CLC");
    KernelPtr kernel = make_kernel(program.get(), "many");
    constexpr int items = 1000;
    MemPtr ret = make_buffer<cl_int>(f.ctx(), items);
    set_arg(kernel.get(), 0, ret);
    const Launch launch = run_captured(f.q(), kernel.get(), items, 20);
    const std::vector<std::string> lines = lines_of(launch.output);
    REQUIRE(lines.size() == 4 * items);
    std::map<int, std::vector<std::string>> per_item;
    for (const std::string& line : lines) {
        int id = -1;
        REQUIRE(std::sscanf(line.c_str(), "wi %d", &id) == 1);
        REQUIRE(id >= 0);
        REQUIRE(id < items);
        per_item[id].push_back(line);
    }
    REQUIRE(per_item.size() == static_cast<size_t>(items));
    for (const auto& [id, got] : per_item) {
        const std::string w = "wi " + std::to_string(id);
        const std::vector<std::string> expected = {w + " step 0", w + " step 1", w + " step 2",
                                                   w + " done ok"};
        CHECK(got == expected);
    }
    CHECK(read_buffer<cl_int>(f.q(), ret.get(), items) == std::vector<cl_int>(items, 0));
}

TEST_CASE("printf: the output is out when the kernel's event is complete") {
    Fixture f;
    ProgramPtr program = f.build(R"CLC(
__kernel void hello(void) { printf("hello from %u\n", (uint)get_global_id(0)); }
)CLC");
    KernelPtr kernel = make_kernel(program.get(), "hello");
    cl_int enqueued = CL_SUCCESS;
    cl_int waited = CL_SUCCESS;
    cl_event event = nullptr;
    std::string output;
    {
        StdoutCapture capture;
        const size_t global = 1;
        enqueued = clEnqueueNDRangeKernel(f.q(), kernel.get(), 1, nullptr, &global, nullptr, 0,
                                          nullptr, &event);
        if (enqueued == CL_SUCCESS)
            waited = clWaitForEvents(1, &event);
        output = capture.finish();
    }
    REQUIRE_OK(enqueued);
    EventPtr owned(event);
    REQUIRE_OK(waited);
    CHECK(output == "hello from 0\n");
    REQUIRE_OK(clFinish(f.q()));
}

TEST_CASE("printf: a full buffer makes later printfs return -1 and print nothing") {
    Fixture f;
    const size_t buffer_size = device_info<size_t>(f.device, CL_DEVICE_PRINTF_BUFFER_SIZE);
    CHECK(buffer_size >= 1024 * 1024); // the full profile's minimum
    ProgramPtr program = f.build(R"CLC(
__kernel void flood(__global int* ret, int count) {
    for (int i = 0; i < count; ++i)
        ret[i] = printf("line %d\n", i);
}
__kernel void after(void) { printf("next launch\n"); }
)CLC");
    KernelPtr flood = make_kernel(program.get(), "flood");
    // Each record takes at least 8 bytes: this many cannot all fit.
    const cl_int count = static_cast<cl_int>(buffer_size / 8 + 16);
    MemPtr ret = make_buffer<cl_int>(f.ctx(), static_cast<size_t>(count));
    set_arg(flood.get(), 0, ret);
    set_arg(flood.get(), 1, count);
    const Launch launch = run_captured(f.q(), flood.get(), 1);
    const std::vector<cl_int> results =
        read_buffer<cl_int>(f.q(), ret.get(), static_cast<size_t>(count));
    // Printed: a prefix, each line once and in order, and exactly the calls
    // that returned 0.
    const auto first_failure = std::find(results.begin(), results.end(), -1);
    REQUIRE(first_failure != results.end());
    const size_t printed = static_cast<size_t>(first_failure - results.begin());
    CHECK(printed > 1000);
    CHECK(std::all_of(results.begin(), first_failure, [](cl_int r) { return r == 0; }));
    CHECK(std::all_of(first_failure, results.end(), [](cl_int r) { return r == -1; }));
    const std::vector<std::string> lines = lines_of(launch.output);
    REQUIRE(lines.size() == printed);
    for (size_t i = 0; i < printed; ++i)
        if (lines[i] != "line " + std::to_string(i))
            FAIL("line " << i << " is '" << lines[i] << "'");

    // The next launch has the whole buffer again.
    KernelPtr after = make_kernel(program.get(), "after");
    CHECK(run_captured(f.q(), after.get(), 2).output == "next launch\nnext launch\n");
}

namespace {

std::vector<unsigned char> program_binary(cl_program program) {
    size_t size = 0;
    REQUIRE_OK(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof size, &size, nullptr));
    std::vector<unsigned char> binary(size);
    unsigned char* pointers[] = {binary.data()};
    REQUIRE_OK(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointers, pointers, nullptr));
    return binary;
}

const char* const hello_source = R"CLC(
__kernel void hello(int n) { printf("%s %d %v2hld\n", "hello", n, (int2)(n, -n)); }
)CLC";

} // namespace

TEST_CASE("printf: programs from binaries and from compile + link print the same") {
    Fixture f;
    ProgramPtr original = f.build(hello_source);
    const std::vector<unsigned char> binary = program_binary(original.get());
    const unsigned char* binaries[] = {binary.data()};
    const size_t lengths[] = {binary.size()};
    cl_int status = CL_OUT_OF_RESOURCES;
    cl_int error = CL_OUT_OF_RESOURCES;
    ProgramPtr copy(
        clCreateProgramWithBinary(f.ctx(), 1, &f.device, lengths, binaries, &status, &error));
    REQUIRE_OK(error);
    REQUIRE_OK(status);
    cl_test::build(copy.get(), f.device);

    ProgramPtr object = create_program(f.ctx(), hello_source);
    REQUIRE_OK(clCompileProgram(object.get(), 1, &f.device, nullptr, 0, nullptr, nullptr, nullptr,
                                nullptr));
    cl_program inputs[] = {object.get()};
    ProgramPtr linked(
        clLinkProgram(f.ctx(), 1, &f.device, nullptr, 1, inputs, nullptr, nullptr, &error));
    REQUIRE_OK(error);

    for (cl_program program : {original.get(), copy.get(), linked.get()}) {
        KernelPtr kernel = make_kernel(program, "hello");
        set_arg(kernel.get(), 0, cl_int{3});
        CHECK(run_captured(f.q(), kernel.get(), 1).output == "hello 3 3,-3\n");
    }
}
