// The baseline: a region allocator that follows PoCL's bufalloc algorithm. Chunks form one
// address-ordered doubly linked list drawn from a fixed array of chunk records; the last chunk
// is the free space at the end of the region. "Wasteful" (PoCL's default) first appends at the
// end, then reuses the first free chunk that fits; "tight" does it the other way round. A reused
// chunk is taken whole, not split, as PoCL does. free() searches the list for the address and
// merges the chunk with free neighbours. Every allocation starts at a multiple of the region
// alignment. "Tight split" is not PoCL's: the classic address-ordered first fit, which splits
// reused chunks, kept as a stronger reference for fragmentation.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace bufalloc::bench {

class FirstFitBaseline {
public:
    enum class Strategy { wasteful, tight, tight_split };

    struct Stats {
        std::uint64_t free_bytes = 0;
        std::uint64_t largest_free = 0;
        std::uint64_t free_ranges = 0;
    };

    // PoCL fixes max_chunks at 1024 per region; the benchmark passes enough for its live counts.
    FirstFitBaseline(std::uint64_t base, std::uint64_t size, std::size_t max_chunks,
                     Strategy strategy = Strategy::wasteful, std::uint64_t alignment = 64);

    // alignment 0 means the region's; a larger power of two applies to this allocation only (the
    // trace replays need it for USM allocations; PoCL aligns to the region's alignment only).
    [[nodiscard]] std::optional<std::uint64_t> allocate(std::uint64_t size,
                                                        std::uint64_t alignment = 0);
    bool free(std::uint64_t address);
    [[nodiscard]] Stats stats() const; // walks the list

private:
    using ChunkIndex = std::uint32_t;
    static constexpr ChunkIndex nil = UINT32_MAX;

    struct Chunk {
        std::uint64_t start = 0;
        std::uint64_t size = 0;
        bool allocated = false;
        ChunkIndex prev = nil;
        ChunkIndex next = nil;
        std::uint64_t address = 0; // handed out: start aligned to the allocation's alignment
    };

    [[nodiscard]] static std::uint64_t aligned(std::uint64_t address, std::uint64_t alignment);
    [[nodiscard]] static bool fits(const Chunk& chunk, std::uint64_t size, std::uint64_t alignment);
    std::optional<std::uint64_t> append(std::uint64_t size, std::uint64_t alignment);
    std::optional<std::uint64_t> reuse(std::uint64_t size, std::uint64_t alignment);
    void split(ChunkIndex index, std::uint64_t keep);
    ChunkIndex coalesce(ChunkIndex first, ChunkIndex second);
    void unlink(ChunkIndex index);

    std::vector<Chunk> chunks_;
    std::vector<ChunkIndex> spare_; // unused records
    ChunkIndex head_ = nil;
    ChunkIndex last_ = nil; // the free space at the end of the region
    std::uint64_t alignment_;
    Strategy strategy_;
};

} // namespace bufalloc::bench
