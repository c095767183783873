// Region's cache of freed blocks: reuse, its bounds, flushes, and that cached blocks count as
// free everywhere in the API (lookups, double frees, statistics).
#include "bufalloc/region.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <utility>
#include <vector>

using bufalloc::Allocation;
using bufalloc::Region;
using bufalloc::Stats;
using bufalloc::Status;

namespace {

constexpr std::uint64_t kib = 1024;
constexpr std::uint64_t mib = 1024 * kib;

std::uint64_t must_allocate(Region& region, std::uint64_t size, std::uint64_t alignment = 0) {
    auto result = region.allocate(size, alignment);
    REQUIRE(result.status == Status::ok);
    return result.address;
}

// Every figure but cached_bytes and bookkeeping_bytes.
void require_same_figures(const Stats& a, const Stats& b) {
    REQUIRE(a.region_bytes == b.region_bytes);
    REQUIRE(a.bytes_in_use == b.bytes_in_use);
    REQUIRE(a.bytes_requested == b.bytes_requested);
    REQUIRE(a.free_bytes == b.free_bytes);
    REQUIRE(a.largest_free == b.largest_free);
    REQUIRE(a.free_ranges == b.free_ranges);
    REQUIRE(a.allocations == b.allocations);
    REQUIRE(a.fragmentation == b.fragmentation);
}

// The first allocation of a size claims its bin; later ones of that size can be cached.
std::vector<std::uint64_t> fill(Region& region, std::uint64_t size, std::size_t count) {
    std::vector<std::uint64_t> addresses;
    for (std::size_t i = 0; i < count; ++i) {
        addresses.push_back(must_allocate(region, size));
    }
    return addresses;
}

} // namespace

TEST_CASE("a freed block of a repeated size is handed out again whole", "[bufalloc][cache]") {
    Region region(0x10000, mib, 64);
    auto blocks = fill(region, 200, 3); // reserved 256 each
    REQUIRE(region.free(blocks[1]) == Status::ok);
    auto stats = region.stats();
    REQUIRE(stats.cached_bytes == 256);
    REQUIRE(stats.allocations == 2);
    REQUIRE(stats.bytes_in_use == 512);
    REQUIRE(stats.bytes_requested == 400);
    REQUIRE(stats.free_ranges == 2); // the hole and the tail
    REQUIRE(region.check_invariants());

    // Another size does not take it; the same reserved size does, with its own requested size.
    std::uint64_t other = must_allocate(region, 512);
    REQUIRE(other != blocks[1]);
    REQUIRE(must_allocate(region, 250) == blocks[1]);
    REQUIRE(region.lookup(blocks[1] + 249) == Allocation{blocks[1], 250});
    REQUIRE_FALSE(region.lookup(blocks[1] + 250).has_value());
    stats = region.stats();
    REQUIRE(stats.cached_bytes == 0);
    REQUIRE(stats.bytes_requested == 200 + 200 + 250 + 512);
    REQUIRE(region.check_invariants());
}

TEST_CASE("a cached block is free for lookup and free", "[bufalloc][cache]") {
    Region region(0, mib, 64);
    auto blocks = fill(region, 100, 4);
    REQUIRE(region.free(blocks[2]) == Status::ok);
    REQUIRE(region.stats().cached_bytes == 128);
    REQUIRE_FALSE(region.lookup(blocks[2]).has_value());
    REQUIRE_FALSE(region.lookup(blocks[2] + 99).has_value());
    REQUIRE(region.lookup(blocks[1] + 99) == Allocation{blocks[1], 100});
    REQUIRE(region.lookup(blocks[3]) == Allocation{blocks[3], 100});

    auto before = region.stats();
    REQUIRE(region.free(blocks[2]) == Status::unknown_address); // double free of a cached block
    REQUIRE(region.free(blocks[2] + 64) == Status::unknown_address);
    auto after = region.stats();
    require_same_figures(before, after);
    REQUIRE(after.cached_bytes == before.cached_bytes);
    REQUIRE(region.check_invariants());

    // Still an error after the cache is flushed.
    region.flush_cache();
    REQUIRE(region.stats().cached_bytes == 0);
    REQUIRE(region.free(blocks[2]) == Status::unknown_address);
    REQUIRE(region.check_invariants());
}

TEST_CASE("statistics count cached blocks as free and coalesced", "[bufalloc][cache]") {
    Region region(0, 64 * kib, 64); // cache bound: 1 KiB
    auto blocks = fill(region, 256, 8);
    std::uint64_t tail = must_allocate(region, 64 * kib - 8 * 256); // region full
    REQUIRE(region.stats().free_bytes == 0);
    // blocks[3], [2], [6] and [4] fill the cache (1 KiB); blocks[5] is really freed, between
    // cached neighbours it cannot merge with until a flush.
    for (std::size_t i : {3, 2, 6, 4, 5}) {
        REQUIRE(region.free(blocks[i]) == Status::ok);
    }
    auto cached = region.stats();
    REQUIRE(cached.cached_bytes == 1 * kib);
    REQUIRE(cached.free_bytes == 5 * 256);
    REQUIRE(cached.free_ranges == 1); // blocks[2..6] are adjacent
    REQUIRE(cached.largest_free == 5 * 256);
    REQUIRE(cached.fragmentation == 0.0);
    REQUIRE(cached.bytes_in_use + cached.free_bytes == cached.region_bytes);
    REQUIRE(region.check_invariants());

    region.flush_cache();
    auto flushed = region.stats();
    REQUIRE(flushed.cached_bytes == 0);
    require_same_figures(cached, flushed);
    REQUIRE(region.check_invariants());

    // Freeing the rest leaves one free range, with or without a flush.
    for (std::size_t i : {0, 1, 7}) {
        REQUIRE(region.free(blocks[i]) == Status::ok);
    }
    REQUIRE(region.free(tail) == Status::ok);
    auto empty = region.stats();
    REQUIRE(empty.free_ranges == 1);
    REQUIRE(empty.largest_free == 64 * kib);
    REQUIRE(empty.allocations == 0);
    region.flush_cache();
    require_same_figures(empty, region.stats());
    REQUIRE(region.check_invariants());
}

TEST_CASE("separate cached ranges are counted separately", "[bufalloc][cache]") {
    Region region(0, mib, 64);
    auto blocks = fill(region, 64, 9);
    for (std::size_t i : {1, 2, 4, 7}) {
        REQUIRE(region.free(blocks[i]) == Status::ok);
    }
    auto cached = region.stats();
    REQUIRE(cached.cached_bytes == 4 * 64);
    REQUIRE(cached.free_ranges == 4); // [1..2], [4], [7], the tail
    REQUIRE(cached.largest_free == mib - 9 * 64);
    region.flush_cache();
    require_same_figures(cached, region.stats());
    REQUIRE(region.check_invariants());
}

TEST_CASE("the cache is bounded in bytes and per size", "[bufalloc][cache]") {
    SECTION("bytes: at most region bytes / 64") {
        Region region(0, mib, 64); // bound 16 KiB
        auto blocks = fill(region, 4 * kib, 32);
        for (std::uint64_t address : blocks) {
            REQUIRE(region.free(address) == Status::ok);
            REQUIRE(region.stats().cached_bytes <= mib / 64);
        }
        auto stats = region.stats();
        REQUIRE(stats.cached_bytes == 16 * kib);
        REQUIRE(stats.free_ranges == 1);
        REQUIRE(stats.allocations == 0);
        REQUIRE(region.check_invariants());
    }
    SECTION("blocks of one size: at most the bin capacity") {
        Region region(0, 64 * mib, 64);
        auto blocks = fill(region, 64, 4 * Region::cache_bin_capacity + 1);
        for (std::size_t i = 1; i < blocks.size(); i += 2) { // no freed block beside another
            REQUIRE(region.free(blocks[i]) == Status::ok);
        }
        auto stats = region.stats();
        REQUIRE(stats.cached_bytes == 64 * Region::cache_bin_capacity);
        REQUIRE(stats.free_ranges == 2 * Region::cache_bin_capacity + 1);
        REQUIRE(region.check_invariants());
    }
}

TEST_CASE("an allocation that needs coalesced space flushes the cache", "[bufalloc][cache]") {
    Region region(0x100000, mib, 64); // bound 16 KiB
    auto blocks = fill(region, 4 * kib, 256);
    REQUIRE(region.allocate(64).status == Status::out_of_space);
    for (std::size_t i = 10; i < 14; ++i) {
        REQUIRE(region.free(blocks[i]) == Status::ok);
    }
    REQUIRE(region.stats().cached_bytes == 16 * kib);
    REQUIRE(region.stats().largest_free == 16 * kib);
    // Only the four blocks together hold 16 KiB: the cache is flushed, the blocks coalesce.
    REQUIRE(must_allocate(region, 16 * kib) == blocks[10]);
    auto stats = region.stats();
    REQUIRE(stats.cached_bytes == 0);
    REQUIRE(stats.free_bytes == 0);
    REQUIRE(region.allocate(64).status == Status::out_of_space);
    REQUIRE(region.check_invariants());
}

TEST_CASE("out_of_space with cached blocks means nothing fits after a flush", "[bufalloc][cache]") {
    Region region(0, 256 * kib, 64); // bound 4 KiB
    auto blocks = fill(region, 1 * kib, 256);
    REQUIRE(region.free(blocks[5]) == Status::ok);
    REQUIRE(region.free(blocks[7]) == Status::ok);
    REQUIRE(region.stats().cached_bytes == 2 * kib);
    REQUIRE(region.allocate(2 * kib).status == Status::out_of_space);
    auto stats = region.stats();
    REQUIRE(stats.cached_bytes == 0); // flushed by the failed search
    REQUIRE(stats.free_ranges == 2);
    REQUIRE(stats.allocations == 254);
    std::uint64_t again = must_allocate(region, 1 * kib);
    REQUIRE((again == blocks[5] || again == blocks[7]));
    REQUIRE(region.check_invariants());
}

TEST_CASE("a cached block is reused only when it has the alignment", "[bufalloc][cache]") {
    Region region(0, mib, 64);
    auto blocks = fill(region, 4 * kib, 3); // at 0, 4 KiB, 8 KiB
    std::uint64_t odd = must_allocate(region, 64);
    std::uint64_t shifted = must_allocate(region, 4 * kib); // at 12 KiB + 64
    REQUIRE(shifted % (4 * kib) != 0);
    REQUIRE(region.free(shifted) == Status::ok);
    REQUIRE(region.stats().cached_bytes == 4 * kib);
    std::uint64_t aligned = must_allocate(region, 4 * kib, 4 * kib);
    REQUIRE(aligned % (4 * kib) == 0);
    REQUIRE(region.stats().cached_bytes == 4 * kib);
    REQUIRE(must_allocate(region, 4 * kib, 64) == shifted);
    REQUIRE(region.free(odd) == Status::ok);
    REQUIRE(region.free(blocks[0]) == Status::ok);
    REQUIRE(region.check_invariants());
}

TEST_CASE("growth after a cached block at the end", "[bufalloc][cache]") {
    Region region(0, 64 * kib, 64); // bound 1 KiB
    auto blocks = fill(region, 1 * kib, 64);
    REQUIRE(region.stats().free_bytes == 0);
    REQUIRE(region.free(blocks.back()) == Status::ok);
    REQUIRE(region.stats().cached_bytes == 1 * kib);
    REQUIRE(region.grow(3 * kib) == Status::ok);
    auto stats = region.stats();
    REQUIRE(stats.free_ranges == 1);
    REQUIRE(stats.largest_free == 4 * kib);
    REQUIRE(region.check_invariants());
    REQUIRE(must_allocate(region, 4 * kib) == blocks.back());
    REQUIRE(region.check_invariants());
}

TEST_CASE("a moved region keeps its cache", "[bufalloc][cache]") {
    Region region(0, mib, 64);
    auto blocks = fill(region, 128, 3);
    REQUIRE(region.free(blocks[1]) == Status::ok);
    Region moved(std::move(region));
    REQUIRE(moved.stats().cached_bytes == 128);
    REQUIRE(moved.free(blocks[1]) == Status::unknown_address);
    REQUIRE(must_allocate(moved, 128) == blocks[1]);
    REQUIRE(moved.check_invariants());
}
