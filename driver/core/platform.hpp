// The one usmcl platform of the process and its root devices.
#pragma once

#include "core/device.hpp"
#include "core/object.hpp"

#include <memory>
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
    // Why there are no devices (hwloc could not read the machine), or empty.
    const std::string& load_error() const { return load_error_; }

    static constexpr const char* name = "usmcl";
    static constexpr const char* vendor = "usmcl";
    static constexpr const char* icd_suffix = "usmcl";
    static constexpr const char* profile = "FULL_PROFILE";
    static constexpr cl_version numeric_version = CL_MAKE_VERSION(3, 0, 0);
    static const std::string& version();
    static const std::string& driver_version();
    // Platform extensions: the host-API extensions every device offers.
    static const char* extensions() { return "cl_khr_icd cl_khr_extended_versioning"; }

private:
    Platform();
    ~Platform() = delete; // lives as long as the process
    friend class Object<Platform, _cl_platform_id, ObjectType::platform>;

    std::vector<Device*> root_devices_;
    std::string load_error_;
};

} // namespace usmcl::core
