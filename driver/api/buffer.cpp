// Buffer entry points: clCreateBuffer, clCreateBufferWithProperties,
// clCreateSubBuffer, clGetMemObjectInfo, clRetainMemObject,
// clReleaseMemObject, clSetMemObjectDestructorCallback.
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/info_writer.hpp"
#include "api/mem_validate.hpp"
#include "api/migration_counters.hpp"
#include "core/mem_object.hpp"

namespace usmcl::api {
namespace {

Result<cl_mem> create_buffer(cl_context context, const cl_mem_properties* properties,
                             cl_mem_flags flags, size_t size, void* host_ptr) {
    core::Context* object = core::Context::from_handle(context);
    if (!object)
        return Status(CL_INVALID_CONTEXT, "not a context");
    // No buffer property is defined by OpenCL 3.0 or an extension usmcl
    // offers: any name is CL_INVALID_PROPERTY.
    std::vector<cl_mem_properties> copy;
    if (properties) {
        if (properties[0] != 0)
            return Status(CL_INVALID_PROPERTY, "unsupported memory property");
        copy.push_back(0);
    }
    USMCL_TRY(check_mem_flags(flags));
    // CL_INVALID_BUFFER_SIZE if size is 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE
    // of every device of the context.
    if (size == 0)
        return Status(CL_INVALID_BUFFER_SIZE, "size is 0");
    if (size > max_alloc_size(*object))
        return Status(CL_INVALID_BUFFER_SIZE, "size is above CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    // CL_INVALID_HOST_PTR if host_ptr is NULL with USE/COPY_HOST_PTR, or not
    // NULL without them.
    const bool wants_host_ptr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    if (wants_host_ptr != (host_ptr != nullptr))
        return Status(CL_INVALID_HOST_PTR, "host_ptr does not match the flags");
    USMCL_TRY(check_usm_host_ptr(*object, host_ptr,
                                 (flags & CL_MEM_USE_HOST_PTR) ? HostPtrUse::use_host_ptr
                                                               : HostPtrUse::copy_host_ptr));
    // CL_INVALID_BUFFER_SIZE if host_ptr is an SVM pointer and size reaches
    // past its allocation.
    if (const auto svm = svm_allocation_of(*object, host_ptr))
        if (size > svm->size - (static_cast<std::byte*>(host_ptr) - svm->base))
            return Status(CL_INVALID_BUFFER_SIZE, "size reaches past the SVM allocation");
    if ((flags & access_flags) == 0)
        flags |= CL_MEM_READ_WRITE;
    Result<core::MemObject*> buffer =
        core::MemObject::create_buffer(*object, flags, size, host_ptr, std::move(copy));
    if (!buffer.ok())
        return buffer.status();
    return buffer.value()->handle();
}

Result<cl_mem> create_sub_buffer(cl_mem buffer, cl_mem_flags flags,
                                 cl_buffer_create_type buffer_create_type,
                                 const void* buffer_create_info) {
    core::MemObject* parent = core::MemObject::from_handle(buffer);
    // CL_INVALID_MEM_OBJECT if buffer is not a buffer or is a sub-buffer.
    if (!parent || parent->parent() || parent->image())
        return Status(CL_INVALID_MEM_OBJECT, "not a buffer, or a sub-buffer");
    Result<cl_mem_flags> merged = sub_buffer_flags(parent->flags(), flags);
    if (!merged.ok())
        return merged.status();
    if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION)
        return Status(CL_INVALID_VALUE, "buffer_create_type is not CL_BUFFER_CREATE_TYPE_REGION");
    if (buffer_create_info == nullptr)
        return Status(CL_INVALID_VALUE, "buffer_create_info is NULL");
    const auto& region = *static_cast<const cl_buffer_region*>(buffer_create_info);
    if (region.size == 0)
        return Status(CL_INVALID_BUFFER_SIZE, "region size is 0");
    if (region.origin > parent->size() || region.size > parent->size() - region.origin)
        return Status(CL_INVALID_VALUE, "region is out of the buffer");
    // CL_MISALIGNED_SUB_BUFFER_OFFSET if origin is not aligned to
    // CL_DEVICE_MEM_BASE_ADDR_ALIGN of any device of the context.
    if (region.origin % base_address_alignment != 0)
        return Status(CL_MISALIGNED_SUB_BUFFER_OFFSET, "origin is not aligned");
    return core::MemObject::create_sub_buffer(*parent, merged.value(), region.origin, region.size)
        ->handle();
}

} // namespace

cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size,
                                  void* host_ptr, cl_int* errcode_ret) {
    return guarded_create<cl_mem>(__func__, errcode_ret, [&] {
        return create_buffer(context, nullptr, flags, size, host_ptr);
    });
}

cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context,
                                                const cl_mem_properties* properties,
                                                cl_mem_flags flags, size_t size, void* host_ptr,
                                                cl_int* errcode_ret) {
    return guarded_create<cl_mem>(__func__, errcode_ret, [&] {
        return create_buffer(context, properties, flags, size, host_ptr);
    });
}

cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                     cl_buffer_create_type buffer_create_type,
                                     const void* buffer_create_info, cl_int* errcode_ret) {
    return guarded_create<cl_mem>(__func__, errcode_ret, [&] {
        return create_sub_buffer(buffer, flags, buffer_create_type, buffer_create_info);
    });
}

cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
    return guarded(__func__, [&]() -> Status {
        core::MemObject* object = core::MemObject::from_handle(memobj);
        USMCL_CHECK(object, CL_INVALID_MEM_OBJECT, "not a memory object");
        object->retain_api();
        return {};
    });
}

cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
    return guarded(__func__, [&]() -> Status {
        core::MemObject* object = core::MemObject::from_handle(memobj);
        USMCL_CHECK(object, CL_INVALID_MEM_OBJECT, "not a memory object");
        object->release_api();
        return {};
    });
}

cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem memobj,
                                                    core::MemDestructorCallback pfn_notify,
                                                    void* user_data) {
    return guarded(__func__, [&]() -> Status {
        core::MemObject* object = core::MemObject::from_handle(memobj);
        USMCL_CHECK(object, CL_INVALID_MEM_OBJECT, "not a memory object");
        USMCL_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
        object->add_destructor_callback(pfn_notify, user_data);
        return {};
    });
}

cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name,
                                      size_t param_value_size, void* param_value,
                                      size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        core::MemObject* object = core::MemObject::from_handle(memobj);
        USMCL_CHECK(object, CL_INVALID_MEM_OBJECT, "not a memory object");
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        core::MemObject* associated = object->associated();
        switch (param_name) {
        case CL_MEM_TYPE: return out.scalar<cl_mem_object_type>(object->type());
        case CL_MEM_FLAGS: return out.scalar<cl_mem_flags>(object->flags());
        case CL_MEM_SIZE: return out.scalar<size_t>(object->size());
        case CL_MEM_HOST_PTR: return out.scalar<void*>(object->host_ptr());
        case CL_MEM_MAP_COUNT: return out.scalar<cl_uint>(object->map_count());
        case CL_MEM_REFERENCE_COUNT: return out.scalar<cl_uint>(object->api_reference_count());
        case CL_MEM_CONTEXT: return out.scalar<cl_context>(object->context().handle());
        case CL_MEM_ASSOCIATED_MEMOBJECT:
            return out.scalar<cl_mem>(associated ? associated->handle() : nullptr);
        case CL_MEM_OFFSET: return out.scalar<size_t>(object->image() ? 0 : object->offset());
        // A buffer (or sub-buffer of one) over an SVM pointer with
        // CL_MEM_USE_HOST_PTR.
        case CL_MEM_USES_SVM_POINTER:
            return out.boolean((object->flags() & CL_MEM_USE_HOST_PTR) &&
                               svm_allocation_of(object->context(), object->host_ptr()));
        case CL_MEM_PROPERTIES: return out.array(object->properties());
        default: return {CL_INVALID_VALUE, "unknown cl_mem_info"};
        }
    });
}

cl_int CL_API_CALL clGetMemObjectMigrationCountersUSMCL(cl_mem memobj, cl_uint num_values,
                                                        cl_ulong* values, cl_uint* num_values_ret) {
    return guarded(__func__, [&]() -> Status {
        core::MemObject* object = core::MemObject::from_handle(memobj);
        USMCL_CHECK(object, CL_INVALID_MEM_OBJECT, "not a memory object");
        memory::Storage::Planned p;
        {
            std::lock_guard lock(object->storage_mutex());
            p = object->storage().planned();
        }
        const std::array<cl_ulong, CL_MIGRATION_COUNTERS_USMCL> counters = {
            p.bytes_from_host,        p.bytes_to_host,         p.bytes_between_devices,
            p.bytes_between_devices,  p.copies_from_host,      p.copies_to_host,
            p.copies_between_devices, p.copies_between_devices};
        return write_migration_counters(counters, num_values, values, num_values_ret);
    });
}

} // namespace usmcl::api
