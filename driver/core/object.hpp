// Every cl_* handle is a pointer to an object whose first member is the ICD
// dispatch table pointer (the loader's ABI), followed by a type tag. The tag
// tells live objects of each type apart from other types and from objects
// the application already released.
//
// Two reference counts (compute-runtime's split): the API count that
// clRetain*/clRelease* change and *_REFERENCE_COUNT reports, and the internal
// count of owners (the API counts as one owner while its count is above 0; a
// command or a child object that must keep the object alive holds another).
#pragma once

#include "core/live_objects.hpp"

#include <CL/cl.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <new>
#include <utility>

// The ICD loader's table of entry points (CL/cl_icd.h), opaque to core.
struct _cl_icd_dispatch;

namespace usmcl::core {

enum class ObjectType : std::uint32_t {
    platform = 1,
    device,
    context,
    command_queue,
    mem,
    sampler,
    program,
    kernel,
    event,
};

// The magic a live object of a type carries; released objects carry dead_magic.
constexpr std::uint32_t live_magic(ObjectType type) {
    return 0x75530000u | static_cast<std::uint32_t>(type);
}
constexpr std::uint32_t dead_magic = 0x7553dead;

struct IcdHeader {
    const _cl_icd_dispatch* dispatch;
    std::uint32_t magic;
};

// The dispatch table every handle carries: driver/api owns it (CL/cl_icd.h
// is the API layer's) and installs it when the library is loaded; core only
// stamps it into new objects.
void install_icd_dispatch(const _cl_icd_dispatch* table);
const _cl_icd_dispatch* icd_dispatch();

} // namespace usmcl::core

// The opaque structs of CL/cl.h, completed here so every handle starts with
// the dispatch pointer.
struct _cl_platform_id : usmcl::core::IcdHeader {};
struct _cl_device_id : usmcl::core::IcdHeader {};
struct _cl_context : usmcl::core::IcdHeader {};
struct _cl_command_queue : usmcl::core::IcdHeader {};
struct _cl_mem : usmcl::core::IcdHeader {};
struct _cl_sampler : usmcl::core::IcdHeader {};
struct _cl_program : usmcl::core::IcdHeader {};
struct _cl_kernel : usmcl::core::IcdHeader {};
struct _cl_event : usmcl::core::IcdHeader {};

namespace usmcl::core {

// Base of every object behind a handle. Derived is the final class (CRTP), so
// objects are deleted without a virtual destructor.
template <class Derived, class Handle, ObjectType Type>
class Object : public Handle {
public:
    using HandleType = Handle*;
    static constexpr ObjectType object_type = Type;

    Object() : serial_(live_objects::next_serial()) {
        this->dispatch = icd_dispatch();
        this->magic = live_magic(Type);
        live_objects::add(static_cast<Handle*>(this));
    }
    Object(const Object&) = delete;
    Object& operator=(const Object&) = delete;

    Handle* handle() { return this; }

    // The live object behind a handle, or nullptr when the handle is null, of
    // another type, or already released by the application. A handle of an
    // object already destroyed is found out without reading its memory.
    static Derived* from_handle(Handle* handle) {
        if (handle == nullptr)
            return nullptr;
        return live_objects::if_live(handle, static_cast<Derived*>(nullptr),
                                     [handle]() -> Derived* {
                                         if (handle->magic != live_magic(Type))
                                             return nullptr;
                                         auto* object = static_cast<Derived*>(handle);
                                         if (object->api_refs_.load(std::memory_order_acquire) == 0)
                                             return nullptr;
                                         return object;
                                     });
    }

    // A number that tells this object apart from any other object that
    // lived or will live at the same address.
    std::uint64_t serial() const { return serial_; }

    // clRetain*: the caller has validated the handle.
    void retain_api() { api_refs_.fetch_add(1, std::memory_order_relaxed); }
    // clRelease*: drops the API count; the API's internal reference goes with
    // the last one.
    void release_api() {
        if (api_refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
            static_cast<Derived*>(this)->api_released();
            release_internal();
        }
    }
    std::uint32_t api_reference_count() const { return api_refs_.load(std::memory_order_relaxed); }

    void retain_internal() { internal_refs_.fetch_add(1, std::memory_order_relaxed); }
    // An internal reference unless the object is being destroyed.
    bool try_retain_internal() {
        std::uint32_t count = internal_refs_.load(std::memory_order_relaxed);
        while (count != 0)
            if (internal_refs_.compare_exchange_weak(count, count + 1, std::memory_order_acquire))
                return true;
        return false;
    }
    void release_internal() {
        if (internal_refs_.fetch_sub(1, std::memory_order_acq_rel) == 1) {
            auto* self = static_cast<Derived*>(this);
            self->magic = dead_magic;
            delete self;
        }
    }

    // A destroyed object's memory keeps the dispatch pointer and the dead
    // magic for a while (live_objects::quarantine), so a stale handle that
    // reaches the ICD loader still dispatches here and is rejected.
    static void* operator new(std::size_t size) { return live_objects::allocate(size); }
    static void operator delete(void* memory) {
        const IcdHeader header{icd_dispatch(), dead_magic};
        std::memcpy(memory, &header, sizeof header);
        live_objects::quarantine(memory);
    }

protected:
    ~Object() { live_objects::remove(static_cast<Handle*>(this)); }
    // Called when the application releases its last reference; derived
    // classes hide it to drop references that could form a cycle.
    void api_released() {}

private:
    std::uint64_t serial_;
    std::atomic<std::uint32_t> api_refs_{1};
    std::atomic<std::uint32_t> internal_refs_{1};
};

// An internal owning reference (holds one internal count).
template <class T>
class Ref {
public:
    Ref() = default;
    // Takes a new internal reference to object.
    explicit Ref(T* object) : object_(object) {
        if (object_)
            object_->retain_internal();
    }
    // Adopts the reference a freshly created object starts with.
    static Ref adopt(T* object) {
        Ref ref;
        ref.object_ = object;
        return ref;
    }
    Ref(const Ref& other) : Ref(other.object_) {}
    Ref(Ref&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
    Ref& operator=(Ref other) noexcept {
        std::swap(object_, other.object_);
        return *this;
    }
    ~Ref() {
        if (object_)
            object_->release_internal();
    }

    T* get() const { return object_; }
    T* operator->() const { return object_; }
    T& operator*() const { return *object_; }
    explicit operator bool() const { return object_ != nullptr; }
    bool operator==(const Ref& other) const { return object_ == other.object_; }

    // Hands the reference over to the caller (e.g. as the API's reference).
    T* release() { return std::exchange(object_, nullptr); }

private:
    T* object_ = nullptr;
};

// A reference to the object that had serial at that address, if it still
// lives and the application still holds it; else an empty reference. For
// objects the driver refers to without owning them (a kernel argument's
// memory object, which clSetKernelArg does not retain).
template <class T>
Ref<T> ref_if_live(T* object, std::uint64_t serial) {
    if (!object)
        return {};
    return live_objects::if_live(object->handle(), Ref<T>(), [&]() -> Ref<T> {
        if (object->magic != live_magic(T::object_type) || object->serial() != serial ||
            object->api_reference_count() == 0 || !object->try_retain_internal())
            return {};
        return Ref<T>::adopt(object);
    });
}

} // namespace usmcl::core
