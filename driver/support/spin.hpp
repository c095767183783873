// Busy-waiting for a short while before a thread goes to sleep: waking a
// sleeping thread costs tens of microseconds, more than most commands take.
#pragma once

#include "support/clock.hpp"

#include <cstdint>
#include <sched.h>
#include <thread>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace usmcl::support {

// How long a thread watches for work or completion before it sleeps.
inline constexpr std::uint64_t spin_ns = 30'000;
// How long a thread waiting for a command that is already running watches
// it: long enough for a copy of a few MiB, whose waiter would otherwise
// sleep and take a wake-up (and the worker's next command another).
inline constexpr std::uint64_t running_spin_ns = 250'000;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
}

// Whether busy-waiting can pay: the process may run on more than one
// processing unit (read once, from the main thread's mask: the workers are
// pinned to one unit each). On one, the thread waited for cannot run while
// the waiter spins: a spin only delays it (an empty kernel's round trip
// took 57 us instead of a few under taskset -c 0).
inline bool spinning_pays() {
    static const bool pays = [] {
        cpu_set_t set;
        if (sched_getaffinity(getpid(), sizeof(set), &set) != 0)
            return std::thread::hardware_concurrency() > 1;
        return CPU_COUNT(&set) > 1;
    }();
    return pays;
}

// Polls done() for up to budget_ns (once only where spinning cannot pay);
// true as soon as it holds. Yields the processor now and then so a
// spinning thread never starves the one it waits for on a busy machine.
template <class Done>
bool spin_until(Done&& done, std::uint64_t budget_ns = spin_ns) {
    if (!spinning_pays())
        return done();
    const std::uint64_t deadline = support::monotonic_ns() + budget_ns;
    for (unsigned round = 1;; ++round) {
        for (int i = 0; i < 64; ++i) {
            if (done())
                return true;
            cpu_relax();
        }
        if (support::monotonic_ns() > deadline)
            return false;
        if (round % 16 == 0)
            std::this_thread::yield();
    }
}

} // namespace usmcl::support
