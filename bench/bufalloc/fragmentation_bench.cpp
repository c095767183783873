// Fragmentation after replaying one OpenCL-like buffer trace through each allocator.
#include "adapters.hpp"
#include "bench_registry.hpp"
#include "workloads.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>

namespace bufalloc::bench {

namespace {

constexpr std::uint64_t trace_region = 8 * gib;
constexpr std::size_t trace_steps = 200000;
constexpr std::size_t sample_every = 64;

const std::vector<TraceOp>& opencl_trace() {
    static const std::vector<TraceOp> trace = make_opencl_trace(trace_region, trace_steps, 7);
    return trace;
}

// Replays the trace once. Counters: mean and final largest-free / free over samples, peak
// address span / peak requested bytes, and allocations that failed.
template <class Adapter>
void replay(benchmark::State& state) {
    const std::vector<TraceOp>& trace = opencl_trace();
    std::uint32_t ids = 0;
    for (const TraceOp& op : trace) {
        ids = std::max(ids, op.id + 1);
    }
    for (auto _ : state) {
        Adapter allocator(trace_region, 4096);
        std::vector<std::uint64_t> addresses(ids, 0);
        std::uint64_t live = 0;
        std::uint64_t peak_live = 0;
        std::uint64_t peak_end = region_base;
        std::uint64_t failures = 0;
        double ratio_sum = 0;
        std::uint64_t samples = 0;
        for (std::size_t i = 0; i < trace.size(); ++i) {
            const TraceOp& op = trace[i];
            if (op.allocate) {
                std::uint64_t address = allocator.allocate(op.size);
                failures += address == 0 ? 1 : 0;
                if (address != 0) {
                    addresses[op.id] = address;
                    live += op.size;
                    peak_live = std::max(peak_live, live);
                    peak_end = std::max(peak_end, address + op.size);
                }
            } else if (addresses[op.id] != 0) {
                allocator.free(addresses[op.id]);
                addresses[op.id] = 0;
                live -= op.size;
            }
            if (i % sample_every == 0) {
                FreeSpace space = allocator.free_space();
                if (space.free_bytes != 0) {
                    ratio_sum += static_cast<double>(space.largest_free) /
                                 static_cast<double>(space.free_bytes);
                    ++samples;
                }
            }
        }
        FreeSpace final_space = allocator.free_space();
        state.counters["largest_over_free_mean"] = ratio_sum / static_cast<double>(samples);
        state.counters["largest_over_free_final"] = static_cast<double>(final_space.largest_free) /
                                                    static_cast<double>(final_space.free_bytes);
        state.counters["span_over_peak"] =
            static_cast<double>(peak_end - region_base) / static_cast<double>(peak_live);
        state.counters["failed"] = static_cast<double>(failures);
    }
}

template <class Adapter>
void register_replay() {
    std::string name = "fragmentation/";
    name += Adapter::name;
    benchmark::RegisterBenchmark(name.c_str(), replay<Adapter>)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
}

} // namespace

void register_fragmentation_benchmarks() {
    register_replay<BufallocAdapter>();
    register_replay<BaselineAdapter<FirstFitBaseline::Strategy::wasteful>>();
    register_replay<BaselineAdapter<FirstFitBaseline::Strategy::tight>>();
    register_replay<BaselineAdapter<FirstFitBaseline::Strategy::tight_split>>();
}

} // namespace bufalloc::bench
