// The allocation patterns replayed by the benchmarks, identical for every allocator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bufalloc::bench {

inline constexpr std::uint64_t kib = 1024;
inline constexpr std::uint64_t mib = 1024 * kib;
inline constexpr std::uint64_t gib = 1024 * mib;

// Size codes 0..4 are fixed sizes; mixed_sizes draws log-uniformly from 64 B to 64 MiB.
inline constexpr std::uint64_t fixed_sizes[] = {64, 4 * kib, 256 * kib, 16 * mib, 64 * mib};
inline constexpr int mixed_sizes = 5;

[[nodiscard]] std::string size_label(int size_code);

// "churn/<allocator>/<size label>/<live>": the name of a throughput benchmark.
[[nodiscard]] std::string churn_name(const char* allocator, int size_code, std::size_t live);

// Steady-state churn: fill `live` slots, then repeatedly free a random slot and allocate a new
// size into it. The sequences wrap around; their length is a power of two.
struct ChurnPlan {
    std::vector<std::uint64_t> initial_sizes; // one per slot
    std::vector<std::uint32_t> slots;         // slot freed and refilled at step i
    std::vector<std::uint64_t> sizes;         // size allocated at step i
    std::uint64_t region_bytes = 0;           // 4x the expected live bytes, 64 B aligned
};

[[nodiscard]] ChurnPlan make_churn_plan(int size_code, std::size_t live, std::uint64_t seed);

// One step of an OpenCL-like trace: a buffer id is allocated once and freed at most once.
struct TraceOp {
    bool allocate = false;
    std::uint32_t id = 0;
    std::uint64_t size = 0;
};

// Buffer lifetimes of OpenCL applications: batches of 1-4 buffers (a kernel's arguments), 85%
// of them large (1-256 MiB) and 15% small (4 KiB-1 MiB), freed one at a time in random order
// while the requested bytes wander between low_percent and high_percent of `region_bytes`.
[[nodiscard]] std::vector<TraceOp> make_opencl_trace(std::uint64_t region_bytes, std::size_t steps,
                                                     std::uint64_t seed, unsigned low_percent,
                                                     unsigned high_percent);

} // namespace bufalloc::bench
