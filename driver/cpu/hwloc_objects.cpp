#include "cpu/hwloc_objects.hpp"

#include <algorithm>

namespace usmcl::cpu {

std::vector<hwloc_obj_t> objects_touching(hwloc_topology_t topology, hwloc_obj_type_t type,
                                          hwloc_const_cpuset_t set) {
    std::vector<hwloc_obj_t> objects;
    const int count = hwloc_get_nbobjs_by_type(topology, type);
    for (int index = 0; index < count; ++index) {
        hwloc_obj_t object = hwloc_get_obj_by_type(topology, type, static_cast<unsigned>(index));
        if (object != nullptr && object->cpuset != nullptr &&
            hwloc_bitmap_intersects(object->cpuset, set) != 0) {
            objects.push_back(object);
        }
    }
    return objects;
}

std::uint64_t largest_cache_size(const std::vector<hwloc_obj_t>& caches) {
    std::uint64_t largest = 0;
    for (hwloc_obj_t cache : caches) {
        largest = std::max<std::uint64_t>(largest, cache->attr->cache.size);
    }
    return largest;
}

} // namespace usmcl::cpu
