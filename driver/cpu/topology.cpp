#include "cpu/topology.hpp"

#include "cpu/hwloc_bitmap.hpp"
#include "cpu/topology_impl.hpp"

#include <cerrno>
#include <cstring>
#include <functional>
#include <utility>

namespace usmcl::cpu {

namespace {

using Configure = std::function<int(hwloc_topology_t)>;

void set_error(std::string* error, std::string message) {
    if (error != nullptr) {
        *error = std::move(message);
    }
}

std::string errno_text() {
    return errno != 0 ? std::strerror(errno) : "unknown error";
}

// The processing units hwloc allows, narrowed to the process's CPU binding
// (taskset, sched_setaffinity) when the topology is the running machine.
CpuSet usable_pus(hwloc_topology_t topology) {
    Bitmap usable(hwloc_topology_get_allowed_cpuset(topology));
    hwloc_bitmap_and(usable.get(), usable.get(), hwloc_topology_get_topology_cpuset(topology));
    if (hwloc_topology_is_thissystem(topology) != 0) {
        Bitmap bound;
        if (hwloc_get_cpubind(topology, bound.get(), HWLOC_CPUBIND_PROCESS) == 0 &&
            hwloc_bitmap_intersects(bound.get(), usable.get()) != 0) {
            hwloc_bitmap_and(usable.get(), usable.get(), bound.get());
        }
    }
    return to_cpu_set(usable.get());
}

std::unique_ptr<Topology::Impl> load_impl(const Configure& configure, std::string* error) {
    auto impl = std::make_unique<Topology::Impl>();
    if (hwloc_topology_init(&impl->topology) != 0) {
        impl->topology = nullptr;
        set_error(error, "hwloc_topology_init failed: " + errno_text());
        return nullptr;
    }
    errno = 0;
    if (configure && configure(impl->topology) != 0) {
        set_error(error, "hwloc rejected the topology source: " + errno_text());
        return nullptr;
    }
    hwloc_topology_set_io_types_filter(impl->topology, HWLOC_TYPE_FILTER_KEEP_NONE);
    errno = 0;
    if (hwloc_topology_load(impl->topology) != 0) {
        set_error(error, "hwloc_topology_load failed: " + errno_text());
        return nullptr;
    }
    // Fills hwloc's internal caches now, so later queries only read.
    if (hwloc_topology_refresh(impl->topology) != 0) {
        set_error(error, "hwloc_topology_refresh failed: " + errno_text());
        return nullptr;
    }
    impl->allowed_pus = usable_pus(impl->topology);
    if (impl->allowed_pus.empty()) {
        set_error(error, "the topology has no usable processing unit");
        return nullptr;
    }
    return impl;
}

} // namespace

Topology::Topology(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Topology::~Topology() = default;

std::shared_ptr<const Topology> Topology::load(std::string* error) {
    auto impl = load_impl(nullptr, error);
    return impl ? std::shared_ptr<const Topology>(new Topology(std::move(impl))) : nullptr;
}

std::shared_ptr<const Topology> Topology::from_synthetic(std::string_view description,
                                                         std::string* error) {
    const std::string text(description);
    auto impl = load_impl(
        [&text](hwloc_topology_t topology) {
            return hwloc_topology_set_synthetic(topology, text.c_str());
        },
        error);
    return impl ? std::shared_ptr<const Topology>(new Topology(std::move(impl))) : nullptr;
}

std::shared_ptr<const Topology> Topology::from_xml_file(const std::string& path,
                                                        std::string* error) {
    auto impl = load_impl(
        [&path](hwloc_topology_t topology) {
            return hwloc_topology_set_xml(topology, path.c_str());
        },
        error);
    return impl ? std::shared_ptr<const Topology>(new Topology(std::move(impl))) : nullptr;
}

const CpuSet& Topology::allowed_pus() const {
    return impl_->allowed_pus;
}

bool Topology::bind_current_thread(const CpuSet& pus) const {
    if (pus.empty()) {
        return false;
    }
    const Bitmap set = to_bitmap(pus);
    return hwloc_set_cpubind(impl_->topology, set.get(), HWLOC_CPUBIND_THREAD) == 0;
}

} // namespace usmcl::cpu
