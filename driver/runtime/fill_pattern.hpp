// One thread's part of a pattern fill: the widest stores the processor has,
// aligned, or string stores where they are faster.
#pragma once

#include <cstddef>

namespace usmcl::runtime {

// How the stores of a fill treat the caches.
enum class FillStores {
    // Plain stores: the fill fits a core's cache, where it stays (and where
    // the stores hit).
    cached,
    // Larger than a core's cache but not than the last-level cache: string
    // stores (rep stos/movs), which write whole cache lines without first
    // reading them as plain stores do.
    lines,
    // Larger than the last-level cache: non-temporal stores, past the caches.
    streaming,
};

// Fills [out, out + length) with the pattern over and over, its first byte
// at out. pattern_size is a power of two up to 128, length a multiple of it.
// out needs no alignment.
void fill_pattern(void* out, const void* pattern, size_t pattern_size, size_t length,
                  FillStores stores);

} // namespace usmcl::runtime
