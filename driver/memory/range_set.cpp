#include "memory/range_set.hpp"

#include <algorithm>

namespace usmcl::memory {

void RangeSet::add(ByteRange range) {
    if (range.empty())
        return;
    size_t begin = range.begin;
    size_t end = range.end;
    // The first range that could touch [begin, end): the one before begin.
    auto it = ranges_.upper_bound(begin);
    if (it != ranges_.begin() && std::prev(it)->second >= begin)
        --it;
    while (it != ranges_.end() && it->first <= end) {
        begin = std::min(begin, it->first);
        end = std::max(end, it->second);
        it = ranges_.erase(it);
    }
    ranges_.emplace(begin, end);
}

void RangeSet::remove(ByteRange range) {
    if (range.empty())
        return;
    auto it = ranges_.upper_bound(range.begin);
    if (it != ranges_.begin() && std::prev(it)->second > range.begin)
        --it;
    while (it != ranges_.end() && it->first < range.end) {
        const size_t begin = it->first;
        const size_t end = it->second;
        it = ranges_.erase(it);
        if (begin < range.begin)
            ranges_.emplace(begin, range.begin);
        if (end > range.end) {
            ranges_.emplace(range.end, end);
            break;
        }
    }
}

bool RangeSet::contains(ByteRange range) const {
    if (range.empty())
        return true;
    auto it = ranges_.upper_bound(range.begin);
    if (it == ranges_.begin())
        return false;
    --it;
    return it->first <= range.begin && it->second >= range.end;
}

std::vector<ByteRange> RangeSet::intersect(ByteRange range) const {
    std::vector<ByteRange> parts;
    if (range.empty())
        return parts;
    auto it = ranges_.upper_bound(range.begin);
    if (it != ranges_.begin() && std::prev(it)->second > range.begin)
        --it;
    for (; it != ranges_.end() && it->first < range.end; ++it) {
        const ByteRange part{std::max(it->first, range.begin), std::min(it->second, range.end)};
        if (!part.empty())
            parts.push_back(part);
    }
    return parts;
}

std::vector<ByteRange> RangeSet::missing(ByteRange range) const {
    std::vector<ByteRange> gaps;
    size_t cursor = range.begin;
    for (const ByteRange& present : intersect(range)) {
        if (present.begin > cursor)
            gaps.push_back({cursor, present.begin});
        cursor = present.end;
    }
    if (cursor < range.end)
        gaps.push_back({cursor, range.end});
    return gaps;
}

size_t RangeSet::total_bytes() const {
    size_t total = 0;
    for (const auto& [begin, end] : ranges_)
        total += end - begin;
    return total;
}

std::vector<ByteRange> RangeSet::ranges() const {
    std::vector<ByteRange> list;
    list.reserve(ranges_.size());
    for (const auto& [begin, end] : ranges_)
        list.push_back({begin, end});
    return list;
}

} // namespace usmcl::memory
