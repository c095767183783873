// A memory object: a buffer, a sub-buffer (a view of its parent's bytes
// at an offset), or an image (its texels laid out linearly, see
// core/image.hpp; a 1D buffer image is a view of its buffer's bytes).
// The bytes live in memory::Storage, shared by a buffer and
// its sub-buffers; this object adds the OpenCL side: flags, mappings,
// destructor callbacks, and the commands still copying between domains.
#pragma once

#include "core/context.hpp"
#include "core/image.hpp"
#include "core/object.hpp"
#include "core/result.hpp"
#include "memory/storage.hpp"

#include <CL/cl.h>

#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace usmcl::core {

class Event;

using MemDestructorCallback = void(CL_CALLBACK*)(cl_mem memobj, void* user_data);

class MemObject : public Object<MemObject, _cl_mem, ObjectType::mem> {
public:
    // A buffer; flags and host_ptr already validated. CL_MEM_COPY_HOST_PTR
    // copies now; CL_MEM_USE_HOST_PTR uses host_ptr in place.
    static Result<MemObject*> create_buffer(Context& context, cl_mem_flags flags, size_t size,
                                            void* host_ptr,
                                            std::vector<cl_mem_properties> properties);
    // A sub-buffer of a buffer; flags already merged with the parent's.
    static MemObject* create_sub_buffer(MemObject& parent, cl_mem_flags flags, size_t origin,
                                        size_t size);
    // An image (core/image.cpp); flags, host_ptr and the description
    // already validated. host_row_pitch and host_slice_pitch describe
    // host_ptr: with CL_MEM_USE_HOST_PTR they become the image's pitches,
    // with CL_MEM_COPY_HOST_PTR the texels are copied now into a packed
    // layout. buffer: the buffer of a 1D buffer image, else null.
    static Result<MemObject*> create_image(Context& context, cl_mem_flags flags,
                                           ImageDescription image, void* host_ptr,
                                           size_t host_row_pitch, size_t host_slice_pitch,
                                           MemObject* buffer,
                                           std::vector<cl_mem_properties> properties);

    Context& context() const { return *context_; }
    cl_mem_flags flags() const { return flags_; }
    size_t size() const { return size_; }
    // The host_ptr of CL_MEM_USE_HOST_PTR (plus the offset for sub-buffers), else null.
    void* host_ptr() const { return host_ptr_; }
    MemObject* parent() const { return parent_.get(); }
    size_t offset() const { return offset_; }
    const std::vector<cl_mem_properties>& properties() const { return properties_; }
    // The image's shape; null for buffers and sub-buffers.
    const ImageDescription* image() const { return image_ ? &*image_ : nullptr; }
    // CL_MEM_ASSOCIATED_MEMOBJECT: a sub-buffer's parent, a 1D buffer
    // image's buffer.
    MemObject* associated() const { return image_buffer_ ? image_buffer_.get() : parent_.get(); }
    // CL_MEM_OBJECT_BUFFER or the image's type.
    cl_mem_object_type type() const { return image_ ? image_->type : CL_MEM_OBJECT_BUFFER; }
    // The buffer that owns the storage: this one, or the parent.
    MemObject& root() { return parent_ ? *parent_ : *this; }

    memory::Storage& storage() const { return *storage_; }
    // Serializes planning and recording of commands on the storage (the root's).
    std::mutex& storage_mutex() { return root().storage_mutex_; }

    // clSetMemObjectDestructorCallback: called in reverse order of
    // registration once the memory is no longer used.
    void add_destructor_callback(MemDestructorCallback callback, void* user_data);

    // Mappings: the pointer returned to the application for a map of
    // [offset, offset + size) of this object.
    void* add_mapping(std::byte* pointer, cl_map_flags flags, size_t offset, size_t size);
    struct Mapping {
        void* pointer;
        cl_map_flags flags;
        size_t offset;
        size_t size;
    };
    // Forgets a mapping; nullopt if pointer was not returned by a map of this object.
    std::optional<Mapping> remove_mapping(void* pointer);
    cl_uint map_count() const;

    // The commands copying bytes of this storage between domains that have
    // not finished, per target domain, and the last command that wrote it
    // (used only when there are several domains).
    struct Migrations {
        Ref<Event> last_writer;
        std::vector<std::vector<Ref<Event>>> copies_into; // index: domain id
    };
    Migrations& migrations() { return root().migrations_; }

private:
    friend class Object<MemObject, _cl_mem, ObjectType::mem>;
    MemObject(Context& context, cl_mem_flags flags, size_t size, void* host_ptr,
              std::shared_ptr<memory::Storage> storage, MemObject* parent, size_t offset,
              std::vector<cl_mem_properties> properties);
    // Storage of size bytes over every memory domain: host_ptr used in place
    // with CL_MEM_USE_HOST_PTR (on every device when it lies in an SVM, host
    // or shared USM allocation of the context: memory every device reaches
    // at its address, which the spec makes the buffer's storage); the host
    // instance allocated at once with CL_MEM_COPY_HOST_PTR (the caller
    // copies) or CL_MEM_ALLOC_HOST_PTR.
    static Result<std::shared_ptr<memory::Storage>>
    new_storage(const Context& context, cl_mem_flags flags, size_t size, void* host_ptr);
    ~MemObject();

    struct DestructorCallback {
        MemDestructorCallback callback;
        void* user_data;
    };

    Ref<Context> context_;
    cl_mem_flags flags_;
    size_t size_;
    void* host_ptr_;
    std::shared_ptr<memory::Storage> storage_;
    Ref<MemObject> parent_;
    size_t offset_;
    std::vector<cl_mem_properties> properties_;
    std::optional<ImageDescription> image_;
    Ref<MemObject> image_buffer_;

    std::mutex storage_mutex_;
    Migrations migrations_;

    mutable std::mutex mutex_; // mappings and callbacks
    std::vector<Mapping> mappings_;
    std::vector<DestructorCallback> destructor_callbacks_;
};

} // namespace usmcl::core
