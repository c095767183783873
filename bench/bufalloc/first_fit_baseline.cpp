// FirstFitBaseline: PoCL's bufalloc algorithm, O(number of chunks) per allocate and free.
#include "first_fit_baseline.hpp"

#include <algorithm>

namespace bufalloc::bench {

FirstFitBaseline::FirstFitBaseline(std::uint64_t base, std::uint64_t size, std::size_t max_chunks,
                                   Strategy strategy, std::uint64_t alignment)
    : chunks_(max_chunks), alignment_(alignment), strategy_(strategy) {
    spare_.reserve(max_chunks);
    for (std::size_t i = max_chunks; i-- > 1;) {
        spare_.push_back(static_cast<ChunkIndex>(i));
    }
    head_ = last_ = 0;
    chunks_[0] = Chunk{base, size, false, nil, nil};
}

std::uint64_t FirstFitBaseline::aligned(std::uint64_t address, std::uint64_t alignment) {
    return (address + alignment - 1) & ~(alignment - 1);
}

bool FirstFitBaseline::fits(const Chunk& chunk, std::uint64_t size, std::uint64_t alignment) {
    std::uint64_t start = aligned(chunk.start, alignment);
    return start + size <= chunk.start + chunk.size;
}

std::optional<std::uint64_t> FirstFitBaseline::allocate(std::uint64_t size,
                                                        std::uint64_t alignment) {
    alignment = std::max(alignment, alignment_);
    bool append_first = strategy_ == Strategy::wasteful;
    std::optional<std::uint64_t> address =
        append_first ? append(size, alignment) : reuse(size, alignment);
    if (!address) {
        address = append_first ? reuse(size, alignment) : append(size, alignment);
    }
    return address;
}

// Carves a new chunk from the front of the last chunk.
std::optional<std::uint64_t> FirstFitBaseline::append(std::uint64_t size, std::uint64_t alignment) {
    Chunk& last = chunks_[last_];
    if (!fits(last, size, alignment) || spare_.empty()) {
        return std::nullopt;
    }
    ChunkIndex index = spare_.back();
    spare_.pop_back();
    std::uint64_t end = last.start + last.size;
    Chunk& chunk = chunks_[index];
    std::uint64_t start = aligned(last.start, alignment);
    chunk = Chunk{start, size, true, last.prev, last_, start};
    if (last.prev != nil) {
        chunks_[last.prev].next = index;
    } else {
        head_ = index;
    }
    last.prev = index;
    last.start = chunk.start + size;
    last.size = end - last.start;
    return chunk.start;
}

// First fit over the list: the whole chunk is taken, or with tight_split only what is needed.
std::optional<std::uint64_t> FirstFitBaseline::reuse(std::uint64_t size, std::uint64_t alignment) {
    for (ChunkIndex index = head_; index != nil; index = chunks_[index].next) {
        Chunk& chunk = chunks_[index];
        if (index != last_ && !chunk.allocated && fits(chunk, size, alignment)) {
            chunk.allocated = true;
            chunk.address = aligned(chunk.start, alignment);
            if (strategy_ == Strategy::tight_split) {
                split(index, chunk.address + size - chunk.start);
            }
            return chunk.address;
        }
    }
    return std::nullopt;
}

// Moves everything after the first `keep` bytes of chunk `index` into a new free chunk.
void FirstFitBaseline::split(ChunkIndex index, std::uint64_t keep) {
    Chunk& chunk = chunks_[index];
    if (chunk.size - keep < alignment_ || spare_.empty()) {
        return;
    }
    ChunkIndex rest = spare_.back();
    spare_.pop_back();
    chunks_[rest] = Chunk{chunk.start + keep, chunk.size - keep, false, index, chunk.next};
    chunks_[chunk.next].prev = rest; // a reused chunk is never the last one
    chunk.next = rest;
    chunk.size = keep;
}

bool FirstFitBaseline::free(std::uint64_t address) {
    for (ChunkIndex index = head_; index != nil; index = chunks_[index].next) {
        Chunk& chunk = chunks_[index];
        if (chunk.allocated && chunk.address == address) {
            chunk.allocated = false;
            ChunkIndex merged = coalesce(chunk.prev, index);
            coalesce(merged, chunks_[merged].next);
            return true;
        }
    }
    return false;
}

// Merges `second` into `first` when both are free; returns the chunk that now holds `second`.
FirstFitBaseline::ChunkIndex FirstFitBaseline::coalesce(ChunkIndex first, ChunkIndex second) {
    if (first == nil || second == nil || chunks_[first].allocated || chunks_[second].allocated) {
        return second;
    }
    Chunk& a = chunks_[first];
    const Chunk& b = chunks_[second];
    a.size = b.start + b.size - a.start;
    unlink(second);
    if (last_ == second) {
        last_ = first;
    }
    spare_.push_back(second);
    return first;
}

void FirstFitBaseline::unlink(ChunkIndex index) {
    const Chunk& chunk = chunks_[index];
    if (chunk.prev != nil) {
        chunks_[chunk.prev].next = chunk.next;
    } else {
        head_ = chunk.next;
    }
    if (chunk.next != nil) {
        chunks_[chunk.next].prev = chunk.prev;
    }
}

FirstFitBaseline::Stats FirstFitBaseline::stats() const {
    Stats stats;
    for (ChunkIndex index = head_; index != nil; index = chunks_[index].next) {
        const Chunk& chunk = chunks_[index];
        if (!chunk.allocated && chunk.size != 0) {
            stats.free_bytes += chunk.size;
            stats.largest_free = std::max(stats.largest_free, chunk.size);
            ++stats.free_ranges;
        }
    }
    return stats;
}

} // namespace bufalloc::bench
