#include "core/platform.hpp"
#include "core/program.hpp"

#include "support/config.hpp"
#include "support/log.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>

namespace usmcl::core {

Platform& Platform::instance() {
    // Never destroyed: applications may still hold handles while exit()
    // runs static destructors.
    static Platform* const platform = new Platform();
    return *platform;
}

namespace {

// The smallest memory a discrete-memory device may have.
constexpr std::uint64_t min_discrete_memory = std::uint64_t(1) << 20;

// USMCL_DEVICES: "cpu", "discrete" or "discrete:N", comma-separated; true
// for a CPU device, false for a discrete one, in order. Unknown entries are
// warned about and skipped; an empty list is the CPU device alone.
std::vector<bool> parse_device_list(const std::string& text) {
    std::vector<bool> list;
    size_t begin = 0;
    while (begin <= text.size()) {
        size_t end = text.find(',', begin);
        if (end == std::string::npos)
            end = text.size();
        const std::string entry = text.substr(begin, end - begin);
        begin = end + 1;
        if (entry.empty())
            continue;
        if (entry == "cpu") {
            list.push_back(true);
            continue;
        }
        unsigned count = 0;
        bool valid = entry == "discrete";
        if (valid) {
            count = 1;
        } else if (entry.rfind("discrete:", 0) == 0 && entry.size() > 9 && entry.size() <= 11) {
            valid = std::all_of(entry.begin() + 9, entry.end(),
                                [](char c) { return c >= '0' && c <= '9'; });
            count = valid ? static_cast<unsigned>(std::stoul(entry.substr(9))) : 0;
            valid = valid && count >= 1 && count <= 64;
        }
        if (!valid) {
            std::fprintf(stderr,
                         "usmcl: ignoring \"%s\" in USMCL_DEVICES (expected cpu, discrete or "
                         "discrete:N, N from 1 to 64)\n",
                         entry.c_str());
            continue;
        }
        list.insert(list.end(), count, false);
    }
    if (list.empty())
        list.push_back(true);
    return list;
}

cl_device_type discrete_device_type() {
    const std::string& type = support::config().discrete_type;
    if (type == "gpu")
        return CL_DEVICE_TYPE_GPU;
    // Lets suites that ask for CL_DEVICE_TYPE_CPU run on the device.
    if (type == "cpu")
        return CL_DEVICE_TYPE_CPU;
    if (type != "accelerator")
        std::fprintf(stderr,
                     "usmcl: ignoring USMCL_DISCRETE_TYPE=%s (expected accelerator, gpu or "
                     "cpu)\n",
                     type.c_str());
    return CL_DEVICE_TYPE_ACCELERATOR;
}

} // namespace

Platform::Platform() {
    std::shared_ptr<const cpu::Topology> topology = cpu::Topology::load(&load_error_);
    create_memory_domains(topology);
    if (!topology || topology->allowed_pus().empty()) {
        if (load_error_.empty())
            load_error_ = "no processing unit available";
        USMCL_LOG(device, "no CPU device: %s", load_error_.c_str());
        return;
    }
    std::uint64_t memory = support::config().discrete_memory;
    if (memory < min_discrete_memory) {
        std::fprintf(stderr, "usmcl: USMCL_DISCRETE_MEMORY below 1MiB, using 1MiB\n");
        memory = min_discrete_memory;
    }
    unsigned discrete_count = 0;
    for (bool cpu : parse_device_list(support::config().devices)) {
        if (cpu) {
            root_devices_.push_back(
                new Device(*this, topology, topology->allowed_pus(), nullptr, {}));
            continue;
        }
        const unsigned index = discrete_count++;
        const auto id = static_cast<memory::DomainId>(memory_domains_.size());
        memory_domains_.push_back(std::make_unique<memory::Domain>(
            id, "discrete" + std::to_string(index), static_cast<size_t>(memory)));
        const DiscreteMemory description{index, id, discrete_device_type(),
                                         memory_domains_.back()->region_bytes()};
        root_devices_.push_back(new Device(*this, topology, topology->allowed_pus(), description));
    }
}

memory::DevicePool& Platform::usm_pool(memory::DomainId domain, size_t reserve_bytes) {
    std::lock_guard lock(usm_pools_mutex_);
    if (usm_pools_.size() < memory_domains_.size())
        usm_pools_.resize(memory_domains_.size());
    std::unique_ptr<memory::DevicePool>& pool = usm_pools_[domain];
    const memory::Domain& owner = *memory_domains_[domain];
    if (!pool && owner.has_region())
        pool = std::make_unique<memory::DevicePool>(owner);
    else if (!pool)
        pool = std::make_unique<memory::DevicePool>(reserve_bytes, owner.binder());
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
