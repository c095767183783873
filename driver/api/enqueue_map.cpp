// clEnqueueMapBuffer, clEnqueueUnmapMemObject, clEnqueueMigrateMemObjects.
#include "api/boundary.hpp"
#include "api/enqueue_common.hpp"
#include "api/entrypoints.hpp"

namespace usmcl::api {
namespace {

using core::CommandQueue;
using memory::Access;
using Use = CommandQueue::MemoryUse;

constexpr memory::DomainId host_domain = 0;

core::Event::Work no_work(std::span<std::byte* const>) {
    return [] { return CL_SUCCESS; };
}

Result<void*> map_buffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking,
                         cl_map_flags map_flags, size_t offset, size_t size, cl_uint num_events,
                         const cl_event* wait_list, cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    if (!target.ok())
        return target.status();
    Result<core::MemObject*> found = buffer_for(*target->queue, buffer);
    if (!found.ok())
        return found.status();
    core::MemObject& mem = *found.value();
    if (!in_bounds(offset, size, mem.size()) || size == 0)
        return Status(CL_INVALID_VALUE, "the region is empty or out of the buffer");
    USMCL_TRY(check_map_flags(map_flags));
    const bool invalidate = map_flags & CL_MAP_WRITE_INVALIDATE_REGION;
    // CL_INVALID_OPERATION when the host access flags forbid the mapping.
    if ((map_flags & CL_MAP_READ) && !host_may(mem, true))
        return Status(CL_INVALID_OPERATION, "mapping for reading a buffer the host may not read");
    if ((map_flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && !host_may(mem, false))
        return Status(CL_INVALID_OPERATION, "mapping for writing a buffer the host may not write");
    const Access access = invalidate                   ? Access::overwrite
                          : (map_flags & CL_MAP_WRITE) ? Access::read_write
                                                       : Access::read;
    // The mapped bytes are the host instance itself: with CL_MEM_USE_HOST_PTR
    // the application's memory at host_ptr + offset; nothing is copied when
    // the host instance is up to date.
    std::byte* mapped = nullptr;
    const Use use{&mem, offset, size, access};
    auto result = target->queue->enqueue_with_memory(
        CL_COMMAND_MAP_BUFFER, target->wait_list, std::span<const Use>(&use, 1),
        [&mapped](std::span<std::byte* const> at) {
            mapped = at[0];
            return no_work(at);
        },
        host_domain);
    if (!result.ok())
        return result.status();
    mem.add_mapping(mapped, map_flags, offset, size);
    const Status finished = finish_enqueue(result.value(), blocking, event);
    if (!finished.ok()) {
        mem.remove_mapping(mapped);
        return finished;
    }
    return static_cast<void*>(mapped);
}

Status unmap(cl_command_queue command_queue, cl_mem memobj, void* mapped_ptr, cl_uint num_events,
             const cl_event* wait_list, cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    Result<core::MemObject*> found = mem_object_for(*target->queue, memobj);
    USMCL_TRY(found.status());
    core::MemObject& mem = *found.value();
    // CL_INVALID_VALUE if mapped_ptr was not returned by a map of memobj.
    const auto mapping = mapped_ptr ? mem.remove_mapping(mapped_ptr) : std::nullopt;
    USMCL_CHECK(mapping, CL_INVALID_VALUE, "mapped_ptr is not a mapping of memobj");
    // The unmap of a mapping for writing is when the host's writes count: it
    // is the writer later migrations wait for (nothing is copied: the host
    // instance of the mapped range is current).
    const bool wrote = mapping->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
    const Use use{&mem, mapping->offset, mapping->size, wrote ? Access::read_write : Access::read};
    auto result =
        target->queue->enqueue_with_memory(CL_COMMAND_UNMAP_MEM_OBJECT, target->wait_list,
                                           std::span<const Use>(&use, 1), no_work, host_domain);
    USMCL_TRY(result.status());
    return finish_enqueue(result.value(), false, event);
}

Status migrate(cl_command_queue command_queue, cl_uint num_mem_objects, const cl_mem* mem_objects,
               cl_mem_migration_flags flags, cl_uint num_events, const cl_event* wait_list,
               cl_event* event) {
    Result<EnqueueTarget> target = enqueue_target(command_queue, num_events, wait_list);
    USMCL_TRY(target.status());
    USMCL_CHECK(num_mem_objects != 0 && mem_objects, CL_INVALID_VALUE, "no memory objects");
    constexpr cl_mem_migration_flags known =
        CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
    USMCL_CHECK((flags & ~known) == 0, CL_INVALID_VALUE, "unknown migration flags");
    const Access access =
        (flags & CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED) ? Access::discard : Access::read;
    std::vector<Use> uses;
    for (cl_uint i = 0; i < num_mem_objects; ++i) {
        Result<core::MemObject*> mem = mem_object_for(*target->queue, mem_objects[i]);
        USMCL_TRY(mem.status());
        uses.push_back({mem.value(), 0, mem.value()->size(), access});
    }
    const memory::DomainId domain =
        (flags & CL_MIGRATE_MEM_OBJECT_HOST) ? host_domain : target->queue->memory_domain();
    auto result = target->queue->enqueue_with_memory(CL_COMMAND_MIGRATE_MEM_OBJECTS,
                                                     target->wait_list, uses, no_work, domain);
    USMCL_TRY(result.status());
    return finish_enqueue(result.value(), false, event);
}

} // namespace

void* CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer,
                                     cl_bool blocking_map, cl_map_flags map_flags, size_t offset,
                                     size_t size, cl_uint num_events_in_wait_list,
                                     const cl_event* event_wait_list, cl_event* event,
                                     cl_int* errcode_ret) {
    return guarded_create<void*>(__func__, errcode_ret, [&] {
        return map_buffer(command_queue, buffer, blocking_map, map_flags, offset, size,
                          num_events_in_wait_list, event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj,
                                           void* mapped_ptr, cl_uint num_events_in_wait_list,
                                           const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return unmap(command_queue, memobj, mapped_ptr, num_events_in_wait_list, event_wait_list,
                     event);
    });
}

cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue,
                                              cl_uint num_mem_objects, const cl_mem* mem_objects,
                                              cl_mem_migration_flags flags,
                                              cl_uint num_events_in_wait_list,
                                              const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return migrate(command_queue, num_mem_objects, mem_objects, flags, num_events_in_wait_list,
                       event_wait_list, event);
    });
}

} // namespace usmcl::api
