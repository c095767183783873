#include "core/event.hpp"

#include "core/mem_object.hpp"
#include "core/queue.hpp"
#include "runtime/thread_pool.hpp"

namespace usmcl::core {

Event::Event(CommandQueue& queue, cl_command_type type, Work work, bool inline_work)
    : runtime::Command(queue.profiling()), context_(&queue.context()), queue_(&queue), type_(type),
      work_(std::move(work)), inline_work_(inline_work), profiling_(queue.profiling()) {}

Event::Event(Context& context) : context_(&context), type_(CL_COMMAND_USER) {
    set_initial_status(CL_SUBMITTED);
}

Event::~Event() = default;

void Event::hold(MemObject& mem) {
    held_.emplace_back(&mem);
}

cl_int Event::run() {
    return work_ ? work_() : CL_SUCCESS;
}

void Event::add_callback(cl_int trigger, EventCallback callback, void* user_data) {
    const Callback entry{trigger, callback, user_data};
    cl_int current;
    {
        std::lock_guard lock(callbacks_mutex_);
        current = status();
        if (current > trigger) {
            callbacks_.push_back(entry);
            return;
        }
    }
    post(entry, current);
}

void Event::status_changed(cl_int status) {
    // Whatever the work held, and the memory objects the command used, are
    // let go as soon as the command is over; only the thread that finishes
    // the command touches work_ and held_ after it was submitted.
    if (status <= CL_COMPLETE) {
        work_ = nullptr;
        held_.clear();
    }
    std::vector<Callback> due;
    {
        std::lock_guard lock(callbacks_mutex_);
        auto keep = callbacks_.begin();
        for (auto& entry : callbacks_) {
            if (status <= entry.trigger)
                due.push_back(entry);
            else
                *keep++ = entry;
        }
        callbacks_.erase(keep, callbacks_.end());
    }
    for (const Callback& entry : due)
        post(entry, status);
}

void Event::post(const Callback& entry, cl_int status) {
    // The callback learns the status it was registered for, or the error
    // code when the command failed.
    const cl_int reported = status < 0 ? status : entry.trigger;
    runtime::post_callback([self = Ref<Event>(this), entry, reported] {
        entry.callback(self->handle(), reported, entry.user_data);
    });
}

} // namespace usmcl::core
