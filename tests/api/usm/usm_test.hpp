// Helpers of the USM tests: the extension's functions looked up as
// applications look them up (clGetExtensionFunctionAddressForPlatform), a
// context with one queue, owning handles, program building and bounded
// waits.
#pragma once

#include "cl_test.hpp"

#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace usm_test {

using namespace std::chrono_literals;

// How long a test waits for something that should happen soon before it
// calls it a hang.
constexpr std::chrono::seconds hang_limit{20};

// The functions of cl_intel_unified_shared_memory, with the typedefs of
// CL/cl_ext.h.
struct Usm {
    clHostMemAllocINTEL_fn host_alloc = nullptr;
    clDeviceMemAllocINTEL_fn device_alloc = nullptr;
    clSharedMemAllocINTEL_fn shared_alloc = nullptr;
    clMemFreeINTEL_fn free = nullptr;
    clMemBlockingFreeINTEL_fn blocking_free = nullptr;
    clGetMemAllocInfoINTEL_fn alloc_info = nullptr;
    clSetKernelArgMemPointerINTEL_fn set_arg_pointer = nullptr;
    clEnqueueMemFillINTEL_fn fill = nullptr;
    clEnqueueMemcpyINTEL_fn memcpy = nullptr;
    clEnqueueMigrateMemINTEL_fn migrate = nullptr;
    clEnqueueMemAdviseINTEL_fn advise = nullptr;
    clEnqueueMemsetINTEL_fn memset = nullptr;
};

template <class F>
F lookup(cl_platform_id platform, const char* name) {
    void* address = clGetExtensionFunctionAddressForPlatform(platform, name);
    INFO(name);
    REQUIRE(address != nullptr);
    return reinterpret_cast<F>(address);
}

inline Usm load_usm(cl_platform_id platform) {
    Usm usm;
    usm.host_alloc = lookup<clHostMemAllocINTEL_fn>(platform, "clHostMemAllocINTEL");
    usm.device_alloc = lookup<clDeviceMemAllocINTEL_fn>(platform, "clDeviceMemAllocINTEL");
    usm.shared_alloc = lookup<clSharedMemAllocINTEL_fn>(platform, "clSharedMemAllocINTEL");
    usm.free = lookup<clMemFreeINTEL_fn>(platform, "clMemFreeINTEL");
    usm.blocking_free = lookup<clMemBlockingFreeINTEL_fn>(platform, "clMemBlockingFreeINTEL");
    usm.alloc_info = lookup<clGetMemAllocInfoINTEL_fn>(platform, "clGetMemAllocInfoINTEL");
    usm.set_arg_pointer =
        lookup<clSetKernelArgMemPointerINTEL_fn>(platform, "clSetKernelArgMemPointerINTEL");
    usm.fill = lookup<clEnqueueMemFillINTEL_fn>(platform, "clEnqueueMemFillINTEL");
    usm.memcpy = lookup<clEnqueueMemcpyINTEL_fn>(platform, "clEnqueueMemcpyINTEL");
    usm.migrate = lookup<clEnqueueMigrateMemINTEL_fn>(platform, "clEnqueueMigrateMemINTEL");
    usm.advise = lookup<clEnqueueMemAdviseINTEL_fn>(platform, "clEnqueueMemAdviseINTEL");
    usm.memset = lookup<clEnqueueMemsetINTEL_fn>(platform, "clEnqueueMemsetINTEL");
    return usm;
}

struct QueueReleaser {
    void operator()(cl_command_queue queue) const { clReleaseCommandQueue(queue); }
};
using QueuePtr = std::unique_ptr<std::remove_pointer_t<cl_command_queue>, QueueReleaser>;

struct EventReleaser {
    void operator()(cl_event event) const { clReleaseEvent(event); }
};
using EventPtr = std::unique_ptr<std::remove_pointer_t<cl_event>, EventReleaser>;

struct MemReleaser {
    void operator()(cl_mem mem) const { clReleaseMemObject(mem); }
};
using MemPtr = std::unique_ptr<std::remove_pointer_t<cl_mem>, MemReleaser>;

struct ProgramReleaser {
    void operator()(cl_program program) const { clReleaseProgram(program); }
};
using ProgramPtr = std::unique_ptr<std::remove_pointer_t<cl_program>, ProgramReleaser>;

struct KernelReleaser {
    void operator()(cl_kernel kernel) const { clReleaseKernel(kernel); }
};
using KernelPtr = std::unique_ptr<std::remove_pointer_t<cl_kernel>, KernelReleaser>;

inline QueuePtr make_queue(cl_context context, cl_device_id device,
                           cl_command_queue_properties properties = 0) {
    const cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, properties, 0};
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_command_queue queue =
        clCreateCommandQueueWithProperties(context, device, properties ? list : nullptr, &error);
    REQUIRE_OK(error);
    REQUIRE(queue != nullptr);
    return QueuePtr(queue);
}

inline EventPtr make_user_event(cl_context context) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_event event = clCreateUserEvent(context, &error);
    REQUIRE_OK(error);
    REQUIRE(event != nullptr);
    return EventPtr(event);
}

// Builds source for device; fails the test with the build log otherwise.
inline ProgramPtr build_program(cl_context context, cl_device_id device, const std::string& source,
                                const char* options = "") {
    const char* text = source.c_str();
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &error);
    REQUIRE_OK(error);
    ProgramPtr owned(program);
    const cl_int built = clBuildProgram(program, 1, &device, options, nullptr, nullptr);
    if (built != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        INFO("build log:\n" << log);
        REQUIRE_CL(built, CL_SUCCESS);
    }
    return owned;
}

inline KernelPtr make_kernel(cl_program program, const char* name) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_kernel kernel = clCreateKernel(program, name, &error);
    INFO(name);
    REQUIRE_OK(error);
    REQUIRE(kernel != nullptr);
    return KernelPtr(kernel);
}

// The execution status of event.
inline cl_int event_status(cl_event event) {
    cl_int status = CL_QUEUED;
    REQUIRE_OK(
        clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
    return status;
}

// Waits (polling) until event is complete or failed; false after hang_limit.
inline bool wait_bounded(cl_event event) {
    const auto deadline = std::chrono::steady_clock::now() + hang_limit;
    while (event_status(event) > CL_COMPLETE) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(1ms);
    }
    return true;
}

// A context on the root device with one in-order queue, and the USM
// functions.
struct Fixture {
    cl_platform_id platform = cl_test::platform();
    cl_device_id device = cl_test::device();
    cl_test::ContextPtr context = cl_test::make_context({device});
    QueuePtr queue = make_queue(context.get(), device);
    Usm usm = load_usm(platform);

    cl_context ctx() const { return context.get(); }
    cl_command_queue q() const { return queue.get(); }

    // Allocations that must succeed (freed by the caller with usm.free).
    void* host(size_t size, cl_uint alignment = 0) const {
        cl_int error = CL_OUT_OF_RESOURCES;
        void* p = usm.host_alloc(ctx(), nullptr, size, alignment, &error);
        REQUIRE_OK(error);
        REQUIRE(p != nullptr);
        return p;
    }
    void* dev(size_t size, cl_uint alignment = 0) const {
        cl_int error = CL_OUT_OF_RESOURCES;
        void* p = usm.device_alloc(ctx(), device, nullptr, size, alignment, &error);
        REQUIRE_OK(error);
        REQUIRE(p != nullptr);
        return p;
    }
    void* shared(size_t size, cl_uint alignment = 0, cl_device_id on = nullptr) const {
        cl_int error = CL_OUT_OF_RESOURCES;
        void* p = usm.shared_alloc(ctx(), on, nullptr, size, alignment, &error);
        REQUIRE_OK(error);
        REQUIRE(p != nullptr);
        return p;
    }
};

} // namespace usm_test
