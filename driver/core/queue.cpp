#include "core/queue.hpp"

#include "runtime/thread_pool.hpp"
#include "support/cl_strings.hpp"
#include "support/log.hpp"

#include <algorithm>

namespace usmcl::core {

CommandQueue::CommandQueue(Context& context, Device& device, cl_command_queue_properties properties,
                           std::vector<cl_queue_properties> properties_array)
    : context_(&context), device_(&device), properties_(properties),
      properties_array_(std::move(properties_array)) {
    USMCL_LOG(exec, "queue %p: %s%s", static_cast<void*>(this),
              (properties & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) ? "out-of-order" : "in-order",
              (properties & CL_QUEUE_PROFILING_ENABLE) ? ", profiling" : "");
}

CommandQueue::~CommandQueue() = default;

cl_command_queue_properties CommandQueue::properties() const {
    return properties_.load(std::memory_order_relaxed);
}

cl_command_queue_properties CommandQueue::change_properties(cl_command_queue_properties mask,
                                                            bool enable) {
    finish();
    return enable ? properties_.fetch_or(mask) : properties_.fetch_and(~mask);
}

void CommandQueue::add_order_dependencies(Event& event, Kind kind, bool empty_wait_list) {
    if (in_order()) {
        if (last_)
            event.add_dependency(*last_);
        last_ = Ref<Event>(&event);
        return;
    }
    // Out of order: a marker or barrier with no wait list waits for every
    // command before it; everything waits for the last barrier.
    if (kind != Kind::command && empty_wait_list) {
        for (const Ref<Event>& earlier : in_flight_)
            event.add_dependency(*earlier);
    } else if (last_barrier_) {
        event.add_dependency(*last_barrier_);
    }
    if (kind == Kind::barrier)
        last_barrier_ = Ref<Event>(&event);
}

void CommandQueue::remember(Event& event) {
    if (in_flight_.size() >= prune_at_) {
        std::erase_if(in_flight_, [](const Ref<Event>& earlier) { return earlier->is_terminal(); });
        prune_at_ = std::max<size_t>(64, in_flight_.size() * 2);
    }
    in_flight_.emplace_back(&event);
}

Event* CommandQueue::enqueue(cl_command_type type, std::span<Event* const> wait_list,
                             Event::Work work, Kind kind, bool blocking) {
    auto* event = new Event(*this, type, std::move(work), kind != Kind::command);
    USMCL_LOG(exec, "queue %p: %s, event %p", static_cast<void*>(this), support::command_name(type),
              static_cast<void*>(event));
    {
        std::lock_guard lock(mutex_);
        for (Event* dependency : wait_list)
            event->add_dependency(*dependency);
        add_order_dependencies(*event, kind, wait_list.empty());
        remember(*event);
    }
    event->submit(kind == Kind::command ? &device_->pool() : nullptr,
                  blocking && kind == Kind::command);
    return event;
}

void CommandQueue::finish() {
    // In order, every command waits for the one before it (a failed one
    // included: its dependents fail after it), so the last one finishes
    // last. Out of order, the commands not finished yet.
    Ref<Event> last;
    std::vector<Ref<Event>> pending;
    {
        std::lock_guard lock(mutex_);
        if (in_order()) {
            last = last_;
        } else {
            for (const Ref<Event>& earlier : in_flight_)
                if (!earlier->is_terminal())
                    pending.push_back(earlier);
        }
    }
    if (last)
        (void)last->wait();
    for (const Ref<Event>& event : pending)
        (void)event->wait();
}

void CommandQueue::api_released() {
    // Commands keep the queue alive until they finish; the queue stops
    // keeping them alive, so neither waits for the other.
    std::vector<Ref<Event>> in_flight;
    Ref<Event> last;
    Ref<Event> last_barrier;
    {
        std::lock_guard lock(mutex_);
        in_flight.swap(in_flight_);
        last = std::move(last_);
        last_barrier = std::move(last_barrier_);
    }
}

} // namespace usmcl::core
