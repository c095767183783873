// Sub-groups (__opencl_c_subgroups and cl_khr_subgroups, cl_intel_subgroups, cl_khr_subgroup_shuffle,
// cl_khr_subgroup_shuffle_relative, cl_khr_subgroup_extended_types,
// cl_khr_subgroup_clustered_reduce).
//
// A sub-group is a run of W consecutive work-items in local linear id order
// (x fastest), W the kernel's sub-group size; the last one of a work-group
// may be partial. Placeholders, replaced per kernel by Passes/SubGroups.cpp
// and the work-item loop nests (Passes/LoopNest.cpp):
//   __kc_sg_width()          W, a constant once the pass has run (the loops
//                            below then have a known trip count and unroll)
//   __kc_sg_exchange(x, s)   stores x in slot s, waits at a barrier, returns
//                            the slots (the work-group's, in local linear id
//                            order, rounded up to whole sub-groups, so
//                            reading all W slots of the last sub-group stays
//                            inside them)
//   __kc_sg_local_id(l)      the sub-group local id, l computed from the
//   __kc_sg_base(b)          local linear id; the sub-group's first local
//                            linear id, b computed likewise. Where the
//                            work-group's x size is a multiple of W, the
//                            loop nest runs each sub-group as an inner loop
//                            of W work-items and gives its induction
//                            variable and the sub-group's start instead:
//                            the same values, which the vectorizer sees as
//                            uniform across the sub-group (its slots are
//                            then scalar loads, not gathers)
// Every collective reads the slots of its sub-group after the exchange;
// slots past the end of a partial sub-group are read but not used.

#include "intel_subgroups.h"

PURE uint __kc_sg_width(void);

#define SG_W __kc_sg_width()

#define SG_EXCHANGE(T)                                                         \
  OVERLOAD __private T *__kc_sg_exchange(T x, uint slot);
#define SG_EXCHANGE_VECTORS(T)                                                 \
  SG_EXCHANGE(T)                                                               \
  SG_EXCHANGE(T##2)                                                            \
  SG_EXCHANGE(T##3)                                                            \
  SG_EXCHANGE(T##4)                                                            \
  SG_EXCHANGE(T##8)                                                            \
  SG_EXCHANGE(T##16)
SG_EXCHANGE_VECTORS(char)
SG_EXCHANGE_VECTORS(uchar)
SG_EXCHANGE_VECTORS(short)
SG_EXCHANGE_VECTORS(ushort)
SG_EXCHANGE_VECTORS(int)
SG_EXCHANGE_VECTORS(uint)
SG_EXCHANGE_VECTORS(long)
SG_EXCHANGE_VECTORS(ulong)
SG_EXCHANGE_VECTORS(float)
SG_EXCHANGE_VECTORS(double)
SG_EXCHANGE_VECTORS(half)

static uint sg_group_items(void) {
  return (uint)(get_local_size(0) * get_local_size(1) * get_local_size(2));
}

static uint sg_enqueued_items(void) {
  return (uint)(get_enqueued_local_size(0) * get_enqueued_local_size(1) *
                get_enqueued_local_size(2));
}

PURE uint __kc_sg_local_id(uint linear_local_id);
PURE uint __kc_sg_base(uint linear_base);

OVERLOAD uint get_sub_group_local_id(void) {
  return __kc_sg_local_id((uint)get_local_linear_id() % SG_W);
}

// The local linear id of the sub-group's first work-item.
static uint sg_base(void) {
  uint Linear = (uint)get_local_linear_id();
  return __kc_sg_base(Linear - Linear % SG_W);
}

OVERLOAD uint get_sub_group_id(void) { return sg_base() / SG_W; }

OVERLOAD uint get_sub_group_size(void) {
  uint Left = sg_group_items() - sg_base();
  return Left < SG_W ? Left : SG_W;
}

// Invariant over the dispatch: the enqueued work-group size (a smaller
// last group of a non-uniform NDRange has no larger sub-groups).
OVERLOAD uint get_max_sub_group_size(void) {
  uint Items = sg_enqueued_items();
  return Items < SG_W ? Items : SG_W;
}

OVERLOAD uint get_num_sub_groups(void) {
  return (sg_group_items() + SG_W - 1) / SG_W;
}

OVERLOAD uint get_enqueued_num_sub_groups(void) {
  return (sg_enqueued_items() + SG_W - 1) / SG_W;
}

// The slots of the calling work-item's sub-group after an exchange of x.
#define SG_SLOTS(x)                                                            \
  (__kc_sg_exchange(x, sg_base() + get_sub_group_local_id()) + sg_base())

// Folds Op over the sub-group's slots i for which Keep holds (the others
// count as the identity Id, so the loop has the same trip count for every
// work-item and vectorizes across them once unrolled).
#define SG_FOLD(T, x, Id, Op, Keep)                                            \
  {                                                                            \
    __private T *S = SG_SLOTS(x);                                              \
    uint N = get_sub_group_size();                                             \
    uint L = get_sub_group_local_id();                                         \
    (void)N;                                                                   \
    (void)L;                                                                   \
    T R = Id;                                                                  \
    for (uint i = 0; i < SG_W; ++i) {                                          \
      T V = S[i];                                                              \
      R = Op(R, (Keep) ? V : (T)(Id));                                         \
    }                                                                          \
    return R;                                                                  \
  }

#define SG_ADD(a, b) ((a) + (b))
#define SG_IMIN(a, b) ((b) < (a) ? (b) : (a))
#define SG_IMAX(a, b) ((b) > (a) ? (b) : (a))

// A reduction: a tree over the W slots (the slots past a partial
// sub-group's end count as the identity), level by level, halving the
// number of values each time: W-1 operations like a fold, but at most
// log2(W) in a row, and each level one vector operation. The specification
// leaves the order of a float reduction's operations open; every
// work-item of the sub-group runs the same tree, so all get the same
// result.
#define SG_TREE_LEVEL(Op, V, Half)                                             \
  if (SG_W > (Half))                                                           \
    for (uint i = 0; i < (Half); ++i)                                          \
      V[i] = Op(V[i], V[i + (Half)]);
#define SG_TREE(Op, V)                                                         \
  SG_TREE_LEVEL(Op, V, 32)                                                     \
  SG_TREE_LEVEL(Op, V, 16)                                                     \
  SG_TREE_LEVEL(Op, V, 8)                                                      \
  SG_TREE_LEVEL(Op, V, 4)                                                      \
  SG_TREE_LEVEL(Op, V, 2)                                                      \
  SG_TREE_LEVEL(Op, V, 1)
// A whole sub-group (all but maybe a group's last): the same tree on
// vectors, a level one operation on the halves of the one before, in a
// function that stays a call (InlineIntoKernels leaves __kc_outline_
// functions alone; inlined, its vectors would be split into scalars with
// the kernel's). The work-item loops call it once per sub-group.
#define SG_HALVES(T, Op, V, H) T##H V##H = Op(V.lo, V.hi);
#define SG_REDUCE_OUTLINE(T, Name, Op)                                         \
  __attribute__((noinline)) T __kc_outline_sg_reduce_##Name##_##T(             \
      const __private T *S, uint W) {                                          \
    T##16 v16;                                                                 \
    if (W == 4) {                                                              \
      T##4 v4 = vload4(0, S);                                                  \
      SG_HALVES(T, Op, v4, 2)                                                  \
      return Op(v42.x, v42.y);                                                 \
    }                                                                          \
    if (W == 8) {                                                              \
      T##8 v8 = vload8(0, S);                                                  \
      SG_HALVES(T, Op, v8, 4)                                                  \
      SG_HALVES(T, Op, v84, 2)                                                 \
      return Op(v842.x, v842.y);                                               \
    }                                                                          \
    if (W == 16) {                                                             \
      v16 = vload16(0, S);                                                     \
    } else if (W == 32) {                                                      \
      v16 = Op(vload16(0, S), vload16(1, S));                                  \
    } else {                                                                   \
      T##16 a = Op(vload16(0, S), vload16(2, S));                              \
      T##16 b = Op(vload16(1, S), vload16(3, S));                              \
      v16 = Op(a, b);                                                          \
    }                                                                          \
    SG_HALVES(T, Op, v16, 8)                                                   \
    SG_HALVES(T, Op, v168, 4)                                                  \
    SG_HALVES(T, Op, v1684, 2)                                                 \
    return Op(v16842.x, v16842.y);                                             \
  }
#define SG_REDUCE(T, Name, x, Id, Op)                                          \
  {                                                                            \
    __private T *S = SG_SLOTS(x);                                              \
    uint N = get_sub_group_size();                                             \
    if (N == SG_W)                                                             \
      return __kc_outline_sg_reduce_##Name##_##T(S, SG_W);                     \
    T V[64];                                                                   \
    for (uint i = 0; i < SG_W; ++i) {                                          \
      T Slot = S[i];                                                           \
      V[i] = i < N ? Slot : (T)(Id);                                           \
    }                                                                          \
    SG_TREE(Op, V)                                                             \
    return V[0];                                                               \
  }

#define SG_FOLD_OP(T, Name, Id, Op)                                            \
  SG_REDUCE_OUTLINE(T, Name, Op)                                               \
  OVERLOAD T sub_group_reduce_##Name(T x) SG_REDUCE(T, Name, x, Id, Op)        \
  OVERLOAD T sub_group_scan_inclusive_##Name(T x)                              \
      SG_FOLD(T, x, Id, Op, i <= L)                                            \
  OVERLOAD T sub_group_scan_exclusive_##Name(T x)                              \
      SG_FOLD(T, x, Id, Op, i < L)

#define SG_INT_FOLDS(T, Min, Max)                                              \
  SG_FOLD_OP(T, add, (T)0, SG_ADD)                                             \
  SG_FOLD_OP(T, min, (T)(Max), SG_IMIN)                                        \
  SG_FOLD_OP(T, max, (T)(Min), SG_IMAX)

SG_INT_FOLDS(char, CHAR_MIN, CHAR_MAX)
SG_INT_FOLDS(uchar, 0, UCHAR_MAX)
SG_INT_FOLDS(short, SHRT_MIN, SHRT_MAX)
SG_INT_FOLDS(ushort, 0, USHRT_MAX)
SG_INT_FOLDS(int, INT_MIN, INT_MAX)
SG_INT_FOLDS(uint, 0, UINT_MAX)
SG_INT_FOLDS(long, LONG_MIN, LONG_MAX)
SG_INT_FOLDS(ulong, 0, ULONG_MAX)

// -0.0 is the identity of IEEE addition (0.0 would turn a sum of -0.0 into
// +0.0); fmin/fmax ignore a NaN operand, as the specification allows.
#define SG_FLOAT_FOLDS(T)                                                      \
  SG_FOLD_OP(T, add, (T)(-0.0), SG_ADD)                                        \
  SG_FOLD_OP(T, min, (T)INFINITY, fmin)                                        \
  SG_FOLD_OP(T, max, (T)(-INFINITY), fmax)

SG_FLOAT_FOLDS(float)
SG_FLOAT_FOLDS(double)
SG_FLOAT_FOLDS(half)

OVERLOAD int sub_group_all(int predicate) {
  __private int *S = SG_SLOTS(predicate);
  uint N = get_sub_group_size();
  int All = 1;
  for (uint i = 0; i < SG_W; ++i)
    All &= i >= N || S[i] != 0;
  return All;
}

OVERLOAD int sub_group_any(int predicate) {
  __private int *S = SG_SLOTS(predicate);
  uint N = get_sub_group_size();
  int Any = 0;
  for (uint i = 0; i < SG_W; ++i)
    Any |= i < N && S[i] != 0;
  return Any;
}

// The value of work-item Lane of the sub-group (taken modulo the sub-group
// size: out of range, the result is undefined but the read stays inside the
// slots).
#define SG_LANE(T, x, Lane) return SG_SLOTS(x)[(Lane) % SG_W];

#define SG_MOVES(T)                                                            \
  OVERLOAD T sub_group_broadcast(T x, uint id) { SG_LANE(T, x, id) }           \
  OVERLOAD T sub_group_shuffle(T x, uint id) { SG_LANE(T, x, id) }             \
  OVERLOAD T sub_group_shuffle_xor(T x, uint mask) {                           \
    SG_LANE(T, x, get_sub_group_local_id() ^ mask)                             \
  }                                                                            \
  OVERLOAD T sub_group_shuffle_up(T x, uint delta) {                           \
    SG_LANE(T, x, get_sub_group_local_id() - delta)                            \
  }                                                                            \
  OVERLOAD T sub_group_shuffle_down(T x, uint delta) {                         \
    SG_LANE(T, x, get_sub_group_local_id() + delta)                            \
  }

#define SG_BROADCAST(T)                                                        \
  OVERLOAD T sub_group_broadcast(T x, uint id) { SG_LANE(T, x, id) }
#define SG_BROADCAST_VECTORS(T)                                                \
  SG_BROADCAST(T##2)                                                           \
  SG_BROADCAST(T##3)                                                           \
  SG_BROADCAST(T##4)                                                           \
  SG_BROADCAST(T##8)                                                           \
  SG_BROADCAST(T##16)

#define SG_ALL_MOVES(T)                                                        \
  SG_MOVES(T)                                                                  \
  SG_BROADCAST_VECTORS(T)

SG_ALL_MOVES(char)
SG_ALL_MOVES(uchar)
SG_ALL_MOVES(short)
SG_ALL_MOVES(ushort)
SG_ALL_MOVES(int)
SG_ALL_MOVES(uint)
SG_ALL_MOVES(long)
SG_ALL_MOVES(ulong)
SG_ALL_MOVES(float)
SG_ALL_MOVES(double)
SG_ALL_MOVES(half)

// cl_intel_subgroups: the shuffles take the lane modulo the sub-group size;
// shuffle_down and shuffle_up reach into a second value past either end of
// the sub-group of get_max_sub_group_size() work-items M (lane + c - M of
// next, lane - c + M of prev), as the extension defines them.
#define SG_INTEL_SHUFFLES(T)                                                   \
  OVERLOAD T intel_sub_group_shuffle(T x, uint c) { SG_LANE(T, x, c) }         \
  OVERLOAD T intel_sub_group_shuffle_xor(T x, uint c) {                        \
    SG_LANE(T, x, get_sub_group_local_id() ^ c)                                \
  }                                                                            \
  OVERLOAD T intel_sub_group_shuffle_down(T cur, T next, uint c) {             \
    __private T *Cur = SG_SLOTS(cur);                                          \
    __private T *Next = SG_SLOTS(next);                                        \
    uint M = get_max_sub_group_size();                                         \
    uint Lane = get_sub_group_local_id() + c;                                  \
    return Lane < M ? Cur[Lane % SG_W] : Next[(Lane - M) % SG_W];              \
  }                                                                            \
  OVERLOAD T intel_sub_group_shuffle_up(T prev, T cur, uint c) {               \
    __private T *Prev = SG_SLOTS(prev);                                        \
    __private T *Cur = SG_SLOTS(cur);                                          \
    uint M = get_max_sub_group_size();                                         \
    uint L = get_sub_group_local_id();                                         \
    return c <= L ? Cur[(L - c) % SG_W] : Prev[(L + M - c) % SG_W];            \
  }
#define SG_INTEL_SHUFFLES_VECTORS(T)                                           \
  SG_INTEL_SHUFFLES(T)                                                         \
  SG_INTEL_SHUFFLES(T##2)                                                      \
  SG_INTEL_SHUFFLES(T##3)                                                      \
  SG_INTEL_SHUFFLES(T##4)                                                      \
  SG_INTEL_SHUFFLES(T##8)                                                      \
  SG_INTEL_SHUFFLES(T##16)

SG_INTEL_SHUFFLES_VECTORS(float)
SG_INTEL_SHUFFLES_VECTORS(int)
SG_INTEL_SHUFFLES_VECTORS(uint)
SG_INTEL_SHUFFLES(long)
SG_INTEL_SHUFFLES(ulong)
SG_INTEL_SHUFFLES(double)
// cl_intel_subgroups_char, cl_intel_subgroups_short, and half (what
// SPIR-V's OpSubgroupShuffleINTEL on 8- and 16-bit types calls: DPC++'s
// scans of bool and int8 arrays).
SG_INTEL_SHUFFLES_VECTORS(char)
SG_INTEL_SHUFFLES_VECTORS(uchar)
SG_INTEL_SHUFFLES_VECTORS(short)
SG_INTEL_SHUFFLES_VECTORS(ushort)
SG_INTEL_SHUFFLES(half)

// Block reads and writes: element k of work-item L is p[L + k * M], M the
// sub-group's get_max_sub_group_size() (the pointer is the same for the
// whole sub-group); no exchange needed.
#define SG_BLOCK(p) ((p) + get_sub_group_local_id())
#define SG_M get_max_sub_group_size()

OVERLOAD uint intel_sub_group_block_read(const __global uint *p) {
  return *SG_BLOCK(p);
}
OVERLOAD uint2 intel_sub_group_block_read2(const __global uint *p) {
  const __global uint *q = SG_BLOCK(p);
  uint M = SG_M;
  return (uint2)(q[0], q[M]);
}
OVERLOAD uint4 intel_sub_group_block_read4(const __global uint *p) {
  const __global uint *q = SG_BLOCK(p);
  uint M = SG_M;
  return (uint4)(q[0], q[M], q[2 * M], q[3 * M]);
}
OVERLOAD uint8 intel_sub_group_block_read8(const __global uint *p) {
  const __global uint *q = SG_BLOCK(p);
  uint M = SG_M;
  return (uint8)(q[0], q[M], q[2 * M], q[3 * M], q[4 * M], q[5 * M], q[6 * M],
                 q[7 * M]);
}
OVERLOAD void intel_sub_group_block_write(__global uint *p, uint data) {
  *SG_BLOCK(p) = data;
}
OVERLOAD void intel_sub_group_block_write2(__global uint *p, uint2 data) {
  __global uint *q = SG_BLOCK(p);
  uint M = SG_M;
  q[0] = data.s0;
  q[M] = data.s1;
}
OVERLOAD void intel_sub_group_block_write4(__global uint *p, uint4 data) {
  __global uint *q = SG_BLOCK(p);
  uint M = SG_M;
  q[0] = data.s0;
  q[M] = data.s1;
  q[2 * M] = data.s2;
  q[3 * M] = data.s3;
}
OVERLOAD void intel_sub_group_block_write8(__global uint *p, uint8 data) {
  __global uint *q = SG_BLOCK(p);
  uint M = SG_M;
  q[0] = data.s0;
  q[M] = data.s1;
  q[2 * M] = data.s2;
  q[3 * M] = data.s3;
  q[4 * M] = data.s4;
  q[5 * M] = data.s5;
  q[6 * M] = data.s6;
  q[7 * M] = data.s7;
}

// cl_khr_subgroup_clustered_reduce: the sub-group in clusters of
// clustersize consecutive work-items (a power of 2), each reduced on its
// own, in lane order.
#define SG_CLUSTER_REDUCE(T, Name, Id, Op)                                     \
  OVERLOAD T sub_group_clustered_reduce_##Name(T x, uint clustersize) {        \
    __private T *S = SG_SLOTS(x);                                              \
    uint N = get_sub_group_size();                                             \
    uint L = get_sub_group_local_id();                                         \
    uint First = L - L % clustersize;                                          \
    T R = Id;                                                                  \
    for (uint i = 0; i < SG_W; ++i) {                                          \
      T V = S[i];                                                              \
      bool Keep = i >= First && i - First < clustersize && i < N;              \
      R = Op(R, Keep ? V : (T)(Id));                                           \
    }                                                                          \
    return R;                                                                  \
  }

#define SG_MUL(a, b) ((a) * (b))
#define SG_AND(a, b) ((a) & (b))
#define SG_OR(a, b) ((a) | (b))
#define SG_XOR(a, b) ((a) ^ (b))
#define SG_LAND(a, b) ((a) && (b))
#define SG_LOR(a, b) ((a) || (b))
#define SG_LXOR(a, b) ((!(a)) != (!(b)))

// The operations of the arithmetic reductions and scans, each once for a
// macro M(T, Name, Identity, Op): those of the integer types, of the
// floating-point types (-0.0 is the identity of IEEE addition; fmin/fmax
// ignore a NaN operand) and the logical ones, which take and give 0 or 1.
// The clustered reductions here and the non-uniform ones
// (subgroups_non_uniform.cl) are made from it.
#define SG_INT_OPS(M, T, Min, Max)                                             \
  M(T, add, (T)0, SG_ADD)                                                      \
  M(T, mul, (T)1, SG_MUL)                                                      \
  M(T, min, (T)(Max), SG_IMIN)                                                 \
  M(T, max, (T)(Min), SG_IMAX)                                                 \
  M(T, and, (T)(~(T)0), SG_AND)                                                \
  M(T, or, (T)0, SG_OR)                                                        \
  M(T, xor, (T)0, SG_XOR)
#define SG_FLOAT_OPS(M, T)                                                     \
  M(T, add, (T)(-0.0), SG_ADD)                                                 \
  M(T, mul, (T)1, SG_MUL)                                                      \
  M(T, min, (T)INFINITY, fmin)                                                 \
  M(T, max, (T)(-INFINITY), fmax)
#define SG_FOR_EACH_OP(M)                                                      \
  SG_INT_OPS(M, char, CHAR_MIN, CHAR_MAX)                                      \
  SG_INT_OPS(M, uchar, 0, UCHAR_MAX)                                           \
  SG_INT_OPS(M, short, SHRT_MIN, SHRT_MAX)                                     \
  SG_INT_OPS(M, ushort, 0, USHRT_MAX)                                          \
  SG_INT_OPS(M, int, INT_MIN, INT_MAX)                                         \
  SG_INT_OPS(M, uint, 0, UINT_MAX)                                             \
  SG_INT_OPS(M, long, LONG_MIN, LONG_MAX)                                      \
  SG_INT_OPS(M, ulong, 0, ULONG_MAX)                                           \
  SG_FLOAT_OPS(M, float)                                                       \
  SG_FLOAT_OPS(M, double)                                                      \
  SG_FLOAT_OPS(M, half)                                                        \
  M(int, logical_and, 1, SG_LAND)                                              \
  M(int, logical_or, 0, SG_LOR)                                                \
  M(int, logical_xor, 0, SG_LXOR)

SG_FOR_EACH_OP(SG_CLUSTER_REDUCE)

// cl_khr_subgroup_rotate: the value of the work-item delta lanes further
// round the sub-group (of get_max_sub_group_size() lanes, as SPIR-V's
// OpGroupNonUniformRotateKHR defines it for kernels), or round the calling
// work-item's cluster of clustersize lanes (a power of 2). A lane past the
// end of a partial sub-group is inactive: its value is undefined, the read
// stays inside the slots.
#define SG_ROTATE(T)                                                           \
  OVERLOAD T sub_group_rotate(T x, int delta) {                                \
    SG_LANE(T, x, (get_sub_group_local_id() + (uint)delta) & (SG_W - 1))       \
  }                                                                            \
  OVERLOAD T sub_group_clustered_rotate(T x, int delta, uint clustersize) {    \
    uint L = get_sub_group_local_id();                                         \
    SG_LANE(T, x,                                                              \
            ((L + (uint)delta) & (clustersize - 1)) + (L & ~(clustersize - 1)))  \
  }

SG_ROTATE(char)
SG_ROTATE(uchar)
SG_ROTATE(short)
SG_ROTATE(ushort)
SG_ROTATE(int)
SG_ROTATE(uint)
SG_ROTATE(long)
SG_ROTATE(ulong)
SG_ROTATE(float)
SG_ROTATE(double)
SG_ROTATE(half)
