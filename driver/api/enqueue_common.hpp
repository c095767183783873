// What every enqueue entry point checks first, and how it finishes.
#pragma once

#include "api/mem_validate.hpp"
#include "api/validate.hpp"
#include "core/queue.hpp"
#include "support/clock.hpp"

#include <array>
#include <cstring>
#include <initializer_list>
#include <optional>

namespace usmcl::api {

struct EnqueueTarget {
    core::CommandQueue* queue = nullptr;
    std::vector<core::Event*> wait_list;
};

// CL_INVALID_COMMAND_QUEUE, then the wait list's errors.
inline Result<EnqueueTarget> enqueue_target(cl_command_queue command_queue, cl_uint num_events,
                                            const cl_event* event_wait_list) {
    core::CommandQueue* queue = core::CommandQueue::from_handle(command_queue);
    if (!queue)
        return Status(CL_INVALID_COMMAND_QUEUE, "not a command queue");
    auto events = wait_list_of(queue->context(), num_events, event_wait_list);
    if (!events.ok())
        return events.status();
    return EnqueueTarget{queue, std::move(events).value()};
}

// The largest fill pattern: the largest vector type (long16, double16).
constexpr size_t largest_pattern_size = 128;

// A fill pattern size both fill commands accept: a power of two up to 128
// bytes.
inline bool valid_pattern_size(size_t pattern_size) {
    return pattern_size != 0 && pattern_size <= largest_pattern_size &&
           (pattern_size & (pattern_size - 1)) == 0;
}

// A memory object (buffer or image) used by a command of queue:
// CL_INVALID_MEM_OBJECT if not a memory object, CL_INVALID_CONTEXT if of
// another context.
inline Result<core::MemObject*> mem_object_for(const core::CommandQueue& queue, cl_mem handle) {
    core::MemObject* mem = core::MemObject::from_handle(handle);
    if (!mem)
        return Status(CL_INVALID_MEM_OBJECT, "not a memory object");
    if (&mem->context() != &queue.context())
        return Status(CL_INVALID_CONTEXT, "the memory object is of another context");
    return mem;
}

// A buffer used by a command of queue: CL_INVALID_MEM_OBJECT if not a
// buffer, CL_INVALID_CONTEXT if of another context.
inline Result<core::MemObject*> buffer_for(const core::CommandQueue& queue, cl_mem handle) {
    core::MemObject* mem = core::MemObject::from_handle(handle);
    if (!mem || mem->image())
        return Status(CL_INVALID_MEM_OBJECT, "not a buffer");
    if (&mem->context() != &queue.context())
        return Status(CL_INVALID_CONTEXT, "the memory object is of another context");
    return mem;
}

// Hands the event out; for blocking calls waits first and reports a failed
// wait list as CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
inline Status finish_enqueue(core::Event* event, bool blocking, cl_event* event_out) {
    core::Ref<core::Event> keep(event);
    hand_out(event, event_out);
    if (blocking && keep->wait() < 0)
        return {CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, "a command it waited for failed"};
    return {};
}

// The layout of a rectangle in linear memory (the Rect variants).
struct RectLayout {
    size_t row_pitch = 0;
    size_t slice_pitch = 0;
    size_t offset(const size_t* origin) const {
        return origin[2] * slice_pitch + origin[1] * row_pitch + origin[0];
    }
    // One past the last byte the rectangle at origin touches.
    size_t end(const size_t* origin, const size_t* region) const {
        return (origin[2] + region[2] - 1) * slice_pitch + (origin[1] + region[1] - 1) * row_pitch +
               origin[0] + region[0];
    }
    bool contiguous(const size_t* region) const {
        return row_pitch == region[0] && (region[2] == 1 || slice_pitch == region[1] * row_pitch);
    }
};

// The pitch rules: 0 means tightly packed; a row pitch below region[0], or
// a slice pitch below region[1] * row pitch, is CL_INVALID_VALUE. For
// clEnqueueCopyBufferRect a slice pitch must also be a multiple of the row
// pitch (its error list says "or"; the Read/Write variants say "and").
inline Result<RectLayout> rect_layout(const size_t* region, size_t row_pitch, size_t slice_pitch,
                                      bool slice_multiple_of_row = false) {
    RectLayout layout;
    if (row_pitch != 0 && row_pitch < region[0])
        return Status(CL_INVALID_VALUE, "row pitch is smaller than region[0]");
    layout.row_pitch = row_pitch ? row_pitch : region[0];
    size_t packed_slice = 0;
    if (__builtin_mul_overflow(region[1], layout.row_pitch, &packed_slice))
        return Status(CL_INVALID_VALUE, "region[1] * row pitch overflows");
    if (slice_pitch != 0 && slice_pitch < packed_slice)
        return Status(CL_INVALID_VALUE, "slice pitch is smaller than region[1] * row pitch");
    if (slice_multiple_of_row && slice_pitch != 0 && slice_pitch % layout.row_pitch != 0)
        return Status(CL_INVALID_VALUE, "slice pitch is not a multiple of the row pitch");
    layout.slice_pitch = slice_pitch ? slice_pitch : packed_slice;
    return layout;
}

// One past the last byte of the rectangle at origin, or nullopt when the
// arithmetic overflows (an origin far out of any buffer).
inline std::optional<size_t> rect_end(const RectLayout& layout, const size_t* origin,
                                      const size_t* region) {
    size_t z = 0, y = 0, zs = 0, ys = 0, sum = 0, end = 0;
    if (__builtin_add_overflow(origin[2], region[2] - 1, &z) ||
        __builtin_add_overflow(origin[1], region[1] - 1, &y) ||
        __builtin_mul_overflow(z, layout.slice_pitch, &zs) ||
        __builtin_mul_overflow(y, layout.row_pitch, &ys) || __builtin_add_overflow(zs, ys, &sum) ||
        __builtin_add_overflow(sum, origin[0], &end) ||
        __builtin_add_overflow(end, region[0], &end))
        return std::nullopt;
    return end;
}

inline Status check_region(const size_t* region) {
    USMCL_CHECK(region, CL_INVALID_VALUE, "region is NULL");
    USMCL_CHECK(region[0] && region[1] && region[2], CL_INVALID_VALUE, "region has a 0");
    return {};
}

// Copies a rectangle between two linear layouts.
inline void copy_rect(std::byte* dst, const RectLayout& dst_layout, const std::byte* src,
                      const RectLayout& src_layout, const size_t* region) {
    for (size_t z = 0; z < region[2]; ++z)
        for (size_t y = 0; y < region[1]; ++y)
            std::memcpy(dst + z * dst_layout.slice_pitch + y * dst_layout.row_pitch,
                        src + z * src_layout.slice_pitch + y * src_layout.row_pitch, region[0]);
}

// A command on memory objects, on the queue's memory domain. A blocking
// command whose dependencies are done runs on the calling thread.
inline Result<core::Event*> enqueue(EnqueueTarget& target, cl_command_type type,
                                    std::initializer_list<core::CommandQueue::MemoryUse> uses,
                                    const core::CommandQueue::WorkFactory& make_work,
                                    bool blocking = false) {
    core::CommandQueue& queue = *target.queue;
    return queue.enqueue_with_memory(
        type, target.wait_list,
        std::span<const core::CommandQueue::MemoryUse>(uses.begin(), uses.size()), make_work,
        queue.memory_domain(), blocking);
}

// A rectangle between host memory (host, host_layout) and the bytes
// [begin, end) of mem (mem_layout, from begin): clEnqueueRead/WriteBufferRect
// and clEnqueueRead/WriteImage. A write that replaces every byte of the range
// (overwrites) does not need its old content. region[0] is in bytes.
inline Status enqueue_rect_transfer(EnqueueTarget& target, cl_command_type type, bool read,
                                    core::MemObject* mem, size_t begin, size_t end,
                                    const RectLayout& mem_layout, bool overwrites, std::byte* host,
                                    const RectLayout& host_layout,
                                    const std::array<size_t, 3>& region, cl_bool blocking,
                                    cl_event* event) {
    using memory::Access;
    const Access access =
        read ? Access::read : (overwrites ? Access::overwrite : Access::read_write);
    auto result = enqueue(
        target, type, {{mem, begin, end - begin, access}},
        [=, domain = &target.queue->domain()](std::span<std::byte* const> at) -> core::Event::Work {
            return [=, bytes = at[0]] {
                const std::uint64_t start = support::monotonic_ns();
                if (read)
                    copy_rect(host, host_layout, bytes, mem_layout, region.data());
                else
                    copy_rect(bytes, mem_layout, host, host_layout, region.data());
                core::finish_host_transfer(*domain, read, region[0] * region[1] * region[2], start);
                return CL_SUCCESS;
            };
        },
        blocking != CL_FALSE);
    USMCL_TRY(result.status());
    return finish_enqueue(result.value(), blocking, event);
}

} // namespace usmcl::api
