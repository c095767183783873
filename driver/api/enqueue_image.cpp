// Image commands: clEnqueueReadImage, clEnqueueWriteImage,
// clEnqueueCopyImage, clEnqueueFillImage, clEnqueueCopyImageToBuffer,
// clEnqueueCopyBufferToImage, clEnqueueMapImage (clEnqueueUnmapMemObject
// is shared with buffers, in enqueue_map.cpp). Images live in buffer
// storage with the layout of core/image.hpp, so every command is a copy of
// rows between two linear layouts, planned like the buffer commands.
#include "api/boundary.hpp"
#include "api/enqueue_common.hpp"
#include "api/entrypoints.hpp"
#include "api/image_validate.hpp"
#include "core/image_format.hpp"

#include <array>
#include <cstring>

namespace usmcl::api {
namespace {

using core::ImageDescription;
using memory::Access;

// The image's texels as a linear layout of rows of bytes.
RectLayout layout_of(const ImageDescription& image) {
    return {image.row_step(), image.slice_step()};
}

std::array<size_t, 3> byte_region(const ImageDescription& image, const size_t* region) {
    return {region[0] * image.element_size, region[1], region[2]};
}

// The host's layout of a Read/WriteImage: row_pitch and slice_pitch, 0 for
// packed; a 1D array's layers are a slice apart (CL_INVALID_VALUE for
// pitches that are too small, or a slice pitch for a 1D or 2D image).
Result<RectLayout> host_layout(const ImageDescription& image, const size_t* region,
                               size_t row_pitch, size_t slice_pitch) {
    const size_t row_bytes = region[0] * image.element_size;
    if (row_pitch == 0)
        row_pitch = row_bytes;
    if (row_pitch < row_bytes)
        return Status(CL_INVALID_VALUE, "row_pitch is below region[0] * element size");
    const bool layered_1d = image.type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    if (!image.has_slices()) {
        if (slice_pitch != 0)
            return Status(CL_INVALID_VALUE, "slice_pitch is not 0 for a 1D or 2D image");
        return RectLayout{row_pitch, row_pitch * region[1]};
    }
    const size_t packed = layered_1d ? row_pitch : row_pitch * region[1];
    if (slice_pitch == 0)
        slice_pitch = packed;
    if (slice_pitch < packed)
        return Status(CL_INVALID_VALUE, "slice_pitch is below the size of a slice");
    return layered_1d ? RectLayout{slice_pitch, slice_pitch} : RectLayout{row_pitch, slice_pitch};
}

Status transfer_image(bool read, cl_command_queue command_queue, cl_mem handle, cl_bool blocking,
                      const size_t* origin, const size_t* region, size_t row_pitch,
                      size_t slice_pitch, void* ptr, cl_uint num_events, const cl_event* wait_list,
                      cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    Result<core::MemObject*> mem = image_for(*target->queue, handle);
    USMCL_TRY(mem.status());
    const ImageDescription& image = *mem.value()->image();
    USMCL_TRY(check_image_region(image, origin, region));
    USMCL_CHECK(ptr, CL_INVALID_VALUE, "ptr is NULL");
    USMCL_TRY(check_usm_host_ptr(target->queue->context(), ptr, HostPtrUse::transfer));
    Result<RectLayout> host = host_layout(image, region, row_pitch, slice_pitch);
    USMCL_TRY(host.status());
    USMCL_CHECK(host_may(*mem.value(), read), CL_INVALID_OPERATION,
                "the image's host access flags forbid this transfer");
    const core::RectTransfer command{true,
                                     read,
                                     mem.value(),
                                     image.offset(origin),
                                     image.end(origin, region),
                                     layout_of(image),
                                     static_cast<std::byte*>(ptr),
                                     host.value(),
                                     byte_region(image, region)};
    return finish_enqueue(
        core::submit(*target->queue, command, target->wait_list, blocking != CL_FALSE),
        blocking != CL_FALSE, event);
}

bool same_format(const cl_image_format& a, const cl_image_format& b) {
    return a.image_channel_order == b.image_channel_order &&
           a.image_channel_data_type == b.image_channel_data_type;
}

// Two boxes of texels of one image share a texel.
bool boxes_overlap(const size_t* a, const size_t* b, const size_t* region) {
    for (int i = 0; i < 3; ++i)
        if (a[i] + region[i] <= b[i] || b[i] + region[i] <= a[i])
            return false;
    return true;
}

Status copy_image(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                  const size_t* src_origin, const size_t* dst_origin, const size_t* region,
                  cl_uint num_events, const cl_event* wait_list, cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    Result<core::MemObject*> src = image_for(*target->queue, src_image);
    USMCL_TRY(src.status());
    Result<core::MemObject*> dst = image_for(*target->queue, dst_image);
    USMCL_TRY(dst.status());
    const ImageDescription& si = *src.value()->image();
    const ImageDescription& di = *dst.value()->image();
    // CL_IMAGE_FORMAT_MISMATCH if the images' formats differ.
    USMCL_CHECK(same_format(si.format, di.format), CL_IMAGE_FORMAT_MISMATCH,
                "the images' formats differ");
    USMCL_TRY(check_image_region(si, src_origin, region));
    USMCL_TRY(check_image_region(di, dst_origin, region));
    // CL_MEM_COPY_OVERLAP if source and destination are one image and the
    // regions overlap.
    if (src.value() == dst.value())
        USMCL_CHECK(!boxes_overlap(src_origin, dst_origin, region), CL_MEM_COPY_OVERLAP,
                    "source and destination regions overlap");
    const core::RectCopy command{CL_COMMAND_COPY_IMAGE, src.value(),
                                 si.offset(src_origin), si.end(src_origin, region),
                                 layout_of(si),         dst.value(),
                                 di.offset(dst_origin), di.end(dst_origin, region),
                                 layout_of(di),         byte_region(si, region)};
    return finish_enqueue(core::submit(*target->queue, command, target->wait_list), false, event);
}

// clEnqueueCopyImageToBuffer (to_buffer) and clEnqueueCopyBufferToImage:
// the buffer side is packed, region[0] texels a row.
Status copy_with_buffer(bool to_buffer, cl_command_queue command_queue, cl_mem image_handle,
                        cl_mem buffer_handle, const size_t* origin, const size_t* region,
                        size_t buffer_offset, cl_uint num_events, const cl_event* wait_list,
                        cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    Result<core::MemObject*> mem = image_for(*target->queue, image_handle);
    USMCL_TRY(mem.status());
    Result<core::MemObject*> buffer = buffer_for(*target->queue, buffer_handle);
    USMCL_TRY(buffer.status());
    const ImageDescription& image = *mem.value()->image();
    USMCL_TRY(check_image_region(image, origin, region));
    const auto bytes = byte_region(image, region);
    const RectLayout bl{bytes[0], bytes[0] * bytes[1]};
    const size_t size = bl.slice_pitch * bytes[2];
    USMCL_CHECK(in_bounds(buffer_offset, size, buffer.value()->size()), CL_INVALID_VALUE,
                "the region is out of the buffer");
    // A 1D buffer image of the same buffer: CL_MEM_COPY_OVERLAP when the
    // bytes meet.
    const size_t begin = image.offset(origin);
    const size_t end = image.end(origin, region);
    if (&mem.value()->root() == &buffer.value()->root()) {
        const size_t a = mem.value()->offset() + begin;
        const size_t b = buffer.value()->offset() + buffer_offset;
        USMCL_CHECK(a + (end - begin) <= b || b + size <= a, CL_MEM_COPY_OVERLAP,
                    "the image and buffer ranges overlap");
    }
    // The buffer side is packed.
    core::RectCopy command{cl_command_type(to_buffer ? CL_COMMAND_COPY_IMAGE_TO_BUFFER
                                                     : CL_COMMAND_COPY_BUFFER_TO_IMAGE),
                           mem.value(),
                           begin,
                           end,
                           layout_of(image),
                           buffer.value(),
                           buffer_offset,
                           buffer_offset + size,
                           bl,
                           bytes};
    if (!to_buffer) {
        std::swap(command.src, command.dst);
        std::swap(command.src_begin, command.dst_begin);
        std::swap(command.src_end, command.dst_end);
        std::swap(command.src_layout, command.dst_layout);
    }
    return finish_enqueue(core::submit(*target->queue, command, target->wait_list), false, event);
}

Status fill_image(cl_command_queue command_queue, cl_mem handle, const void* fill_color,
                  const size_t* origin, const size_t* region, cl_uint num_events,
                  const cl_event* wait_list, cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    Result<core::MemObject*> mem = image_for(*target->queue, handle);
    USMCL_TRY(mem.status());
    const ImageDescription& image = *mem.value()->image();
    USMCL_CHECK(fill_color, CL_INVALID_VALUE, "fill_color is NULL");
    USMCL_TRY(check_image_region(image, origin, region));
    // One row of the region, packed once; the command copies it to each row.
    const auto texel = core::pack_color(image.format, fill_color);
    core::ImageFill command{mem.value(),      image.offset(origin),       image.end(origin, region),
                            layout_of(image), byte_region(image, region), {}};
    command.row.resize(region[0] * image.element_size);
    for (size_t x = 0; x < region[0]; ++x)
        std::memcpy(command.row.data() + x * image.element_size, texel.data(), image.element_size);
    return finish_enqueue(core::submit(*target->queue, command, target->wait_list), false, event);
}

struct MapArguments {
    cl_map_flags flags;
    const size_t* origin;
    const size_t* region;
    size_t* row_pitch;
    size_t* slice_pitch;
};

Result<void*> map_image(cl_command_queue command_queue, cl_mem handle, cl_bool blocking,
                        const MapArguments& a, cl_uint num_events, const cl_event* wait_list,
                        cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    if (!target.ok())
        return target.status();
    Result<core::MemObject*> found = image_for(*target->queue, handle);
    if (!found.ok())
        return found.status();
    core::MemObject& mem = *found.value();
    const ImageDescription& image = *mem.image();
    if (Status s = check_image_region(image, a.origin, a.region); !s.ok())
        return s;
    // CL_INVALID_VALUE if image_row_pitch is NULL, or image_slice_pitch
    // is NULL for a 3D image or an array.
    const bool has_slices = image.has_slices();
    if (!a.row_pitch)
        return Status(CL_INVALID_VALUE, "image_row_pitch is NULL");
    if (has_slices && !a.slice_pitch)
        return Status(CL_INVALID_VALUE, "image_slice_pitch is NULL for a 3D image or an array");
    constexpr cl_map_flags known = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
    if ((a.flags & ~known) != 0)
        return Status(CL_INVALID_VALUE, "unknown map flags");
    const bool invalidate = a.flags & CL_MAP_WRITE_INVALIDATE_REGION;
    if (invalidate && (a.flags & (CL_MAP_READ | CL_MAP_WRITE)))
        return Status(CL_INVALID_VALUE, "CL_MAP_WRITE_INVALIDATE_REGION with READ or WRITE");
    if ((a.flags & CL_MAP_READ) && !host_may(mem, true))
        return Status(CL_INVALID_OPERATION, "mapping for reading an image the host may not read");
    if ((a.flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && !host_may(mem, false))
        return Status(CL_INVALID_OPERATION, "mapping for writing an image the host may not write");
    // Only a region whose rows are contiguous may drop the old content.
    const auto bytes = byte_region(image, a.region);
    const Access access =
        (invalidate && layout_of(image).contiguous(bytes.data()))     ? Access::overwrite
        : (a.flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) ? Access::read_write
                                                                      : Access::read;
    const size_t begin = image.offset(a.origin);
    const core::Map command{
        CL_COMMAND_MAP_IMAGE, &mem, a.flags, begin, image.end(a.origin, a.region) - begin, access};
    Result<void*> mapped =
        finish_map(core::submit(*target->queue, command, target->wait_list), mem, blocking, event);
    if (!mapped.ok())
        return mapped;
    *a.row_pitch = image.row_pitch;
    if (a.slice_pitch)
        *a.slice_pitch = has_slices ? image.slice_step() : 0;
    return mapped;
}

} // namespace

cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image,
                                      cl_bool blocking_read, const size_t* origin,
                                      const size_t* region, size_t row_pitch, size_t slice_pitch,
                                      void* ptr, cl_uint num_events_in_wait_list,
                                      const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return transfer_image(true, command_queue, image, blocking_read, origin, region, row_pitch,
                              slice_pitch, ptr, num_events_in_wait_list, event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image,
                                       cl_bool blocking_write, const size_t* origin,
                                       const size_t* region, size_t input_row_pitch,
                                       size_t input_slice_pitch, const void* ptr,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return transfer_image(false, command_queue, image, blocking_write, origin, region,
                              input_row_pitch, input_slice_pitch, const_cast<void*>(ptr),
                              num_events_in_wait_list, event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image,
                                      cl_mem dst_image, const size_t* src_origin,
                                      const size_t* dst_origin, const size_t* region,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return copy_image(command_queue, src_image, dst_image, src_origin, dst_origin, region,
                          num_events_in_wait_list, event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image,
                                      const void* fill_color, const size_t* origin,
                                      const size_t* region, cl_uint num_events_in_wait_list,
                                      const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return fill_image(command_queue, image, fill_color, origin, region, num_events_in_wait_list,
                          event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                              cl_mem dst_buffer, const size_t* src_origin,
                                              const size_t* region, size_t dst_offset,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return copy_with_buffer(true, command_queue, src_image, dst_buffer, src_origin, region,
                                dst_offset, num_events_in_wait_list, event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                                              cl_mem dst_image, size_t src_offset,
                                              const size_t* dst_origin, const size_t* region,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return copy_with_buffer(false, command_queue, dst_image, src_buffer, dst_origin, region,
                                src_offset, num_events_in_wait_list, event_wait_list, event);
    });
}

void* CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image,
                                    cl_bool blocking_map, cl_map_flags map_flags,
                                    const size_t* origin, const size_t* region,
                                    size_t* image_row_pitch, size_t* image_slice_pitch,
                                    cl_uint num_events_in_wait_list,
                                    const cl_event* event_wait_list, cl_event* event,
                                    cl_int* errcode_ret) {
    return guarded_create<void*>(__func__, errcode_ret, [&] {
        const MapArguments arguments{map_flags, origin, region, image_row_pitch, image_slice_pitch};
        return map_image(command_queue, image, blocking_map, arguments, num_events_in_wait_list,
                         event_wait_list, event);
    });
}

} // namespace usmcl::api
