// Checks shared by the image entry points: format descriptors, and the
// origin and region of an image command.
#pragma once

#include "api/boundary.hpp"
#include "core/mem_object.hpp"
#include "core/queue.hpp"

#include <CL/cl.h>

namespace usmcl::api {

// CL_INVALID_IMAGE_FORMAT_DESCRIPTOR if format is NULL, names an unknown
// channel order or data type, or a pair the specification's table of
// channel orders does not allow.
inline Status check_image_format(const cl_image_format* format) {
    USMCL_CHECK(format, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, "image_format is NULL");
    const cl_channel_order order = format->image_channel_order;
    const cl_channel_type type = format->image_channel_data_type;
    const bool known_order = (order >= CL_R && order <= CL_ABGR);
    const bool known_type = type >= CL_SNORM_INT8 && type <= CL_UNORM_INT_101010_2;
    USMCL_CHECK(known_order && known_type, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                "unknown channel order or data type");
    const bool packed = type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 ||
                        type == CL_UNORM_INT_101010 || type == CL_UNORM_INT_101010_2 ||
                        type == CL_UNORM_INT24;
    const bool byte = type == CL_UNORM_INT8 || type == CL_SNORM_INT8 || type == CL_SIGNED_INT8 ||
                      type == CL_UNSIGNED_INT8;
    const bool normalized_or_float = type == CL_UNORM_INT8 || type == CL_UNORM_INT16 ||
                                     type == CL_SNORM_INT8 || type == CL_SNORM_INT16 ||
                                     type == CL_HALF_FLOAT || type == CL_FLOAT;
    bool valid = false;
    switch (order) {
    case CL_RGB:
    case CL_RGBx: valid = packed && type != CL_UNORM_INT24; break;
    case CL_BGRA:
    case CL_ARGB:
    case CL_ABGR: valid = byte; break;
    case CL_INTENSITY:
    case CL_LUMINANCE: valid = normalized_or_float; break;
    case CL_sRGB:
    case CL_sRGBx:
    case CL_sRGBA:
    case CL_sBGRA: valid = type == CL_UNORM_INT8; break;
    case CL_DEPTH: valid = type == CL_UNORM_INT16 || type == CL_FLOAT; break;
    case CL_DEPTH_STENCIL: valid = type == CL_UNORM_INT24 || type == CL_FLOAT; break;
    case CL_RGBA: valid = !packed || type == CL_UNORM_INT_101010_2; break;
    default: valid = !packed; break; // R, A, RG, RA, Rx, RGx
    }
    USMCL_CHECK(valid, CL_INVALID_IMAGE_FORMAT_DESCRIPTOR,
                "the channel order does not allow the data type");
    return {};
}

// An image used by a command of queue: CL_INVALID_MEM_OBJECT if not an
// image, CL_INVALID_CONTEXT if of another context.
inline Result<core::MemObject*> image_for(const core::CommandQueue& queue, cl_mem handle) {
    core::MemObject* mem = core::MemObject::from_handle(handle);
    if (!mem || !mem->image())
        return Status(CL_INVALID_MEM_OBJECT, "not an image");
    if (&mem->context() != &queue.context())
        return Status(CL_INVALID_CONTEXT, "the image is of another context");
    return mem;
}

// origin and region of a command on image, in texels (a 1D array's layer
// in origin[1], a 2D array's in origin[2]): CL_INVALID_VALUE if NULL, out
// of the image, with a 0 in region, or with coordinates the type has not.
inline Status check_image_region(const core::ImageDescription& image, const size_t* origin,
                                 const size_t* region) {
    USMCL_CHECK(origin && region, CL_INVALID_VALUE, "origin or region is NULL");
    USMCL_CHECK(region[0] && region[1] && region[2], CL_INVALID_VALUE, "region has a 0");
    const auto extent = image.extent();
    for (int i = 0; i < 3; ++i) {
        USMCL_CHECK(origin[i] <= extent[i] && region[i] <= extent[i] - origin[i], CL_INVALID_VALUE,
                    "the region is out of the image");
    }
    return {};
}

} // namespace usmcl::api
