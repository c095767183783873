// The commands on USM and SVM pointers (core/commands.hpp): their work, and
// the record of the allocations each uses (for clMemBlockingFreeINTEL).
#include "core/commands.hpp"
#include "core/usm.hpp"
#include "runtime/thread_pool.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdint>

namespace usmcl::core {
namespace {

Result<Event*> submit_on_pointers(CommandQueue& queue, cl_command_type type, Event::Work work,
                                  std::span<const void* const> pointers,
                                  std::span<Event* const> wait_list, bool blocking) {
    Event* command =
        queue.enqueue(type, wait_list, std::move(work), CommandQueue::Kind::command, blocking);
    queue.context().usm().record_use(*command, pointers, 0);
    return command;
}

// Moves the whole pages of [ptr, ptr + size) that lie inside a shared
// allocation to the domain's node.
void migrate_pages(const Context& context, const memory::Domain& domain, const void* ptr,
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

// Moves the blocks of [ptr, ptr + size) of a shared allocation of a
// discrete-memory device to domain (nullptr: to the host) when it is that
// device's or the host's; false when ptr is in no such allocation.
bool migrate_shared_pages(const Context& context, const memory::Domain* domain, const void* ptr,
                          size_t size, bool to_host) {
    const auto allocation = context.usm().find(ptr);
    if (!allocation || allocation->kind != memory::UsmKind::shared)
        return false;
    memory::SharedPages* pages = context.usm().shared_pages(allocation->base);
    if (!pages)
        return false;
    const bool to_device = !to_host && domain && domain->id() == pages->device_domain();
    if (to_device || to_host || !domain)
        pages->migrate(static_cast<size_t>(static_cast<const std::byte*>(ptr) - allocation->base),
                       size, to_device);
    return true;
}

} // namespace

Event::Work PointerFill::work(const CommandQueue& queue) const {
    return [pool = &queue.device().pool(), dst = dst, pattern = pattern, size = size]() -> cl_int {
        if (size)
            runtime::parallel_fill(*pool, dst, pattern.bytes.data(), pattern.size, size);
        return CL_SUCCESS;
    };
}

Event::Work PointerCopy::work(const CommandQueue& queue) const {
    return [pool = &queue.device().pool(), dst = dst, src = src, size = size]() -> cl_int {
        if (size)
            runtime::parallel_copy(*pool, dst, src, size);
        return CL_SUCCESS;
    };
}

Event::Work PointerMigrate::work(const CommandQueue& queue) const {
    const memory::Domain* domain = nullptr;
    if (!to_host && queue.memory_domain() != 0)
        domain = &queue.domain();
    return [context = &queue.context(), domain, ptr = ptr, size = size,
            to_host = to_host]() -> cl_int {
        if (migrate_shared_pages(*context, domain, ptr, size, to_host))
            return CL_SUCCESS;
        if (domain)
            migrate_pages(*context, *domain, ptr, size);
        return CL_SUCCESS;
    };
}

Event::Work PointerFree::work(CommandQueue& queue) const {
    return [list = memory, callback = callback, user_data = user_data, handle = queue.handle(),
            usm = &queue.context().usm()]() mutable -> cl_int {
        if (callback) {
            callback(handle, static_cast<cl_uint>(list.size()), list.data(), user_data);
            return CL_SUCCESS;
        }
        for (void* pointer : list)
            if (pointer)
                (void)usm->free(pointer);
        return CL_SUCCESS;
    };
}

Result<Event*> submit(CommandQueue& queue, const PointerFill& command,
                      std::span<Event* const> wait_list) {
    return submit_on_pointers(queue, command.type(), command.work(queue), command.pointers(),
                              wait_list, false);
}

Result<Event*> submit(CommandQueue& queue, const PointerCopy& command,
                      std::span<Event* const> wait_list, bool blocking) {
    return submit_on_pointers(queue, command.type(), command.work(queue), command.pointers(),
                              wait_list, blocking);
}

Result<Event*> submit(CommandQueue& queue, const PointerMigrate& command,
                      std::span<Event* const> wait_list) {
    return submit_on_pointers(queue, command.type(), command.work(queue), command.pointers(),
                              wait_list, false);
}

Result<Event*> submit(CommandQueue& queue, const PointerMarker& command,
                      std::span<Event* const> wait_list, bool blocking) {
    return submit_on_pointers(
        queue, command.type(), [] { return CL_SUCCESS; }, command.pointers(), wait_list, blocking);
}

Result<Event*> submit(CommandQueue& queue, const PointerFree& command,
                      std::span<Event* const> wait_list) {
    return submit_on_pointers(queue, command.type(), command.work(queue), {}, wait_list, false);
}

} // namespace usmcl::core
