#include "cpu/topology.hpp"

#include "cpu_sets.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using usmcl::cpu::CpuSet;
using usmcl::cpu::test::pu_range;
using usmcl::cpu::test::synthetic;

namespace {
constexpr std::uint64_t kib = 1024;
constexpr std::uint64_t gib = kib * kib * kib;
constexpr std::uint64_t synthetic_l1d_bytes = 32 * kib; // hwloc's default synthetic sizes
constexpr std::uint64_t synthetic_l2_bytes = 4 * kib * kib;
constexpr std::uint64_t synthetic_l3_bytes = 16 * kib * kib;
} // namespace

TEST_CASE("describe counts units, cores and NUMA nodes", "[cpu][describe]") {
    const auto topology = synthetic("package:2 numa:2(memory=2GiB) l3:1 core:4 pu:1");

    SECTION("the whole machine") {
        const auto info = topology->describe(topology->allowed_pus());
        CHECK(info.compute_units == 16);
        CHECK(info.cores == 16);
        CHECK(info.numa_nodes == std::vector<unsigned>{0, 1, 2, 3});
        CHECK(info.memory_bytes == 8 * gib);
        CHECK(info.l3_cache_bytes == synthetic_l3_bytes);
        CHECK(info.l2_cache_bytes == 0);
        CHECK(info.l1d_cache_bytes == 0);
        CHECK(info.last_level_cache_bytes == 4 * synthetic_l3_bytes);
        CHECK(info.cache_line_bytes == 64);
    }
    SECTION("a set across two nodes") {
        const auto info = topology->describe({3, 4, 5});
        CHECK(info.compute_units == 3);
        CHECK(info.cores == 3);
        CHECK(info.numa_nodes == std::vector<unsigned>{0, 1});
        CHECK(info.memory_bytes == 4 * gib);
        CHECK(info.last_level_cache_bytes == 2 * synthetic_l3_bytes);
    }
    SECTION("an empty set reports the whole machine's memory") {
        const auto info = topology->describe({});
        CHECK(info.compute_units == 0);
        CHECK(info.cores == 0);
        CHECK(info.numa_nodes.empty());
        CHECK(info.memory_bytes == 8 * gib);
    }
}

TEST_CASE("describe reports caches and hardware threads", "[cpu][describe]") {
    const auto topology = synthetic("package:1 l3:2 l2:4 l1d:1 core:1 pu:2");

    SECTION("the whole machine") {
        const auto info = topology->describe(topology->allowed_pus());
        CHECK(info.compute_units == 16);
        CHECK(info.cores == 8);
        CHECK(info.numa_nodes == std::vector<unsigned>{0});
        CHECK(info.memory_bytes == gib);
        CHECK(info.l1d_cache_bytes == synthetic_l1d_bytes);
        CHECK(info.l2_cache_bytes == synthetic_l2_bytes);
        CHECK(info.l3_cache_bytes == synthetic_l3_bytes);
        CHECK(info.last_level_cache_bytes == 2 * synthetic_l3_bytes);
        CHECK(info.cache_line_bytes == 64);
    }
    SECTION("both threads of one core") {
        const auto info = topology->describe({2, 3});
        CHECK(info.compute_units == 2);
        CHECK(info.cores == 1);
        CHECK(info.last_level_cache_bytes == synthetic_l3_bytes);
    }
    SECTION("one thread of each of three cores") {
        const auto info = topology->describe({0, 2, 4});
        CHECK(info.compute_units == 3);
        CHECK(info.cores == 3);
    }
}

TEST_CASE("describe without a Core level counts each unit as a core", "[cpu][describe]") {
    const auto topology = synthetic("numa:2 pu:3");
    const auto info = topology->describe(topology->allowed_pus());
    CHECK(info.compute_units == 6);
    CHECK(info.cores == 6);
    CHECK(info.numa_nodes == std::vector<unsigned>{0, 1});
    CHECK(info.last_level_cache_bytes == 0);
    CHECK(info.cache_line_bytes == 64);
}
