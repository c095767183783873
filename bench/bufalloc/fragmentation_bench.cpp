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

// Two occupancies: "busy" keeps 40-80% of the region requested, "roomy" 10-30%.
struct TraceShape {
    const char* name;
    unsigned low_percent;
    unsigned high_percent;
};

constexpr TraceShape trace_shapes[] = {{"busy", 40, 80}, {"roomy", 10, 30}};

const std::vector<TraceOp>& opencl_trace(int shape) {
    static const std::vector<TraceOp> traces[] = {
        make_opencl_trace(trace_region, trace_steps, 7, trace_shapes[0].low_percent,
                          trace_shapes[0].high_percent),
        make_opencl_trace(trace_region, trace_steps, 7, trace_shapes[1].low_percent,
                          trace_shapes[1].high_percent),
    };
    return traces[shape];
}

// What a replay measures. largest/free is the fragmentation figure; largest/unrequested
// divides by the bytes not requested by live buffers instead, so that space an allocator holds
// beyond the request (PoCL reuses a free chunk whole) counts against it too.
struct TraceMetrics {
    std::uint64_t live = 0;
    std::uint64_t peak_live = 0;
    std::uint64_t peak_end = region_base;
    std::uint64_t failures = 0;
    std::size_t first_failure = trace_steps;
    double largest_over_free = 0;
    double largest_over_unrequested = 0;
    std::uint64_t samples = 0;

    void allocated(std::uint64_t address, std::uint64_t size) {
        live += size;
        peak_live = std::max(peak_live, live);
        peak_end = std::max(peak_end, address + size);
    }

    void failed(std::size_t step) {
        first_failure = std::min(first_failure, step);
        ++failures;
    }

    void sample(FreeSpace space) {
        if (space.free_bytes == 0) {
            return;
        }
        auto largest = static_cast<double>(space.largest_free);
        largest_over_free += largest / static_cast<double>(space.free_bytes);
        largest_over_unrequested += largest / static_cast<double>(trace_region - live);
        ++samples;
    }

    void report(benchmark::State& state) const {
        auto count = static_cast<double>(samples);
        state.counters["largest_over_free_mean"] = largest_over_free / count;
        state.counters["largest_over_unrequested_mean"] = largest_over_unrequested / count;
        state.counters["span_over_peak"] =
            static_cast<double>(peak_end - region_base) / static_cast<double>(peak_live);
        state.counters["failed"] = static_cast<double>(failures);
        state.counters["first_failure"] = static_cast<double>(first_failure);
    }
};

// Replays the trace once; a buffer whose allocation failed is not freed.
template <class Adapter>
void replay(benchmark::State& state, int shape) {
    const std::vector<TraceOp>& trace = opencl_trace(shape);
    std::uint32_t ids = 0;
    for (const TraceOp& op : trace) {
        ids = std::max(ids, op.id + 1);
    }
    for (auto _ : state) {
        Adapter allocator(trace_region, 4096);
        std::vector<std::uint64_t> addresses(ids, 0);
        TraceMetrics metrics;
        for (std::size_t step = 0; step < trace.size(); ++step) {
            const TraceOp& op = trace[step];
            if (op.allocate) {
                std::uint64_t address = allocator.allocate(op.size);
                if (address == 0) {
                    metrics.failed(step);
                } else {
                    addresses[op.id] = address;
                    metrics.allocated(address, op.size);
                }
            } else if (addresses[op.id] != 0) {
                allocator.free(addresses[op.id]);
                addresses[op.id] = 0;
                metrics.live -= op.size;
            }
            if (step % sample_every == 0) {
                metrics.sample(allocator.free_space());
            }
        }
        metrics.report(state);
    }
}

template <class Adapter>
void register_replay() {
    for (int shape = 0; shape < 2; ++shape) {
        std::string name = "fragmentation/";
        name += trace_shapes[shape].name;
        name += '/';
        name += Adapter::name;
        benchmark::RegisterBenchmark(name.c_str(), replay<Adapter>, shape)
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
    }
}

} // namespace

void register_fragmentation_benchmarks() {
    register_replay<BufallocAdapter>();
    register_replay<BaselineAdapter<FirstFitBaseline::Strategy::wasteful>>();
    register_replay<BaselineAdapter<FirstFitBaseline::Strategy::tight>>();
    register_replay<BaselineAdapter<FirstFitBaseline::Strategy::tight_split>>();
}

} // namespace bufalloc::bench
