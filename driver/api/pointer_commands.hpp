// Commands on pointers, shared by the USM (clEnqueueMemFillINTEL,
// clEnqueueMemcpyINTEL) and SVM (clEnqueueSVMMemFill, clEnqueueSVMMemcpy)
// entry points: the same checks and work under the caller's command type.
#pragma once

#include "api/enqueue_common.hpp"

#include <span>

namespace usmcl::api {

// Fills [dst_ptr, dst_ptr + size) with a pattern of pattern_size bytes.
Status enqueue_pointer_fill(cl_command_queue command_queue, cl_command_type type, void* dst_ptr,
                            const void* pattern, size_t pattern_size, size_t size,
                            cl_uint num_events, const cl_event* wait_list, cl_event* event);

// Copies size bytes from src_ptr to dst_ptr (CL_MEM_COPY_OVERLAP if the
// ranges overlap).
Status enqueue_pointer_copy(cl_command_queue command_queue, cl_command_type type, cl_bool blocking,
                            void* dst_ptr, const void* src_ptr, size_t size, cl_uint num_events,
                            const cl_event* wait_list, cl_event* event);

} // namespace usmcl::api
