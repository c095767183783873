// FreeSpace against a std::map of live allocations: placement, coalescing, out_of_space only
// when no gap of the model can hold the request, statistics, and release() of ranges that are
// not live allocations.
#include "bufalloc/free_space.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <iterator>
#include <map>
#include <random>
#include <stdexcept>

using bufalloc::FreeSpace;
using bufalloc::Status;

namespace {

std::uint64_t round_up(std::uint64_t value, std::uint64_t alignment) {
    return (value + alignment - 1) & ~(alignment - 1);
}

// Live allocations: address -> reserved size.
using Model = std::map<std::uint64_t, std::uint64_t>;

// Whether some gap of the model holds `reserved` bytes at a multiple of `alignment`.
bool model_fits(const Model& live, std::uint64_t base, std::uint64_t end, std::uint64_t reserved,
                std::uint64_t alignment) {
    std::uint64_t gap_start = base;
    auto gap_fits = [&](std::uint64_t gap_end) {
        std::uint64_t start = round_up(gap_start, alignment);
        return start >= gap_start && start <= gap_end && gap_end - start >= reserved;
    };
    for (const auto& [address, size] : live) {
        if (gap_fits(address)) {
            return true;
        }
        gap_start = address + size;
    }
    return gap_fits(end);
}

std::uint64_t model_free_ranges(const Model& live, std::uint64_t base, std::uint64_t end) {
    std::uint64_t ranges = 0;
    std::uint64_t at = base;
    for (const auto& [address, size] : live) {
        ranges += address > at ? 1 : 0;
        at = address + size;
    }
    return ranges + (end > at ? 1 : 0);
}

void run_model(std::uint64_t base, std::uint64_t size, std::uint64_t granule, unsigned seed,
               int operations, std::size_t live_target) {
    FreeSpace space(base, size, granule);
    const std::uint64_t end = base + (size & ~(granule - 1));
    Model live;
    std::uint64_t in_use = 0;
    std::mt19937_64 random(seed);
    for (int op = 0; op < operations; ++op) {
        INFO("operation " << op);
        const bool allocate = live.empty() || random() % (2 * live_target) >= live.size();
        if (allocate) {
            const unsigned shape = static_cast<unsigned>(random() % 8);
            std::uint64_t bytes = shape < 4   ? 1 + random() % (4 * granule)
                                  : shape < 7 ? granule << (random() % 8)
                                              : 1 + random() % (size / 16);
            std::uint64_t alignment = random() % 4 == 0 ? granule << (random() % 6) : 0;
            const std::uint64_t effective = std::max(alignment, granule);
            const std::uint64_t reserved = round_up(bytes, granule);
            const bufalloc::AllocateResult result = space.allocate(bytes, alignment);
            if (!result) {
                REQUIRE(result.status == Status::out_of_space);
                REQUIRE_FALSE(model_fits(live, base, end, reserved, effective));
                continue;
            }
            const std::uint64_t address = result.address;
            REQUIRE(address % effective == 0);
            REQUIRE(address >= base);
            REQUIRE(reserved <= end - address);
            auto next = live.lower_bound(address);
            if (next != live.end()) {
                REQUIRE(address + reserved <= next->first);
            }
            if (next != live.begin()) {
                REQUIRE(std::prev(next)->first + std::prev(next)->second <= address);
            }
            live[address] = reserved;
            in_use += reserved;
        } else {
            auto it = std::next(live.begin(), static_cast<long>(random() % live.size()));
            const std::uint64_t address = it->first;
            const std::uint64_t reserved = it->second;
            // The requested size may be anything that rounds up to the reserved one.
            const std::uint64_t asked = reserved - random() % granule;
            REQUIRE(space.release(address, asked) == Status::ok);
            // Freed now: any range overlapping it is refused.
            REQUIRE(space.release(address, asked) == Status::unknown_address);
            REQUIRE(space.release(address, reserved + granule) == Status::unknown_address);
            if (granule > 1) {
                REQUIRE(space.release(address + 1, 1) == Status::unknown_address);
            }
            live.erase(it);
            in_use -= reserved;
        }
        if (op % 512 == 0) {
            REQUIRE(space.check_invariants());
            const bufalloc::Stats stats = space.stats();
            REQUIRE(stats.bytes_in_use == in_use);
            REQUIRE(stats.allocations == live.size());
            REQUIRE(stats.free_bytes == end - base - in_use);
            REQUIRE(stats.free_ranges == model_free_ranges(live, base, end));
        }
    }
    for (const auto& [address, reserved] : live) {
        REQUIRE(space.release(address, reserved) == Status::ok);
    }
    REQUIRE(space.check_invariants());
    const bufalloc::Stats stats = space.stats();
    REQUIRE(stats.bytes_in_use == 0);
    REQUIRE(stats.allocations == 0);
    REQUIRE(stats.free_ranges == 1);
    REQUIRE(stats.largest_free == end - base);
}

} // namespace

TEST_CASE("FreeSpace agrees with a model of live allocations", "[free_space]") {
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
    constexpr int operations = 250'000;
#else
    constexpr int operations = 30'000;
#endif
    SECTION("1 GiB, 256-byte granules, many live") {
        run_model(std::uint64_t(1) << 40, std::uint64_t(1) << 30, 256, 1, operations, 2000);
    }
    SECTION("4 MiB, often exhausted") {
        run_model(4096, std::uint64_t(4) << 20, 64, 2, operations, 200);
    }
    SECTION("byte granules with an odd tail") {
        run_model(12345, (std::uint64_t(1) << 24) + 77, 1, 3, operations, 500);
    }
    SECTION("ending at 2^64 - 1") {
        const std::uint64_t size = (std::uint64_t(1) << 28) + 127;
        run_model(UINT64_MAX - size, size, 128, 4, operations, 300);
    }
}

TEST_CASE("FreeSpace rejects bad regions and requests", "[free_space]") {
    CHECK_THROWS_AS(FreeSpace(0, 100, 3), std::invalid_argument);
    CHECK_THROWS_AS(FreeSpace(100, 100, 64), std::invalid_argument);
    CHECK_THROWS_AS(FreeSpace(0, 0, 1), std::invalid_argument);
    CHECK_THROWS_AS(FreeSpace(UINT64_MAX - 10, 11, 1), std::invalid_argument);

    FreeSpace space(1 << 20, 1 << 20, 128);
    CHECK(space.allocate(0).status == Status::invalid_size);
    CHECK(space.allocate(64, 3).status == Status::invalid_alignment);
    CHECK(space.allocate(UINT64_MAX, 256).status == Status::invalid_size);
    CHECK(space.allocate((1 << 20) + 1).status == Status::out_of_space);

    const auto a = space.allocate(100);
    REQUIRE(a);
    CHECK(space.release(a.address, 0) == Status::invalid_size);
    CHECK(space.release(a.address + 64, 36) == Status::unknown_address); // not granule-aligned
    CHECK(space.release(0, 128) == Status::unknown_address);             // below the region
    CHECK(space.release(2 << 20, 128) == Status::unknown_address);       // past its end
    CHECK(space.release(a.address, UINT64_MAX) == Status::unknown_address);
    CHECK(space.release(a.address, 129) == Status::unknown_address);       // runs into free space
    CHECK(space.release(a.address + 128, 128) == Status::unknown_address); // free space
    CHECK(space.release(a.address, 100) == Status::ok);
    CHECK(space.release(a.address, 100) == Status::unknown_address);
    CHECK(space.check_invariants());

    // A region smaller than one granule hands out nothing.
    FreeSpace tiny(0, 100, 128);
    CHECK(tiny.allocate(1).status == Status::out_of_space);
    CHECK(tiny.stats().region_bytes == 0);
}

TEST_CASE("FreeSpace coalesces with both neighbours and keeps no per-allocation records",
          "[free_space]") {
    FreeSpace space(0, std::uint64_t(1) << 30, 128);
    const std::uint64_t empty = space.stats().bookkeeping_bytes;
    std::map<std::uint64_t, std::uint64_t> live;
    for (int i = 0; i < 100000; ++i) {
        const auto result = space.allocate(64);
        REQUIRE(result);
        live[result.address] = 64;
    }
    // Contiguous: one free range, the bookkeeping of an empty region.
    CHECK(space.stats().free_ranges == 1);
    CHECK(space.stats().bookkeeping_bytes == empty);
    CHECK(space.stats().allocations == 100000);
    // Every other one freed: 50 000 holes, then the rest fills them back into one range.
    int i = 0;
    for (const auto& [address, size] : live) {
        if (i++ % 2 == 0) {
            REQUIRE(space.release(address, size) == Status::ok);
        }
    }
    CHECK(space.stats().free_ranges == 50001);
    REQUIRE(space.check_invariants());
    i = 0;
    for (const auto& [address, size] : live) {
        if (i++ % 2 == 1) {
            REQUIRE(space.release(address, size) == Status::ok);
        }
    }
    CHECK(space.stats().free_ranges == 1);
    CHECK(space.stats().free_bytes == std::uint64_t(1) << 30);
    REQUIRE(space.check_invariants());
}

TEST_CASE("FreeSpace leaves alignment padding free", "[free_space]") {
    FreeSpace space(0, 1 << 20, 64);
    const auto a = space.allocate(64);
    const auto b = space.allocate(64, 4096);
    REQUIRE(a);
    REQUIRE(b);
    CHECK(b.address == 4096);
    CHECK(space.stats().free_ranges == 2);
    const auto c = space.allocate(4096 - 64);
    REQUIRE(c);
    CHECK(c.address == 64); // the padding, exactly
    CHECK(space.stats().free_ranges == 1);
    CHECK(space.check_invariants());
    // An aligned allocation that takes the end of a range: only its padding stays free.
    FreeSpace exact(0, 8192, 64);
    const auto d = exact.allocate(64);
    const auto f = exact.allocate(4096, 4096);
    REQUIRE(d);
    REQUIRE(f);
    CHECK(f.address == 4096);
    CHECK(exact.stats().free_ranges == 1);
    CHECK(exact.stats().largest_free == 4096 - 64);
    CHECK(exact.check_invariants());
    CHECK(exact.release(d.address, 64) == Status::ok);   // joins the range after it
    CHECK(exact.release(f.address, 4096) == Status::ok); // joins the range before it
    CHECK(exact.stats().free_ranges == 1);
    CHECK(exact.stats().largest_free == 8192);
    CHECK(exact.check_invariants());
}
