// The shape of an image memory object: format, type, size and the linear
// layout of its texels (x, then rows, then slices or layers) in its
// storage, which is a buffer's storage like any memory object's.
#pragma once

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

// What a kernel's image argument points to, for the texels at texels.
KcImageDescriptor kernel_descriptor(const ImageDescription& image, std::byte* texels);

} // namespace usmcl::core
