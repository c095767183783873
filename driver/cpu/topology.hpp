// The host machine as hwloc sees it: processing units, caches, NUMA nodes, and
// the ways a set of processing units can be split into sub-devices.
//
// Knows nothing of OpenCL: driver/core maps these answers onto device info
// queries and clCreateSubDevices.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace usmcl::cpu {

// A set of processing units (hardware threads) named by their OS index,
// sorted ascending, no duplicates. A device (root or sub-device) owns one.
using CpuSet = std::vector<unsigned>;

// The kinds of domain a set can be split along (OpenCL's affinity domains).
enum class AffinityDomain { numa, l4_cache, l3_cache, l2_cache, l1_cache, next_partitionable };

// What a device built over a CpuSet reports about its hardware.
struct DomainInfo {
    unsigned compute_units = 0;        // processing units in the set
    unsigned cores = 0;                // distinct cores touched by the set
    std::vector<unsigned> numa_nodes;  // OS indexes of NUMA nodes touched
    std::uint64_t memory_bytes = 0;    // memory of those NUMA nodes (whole machine if none)
    std::uint64_t l1d_cache_bytes = 0; // per core; 0 when unknown
    std::uint64_t l2_cache_bytes = 0;  // per cache instance; 0 when unknown
    std::uint64_t l3_cache_bytes = 0;  // per cache instance; 0 when unknown
    // The sum of the last-level data caches touched by the set.
    std::uint64_t last_level_cache_bytes = 0;
    unsigned cache_line_bytes = 64; // line size of the data caches
};

class Topology {
public:
    // The machine this process runs on. hwloc honours HWLOC_SYNTHETIC and
    // HWLOC_XMLFILE itself, so a bigger machine can be faked. Only the
    // processing units this process may run on are used. Returns nullptr and
    // sets *error when hwloc fails.
    static std::shared_ptr<const Topology> load(std::string* error = nullptr);
    // A synthetic machine described in hwloc's synthetic syntax, e.g.
    // "package:2 numa:2 l3:1 core:4 pu:2"; nullptr and *error on a bad description.
    static std::shared_ptr<const Topology> from_synthetic(std::string_view description,
                                                          std::string* error = nullptr);
    // A machine from an hwloc XML file.
    static std::shared_ptr<const Topology> from_xml_file(const std::string& path,
                                                         std::string* error = nullptr);

    ~Topology();
    Topology(const Topology&) = delete;
    Topology& operator=(const Topology&) = delete;

    // Every processing unit this process may use (the root device's set).
    const CpuSet& allowed_pus() const;
    DomainInfo describe(const CpuSet& pus) const;

    // Splits pus along the given domain: one set per domain instance that
    // intersects pus, in topology order, keeping only non-empty
    // intersections. next_partitionable picks the first of numa, l4, l3, l2,
    // l1 that yields at least two sets. Empty result: pus cannot be split
    // along that domain (fewer than two parts).
    std::vector<CpuSet> partition_by_affinity(const CpuSet& pus, AffinityDomain domain) const;
    // The affinity domains along which pus splits into at least two parts.
    std::vector<AffinityDomain> splittable_domains(const CpuSet& pus) const;

    // Pins the calling thread to the given processing units. False if the OS refused.
    bool bind_current_thread(const CpuSet& pus) const;
    // Binds the pages of [address, address + size) to a NUMA node (OS index),
    // moving what is already there. False if the system cannot.
    bool bind_memory(void* address, size_t size, unsigned numa_node) const;

    struct Impl;

private:
    explicit Topology(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// As many sets as can be made of exactly units_per_part units each, taken in
// order; the rest is left out. Empty if units_per_part is 0 or larger than pus.
std::vector<CpuSet> partition_equally(const CpuSet& pus, unsigned units_per_part);
// One set per count, taken in order. Empty if a count is 0 or the counts
// add up to more than pus holds.
std::vector<CpuSet> partition_by_counts(const CpuSet& pus, std::span<const unsigned> counts);

} // namespace usmcl::cpu
