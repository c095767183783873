#include "runtime/command.hpp"

#include "support/clock.hpp"
#include "support/spin.hpp"

#include <utility>
#include <vector>

namespace usmcl::runtime {

// Runs ready commands. Inline commands are run from a per-thread work list,
// so a long chain of markers resolves iteratively, not recursively.
class Scheduler {
public:
    // Takes a reference for the time the command waits to run; the thread
    // that runs it drops it (execute_posted()).
    static void make_ready(Command& command) {
        command.retain_command();
        Executor* executor = command.executor_.load(std::memory_order_relaxed);
        if (command.runs_inline() || executor == nullptr) {
            // initial-exec: the driver is dlopen'ed; dynamic TLS would cost a
            // __tls_get_addr per command and trips LeakSanitizer's scan.
            [[gnu::tls_model("initial-exec")]] thread_local std::vector<Command*> work;
            [[gnu::tls_model("initial-exec")]] thread_local bool draining = false;
            work.push_back(&command);
            if (draining)
                return;
            draining = true;
            while (!work.empty()) {
                Command* next = work.back();
                work.pop_back();
                next->execute_posted();
            }
            draining = false;
            return;
        }
        executor->post(command);
    }
};

Command::Command(bool profiling) : profiling_(profiling) {
    if (profiling_)
        timestamps_[static_cast<size_t>(Timestamp::queued)] = support::monotonic_ns();
}

Command::~Command() = default;

void Command::add_dependency(Command& dependency) {
    {
        std::lock_guard lock(dependency.mutex_);
        if (!dependency.terminal_) {
            pending_.fetch_add(1, std::memory_order_relaxed);
            retain_command();
            dependency.dependents_.push_back(this);
            return;
        }
    }
    if (dependency.status() < 0)
        dependency_failed_.store(true, std::memory_order_relaxed);
}

void Command::submit(Executor* executor, bool caller_runs_if_ready) {
    executor_.store(executor, std::memory_order_release);
    set_status(CL_SUBMITTED, Timestamp::submit);
    if (!dependency_done(false))
        return;
    if (caller_runs_if_ready) {
        retain_command(); // dropped by execute_posted()
        execute_posted();
        return;
    }
    Scheduler::make_ready(*this);
}

bool Command::dependency_done(bool failed) {
    if (failed)
        dependency_failed_.store(true, std::memory_order_relaxed);
    return pending_.fetch_sub(1, std::memory_order_acq_rel) == 1;
}

void Command::execute_posted() {
    if (dependency_failed_.load(std::memory_order_relaxed)) {
        (void)finish(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST);
    } else {
        set_status(CL_RUNNING, Timestamp::start);
        const cl_int result = run();
        (void)finish(result > 0 ? CL_SUCCESS : result);
    }
    release_command();
}

bool Command::finish_externally(cl_int status) {
    return finish(status);
}

void Command::set_initial_status(cl_int status) {
    status_.store(status, std::memory_order_release);
}

void Command::set_status(cl_int status, Timestamp stamp) {
    if (profiling_)
        timestamps_[static_cast<size_t>(stamp)] = support::monotonic_ns();
    status_.store(status, std::memory_order_release);
    status_changed(status);
}

bool Command::finish(cl_int status) {
    support::SmallVector<Command*, 2> dependents;
    {
        std::lock_guard lock(mutex_);
        if (terminal_)
            return false;
        if (profiling_) {
            const std::uint64_t now = support::monotonic_ns();
            timestamps_[static_cast<size_t>(Timestamp::end)] = now;
            timestamps_[static_cast<size_t>(Timestamp::complete)] = now;
        }
        // The status is final before terminal_ is: add_dependency reads it
        // after seeing terminal_.
        status_.store(status, std::memory_order_release);
        terminal_ = true;
        dependents = std::move(dependents_);
    }
    status_.notify_all();
    status_changed(status);
    for (Command* dependent : dependents) {
        if (dependent->dependency_done(status < 0))
            Scheduler::make_ready(*dependent);
        dependent->release_command();
    }
    return true;
}

cl_int Command::wait() {
    cl_int current = status_.load(std::memory_order_acquire);
    if (current <= CL_COMPLETE)
        return current;
    Executor* executor = executor_.load(std::memory_order_acquire);
    // Ready but not started: run it here rather than wait for a worker.
    auto run_here = [&] {
        return executor && runs_on_any_thread() &&
               status_.load(std::memory_order_acquire) == CL_SUBMITTED &&
               executor->run_if_queued(*this);
    };
    if (run_here())
        return status_.load(std::memory_order_acquire);
    // A short command finishes sooner than a sleeping thread wakes up; one
    // that is running already is watched a little longer. Meanwhile the
    // thread takes chunks of split copies and fills.
    auto done = [&] {
        for (;;) {
            if (status_.load(std::memory_order_acquire) <= CL_COMPLETE)
                return true;
            if (!executor || !executor->help_once())
                return false;
        }
    };
    if (support::spin_until(done))
        return status_.load(std::memory_order_acquire);
    if (run_here())
        return status_.load(std::memory_order_acquire);
    if (status_.load(std::memory_order_acquire) == CL_RUNNING &&
        support::spin_until(done, support::running_spin_ns - support::spin_ns))
        return status_.load(std::memory_order_acquire);
    current = status_.load(std::memory_order_acquire);
    while (current > CL_COMPLETE) {
        status_.wait(current, std::memory_order_acquire);
        current = status_.load(std::memory_order_acquire);
    }
    return current;
}

} // namespace usmcl::runtime
