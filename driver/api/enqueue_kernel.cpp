// clEnqueueNDRangeKernel and clEnqueueTask.
#include "api/boundary.hpp"
#include "api/enqueue_common.hpp"
#include "api/entrypoints.hpp"
#include "core/kernel.hpp"
#include "runtime/launcher.hpp"
#include "support/small_vector.hpp"

#include <cstring>

namespace usmcl::api {
namespace {

using core::Kernel;
using memory::Access;

constexpr size_t local_alignment = 128;

// A local size for dimension d when the application gives none: the largest
// divisor of the global size that keeps every worker busy and stays within
// the device's limits.
std::array<std::uint64_t, 3> choose_local_size(const runtime::NDRange& range,
                                               const core::DeviceDescription& d, unsigned workers) {
    std::array<std::uint64_t, 3> local{1, 1, 1};
    std::uint64_t budget = d.max_work_group_size;
    for (unsigned dim = 0; dim < range.dimensions; ++dim) {
        const std::uint64_t global = range.global_size[dim];
        // Keep enough groups in dimension 0 for every worker.
        const std::uint64_t cap = dim == 0 ? std::max<std::uint64_t>(1, global / workers) : global;
        std::uint64_t best = 1;
        const std::uint64_t limit =
            std::min<std::uint64_t>({cap, budget, d.max_work_item_sizes[dim], 1024});
        for (std::uint64_t candidate = limit; candidate >= 1; --candidate)
            if (global % candidate == 0) {
                best = candidate;
                break;
            }
        local[dim] = best;
        budget = std::max<std::uint64_t>(1, budget / best);
    }
    return local;
}

Status enqueue_ndrange(cl_command_queue command_queue, cl_kernel kernel_handle, cl_uint work_dim,
                       const size_t* global_work_offset, const size_t* global_work_size,
                       const size_t* local_work_size, cl_uint num_events, const cl_event* wait_list,
                       cl_event* event, cl_command_type type) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    core::CommandQueue& queue = *target->queue;
    Kernel* kernel = Kernel::from_handle(kernel_handle);
    USMCL_CHECK(kernel, CL_INVALID_KERNEL, "not a kernel");
    USMCL_CHECK(&kernel->program().context() == &queue.context(), CL_INVALID_CONTEXT,
                "the kernel is of another context");
    USMCL_CHECK(kernel->program().executable_for(queue.device()), CL_INVALID_PROGRAM_EXECUTABLE,
                "the program is not built for the queue's device");
    USMCL_CHECK(work_dim >= 1 && work_dim <= 3, CL_INVALID_WORK_DIMENSION,
                "work_dim is not 1, 2 or 3");
    // A NULL global size, like a 0 in any dimension, is a command that runs
    // nothing (OpenCL 2.1 and later; the error is deprecated).
    static constexpr size_t no_work_items[3] = {0, 0, 0};
    if (!global_work_size)
        global_work_size = no_work_items;
    const kc::KernelInfo& info = kernel->info();
    const core::DeviceDescription& d = queue.device().description();

    runtime::NDRange range;
    range.dimensions = work_dim;
    bool empty = false;
    for (cl_uint dim = 0; dim < work_dim; ++dim) {
        range.global_size[dim] = global_work_size[dim];
        range.global_offset[dim] = global_work_offset ? global_work_offset[dim] : 0;
        empty |= global_work_size[dim] == 0;
        // CL_INVALID_GLOBAL_OFFSET if offset + size overflows size_t.
        USMCL_CHECK(global_work_size[dim] <= SIZE_MAX - range.global_offset[dim],
                    CL_INVALID_GLOBAL_OFFSET, "global offset + size overflows");
    }
    const bool has_reqd = info.ReqdWorkGroupSize[0] != 0;
    // Without non-uniform work-groups the local size divides the global size.
    const bool uniform_only = !kernel->non_uniform_work_groups();
    if (local_work_size) {
        std::uint64_t product = 1;
        for (cl_uint dim = 0; dim < work_dim; ++dim) {
            USMCL_CHECK(local_work_size[dim] != 0, CL_INVALID_WORK_GROUP_SIZE, "a local size is 0");
            USMCL_CHECK(local_work_size[dim] <= d.max_work_item_sizes[dim],
                        CL_INVALID_WORK_ITEM_SIZE, "a local size is above the device's limit");
            product *= local_work_size[dim];
            range.local_size[dim] = local_work_size[dim];
        }
        USMCL_CHECK(product <= d.max_work_group_size, CL_INVALID_WORK_GROUP_SIZE,
                    "the work-group is larger than CL_DEVICE_MAX_WORK_GROUP_SIZE");
        for (cl_uint dim = 0; dim < work_dim; ++dim) {
            USMCL_CHECK(!has_reqd || local_work_size[dim] == info.ReqdWorkGroupSize[dim],
                        CL_INVALID_WORK_GROUP_SIZE, "the local size is not reqd_work_group_size");
            USMCL_CHECK(!uniform_only || global_work_size[dim] % local_work_size[dim] == 0,
                        CL_INVALID_WORK_GROUP_SIZE,
                        "the local size does not divide the global size (uniform work-groups)");
        }
    } else if (has_reqd) {
        for (cl_uint dim = 0; dim < work_dim; ++dim) {
            range.local_size[dim] = info.ReqdWorkGroupSize[dim];
            USMCL_CHECK(!uniform_only || global_work_size[dim] % range.local_size[dim] == 0,
                        CL_INVALID_WORK_GROUP_SIZE,
                        "reqd_work_group_size does not divide the global size");
        }
    } else if (!empty) {
        range.local_size = choose_local_size(range, d, std::max(1u, queue.device().pool().size()));
    }
    USMCL_CHECK(kernel->all_arguments_set(), CL_INVALID_KERNEL_ARGS,
                "not every kernel argument is set");

    // The arguments as they are now: buffers become addresses in the
    // device's domain, __local arguments offsets in the local arena after
    // the kernel's own __local variables.
    Kernel::Snapshot snapshot = kernel->snapshot();
    USMCL_CHECK(snapshot.released_argument < 0, CL_INVALID_KERNEL_ARGS,
                "a memory object set as a kernel argument was released");
    size_t local_bytes = info.StaticLocalMemSize;
    support::SmallVector<core::CommandQueue::MemoryUse, 4> uses;
    support::SmallVector<size_t, 4> buffer_slots;
    // Per use: the image whose descriptor the slot gets, or null for a buffer.
    support::SmallVector<const core::ImageDescription*, 4> slot_images;
    size_t image_count = 0;
    // The USM allocations the command may use, for clMemBlockingFreeINTEL.
    std::vector<const void*> usm_pointers = std::move(snapshot.usm_pointers);
    for (size_t i = 0; i < info.Args.size(); ++i) {
        const kc::ArgInfo& arg = info.Args[i];
        const Kernel::Argument& value = snapshot.arguments[i];
        core::MemObject* mem = snapshot.mems[i].get();
        if (arg.Kind == kc::ArgKind::LocalPointer) {
            local_bytes = (local_bytes + local_alignment - 1) / local_alignment * local_alignment;
            const std::uint64_t offset = local_bytes;
            std::memcpy(snapshot.buffer.data() + arg.Offset, &offset, sizeof offset);
            local_bytes += value.local_size;
        } else if (value.usm_pointer) {
            const void* pointer = nullptr;
            std::memcpy(&pointer, snapshot.buffer.data() + arg.Offset, sizeof pointer);
            usm_pointers.push_back(pointer);
        } else if (mem) {
            // Read-only arguments need no write-back. A write-only argument
            // is never read, but the kernel may leave bytes of it alone, so
            // its old content must still be in place: read_write.
            const bool image = arg.Kind == kc::ArgKind::Image;
            const bool read_only =
                image ? arg.AccessQualifier == kc::ArgAccessReadOnly : arg.ReadOnly;
            const Access access = read_only ? Access::read : Access::read_write;
            uses.push_back({mem, 0, mem->size(), access});
            buffer_slots.push_back(arg.Offset);
            slot_images.push_back(image ? mem->image() : nullptr);
            image_count += image ? 1 : 0;
        }
    }
    USMCL_CHECK(local_bytes <= d.local_mem_size, CL_OUT_OF_RESOURCES,
                "the kernel needs more local memory than the device has");

    const kc::WorkGroupFunction function = kernel->function_for(queue.device());
    USMCL_CHECK(function, CL_INVALID_PROGRAM_EXECUTABLE,
                "no executable of the kernel's program for the queue's device");
    runtime::ThreadPool* pool = &queue.device().pool();
    auto make_work = [&](std::span<std::byte* const> addresses) -> core::Event::Work {
        // Image arguments point to descriptors the command owns (shared:
        // the work may be copied, the descriptors must stay in place).
        std::shared_ptr<std::vector<KcImageDescriptor>> descriptors;
        if (image_count != 0) {
            descriptors = std::make_shared<std::vector<KcImageDescriptor>>();
            descriptors->reserve(image_count);
        }
        for (size_t i = 0; i < buffer_slots.size(); ++i) {
            const void* pointer = addresses[i];
            if (slot_images[i]) {
                descriptors->push_back(core::kernel_descriptor(*slot_images[i], addresses[i]));
                pointer = &descriptors->back();
            }
            std::memcpy(snapshot.buffer.data() + buffer_slots[i], &pointer, sizeof(void*));
        }
        // The kernel (and so its program's native code) lives as long as
        // the command, whatever the application releases meanwhile.
        return [function, pool, range, local_bytes, empty, descriptors = std::move(descriptors),
                args = std::move(snapshot.buffer), keep = core::Ref<Kernel>(kernel)]() -> cl_int {
            if (!empty)
                runtime::run_ndrange(*pool, function, args.data(), range, local_bytes);
            return CL_SUCCESS;
        };
    };
    auto result = queue.enqueue_with_memory(
        type, target->wait_list,
        std::span<const core::CommandQueue::MemoryUse>(uses.data(), uses.size()), make_work,
        queue.memory_domain());
    USMCL_TRY(result.status());
    if (!usm_pointers.empty() || snapshot.indirect_kinds != 0)
        queue.context().usm().record_use(*result.value(), usm_pointers, snapshot.indirect_kinds);
    hand_out(result.value(), event);
    return {};
}

} // namespace

cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                                          cl_uint work_dim, const size_t* global_work_offset,
                                          const size_t* global_work_size,
                                          const size_t* local_work_size,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return enqueue_ndrange(command_queue, kernel, work_dim, global_work_offset,
                               global_work_size, local_work_size, num_events_in_wait_list,
                               event_wait_list, event, CL_COMMAND_NDRANGE_KERNEL);
    });
}

cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                 cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                 cl_event* event) {
    return guarded(__func__, [&] {
        const size_t one = 1;
        return enqueue_ndrange(command_queue, kernel, 1, nullptr, &one, &one,
                               num_events_in_wait_list, event_wait_list, event, CL_COMMAND_TASK);
    });
}

} // namespace usmcl::api
