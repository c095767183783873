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
#include "core/platform.hpp"
#include "runtime/thread_pool.hpp"

#include <CL/cl_ext.h>

#include <unistd.h>

#include <array>
#include <vector>

namespace usmcl::api {
namespace {

constexpr cl_mem_migration_flags known_migration_flags =
    CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;

} // namespace

Status submit_pointer_command(EnqueueTarget& target, cl_command_type type, core::Event::Work work,
                              std::span<const void* const> pointers, bool blocking,
                              cl_event* event) {
    core::CommandQueue& queue = *target.queue;
    core::Event* command = queue.enqueue(type, target.wait_list, std::move(work),
                                         core::CommandQueue::Kind::command, blocking);
    queue.context().usm().record_use(*command, pointers, 0);
    return finish_enqueue(command, blocking, event);
}

namespace {

Status submit(EnqueueTarget& target, cl_command_type type, core::Event::Work work,
              std::initializer_list<const void*> pointers, bool blocking, cl_event* event) {
    return submit_pointer_command(target, type, std::move(work),
                                  std::span<const void* const>(pointers.begin(), pointers.size()),
                                  blocking, event);
}

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
    std::array<std::byte, largest_pattern_size> copy{};
    std::memcpy(copy.data(), pattern, pattern_size);
    runtime::ThreadPool* pool = &target->queue->device().pool();
    core::Event::Work work = [pool, dst = dst_ptr, copy, pattern_size, size]() -> cl_int {
        if (size)
            runtime::parallel_fill(*pool, dst, copy.data(), pattern_size, size);
        return CL_SUCCESS;
    };
    return submit(target.value(), type, std::move(work), {dst_ptr}, false, event);
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
    runtime::ThreadPool* pool = &target->queue->device().pool();
    core::Event::Work work = [pool, dst_ptr, src_ptr, size]() -> cl_int {
        if (size)
            runtime::parallel_copy(*pool, dst_ptr, src_ptr, size);
        return CL_SUCCESS;
    };
    return submit(target.value(), type, std::move(work), {dst_ptr, src_ptr}, blocking != CL_FALSE,
                  event);
}

namespace {

// Moves the whole pages of [ptr, ptr + size) that lie inside a shared
// allocation to the domain's node. A hint: anything else is left alone.
void migrate_pages(const core::Context& context, const memory::Domain& domain, const void* ptr,
                   size_t size) {
    const auto allocation = context.usm().find(ptr);
    if (!allocation || allocation->kind != memory::UsmKind::shared || size == 0)
        return;
    static const std::uintptr_t page = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
    const auto base = reinterpret_cast<std::uintptr_t>(allocation->base);
    const auto first = reinterpret_cast<std::uintptr_t>(ptr);
    const std::uintptr_t last = first + std::min(size, allocation->size - (first - base));
    const std::uintptr_t begin = std::max(first / page * page, (base + page - 1) / page * page);
    const std::uintptr_t end =
        std::min((last + page - 1) / page * page, (base + allocation->size) / page * page);
    if (end > begin)
        (void)domain.bind(reinterpret_cast<void*>(begin), end - begin);
}

Status migrate(cl_command_queue command_queue, const void* ptr, size_t size,
               cl_mem_migration_flags flags, cl_uint num_events, const cl_event* wait_list,
               cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    USMCL_CHECK(ptr, CL_INVALID_VALUE, "ptr is NULL");
    USMCL_CHECK(flags != 0 && (flags & ~known_migration_flags) == 0, CL_INVALID_VALUE,
                "flags is zero or has unknown bits");
    core::CommandQueue& queue = *target->queue;
    // To the host: host memory is on no particular node, nothing moves. To
    // a device with a NUMA memory domain of its own: the pages move there.
    const memory::Domain* domain = nullptr;
    if (!(flags & CL_MIGRATE_MEM_OBJECT_HOST) && queue.memory_domain() != 0)
        domain = core::Platform::instance().memory_domains()[queue.memory_domain()].get();
    core::Event::Work work = [context = &queue.context(), domain, ptr, size]() -> cl_int {
        if (domain)
            migrate_pages(*context, *domain, ptr, size);
        return CL_SUCCESS;
    };
    return submit(target.value(), CL_COMMAND_MIGRATEMEM_INTEL, std::move(work), {ptr}, false,
                  event);
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
    return submit(
        target.value(), CL_COMMAND_MEMADVISE_INTEL, []() -> cl_int { return CL_SUCCESS; }, {ptr},
        false, event);
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
