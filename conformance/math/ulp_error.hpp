// The ULP error of a result against the infinitely precise (or correctly
// rounded) reference, the way the OpenCL C specification defines ULPs.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>

namespace mathconf {

inline constexpr long double inf_l = std::numeric_limits<long double>::infinity();

// ------------------------------------------------------------ ULP error --

template <class T>
constexpr int precision = std::numeric_limits<T>::digits; // 24, 53
template <class T>
constexpr int min_exponent = std::numeric_limits<T>::min_exponent - 1; // -126, -1022
template <class T>
constexpr int max_exponent = std::numeric_limits<T>::max_exponent; // 128, 1024

// The error of `test` against the precise value `ref`, in ULPs of ref: the
// spec's definition (the gap between the floating-point numbers around ref,
// the smaller one below a power of two when the result lies below it),
// measured in an unbounded exponent range so that results beyond the largest
// finite value still have an error; an infinite result counts as 2^emax.
// Wrong NaNs, wrong infinities and wrong signs of zero are infinitely wrong.
template <class T>
long double ulp_error(long double ref, T test, bool zero_sign_free = false) {
    if (std::isnan(ref))
        return std::isnan(test) ? 0 : inf_l;
    if (std::isnan(test))
        return inf_l;
    if (std::isinf(ref))
        return static_cast<long double>(test) == ref ? 0 : inf_l;
    long double t = test;
    if (std::isinf(t)) {
        // Beyond the overflow threshold (the largest finite value plus half
        // its ULP) the correctly rounded result is the infinity.
        const long double threshold = std::ldexp(1.0L, max_exponent<T>) -
                                      std::ldexp(1.0L, max_exponent<T> - precision<T> - 1);
        if (std::fabs(ref) >= threshold && std::signbit(ref) == std::signbit(t))
            return 0;
        t = std::copysign(std::ldexp(1.0L, max_exponent<T>), t);
    }
    if (ref == 0 && t == 0)
        return zero_sign_free || std::signbit(ref) == std::signbit(t) ? 0 : inf_l;
    const int e = ref == 0 ? min_exponent<T> : std::max(std::ilogb(ref), min_exponent<T>);
    long double ulp = std::ldexp(1.0L, e - (precision<T> - 1));
    if (ref != 0 && e > min_exponent<T> && std::fabs(ref) == std::ldexp(1.0L, e) &&
        std::fabs(t) < std::fabs(ref))
        ulp /= 2;
    return std::fabs(t - ref) / ulp;
}

// The error of a function that must be exact: 0 when the result is the
// reference (any NaN for NaN), else its ULP distance (at least 1).
template <class T>
long double exact_error(long double ref, T test, bool zero_sign_free) {
    const T expected = static_cast<T>(ref);
    if (std::isnan(expected))
        return std::isnan(test) ? 0 : inf_l;
    if (std::isnan(test))
        return inf_l;
    if (test == expected &&
        (std::signbit(test) == std::signbit(expected) || (zero_sign_free && test == 0)))
        return 0;
    const long double e = ulp_error<T>(expected, test);
    return e == 0 ? inf_l : std::max(e, 1.0L);
}

template <class T>
bool is_denormal(T x) {
    return x != 0 && std::fabs(x) < std::numeric_limits<T>::min();
}

} // namespace mathconf
