// Synchronization commands: clEnqueueMarkerWithWaitList,
// clEnqueueBarrierWithWaitList, clEnqueueMarker, clEnqueueBarrier,
// clEnqueueWaitForEvents, and clEnqueueNativeKernel.
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/validate.hpp"
#include "core/queue.hpp"

#include <cstring>

namespace usmcl::api {
namespace {

using Kind = core::CommandQueue::Kind;

Status enqueue_sync(cl_command_queue command_queue, cl_command_type type, Kind kind,
                    cl_uint num_events, const cl_event* wait_list, cl_event* event) {
    core::CommandQueue* queue = core::CommandQueue::from_handle(command_queue);
    USMCL_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "not a command queue");
    Result<std::vector<core::Event*>> events =
        wait_list_of(queue->context(), num_events, wait_list);
    USMCL_TRY(events.status());
    hand_out(queue->enqueue(type, events.value(), {}, kind), event);
    return {};
}

} // namespace

cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                               cl_uint num_events_in_wait_list,
                                               const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return enqueue_sync(command_queue, CL_COMMAND_MARKER, Kind::marker, num_events_in_wait_list,
                            event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                cl_uint num_events_in_wait_list,
                                                const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&] {
        return enqueue_sync(command_queue, CL_COMMAND_BARRIER, Kind::barrier,
                            num_events_in_wait_list, event_wait_list, event);
    });
}

cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event* event) {
    return guarded(__func__, [&]() -> Status {
        USMCL_CHECK(core::CommandQueue::from_handle(command_queue), CL_INVALID_COMMAND_QUEUE,
                    "not a command queue");
        USMCL_CHECK(event, CL_INVALID_VALUE, "event is NULL");
        return enqueue_sync(command_queue, CL_COMMAND_MARKER, Kind::marker, 0, nullptr, event);
    });
}

cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
    return guarded(__func__, [&] {
        return enqueue_sync(command_queue, CL_COMMAND_BARRIER, Kind::barrier, 0, nullptr, nullptr);
    });
}

cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                          const cl_event* event_list) {
    return guarded(__func__, [&]() -> Status {
        core::CommandQueue* queue = core::CommandQueue::from_handle(command_queue);
        USMCL_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "not a command queue");
        // CL_INVALID_VALUE if num_events is 0 or event_list is NULL;
        // CL_INVALID_EVENT for an invalid event.
        USMCL_CHECK(num_events != 0 && event_list, CL_INVALID_VALUE, "no events");
        for (cl_uint i = 0; i < num_events; ++i)
            USMCL_CHECK(core::Event::from_handle(event_list[i]), CL_INVALID_EVENT,
                        "an entry of event_list is not an event");
        // Every later command waits for the listed events: a barrier on them.
        return enqueue_sync(command_queue, CL_COMMAND_BARRIER, Kind::barrier, num_events,
                            event_list, nullptr);
    });
}

cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue,
                                         void(CL_CALLBACK* user_func)(void*), void* args,
                                         size_t cb_args, cl_uint num_mem_objects,
                                         const cl_mem* mem_list, const void** args_mem_loc,
                                         cl_uint num_events_in_wait_list,
                                         const cl_event* event_wait_list, cl_event* event) {
    return guarded(__func__, [&]() -> Status {
        core::CommandQueue* queue = core::CommandQueue::from_handle(command_queue);
        USMCL_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "not a command queue");
        USMCL_CHECK(user_func, CL_INVALID_VALUE, "user_func is NULL");
        // CL_INVALID_VALUE if args is NULL and cb_args > 0, or args is not
        // NULL and cb_args is 0.
        USMCL_CHECK((args == nullptr) == (cb_args == 0), CL_INVALID_VALUE,
                    "args and cb_args disagree");
        // CL_INVALID_VALUE if num_mem_objects > 0 and mem_list or
        // args_mem_loc is NULL, or num_mem_objects is 0 and either is not.
        USMCL_CHECK(num_mem_objects == 0 ? (!mem_list && !args_mem_loc)
                                         : (mem_list && args_mem_loc),
                    CL_INVALID_VALUE, "mem_list, args_mem_loc and num_mem_objects disagree");
        Result<std::vector<core::Event*>> events =
            wait_list_of(queue->context(), num_events_in_wait_list, event_wait_list);
        USMCL_TRY(events.status());
        // Each memory object is replaced, in the copy of args, by the address
        // of its bytes in the device's memory domain.
        // CL_INVALID_VALUE if args is NULL and num_mem_objects > 0.
        USMCL_CHECK(args || num_mem_objects == 0, CL_INVALID_VALUE,
                    "memory objects without args to place them in");
        std::vector<core::CommandQueue::MemoryUse> uses;
        std::vector<size_t> slots;      // where each used object's address goes
        std::vector<size_t> null_slots; // NULL entries of mem_list: a NULL pointer
        for (cl_uint i = 0; i < num_mem_objects; ++i) {
            const auto* location = static_cast<const unsigned char*>(args_mem_loc[i]);
            const auto* base = static_cast<const unsigned char*>(args);
            USMCL_CHECK(location >= base && location + sizeof(void*) <= base + cb_args,
                        CL_INVALID_VALUE, "an args_mem_loc entry points outside args");
            const auto slot = static_cast<size_t>(location - base);
            if (mem_list[i] == nullptr) {
                null_slots.push_back(slot);
                continue;
            }
            core::MemObject* mem = core::MemObject::from_handle(mem_list[i]);
            USMCL_CHECK(mem, CL_INVALID_MEM_OBJECT, "an entry of mem_list is not a memory object");
            USMCL_CHECK(&mem->context() == &queue->context(), CL_INVALID_CONTEXT,
                        "a memory object of another context");
            slots.push_back(slot);
            uses.push_back({mem, 0, mem->size(), memory::Access::read_write});
        }
        // The arguments are copied now: the application may reuse args at once.
        std::vector<unsigned char> copy(static_cast<const unsigned char*>(args),
                                        static_cast<const unsigned char*>(args) + cb_args);
        for (size_t slot : null_slots)
            std::memset(copy.data() + slot, 0, sizeof(void*));
        auto make_work = [&](std::span<std::byte* const> addresses) -> core::Event::Work {
            for (size_t i = 0; i < slots.size(); ++i)
                std::memcpy(copy.data() + slots[i], &addresses[i], sizeof(void*));
            return [user_func, copy = std::move(copy)]() mutable -> cl_int {
                user_func(copy.empty() ? nullptr : copy.data());
                return CL_SUCCESS;
            };
        };
        auto result = queue->enqueue_with_memory(CL_COMMAND_NATIVE_KERNEL, events.value(), uses,
                                                 make_work, queue->memory_domain());
        USMCL_TRY(result.status());
        hand_out(result.value(), event);
        return {};
    });
}

} // namespace usmcl::api
