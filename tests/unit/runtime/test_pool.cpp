// runtime::ThreadPool: every chunk of a parallel_for runs exactly once,
// whoever takes it (workers, the calling thread, threads helping through
// help_once); a thread waiting for a command that no worker took runs it
// itself (Command::wait through run_if_queued); a worker takes the chunks of
// its own slice first, in order, then the others' from their back.
#include "runtime/thread_pool.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace {

using usmcl::runtime::Command;
using usmcl::runtime::ThreadPool;

// A command that records the thread it ran on; freed when its last
// reference goes.
class TestCommand final : public Command {
public:
    std::atomic<int> runs{0};
    std::thread::id ran_on;

    void release() { release_command(); }

protected:
    cl_int run() override {
        ran_on = std::this_thread::get_id();
        runs.fetch_add(1);
        return CL_SUCCESS;
    }
    void status_changed(cl_int) override {}
    void retain_command() override { references_.fetch_add(1); }
    void release_command() override {
        if (references_.fetch_sub(1) == 1)
            delete this;
    }

private:
    ~TestCommand() override = default;
    std::atomic<int> references_{1};
};

} // namespace

TEST_CASE("parallel_for runs every chunk once, with workers and helping threads", "[runtime]") {
    ThreadPool pool(2, {});
    for (bool waiters_help : {false, true})
        for (bool wake_sleepers : {false, true})
            for (size_t count : {size_t(1), size_t(2), size_t(7), size_t(1000)}) {
                std::vector<std::atomic<int>> hits(count);
                std::atomic<bool> stop{false};
                std::atomic<size_t> helped{0};
                std::thread helper([&] {
                    while (!stop.load())
                        if (pool.help_once())
                            helped.fetch_add(1);
                });
                ThreadPool::Split split;
                split.waiters_help = waiters_help;
                split.wake_sleepers = wake_sleepers;
                pool.parallel_for(
                    count, [&](size_t i) { hits[i].fetch_add(1); }, split);
                stop.store(true);
                helper.join();
                INFO("count " << count << ", waiters help " << waiters_help << ", wake "
                              << wake_sleepers);
                bool once = true;
                for (auto& hit : hits)
                    once = once && hit.load() == 1;
                CHECK(once);
                if (!waiters_help)
                    CHECK(helped.load() == 0);
            }
}

namespace {

// The order in which the chunks of parallel_for(8) ran, called from a
// worker (on_worker) or from this thread, while the pool's other worker (or
// both) is kept busy by a task, so that the caller alone runs every chunk.
std::vector<size_t> chunk_order(bool on_worker) {
    ThreadPool pool(2, {});
    std::atomic<int> busy{0};
    std::atomic<bool> release{false};
    const int blocked = on_worker ? 1 : 2;
    for (int i = 0; i < blocked; ++i)
        pool.post([&] {
            busy.fetch_add(1);
            while (!release.load())
                std::this_thread::yield();
        });
    while (busy.load() < blocked)
        std::this_thread::yield();
    std::mutex mutex;
    std::vector<size_t> order;
    auto run = [&] {
        pool.parallel_for(8, [&](size_t i) {
            std::lock_guard lock(mutex);
            order.push_back(i);
        });
    };
    if (on_worker) {
        std::atomic<bool> done{false};
        pool.post([&] {
            run();
            done.store(true);
        });
        while (!done.load())
            std::this_thread::yield();
    } else {
        run();
    }
    release.store(true);
    return order;
}

} // namespace

TEST_CASE("a worker runs its own slice of a parallel_for first, then the others' from the back",
          "[runtime]") {
    // Slices: worker 0 has chunks 0-3, worker 1 chunks 4-7.
    const std::vector<size_t> by_worker = chunk_order(true);
    REQUIRE(by_worker.size() == 8);
    if (by_worker.front() == 0)
        CHECK(by_worker == std::vector<size_t>{0, 1, 2, 3, 7, 6, 5, 4});
    else
        CHECK(by_worker == std::vector<size_t>{4, 5, 6, 7, 3, 2, 1, 0});
    // A thread that is no worker has no slice: it takes every chunk from a
    // back, leaving the fronts to the workers.
    CHECK(chunk_order(false) == std::vector<size_t>{3, 2, 1, 0, 7, 6, 5, 4});
}

TEST_CASE("a waiting thread runs a ready command no worker took", "[runtime]") {
    ThreadPool pool(0, {}); // no worker ever takes the command
    auto* command = new TestCommand();
    command->submit(&pool);
    CHECK(command->status() == CL_SUBMITTED);
    CHECK(command->wait() == CL_COMPLETE);
    CHECK(command->runs.load() == 1);
    CHECK(command->ran_on == std::this_thread::get_id());
    CHECK_FALSE(pool.run_if_queued(*command)); // taken already
    command->release();
}

TEST_CASE("a command taken back runs once even with workers racing for it", "[runtime]") {
    ThreadPool pool(2, {});
    for (int round = 0; round < 2000; ++round) {
        auto* command = new TestCommand();
        command->submit(&pool);
        CHECK(command->wait() == CL_COMPLETE);
        CHECK(command->runs.load() == 1);
        command->release();
    }
}
