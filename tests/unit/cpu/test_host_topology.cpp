#include "cpu/topology.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sched.h>
#include <string>
#include <thread>
#include <vector>

using usmcl::cpu::AffinityDomain;
using usmcl::cpu::CpuSet;
using usmcl::cpu::Topology;

namespace {

std::shared_ptr<const Topology> host() {
    std::string error;
    auto topology = Topology::load(&error);
    INFO(error);
    REQUIRE(topology != nullptr);
    return topology;
}

} // namespace

TEST_CASE("the host machine has usable processing units", "[cpu][host]") {
    const auto topology = host();
    const CpuSet& all = topology->allowed_pus();
    REQUIRE_FALSE(all.empty());
    CHECK(std::is_sorted(all.begin(), all.end()));
    CHECK(std::adjacent_find(all.begin(), all.end()) == all.end());

    const auto info = topology->describe(all);
    CHECK(info.compute_units == all.size());
    CHECK(info.cores >= 1);
    CHECK(info.cores <= info.compute_units);
    CHECK_FALSE(info.numa_nodes.empty());
    CHECK(info.memory_bytes > 0);
    CHECK(info.cache_line_bytes > 0);
}

TEST_CASE("host partitions cover the set without overlap", "[cpu][host]") {
    const auto topology = host();
    const CpuSet& all = topology->allowed_pus();
    for (auto domain :
         {AffinityDomain::numa, AffinityDomain::l4_cache, AffinityDomain::l3_cache,
          AffinityDomain::l2_cache, AffinityDomain::l1_cache, AffinityDomain::next_partitionable}) {
        const auto parts = topology->partition_by_affinity(all, domain);
        if (parts.empty()) {
            continue;
        }
        CHECK(parts.size() >= 2);
        CpuSet joined;
        for (const auto& part : parts) {
            CHECK_FALSE(part.empty());
            joined.insert(joined.end(), part.begin(), part.end());
        }
        std::sort(joined.begin(), joined.end());
        CHECK(joined == all);
    }
}

TEST_CASE("a thread can be pinned to one processing unit", "[cpu][host]") {
    const auto topology = host();
    const unsigned target = topology->allowed_pus().back();
    bool bound = false;
    int running_on = -1;
    std::thread worker([&] {
        bound = topology->bind_current_thread({target});
        running_on = sched_getcpu();
    });
    worker.join();
    CHECK(bound);
    CHECK(running_on == static_cast<int>(target));
    CHECK_FALSE(topology->bind_current_thread({}));
}
