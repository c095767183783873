// The commands of a queue as data: the transfers, copies, fills and maps of
// buffers and images, and the commands on USM and SVM pointers. Each names
// its kind (the cl_command_type it reports), says which memory it uses and
// how, and makes its work; the API layer validates an entry point's
// arguments, fills one in and submits it. Commands on memory objects are
// planned by CommandQueue::enqueue_with_memory (the migrations their uses
// need), commands on pointers record the allocations they use (for
// clMemBlockingFreeINTEL). Kernel launches are core/ndrange.hpp.
#pragma once

#include "core/queue.hpp"
#include "core/result.hpp"

#include <CL/cl.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <vector>

namespace usmcl::core {

// The layout of a rectangle of bytes in linear memory (rows, then slices).
struct RectLayout {
    size_t row_pitch = 0;
    size_t slice_pitch = 0;
    size_t offset(const size_t* origin) const {
        return origin[2] * slice_pitch + origin[1] * row_pitch + origin[0];
    }
    // The rows of region follow each other with nothing between them.
    bool contiguous(const size_t* region) const {
        return row_pitch == region[0] && (region[2] == 1 || slice_pitch == region[1] * row_pitch);
    }
};

// Copies a rectangle of region bytes between two linear layouts.
void copy_rect(std::byte* dst, const RectLayout& dst_layout, const std::byte* src,
               const RectLayout& src_layout, const size_t* region);

using MemoryUse = CommandQueue::MemoryUse;
// The memory a command on memory objects uses: one or two ranges.
class MemoryUses {
public:
    MemoryUses(std::initializer_list<MemoryUse> uses) : count_(std::min(uses.size(), max_uses)) {
        std::copy_n(uses.begin(), count_, uses_.begin());
    }
    const MemoryUse* data() const { return uses_.data(); }
    size_t size() const { return count_; }
    const MemoryUse& operator[](size_t index) const { return uses_[index]; }

private:
    static constexpr size_t max_uses = 2;
    std::array<MemoryUse, max_uses> uses_{};
    size_t count_ = 0;
};

// clEnqueueReadBuffer (read) and clEnqueueWriteBuffer: size bytes between
// host and the buffer at offset.
struct BufferTransfer {
    bool read = false;
    MemObject* buffer = nullptr;
    size_t offset = 0;
    size_t size = 0;
    std::byte* host = nullptr;

    cl_command_type type() const { return read ? CL_COMMAND_READ_BUFFER : CL_COMMAND_WRITE_BUFFER; }
    MemoryUses uses() const;
    Event::Work work(std::span<std::byte* const> at, const CommandQueue& queue) const;
};

// clEnqueueRead/WriteBufferRect and clEnqueueRead/WriteImage: a rectangle of
// region bytes between host memory (host_layout, from host) and the bytes
// [begin, end) of mem (mem_layout, from begin).
struct RectTransfer {
    bool image = false; // Read/WriteImage, else Read/WriteBufferRect
    bool read = false;
    MemObject* mem = nullptr;
    size_t begin = 0;
    size_t end = 0;
    RectLayout mem_layout;
    std::byte* host = nullptr;
    RectLayout host_layout;
    std::array<size_t, 3> region{};

    cl_command_type type() const {
        if (image)
            return read ? CL_COMMAND_READ_IMAGE : CL_COMMAND_WRITE_IMAGE;
        return read ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT;
    }
    MemoryUses uses() const;
    Event::Work work(std::span<std::byte* const> at, const CommandQueue& queue) const;
};

// clEnqueueCopyBuffer.
struct BufferCopy {
    MemObject* src = nullptr;
    size_t src_offset = 0;
    MemObject* dst = nullptr;
    size_t dst_offset = 0;
    size_t size = 0;

    cl_command_type type() const { return CL_COMMAND_COPY_BUFFER; }
    MemoryUses uses() const;
    Event::Work work(std::span<std::byte* const> at, const CommandQueue& queue) const;
};

// clEnqueueCopyBufferRect, clEnqueueCopyImage, clEnqueueCopyImageToBuffer
// and clEnqueueCopyBufferToImage: a rectangle of region bytes from
// [src_begin, src_end) of src (src_layout) to [dst_begin, dst_end) of dst.
struct RectCopy {
    cl_command_type kind = 0;
    MemObject* src = nullptr;
    size_t src_begin = 0;
    size_t src_end = 0;
    RectLayout src_layout;
    MemObject* dst = nullptr;
    size_t dst_begin = 0;
    size_t dst_end = 0;
    RectLayout dst_layout;
    std::array<size_t, 3> region{};

    cl_command_type type() const { return kind; }
    MemoryUses uses() const;
    Event::Work work(std::span<std::byte* const> at, const CommandQueue& queue) const;
};

// The largest fill pattern: the largest vector type (long16, double16).
constexpr size_t largest_pattern_size = 128;

// A fill pattern, copied at enqueue (the application may reuse its own at
// once).
struct FillPattern {
    std::array<std::byte, largest_pattern_size> bytes{};
    size_t size = 0;
};

// clEnqueueFillBuffer.
struct BufferFill {
    MemObject* buffer = nullptr;
    size_t offset = 0;
    size_t size = 0;
    FillPattern pattern;

    cl_command_type type() const { return CL_COMMAND_FILL_BUFFER; }
    MemoryUses uses() const;
    Event::Work work(std::span<std::byte* const> at, const CommandQueue& queue) const;
};

// clEnqueueFillImage: every row of the region of the image's bytes [begin,
// end) (layout) gets the bytes of row (one packed row of texels).
struct ImageFill {
    MemObject* image = nullptr;
    size_t begin = 0;
    size_t end = 0;
    RectLayout layout;
    std::array<size_t, 3> region{};
    std::vector<std::byte> row;

    cl_command_type type() const { return CL_COMMAND_FILL_IMAGE; }
    MemoryUses uses() const;
    Event::Work work(std::span<std::byte* const> at, const CommandQueue& queue) const;
};

// A command that uses memory objects and has no work of its own: its uses
// are the migrations it asks for (to domain). clEnqueueUnmapMemObject (the
// host's writes count from here on), clEnqueueMigrateMemObjects.
struct MemoryOnly {
    cl_command_type kind = 0;
    memory::DomainId domain = 0;
    std::vector<MemoryUse> memory;

    cl_command_type type() const { return kind; }
    std::span<const MemoryUse> uses() const { return memory; }
};

// clEnqueueMapBuffer and clEnqueueMapImage: [offset, offset + size) of mem,
// brought up to date in the host's memory domain (unless access discards
// it), where the mapping is.
struct Map {
    cl_command_type kind = 0;
    MemObject* mem = nullptr;
    cl_map_flags flags = 0;
    size_t offset = 0;
    size_t size = 0;
    memory::Access access = memory::Access::read;

    cl_command_type type() const { return kind; }
};

// Commands on memory objects: the command's event (one API reference, for
// the caller to hand out or release), after the migrations its uses need
// on the queue's device. A blocking command whose dependencies are done runs
// on the calling thread. CL_MEM_OBJECT_ALLOCATION_FAILURE when an instance
// cannot be allocated.
Result<Event*> submit(CommandQueue& queue, const BufferTransfer& command,
                      std::span<Event* const> wait_list, bool blocking);
Result<Event*> submit(CommandQueue& queue, const RectTransfer& command,
                      std::span<Event* const> wait_list, bool blocking);
Result<Event*> submit(CommandQueue& queue, const BufferCopy& command,
                      std::span<Event* const> wait_list);
Result<Event*> submit(CommandQueue& queue, const RectCopy& command,
                      std::span<Event* const> wait_list);
Result<Event*> submit(CommandQueue& queue, const BufferFill& command,
                      std::span<Event* const> wait_list);
Result<Event*> submit(CommandQueue& queue, const ImageFill& command,
                      std::span<Event* const> wait_list);
Result<Event*> submit(CommandQueue& queue, const MemoryOnly& command,
                      std::span<Event* const> wait_list);

// A map's command and where the mapped bytes are (the host instance in
// place: with CL_MEM_USE_HOST_PTR the application's memory). The mapping is
// recorded on the memory object; a caller whose wait then fails removes it.
struct Mapped {
    Event* event = nullptr;
    std::byte* address = nullptr;
};
Result<Mapped> submit(CommandQueue& queue, const Map& command, std::span<Event* const> wait_list);

// Commands on USM or SVM pointers. They depend only on their wait list and
// the queue's order.

// clEnqueueMemFillINTEL, clEnqueueMemsetINTEL, clEnqueueSVMMemFill.
struct PointerFill {
    cl_command_type kind = 0;
    void* dst = nullptr;
    size_t size = 0;
    FillPattern pattern;

    cl_command_type type() const { return kind; }
    std::array<const void*, 1> pointers() const { return {dst}; }
    Event::Work work(const CommandQueue& queue) const;
};

// clEnqueueMemcpyINTEL, clEnqueueSVMMemcpy.
struct PointerCopy {
    cl_command_type kind = 0;
    void* dst = nullptr;
    const void* src = nullptr;
    size_t size = 0;

    cl_command_type type() const { return kind; }
    std::array<const void*, 2> pointers() const { return {dst, src}; }
    Event::Work work(const CommandQueue& queue) const;
};

// clEnqueueMigrateMemINTEL: the whole pages of [ptr, ptr + size) inside a
// shared allocation move to the queue's memory domain (to the host: nothing
// moves, host memory is on no particular node). The shared allocations of
// a discrete-memory device move by blocks to that device (from its queues)
// or to the host (CL_MIGRATE_MEM_OBJECT_HOST, or from the queue of a
// device that uses host memory), with their content whatever the flags:
// the extension refuses flags 0, so CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED
// is the only way to ask for a move to the device, and applications use it
// as a prefetch. A hint: anything else is left alone.
struct PointerMigrate {
    const void* ptr = nullptr;
    size_t size = 0;
    bool to_host = false;

    cl_command_type type() const { return CL_COMMAND_MIGRATEMEM_INTEL; }
    std::array<const void*, 1> pointers() const { return {ptr}; }
    Event::Work work(const CommandQueue& queue) const;
};

// clEnqueueMemAdviseINTEL, clEnqueueSVMMigrateMem, clEnqueueSVMMap and
// clEnqueueSVMUnmap (fine-grained SVM is host memory: nothing to do), the
// SVM free command's wait: commands on pointers with no work.
// The pointers are only read while the command is submitted.
struct PointerMarker {
    cl_command_type kind = 0;
    std::span<const void* const> memory;

    cl_command_type type() const { return kind; }
    std::span<const void* const> pointers() const { return memory; }
};

// clEnqueueSVMFree: the pointers go to callback (with the queue's handle)
// or, without one, are freed.
struct PointerFree {
    using Callback = void(CL_CALLBACK*)(cl_command_queue queue, cl_uint num_svm_pointers,
                                        void* svm_pointers[], void* user_data);
    std::vector<void*> memory;
    Callback callback = nullptr;
    void* user_data = nullptr;

    cl_command_type type() const { return CL_COMMAND_SVM_FREE; }
    Event::Work work(CommandQueue& queue) const;
};

// The command's event (one API reference), after its wait list; blocking:
// as for the memory commands.
Result<Event*> submit(CommandQueue& queue, const PointerFill& command,
                      std::span<Event* const> wait_list);
Result<Event*> submit(CommandQueue& queue, const PointerCopy& command,
                      std::span<Event* const> wait_list, bool blocking);
Result<Event*> submit(CommandQueue& queue, const PointerMigrate& command,
                      std::span<Event* const> wait_list);
Result<Event*> submit(CommandQueue& queue, const PointerMarker& command,
                      std::span<Event* const> wait_list, bool blocking = false);
Result<Event*> submit(CommandQueue& queue, const PointerFree& command,
                      std::span<Event* const> wait_list);

} // namespace usmcl::core
