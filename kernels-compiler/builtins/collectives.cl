// Work-group collective functions (OpenCL C 3.0, 6.15.16): broadcast,
// reduce and inclusive/exclusive scan with add, min and max, all and any;
// and those of cl_khr_work_group_uniform_arithmetic: mul on every type, and,
// or and xor on the integer types, logical_and, logical_or and logical_xor
// on int (0 or 1 whatever the operands' values).
//
// A work-group runs on one thread, its work-items in loops between
// barriers. A reduction is two steps around a barrier: every work-item
// passes its value to __kc_wg_accumulate_<op>_<type>, which the compiler
// turns into a value the work-item loops carry (Passes/Accumulation.cpp),
// the result in slot n; then every work-item reads slot n. Scans and
// broadcasts are three steps around two barriers:
//   1. every work-item stores its value in its slot of the scratch area
//      (a store per work-item: the work-item loop vectorizes it);
//   2. work-item 0 (__kc_first_work_item(): run once, no loop over the
//      work-items) makes one pass over the group's slots: a reduction
//      leaves its result in slot n (n = the group's size, get_local_size:
//      smaller in the last group of a non-uniform NDRange), a scan
//      replaces every slot with its work-item's result;
//   3. every work-item reads slot n or its own slot.
// Slots are 8 bytes whatever the type, so step 3 of one call and step 1 of
// the next (in the same sub-CFG: no barrier between them) touch different
// bytes: the reads are of slot n or the reader's own slot, the writes of
// the writer's own slot, or of slot n once every work-item has passed (a
// reduction's result). No trailing barrier is needed, and no atomics.
// A value sits in the low bytes of its slot, and every access moves the
// whole 8 bytes (the rest zero): the work-item loops then store and load
// slots with contiguous vector moves (4 bytes at an 8-byte stride would be
// a scatter or a gather).
//
// The scratch area is a __local variable of (kc::MaxWorkGroupSize + 1)
// slots that the LocalMemory pass creates in the work-group functions that
// call __kc_work_group_scratch (lib/Passes/LocalMemory.cpp).

__local ulong *__kc_work_group_scratch(void);
// Whether the caller is the work-group's first work-item (all local ids 0):
// the compiler runs the code between two barriers that only it runs once,
// without a loop over the group (Passes/SubCfgReplication.cpp).
int __kc_first_work_item(void);

static size_t wg_size(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

// wg_put_T(s, i, x) stores x in slot i, wg_get_T(s, i) reads slot i: the
// whole 8 bytes, through U, the unsigned type of T's size (a 4-byte load
// at an 8-byte stride would become a gather in the work-item loops).
#define WG_SLOT_ACCESS(T, U)                                                   \
  static void wg_put_##T(__local ulong *s, size_t i, T x) {                    \
    s[i] = (ulong)as_##U(x);                                                   \
  }                                                                            \
  static T wg_get_##T(__local ulong *s, size_t i) { return as_##T((U)s[i]); }
WG_SLOT_ACCESS(int, uint)
WG_SLOT_ACCESS(uint, uint)
WG_SLOT_ACCESS(long, ulong)
WG_SLOT_ACCESS(ulong, ulong)
WG_SLOT_ACCESS(float, uint)
WG_SLOT_ACCESS(double, ulong)
WG_SLOT_ACCESS(half, ushort)

#define WG_GET(T, S, I) wg_get_##T(S, I)
#define WG_PUT(T, S, I, X) wg_put_##T(S, I, X)

#define WG_ADD(a, b) ((a) + (b))
#define WG_MIN(a, b) ((b) < (a) ? (b) : (a))
#define WG_MAX(a, b) ((b) > (a) ? (b) : (a))

// Step 2 of a scan: slots 0 .. n-1 replaced by the inclusive (INCL 1) or
// exclusive (INCL 0) scan of their values, CARRY the value of the slots
// before FIRST.
#define WG_SCAN_SCALAR(T, S, FIRST, N, CARRY, OP, INCL)                        \
  for (size_t i = FIRST; i < N; ++i) {                                         \
    T v = WG_GET(T, S, i);                                                     \
    T next = OP(CARRY, v);                                                     \
    WG_PUT(T, S, i, INCL ? next : CARRY);                                      \
    CARRY = next;                                                              \
  }

// Eight slots at a time, where the type has 8-lane vectors of the slot's
// width or half of it: each block's own scan in three shifted steps, then
// the carry of the blocks before (a chain of one operation per block
// instead of one per slot; the order of floating-point operations is the
// implementation's, OpenCL C 6.15.16); the last slots one by one.
#define WG_SCAN_VECTOR(T, S, N, OP, IDENTITY, INCL)                            \
  do {                                                                         \
    const T##8 identity8 = (T##8)(IDENTITY);                                   \
    /* The carry in every lane: the chain from block to block stays in */      \
    /* vector registers (a permute and an operation). */                       \
    T##8 before = identity8;                                                   \
    size_t first = 0;                                                          \
    for (; first + 8 <= N; first += 8) {                                       \
      T##8 v = wg_get8_##T(S, first);                                          \
      v = OP(v, __builtin_shufflevector(identity8, v, 0, 8, 9, 10, 11, 12, 13, \
                                        14));                                  \
      v = OP(v, __builtin_shufflevector(identity8, v, 0, 1, 8, 9, 10, 11, 12,  \
                                        13));                                  \
      v = OP(v, __builtin_shufflevector(identity8, v, 0, 1, 2, 3, 8, 9, 10,    \
                                        11));                                  \
      T##8 inclusive = OP(before, v);                                          \
      wg_put8_##T(S, first,                                                    \
                  INCL ? inclusive                                             \
                       : __builtin_shufflevector(before, inclusive, 0, 8, 9,   \
                                                 10, 11, 12, 13, 14));         \
      before = __builtin_shufflevector(inclusive, inclusive, 7, 7, 7, 7, 7, 7, \
                                       7, 7);                                  \
    }                                                                          \
    T carry = before.s0;                                                       \
    WG_SCAN_SCALAR(T, S, first, N, carry, OP, INCL)                            \
  } while (0)

#define WG_SCAN_ONE_BY_ONE(T, S, N, OP, IDENTITY, INCL)                        \
  do {                                                                         \
    T carry = IDENTITY;                                                        \
    WG_SCAN_SCALAR(T, S, 0, N, carry, OP, INCL)                                \
  } while (0)

// Eight slots as a vector: of a 4-byte type the low halves, of an 8-byte
// one the whole slots; stored back with the high halves zero.
#define WG_SLOTS8_NARROW(T)                                                    \
  static T##8 wg_get8_##T(__local ulong *s, size_t i) {                        \
    T##16 w = as_##T##16(vload8(0, s + i));                                    \
    return __builtin_shufflevector(w, w, 0, 2, 4, 6, 8, 10, 12, 14);           \
  }                                                                            \
  static void wg_put8_##T(__local ulong *s, size_t i, T##8 v) {                \
    T##16 w = __builtin_shufflevector(v, (T##8)(0), 0, 8, 1, 9, 2, 10, 3, 11,  \
                                      4, 12, 5, 13, 6, 14, 7, 15);             \
    vstore8(as_ulong8(w), 0, s + i);                                           \
  }
#define WG_SLOTS8_WIDE(T)                                                      \
  static T##8 wg_get8_##T(__local ulong *s, size_t i) {                        \
    return as_##T##8(vload8(0, s + i));                                        \
  }                                                                            \
  static void wg_put8_##T(__local ulong *s, size_t i, T##8 v) {                \
    vstore8(as_ulong8(v), 0, s + i);                                           \
  }
WG_SLOTS8_NARROW(int)
WG_SLOTS8_NARROW(uint)
WG_SLOTS8_NARROW(float)
WG_SLOTS8_WIDE(long)
WG_SLOTS8_WIDE(ulong)
WG_SLOTS8_WIDE(double)

// The pass of the types with vectors is a function of its own that stays
// a call (InlineIntoKernels leaves __kc_outline_ functions alone): inlined,
// its vectors would be split into scalars with the kernel's
// (ScalarizeVectorTypes). It runs once per group.
#define WG_SCAN_OUTLINE(T, NAME, OP, IDENTITY)                                 \
  __attribute__((noinline)) void __kc_outline_scan_##NAME##_##T(              \
      __local ulong *s, size_t n, int inclusive) {                             \
    if (inclusive)                                                             \
      WG_SCAN_VECTOR(T, s, n, OP, IDENTITY, 1);                                \
    else                                                                       \
      WG_SCAN_VECTOR(T, s, n, OP, IDENTITY, 0);                                \
  }
#define WG_SCAN_PASS_VECTOR(T, NAME, S, N, OP, IDENTITY, INCL)                 \
  __kc_outline_scan_##NAME##_##T(S, N, INCL)
#define WG_SCAN_PASS_int WG_SCAN_PASS_VECTOR
#define WG_SCAN_PASS_uint WG_SCAN_PASS_VECTOR
#define WG_SCAN_PASS_long WG_SCAN_PASS_VECTOR
#define WG_SCAN_PASS_ulong WG_SCAN_PASS_VECTOR
#define WG_SCAN_PASS_float WG_SCAN_PASS_VECTOR
#define WG_SCAN_PASS_double WG_SCAN_PASS_VECTOR
#define WG_SCAN_PASS_half(T, NAME, ...) WG_SCAN_ONE_BY_ONE(T, __VA_ARGS__)
#define WG_SCAN_OUTLINE_half(...)
#define WG_SCAN_OUTLINE_int WG_SCAN_OUTLINE
#define WG_SCAN_OUTLINE_uint WG_SCAN_OUTLINE
#define WG_SCAN_OUTLINE_long WG_SCAN_OUTLINE
#define WG_SCAN_OUTLINE_ulong WG_SCAN_OUTLINE
#define WG_SCAN_OUTLINE_float WG_SCAN_OUTLINE
#define WG_SCAN_OUTLINE_double WG_SCAN_OUTLINE

// x of every work-item combined with NAME (add, mul, min, max, and, or,
// xor) into the low bytes of *slot, in any order, by the time every
// work-item has passed: Passes/Accumulation.h.
#define WG_ACCUMULATE(T, NAME)                                                 \
  void __kc_wg_accumulate_##NAME##_##T(__local ulong *slot, T x);

#define WG_REDUCE_SCAN(T, NAME, OP, IDENTITY)                                  \
  WG_ACCUMULATE(T, NAME)                                                       \
  WG_SCAN_OUTLINE_##T(T, NAME, OP, IDENTITY)                                   \
  OVERLOAD T work_group_reduce_##NAME(T x) {                                   \
    __local ulong *s = __kc_work_group_scratch();                              \
    size_t n = wg_size();                                                      \
    __kc_wg_accumulate_##NAME##_##T(s + n, x);                                 \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return WG_GET(T, s, n);                                                    \
  }                                                                            \
  OVERLOAD T work_group_scan_inclusive_##NAME(T x) {                           \
    __local ulong *s = __kc_work_group_scratch();                              \
    size_t lid = get_local_linear_id(), n = wg_size();                         \
    WG_PUT(T, s, lid, x);                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    if (__kc_first_work_item())                                                \
      WG_SCAN_PASS_##T(T, NAME, s, n, OP, IDENTITY, 1);                        \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return WG_GET(T, s, lid);                                                  \
  }                                                                            \
  OVERLOAD T work_group_scan_exclusive_##NAME(T x) {                           \
    __local ulong *s = __kc_work_group_scratch();                              \
    size_t lid = get_local_linear_id(), n = wg_size();                         \
    WG_PUT(T, s, lid, x);                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    if (__kc_first_work_item())                                                \
      WG_SCAN_PASS_##T(T, NAME, s, n, OP, IDENTITY, 0);                        \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return WG_GET(T, s, lid);                                                  \
  }

#define WG_BROADCAST(T)                                                        \
  static T wg_broadcast_##T(T a, size_t target) {                              \
    __local ulong *s = __kc_work_group_scratch();                              \
    size_t lid = get_local_linear_id(), n = wg_size();                         \
    WG_PUT(T, s, lid, a);                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    if (__kc_first_work_item())                                                \
      WG_PUT(T, s, n, WG_GET(T, s, target));                                   \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return WG_GET(T, s, n);                                                    \
  }                                                                            \
  OVERLOAD T work_group_broadcast(T a, size_t x) {                             \
    return wg_broadcast_##T(a, x);                                             \
  }                                                                            \
  OVERLOAD T work_group_broadcast(T a, size_t x, size_t y) {                   \
    return wg_broadcast_##T(a, x + y * get_local_size(0));                     \
  }                                                                            \
  OVERLOAD T work_group_broadcast(T a, size_t x, size_t y, size_t z) {         \
    return wg_broadcast_##T(                                                   \
        a, x + (y + z * get_local_size(1)) * get_local_size(0));               \
  }

#define WG_TYPE(T, MIN_VALUE, MAX_VALUE)                                       \
  WG_REDUCE_SCAN(T, add, WG_ADD, (T)0)                                         \
  WG_REDUCE_SCAN(T, min, WG_MIN, MAX_VALUE)                                    \
  WG_REDUCE_SCAN(T, max, WG_MAX, MIN_VALUE)                                    \
  WG_BROADCAST(T)

#define WG_MUL(a, b) ((a) * (b))
#define WG_AND(a, b) ((a) & (b))
#define WG_OR(a, b) ((a) | (b))
#define WG_XOR(a, b) ((a) ^ (b))

// cl_khr_work_group_uniform_arithmetic on the integer types.
#define WG_INTEGER_TYPE(T, MIN_VALUE, MAX_VALUE)                               \
  WG_TYPE(T, MIN_VALUE, MAX_VALUE)                                             \
  WG_REDUCE_SCAN(T, mul, WG_MUL, (T)1)                                         \
  WG_REDUCE_SCAN(T, and, WG_AND, (T)~(T)0)                                     \
  WG_REDUCE_SCAN(T, or, WG_OR, (T)0)                                           \
  WG_REDUCE_SCAN(T, xor, WG_XOR, (T)0)

WG_INTEGER_TYPE(int, INT_MIN, INT_MAX)
WG_INTEGER_TYPE(uint, 0u, UINT_MAX)
WG_INTEGER_TYPE(long, LONG_MIN, LONG_MAX)
WG_INTEGER_TYPE(ulong, 0ul, ULONG_MAX)
WG_REDUCE_SCAN(float, mul, WG_MUL, 1.0f)
WG_REDUCE_SCAN(double, mul, WG_MUL, 1.0)
WG_REDUCE_SCAN(half, mul, WG_MUL, (half)1.0f)

// The logical operations: the bitwise ones on 0 or 1.
#define WG_LOGICAL(OP)                                                         \
  OVERLOAD int work_group_reduce_logical_##OP(int x) {                         \
    return work_group_reduce_##OP((int)(x != 0));                              \
  }                                                                            \
  OVERLOAD int work_group_scan_inclusive_logical_##OP(int x) {                 \
    return work_group_scan_inclusive_##OP((int)(x != 0));                      \
  }                                                                            \
  OVERLOAD int work_group_scan_exclusive_logical_##OP(int x) {                 \
    return work_group_scan_exclusive_##OP((int)(x != 0));                      \
  }
WG_LOGICAL(and)
WG_LOGICAL(or)
WG_LOGICAL(xor)
WG_TYPE(float, -INFINITY, INFINITY)
WG_TYPE(double, -(double)INFINITY, (double)INFINITY)
WG_TYPE(half, -(half)INFINITY, (half)INFINITY)

#define WG_PREDICATE(NAME, OP)                                                 \
  OVERLOAD int work_group_##NAME(int predicate) {                              \
    __local ulong *s = __kc_work_group_scratch();                              \
    size_t n = wg_size();                                                      \
    __kc_wg_accumulate_##OP##_int(s + n, predicate != 0);                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return WG_GET(int, s, n);                                                  \
  }
WG_PREDICATE(all, and)
WG_PREDICATE(any, or)
