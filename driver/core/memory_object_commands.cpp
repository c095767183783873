// The commands on buffers and images (core/commands.hpp): their uses and
// their work. Images live in buffer storage with the layout of
// core/image.hpp, so every image command is a copy of rows between two
// linear layouts, planned like the buffer commands.
#include "core/commands.hpp"
#include "runtime/thread_pool.hpp"
#include "support/clock.hpp"

#include <cstring>

namespace usmcl::core {
namespace {

using memory::Access;

constexpr memory::DomainId host_domain = 0;

// A command with work on its uses in the queue's memory domain.
template <class Command>
Result<Event*> submit_with_work(CommandQueue& queue, const Command& command,
                                std::span<Event* const> wait_list, bool blocking) {
    const MemoryUses uses = command.uses();
    return queue.enqueue_with_memory(
        command.type(), wait_list, std::span<const MemoryUse>(uses.data(), uses.size()),
        [&](std::span<std::byte* const> at) { return command.work(at, queue); },
        queue.memory_domain(), blocking);
}

Event::Work no_work(std::span<std::byte* const>) {
    return [] { return CL_SUCCESS; };
}

} // namespace

void copy_rect(std::byte* dst, const RectLayout& dst_layout, const std::byte* src,
               const RectLayout& src_layout, const size_t* region) {
    for (size_t z = 0; z < region[2]; ++z)
        for (size_t y = 0; y < region[1]; ++y)
            std::memcpy(dst + z * dst_layout.slice_pitch + y * dst_layout.row_pitch,
                        src + z * src_layout.slice_pitch + y * src_layout.row_pitch, region[0]);
}

MemoryUses BufferTransfer::uses() const {
    return {{buffer, offset, size, read ? Access::read : Access::overwrite}};
}

Event::Work BufferTransfer::work(std::span<std::byte* const> at, const CommandQueue& queue) const {
    return [read = read, host = host, bytes = at[0], size = size, pool = &queue.device().pool(),
            domain = &queue.domain()] {
        const std::uint64_t start = support::monotonic_ns();
        if (read)
            runtime::parallel_copy(*pool, host, bytes, size);
        else
            runtime::parallel_copy(*pool, bytes, host, size);
        finish_host_transfer(*domain, read, size, start);
        return CL_SUCCESS;
    };
}

// A write that replaces every byte of its range (its rows are contiguous)
// does not need the range's old content.
MemoryUses RectTransfer::uses() const {
    const Access access = read                                   ? Access::read
                          : mem_layout.contiguous(region.data()) ? Access::overwrite
                                                                 : Access::read_write;
    return {{mem, begin, end - begin, access}};
}

Event::Work RectTransfer::work(std::span<std::byte* const> at, const CommandQueue& queue) const {
    return [c = *this, bytes = at[0], domain = &queue.domain()] {
        const std::uint64_t start = support::monotonic_ns();
        if (c.read)
            copy_rect(c.host, c.host_layout, bytes, c.mem_layout, c.region.data());
        else
            copy_rect(bytes, c.mem_layout, c.host, c.host_layout, c.region.data());
        finish_host_transfer(*domain, c.read, c.region[0] * c.region[1] * c.region[2], start);
        return CL_SUCCESS;
    };
}

MemoryUses BufferCopy::uses() const {
    return {{src, src_offset, size, Access::read}, {dst, dst_offset, size, Access::overwrite}};
}

Event::Work BufferCopy::work(std::span<std::byte* const> at, const CommandQueue& queue) const {
    return [from = at[0], to = at[1], size = size, pool = &queue.device().pool()] {
        runtime::parallel_copy(*pool, to, from, size);
        return CL_SUCCESS;
    };
}

MemoryUses RectCopy::uses() const {
    const Access dst_access =
        dst_layout.contiguous(region.data()) ? Access::overwrite : Access::read_write;
    return {{src, src_begin, src_end - src_begin, Access::read},
            {dst, dst_begin, dst_end - dst_begin, dst_access}};
}

Event::Work RectCopy::work(std::span<std::byte* const> at, const CommandQueue&) const {
    return [from = at[0], to = at[1], sl = src_layout, dl = dst_layout, region = region] {
        copy_rect(to, dl, from, sl, region.data());
        return CL_SUCCESS;
    };
}

MemoryUses BufferFill::uses() const {
    return {{buffer, offset, size, Access::overwrite}};
}

Event::Work BufferFill::work(std::span<std::byte* const> at, const CommandQueue& queue) const {
    return [dst = at[0], pattern = pattern, size = size, pool = &queue.device().pool()] {
        runtime::parallel_fill(*pool, dst, pattern.bytes.data(), pattern.size, size);
        return CL_SUCCESS;
    };
}

MemoryUses ImageFill::uses() const {
    const Access access = layout.contiguous(region.data()) ? Access::overwrite : Access::read_write;
    return {{image, begin, end - begin, access}};
}

Event::Work ImageFill::work(std::span<std::byte* const> at, const CommandQueue&) const {
    // Every row from the same bytes.
    return [texels = at[0], row = row, layout = layout, region = region] {
        copy_rect(texels, layout, row.data(), RectLayout{0, 0}, region.data());
        return CL_SUCCESS;
    };
}

Result<Event*> submit(CommandQueue& queue, const BufferTransfer& command,
                      std::span<Event* const> wait_list, bool blocking) {
    return submit_with_work(queue, command, wait_list, blocking);
}

Result<Event*> submit(CommandQueue& queue, const RectTransfer& command,
                      std::span<Event* const> wait_list, bool blocking) {
    return submit_with_work(queue, command, wait_list, blocking);
}

Result<Event*> submit(CommandQueue& queue, const BufferCopy& command,
                      std::span<Event* const> wait_list) {
    return submit_with_work(queue, command, wait_list, false);
}

Result<Event*> submit(CommandQueue& queue, const RectCopy& command,
                      std::span<Event* const> wait_list) {
    return submit_with_work(queue, command, wait_list, false);
}

Result<Event*> submit(CommandQueue& queue, const BufferFill& command,
                      std::span<Event* const> wait_list) {
    return submit_with_work(queue, command, wait_list, false);
}

Result<Event*> submit(CommandQueue& queue, const ImageFill& command,
                      std::span<Event* const> wait_list) {
    return submit_with_work(queue, command, wait_list, false);
}

Result<Event*> submit(CommandQueue& queue, const MemoryOnly& command,
                      std::span<Event* const> wait_list) {
    return queue.enqueue_with_memory(command.type(), wait_list, command.uses(), no_work,
                                     command.domain, false);
}

Result<Mapped> submit(CommandQueue& queue, const Map& command, std::span<Event* const> wait_list) {
    std::byte* mapped = nullptr;
    const MemoryUse use{command.mem, command.offset, command.size, command.access};
    Result<Event*> event = queue.enqueue_with_memory(
        command.type(), wait_list, std::span<const MemoryUse>(&use, 1),
        [&mapped](std::span<std::byte* const> at) {
            mapped = at[0];
            return no_work(at);
        },
        host_domain);
    if (!event.ok())
        return event.status();
    command.mem->add_mapping(mapped, command.flags, command.offset, command.size);
    return Mapped{event.value(), mapped};
}

} // namespace usmcl::core
