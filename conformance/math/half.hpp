// The host's view of the OpenCL C half type (IEEE 754 binary16): a Half
// holds the 16 bits a buffer of half holds, converts exactly to double and
// from any arithmetic type with one rounding to nearest, ties to even. The
// host has no half arithmetic: arithmetic on a Half is double arithmetic,
// whose result is rounded back explicitly (Half(x)).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace mathconf {

// The value of the half with these bits, exactly (NaNs keep their sign).
inline double half_bits_to_double(uint16_t bits) {
    const int exponent = (bits >> 10) & 0x1f;
    const int mantissa = bits & 0x3ff;
    double magnitude = 0;
    if (exponent == 0)
        magnitude = std::ldexp(static_cast<double>(mantissa), -24);
    else if (exponent == 0x1f)
        magnitude = mantissa != 0 ? std::numeric_limits<double>::quiet_NaN()
                                  : std::numeric_limits<double>::infinity();
    else
        magnitude = std::ldexp(static_cast<double>(mantissa + 0x400), exponent - 25);
    return (bits & 0x8000) != 0 ? -magnitude : magnitude;
}

// x rounded to the nearest half, ties to even, in one rounding (long double
// holds every float and double exactly). A NaN becomes the quiet NaN of its
// sign.
inline uint16_t double_to_half_bits(long double x) {
    const uint16_t sign = std::signbit(x) ? 0x8000 : 0;
    if (std::isnan(x))
        return sign | 0x7e00;
    const long double a = std::fabs(x);
    // Half-way between the largest half (65504) and 2^16 rounds to even,
    // the infinity.
    if (a >= 65520.0L)
        return sign | 0x7c00;
    if (a < 0x1p-14L) {
        // Denormal: a multiple of 2^-24 (1024 * 2^-24 is the smallest normal,
        // whose bits are 0x400 too).
        return sign | static_cast<uint16_t>(std::nearbyint(a * 0x1p24L));
    }
    int e = 0;
    (void)std::frexp(a, &e);                               // a = m 2^e, m in [0.5, 1)
    long double q = std::nearbyint(std::ldexp(a, 11 - e)); // [1024, 2048]
    int exponent = e - 1;
    if (q == 2048.0L) {
        q = 1024.0L;
        ++exponent;
    }
    if (exponent > 15)
        return sign | 0x7c00;
    return sign | static_cast<uint16_t>(((exponent + 15) << 10) | (static_cast<int>(q) - 0x400));
}

struct Half {
    uint16_t bits = 0;

    constexpr Half() = default;
    // x rounded to the nearest half (ties to even).
    template <class U, std::enable_if_t<std::is_arithmetic_v<U>, int> = 0>
    explicit Half(U x) : bits(double_to_half_bits(static_cast<long double>(x))) {}

    static constexpr Half from_bits(uint16_t b) {
        Half h;
        h.bits = b;
        return h;
    }

    // Exact.
    operator double() const { return half_bits_to_double(bits); }
};

static_assert(sizeof(Half) == 2 && std::is_trivially_copyable_v<Half>,
              "a vector of Half is a buffer of half");

// The neighbour of x towards y (IEEE nextafter in half).
inline Half next_half(Half x, Half y) {
    const double a = x, b = y;
    if (std::isnan(a) || std::isnan(b))
        return Half(a + b);
    if (a == b)
        return y;
    if (a == 0)
        return Half::from_bits(static_cast<uint16_t>((y.bits & 0x8000) | 1));
    // Away from zero when moving away from it, else towards it.
    const bool away = (b > a) == (a > 0);
    return Half::from_bits(static_cast<uint16_t>(away ? x.bits + 1 : x.bits - 1));
}

} // namespace mathconf

// What the templates of math_conformance ask of a floating-point type.
template <>
class std::numeric_limits<mathconf::Half> {
    using H = mathconf::Half;

public:
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = true;
    static constexpr bool is_integer = false;
    static constexpr bool is_exact = false;
    static constexpr bool has_infinity = true;
    static constexpr bool is_iec559 = true;
    static constexpr int radix = 2;
    static constexpr int digits = 11;
    static constexpr int min_exponent = -13; // 2^-14 = 0.5 * 2^-13
    static constexpr int max_exponent = 16;
    static constexpr float_round_style round_style = round_to_nearest;
    static constexpr H min() { return H::from_bits(0x0400); }
    static constexpr H max() { return H::from_bits(0x7bff); }
    static constexpr H lowest() { return H::from_bits(0xfbff); }
    static constexpr H epsilon() { return H::from_bits(0x1400); }
    static constexpr H denorm_min() { return H::from_bits(0x0001); }
    static constexpr H infinity() { return H::from_bits(0x7c00); }
    // NOLINTNEXTLINE(readability-identifier-naming): the standard's name
    static constexpr H quiet_NaN() { return H::from_bits(0x7e00); }
};
