// Relational functions (OpenCL C 3.0, 6.15.6). Scalar forms return 0 or 1,
// vector forms 0 or -1 per element: exactly what OpenCL C's comparison
// operators give, so one expression serves every width.

#define COMPARE_W(T, I, R, N)                                                     \
  OVERLOAD R isequal(T##N x, T##N y) { return x == y; }                     \
  OVERLOAD R isnotequal(T##N x, T##N y) { return x != y; }                  \
  OVERLOAD R isgreater(T##N x, T##N y) { return x > y; }                    \
  OVERLOAD R isgreaterequal(T##N x, T##N y) { return x >= y; }              \
  OVERLOAD R isless(T##N x, T##N y) { return x < y; }                       \
  OVERLOAD R islessequal(T##N x, T##N y) { return x <= y; }                 \
  OVERLOAD R islessgreater(T##N x, T##N y) { return (x < y) | (x > y); }    \
  OVERLOAD R isordered(T##N x, T##N y) { return (x == x) & (y == y); }      \
  OVERLOAD R isunordered(T##N x, T##N y) { return (x != x) | (y != y); }    \
  OVERLOAD R isfinite(T##N x) {                                             \
    return (as_##I##N(x) & ABS_MASK_##T) < EXP_MASK_##T;                       \
  }                                                                            \
  OVERLOAD R isinf(T##N x) {                                                \
    return (as_##I##N(x) & ABS_MASK_##T) == EXP_MASK_##T;                      \
  }                                                                            \
  OVERLOAD R isnan(T##N x) {                                                \
    return (as_##I##N(x) & ABS_MASK_##T) > EXP_MASK_##T;                       \
  }                                                                            \
  OVERLOAD R isnormal(T##N x) {                                             \
    return ((as_##I##N(x) & EXP_MASK_##T) != (I)0) &                              \
           ((as_##I##N(x) & EXP_MASK_##T) != EXP_MASK_##T);                    \
  }                                                                            \
  OVERLOAD R signbit(T##N x) { return as_##I##N(x) < (I)0; }
#define ABS_MASK_float 0x7fffffff
#define EXP_MASK_float 0x7f800000
#define ABS_MASK_half ((short)0x7fff)
#define EXP_MASK_half ((short)0x7c00)
#define ABS_MASK_double 0x7fffffffffffffffl
#define EXP_MASK_double 0x7ff0000000000000l
// R: the result type. The scalar forms return int for every type (double
// included), the vector forms a vector of the element's size.
#define COMPARE(T, I)                                                          \
  COMPARE_W(T, I, int, )                                                       \
  COMPARE_W(T, I, I##2, 2)                                                     \
  COMPARE_W(T, I, I##3, 3)                                                     \
  COMPARE_W(T, I, I##4, 4)                                                     \
  COMPARE_W(T, I, I##8, 8)                                                     \
  COMPARE_W(T, I, I##16, 16)
COMPARE(half, short)
COMPARE(float, int)
COMPARE(double, long)

// any/all: the most significant bit of any/every element.
#define ANY_ALL(T)                                                             \
  OVERLOAD int any(T x) { return x < 0; }                                      \
  OVERLOAD int all(T x) { return x < 0; }                                      \
  OVERLOAD int any(T##2 x) { return (x.s0 | x.s1) < 0; }                       \
  OVERLOAD int all(T##2 x) { return (x.s0 & x.s1) < 0; }                       \
  OVERLOAD int any(T##3 x) { return (x.s0 | x.s1 | x.s2) < 0; }                \
  OVERLOAD int all(T##3 x) { return (x.s0 & x.s1 & x.s2) < 0; }                \
  OVERLOAD int any(T##4 x) { return any(x.lo | x.hi); }                        \
  OVERLOAD int all(T##4 x) { return all(x.lo & x.hi); }                        \
  OVERLOAD int any(T##8 x) { return any(x.lo | x.hi); }                        \
  OVERLOAD int all(T##8 x) { return all(x.lo & x.hi); }                        \
  OVERLOAD int any(T##16 x) { return any(x.lo | x.hi); }                       \
  OVERLOAD int all(T##16 x) { return all(x.lo & x.hi); }
ANY_ALL(char)
ANY_ALL(short)
ANY_ALL(int)
ANY_ALL(long)

// bitselect and select, per element type: S is the signed integer type of
// the same size, U the unsigned one.
#define SELECT_W(T, S, U, N)                                                   \
  OVERLOAD T##N bitselect(T##N a, T##N b, T##N c) {                            \
    U##N m = as_##U##N(c);                                                     \
    return as_##T##N((U##N)((as_##U##N(a) & (U##N)~m) | (as_##U##N(b) & m))); \
  }                                                                            \
  OVERLOAD T##N select(T##N a, T##N b, S##N c) {                               \
    return SELECT_##N(a, b, c, S##N);                                          \
  }                                                                            \
  OVERLOAD T##N select(T##N a, T##N b, U##N c) {                               \
    return SELECT_##N(a, b, as_##S##N(c), S##N);                               \
  }
#define SELECT_(a, b, c, S) ((c) ? (b) : (a))
#define SELECT_VECTOR(a, b, c, S) ((c) < (S)0 ? (b) : (a))
#define SELECT_2 SELECT_VECTOR
#define SELECT_3 SELECT_VECTOR
#define SELECT_4 SELECT_VECTOR
#define SELECT_8 SELECT_VECTOR
#define SELECT_16 SELECT_VECTOR
#define SELECT(T, S, U)                                                        \
  SELECT_W(T, S, U, )                                                          \
  SELECT_W(T, S, U, 2)                                                         \
  SELECT_W(T, S, U, 3)                                                         \
  SELECT_W(T, S, U, 4)                                                         \
  SELECT_W(T, S, U, 8)                                                         \
  SELECT_W(T, S, U, 16)
SELECT(char, char, uchar)
SELECT(uchar, char, uchar)
SELECT(short, short, ushort)
SELECT(ushort, short, ushort)
SELECT(int, int, uint)
SELECT(uint, int, uint)
SELECT(long, long, ulong)
SELECT(ulong, long, ulong)
SELECT(half, short, ushort)
SELECT(float, int, uint)
SELECT(double, long, ulong)
