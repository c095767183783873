// The seed of the randomized memory tests: fixed, so that runs repeat;
// USMCL_TEST_SEED (decimal or 0x hex) picks another one.
#pragma once

#include <cstdint>
#include <cstdlib>

namespace usmcl::test {

inline std::uint64_t seed() {
    if (const char* text = std::getenv("USMCL_TEST_SEED"); text && *text)
        return std::strtoull(text, nullptr, 0);
    return 0x5eed'0005;
}

} // namespace usmcl::test
