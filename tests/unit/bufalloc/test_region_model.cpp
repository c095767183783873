// Randomized model test: Region against a std::map of live allocations, over several region
// shapes. Frees of repeated sizes go to the Region's cache of freed blocks, so every check also
// covers cached blocks; statistics are compared before and after flushing the cache.
#include "bufalloc/region.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

using bufalloc::Allocation;
using bufalloc::Region;
using bufalloc::Status;

// Millions of checks: Catch2's REQUIRE would dominate the run time, so model checks reach Catch2
// only when they fail, naming the operation (reproducible from the shape's seed).
#define MODEL_CHECK(...)                                                                           \
    do {                                                                                           \
        if (!(__VA_ARGS__)) {                                                                      \
            FAIL("operation " << op_ << ": " #__VA_ARGS__);                                        \
        }                                                                                          \
    } while (false)

namespace {

struct Shape {
    const char* name;
    std::uint64_t base;
    std::uint64_t size;
    std::uint64_t min_alignment;
    std::size_t live_target; // the workload hovers around this many live allocations
    unsigned weight;         // share of the operations
};

// Optimized builds run 4 million operations, unoptimized or sanitized ones 600 000 (about two
// CPU seconds under ASan+UBSan at -O0); BUFALLOC_MODEL_OPS overrides both.
std::uint64_t total_ops() {
    if (const char* text = std::getenv("BUFALLOC_MODEL_OPS")) {
        return std::strtoull(text, nullptr, 10);
    }
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
    return 4'000'000;
#else
    return 600'000;
#endif
}

std::uint64_t round_down(std::uint64_t value, std::uint64_t alignment) {
    return value & ~(alignment - 1);
}

std::uint64_t round_up(std::uint64_t value, std::uint64_t alignment) {
    return round_down(value + alignment - 1, alignment);
}

struct Live {
    std::uint64_t requested;
    std::uint64_t reserved;
};

// The reference: live allocations by start address, plus the same addresses in
// a vector for uniform random picks.
class ModelTest {
public:
    ModelTest(const Shape& shape, std::uint64_t ops, std::uint64_t seed)
        : shape_(shape), ops_(ops), rng_(seed),
          region_(shape.base, shape.size, shape.min_alignment), size_(shape.size) {}

    void run() {
        for (op_ = 0; op_ < ops_; ++op_) {
            step();
            if (op_ % 4096 == 0) {
                check_everything();
            }
        }
        check_everything();
        MODEL_CHECK(saw_cached_);
        drain();
    }

private:
    std::uint64_t end() const { return shape_.base + round_down(size_, shape_.min_alignment); }

    std::uint64_t uniform(std::uint64_t low, std::uint64_t high) { // inclusive
        return low + rng_() % (high - low + 1);
    }

    // Log-uniform in [1, max].
    std::uint64_t log_uniform(std::uint64_t max) {
        unsigned bits = static_cast<unsigned>(std::bit_width(max));
        std::uint64_t top = std::uint64_t{1} << uniform(0, bits - 1);
        std::uint64_t value = top + (rng_() & (top - 1));
        return std::min(value, max);
    }

    std::uint64_t random_size() {
        std::uint64_t region = std::max<std::uint64_t>(shape_.size, 4096);
        unsigned pick = static_cast<unsigned>(rng_() % 100);
        if (pick < 50) {
            return uniform(1, 512);
        }
        if (pick < 85) {
            return log_uniform(region / 256);
        }
        return log_uniform(region / 8);
    }

    std::uint64_t random_alignment() {
        unsigned pick = static_cast<unsigned>(rng_() % 100);
        unsigned region_log = static_cast<unsigned>(std::bit_width(shape_.size));
        if (pick < 60) {
            return 0;
        }
        if (pick < 85) {
            return std::uint64_t{1} << uniform(0, 12);
        }
        if (pick < 97) {
            return std::uint64_t{1} << uniform(0, 24);
        }
        return std::uint64_t{1} << std::min<std::uint64_t>(uniform(0, region_log + 1), 63);
    }

    void step() {
        unsigned pick = static_cast<unsigned>(rng_() % 1000);
        unsigned allocate_share = addresses_.size() < shape_.live_target ? 500 : 400;
        if (pick < allocate_share || addresses_.empty()) {
            allocate();
        } else if (pick < 850) {
            free_random();
        } else if (pick < 940) {
            lookup_live();
        } else if (pick < 970) {
            lookup(uniform(shape_.base - std::min<std::uint64_t>(shape_.base, 256),
                           std::min<std::uint64_t>(end(), UINT64_MAX - 256) + 256));
        } else if (pick < 999) {
            bad_free();
        } else {
            grow();
        }
    }

    void allocate() {
        std::uint64_t size = random_size();
        std::uint64_t alignment = random_alignment();
        auto result = region_.allocate(size, alignment);
        std::uint64_t effective = std::max(alignment, shape_.min_alignment);
        if (result.status == Status::out_of_space) {
            MODEL_CHECK(result.address == 0);
            if (++failures_ % 8 == 1) {
                require_no_gap_fits(round_up(size, shape_.min_alignment), effective);
            }
            return;
        }
        MODEL_CHECK(result.status == Status::ok);
        std::uint64_t address = result.address;
        std::uint64_t reserved = round_up(size, shape_.min_alignment);
        MODEL_CHECK(address >= shape_.base);
        MODEL_CHECK(address % effective == 0);
        MODEL_CHECK(reserved <= end() - address);
        auto next = live_.lower_bound(address);
        if (next != live_.end()) {
            MODEL_CHECK(address + reserved <= next->first);
        }
        if (next != live_.begin()) {
            auto prev = std::prev(next);
            MODEL_CHECK(prev->first + prev->second.reserved <= address);
        }
        live_.emplace_hint(next, address, Live{size, reserved});
        addresses_.push_back(address);
        in_use_ += reserved;
        requested_ += size;
    }

    // After out_of_space: no gap between live allocations holds an aligned block
    // of `reserved`.
    void require_no_gap_fits(std::uint64_t reserved, std::uint64_t alignment) {
        std::uint64_t gap_start = shape_.base;
        auto gap_fits = [&](std::uint64_t gap_end) {
            std::uint64_t pad = (0 - gap_start) & (alignment - 1);
            return pad <= gap_end - gap_start && gap_end - gap_start - pad >= reserved;
        };
        for (const auto& [address, live] : live_) {
            MODEL_CHECK(!gap_fits(address));
            gap_start = address + live.reserved;
        }
        MODEL_CHECK(!gap_fits(end()));
    }

    void free_random() {
        std::size_t slot = rng_() % addresses_.size();
        std::uint64_t address = addresses_[slot];
        addresses_[slot] = addresses_.back();
        addresses_.pop_back();
        auto it = live_.find(address);
        in_use_ -= it->second.reserved;
        requested_ -= it->second.requested;
        live_.erase(it);
        MODEL_CHECK(region_.free(address) == Status::ok);
        MODEL_CHECK(region_.free(address) == Status::unknown_address);
    }

    void lookup_live() {
        std::uint64_t address = addresses_[rng_() % addresses_.size()];
        const Live& live = live_.at(address);
        MODEL_CHECK(region_.lookup(address) == Allocation{address, live.requested});
        MODEL_CHECK(region_.lookup(address + live.requested - 1) ==
                    Allocation{address, live.requested});
        lookup(address + rng_() % live.requested);
        lookup(address + live.requested);
        lookup(address - 1);
    }

    void lookup(std::uint64_t address) {
        std::optional<Allocation> expected;
        auto it = live_.upper_bound(address);
        if (it != live_.begin()) {
            --it;
            if (address - it->first < it->second.requested) {
                expected = Allocation{it->first, it->second.requested};
            }
        }
        MODEL_CHECK(region_.lookup(address) == expected);
    }

    void bad_free() {
        std::uint64_t address = addresses_.empty()
                                    ? shape_.base
                                    : addresses_[rng_() % addresses_.size()] + uniform(1, 4096);
        if (live_.count(address) != 0) {
            return; // a valid start after all; free_random() covers those
        }
        MODEL_CHECK(region_.free(address) == Status::unknown_address);
    }

    void grow() {
        std::uint64_t bytes = uniform(0, shape_.size / 16);
        bool fits = bytes <= UINT64_MAX - (shape_.base + size_);
        MODEL_CHECK(region_.grow(bytes) == (fits ? Status::ok : Status::invalid_size));
        if (fits) {
            size_ += bytes;
        }
    }

    void check_everything() {
        MODEL_CHECK(region_.check_invariants());
        auto stats = region_.stats();
        MODEL_CHECK(stats.allocations == live_.size());
        MODEL_CHECK(stats.bytes_in_use == in_use_);
        MODEL_CHECK(stats.bytes_requested == requested_);
        MODEL_CHECK(stats.region_bytes == end() - shape_.base);
        MODEL_CHECK(stats.free_bytes == stats.region_bytes - in_use_);
        MODEL_CHECK(stats.largest_free <= stats.free_bytes);
        MODEL_CHECK(region_.size() == size_);
        // Cached blocks count as free and coalesced: a flush changes no figure.
        MODEL_CHECK(stats.cached_bytes <= stats.region_bytes / 64);
        saw_cached_ = saw_cached_ || stats.cached_bytes != 0;
        if ((op_ / 4096) % 2 == 1) {
            region_.flush_cache();
            auto flushed = region_.stats();
            MODEL_CHECK(flushed.cached_bytes == 0);
            MODEL_CHECK(flushed.region_bytes == stats.region_bytes);
            MODEL_CHECK(flushed.bytes_in_use == stats.bytes_in_use);
            MODEL_CHECK(flushed.bytes_requested == stats.bytes_requested);
            MODEL_CHECK(flushed.free_bytes == stats.free_bytes);
            MODEL_CHECK(flushed.largest_free == stats.largest_free);
            MODEL_CHECK(flushed.free_ranges == stats.free_ranges);
            MODEL_CHECK(flushed.allocations == stats.allocations);
            MODEL_CHECK(flushed.fragmentation == stats.fragmentation);
            MODEL_CHECK(region_.check_invariants());
        }
    }

    void drain() {
        for (std::uint64_t address : addresses_) {
            MODEL_CHECK(region_.free(address) == Status::ok);
        }
        MODEL_CHECK(region_.check_invariants());
        auto stats = region_.stats();
        MODEL_CHECK(stats.allocations == 0);
        MODEL_CHECK(stats.bytes_in_use == 0);
        MODEL_CHECK(stats.free_ranges == (stats.region_bytes != 0 ? 1U : 0U));
        MODEL_CHECK(stats.largest_free == stats.region_bytes);
        MODEL_CHECK(stats.fragmentation == 0.0);
        region_.flush_cache();
        MODEL_CHECK(region_.check_invariants());
        MODEL_CHECK(region_.stats().free_ranges == (stats.region_bytes != 0 ? 1U : 0U));
    }

    Shape shape_;
    std::uint64_t ops_;
    std::uint64_t op_ = 0;
    std::mt19937_64 rng_;
    Region region_;
    std::uint64_t size_;
    std::map<std::uint64_t, Live> live_;
    std::vector<std::uint64_t> addresses_;
    std::uint64_t in_use_ = 0;
    std::uint64_t requested_ = 0;
    std::uint64_t failures_ = 0;
    bool saw_cached_ = false;
};

constexpr std::uint64_t gib = std::uint64_t{1} << 30;

const Shape shapes[] = {
    {"1 GiB, 256-byte granules", 0x10000000, gib, 256, 400, 3},
    {"1 TiB + odd tail, byte granules", 0, (gib << 10) + 12345, 1, 2000, 3},
    {"top of the address space", UINT64_MAX - (std::uint64_t{1} << 36) + 1,
     (std::uint64_t{1} << 36) - 1, 64, 300, 2},
    {"4 MiB, often exhausted", 4096, 4 << 20, 64, 1000, 2},
};

} // namespace

TEST_CASE("random operations agree with a reference model", "[bufalloc][region][model]") {
    std::uint64_t ops = total_ops();
    unsigned weights = 0;
    for (const Shape& shape : shapes) {
        weights += shape.weight;
    }
    std::uint64_t seed = 0x5eed;
    for (const Shape& shape : shapes) {
        std::uint64_t shape_ops = ops * shape.weight / weights;
        INFO("shape: " << shape.name << ", operations: " << shape_ops << ", seed: " << seed);
        ModelTest(shape, shape_ops, seed).run();
        ++seed;
    }
}
