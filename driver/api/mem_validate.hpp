// Checks shared by the memory object entry points: flags, sizes, regions,
// host access, pitches.
#pragma once

#include "api/boundary.hpp"
#include "core/context.hpp"
#include "core/mem_object.hpp"
#include "core/usm.hpp"

#include <CL/cl.h>

#include <algorithm>
#include <optional>

namespace usmcl::api {

inline constexpr cl_mem_flags access_flags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
inline constexpr cl_mem_flags host_access_flags =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
inline constexpr cl_mem_flags host_ptr_flags =
    CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;
inline constexpr cl_mem_flags known_mem_flags =
    access_flags | host_access_flags | host_ptr_flags | CL_MEM_KERNEL_READ_AND_WRITE;
// CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes.
inline constexpr size_t base_address_alignment = 128;

inline bool at_most_one(cl_mem_flags flags, cl_mem_flags group) {
    const cl_mem_flags set = flags & group;
    return (set & (set - 1)) == 0;
}

// CL_INVALID_VALUE for unknown bits and for combinations the spec excludes.
inline Status check_mem_flags(cl_mem_flags flags) {
    USMCL_CHECK((flags & ~known_mem_flags) == 0, CL_INVALID_VALUE, "unknown cl_mem_flags bits");
    USMCL_CHECK(at_most_one(flags, access_flags), CL_INVALID_VALUE,
                "more than one of READ_WRITE, WRITE_ONLY, READ_ONLY");
    USMCL_CHECK(at_most_one(flags, host_access_flags), CL_INVALID_VALUE,
                "more than one of HOST_WRITE_ONLY, HOST_READ_ONLY, HOST_NO_ACCESS");
    USMCL_CHECK(!((flags & CL_MEM_USE_HOST_PTR) && (flags & CL_MEM_ALLOC_HOST_PTR)),
                CL_INVALID_VALUE, "USE_HOST_PTR with ALLOC_HOST_PTR");
    USMCL_CHECK(!((flags & CL_MEM_USE_HOST_PTR) && (flags & CL_MEM_COPY_HOST_PTR)),
                CL_INVALID_VALUE, "USE_HOST_PTR with COPY_HOST_PTR");
    return {};
}

// The flags of a sub-buffer: what is given, and the parent's for what is
// not; CL_INVALID_VALUE where they contradict the parent's.
inline Result<cl_mem_flags> sub_buffer_flags(cl_mem_flags parent, cl_mem_flags flags) {
    if (flags & ~(access_flags | host_access_flags | CL_MEM_KERNEL_READ_AND_WRITE))
        return Status(CL_INVALID_VALUE, "sub-buffer flags may not name host pointers");
    if (!at_most_one(flags, access_flags) || !at_most_one(flags, host_access_flags))
        return Status(CL_INVALID_VALUE, "contradicting sub-buffer flags");
    if ((parent & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)))
        return Status(CL_INVALID_VALUE, "the parent is write-only");
    if ((parent & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))
        return Status(CL_INVALID_VALUE, "the parent is read-only");
    if ((parent & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY))
        return Status(CL_INVALID_VALUE, "the parent is host write-only");
    if ((parent & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY))
        return Status(CL_INVALID_VALUE, "the parent is host read-only");
    if ((parent & CL_MEM_HOST_NO_ACCESS) &&
        (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))
        return Status(CL_INVALID_VALUE, "the parent has no host access");
    cl_mem_flags merged = flags;
    if ((flags & access_flags) == 0)
        merged |= parent & access_flags;
    if ((flags & host_access_flags) == 0)
        merged |= parent & host_access_flags;
    merged |= parent & host_ptr_flags;
    return merged;
}

// The largest allocation every device of the context allows.
inline cl_ulong max_alloc_size(const core::Context& context) {
    cl_ulong limit = ~cl_ulong{0};
    for (const auto& device : context.devices())
        limit = std::min(limit, device->description().max_mem_alloc_size);
    return limit;
}

// [offset, offset + size) lies in an object of object_size bytes.
inline bool in_bounds(size_t offset, size_t size, size_t object_size) {
    return offset <= object_size && size <= object_size - offset;
}

// The host may read (read = true) or write the object.
inline bool host_may(const core::MemObject& mem, bool read) {
    const cl_mem_flags forbidden = read ? (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)
                                        : (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS);
    return (mem.flags() & forbidden) == 0;
}

// How the cl_mem API uses a host pointer, for pointers into the context's
// USM allocations (the extension's open issues 20-23; docs/usm.md).
enum class HostPtrUse {
    use_host_ptr,  // CL_MEM_USE_HOST_PTR: no USM at all
    copy_host_ptr, // CL_MEM_COPY_HOST_PTR: host USM only
    transfer,      // ptr of clEnqueueRead/WriteBuffer[Rect]: host or device USM
    fill_pattern,  // pattern of clEnqueueFillBuffer: host USM only
};

// CL_INVALID_VALUE for unknown map flags, or WRITE_INVALIDATE_REGION with
// READ or WRITE.
inline Status check_map_flags(cl_map_flags flags) {
    constexpr cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    USMCL_CHECK((flags & ~known) == 0, CL_INVALID_VALUE, "unknown map flags");
    USMCL_CHECK(!(flags & CL_MAP_WRITE_INVALIDATE_REGION) ||
                    !(flags & (CL_MAP_READ | CL_MAP_WRITE)),
                CL_INVALID_VALUE, "CL_MAP_WRITE_INVALIDATE_REGION with READ or WRITE");
    return {};
}

// The SVM allocation of context that contains ptr, if any.
inline std::optional<memory::UsmAllocation> svm_allocation_of(const core::Context& context,
                                                              const void* ptr) {
    if (!ptr)
        return std::nullopt;
    auto allocation = context.usm().find(ptr);
    if (allocation && allocation->kind != memory::UsmKind::svm)
        allocation.reset();
    return allocation;
}

// CL_INVALID_HOST_PTR if ptr points into a USM allocation of context that
// use does not accept.
inline Status check_usm_host_ptr(const core::Context& context, const void* ptr, HostPtrUse use) {
    if (!ptr)
        return {};
    const auto allocation = context.usm().find(ptr);
    if (!allocation)
        return {};
    using memory::UsmKind;
    // An SVM buffer is host memory for every use (a buffer may even be
    // created over it with CL_MEM_USE_HOST_PTR).
    if (allocation->kind == UsmKind::svm)
        return {};
    bool allowed = false;
    switch (use) {
    case HostPtrUse::use_host_ptr: allowed = false; break;
    case HostPtrUse::copy_host_ptr:
    case HostPtrUse::fill_pattern: allowed = allocation->kind == UsmKind::host; break;
    case HostPtrUse::transfer: allowed = allocation->kind != UsmKind::shared; break;
    }
    if (allowed)
        return {};
    return {CL_INVALID_HOST_PTR, "the pointer is USM memory of the context that this use forbids"};
}

} // namespace usmcl::api
