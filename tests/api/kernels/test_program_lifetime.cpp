// Programs and their kernels over time: kernels need an executable, unknown
// kernel names, program and kernel reference counts, and the pfn_notify
// callbacks of clBuildProgram, clCompileProgram and clLinkProgram.
#include "program_test.hpp"

#include <atomic>
#include <cstdint>

using namespace program_test;

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

    // No device supports program clean-up kernels, so no release callback
    // can be registered (OpenCL 3.0: CL_INVALID_OPERATION).
    auto notify = [](cl_program, void*) {};
    CHECK_CL(clSetProgramReleaseCallback(p, notify, nullptr), CL_INVALID_OPERATION);
    CHECK_CL(clSetProgramReleaseCallback(nullptr, notify, nullptr), CL_INVALID_PROGRAM);
    CHECK(program_info<cl_bool>(p, CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT) == CL_FALSE);
    CHECK(program_info<cl_bool>(p, CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT) == CL_FALSE);

    // The kernel keeps its program alive after the application's last release.
    program.release();
    REQUIRE_OK(clReleaseProgram(p));
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
    // Releasing the kernel destroys the program: its handle is stale.
    kernel.reset();
    CHECK_CL(clRetainProgram(p), CL_INVALID_PROGRAM);
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

// CTS compiler compile_and_link_status_options_log (issue 18): polled right
// after an asynchronous clCompileProgram or clBuildProgram returns, the
// status was CL_BUILD_NONE (the build thread had not started) and the CTS
// took it for a failure. It must be in progress or done.
TEST_CASE("right after an asynchronous build returns, its status is in progress or done") {
    Fixture f;
    // 256 kernels declared and called from one: the CTS's program.
    std::string source;
    for (int i = 0; i < 256; ++i)
        source += "extern kernel void CopyBuffer" + std::to_string(i) +
                  "(global float* src, global float* dst);\n";
    source += "kernel void CompositeKernel(global float* src, global float* dst) {\n";
    for (int i = 0; i < 256; ++i)
        source += "    CopyBuffer" + std::to_string(i) + "(src, dst);\n";
    source += "}\n";
    for (bool compile_only : {true, false}) {
        INFO((compile_only ? "clCompileProgram" : "clBuildProgram"));
        Notified notified;
        notified.device = f.device;
        ProgramPtr program = create_program(f.ctx(), compile_only ? source : three_kernels);
        if (compile_only)
            REQUIRE_OK(clCompileProgram(program.get(), 1, &f.device, nullptr, 0, nullptr, nullptr,
                                        record_notify, &notified));
        else
            REQUIRE_OK(clBuildProgram(program.get(), 1, &f.device, "-DFACTOR=2", record_notify,
                                      &notified));
        const cl_build_status status = build_status(program.get(), f.device);
        CHECK((status == CL_BUILD_IN_PROGRESS || status == CL_BUILD_SUCCESS));
        REQUIRE(wait_for_count(notified.calls, 1));
        CHECK(notified.status.load() == CL_BUILD_SUCCESS);
        CHECK(build_status(program.get(), f.device) == CL_BUILD_SUCCESS);
    }
}
