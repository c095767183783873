// runtime::fill_pattern (one thread's part of a fill) against a byte model:
// every pattern size (1 … 128), patterns of one repeated byte and of
// distinct bytes, every start within 128 bytes of a 64-byte boundary that
// the pattern size allows (so every head before the aligned stores), lengths
// from 0 to a few lines plus odd tails and past the distance of the string
// copy, every kind of stores, and the bytes around the range left alone.
#include "runtime/fill_pattern.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace {

using usmcl::runtime::FillStores;

constexpr size_t guard = 192;
constexpr FillStores all_stores[] = {FillStores::cached, FillStores::lines, FillStores::streaming};
constexpr unsigned char untouched = 0xee;

// The first byte of memory that differs from the model, or -1.
long first_wrong(const std::vector<unsigned char>& memory, size_t start, size_t size,
                 const unsigned char* pattern, size_t pattern_size) {
    for (size_t i = 0; i < memory.size(); ++i) {
        const bool inside = i >= start && i < start + size;
        const unsigned char expected = inside ? pattern[(i - start) % pattern_size] : untouched;
        if (memory[i] != expected)
            return static_cast<long>(i);
    }
    return -1;
}

// Lengths in patterns: none, one, around one and two 128-byte lines and a
// 64-byte store, and a longer run with an odd tail.
std::vector<size_t> lengths_for(size_t pattern_size) {
    std::vector<size_t> lengths;
    for (size_t bytes : {size_t(0), size_t(1), size_t(63), size_t(64), size_t(65), size_t(127),
                         size_t(128), size_t(129), size_t(255), size_t(256), size_t(300),
                         size_t(4096 + 200), size_t(20000), size_t(32768 + 128), size_t(100000)}) {
        const size_t patterns = (bytes + pattern_size - 1) / pattern_size;
        if (lengths.empty() || lengths.back() != patterns * pattern_size)
            lengths.push_back(patterns * pattern_size);
    }
    return lengths;
}

void check_fills(const unsigned char* pattern, size_t pattern_size, FillStores stores) {
    for (size_t length : lengths_for(pattern_size)) {
        std::vector<unsigned char> memory(length + 2 * guard + 128);
        const auto base = reinterpret_cast<std::uintptr_t>(memory.data());
        const size_t aligned = (64 - base % 64) % 64 + guard;
        for (size_t shift = 0; shift < 128; shift += pattern_size) {
            std::fill(memory.begin(), memory.end(), untouched);
            const size_t start = aligned + shift;
            usmcl::runtime::fill_pattern(memory.data() + start, pattern, pattern_size, length,
                                         stores);
            INFO("pattern " << pattern_size << ", length " << length << ", shift " << shift
                            << ", stores " << static_cast<int>(stores));
            REQUIRE(first_wrong(memory, start, length, pattern, pattern_size) == -1);
        }
    }
}

} // namespace

TEST_CASE("fill_pattern writes every pattern size from any start", "[runtime]") {
    unsigned char distinct[128];
    for (size_t i = 0; i < sizeof distinct; ++i)
        distinct[i] = static_cast<unsigned char>(i * 7 + 1);
    for (size_t pattern_size = 1; pattern_size <= 128; pattern_size *= 2)
        for (FillStores stores : all_stores)
            check_fills(distinct, pattern_size, stores);
}

TEST_CASE("fill_pattern of one repeated byte, and of patterns that differ late", "[runtime]") {
    unsigned char same[128];
    std::fill(std::begin(same), std::end(same), static_cast<unsigned char>(0x5a));
    for (size_t pattern_size = 1; pattern_size <= 128; pattern_size *= 2) {
        for (FillStores stores : all_stores) {
            check_fills(same, pattern_size, stores);
            // Alike but for the last byte: not a one-byte fill.
            unsigned char late[128];
            std::fill(std::begin(late), std::end(late), static_cast<unsigned char>(0x5a));
            late[pattern_size - 1] = 0x11;
            check_fills(late, pattern_size, stores);
        }
    }
}
