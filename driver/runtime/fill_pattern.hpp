// One thread's part of a pattern fill: the widest stores the processor has,
// aligned, and the string stores of memset where the pattern allows them.
#pragma once

#include <cstddef>

namespace usmcl::runtime {

// Fills [out, out + length) with the pattern over and over, its first byte
// at out. pattern_size is a power of two up to 128, length a multiple of it.
// out needs no alignment. With non_temporal the stores bypass the caches
// (for fills larger than the last-level cache).
void fill_pattern(void* out, const void* pattern, size_t pattern_size, size_t length,
                  bool non_temporal);

} // namespace usmcl::runtime
