// Shared definitions of the builtin library sources.
//
// The library is compiled as OpenCL C 3.0 with every extension and feature,
// so an unqualified pointer parameter is a generic one; the functions taking
// pointers are also defined for __global, __local and __private (what
// OpenCL C 1.x programs call).
#pragma once

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

#define OVERLOAD __attribute__((overloadable))
#define PURE __attribute__((const))

// Vector versions of scalar functions, element by element (halves for 4,
// 8 and 16 elements, so each level calls the one below).
#define VEC_1(R, F, T)                                                         \
  OVERLOAD R##2 F(T##2 a) { return (R##2)(F(a.s0), F(a.s1)); }                 \
  OVERLOAD R##3 F(T##3 a) { return (R##3)(F(a.s0), F(a.s1), F(a.s2)); }        \
  OVERLOAD R##4 F(T##4 a) { return (R##4)(F(a.lo), F(a.hi)); }                 \
  OVERLOAD R##8 F(T##8 a) { return (R##8)(F(a.lo), F(a.hi)); }                 \
  OVERLOAD R##16 F(T##16 a) { return (R##16)(F(a.lo), F(a.hi)); }

#define VEC_2(R, F, T, U)                                                      \
  OVERLOAD R##2 F(T##2 a, U##2 b) {                                            \
    return (R##2)(F(a.s0, b.s0), F(a.s1, b.s1));                               \
  }                                                                            \
  OVERLOAD R##3 F(T##3 a, U##3 b) {                                            \
    return (R##3)(F(a.s0, b.s0), F(a.s1, b.s1), F(a.s2, b.s2));                \
  }                                                                            \
  OVERLOAD R##4 F(T##4 a, U##4 b) {                                            \
    return (R##4)(F(a.lo, b.lo), F(a.hi, b.hi));                               \
  }                                                                            \
  OVERLOAD R##8 F(T##8 a, U##8 b) {                                            \
    return (R##8)(F(a.lo, b.lo), F(a.hi, b.hi));                               \
  }                                                                            \
  OVERLOAD R##16 F(T##16 a, U##16 b) {                                         \
    return (R##16)(F(a.lo, b.lo), F(a.hi, b.hi));                              \
  }

// Vector first argument, scalar second: F(gentypen, scalar).
#define VEC_2S(R, F, T, S)                                                     \
  OVERLOAD R##2 F(T##2 a, S b) { return (R##2)(F(a.s0, b), F(a.s1, b)); }      \
  OVERLOAD R##3 F(T##3 a, S b) {                                               \
    return (R##3)(F(a.s0, b), F(a.s1, b), F(a.s2, b));                         \
  }                                                                            \
  OVERLOAD R##4 F(T##4 a, S b) { return (R##4)(F(a.lo, b), F(a.hi, b)); }      \
  OVERLOAD R##8 F(T##8 a, S b) { return (R##8)(F(a.lo, b), F(a.hi, b)); }      \
  OVERLOAD R##16 F(T##16 a, S b) { return (R##16)(F(a.lo, b), F(a.hi, b)); }

#define VEC_3(R, F, T, U, V)                                                   \
  OVERLOAD R##2 F(T##2 a, U##2 b, V##2 c) {                                    \
    return (R##2)(F(a.s0, b.s0, c.s0), F(a.s1, b.s1, c.s1));                   \
  }                                                                            \
  OVERLOAD R##3 F(T##3 a, U##3 b, V##3 c) {                                    \
    return (R##3)(F(a.s0, b.s0, c.s0), F(a.s1, b.s1, c.s1),                    \
                  F(a.s2, b.s2, c.s2));                                        \
  }                                                                            \
  OVERLOAD R##4 F(T##4 a, U##4 b, V##4 c) {                                    \
    return (R##4)(F(a.lo, b.lo, c.lo), F(a.hi, b.hi, c.hi));                   \
  }                                                                            \
  OVERLOAD R##8 F(T##8 a, U##8 b, V##8 c) {                                    \
    return (R##8)(F(a.lo, b.lo, c.lo), F(a.hi, b.hi, c.hi));                   \
  }                                                                            \
  OVERLOAD R##16 F(T##16 a, U##16 b, V##16 c) {                                \
    return (R##16)(F(a.lo, b.lo, c.lo), F(a.hi, b.hi, c.hi));                  \
  }

// F(gentypen a, AS P##n *p): the scalar function writes through a generic
// pointer to a private variable, the vector one gathers the results.
#define VEC_1P(R, F, T, P, AS)                                                 \
  OVERLOAD R##2 F(T##2 a, AS P##2 * p) {                                       \
    P x, y;                                                                    \
    R##2 r = (R##2)(F(a.s0, (P *)&x), F(a.s1, (P *)&y));                       \
    *p = (P##2)(x, y);                                                         \
    return r;                                                                  \
  }                                                                            \
  OVERLOAD R##3 F(T##3 a, AS P##3 * p) {                                       \
    P x, y, z;                                                                 \
    R##3 r = (R##3)(F(a.s0, (P *)&x), F(a.s1, (P *)&y), F(a.s2, (P *)&z));     \
    *p = (P##3)(x, y, z);                                                      \
    return r;                                                                  \
  }                                                                            \
  VEC_1P_HALVES(R, F, T, P, AS, 4, 2)                                          \
  VEC_1P_HALVES(R, F, T, P, AS, 8, 4)                                          \
  VEC_1P_HALVES(R, F, T, P, AS, 16, 8)
#define VEC_1P_HALVES(R, F, T, P, AS, N, H)                                    \
  OVERLOAD R##N F(T##N a, AS P##N *p) {                                        \
    P##H lo, hi;                                                               \
    R##N r = (R##N)(F(a.lo, (P##H *)&lo), F(a.hi, (P##H *)&hi));               \
    *p = (P##N)(lo, hi);                                                       \
    return r;                                                                  \
  }

// F(gentypen a, gentypen b, AS P##n *p).
#define VEC_2P(R, F, T, P, AS)                                                 \
  OVERLOAD R##2 F(T##2 a, T##2 b, AS P##2 * p) {                               \
    P x, y;                                                                    \
    R##2 r = (R##2)(F(a.s0, b.s0, (P *)&x), F(a.s1, b.s1, (P *)&y));           \
    *p = (P##2)(x, y);                                                         \
    return r;                                                                  \
  }                                                                            \
  OVERLOAD R##3 F(T##3 a, T##3 b, AS P##3 * p) {                               \
    P x, y, z;                                                                 \
    R##3 r = (R##3)(F(a.s0, b.s0, (P *)&x), F(a.s1, b.s1, (P *)&y),            \
                    F(a.s2, b.s2, (P *)&z));                                   \
    *p = (P##3)(x, y, z);                                                      \
    return r;                                                                  \
  }                                                                            \
  VEC_2P_HALVES(R, F, T, P, AS, 4, 2)                                          \
  VEC_2P_HALVES(R, F, T, P, AS, 8, 4)                                          \
  VEC_2P_HALVES(R, F, T, P, AS, 16, 8)
#define VEC_2P_HALVES(R, F, T, P, AS, N, H)                                    \
  OVERLOAD R##N F(T##N a, T##N b, AS P##N *p) {                                \
    P##H lo, hi;                                                               \
    R##N r = (R##N)(F(a.lo, b.lo, (P##H *)&lo), F(a.hi, b.hi, (P##H *)&hi));   \
    *p = (P##N)(lo, hi);                                                       \
    return r;                                                                  \
  }

// Every address space a pointer argument may have.
// Generic first: the others' vector versions call its scalar ones.
#define FOR_EACH_AS(M, ...)                                                    \
  M(, __VA_ARGS__)                                                             \
  M(__private, __VA_ARGS__)                                                    \
  M(__global, __VA_ARGS__)                                                     \
  M(__local, __VA_ARGS__)

// Element types.
#define FOR_EACH_INTEGER(M, ...)                                               \
  M(char, uchar, __VA_ARGS__)                                                  \
  M(uchar, uchar, __VA_ARGS__)                                                 \
  M(short, ushort, __VA_ARGS__)                                                \
  M(ushort, ushort, __VA_ARGS__)                                               \
  M(int, uint, __VA_ARGS__)                                                    \
  M(uint, uint, __VA_ARGS__)                                                   \
  M(long, ulong, __VA_ARGS__)                                                  \
  M(ulong, ulong, __VA_ARGS__)
#define FOR_EACH_FLOAT(M, ...)                                                 \
  M(float, int, __VA_ARGS__)                                                   \
  M(double, long, __VA_ARGS__)

// Applies M(type) to a scalar type and each of its vectors.
#define FOR_EACH_WIDTH(M, T) M(T) M(T##2) M(T##3) M(T##4) M(T##8) M(T##16)
