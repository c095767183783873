// A node of the command graph: something that runs once every command it
// depends on has finished. Its status follows OpenCL's execution states:
// queued (3) → submitted (2) → running (1) → complete (0), or a negative
// error code. A command whose dependency failed does not run and fails with
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST.
//
// Knows nothing of handles: core::Event derives from it and supplies the
// lifetime (retain_command/release_command) and what happens on each change
// of status (callbacks).
#pragma once

#include "support/small_vector.hpp"

#include <CL/cl.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>

namespace usmcl::runtime {

class Executor;

enum class Timestamp { queued, submit, start, end, complete };

class Command {
public:
    // profiling: record the timestamps (clock reads cost; only profiling
    // queues pay for them).
    explicit Command(bool profiling = false);
    Command(const Command&) = delete;
    Command& operator=(const Command&) = delete;

    // Makes this command wait for dependency. Call before submit(). Costs
    // one lock of the dependency's small mutex.
    void add_dependency(Command& dependency);
    // Hands the command to the scheduler: it runs on executor (or, for
    // inline commands, on whichever thread resolves its last dependency)
    // once its dependencies are done. executor may be null for inline
    // commands. With caller_runs_if_ready, a command whose dependencies are
    // all done already runs on the calling thread before submit() returns
    // (a blocking enqueue: the caller would only wait for a worker).
    void submit(Executor* executor, bool caller_runs_if_ready = false);

    // Gives a command that does not run (a user event) its final status.
    // Returns false if it already had one.
    bool finish_externally(cl_int status);

    cl_int status() const { return status_.load(std::memory_order_acquire); }
    bool is_terminal() const { return status() <= CL_COMPLETE; }
    // Blocks until the command is complete or failed; returns its status.
    // Meanwhile the calling thread works instead of only waiting: it runs
    // the command itself if it is ready and no worker took it yet (unless
    // it must run on a worker), and chunks of split copies and fills of the
    // command's executor.
    cl_int wait();

    std::uint64_t timestamp(Timestamp which) const {
        return timestamps_[static_cast<size_t>(which)];
    }

    // Runs a command the scheduler posted, on the calling thread, and drops
    // the reference the scheduler took (called by executors, once).
    void execute_posted();

protected:
    virtual ~Command();

    // The work; returns CL_SUCCESS or a negative error code.
    virtual cl_int run() = 0;
    // Commands whose work is trivial (markers, barriers) run on the thread
    // that resolves their last dependency instead of going through a pool.
    virtual bool runs_inline() const { return false; }
    // Whether a thread waiting for the command may run it (false for work
    // that expects a worker thread: kernels).
    virtual bool runs_on_any_thread() const { return true; }
    // Sets the status of a command that is never submitted (user events start
    // as CL_SUBMITTED). Call from the constructor of the derived class.
    void set_initial_status(cl_int status);
    // Called after every change of status, with no lock held.
    virtual void status_changed(cl_int status) = 0;
    // Keeps the command alive while the graph refers to it.
    virtual void retain_command() = 0;
    virtual void release_command() = 0;

private:
    friend class Scheduler;

    void set_status(cl_int status, Timestamp stamp);
    // Makes status final and resolves the dependents; false if it already was.
    bool finish(cl_int status);
    // One dependency finished; true when this command is now ready.
    bool dependency_done(bool failed);

    std::atomic<cl_int> status_{CL_QUEUED};
    // Unfinished dependencies plus one guard held until submit().
    std::atomic<std::uint32_t> pending_{1};
    std::atomic<bool> dependency_failed_{false};
    // Set by submit(); read by waiting threads, which may come earlier.
    std::atomic<Executor*> executor_{nullptr};
    bool profiling_ = false;
    std::array<std::uint64_t, 5> timestamps_{};

    std::mutex mutex_; // guards dependents_ and terminal_
    bool terminal_ = false;
    // In an in-order queue a command has one dependent, the next command.
    support::SmallVector<Command*, 2> dependents_;
};

// Where ready commands run: a device's thread pool.
class Executor {
public:
    virtual void post(Command& command) = 0;
    // For a thread waiting for a command of this executor. If command was
    // posted and no worker took it yet, takes it back and runs it on the
    // calling thread (Command::execute_posted()); true if it did.
    virtual bool run_if_queued(Command& command) = 0;
    // Runs one chunk of split work that waiting threads may take part in;
    // false if there was none.
    virtual bool help_once() = 0;

protected:
    ~Executor() = default;
};

} // namespace usmcl::runtime
