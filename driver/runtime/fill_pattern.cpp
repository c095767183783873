#include "runtime/fill_pattern.hpp"

#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#elif defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace usmcl::runtime {

namespace {

// 128 bytes of pattern (a whole number of patterns), twice: the bytes from
// any phase p of the fill are at twice + p.
struct Lines {
    alignas(64) unsigned char twice[256];
};

void make_lines(Lines& lines, const void* pattern, size_t pattern_size) {
    std::memcpy(lines.twice, pattern, pattern_size);
    for (size_t filled = pattern_size; filled < sizeof lines.twice; filled *= 2)
        std::memcpy(lines.twice + filled, lines.twice, filled);
}

// Every byte of the pattern alike: memset's fill (but for streaming fills).
bool one_byte(const unsigned char* pattern, size_t pattern_size) {
    for (size_t i = 1; i < pattern_size; ++i)
        if (pattern[i] != pattern[0])
            return false;
    return true;
}

// The parts of a fill of aligned stores of `width` bytes: a head up to the
// first aligned address (written unaligned), whole 128-byte lines, a tail.
// phase: where in the 128 bytes of pattern the lines start.
struct Parts {
    size_t head;
    size_t lines;
    size_t tail;
    size_t phase;
};

Parts parts_for(const void* out, size_t length, size_t width) {
    const auto address = reinterpret_cast<std::uintptr_t>(out);
    size_t head = (width - address % width) % width;
    if (head > length)
        head = length;
    const size_t body = length - head;
    return Parts{head, body / 128, body % 128, head % 128};
}

// The head and tail around the lines: plain copies out of the pattern.
void fill_ends(unsigned char* out, const Lines& lines, const Parts& parts) {
    std::memcpy(out, lines.twice, parts.head);
    const size_t done = parts.head + parts.lines * 128;
    std::memcpy(out + done, lines.twice + done % 128, parts.tail);
}

#if defined(__x86_64__)

// Patterns of 2, 4 or 8 bytes as repeated quadwords: the processor's string
// stores (rep stosq), which like memset's rep stosb write whole cache lines
// without first reading them. The last length % 8 bytes are a copy.
void fill_quadwords(unsigned char* out, const Lines& lines, size_t length) {
    std::uint64_t value;
    std::memcpy(&value, lines.twice, sizeof value);
    void* target = out;
    size_t count = length / 8;
    asm volatile("rep stosq" : "+D"(target), "+c"(count) : "a"(value) : "memory");
    std::memcpy(out + length / 8 * 8, lines.twice, length % 8);
}

[[gnu::target("avx512f")]] void fill_avx512(unsigned char* out, const Lines& lines, size_t length,
                                            bool non_temporal) {
    const Parts parts = parts_for(out, length, 64);
    fill_ends(out, lines, parts);
    const __m512i low = _mm512_loadu_si512(lines.twice + parts.phase);
    const __m512i high = _mm512_loadu_si512(lines.twice + parts.phase + 64);
    unsigned char* line = out + parts.head;
    if (non_temporal) {
        for (size_t l = 0; l < parts.lines; ++l, line += 128) {
            _mm512_stream_si512(reinterpret_cast<__m512i*>(line), low);
            _mm512_stream_si512(reinterpret_cast<__m512i*>(line + 64), high);
        }
        _mm_sfence();
    } else {
        for (size_t l = 0; l < parts.lines; ++l, line += 128) {
            _mm512_store_si512(line, low);
            _mm512_store_si512(line + 64, high);
        }
    }
}

[[gnu::target("avx2")]] void fill_avx2(unsigned char* out, const Lines& lines, size_t length,
                                       bool non_temporal) {
    const Parts parts = parts_for(out, length, 32);
    fill_ends(out, lines, parts);
    __m256i quarters[4];
    for (int j = 0; j < 4; ++j)
        quarters[j] = _mm256_loadu_si256(
            reinterpret_cast<const __m256i*>(lines.twice + parts.phase + 32 * j));
    auto* line = reinterpret_cast<__m256i*>(out + parts.head);
    if (non_temporal) {
        for (size_t l = 0; l < parts.lines; ++l, line += 4)
            for (int j = 0; j < 4; ++j)
                _mm256_stream_si256(line + j, quarters[j]);
        _mm_sfence();
    } else {
        for (size_t l = 0; l < parts.lines; ++l, line += 4)
            for (int j = 0; j < 4; ++j)
                _mm256_store_si256(line + j, quarters[j]);
    }
}

struct Isa {
    bool avx512 = __builtin_cpu_supports("avx512f");
    bool avx2 = __builtin_cpu_supports("avx2");
};

const Isa& isa() {
    static const Isa found;
    return found;
}

#endif

#if defined(__SSE2__)
void fill_sse2(unsigned char* out, const Lines& lines, size_t length, bool non_temporal) {
    const Parts parts = parts_for(out, length, 16);
    fill_ends(out, lines, parts);
    __m128i eighths[8];
    for (int j = 0; j < 8; ++j)
        eighths[j] =
            _mm_loadu_si128(reinterpret_cast<const __m128i*>(lines.twice + parts.phase + 16 * j));
    auto* line = reinterpret_cast<__m128i*>(out + parts.head);
    if (non_temporal) {
        for (size_t l = 0; l < parts.lines; ++l, line += 8)
            for (int j = 0; j < 8; ++j)
                _mm_stream_si128(line + j, eighths[j]);
        _mm_sfence();
    } else {
        for (size_t l = 0; l < parts.lines; ++l, line += 8)
            for (int j = 0; j < 8; ++j)
                _mm_store_si128(line + j, eighths[j]);
    }
}
#else
void fill_portable(unsigned char* out, const Lines& lines, size_t length) {
    size_t done = 0;
    for (; done + 128 <= length; done += 128)
        std::memcpy(out + done, lines.twice, 128);
    std::memcpy(out + done, lines.twice, length - done);
}
#endif

// The widest stores the processor has.
void fill_vectors(unsigned char* out, const Lines& lines, size_t length, bool non_temporal) {
#if defined(__x86_64__)
    if (isa().avx512) {
        fill_avx512(out, lines, length, non_temporal);
        return;
    }
    if (isa().avx2) {
        fill_avx2(out, lines, length, non_temporal);
        return;
    }
#endif
#if defined(__SSE2__)
    fill_sse2(out, lines, length, non_temporal);
#else
    (void)non_temporal;
    fill_portable(out, lines, length);
#endif
}

#if defined(__x86_64__)
// How far behind the bytes it writes a string copy of the fill reads them:
// a multiple of 128 (so of every pattern), the source in the first-level
// cache.
constexpr size_t string_distance = 32u << 10;

// [out + distance, out + distance + length) from the bytes `distance`
// before them, by rep movsb: byte by byte in meaning, so the pattern in the
// first `distance` bytes repeats; whole cache lines at a time in fact.
void copy_forward(unsigned char* out, size_t distance, size_t length) {
    void* target = out + distance;
    const void* source = out;
    asm volatile("rep movsb" : "+D"(target), "+S"(source), "+c"(length) : : "memory");
}
#endif

} // namespace

void fill_pattern(void* destination, const void* pattern, size_t pattern_size, size_t length,
                  FillStores stores) {
    auto* out = static_cast<unsigned char*>(destination);
    const auto* bytes = static_cast<const unsigned char*>(pattern);
    if (length == 0)
        return;
    const bool non_temporal = stores == FillStores::streaming;
    // A chunk of a streaming fill is smaller than memset's own threshold
    // for non-temporal stores: memset would pass it through the cache
    // (85% of one large memset at 256 MiB).
    if (one_byte(bytes, pattern_size) && !non_temporal) {
        std::memset(out, bytes[0], length);
        return;
    }
    Lines lines;
    make_lines(lines, pattern, pattern_size);
#if defined(__x86_64__)
    if (pattern_size <= 8 && !non_temporal) {
        fill_quadwords(out, lines, length);
        return;
    }
    if (stores == FillStores::lines && length > string_distance) {
        fill_vectors(out, lines, string_distance, false);
        copy_forward(out, string_distance, length - string_distance);
        return;
    }
#endif
    fill_vectors(out, lines, length, non_temporal);
}

} // namespace usmcl::runtime
