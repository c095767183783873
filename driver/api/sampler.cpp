// Sampler entry points: clCreateSampler, clCreateSamplerWithProperties,
// clRetainSampler, clReleaseSampler, clGetSamplerInfo.
#include "core/sampler.hpp"
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/info_writer.hpp"
#include "core/capabilities.hpp"

namespace usmcl::api {
namespace {

struct SamplerModes {
    cl_bool normalized = CL_TRUE;
    cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
    cl_filter_mode filter = CL_FILTER_NEAREST;
};

// CL_INVALID_VALUE for values of the sampler's modes that are not valid.
Status check_modes(const SamplerModes& modes) {
    USMCL_CHECK(modes.normalized == CL_TRUE || modes.normalized == CL_FALSE, CL_INVALID_VALUE,
                "normalized_coords is not a cl_bool");
    USMCL_CHECK(modes.addressing >= CL_ADDRESS_NONE &&
                    modes.addressing <= CL_ADDRESS_MIRRORED_REPEAT,
                CL_INVALID_VALUE, "unknown addressing mode");
    USMCL_CHECK(modes.filter == CL_FILTER_NEAREST || modes.filter == CL_FILTER_LINEAR,
                CL_INVALID_VALUE, "unknown filter mode");
    return {};
}

Result<cl_sampler> create_sampler(cl_context context, const SamplerModes& modes,
                                  std::vector<cl_sampler_properties> properties) {
    core::Context* object = core::Context::from_handle(context);
    if (!object)
        return Status(CL_INVALID_CONTEXT, "not a context");
    if (Status s = check_modes(modes); !s.ok())
        return s;
    // CL_INVALID_OPERATION if no device of the context supports images.
    if (!core::capabilities::image_support)
        return Status(CL_INVALID_OPERATION, "no device of the context supports images");
    auto* sampler = new core::Sampler(*object, modes.normalized == CL_TRUE, modes.addressing,
                                      modes.filter, std::move(properties));
    return sampler->handle();
}

// A 0-terminated list of (name, value) pairs: CL_INVALID_VALUE for an
// unknown name or a name given twice.
Result<SamplerModes> modes_of(const cl_sampler_properties* properties,
                              std::vector<cl_sampler_properties>& copy) {
    SamplerModes modes;
    if (!properties)
        return modes;
    bool seen[3] = {false, false, false};
    size_t i = 0;
    for (; properties[i] != 0; i += 2) {
        const cl_sampler_properties name = properties[i];
        const cl_sampler_properties value = properties[i + 1];
        int slot = -1;
        if (name == CL_SAMPLER_NORMALIZED_COORDS) {
            slot = 0;
            modes.normalized = static_cast<cl_bool>(value);
            if (value != CL_TRUE && value != CL_FALSE)
                return Status(CL_INVALID_VALUE, "CL_SAMPLER_NORMALIZED_COORDS is not a cl_bool");
        } else if (name == CL_SAMPLER_ADDRESSING_MODE) {
            slot = 1;
            modes.addressing = static_cast<cl_addressing_mode>(value);
        } else if (name == CL_SAMPLER_FILTER_MODE) {
            slot = 2;
            modes.filter = static_cast<cl_filter_mode>(value);
        } else {
            return Status(CL_INVALID_VALUE, "unknown sampler property");
        }
        if (seen[slot])
            return Status(CL_INVALID_VALUE, "a sampler property given twice");
        seen[slot] = true;
    }
    copy.assign(properties, properties + i + 1);
    return modes;
}

Status sampler_info(const core::Sampler& sampler, cl_sampler_info param, InfoWriter& out) {
    switch (param) {
    case CL_SAMPLER_REFERENCE_COUNT: return out.scalar<cl_uint>(sampler.api_reference_count());
    case CL_SAMPLER_CONTEXT: return out.scalar<cl_context>(sampler.context().handle());
    case CL_SAMPLER_NORMALIZED_COORDS: return out.boolean(sampler.normalized_coords());
    case CL_SAMPLER_ADDRESSING_MODE:
        return out.scalar<cl_addressing_mode>(sampler.addressing_mode());
    case CL_SAMPLER_FILTER_MODE: return out.scalar<cl_filter_mode>(sampler.filter_mode());
    case CL_SAMPLER_PROPERTIES: return out.array(sampler.properties());
    default: return {CL_INVALID_VALUE, "unknown cl_sampler_info"};
    }
}

} // namespace

cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool normalized_coords,
                                       cl_addressing_mode addressing_mode,
                                       cl_filter_mode filter_mode, cl_int* errcode_ret) {
    return guarded_create<cl_sampler>(__func__, errcode_ret, [&] {
        return create_sampler(context, {normalized_coords, addressing_mode, filter_mode}, {});
    });
}

cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context,
                                                     const cl_sampler_properties* properties,
                                                     cl_int* errcode_ret) {
    return guarded_create<cl_sampler>(__func__, errcode_ret, [&]() -> Result<cl_sampler> {
        if (!core::Context::from_handle(context))
            return Status(CL_INVALID_CONTEXT, "not a context");
        std::vector<cl_sampler_properties> copy;
        Result<SamplerModes> modes = modes_of(properties, copy);
        if (!modes.ok())
            return modes.status();
        return create_sampler(context, modes.value(), std::move(copy));
    });
}

cl_int CL_API_CALL clRetainSampler(cl_sampler sampler) {
    return guarded(__func__, [&]() -> Status {
        core::Sampler* object = core::Sampler::from_handle(sampler);
        USMCL_CHECK(object, CL_INVALID_SAMPLER, "not a sampler");
        object->retain_api();
        return {};
    });
}

cl_int CL_API_CALL clReleaseSampler(cl_sampler sampler) {
    return guarded(__func__, [&]() -> Status {
        core::Sampler* object = core::Sampler::from_handle(sampler);
        USMCL_CHECK(object, CL_INVALID_SAMPLER, "not a sampler");
        object->release_api();
        return {};
    });
}

cl_int CL_API_CALL clGetSamplerInfo(cl_sampler sampler, cl_sampler_info param_name,
                                    size_t param_value_size, void* param_value,
                                    size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        core::Sampler* object = core::Sampler::from_handle(sampler);
        USMCL_CHECK(object, CL_INVALID_SAMPLER, "not a sampler");
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        return sampler_info(*object, param_name, out);
    });
}

} // namespace usmcl::api
