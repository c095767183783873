// partition_equally and partition_by_counts: splitting a set of processing
// units by size, in order.
#include "cpu/topology.hpp"

#include <cstdint>

namespace usmcl::cpu {

namespace {

CpuSet take(const CpuSet& pus, std::size_t first, std::size_t count) {
    const auto begin = pus.begin() + static_cast<std::ptrdiff_t>(first);
    return CpuSet(begin, begin + static_cast<std::ptrdiff_t>(count));
}

} // namespace

std::vector<CpuSet> partition_equally(const CpuSet& pus, unsigned units_per_part) {
    std::vector<CpuSet> parts;
    if (units_per_part == 0 || units_per_part > pus.size()) {
        return parts;
    }
    const std::size_t part_count = pus.size() / units_per_part;
    parts.reserve(part_count);
    for (std::size_t part = 0; part < part_count; ++part) {
        parts.push_back(take(pus, part * units_per_part, units_per_part));
    }
    return parts;
}

std::vector<CpuSet> partition_by_counts(const CpuSet& pus, std::span<const unsigned> counts) {
    std::uint64_t total = 0;
    for (unsigned count : counts) {
        if (count == 0) {
            return {};
        }
        total += count;
    }
    if (total > pus.size()) {
        return {};
    }
    std::vector<CpuSet> parts;
    parts.reserve(counts.size());
    std::size_t first = 0;
    for (unsigned count : counts) {
        parts.push_back(take(pus, first, count));
        first += count;
    }
    return parts;
}

} // namespace usmcl::cpu
