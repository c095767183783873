// Registration of the bufalloc benchmarks and the results the summary needs.
#pragma once

#include <filesystem>
#include <map>
#include <string>

namespace bufalloc::bench {

void register_throughput_benchmarks();
void register_fragmentation_benchmarks();
// One replay per allocator of every recorded trace (*.trace) in the folder.
void register_trace_benchmarks(const std::filesystem::path& folder);

// Real time per iteration (ns) and user counters of one finished benchmark run.
struct RunResult {
    double nanoseconds = 0;
    double iterations = 0;
    std::map<std::string, double> counters;
};

// Prints ratio tables from the results keyed by benchmark name.
void print_summary(const std::map<std::string, RunResult>& results);

} // namespace bufalloc::bench
