// Pipe entry points: clCreatePipe, clGetPipeInfo. No usmcl device supports
// pipes (CL_DEVICE_PIPE_SUPPORT is CL_FALSE), so no pipe object exists.
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "core/context.hpp"

namespace usmcl::api {

cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags flags, cl_uint pipe_packet_size,
                                cl_uint pipe_max_packets, const cl_pipe_properties* properties,
                                cl_int* errcode_ret) {
    return guarded_create<cl_mem>(__func__, errcode_ret, [&]() -> Result<cl_mem> {
        (void)flags, (void)pipe_packet_size, (void)pipe_max_packets, (void)properties;
        if (!core::Context::from_handle(context))
            return Status(CL_INVALID_CONTEXT, "not a context");
        // CL_INVALID_OPERATION if no device in context supports pipes.
        return Status(CL_INVALID_OPERATION, "no device of the context supports pipes");
    });
}

cl_int CL_API_CALL clGetPipeInfo(cl_mem pipe, cl_pipe_info param_name, size_t param_value_size,
                                 void* param_value, size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        (void)pipe, (void)param_name, (void)param_value_size, (void)param_value,
            (void)param_value_size_ret;
        // CL_INVALID_MEM_OBJECT if pipe is not a valid pipe object: no
        // device supports pipes, so none is.
        return {CL_INVALID_MEM_OBJECT, "not a pipe (no device supports pipes)"};
    });
}

} // namespace usmcl::api
