// Ratio tables printed after the benchmark runs.
#include "bench_registry.hpp"
#include "workloads.hpp"

#include <cmath>
#include <cstdio>
#include <optional>

namespace bufalloc::bench {

namespace {

std::optional<double> time_of(const std::map<std::string, RunResult>& results,
                              const std::string& name) {
    auto it = results.find(name);
    if (it == results.end()) {
        return std::nullopt;
    }
    return it->second.nanoseconds;
}

// Share of the allocations in a churn run that failed (the region was exhausted), or 0.
double failure_rate(const std::map<std::string, RunResult>& results, const std::string& name) {
    auto it = results.find(name);
    if (it == results.end() || it->second.iterations == 0) {
        return 0;
    }
    auto failed = it->second.counters.find("failed");
    return failed == it->second.counters.end() ? 0 : failed->second / it->second.iterations;
}

std::string format(std::optional<double> value, const char* pattern = "%.1f") {
    if (!value) {
        return "n/a";
    }
    char text[32];
    std::snprintf(text, sizeof text, pattern, *value);
    return text;
}

std::optional<double> ratio(std::optional<double> a, std::optional<double> b) {
    if (!a || !b || *b == 0) {
        return std::nullopt;
    }
    return *a / *b;
}

// Geometric mean of the ratios that exist.
struct GeoMean {
    double log_sum = 0;
    int count = 0;
    void add(std::optional<double> value) {
        if (value) {
            log_sum += std::log(*value);
            ++count;
        }
    }
    [[nodiscard]] std::optional<double> value() const {
        return count == 0 ? std::nullopt : std::optional<double>(std::exp(log_sum / count));
    }
};

void print_throughput(const std::map<std::string, RunResult>& results) {
    std::printf("\nallocate+free pair, ns (lower is better)\n");
    std::printf("%-7s %7s %10s %12s %10s %18s %16s\n", "size", "live", "bufalloc", "baseline",
                "malloc", "baseline/bufalloc", "bufalloc/malloc");
    GeoMean vs_baseline_10k;
    GeoMean vs_malloc;
    for (int size_code = 0; size_code <= mixed_sizes; ++size_code) {
        for (int live : {100, 10000, 100000}) {
            auto ours = time_of(results, churn_name("bufalloc", size_code, live));
            auto baseline = time_of(results, churn_name("baseline", size_code, live));
            auto libc = time_of(results, churn_name("malloc", size_code, live));
            auto speedup = ratio(baseline, ours);
            auto versus_malloc = ratio(ours, libc);
            if (live == 10000) {
                vs_baseline_10k.add(speedup);
            }
            vs_malloc.add(versus_malloc);
            std::printf("%-7s %7d %10s %12s %10s %18s %16s\n", size_label(size_code).c_str(), live,
                        format(ours).c_str(), format(baseline).c_str(), format(libc).c_str(),
                        format(speedup, "%.1fx").c_str(), format(versus_malloc, "%.2f").c_str());
            for (const char* allocator : {"bufalloc", "baseline", "malloc"}) {
                double rate = failure_rate(results, churn_name(allocator, size_code, live));
                if (rate > 0) {
                    std::printf("        (%s: %.3f%% of the allocations failed)\n", allocator,
                                100 * rate);
                }
            }
        }
    }
    std::printf("geometric mean baseline/bufalloc at 10k live: %s\n",
                format(vs_baseline_10k.value(), "%.1fx").c_str());
    std::printf("geometric mean bufalloc/malloc over all rows: %s\n",
                format(vs_malloc.value(), "%.2f").c_str());
}

void print_locking(const std::map<std::string, RunResult>& results) {
    auto plain = time_of(results, "shared/region/mixed/1000/threads:1");
    auto one = time_of(results, "shared/shared_region/mixed/1000/threads:1");
    auto two = time_of(results, "shared/shared_region/mixed/1000/threads:2");
    std::printf(
        "\nlocking (mixed sizes, 1000 live per thread), wall ns per pair over all threads\n");
    std::printf("Region %s, SharedRegion 1 thread %s (lock cost %s), 2 threads %s\n",
                format(plain).c_str(), format(one).c_str(),
                format(one && plain ? std::optional<double>(*one - *plain) : std::nullopt).c_str(),
                format(two).c_str());
}

void print_fragmentation(const std::map<std::string, RunResult>& results, const char* trace,
                         const char* occupancy) {
    std::printf("\nOpenCL-like trace \"%s\" (8 GiB region, %s requested; means over samples every "
                "64 steps)\n",
                trace, occupancy);
    std::printf("%-16s %13s %20s %10s %7s %14s\n", "allocator", "largest/free",
                "largest/unrequested", "span/peak", "failed", "first failure");
    for (const char* name : {"bufalloc", "baseline", "baseline-tight", "first-fit-split"}) {
        std::string key = "fragmentation/";
        key += trace;
        key += '/';
        key += name;
        auto it = results.find(key);
        if (it == results.end()) {
            continue;
        }
        const auto& counters = it->second.counters;
        std::printf("%-16s %13.3f %20.3f %10.3f %7.0f %14.0f\n", name,
                    counters.at("largest_over_free_mean"),
                    counters.at("largest_over_unrequested_mean"), counters.at("span_over_peak"),
                    counters.at("failed"), counters.at("first_failure"));
    }
}

} // namespace

void print_summary(const std::map<std::string, RunResult>& results) {
    print_throughput(results);
    print_locking(results);
    print_fragmentation(results, "busy", "40-80%");
    print_fragmentation(results, "roomy", "10-30%");
}

} // namespace bufalloc::bench
