// One interface over the three allocators compared: bufalloc::Region, the PoCL-style baseline and
// glibc malloc. allocate() returns 0 on failure; the address ranges start well above 0.
#pragma once

#include "bufalloc/region.hpp"
#include "first_fit_baseline.hpp"

#include <cstdint>
#include <cstdlib>
#include <vector>

namespace bufalloc::bench {

inline constexpr std::uint64_t region_base = std::uint64_t{1} << 48;
inline constexpr std::uint64_t region_alignment = 64; // PoCL's region alignment

struct FreeSpace {
    std::uint64_t free_bytes = 0;
    std::uint64_t largest_free = 0;
};

class BufallocAdapter {
public:
    static constexpr const char* name = "bufalloc";

    BufallocAdapter(std::uint64_t region_bytes, std::size_t /*live*/)
        : region_(region_base, region_bytes, region_alignment) {}

    std::uint64_t allocate(std::uint64_t size) { return region_.allocate(size).address; }
    void free(std::uint64_t address) { (void)region_.free(address); }
    void release_all(const std::vector<std::uint64_t>& /*addresses*/) {}

    [[nodiscard]] FreeSpace free_space() const {
        Stats stats = region_.stats();
        return {stats.free_bytes, stats.largest_free};
    }

private:
    Region region_;
};

template <FirstFitBaseline::Strategy strategy>
class BaselineAdapter {
public:
    static constexpr const char* name =
        strategy == FirstFitBaseline::Strategy::wasteful ? "baseline"
        : strategy == FirstFitBaseline::Strategy::tight  ? "baseline-tight"
                                                         : "first-fit-split";

    // Chunk records: twice the live allocations plus slack, where PoCL has 1024 per region.
    BaselineAdapter(std::uint64_t region_bytes, std::size_t live)
        : baseline_(region_base, region_bytes, 2 * live + 4096, strategy, region_alignment) {}

    std::uint64_t allocate(std::uint64_t size) { return baseline_.allocate(size).value_or(0); }
    void free(std::uint64_t address) { (void)baseline_.free(address); }
    void release_all(const std::vector<std::uint64_t>& /*addresses*/) {}

    [[nodiscard]] FreeSpace free_space() const {
        auto stats = baseline_.stats();
        return {stats.free_bytes, stats.largest_free};
    }

private:
    FirstFitBaseline baseline_;
};

class MallocAdapter {
public:
    static constexpr const char* name = "malloc";

    MallocAdapter(std::uint64_t /*region_bytes*/, std::size_t /*live*/) {}

    std::uint64_t allocate(std::uint64_t size) {
        return reinterpret_cast<std::uintptr_t>(std::malloc(size));
    }
    void free(std::uint64_t address) {
        std::free(reinterpret_cast<void*>(static_cast<std::uintptr_t>(address)));
    }
    void release_all(const std::vector<std::uint64_t>& addresses) {
        for (std::uint64_t address : addresses) {
            free(address);
        }
    }
};

} // namespace bufalloc::bench
