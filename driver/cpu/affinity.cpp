// Topology::partition_by_affinity and splittable_domains: splitting a set of
// processing units along NUMA nodes or cache instances.
#include "cpu/topology.hpp"

#include "cpu/hwloc_bitmap.hpp"
#include "cpu/topology_impl.hpp"

#include <array>
#include <optional>

namespace usmcl::cpu {

namespace {

constexpr std::array concrete_domains{AffinityDomain::numa, AffinityDomain::l4_cache,
                                      AffinityDomain::l3_cache, AffinityDomain::l2_cache,
                                      AffinityDomain::l1_cache};

std::optional<hwloc_obj_type_t> object_type(AffinityDomain domain) {
    switch (domain) {
    case AffinityDomain::numa: return HWLOC_OBJ_NUMANODE;
    case AffinityDomain::l4_cache: return HWLOC_OBJ_L4CACHE;
    case AffinityDomain::l3_cache: return HWLOC_OBJ_L3CACHE;
    case AffinityDomain::l2_cache: return HWLOC_OBJ_L2CACHE;
    case AffinityDomain::l1_cache: return HWLOC_OBJ_L1CACHE; // data or unified L1
    case AffinityDomain::next_partitionable: break;
    }
    return std::nullopt;
}

// One part per object of the given type, each processing unit in the first
// object that holds it (NUMA nodes of one package may share a cpuset).
std::vector<CpuSet> split_along(hwloc_topology_t topology, const CpuSet& pus,
                                hwloc_obj_type_t type) {
    Bitmap remaining = to_bitmap(pus);
    Bitmap part;
    std::vector<CpuSet> parts;
    const int count = hwloc_get_nbobjs_by_type(topology, type);
    for (int index = 0; index < count && !remaining.empty(); ++index) {
        hwloc_obj_t object = hwloc_get_obj_by_type(topology, type, static_cast<unsigned>(index));
        if (object == nullptr || object->cpuset == nullptr) {
            continue;
        }
        hwloc_bitmap_and(part.get(), object->cpuset, remaining.get());
        if (!part.empty()) {
            hwloc_bitmap_andnot(remaining.get(), remaining.get(), part.get());
            parts.push_back(to_cpu_set(part.get()));
        }
    }
    if (parts.size() < 2) {
        parts.clear();
    }
    return parts;
}

} // namespace

std::vector<CpuSet> Topology::partition_by_affinity(const CpuSet& pus,
                                                    AffinityDomain domain) const {
    if (const auto type = object_type(domain)) {
        return split_along(impl_->topology, pus, *type);
    }
    for (AffinityDomain candidate : concrete_domains) {
        auto parts = split_along(impl_->topology, pus, *object_type(candidate));
        if (!parts.empty()) {
            return parts;
        }
    }
    return {};
}

// Lists next_partitionable last, whenever any concrete domain splits pus.
std::vector<AffinityDomain> Topology::splittable_domains(const CpuSet& pus) const {
    std::vector<AffinityDomain> domains;
    for (AffinityDomain domain : concrete_domains) {
        if (!split_along(impl_->topology, pus, *object_type(domain)).empty()) {
            domains.push_back(domain);
        }
    }
    if (!domains.empty()) {
        domains.push_back(AffinityDomain::next_partitionable);
    }
    return domains;
}

} // namespace usmcl::cpu
