// Program binaries and separate compilation: CL_PROGRAM_BINARIES back
// through clCreateProgramWithBinary, corrupted binaries, clCompileProgram and
// clLinkProgram (two objects, a header, a library), compile and link errors.
// Every kernel result is compared with a host reference.
#include "program_test.hpp"

#include <atomic>
#include <cstdint>

using namespace program_test;

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
