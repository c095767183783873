// A sampler: how a kernel reads an image (normalized coordinates,
// addressing and filter modes). Kernels see it as the OpenCL C sampler bits
// of kc/ImageDescriptor.h.
#pragma once

#include "core/context.hpp"
#include "core/object.hpp"

#include <CL/cl.h>

#include <cstdint>
#include <vector>

namespace usmcl::core {

class Sampler : public Object<Sampler, _cl_sampler, ObjectType::sampler> {
public:
    // Modes already validated; properties: as given (0-terminated) or empty.
    Sampler(Context& context, bool normalized_coords, cl_addressing_mode addressing,
            cl_filter_mode filter, std::vector<cl_sampler_properties> properties)
        : context_(&context), normalized_coords_(normalized_coords), addressing_(addressing),
          filter_(filter), properties_(std::move(properties)) {}

    Context& context() const { return *context_; }
    bool normalized_coords() const { return normalized_coords_; }
    cl_addressing_mode addressing_mode() const { return addressing_; }
    cl_filter_mode filter_mode() const { return filter_; }
    const std::vector<cl_sampler_properties>& properties() const { return properties_; }
    // The value a kernel's sampler_t argument holds.
    std::uint64_t kernel_bits() const;

private:
    friend class Object<Sampler, _cl_sampler, ObjectType::sampler>;
    ~Sampler() = default;

    Ref<Context> context_;
    bool normalized_coords_;
    cl_addressing_mode addressing_;
    cl_filter_mode filter_;
    std::vector<cl_sampler_properties> properties_;
};

} // namespace usmcl::core
