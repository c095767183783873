#include "runtime/thread_pool.hpp"

#include "runtime/fill_pattern.hpp"
#include "runtime/stream_copy.hpp"
#include "support/log.hpp"
#include "support/spin.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

namespace usmcl::runtime {

namespace {

// A ready command (posted by the scheduler) or any other piece of work.
struct Task {
    Command* command = nullptr;
    std::function<void()> function;

    void run() {
        if (command)
            command->execute_posted();
        else
            function();
    }
};

} // namespace

namespace {

// The worker index of the calling thread in the pool whose state it is,
// set once by each worker; other threads have none.
thread_local const void* home_pool = nullptr;
thread_local unsigned home_index = 0;

} // namespace

// One parallel_for. Its chunks are split into one contiguous slice per
// worker: worker i takes the chunks of slice i from the front, in order, so
// that a kernel launched again over the same data gives each worker the
// same part of it (still in its core's cache; on a machine with several
// memory nodes, in the node it first touched). A thread whose slice is used
// up, or that has none (a thread waiting for a command, the calling thread
// when it is not a worker), takes chunks from the back of the others'
// slices. Kept alive by everyone that joined, so a helper that comes late
// touches only this.
struct ThreadPool::Job {
    // front (low 32 bits) and end (high 32 bits) of the chunks nobody took.
    struct alignas(64) Slice {
        std::atomic<std::uint64_t> range{0};
    };

    Job(support::FunctionRef<void(size_t)> chunk_body, size_t chunk_count, unsigned slice_count,
        bool helped)
        : body(chunk_body), count(chunk_count), slices(std::make_unique<Slice[]>(slice_count)),
          slice_count(slice_count), waiters_help(helped) {
        for (unsigned i = 0; i < slice_count; ++i) {
            const std::uint64_t front = chunk_count * i / slice_count;
            const std::uint64_t end = chunk_count * (i + 1) / slice_count;
            slices[i].range.store(front | end << 32, std::memory_order_relaxed);
        }
    }
    // Takes a chunk of slice: its first (from_front) or its last; false
    // when the slice has none left.
    bool take(Slice& slice, bool from_front, size_t& chunk) {
        std::uint64_t range = slice.range.load(std::memory_order_relaxed);
        for (;;) {
            const std::uint64_t front = range & 0xffffffffu;
            const std::uint64_t end = range >> 32;
            if (front >= end)
                return false;
            const std::uint64_t rest = from_front ? range + 1 : range - (std::uint64_t{1} << 32);
            if (slice.range.compare_exchange_weak(range, rest, std::memory_order_relaxed)) {
                chunk = from_front ? front : end - 1;
                return true;
            }
        }
    }

    support::FunctionRef<void(size_t)> body; // valid while done < count
    size_t count;
    std::unique_ptr<Slice[]> slices;
    unsigned slice_count;
    bool waiters_help;
    std::atomic<size_t> taken{0};
    std::atomic<size_t> done{0};
};

struct ThreadPool::State {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<Task> tasks;
    std::vector<std::shared_ptr<Job>> jobs; // splits with chunks nobody took yet
    bool stopping = false;
    unsigned sleeping = 0; // workers blocked on wake (under mutex)
    // Readable without the lock: tasks.size(), jobs.size() and how many of
    // the jobs waiting threads may help with.
    std::atomic<size_t> queued{0};
    std::atomic<size_t> open{0};
    std::atomic<size_t> open_to_waiters{0};

    // A job with chunks left (for a waiting thread: one it may help with).
    // Under mutex.
    std::shared_ptr<Job> join(bool waiter) const {
        for (const std::shared_ptr<Job>& job : jobs)
            if ((!waiter || job->waiters_help) &&
                job->taken.load(std::memory_order_relaxed) < job->count)
                return job;
        return nullptr;
    }
    // Nobody need join job any more. Under mutex.
    void close(const Job& job) {
        auto it = std::find_if(jobs.begin(), jobs.end(), [&](const std::shared_ptr<Job>& open_job) {
            return open_job.get() == &job;
        });
        if (it == jobs.end())
            return;
        jobs.erase(it);
        open.store(jobs.size(), std::memory_order_release);
        if (job.waiters_help)
            open_to_waiters.fetch_sub(1, std::memory_order_release);
    }
    // Runs a chunk of job: the next of the calling worker's slice, else
    // one of another slice's last; false when every chunk was taken. Whoever
    // takes the last chunk closes the job.
    bool take_chunk(Job& job) {
        const bool worker = home_pool == this;
        const unsigned home = worker ? home_index % job.slice_count : 0;
        size_t chunk = 0;
        bool found = worker && job.take(job.slices[home], true, chunk);
        for (unsigned k = worker ? 1 : 0; !found && k < job.slice_count; ++k)
            found = job.take(job.slices[(home + k) % job.slice_count], false, chunk);
        if (!found)
            return false;
        if (job.taken.fetch_add(1, std::memory_order_relaxed) + 1 == job.count) {
            std::lock_guard lock(mutex);
            close(job);
        }
        job.body(chunk);
        job.done.fetch_add(1, std::memory_order_release);
        return true;
    }
};

ThreadPool::ThreadPool(unsigned workers, std::function<void(unsigned)> pin)
    : state_(std::make_shared<State>()) {
    // Read here, before any worker waits: whether waits spin first.
    const bool spins = support::spinning_pays();
    threads_.reserve(workers);
    for (unsigned i = 0; i < workers; ++i) {
        threads_.emplace_back([state = state_, pin, i] {
            home_pool = state.get();
            home_index = i;
            if (pin)
                pin(i);
            work(state);
        });
    }
    USMCL_LOG(exec, "thread pool of %u workers; waits %s", workers,
              spins ? "spin before sleeping" : "sleep at once (one processing unit)");
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard lock(state_->mutex);
        state_->stopping = true;
    }
    state_->wake.notify_all();
    for (std::thread& thread : threads_) {
        if (thread.get_id() == std::this_thread::get_id())
            thread.detach(); // destroyed by its own worker: it exits by itself
        else
            thread.join();
    }
}

void ThreadPool::post(Command& command) {
    bool wake = false;
    {
        std::lock_guard lock(state_->mutex);
        state_->tasks.push_back(Task{&command, {}});
        state_->queued.store(state_->tasks.size(), std::memory_order_release);
        wake = state_->sleeping > 0;
    }
    // A worker that is still spinning takes the command without a wake-up.
    if (wake)
        state_->wake.notify_one();
}

void ThreadPool::post(std::function<void()> task) {
    bool wake = false;
    {
        std::lock_guard lock(state_->mutex);
        state_->tasks.push_back(Task{nullptr, std::move(task)});
        state_->queued.store(state_->tasks.size(), std::memory_order_release);
        wake = state_->sleeping > 0;
    }
    if (wake)
        state_->wake.notify_one();
}

void ThreadPool::work(const std::shared_ptr<State>& state) {
    std::unique_lock lock(state->mutex);
    for (;;) {
        // Chunks of a split first: they finish a command already running.
        if (std::shared_ptr<Job> job = state->join(false)) {
            lock.unlock();
            while (state->take_chunk(*job)) {
            }
            job = nullptr;
            lock.lock();
            continue;
        }
        if (!state->tasks.empty()) {
            Task task = std::move(state->tasks.front());
            state->tasks.pop_front();
            state->queued.store(state->tasks.size(), std::memory_order_release);
            lock.unlock();
            task.run();
            task = Task{}; // drop what the task held before taking the lock
            lock.lock();
            continue;
        }
        if (state->stopping)
            return;
        // Before sleeping, watch for work for a short while: a command
        // posted right after the last one, or a split, then starts without
        // the cost of waking a sleeping thread (tens of microseconds).
        lock.unlock();
        support::spin_until([&] {
            return state->queued.load(std::memory_order_acquire) != 0 ||
                   state->open.load(std::memory_order_acquire) != 0;
        });
        lock.lock();
        ++state->sleeping;
        state->wake.wait(lock, [&] {
            return state->stopping || !state->tasks.empty() || state->join(false) != nullptr;
        });
        --state->sleeping;
    }
}

bool ThreadPool::run_if_queued(Command& command) {
    if (state_->queued.load(std::memory_order_acquire) == 0)
        return false;
    {
        std::lock_guard lock(state_->mutex);
        auto& tasks = state_->tasks;
        auto it = std::find_if(tasks.begin(), tasks.end(),
                               [&](const Task& task) { return task.command == &command; });
        if (it == tasks.end())
            return false;
        tasks.erase(it);
        state_->queued.store(tasks.size(), std::memory_order_release);
    }
    command.execute_posted();
    return true;
}

bool ThreadPool::help_once() {
    if (state_->open_to_waiters.load(std::memory_order_acquire) == 0)
        return false;
    std::shared_ptr<Job> job;
    {
        std::lock_guard lock(state_->mutex);
        job = state_->join(true);
    }
    return job && state_->take_chunk(*job);
}

void ThreadPool::parallel_for(size_t count, support::FunctionRef<void(size_t)> body, Split split) {
    if (count == 0)
        return;
    if (count == 1 || threads_.empty()) {
        for (size_t i = 0; i < count; ++i)
            body(i);
        return;
    }
    auto job = std::make_shared<Job>(body, count, static_cast<unsigned>(threads_.size()),
                                     split.waiters_help);
    size_t to_wake = 0;
    bool wake_all = false;
    {
        std::lock_guard lock(state_->mutex);
        state_->jobs.push_back(job);
        state_->open.store(state_->jobs.size(), std::memory_order_release);
        if (split.waiters_help)
            state_->open_to_waiters.fetch_add(1, std::memory_order_release);
        if (split.wake_sleepers)
            to_wake = std::min<size_t>(state_->sleeping, count - 1);
        // Read under the lock: sleepers change it under the lock.
        wake_all = to_wake > 0 && to_wake == state_->sleeping;
    }
    if (wake_all)
        state_->wake.notify_all();
    else
        for (size_t i = 0; i < to_wake; ++i)
            state_->wake.notify_one();
    while (state_->take_chunk(*job)) {
    }
    // The chunks others took: wait for them to finish.
    for (unsigned round = 1; job->done.load(std::memory_order_acquire) < count; ++round) {
        support::cpu_relax();
        if (round % 64 == 0)
            std::this_thread::yield();
    }
}

namespace {

// From this size on, copies and fills split into chunks: every thread
// that takes part adds the bandwidth of its core (a core alone does not
// reach the memory's, nor the other cores' caches').
constexpr size_t split_threshold = 1u << 20;
// From this size on, a split also wakes sleeping workers (below it, the
// copy is over before a woken worker arrives). It was 8 MiB: a 4 MiB read
// then ran on the calling thread alone, at 13-15 GB/s on 2 cores of the
// Xeon where 16 MiB reached 27 (and Intel's runtime 20 at 4 MiB); woken,
// the workers bring it to 29-31 GB/s.
constexpr size_t wake_threshold = 2u << 20;
// Chunks: about four per taking part thread, so a late or slow one delays
// the end little, and large enough that taking one costs nothing.
constexpr size_t min_chunk = 128u << 10;
constexpr size_t max_chunk = 2u << 20;
// Above this, copies and pattern fills use non-temporal stores.
constexpr size_t stream_threshold = 32u << 20;
// Above this, pattern fills no longer stay in a core's cache (plain stores
// then read every line before writing it): they use string stores.
constexpr size_t core_cache_fill = 1u << 20;

// The chunk size of a split of size bytes: a multiple of 4 KiB (so of
// every pattern size).
size_t chunk_size_for(const ThreadPool& pool, size_t size) {
    const size_t threads = size_t(pool.size()) + 1;
    const size_t chunk = std::clamp(size / (4 * threads), min_chunk, max_chunk);
    return chunk / 4096 * 4096;
}

// Runs part(begin, length) over [0, size), split when large enough.
template <class Part>
void split_range(ThreadPool& pool, size_t size, const Part& part) {
    if (size < split_threshold || pool.size() == 0) {
        part(0, size);
        return;
    }
    const size_t chunk_size = chunk_size_for(pool, size);
    const size_t chunks = (size + chunk_size - 1) / chunk_size;
    ThreadPool::Split split;
    split.waiters_help = true;
    split.wake_sleepers = size >= wake_threshold;
    pool.parallel_for(
        chunks,
        [&](size_t chunk) {
            const size_t begin = chunk * chunk_size;
            part(begin, std::min(chunk_size, size - begin));
        },
        split);
}

} // namespace

void parallel_copy(ThreadPool& pool, void* destination, const void* source, size_t size) {
    // Copies larger than stream_threshold go past the caches, as memcpy's
    // own do above its threshold for non-temporal stores (190 MiB on the
    // Xeon of docs/performance.md); but a chunk is smaller than that, and
    // memcpy passed each through the caches: a 256 MiB read reached 63% of
    // one memcpy's bandwidth on one core.
    const bool streaming = size >= stream_threshold;
    split_range(pool, size, [&](size_t begin, size_t length) {
        char* out = static_cast<char*>(destination) + begin;
        const char* in = static_cast<const char*>(source) + begin;
        if (streaming)
            stream_copy(out, in, length);
        else
            std::memcpy(out, in, length);
    });
}

void parallel_fill(ThreadPool& pool, void* destination, const void* pattern, size_t pattern_size,
                   size_t size) {
    // Chunks start at multiples of 4 KiB, where the pattern's phase is 0.
    // Fills that fit a core's cache stay there, where a kernel finds them;
    // larger ones write whole lines; those larger than a last-level cache
    // stream past it.
    const FillStores stores = size >= stream_threshold ? FillStores::streaming
                              : size > core_cache_fill ? FillStores::lines
                                                       : FillStores::cached;
    split_range(pool, size, [&](size_t begin, size_t length) {
        fill_pattern(static_cast<char*>(destination) + begin, pattern, pattern_size, length,
                     stores);
    });
}

namespace {

struct CallbackQueue {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::function<void()>> callbacks;
};

CallbackQueue& callback_queue() {
    // Never destroyed: the callback thread may outlive static destruction.
    static CallbackQueue* const queue = [] {
        auto* created = new CallbackQueue();
        std::thread([created] {
            std::unique_lock lock(created->mutex);
            for (;;) {
                created->wake.wait(lock, [&] { return !created->callbacks.empty(); });
                std::function<void()> callback = std::move(created->callbacks.front());
                created->callbacks.pop_front();
                lock.unlock();
                callback();
                callback = nullptr;
                lock.lock();
            }
        }).detach();
        return created;
    }();
    return *queue;
}

} // namespace

void post_callback(std::function<void()> callback) {
    CallbackQueue& queue = callback_queue();
    {
        std::lock_guard lock(queue.mutex);
        queue.callbacks.push_back(std::move(callback));
    }
    queue.wake.notify_one();
}

} // namespace usmcl::runtime
