// Helpers of the builtin library tests: a runner that builds and launches a
// kernel, ULP distances, host references shared by the test files.
#pragma once

#include "compiler_test.hpp"

#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>
#include <random>

namespace builtins_test {

// Builds one kernel and runs it over N work-items in groups of Local.
struct Runner {
    std::unique_ptr<kc::Module> M;
    std::unique_ptr<kc::NativeProgram> P;
    Runner(const std::string& Source, const std::string& Options = "-cl-std=CL3.0")
        : M(kctest::build(Source, Options)), P(kctest::jit(*M)) {}
    template <typename... Ptrs>
    void run(size_t N, size_t Local, Ptrs... Args) {
        const kc::KernelInfo& K = M->kernels().at(0);
        kctest::ArgBuffer Buffer(K);
        unsigned I = 0;
        (Buffer.set(I++, Args), ...);
        kctest::runNDRange(P->lookup(K.Name), Buffer, 1, {N, 1, 1}, {Local, 1, 1}, {0, 0, 0},
                           Local * 64);
    }
};

template <typename T>
int64_t ulpDistance(T A, T B) {
    using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
    if (std::isnan(A) && std::isnan(B))
        return 0;
    if (A == B)
        return 0;
    auto Ordered = [](T X) {
        I Bits = std::bit_cast<I>(X);
        return Bits < 0 ? std::numeric_limits<I>::min() - Bits : Bits;
    };
    // In 128 bits: two doubles of opposite signs are up to 2^64 apart.
    __extension__ typedef __int128 Int128;
    const Int128 Diff = static_cast<Int128>(Ordered(A)) - static_cast<Int128>(Ordered(B));
    const Int128 Abs = Diff < 0 ? -Diff : Diff;
    return Abs > std::numeric_limits<int64_t>::max() ? std::numeric_limits<int64_t>::max()
                                                     : static_cast<int64_t>(Abs);
}

// The high half of the 128-bit product.
inline int64_t mulHigh(int64_t A, int64_t B) {
    __extension__ typedef __int128 Int128;
    return static_cast<int64_t>((static_cast<Int128>(A) * B) >> 64);
}

inline std::vector<float> randomFloats(size_t N, float Lo, float Hi, unsigned Seed) {
    std::mt19937 Gen(Seed);
    std::uniform_real_distribution<float> D(Lo, Hi);
    std::vector<float> V(N);
    for (float& X : V)
        X = D(Gen);
    return V;
}

} // namespace builtins_test
