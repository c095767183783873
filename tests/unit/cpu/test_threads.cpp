#include "cpu/isa.hpp"
#include "cpu/topology.hpp"

#include "cpu_sets.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <thread>
#include <vector>

using usmcl::cpu::AffinityDomain;
using usmcl::cpu::CpuSet;
using usmcl::cpu::test::synthetic;

TEST_CASE("a topology answers several threads at once", "[cpu][threads]") {
    const auto topology = synthetic("package:2 numa:2 l3:1 l2:2 core:1 pu:2");
    const CpuSet all = topology->allowed_pus();
    const CpuSet half(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(all.size() / 2));
    const auto expected_info = topology->describe(half);
    const auto expected_next =
        topology->partition_by_affinity(all, AffinityDomain::next_partitionable);
    const auto expected_l2 = topology->partition_by_affinity(half, AffinityDomain::l2_cache);
    const auto expected_domains = topology->splittable_domains(half);

    std::atomic<unsigned> mismatches{0};
    std::atomic<bool> go{false};
    constexpr int thread_count = 8;
    std::vector<std::thread> threads;
    threads.reserve(thread_count);
    for (int thread = 0; thread < thread_count; ++thread) {
        threads.emplace_back([&] {
            while (!go.load()) {
                std::this_thread::yield();
            }
            for (int round = 0; round < 200; ++round) {
                const auto info = topology->describe(half);
                const bool same =
                    info.compute_units == expected_info.compute_units &&
                    info.cores == expected_info.cores &&
                    info.numa_nodes == expected_info.numa_nodes &&
                    info.memory_bytes == expected_info.memory_bytes &&
                    info.last_level_cache_bytes == expected_info.last_level_cache_bytes &&
                    topology->partition_by_affinity(all, AffinityDomain::next_partitionable) ==
                        expected_next &&
                    topology->partition_by_affinity(half, AffinityDomain::l2_cache) ==
                        expected_l2 &&
                    topology->splittable_domains(half) == expected_domains &&
                    topology->allowed_pus() == all &&
                    usmcl::cpu::host_isa().float_vector_bits >= 128;
                if (!same) {
                    mismatches.fetch_add(1);
                }
            }
        });
    }
    go.store(true);
    for (auto& thread : threads) {
        thread.join();
    }
    CHECK(mismatches.load() == 0);
    CHECK(expected_next.size() == 4);
    CHECK(expected_l2.size() == 4);
}
