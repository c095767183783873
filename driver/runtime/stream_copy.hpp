// One thread's part of a copy larger than the caches: non-temporal stores,
// which write whole cache lines past the caches instead of reading each
// line into them first, as plain stores do.
#pragma once

#include <cstddef>

namespace usmcl::runtime {

// Copies length bytes from source to destination (which do not overlap)
// with non-temporal stores where the processor has them, then fences them.
// Neither needs alignment.
void stream_copy(void* destination, const void* source, size_t length);

} // namespace usmcl::runtime
