// Vector data load and store (OpenCL C 3.0, 6.15.7): vloadn/vstoren for
// every element type, and the half conversions (vload_half, vstore_half
// with every rounding mode, their vector and aligned forms). Conversions to
// and from half are done on the bits, so no F16C or libgcc helper is needed.

// --- vloadn / vstoren: the pointer is aligned to the element only.
#define UNALIGNED_TYPES(T)                                                     \
  typedef T##2 __attribute__((aligned(sizeof(T)))) T##2_u;                     \
  typedef T##4 __attribute__((aligned(sizeof(T)))) T##4_u;                     \
  typedef T##8 __attribute__((aligned(sizeof(T)))) T##8_u;                     \
  typedef T##16 __attribute__((aligned(sizeof(T)))) T##16_u;
#define VLOAD_N(AS, T, N)                                                      \
  OVERLOAD T##N vload##N(size_t off, const AS T *p) {                          \
    return *(const AS T##N##_u *)(p + off * N);                                \
  }
#define VSTORE_N(AS, T, N)                                                     \
  OVERLOAD void vstore##N(T##N v, size_t off, AS T *p) {                       \
    *(AS T##N##_u *)(p + off * N) = v;                                         \
  }
#define VLOAD(AS, T)                                                           \
  VLOAD_N(AS, T, 2)                                                            \
  VLOAD_N(AS, T, 4)                                                            \
  VLOAD_N(AS, T, 8)                                                            \
  VLOAD_N(AS, T, 16)                                                           \
  OVERLOAD T##3 vload3(size_t off, const AS T *p) {                            \
    const AS T *q = p + off * 3;                                               \
    return (T##3)(q[0], q[1], q[2]);                                           \
  }
#define VSTORE(AS, T)                                                          \
  VSTORE_N(AS, T, 2)                                                           \
  VSTORE_N(AS, T, 4)                                                           \
  VSTORE_N(AS, T, 8)                                                           \
  VSTORE_N(AS, T, 16)                                                          \
  OVERLOAD void vstore3(T##3 v, size_t off, AS T *p) {                         \
    AS T *q = p + off * 3;                                                     \
    q[0] = v.x;                                                                \
    q[1] = v.y;                                                                \
    q[2] = v.z;                                                                \
  }
#define VLOAD_VSTORE_T(AS, T) VLOAD(AS, T) VSTORE(AS, T)
#define VLOAD_VSTORE_ALL(AS, _)                                                \
  VLOAD_VSTORE_T(AS, char)                                                     \
  VLOAD_VSTORE_T(AS, uchar)                                                    \
  VLOAD_VSTORE_T(AS, short)                                                    \
  VLOAD_VSTORE_T(AS, ushort)                                                   \
  VLOAD_VSTORE_T(AS, int)                                                      \
  VLOAD_VSTORE_T(AS, uint)                                                     \
  VLOAD_VSTORE_T(AS, long)                                                     \
  VLOAD_VSTORE_T(AS, ulong)                                                    \
  VLOAD_VSTORE_T(AS, float)                                                    \
  VLOAD_VSTORE_T(AS, double)                                                   \
  VLOAD_VSTORE_T(AS, half)
#define VLOAD_CONSTANT(T) VLOAD(__constant, T)
UNALIGNED_TYPES(char)
UNALIGNED_TYPES(uchar)
UNALIGNED_TYPES(short)
UNALIGNED_TYPES(ushort)
UNALIGNED_TYPES(int)
UNALIGNED_TYPES(uint)
UNALIGNED_TYPES(long)
UNALIGNED_TYPES(ulong)
UNALIGNED_TYPES(float)
UNALIGNED_TYPES(double)
UNALIGNED_TYPES(half)
FOR_EACH_AS(VLOAD_VSTORE_ALL, )
VLOAD_CONSTANT(char)
VLOAD_CONSTANT(uchar)
VLOAD_CONSTANT(short)
VLOAD_CONSTANT(ushort)
VLOAD_CONSTANT(int)
VLOAD_CONSTANT(uint)
VLOAD_CONSTANT(long)
VLOAD_CONSTANT(ulong)
VLOAD_CONSTANT(float)
VLOAD_CONSTANT(double)
VLOAD_CONSTANT(half)

// --- half <-> float/double on the bits.
static float half_bits_to_float(ushort h) {
  uint sign = (uint)(h & 0x8000) << 16;
  uint e = (h >> 10) & 0x1f;
  uint m = h & 0x3ff;
  if (e == 0) {
    float f = (float)m * 0x1p-24f;
    return sign ? -f : f;
  }
  if (e == 31)
    return as_float(sign | 0x7f800000u | (m << 13));
  return as_float(sign | ((e + 112) << 23) | (m << 13));
}

// Rounding modes.
#define RTE 0
#define RTZ 1
#define RTP 2
#define RTN 3

// Every double, hence every float, to half bits with the given rounding.
static ushort double_to_half_bits(double d, int mode) {
  ulong x = as_ulong(d);
  ushort sign = (ushort)((x >> 48) & 0x8000);
  ulong ax = x & 0x7fffffffffffffffUL;
  if (ax > 0x7ff0000000000000UL) // NaN: quiet, keep the top payload bits
    return sign | 0x7e00 | (ushort)((ax >> 42) & 0x3ff);
  if (ax == 0x7ff0000000000000UL)
    return sign | 0x7c00;
  if (ax == 0)
    return sign;
  bool negative = sign != 0;
  int e = (int)(ax >> 52) - 1023;
  ulong mantissa = ax & 0xfffffffffffffUL;
  if (e == -1023)
    e = -1022; // a double subnormal
  else
    mantissa |= 1UL << 52;
  if (e > 15) { // beyond the largest finite half
    bool toInfinity = mode == RTE || (mode == RTP && !negative) ||
                      (mode == RTN && negative);
    return sign | (toInfinity ? 0x7c00 : 0x7bff);
  }
  uint shift;
  ulong base;
  if (e >= -14) {
    shift = 42;
    base = ((ulong)(e + 15) << 10) | ((mantissa >> 42) & 0x3ff);
  } else {
    shift = min(42u + (uint)(-14 - e), 63u);
    base = mantissa >> shift;
  }
  ulong rest = mantissa & ((1UL << shift) - 1);
  ulong halfway = 1UL << (shift - 1);
  bool up = false;
  switch (mode) {
  case RTE: up = rest > halfway || (rest == halfway && (base & 1)); break;
  case RTP: up = rest != 0 && !negative; break;
  case RTN: up = rest != 0 && negative; break;
  default: break;
  }
  base += up ? 1 : 0;
  if (base >= 0x7c00 && mode != RTE) {
    bool toInfinity = (mode == RTP && !negative) || (mode == RTN && negative);
    base = toInfinity ? 0x7c00 : 0x7bff;
  }
  return sign | (ushort)base;
}

#define VLOAD_HALF(AS, _)                                                      \
  OVERLOAD float vload_half(size_t off, const AS half *p) {                    \
    return half_bits_to_float(((const AS ushort *)p)[off]);                    \
  }                                                                            \
  VLOAD_HALF_N(AS, 2, 2)                                                       \
  VLOAD_HALF_N(AS, 3, 4)                                                       \
  VLOAD_HALF_N(AS, 4, 4)                                                       \
  VLOAD_HALF_N(AS, 8, 8)                                                       \
  VLOAD_HALF_N(AS, 16, 16)                                                     \
  OVERLOAD float vloada_half(size_t off, const AS half *p) {                   \
    return vload_half(off, p);                                                 \
  }
// vload_halfN reads N halves at p + off * N; vloada_halfN at p + off * S,
// where S is N rounded to a power of two (3 -> 4).
#define VLOAD_HALF_N(AS, N, S)                                                 \
  OVERLOAD float##N vload_half##N(size_t off, const AS half *p) {              \
    const AS ushort *q = (const AS ushort *)p + off * N;                       \
    float##N r;                                                                \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = half_bits_to_float(q[i]);                                         \
    return r;                                                                  \
  }                                                                            \
  OVERLOAD float##N vloada_half##N(size_t off, const AS half *p) {             \
    return vload_half##N(0, p + off * S);                                      \
  }
FOR_EACH_AS(VLOAD_HALF, )
VLOAD_HALF(__constant, )

#define VSTORE_HALF_MODE(AS, T, SUFFIX, MODE)                                  \
  OVERLOAD void vstore_half##SUFFIX(T v, size_t off, AS half *p) {             \
    ((AS ushort *)p)[off] = double_to_half_bits((double)v, MODE);              \
  }                                                                            \
  OVERLOAD void vstorea_half##SUFFIX(T v, size_t off, AS half *p) {            \
    vstore_half##SUFFIX(v, off, p);                                            \
  }                                                                            \
  VSTORE_HALF_N(AS, T, SUFFIX, MODE, 2, 2)                                     \
  VSTORE_HALF_N(AS, T, SUFFIX, MODE, 3, 4)                                     \
  VSTORE_HALF_N(AS, T, SUFFIX, MODE, 4, 4)                                     \
  VSTORE_HALF_N(AS, T, SUFFIX, MODE, 8, 8)                                     \
  VSTORE_HALF_N(AS, T, SUFFIX, MODE, 16, 16)
#define VSTORE_HALF_N(AS, T, SUFFIX, MODE, N, S)                               \
  OVERLOAD void vstore_half##N##SUFFIX(T##N v, size_t off, AS half *p) {       \
    AS ushort *q = (AS ushort *)p + off * N;                                   \
    for (int i = 0; i < N; ++i)                                                \
      q[i] = double_to_half_bits((double)v[i], MODE);                          \
  }                                                                            \
  OVERLOAD void vstorea_half##N##SUFFIX(T##N v, size_t off, AS half *p) {      \
    vstore_half##N##SUFFIX(v, 0, p + off * S);                                 \
  }
#define VSTORE_HALF_T(AS, T)                                                   \
  VSTORE_HALF_MODE(AS, T, , RTE)                                               \
  VSTORE_HALF_MODE(AS, T, _rte, RTE)                                           \
  VSTORE_HALF_MODE(AS, T, _rtz, RTZ)                                           \
  VSTORE_HALF_MODE(AS, T, _rtp, RTP)                                           \
  VSTORE_HALF_MODE(AS, T, _rtn, RTN)
#define VSTORE_HALF(AS, _) VSTORE_HALF_T(AS, float) VSTORE_HALF_T(AS, double)
FOR_EACH_AS(VSTORE_HALF, )
