// shuffle and shuffle2 (OpenCL C 3.0, 6.15.13): M-element inputs, N-element
// results, M and N in {2, 4, 8, 16}; only the low bits of each mask element
// that select an input element count.
#define SHUFFLE_MN(T, U, M, N)                                                 \
  OVERLOAD T##N shuffle(T##M x, U##N mask) {                                   \
    T##N r;                                                                    \
    for (int i = 0; i < N; ++i)                                                \
      r[i] = x[mask[i] & (M - 1)];                                             \
    return r;                                                                  \
  }                                                                            \
  OVERLOAD T##N shuffle2(T##M x, T##M y, U##N mask) {                          \
    T##N r;                                                                    \
    for (int i = 0; i < N; ++i) {                                              \
      uint k = (uint)(mask[i] & (2 * M - 1));                                  \
      r[i] = k < M ? x[k] : y[k - M];                                          \
    }                                                                          \
    return r;                                                                  \
  }
#define SHUFFLE_M(T, U, M)                                                     \
  SHUFFLE_MN(T, U, M, 2)                                                       \
  SHUFFLE_MN(T, U, M, 4)                                                       \
  SHUFFLE_MN(T, U, M, 8)                                                       \
  SHUFFLE_MN(T, U, M, 16)
#define SHUFFLE(T, U)                                                          \
  SHUFFLE_M(T, U, 2)                                                           \
  SHUFFLE_M(T, U, 4)                                                           \
  SHUFFLE_M(T, U, 8)                                                           \
  SHUFFLE_M(T, U, 16)
SHUFFLE(char, uchar)
SHUFFLE(uchar, uchar)
SHUFFLE(short, ushort)
SHUFFLE(ushort, ushort)
SHUFFLE(int, uint)
SHUFFLE(uint, uint)
SHUFFLE(long, ulong)
SHUFFLE(ulong, ulong)
SHUFFLE(float, uint)
SHUFFLE(double, ulong)
SHUFFLE(half, ushort)
