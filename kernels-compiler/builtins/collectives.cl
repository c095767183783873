// Work-group collective functions (OpenCL C 3.0, 6.15.16): broadcast,
// reduce and inclusive/exclusive scan with add, min and max, all and any;
// and those of cl_khr_work_group_uniform_arithmetic: mul on every type, and,
// or and xor on the integer types, logical_and, logical_or and logical_xor
// on int (0 or 1 whatever the operands' values).
//
// A work-group runs on one thread, its work-items in loops between
// barriers. Each function is three steps around two barriers:
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
// the writer's own slot. No trailing barrier is needed, and no atomics.
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

// wg_put_T(s, i, x) stores x in slot i, wg_get_T(s, i) reads slot i.
#define WG_SLOT_ACCESS(T)                                                      \
  static void wg_put_##T(__local ulong *s, size_t i, T x) {                    \
    union {                                                                    \
      T v;                                                                     \
      ulong u;                                                                 \
    } w;                                                                       \
    w.u = 0;                                                                   \
    w.v = x;                                                                   \
    s[i] = w.u;                                                                \
  }                                                                            \
  static T wg_get_##T(__local ulong *s, size_t i) {                            \
    union {                                                                    \
      T v;                                                                     \
      ulong u;                                                                 \
    } w;                                                                       \
    w.u = s[i];                                                                \
    return w.v;                                                                \
  }
WG_SLOT_ACCESS(int)
WG_SLOT_ACCESS(uint)
WG_SLOT_ACCESS(long)
WG_SLOT_ACCESS(ulong)
WG_SLOT_ACCESS(float)
WG_SLOT_ACCESS(double)
WG_SLOT_ACCESS(half)

#define WG_GET(T, S, I) wg_get_##T(S, I)
#define WG_PUT(T, S, I, X) wg_put_##T(S, I, X)

#define WG_ADD(a, b) ((a) + (b))
#define WG_MIN(a, b) ((b) < (a) ? (b) : (a))
#define WG_MAX(a, b) ((b) > (a) ? (b) : (a))

#define WG_REDUCE_SCAN(T, NAME, OP, IDENTITY)                                  \
  OVERLOAD T work_group_reduce_##NAME(T x) {                                   \
    __local ulong *s = __kc_work_group_scratch();                              \
    size_t lid = get_local_linear_id(), n = wg_size();                         \
    WG_PUT(T, s, lid, x);                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    if (__kc_first_work_item()) {                                              \
      T r = WG_GET(T, s, 0);                                                   \
      for (size_t i = 1; i < n; ++i)                                           \
        r = OP(r, WG_GET(T, s, i));                                            \
      WG_PUT(T, s, n, r);                                                      \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return WG_GET(T, s, n);                                                    \
  }                                                                            \
  OVERLOAD T work_group_scan_inclusive_##NAME(T x) {                           \
    __local ulong *s = __kc_work_group_scratch();                              \
    size_t lid = get_local_linear_id(), n = wg_size();                         \
    WG_PUT(T, s, lid, x);                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    if (__kc_first_work_item()) {                                              \
      T r = WG_GET(T, s, 0);                                                   \
      for (size_t i = 1; i < n; ++i) {                                         \
        r = OP(r, WG_GET(T, s, i));                                            \
        WG_PUT(T, s, i, r);                                                    \
      }                                                                        \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return WG_GET(T, s, lid);                                                  \
  }                                                                            \
  OVERLOAD T work_group_scan_exclusive_##NAME(T x) {                           \
    __local ulong *s = __kc_work_group_scratch();                              \
    size_t lid = get_local_linear_id(), n = wg_size();                         \
    WG_PUT(T, s, lid, x);                                                      \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    if (__kc_first_work_item()) {                                              \
      T r = IDENTITY;                                                          \
      for (size_t i = 0; i < n; ++i) {                                         \
        T v = WG_GET(T, s, i);                                                 \
        WG_PUT(T, s, i, r);                                                    \
        r = OP(r, v);                                                          \
      }                                                                        \
    }                                                                          \
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
    size_t lid = get_local_linear_id(), n = wg_size();                         \
    WG_PUT(int, s, lid, predicate != 0);                                       \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    if (__kc_first_work_item()) {                                              \
      int r = WG_GET(int, s, 0);                                               \
      for (size_t i = 1; i < n; ++i)                                           \
        r = OP(r, WG_GET(int, s, i));                                          \
      WG_PUT(int, s, n, r);                                                    \
    }                                                                          \
    barrier(CLK_LOCAL_MEM_FENCE);                                              \
    return WG_GET(int, s, n);                                                  \
  }
WG_PREDICATE(all, WG_AND)
WG_PREDICATE(any, WG_OR)
