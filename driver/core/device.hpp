// A CPU device: the root device over every processing unit this process may
// use, or a sub-device over a subset of them.
#pragma once

#include "core/device_description.hpp"
#include "core/object.hpp"
#include "core/result.hpp"
#include "cpu/topology.hpp"
#include "memory/migration_planner.hpp"

#include <CL/cl.h>

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace usmcl::runtime {
class ThreadPool;
}
namespace usmcl::memory {
class DevicePool;
}

namespace usmcl::core {

class Platform;

// How clCreateSubDevices was asked to split a device (already validated for
// form by the API layer).
struct PartitionRequest {
    enum class Kind { equally, by_counts, by_affinity_domain };
    Kind kind = Kind::equally;
    unsigned units_per_device = 0;                          // equally
    std::vector<unsigned> counts;                           // by_counts
    cpu::AffinityDomain domain = cpu::AffinityDomain::numa; // by_affinity_domain
    std::vector<cl_device_partition_property> properties;   // as given, 0-terminated
};

// A discrete-memory device: which one, its memory domain and its figures.
struct DiscreteMemory {
    unsigned index = 0;
    memory::DomainId domain = 0;
    cl_device_type type = CL_DEVICE_TYPE_ACCELERATOR;
    cl_ulong bytes = 0;
};

class Device : public Object<Device, _cl_device_id, ObjectType::device> {
public:
    Device(Platform& platform, std::shared_ptr<const cpu::Topology> topology, cpu::CpuSet pus,
           Device* parent, std::vector<cl_device_partition_property> partition_type);
    // A root discrete-memory device over pus: kernels run on those
    // processing units, its memory objects live in memory.domain.
    Device(Platform& platform, std::shared_ptr<const cpu::Topology> topology, cpu::CpuSet pus,
           const DiscreteMemory& memory);
    ~Device();

    Platform& platform() const { return platform_; }
    Device* parent() const { return parent_.get(); }
    bool is_root() const { return !parent_; }
    // Whether the device has memory of its own (not the host's).
    bool is_discrete() const { return !description_.host_unified_memory; }
    const cpu::CpuSet& pus() const { return pus_; }
    const cpu::Topology& topology() const { return *topology_; }
    const DeviceDescription& description() const { return description_; }
    // The properties the device was created with; empty for the root device.
    const std::vector<cl_device_partition_property>& partition_type() const {
        return partition_type_;
    }

    // The device's workers, one pinned to each of its processing units,
    // started on first use.
    runtime::ThreadPool& pool();
    // Where the device's instances of memory objects live: the host domain,
    // or with USMCL_NUMA_DOMAINS=1 the domain of the one NUMA node it is on.
    memory::DomainId memory_domain() const { return memory_domain_; }
    // The pool of USM device allocations of the device's memory domain
    // (shared with the other devices of the domain), created on first use.
    memory::DevicePool& usm_pool();

    // The processing-unit sets request would give, or the spec's error. A
    // request for the next partitionable domain is resolved to the domain
    // used, in request.properties (what CL_DEVICE_PARTITION_TYPE reports).
    Result<std::vector<cpu::CpuSet>> plan_partition(PartitionRequest& request) const;
    // Creates one sub-device per set; each starts with one API reference.
    std::vector<Device*> create_sub_devices(const PartitionRequest& request,
                                            const std::vector<cpu::CpuSet>& sets);

private:
    Platform& platform_;
    std::shared_ptr<const cpu::Topology> topology_;
    cpu::CpuSet pus_;
    Ref<Device> parent_;
    std::vector<cl_device_partition_property> partition_type_;
    DeviceDescription description_;
    // Set for a discrete-memory device and its sub-devices.
    std::optional<DiscreteMemory> discrete_;
    memory::DomainId memory_domain_ = 0;
    std::once_flag pool_once_;
    std::unique_ptr<runtime::ThreadPool> pool_;
    std::once_flag usm_pool_once_;
    memory::DevicePool* usm_pool_ = nullptr; // owned by the platform
};

} // namespace usmcl::core
