// Half-precision builtins (cl_khr_fp16): the math, common and geometric
// functions on half and its vectors. Each is computed in float, where every
// half is exact, and rounded to half once: for the correctly rounded
// operations (sqrt, fdim, the exact ones) float's 24 bits are enough for
// that to be the correctly rounded half (24 >= 2 x 11 + 2), for the others
// the float function's error adds at most 2^-13 ulp of half to the half
// rounding. Functions whose result depends on half's own format (nextafter,
// nan, fract's largest value below 1, fma, isnormal) work on half itself.
// The relational functions and select/bitselect are in relational.cl, the
// conversions in gen_conversions.py, vload/vstore_half in vload.cl.

// F(half...) from F(float...): scalars by casts, vectors by
// __builtin_convertvector (one vector conversion each way).
#define CVT(x, T) __builtin_convertvector(x, T)
#define VIA_FLOAT_1(F)                                                         \
  OVERLOAD half F(half x) { return (half)F((float)x); }                        \
  VECTOR_WIDTHS(VIA_FLOAT_V1, F)
#define VIA_FLOAT_V1(F, N)                                                     \
  OVERLOAD half##N F(half##N x) { return CVT(F(CVT(x, float##N)), half##N); }
#define VIA_FLOAT_2(F)                                                         \
  OVERLOAD half F(half x, half y) { return (half)F((float)x, (float)y); }      \
  VECTOR_WIDTHS(VIA_FLOAT_V2, F)
#define VIA_FLOAT_V2(F, N)                                                     \
  OVERLOAD half##N F(half##N x, half##N y) {                                   \
    return CVT(F(CVT(x, float##N), CVT(y, float##N)), half##N);                \
  }
#define VIA_FLOAT_3(F)                                                         \
  OVERLOAD half F(half x, half y, half z) {                                    \
    return (half)F((float)x, (float)y, (float)z);                              \
  }                                                                            \
  VECTOR_WIDTHS(VIA_FLOAT_V3, F)
#define VIA_FLOAT_V3(F, N)                                                     \
  OVERLOAD half##N F(half##N x, half##N y, half##N z) {                        \
    return CVT(F(CVT(x, float##N), CVT(y, float##N), CVT(z, float##N)),        \
               half##N);                                                       \
  }
// F(half, int) and F(halfn, intn).
#define VIA_FLOAT_I(F)                                                         \
  OVERLOAD half F(half x, int k) { return (half)F((float)x, k); }              \
  VECTOR_WIDTHS(VIA_FLOAT_VI, F)
#define VIA_FLOAT_VI(F, N)                                                     \
  OVERLOAD half##N F(half##N x, int##N k) {                                    \
    return CVT(F(CVT(x, float##N), k), half##N);                               \
  }
#define VECTOR_WIDTHS(M, F) M(F, 2) M(F, 3) M(F, 4) M(F, 8) M(F, 16)

#define HALF_1(F) VIA_FLOAT_1(F)
#define HALF_2(F) VIA_FLOAT_2(F)
#define HALF_3(F) VIA_FLOAT_3(F)

// --- Math functions (6.15.2).
HALF_1(acos)
HALF_1(acosh)
HALF_1(acospi)
HALF_1(asin)
HALF_1(asinh)
HALF_1(asinpi)
HALF_1(atan)
HALF_1(atanh)
HALF_1(atanpi)
HALF_1(cbrt)
HALF_1(ceil)
HALF_1(cos)
HALF_1(cosh)
HALF_1(cospi)
HALF_1(erfc)
HALF_1(erf)
HALF_1(exp)
HALF_1(exp2)
HALF_1(exp10)
HALF_1(expm1)
HALF_1(fabs)
HALF_1(floor)
HALF_1(lgamma)
HALF_1(log)
HALF_1(log2)
HALF_1(log10)
HALF_1(log1p)
HALF_1(logb)
HALF_1(rint)
HALF_1(round)
HALF_1(rsqrt)
HALF_1(sin)
HALF_1(sinh)
HALF_1(sinpi)
HALF_1(sqrt)
HALF_1(tan)
HALF_1(tanh)
HALF_1(tanpi)
HALF_1(tgamma)
HALF_1(trunc)
HALF_2(atan2)
HALF_2(atan2pi)
HALF_2(copysign)
HALF_2(fdim)
HALF_2(fmax)
HALF_2(fmin)
HALF_2(fmod)
HALF_2(hypot)
HALF_2(maxmag)
HALF_2(minmag)
HALF_2(pow)
HALF_2(powr)
HALF_2(remainder)
HALF_3(mad)
VIA_FLOAT_I(ldexp)
VIA_FLOAT_I(pown)
VIA_FLOAT_I(rootn)

#define HALF_SCALAR_SECOND(N)                                                  \
  OVERLOAD half##N fmax(half##N x, half y) { return fmax(x, (half##N)y); }     \
  OVERLOAD half##N fmin(half##N x, half y) { return fmin(x, (half##N)y); }     \
  OVERLOAD half##N ldexp(half##N x, int k) { return ldexp(x, (int##N)k); }
HALF_SCALAR_SECOND(2)
HALF_SCALAR_SECOND(3)
HALF_SCALAR_SECOND(4)
HALF_SCALAR_SECOND(8)
HALF_SCALAR_SECOND(16)

// fma, correctly rounded: a b is exact in double (22 significant bits);
// a b + c rounded to odd in double (the sum, then its last bit set when
// inexact) keeps enough to be rounded to half once (53 >= 11 + 2).
static double fma_half_round_to_odd(half a, half b, half c) {
  double p = (double)a * (double)b;
  double s = p + (double)c;
  double bb = s - p;
  double err = (p - (s - bb)) + ((double)c - bb);
  long bits = as_long(s);
  if (err != 0.0 && (bits & 1) == 0)
    bits += (err > 0.0) == (s > 0.0) ? 1 : -1;
  return as_double(bits);
}
OVERLOAD half fma(half a, half b, half c) {
  if (isinf(a) || isinf(b) || isinf(c) || isnan(a) || isnan(b) || isnan(c))
    return (half)((float)a * (float)b + (float)c);
  return (half)fma_half_round_to_odd(a, b, c);
}
VEC_3(half, fma, half, half, half)

// ilogb is exact through float (half denormals are float normals, with the
// exponent ilogb wants).
OVERLOAD int ilogb(half x) { return ilogb((float)x); }
VEC_1(int, ilogb, half)

OVERLOAD half nan(ushort code) {
  return as_half((ushort)(0x7e00u | (code & 0x1ffu)));
}
VEC_1(half, nan, ushort)

// One step through half's own values.
OVERLOAD half nextafter(half x, half y) {
  if (isnan(x) || isnan(y))
    return x + y;
  if (x == y)
    return y;
  short bits = as_short(x);
  if ((bits & 0x7fff) == 0)
    return as_half((short)((as_short(y) & (short)0x8000) | 1));
  bits += ((y > x) == (x > (half)0)) ? 1 : -1;
  return as_half(bits);
}
VEC_2(half, nextafter, half, half)

// --- Functions with a pointer result, for every address space: math.cl's
// POINTER_FUNCTIONS, lgamma_r and remquo through float (remquo's remainder
// is exact, lgamma_r rounds once).
static half lgamma_r_half(half x, int *s) {
  return (half)lgamma_r_float((float)x, s);
}
static half remquo_half(half x, half y, int *q) {
  return (half)remquo_impl_float((float)x, (float)y, q);
}
#define LGAMMA_R_half lgamma_r_half
#define REMQUO_half remquo_half
#define POINTER_FUNCTIONS_HALF(AS, _)                                          \
  POINTER_FUNCTIONS(AS, half, int, (half)0x1.ffcp-1f)
FOR_EACH_AS(POINTER_FUNCTIONS_HALF, )

// --- Common functions (6.15.4).
HALF_1(degrees)
HALF_1(radians)
HALF_1(sign)
HALF_2(max)
HALF_2(min)
HALF_2(step)
HALF_3(clamp)
HALF_3(mix)
HALF_3(smoothstep)
#define HALF_COMMON_SCALAR(N)                                                  \
  OVERLOAD half##N max(half##N x, half y) { return max(x, (half##N)y); }       \
  OVERLOAD half##N min(half##N x, half y) { return min(x, (half##N)y); }       \
  OVERLOAD half##N clamp(half##N x, half lo, half hi) {                        \
    return clamp(x, (half##N)lo, (half##N)hi);                                 \
  }                                                                            \
  OVERLOAD half##N mix(half##N x, half##N y, half a) {                         \
    return mix(x, y, (half##N)a);                                              \
  }                                                                            \
  OVERLOAD half##N step(half edge, half##N x) { return step((half##N)edge, x); } \
  OVERLOAD half##N smoothstep(half e0, half e1, half##N x) {                   \
    return smoothstep((half##N)e0, (half##N)e1, x);                            \
  }
HALF_COMMON_SCALAR(2)
HALF_COMMON_SCALAR(3)
HALF_COMMON_SCALAR(4)
HALF_COMMON_SCALAR(8)
HALF_COMMON_SCALAR(16)

// --- Geometric functions (6.15.5): the float functions (whose lengths are
// computed in double), rounded once.
OVERLOAD half dot(half a, half b) { return (half)((float)a * (float)b); }
OVERLOAD half length(half p) { return fabs(p); }
OVERLOAD half distance(half a, half b) { return (half)fabs((float)a - (float)b); }
OVERLOAD half normalize(half p) { return (half)normalize((float)p); }
#define HALF_GEOMETRY(N)                                                       \
  OVERLOAD half dot(half##N a, half##N b) {                                    \
    return (half)dot(CVT(a, float##N), CVT(b, float##N));                      \
  }                                                                            \
  OVERLOAD half length(half##N p) { return (half)length(CVT(p, float##N)); }  \
  OVERLOAD half distance(half##N a, half##N b) {                               \
    return (half)distance(CVT(a, float##N), CVT(b, float##N));                \
  }                                                                            \
  OVERLOAD half##N normalize(half##N p) {                                      \
    return CVT(normalize(CVT(p, float##N)), half##N);                          \
  }
HALF_GEOMETRY(2)
HALF_GEOMETRY(3)
HALF_GEOMETRY(4)
OVERLOAD half3 cross(half3 a, half3 b) {
  return CVT(cross(CVT(a, float3), CVT(b, float3)), half3);
}
OVERLOAD half4 cross(half4 a, half4 b) {
  return CVT(cross(CVT(a, float4), CVT(b, float4)), half4);
}
