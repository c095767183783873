#include "runtime/thread_pool.hpp"

#include "support/log.hpp"

namespace usmcl::runtime {

struct ThreadPool::State {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::function<void()>> tasks;
    bool stopping = false;
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
    {
        std::lock_guard lock(state_->mutex);
        state_->tasks.push_back(std::move(task));
    }
    state_->wake.notify_one();
}

void ThreadPool::work(const std::shared_ptr<State>& state) {
    std::unique_lock lock(state->mutex);
    for (;;) {
        state->wake.wait(lock, [&] { return state->stopping || !state->tasks.empty(); });
        if (state->tasks.empty())
            return; // stopping, nothing left
        std::function<void()> task = std::move(state->tasks.front());
        state->tasks.pop_front();
        lock.unlock();
        task();
        task = nullptr; // drop what the task held before taking the lock
        lock.lock();
    }
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
