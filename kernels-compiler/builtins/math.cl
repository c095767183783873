// Math functions (OpenCL C 3.0, 6.15.2), for float and double and their
// vectors. LLVM intrinsics where LLVM has one (vector forms included, which
// the vectorizer keeps), libm otherwise; float functions without a libm
// equivalent are computed in double.

// --- LLVM intrinsics, every width at once.
#define INTRINSIC_1(NAME, BUILTIN)                                             \
  INTRINSIC_1_T(NAME, BUILTIN, float)                                          \
  INTRINSIC_1_T(NAME, BUILTIN, double)
#define INTRINSIC_1_T(NAME, BUILTIN, T)                                        \
  OVERLOAD T NAME(T x) { return BUILTIN(x); }                                  \
  OVERLOAD T##2 NAME(T##2 x) { return BUILTIN(x); }                            \
  OVERLOAD T##3 NAME(T##3 x) { return BUILTIN(x); }                            \
  OVERLOAD T##4 NAME(T##4 x) { return BUILTIN(x); }                            \
  OVERLOAD T##8 NAME(T##8 x) { return BUILTIN(x); }                            \
  OVERLOAD T##16 NAME(T##16 x) { return BUILTIN(x); }
#define INTRINSIC_2(NAME, BUILTIN)                                             \
  INTRINSIC_2_T(NAME, BUILTIN, float)                                          \
  INTRINSIC_2_T(NAME, BUILTIN, double)
#define INTRINSIC_2_T(NAME, BUILTIN, T)                                        \
  OVERLOAD T NAME(T x, T y) { return BUILTIN(x, y); }                          \
  OVERLOAD T##2 NAME(T##2 x, T##2 y) { return BUILTIN(x, y); }                 \
  OVERLOAD T##3 NAME(T##3 x, T##3 y) { return BUILTIN(x, y); }                 \
  OVERLOAD T##4 NAME(T##4 x, T##4 y) { return BUILTIN(x, y); }                 \
  OVERLOAD T##8 NAME(T##8 x, T##8 y) { return BUILTIN(x, y); }                 \
  OVERLOAD T##16 NAME(T##16 x, T##16 y) { return BUILTIN(x, y); }

INTRINSIC_1(sqrt, __builtin_elementwise_sqrt)
INTRINSIC_1(fabs, __builtin_elementwise_abs)
INTRINSIC_1(floor, __builtin_elementwise_floor)
INTRINSIC_1(ceil, __builtin_elementwise_ceil)
INTRINSIC_1(trunc, __builtin_elementwise_trunc)
INTRINSIC_1(rint, __builtin_elementwise_rint)
INTRINSIC_1(round, __builtin_elementwise_round)
INTRINSIC_1(sin, __builtin_elementwise_sin)
INTRINSIC_1(cos, __builtin_elementwise_cos)
INTRINSIC_1(exp2, __builtin_elementwise_exp2)
INTRINSIC_1(log2, __builtin_elementwise_log2)
INTRINSIC_1(log10, __builtin_elementwise_log10)
// LLVM 19's intrinsics for these become libm calls in scalar code and, in
// vector code, libmvec's vector variants (kernels-compiler/README.md,
// "Vector math"), so tanh(float8) is one 8-lane call.
INTRINSIC_1(tan, __builtin_elementwise_tan)
INTRINSIC_1(asin, __builtin_elementwise_asin)
INTRINSIC_1(acos, __builtin_elementwise_acos)
INTRINSIC_1(atan, __builtin_elementwise_atan)
INTRINSIC_1(sinh, __builtin_elementwise_sinh)
INTRINSIC_1(cosh, __builtin_elementwise_cosh)
INTRINSIC_1(tanh, __builtin_elementwise_tanh)
// double pow is libm's and libmvec's, which give NaN for a signaling NaN
// to the power 0 and for 1 to the power of a signaling NaN; OpenCL says 1
// for both, whatever the other operand.
#define POW_T(T)                                                               \
  OVERLOAD T pow(T x, T y) {                                                   \
    const T Pow = __builtin_elementwise_pow(x, y);                             \
    return (y == (T)0.0 | x == (T)1.0) ? (T)1.0 : Pow;                         \
  }
POW_T(double)
POW_T(double2)
POW_T(double3)
POW_T(double4)
POW_T(double8)
POW_T(double16)
INTRINSIC_1_T(log, __builtin_elementwise_log, double)
INTRINSIC_2(copysign, __builtin_elementwise_copysign)
INTRINSIC_2(fmin, __builtin_elementwise_min)
INTRINSIC_2(fmax, __builtin_elementwise_max)

#include "exp_log.cl"

#define FMA_T(T)                                                               \
  OVERLOAD T fma(T a, T b, T c) { return __builtin_elementwise_fma(a, b, c); } \
  OVERLOAD T mad(T a, T b, T c) { return a * b + c; }
FOR_EACH_WIDTH(FMA_T, float)
FOR_EACH_WIDTH(FMA_T, double)

// fmin/fmax(gentype, scalar).
#define MINMAX_SCALAR(T, N)                                                    \
  OVERLOAD T##N fmin(T##N x, T y) { return fmin(x, (T##N)y); }                 \
  OVERLOAD T##N fmax(T##N x, T y) { return fmax(x, (T##N)y); }
#define MINMAX_SCALAR_ALL(T)                                                   \
  MINMAX_SCALAR(T, 2) MINMAX_SCALAR(T, 3) MINMAX_SCALAR(T, 4)                  \
  MINMAX_SCALAR(T, 8) MINMAX_SCALAR(T, 16)
MINMAX_SCALAR_ALL(float)
MINMAX_SCALAR_ALL(double)

// --- libm, scalar; vectors element by element. The C names of the double
// functions are the OpenCL ones, hence the asm labels.
#define LIBM_DECL_1(NAME)                                                      \
  PURE float libm_##NAME##f(float) __asm__(#NAME "f");                         \
  PURE double libm_##NAME(double) __asm__(#NAME);
#define LIBM_DECL_2(NAME)                                                      \
  PURE float libm_##NAME##f(float, float) __asm__(#NAME "f");                  \
  PURE double libm_##NAME(double, double) __asm__(#NAME);
#define LIBM_1(NAME)                                                           \
  LIBM_DECL_1(NAME)                                                            \
  OVERLOAD float NAME(float x) { return libm_##NAME##f(x); }                   \
  OVERLOAD double NAME(double x) { return libm_##NAME(x); }                    \
  VEC_1(float, NAME, float)                                                    \
  VEC_1(double, NAME, double)
#define LIBM_2(NAME)                                                           \
  LIBM_DECL_2(NAME)                                                            \
  OVERLOAD float NAME(float x, float y) { return libm_##NAME##f(x, y); }       \
  OVERLOAD double NAME(double x, double y) { return libm_##NAME(x, y); }       \
  VEC_2(float, NAME, float, float)                                             \
  VEC_2(double, NAME, double, double)

LIBM_1(acosh)
LIBM_1(asinh)
LIBM_1(atanh)
LIBM_1(erf)
LIBM_1(erfc)
LIBM_1(exp10)
LIBM_1(expm1)
LIBM_1(log1p)
LIBM_1(logb)
LIBM_1(tgamma)
LIBM_2(atan2)
LIBM_2(fdim)
LIBM_2(fmod)
// hypot: glibc's gives NaN for an infinity and a signaling NaN; C99 (and
// OpenCL) say +inf whenever one argument is infinite.
LIBM_DECL_2(hypot)
OVERLOAD float hypot(float x, float y) {
  return (isinf(x) | isinf(y)) ? INFINITY : libm_hypotf(x, y);
}
OVERLOAD double hypot(double x, double y) {
  return (isinf(x) | isinf(y)) ? (double)INFINITY : libm_hypot(x, y);
}
VEC_2(float, hypot, float, float)
VEC_2(double, hypot, double, double)
LIBM_2(nextafter)

// cbrt: x = t 2^(3k) with t in [1, 8) (denormals scaled by 2^54 first), a
// quadratic first guess within 8 %, three Halley steps
// y (y^3 + 2t) / (2y^3 + t) (cubic convergence: about 1e-4, 1e-12, then the
// rounding of double), then a Newton step on the residual t - y^3 computed
// with fma (y^2 and y^2 y exactly as sums of two doubles), which leaves
// about 0.5 ulp (limit 2; 0.50 measured). float: the double result rounded
// once.
OVERLOAD double cbrt(double x) {
  if (x == 0.0 || isinf(x) || isnan(x))
    return x + x;
  double ax = fabs(x);
  int shift = 0;
  if (ax < DBL_MIN) {
    ax *= 0x1p54;
    shift = -18;
  }
  int e = ilogb(ax);
  int k = e >= 0 ? e / 3 : -((2 - e) / 3);
  double t = __builtin_ldexp(ax, -3 * k); // [1, 8)
  double y = 1.0 + (t - 1.0) * (0.1428571428571428 + (8.0 - t) * 0.0238095238);
  for (int i = 0; i < 3; ++i) {
    double y3 = y * y * y;
    y = y * (y3 + 2.0 * t) / (2.0 * y3 + t);
  }
  double y2 = y * y;
  double e2 = fma(y, y, -y2); // y^2 = y2 + e2
  double y3 = y2 * y;
  double e3 = fma(y2, y, -y3); // y2 y = y3 + e3
  double residual = (t - y3) - e3 - e2 * y;
  y = y + residual / (3.0 * y2);
  double r = __builtin_ldexp(y, k + shift);
  return x < 0.0 ? -r : r;
}
OVERLOAD float cbrt(float x) { return (float)cbrt((double)x); }
VEC_1(float, cbrt, float)
VEC_1(double, cbrt, double)

// remquo and remainder (IEEE 754 remainder, exact): |x| is first reduced
// exactly modulo 128 |y| by fmod (fmod(|x|, inf) = |x| when 128 |y|
// overflows), then the 7 low bits of the quotient come from a binary long
// division, each subtraction m - 2^i |y| exact since 2^i |y| <= m <
// 2^(i+1) |y|; rounding the quotient to nearest (ties to even) subtracts |y|
// once more, again exactly. A zero remainder has the sign of x; with a NaN
// result (x infinite, y zero, a NaN) the quotient is 0.
#define REMQUO_IMPL_T(T)                                                       \
  static T remquo_impl_##T(T x, T y, int *quo) {                               \
    *quo = 0;                                                                  \
    if (isnan(x) || isnan(y) || isinf(x) || y == (T)0)                         \
      return (T)NAN;                                                           \
    if (x == (T)0) /* a denormal x read as zero too (DAZ): its zero */         \
      return copysign((T)0, x);                                                \
    if (isinf(y))                                                              \
      return x;                                                                \
    T ay = fabs(y);                                                            \
    T m = fmod(fabs(x), (T)128 * ay);                                          \
    int q = 0;                                                                 \
    for (int i = 6; i >= 0; --i) {                                             \
      T step = __builtin_ldexp(ay, i);                                         \
      if (m >= step) {                                                         \
        m -= step;                                                             \
        q |= 1 << i;                                                           \
      }                                                                        \
    }                                                                          \
    T rest = ay - m;                                                           \
    if (m > rest || (m == rest && (q & 1))) {                                  \
      m = -rest;                                                               \
      q += 1;                                                                  \
    }                                                                          \
    q &= 127;                                                                  \
    *quo = signbit(x) != signbit(y) ? -q : q;                                  \
    return signbit(x) ? -m : m;                                                \
  }                                                                            \
  OVERLOAD T remainder(T x, T y) {                                             \
    int q;                                                                     \
    return remquo_impl_##T(x, y, &q);                                          \
  }                                                                            \
  VEC_2(T, remainder, T, T)
REMQUO_IMPL_T(double)
// float through double, where the float denormals are normal numbers: the
// steps stay exact under -cl-denorms-are-zero too (DAZ would read a
// denormal partial remainder as zero), and the one rounding to float is
// exact (or flushes a denormal remainder under FTZ).
static float remquo_impl_float(float x, float y, int *quo) {
  return (float)remquo_impl_double((double)x, (double)y, quo);
}
OVERLOAD float remainder(float x, float y) {
  int q;
  return remquo_impl_float(x, y, &q);
}
VEC_2(float, remainder, float, float)

// --- Computed in double for float; from the double function for double.
#define PI_1(NAME, BASE)                                                       \
  OVERLOAD double NAME(double x) { return BASE(x) * M_1_PI; }                  \
  OVERLOAD float NAME(float x) { return (float)(BASE((double)x) * M_1_PI); }   \
  VEC_1(float, NAME, float)                                                    \
  VEC_1(double, NAME, double)
PI_1(acospi, acos)
PI_1(asinpi, asin)
PI_1(atanpi, atan)
OVERLOAD double atan2pi(double y, double x) { return atan2(y, x) * M_1_PI; }
OVERLOAD float atan2pi(float y, float x) {
  return (float)(atan2((double)y, (double)x) * M_1_PI);
}
VEC_2(float, atan2pi, float, float)
VEC_2(double, atan2pi, double, double)

// sin(pi x) and cos(pi x) with exact argument reduction: r = |x| mod 2 is
// exact, and so are the reflections below.
static double sinpi_reduced(double r) { // r in [0, 0.5]
  return r <= 0.25 ? sin(M_PI * r) : cos(M_PI * (0.5 - r));
}
OVERLOAD double sinpi(double x) {
  if (isinf(x) || isnan(x))
    return NAN;
  double r = fmod(fabs(x), 2.0);
  double s = 1.0;
  if (r >= 1.0) {
    r -= 1.0;
    s = -1.0;
  }
  if (r > 0.5)
    r = 1.0 - r;
  if (r == 0.0)
    return copysign(0.0, x);
  double v = s * sinpi_reduced(r);
  return x < 0.0 ? -v : v;
}
OVERLOAD double cospi(double x) {
  if (isinf(x) || isnan(x))
    return NAN;
  double r = fmod(fabs(x), 2.0);
  if (r > 1.0)
    r = 2.0 - r;
  if (r <= 0.25)
    return cos(M_PI * r);
  if (r <= 0.75)
    return sin(M_PI * (0.5 - r));
  return -cos(M_PI * (1.0 - r));
}
OVERLOAD double tanpi(double x) {
  double s = sinpi(x), c = cospi(x);
  if (c == 0.0)
    return s > 0.0 ? INFINITY : -INFINITY;
  return s / c;
}
#define VIA_DOUBLE_1(NAME)                                                     \
  OVERLOAD float NAME(float x) { return (float)NAME((double)x); }              \
  VEC_1(float, NAME, float)                                                    \
  VEC_1(double, NAME, double)
VIA_DOUBLE_1(sinpi)
VIA_DOUBLE_1(cospi)
VIA_DOUBLE_1(tanpi)

// rsqrt for float: 1 / sqrt(x) in float, two correctly rounded operations
// (at most about 1.5 ulp, limit 2; denormal arguments have normal square
// roots). The builtins keep these exact semantics in every mode: the math
// options are fast-math flags on the user's own instructions, never
// function attributes of the kernel the builtin is inlined into
// (docs/kernel-compiler.md), so the code generator does not make a
// reciprocal square root estimate of it under -cl-fast-relaxed-math (that
// estimate was 2.03 ulp off, and -inf for denormals).
OVERLOAD float rsqrt(float x) { return 1.0f / sqrt(x); }
OVERLOAD double rsqrt(double x) { return 1.0 / sqrt(x); }
VEC_1(float, rsqrt, float)
VEC_1(double, rsqrt, double)

// powr: pow for x >= 0 with the specification's special cases; both zeros
// behave as +0 (powr(+-0, y > 0) = +0, powr(+-0, y < 0) = +inf).
OVERLOAD double powr(double x, double y) {
  if (x < 0.0 || isnan(x) || isnan(y))
    return NAN;
  if (x == 1.0)
    return isinf(y) ? NAN : 1.0;
  if (y == 0.0)
    return (x == 0.0 || isinf(x)) ? NAN : 1.0;
  if (x == 0.0)
    return y < 0.0 ? (double)INFINITY : 0.0;
  return pow(x, y);
}
// float: the float pow of exp_log.cl (16 lanes to a 512-bit vector; no
// double, no libmvec call), the same special cases as selects.
OVERLOAD float powr(float x, float y) {
  float Result = pow(x, y);
  Result = x == 0.0f ? (y < 0.0f ? INFINITY : 0.0f) : Result;
  Result = y == 0.0f ? (((x == 0.0f) | isinf(x)) ? NAN : 1.0f) : Result;
  Result = x == 1.0f ? (isinf(y) ? NAN : 1.0f) : Result;
  return ((x < 0.0f) | isnan(x) | isnan(y)) ? NAN : Result;
}
VEC_2(float, powr, float, float)
VEC_2(double, powr, double, double)

OVERLOAD double pown(double x, int n) { return pow(x, (double)n); }
VEC_2(double, pown, double, int)

// rootn: pow(|x|, 1/n) is off by |log x| times the rounding error of 1/n
// (over 100 ulp for denormal x), so one Newton step on y^n = x follows,
// with y^n and x scaled to [0.5, 1) so that neither under- nor overflows:
// y^n / x = pow(my, n) / mx * 2^(n ey - ex) where y = my 2^ey, x = mx 2^ex.
// The ratio c is within a few ulp of 1 + n e (e the relative error of y),
// so y - y (c - 1) / n is within about 1 ulp (limit 16). For |n| > 1000
// (pow(my, n) could underflow) the error of 1/n costs at most
// |log x| / |n| < 0.75 ulp and the first value stands.
OVERLOAD double rootn(double x, int n) {
  if (n == 0 || isnan(x) || (x < 0.0 && (n & 1) == 0))
    return NAN;
  if (x == 0.0) { // a denormal x read as zero too (DAZ): its zero
    if (n > 0)
      return (n & 1) ? copysign(0.0, x) : 0.0;
    return (n & 1) ? copysign((double)INFINITY, x) : (double)INFINITY;
  }
  double ax = fabs(x);
  double r;
  if (isinf(ax)) {
    r = n > 0 ? ax : 0.0;
  } else if (n == 1) {
    r = ax;
  } else if (n == -1) {
    r = 1.0 / ax;
  } else {
    r = pow(ax, 1.0 / (double)n);
    if (n >= -1000 && n <= 1000 && r != 0.0 && !isinf(r)) {
      int ex, ey;
      double mx = __builtin_frexp(ax, &ex);
      double my = __builtin_frexp(r, &ey);
      double c = __builtin_ldexp(pow(my, (double)n) / mx, n * ey - ex);
      r = r - r * ((c - 1.0) / (double)n);
    }
  }
  return x < 0.0 ? -r : r;
}
OVERLOAD float rootn(float x, int n) { return (float)rootn((double)x, n); }
VEC_2(float, rootn, float, int)
VEC_2(double, rootn, double, int)

#define LDEXP_T(T)                                                             \
  OVERLOAD T ldexp(T x, int k) { return __builtin_ldexp(x, k); }               \
  VEC_2(T, ldexp, T, int)                                                      \
  VEC_2S(T, ldexp, T, int)
OVERLOAD float ldexp(float x, int k) { return __builtin_ldexpf(x, k); }
VEC_2(float, ldexp, float, int)
VEC_2S(float, ldexp, float, int)
OVERLOAD double ldexp(double x, int k) { return __builtin_ldexp(x, k); }
VEC_2(double, ldexp, double, int)
VEC_2S(double, ldexp, double, int)

// ilogb with the OpenCL C values of opencl-c-base.h: FP_ILOGB0 for zero,
// FP_ILOGBNAN for NaN (the C library's may differ: glibc returns INT_MIN
// for NaN on x86), INT_MAX for the infinities.
PURE int libm_ilogbf(float) __asm__("ilogbf");
PURE int libm_ilogb(double) __asm__("ilogb");
#define ILOGB_T(T, LIBM)                                                       \
  OVERLOAD int ilogb(T x) {                                                    \
    if (isnan(x))                                                              \
      return FP_ILOGBNAN;                                                      \
    if (x == (T)0)                                                             \
      return FP_ILOGB0;                                                        \
    if (isinf(x))                                                              \
      return INT_MAX;                                                          \
    return LIBM(x);                                                            \
  }                                                                            \
  VEC_1(int, ilogb, T)
ILOGB_T(float, libm_ilogbf)
ILOGB_T(double, libm_ilogb)

OVERLOAD float nan(uint code) { return as_float(0x7fc00000u | (code & 0x3fffffu)); }
OVERLOAD double nan(ulong code) {
  return as_double(0x7ff8000000000000ul | (code & 0x7fffffffffffful));
}
VEC_1(float, nan, uint)
VEC_1(double, nan, ulong)

#define MAGNITUDE_T(T)                                                         \
  OVERLOAD T maxmag(T x, T y) {                                                \
    T ax = fabs(x), ay = fabs(y);                                              \
    return ax > ay ? x : ay > ax ? y : fmax(x, y);                             \
  }                                                                            \
  OVERLOAD T minmag(T x, T y) {                                                \
    T ax = fabs(x), ay = fabs(y);                                              \
    return ax < ay ? x : ay < ax ? y : fmin(x, y);                             \
  }                                                                            \
  VEC_2(T, maxmag, T, T)                                                       \
  VEC_2(T, minmag, T, T)
MAGNITUDE_T(float)
MAGNITUDE_T(double)

// --- lgamma and lgamma_r (the spec leaves their precision undefined). For
// float, computed in double with libm's lgamma_r and rounded once: closer
// than lgammaf, lgamma and lgamma_r agree bit for bit, and the JIT needs
// only the double functions from the host's libm.
PURE double libm_lgamma(double) __asm__("lgamma");
double libm_lgamma_r(double, int *) __asm__("lgamma_r");
// The spec wants 0 in signp at the poles (zero and the negative integers),
// where the C library reports a sign of 1 (or -1 for -0).
static double lgamma_r_double(double x, int *s) {
  double r = libm_lgamma_r(x, s);
  if (x <= 0.0 && x == floor(x) && !isinf(x))
    *s = 0;
  return r;
}
static float lgamma_r_float(float x, int *s) {
  return (float)lgamma_r_double((double)x, s);
}
OVERLOAD double lgamma(double x) { return libm_lgamma(x); }
OVERLOAD float lgamma(float x) {
  int s;
  return lgamma_r_float(x, &s);
}
VEC_1(float, lgamma, float)
VEC_1(double, lgamma, double)

// --- Functions with a pointer result, for every address space.

#define POINTER_FUNCTIONS(AS, T, I, ONE_BELOW)                                 \
  OVERLOAD T fract(T x, AS T *iptr) {                                          \
    T f = floor(x);                                                            \
    *iptr = f;                                                                 \
    if (isnan(x))                                                              \
      return x;                                                                \
    if (isinf(x))                                                              \
      return copysign((T)0, x);                                                \
    /* +-0 for +-0 (7.5.1), and for the denormals read as zeros (DAZ). */     \
    T r = fmin(x - f, ONE_BELOW);                                              \
    return f == (T)0 && r == (T)0 ? copysign((T)0, x) : r;                     \
  }                                                                            \
  OVERLOAD T modf(T x, AS T *iptr) {                                           \
    T i = trunc(x);                                                            \
    *iptr = i;                                                                 \
    return isinf(x) ? copysign((T)0, x) : copysign(x - i, x);                  \
  }                                                                            \
  OVERLOAD T sincos(T x, AS T *cosval) {                                       \
    *cosval = cos(x);                                                          \
    return sin(x);                                                             \
  }                                                                            \
  OVERLOAD T frexp(T x, AS int *e) {                                           \
    int v;                                                                     \
    T r = __builtin_frexp(x, &v);                                              \
    *e = v;                                                                    \
    return r;                                                                  \
  }                                                                            \
  OVERLOAD T lgamma_r(T x, AS int *s) {                                        \
    int v;                                                                     \
    T r = LGAMMA_R_##T(x, &v);                                                 \
    *s = v;                                                                    \
    return r;                                                                  \
  }                                                                            \
  OVERLOAD T remquo(T x, T y, AS int *q) {                                     \
    int v;                                                                     \
    T r = REMQUO_##T(x, y, &v);                                                \
    *q = v;                                                                    \
    return r;                                                                  \
  }                                                                            \
  VEC_1P(T, fract, T, T, AS)                                                   \
  VEC_1P(T, modf, T, T, AS)                                                    \
  VEC_1P(T, sincos, T, T, AS)                                                  \
  VEC_1P(T, frexp, T, int, AS)                                                 \
  VEC_1P(T, lgamma_r, T, int, AS)                                              \
  VEC_2P(T, remquo, T, int, AS)
#define LGAMMA_R_float lgamma_r_float
#define LGAMMA_R_double lgamma_r_double
#define REMQUO_float remquo_impl_float
#define REMQUO_double remquo_impl_double
#define POINTER_FUNCTIONS_FLOAT(AS, _)                                         \
  POINTER_FUNCTIONS(AS, float, int, 0x1.fffffep-1f)
#define POINTER_FUNCTIONS_DOUBLE(AS, _)                                        \
  POINTER_FUNCTIONS(AS, double, int, 0x1.fffffffffffffp-1)
FOR_EACH_AS(POINTER_FUNCTIONS_FLOAT, )
FOR_EACH_AS(POINTER_FUNCTIONS_DOUBLE, )

// --- half_ and native_: float only; full precision serves both.
#define RELAXED_1(NAME, FULL)                                                  \
  OVERLOAD float half_##NAME(float x) { return FULL(x); }                      \
  OVERLOAD float native_##NAME(float x) { return FULL(x); }                    \
  VEC_1(float, half_##NAME, float)                                             \
  VEC_1(float, native_##NAME, float)
static float recip(float x) { return 1.0f / x; }
RELAXED_1(cos, cos)
RELAXED_1(exp, exp)
RELAXED_1(exp2, exp2)
RELAXED_1(exp10, exp10)
RELAXED_1(log, log)
RELAXED_1(log2, log2)
RELAXED_1(log10, log10)
RELAXED_1(recip, recip)
RELAXED_1(rsqrt, rsqrt)
RELAXED_1(sin, sin)
RELAXED_1(sqrt, sqrt)
RELAXED_1(tan, tan)
OVERLOAD float half_divide(float x, float y) { return x / y; }
OVERLOAD float native_divide(float x, float y) { return x / y; }
OVERLOAD float half_powr(float x, float y) { return powr(x, y); }
OVERLOAD float native_powr(float x, float y) { return powr(x, y); }
VEC_2(float, half_divide, float, float)
VEC_2(float, native_divide, float, float)
VEC_2(float, half_powr, float, float)
VEC_2(float, native_powr, float, float)
