// Topology::describe: the hardware a set of processing units spans.
#include "cpu/topology.hpp"

#include "cpu/hwloc_bitmap.hpp"
#include "cpu/hwloc_objects.hpp"
#include "cpu/topology_impl.hpp"

#include <algorithm>
#include <array>

namespace usmcl::cpu {

namespace {

constexpr unsigned default_cache_line_bytes = 64;

void describe_memory(hwloc_topology_t topology, hwloc_const_cpuset_t set, DomainInfo& info) {
    for (hwloc_obj_t node : objects_touching(topology, HWLOC_OBJ_NUMANODE, set)) {
        info.numa_nodes.push_back(node->os_index);
        info.memory_bytes += node->attr->numanode.local_memory;
    }
    std::sort(info.numa_nodes.begin(), info.numa_nodes.end());
    if (info.memory_bytes == 0) {
        info.memory_bytes = hwloc_get_root_obj(topology)->total_memory;
    }
}

// Cache sizes are the largest instance the set touches, so a set spanning
// differently sized cores reports its best case.
void describe_caches(hwloc_topology_t topology, hwloc_const_cpuset_t set, DomainInfo& info) {
    const auto l1 = objects_touching(topology, HWLOC_OBJ_L1CACHE, set);
    const auto l2 = objects_touching(topology, HWLOC_OBJ_L2CACHE, set);
    info.l1d_cache_bytes = largest_cache_size(l1);
    info.l2_cache_bytes = largest_cache_size(l2);
    info.l3_cache_bytes = largest_cache_size(objects_touching(topology, HWLOC_OBJ_L3CACHE, set));

    constexpr std::array last_level_first{HWLOC_OBJ_L5CACHE, HWLOC_OBJ_L4CACHE, HWLOC_OBJ_L3CACHE,
                                          HWLOC_OBJ_L2CACHE, HWLOC_OBJ_L1CACHE};
    for (hwloc_obj_type_t type : last_level_first) {
        const auto caches = objects_touching(topology, type, set);
        if (!caches.empty()) {
            for (hwloc_obj_t cache : caches) {
                info.last_level_cache_bytes += cache->attr->cache.size;
            }
            break;
        }
    }

    const auto& line_source = !l1.empty() ? l1 : l2;
    if (!line_source.empty() && line_source.front()->attr->cache.linesize > 0) {
        info.cache_line_bytes = line_source.front()->attr->cache.linesize;
    } else {
        info.cache_line_bytes = default_cache_line_bytes;
    }
}

} // namespace

DomainInfo Topology::describe(const CpuSet& pus) const {
    hwloc_topology_t topology = impl_->topology;
    Bitmap set = to_bitmap(pus);
    hwloc_bitmap_and(set.get(), set.get(), hwloc_topology_get_topology_cpuset(topology));

    DomainInfo info;
    info.compute_units =
        static_cast<unsigned>(objects_touching(topology, HWLOC_OBJ_PU, set.get()).size());
    info.cores =
        static_cast<unsigned>(objects_touching(topology, HWLOC_OBJ_CORE, set.get()).size());
    if (info.cores == 0) {
        info.cores = info.compute_units; // no Core level: every PU counts as one
    }
    describe_memory(topology, set.get(), info);
    describe_caches(topology, set.get(), info);
    return info;
}

} // namespace usmcl::cpu
