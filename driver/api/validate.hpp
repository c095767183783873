// Argument checks shared by several entry point families.
#pragma once

#include "core/device.hpp"
#include "core/platform.hpp"

#include <CL/cl.h>

#include <algorithm>
#include <optional>
#include <vector>

namespace usmcl::api {

// A cl_device_type that names only known types (or CL_DEVICE_TYPE_ALL).
inline bool is_valid_device_type(cl_device_type type) {
    constexpr cl_device_type known = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU |
                                     CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR |
                                     CL_DEVICE_TYPE_CUSTOM;
    return type == CL_DEVICE_TYPE_ALL || (type != 0 && (type & ~known) == 0);
}

// The root devices of platform that match type: every usmcl device is a CPU
// and the default device.
inline std::vector<core::Device*> devices_of_type(const core::Platform& platform,
                                                  cl_device_type type) {
    constexpr cl_device_type ours = CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_DEFAULT;
    if ((type & ours) == 0)
        return {};
    return platform.root_devices();
}

inline std::optional<cpu::AffinityDomain> to_affinity_domain(cl_device_affinity_domain domain) {
    switch (domain) {
    case CL_DEVICE_AFFINITY_DOMAIN_NUMA: return cpu::AffinityDomain::numa;
    case CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE: return cpu::AffinityDomain::l4_cache;
    case CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE: return cpu::AffinityDomain::l3_cache;
    case CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE: return cpu::AffinityDomain::l2_cache;
    case CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE: return cpu::AffinityDomain::l1_cache;
    case CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE:
        return cpu::AffinityDomain::next_partitionable;
    default: return std::nullopt;
    }
}

} // namespace usmcl::api
