// runtime::ThreadPool: every chunk of a parallel_for runs exactly once,
// whoever takes it (workers, the calling thread, threads helping through
// help_once); a thread waiting for a command that no worker took runs it
// itself (Command::wait through run_if_queued).
#include "runtime/thread_pool.hpp"

#include <catch2/catch.hpp>

#include <atomic>
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
