#include "runtime/stream_copy.hpp"

#include <cstdint>
#include <cstring>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace usmcl::runtime {

#if defined(__x86_64__)

namespace {

// The bytes before the first address of out aligned to width, at most
// length.
size_t head_for(const void* out, size_t length, size_t width) {
    const auto address = reinterpret_cast<std::uintptr_t>(out);
    const size_t head = (width - address % width) % width;
    return head < length ? head : length;
}

// 256 bytes a step: four aligned 64-byte non-temporal stores of unaligned
// loads.
[[gnu::target("avx512f")]] size_t stream_avx512(unsigned char* out, const unsigned char* in,
                                                size_t length) {
    size_t done = 0;
    for (; done + 256 <= length; done += 256)
        for (size_t part = 0; part < 256; part += 64)
            _mm512_stream_si512(reinterpret_cast<__m512i*>(out + done + part),
                                _mm512_loadu_si512(in + done + part));
    return done;
}

[[gnu::target("avx2")]] size_t stream_avx2(unsigned char* out, const unsigned char* in,
                                           size_t length) {
    size_t done = 0;
    for (; done + 256 <= length; done += 256)
        for (size_t part = 0; part < 256; part += 32)
            _mm256_stream_si256(
                reinterpret_cast<__m256i*>(out + done + part),
                _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + done + part)));
    return done;
}

size_t stream_sse2(unsigned char* out, const unsigned char* in, size_t length) {
    size_t done = 0;
    for (; done + 256 <= length; done += 256)
        for (size_t part = 0; part < 256; part += 16)
            _mm_stream_si128(reinterpret_cast<__m128i*>(out + done + part),
                             _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + done + part)));
    return done;
}

} // namespace

void stream_copy(void* destination, const void* source, size_t length) {
    auto* out = static_cast<unsigned char*>(destination);
    const auto* in = static_cast<const unsigned char*>(source);
    static const bool avx512 = __builtin_cpu_supports("avx512f");
    static const bool avx2 = __builtin_cpu_supports("avx2");
    const size_t head = head_for(out, length, 64);
    std::memcpy(out, in, head);
    out += head;
    in += head;
    length -= head;
    const size_t streamed = avx512 ? stream_avx512(out, in, length)
                            : avx2 ? stream_avx2(out, in, length)
                                   : stream_sse2(out, in, length);
    _mm_sfence();
    std::memcpy(out + streamed, in + streamed, length - streamed);
}

#else

void stream_copy(void* destination, const void* source, size_t length) {
    std::memcpy(destination, source, length);
}

#endif

} // namespace usmcl::runtime
