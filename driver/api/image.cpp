// Image entry points: clCreateImage, clCreateImageWithProperties,
// clCreateImage2D, clCreateImage3D, clGetSupportedImageFormats,
// clGetImageInfo. The transfer commands are in enqueue_image.cpp, samplers
// in sampler.cpp.
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/image_validate.hpp"
#include "api/info_writer.hpp"
#include "api/mem_validate.hpp"
#include "core/capabilities.hpp"
#include "core/image_format.hpp"
#include "core/mem_object.hpp"

namespace usmcl::api {
namespace {

// The image's flags: a 1D buffer image takes what is not given from its
// buffer, and may not contradict it (CL_INVALID_VALUE).
Result<cl_mem_flags> image_flags(cl_mem_flags flags, const core::MemObject* buffer) {
    if (!buffer)
        return (flags & access_flags) ? flags : (flags | CL_MEM_READ_WRITE);
    if (flags & host_ptr_flags)
        return Status(CL_INVALID_VALUE, "an image of a buffer may not name host pointers");
    return sub_buffer_flags(buffer->flags(), flags);
}

// mem_object: the buffer of a 1D buffer image (null for other types), and
// nothing else (usmcl offers no 2D images of buffers or of other images).
Result<core::MemObject*> buffer_of_image(const core::Context& context, const cl_image_desc& desc) {
    if (desc.image_type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
        core::MemObject* buffer = core::MemObject::from_handle(desc.mem_object);
        if (!buffer || buffer->image() || &buffer->context() != &context)
            return Status(CL_INVALID_IMAGE_DESCRIPTOR, "mem_object is not a buffer of the context");
        return buffer;
    }
    if (desc.mem_object)
        return Status(CL_INVALID_IMAGE_DESCRIPTOR, "mem_object with an image type other than "
                                                   "CL_MEM_OBJECT_IMAGE1D_BUFFER");
    return static_cast<core::MemObject*>(nullptr);
}

// CL_INVALID_IMAGE_SIZE for an image larger than its buffer, or above
// CL_DEVICE_MAX_MEM_ALLOC_SIZE (an image is one allocation).
Status check_image_size(const core::Context& context, const core::ImageDescription& image,
                        const core::HostPitches& pitches, const core::MemObject* buffer) {
    USMCL_CHECK(!buffer || image.width * image.element_size <= buffer->size(),
                CL_INVALID_IMAGE_SIZE, "the image is larger than its buffer");
    const auto extent = image.extent();
    const long double bytes =
        static_cast<long double>(pitches.slice ? pitches.slice : pitches.row) *
        (image.type == CL_MEM_OBJECT_IMAGE2D ? extent[1] : 1) *
        (image.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? extent[1] : 1) * extent[2];
    USMCL_CHECK(bytes <= static_cast<long double>(max_alloc_size(context)), CL_INVALID_IMAGE_SIZE,
                "the image is above CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    return {};
}

Result<cl_mem> create_image(cl_context context, const cl_mem_properties* properties,
                            cl_mem_flags flags, const cl_image_format* format,
                            const cl_image_desc* desc, void* host_ptr) {
    core::Context* object = core::Context::from_handle(context);
    if (!object)
        return Status(CL_INVALID_CONTEXT, "not a context");
    if (!core::capabilities::image_support)
        return Status(CL_INVALID_OPERATION, "no device of the context supports images");
    // No image property is defined by OpenCL 3.0 or an extension usmcl offers.
    std::vector<cl_mem_properties> copy;
    if (properties) {
        if (properties[0] != 0)
            return Status(CL_INVALID_PROPERTY, "unsupported memory property");
        copy.push_back(0);
    }
    if (Status s = check_mem_flags(flags); !s.ok())
        return s;
    if (Status s = check_image_format(format); !s.ok())
        return s;
    if (!desc)
        return Status(CL_INVALID_IMAGE_DESCRIPTOR, "image_desc is NULL");
    // CL_INVALID_OPERATION for a 2D image of a buffer or an image when no
    // device of the context supports it (CL_DEVICE_IMAGE_PITCH_ALIGNMENT is 0).
    if (desc->image_type == CL_MEM_OBJECT_IMAGE2D && desc->mem_object)
        return Status(CL_INVALID_OPERATION, "no device supports 2D images of memory objects");
    // Before the sizes: an unsupported format has no element size.
    if (!core::format_supported(*format))
        return Status(CL_IMAGE_FORMAT_NOT_SUPPORTED, "the image format is not supported");
    Result<core::ImageDescription> described = core::describe_image(*object, *format, *desc);
    if (!described.ok())
        return described.status();
    const core::ImageDescription& image = described.value();
    Result<core::MemObject*> buffer = buffer_of_image(*object, *desc);
    if (!buffer.ok())
        return buffer.status();
    Result<cl_mem_flags> merged = image_flags(flags, buffer.value());
    if (!merged.ok())
        return merged.status();
    // CL_INVALID_HOST_PTR if host_ptr is NULL with USE/COPY_HOST_PTR, or
    // not NULL without them.
    const bool wants_host_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    if (wants_host_ptr != (host_ptr != nullptr))
        return Status(CL_INVALID_HOST_PTR, "host_ptr does not match the flags");
    if (Status s = check_usm_host_ptr(*object, host_ptr,
                                      (flags & CL_MEM_USE_HOST_PTR) ? HostPtrUse::use_host_ptr
                                                                    : HostPtrUse::copy_host_ptr);
        !s.ok())
        return s;
    Result<core::HostPitches> pitches =
        core::image_host_pitches(image, *desc, host_ptr, buffer.value() != nullptr);
    if (!pitches.ok())
        return pitches.status();
    const size_t row_pitch = pitches->row;
    const size_t slice_pitch = pitches->slice;
    if (Status s = check_image_size(*object, image, pitches.value(), buffer.value()); !s.ok())
        return s;
    Result<core::MemObject*> created =
        core::MemObject::create_image(*object, merged.value(), image, host_ptr, row_pitch,
                                      slice_pitch, buffer.value(), std::move(copy));
    if (!created.ok())
        return created.status();
    return created.value()->handle();
}

// The OpenCL 1.1 entry points: their invalid sizes are CL_INVALID_IMAGE_SIZE.
Result<cl_mem> create_legacy_image(cl_context context, cl_mem_flags flags,
                                   const cl_image_format* format, cl_image_desc desc,
                                   void* host_ptr) {
    core::Context* object = core::Context::from_handle(context);
    if (!object)
        return Status(CL_INVALID_CONTEXT, "not a context");
    if (desc.image_width == 0 || desc.image_height == 0 ||
        (desc.image_type == CL_MEM_OBJECT_IMAGE3D && desc.image_depth == 0))
        return Status(CL_INVALID_IMAGE_SIZE, "an image size is 0");
    // clCreateImage3D: a depth of 1 is CL_INVALID_IMAGE_SIZE too (it must be > 1).
    if (desc.image_type == CL_MEM_OBJECT_IMAGE3D && desc.image_depth <= 1)
        return Status(CL_INVALID_IMAGE_SIZE, "image_depth must be above 1");
    return create_image(context, nullptr, flags, format, &desc, host_ptr);
}

Status image_info(const core::MemObject& mem, cl_image_info param, InfoWriter& out) {
    const core::ImageDescription& image = *mem.image();
    const core::MemObject* buffer =
        image.type == CL_MEM_OBJECT_IMAGE1D_BUFFER ? mem.associated() : nullptr;
    switch (param) {
    case CL_IMAGE_FORMAT: return out.scalar<cl_image_format>(image.format);
    case CL_IMAGE_ELEMENT_SIZE: return out.scalar<size_t>(image.element_size);
    case CL_IMAGE_ROW_PITCH: return out.scalar<size_t>(image.row_pitch);
    case CL_IMAGE_SLICE_PITCH:
        return out.scalar<size_t>(image.has_slices() ? image.slice_pitch : 0);
    case CL_IMAGE_WIDTH: return out.scalar<size_t>(image.width);
    case CL_IMAGE_HEIGHT: return out.scalar<size_t>(image.height);
    case CL_IMAGE_DEPTH: return out.scalar<size_t>(image.depth);
    case CL_IMAGE_ARRAY_SIZE: return out.scalar<size_t>(image.array_size);
    case CL_IMAGE_BUFFER:
        return out.scalar<cl_mem>(buffer ? const_cast<core::MemObject*>(buffer)->handle()
                                         : nullptr);
    case CL_IMAGE_NUM_MIP_LEVELS: return out.scalar<cl_uint>(0);
    case CL_IMAGE_NUM_SAMPLES: return out.scalar<cl_uint>(0);
    default: return {CL_INVALID_VALUE, "unknown cl_image_info"};
    }
}

} // namespace

cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags flags,
                                 const cl_image_format* image_format,
                                 const cl_image_desc* image_desc, void* host_ptr,
                                 cl_int* errcode_ret) {
    return guarded_create<cl_mem>(__func__, errcode_ret, [&] {
        return create_image(context, nullptr, flags, image_format, image_desc, host_ptr);
    });
}

cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context,
                                               const cl_mem_properties* properties,
                                               cl_mem_flags flags,
                                               const cl_image_format* image_format,
                                               const cl_image_desc* image_desc, void* host_ptr,
                                               cl_int* errcode_ret) {
    return guarded_create<cl_mem>(__func__, errcode_ret, [&] {
        return create_image(context, properties, flags, image_format, image_desc, host_ptr);
    });
}

cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format* image_format, size_t image_width,
                                   size_t image_height, size_t image_row_pitch, void* host_ptr,
                                   cl_int* errcode_ret) {
    return guarded_create<cl_mem>(__func__, errcode_ret, [&] {
        cl_image_desc desc{};
        desc.image_type = CL_MEM_OBJECT_IMAGE2D;
        desc.image_width = image_width;
        desc.image_height = image_height;
        desc.image_row_pitch = image_row_pitch;
        return create_legacy_image(context, flags, image_format, desc, host_ptr);
    });
}

cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags flags,
                                   const cl_image_format* image_format, size_t image_width,
                                   size_t image_height, size_t image_depth, size_t image_row_pitch,
                                   size_t image_slice_pitch, void* host_ptr, cl_int* errcode_ret) {
    return guarded_create<cl_mem>(__func__, errcode_ret, [&] {
        cl_image_desc desc{};
        desc.image_type = CL_MEM_OBJECT_IMAGE3D;
        desc.image_width = image_width;
        desc.image_height = image_height;
        desc.image_depth = image_depth;
        desc.image_row_pitch = image_row_pitch;
        desc.image_slice_pitch = image_slice_pitch;
        return create_legacy_image(context, flags, image_format, desc, host_ptr);
    });
}

cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags flags,
                                              cl_mem_object_type image_type, cl_uint num_entries,
                                              cl_image_format* image_formats,
                                              cl_uint* num_image_formats) {
    return guarded(__func__, [&]() -> Status {
        USMCL_CHECK(core::Context::from_handle(context), CL_INVALID_CONTEXT, "not a context");
        USMCL_TRY(check_mem_flags(flags));
        USMCL_CHECK(core::known_image_type(image_type), CL_INVALID_VALUE,
                    "image_type is not an image type");
        USMCL_CHECK(!(num_entries == 0 && image_formats), CL_INVALID_VALUE, "num_entries is 0");
        // Every format works with every image type, read, written, or
        // both by one kernel (CL_MEM_KERNEL_READ_AND_WRITE, with read-write
        // image arguments).
        const bool read_and_write = flags & CL_MEM_KERNEL_READ_AND_WRITE;
        const bool offered = core::capabilities::image_support &&
                             (!read_and_write || core::capabilities::read_write_images);
        const auto formats =
            offered ? core::supported_formats() : std::span<const cl_image_format>{};
        if (image_formats)
            for (size_t i = 0; i < formats.size() && i < num_entries; ++i)
                image_formats[i] = formats[i];
        if (num_image_formats)
            *num_image_formats = static_cast<cl_uint>(formats.size());
        return {};
    });
}

cl_int CL_API_CALL clGetImageInfo(cl_mem image, cl_image_info param_name, size_t param_value_size,
                                  void* param_value, size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        core::MemObject* object = core::MemObject::from_handle(image);
        USMCL_CHECK(object && object->image(), CL_INVALID_MEM_OBJECT, "not an image");
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        return image_info(*object, param_name, out);
    });
}

} // namespace usmcl::api
