// Queries over the objects of a loaded hwloc topology.
#pragma once

#include <hwloc.h>

#include <cstdint>
#include <vector>

namespace usmcl::cpu {

// The objects of the given type whose cpuset intersects set, in topology
// (logical index) order. Empty when the topology has no such type.
std::vector<hwloc_obj_t> objects_touching(hwloc_topology_t topology, hwloc_obj_type_t type,
                                          hwloc_const_cpuset_t set);

// The size of the largest of the given caches; 0 if there is none.
std::uint64_t largest_cache_size(const std::vector<hwloc_obj_t>& caches);

} // namespace usmcl::cpu
