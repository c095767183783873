// Programs from source: clCreateProgramWithSource (strings, lengths,
// errors), clBuildProgram with and without options, invalid options, a build
// failure and Clang's diagnostic in the build log, the build and program
// queries before and after a build and those that need an executable.
#include "program_test.hpp"

#include <atomic>
#include <cstdint>

using namespace program_test;

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
