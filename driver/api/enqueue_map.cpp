// clEnqueueMapBuffer, clEnqueueUnmapMemObject, clEnqueueMigrateMemObjects.
#include "api/boundary.hpp"
#include "api/enqueue_common.hpp"
#include "api/entrypoints.hpp"

namespace usmcl::api {
namespace {

using memory::Access;

constexpr memory::DomainId host_domain = 0;

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
    const core::Map command{CL_COMMAND_MAP_BUFFER, &mem, map_flags, offset, size, access};
    return finish_map(core::submit(*target->queue, command, target->wait_list), mem, blocking,
                      event);
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
    const core::MemoryOnly command{
        CL_COMMAND_UNMAP_MEM_OBJECT,
        host_domain,
        {{&mem, mapping->offset, mapping->size, wrote ? Access::read_write : Access::read}}};
    return finish_enqueue(core::submit(*target->queue, command, target->wait_list), false, event);
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
    core::MemoryOnly command{CL_COMMAND_MIGRATE_MEM_OBJECTS,
                             (flags & CL_MIGRATE_MEM_OBJECT_HOST) ? host_domain
                                                                  : target->queue->memory_domain(),
                             {}};
    for (cl_uint i = 0; i < num_mem_objects; ++i) {
        Result<core::MemObject*> mem = mem_object_for(*target->queue, mem_objects[i]);
        USMCL_TRY(mem.status());
        command.memory.push_back({mem.value(), 0, mem.value()->size(), access});
    }
    return finish_enqueue(core::submit(*target->queue, command, target->wait_list), false, event);
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
