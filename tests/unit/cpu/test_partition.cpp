#include "cpu/topology.hpp"

#include "cpu_sets.hpp"

#include <catch2/catch.hpp>

#include <vector>

using usmcl::cpu::CpuSet;
using usmcl::cpu::partition_by_counts;
using usmcl::cpu::partition_equally;
using usmcl::cpu::test::pu_range;

TEST_CASE("partition_equally takes whole parts in order", "[cpu][partition]") {
    const CpuSet pus{2, 3, 5, 7, 11, 13, 17};

    SECTION("exact fit") {
        CHECK(partition_equally(pu_range(0, 5), 2) == std::vector<CpuSet>{{0, 1}, {2, 3}, {4, 5}});
    }
    SECTION("leftover units are left out") {
        CHECK(partition_equally(pus, 3) == std::vector<CpuSet>{{2, 3, 5}, {7, 11, 13}});
    }
    SECTION("one unit per part") {
        CHECK(partition_equally(pus, 1).size() == pus.size());
    }
    SECTION("the whole set is one part") {
        CHECK(partition_equally(pus, 7) == std::vector<CpuSet>{pus});
    }
    SECTION("zero units per part") {
        CHECK(partition_equally(pus, 0).empty());
    }
    SECTION("more units per part than the set holds") {
        CHECK(partition_equally(pus, 8).empty());
    }
    SECTION("empty set") {
        CHECK(partition_equally({}, 1).empty());
    }
}

TEST_CASE("partition_by_counts takes one part per count in order", "[cpu][partition]") {
    const CpuSet pus = pu_range(0, 7);

    SECTION("exact fit") {
        const std::vector<unsigned> counts{3, 5};
        CHECK(partition_by_counts(pus, counts) == std::vector<CpuSet>{{0, 1, 2}, {3, 4, 5, 6, 7}});
    }
    SECTION("leftover units are left out") {
        const std::vector<unsigned> counts{1, 2, 1};
        CHECK(partition_by_counts(pus, counts) == std::vector<CpuSet>{{0}, {1, 2}, {3}});
    }
    SECTION("a zero count fails") {
        const std::vector<unsigned> counts{2, 0, 2};
        CHECK(partition_by_counts(pus, counts).empty());
    }
    SECTION("counts adding up to more than the set fail") {
        const std::vector<unsigned> counts{4, 5};
        CHECK(partition_by_counts(pus, counts).empty());
    }
    SECTION("counts that overflow 32 bits fail") {
        const std::vector<unsigned> counts{0xFFFFFFFFU, 2};
        CHECK(partition_by_counts(pus, counts).empty());
    }
    SECTION("no counts, no parts") {
        CHECK(partition_by_counts(pus, {}).empty());
    }
}
