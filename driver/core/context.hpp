// A context: a set of devices of the usmcl platform, its properties, the
// application's error callback and its destructor callbacks.
#pragma once

#include "core/device.hpp"
#include "core/object.hpp"
#include "core/usm.hpp"

#include <CL/cl.h>

#include <mutex>
#include <vector>

namespace usmcl::core {

using ContextNotify = void(CL_CALLBACK*)(const char* errinfo, const void* private_info, size_t cb,
                                         void* user_data);
using ContextDestructorCallback = void(CL_CALLBACK*)(cl_context context, void* user_data);

class Context : public Object<Context, _cl_context, ObjectType::context> {
public:
    // devices: distinct, non-empty; properties: as given (0-terminated) or empty.
    Context(std::vector<Device*> devices, std::vector<cl_context_properties> properties,
            ContextNotify notify, void* notify_user_data);
    ~Context();

    const std::vector<Ref<Device>>& devices() const { return devices_; }
    bool has_device(const Device* device) const;
    const std::vector<cl_context_properties>& properties() const { return properties_; }

    // Runs when the context is destroyed, after the callbacks registered later.
    void add_destructor_callback(ContextDestructorCallback callback, void* user_data);
    // Tells the application about an error through its pfn_notify, if any.
    void notify_error(const char* message) const;

    // The context's USM allocations.
    UsmAllocations& usm() { return usm_; }
    const UsmAllocations& usm() const { return usm_; }

    // The application's last reference is gone: the records of USM uses
    // hold events, which hold the context.
    void api_released() { usm_.forget_uses(); }

private:
    struct DestructorCallback {
        ContextDestructorCallback callback;
        void* user_data;
    };

    std::vector<Ref<Device>> devices_;
    std::vector<cl_context_properties> properties_;
    ContextNotify notify_;
    void* notify_user_data_;
    std::mutex callbacks_mutex_;
    std::vector<DestructorCallback> destructor_callbacks_;
    // After devices_: destroyed first, while device pools are alive.
    UsmAllocations usm_;
};

} // namespace usmcl::core
