#include "core/mem_object.hpp"

#include "core/event.hpp"
#include "core/platform.hpp"
#include "runtime/thread_pool.hpp"
#include "support/log.hpp"

#include <algorithm>
#include <cstring>

namespace usmcl::core {

MemObject::MemObject(Context& context, cl_mem_flags flags, size_t size, void* host_ptr,
                     std::shared_ptr<memory::Storage> storage, MemObject* parent, size_t offset,
                     std::vector<cl_mem_properties> properties)
    : context_(&context), flags_(flags), size_(size), host_ptr_(host_ptr),
      storage_(std::move(storage)), parent_(parent), offset_(offset),
      properties_(std::move(properties)) {
    migrations_.copies_into.resize(Platform::instance().memory_domains().size());
}

MemObject::~MemObject() {
    // The bytes go first (unless sub-buffers still share them), then the
    // application learns, in reverse order of registration.
    storage_.reset();
    migrations_ = {};
    if (destructor_callbacks_.empty())
        return;
    runtime::post_callback([callbacks = std::move(destructor_callbacks_), self = handle()] {
        for (auto it = callbacks.rbegin(); it != callbacks.rend(); ++it)
            it->callback(self, it->user_data);
    });
}

Result<std::shared_ptr<memory::Storage>>
MemObject::new_storage(const Context& context, cl_mem_flags flags, size_t size, void* host_ptr) {
    std::vector<const memory::Domain*> list;
    for (const auto& domain : Platform::instance().memory_domains())
        list.push_back(domain.get());
    const bool use_host = flags & CL_MEM_USE_HOST_PTR;
    const bool copy_host = flags & CL_MEM_COPY_HOST_PTR;
    bool everywhere = false;
    if (use_host)
        if (const auto allocation = context.usm().find(host_ptr))
            everywhere = allocation->kind != memory::UsmKind::device;
    auto storage = std::make_shared<memory::Storage>(
        std::move(list), size, use_host ? static_cast<std::byte*>(host_ptr) : nullptr,
        use_host || copy_host, everywhere);
    if ((copy_host || (flags & CL_MEM_ALLOC_HOST_PTR)) && !storage->instance(0))
        return Status(CL_MEM_OBJECT_ALLOCATION_FAILURE, "cannot allocate the memory object");
    return storage;
}

Result<MemObject*> MemObject::create_buffer(Context& context, cl_mem_flags flags, size_t size,
                                            void* host_ptr,
                                            std::vector<cl_mem_properties> properties) {
    const bool use_host = flags & CL_MEM_USE_HOST_PTR;
    Result<std::shared_ptr<memory::Storage>> made = new_storage(context, flags, size, host_ptr);
    if (!made.ok())
        return made.status();
    std::shared_ptr<memory::Storage> storage = std::move(made.value());
    if (flags & CL_MEM_COPY_HOST_PTR)
        std::memcpy(storage->instance(0), host_ptr, size);
    auto* buffer = new MemObject(context, flags, size, use_host ? host_ptr : nullptr,
                                 std::move(storage), nullptr, 0, std::move(properties));
    USMCL_LOG(memory, "buffer %p: %zu bytes, flags 0x%llx", static_cast<void*>(buffer), size,
              static_cast<unsigned long long>(flags));
    return buffer;
}

MemObject* MemObject::create_sub_buffer(MemObject& parent, cl_mem_flags flags, size_t origin,
                                        size_t size) {
    void* host_ptr =
        parent.host_ptr_ ? static_cast<std::byte*>(parent.host_ptr_) + origin : nullptr;
    return new MemObject(*parent.context_, flags, size, host_ptr, parent.storage_, &parent, origin,
                         {});
}

void MemObject::add_destructor_callback(MemDestructorCallback callback, void* user_data) {
    std::lock_guard lock(mutex_);
    destructor_callbacks_.push_back({callback, user_data});
}

void* MemObject::add_mapping(std::byte* pointer, cl_map_flags flags, size_t offset, size_t size) {
    std::lock_guard lock(mutex_);
    mappings_.push_back({pointer, flags, offset, size});
    return pointer;
}

std::optional<MemObject::Mapping> MemObject::remove_mapping(void* pointer) {
    std::lock_guard lock(mutex_);
    auto it = std::find_if(mappings_.begin(), mappings_.end(), [pointer](const Mapping& mapping) {
        return mapping.pointer == pointer;
    });
    if (it == mappings_.end())
        return std::nullopt;
    const Mapping found = *it;
    mappings_.erase(it);
    return found;
}

cl_uint MemObject::map_count() const {
    std::lock_guard lock(mutex_);
    return static_cast<cl_uint>(mappings_.size());
}

} // namespace usmcl::core
