// cl_intel_unified_shared_memory allocations: clHostMemAllocINTEL,
// clDeviceMemAllocINTEL, clSharedMemAllocINTEL, clMemFreeINTEL,
// clMemBlockingFreeINTEL and clGetMemAllocInfoINTEL.
#include "core/usm.hpp"
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/info_writer.hpp"
#include "api/mem_validate.hpp"
#include "api/migration_counters.hpp"
#include "core/context.hpp"

#include <CL/cl_ext.h>

#include <algorithm>

namespace usmcl::api {
namespace {

using memory::UsmKind;

// The size of the largest data type (long16, double16): the default and the
// largest alignment.
constexpr cl_uint largest_type_size = 128;

constexpr cl_mem_alloc_flags_intel placement_flags =
    CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL | CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL;
constexpr cl_mem_alloc_flags_intel known_alloc_flags =
    CL_MEM_ALLOC_WRITE_COMBINED_INTEL | placement_flags;

// CL_INVALID_VALUE unless alignment is 0 or a power of two up to 128.
Status check_alignment(cl_uint alignment) {
    USMCL_CHECK((alignment & (alignment - 1)) == 0, CL_INVALID_VALUE,
                "alignment is not zero or a power of two");
    USMCL_CHECK(alignment <= largest_type_size, CL_INVALID_VALUE,
                "alignment is larger than the largest data type (128 bytes)");
    return {};
}

// The allocation flags of a properties list (CL_INVALID_PROPERTY for
// unknown names, invalid values and repeated names; placement flags only
// for shared allocations, and not both).
Result<cl_mem_alloc_flags_intel> alloc_flags(const cl_mem_properties_intel* properties,
                                             UsmKind kind) {
    cl_mem_alloc_flags_intel flags = 0;
    bool seen_flags = false;
    for (const cl_mem_properties_intel* p = properties; p && p[0] != 0; p += 2) {
        if (p[0] != CL_MEM_ALLOC_FLAGS_INTEL)
            return Status(CL_INVALID_PROPERTY, "unsupported USM allocation property");
        if (seen_flags)
            return Status(CL_INVALID_PROPERTY, "CL_MEM_ALLOC_FLAGS_INTEL is given twice");
        seen_flags = true;
        flags = p[1];
        if (flags & ~known_alloc_flags)
            return Status(CL_INVALID_PROPERTY, "unknown CL_MEM_ALLOC_FLAGS_INTEL bits");
        if (kind != UsmKind::shared && (flags & placement_flags))
            return Status(CL_INVALID_PROPERTY,
                          "initial placement flags are for shared allocations only");
        if ((flags & placement_flags) == placement_flags)
            return Status(CL_INVALID_PROPERTY,
                          "both initial placement flags are given; they exclude each other");
    }
    return flags;
}

Result<void*> allocate(cl_context context, cl_device_id device, UsmKind kind,
                       const cl_mem_properties_intel* properties, size_t size, cl_uint alignment) {
    core::Context* object = core::Context::from_handle(context);
    if (!object)
        return Status(CL_INVALID_CONTEXT, "not a context");
    core::Device* target = nullptr;
    // A device allocation needs a device of the context; a shared one may
    // have none; a host one has none.
    if (kind != UsmKind::host && (device || kind == UsmKind::device)) {
        target = core::Device::from_handle(device);
        if (!target || !object->has_device(target))
            return Status(CL_INVALID_DEVICE, "device is not a device of the context");
    }
    // Every device supports every kind: no CL_INVALID_OPERATION.
    USMCL_TRY(check_alignment(alignment));
    Result<cl_mem_alloc_flags_intel> flags = alloc_flags(properties, kind);
    USMCL_TRY(flags.status());
    if (size == 0)
        return Status(CL_INVALID_BUFFER_SIZE, "size is 0");
    const cl_ulong limit =
        target ? target->description().max_mem_alloc_size : max_alloc_size(*object);
    if (size > limit)
        return Status(CL_INVALID_BUFFER_SIZE, "size is above CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    core::UsmAllocations::Request request;
    request.kind = kind;
    request.device = target;
    request.size = size;
    request.alignment = alignment ? alignment : largest_type_size;
    request.flags = flags.value();
    return object->usm().allocate(request);
}

Status free_allocation(cl_context context, void* ptr, bool blocking) {
    core::Context* object = core::Context::from_handle(context);
    USMCL_CHECK(object, CL_INVALID_CONTEXT, "not a context");
    if (!ptr)
        return {};
    return blocking ? object->usm().blocking_free(ptr) : object->usm().free(ptr);
}

cl_unified_shared_memory_type_intel type_of(UsmKind kind) {
    switch (kind) {
    case UsmKind::host: return CL_MEM_TYPE_HOST_INTEL;
    case UsmKind::device: return CL_MEM_TYPE_DEVICE_INTEL;
    // An SVM buffer answers as shared memory without a device, as Intel's
    // GPU driver (which keeps both in one manager) does.
    case UsmKind::shared:
    case UsmKind::svm: return CL_MEM_TYPE_SHARED_INTEL;
    }
    return CL_MEM_TYPE_UNKNOWN_INTEL;
}

} // namespace

void* CL_API_CALL clHostMemAllocINTEL(cl_context context, const cl_mem_properties_intel* properties,
                                      size_t size, cl_uint alignment, cl_int* errcode_ret) {
    return guarded_create<void*>(__func__, errcode_ret, [&] {
        return allocate(context, nullptr, UsmKind::host, properties, size, alignment);
    });
}

void* CL_API_CALL clDeviceMemAllocINTEL(cl_context context, cl_device_id device,
                                        const cl_mem_properties_intel* properties, size_t size,
                                        cl_uint alignment, cl_int* errcode_ret) {
    return guarded_create<void*>(__func__, errcode_ret, [&] {
        return allocate(context, device, UsmKind::device, properties, size, alignment);
    });
}

void* CL_API_CALL clSharedMemAllocINTEL(cl_context context, cl_device_id device,
                                        const cl_mem_properties_intel* properties, size_t size,
                                        cl_uint alignment, cl_int* errcode_ret) {
    return guarded_create<void*>(__func__, errcode_ret, [&] {
        return allocate(context, device, UsmKind::shared, properties, size, alignment);
    });
}

cl_int CL_API_CALL clMemFreeINTEL(cl_context context, void* ptr) {
    return guarded(__func__, [&] { return free_allocation(context, ptr, false); });
}

cl_int CL_API_CALL clMemBlockingFreeINTEL(cl_context context, void* ptr) {
    return guarded(__func__, [&] { return free_allocation(context, ptr, true); });
}

cl_int CL_API_CALL clGetMemAllocInfoINTEL(cl_context context, const void* ptr,
                                          cl_mem_info_intel param_name, size_t param_value_size,
                                          void* param_value, size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        core::Context* object = core::Context::from_handle(context);
        USMCL_CHECK(object, CL_INVALID_CONTEXT, "not a context");
        // A pointer outside every allocation of the context: the answers of
        // CL_MEM_TYPE_UNKNOWN_INTEL (NULL, 0, NULL, 0).
        const std::optional<memory::UsmAllocation> allocation = object->usm().find(ptr);
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        switch (param_name) {
        case CL_MEM_ALLOC_TYPE_INTEL:
            return out.scalar<cl_unified_shared_memory_type_intel>(
                allocation ? type_of(allocation->kind) : CL_MEM_TYPE_UNKNOWN_INTEL);
        case CL_MEM_ALLOC_BASE_PTR_INTEL:
            return out.scalar<void*>(allocation ? allocation->base : nullptr);
        case CL_MEM_ALLOC_SIZE_INTEL: return out.scalar<size_t>(allocation ? allocation->size : 0);
        case CL_MEM_ALLOC_DEVICE_INTEL: {
            cl_device_id device = nullptr;
            if (allocation && allocation->owner)
                device =
                    const_cast<core::Device*>(static_cast<const core::Device*>(allocation->owner))
                        ->handle();
            return out.scalar<cl_device_id>(device);
        }
        case CL_MEM_ALLOC_FLAGS_INTEL:
            return out.scalar<cl_mem_alloc_flags_intel>(allocation ? allocation->flags : 0);
        case CL_MEM_ALLOC_RESIDENT_BYTES_USMCL:
            return out.scalar<cl_ulong>(
                allocation ? object->usm().traffic(*allocation).resident_bytes : 0);
        default: return {CL_INVALID_VALUE, "unknown cl_mem_info_intel"};
        }
    });
}

cl_int CL_API_CALL clGetMemAllocMigrationCountersUSMCL(cl_context context, const void* ptr,
                                                       cl_uint num_values, cl_ulong* values,
                                                       cl_uint* num_values_ret) {
    return guarded(__func__, [&]() -> Status {
        core::Context* object = core::Context::from_handle(context);
        USMCL_CHECK(object, CL_INVALID_CONTEXT, "not a context");
        const std::optional<memory::UsmAllocation> allocation = object->usm().find(ptr);
        USMCL_CHECK(allocation, CL_INVALID_VALUE, "ptr is not inside a USM allocation");
        const memory::SharedPages::Traffic t = object->usm().traffic(*allocation);
        const std::array<cl_ulong, CL_MIGRATION_COUNTERS_USMCL> counters = {
            t.bytes_to_device, t.bytes_to_host, 0, 0, t.blocks_to_device, t.blocks_to_host, 0, 0};
        return write_migration_counters(counters, num_values, values, num_values_ret);
    });
}

} // namespace usmcl::api
