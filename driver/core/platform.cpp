#include "core/platform.hpp"
#include "core/program.hpp"

#include "support/config.hpp"
#include "support/log.hpp"

#include <algorithm>

namespace usmcl::core {

Platform& Platform::instance() {
    // Never destroyed: applications may still hold handles while exit()
    // runs static destructors.
    static Platform* const platform = new Platform();
    return *platform;
}

Platform::Platform() {
    std::shared_ptr<const cpu::Topology> topology = cpu::Topology::load(&load_error_);
    create_memory_domains(topology);
    if (!topology || topology->allowed_pus().empty()) {
        if (load_error_.empty())
            load_error_ = "no processing unit available";
        USMCL_LOG(device, "no CPU device: %s", load_error_.c_str());
        return;
    }
    root_devices_.push_back(new Device(*this, topology, topology->allowed_pus(), nullptr, {}));
}

memory::DevicePool& Platform::usm_pool(memory::DomainId domain, size_t reserve_bytes) {
    std::lock_guard lock(usm_pools_mutex_);
    if (usm_pools_.size() < memory_domains_.size())
        usm_pools_.resize(memory_domains_.size());
    std::unique_ptr<memory::DevicePool>& pool = usm_pools_[domain];
    if (!pool)
        pool =
            std::make_unique<memory::DevicePool>(reserve_bytes, memory_domains_[domain]->binder());
    return *pool;
}

void Platform::create_memory_domains(const std::shared_ptr<const cpu::Topology>& topology) {
    memory_domains_.push_back(std::make_unique<memory::Domain>(0, "host", -1, nullptr));
    if (!topology || !support::config().numa_domains)
        return;
    const cpu::DomainInfo machine = topology->describe(topology->allowed_pus());
    if (machine.numa_nodes.size() < 2)
        return;
    for (unsigned node : machine.numa_nodes) {
        const auto id = static_cast<memory::DomainId>(memory_domains_.size());
        auto binder = [topology, node](void* address, size_t size) {
            return topology->bind_memory(address, size, node);
        };
        memory_domains_.push_back(std::make_unique<memory::Domain>(
            id, "numa" + std::to_string(node), static_cast<int>(node), binder));
        USMCL_LOG(memory, "memory domain %u: NUMA node %u", id, node);
    }
}

memory::DomainId Platform::domain_of_numa_node(unsigned node) const {
    for (const auto& domain : memory_domains_)
        if (domain->numa_node() == static_cast<int>(node))
            return domain->id();
    return 0;
}

bool Platform::owns_root_device(const Device* device) const {
    return std::find(root_devices_.begin(), root_devices_.end(), device) != root_devices_.end();
}

const std::vector<NameVersion>& Platform::extensions_with_version() {
    static const std::vector<NameVersion> list = [] {
        std::vector<NameVersion> names{{"cl_khr_icd", CL_MAKE_VERSION(1, 0, 0)}};
#define USMCL_DEVICE_EXTENSION(name, major, minor, patch, enabled)                                 \
    if (enabled)                                                                                   \
        names.push_back({#name, CL_MAKE_VERSION(major, minor, patch)});
#include "core/device_features.def"
        return names;
    }();
    return list;
}

const std::string& Platform::extensions() {
    static const std::string text = [] {
        std::string joined;
        for (const NameVersion& entry : extensions_with_version())
            joined += (joined.empty() ? "" : " ") + entry.name;
        return joined;
    }();
    return text;
}

const std::string& Platform::version() {
    static const std::string text = "OpenCL 3.0 usmcl " USMCL_VERSION_STRING;
    return text;
}

const std::string& Platform::driver_version() {
    static const std::string text = USMCL_VERSION_STRING;
    return text;
}

} // namespace usmcl::core
