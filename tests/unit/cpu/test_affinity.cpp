#include "cpu/topology.hpp"

#include "cpu_sets.hpp"

#include <catch2/catch.hpp>

#include <vector>

using usmcl::cpu::AffinityDomain;
using usmcl::cpu::CpuSet;
using usmcl::cpu::test::pu_range;
using usmcl::cpu::test::synthetic;
using Parts = std::vector<CpuSet>;
using Domains = std::vector<AffinityDomain>;

// 2 packages x 2 NUMA nodes, one L3 per node, 4 single-threaded cores each;
// hwloc adds no L2 or L1 to a synthetic topology that names none.
TEST_CASE("numa machine splits along NUMA nodes and L3", "[cpu][affinity]") {
    const auto topology = synthetic("package:2 numa:2 l3:1 core:4 pu:1");
    const CpuSet all = topology->allowed_pus();
    REQUIRE(all == pu_range(0, 15));
    const Parts quarters{pu_range(0, 3), pu_range(4, 7), pu_range(8, 11), pu_range(12, 15)};

    CHECK(topology->partition_by_affinity(all, AffinityDomain::numa) == quarters);
    CHECK(topology->partition_by_affinity(all, AffinityDomain::l3_cache) == quarters);
    CHECK(topology->partition_by_affinity(all, AffinityDomain::next_partitionable) == quarters);
    CHECK(topology->partition_by_affinity(all, AffinityDomain::l4_cache).empty());
    CHECK(topology->partition_by_affinity(all, AffinityDomain::l2_cache).empty());
    CHECK(topology->partition_by_affinity(all, AffinityDomain::l1_cache).empty());
    CHECK(topology->splittable_domains(all) == Domains{AffinityDomain::numa,
                                                       AffinityDomain::l3_cache,
                                                       AffinityDomain::next_partitionable});

    SECTION("a NUMA node cannot be split further") {
        const CpuSet node = pu_range(4, 7);
        CHECK(topology->partition_by_affinity(node, AffinityDomain::numa).empty());
        CHECK(topology->partition_by_affinity(node, AffinityDomain::next_partitionable).empty());
        CHECK(topology->splittable_domains(node).empty());
    }
    SECTION("only the touched part of each node is kept") {
        const CpuSet scattered{1, 2, 9, 15};
        CHECK(topology->partition_by_affinity(scattered, AffinityDomain::numa) ==
              Parts{{1, 2}, {9}, {15}});
    }
    SECTION("processing units outside the topology are dropped") {
        const CpuSet beyond{3, 4, 99};
        CHECK(topology->partition_by_affinity(beyond, AffinityDomain::numa) == Parts{{3}, {4}});
    }
    SECTION("an empty set cannot be split") {
        CHECK(topology->partition_by_affinity({}, AffinityDomain::numa).empty());
        CHECK(topology->splittable_domains({}).empty());
    }
}

// One NUMA node, 2 L3 slices of 4 cores, each core with its own L2 and L1d
// and 2 hardware threads.
TEST_CASE("cache machine splits along L3, L2 and L1", "[cpu][affinity]") {
    const auto topology = synthetic("package:1 l3:2 l2:4 l1d:1 core:1 pu:2");
    const CpuSet all = topology->allowed_pus();
    REQUIRE(all == pu_range(0, 15));
    Parts per_core;
    for (unsigned core = 0; core < 8; ++core) {
        per_core.push_back({2 * core, 2 * core + 1});
    }

    CHECK(topology->partition_by_affinity(all, AffinityDomain::numa).empty());
    CHECK(topology->partition_by_affinity(all, AffinityDomain::l4_cache).empty());
    CHECK(topology->partition_by_affinity(all, AffinityDomain::l3_cache) ==
          Parts{pu_range(0, 7), pu_range(8, 15)});
    CHECK(topology->partition_by_affinity(all, AffinityDomain::l2_cache) == per_core);
    CHECK(topology->partition_by_affinity(all, AffinityDomain::l1_cache) == per_core);
    CHECK(topology->partition_by_affinity(all, AffinityDomain::next_partitionable) ==
          Parts{pu_range(0, 7), pu_range(8, 15)});
    CHECK(topology->splittable_domains(all) ==
          Domains{AffinityDomain::l3_cache, AffinityDomain::l2_cache, AffinityDomain::l1_cache,
                  AffinityDomain::next_partitionable});

    SECTION("next_partitionable of an L3 slice is its L2 caches") {
        CHECK(topology->partition_by_affinity(pu_range(0, 7), AffinityDomain::next_partitionable) ==
              Parts{{0, 1}, {2, 3}, {4, 5}, {6, 7}});
        CHECK(topology->splittable_domains(pu_range(0, 7)) ==
              Domains{AffinityDomain::l2_cache, AffinityDomain::l1_cache,
                      AffinityDomain::next_partitionable});
    }
    SECTION("the threads of one core share every domain") {
        CHECK(topology->partition_by_affinity({6, 7}, AffinityDomain::next_partitionable).empty());
        CHECK(topology->splittable_domains({6, 7}).empty());
    }
    SECTION("threads of neighbouring cores split at L2") {
        CHECK(topology->partition_by_affinity({1, 2}, AffinityDomain::next_partitionable) ==
              Parts{{1}, {2}});
    }
}

TEST_CASE("L4 caches are a domain of their own", "[cpu][affinity]") {
    const auto topology = synthetic("numa:2 l4:1 l3:2 core:2 pu:1");
    const CpuSet all = topology->allowed_pus();
    CHECK(topology->partition_by_affinity(all, AffinityDomain::l4_cache) ==
          Parts{pu_range(0, 3), pu_range(4, 7)});
    CHECK(topology->partition_by_affinity(pu_range(0, 3), AffinityDomain::next_partitionable) ==
          Parts{{0, 1}, {2, 3}});
    CHECK(topology->splittable_domains(all) ==
          Domains{AffinityDomain::numa, AffinityDomain::l4_cache, AffinityDomain::l3_cache,
                  AffinityDomain::next_partitionable});
}

// Linux numbers the second hardware thread of each core after all first
// threads: core 0 holds PUs 0 and 4.
TEST_CASE("interleaved OS indexes give sorted parts", "[cpu][affinity]") {
    const auto topology = synthetic("package:1 l2:4 core:1 pu:2(indexes=0,4,1,5,2,6,3,7)");
    CHECK(topology->partition_by_affinity(topology->allowed_pus(), AffinityDomain::l2_cache) ==
          Parts{{0, 4}, {1, 5}, {2, 6}, {3, 7}});
    CHECK(topology->partition_by_affinity({0, 1, 4}, AffinityDomain::l2_cache) ==
          Parts{{0, 4}, {1}});
}
