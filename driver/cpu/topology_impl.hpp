// What a Topology holds: the loaded hwloc topology and the processing units
// the process may use. Shared by the files that implement Topology.
#pragma once

#include "cpu/topology.hpp"

#include <hwloc.h>

namespace usmcl::cpu {

struct Topology::Impl {
    Impl() = default;
    ~Impl() {
        if (topology != nullptr) {
            hwloc_topology_destroy(topology);
        }
    }
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;

    // Loaded and refreshed before any query, never modified afterwards, so
    // several threads may query it at once.
    hwloc_topology_t topology = nullptr;
    CpuSet allowed_pus;
};

} // namespace usmcl::cpu
