// The one usmcl platform of the process and its root devices.
#pragma once

#include "core/device.hpp"
#include "core/object.hpp"
#include "memory/device_pool.hpp"
#include "memory/domain.hpp"

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace usmcl::core {

class Platform : public Object<Platform, _cl_platform_id, ObjectType::platform> {
public:
    // The platform, created on first use (thread-safe) and kept for the
    // life of the process.
    static Platform& instance();

    const std::vector<Device*>& root_devices() const { return root_devices_; }
    bool owns_root_device(const Device* device) const;
    // Every memory domain: [0] is the host, then one per NUMA node when
    // USMCL_NUMA_DOMAINS=1 and the machine has several.
    const std::vector<std::unique_ptr<memory::Domain>>& memory_domains() const {
        return memory_domains_;
    }
    // The domain of a NUMA node, or 0 (host) when nodes share host memory.
    memory::DomainId domain_of_numa_node(unsigned node) const;
    // The pool of USM device allocations in a memory domain, created on
    // first use with reserve_bytes of address space (the domain's memory).
    // One pool per domain: sub-devices do not each reserve their own.
    memory::DevicePool& usm_pool(memory::DomainId domain, size_t reserve_bytes);
    // Why there are no devices (hwloc could not read the machine), or empty.
    const std::string& load_error() const { return load_error_; }

    static constexpr const char* name = "usmcl";
    static constexpr const char* vendor = "usmcl";
    // The suffix of the extension functions the platform offers outside the
    // dispatch table: ocl-icd's clGetExtensionFunctionAddress (no platform
    // argument) forwards a name only to platforms whose suffix ends it, and
    // those functions are cl_intel_unified_shared_memory's *INTEL ones.
    static constexpr const char* icd_suffix = "INTEL";
    static constexpr const char* profile = "FULL_PROFILE";
    static constexpr cl_version numeric_version = CL_MAKE_VERSION(3, 0, 0);
    static const std::string& version();
    static const std::string& driver_version();
    // Platform extensions: cl_khr_icd and the extensions every device offers.
    static const std::vector<NameVersion>& extensions_with_version();
    static const std::string& extensions();

private:
    Platform();
    ~Platform() = delete; // lives as long as the process
    friend class Object<Platform, _cl_platform_id, ObjectType::platform>;

    void create_memory_domains(const std::shared_ptr<const cpu::Topology>& topology);

    std::vector<std::unique_ptr<memory::Domain>> memory_domains_;
    std::mutex usm_pools_mutex_;
    std::vector<std::unique_ptr<memory::DevicePool>> usm_pools_; // by domain
    std::vector<Device*> root_devices_;
    std::string load_error_;
};

} // namespace usmcl::core
