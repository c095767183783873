// SharedRegion under concurrent allocate/free/lookup/stats: every reserved granule is claimed in
// a shadow ownership table, so two threads ever receiving overlapping ranges is caught.
#include "bufalloc/shared_region.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstdint>
#include <memory>
#include <random>
#include <thread>
#include <vector>

using bufalloc::Allocation;
using bufalloc::SharedRegion;
using bufalloc::Status;

namespace {

constexpr std::uint64_t granule = 4096;
constexpr std::uint64_t granules = 4096;
constexpr std::uint64_t base = 0x7000'0000'0000;

struct Shadow {
    std::unique_ptr<std::atomic<std::uint32_t>[]> owner {
        new std::atomic<std::uint32_t>[ granules ]
    };

    Shadow() {
        for (std::uint64_t i = 0; i < granules; ++i) {
            owner[i].store(0);
        }
    }

    // Claims every granule of [address, address + bytes) for `token`; false on any overlap.
    bool claim(std::uint64_t address, std::uint64_t bytes, std::uint32_t token) {
        bool ok = true;
        for (std::uint64_t g = (address - base) / granule; g < (address - base + bytes) / granule;
             ++g) {
            std::uint32_t expected = 0;
            ok = owner[g].compare_exchange_strong(expected, token) && ok;
        }
        return ok;
    }

    void release(std::uint64_t address, std::uint64_t bytes) {
        for (std::uint64_t g = (address - base) / granule; g < (address - base + bytes) / granule;
             ++g) {
            owner[g].store(0);
        }
    }
};

struct Held {
    std::uint64_t address;
    std::uint64_t size;
};

void worker(SharedRegion& region, Shadow& shadow, unsigned id, unsigned ops,
            std::atomic<unsigned>& errors) {
    std::mt19937_64 rng(1000 + id);
    std::vector<Held> held;
    for (unsigned op = 0; op < ops; ++op) {
        unsigned pick = static_cast<unsigned>(rng() % 10);
        if (pick < 5 || held.empty()) {
            std::uint64_t size = (1 + rng() % 16) * granule - rng() % granule;
            std::uint64_t alignment = granule << (rng() % 4);
            auto result = region.allocate(size, alignment);
            if (result.status == Status::out_of_space) {
                continue;
            }
            std::uint64_t reserved = (size + granule - 1) / granule * granule;
            if (!result || result.address % alignment != 0 ||
                !shadow.claim(result.address, reserved, id + 1)) {
                ++errors;
                continue;
            }
            held.push_back({result.address, size});
        } else if (pick < 8) {
            std::size_t slot = rng() % held.size();
            Held h = held[slot];
            held[slot] = held.back();
            held.pop_back();
            shadow.release(h.address, (h.size + granule - 1) / granule * granule);
            if (region.free(h.address) != Status::ok) {
                ++errors;
            }
        } else if (pick < 9) {
            const Held& h = held[rng() % held.size()];
            if (region.lookup(h.address + rng() % h.size) != Allocation{h.address, h.size}) {
                ++errors;
            }
        } else {
            auto stats = region.stats();
            if (stats.bytes_in_use + stats.free_bytes != stats.region_bytes) {
                ++errors;
            }
        }
    }
    for (const Held& h : held) {
        shadow.release(h.address, (h.size + granule - 1) / granule * granule);
        if (region.free(h.address) != Status::ok) {
            ++errors;
        }
    }
}

} // namespace

TEST_CASE("concurrent threads never receive overlapping ranges", "[bufalloc][shared]") {
    SharedRegion region(base, granules * granule, granule);
    Shadow shadow;
    std::atomic<unsigned> errors{0};
    constexpr unsigned threads = 4;
    constexpr unsigned ops = 50000;
    std::vector<std::thread> pool;
    for (unsigned id = 0; id < threads; ++id) {
        pool.emplace_back(worker, std::ref(region), std::ref(shadow), id, ops, std::ref(errors));
    }
    for (auto& thread : pool) {
        thread.join();
    }
    REQUIRE(errors.load() == 0);
    auto stats = region.stats();
    REQUIRE(stats.allocations == 0);
    REQUIRE(stats.free_ranges == 1);
    REQUIRE(region.with_lock([](const bufalloc::Region& r) { return r.check_invariants(); }));
}

TEST_CASE("with_lock runs several operations as one step", "[bufalloc][shared]") {
    SharedRegion region(0, 1 << 20, 64);
    auto [first, second] = region.with_lock([](bufalloc::Region& r) {
        return std::pair{r.allocate(64).address, r.allocate(64).address};
    });
    REQUIRE(second == first + 64);
    REQUIRE(region.free(first) == Status::ok);
    REQUIRE(region.free(second) == Status::ok);
    REQUIRE(region.grow(1 << 20) == Status::ok);
    REQUIRE(region.stats().region_bytes == 2 << 20);
}
