// The inputs of math_conformance: the edge values of each type and the
// random sample (README.md, "The inputs").
#pragma once

#include "half.hpp"
#include "math_functions.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace mathconf {

// half's edge values: the same kinds as those of float and double, at
// half's limits (the overflow and underflow thresholds of exp, exp2,
// exp10, cosh; 2^10 and 2^11, above which every half is an integer;
// trigonometric arguments near multiples of pi/2).
inline std::vector<Half> half_edge_values() {
    using L = std::numeric_limits<Half>;
    const double min = L::min(), denorm_min = L::denorm_min(), max = L::max();
    const double magnitudes[] = {0,
                                 denorm_min,
                                 denorm_min * 3,
                                 min - denorm_min,
                                 min,
                                 min * 1.5,
                                 L::epsilon(),
                                 0.25,
                                 0.5,
                                 1 - 0x1p-11,
                                 1,
                                 1 + 0x1p-10,
                                 1.5,
                                 2,
                                 2.5,
                                 3,
                                 4,
                                 10,
                                 100,
                                 3.14159265358979323846,
                                 1.57079632679489661923,
                                 0.785398163397448309616,
                                 6.28318530717958647692,
                                 11.0859375, // exp: the largest finite result
                                 11.09375,   // exp: inf
                                 11.7734375, // cosh, sinh: the largest finite result
                                 11.78125,
                                 15.9921875, // exp2
                                 16,
                                 -16.625, // exp: the smallest denormal result
                                 -17.34375,
                                 4.81640625, // exp10
                                 4.8203125,
                                 -7.2265625,
                                 -24, // exp2: the smallest denormal, and zero
                                 -25,
                                 1024,
                                 1025,
                                 2048,
                                 2050,
                                 355, // near multiples of pi/2
                                 710,
                                 22,
                                 33,
                                 1000,
                                 10000,
                                 max / 2,
                                 max,
                                 L::infinity(),
                                 L::quiet_NaN()};
    std::vector<Half> values;
    for (double m : magnitudes) {
        values.push_back(Half(m));
        values.push_back(Half(-m));
    }
    return values;
}

// float's and double's.
template <class T>
std::vector<T> wide_edge_values() {
    using L = std::numeric_limits<T>;
    const bool d = std::is_same_v<T, double>;
    std::vector<T> magnitudes = {T(0),
                                 L::denorm_min(),
                                 L::denorm_min() * 3,
                                 L::min() - L::denorm_min(),
                                 L::min(),
                                 L::min() * T(1.5),
                                 L::epsilon(),
                                 T(0.25),
                                 T(0.5),
                                 std::nextafter(T(1), T(0)),
                                 T(1),
                                 std::nextafter(T(1), T(2)),
                                 T(1.5),
                                 T(2),
                                 T(2.5),
                                 T(3),
                                 T(4),
                                 T(10),
                                 T(100),
                                 T(3.14159265358979323846),
                                 T(1.57079632679489661923),
                                 T(0.785398163397448309616),
                                 T(6.28318530717958647692),
                                 T(88.72283935546875),
                                 T(89),
                                 T(87.33654),
                                 T(103.97),
                                 T(150),
                                 T(709.782712893384),
                                 T(745.1332191019412),
                                 T(1e10),
                                 T(1e15),
                                 T(1e22),
                                 T(1) / L::epsilon(),
                                 T(1) / L::epsilon() + 1,
                                 T(2) / L::epsilon(),
                                 T(1e30),
                                 T(1e38),
                                 L::max() / 2,
                                 L::max(),
                                 L::infinity(),
                                 L::quiet_NaN(),
                                 L::signaling_NaN()};
    if (d) {
        magnitudes.push_back(T(1e100));
        magnitudes.push_back(T(1e300));
        magnitudes.push_back(T(4.5e15));
    }
    // Huge arguments of the trigonometric functions near multiples of pi/2.
    magnitudes.push_back(std::ldexp(T(0.785398163397448309616), L::max_exponent - 1));
    magnitudes.push_back(T(12582912));
    std::vector<T> values;
    for (T m : magnitudes) {
        values.push_back(m);
        values.push_back(-m);
    }
    return values;
}

template <class T>
std::vector<T> edge_values() {
    if constexpr (std::is_same_v<T, Half>)
        return half_edge_values();
    else
        return wide_edge_values<T>();
}

// A few edge values for the three-argument functions (all triples).
template <class T>
std::vector<T> small_edge_values() {
    using L = std::numeric_limits<T>;
    const T magnitudes[] = {T(0),          L::denorm_min(),
                            L::min(),      T(0.5),
                            T(1),          T(3),
                            L::epsilon(),  static_cast<T>(T(1) / L::epsilon()),
                            L::max(),      L::infinity(),
                            L::quiet_NaN()};
    std::vector<T> values;
    for (T m : magnitudes) {
        values.push_back(m);
        values.push_back(static_cast<T>(-m));
    }
    return values;
}

// remquo's quotient: x = k y (+ half a y for the ties) for quotients around
// the 7 low bits the spec wants (63 to 257, 2^20 + 127, ...), with normal,
// denormal and huge divisors of both signs, so that each bit of the quotient
// and the rounding of ties to even meet the check.
template <class T>
std::vector<std::pair<T, T>> quotient_edge_pairs() {
    using L = std::numeric_limits<T>;
    const T divisors[] = {T(1),
                          T(3),
                          T(0.1),
                          L::denorm_min(),
                          static_cast<T>(L::denorm_min() * 5),
                          L::min(),
                          T(1e-30),
                          static_cast<T>(L::max() / T(300))};
    const double quotients[] = {1,     2,   3,     5.5, 63,  64,    64.5, 65,  126.5,   127,
                                127.5, 128, 128.5, 129, 191, 255.5, 256,  257, 1048703, 33554431.5};
    std::vector<std::pair<T, T>> pairs;
    for (T y : divisors)
        for (double k : quotients)
            for (int sx : {1, -1})
                for (int sy : {1, -1}) {
                    const T x = static_cast<T>(static_cast<long double>(y) * k);
                    if (std::isfinite(x) && x != 0)
                        pairs.push_back({static_cast<T>(x * sx), static_cast<T>(y * sy)});
                }
    return pairs;
}

template <class T>
T from_bits(uint64_t bits) {
    if constexpr (std::is_same_v<T, Half>) {
        return Half::from_bits(static_cast<uint16_t>(bits));
    } else if constexpr (std::is_same_v<T, float>) {
        const uint32_t b = static_cast<uint32_t>(bits);
        float f;
        std::memcpy(&f, &b, 4);
        return f;
    } else {
        double x;
        std::memcpy(&x, &bits, 8);
        return x;
    }
}

template <class T>
T random_value(std::mt19937_64& rng, double domain) {
    std::uniform_int_distribution<int> kind(0, 9);
    T x;
    switch (kind(rng)) {
    case 0:
    case 1:
    case 2:
    case 3: x = from_bits<T>(rng()); break; // every exponent
    case 4:
    case 5: x = static_cast<T>(std::uniform_real_distribution<double>(-1, 1)(rng)); break;
    case 6:
    case 7: x = static_cast<T>(std::uniform_real_distribution<double>(-10, 10)(rng)); break;
    default: {
        // 2^+-40 (2^+-16 for half, whose range it is).
        const double range = std::is_same_v<T, Half> ? 16 : 40;
        const double e = std::uniform_real_distribution<double>(-range, range)(rng);
        x = static_cast<T>(std::exp2(e) * (rng() & 1 ? -1 : 1));
        break;
    }
    }
    if (domain > 0 && !(std::fabs(x) <= domain))
        x = std::isfinite(x) ? static_cast<T>(std::fmod(static_cast<double>(x), domain)) : T(0);
    return x;
}

template <class T>
int random_int(std::mt19937_64& rng, const Function& f) {
    std::uniform_int_distribution<int> kind(0, 9);
    const int k = kind(rng);
    if (k == 0)
        return static_cast<int>(rng());
    if (f.name == "ldexp") {
        const int range = std::is_same_v<T, double> ? 2200 : std::is_same_v<T, float> ? 300 : 60;
        return std::uniform_int_distribution<int>(-range, range)(rng);
    }
    return std::uniform_int_distribution<int>(-40, 40)(rng);
}

inline std::vector<int> edge_ints(const Function& f) {
    std::vector<int> n = {0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 16, -16, 31, -31, INT_MAX, INT_MIN};
    if (f.name == "ldexp")
        for (int v : {10,  14,  15,  16,  24,  25,   26,   40,   126,  127,  128,
                      149, 150, 151, 277, 300, 1022, 1023, 1024, 1074, 1075, 2100})
            n.insert(n.end(), {v, -v});
    return n;
}

template <class T>
struct Inputs {
    std::vector<T> a, b, c;
    std::vector<int> n;
    size_t size() const { return a.size(); }
    void push(T x, T y, T z, int k) {
        a.push_back(x);
        b.push_back(y);
        c.push_back(z);
        n.push_back(k);
    }
};

template <class T>
Inputs<T> make_inputs(const Function& f, size_t samples, unsigned seed) {
    Inputs<T> in;
    std::vector<T> edges = edge_values<T>();
    if (f.domain > 0)
        edges.erase(std::remove_if(edges.begin(), edges.end(),
                                   [&](T x) { return !(std::fabs(x) <= f.domain); }),
                    edges.end());
    std::mt19937_64 rng(seed ^ std::hash<std::string>()(f.name));
    const T zero(0);
    switch (f.shape) {
    case Shape::t_t:
    case Shape::i_t:
    case Shape::t_tpt:
    case Shape::t_tpi:
    case Shape::t_nancode:
        // half: every one of the 65536 values.
        if constexpr (std::is_same_v<T, Half>) {
            for (uint32_t bits = 0; bits <= 0xffff; ++bits)
                in.push(Half::from_bits(static_cast<uint16_t>(bits)), zero, zero, 0);
            break;
        }
        for (T x : edges)
            in.push(x, zero, zero, 0);
        for (size_t i = 0; i < samples; ++i)
            in.push(random_value<T>(rng, f.domain), zero, zero, 0);
        break;
    case Shape::t_tt:
    case Shape::t_ttpi:
        for (T x : edges)
            for (T y : edges)
                in.push(x, y, zero, 0);
        if (f.shape == Shape::t_ttpi || f.name == "remainder")
            for (auto [x, y] : quotient_edge_pairs<T>())
                in.push(x, y, zero, 0);
        for (size_t i = 0; i < samples; ++i) {
            // One argument in five from the edge values, to meet the random
            // values of the other.
            const T x =
                rng() % 5 == 0 ? edges[rng() % edges.size()] : random_value<T>(rng, f.domain);
            const T y =
                rng() % 5 == 0 ? edges[rng() % edges.size()] : random_value<T>(rng, f.domain);
            in.push(x, y, zero, 0);
        }
        break;
    case Shape::t_ttt: {
        const std::vector<T> small = small_edge_values<T>();
        for (T x : small)
            for (T y : small)
                for (T z : small)
                    in.push(x, y, z, 0);
        for (size_t i = 0; i < samples; ++i)
            in.push(random_value<T>(rng, 0), random_value<T>(rng, 0), random_value<T>(rng, 0), 0);
        break;
    }
    case Shape::t_ti: {
        const std::vector<int> ints = edge_ints(f);
        for (T x : edges)
            for (int k : ints)
                in.push(x, zero, zero, k);
        for (size_t i = 0; i < samples; ++i)
            in.push(random_value<T>(rng, 0), zero, zero, random_int<T>(rng, f));
        break;
    }
    }
    return in;
}

} // namespace mathconf
