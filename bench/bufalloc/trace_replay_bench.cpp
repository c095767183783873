// Fragmentation under real allocation traces: each trace recorded on a discrete-memory device's
// region (traces/*.trace, see record_trace.py) is replayed, in order, through each allocator on
// a region of the device's size, then on the smallest region each one replays it in.
#include "bench_registry.hpp"
#include "bufalloc/region.hpp"
#include "first_fit_baseline.hpp"
#include "trace_file.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <malloc.h>
#include <memory>

namespace bufalloc::bench {

namespace {

struct Space {
    std::uint64_t free_bytes = 0;
    std::uint64_t largest_free = 0;
};

// bufalloc as the driver's discrete-memory domain uses it (driver/memory/domain.cpp): every
// free is followed by flush_cache(), so freed ranges are coalesced at once. With `cache` the
// library's default instead: freed blocks of repeated sizes are cached.
template <bool cache>
class RegionReplay {
public:
    static constexpr const char* name = cache ? "bufalloc+cache" : "bufalloc";

    RegionReplay(std::uint64_t base, std::uint64_t bytes, std::uint64_t granule,
                 std::uint32_t /*live*/)
        : region_(base, bytes, granule) {}

    std::uint64_t allocate(std::uint64_t size, std::uint64_t alignment) {
        return region_.allocate(size, alignment).address;
    }
    void free(std::uint64_t address) {
        (void)region_.free(address);
        if (!cache) {
            region_.flush_cache();
        }
    }
    [[nodiscard]] Space space() const {
        Stats stats = region_.stats();
        return {stats.free_bytes, stats.largest_free};
    }

private:
    Region region_;
};

template <FirstFitBaseline::Strategy strategy>
class BaselineReplay {
public:
    static constexpr const char* name =
        strategy == FirstFitBaseline::Strategy::wasteful ? "baseline"
        : strategy == FirstFitBaseline::Strategy::tight  ? "baseline-tight"
                                                         : "first-fit-split";

    // Enough chunk records for every live allocation and the free chunks between them.
    BaselineReplay(std::uint64_t base, std::uint64_t bytes, std::uint64_t granule,
                   std::uint32_t live)
        : baseline_(base, bytes, 2 * std::size_t{live} + 4096, strategy, granule) {}

    std::uint64_t allocate(std::uint64_t size, std::uint64_t alignment) {
        return baseline_.allocate(size, alignment).value_or(0);
    }
    void free(std::uint64_t address) { (void)baseline_.free(address); }
    [[nodiscard]] Space space() const {
        auto stats = baseline_.stats();
        return {stats.free_bytes, stats.largest_free};
    }

private:
    FirstFitBaseline baseline_;
};

// What one replay saw. largest/free and largest/unrequested are means over a sample after every
// operation with free space, as in the synthetic fragmentation runs.
struct ReplayOutcome {
    std::uint64_t failures = 0;
    std::size_t first_failure = 0;    // operation index; ops.size() = none
    std::uint64_t refused_placed = 0; // requests the device refused that this allocator placed
    std::uint64_t peak_end = 0;       // highest end address handed out, minus the base
    std::uint32_t same_offset = 0;    // allocations placed where the device placed them
    double largest_over_free = 0;
    double largest_over_unrequested = 0;
};

template <class Allocator>
ReplayOutcome replay(const RecordedTrace& trace, std::uint64_t region_bytes, bool sample) {
    ReplayOutcome outcome;
    outcome.first_failure = trace.ops.size();
    Allocator allocator(trace.base, region_bytes, trace.granule, trace.peak_live_count);
    std::vector<std::uint64_t> addresses(trace.allocations, 0);
    std::uint64_t live = 0;
    std::uint64_t samples = 0;
    for (std::size_t index = 0; index < trace.ops.size(); ++index) {
        const RecordedOp& op = trace.ops[index];
        if (op.kind == RecordedOp::Kind::allocate) {
            std::uint64_t address = allocator.allocate(op.size, op.alignment);
            if (address == 0) {
                outcome.first_failure = std::min(outcome.first_failure, index);
                ++outcome.failures;
                continue;
            }
            addresses[op.id] = address;
            live += op.size;
            outcome.peak_end = std::max(outcome.peak_end, address + op.size - trace.base);
            outcome.same_offset += address - trace.base == op.offset ? 1 : 0;
        } else if (op.kind == RecordedOp::Kind::free) {
            if (addresses[op.id] == 0) {
                continue; // its allocation failed
            }
            allocator.free(addresses[op.id]);
            addresses[op.id] = 0;
            live -= op.size;
        } else {
            // The device could not place it; if this allocator can, it is given back at once so
            // that what follows starts from the device's state.
            std::uint64_t address = allocator.allocate(op.size, op.alignment);
            if (address != 0) {
                ++outcome.refused_placed;
                allocator.free(address);
            }
        }
        if (sample) {
            Space space = allocator.space();
            if (space.free_bytes != 0) {
                auto largest = static_cast<double>(space.largest_free);
                outcome.largest_over_free += largest / static_cast<double>(space.free_bytes);
                outcome.largest_over_unrequested +=
                    largest / static_cast<double>(region_bytes - live);
                ++samples;
            }
        }
    }
    if (samples != 0) {
        outcome.largest_over_free /= static_cast<double>(samples);
        outcome.largest_over_unrequested /= static_cast<double>(samples);
    }
    return outcome;
}

// The smallest region (to 1/1000 of it, at least a granule) in which the allocator replays the
// trace without a failure, found by bisection between the peak requested bytes and the device's
// region (doubled while that fails). Placement depends on the region size, so a size between
// two that work may fail: this is the smallest size the bisection saw succeed.
template <class Allocator>
std::uint64_t smallest_region(const RecordedTrace& trace) {
    auto works = [&](std::uint64_t bytes) {
        return replay<Allocator>(trace, bytes, false).failures == 0;
    };
    std::uint64_t granule = trace.granule;
    std::uint64_t low = std::max<std::uint64_t>(trace.peak_live_bytes / granule * granule, granule);
    std::uint64_t high = std::max(trace.region_bytes / granule * granule, low);
    while (!works(high)) {
        low = high;
        high *= 2;
        if (high > 64 * trace.region_bytes) {
            return 0;
        }
    }
    // Invariant: high works; low does not, or is the lower bound.
    if (works(low)) {
        return low;
    }
    while (high - low > std::max(granule, high / 1000)) {
        std::uint64_t middle = (low + (high - low) / 2) / granule * granule;
        if (middle <= low) {
            break;
        }
        (works(middle) ? high : low) = middle;
    }
    return high;
}

template <class Allocator>
void replay_benchmark(benchmark::State& state, const RecordedTrace* trace) {
    ReplayOutcome outcome;
    for (auto _ : state) {
        outcome = replay<Allocator>(*trace, trace->region_bytes, true);
    }
    auto peak = static_cast<double>(trace->peak_live_bytes);
    state.counters["ops"] = static_cast<double>(trace->ops.size());
    state.counters["allocations"] = static_cast<double>(trace->allocations);
    state.counters["region_bytes"] = static_cast<double>(trace->region_bytes);
    state.counters["peak_live_bytes"] = peak;
    state.counters["largest_over_free_mean"] = outcome.largest_over_free;
    state.counters["largest_over_unrequested_mean"] = outcome.largest_over_unrequested;
    state.counters["span_over_peak"] = static_cast<double>(outcome.peak_end) / peak;
    state.counters["failed"] = static_cast<double>(outcome.failures);
    state.counters["first_failure"] = static_cast<double>(outcome.first_failure);
    state.counters["refused_placed"] = static_cast<double>(outcome.refused_placed);
    state.counters["same_offset"] = static_cast<double>(outcome.same_offset);
    state.counters["smallest_region_over_peak"] =
        static_cast<double>(smallest_region<Allocator>(*trace)) / peak;
}

// glibc malloc cannot be held to a region: the replay reports its footprint, how far the heap
// (mallinfo2 arena) plus its mapped chunks (hblkhd) grew at the peak. The heap is trimmed first,
// so that free space left by earlier runs does not hide the growth.
void malloc_benchmark(benchmark::State& state, const RecordedTrace* trace) {
    std::uint64_t peak_footprint = 0;
    std::uint64_t failures = 0;
    std::vector<void*> addresses(trace->allocations, nullptr);
    for (auto _ : state) {
        malloc_trim(0);
        struct mallinfo2 before = mallinfo2();
        std::uint64_t start = before.arena + before.hblkhd;
        for (const RecordedOp& op : trace->ops) {
            if (op.kind == RecordedOp::Kind::allocate) {
                void* address = nullptr;
                if (posix_memalign(&address, op.alignment, op.size) != 0) {
                    ++failures;
                    continue;
                }
                addresses[op.id] = address;
            } else if (op.kind == RecordedOp::Kind::free) {
                std::free(addresses[op.id]);
                addresses[op.id] = nullptr;
            } else {
                continue;
            }
            struct mallinfo2 now = mallinfo2();
            std::uint64_t footprint = now.arena + now.hblkhd;
            peak_footprint = std::max(peak_footprint, footprint > start ? footprint - start : 0);
        }
        for (void*& address : addresses) {
            std::free(address);
            address = nullptr;
        }
    }
    auto peak = static_cast<double>(trace->peak_live_bytes);
    state.counters["ops"] = static_cast<double>(trace->ops.size());
    state.counters["peak_live_bytes"] = peak;
    state.counters["footprint_over_peak"] = static_cast<double>(peak_footprint) / peak;
    state.counters["failed"] = static_cast<double>(failures);
}

template <class Allocator>
void register_replay(const RecordedTrace& trace) {
    std::string name = "trace/" + trace.name + "/" + Allocator::name;
    benchmark::RegisterBenchmark(name.c_str(), replay_benchmark<Allocator>, &trace)
        ->Iterations(1)
        ->Unit(benchmark::kMillisecond);
}

} // namespace

void register_trace_benchmarks(const std::filesystem::path& folder) {
    // The benchmarks keep pointers to the traces until the program ends.
    static std::vector<RecordedTrace> traces;
    std::vector<std::string> errors;
    traces = load_recorded_traces(folder, &errors);
    for (const std::string& error : errors) {
        std::fprintf(stderr, "bufalloc_bench: %s\n", error.c_str());
    }
    for (const RecordedTrace& trace : traces) {
        register_replay<RegionReplay<false>>(trace);
        register_replay<RegionReplay<true>>(trace);
        register_replay<BaselineReplay<FirstFitBaseline::Strategy::wasteful>>(trace);
        register_replay<BaselineReplay<FirstFitBaseline::Strategy::tight>>(trace);
        register_replay<BaselineReplay<FirstFitBaseline::Strategy::tight_split>>(trace);
        std::string name = "trace/" + trace.name + "/malloc";
        benchmark::RegisterBenchmark(name.c_str(), malloc_benchmark, &trace)
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
    }
}

} // namespace bufalloc::bench
