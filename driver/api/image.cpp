// Image and sampler entry points. Images are optional in OpenCL 3.0 and the
// usmcl device reports CL_DEVICE_IMAGE_SUPPORT = CL_FALSE, so each entry
// point checks its arguments and gives the spec's answer for a context
// whose devices support no images: image and sampler creation fail with
// CL_INVALID_OPERATION, no image format is supported, and since no image or
// sampler can exist, every image or sampler argument is invalid.
#include "api/boundary.hpp"
#include "api/enqueue_common.hpp"
#include "api/entrypoints.hpp"

namespace usmcl::api {
namespace {

// CL_INVALID_CONTEXT, then CL_INVALID_OPERATION: no device of the context
// supports images.
Status refuse_image_creation(cl_context context) {
    USMCL_CHECK(core::Context::from_handle(context), CL_INVALID_CONTEXT, "not a context");
    return {CL_INVALID_OPERATION, "no device of the context supports images"};
}

// CL_INVALID_COMMAND_QUEUE, the wait list's errors, then
// CL_INVALID_MEM_OBJECT for the image (none can exist).
Status refuse_image_command(cl_command_queue command_queue, cl_uint num_events,
                            const cl_event* wait_list) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    return {CL_INVALID_MEM_OBJECT, "not an image: the device supports no images"};
}

Status check_sampler_modes(cl_addressing_mode addressing, cl_filter_mode filter) {
    USMCL_CHECK(addressing >= CL_ADDRESS_NONE && addressing <= CL_ADDRESS_MIRRORED_REPEAT,
                CL_INVALID_VALUE, "unknown addressing mode");
    USMCL_CHECK(filter == CL_FILTER_NEAREST || filter == CL_FILTER_LINEAR, CL_INVALID_VALUE,
                "unknown filter mode");
    return {};
}

} // namespace

cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags, const cl_image_format*, size_t,
                                   size_t, size_t, void*, cl_int* errcode_ret) {
    return guarded_create<cl_mem>(
        __func__, errcode_ret, [&]() -> Result<cl_mem> { return refuse_image_creation(context); });
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags, const cl_image_format*, size_t,
                                   size_t, size_t, size_t, size_t, void*, cl_int* errcode_ret) {
    return guarded_create<cl_mem>(
        __func__, errcode_ret, [&]() -> Result<cl_mem> { return refuse_image_creation(context); });
}

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags, const cl_image_format*,
                                 const cl_image_desc*, void*, cl_int* errcode_ret) {
    return guarded_create<cl_mem>(
        __func__, errcode_ret, [&]() -> Result<cl_mem> { return refuse_image_creation(context); });
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties*,
                                               cl_mem_flags, const cl_image_format*,
                                               const cl_image_desc*, void*, cl_int* errcode_ret) {
    return guarded_create<cl_mem>(
        __func__, errcode_ret, [&]() -> Result<cl_mem> { return refuse_image_creation(context); });
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                              cl_mem_object_type image_type, cl_uint num_entries,
                                              cl_image_format* image_formats,
                                              cl_uint* num_image_formats) {
    return guarded(__func__, [&]() -> Status {
        USMCL_CHECK(core::Context::from_handle(context), CL_INVALID_CONTEXT, "not a context");
        USMCL_TRY(check_mem_flags(flags));
        const bool known_type =
            image_type == CL_MEM_OBJECT_IMAGE1D || image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER ||
            image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY || image_type == CL_MEM_OBJECT_IMAGE2D ||
            image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY || image_type == CL_MEM_OBJECT_IMAGE3D;
        USMCL_CHECK(known_type, CL_INVALID_VALUE, "image_type is not an image type");
        USMCL_CHECK(!(num_entries == 0 && image_formats), CL_INVALID_VALUE, "num_entries is 0");
        // No device of the context supports images: no format.
        if (num_image_formats)
            *num_image_formats = 0;
        return {};
    });
}

cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info, size_t, void*, size_t*) {
    return guarded(__func__, [&]() -> Status {
        (void)image;
        return {CL_INVALID_MEM_OBJECT, "not an image: the device supports no images"};
    });
}

cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                       cl_addressing_mode addressing_mode,
                                       cl_filter_mode filter_mode, cl_int* errcode_ret) {
    return guarded_create<cl_sampler>(__func__, errcode_ret, [&]() -> Result<cl_sampler> {
        if (!core::Context::from_handle(context))
            return Status(CL_INVALID_CONTEXT, "not a context");
        if (normalized_coords != CL_TRUE && normalized_coords != CL_FALSE)
            return Status(CL_INVALID_VALUE, "normalized_coords is not a cl_bool");
        const Status modes = check_sampler_modes(addressing_mode, filter_mode);
        if (!modes.ok())
            return modes;
        return Status(CL_INVALID_OPERATION, "no device of the context supports images");
    });
}

cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context,
                                                     const cl_sampler_properties* properties,
                                                     cl_int* errcode_ret) {
    return guarded_create<cl_sampler>(__func__, errcode_ret, [&]() -> Result<cl_sampler> {
        if (!core::Context::from_handle(context))
            return Status(CL_INVALID_CONTEXT, "not a context");
        for (size_t i = 0; properties && properties[i] != 0; i += 2) {
            const cl_sampler_properties name = properties[i];
            if (name != CL_SAMPLER_NORMALIZED_COORDS && name != CL_SAMPLER_ADDRESSING_MODE &&
                name != CL_SAMPLER_FILTER_MODE)
                return Status(CL_INVALID_VALUE, "unknown sampler property");
        }
        return Status(CL_INVALID_OPERATION, "no device of the context supports images");
    });
}

cl_int CL_API_CALL clRetainSampler(cl_sampler) {
    return guarded(__func__, [] { return Status(CL_INVALID_SAMPLER, "no sampler can exist"); });
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler) {
    return guarded(__func__, [] { return Status(CL_INVALID_SAMPLER, "no sampler can exist"); });
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler, cl_sampler_info, size_t, void*, size_t*) {
    return guarded(__func__, [] { return Status(CL_INVALID_SAMPLER, "no sampler can exist"); });
}

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem, cl_bool,
                                      const size_t*, const size_t*, size_t, size_t, void*,
                                      cl_uint num_events, const cl_event* wait_list, cl_event*) {
    return guarded(__func__,
                   [&] { return refuse_image_command(command_queue, num_events, wait_list); });
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem, cl_bool,
                                       const size_t*, const size_t*, size_t, size_t, const void*,
                                       cl_uint num_events, const cl_event* wait_list, cl_event*) {
    return guarded(__func__,
                   [&] { return refuse_image_command(command_queue, num_events, wait_list); });
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem, const void*,
                                      const size_t*, const size_t*, cl_uint num_events,
                                      const cl_event* wait_list, cl_event*) {
    return guarded(__func__,
                   [&] { return refuse_image_command(command_queue, num_events, wait_list); });
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem, cl_mem, const size_t*,
                                      const size_t*, const size_t*, cl_uint num_events,
                                      const cl_event* wait_list, cl_event*) {
    return guarded(__func__,
                   [&] { return refuse_image_command(command_queue, num_events, wait_list); });
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem, cl_mem,
                                              const size_t*, const size_t*, size_t,
                                              cl_uint num_events, const cl_event* wait_list,
                                              cl_event*) {
    return guarded(__func__,
                   [&] { return refuse_image_command(command_queue, num_events, wait_list); });
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem, cl_mem,
                                              size_t, const size_t*, const size_t*,
                                              cl_uint num_events, const cl_event* wait_list,
                                              cl_event*) {
    return guarded(__func__,
                   [&] { return refuse_image_command(command_queue, num_events, wait_list); });
}

void* CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem, cl_bool, cl_map_flags,
                                    const size_t*, const size_t*, size_t*, size_t*,
                                    cl_uint num_events, const cl_event* wait_list, cl_event*,
                                    cl_int* errcode_ret) {
    return guarded_create<void*>(__func__, errcode_ret, [&]() -> Result<void*> {
        return refuse_image_command(command_queue, num_events, wait_list);
    });
}

} // namespace usmcl::api
