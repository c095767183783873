// A host command queue of one device in one context: turns enqueues into
// commands with the dependencies of the queue's order (in-order chaining,
// or for out-of-order queues, markers and barriers).
#pragma once

#include "core/context.hpp"
#include "core/device.hpp"
#include "core/event.hpp"
#include "core/mem_object.hpp"
#include "core/object.hpp"
#include "support/function_ref.hpp"

#include <CL/cl.h>

#include <mutex>
#include <span>
#include <vector>

namespace usmcl::core {

class CommandQueue : public Object<CommandQueue, _cl_command_queue, ObjectType::command_queue> {
public:
    // properties_array: as given to clCreateCommandQueueWithProperties
    // (0-terminated), empty otherwise.
    CommandQueue(Context& context, Device& device, cl_command_queue_properties properties,
                 std::vector<cl_queue_properties> properties_array);

    Context& context() const { return *context_; }
    Device& device() const { return *device_; }
    cl_command_queue_properties properties() const;
    const std::vector<cl_queue_properties>& properties_array() const { return properties_array_; }
    bool in_order() const { return !(properties() & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE); }
    bool profiling() const { return properties() & CL_QUEUE_PROFILING_ENABLE; }
    // clSetCommandQueueProperty: waits for the queue to drain, then switches.
    cl_command_queue_properties change_properties(cl_command_queue_properties mask, bool enable);

    enum class Kind {
        command, // runs work on the device's workers
        marker,  // waits for its wait list, or for everything before it if that is empty
        barrier, // like a marker, and everything after it waits for it
    };
    // Enqueues a command after the events of wait_list (already validated:
    // same context, valid events). The event starts with one API reference
    // that the caller hands to the application or releases.
    // A blocking command whose dependencies are done runs on the calling
    // thread.
    Event* enqueue(cl_command_type type, std::span<Event* const> wait_list, Event::Work work,
                   Kind kind = Kind::command, bool blocking = false);

    // A use of a memory object by a command: [offset, offset + size) of mem
    // (relative to mem, a buffer or sub-buffer).
    struct MemoryUse {
        MemObject* mem;
        size_t offset;
        size_t size;
        memory::Access access;
    };
    // Builds a command's work from the addresses of its memory uses (called
    // once, before enqueue_with_memory returns: only referred to).
    using WorkFactory = support::FunctionRef<Event::Work(std::span<std::byte* const> addresses)>;
    // Enqueues a command that uses memory objects in the device's memory
    // domain: plans the migrations they need (copy commands it depends on),
    // keeps the objects alive until the command finishes (Event::hold). Fails with
    // CL_MEM_OBJECT_ALLOCATION_FAILURE when an instance cannot be allocated.
    Result<Event*> enqueue_with_memory(cl_command_type type, std::span<Event* const> wait_list,
                                       std::span<const MemoryUse> uses, WorkFactory make_work,
                                       memory::DomainId domain, bool blocking = false);
    // The memory domain of the queue's device.
    memory::DomainId memory_domain() const;
    const memory::Domain& domain() const;

    // Commands are handed to the workers as they are enqueued, so a flush
    // has nothing left to do.
    void flush() {}
    // Waits until every command enqueued so far has finished.
    void finish();

    void api_released();

private:
    friend class Object<CommandQueue, _cl_command_queue, ObjectType::command_queue>;
    ~CommandQueue();
    void add_order_dependencies(Event& event, Kind kind, bool empty_wait_list);
    Event* enqueue_copy(const memory::PlannedCopy& copy, MemObject::Migrations& migrations,
                        std::span<Event* const> wait_list);
    void remember(Event& event);

    Ref<Context> context_;
    Ref<Device> device_;
    std::atomic<cl_command_queue_properties> properties_;
    std::vector<cl_queue_properties> properties_array_;

    std::mutex mutex_;
    Ref<Event> last_;                   // in-order: the command every new one waits for
    Ref<Event> last_barrier_;           // out-of-order: what every new command waits for
    std::vector<Ref<Event>> in_flight_; // commands that may not have finished yet
    size_t prune_at_ = 64;
};

// Ends a host transfer of a command (clEnqueueRead/Write{Buffer,BufferRect,
// Image}: size bytes copied between host memory and domain, from start on,
// by the command's work): when domain is not the host's, the transfer is
// counted (Domain::count_host_transfer) and held to the discrete cost model,
// as a migration is.
void finish_host_transfer(const memory::Domain& domain, bool to_host, std::uint64_t size,
                          std::uint64_t start);

} // namespace usmcl::core
