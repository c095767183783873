// cl_intel_unified_shared_memory commands: clEnqueueMemFillINTEL,
// clEnqueueMemsetINTEL, clEnqueueMemcpyINTEL, clEnqueueMigrateMemINTEL and
// clEnqueueMemAdviseINTEL; the fill and the copy also serve the SVM
// commands (api/pointer_commands.hpp). They depend only on their wait list
// and the queue's order; each records which allocations it uses, for
// clMemBlockingFreeINTEL.
#include "api/boundary.hpp"
#include "api/enqueue_common.hpp"
#include "api/entrypoints.hpp"
#include "api/pointer_commands.hpp"

#include <CL/cl_ext.h>

namespace usmcl::api {
namespace {

constexpr cl_mem_migration_flags known_migration_flags =
    CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;

} // namespace

Status enqueue_pointer_fill(cl_command_queue command_queue, cl_command_type type, void* dst_ptr,
                            const void* pattern, size_t pattern_size, size_t size,
                            cl_uint num_events, const cl_event* wait_list, cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    USMCL_CHECK(dst_ptr, CL_INVALID_VALUE, "dst_ptr is NULL");
    USMCL_CHECK(pattern, CL_INVALID_VALUE, "pattern is NULL");
    USMCL_CHECK(valid_pattern_size(pattern_size), CL_INVALID_VALUE,
                "pattern_size is not a power of two up to 128");
    USMCL_CHECK(reinterpret_cast<std::uintptr_t>(dst_ptr) % pattern_size == 0, CL_INVALID_VALUE,
                "dst_ptr is not aligned to pattern_size");
    USMCL_CHECK(size % pattern_size == 0, CL_INVALID_VALUE,
                "size is not a multiple of pattern_size");
    const core::PointerFill command{type, dst_ptr, size, fill_pattern(pattern, pattern_size)};
    return finish_enqueue(core::submit(*target->queue, command, target->wait_list), false, event);
}

Status enqueue_pointer_copy(cl_command_queue command_queue, cl_command_type type, cl_bool blocking,
                            void* dst_ptr, const void* src_ptr, size_t size, cl_uint num_events,
                            const cl_event* wait_list, cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    USMCL_CHECK(dst_ptr && src_ptr, CL_INVALID_VALUE, "dst_ptr or src_ptr is NULL");
    const auto dst = reinterpret_cast<std::uintptr_t>(dst_ptr);
    const auto src = reinterpret_cast<std::uintptr_t>(src_ptr);
    // Overlap, without forming dst + size or src + size (they may wrap).
    const bool overlap = size != 0 && (dst >= src ? dst - src < size : src - dst < size);
    USMCL_CHECK(!overlap, CL_MEM_COPY_OVERLAP, "the source and destination ranges overlap");
    const core::PointerCopy command{type, dst_ptr, src_ptr, size};
    return finish_enqueue(
        core::submit(*target->queue, command, target->wait_list, blocking != CL_FALSE),
        blocking != CL_FALSE, event);
}

namespace {

Status migrate(cl_command_queue command_queue, const void* ptr, size_t size,
               cl_mem_migration_flags flags, cl_uint num_events, const cl_event* wait_list,
               cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    USMCL_CHECK(ptr, CL_INVALID_VALUE, "ptr is NULL");
    USMCL_CHECK(flags != 0 && (flags & ~known_migration_flags) == 0, CL_INVALID_VALUE,
                "flags is zero or has unknown bits");
    const core::PointerMigrate command{ptr, size, (flags & CL_MIGRATE_MEM_OBJECT_HOST) != 0};
    return finish_enqueue(core::submit(*target->queue, command, target->wait_list), false, event);
}

Status advise(cl_command_queue command_queue, const void* ptr, size_t size,
              cl_mem_advice_intel advice, cl_uint num_events, const cl_event* wait_list,
              cl_event* event) {
    (void)size;
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    USMCL_CHECK(ptr, CL_INVALID_VALUE, "ptr is NULL");
    // No advice is defined (0x4208-0x420F are reserved); 0 means none.
    USMCL_CHECK(advice == 0, CL_INVALID_VALUE, "unsupported memory advice");
    const void* const pointers[] = {ptr};
    const core::PointerMarker command{CL_COMMAND_MEMADVISE_INTEL, pointers};
    return finish_enqueue(core::submit(*target->queue, command, target->wait_list), false, event);
}

} // namespace

cl_int CL_API_CALL clEnqueueMemFillINTEL(cl_command_queue command_queue, void* dst_ptr,
                                         const void* pattern, size_t pattern_size, size_t size,
                                         cl_uint num_events_in_wait_list,
                                         const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return enqueue_pointer_fill(command_queue, CL_COMMAND_MEMFILL_INTEL, dst_ptr, pattern,
                                    pattern_size, size, num_events_in_wait_list, event_wait_list,
                                    event);
    });
}

// The deprecated byte fill: a fill with the low byte of value.
cl_int CL_API_CALL clEnqueueMemsetINTEL(cl_command_queue command_queue, void* dst_ptr, cl_int value,
                                        size_t size, cl_uint num_events_in_wait_list,
                                        const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        const auto byte = static_cast<unsigned char>(value);
        return enqueue_pointer_fill(command_queue, CL_COMMAND_MEMFILL_INTEL, dst_ptr, &byte, 1,
                                    size, num_events_in_wait_list, event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueMemcpyINTEL(cl_command_queue command_queue, cl_bool blocking,
                                        void* dst_ptr, const void* src_ptr, size_t size,
                                        cl_uint num_events_in_wait_list,
                                        const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return enqueue_pointer_copy(command_queue, CL_COMMAND_MEMCPY_INTEL, blocking, dst_ptr,
                                    src_ptr, size, num_events_in_wait_list, event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueMigrateMemINTEL(cl_command_queue command_queue, const void* ptr,
                                            size_t size, cl_mem_migration_flags flags,
                                            cl_uint num_events_in_wait_list,
                                            const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return migrate(command_queue, ptr, size, flags, num_events_in_wait_list, event_wait_list,
                       event);
    });
}

cl_int CL_API_CALL clEnqueueMemAdviseINTEL(cl_command_queue command_queue, const void* ptr,
                                           size_t size, cl_mem_advice_intel advice,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return advise(command_queue, ptr, size, advice, num_events_in_wait_list, event_wait_list,
                      event);
    });
}

} // namespace usmcl::api
