// An event: the handle of a command in the graph (runtime::Command) or a
// user event, with the application's callbacks and profiling information.
#pragma once

#include "core/context.hpp"
#include "core/object.hpp"
#include "core/result.hpp"
#include "runtime/command.hpp"
#include "support/inline_function.hpp"
#include "support/small_vector.hpp"
#include "support/spin.hpp"

#include <CL/cl.h>

#include <mutex>
#include <vector>

namespace usmcl::core {

class CommandQueue;
class MemObject;

using EventCallback = void(CL_CALLBACK*)(cl_event event, cl_int event_command_status,
                                         void* user_data);

class Event : public Object<Event, _cl_event, ObjectType::event>, public runtime::Command {
public:
    // The work of a command, stored in the event: captures up to
    // work_capacity bytes (a fill's 128-byte pattern, a kernel's range and
    // arguments) need no allocation of their own.
    static constexpr std::size_t work_capacity = 192;
    using Work = support::InlineFunction<cl_int(), work_capacity>;

    // A command of queue; work may be empty (markers, barriers). Inline
    // commands run on the thread that resolves their last dependency.
    Event(CommandQueue& queue, cl_command_type type, Work work, bool inline_work);
    // A user event of context (status CL_SUBMITTED until the application sets it).
    explicit Event(Context& context);

    Context& context() const { return *context_; }
    CommandQueue* queue() const { return queue_.get(); }
    cl_command_type command_type() const { return type_; }
    bool is_user_event() const { return type_ == CL_COMMAND_USER; }
    bool profiling_enabled() const { return profiling_; }

    // Keeps mem alive until the command is over (a memory object the
    // command uses). Call before the command is submitted.
    void hold(MemObject& mem);

    // Calls callback once the status reaches or passes trigger
    // (CL_SUBMITTED, CL_RUNNING or CL_COMPLETE), on the callback thread.
    void add_callback(cl_int trigger, EventCallback callback, void* user_data);

protected:
    cl_int run() override;
    bool runs_inline() const override { return inline_work_; }
    // Copies and fills may run on a thread waiting for them. Kernels run on
    // the device's workers (pinned to its processing units), except in a
    // process that may use one processing unit only: there the waiting
    // thread shares the worker's unit, and running the kernel itself saves
    // the switch to the worker.
    bool runs_on_any_thread() const override {
        const bool kernel = type_ == CL_COMMAND_NDRANGE_KERNEL || type_ == CL_COMMAND_TASK ||
                            type_ == CL_COMMAND_NATIVE_KERNEL;
        return !kernel || !support::spinning_pays();
    }
    void status_changed(cl_int status) override;
    void retain_command() override { retain_internal(); }
    void release_command() override { release_internal(); }

private:
    friend class Object<Event, _cl_event, ObjectType::event>;
    ~Event() override;

    struct Callback {
        cl_int trigger;
        EventCallback callback;
        void* user_data;
    };
    void post(const Callback& callback, cl_int status);

    Ref<Context> context_;
    Ref<CommandQueue> queue_;
    cl_command_type type_;
    Work work_;
    // What the command uses, let go when it is over (with work_). Most
    // commands use one or two memory objects.
    support::SmallVector<Ref<MemObject>, 2> held_;
    bool inline_work_ = false;
    bool profiling_ = false;
    std::mutex callbacks_mutex_;
    std::vector<Callback> callbacks_;
};

} // namespace usmcl::core
