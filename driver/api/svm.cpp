// Shared virtual memory (OpenCL 2.0 SVM): clSVMAlloc, clSVMFree,
// clEnqueueSVMFree, clEnqueueSVMMemcpy, clEnqueueSVMMemFill,
// clEnqueueSVMMap, clEnqueueSVMUnmap and clEnqueueSVMMigrateMem.
//
// An SVM buffer is an allocation of the context's USM registry, of kind
// svm: host memory that every device reaches at the same address, so
// coarse- and fine-grain buffers are alike and any host pointer is valid in
// a kernel (fine-grain system SVM). Where SVM and USM meet, usmcl answers as
// Intel's GPU driver does with its one allocation manager: the SVM calls
// take USM pointers (and any host pointer), clSVMFree frees a USM
// allocation and clMemFreeINTEL an SVM one (docs/usm.md).
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/pointer_commands.hpp"
#include "core/usm.hpp"

#include <vector>

namespace usmcl::api {
namespace {

using SvmFreeCallback = core::PointerFree::Callback;

constexpr cl_svm_mem_flags svm_access_flags =
    CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_svm_mem_flags known_svm_flags =
    svm_access_flags | CL_MEM_SVM_FINE_GRAIN_BUFFER | CL_MEM_SVM_ATOMICS;
// The largest data type (long16, double16): the default and largest alignment.
constexpr cl_uint largest_type_size = 128;

// clSVMAlloc's reasons to return NULL (it has no error code).
Status check_svm_alloc(const core::Context& context, cl_svm_mem_flags flags, size_t size,
                       cl_uint alignment) {
    USMCL_CHECK((flags & ~known_svm_flags) == 0, CL_INVALID_VALUE, "unknown SVM flags");
    const cl_svm_mem_flags access = flags & svm_access_flags;
    USMCL_CHECK((access & (access - 1)) == 0, CL_INVALID_VALUE,
                "more than one of CL_MEM_READ_WRITE, _WRITE_ONLY and _READ_ONLY");
    USMCL_CHECK(!(flags & CL_MEM_SVM_ATOMICS) || (flags & CL_MEM_SVM_FINE_GRAIN_BUFFER),
                CL_INVALID_VALUE, "CL_MEM_SVM_ATOMICS without CL_MEM_SVM_FINE_GRAIN_BUFFER");
    USMCL_CHECK(size != 0, CL_INVALID_VALUE, "size is 0");
    USMCL_CHECK(size <= max_alloc_size(context), CL_INVALID_VALUE,
                "size is above CL_DEVICE_MAX_MEM_ALLOC_SIZE");
    USMCL_CHECK((alignment & (alignment - 1)) == 0 && alignment <= largest_type_size,
                CL_INVALID_VALUE, "alignment is not a power of two up to 128");
    return {};
}

Result<void*> svm_alloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                        cl_uint alignment) {
    core::Context* object = core::Context::from_handle(context);
    if (!object)
        return Status(CL_INVALID_CONTEXT, "not a context");
    USMCL_TRY(check_svm_alloc(*object, flags, size, alignment));
    core::UsmAllocations::Request request;
    request.kind = memory::UsmKind::svm;
    request.size = size;
    request.alignment = alignment ? alignment : largest_type_size;
    return object->usm().allocate(request);
}

// A command with nothing to do but its place in the queue's order (maps,
// unmaps and migrations of memory every device shares with the host).
Status enqueue_no_op(EnqueueTarget& target, cl_command_type type,
                     std::span<const void* const> pointers, bool blocking, cl_event* event) {
    const core::PointerMarker command{type, pointers};
    return finish_enqueue(core::submit(*target.queue, command, target.wait_list, blocking),
                          blocking, event);
}

Status enqueue_free(cl_command_queue command_queue, cl_uint count, void* pointers[],
                    SvmFreeCallback callback, void* user_data, cl_uint num_events,
                    const cl_event* wait_list, cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    USMCL_CHECK((count == 0) == (pointers == nullptr), CL_INVALID_VALUE,
                "num_svm_pointers and svm_pointers disagree");
    // The array may be reused once the call returns.
    const core::PointerFree command{std::vector<void*>(pointers, pointers + count), callback,
                                    user_data};
    return finish_enqueue(core::submit(*target->queue, command, target->wait_list), false, event);
}

Status enqueue_map(cl_command_queue command_queue, cl_bool blocking, cl_map_flags flags,
                   void* svm_ptr, size_t size, cl_uint num_events, const cl_event* wait_list,
                   cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    USMCL_CHECK(svm_ptr, CL_INVALID_VALUE, "svm_ptr is NULL");
    USMCL_CHECK(size != 0, CL_INVALID_VALUE, "size is 0");
    USMCL_TRY(check_map_flags(flags));
    const void* pointers[] = {svm_ptr};
    return enqueue_no_op(target.value(), CL_COMMAND_SVM_MAP, pointers, blocking != CL_FALSE, event);
}

Status enqueue_unmap(cl_command_queue command_queue, void* svm_ptr, cl_uint num_events,
                     const cl_event* wait_list, cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    USMCL_CHECK(svm_ptr, CL_INVALID_VALUE, "svm_ptr is NULL");
    const void* pointers[] = {svm_ptr};
    return enqueue_no_op(target.value(), CL_COMMAND_SVM_UNMAP, pointers, false, event);
}

Status enqueue_migrate(cl_command_queue command_queue, cl_uint count, const void** svm_pointers,
                       const size_t* sizes, cl_mem_migration_flags flags, cl_uint num_events,
                       const cl_event* wait_list, cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    USMCL_CHECK(count != 0 && svm_pointers, CL_INVALID_VALUE,
                "num_svm_pointers is 0 or svm_pointers is NULL");
    constexpr cl_mem_migration_flags known =
        CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    USMCL_CHECK((flags & ~known) == 0, CL_INVALID_VALUE, "unknown migration flags");
    const core::UsmAllocations& usm = target->queue->context().usm();
    for (cl_uint i = 0; i < count; ++i) {
        // Each range lies inside one allocation (a size of 0: the whole
        // allocation that contains the pointer).
        const auto allocation = usm.find(svm_pointers[i]);
        USMCL_CHECK(allocation, CL_INVALID_VALUE, "a pointer is in no SVM allocation");
        const size_t offset =
            static_cast<size_t>(static_cast<const std::byte*>(svm_pointers[i]) - allocation->base);
        USMCL_CHECK(!sizes || sizes[i] <= allocation->size - offset, CL_INVALID_VALUE,
                    "a range reaches past its SVM allocation");
    }
    // Every device shares the host's memory: nothing moves.
    return enqueue_no_op(target.value(), CL_COMMAND_SVM_MIGRATE_MEM,
                         std::span<const void* const>(svm_pointers, count), false, event);
}

} // namespace

void* CL_API_CALL clSVMAlloc(cl_context context, cl_svm_mem_flags flags, size_t size,
                             cl_uint alignment) {
    return guarded_create<void*>(__func__, nullptr,
                                 [&] { return svm_alloc(context, flags, size, alignment); });
}

// Frees at once, without waiting for commands that may still use the memory
// (the application waits, or uses clEnqueueSVMFree).
void CL_API_CALL clSVMFree(cl_context context, void* svm_pointer) {
    (void)guarded(__func__, [&]() -> Status {
        core::Context* object = core::Context::from_handle(context);
        USMCL_CHECK(object, CL_INVALID_CONTEXT, "not a context");
        if (svm_pointer)
            (void)object->usm().free(svm_pointer);
        return {};
    });
}

cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                    void* svm_pointers[], SvmFreeCallback pfn_free_func,
                                    void* user_data, cl_uint num_events_in_wait_list,
                                    const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return enqueue_free(command_queue, num_svm_pointers, svm_pointers, pfn_free_func, user_data,
                            num_events_in_wait_list, event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool blocking_copy,
                                      void* dst_ptr, const void* src_ptr, size_t size,
                                      cl_uint num_events_in_wait_list,
                                      const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return enqueue_pointer_copy(command_queue, CL_COMMAND_SVM_MEMCPY, blocking_copy, dst_ptr,
                                    src_ptr, size, num_events_in_wait_list, event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void* svm_ptr,
                                       const void* pattern, size_t pattern_size, size_t size,
                                       cl_uint num_events_in_wait_list,
                                       const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return enqueue_pointer_fill(command_queue, CL_COMMAND_SVM_MEMFILL, svm_ptr, pattern,
                                    pattern_size, size, num_events_in_wait_list, event_wait_list,
                                    event);
    });
}

cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool blocking_map,
                                   cl_map_flags flags, void* svm_ptr, size_t size,
                                   cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                   cl_event* event) {
    return guarded(__func__, [&] {
        return enqueue_map(command_queue, blocking_map, flags, svm_ptr, size,
                           num_events_in_wait_list, event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void* svm_ptr,
                                     cl_uint num_events_in_wait_list,
                                     const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return enqueue_unmap(command_queue, svm_ptr, num_events_in_wait_list, event_wait_list,
                             event);
    });
}

cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint num_svm_pointers,
                                          const void** svm_pointers, const size_t* sizes,
                                          cl_mem_migration_flags flags,
                                          cl_uint num_events_in_wait_list,
                                          const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return enqueue_migrate(command_queue, num_svm_pointers, svm_pointers, sizes, flags,
                               num_events_in_wait_list, event_wait_list, event);
    });
}

} // namespace usmcl::api
