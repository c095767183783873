#include "core/context.hpp"

#include "support/log.hpp"

#include <algorithm>

namespace usmcl::core {

Context::Context(std::vector<Device*> devices, std::vector<cl_context_properties> properties,
                 ContextNotify notify, void* notify_user_data)
    : properties_(std::move(properties)), notify_(notify), notify_user_data_(notify_user_data) {
    devices_.reserve(devices.size());
    for (Device* device : devices)
        devices_.emplace_back(device);
    USMCL_LOG(context, "context %p with %zu devices", static_cast<void*>(this), devices_.size());
}

Context::~Context() {
    // Callbacks run in the reverse order of their registration (OpenCL 3.0,
    // clSetContextDestructorCallback); nothing else can reach the context now.
    for (auto it = destructor_callbacks_.rbegin(); it != destructor_callbacks_.rend(); ++it)
        it->callback(handle(), it->user_data);
    USMCL_LOG(context, "context %p destroyed", static_cast<void*>(this));
}

bool Context::has_device(const Device* device) const {
    return std::any_of(devices_.begin(), devices_.end(),
                       [device](const Ref<Device>& own) { return own.get() == device; });
}

void Context::add_destructor_callback(ContextDestructorCallback callback, void* user_data) {
    std::lock_guard lock(callbacks_mutex_);
    destructor_callbacks_.push_back({callback, user_data});
}

void Context::notify_error(const char* message) const {
    if (notify_)
        notify_(message, nullptr, 0, notify_user_data_);
}

} // namespace usmcl::core
