// Topology::bind_memory: placing pages on a NUMA node.
#include "cpu/topology.hpp"

#include "cpu/topology_impl.hpp"

namespace usmcl::cpu {

bool Topology::bind_memory(void* address, size_t size, unsigned numa_node) const {
    if (size == 0) {
        return true;
    }
    if (address == nullptr) {
        return false;
    }
    hwloc_obj_t node = hwloc_get_numanode_obj_by_os_index(impl_->topology, numa_node);
    if (node == nullptr || node->nodeset == nullptr) {
        return false;
    }
    // MIGRATE also moves the pages that were already touched.
    const int flags = HWLOC_MEMBIND_BYNODESET | HWLOC_MEMBIND_MIGRATE;
    return hwloc_set_area_membind(impl_->topology, address, size, node->nodeset, HWLOC_MEMBIND_BIND,
                                  flags) == 0;
}

} // namespace usmcl::cpu
