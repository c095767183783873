// Common functions (OpenCL C 3.0, 6.15.4) for float and double.

#define COMMON_T(T)                                                            \
  OVERLOAD T degrees(T r) { return (T)(180.0 / M_PI) * r; }                    \
  OVERLOAD T radians(T d) { return (T)(M_PI / 180.0) * d; }                    \
  OVERLOAD T mix(T x, T y, T a) { return x + (y - x) * a; }                    \
  OVERLOAD T step(T edge, T x) { return x < edge ? (T)0 : (T)1; }              \
  OVERLOAD T smoothstep(T e0, T e1, T x) {                                     \
    T t = clamp((x - e0) / (e1 - e0), (T)0, (T)1);                             \
    return t * t * ((T)3 - (T)2 * t);                                          \
  }                                                                            \
  OVERLOAD T sign(T x) {                                                       \
    if (isnan(x))                                                              \
      return (T)0;                                                             \
    return x > (T)0 ? (T)1 : x < (T)0 ? (T)-1 : x;                             \
  }                                                                            \
  VEC_1(T, degrees, T)                                                         \
  VEC_1(T, radians, T)                                                         \
  VEC_3(T, mix, T, T, T)                                                       \
  VEC_2(T, step, T, T)                                                         \
  VEC_3(T, smoothstep, T, T, T)                                                \
  VEC_1(T, sign, T)                                                            \
  COMMON_SCALAR(T, 2)                                                          \
  COMMON_SCALAR(T, 3)                                                          \
  COMMON_SCALAR(T, 4)                                                          \
  COMMON_SCALAR(T, 8)                                                          \
  COMMON_SCALAR(T, 16)
// The forms with scalar bounds, edges and weights.
#define COMMON_SCALAR(T, N)                                                    \
  OVERLOAD T##N mix(T##N x, T##N y, T a) { return mix(x, y, (T##N)a); }        \
  OVERLOAD T##N step(T edge, T##N x) { return step((T##N)edge, x); }           \
  OVERLOAD T##N smoothstep(T e0, T e1, T##N x) {                               \
    return smoothstep((T##N)e0, (T##N)e1, x);                                  \
  }
COMMON_T(float)
COMMON_T(double)
