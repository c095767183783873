// Object lifetimes as the spec has them, found by real clients: a command
// keeps its kernel, program and memory objects alive until it completes
// whatever the application releases (pyopencl released kernels of queued
// NDRanges), clSetKernelArg does not retain a memory object (the CTS's
// retain_mem_object_set_kernel_arg waits for the destructor callback while
// the kernel lives), and a stale handle is rejected without reading freed
// memory (ASan sees any such read).
#include "kernel_test.hpp"

#include <atomic>
#include <numeric>
#include <vector>

using namespace kernel_test;

namespace {

const char* const square_source = R"CLC(
__kernel void square(__global const int* in, __global int* out) {
    size_t i = get_global_id(0);
    out[i] = in[i] * in[i];
}
)CLC";

std::vector<int> squares(const std::vector<int>& in) {
    std::vector<int> out(in.size());
    for (size_t i = 0; i < in.size(); ++i)
        out[i] = in[i] * in[i];
    return out;
}

void CL_CALLBACK count_destruction(cl_mem, void* user_data) {
    static_cast<std::atomic<int>*>(user_data)->fetch_add(1);
}

} // namespace

TEST_CASE("a queued NDRange keeps its kernel, program and buffers alive") {
    Fixture f;
    std::vector<int> in(4096);
    std::iota(in.begin(), in.end(), -2048);
    MemPtr output = make_buffer<int>(f.ctx(), in.size());
    EventPtr gate = make_user_event(f.ctx());
    cl_event gate_event = gate.get();
    cl_event done = nullptr;
    {
        ProgramPtr program = build_program(f.ctx(), f.device, square_source);
        KernelPtr kernel = make_kernel(program.get(), "square");
        MemPtr input = make_buffer(f.ctx(), in);
        set_arg(kernel.get(), 0, input);
        set_arg(kernel.get(), 1, output);
        const size_t global = in.size();
        REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), kernel.get(), 1, nullptr, &global, nullptr, 1,
                                          &gate_event, &done));
        // The application lets go of everything but the output here.
    }
    EventPtr done_owner(done);
    // Other programs come and go meanwhile (their code may take the freed
    // program's place).
    for (int round = 0; round < 3; ++round) {
        ProgramPtr other = build_program(f.ctx(), f.device, square_source);
        KernelPtr kernel = make_kernel(other.get(), "square");
    }
    CHECK(event_status(done) >= CL_SUBMITTED);
    REQUIRE_OK(clSetUserEventStatus(gate_event, CL_COMPLETE));
    REQUIRE(wait_bounded(done));
    CHECK(event_status(done) == CL_COMPLETE);
    CHECK(read_buffer<int>(f.q(), output.get(), in.size()) == squares(in));
}

TEST_CASE("clSetKernelArg does not retain a memory object") {
    Fixture f;
    ProgramPtr program = build_program(f.ctx(), f.device, square_source);
    KernelPtr kernel = make_kernel(program.get(), "square");
    const std::vector<int> in{1, -2, 3, -4, 5, -6, 7, -8};
    std::atomic<int> destroyed{0};
    cl_mem input = nullptr;
    {
        MemPtr owned = make_buffer(f.ctx(), in);
        input = owned.get();
        REQUIRE_OK(clSetMemObjectDestructorCallback(input, count_destruction, &destroyed));
        set_arg(kernel.get(), 0, owned);
    }
    // The application's release frees the buffer: its callback runs while
    // the kernel still names it.
    CHECK(wait_for_count(destroyed, 1));
    // An enqueue with the released buffer as argument is refused, and the
    // kernel works again once the argument is set anew.
    MemPtr output = make_buffer<int>(f.ctx(), in.size());
    set_arg(kernel.get(), 1, output);
    const size_t global = in.size();
    CHECK_CL(clEnqueueNDRangeKernel(f.q(), kernel.get(), 1, nullptr, &global, nullptr, 0, nullptr,
                                    nullptr),
             CL_INVALID_KERNEL_ARGS);
    // Another buffer may now live at the released one's address; the kernel
    // still does not take it for its argument.
    MemPtr other = make_buffer(f.ctx(), in);
    CHECK_CL(clEnqueueNDRangeKernel(f.q(), kernel.get(), 1, nullptr, &global, nullptr, 0, nullptr,
                                    nullptr),
             CL_INVALID_KERNEL_ARGS);
    set_arg(kernel.get(), 0, other);
    run_1d(f.q(), kernel.get(), global);
    CHECK(read_buffer<int>(f.q(), output.get(), in.size()) == squares(in));

    SECTION("a command holds its arguments until it completes") {
        EventPtr gate = make_user_event(f.ctx());
        cl_event gate_event = gate.get();
        std::atomic<int> freed{0};
        MemPtr input2 = make_buffer(f.ctx(), in);
        REQUIRE_OK(clSetMemObjectDestructorCallback(input2.get(), count_destruction, &freed));
        set_arg(kernel.get(), 0, input2);
        MemPtr output2 = make_buffer<int>(f.ctx(), in.size());
        set_arg(kernel.get(), 1, output2);
        cl_event done = nullptr;
        REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), kernel.get(), 1, nullptr, &global, nullptr, 1,
                                          &gate_event, &done));
        EventPtr done_owner(done);
        input2.reset();
        std::this_thread::sleep_for(20ms);
        CHECK(freed.load() == 0);
        REQUIRE_OK(clSetUserEventStatus(gate_event, CL_COMPLETE));
        REQUIRE(wait_bounded(done));
        CHECK(wait_for_count(freed, 1));
        CHECK(read_buffer<int>(f.q(), output2.get(), in.size()) == squares(in));
    }
}

TEST_CASE("stale handles are rejected without reading freed memory") {
    Fixture f;
    cl_int error = CL_SUCCESS;
    cl_mem buffer = clCreateBuffer(f.ctx(), CL_MEM_READ_WRITE, 64, nullptr, &error);
    REQUIRE_OK(error);
    REQUIRE_OK(clReleaseMemObject(buffer));
    size_t size = 0;
    CHECK_CL(clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof size, &size, nullptr),
             CL_INVALID_MEM_OBJECT);
    CHECK_CL(clReleaseMemObject(buffer), CL_INVALID_MEM_OBJECT);

    ProgramPtr program = build_program(f.ctx(), f.device, square_source);
    cl_kernel kernel = clCreateKernel(program.get(), "square", &error);
    REQUIRE_OK(error);
    REQUIRE_OK(clReleaseKernel(kernel));
    CHECK_CL(clRetainKernel(kernel), CL_INVALID_KERNEL);
    CHECK_CL(clSetKernelArg(kernel, 0, sizeof buffer, &buffer), CL_INVALID_KERNEL);

    cl_event user = clCreateUserEvent(f.ctx(), &error);
    REQUIRE_OK(error);
    REQUIRE_OK(clSetUserEventStatus(user, CL_COMPLETE));
    REQUIRE_OK(clReleaseEvent(user));
    CHECK_CL(clWaitForEvents(1, &user), CL_INVALID_EVENT);
}
