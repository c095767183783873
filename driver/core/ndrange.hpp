// A kernel launch (clEnqueueNDRangeKernel, clEnqueueTask): the work-item
// space checked against the kernel and the device and completed with a
// local size, the arguments as they are at the enqueue packed for the
// work-group function, and the command that runs it.
#pragma once

#include "core/kernel.hpp"
#include "core/queue.hpp"
#include "core/result.hpp"
#include "runtime/launcher.hpp"

#include <CL/cl.h>

#include <array>
#include <span>

namespace usmcl::core {

// The work-item space as the application gives it. A null global size, like
// a 0 in any dimension, is a command that runs nothing (OpenCL 2.1 and later).
struct NDRangeRequest {
    cl_uint work_dim = 1;
    const size_t* global_offset = nullptr;
    const size_t* global_size = nullptr;
    const size_t* local_size = nullptr;
};

// The work-item space of a launch, the local size chosen when the
// application gives none; empty: no work-item runs.
struct LaunchRange {
    runtime::NDRange range;
    bool empty = false;
};

// Checks request against kernel and device with the spec's error codes
// (CL_INVALID_WORK_DIMENSION, _GLOBAL_OFFSET, _WORK_GROUP_SIZE,
// _WORK_ITEM_SIZE) and completes it.
Result<LaunchRange> resolve_ndrange(const Kernel& kernel, Device& device,
                                    const NDRangeRequest& request);

// The local size a launch of kernel on device over request would get when
// the application gives none (cl_khr_suggested_local_work_size), with the
// errors that launch would have; request.local_size is ignored.
Result<std::array<size_t, 3>> suggest_local_size(const Kernel& kernel, Device& device,
                                                 const NDRangeRequest& request);

// Enqueues kernel on queue over request: the arguments are taken as they
// are now (the memory objects migrate to the queue's domain, USM pointers
// are recorded for clMemBlockingFreeINTEL).
Result<Event*> enqueue_kernel(CommandQueue& queue, Kernel& kernel, const NDRangeRequest& request,
                              std::span<Event* const> wait_list, cl_command_type type);

} // namespace usmcl::core
