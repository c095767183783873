#include "cpu/topology.hpp"

#include "cpu_sets.hpp"

#include <catch2/catch.hpp>
#include <hwloc.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <unistd.h>

using usmcl::cpu::AffinityDomain;
using usmcl::cpu::CpuSet;
using usmcl::cpu::Topology;
using usmcl::cpu::test::pu_range;

namespace {

// Writes the synthetic machine as hwloc XML to path.
bool write_xml(const char* description, const std::string& path) {
    hwloc_topology_t topology = nullptr;
    if (hwloc_topology_init(&topology) != 0) {
        return false;
    }
    const bool written = hwloc_topology_set_synthetic(topology, description) == 0 &&
                         hwloc_topology_load(topology) == 0 &&
                         hwloc_topology_export_xml(topology, path.c_str(), 0) == 0;
    hwloc_topology_destroy(topology);
    return written;
}

} // namespace

TEST_CASE("a bad synthetic description is an error", "[cpu][topology]") {
    std::string error;
    CHECK(Topology::from_synthetic("bogus:3", &error) == nullptr);
    CHECK_FALSE(error.empty());
    CHECK(Topology::from_synthetic("core:0") == nullptr);
}

TEST_CASE("a machine loads from an hwloc XML file", "[cpu][topology]") {
    const auto path = std::filesystem::temp_directory_path() /
                      ("usmcl_cpu_test_" + std::to_string(getpid()) + ".xml");
    REQUIRE(write_xml("package:2 l3:1 core:2 pu:2", path.string()));

    std::string error;
    const auto topology = Topology::from_xml_file(path.string(), &error);
    std::filesystem::remove(path);
    INFO(error);
    REQUIRE(topology != nullptr);
    CHECK(topology->allowed_pus() == pu_range(0, 7));
    CHECK(topology->describe(topology->allowed_pus()).cores == 4);
    CHECK(topology->partition_by_affinity(topology->allowed_pus(), AffinityDomain::l3_cache) ==
          std::vector<CpuSet>{pu_range(0, 3), pu_range(4, 7)});
}

TEST_CASE("a missing XML file is an error", "[cpu][topology]") {
    std::string error;
    CHECK(Topology::from_xml_file("/nonexistent/usmcl/topology.xml", &error) == nullptr);
    CHECK_FALSE(error.empty());
}

TEST_CASE("load honours HWLOC_SYNTHETIC", "[cpu][topology]") {
    REQUIRE(setenv("HWLOC_SYNTHETIC", "package:3 core:2 pu:1", 1) == 0);
    std::string error;
    const auto topology = Topology::load(&error);
    unsetenv("HWLOC_SYNTHETIC");
    INFO(error);
    REQUIRE(topology != nullptr);
    CHECK(topology->allowed_pus() == pu_range(0, 5));
}
