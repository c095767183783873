// bufalloc benchmarks: Google Benchmark output, then ratio tables. Accepts the usual
// --benchmark_* flags (e.g. --benchmark_filter=churn/.*/10000), and --traces=<folder> for the
// recorded traces to replay (default: bench/bufalloc/traces of the source tree).
#include "bench_registry.hpp"
#include "workloads.hpp"

#include <benchmark/benchmark.h>

#include <cstdlib>
#include <filesystem>
#include <string_view>

namespace {

// Prints as the console reporter does and keeps each run's time and counters for the summary.
class CollectingReporter : public benchmark::ConsoleReporter {
public:
    void ReportRuns(const std::vector<Run>& runs) override {
        ConsoleReporter::ReportRuns(runs);
        for (const Run& run : runs) {
            if (run.error_occurred || run.run_type != Run::RT_Iteration) {
                continue;
            }
            std::string key = run.run_name.function_name;
            bool shared = key.rfind("shared/", 0) == 0;
            if (shared) {
                key += "/threads:" + std::to_string(run.threads);
            }
            // Single-threaded runs are compared by CPU time, which other processes on the machine
            // disturb less than wall time; the threaded runs by wall time. With repetitions the
            // fastest run is kept.
            double time = shared ? run.GetAdjustedRealTime() : run.GetAdjustedCPUTime();
            double nanoseconds = time / benchmark::GetTimeUnitMultiplier(run.time_unit) * 1e9;
            auto [it, fresh] = results.try_emplace(key);
            if (fresh || nanoseconds < it->second.nanoseconds) {
                it->second.nanoseconds = nanoseconds;
                it->second.iterations = static_cast<double>(run.iterations);
                for (const auto& [name, counter] : run.counters) {
                    it->second.counters[name] = counter.value;
                }
            }
        }
    }

    std::map<std::string, bufalloc::bench::RunResult> results;
};

// glibc raises its mmap threshold (up to 32 MiB) when an mmapped chunk is freed; do that once so
// that 100k live allocations up to 32 MiB come from the heap instead of 100k mappings, which
// would exceed vm.max_map_count.
void raise_malloc_mmap_threshold() {
    void* block = std::malloc(32 * bufalloc::bench::mib - 64 * bufalloc::bench::kib);
    benchmark::DoNotOptimize(block);
    std::free(block);
}

// Takes --traces=<folder> out of the arguments (Google Benchmark rejects flags it does not know).
std::filesystem::path take_traces_folder(int& argc, char** argv) {
    std::filesystem::path folder = BUFALLOC_TRACE_DIR;
    const std::string_view flag = "--traces=";
    int kept = 0;
    for (int i = 0; i < argc; ++i) {
        std::string_view argument = argv[i];
        if (i > 0 && argument.substr(0, flag.size()) == flag) {
            folder = argument.substr(flag.size());
        } else {
            argv[kept++] = argv[i];
        }
    }
    argc = kept;
    return folder;
}

} // namespace

int main(int argc, char** argv) {
    raise_malloc_mmap_threshold();
    std::filesystem::path traces = take_traces_folder(argc, argv);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) {
        return 1;
    }
    bufalloc::bench::register_throughput_benchmarks();
    bufalloc::bench::register_fragmentation_benchmarks();
    bufalloc::bench::register_trace_benchmarks(traces);
    CollectingReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    bufalloc::bench::print_summary(reporter.results);
    benchmark::Shutdown();
    return 0;
}
