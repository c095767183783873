// Helpers of the USM tests: the extension's functions looked up as
// applications look them up (clGetExtensionFunctionAddressForPlatform) and a
// context with one queue; owning handles, program building and bounded waits
// come from cl_handles.hpp.
#pragma once

#include "cl_handles.hpp"

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

using cl_test::build_program;
using cl_test::event_status;
using cl_test::EventPtr;
using cl_test::hang_limit;
using cl_test::KernelPtr;
using cl_test::make_kernel;
using cl_test::make_queue;
using cl_test::make_user_event;
using cl_test::MemPtr;
using cl_test::ProgramPtr;
using cl_test::QueuePtr;
using cl_test::wait_bounded;

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
