#include "core/ndrange.hpp"

#include "core/context.hpp"
#include "core/device.hpp"
#include "core/image.hpp"
#include "memory/shared_pages.hpp"
#include "runtime/launcher.hpp"
#include "support/small_vector.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

namespace usmcl::core {
namespace {

using memory::Access;

constexpr size_t local_alignment = 128;

// A local size for dimension d when the application gives none: the largest
// divisor of the global size that keeps every worker busy and stays within
// the device's limits.
std::array<std::uint64_t, 3> choose_local_size(const runtime::NDRange& range,
                                               const DeviceDescription& d, unsigned workers) {
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

// The application's local size, checked.
Status check_local_size(const Kernel& kernel, const DeviceDescription& d,
                        const NDRangeRequest& request, runtime::NDRange& range) {
    const kc::KernelInfo& info = kernel.info();
    const bool has_reqd = info.ReqdWorkGroupSize[0] != 0;
    // Without non-uniform work-groups the local size divides the global size.
    const bool uniform_only = !kernel.non_uniform_work_groups();
    std::uint64_t product = 1;
    for (cl_uint dim = 0; dim < request.work_dim; ++dim) {
        const size_t local = request.local_size[dim];
        USMCL_CHECK(local != 0, CL_INVALID_WORK_GROUP_SIZE, "a local size is 0");
        USMCL_CHECK(local <= d.max_work_item_sizes[dim], CL_INVALID_WORK_ITEM_SIZE,
                    "a local size is above the device's limit");
        product *= local;
        range.local_size[dim] = local;
    }
    USMCL_CHECK(product <= d.max_work_group_size, CL_INVALID_WORK_GROUP_SIZE,
                "the work-group is larger than CL_DEVICE_MAX_WORK_GROUP_SIZE");
    for (cl_uint dim = 0; dim < request.work_dim; ++dim) {
        USMCL_CHECK(!has_reqd || range.local_size[dim] == info.ReqdWorkGroupSize[dim],
                    CL_INVALID_WORK_GROUP_SIZE, "the local size is not reqd_work_group_size");
        USMCL_CHECK(!uniform_only || range.global_size[dim] % range.local_size[dim] == 0,
                    CL_INVALID_WORK_GROUP_SIZE,
                    "the local size does not divide the global size (uniform work-groups)");
    }
    return {};
}

// The arguments of a launch packed for the work-group function: buffers
// and images are slots filled with addresses in the queue's domain when
// the command is made, __local arguments offsets in the local arena after
// the kernel's own __local variables.
struct PackedArguments {
    Kernel::Snapshot snapshot;
    size_t local_bytes = 0;
    support::SmallVector<CommandQueue::MemoryUse, 4> uses;
    support::SmallVector<size_t, 4> buffer_slots;
    // Per use: the image whose descriptor the slot gets, or null for a buffer.
    support::SmallVector<const ImageDescription*, 4> slot_images;
    size_t image_count = 0;
    // The USM allocations the command may use, for clMemBlockingFreeINTEL.
    std::vector<const void*> usm_pointers;
};

Result<PackedArguments> pack_arguments(const Kernel& kernel, const DeviceDescription& d) {
    USMCL_CHECK(kernel.all_arguments_set(), CL_INVALID_KERNEL_ARGS,
                "not every kernel argument is set");
    const kc::KernelInfo& info = kernel.info();
    PackedArguments p;
    p.snapshot = kernel.snapshot();
    USMCL_CHECK(p.snapshot.released_argument < 0, CL_INVALID_KERNEL_ARGS,
                "a memory object set as a kernel argument was released");
    p.local_bytes = info.StaticLocalMemSize;
    p.usm_pointers = std::move(p.snapshot.usm_pointers);
    char* buffer = p.snapshot.buffer.data();
    for (size_t i = 0; i < info.Args.size(); ++i) {
        const kc::ArgInfo& arg = info.Args[i];
        const Kernel::Argument& value = p.snapshot.arguments[i];
        MemObject* mem = p.snapshot.mems[i].get();
        if (arg.Kind == kc::ArgKind::LocalPointer) {
            p.local_bytes =
                (p.local_bytes + local_alignment - 1) / local_alignment * local_alignment;
            const std::uint64_t offset = p.local_bytes;
            std::memcpy(buffer + arg.Offset, &offset, sizeof offset);
            p.local_bytes += value.local_size;
        } else if (value.usm_pointer) {
            const void* pointer = nullptr;
            std::memcpy(&pointer, buffer + arg.Offset, sizeof pointer);
            p.usm_pointers.push_back(pointer);
        } else if (mem) {
            // Read-only arguments need no write-back. A write-only argument
            // is never read, but the kernel may leave bytes of it alone, so
            // its old content must still be in place: read_write.
            const bool image = arg.Kind == kc::ArgKind::Image;
            const bool read_only =
                image ? arg.AccessQualifier == kc::ArgAccessReadOnly : arg.ReadOnly;
            p.uses.push_back({mem, 0, mem->size(), read_only ? Access::read : Access::read_write});
            p.buffer_slots.push_back(arg.Offset);
            p.slot_images.push_back(image ? mem->image() : nullptr);
            p.image_count += image ? 1 : 0;
        }
    }
    USMCL_CHECK(p.local_bytes <= d.local_mem_size, CL_OUT_OF_RESOURCES,
                "the kernel needs more local memory than the device has");
    return p;
}

} // namespace

Result<LaunchRange> resolve_ndrange(const Kernel& kernel, Device& device,
                                    const NDRangeRequest& request) {
    USMCL_CHECK(request.work_dim >= 1 && request.work_dim <= 3, CL_INVALID_WORK_DIMENSION,
                "work_dim is not 1, 2 or 3");
    static constexpr size_t no_work_items[3] = {0, 0, 0};
    const size_t* global = request.global_size ? request.global_size : no_work_items;
    const DeviceDescription& d = device.description();
    LaunchRange launch;
    runtime::NDRange& range = launch.range;
    range.dimensions = request.work_dim;
    for (cl_uint dim = 0; dim < request.work_dim; ++dim) {
        range.global_size[dim] = global[dim];
        range.global_offset[dim] = request.global_offset ? request.global_offset[dim] : 0;
        launch.empty |= global[dim] == 0;
        // CL_INVALID_GLOBAL_OFFSET if offset + size overflows size_t.
        USMCL_CHECK(global[dim] <= SIZE_MAX - range.global_offset[dim], CL_INVALID_GLOBAL_OFFSET,
                    "global offset + size overflows");
    }
    const kc::KernelInfo& info = kernel.info();
    if (request.local_size) {
        USMCL_TRY(check_local_size(kernel, d, request, range));
    } else if (info.ReqdWorkGroupSize[0] != 0) {
        for (cl_uint dim = 0; dim < request.work_dim; ++dim) {
            range.local_size[dim] = info.ReqdWorkGroupSize[dim];
            USMCL_CHECK(kernel.non_uniform_work_groups() ||
                            range.global_size[dim] % range.local_size[dim] == 0,
                        CL_INVALID_WORK_GROUP_SIZE,
                        "reqd_work_group_size does not divide the global size");
        }
    } else if (!launch.empty) {
        range.local_size = choose_local_size(range, d, std::max(1u, device.pool().size()));
    }
    return launch;
}

Result<std::array<size_t, 3>> suggest_local_size(const Kernel& kernel, Device& device,
                                                 const NDRangeRequest& request) {
    NDRangeRequest without_local = request;
    without_local.local_size = nullptr;
    Result<LaunchRange> launch = resolve_ndrange(kernel, device, without_local);
    USMCL_TRY(launch.status());
    USMCL_TRY(pack_arguments(kernel, device.description()).status());
    std::array<size_t, 3> local{1, 1, 1};
    for (cl_uint dim = 0; dim < request.work_dim; ++dim)
        local[dim] = static_cast<size_t>(launch->range.local_size[dim]);
    return local;
}

Result<Event*> enqueue_kernel(CommandQueue& queue, Kernel& kernel, const NDRangeRequest& request,
                              std::span<Event* const> wait_list, cl_command_type type) {
    Result<LaunchRange> launch = resolve_ndrange(kernel, queue.device(), request);
    USMCL_TRY(launch.status());
    Result<PackedArguments> packed = pack_arguments(kernel, queue.device().description());
    USMCL_TRY(packed.status());
    PackedArguments& p = packed.value();
    const kc::WorkGroupFunction function = kernel.function_for(queue.device());
    USMCL_CHECK(function, CL_INVALID_PROGRAM_EXECUTABLE,
                "no executable of the kernel's program for the queue's device");
    runtime::ThreadPool* pool = &queue.device().pool();
    const runtime::NDRange range = launch->range;
    const bool empty = launch->empty;
    auto make_work = [&](std::span<std::byte* const> addresses) -> Event::Work {
        // Image arguments point to descriptors the command owns (shared:
        // the work may be copied, the descriptors must stay in place).
        std::shared_ptr<std::vector<KcImageDescriptor>> descriptors;
        if (p.image_count != 0) {
            descriptors = std::make_shared<std::vector<KcImageDescriptor>>();
            descriptors->reserve(p.image_count);
        }
        for (size_t i = 0; i < p.buffer_slots.size(); ++i) {
            const void* pointer = addresses[i];
            if (p.slot_images[i]) {
                descriptors->push_back(kernel_descriptor(*p.slot_images[i], addresses[i]));
                pointer = &descriptors->back();
            }
            std::memcpy(p.snapshot.buffer.data() + p.buffer_slots[i], &pointer, sizeof(void*));
        }
        // The kernel (and so its program's native code) lives as long as
        // the command, whatever the application releases meanwhile.
        // While it runs, the shared allocations of a discrete-memory device
        // come to the device block by block as it touches them.
        return [function, pool, range, local_bytes = p.local_bytes, empty,
                domain = queue.memory_domain(), descriptors = std::move(descriptors),
                args = std::move(p.snapshot.buffer), keep = Ref<Kernel>(&kernel)]() -> cl_int {
            if (!empty) {
                const memory::DeviceAccess access(domain);
                runtime::run_ndrange(*pool, function, args.data(), range, local_bytes, domain);
            }
            return CL_SUCCESS;
        };
    };
    Result<Event*> result = queue.enqueue_with_memory(
        type, wait_list, std::span<const CommandQueue::MemoryUse>(p.uses.data(), p.uses.size()),
        make_work, queue.memory_domain());
    USMCL_TRY(result.status());
    if (!p.usm_pointers.empty() || p.snapshot.indirect_kinds != 0)
        queue.context().usm().record_use(*result.value(), p.usm_pointers,
                                         p.snapshot.indirect_kinds);
    return result;
}

} // namespace usmcl::core
