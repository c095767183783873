// Churn plans and synthetic OpenCL buffer traces.
#include "workloads.hpp"

#include <algorithm>
#include <cmath>
#include <random>

namespace bufalloc::bench {

namespace {

constexpr std::size_t sequence_length = std::size_t{1} << 16;

// Log-uniform in [low, high].
std::uint64_t log_uniform(std::mt19937_64& rng, std::uint64_t low, std::uint64_t high) {
    std::uniform_real_distribution<double> exponent(std::log2(static_cast<double>(low)),
                                                    std::log2(static_cast<double>(high)));
    auto value = static_cast<std::uint64_t>(std::exp2(exponent(rng)));
    return std::clamp(value, low, high);
}

std::uint64_t draw_size(std::mt19937_64& rng, int size_code) {
    if (size_code < mixed_sizes) {
        return fixed_sizes[size_code];
    }
    return log_uniform(rng, 64, 64 * mib);
}

} // namespace

std::string size_label(int size_code) {
    if (size_code == mixed_sizes) {
        return "mixed";
    }
    std::uint64_t size = fixed_sizes[size_code];
    if (size >= mib) {
        return std::to_string(size / mib) + "MiB";
    }
    if (size >= kib) {
        return std::to_string(size / kib) + "KiB";
    }
    return std::to_string(size) + "B";
}

std::string churn_name(const char* allocator, int size_code, std::size_t live) {
    std::string name = "churn/";
    name += allocator;
    name += '/';
    name += size_label(size_code);
    name += '/';
    name += std::to_string(live);
    return name;
}

ChurnPlan make_churn_plan(int size_code, std::size_t live, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    ChurnPlan plan;
    std::uint64_t live_bytes = 0;
    for (std::size_t i = 0; i < live; ++i) {
        plan.initial_sizes.push_back(draw_size(rng, size_code));
        live_bytes += plan.initial_sizes.back();
    }
    for (std::size_t i = 0; i < sequence_length; ++i) {
        plan.slots.push_back(static_cast<std::uint32_t>(rng() % live));
        plan.sizes.push_back(draw_size(rng, size_code));
    }
    plan.region_bytes = std::max<std::uint64_t>(4 * live_bytes, gib) & ~std::uint64_t{63};
    return plan;
}

std::vector<TraceOp> make_opencl_trace(std::uint64_t region_bytes, std::size_t steps,
                                       std::uint64_t seed, unsigned low_percent,
                                       unsigned high_percent) {
    std::mt19937_64 rng(seed);
    std::vector<TraceOp> trace;
    std::vector<std::pair<std::uint32_t, std::uint64_t>> live; // id, size
    std::uint64_t live_bytes = 0;
    std::uint32_t next_id = 0;
    bool filling = true;
    while (trace.size() < steps) {
        if (live_bytes > region_bytes / 100 * high_percent) {
            filling = false;
        } else if (live_bytes < region_bytes / 100 * low_percent) {
            filling = true;
        }
        bool allocate = live.empty() || (rng() % 100 < (filling ? 60U : 15U));
        if (allocate) {
            auto batch = 1 + rng() % 4;
            for (std::uint64_t i = 0; i < batch; ++i) {
                std::uint64_t size = rng() % 100 < 85 ? log_uniform(rng, mib, 256 * mib)
                                                      : log_uniform(rng, 4 * kib, mib);
                trace.push_back({true, next_id, size});
                live.emplace_back(next_id++, size);
                live_bytes += size;
            }
        } else {
            std::size_t slot = rng() % live.size();
            trace.push_back({false, live[slot].first, live[slot].second});
            live_bytes -= live[slot].second;
            live[slot] = live.back();
            live.pop_back();
        }
    }
    return trace;
}

} // namespace bufalloc::bench
