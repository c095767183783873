// Allocate+free throughput: steady-state churn at a fixed number of live allocations, one
// iteration = free one random live allocation + allocate a new one in its place.
#include "adapters.hpp"
#include "bench_registry.hpp"
#include "bufalloc/shared_region.hpp"
#include "workloads.hpp"

#include <benchmark/benchmark.h>

#include <string>

namespace bufalloc::bench {

namespace {

// glibc serves sizes above its mmap threshold (at most 32 MiB) with one mapping each; more than
// vm.max_map_count (65530 by default) live mappings make malloc fail.
bool malloc_can_hold(int size_code, std::size_t live) {
    return !(size_code < mixed_sizes && fixed_sizes[size_code] > 32 * mib && live > 60000);
}

template <class Adapter>
void churn(benchmark::State& state, int size_code, std::size_t live) {
    ChurnPlan plan = make_churn_plan(size_code, live, 42);
    Adapter allocator(plan.region_bytes, live);
    std::vector<std::uint64_t> slots(live);
    for (std::size_t i = 0; i < live; ++i) {
        slots[i] = allocator.allocate(plan.initial_sizes[i]);
    }
    std::size_t mask = plan.slots.size() - 1;
    std::size_t step = 0;
    std::uint64_t failures = 0;
    for (auto _ : state) {
        std::uint32_t slot = plan.slots[step & mask];
        if (slots[slot] != 0) {
            allocator.free(slots[slot]);
        }
        slots[slot] = allocator.allocate(plan.sizes[step & mask]);
        failures += slots[slot] == 0 ? 1 : 0;
        ++step;
    }
    allocator.release_all(slots);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
    state.counters["failed"] = static_cast<double>(failures);
}

template <class Adapter>
void register_churn() {
    for (int size_code = 0; size_code <= mixed_sizes; ++size_code) {
        for (std::size_t live : {100, 10000, 100000}) {
            if (std::string(Adapter::name) == "malloc" && !malloc_can_hold(size_code, live)) {
                continue;
            }
            std::string name = churn_name(Adapter::name, size_code, live);
            benchmark::RegisterBenchmark(name.c_str(), churn<Adapter>, size_code, live)
                ->Unit(benchmark::kNanosecond);
        }
    }
}

// Lock cost: churn with mixed sizes and 1000 live allocations per thread, through a Region (one
// thread) or one SharedRegion shared by all threads. Timed by wall clock.
template <class Allocator>
void locked_churn(benchmark::State& state) {
    constexpr std::size_t live = 1000;
    static Allocator region(region_base, 64 * 1024 * gib, region_alignment);
    ChurnPlan plan = make_churn_plan(mixed_sizes, live, 100 + state.thread_index());
    std::vector<std::uint64_t> slots(live);
    for (std::size_t i = 0; i < live; ++i) {
        slots[i] = region.allocate(plan.initial_sizes[i]).address;
    }
    std::size_t mask = plan.slots.size() - 1;
    std::size_t step = 0;
    for (auto _ : state) {
        std::uint32_t slot = plan.slots[step & mask];
        if (slots[slot] != 0) {
            region.free(slots[slot]);
        }
        slots[slot] = region.allocate(plan.sizes[step & mask]).address;
        ++step;
    }
    for (std::uint64_t address : slots) {
        region.free(address);
    }
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()));
}

} // namespace

void register_throughput_benchmarks() {
    register_churn<BufallocAdapter>();
    register_churn<BaselineAdapter<FirstFitBaseline::Strategy::wasteful>>();
    register_churn<MallocAdapter>();
    benchmark::RegisterBenchmark("shared/region/mixed/1000", locked_churn<Region>)
        ->Threads(1)
        ->UseRealTime()
        ->Unit(benchmark::kNanosecond);
    benchmark::RegisterBenchmark("shared/shared_region/mixed/1000", locked_churn<SharedRegion>)
        ->Threads(1)
        ->Threads(2)
        ->UseRealTime()
        ->Unit(benchmark::kNanosecond);
}

} // namespace bufalloc::bench
