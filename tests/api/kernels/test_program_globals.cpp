// Program-scope __global variables (OpenCL C 3.0 with
// __opencl_c_program_scope_global_variables): initial values, values that
// persist from one launch to the next, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE,
// the device's limits, and one copy per device of a program built for two
// sub-devices.
#include "kernel_test.hpp"

using namespace cl_test;
using namespace kernel_test;

namespace {

// 4 (value) + 4 (start) + 1024 (table) + 8 (counter, a static in a function)
// bytes of __global variables.
const char* const source = R"CLC(
global int value;
global int start = 7;
global float table[256] = {1.0f, 2.0f};

kernel void set(int v) { value = v; table[255] = (float)v; }

kernel void get(global int* out) {
    static global long counter = 100;
    out[0] = value;
    out[1] = start;
    out[2] = (int)table[0] + (int)table[1] + (int)table[255];
    out[3] = (int)counter++;
}
)CLC";

constexpr size_t globals_bytes = 4 + 4 + 1024 + 8;

std::vector<cl_int> get_values(cl_context context, cl_command_queue queue, cl_program program) {
    KernelPtr get = make_kernel(program, "get");
    MemPtr out = make_buffer<cl_int>(context, 4);
    set_arg(get.get(), 0, out);
    run_1d(queue, get.get(), 1);
    return read_buffer<cl_int>(queue, out.get(), 4);
}

void set_value(cl_command_queue queue, cl_program program, cl_int v) {
    KernelPtr set = make_kernel(program, "set");
    set_arg(set.get(), 0, v);
    run_1d(queue, set.get(), 1);
}

} // namespace

TEST_CASE("the device reports program-scope globals with real limits", "[kernels][globals]") {
    const cl_device_id device = cl_test::device();
    size_t max_size = 0;
    REQUIRE_OK(clGetDeviceInfo(device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof max_size,
                               &max_size, nullptr));
    REQUIRE(max_size >= 64 * 1024); // the full profile's minimum
    size_t preferred = 0;
    REQUIRE_OK(clGetDeviceInfo(device, CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE,
                               sizeof preferred, &preferred, nullptr));
    REQUIRE(preferred > 0);
    size_t size = 0;
    REQUIRE_OK(clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, 0, nullptr, &size));
    std::vector<cl_name_version> features(size / sizeof(cl_name_version));
    REQUIRE_OK(
        clGetDeviceInfo(device, CL_DEVICE_OPENCL_C_FEATURES, size, features.data(), nullptr));
    bool listed = false;
    for (const cl_name_version& feature : features)
        listed |= std::string(feature.name) == "__opencl_c_program_scope_global_variables";
    REQUIRE(listed);
}

TEST_CASE("program-scope globals start initialized and keep their values between launches",
          "[kernels][globals]") {
    Fixture f;
    ProgramPtr program = f.build(source, "-cl-std=CL3.0");
    REQUIRE(build_info<size_t>(program.get(), f.device,
                               CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE) == globals_bytes);

    std::vector<cl_int> got = get_values(f.ctx(), f.q(), program.get());
    REQUIRE(got == std::vector<cl_int>{0, 7, 3, 100});
    set_value(f.q(), program.get(), 42);
    got = get_values(f.ctx(), f.q(), program.get());
    REQUIRE(got == std::vector<cl_int>{42, 7, 3 + 42, 101});

    // A second program from the same source has variables of its own.
    ProgramPtr other = f.build(source, "-cl-std=CL3.0");
    got = get_values(f.ctx(), f.q(), other.get());
    REQUIRE(got == std::vector<cl_int>{0, 7, 3, 100});
    got = get_values(f.ctx(), f.q(), program.get());
    REQUIRE(got == std::vector<cl_int>{42, 7, 3 + 42, 102});
}

TEST_CASE("the total size of program-scope globals follows the build", "[kernels][globals]") {
    Fixture f;
    ProgramPtr unbuilt = create_program(f.ctx(), source);
    REQUIRE(build_info<size_t>(unbuilt.get(), f.device,
                               CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE) == 0);
    ProgramPtr none = f.build("kernel void k(global int* p) { *p = 1; }", "-cl-std=CL3.0");
    REQUIRE(build_info<size_t>(none.get(), f.device, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE) ==
            0);
    // Constant-space variables are not __global variables.
    ProgramPtr constants = f.build("constant int c[64] = {1};\n"
                                   "kernel void k(global int* p) { *p = c[0]; }",
                                   "-cl-std=CL3.0");
    REQUIRE(build_info<size_t>(constants.get(), f.device,
                               CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE) == 0);
}

TEST_CASE("OpenCL C 1.2 has no program-scope __global variables", "[kernels][globals]") {
    Fixture f;
    ProgramPtr program = create_program(f.ctx(), source);
    REQUIRE(clBuildProgram(program.get(), 1, &f.device, "-cl-std=CL1.2", nullptr, nullptr) ==
            CL_BUILD_PROGRAM_FAILURE);
    REQUIRE(build_status(program.get(), f.device) == CL_BUILD_ERROR);
    REQUIRE(build_log(program.get(), f.device).find("error") != std::string::npos);
}

TEST_CASE("each device of a program has its own program-scope globals", "[kernels][globals]") {
    const cl_device_id root = cl_test::device();
    const cl_device_partition_property properties[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    cl_uint count = 0;
    if (clCreateSubDevices(root, properties, 0, nullptr, &count) != CL_SUCCESS || count < 2) {
        WARN("fewer than 2 compute units: no two sub-devices to compare");
        return;
    }
    std::vector<cl_device_id> subs(count);
    REQUIRE_OK(clCreateSubDevices(root, properties, count, subs.data(), nullptr));
    {
        const std::vector<cl_device_id> pair = {subs[0], subs[1]};
        cl_test::ContextPtr context = cl_test::make_context(pair);
        QueuePtr first = make_queue(context.get(), pair[0]);
        QueuePtr second = make_queue(context.get(), pair[1]);
        ProgramPtr program = create_program(context.get(), source);
        REQUIRE_OK(
            clBuildProgram(program.get(), 2, pair.data(), "-cl-std=CL3.0", nullptr, nullptr));
        for (cl_device_id device : pair)
            REQUIRE(build_info<size_t>(program.get(), device,
                                       CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE) ==
                    globals_bytes);
        set_value(first.get(), program.get(), 11);
        set_value(second.get(), program.get(), 22);
        REQUIRE(get_values(context.get(), first.get(), program.get()) ==
                std::vector<cl_int>{11, 7, 3 + 11, 100});
        REQUIRE(get_values(context.get(), second.get(), program.get()) ==
                std::vector<cl_int>{22, 7, 3 + 22, 100});
    }
    for (cl_device_id sub : subs)
        REQUIRE_OK(clReleaseDevice(sub));
}

// CTS basic progvar_prog_scope_misc (issue 18): a variable of
// CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE bytes (gigabytes: beyond the reach of
// the JIT image's 32-bit fixups) links, runs and keeps what was written.
TEST_CASE("a program-scope variable of the device's maximum size builds and runs",
          "[kernels][globals]") {
    Fixture f;
    size_t max_size = 0;
    REQUIRE_OK(clGetDeviceInfo(f.device, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, sizeof max_size,
                               &max_size, nullptr));
    const std::string source = "uchar var[" + std::to_string(max_size) +
                               "];\n"
                               "kernel void writer(global const uchar* src) {\n"
                               "    var[get_global_id(0)] = src[get_global_id(0) - "
                               "get_global_offset(0)];\n"
                               "}\n"
                               "kernel void reader(global uchar* dst) {\n"
                               "    dst[get_global_id(0) - get_global_offset(0)] = "
                               "var[get_global_id(0)];\n"
                               "}\n";
    ProgramPtr program = f.build(source, "-cl-std=CL3.0");
    REQUIRE(build_info<size_t>(program.get(), f.device,
                               CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE) >= max_size);
    KernelPtr writer = make_kernel(program.get(), "writer");
    KernelPtr reader = make_kernel(program.get(), "reader");
    constexpr size_t chunk = 64 * 1024;
    const size_t offsets[] = {0, max_size / 2 + 1, max_size - chunk};
    for (size_t offset : offsets) {
        std::vector<cl_uchar> data(chunk);
        for (size_t i = 0; i < chunk; ++i)
            data[i] = static_cast<cl_uchar>(i * 13 + offset % 251);
        MemPtr src = make_buffer<cl_uchar>(f.ctx(), data);
        set_arg(writer.get(), 0, src);
        run(f.q(), writer.get(), 1, &chunk, nullptr, &offset);
    }
    for (size_t offset : offsets) {
        std::vector<cl_uchar> expected(chunk);
        for (size_t i = 0; i < chunk; ++i)
            expected[i] = static_cast<cl_uchar>(i * 13 + offset % 251);
        MemPtr dst = make_buffer<cl_uchar>(f.ctx(), chunk);
        set_arg(reader.get(), 0, dst);
        run(f.q(), reader.get(), 1, &chunk, nullptr, &offset);
        INFO("offset " << offset);
        REQUIRE(read_buffer<cl_uchar>(f.q(), dst.get(), chunk) == expected);
    }
}
