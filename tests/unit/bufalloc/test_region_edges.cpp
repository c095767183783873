// Region: argument checks, exhaustion, alignment limits, tiny regions, lookups, growth, frees.
#include "bufalloc/region.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <stdexcept>
#include <vector>

using bufalloc::Allocation;
using bufalloc::Region;
using bufalloc::Status;

namespace {

constexpr std::uint64_t kib = 1024;
constexpr std::uint64_t mib = 1024 * kib;
constexpr std::uint64_t gib = 1024 * mib;

std::uint64_t must_allocate(Region& region, std::uint64_t size, std::uint64_t alignment = 0) {
    auto result = region.allocate(size, alignment);
    REQUIRE(result.status == Status::ok);
    return result.address;
}

} // namespace

TEST_CASE("constructor rejects invalid regions", "[bufalloc][region]") {
    REQUIRE_THROWS_AS(Region(0, 100, 3), std::invalid_argument);
    REQUIRE_THROWS_AS(Region(0, 100, 0), std::invalid_argument);
    REQUIRE_THROWS_AS(Region(32, 100, 64), std::invalid_argument);
    REQUIRE_THROWS_AS(Region(0, 0, 1), std::invalid_argument);
    REQUIRE_THROWS_AS(Region(UINT64_MAX - 10, 11, 1), std::invalid_argument);
    REQUIRE_NOTHROW(Region(UINT64_MAX - 10, 10, 1));
}

TEST_CASE("invalid requests are rejected and change nothing", "[bufalloc][region]") {
    Region region(0x10000, mib, 64);
    REQUIRE(region.allocate(0).status == Status::invalid_size);
    REQUIRE(region.allocate(64, 3).status == Status::invalid_alignment);
    REQUIRE(region.allocate(64, 96).status == Status::invalid_alignment);
    // Rounding up to the alignment (or the 64-byte granule) would overflow 64 bits.
    REQUIRE(region.allocate(UINT64_MAX).status == Status::invalid_size);
    REQUIRE(region.allocate(UINT64_MAX - 62, 1).status == Status::invalid_size);
    REQUIRE(region.allocate(UINT64_MAX / 2 + 2, std::uint64_t{1} << 63).status ==
            Status::invalid_size);
    // Fits in 64 bits but not in the region.
    REQUIRE(region.allocate(UINT64_MAX - 63).status == Status::out_of_space);
    REQUIRE(region.allocate(mib + 1).status == Status::out_of_space);
    auto stats = region.stats();
    REQUIRE(stats.allocations == 0);
    REQUIRE(stats.free_ranges == 1);
    REQUIRE(stats.free_bytes == mib);
    REQUIRE(region.check_invariants());
    REQUIRE(bufalloc::to_string(Status::out_of_space) == "out_of_space");
}

TEST_CASE("exhaustion then recovery", "[bufalloc][region]") {
    Region region(0x100000, mib, 64);
    std::vector<std::uint64_t> addresses;
    for (;;) {
        auto result = region.allocate(4 * kib);
        if (!result) {
            REQUIRE(result.status == Status::out_of_space);
            REQUIRE(result.address == 0);
            break;
        }
        addresses.push_back(result.address);
    }
    REQUIRE(addresses.size() == mib / (4 * kib));
    REQUIRE(region.stats().free_bytes == 0);
    REQUIRE(region.stats().fragmentation == 0.0);
    REQUIRE(region.allocate(1).status == Status::out_of_space);

    // Free every other block: plenty of free bytes, but no range larger than 4 KiB.
    for (std::size_t i = 0; i < addresses.size(); i += 2) {
        REQUIRE(region.free(addresses[i]) == Status::ok);
    }
    auto stats = region.stats();
    REQUIRE(stats.free_bytes == mib / 2);
    REQUIRE(stats.largest_free == 4 * kib);
    REQUIRE(stats.free_ranges == addresses.size() / 2);
    REQUIRE(stats.fragmentation == Approx(1.0 - 4.0 * kib / (mib / 2)));
    REQUIRE(region.allocate(8 * kib).status == Status::out_of_space);
    REQUIRE(region.check_invariants());

    for (std::size_t i = 1; i < addresses.size(); i += 2) {
        REQUIRE(region.free(addresses[i]) == Status::ok);
    }
    stats = region.stats();
    REQUIRE(stats.free_ranges == 1);
    REQUIRE(stats.largest_free == mib);
    REQUIRE(must_allocate(region, mib) == 0x100000);
    REQUIRE(region.check_invariants());
}

TEST_CASE("alignment up to the region size", "[bufalloc][region]") {
    SECTION("region aligned to its size") {
        Region region(gib, gib, 256);
        REQUIRE(must_allocate(region, gib, gib) == gib);
        REQUIRE(region.allocate(1).status == Status::out_of_space);
        REQUIRE(region.free(gib) == Status::ok);
        REQUIRE(must_allocate(region, 1, gib) == gib);
        REQUIRE(region.allocate(1, gib).status == Status::out_of_space);
        REQUIRE(must_allocate(region, gib - 256, 256) == gib + 256);
    }
    SECTION("only one address in the region has the alignment") {
        Region region(4 * kib, mib, 64);
        REQUIRE(must_allocate(region, 4 * kib, mib) == mib);
        REQUIRE(region.allocate(1, mib).status == Status::out_of_space);
        REQUIRE(must_allocate(region, mib - 4 * kib, 64) == 4 * kib);
        REQUIRE(region.stats().free_bytes == 0);
        REQUIRE(region.check_invariants());
    }
    SECTION("padding before an aligned block stays free and is reused") {
        Region region(0, 64 * kib, 16);
        REQUIRE(must_allocate(region, 16) == 0);
        std::uint64_t aligned = must_allocate(region, 16, 32 * kib);
        REQUIRE(aligned == 32 * kib);
        REQUIRE(region.stats().free_ranges == 2);
        std::uint64_t filler = must_allocate(region, 32 * kib - 16);
        REQUIRE((filler == 16 || filler == 32 * kib + 16));
        REQUIRE(region.stats().free_ranges == 1);
        REQUIRE(region.check_invariants());
    }
}

TEST_CASE("one-byte region", "[bufalloc][region]") {
    Region region(7, 1);
    REQUIRE(must_allocate(region, 1) == 7);
    REQUIRE(region.allocate(1).status == Status::out_of_space);
    REQUIRE(region.lookup(7) == Allocation{7, 1});
    REQUIRE_FALSE(region.lookup(6).has_value());
    REQUIRE_FALSE(region.lookup(8).has_value());
    REQUIRE(region.free(7) == Status::ok);
    REQUIRE(region.free(7) == Status::unknown_address);
    REQUIRE(must_allocate(region, 1, 1) == 7);
    REQUIRE(region.allocate(1, 2).status == Status::out_of_space);
    REQUIRE(region.check_invariants());
}

TEST_CASE("lookups at the first and last byte", "[bufalloc][region]") {
    Region region(0x4000, mib, 64);
    std::uint64_t a = must_allocate(region, 100);
    std::uint64_t b = must_allocate(region, 64);
    std::uint64_t c = must_allocate(region, 4096, 4096);
    REQUIRE(region.lookup(a) == Allocation{a, 100});
    REQUIRE(region.lookup(a + 99) == Allocation{a, 100});
    // Bytes 100..127 are reserved for rounding but are not part of the allocation.
    REQUIRE_FALSE(region.lookup(a + 100).has_value());
    REQUIRE_FALSE(region.lookup(a + 127).has_value());
    REQUIRE(b == a + 128);
    REQUIRE(region.lookup(b) == Allocation{b, 64});
    REQUIRE(region.lookup(b + 63) == Allocation{b, 64});
    REQUIRE(region.lookup(c) == Allocation{c, 4096});
    REQUIRE(region.lookup(c + 4095) == Allocation{c, 4096});
    REQUIRE_FALSE(region.lookup(c + 4096).has_value());
    REQUIRE_FALSE(region.lookup(c - 1).has_value()); // alignment padding
    REQUIRE_FALSE(region.lookup(0x4000 - 1).has_value());
    REQUIRE_FALSE(region.lookup(0).has_value());
    REQUIRE_FALSE(region.lookup(UINT64_MAX).has_value());
    REQUIRE(region.free(b) == Status::ok);
    REQUIRE_FALSE(region.lookup(b).has_value());
}

TEST_CASE("region at the top of the address space", "[bufalloc][region]") {
    constexpr std::uint64_t base = UINT64_MAX - mib + 1;
    Region region(base, mib - 1);
    REQUIRE(region.stats().region_bytes == mib - 1);
    REQUIRE(must_allocate(region, 16) == base);
    std::uint64_t aligned = must_allocate(region, 16, mib / 2);
    REQUIRE(aligned == base + mib / 2);
    REQUIRE(must_allocate(region, mib / 2 - 16) == base + 16);
    std::uint64_t tail = must_allocate(region, mib / 2 - 16 - 1);
    REQUIRE(region.stats().free_bytes == 0);
    REQUIRE(tail == aligned + 16);
    REQUIRE(region.lookup(UINT64_MAX - 1) == Allocation{tail, mib / 2 - 17});
    REQUIRE_FALSE(region.lookup(UINT64_MAX).has_value());
    REQUIRE(region.grow(1) == Status::invalid_size);
    REQUIRE(region.check_invariants());
}

TEST_CASE("frees of unknown, interior and freed addresses", "[bufalloc][region]") {
    Region region(0, mib, 64);
    std::uint64_t a = must_allocate(region, 256);
    std::uint64_t b = must_allocate(region, 256);
    auto before = region.stats();
    REQUIRE(region.free(a + 64) == Status::unknown_address);
    REQUIRE(region.free(mib) == Status::unknown_address);
    REQUIRE(region.free(b + 256) == Status::unknown_address); // start of the free tail
    REQUIRE(region.free(UINT64_MAX) == Status::unknown_address);
    REQUIRE(region.free(a) == Status::ok);
    REQUIRE(region.free(a) == Status::unknown_address);
    auto after = region.stats();
    REQUIRE(after.allocations == before.allocations - 1);
    REQUIRE(after.bytes_in_use == before.bytes_in_use - 256);
    REQUIRE(region.lookup(b) == Allocation{b, 256});
    REQUIRE(region.check_invariants());
}

TEST_CASE("free neighbours coalesce", "[bufalloc][region]") {
    Region region(0, 4 * kib, 64);
    std::uint64_t a = must_allocate(region, 1024);
    std::uint64_t b = must_allocate(region, 1024);
    std::uint64_t c = must_allocate(region, 1024);
    REQUIRE(region.free(a) == Status::ok);
    REQUIRE(region.free(c) == Status::ok);
    REQUIRE(region.stats().free_ranges == 2); // [a] and [c + tail]
    REQUIRE(region.free(b) == Status::ok);
    auto stats = region.stats();
    REQUIRE(stats.free_ranges == 1);
    REQUIRE(stats.largest_free == 4 * kib);
    REQUIRE(stats.fragmentation == 0.0);
    REQUIRE(region.check_invariants());
}

TEST_CASE("growth at the end", "[bufalloc][region]") {
    SECTION("a full region grows by a new free range") {
        Region region(0, mib, 64);
        std::uint64_t all = must_allocate(region, mib);
        REQUIRE(region.allocate(64).status == Status::out_of_space);
        REQUIRE(region.grow(mib) == Status::ok);
        REQUIRE(region.size() == 2 * mib);
        REQUIRE(must_allocate(region, mib) == mib);
        REQUIRE(region.free(all) == Status::ok);
        REQUIRE(region.check_invariants());
    }
    SECTION("a free tail is extended in place") {
        Region region(0, mib, 64);
        must_allocate(region, kib);
        REQUIRE(region.grow(3 * mib) == Status::ok);
        auto stats = region.stats();
        REQUIRE(stats.free_ranges == 1);
        REQUIRE(stats.largest_free == 4 * mib - kib);
        REQUIRE(must_allocate(region, 4 * mib - kib) == kib);
        REQUIRE(region.check_invariants());
    }
    SECTION("a region smaller than one granule becomes usable") {
        Region region(0, 10, 64);
        REQUIRE(region.stats().region_bytes == 0);
        REQUIRE(region.allocate(1).status == Status::out_of_space);
        REQUIRE(region.grow(53) == Status::ok);
        REQUIRE(region.stats().region_bytes == 0);
        REQUIRE(region.grow(1) == Status::ok);
        REQUIRE(region.stats().region_bytes == 64);
        REQUIRE(must_allocate(region, 64) == 0);
        REQUIRE(region.check_invariants());
    }
    SECTION("growth past 2^64 is refused") {
        Region region(UINT64_MAX - 1025, 1024, 1); // ends at 2^64 - 2
        REQUIRE(region.grow(2) == Status::invalid_size);
        REQUIRE(region.grow(1) == Status::ok);
        REQUIRE(region.size() == 1025);
        REQUIRE(region.check_invariants());
    }
}

TEST_CASE("statistics track bytes and bookkeeping", "[bufalloc][region]") {
    Region region(0, mib, 256);
    auto empty = region.stats();
    REQUIRE(empty.region_bytes == mib);
    REQUIRE(empty.free_bytes == mib);
    REQUIRE(empty.largest_free == mib);
    REQUIRE(empty.free_ranges == 1);
    REQUIRE(empty.fragmentation == 0.0);
    std::uint64_t a = must_allocate(region, 1000);
    must_allocate(region, 3000);
    auto stats = region.stats();
    REQUIRE(stats.allocations == 2);
    REQUIRE(stats.bytes_requested == 4000);
    REQUIRE(stats.bytes_in_use == 1024 + 3072);
    REQUIRE(stats.bytes_in_use + stats.free_bytes == stats.region_bytes);
    REQUIRE(stats.bookkeeping_bytes > 0);
    REQUIRE(region.free(a) == Status::ok);
    stats = region.stats();
    REQUIRE(stats.free_ranges == 2);
    REQUIRE(stats.largest_free == mib - 4096);
    REQUIRE(stats.fragmentation == Approx(1.0 - double(mib - 4096) / double(mib - 3072)));
}
