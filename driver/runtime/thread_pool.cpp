#include "runtime/thread_pool.hpp"

#include "runtime/spin.hpp"
#include "support/log.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace usmcl::runtime {

struct ThreadPool::State {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::function<void()>> tasks;
    bool stopping = false;
    unsigned sleeping = 0;         // workers blocked on wake (under mutex)
    std::atomic<size_t> queued{0}; // tasks.size(), readable without the lock
};

ThreadPool::ThreadPool(unsigned workers, std::function<void(unsigned)> pin)
    : state_(std::make_shared<State>()) {
    threads_.reserve(workers);
    for (unsigned i = 0; i < workers; ++i) {
        threads_.emplace_back([state = state_, pin, i] {
            if (pin)
                pin(i);
            work(state);
        });
    }
    USMCL_LOG(exec, "thread pool of %u workers", workers);
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
    post([&command] { command.execute_posted(); });
}

void ThreadPool::post(std::function<void()> task) {
    bool wake = false;
    {
        std::lock_guard lock(state_->mutex);
        state_->tasks.push_back(std::move(task));
        state_->queued.store(state_->tasks.size(), std::memory_order_release);
        wake = state_->sleeping > 0;
    }
    // A worker that is still spinning takes the task without a wake-up.
    if (wake)
        state_->wake.notify_one();
}

void ThreadPool::work(const std::shared_ptr<State>& state) {
    std::unique_lock lock(state->mutex);
    for (;;) {
        if (state->tasks.empty() && !state->stopping) {
            // Before sleeping, watch the queue for a short while: a command
            // posted right after the last one then starts without the cost
            // of waking a sleeping thread (tens of microseconds).
            lock.unlock();
            spin_until([&] { return state->queued.load(std::memory_order_acquire) != 0; });
            lock.lock();
            ++state->sleeping;
            state->wake.wait(lock, [&] { return state->stopping || !state->tasks.empty(); });
            --state->sleeping;
        }
        if (state->tasks.empty())
            return; // stopping, nothing left
        std::function<void()> task = std::move(state->tasks.front());
        state->tasks.pop_front();
        state->queued.store(state->tasks.size(), std::memory_order_release);
        lock.unlock();
        task();
        task = nullptr; // drop what the task held before taking the lock
        lock.lock();
    }
}

void ThreadPool::parallel_for(size_t count, const std::function<void(size_t)>& body) {
    if (count == 0)
        return;
    struct Shared {
        std::atomic<size_t> next{0};
        std::atomic<size_t> done{0};
        const std::function<void(size_t)>* body;
        size_t count;
    };
    // Helpers may start after everything is done: they then touch only the
    // shared block, which they keep alive.
    auto shared = std::make_shared<Shared>();
    shared->body = &body;
    shared->count = count;
    auto take_chunks = [](Shared& state) {
        for (size_t i; (i = state.next.fetch_add(1, std::memory_order_relaxed)) < state.count;) {
            (*state.body)(i);
            state.done.fetch_add(1, std::memory_order_release);
        }
    };
    const size_t helpers = std::min<size_t>(count - 1, threads_.size());
    for (size_t h = 0; h < helpers; ++h)
        post([shared, take_chunks] { take_chunks(*shared); });
    take_chunks(*shared);
    while (shared->done.load(std::memory_order_acquire) < count)
        std::this_thread::yield();
}

namespace {

// Below this, one thread copies faster than several start.
constexpr size_t split_threshold = 8u << 20;
constexpr size_t chunk_size = 2u << 20;
// Above this, pattern fills use non-temporal stores.
constexpr size_t stream_threshold = 32u << 20;

} // namespace

void parallel_copy(ThreadPool& pool, void* destination, const void* source, size_t size) {
    if (size < split_threshold || pool.size() < 2) {
        std::memcpy(destination, source, size);
        return;
    }
    const size_t chunks = (size + chunk_size - 1) / chunk_size;
    pool.parallel_for(chunks, [&](size_t chunk) {
        const size_t begin = chunk * chunk_size;
        const size_t length = std::min(chunk_size, size - begin);
        std::memcpy(static_cast<char*>(destination) + begin,
                    static_cast<const char*>(source) + begin, length);
    });
}

namespace {

// Fills [out, out + length) with 128-byte lines of the pattern held in
// vector registers: stores only, no copy reading the destination back. With
// non_temporal the stores bypass the caches, as memset's do for large sizes.
// out is 16-byte aligned and a multiple of 128 bytes past the start of the
// fill (the pattern's phase is 0 there).
void fill_lines(char* out, const char* pattern, size_t pattern_size, size_t length,
                bool non_temporal) {
    alignas(16) char line[128];
    for (size_t i = 0; i < sizeof line; ++i)
        line[i] = pattern[i % pattern_size];
    const size_t lines = length / sizeof line;
#if defined(__SSE2__)
    __m128i parts[8];
    for (int j = 0; j < 8; ++j)
        parts[j] = _mm_load_si128(reinterpret_cast<const __m128i*>(line) + j);
    for (size_t l = 0; l < lines; ++l) {
        auto* target = reinterpret_cast<__m128i*>(out + l * sizeof line);
        if (non_temporal) {
            for (int j = 0; j < 8; ++j)
                _mm_stream_si128(target + j, parts[j]);
        } else {
            for (int j = 0; j < 8; ++j)
                _mm_store_si128(target + j, parts[j]);
        }
    }
    if (non_temporal)
        _mm_sfence();
#else
    (void)non_temporal;
    for (size_t l = 0; l < lines; ++l)
        std::memcpy(out + l * sizeof line, line, sizeof line);
#endif
    std::memcpy(out + lines * sizeof line, line, length % sizeof line);
}

} // namespace

void parallel_fill(ThreadPool& pool, void* destination, const void* pattern, size_t pattern_size,
                   size_t size) {
    // From a 16-byte aligned start, whole lines of the pattern (chunks start
    // at multiples of 128 bytes, where the pattern's phase is 0). Fills
    // larger than a last-level cache stream; smaller ones stay in the cache,
    // where a kernel finds them.
    const bool by_lines = reinterpret_cast<std::uintptr_t>(destination) % 16 == 0;
    const bool streaming = size >= stream_threshold;
    auto fill = [&](size_t begin, size_t length) {
        auto* out = static_cast<char*>(destination) + begin;
        if (length == 0)
            return;
        if (pattern_size == 1) {
            std::memset(out, *static_cast<const unsigned char*>(pattern), length);
            return;
        }
        if (by_lines) {
            fill_lines(out, static_cast<const char*>(pattern), pattern_size, length, streaming);
            return;
        }
        // The pattern once, doubled up to a block, then the block over and
        // over: wide copies instead of one small copy per pattern.
        const size_t block = std::min<size_t>(length, 4096); // a multiple of pattern_size
        std::memcpy(out, pattern, pattern_size);
        for (size_t filled = pattern_size; filled < block;) {
            const size_t more = std::min(filled, block - filled);
            std::memcpy(out + filled, out, more);
            filled += more;
        }
        for (size_t done = block; done < length; done += block)
            std::memcpy(out + done, out, std::min(block, length - done));
    };
    if (size < split_threshold || pool.size() < 2) {
        fill(0, size);
        return;
    }
    // Chunks are multiples of every pattern size (powers of two up to 128).
    const size_t chunks = (size + chunk_size - 1) / chunk_size;
    pool.parallel_for(chunks, [&](size_t chunk) {
        const size_t begin = chunk * chunk_size;
        fill(begin, std::min(chunk_size, size - begin));
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
