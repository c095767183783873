// usm_bench: what the parent (usm_bench.cpp) and the children
// (usm_children.cpp) share: sizes, timing, errors.
#pragma once

#include "sizes.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <type_traits>

namespace usm_bench {

using Clock = std::chrono::steady_clock;

using bench::GiB;
using bench::KiB;
using bench::MiB;
using bench::parse_size;
inline std::string human(size_t bytes) {
    return bench::human_size(bytes);
}

// Allocation sizes of part 1.
inline constexpr size_t alloc_sizes[] = {64, 4 * KiB, 64 * KiB, 1 * MiB, 16 * MiB};
// Live allocations of part 2.
inline constexpr size_t lookup_counts[] = {1000, 100000};
// Live allocations of part 4's bookkeeping.
inline constexpr size_t bookkeeping_count = 100000;
// Part 4's resident-memory check: this many bytes in allocations of this size.
inline constexpr size_t touch_total = 1 * GiB;
inline constexpr size_t touch_chunk = 16 * MiB;

inline double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Wrong data or another error that is not an OpenCL status: the message goes
// to stderr, the process exits with 3 (failed OpenCL calls: cl_check.hpp).
[[noreturn]] void fail(const char* what);

// How an operation is timed: the best of `batches` batches, each of at
// least 3 operations and `seconds` (interference from other processes only
// adds time). Part 3 takes many short batches: on a loaded machine a long
// batch nearly always includes a time slice lost to another process, a short
// one often does not.
struct Batches {
    int batches = 7;
    double seconds = 0.02;
};
inline constexpr Batches bandwidth_batches{31, 0.002};

// Seconds per operation, timed in batches. With a reference, its batches
// alternate with the operation's, so that both see the same conditions;
// *reference_time gets its best.
template <typename Operation, typename Reference = std::nullptr_t>
double time_per_op(Operation&& operation, Reference reference = nullptr,
                   double* reference_time = nullptr, Batches batches = {}) {
    auto batch_size = [&](auto& run) {
        run(); // warm-up: first touch, lazy allocation
        const auto probe = Clock::now();
        run();
        const double once = std::max(seconds_since(probe), 1e-9);
        return std::clamp<size_t>(static_cast<size_t>(batches.seconds / once), 3, 1000000);
    };
    auto batch = [](auto& run, size_t count) {
        const auto start = Clock::now();
        for (size_t i = 0; i < count; ++i)
            run();
        return seconds_since(start) / static_cast<double>(count);
    };
    const size_t count = batch_size(operation);
    constexpr bool with_reference = !std::is_same_v<Reference, std::nullptr_t>;
    size_t reference_count = 0;
    if constexpr (with_reference)
        reference_count = batch_size(reference);
    double best = 1e30, reference_best = 1e30;
    for (int i = 0; i < batches.batches; ++i) {
        if constexpr (with_reference)
            reference_best = std::min(reference_best, batch(reference, reference_count));
        best = std::min(best, batch(operation, count));
    }
    if (reference_time)
        *reference_time = reference_best;
    return best;
}

// The children; each prints lines the parent parses and returns the exit
// status.
int child_alloc();
int child_lookup(unsigned long long seed);
int child_bandwidth(size_t max_size, unsigned long long seed);
int child_memory(unsigned long long seed);
int child_registry(unsigned long long seed);

} // namespace usm_bench
