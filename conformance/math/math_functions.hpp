// The math functions of the OpenCL C specification that math_conformance
// checks: how a kernel calls each one, its ULP limit per type (full profile),
// and the host reference that computes the infinitely precise result in long
// double (64-bit significand: 53 bits more than half, 40 more than float, 11
// more than double).
#pragma once

#include <string>
#include <vector>

namespace mathconf {

// The shapes of the functions (argument and result types; T is half, float
// or double, I is int).
enum class Shape {
    t_t,       // T f(T)
    t_tt,      // T f(T, T)
    t_ttt,     // T f(T, T, T)
    t_ti,      // T f(T, int)                       ldexp, pown, rootn
    i_t,       // int f(T)                          ilogb
    t_tpt,     // T f(T, T*)                        sincos, modf, fract
    t_tpi,     // T f(T, int*)                      frexp, lgamma_r
    t_ttpi,    // T f(T, T, int*)                   remquo
    t_nancode, // T nan(ushort, uint or ulong)     nan
};

// The limit of a function whose ULP error the spec leaves undefined (lgamma):
// only infinite errors (wrong special values) fail.
inline constexpr double undefined_limit = 1e300;

// How a result is judged.
enum class Check {
    ulps,   // |error| <= limit ULPs of the infinitely precise result
    exact,  // bit for bit the correctly rounded result (any NaN for NaN)
    report, // the limit is implementation-defined or undefined: reported only
};

// The arguments of one evaluation, exactly the values given to the device.
struct Args {
    long double a = 0, b = 0, c = 0;
    int n = 0;
    bool is_double = false;
    bool is_half = false;
};

// A reference result: the value (infinitely precise for Check::ulps, the
// correctly rounded one in the target type for Check::exact), an optional
// alternative the spec also allows (mad: fma or a rounded multiply and add;
// fmax/fmin of +0 and -0), and the second output of the pointer functions.
struct Ref {
    long double value = 0;
    bool has_alternative = false;
    long double alternative = 0;
    long double value2 = 0; // sincos: cos, modf/fract: the integral part
    int int_value = 0;      // frexp: exponent, remquo: low 7 bits of the quotient
                            // with its sign, lgamma_r: sign, ilogb: result
};

using RefFn = Ref (*)(const Args&);

struct Function {
    std::string name;       // the sub-test name
    std::string expression; // the kernel expression over a, b, c, n
    Shape shape;
    Check check;
    double float_limit;  // ULPs; < 0: not checked for float
    double double_limit; // ULPs; < 0: no double form
    Check double_check;  // may differ from check (sqrt, divide: exact for double)
    double half_limit;   // ULPs; < 0: no half form (half_*, native_*)
    Check half_check;    // may differ from check (mad: implementation-defined for half)
    RefFn ref;
    // Input domain for the random sample (the spec restricts half_sin etc.
    // to |x| <= 2^16); 0: any value.
    double domain = 0;
    // The sign of a zero result is free (fmax(-0, +0); tgamma of large
    // negative values, whose tiny result underflows in long double too).
    bool zero_sign_free = false;
    // The second output is checked with the same ULP limit (sincos) rather
    // than exactly (modf, fract).
    bool second_ulps = false;
    // Denormal inputs and results may be flushed to zero (half_, native_).
    bool may_flush = false;
};

const std::vector<Function>& functions();

} // namespace mathconf
