// Registration of the bufalloc benchmarks and the results the summary needs.
#pragma once

#include <map>
#include <string>

namespace bufalloc::bench {

void register_throughput_benchmarks();
void register_fragmentation_benchmarks();

// Real time per iteration (ns) and user counters of one finished benchmark run.
struct RunResult {
    double nanoseconds = 0;
    double iterations = 0;
    std::map<std::string, double> counters;
};

// Prints ratio tables from the results keyed by benchmark name.
void print_summary(const std::map<std::string, RunResult>& results);

} // namespace bufalloc::bench
