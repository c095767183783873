// Helpers of the image tests: a context with one queue, image and sampler
// creation, typed queries, and a host model of the OpenCL C sampler
// (addressing, filtering and the conversion of each channel data type) to
// compare kernel results with.
#pragma once

#include "cl_handles.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <vector>

namespace image_test {

using cl_test::KernelPtr;
using cl_test::MemPtr;
using cl_test::ProgramPtr;
using cl_test::QueuePtr;
using Bytes = std::vector<unsigned char>;

struct SamplerReleaser {
    void operator()(cl_sampler sampler) const { clReleaseSampler(sampler); }
};
using SamplerPtr = std::unique_ptr<std::remove_pointer_t<cl_sampler>, SamplerReleaser>;

// A context on the root device with one in-order queue.
struct Fixture {
    cl_device_id device = cl_test::device();
    cl_test::ContextPtr context = cl_test::make_context({device});
    QueuePtr queue = cl_test::make_queue(context.get(), device);

    cl_context ctx() const { return context.get(); }
    cl_command_queue q() const { return queue.get(); }
};

inline cl_image_desc describe(cl_mem_object_type type, size_t width, size_t height = 0,
                              size_t depth = 0, size_t array_size = 0, cl_mem buffer = nullptr) {
    cl_image_desc desc{};
    desc.image_type = type;
    desc.image_width = width;
    desc.image_height = height;
    desc.image_depth = depth;
    desc.image_array_size = array_size;
    desc.mem_object = buffer;
    return desc;
}

// clCreateImage that must succeed.
inline MemPtr make_image(cl_context context, cl_mem_flags flags, cl_image_format format,
                         const cl_image_desc& desc, void* host_ptr = nullptr) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_mem mem = clCreateImage(context, flags, &format, &desc, host_ptr, &error);
    REQUIRE_OK(error);
    REQUIRE(mem != nullptr);
    return MemPtr(mem);
}

// The error of a clCreateImage that must fail (and return NULL).
inline cl_int create_image_error(cl_context context, cl_mem_flags flags,
                                 const cl_image_format* format, const cl_image_desc* desc,
                                 void* host_ptr = nullptr) {
    cl_int error = CL_SUCCESS;
    cl_mem mem = clCreateImage(context, flags, format, desc, host_ptr, &error);
    CHECK(mem == nullptr);
    if (mem)
        clReleaseMemObject(mem);
    return error;
}

inline SamplerPtr make_sampler(cl_context context, cl_bool normalized, cl_addressing_mode mode,
                               cl_filter_mode filter) {
    const cl_sampler_properties properties[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                                normalized,
                                                CL_SAMPLER_ADDRESSING_MODE,
                                                mode,
                                                CL_SAMPLER_FILTER_MODE,
                                                filter,
                                                0};
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_sampler sampler = clCreateSamplerWithProperties(context, properties, &error);
    REQUIRE_OK(error);
    REQUIRE(sampler != nullptr);
    return SamplerPtr(sampler);
}

template <class T>
T image_info(cl_mem image, cl_image_info param) {
    T value{};
    size_t size = 0;
    REQUIRE_OK(clGetImageInfo(image, param, sizeof value, &value, &size));
    CHECK(size == sizeof value);
    return value;
}

template <class T>
T mem_info(cl_mem mem, cl_mem_info param) {
    T value{};
    REQUIRE_OK(clGetMemObjectInfo(mem, param, sizeof value, &value, nullptr));
    return value;
}

inline Bytes random_bytes(size_t size, unsigned seed) {
    std::mt19937 engine(seed);
    std::uniform_int_distribution<int> byte(0, 255);
    Bytes bytes(size);
    for (auto& b : bytes)
        b = static_cast<unsigned char>(byte(engine));
    return bytes;
}

// --- a host model of sampling a CL_RGBA / CL_FLOAT image, from the
// formulas of the OpenCL C specification ("Image Addressing and Filtering").

using Float4 = std::array<float, 4>;

struct HostImage {
    size_t width = 1, height = 1, depth = 1; // x, y, z bounds
    std::vector<Float4> texels;              // x fastest
    bool alpha = true;                       // border (0,0,0,0) or (0,0,0,1)

    Float4 at(long x, long y, long z) const {
        if (x < 0 || y < 0 || z < 0 || x >= static_cast<long>(width) ||
            y >= static_cast<long>(height) || z >= static_cast<long>(depth))
            return {0, 0, 0, alpha ? 0.0f : 1.0f};
        return texels[(static_cast<size_t>(z) * height + static_cast<size_t>(y)) * width +
                      static_cast<size_t>(x)];
    }
};

struct HostSampler {
    bool normalized = false;
    cl_addressing_mode mode = CL_ADDRESS_NONE;
    cl_filter_mode filter = CL_FILTER_NEAREST;
};

// Nearest: the texel index of coordinate s on an axis of size texels.
inline long nearest_index(float s, long size, const HostSampler& sampler) {
    switch (sampler.mode) {
    case CL_ADDRESS_REPEAT: {
        const float u = (s - std::floor(s)) * static_cast<float>(size);
        long i = static_cast<long>(std::floor(u));
        return i > size - 1 ? i - size : i;
    }
    case CL_ADDRESS_MIRRORED_REPEAT: {
        float sp = 2.0f * std::rint(0.5f * s);
        sp = std::fabs(s - sp);
        const float u = sp * static_cast<float>(size);
        return std::min(static_cast<long>(std::floor(u)), size - 1);
    }
    default: {
        const float u = sampler.normalized ? s * static_cast<float>(size) : s;
        const long i = static_cast<long>(std::floor(u));
        if (sampler.mode == CL_ADDRESS_CLAMP_TO_EDGE)
            return std::clamp(i, 0L, size - 1);
        if (sampler.mode == CL_ADDRESS_CLAMP)
            return std::clamp(i, -1L, size);
        return i;
    }
    }
}

struct LinearAxis {
    long i0, i1;
    float a;
};

inline LinearAxis linear_axis(float s, long size, const HostSampler& sampler) {
    const float fs = static_cast<float>(size);
    float u = 0;
    if (sampler.mode == CL_ADDRESS_REPEAT)
        u = (s - std::floor(s)) * fs;
    else if (sampler.mode == CL_ADDRESS_MIRRORED_REPEAT)
        u = std::fabs(s - 2.0f * std::rint(0.5f * s)) * fs;
    else
        u = sampler.normalized ? s * fs : s;
    LinearAxis axis{static_cast<long>(std::floor(u - 0.5f)), 0, 0};
    axis.i1 = axis.i0 + 1;
    axis.a = (u - 0.5f) - std::floor(u - 0.5f);
    switch (sampler.mode) {
    case CL_ADDRESS_REPEAT:
        if (axis.i0 < 0)
            axis.i0 += size;
        if (axis.i1 > size - 1)
            axis.i1 -= size;
        break;
    case CL_ADDRESS_MIRRORED_REPEAT:
    case CL_ADDRESS_CLAMP_TO_EDGE:
        axis.i0 = std::clamp(axis.i0, 0L, size - 1);
        axis.i1 = std::clamp(axis.i1, 0L, size - 1);
        break;
    case CL_ADDRESS_CLAMP:
        axis.i0 = std::clamp(axis.i0, -1L, size);
        axis.i1 = std::clamp(axis.i1, -1L, size);
        break;
    default: break;
    }
    return axis;
}

// read_imagef(image, sampler, (x, y, z)) for an image of dims sampled
// coordinates (1, 2 or 3).
inline Float4 sample(const HostImage& image, const HostSampler& sampler, unsigned dims,
                     std::array<float, 3> coord) {
    const std::array<long, 3> size{static_cast<long>(image.width), static_cast<long>(image.height),
                                   static_cast<long>(image.depth)};
    if (sampler.filter == CL_FILTER_NEAREST) {
        std::array<long, 3> index{0, 0, 0};
        for (unsigned d = 0; d < dims; ++d)
            index[d] = nearest_index(coord[d], size[d], sampler);
        return image.at(index[0], index[1], index[2]);
    }
    std::array<LinearAxis, 3> axes{LinearAxis{0, 0, 0}, LinearAxis{0, 0, 0}, LinearAxis{0, 0, 0}};
    for (unsigned d = 0; d < dims; ++d)
        axes[d] = linear_axis(coord[d], size[d], sampler);
    Float4 sum{0, 0, 0, 0};
    for (unsigned corner = 0; corner < (1u << dims); ++corner) {
        std::array<long, 3> index{0, 0, 0};
        float weight = 1.0f;
        for (unsigned d = 0; d < dims; ++d) {
            const bool second = (corner >> d) & 1;
            index[d] = second ? axes[d].i1 : axes[d].i0;
            weight *= second ? axes[d].a : 1.0f - axes[d].a;
        }
        const Float4 texel = image.at(index[0], index[1], index[2]);
        for (int c = 0; c < 4; ++c)
            sum[c] += weight * texel[c];
    }
    return sum;
}

} // namespace image_test
