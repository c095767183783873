// Geometric functions (OpenCL C 3.0, 6.15.5) for float, double and their
// 2-, 3- and 4-element vectors. Float lengths are computed in double (no
// overflow, no underflow); double ones are scaled exactly, by a power of two,
// so that the largest element is in [1, 2): no spurious overflow (normalize
// of elements near DBL_MAX) or underflow (subnormal elements).

#define DOT(T)                                                                 \
  OVERLOAD T dot(T a, T b) { return a * b; }                                   \
  OVERLOAD T dot(T##2 a, T##2 b) { return a.x * b.x + a.y * b.y; }             \
  OVERLOAD T dot(T##3 a, T##3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; } \
  OVERLOAD T dot(T##4 a, T##4 b) {                                             \
    return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w;                      \
  }
DOT(float)
DOT(double)

OVERLOAD float3 cross(float3 a, float3 b) {
  return (float3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
OVERLOAD float4 cross(float4 a, float4 b) {
  return (float4)(cross(a.xyz, b.xyz), 0.0f);
}
OVERLOAD double3 cross(double3 a, double3 b) {
  return (double3)(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
OVERLOAD double4 cross(double4 a, double4 b) {
  return (double4)(cross(a.xyz, b.xyz), 0.0);
}

#define FLOAT_GEOMETRY(N)                                                      \
  OVERLOAD float length(float##N p) {                                          \
    return (float)sqrt(dot(convert_double##N(p), convert_double##N(p)));       \
  }                                                                            \
  OVERLOAD float distance(float##N a, float##N b) {                            \
    return (float)length(convert_double##N(a) - convert_double##N(b));         \
  }                                                                            \
  OVERLOAD float##N normalize(float##N p) {                                    \
    double##N d = convert_double##N(p);                                        \
    d = INF_TO_UNIT_##N(d);                                                    \
    double l = length(d);                                                      \
    return l == 0.0 ? p : convert_float##N(d / l);                             \
  }                                                                            \
  OVERLOAD float fast_length(float##N p) { return length(p); }                 \
  OVERLOAD float fast_distance(float##N a, float##N b) {                       \
    return distance(a, b);                                                     \
  }                                                                            \
  OVERLOAD float##N fast_normalize(float##N p) { return normalize(p); }
// 2^-e as two factors F1, F2 (each within 2^-512..2^511), e the exponent of
// the largest magnitude M >= 0 (-1022 for subnormals, 1024 for NaN): P times
// both is P scaled exactly so that its largest element is in [1, 2).
#define SCALE_DOWN_FACTORS(M, F1, F2)                                          \
  long e_ = max((as_long(M) >> 52) & 0x7ff, 1L) - 1023;                        \
  long h_ = e_ >> 1;                                                           \
  double F1 = as_double((1023 - h_) << 52);                                    \
  double F2 = as_double((1023 - (e_ - h_)) << 52);
// After SCALE_DOWN_FACTORS: their inverses G1, G2, to scale back.
#define SCALE_UP_FACTORS(G1, G2)                                               \
  double G1 = as_double((1023 + h_) << 52);                                    \
  double G2 = as_double((1023 + (e_ - h_)) << 52);
#define DOUBLE_GEOMETRY(N)                                                     \
  OVERLOAD double length(double##N p) {                                        \
    double m = MAX_ELEMENT_##N(fabs(p));                                       \
    if (m == 0.0 || isinf(m) || isnan(m))                                      \
      return m;                                                                \
    SCALE_DOWN_FACTORS(m, f1, f2)                                              \
    SCALE_UP_FACTORS(g1, g2)                                                   \
    double##N s = p * f1 * f2;                                                 \
    return sqrt(dot(s, s)) * g1 * g2;                                          \
  }                                                                            \
  OVERLOAD double distance(double##N a, double##N b) { return length(a - b); } \
  OVERLOAD double##N normalize(double##N p) {                                  \
    p = INF_TO_UNIT_##N(p);                                                    \
    double m = MAX_ELEMENT_##N(fabs(p));                                       \
    if (m == 0.0)                                                              \
      return p;                                                                \
    SCALE_DOWN_FACTORS(m, f1, f2)                                              \
    double##N s = p * f1 * f2;                                                 \
    return s / sqrt(dot(s, s));                                                \
  }
#define MAX_ELEMENT_(a) (a)
#define MAX_ELEMENT_2(a) fmax(a.x, a.y)
#define MAX_ELEMENT_3(a) fmax(fmax(a.x, a.y), a.z)
#define MAX_ELEMENT_4(a) fmax(fmax(a.x, a.y), fmax(a.z, a.w))
// With an infinite element, the direction of the infinite elements (the
// finite ones become zeros of their sign).
#define INF_TO_UNIT_(d) (isinf(d) ? copysign(1.0, d) : d)
#define INF_TO_UNIT_VECTOR(d)                                                  \
  (any(isinf(d)) ? select(copysign((__typeof__(d))0.0, d),                     \
                          copysign((__typeof__(d))1.0, d), isinf(d))           \
                 : d)
#define INF_TO_UNIT_2 INF_TO_UNIT_VECTOR
#define INF_TO_UNIT_3 INF_TO_UNIT_VECTOR
#define INF_TO_UNIT_4 INF_TO_UNIT_VECTOR
DOUBLE_GEOMETRY()
DOUBLE_GEOMETRY(2)
DOUBLE_GEOMETRY(3)
DOUBLE_GEOMETRY(4)
FLOAT_GEOMETRY()
FLOAT_GEOMETRY(2)
FLOAT_GEOMETRY(3)
FLOAT_GEOMETRY(4)
