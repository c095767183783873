// What every enqueue entry point checks first, and how it finishes.
#pragma once

#include "api/mem_validate.hpp"
#include "api/validate.hpp"
#include "core/commands.hpp"
#include "core/queue.hpp"

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

using core::largest_pattern_size;

// A fill pattern size both fill commands accept: a power of two up to 128
// bytes.
inline bool valid_pattern_size(size_t pattern_size) {
    return pattern_size != 0 && pattern_size <= largest_pattern_size &&
           (pattern_size & (pattern_size - 1)) == 0;
}

// The command's copy of a pattern of a valid size.
inline core::FillPattern fill_pattern(const void* pattern, size_t pattern_size) {
    core::FillPattern copy;
    std::memcpy(copy.bytes.data(), pattern, pattern_size);
    copy.size = pattern_size;
    return copy;
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

// A submitted command: its event handed out (waited for first if
// blocking), or why it could not be enqueued.
inline Status finish_enqueue(const Result<core::Event*>& submitted, bool blocking,
                             cl_event* event_out) {
    USMCL_TRY(submitted.status());
    return finish_enqueue(submitted.value(), blocking, event_out);
}

// A submitted map (clEnqueueMapBuffer, clEnqueueMapImage): its event handed
// out as above, and the mapped address; a failed wait drops the mapping.
inline Result<void*> finish_map(const Result<core::Mapped>& mapped, core::MemObject& mem,
                                bool blocking, cl_event* event_out) {
    if (!mapped.ok())
        return mapped.status();
    const Status finished = finish_enqueue(mapped.value().event, blocking, event_out);
    if (!finished.ok()) {
        mem.remove_mapping(mapped.value().address);
        return finished;
    }
    return static_cast<void*>(mapped.value().address);
}

using core::RectLayout;

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

} // namespace usmcl::api
