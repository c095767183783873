// Programs: clCreateProgramWithSource (strings, lengths, errors), clBuildProgram
// with and without options, invalid options, a build failure and Clang's
// diagnostic in the build log, the build and program queries, binaries
// (CL_PROGRAM_BINARIES back through clCreateProgramWithBinary, corrupted
// binaries), clCompileProgram and clLinkProgram (two objects, a header, a
// library, link failures), kernels of programs without an executable,
// unknown kernel names, reference counts, and the pfn_notify callbacks of
// clBuildProgram, clCompileProgram and clLinkProgram. Every kernel result is
// compared with a host reference.
#include "kernel_test.hpp"

#include <atomic>
#include <cstdint>
#include <numeric>

using namespace cl_test;
using namespace kernel_test;

namespace {

// Three kernels; scale's factor is FACTOR (2 unless -D gives another one).
const char* const three_kernels = R"CLC(
#ifndef FACTOR
#define FACTOR 2
#endif
__kernel void scale(__global const int* in, __global int* out) {
    size_t i = get_global_id(0);
    out[i] = in[i] * FACTOR;
}
__kernel void add_one(__global int* data) {
    data[get_global_id(0)] += 1;
}
__kernel void square(__global const int* in, __global int* out) {
    size_t i = get_global_id(0);
    out[i] = in[i] * in[i];
}
)CLC";

std::vector<int> iota_vector(size_t count, int first) {
    std::vector<int> values(count);
    std::iota(values.begin(), values.end(), first);
    return values;
}

// Runs kernel name (arguments: __global const int* in, __global int* out)
// of program on count work-items and returns out.
std::vector<int> run_in_out(const Fixture& f, cl_program program, const char* name,
                            const std::vector<int>& in) {
    KernelPtr kernel = make_kernel(program, name);
    MemPtr input = make_buffer(f.ctx(), in);
    MemPtr output = make_buffer<int>(f.ctx(), in.size());
    set_arg(kernel.get(), 0, input);
    set_arg(kernel.get(), 1, output);
    run_1d(f.q(), kernel.get(), in.size());
    return read_buffer<int>(f.q(), output.get(), in.size());
}

// out[i] = f(in[i]) on the host.
template <class F>
std::vector<int> host_map(const std::vector<int>& in, F function) {
    std::vector<int> out;
    for (int value : in)
        out.push_back(function(value));
    return out;
}

std::vector<unsigned char> program_binary(cl_program program) {
    const auto sizes = info_array<size_t>(clGetProgramInfo, program, CL_PROGRAM_BINARY_SIZES);
    REQUIRE(sizes.size() == 1);
    REQUIRE(sizes[0] > 0);
    std::vector<unsigned char> binary(sizes[0]);
    unsigned char* pointers[] = {binary.data()};
    size_t size_ret = 0;
    REQUIRE_OK(
        clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointers, pointers, &size_ret));
    REQUIRE(size_ret == sizeof pointers);
    return binary;
}

ProgramPtr program_from_binary(const Fixture& f, const std::vector<unsigned char>& binary) {
    const unsigned char* binaries[] = {binary.data()};
    const size_t lengths[] = {binary.size()};
    cl_int status = CL_OUT_OF_RESOURCES;
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_program program =
        clCreateProgramWithBinary(f.ctx(), 1, &f.device, lengths, binaries, &status, &error);
    REQUIRE_OK(error);
    REQUIRE_OK(status);
    REQUIRE(program != nullptr);
    return ProgramPtr(program);
}

// Compiles program (no headers) for the fixture's device.
void compile(const Fixture& f, cl_program program, const char* options = nullptr) {
    const cl_int compiled =
        clCompileProgram(program, 1, &f.device, options, 0, nullptr, nullptr, nullptr, nullptr);
    INFO("compile log:\n" << build_log(program, f.device));
    REQUIRE_CL(compiled, CL_SUCCESS);
}

ProgramPtr link(const Fixture& f, const std::vector<cl_program>& inputs,
                const char* options = nullptr) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_program linked =
        clLinkProgram(f.ctx(), 1, &f.device, options, static_cast<cl_uint>(inputs.size()),
                      inputs.data(), nullptr, nullptr, &error);
    if (linked)
        INFO("link log:\n" << build_log(linked, f.device));
    REQUIRE_OK(error);
    REQUIRE(linked != nullptr);
    return ProgramPtr(linked);
}

const char* const helper_source = "int helper(int x) { return x * 3 + 1; }\n";
const char* const user_source = R"CLC(
int helper(int x);
__kernel void use_helper(__global const int* in, __global int* out) {
    size_t i = get_global_id(0);
    out[i] = helper(in[i]) - 5;
}
)CLC";
int helper_reference(int x) {
    return x * 3 + 1 - 5;
}

} // namespace

TEST_CASE("clCreateProgramWithSource joins the strings, honouring lengths") {
    Fixture f;
    // The source cut in the middle of tokens; lengths shorter than their
    // strings cut the garbage after them, a length of 0 means NUL-terminated.
    const char* strings[] = {"__kernel void tri", "ple(__global const int* in, __glo  GARBAGE",
                             "bal int* out) { size_t i = get_global_id(0); ",
                             "out[i] = in[i] * 3; }XYZ"};
    const size_t lengths[] = {0, std::strlen(strings[1]) - std::strlen("  GARBAGE"), 0,
                              std::strlen(strings[3]) - std::strlen("XYZ")};
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_program raw = clCreateProgramWithSource(f.ctx(), 4, strings, lengths, &error);
    REQUIRE_OK(error);
    REQUIRE(raw != nullptr);
    ProgramPtr program(raw);
    const std::string expected = "__kernel void triple(__global const int* in, __global int* "
                                 "out) { size_t i = get_global_id(0); out[i] = in[i] * 3; }";
    CHECK(program_info_string(raw, CL_PROGRAM_SOURCE) == expected);
    CHECK(program_info<cl_context>(raw, CL_PROGRAM_CONTEXT) == f.ctx());
    CHECK(program_info<cl_uint>(raw, CL_PROGRAM_NUM_DEVICES) == 1);
    CHECK(program_info<cl_device_id>(raw, CL_PROGRAM_DEVICES) == f.device);
    CHECK(program_info<cl_uint>(raw, CL_PROGRAM_REFERENCE_COUNT) == 1);

    build(raw, f.device);
    const std::vector<int> in = iota_vector(100, -50);
    CHECK(run_in_out(f, raw, "triple", in) == host_map(in, [](int x) { return x * 3; }));

    SECTION("lengths NULL: every string is NUL-terminated") {
        const char* whole[] = {"__kernel void a(__global int* p) ", "{ p[0] = 7; }"};
        cl_program other = clCreateProgramWithSource(f.ctx(), 2, whole, nullptr, &error);
        REQUIRE_OK(error);
        ProgramPtr owned(other);
        CHECK(program_info_string(other, CL_PROGRAM_SOURCE) ==
              "__kernel void a(__global int* p) { p[0] = 7; }");
    }
}

TEST_CASE("clCreateProgramWithSource errors") {
    Fixture f;
    const char* text = "__kernel void k(__global int* p) { p[0] = 1; }";
    const char* with_null[] = {text, nullptr};
    cl_int error = CL_SUCCESS;
    CHECK(clCreateProgramWithSource(f.ctx(), 0, &text, nullptr, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_VALUE);
    error = CL_SUCCESS;
    CHECK(clCreateProgramWithSource(f.ctx(), 1, nullptr, nullptr, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_VALUE);
    error = CL_SUCCESS;
    CHECK(clCreateProgramWithSource(f.ctx(), 2, with_null, nullptr, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_VALUE);
    error = CL_SUCCESS;
    CHECK(clCreateProgramWithSource(nullptr, 1, &text, nullptr, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_CONTEXT);
    // errcode_ret may be NULL.
    CHECK(clCreateProgramWithSource(f.ctx(), 0, &text, nullptr, nullptr) == nullptr);
}

TEST_CASE("clBuildProgram with and without options") {
    Fixture f;
    ProgramPtr program = create_program(f.ctx(), three_kernels);
    const std::vector<int> in = iota_vector(64, -20);

    SECTION("no options (NULL)") {
        REQUIRE_OK(clBuildProgram(program.get(), 1, &f.device, nullptr, nullptr, nullptr));
        CHECK(build_info_string(program.get(), f.device, CL_PROGRAM_BUILD_OPTIONS).empty());
        CHECK(run_in_out(f, program.get(), "scale", in) ==
              host_map(in, [](int x) { return x * 2; }));
    }
    SECTION("all devices (device_list NULL), empty options") {
        REQUIRE_OK(clBuildProgram(program.get(), 0, nullptr, "", nullptr, nullptr));
        CHECK(build_status(program.get(), f.device) == CL_BUILD_SUCCESS);
        CHECK(run_in_out(f, program.get(), "scale", in) ==
              host_map(in, [](int x) { return x * 2; }));
    }
    SECTION("a macro and standard options; CL_PROGRAM_BUILD_OPTIONS repeats them") {
        const char* options = "-D FACTOR=5 -cl-std=CL3.0 -cl-mad-enable";
        REQUIRE_OK(clBuildProgram(program.get(), 1, &f.device, options, nullptr, nullptr));
        CHECK(build_info_string(program.get(), f.device, CL_PROGRAM_BUILD_OPTIONS) == options);
        CHECK(run_in_out(f, program.get(), "scale", in) ==
              host_map(in, [](int x) { return x * 5; }));
    }
    SECTION("a rebuild with other options replaces the executable") {
        build(program.get(), f.device, "-DFACTOR=7");
        CHECK(run_in_out(f, program.get(), "scale", in) ==
              host_map(in, [](int x) { return x * 7; }));
        build(program.get(), f.device, "-DFACTOR=-3");
        CHECK(run_in_out(f, program.get(), "scale", in) ==
              host_map(in, [](int x) { return x * -3; }));
        CHECK(build_info_string(program.get(), f.device, CL_PROGRAM_BUILD_OPTIONS) ==
              "-DFACTOR=-3");
    }
}

TEST_CASE("clBuildProgram argument errors") {
    Fixture f;
    ProgramPtr program = create_program(f.ctx(), three_kernels);
    CHECK_CL(clBuildProgram(program.get(), 1, nullptr, nullptr, nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clBuildProgram(program.get(), 0, &f.device, nullptr, nullptr, nullptr),
             CL_INVALID_VALUE);
    int user_data = 0;
    CHECK_CL(clBuildProgram(program.get(), 1, &f.device, nullptr, nullptr, &user_data),
             CL_INVALID_VALUE);
    CHECK_CL(clBuildProgram(nullptr, 1, &f.device, nullptr, nullptr, nullptr), CL_INVALID_PROGRAM);
    // A device that is not the program's: a sub-device, when the device
    // can be partitioned.
    const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_device_id sub = nullptr;
    cl_uint count = 0;
    if (clCreateSubDevices(f.device, equally, 1, &sub, &count) == CL_SUCCESS) {
        DevicePtr owned(sub);
        CHECK_CL(clBuildProgram(program.get(), 1, &sub, nullptr, nullptr, nullptr),
                 CL_INVALID_DEVICE);
    }
    CHECK(build_status(program.get(), f.device) == CL_BUILD_NONE);
}

TEST_CASE("invalid build options are CL_INVALID_BUILD_OPTIONS") {
    Fixture f;
    ProgramPtr program = create_program(f.ctx(), three_kernels);
    const char* invalid[] = {"-cl-no-such-option",     "-cl-std=CL9.9", "-D", "-D=1",
                             "-cl-mad-enable --bogus", "\"-DFACTOR=3"};
    for (const char* options : invalid) {
        INFO("options: " << options);
        CHECK_CL(clBuildProgram(program.get(), 1, &f.device, options, nullptr, nullptr),
                 CL_INVALID_BUILD_OPTIONS);
    }
    // The program still builds with valid options afterwards.
    build(program.get(), f.device, "-DFACTOR=4");
    const std::vector<int> in = iota_vector(16, 0);
    CHECK(run_in_out(f, program.get(), "scale", in) == host_map(in, [](int x) { return x * 4; }));
}

TEST_CASE("a build failure gives CL_BUILD_PROGRAM_FAILURE and Clang's diagnostic in the log") {
    Fixture f;
    // Line 3, column 12: the undeclared identifier; line 5: a missing ';'.
    const char* source = "__kernel void broken(__global int* out) {\n"
                         "    int a = 1;\n"
                         "    out[0] = undeclared_name + a;\n"
                         "    out[1] = 2\n"
                         "}\n";
    ProgramPtr program = create_program(f.ctx(), source);
    CHECK_CL(clBuildProgram(program.get(), 1, &f.device, nullptr, nullptr, nullptr),
             CL_BUILD_PROGRAM_FAILURE);
    const std::string log = build_log(program.get(), f.device);
    INFO("build log:\n" << log);
    CHECK(log.find(":3:14: error: use of undeclared identifier 'undeclared_name'") !=
          std::string::npos);
    CHECK(log.find(":4:15: error: expected ';'") != std::string::npos);
    CHECK(build_status(program.get(), f.device) == CL_BUILD_ERROR);
    CHECK(binary_type(program.get(), f.device) == CL_PROGRAM_BINARY_TYPE_NONE);

    // No executable: no kernels, no kernel names.
    cl_int error = CL_SUCCESS;
    CHECK(clCreateKernel(program.get(), "broken", &error) == nullptr);
    CHECK_CL(error, CL_INVALID_PROGRAM_EXECUTABLE);
    size_t count = 0;
    CHECK_CL(clGetProgramInfo(program.get(), CL_PROGRAM_NUM_KERNELS, sizeof count, &count, nullptr),
             CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_CL(clGetProgramInfo(program.get(), CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &count),
             CL_INVALID_PROGRAM_EXECUTABLE);
}

TEST_CASE("build and program queries before and after a build") {
    Fixture f;
    ProgramPtr program = create_program(f.ctx(), three_kernels);
    cl_program p = program.get();

    CHECK(build_status(p, f.device) == CL_BUILD_NONE);
    CHECK(binary_type(p, f.device) == CL_PROGRAM_BINARY_TYPE_NONE);
    CHECK(build_log(p, f.device).empty());
    CHECK(build_info_string(p, f.device, CL_PROGRAM_BUILD_OPTIONS).empty());
    size_t count = 0;
    CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof count, &count, nullptr),
             CL_INVALID_PROGRAM_EXECUTABLE);

    build(p, f.device, "-cl-std=CL1.2");
    CHECK(build_status(p, f.device) == CL_BUILD_SUCCESS);
    CHECK(binary_type(p, f.device) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    CHECK(build_info_string(p, f.device, CL_PROGRAM_BUILD_OPTIONS) == "-cl-std=CL1.2");
    CHECK(program_info<size_t>(p, CL_PROGRAM_NUM_KERNELS) == 3);
    CHECK(kernel_names(p) == std::set<std::string>{"scale", "add_one", "square"});
    CHECK(program_info_string(p, CL_PROGRAM_SOURCE) == three_kernels);
    // The size of CL_PROGRAM_BINARIES is that of one pointer per device.
    CHECK(info_size(clGetProgramInfo, p, CL_PROGRAM_BINARIES) == sizeof(unsigned char*));

    SECTION("errors of clGetProgramBuildInfo") {
        cl_build_status status = CL_BUILD_NONE;
        CHECK_CL(clGetProgramBuildInfo(p, nullptr, CL_PROGRAM_BUILD_STATUS, sizeof status, &status,
                                       nullptr),
                 CL_INVALID_DEVICE);
        CHECK_CL(clGetProgramBuildInfo(p, f.device, 0x7fff, sizeof status, &status, nullptr),
                 CL_INVALID_VALUE);
        CHECK_CL(clGetProgramBuildInfo(p, f.device, CL_PROGRAM_BUILD_STATUS, sizeof status - 1,
                                       &status, nullptr),
                 CL_INVALID_VALUE);
        char small[4];
        CHECK_CL(clGetProgramBuildInfo(p, f.device, CL_PROGRAM_BUILD_OPTIONS, sizeof small, small,
                                       nullptr),
                 CL_INVALID_VALUE);
        CHECK_CL(clGetProgramBuildInfo(nullptr, f.device, CL_PROGRAM_BUILD_STATUS, sizeof status,
                                       &status, nullptr),
                 CL_INVALID_PROGRAM);
    }
    SECTION("errors of clGetProgramInfo") {
        cl_uint value = 0;
        CHECK_CL(clGetProgramInfo(p, 0x7fff, sizeof value, &value, nullptr), CL_INVALID_VALUE);
        CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_REFERENCE_COUNT, sizeof value - 1, &value, nullptr),
                 CL_INVALID_VALUE);
        char small[8];
        CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, sizeof small, small, nullptr),
                 CL_INVALID_VALUE);
        CHECK_CL(
            clGetProgramInfo(nullptr, CL_PROGRAM_REFERENCE_COUNT, sizeof value, &value, nullptr),
            CL_INVALID_PROGRAM);
    }
}

TEST_CASE("program binaries round trip through clCreateProgramWithBinary") {
    Fixture f;
    ProgramPtr original = f.build(three_kernels, "-DFACTOR=9");
    const std::vector<unsigned char> binary = program_binary(original.get());
    // The same binary twice: the container is deterministic.
    CHECK(program_binary(original.get()) == binary);

    ProgramPtr copy = program_from_binary(f, binary);
    CHECK(binary_type(copy.get(), f.device) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    CHECK(program_info<cl_uint>(copy.get(), CL_PROGRAM_NUM_DEVICES) == 1);
    CHECK(program_info<cl_device_id>(copy.get(), CL_PROGRAM_DEVICES) == f.device);
    build(copy.get(), f.device);
    CHECK(build_status(copy.get(), f.device) == CL_BUILD_SUCCESS);
    CHECK(program_info<size_t>(copy.get(), CL_PROGRAM_NUM_KERNELS) == 3);
    CHECK(kernel_names(copy.get()) == kernel_names(original.get()));

    const std::vector<int> in = iota_vector(200, -100);
    const std::vector<int> expected = host_map(in, [](int x) { return x * 9; });
    CHECK(run_in_out(f, original.get(), "scale", in) == expected);
    CHECK(run_in_out(f, copy.get(), "scale", in) == expected);
    CHECK(run_in_out(f, copy.get(), "square", in) == host_map(in, [](int x) { return x * x; }));

    SECTION("the copy's binary is the same binary") {
        CHECK(program_binary(copy.get()) == binary);
    }
    SECTION("a NULL entry of CL_PROGRAM_BINARIES is skipped") {
        unsigned char* pointers[] = {nullptr};
        CHECK_OK(clGetProgramInfo(original.get(), CL_PROGRAM_BINARIES, sizeof pointers, pointers,
                                  nullptr));
    }
}

TEST_CASE("a compiled object's binary links after clCreateProgramWithBinary") {
    Fixture f;
    ProgramPtr helper = create_program(f.ctx(), helper_source);
    compile(f, helper.get());
    CHECK(binary_type(helper.get(), f.device) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    ProgramPtr helper_copy = program_from_binary(f, program_binary(helper.get()));
    CHECK(binary_type(helper_copy.get(), f.device) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);

    ProgramPtr user = create_program(f.ctx(), user_source);
    compile(f, user.get());
    ProgramPtr linked = link(f, {helper_copy.get(), user.get()});
    const std::vector<int> in = iota_vector(50, -7);
    CHECK(run_in_out(f, linked.get(), "use_helper", in) == host_map(in, helper_reference));
}

TEST_CASE("corrupted binaries are CL_INVALID_BINARY with binary_status") {
    Fixture f;
    ProgramPtr original = f.build(three_kernels);
    const std::vector<unsigned char> binary = program_binary(original.get());

    auto rejected = [&](const std::vector<unsigned char>& bytes) {
        const unsigned char* binaries[] = {bytes.data()};
        const size_t lengths[] = {bytes.size()};
        cl_int status = CL_SUCCESS;
        cl_int error = CL_SUCCESS;
        cl_program program =
            clCreateProgramWithBinary(f.ctx(), 1, &f.device, lengths, binaries, &status, &error);
        if (program)
            clReleaseProgram(program);
        CHECK(program == nullptr);
        CHECK_CL(error, CL_INVALID_BINARY);
        CHECK_CL(status, CL_INVALID_BINARY);
    };
    SECTION("garbage") {
        rejected(std::vector<unsigned char>(256, 0x5a));
    }
    SECTION("OpenCL C source instead of a binary") {
        const std::string text = three_kernels;
        rejected(std::vector<unsigned char>(text.begin(), text.end()));
    }
    SECTION("truncated") {
        rejected(std::vector<unsigned char>(binary.begin(), binary.begin() + binary.size() / 2));
    }
    SECTION("the header damaged") {
        std::vector<unsigned char> damaged = binary;
        for (size_t i = 0; i < std::min<size_t>(8, damaged.size()); ++i)
            damaged[i] ^= 0xff;
        rejected(damaged);
    }
    SECTION("a length of 0 or a NULL binary is CL_INVALID_VALUE") {
        const unsigned char* binaries[] = {binary.data()};
        const size_t zero[] = {0};
        cl_int status = CL_SUCCESS;
        cl_int error = CL_SUCCESS;
        CHECK(clCreateProgramWithBinary(f.ctx(), 1, &f.device, zero, binaries, &status, &error) ==
              nullptr);
        CHECK_CL(error, CL_INVALID_VALUE);
        CHECK_CL(status, CL_INVALID_VALUE);
        const unsigned char* null_binary[] = {nullptr};
        const size_t lengths[] = {binary.size()};
        error = CL_SUCCESS;
        CHECK(clCreateProgramWithBinary(f.ctx(), 1, &f.device, lengths, null_binary, nullptr,
                                        &error) == nullptr);
        CHECK_CL(error, CL_INVALID_VALUE);
        error = CL_SUCCESS;
        CHECK(clCreateProgramWithBinary(f.ctx(), 1, &f.device, nullptr, binaries, nullptr,
                                        &error) == nullptr);
        CHECK_CL(error, CL_INVALID_VALUE);
        error = CL_SUCCESS;
        CHECK(clCreateProgramWithBinary(f.ctx(), 0, nullptr, lengths, binaries, nullptr, &error) ==
              nullptr);
        CHECK_CL(error, CL_INVALID_VALUE);
    }
}

TEST_CASE("clCompileProgram and clLinkProgram: a function of one program called from another") {
    Fixture f;
    ProgramPtr helper = create_program(f.ctx(), helper_source);
    ProgramPtr user = create_program(f.ctx(), user_source);
    compile(f, helper.get());
    compile(f, user.get());
    CHECK(build_status(user.get(), f.device) == CL_BUILD_SUCCESS);
    CHECK(binary_type(user.get(), f.device) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    // A compiled object is no executable.
    cl_int error = CL_SUCCESS;
    CHECK(clCreateKernel(user.get(), "use_helper", &error) == nullptr);
    CHECK_CL(error, CL_INVALID_PROGRAM_EXECUTABLE);

    ProgramPtr linked = link(f, {helper.get(), user.get()});
    CHECK(build_status(linked.get(), f.device) == CL_BUILD_SUCCESS);
    CHECK(binary_type(linked.get(), f.device) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    CHECK(program_info<cl_context>(linked.get(), CL_PROGRAM_CONTEXT) == f.ctx());
    CHECK(kernel_names(linked.get()) == std::set<std::string>{"use_helper"});
    const std::vector<int> in = iota_vector(300, -150);
    CHECK(run_in_out(f, linked.get(), "use_helper", in) == host_map(in, helper_reference));

    SECTION("the inputs in the other order") {
        ProgramPtr reversed = link(f, {user.get(), helper.get()});
        CHECK(run_in_out(f, reversed.get(), "use_helper", in) == host_map(in, helper_reference));
    }
}

TEST_CASE("clCompileProgram with an input header") {
    Fixture f;
    ProgramPtr header = create_program(f.ctx(), "#define OFFSET 11\nint helper(int x);\n");
    ProgramPtr user = create_program(f.ctx(), R"CLC(
#include "inc/helper.h"
__kernel void with_header(__global const int* in, __global int* out) {
    size_t i = get_global_id(0);
    out[i] = helper(in[i]) + OFFSET;
}
)CLC");
    cl_program headers[] = {header.get()};
    const char* names[] = {"inc/helper.h"};
    const cl_int compiled =
        clCompileProgram(user.get(), 1, &f.device, nullptr, 1, headers, names, nullptr, nullptr);
    INFO("compile log:\n" << build_log(user.get(), f.device));
    REQUIRE_OK(compiled);
    ProgramPtr helper = create_program(f.ctx(), helper_source);
    compile(f, helper.get());
    ProgramPtr linked = link(f, {user.get(), helper.get()});
    const std::vector<int> in = iota_vector(40, 3);
    CHECK(run_in_out(f, linked.get(), "with_header", in) ==
          host_map(in, [](int x) { return x * 3 + 1 + 11; }));

    SECTION("without the header the compilation fails") {
        ProgramPtr alone = create_program(f.ctx(), "#include \"inc/helper.h\"\n");
        CHECK_CL(clCompileProgram(alone.get(), 1, &f.device, nullptr, 0, nullptr, nullptr, nullptr,
                                  nullptr),
                 CL_COMPILE_PROGRAM_FAILURE);
        CHECK(build_status(alone.get(), f.device) == CL_BUILD_ERROR);
        CHECK(build_log(alone.get(), f.device).find("inc/helper.h") != std::string::npos);
    }
}

TEST_CASE("a library made with -create-library links into an executable") {
    Fixture f;
    ProgramPtr helper = create_program(f.ctx(), helper_source);
    compile(f, helper.get());
    ProgramPtr library = link(f, {helper.get()}, "-create-library");
    CHECK(build_status(library.get(), f.device) == CL_BUILD_SUCCESS);
    CHECK(binary_type(library.get(), f.device) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
    cl_int error = CL_SUCCESS;
    CHECK(clCreateKernel(library.get(), "use_helper", &error) == nullptr);
    CHECK_CL(error, CL_INVALID_PROGRAM_EXECUTABLE);

    ProgramPtr user = create_program(f.ctx(), user_source);
    compile(f, user.get());
    ProgramPtr linked = link(f, {user.get(), library.get()});
    CHECK(binary_type(linked.get(), f.device) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);
    const std::vector<int> in = iota_vector(70, -30);
    CHECK(run_in_out(f, linked.get(), "use_helper", in) == host_map(in, helper_reference));

    SECTION("the library survives a binary round trip") {
        ProgramPtr copy = program_from_binary(f, program_binary(library.get()));
        CHECK(binary_type(copy.get(), f.device) == CL_PROGRAM_BINARY_TYPE_LIBRARY);
        ProgramPtr again = link(f, {copy.get(), user.get()});
        CHECK(run_in_out(f, again.get(), "use_helper", in) == host_map(in, helper_reference));
    }
}

TEST_CASE("compile and link errors") {
    Fixture f;
    ProgramPtr helper = create_program(f.ctx(), helper_source);
    ProgramPtr user = create_program(f.ctx(), user_source);

    CHECK_CL(clCompileProgram(helper.get(), 1, &f.device, "-cl-no-such-option", 0, nullptr, nullptr,
                              nullptr, nullptr),
             CL_INVALID_COMPILER_OPTIONS);
    // Headers, their names and their count must agree.
    cl_program headers[] = {helper.get()};
    CHECK_CL(
        clCompileProgram(user.get(), 1, &f.device, nullptr, 1, headers, nullptr, nullptr, nullptr),
        CL_INVALID_VALUE);
    CHECK_CL(
        clCompileProgram(user.get(), 1, &f.device, nullptr, 0, headers, nullptr, nullptr, nullptr),
        CL_INVALID_VALUE);

    cl_program inputs[] = {helper.get(), user.get()};
    cl_int error = CL_SUCCESS;
    SECTION("inputs that are not compiled are CL_INVALID_OPERATION") {
        CHECK(clLinkProgram(f.ctx(), 1, &f.device, nullptr, 2, inputs, nullptr, nullptr, &error) ==
              nullptr);
        CHECK_CL(error, CL_INVALID_OPERATION);
    }

    compile(f, helper.get());
    compile(f, user.get());
    SECTION("no inputs") {
        CHECK(clLinkProgram(f.ctx(), 1, &f.device, nullptr, 0, inputs, nullptr, nullptr, &error) ==
              nullptr);
        CHECK_CL(error, CL_INVALID_VALUE);
        error = CL_SUCCESS;
        CHECK(clLinkProgram(f.ctx(), 1, &f.device, nullptr, 2, nullptr, nullptr, nullptr, &error) ==
              nullptr);
        CHECK_CL(error, CL_INVALID_VALUE);
    }
    SECTION("invalid linker options") {
        CHECK(clLinkProgram(f.ctx(), 1, &f.device, "-cl-no-such-option", 2, inputs, nullptr,
                            nullptr, &error) == nullptr);
        CHECK_CL(error, CL_INVALID_LINKER_OPTIONS);
        // -D is a compiler option, not a linker option.
        error = CL_SUCCESS;
        CHECK(clLinkProgram(f.ctx(), 1, &f.device, "-DX=1", 2, inputs, nullptr, nullptr, &error) ==
              nullptr);
        CHECK_CL(error, CL_INVALID_LINKER_OPTIONS);
    }
    SECTION("device_list and num_devices disagree") {
        CHECK(clLinkProgram(f.ctx(), 1, nullptr, nullptr, 2, inputs, nullptr, nullptr, &error) ==
              nullptr);
        CHECK_CL(error, CL_INVALID_VALUE);
    }
    SECTION("user_data without pfn_notify") {
        int user_data = 0;
        CHECK(clLinkProgram(f.ctx(), 1, &f.device, nullptr, 2, inputs, nullptr, &user_data,
                            &error) == nullptr);
        CHECK_CL(error, CL_INVALID_VALUE);
    }
    SECTION("an input that is not a program") {
        cl_program bogus[] = {helper.get(), reinterpret_cast<cl_program>(f.queue.get())};
        CHECK(clLinkProgram(f.ctx(), 1, &f.device, nullptr, 2, bogus, nullptr, nullptr, &error) ==
              nullptr);
        CHECK_CL(error, CL_INVALID_PROGRAM);
    }
    SECTION("an unresolved function is CL_LINK_PROGRAM_FAILURE, with a log") {
        cl_program only_user[] = {user.get()};
        cl_program linked =
            clLinkProgram(f.ctx(), 1, &f.device, nullptr, 1, only_user, nullptr, nullptr, &error);
        ProgramPtr owned(linked);
        CHECK_CL(error, CL_LINK_PROGRAM_FAILURE);
        if (linked) {
            CHECK(build_status(linked, f.device) == CL_BUILD_ERROR);
            const std::string log = build_log(linked, f.device);
            INFO("link log:\n" << log);
            CHECK(log.find("helper") != std::string::npos);
            CHECK(clCreateKernel(linked, "use_helper", &error) == nullptr);
            CHECK_CL(error, CL_INVALID_PROGRAM_EXECUTABLE);
        }
    }
    SECTION("a function defined twice is CL_LINK_PROGRAM_FAILURE, with a log") {
        cl_program twice[] = {helper.get(), user.get(), helper.get()};
        cl_program linked =
            clLinkProgram(f.ctx(), 1, &f.device, nullptr, 3, twice, nullptr, nullptr, &error);
        ProgramPtr owned(linked);
        CHECK_CL(error, CL_LINK_PROGRAM_FAILURE);
        if (linked) {
            CHECK(build_status(linked, f.device) == CL_BUILD_ERROR);
            const std::string log = build_log(linked, f.device);
            INFO("link log:\n" << log);
            CHECK(log.find("helper") != std::string::npos);
        }
    }
    SECTION("clCompileProgram of a program without source is CL_INVALID_OPERATION") {
        ProgramPtr copy = program_from_binary(f, program_binary(helper.get()));
        CHECK_CL(clCompileProgram(copy.get(), 1, &f.device, nullptr, 0, nullptr, nullptr, nullptr,
                                  nullptr),
                 CL_INVALID_OPERATION);
    }
}

TEST_CASE("kernels need an executable; unknown names are CL_INVALID_KERNEL_NAME") {
    Fixture f;
    ProgramPtr program = create_program(f.ctx(), three_kernels);
    cl_int error = CL_SUCCESS;
    cl_uint count = 99;

    // Not built yet.
    CHECK(clCreateKernel(program.get(), "scale", &error) == nullptr);
    CHECK_CL(error, CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_CL(clCreateKernelsInProgram(program.get(), 0, nullptr, &count),
             CL_INVALID_PROGRAM_EXECUTABLE);

    build(program.get(), f.device);
    error = CL_SUCCESS;
    CHECK(clCreateKernel(program.get(), "no_such_kernel", &error) == nullptr);
    CHECK_CL(error, CL_INVALID_KERNEL_NAME);
    error = CL_SUCCESS;
    CHECK(clCreateKernel(program.get(), "Scale", &error) == nullptr);
    CHECK_CL(error, CL_INVALID_KERNEL_NAME);
    error = CL_SUCCESS;
    CHECK(clCreateKernel(program.get(), nullptr, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_VALUE);
    error = CL_SUCCESS;
    CHECK(clCreateKernel(nullptr, "scale", &error) == nullptr);
    CHECK_CL(error, CL_INVALID_PROGRAM);

    SECTION("clCreateKernelsInProgram") {
        REQUIRE_OK(clCreateKernelsInProgram(program.get(), 0, nullptr, &count));
        CHECK(count == 3);
        cl_kernel kernels[3] = {};
        CHECK_CL(clCreateKernelsInProgram(program.get(), 2, kernels, nullptr), CL_INVALID_VALUE);
        count = 0;
        REQUIRE_OK(clCreateKernelsInProgram(program.get(), 3, kernels, &count));
        CHECK(count == 3);
        std::vector<KernelPtr> owned;
        std::set<std::string> names;
        for (cl_kernel kernel : kernels) {
            REQUIRE(kernel != nullptr);
            owned.emplace_back(kernel);
            names.insert(kernel_info_string(kernel, CL_KERNEL_FUNCTION_NAME));
        }
        CHECK(names == std::set<std::string>{"scale", "add_one", "square"});
        // Every one of them runs.
        const std::vector<int> in = iota_vector(32, -16);
        for (cl_kernel kernel : kernels) {
            const std::string name = kernel_info_string(kernel, CL_KERNEL_FUNCTION_NAME);
            MemPtr input = make_buffer(f.ctx(), in);
            MemPtr output = make_buffer<int>(f.ctx(), in.size());
            set_arg(kernel, 0, input);
            if (name != "add_one")
                set_arg(kernel, 1, output);
            run_1d(f.q(), kernel, in.size());
            INFO("kernel " << name);
            if (name == "add_one")
                CHECK(read_buffer<int>(f.q(), input.get(), in.size()) ==
                      host_map(in, [](int x) { return x + 1; }));
            else if (name == "scale")
                CHECK(read_buffer<int>(f.q(), output.get(), in.size()) ==
                      host_map(in, [](int x) { return x * 2; }));
            else
                CHECK(read_buffer<int>(f.q(), output.get(), in.size()) ==
                      host_map(in, [](int x) { return x * x; }));
        }
    }
    SECTION("no rebuild while a kernel exists") {
        KernelPtr kernel = make_kernel(program.get(), "scale");
        CHECK_CL(clBuildProgram(program.get(), 1, &f.device, "-DFACTOR=3", nullptr, nullptr),
                 CL_INVALID_OPERATION);
        CHECK_CL(clCompileProgram(program.get(), 1, &f.device, nullptr, 0, nullptr, nullptr,
                                  nullptr, nullptr),
                 CL_INVALID_OPERATION);
        kernel.reset();
        build(program.get(), f.device, "-DFACTOR=3");
        const std::vector<int> in = iota_vector(10, 1);
        CHECK(run_in_out(f, program.get(), "scale", in) ==
              host_map(in, [](int x) { return x * 3; }));
    }
}

TEST_CASE("program and kernel reference counts") {
    Fixture f;
    ProgramPtr program = f.build(three_kernels);
    cl_program p = program.get();
    CHECK(program_info<cl_uint>(p, CL_PROGRAM_REFERENCE_COUNT) == 1);
    REQUIRE_OK(clRetainProgram(p));
    CHECK(program_info<cl_uint>(p, CL_PROGRAM_REFERENCE_COUNT) == 2);
    REQUIRE_OK(clRetainProgram(p));
    CHECK(program_info<cl_uint>(p, CL_PROGRAM_REFERENCE_COUNT) == 3);
    REQUIRE_OK(clReleaseProgram(p));
    REQUIRE_OK(clReleaseProgram(p));
    CHECK(program_info<cl_uint>(p, CL_PROGRAM_REFERENCE_COUNT) == 1);
    CHECK_CL(clRetainProgram(nullptr), CL_INVALID_PROGRAM);
    CHECK_CL(clReleaseProgram(nullptr), CL_INVALID_PROGRAM);

    KernelPtr kernel = make_kernel(p, "square");
    cl_kernel k = kernel.get();
    CHECK(kernel_info<cl_uint>(k, CL_KERNEL_REFERENCE_COUNT) == 1);
    REQUIRE_OK(clRetainKernel(k));
    CHECK(kernel_info<cl_uint>(k, CL_KERNEL_REFERENCE_COUNT) == 2);
    REQUIRE_OK(clReleaseKernel(k));
    CHECK(kernel_info<cl_uint>(k, CL_KERNEL_REFERENCE_COUNT) == 1);
    CHECK_CL(clRetainKernel(nullptr), CL_INVALID_KERNEL);
    CHECK_CL(clReleaseKernel(nullptr), CL_INVALID_KERNEL);

    // The kernel keeps its program alive after the application's last release.
    std::atomic<int> destroyed{0};
    REQUIRE_OK(clSetProgramReleaseCallback(
        p, [](cl_program, void* data) { static_cast<std::atomic<int>*>(data)->fetch_add(1); },
        &destroyed));
    program.release();
    REQUIRE_OK(clReleaseProgram(p));
    std::this_thread::sleep_for(50ms);
    CHECK(destroyed.load() == 0);
    CHECK(kernel_info<cl_program>(k, CL_KERNEL_PROGRAM) == p);
    CHECK(kernel_info_string(k, CL_KERNEL_FUNCTION_NAME) == "square");
    const std::vector<int> in = iota_vector(20, -10);
    MemPtr input = make_buffer(f.ctx(), in);
    MemPtr output = make_buffer<int>(f.ctx(), in.size());
    set_arg(k, 0, input);
    set_arg(k, 1, output);
    run_1d(f.q(), k, in.size());
    CHECK(read_buffer<int>(f.q(), output.get(), in.size()) ==
          host_map(in, [](int x) { return x * x; }));
    // Releasing the kernel destroys the program: its release callback runs once.
    kernel.reset();
    CHECK(wait_for_count(destroyed, 1));
    std::this_thread::sleep_for(50ms);
    CHECK(destroyed.load() == 1);
}

namespace {

struct Notified {
    std::atomic<int> calls{0};
    std::atomic<cl_program> program{nullptr};
    std::atomic<cl_build_status> status{CL_BUILD_NONE};
    cl_device_id device = nullptr;
};

void CL_CALLBACK record_notify(cl_program program, void* user_data) {
    auto* notified = static_cast<Notified*>(user_data);
    notified->program.store(program);
    cl_build_status status = CL_BUILD_NONE;
    if (clGetProgramBuildInfo(program, notified->device, CL_PROGRAM_BUILD_STATUS, sizeof status,
                              &status, nullptr) == CL_SUCCESS)
        notified->status.store(status);
    notified->calls.fetch_add(1);
}

} // namespace

TEST_CASE("clBuildProgram calls pfn_notify once when the build is done") {
    Fixture f;
    Notified notified;
    notified.device = f.device;
    const std::vector<int> in = iota_vector(48, -24);

    SECTION("a successful build") {
        ProgramPtr program = create_program(f.ctx(), three_kernels);
        REQUIRE_OK(
            clBuildProgram(program.get(), 1, &f.device, "-DFACTOR=6", record_notify, &notified));
        REQUIRE(wait_for_count(notified.calls, 1));
        CHECK(notified.program.load() == program.get());
        CHECK(notified.status.load() == CL_BUILD_SUCCESS);
        CHECK(build_status(program.get(), f.device) == CL_BUILD_SUCCESS);
        CHECK(run_in_out(f, program.get(), "scale", in) ==
              host_map(in, [](int x) { return x * 6; }));
        std::this_thread::sleep_for(100ms);
        CHECK(notified.calls.load() == 1);
    }
    SECTION("a failed build") {
        ProgramPtr program =
            create_program(f.ctx(), "__kernel void k(__global int* p) { p[0] = nope; }");
        const cl_int result =
            clBuildProgram(program.get(), 1, &f.device, nullptr, record_notify, &notified);
        // With pfn_notify the build may run after clBuildProgram returns.
        CHECK((result == CL_SUCCESS || result == CL_BUILD_PROGRAM_FAILURE));
        REQUIRE(wait_for_count(notified.calls, 1));
        CHECK(notified.program.load() == program.get());
        CHECK(notified.status.load() == CL_BUILD_ERROR);
        CHECK(build_log(program.get(), f.device).find("'nope'") != std::string::npos);
        std::this_thread::sleep_for(100ms);
        CHECK(notified.calls.load() == 1);
    }
    SECTION("clCompileProgram and clLinkProgram") {
        ProgramPtr helper = create_program(f.ctx(), helper_source);
        ProgramPtr user = create_program(f.ctx(), user_source);
        REQUIRE_OK(clCompileProgram(helper.get(), 1, &f.device, nullptr, 0, nullptr, nullptr,
                                    record_notify, &notified));
        REQUIRE(wait_for_count(notified.calls, 1));
        CHECK(notified.program.load() == helper.get());
        CHECK(notified.status.load() == CL_BUILD_SUCCESS);
        compile(f, user.get());

        Notified linked_notified;
        linked_notified.device = f.device;
        cl_program inputs[] = {helper.get(), user.get()};
        cl_int error = CL_OUT_OF_RESOURCES;
        cl_program linked = clLinkProgram(f.ctx(), 1, &f.device, nullptr, 2, inputs, record_notify,
                                          &linked_notified, &error);
        REQUIRE_OK(error);
        REQUIRE(linked != nullptr);
        ProgramPtr owned(linked);
        REQUIRE(wait_for_count(linked_notified.calls, 1));
        CHECK(linked_notified.program.load() == linked);
        CHECK(linked_notified.status.load() == CL_BUILD_SUCCESS);
        CHECK(run_in_out(f, linked, "use_helper", in) == host_map(in, helper_reference));
        std::this_thread::sleep_for(100ms);
        CHECK(notified.calls.load() == 1);
        CHECK(linked_notified.calls.load() == 1);
    }
}

TEST_CASE("a program from a binary needs clBuildProgram before kernels") {
    Fixture f;
    ProgramPtr original = f.build(three_kernels, "-DFACTOR=9");
    ProgramPtr copy = program_from_binary(f, program_binary(original.get()));
    CHECK(build_status(copy.get(), f.device) == CL_BUILD_NONE);
    cl_int error = CL_SUCCESS;
    CHECK(clCreateKernel(copy.get(), "scale", &error) == nullptr);
    CHECK_CL(error, CL_INVALID_PROGRAM_EXECUTABLE);
    size_t count = 0;
    CHECK_CL(clGetProgramInfo(copy.get(), CL_PROGRAM_NUM_KERNELS, sizeof count, &count, nullptr),
             CL_INVALID_PROGRAM_EXECUTABLE);
    // The binary has no source.
    CHECK_CL(
        clCompileProgram(copy.get(), 1, &f.device, nullptr, 0, nullptr, nullptr, nullptr, nullptr),
        CL_INVALID_OPERATION);
    build(copy.get(), f.device, "-cl-mad-enable");
    CHECK(build_info_string(copy.get(), f.device, CL_PROGRAM_BUILD_OPTIONS) == "-cl-mad-enable");
    const std::vector<int> in = iota_vector(30, -15);
    CHECK(run_in_out(f, copy.get(), "scale", in) == host_map(in, [](int x) { return x * 9; }));
}

TEST_CASE("CL_PROGRAM_BUILD_OPTIONS is empty while the build status is CL_BUILD_NONE") {
    // OpenCL 3.0, CL_PROGRAM_BUILD_OPTIONS: "If build status of program for
    // device is CL_BUILD_NONE, an empty string is returned."
    Fixture f;
    ProgramPtr original = f.build(three_kernels, "-DFACTOR=9");
    ProgramPtr copy = program_from_binary(f, program_binary(original.get()));
    REQUIRE(build_status(copy.get(), f.device) == CL_BUILD_NONE);
    CHECK(build_info_string(copy.get(), f.device, CL_PROGRAM_BUILD_OPTIONS) == std::string());
}

TEST_CASE("CL_PROGRAM_IL of a program from source is empty") {
    Fixture f;
    ProgramPtr program = f.build(three_kernels);
    unsigned char il[16];
    std::memset(il, 0x77, sizeof il);
    size_t size = 99;
    REQUIRE_OK(clGetProgramInfo(program.get(), CL_PROGRAM_IL, sizeof il, il, &size));
    CHECK(size == 0);
    CHECK(il[0] == 0x77);
}

TEST_CASE("queries that need an executable: NUM_KERNELS, KERNEL_NAMES, libraries") {
    Fixture f;
    ProgramPtr helper = create_program(f.ctx(), helper_source);
    compile(f, helper.get());
    ProgramPtr library = link(f, {helper.get()}, "-create-library");
    for (cl_program p : {helper.get(), library.get()}) {
        size_t count = 0;
        CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_NUM_KERNELS, sizeof count, &count, nullptr),
                 CL_INVALID_PROGRAM_EXECUTABLE);
        CHECK_CL(clGetProgramInfo(p, CL_PROGRAM_KERNEL_NAMES, 0, nullptr, &count),
                 CL_INVALID_PROGRAM_EXECUTABLE);
        cl_uint kernels = 0;
        CHECK_CL(clCreateKernelsInProgram(p, 0, nullptr, &kernels), CL_INVALID_PROGRAM_EXECUTABLE);
    }
}

TEST_CASE("CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT and DTORS_PRESENT need an executable") {
    // OpenCL 3.0, clGetProgramInfo: CL_INVALID_PROGRAM_EXECUTABLE "if
    // param_name is CL_PROGRAM_NUM_KERNELS, CL_PROGRAM_KERNEL_NAMES,
    // CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, or
    // CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT and a successful program
    // executable has not been built for at least one device".
    Fixture f;
    ProgramPtr program = create_program(f.ctx(), three_kernels);
    cl_bool present = CL_TRUE;
    CHECK_CL(clGetProgramInfo(program.get(), CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT, sizeof present,
                              &present, nullptr),
             CL_INVALID_PROGRAM_EXECUTABLE);
    CHECK_CL(clGetProgramInfo(program.get(), CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT, sizeof present,
                              &present, nullptr),
             CL_INVALID_PROGRAM_EXECUTABLE);
    build(program.get(), f.device);
    CHECK(program_info<cl_bool>(program.get(), CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT) == CL_FALSE);
    CHECK(program_info<cl_bool>(program.get(), CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT) == CL_FALSE);
}

TEST_CASE("clBuildProgram of a program made by clLinkProgram is CL_INVALID_OPERATION") {
    // OpenCL 3.0, clBuildProgram: CL_INVALID_OPERATION "if program was not
    // created with clCreateProgramWithSource, clCreateProgramWithIL or
    // clCreateProgramWithBinary".
    Fixture f;
    ProgramPtr helper = create_program(f.ctx(), helper_source);
    ProgramPtr user = create_program(f.ctx(), user_source);
    compile(f, helper.get());
    compile(f, user.get());
    ProgramPtr linked = link(f, {helper.get(), user.get()});
    CHECK_CL(clBuildProgram(linked.get(), 1, &f.device, nullptr, nullptr, nullptr),
             CL_INVALID_OPERATION);
    // The linked executable is still there.
    const std::vector<int> in = iota_vector(12, 0);
    CHECK(run_in_out(f, linked.get(), "use_helper", in) == host_map(in, helper_reference));
}
