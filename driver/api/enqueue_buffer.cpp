// Buffer transfer commands: clEnqueueReadBuffer, clEnqueueWriteBuffer,
// clEnqueueCopyBuffer, clEnqueueFillBuffer and the Rect variants.
#include "api/boundary.hpp"
#include "api/enqueue_common.hpp"
#include "api/entrypoints.hpp"

#include <array>
#include <cstring>

namespace usmcl::api {
namespace {

// The rows of two rectangles of one buffer share a byte (exact, not by
// bounding ranges): CL_MEM_COPY_OVERLAP.
bool rects_overlap(size_t src_base, const RectLayout& src, size_t dst_base, const RectLayout& dst,
                   const size_t* region) {
    std::vector<std::pair<size_t, size_t>> dst_rows;
    dst_rows.reserve(region[1] * region[2]);
    for (size_t z = 0; z < region[2]; ++z)
        for (size_t y = 0; y < region[1]; ++y) {
            const size_t begin = dst_base + z * dst.slice_pitch + y * dst.row_pitch;
            dst_rows.emplace_back(begin, begin + region[0]);
        }
    for (size_t z = 0; z < region[2]; ++z)
        for (size_t y = 0; y < region[1]; ++y) {
            const size_t begin = src_base + z * src.slice_pitch + y * src.row_pitch;
            const size_t end = begin + region[0];
            // The first destination row that ends after begin.
            auto it =
                std::upper_bound(dst_rows.begin(), dst_rows.end(), begin,
                                 [](size_t value, const auto& row) { return value < row.second; });
            if (it != dst_rows.end() && it->first < end)
                return true;
        }
    return false;
}

// Same storage and overlapping ranges (in the root buffer's coordinates).
bool ranges_overlap(core::MemObject& a, size_t a_offset, core::MemObject& b, size_t b_offset,
                    size_t size) {
    if (&a.root() != &b.root())
        return false;
    const size_t a_begin = a.offset() + a_offset;
    const size_t b_begin = b.offset() + b_offset;
    return a_begin < b_begin + size && b_begin < a_begin + size;
}

// clEnqueueReadBuffer (read) and clEnqueueWriteBuffer: one host memcpy
// between ptr and the buffer's bytes in the queue's memory domain.
Status transfer_buffer(bool read, cl_command_queue command_queue, cl_mem buffer, cl_bool blocking,
                       size_t offset, size_t size, void* ptr, cl_uint num_events,
                       const cl_event* wait_list, cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    Result<core::MemObject*> mem = buffer_for(*target->queue, buffer);
    USMCL_TRY(mem.status());
    USMCL_CHECK(in_bounds(offset, size, mem.value()->size()) && size != 0, CL_INVALID_VALUE,
                "the region is empty or out of the buffer");
    USMCL_CHECK(ptr, CL_INVALID_VALUE, "ptr is NULL");
    USMCL_TRY(check_usm_host_ptr(target->queue->context(), ptr, HostPtrUse::transfer));
    USMCL_CHECK(host_may(*mem.value(), read), CL_INVALID_OPERATION,
                "the buffer's host access flags forbid this transfer");
    const core::BufferTransfer command{read, mem.value(), offset, size,
                                       static_cast<std::byte*>(ptr)};
    return finish_enqueue(
        core::submit(*target->queue, command, target->wait_list, blocking != CL_FALSE),
        blocking != CL_FALSE, event);
}

Status copy_buffer(cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer,
                   size_t src_offset, size_t dst_offset, size_t size, cl_uint num_events,
                   const cl_event* wait_list, cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    Result<core::MemObject*> src = buffer_for(*target->queue, src_buffer);
    USMCL_TRY(src.status());
    Result<core::MemObject*> dst = buffer_for(*target->queue, dst_buffer);
    USMCL_TRY(dst.status());
    USMCL_CHECK(size != 0 && in_bounds(src_offset, size, src.value()->size()) &&
                    in_bounds(dst_offset, size, dst.value()->size()),
                CL_INVALID_VALUE, "the regions are empty or out of the buffers");
    USMCL_CHECK(!ranges_overlap(*src.value(), src_offset, *dst.value(), dst_offset, size),
                CL_MEM_COPY_OVERLAP, "source and destination overlap");
    const core::BufferCopy command{src.value(), src_offset, dst.value(), dst_offset, size};
    return finish_enqueue(core::submit(*target->queue, command, target->wait_list), false, event);
}

Status fill_buffer(cl_command_queue command_queue, cl_mem buffer, const void* pattern,
                   size_t pattern_size, size_t offset, size_t size, cl_uint num_events,
                   const cl_event* wait_list, cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    Result<core::MemObject*> mem = buffer_for(*target->queue, buffer);
    USMCL_TRY(mem.status());
    // CL_INVALID_VALUE if pattern is NULL, pattern_size is not one of 1, 2,
    // 4, ..., 128, or offset and size are not multiples of pattern_size.
    USMCL_CHECK(pattern, CL_INVALID_VALUE, "pattern is NULL");
    USMCL_TRY(check_usm_host_ptr(target->queue->context(), pattern, HostPtrUse::fill_pattern));
    USMCL_CHECK(valid_pattern_size(pattern_size), CL_INVALID_VALUE,
                "pattern_size is not a power of two up to 128");
    USMCL_CHECK(offset % pattern_size == 0 && size % pattern_size == 0, CL_INVALID_VALUE,
                "offset or size is not a multiple of pattern_size");
    USMCL_CHECK(in_bounds(offset, size, mem.value()->size()) && size != 0, CL_INVALID_VALUE,
                "the region is empty or out of the buffer");
    const core::BufferFill command{mem.value(), offset, size, fill_pattern(pattern, pattern_size)};
    return finish_enqueue(core::submit(*target->queue, command, target->wait_list), false, event);
}

struct RectArguments {
    const size_t* buffer_origin;
    const size_t* host_origin;
    const size_t* region;
    size_t buffer_row_pitch, buffer_slice_pitch, host_row_pitch, host_slice_pitch;
};

Status transfer_rect(bool read, cl_command_queue command_queue, cl_mem buffer, cl_bool blocking,
                     const RectArguments& a, void* ptr, cl_uint num_events,
                     const cl_event* wait_list, cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    Result<core::MemObject*> mem = buffer_for(*target->queue, buffer);
    USMCL_TRY(mem.status());
    USMCL_CHECK(a.buffer_origin && a.host_origin, CL_INVALID_VALUE, "an origin is NULL");
    USMCL_TRY(check_region(a.region));
    USMCL_CHECK(ptr, CL_INVALID_VALUE, "ptr is NULL");
    USMCL_TRY(check_usm_host_ptr(target->queue->context(), ptr, HostPtrUse::transfer));
    Result<RectLayout> buffer_layout =
        rect_layout(a.region, a.buffer_row_pitch, a.buffer_slice_pitch);
    USMCL_TRY(buffer_layout.status());
    Result<RectLayout> host_layout = rect_layout(a.region, a.host_row_pitch, a.host_slice_pitch);
    USMCL_TRY(host_layout.status());
    const RectLayout bl = buffer_layout.value();
    const RectLayout hl = host_layout.value();
    const std::optional<size_t> buffer_end = rect_end(bl, a.buffer_origin, a.region);
    USMCL_CHECK(buffer_end && *buffer_end <= mem.value()->size(), CL_INVALID_VALUE,
                "the region is out of the buffer");
    USMCL_CHECK(rect_end(hl, a.host_origin, a.region), CL_INVALID_VALUE,
                "the host region overflows");
    const size_t begin = bl.offset(a.buffer_origin);
    const size_t end = *buffer_end;
    USMCL_CHECK(host_may(*mem.value(), read), CL_INVALID_OPERATION,
                "the buffer's host access flags forbid this transfer");
    const core::RectTransfer command{false,
                                     read,
                                     mem.value(),
                                     begin,
                                     end,
                                     bl,
                                     static_cast<std::byte*>(ptr) + hl.offset(a.host_origin),
                                     hl,
                                     {a.region[0], a.region[1], a.region[2]}};
    return finish_enqueue(
        core::submit(*target->queue, command, target->wait_list, blocking != CL_FALSE),
        blocking != CL_FALSE, event);
}

} // namespace

cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                                       cl_bool blocking_read, size_t offset, size_t size, void* ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return transfer_buffer(true, command_queue, buffer, blocking_read, offset, size, ptr,
                               num_events_in_wait_list, event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                                        cl_bool blocking_write, size_t offset, size_t size,
                                        const void* ptr, cl_uint num_events_in_wait_list,
                                        const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return transfer_buffer(false, command_queue, buffer, blocking_write, offset, size,
                               const_cast<void*>(ptr), num_events_in_wait_list, event_wait_list,
                               event);
    });
}

cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                                       cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                                       size_t size, cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return copy_buffer(command_queue, src_buffer, dst_buffer, src_offset, dst_offset, size,
                           num_events_in_wait_list, event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer,
                                       const void* pattern, size_t pattern_size, size_t offset,
                                       size_t size, cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return fill_buffer(command_queue, buffer, pattern, pattern_size, offset, size,
                           num_events_in_wait_list, event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                           cl_bool blocking_read, const size_t* buffer_origin,
                                           const size_t* host_origin, const size_t* region,
                                           size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                           size_t host_row_pitch, size_t host_slice_pitch,
                                           void* ptr, cl_uint num_events_in_wait_list,
                                           const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        const RectArguments arguments{buffer_origin,    host_origin,        region,
                                      buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                                      host_slice_pitch};
        return transfer_rect(true, command_queue, buffer, blocking_read, arguments, ptr,
                             num_events_in_wait_list, event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                            cl_bool blocking_write, const size_t* buffer_origin,
                                            const size_t* host_origin, const size_t* region,
                                            size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                            size_t host_row_pitch, size_t host_slice_pitch,
                                            const void* ptr, cl_uint num_events_in_wait_list,
                                            const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        const RectArguments arguments{buffer_origin,    host_origin,        region,
                                      buffer_row_pitch, buffer_slice_pitch, host_row_pitch,
                                      host_slice_pitch};
        return transfer_rect(false, command_queue, buffer, blocking_write, arguments,
                             const_cast<void*>(ptr), num_events_in_wait_list, event_wait_list,
                             event);
    });
}

cl_int CL_API_CALL clEnqueueCopyBufferRect(cl_command_queue command_queue, cl_mem src_buffer,
                                           cl_mem dst_buffer, const size_t* src_origin,
                                           const size_t* dst_origin, const size_t* region,
                                           size_t src_row_pitch, size_t src_slice_pitch,
                                           size_t dst_row_pitch, size_t dst_slice_pitch,
                                           cl_uint num_events_in_wait_list,
                                           const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&]() -> Status {
        Result<EnqueueTarget> target =
            enqueue_target(command_queue, num_events_in_wait_list, event_wait_list);
        USMCL_TRY(target.status());
        Result<core::MemObject*> src = buffer_for(*target->queue, src_buffer);
        USMCL_TRY(src.status());
        Result<core::MemObject*> dst = buffer_for(*target->queue, dst_buffer);
        USMCL_TRY(dst.status());
        USMCL_CHECK(src_origin && dst_origin, CL_INVALID_VALUE, "an origin is NULL");
        USMCL_TRY(check_region(region));
        Result<RectLayout> src_layout = rect_layout(region, src_row_pitch, src_slice_pitch, true);
        USMCL_TRY(src_layout.status());
        Result<RectLayout> dst_layout = rect_layout(region, dst_row_pitch, dst_slice_pitch, true);
        USMCL_TRY(dst_layout.status());
        const RectLayout sl = src_layout.value();
        const RectLayout dl = dst_layout.value();
        const std::optional<size_t> src_last = rect_end(sl, src_origin, region);
        const std::optional<size_t> dst_last = rect_end(dl, dst_origin, region);
        USMCL_CHECK(src_last && dst_last && *src_last <= src.value()->size() &&
                        *dst_last <= dst.value()->size(),
                    CL_INVALID_VALUE, "a region is out of its buffer");
        const size_t src_begin = sl.offset(src_origin);
        const size_t src_end = *src_last;
        const size_t dst_begin = dl.offset(dst_origin);
        const size_t dst_end = *dst_last;
        // One buffer whose source and destination differ in both row and
        // slice pitch: CL_INVALID_VALUE.
        USMCL_CHECK(src.value() != dst.value() ||
                        (sl.row_pitch == dl.row_pitch || sl.slice_pitch == dl.slice_pitch),
                    CL_INVALID_VALUE, "one buffer, different source and destination pitches");
        if (&src.value()->root() == &dst.value()->root()) {
            USMCL_CHECK(!rects_overlap(src.value()->offset() + src_begin, sl,
                                       dst.value()->offset() + dst_begin, dl, region),
                        CL_MEM_COPY_OVERLAP, "source and destination overlap");
        }
        const core::RectCopy command{CL_COMMAND_COPY_BUFFER_RECT,
                                     src.value(),
                                     src_begin,
                                     src_end,
                                     sl,
                                     dst.value(),
                                     dst_begin,
                                     dst_end,
                                     dl,
                                     {region[0], region[1], region[2]}};
        return finish_enqueue(core::submit(*target->queue, command, target->wait_list), false,
                              event);
    });
}

} // namespace usmcl::api
