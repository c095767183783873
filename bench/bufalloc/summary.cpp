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

double counter(const RunResult& run, const char* name) {
    auto it = run.counters.find(name);
    return it == run.counters.end() ? 0 : it->second;
}

// One table per recorded trace: the allocators on a region of the device's size, and the
// smallest region each replays the trace in.
void print_traces(const std::map<std::string, RunResult>& results) {
    std::map<std::string, std::map<std::string, const RunResult*>> traces;
    for (const auto& [key, run] : results) {
        if (key.rfind("trace/", 0) != 0) {
            continue;
        }
        std::size_t slash = key.find('/', 6);
        traces[key.substr(6, slash - 6)][key.substr(slash + 1)] = &run;
    }
    for (const auto& [trace, runs] : traces) {
        const RunResult& any = *runs.begin()->second;
        std::printf(
            "\nrecorded trace \"%s\" (%.0f operations, peak live %.1f MiB; region %.0f MiB, "
            "means over a sample after every operation)\n",
            trace.c_str(), counter(any, "ops"), counter(any, "peak_live_bytes") / mib,
            counter(*runs.begin()->second, "region_bytes") / mib);
        std::printf("%-16s %13s %20s %10s %7s %14s %15s %12s\n", "allocator", "largest/free",
                    "largest/unrequested", "span/peak", "failed", "first failure", "smallest/peak",
                    "same offset");
        for (const char* name :
             {"bufalloc", "bufalloc+cache", "baseline", "baseline-tight", "first-fit-split"}) {
            auto it = runs.find(name);
            if (it == runs.end()) {
                continue;
            }
            const RunResult& run = *it->second;
            bool failed = counter(run, "failed") != 0;
            std::printf("%-16s %13.3f %20.3f %10.3f %7.0f %14s %15.3f %12.0f\n", name,
                        counter(run, "largest_over_free_mean"),
                        counter(run, "largest_over_unrequested_mean"),
                        counter(run, "span_over_peak"), counter(run, "failed"),
                        failed ? format(counter(run, "first_failure"), "%.0f").c_str() : "none",
                        counter(run, "smallest_region_over_peak"), counter(run, "same_offset"));
            if (counter(run, "refused_placed") != 0) {
                std::printf("        (%s placed %.0f requests the device refused)\n", name,
                            counter(run, "refused_placed"));
            }
        }
        auto libc = runs.find("malloc");
        if (libc != runs.end()) {
            std::printf("malloc: footprint (heap + mapped chunks) / peak live %.3f, %.0f failed\n",
                        counter(*libc->second, "footprint_over_peak"),
                        counter(*libc->second, "failed"));
        }
    }
}

// Whether some benchmark whose name starts with `prefix` ran (a --benchmark_filter may leave a
// table empty; it is then not printed).
bool ran(const std::map<std::string, RunResult>& results, const std::string& prefix) {
    auto it = results.lower_bound(prefix);
    return it != results.end() && it->first.rfind(prefix, 0) == 0;
}

} // namespace

void print_summary(const std::map<std::string, RunResult>& results) {
    if (ran(results, "churn/")) {
        print_throughput(results);
    }
    if (ran(results, "shared/")) {
        print_locking(results);
    }
    if (ran(results, "fragmentation/busy/")) {
        print_fragmentation(results, "busy", "40-80%");
    }
    if (ran(results, "fragmentation/roomy/")) {
        print_fragmentation(results, "roomy", "10-30%");
    }
    print_traces(results);
}

} // namespace bufalloc::bench
