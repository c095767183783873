// Integer functions (OpenCL C 3.0, 6.15.3) for every integer type and
// vector width: elementwise builtins where Clang has them, scalar code
// extended element by element otherwise.

#define ELEMENTWISE_2(NAME, BUILTIN, T)                                        \
  OVERLOAD T NAME(T x, T y) { return BUILTIN(x, y); }                          \
  OVERLOAD T##2 NAME(T##2 x, T##2 y) { return BUILTIN(x, y); }                 \
  OVERLOAD T##3 NAME(T##3 x, T##3 y) { return BUILTIN(x, y); }                 \
  OVERLOAD T##4 NAME(T##4 x, T##4 y) { return BUILTIN(x, y); }                 \
  OVERLOAD T##8 NAME(T##8 x, T##8 y) { return BUILTIN(x, y); }                 \
  OVERLOAD T##16 NAME(T##16 x, T##16 y) { return BUILTIN(x, y); }

// max/min/clamp with a scalar second (and third) argument.
#define SCALAR_BOUNDS(T, N)                                                    \
  OVERLOAD T##N max(T##N x, T y) { return max(x, (T##N)y); }                   \
  OVERLOAD T##N min(T##N x, T y) { return min(x, (T##N)y); }                   \
  OVERLOAD T##N clamp(T##N x, T lo, T hi) { return min(max(x, lo), hi); }
#define CLAMP_T(T)                                                             \
  OVERLOAD T clamp(T x, T lo, T hi) { return min(max(x, lo), hi); }
#define BOUNDS(T)                                                              \
  ELEMENTWISE_2(max, __builtin_elementwise_max, T)                             \
  ELEMENTWISE_2(min, __builtin_elementwise_min, T)                             \
  FOR_EACH_WIDTH(CLAMP_T, T)                                                   \
  SCALAR_BOUNDS(T, 2)                                                          \
  SCALAR_BOUNDS(T, 3)                                                          \
  SCALAR_BOUNDS(T, 4)                                                          \
  SCALAR_BOUNDS(T, 8)                                                          \
  SCALAR_BOUNDS(T, 16)
// Floating-point max, min and clamp belong to the common functions.
BOUNDS(char)
BOUNDS(uchar)
BOUNDS(short)
BOUNDS(ushort)
BOUNDS(int)
BOUNDS(uint)
BOUNDS(long)
BOUNDS(ulong)
BOUNDS(float)
BOUNDS(double)

// Clang 19 promotes scalar chars and shorts in elementwise builtins (not
// vectors): their scalar saturating forms go through int.
#define SATURATING_VECTORS(T)                                                  \
  OVERLOAD T##2 add_sat(T##2 x, T##2 y) { return __builtin_elementwise_add_sat(x, y); } \
  OVERLOAD T##3 add_sat(T##3 x, T##3 y) { return __builtin_elementwise_add_sat(x, y); } \
  OVERLOAD T##4 add_sat(T##4 x, T##4 y) { return __builtin_elementwise_add_sat(x, y); } \
  OVERLOAD T##8 add_sat(T##8 x, T##8 y) { return __builtin_elementwise_add_sat(x, y); } \
  OVERLOAD T##16 add_sat(T##16 x, T##16 y) {                                   \
    return __builtin_elementwise_add_sat(x, y);                                \
  }                                                                            \
  OVERLOAD T##2 sub_sat(T##2 x, T##2 y) { return __builtin_elementwise_sub_sat(x, y); } \
  OVERLOAD T##3 sub_sat(T##3 x, T##3 y) { return __builtin_elementwise_sub_sat(x, y); } \
  OVERLOAD T##4 sub_sat(T##4 x, T##4 y) { return __builtin_elementwise_sub_sat(x, y); } \
  OVERLOAD T##8 sub_sat(T##8 x, T##8 y) { return __builtin_elementwise_sub_sat(x, y); } \
  OVERLOAD T##16 sub_sat(T##16 x, T##16 y) {                                   \
    return __builtin_elementwise_sub_sat(x, y);                                \
  }
#define SATURATING_NARROW(T, MIN, MAX)                                         \
  OVERLOAD T add_sat(T x, T y) { return (T)clamp((int)x + (int)y, MIN, MAX); } \
  OVERLOAD T sub_sat(T x, T y) { return (T)clamp((int)x - (int)y, MIN, MAX); } \
  SATURATING_VECTORS(T)
#define SATURATING_WIDE(T)                                                     \
  OVERLOAD T add_sat(T x, T y) { return __builtin_elementwise_add_sat(x, y); } \
  OVERLOAD T sub_sat(T x, T y) { return __builtin_elementwise_sub_sat(x, y); } \
  SATURATING_VECTORS(T)
SATURATING_NARROW(char, CHAR_MIN, CHAR_MAX)
SATURATING_NARROW(uchar, 0, UCHAR_MAX)
SATURATING_NARROW(short, SHRT_MIN, SHRT_MAX)
SATURATING_NARROW(ushort, 0, USHRT_MAX)
SATURATING_WIDE(int)
SATURATING_WIDE(uint)
SATURATING_WIDE(long)
SATURATING_WIDE(ulong)

// Scalar definitions, then VEC_* for the vectors.
#define BITS(T) ((int)(sizeof(T) * 8))
#define INTEGER_SCALAR(T, U, _)                                                \
  OVERLOAD U abs(T x) { return x < 0 ? (U)0 - (U)x : (U)x; }                   \
  OVERLOAD U abs_diff(T x, T y) { return x > y ? (U)x - (U)y : (U)y - (U)x; }  \
  OVERLOAD T hadd(T x, T y) { return (x >> 1) + (y >> 1) + (x & y & 1); }      \
  OVERLOAD T rhadd(T x, T y) {                                                 \
    return (x >> 1) + (y >> 1) + ((x | y) & 1);                                \
  }                                                                            \
  OVERLOAD T clz(T x) {                                                        \
    U v = (U)x;                                                                \
    if (v == 0)                                                                \
      return (T)BITS(T);                                                       \
    return (T)(__builtin_clzl((ulong)v) - (64 - BITS(T)));                    \
  }                                                                            \
  OVERLOAD T ctz(T x) {                                                        \
    U v = (U)x;                                                                \
    return v == 0 ? (T)BITS(T) : (T)__builtin_ctzl((ulong)v);                 \
  }                                                                            \
  OVERLOAD T popcount(T x) { return (T)__builtin_popcountl((ulong)(U)x); }    \
  OVERLOAD T rotate(T v, T i) {                                                \
    U x = (U)v;                                                                \
    uint n = (uint)((U)i & (U)(BITS(T) - 1));                                  \
    return n == 0 ? v : (T)((U)(x << n) | (U)(x >> (BITS(T) - n)));            \
  }                                                                            \
  OVERLOAD T mad_hi(T a, T b, T c) { return mul_hi(a, b) + c; }                \
  VEC_1(U, abs, T)                                                             \
  VEC_2(U, abs_diff, T, T)                                                     \
  VEC_2(T, hadd, T, T)                                                         \
  VEC_2(T, rhadd, T, T)                                                        \
  VEC_1(T, clz, T)                                                             \
  VEC_1(T, ctz, T)                                                             \
  VEC_1(T, popcount, T)                                                        \
  VEC_2(T, rotate, T, T)                                                       \
  VEC_2(T, mul_hi, T, T)                                                       \
  VEC_3(T, mad_hi, T, T, T)                                                    \
  VEC_3(T, mad_sat, T, T, T)

// mul_hi and mad_sat through the type twice as wide.
#define WIDENING(T, W, MIN, MAX)                                               \
  OVERLOAD T mul_hi(T a, T b) { return (T)(((W)a * (W)b) >> BITS(T)); }        \
  OVERLOAD T mad_sat(T a, T b, T c) {                                          \
    W r = (W)a * (W)b + (W)c;                                                  \
    return (T)(r < (W)(MIN) ? (W)(MIN) : r > (W)(MAX) ? (W)(MAX) : r);         \
  }
WIDENING(char, short, CHAR_MIN, CHAR_MAX)
WIDENING(uchar, ushort, 0, UCHAR_MAX)
WIDENING(short, int, SHRT_MIN, SHRT_MAX)
WIDENING(ushort, uint, 0, USHRT_MAX)
WIDENING(int, long, INT_MIN, INT_MAX)
WIDENING(uint, ulong, 0, UINT_MAX)

OVERLOAD ulong mul_hi(ulong a, ulong b) {
  return (ulong)(((unsigned __int128)a * b) >> 64);
}
OVERLOAD long mul_hi(long a, long b) { return (long)(((__int128)a * b) >> 64); }
OVERLOAD ulong mad_sat(ulong a, ulong b, ulong c) {
  unsigned __int128 r = (unsigned __int128)a * b + c;
  return r > (unsigned __int128)ULONG_MAX ? ULONG_MAX : (ulong)r;
}
OVERLOAD long mad_sat(long a, long b, long c) {
  __int128 r = (__int128)a * b + c;
  return r > (__int128)LONG_MAX ? LONG_MAX : r < (__int128)LONG_MIN ? LONG_MIN : (long)r;
}

FOR_EACH_INTEGER(INTEGER_SCALAR, )

#define WIDTH_24(T)                                                            \
  OVERLOAD T mul24(T a, T b) { return a * b; }                                 \
  OVERLOAD T mad24(T a, T b, T c) { return a * b + c; }
FOR_EACH_WIDTH(WIDTH_24, int)
FOR_EACH_WIDTH(WIDTH_24, uint)

#define UPSAMPLE(R, H, L)                                                      \
  OVERLOAD R upsample(H hi, L lo) {                                            \
    return (R)((R)hi << (sizeof(L) * 8)) | (R)lo;                              \
  }                                                                            \
  VEC_2(R, upsample, H, L)
UPSAMPLE(short, char, uchar)
UPSAMPLE(ushort, uchar, uchar)
UPSAMPLE(int, short, ushort)
UPSAMPLE(uint, ushort, ushort)
UPSAMPLE(long, int, uint)
UPSAMPLE(ulong, uint, uint)
