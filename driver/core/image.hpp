// The shape of an image memory object: format, type, size and the linear
// layout of its texels (x, then rows, then slices or layers) in its
// storage, which is a buffer's storage like any memory object's.
#pragma once

#include "core/result.hpp"

#include <CL/cl.h>
#include <kc/ImageDescriptor.h>

#include <array>
#include <cstddef>

namespace usmcl::core {

struct ImageDescription {
    cl_image_format format{};
    cl_mem_object_type type = 0;
    // As clGetImageInfo reports them: 0 where the type has no such size.
    size_t width = 0;
    size_t height = 0;
    size_t depth = 0;
    size_t array_size = 0;
    size_t row_pitch = 0;   // bytes between rows (2D, 3D, 2D array)
    size_t slice_pitch = 0; // bytes between slices of a 3D image or layers of an array
    size_t element_size = 0;

    // Bounds of the x, y and z of regions and kernel coordinates (a 1D
    // array's layers are y, a 2D array's z); 1 where the type has none.
    std::array<size_t, 3> extent() const {
        switch (type) {
        case CL_MEM_OBJECT_IMAGE1D_ARRAY: return {width, array_size, 1};
        case CL_MEM_OBJECT_IMAGE2D: return {width, height, 1};
        case CL_MEM_OBJECT_IMAGE2D_ARRAY: return {width, height, array_size};
        case CL_MEM_OBJECT_IMAGE3D: return {width, height, depth};
        default: return {width, 1, 1};
        }
    }
    // Whether the image has slices or layers (a 3D image or an array).
    bool has_slices() const {
        return type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
               type == CL_MEM_OBJECT_IMAGE3D;
    }
    // Bytes from y to y + 1 and from z to z + 1.
    size_t row_step() const {
        return type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slice_pitch : row_pitch;
    }
    size_t slice_step() const { return slice_pitch; }
    // Bytes of the texels of the whole image.
    size_t size() const {
        const auto e = extent();
        return (e[2] - 1) * slice_step() + (e[1] - 1) * row_step() + e[0] * element_size;
    }
    // The byte of texel origin, and one past the last byte of region at origin.
    size_t offset(const size_t* origin) const {
        return origin[2] * slice_step() + origin[1] * row_step() + origin[0] * element_size;
    }
    size_t end(const size_t* origin, const size_t* region) const {
        return (origin[2] + region[2] - 1) * slice_step() +
               (origin[1] + region[1] - 1) * row_step() + (origin[0] + region[0]) * element_size;
    }
};

class Context;

// One of the six image types.
bool known_image_type(cl_mem_object_type type);

// The description of an image of format (supported) and desc in context
// (clCreateImage): CL_INVALID_IMAGE_DESCRIPTOR for values of desc that are
// not valid, CL_INVALID_IMAGE_SIZE for sizes above the context's devices'
// limits. Its pitches are left to image_host_pitches and the storage.
Result<ImageDescription> describe_image(const Context& context, const cl_image_format& format,
                                        const cl_image_desc& desc);

// The pitches of an image's host_ptr (packed where desc gives 0):
// CL_INVALID_IMAGE_DESCRIPTOR when they are given without host_ptr, too
// small, or not multiples. An image of a buffer (of_buffer) may name its
// row pitch without host_ptr, as the CTS and other drivers do: a 1D buffer
// image has one row, so only the size rules apply.
struct HostPitches {
    size_t row = 0;
    size_t slice = 0; // 0 for an image without slices
};
Result<HostPitches> image_host_pitches(const ImageDescription& image, const cl_image_desc& desc,
                                       const void* host_ptr, bool of_buffer);

// What a kernel's image argument points to, for the texels at texels.
KcImageDescriptor kernel_descriptor(const ImageDescription& image, std::byte* texels);

} // namespace usmcl::core
