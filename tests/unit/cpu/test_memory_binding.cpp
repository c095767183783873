#include "cpu/topology.hpp"

#include "cpu_sets.hpp"

#include <catch2/catch.hpp>

#include <cstring>
#include <sys/mman.h>

using usmcl::cpu::Topology;

namespace {

constexpr std::size_t page_bytes = 4096;
constexpr std::size_t region_bytes = 4 * page_bytes;

// An anonymous mapping, unmapped when the test ends.
class Region {
public:
    Region()
        : address_(mmap(nullptr, region_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                        -1, 0)) {}
    ~Region() {
        if (address_ != MAP_FAILED) {
            munmap(address_, region_bytes);
        }
    }
    Region(const Region&) = delete;
    Region& operator=(const Region&) = delete;

    void* get() const { return address_ == MAP_FAILED ? nullptr : address_; }

private:
    void* address_;
};

} // namespace

TEST_CASE("memory binds to a NUMA node of the host", "[cpu][host][memory]") {
    std::string error;
    const auto topology = Topology::load(&error);
    INFO(error);
    REQUIRE(topology != nullptr);
    const auto nodes = topology->describe(topology->allowed_pus()).numa_nodes;
    REQUIRE_FALSE(nodes.empty());
    Region region;
    REQUIRE(region.get() != nullptr);
    std::memset(region.get(), 1, region_bytes / 2); // some pages already touched

    // Containers may forbid mbind; binding is then refused, never a crash.
    if (!topology->bind_memory(region.get(), region_bytes, nodes.front())) {
        WARN("the system refused to bind memory to NUMA node " << nodes.front());
    }
    std::memset(region.get(), 2, region_bytes);
    CHECK(static_cast<unsigned char*>(region.get())[region_bytes - 1] == 2);

    CHECK_FALSE(topology->bind_memory(region.get(), region_bytes, 4096));
    CHECK_FALSE(topology->bind_memory(nullptr, region_bytes, nodes.front()));
    CHECK(topology->bind_memory(region.get(), 0, nodes.front()));
}

TEST_CASE("memory binding names an existing NUMA node", "[cpu][memory]") {
    const auto topology = usmcl::cpu::test::synthetic("numa:2 core:2 pu:1");
    Region region;
    REQUIRE(region.get() != nullptr);
    CHECK_FALSE(topology->bind_memory(region.get(), region_bytes, 2));
}
