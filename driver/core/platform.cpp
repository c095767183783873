#include "core/platform.hpp"

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
    if (!topology || topology->allowed_pus().empty()) {
        if (load_error_.empty())
            load_error_ = "no processing unit available";
        USMCL_LOG(device, "no CPU device: %s", load_error_.c_str());
        return;
    }
    root_devices_.push_back(new Device(*this, topology, topology->allowed_pus(), nullptr, {}));
}

bool Platform::owns_root_device(const Device* device) const {
    return std::find(root_devices_.begin(), root_devices_.end(), device) != root_devices_.end();
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
