// A set of byte ranges [begin, end), kept disjoint and coalesced: which parts
// of a buffer an instance holds up to date, or which parts have content.
#pragma once

#include <cstddef>
#include <map>
#include <vector>

namespace usmcl::memory {

struct ByteRange {
    size_t begin = 0;
    size_t end = 0;
    size_t size() const { return end - begin; }
    bool empty() const { return end <= begin; }
    bool operator==(const ByteRange&) const = default;
};

class RangeSet {
public:
    RangeSet() = default;
    explicit RangeSet(ByteRange range) { add(range); }

    void add(ByteRange range);
    void remove(ByteRange range);
    void clear() { ranges_.clear(); }

    bool empty() const { return ranges_.empty(); }
    bool contains(ByteRange range) const;
    // The parts of range that are in the set, in order.
    std::vector<ByteRange> intersect(ByteRange range) const;
    // The parts of range that are not in the set, in order.
    std::vector<ByteRange> missing(ByteRange range) const;
    size_t total_bytes() const;
    size_t count() const { return ranges_.size(); }
    std::vector<ByteRange> ranges() const;

private:
    std::map<size_t, size_t> ranges_; // begin -> end
};

} // namespace usmcl::memory
