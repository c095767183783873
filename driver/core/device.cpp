#include "core/device.hpp"

#include "core/platform.hpp"
#include "runtime/thread_pool.hpp"
#include "support/log.hpp"

#include <numeric>

namespace usmcl::core {

Device::Device(Platform& platform, std::shared_ptr<const cpu::Topology> topology, cpu::CpuSet pus,
               Device* parent, std::vector<cl_device_partition_property> partition_type)
    : platform_(platform), topology_(std::move(topology)), pus_(std::move(pus)), parent_(parent),
      partition_type_(std::move(partition_type)),
      description_(parent && parent->discrete_
                       ? describe_discrete_device(*topology_, pus_, parent->discrete_->index,
                                                  parent->discrete_->type, parent->discrete_->bytes)
                       : describe_device(*topology_, pus_)),
      discrete_(parent ? parent->discrete_ : std::nullopt) {
    // A sub-device of a discrete-memory device uses its memory; one on one
    // NUMA node that node's domain (if nodes are domains).
    if (discrete_)
        memory_domain_ = discrete_->domain;
    else if (parent && description_.numa_nodes.size() == 1)
        memory_domain_ = platform.domain_of_numa_node(description_.numa_nodes.front());
    USMCL_LOG(device, "%s device over %zu processing units, %zu NUMA nodes, memory domain %u",
              parent ? "sub" : "root", pus_.size(), description_.numa_nodes.size(), memory_domain_);
}

Device::Device(Platform& platform, std::shared_ptr<const cpu::Topology> topology, cpu::CpuSet pus,
               const DiscreteMemory& memory)
    : platform_(platform), topology_(std::move(topology)), pus_(std::move(pus)),
      description_(
          describe_discrete_device(*topology_, pus_, memory.index, memory.type, memory.bytes)),
      discrete_(memory), memory_domain_(memory.domain) {
    USMCL_LOG(device,
              "discrete-memory device %u over %zu processing units, %llu bytes, memory "
              "domain %u",
              memory.index, pus_.size(), static_cast<unsigned long long>(memory.bytes),
              memory_domain_);
}

Device::~Device() = default;

runtime::ThreadPool& Device::pool() {
    std::call_once(pool_once_, [this] {
        const auto workers = static_cast<unsigned>(pus_.size());
        pool_ = std::make_unique<runtime::ThreadPool>(
            workers, [topology = topology_, pus = pus_](unsigned worker) {
                (void)topology->bind_current_thread({pus[worker]});
            });
    });
    return *pool_;
}

memory::DevicePool& Device::usm_pool() {
    std::call_once(usm_pool_once_, [this] {
        usm_pool_ = &platform_.usm_pool(memory_domain_, description_.global_mem_size);
    });
    return *usm_pool_;
}

Result<std::vector<cpu::CpuSet>> Device::plan_partition(PartitionRequest& request) const {
    const unsigned units = description_.compute_units;
    switch (request.kind) {
    case PartitionRequest::Kind::equally: {
        // Each sub-device holds exactly n compute units; n must fit at least once.
        if (request.units_per_device == 0)
            return Status(CL_INVALID_VALUE, "CL_DEVICE_PARTITION_EQUALLY with 0 compute units");
        if (request.units_per_device > units)
            return Status(CL_DEVICE_PARTITION_FAILED, "more compute units than the device has");
        return cpu::partition_equally(pus_, request.units_per_device);
    }
    case PartitionRequest::Kind::by_counts: {
        // More sub-devices or compute units than the device has, or an empty
        // sub-device: CL_INVALID_DEVICE_PARTITION_COUNT.
        if (request.counts.size() > units)
            return Status(CL_INVALID_DEVICE_PARTITION_COUNT, "more sub-devices than compute units");
        unsigned long total = 0;
        for (unsigned count : request.counts) {
            if (count == 0)
                return Status(CL_INVALID_DEVICE_PARTITION_COUNT, "a sub-device of 0 compute units");
            total += count;
        }
        if (total > units)
            return Status(CL_INVALID_DEVICE_PARTITION_COUNT,
                          "more compute units than the device has");
        return cpu::partition_by_counts(pus_, request.counts);
    }
    case PartitionRequest::Kind::by_affinity_domain: {
        if (request.domain == cpu::AffinityDomain::next_partitionable) {
            for (cpu::AffinityDomain domain :
                 {cpu::AffinityDomain::numa, cpu::AffinityDomain::l4_cache,
                  cpu::AffinityDomain::l3_cache, cpu::AffinityDomain::l2_cache,
                  cpu::AffinityDomain::l1_cache}) {
                auto sets = topology_->partition_by_affinity(pus_, domain);
                if (sets.size() >= 2) {
                    request.domain = domain;
                    request.properties[1] =
                        static_cast<cl_device_partition_property>(affinity_domain_bit(domain));
                    return sets;
                }
            }
            return Status(CL_DEVICE_PARTITION_FAILED, "the device cannot be split further");
        }
        auto sets = topology_->partition_by_affinity(pus_, request.domain);
        if (sets.size() < 2)
            return Status(CL_DEVICE_PARTITION_FAILED,
                          "the device does not split along that domain");
        return sets;
    }
    }
    return Status(CL_INVALID_VALUE, "unknown partition scheme");
}

std::vector<Device*> Device::create_sub_devices(const PartitionRequest& request,
                                                const std::vector<cpu::CpuSet>& sets) {
    std::vector<Device*> devices;
    devices.reserve(sets.size());
    try {
        for (const auto& set : sets)
            devices.push_back(new Device(platform_, topology_, set, this, request.properties));
    } catch (...) {
        for (Device* device : devices)
            device->release_api();
        throw;
    }
    return devices;
}

} // namespace usmcl::core
