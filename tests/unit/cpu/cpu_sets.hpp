// Small helpers shared by the cpu tests.
#pragma once

#include "cpu/topology.hpp"

#include <catch2/catch.hpp>

#include <memory>
#include <string>

namespace usmcl::cpu::test {

// The processing units first, first + 1, ..., last.
inline CpuSet pu_range(unsigned first, unsigned last) {
    CpuSet pus;
    for (unsigned pu = first; pu <= last; ++pu) {
        pus.push_back(pu);
    }
    return pus;
}

inline std::shared_ptr<const Topology> synthetic(const std::string& description) {
    std::string error;
    auto topology = Topology::from_synthetic(description, &error);
    INFO(description << ": " << error);
    REQUIRE(topology != nullptr);
    return topology;
}

} // namespace usmcl::cpu::test
