// The function table and the host references. The references of the
// approximate functions run in long double; the functions the spec wants
// correctly rounded are computed in the target type itself with the host's
// correctly rounded operations (IEEE arithmetic, fma, sqrt, fmod, rint, ...),
// so that no double rounding can move them.
#include "math_functions.hpp"

#include "half.hpp"

#include <cfloat>
#include <climits>
#include <cmath>
#include <limits>

namespace mathconf {

namespace {

constexpr long double pi_l = 3.141592653589793238462643383279502884L;
constexpr long double inf_l = std::numeric_limits<long double>::infinity();
constexpr long double nan_l = std::numeric_limits<long double>::quiet_NaN();

// Evaluates f on the arguments converted (exactly) back to the target type;
// for half, in double: the functions evaluated this way are exact in double
// on halves (fdim's difference needs at most 40 bits), and the caller
// rounds the result to half once.
template <class F>
long double in_type1(const Args& x, F f) {
    if (x.is_half || x.is_double)
        return static_cast<long double>(f(static_cast<double>(x.a)));
    return static_cast<long double>(f(static_cast<float>(x.a)));
}
template <class F>
long double in_type2(const Args& x, F f) {
    if (x.is_half || x.is_double)
        return static_cast<long double>(f(static_cast<double>(x.a), static_cast<double>(x.b)));
    return static_cast<long double>(f(static_cast<float>(x.a), static_cast<float>(x.b)));
}
template <class F>
long double in_type3(const Args& x, F f) {
    return x.is_double
               ? static_cast<long double>(f(static_cast<double>(x.a), static_cast<double>(x.b),
                                            static_cast<double>(x.c)))
               : static_cast<long double>(
                     f(static_cast<float>(x.a), static_cast<float>(x.b), static_cast<float>(x.c)));
}

Ref value(long double v) {
    Ref ref;
    ref.value = v;
    return ref;
}

// sin(pi * x), exact at the integers, the argument reduced exactly to
// [-1/2, 1/2] before it is multiplied by pi.
long double sinpi_l(long double x) {
    if (std::isnan(x) || std::isinf(x))
        return nan_l;
    const bool negative = std::signbit(x);
    long double r = std::fmod(std::fabs(x), 2.0L); // exact
    if (r == 0 || r == 1)
        return negative ? -0.0L : 0.0L;
    if (r > 1)
        r -= 2; // (-1, 0), exact
    if (r > 0.5L)
        r = 1 - r;
    else if (r < -0.5L)
        r = -1 - r;
    const long double s = std::sin(pi_l * r);
    return negative ? -s : s;
}

long double cospi_l(long double x) {
    if (std::isnan(x) || std::isinf(x))
        return nan_l;
    long double r = std::fmod(std::fabs(x), 2.0L);
    if (r > 1)
        r = 2 - r; // [0, 1]
    if (r == 0.5L)
        return 0.0L;
    return sinpi_l(0.5L - r);
}

long double tanpi_l(long double x) {
    if (std::isnan(x) || std::isinf(x))
        return nan_l;
    // tanpi is odd: reduce |x|, whose fractional part is exact.
    const long double ax = std::fabs(x);
    const long double n = std::floor(ax);
    const bool n_odd = std::fmod(n, 2.0L) != 0;
    const long double f = ax - n; // [0, 1), exact
    long double t;
    if (f == 0) {
        t = n_odd ? -0.0L : 0.0L;
    } else if (f == 0.5L) {
        t = n_odd ? -inf_l : inf_l;
    } else {
        // tan(pi g) for g in (-1/2, 1/2), through the cotangent near +-1/2
        // so that the argument of tan stays small and exact.
        const long double g = f > 0.5L ? f - 1 : f;
        if (std::fabs(g) > 0.25L) {
            const long double h = (g > 0 ? 0.5L : -0.5L) - g; // exact
            t = 1 / std::tan(pi_l * h);
        } else {
            t = std::tan(pi_l * g);
        }
    }
    return std::signbit(x) ? -t : t;
}

long double rootn_l(long double x, int n) {
    if (n == 0 || std::isnan(x))
        return nan_l;
    const bool odd = (n % 2) != 0;
    if (x < 0 && !odd)
        return nan_l;
    if (x == 0) {
        if (n < 0)
            return odd ? std::copysign(inf_l, x) : inf_l;
        return odd ? x : 0.0L;
    }
    if (std::isinf(x)) {
        if (n < 0)
            return odd ? std::copysign(0.0L, x) : 0.0L;
        return odd ? x : inf_l;
    }
    const long double r = std::pow(std::fabs(x), 1.0L / n);
    return x < 0 ? -r : r;
}

// powr: pow for x >= 0 only, with the special values of the spec (7.5.1).
long double powr_l(long double x, long double y) {
    if (std::isnan(x) || std::isnan(y) || x < 0)
        return nan_l;
    if (x == 0) {
        if (y == 0)
            return nan_l;
        return y < 0 ? inf_l : 0.0L;
    }
    if (std::isinf(x)) {
        if (y == 0)
            return nan_l;
        return y < 0 ? 0.0L : inf_l;
    }
    if (x == 1)
        return std::isinf(y) ? nan_l : 1.0L;
    return std::pow(x, y);
}

template <class T>
T maxmag_t(T x, T y) {
    if (std::fabs(x) > std::fabs(y))
        return x;
    if (std::fabs(y) > std::fabs(x))
        return y;
    return std::fmax(x, y);
}
template <class T>
T minmag_t(T x, T y) {
    if (std::fabs(x) < std::fabs(y))
        return x;
    if (std::fabs(y) < std::fabs(x))
        return y;
    return std::fmin(x, y);
}

// fract(x) = fmin(x - floor(x), the largest value below 1), in T; the
// spec's edge cases (7.5.1): fract(+-0) = +-0, fract(+-inf) = +-0,
// fract(NaN) = NaN.
template <class T>
T fract_t(T x) {
    if (std::isnan(x) || x == 0)
        return x;
    if (std::isinf(x))
        return std::copysign(T(0), x);
    const T below_one = std::nextafter(T(1), T(0));
    const T f = x - std::floor(x);
    return std::fmin(f, below_one);
}

// fract in half: x - floor(x) (exact in double) rounded to half, then
// capped below 1 (0x1.ffcp-1).
long double fract_half(long double x) {
    if (std::isnan(x) || x == 0)
        return x;
    if (std::isinf(x))
        return std::copysign(0.0L, x);
    const double difference = static_cast<double>(x) - std::floor(static_cast<double>(x));
    return std::fmin(static_cast<double>(Half(difference)), 1 - 0x1p-11);
}

// fma in half: a * b is exact in long double (22 bits) but a * b + c may
// need 80; the sum rounded to odd in long double (the exact sum when it
// fits, else its neighbour with an odd last bit) rounds to half as the exact
// sum does, since 64 bits is more than the 11 + 2 that rounding needs.
long double fma_half(long double a, long double b, long double c) {
    const long double p = a * b;
    const long double s = p + c;
    if (!std::isfinite(p) || !std::isfinite(c))
        return s;
    // The rounding error of s, exactly (TwoSum).
    const long double bv = s - p;
    const long double err = (p - (s - bv)) + (c - bv);
    if (err == 0)
        return s;
    int e = 0;
    const long double significand = std::ldexp(std::frexp(s, &e), 64); // an integer
    if (std::fmod(significand, 2.0L) != 0)
        return s;
    return std::nextafter(s, err > 0 ? inf_l : -inf_l);
}

// The low 7 bits of the quotient rounded to nearest that remainder(x, y)
// uses, with the sign of x / y.
int remquo_quotient(long double x, long double y) {
    const long double ax = std::fabs(x), ay = std::fabs(y);
    const long double m = std::fmod(ax, 128 * ay); // exact
    const long double f = std::fmod(ax, ay);       // exact
    const long double rem = std::remainder(ax, ay);
    int k = static_cast<int>((m - f) / ay); // exact: k * ay fits 64 bits
    if (rem != f)
        ++k;
    k &= 127;
    return std::signbit(x) != std::signbit(y) ? -k : k;
}

#define UNARY_L(fn_name, expr)                                                                     \
    Ref fn_name(const Args& x) {                                                                   \
        const long double a = x.a;                                                                 \
        return value(expr);                                                                        \
    }
#define BINARY_L(fn_name, expr)                                                                    \
    Ref fn_name(const Args& x) {                                                                   \
        const long double a = x.a, b = x.b;                                                        \
        return value(expr);                                                                        \
    }
#define UNARY_T(fn_name, expr) /* expr over auto a */                                              \
    Ref fn_name(const Args& x) {                                                                   \
        return value(in_type1(x, [](auto a) { return expr; }));                                    \
    }
#define BINARY_T(fn_name, expr)                                                                    \
    Ref fn_name(const Args& x) {                                                                   \
        return value(in_type2(x, [](auto a, auto b) { return expr; }));                            \
    }

UNARY_L(ref_acos, std::acos(a))
UNARY_L(ref_acosh, std::acosh(a))
UNARY_L(ref_acospi, std::acos(a) / pi_l)
UNARY_L(ref_asin, std::asin(a))
UNARY_L(ref_asinh, std::asinh(a))
UNARY_L(ref_asinpi, std::asin(a) / pi_l)
UNARY_L(ref_atan, std::atan(a))
UNARY_L(ref_atanh, std::atanh(a))
UNARY_L(ref_atanpi, std::atan(a) / pi_l)
UNARY_L(ref_cbrt, std::cbrt(a))
UNARY_L(ref_cos, std::cos(a))
UNARY_L(ref_cosh, std::cosh(a))
UNARY_L(ref_cospi, cospi_l(a))
UNARY_L(ref_erfc, std::erfc(a))
UNARY_L(ref_erf, std::erf(a))
UNARY_L(ref_exp, std::exp(a))
UNARY_L(ref_exp2, std::exp2(a))
UNARY_L(ref_exp10, std::pow(10.0L, a))
UNARY_L(ref_expm1, std::expm1(a))
UNARY_L(ref_log, std::log(a))
UNARY_L(ref_log2, std::log2(a))
UNARY_L(ref_log10, std::log10(a))
UNARY_L(ref_log1p, std::log1p(a))
UNARY_L(ref_rsqrt, 1 / std::sqrt(a))
UNARY_L(ref_sin, std::sin(a))
UNARY_L(ref_sinh, std::sinh(a))
UNARY_L(ref_sinpi, sinpi_l(a))
UNARY_L(ref_sqrt_l, std::sqrt(a))
UNARY_L(ref_tan, std::tan(a))
UNARY_L(ref_tanh, std::tanh(a))
UNARY_L(ref_tanpi, tanpi_l(a))
UNARY_L(ref_tgamma, std::tgamma(a))
UNARY_L(ref_lgamma, std::lgamma(a))
UNARY_L(ref_recip_l, 1 / a)
UNARY_L(ref_logb, std::logb(a))

// sqrt and 1/x: correctly rounded for double (the table's 0 ulp); float
// uses the long double value with its ULP limit.
Ref ref_sqrt(const Args& x) {
    return x.is_double ? value(in_type1(x, [](auto a) { return std::sqrt(a); })) : ref_sqrt_l(x);
}
Ref ref_recip(const Args& x) {
    return x.is_double ? value(in_type1(x, [](auto a) { return decltype(a)(1) / a; }))
                       : ref_recip_l(x);
}

UNARY_T(ref_ceil, std::ceil(a))
UNARY_T(ref_fabs, std::fabs(a))
UNARY_T(ref_floor, std::floor(a))
UNARY_T(ref_rint, std::rint(a))
UNARY_T(ref_round, std::round(a))
UNARY_T(ref_trunc, std::trunc(a))

BINARY_L(ref_atan2, std::atan2(a, b))
BINARY_L(ref_atan2pi, std::atan2(a, b) / pi_l)
BINARY_L(ref_hypot, std::hypot(a, b))
BINARY_L(ref_pow, std::pow(a, b))
BINARY_L(ref_powr, powr_l(a, b))
BINARY_L(ref_divide_l, a / b)

Ref ref_divide(const Args& x) {
    return x.is_double ? value(in_type2(x, [](auto a, auto b) { return a / b; })) : ref_divide_l(x);
}

BINARY_T(ref_copysign, std::copysign(a, b))
BINARY_T(ref_fdim, std::fdim(a, b))
BINARY_T(ref_fmod, std::fmod(a, b))
// The sign of a zero remainder is the sign of x (IEEE 754; some host
// libraries return +0 for subnormal divisors).
BINARY_T(ref_remainder,
         std::remainder(a, b) == 0 ? std::copysign(decltype(a)(0), a) : std::remainder(a, b))
Ref ref_nextafter(const Args& x) {
    if (x.is_half)
        return value(static_cast<double>(next_half(Half(x.a), Half(x.b))));
    return value(in_type2(x, [](auto a, auto b) { return std::nextafter(a, b); }));
}

// fmax, fmin, maxmag, minmag of +0 and -0 may return either zero.
Ref with_either_zero(const Args& x, Ref ref) {
    if (x.a == 0 && x.b == 0) {
        ref.value = x.a;
        ref.has_alternative = true;
        ref.alternative = x.b;
    }
    return ref;
}
Ref ref_fmax(const Args& x) {
    return with_either_zero(x, value(in_type2(x, [](auto a, auto b) { return std::fmax(a, b); })));
}
Ref ref_fmin(const Args& x) {
    return with_either_zero(x, value(in_type2(x, [](auto a, auto b) { return std::fmin(a, b); })));
}
Ref ref_maxmag(const Args& x) {
    return with_either_zero(x, value(in_type2(x, [](auto a, auto b) { return maxmag_t(a, b); })));
}
Ref ref_minmag(const Args& x) {
    return with_either_zero(x, value(in_type2(x, [](auto a, auto b) { return minmag_t(a, b); })));
}

Ref ref_fma(const Args& x) {
    if (x.is_half)
        return value(fma_half(x.a, x.b, x.c));
    return value(in_type3(x, [](auto a, auto b, auto c) { return std::fma(a, b, c); }));
}
// mad: a correctly rounded fma, or a multiply and an add each correctly
// rounded (for half, the spec leaves mad's accuracy implementation-defined:
// these are shown, not required).
Ref ref_mad(const Args& x) {
    Ref ref = ref_fma(x);
    ref.has_alternative = true;
    if (x.is_half) {
        // The product rounded to half; the sum of two halves is exact in double.
        const double product = static_cast<double>(x.a * x.b);
        ref.alternative = static_cast<double>(Half(product)) + static_cast<double>(x.c);
        return ref;
    }
    ref.alternative = in_type3(x, [](auto a, auto b, auto c) {
        volatile auto product = a * b; // no contraction into an fma
        return product + c;
    });
    return ref;
}

Ref ref_ldexp(const Args& x) {
    // Correctly rounded in the target type (denormal results round once);
    // for half, exact in double (or far below half's smallest denormal).
    return value(x.is_double || x.is_half
                     ? static_cast<long double>(std::ldexp(static_cast<double>(x.a), x.n))
                     : static_cast<long double>(std::ldexp(static_cast<float>(x.a), x.n)));
}
Ref ref_pown(const Args& x) {
    return value(std::pow(x.a, static_cast<long double>(x.n)));
}
Ref ref_rootn(const Args& x) {
    return value(rootn_l(x.a, x.n));
}

Ref ref_ilogb(const Args& x) {
    Ref ref;
    if (std::isnan(x.a))
        ref.int_value = INT_MAX; // FP_ILOGBNAN
    else if (x.a == 0)
        ref.int_value = INT_MIN; // FP_ILOGB0
    else if (std::isinf(x.a))
        ref.int_value = INT_MAX;
    else
        ref.int_value = std::ilogb(x.a);
    return ref;
}

Ref ref_sincos(const Args& x) {
    Ref ref;
    ref.value = std::sin(x.a);
    ref.value2 = std::cos(x.a);
    return ref;
}
Ref ref_modf(const Args& x) {
    Ref ref;
    long double integral = 0;
    ref.value = std::modf(x.a, &integral);
    ref.value2 = integral;
    return ref;
}
Ref ref_fract(const Args& x) {
    Ref ref;
    ref.value = x.is_half ? fract_half(x.a) : in_type1(x, [](auto a) { return fract_t(a); });
    ref.value2 = std::isnan(x.a) ? nan_l : std::floor(x.a);
    return ref;
}
Ref ref_frexp(const Args& x) {
    Ref ref;
    int e = 0;
    ref.value = std::frexp(x.a, &e);
    ref.int_value = std::isfinite(x.a) ? e : 0;
    return ref;
}
Ref ref_lgamma_r(const Args& x) {
    Ref ref;
    int sign = 0;
    ref.value = lgammal_r(x.a, &sign);
    // The spec: 0 in signp for zero and the negative integers (the poles).
    ref.int_value = x.a <= 0 && std::isfinite(x.a) && std::floor(x.a) == x.a ? 0 : sign;
    return ref;
}
Ref ref_remquo(const Args& x) {
    Ref ref = ref_remainder(x);
    // The spec: 0 in quo with the NaN result (x infinite, y zero, a NaN).
    if (std::isfinite(x.a) && !std::isnan(x.b) && x.b != 0)
        ref.int_value = remquo_quotient(x.a, x.b);
    return ref;
}
Ref ref_nan(const Args&) {
    return value(nan_l);
}

// Limits of the full profile (OpenCL C 3.0, "ULP values for single
// precision built-in math functions", "... double precision ..." and "...
// half precision built-in math functions"), in the columns float, double,
// half; correctly rounded is 0 (exact). The half table names no limit for
// lgamma and lgamma_r (undefined, as for float) and leaves mad
// implementation-defined.
constexpr double none = -1;
constexpr double undefined = undefined_limit;
constexpr double half_prefix_limit = 8192;

std::vector<Function> make_table() {
    std::vector<Function> t;
    auto add = [&](const char* name, const char* expression, Shape shape, Check check,
                   double float_limit, double double_limit, double half_limit,
                   RefFn ref) -> Function& {
        t.push_back({name, expression, shape, check, float_limit, double_limit, check, half_limit,
                     check, ref});
        return t.back();
    };
    using S = Shape;
    using C = Check;
    add("acos", "acos(a)", S::t_t, C::ulps, 4, 4, 2, ref_acos);
    add("acosh", "acosh(a)", S::t_t, C::ulps, 4, 4, 2, ref_acosh);
    add("acospi", "acospi(a)", S::t_t, C::ulps, 5, 5, 2, ref_acospi);
    add("asin", "asin(a)", S::t_t, C::ulps, 4, 4, 2, ref_asin);
    add("asinh", "asinh(a)", S::t_t, C::ulps, 4, 4, 2, ref_asinh);
    add("asinpi", "asinpi(a)", S::t_t, C::ulps, 5, 5, 2, ref_asinpi);
    add("atan", "atan(a)", S::t_t, C::ulps, 5, 5, 2, ref_atan);
    add("atan2", "atan2(a, b)", S::t_tt, C::ulps, 6, 6, 2, ref_atan2);
    add("atanh", "atanh(a)", S::t_t, C::ulps, 5, 5, 2, ref_atanh);
    add("atanpi", "atanpi(a)", S::t_t, C::ulps, 5, 5, 2, ref_atanpi);
    add("atan2pi", "atan2pi(a, b)", S::t_tt, C::ulps, 6, 6, 2, ref_atan2pi);
    add("cbrt", "cbrt(a)", S::t_t, C::ulps, 2, 2, 2, ref_cbrt);
    add("ceil", "ceil(a)", S::t_t, C::exact, 0, 0, 0, ref_ceil);
    add("copysign", "copysign(a, b)", S::t_tt, C::exact, 0, 0, 0, ref_copysign);
    add("cos", "cos(a)", S::t_t, C::ulps, 4, 4, 2, ref_cos);
    add("cosh", "cosh(a)", S::t_t, C::ulps, 4, 4, 2, ref_cosh);
    add("cospi", "cospi(a)", S::t_t, C::ulps, 4, 4, 2, ref_cospi);
    add("erfc", "erfc(a)", S::t_t, C::ulps, 16, 16, 4, ref_erfc);
    add("erf", "erf(a)", S::t_t, C::ulps, 16, 16, 4, ref_erf);
    add("exp", "exp(a)", S::t_t, C::ulps, 3, 3, 2, ref_exp);
    add("exp2", "exp2(a)", S::t_t, C::ulps, 3, 3, 2, ref_exp2);
    add("exp10", "exp10(a)", S::t_t, C::ulps, 3, 3, 2, ref_exp10);
    add("expm1", "expm1(a)", S::t_t, C::ulps, 3, 3, 2, ref_expm1);
    add("fabs", "fabs(a)", S::t_t, C::exact, 0, 0, 0, ref_fabs);
    add("fdim", "fdim(a, b)", S::t_tt, C::exact, 0, 0, 0, ref_fdim);
    add("floor", "floor(a)", S::t_t, C::exact, 0, 0, 0, ref_floor);
    add("fma", "fma(a, b, c)", S::t_ttt, C::exact, 0, 0, 0, ref_fma);
    add("fmax", "fmax(a, b)", S::t_tt, C::exact, 0, 0, 0, ref_fmax);
    add("fmin", "fmin(a, b)", S::t_tt, C::exact, 0, 0, 0, ref_fmin);
    add("fmod", "fmod(a, b)", S::t_tt, C::exact, 0, 0, 0, ref_fmod);
    add("fract", "fract(a, &p)", S::t_tpt, C::exact, 0, 0, 0, ref_fract);
    add("frexp", "frexp(a, &p)", S::t_tpi, C::exact, 0, 0, 0, ref_frexp);
    add("hypot", "hypot(a, b)", S::t_tt, C::ulps, 4, 4, 2, ref_hypot);
    add("ilogb", "ilogb(a)", S::i_t, C::exact, 0, 0, 0, ref_ilogb);
    add("ldexp", "ldexp(a, n)", S::t_ti, C::exact, 0, 0, 0, ref_ldexp);
    // lgamma: the ULP error is undefined; the special values (Annex F, the
    // sign of lgamma_r) are still checked.
    add("lgamma", "lgamma(a)", S::t_t, C::ulps, undefined, undefined, undefined, ref_lgamma);
    add("lgamma_r", "lgamma_r(a, &p)", S::t_tpi, C::ulps, undefined, undefined, undefined,
        ref_lgamma_r);
    add("log", "log(a)", S::t_t, C::ulps, 3, 3, 2, ref_log);
    add("log2", "log2(a)", S::t_t, C::ulps, 3, 3, 2, ref_log2);
    add("log10", "log10(a)", S::t_t, C::ulps, 3, 3, 2, ref_log10);
    add("log1p", "log1p(a)", S::t_t, C::ulps, 2, 2, 2, ref_log1p);
    add("logb", "logb(a)", S::t_t, C::exact, 0, 0, 0, ref_logb);
    add("mad", "mad(a, b, c)", S::t_ttt, C::exact, 0, 0, 0, ref_mad).half_check = C::report;
    add("maxmag", "maxmag(a, b)", S::t_tt, C::exact, 0, 0, 0, ref_maxmag);
    add("minmag", "minmag(a, b)", S::t_tt, C::exact, 0, 0, 0, ref_minmag);
    add("modf", "modf(a, &p)", S::t_tpt, C::exact, 0, 0, 0, ref_modf);
    add("nan", "nan(NANCODE(a))", S::t_nancode, C::exact, 0, 0, 0, ref_nan);
    add("nextafter", "nextafter(a, b)", S::t_tt, C::exact, 0, 0, 0, ref_nextafter);
    add("pow", "pow(a, b)", S::t_tt, C::ulps, 16, 16, 4, ref_pow);
    add("pown", "pown(a, n)", S::t_ti, C::ulps, 16, 16, 4, ref_pown);
    add("powr", "powr(a, b)", S::t_tt, C::ulps, 16, 16, 4, ref_powr);
    add("remainder", "remainder(a, b)", S::t_tt, C::exact, 0, 0, 0, ref_remainder);
    add("remquo", "remquo(a, b, &p)", S::t_ttpi, C::exact, 0, 0, 0, ref_remquo);
    add("rint", "rint(a)", S::t_t, C::exact, 0, 0, 0, ref_rint);
    add("rootn", "rootn(a, n)", S::t_ti, C::ulps, 16, 16, 4, ref_rootn);
    add("round", "round(a)", S::t_t, C::exact, 0, 0, 0, ref_round);
    add("rsqrt", "rsqrt(a)", S::t_t, C::ulps, 2, 2, 1, ref_rsqrt);
    add("sin", "sin(a)", S::t_t, C::ulps, 4, 4, 2, ref_sin);
    add("sincos", "sincos(a, &p)", S::t_tpt, C::ulps, 4, 4, 2, ref_sincos).second_ulps = true;
    add("sinh", "sinh(a)", S::t_t, C::ulps, 4, 4, 2, ref_sinh);
    add("sinpi", "sinpi(a)", S::t_t, C::ulps, 4, 4, 2, ref_sinpi);
    add("sqrt", "sqrt(a)", S::t_t, C::ulps, 3, 0, 1.5, ref_sqrt).double_check = C::exact;
    add("tan", "tan(a)", S::t_t, C::ulps, 5, 5, 2.5, ref_tan);
    add("tanh", "tanh(a)", S::t_t, C::ulps, 5, 5, 2, ref_tanh);
    add("tanpi", "tanpi(a)", S::t_t, C::ulps, 6, 6, 2, ref_tanpi);
    add("tgamma", "tgamma(a)", S::t_t, C::ulps, 16, 16, 4, ref_tgamma);
    add("trunc", "trunc(a)", S::t_t, C::exact, 0, 0, 0, ref_trunc);
    add("divide", "a / b", S::t_tt, C::ulps, 2.5, 0, 1, ref_divide).double_check = C::exact;
    add("recip", "1 / a", S::t_t, C::ulps, 2.5, 0, 1, ref_recip).double_check = C::exact;
    for (Function& f : t)
        if (f.name == "fmax" || f.name == "fmin" || f.name == "maxmag" || f.name == "minmag" ||
            f.name == "tgamma")
            f.zero_sign_free = true;

    // half_: float only, at least 10 bits (8192 ULPs), in the spec's
    // domains; denormals may be flushed.
    struct Reduced {
        const char* name;
        const char* expression;
        Shape shape;
        RefFn ref;
        double domain;
    };
    const Reduced reduced[] = {
        {"cos", "cos(a)", S::t_t, ref_cos, 65536},
        {"divide", "divide(a, b)", S::t_tt, ref_divide_l, 0},
        {"exp", "exp(a)", S::t_t, ref_exp, 0},
        {"exp2", "exp2(a)", S::t_t, ref_exp2, 0},
        {"exp10", "exp10(a)", S::t_t, ref_exp10, 0},
        {"log", "log(a)", S::t_t, ref_log, 0},
        {"log2", "log2(a)", S::t_t, ref_log2, 0},
        {"log10", "log10(a)", S::t_t, ref_log10, 0},
        {"powr", "powr(a, b)", S::t_tt, ref_powr, 0},
        {"recip", "recip(a)", S::t_t, ref_recip_l, 0},
        {"rsqrt", "rsqrt(a)", S::t_t, ref_rsqrt, 0},
        {"sin", "sin(a)", S::t_t, ref_sin, 65536},
        {"sqrt", "sqrt(a)", S::t_t, ref_sqrt_l, 0},
        {"tan", "tan(a)", S::t_t, ref_tan, 65536},
    };
    for (const char* prefix : {"half_", "native_"}) {
        const bool native = prefix[0] == 'n';
        for (const Reduced& r : reduced) {
            Function& f = add("", "", r.shape, native ? C::report : C::ulps,
                              native ? 0 : half_prefix_limit, none, none, r.ref);
            f.name = std::string(prefix) + r.name;
            f.expression = std::string(prefix) + r.expression;
            f.domain = native ? 0 : r.domain;
            f.may_flush = true;
        }
    }
    return t;
}

} // namespace

const std::vector<Function>& functions() {
    static const std::vector<Function> table = make_table();
    return table;
}

} // namespace mathconf
