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

// The root devices of platform that match type, in the platform's order:
// those of a type in the mask, and with CL_DEVICE_TYPE_DEFAULT the first
// (USMCL_DEVICES orders them).
inline std::vector<core::Device*> devices_of_type(const core::Platform& platform,
                                                  cl_device_type type) {
    std::vector<core::Device*> found;
    const auto& devices = platform.root_devices();
    for (size_t i = 0; i < devices.size(); ++i) {
        const bool is_default = i == 0 && (type & CL_DEVICE_TYPE_DEFAULT);
        if (is_default || (type & devices[i]->description().type))
            found.push_back(devices[i]);
    }
    return found;
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

#include "api/boundary.hpp"
#include "core/event.hpp"

namespace usmcl::api {

// The events of an enqueue's wait list, or CL_INVALID_EVENT_WAIT_LIST when
// the list and its length disagree or an entry is not a valid event, and
// CL_INVALID_CONTEXT when an event belongs to another context.
inline Result<std::vector<core::Event*>>
wait_list_of(const core::Context& context, cl_uint num_events, const cl_event* event_wait_list) {
    if ((num_events == 0) != (event_wait_list == nullptr))
        return Status(CL_INVALID_EVENT_WAIT_LIST, "event_wait_list and num_events disagree");
    std::vector<core::Event*> events;
    events.reserve(num_events);
    for (cl_uint i = 0; i < num_events; ++i) {
        core::Event* event = core::Event::from_handle(event_wait_list[i]);
        if (!event)
            return Status(CL_INVALID_EVENT_WAIT_LIST,
                          "an entry of event_wait_list is not an event");
        if (&event->context() != &context)
            return Status(CL_INVALID_CONTEXT, "an event of the wait list is of another context");
        events.push_back(event);
    }
    return events;
}

// Gives the new command's event to the application, or drops it.
inline void hand_out(core::Event* event, cl_event* event_out) {
    if (event_out)
        *event_out = event->handle();
    else
        event->release_api();
}

} // namespace usmcl::api
