// clEnqueueNDRangeKernel, clEnqueueTask and the local size a launch would
// get (clGetKernelSuggestedLocalWorkSizeKHR).
#include "api/boundary.hpp"
#include "api/enqueue_common.hpp"
#include "api/entrypoints.hpp"
#include "core/kernel.hpp"
#include "core/ndrange.hpp"

namespace usmcl::api {
namespace {

Status enqueue_ndrange(cl_command_queue command_queue, cl_kernel kernel_handle,
                       const core::NDRangeRequest& request, cl_uint num_events,
                       const cl_event* wait_list, cl_event* event, cl_command_type type) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    core::CommandQueue& queue = *target->queue;
    core::Kernel* kernel = core::Kernel::from_handle(kernel_handle);
    USMCL_CHECK(kernel, CL_INVALID_KERNEL, "not a kernel");
    USMCL_CHECK(&kernel->program().context() == &queue.context(), CL_INVALID_CONTEXT,
                "the kernel is of another context");
    USMCL_CHECK(kernel->program().executable_for(queue.device()), CL_INVALID_PROGRAM_EXECUTABLE,
                "the program is not built for the queue's device");
    Result<core::Event*> result =
        core::enqueue_kernel(queue, *kernel, request, target->wait_list, type);
    USMCL_TRY(result.status());
    hand_out(result.value(), event);
    return {};
}

} // namespace

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                                          cl_uint work_dim, const size_t* global_work_offset,
                                          const size_t* global_work_size,
                                          const size_t* local_work_size,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return enqueue_ndrange(command_queue, kernel,
                               {work_dim, global_work_offset, global_work_size, local_work_size},
                               num_events_in_wait_list, event_wait_list, event,
                               CL_COMMAND_NDRANGE_KERNEL);
    });
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                 cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                 cl_event* event) {
    return guarded(__func__, [&] {
        static constexpr size_t one = 1;
        return enqueue_ndrange(command_queue, kernel, {1, nullptr, &one, &one},
                               num_events_in_wait_list, event_wait_list, event, CL_COMMAND_TASK);
    });
}

cl_int CL_API_CALL clGetKernelSuggestedLocalWorkSizeKHR(cl_command_queue command_queue,
                                                        cl_kernel kernel, cl_uint work_dim,
                                                        const size_t* global_work_offset,
                                                        const size_t* global_work_size,
                                                        size_t* suggested_local_work_size) {
    return guarded(__func__, [&]() -> Status {
        core::CommandQueue* queue = core::CommandQueue::from_handle(command_queue);
        USMCL_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "not a command-queue");
        core::Kernel* object = core::Kernel::from_handle(kernel);
        USMCL_CHECK(object, CL_INVALID_KERNEL, "not a kernel");
        USMCL_CHECK(&object->program().context() == &queue->context(), CL_INVALID_CONTEXT,
                    "the kernel is of another context");
        USMCL_CHECK(object->program().executable_for(queue->device()),
                    CL_INVALID_PROGRAM_EXECUTABLE,
                    "the program is not built for the queue's device");
        USMCL_CHECK(work_dim >= 1 && work_dim <= 3, CL_INVALID_WORK_DIMENSION,
                    "work_dim is not 1, 2 or 3");
        USMCL_CHECK(global_work_size, CL_INVALID_GLOBAL_WORK_SIZE, "global_work_size is NULL");
        for (cl_uint dim = 0; dim < work_dim; ++dim)
            USMCL_CHECK(global_work_size[dim] != 0, CL_INVALID_GLOBAL_WORK_SIZE,
                        "a global work size is 0");
        USMCL_CHECK(suggested_local_work_size, CL_INVALID_VALUE,
                    "suggested_local_work_size is NULL");
        Result<std::array<size_t, 3>> local = core::suggest_local_size(
            *object, queue->device(), {work_dim, global_work_offset, global_work_size, nullptr});
        USMCL_TRY(local.status());
        for (cl_uint dim = 0; dim < work_dim; ++dim)
            suggested_local_work_size[dim] = local.value()[dim];
        return {};
    });
}

} // namespace usmcl::api
