// runtime::parallel_fill and runtime::parallel_copy against a byte model:
// every pattern size (1 … 128), sizes around the line (128 B), split
// (8 MiB) and streaming (32 MiB) thresholds, starts aligned to 16 bytes and
// to the pattern size only, and the bytes around the range left alone; one
// thread's streaming copy (runtime::stream_copy) from and to every
// alignment.
// Splits start at 1 MiB, in chunks of 128 KiB … 2 MiB.
#include "runtime/stream_copy.hpp"
#include "runtime/thread_pool.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace {

using usmcl::runtime::ThreadPool;

constexpr size_t guard = 256;

// The first byte that differs from the model, or -1.
long first_wrong(const std::vector<unsigned char>& memory, size_t start, size_t size,
                 const unsigned char* pattern, size_t pattern_size) {
    for (size_t i = 0; i < memory.size(); ++i) {
        const bool inside = i >= start && i < start + size;
        const unsigned char expected = inside ? pattern[(i - start) % pattern_size] : 0xee;
        if (memory[i] != expected)
            return static_cast<long>(i);
    }
    return -1;
}

} // namespace

TEST_CASE("parallel_fill writes the pattern and nothing else", "[runtime]") {
    ThreadPool pool(2, {});
    unsigned char pattern[128];
    for (size_t i = 0; i < sizeof pattern; ++i)
        pattern[i] = static_cast<unsigned char>(i * 7 + 1);
    const size_t sizes_in_patterns[] = {0, 1, 2, 3, 31, 33, 1000};
    const size_t large_sizes[] = {(1u << 20) + 640, (8u << 20) + 384, (32u << 20) + 4096 + 128};
    for (size_t pattern_size = 1; pattern_size <= 128; pattern_size *= 2) {
        std::vector<size_t> sizes;
        for (size_t count : sizes_in_patterns)
            sizes.push_back(count * pattern_size);
        for (size_t size : large_sizes)
            sizes.push_back(size / pattern_size * pattern_size + pattern_size);
        for (size_t size : sizes) {
            // A start 16-byte aligned, and one aligned to the pattern only.
            for (size_t shift : {size_t(0), pattern_size < 16 ? pattern_size : size_t(0)}) {
                std::vector<unsigned char> memory(size + 2 * guard + 128, 0xee);
                auto base = reinterpret_cast<std::uintptr_t>(memory.data());
                const size_t start = (128 - base % 128) % 128 + guard + shift;
                usmcl::runtime::parallel_fill(pool, memory.data() + start, pattern, pattern_size,
                                              size);
                INFO("pattern " << pattern_size << ", size " << size << ", shift " << shift);
                CHECK(first_wrong(memory, start, size, pattern, pattern_size) == -1);
            }
        }
    }
}

TEST_CASE("parallel_copy copies exactly the range", "[runtime]") {
    ThreadPool pool(2, {});
    for (size_t size :
         {size_t(0), size_t(1), size_t(4097), size_t(1u << 20), size_t(1u << 20) + 7,
          size_t(8u << 20) + 5, size_t(20u << 20) + 3, size_t(32u << 20) + 4096 + 77}) {
        std::vector<unsigned char> source(size + 16);
        for (size_t i = 0; i < source.size(); ++i)
            source[i] = static_cast<unsigned char>(i * 13 + 5);
        std::vector<unsigned char> target(size + 2 * guard, 0xee);
        usmcl::runtime::parallel_copy(pool, target.data() + guard, source.data() + 3, size);
        INFO("size " << size);
        bool right = true;
        for (size_t i = 0; i < target.size() && right; ++i) {
            const bool inside = i >= guard && i < guard + size;
            right = target[i] == (inside ? source[i - guard + 3] : 0xee);
        }
        CHECK(right);
    }
}

TEST_CASE("stream_copy copies exactly, from and to any alignment", "[runtime]") {
    std::vector<unsigned char> source(4096);
    for (size_t i = 0; i < source.size(); ++i)
        source[i] = static_cast<unsigned char>(i * 7 + 1);
    for (size_t out_offset = 0; out_offset < 64; ++out_offset)
        for (size_t in_offset : {size_t(0), size_t(1), size_t(32), size_t(63)})
            for (size_t size : {size_t(0), size_t(1), size_t(63), size_t(64), size_t(255),
                                size_t(256), size_t(257), size_t(1000), size_t(3000)}) {
                alignas(64) unsigned char target[3200];
                std::memset(target, 0xee, sizeof target);
                usmcl::runtime::stream_copy(target + out_offset, source.data() + in_offset, size);
                bool right = true;
                for (size_t i = 0; i < sizeof target && right; ++i) {
                    const bool inside = i >= out_offset && i < out_offset + size;
                    right = target[i] == (inside ? source[i - out_offset + in_offset] : 0xee);
                }
                INFO("to +" << out_offset << ", from +" << in_offset << ", " << size << " bytes");
                REQUIRE(right);
            }
}
