#include "core/device_description.hpp"
#include "core/program.hpp"

#include "core/capabilities.hpp"
#include "cpu/isa.hpp"

#include <algorithm>
#include <cstring>
#include <unistd.h>

namespace usmcl::core {
namespace {

constexpr cl_ulong kib = 1024;
constexpr cl_ulong mib = 1024 * kib;

std::vector<NameVersion> enabled_extensions() {
    std::vector<NameVersion> list;
#define USMCL_DEVICE_EXTENSION(name, major, minor, patch, enabled)                                 \
    if (enabled)                                                                                   \
        list.push_back({#name, CL_MAKE_VERSION(major, minor, patch)});
#include "core/device_features.def"
    return list;
}

std::vector<NameVersion> enabled_opencl_c_features() {
    std::vector<NameVersion> list;
#define USMCL_OPENCL_C_FEATURE(name, major, minor, patch, enabled)                                 \
    if (enabled)                                                                                   \
        list.push_back({#name, CL_MAKE_VERSION(major, minor, patch)});
#include "core/device_features.def"
    return list;
}

std::string join_names(const std::vector<NameVersion>& list) {
    std::string joined;
    for (const auto& entry : list) {
        if (!joined.empty())
            joined += ' ';
        joined += entry.name;
    }
    return joined;
}

void describe_vectors(const cpu::IsaInfo& isa, DeviceDescription& d) {
    constexpr unsigned sizes[] = {1, 2, 4, 8, 4, 8};
    for (unsigned i = 0; i < 6; ++i) {
        const bool floating = i >= 4;
        d.native_vector_widths[i] = cpu::native_vector_width(isa, sizes[i], floating);
        d.preferred_vector_widths[i] = d.native_vector_widths[i];
    }
    if (!capabilities::fp64) {
        d.native_vector_widths[5] = 0;
        d.preferred_vector_widths[5] = 0;
    }
    // half is computed in float lanes: as many as floats.
    d.native_vector_widths[6] = capabilities::fp16 ? d.native_vector_widths[4] : 0;
    d.preferred_vector_widths[6] = d.native_vector_widths[6];
}

// A stable identity for the device: FNV-1a over the CPU model and the
// processing units it owns, so a sub-device differs from its parent.
std::array<cl_uchar, CL_UUID_SIZE_KHR> device_uuid(const cpu::IsaInfo& isa,
                                                   const cpu::CpuSet& pus) {
    std::uint64_t hash[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    auto mix = [&](const void* data, size_t size) {
        const auto* bytes = static_cast<const unsigned char*>(data);
        for (size_t i = 0; i < size; ++i) {
            hash[0] = (hash[0] ^ bytes[i]) * 0x100000001b3ull;
            hash[1] = (hash[1] ^ bytes[i]) * 0x100000001b3ull + 1;
        }
    };
    mix(isa.vendor.data(), isa.vendor.size());
    mix(isa.model_name.data(), isa.model_name.size());
    mix(pus.data(), pus.size() * sizeof(unsigned));
    std::array<cl_uchar, CL_UUID_SIZE_KHR> uuid{};
    std::memcpy(uuid.data(), hash, uuid.size());
    return uuid;
}

// The memory the kernel manages (hwloc's per-node figures can be smaller on
// virtual machines with hot-plugged memory).
cl_ulong physical_memory() {
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long page_size = sysconf(_SC_PAGESIZE);
    return pages > 0 && page_size > 0
               ? static_cast<cl_ulong>(pages) * static_cast<cl_ulong>(page_size)
               : 0;
}

} // namespace

cl_device_affinity_domain affinity_domain_bit(cpu::AffinityDomain domain) {
    switch (domain) {
    case cpu::AffinityDomain::numa: return CL_DEVICE_AFFINITY_DOMAIN_NUMA;
    case cpu::AffinityDomain::l4_cache: return CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE;
    case cpu::AffinityDomain::l3_cache: return CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE;
    case cpu::AffinityDomain::l2_cache: return CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE;
    case cpu::AffinityDomain::l1_cache: return CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE;
    case cpu::AffinityDomain::next_partitionable:
        return CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
    }
    return 0;
}

const std::array<cl_uchar, CL_UUID_SIZE_KHR>& driver_uuid() {
    static const std::array<cl_uchar, CL_UUID_SIZE_KHR> uuid = [] {
        std::array<cl_uchar, CL_UUID_SIZE_KHR> value{};
        const char identity[] = "usmcl " USMCL_VERSION_STRING " " __DATE__;
        std::uint64_t hash = 0xcbf29ce484222325ull;
        for (size_t i = 0; i < value.size(); ++i) {
            for (char c : identity)
                hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ull;
            hash ^= i;
            value[i] = static_cast<cl_uchar>(hash >> 24);
        }
        return value;
    }();
    return uuid;
}

cl_uint default_sub_group_size() {
    const cl_uint floats = cpu::native_vector_width(cpu::host_isa(), 4, true);
    return std::clamp<cl_uint>(floats, capabilities::sub_group_sizes[0], 64);
}

DeviceDescription describe_device(const cpu::Topology& topology, const cpu::CpuSet& pus) {
    const cpu::IsaInfo& isa = cpu::host_isa();
    const cpu::DomainInfo domain = topology.describe(pus);
    DeviceDescription d;
    d.name = isa.model_name.empty() ? std::string("CPU") : isa.model_name;
    d.vendor = isa.vendor.empty() ? std::string("unknown") : isa.vendor;
    d.vendor_id = isa.vendor_id;
    d.compute_units = std::max(1u, domain.compute_units);
    d.max_clock_mhz = isa.max_clock_mhz;
    d.global_mem_size = domain.memory_bytes;
    // A device over every processing unit reaches all of the machine's memory.
    if (pus == topology.allowed_pus())
        d.global_mem_size = std::max(d.global_mem_size, physical_memory());
    // A quarter of the memory for one allocation (as large as the spec's
    // rule for the minimum, max(min(1 GiB, 1/4 of global memory), 32 MiB),
    // ever asks), never below 128 MiB: an application (or the CTS's
    // allocations suite, which fills the largest allocation it may make and
    // keeps a host copy) then stays clear of the memory the rest of the
    // machine needs.
    d.max_mem_alloc_size =
        std::max(d.global_mem_size / 4, std::min<cl_ulong>(128 * mib, d.global_mem_size));
    // A 1D buffer image may span a whole allocation of 16-byte texels, up
    // to what a kernel's int coordinate reaches.
    d.image_max_buffer_size =
        std::clamp<size_t>(d.max_mem_alloc_size / 16, d.image_max_buffer_size, 0x7fffffff);
    d.global_mem_cache_size = domain.last_level_cache_bytes;
    d.global_mem_cacheline_size = domain.cache_line_bytes;
    // Local memory lives in each worker's arena: as big as its L2 share, and
    // never below the 32 KiB the full profile requires.
    d.local_mem_size = std::clamp<cl_ulong>(domain.l2_cache_bytes, 64 * kib, 1024 * kib);
    d.max_constant_buffer_size = std::min<cl_ulong>(d.max_mem_alloc_size, 64 * mib);
    d.numa_nodes = domain.numa_nodes;
    describe_vectors(isa, d);

    if (d.compute_units > 1) {
        d.partition_properties = {CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS};
        for (cpu::AffinityDomain splittable : topology.splittable_domains(pus))
            d.affinity_domains |= affinity_domain_bit(splittable);
        if (d.affinity_domains != 0) {
            d.affinity_domains |= CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
            d.partition_properties.push_back(CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
        }
    }
    d.device_uuid = device_uuid(isa, pus);
    d.extensions_with_version = enabled_extensions();
    d.extensions = join_names(d.extensions_with_version);
    d.opencl_c_features = enabled_opencl_c_features();
    d.opencl_c_versions = {{"OpenCL C", CL_MAKE_VERSION(1, 0, 0)},
                           {"OpenCL C", CL_MAKE_VERSION(1, 1, 0)},
                           {"OpenCL C", CL_MAKE_VERSION(1, 2, 0)},
                           {"OpenCL C", CL_MAKE_VERSION(3, 0, 0)}};
    return d;
}

} // namespace usmcl::core

namespace usmcl::core {

DeviceDescription describe_discrete_device(const cpu::Topology& topology, const cpu::CpuSet& pus,
                                           unsigned index, cl_device_type type,
                                           cl_ulong memory_bytes) {
    DeviceDescription d = describe_device(topology, pus);
    d.type = type;
    d.host_unified_memory = false;
    d.name = "usmcl discrete-memory device " + std::to_string(index) + " (" + d.name + ")";
    d.global_mem_size = memory_bytes;
    constexpr cl_ulong mib = cl_ulong(1) << 20;
    // A quarter of the memory, as the CPU device, but at least the spec's
    // minimum (128 MiB) when the memory holds that much.
    d.max_mem_alloc_size = std::max(memory_bytes / 4, std::min<cl_ulong>(128 * mib, memory_bytes));
    d.max_constant_buffer_size = std::min<cl_ulong>(d.max_mem_alloc_size, 64 * mib);
    d.image_max_buffer_size = std::clamp<size_t>(d.max_mem_alloc_size / 16, 65536, 0x7fffffff);
    // Partitionable as the CPU device over the same processing units; its
    // sub-devices share its memory.
    // Distinct from the CPU device's and from every other discrete device's.
    for (size_t i = 0; i < d.device_uuid.size(); ++i)
        d.device_uuid[i] =
            static_cast<cl_uchar>(d.device_uuid[i] ^ (0xd5 + 0x3b * (index + 1) * (i + 1)));
    return d;
}

} // namespace usmcl::core
