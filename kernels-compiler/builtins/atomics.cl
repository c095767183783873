// Atomic functions: OpenCL C 1.x atomic_* and atom_* (cl_khr_*_atomics,
// 32- and 64-bit) on __global and __local memory, and the OpenCL C 2.0/3.0
// C11-style functions on generic, __global and __local memory with memory
// orders and scopes. Clang's atomic builtins do the work; a work-group runs
// on one thread, so every scope is served by the device scope.

#define RELAXED __ATOMIC_RELAXED

// --- OpenCL C 1.x: relaxed read-modify-write, returning the old value.
#define LEGACY_INT(PREFIX, AS, T)                                              \
  OVERLOAD T PREFIX##add(volatile AS T *p, T v) {                              \
    return __atomic_fetch_add(p, v, RELAXED);                                  \
  }                                                                            \
  OVERLOAD T PREFIX##sub(volatile AS T *p, T v) {                              \
    return __atomic_fetch_sub(p, v, RELAXED);                                  \
  }                                                                            \
  OVERLOAD T PREFIX##xchg(volatile AS T *p, T v) {                             \
    return __atomic_exchange_n(p, v, RELAXED);                                 \
  }                                                                            \
  OVERLOAD T PREFIX##inc(volatile AS T *p) {                                   \
    return __atomic_fetch_add(p, (T)1, RELAXED);                               \
  }                                                                            \
  OVERLOAD T PREFIX##dec(volatile AS T *p) {                                   \
    return __atomic_fetch_sub(p, (T)1, RELAXED);                               \
  }                                                                            \
  OVERLOAD T PREFIX##cmpxchg(volatile AS T *p, T cmp, T v) {                   \
    __atomic_compare_exchange_n(p, &cmp, v, false, RELAXED, RELAXED);          \
    return cmp;                                                                \
  }                                                                            \
  OVERLOAD T PREFIX##min(volatile AS T *p, T v) {                              \
    return __atomic_fetch_min(p, v, RELAXED);                                  \
  }                                                                            \
  OVERLOAD T PREFIX##max(volatile AS T *p, T v) {                              \
    return __atomic_fetch_max(p, v, RELAXED);                                  \
  }                                                                            \
  OVERLOAD T PREFIX##and(volatile AS T *p, T v) {                              \
    return __atomic_fetch_and(p, v, RELAXED);                                  \
  }                                                                            \
  OVERLOAD T PREFIX##or(volatile AS T *p, T v) {                               \
    return __atomic_fetch_or(p, v, RELAXED);                                   \
  }                                                                            \
  OVERLOAD T PREFIX##xor(volatile AS T *p, T v) {                              \
    return __atomic_fetch_xor(p, v, RELAXED);                                  \
  }
#define LEGACY(AS, _)                                                          \
  LEGACY_INT(atomic_, AS, int)                                                 \
  LEGACY_INT(atomic_, AS, uint)                                                \
  LEGACY_INT(atom_, AS, int)                                                   \
  LEGACY_INT(atom_, AS, uint)                                                  \
  LEGACY_INT(atom_, AS, long)                                                  \
  LEGACY_INT(atom_, AS, ulong)                                                 \
  OVERLOAD float atomic_xchg(volatile AS float *p, float v) {                  \
    return as_float(__atomic_exchange_n((volatile AS uint *)p, as_uint(v), RELAXED)); \
  }
LEGACY(__global, )
LEGACY(__local, )
LEGACY(, )

// --- OpenCL C 2.0/3.0: the C11-style functions.
#define SEQ_CST __ATOMIC_SEQ_CST
#define DEVICE __OPENCL_MEMORY_SCOPE_DEVICE

// Functions of every atomic type A holding C.
#define C11_COMMON(AS, A, C)                                                   \
  OVERLOAD void atomic_init(volatile AS A *p, C v) { __opencl_atomic_init(p, v); } \
  OVERLOAD void atomic_store(volatile AS A *p, C v) {                          \
    __opencl_atomic_store(p, v, SEQ_CST, DEVICE);                              \
  }                                                                            \
  OVERLOAD void atomic_store_explicit(volatile AS A *p, C v, memory_order o) { \
    __opencl_atomic_store(p, v, o, DEVICE);                                    \
  }                                                                            \
  OVERLOAD void atomic_store_explicit(volatile AS A *p, C v, memory_order o,   \
                                      memory_scope s) {                        \
    __opencl_atomic_store(p, v, o, s);                                         \
  }                                                                            \
  OVERLOAD C atomic_load(volatile AS A *p) {                                   \
    return __opencl_atomic_load(p, SEQ_CST, DEVICE);                           \
  }                                                                            \
  OVERLOAD C atomic_load_explicit(volatile AS A *p, memory_order o) {          \
    return __opencl_atomic_load(p, o, DEVICE);                                 \
  }                                                                            \
  OVERLOAD C atomic_load_explicit(volatile AS A *p, memory_order o,            \
                                  memory_scope s) {                            \
    return __opencl_atomic_load(p, o, s);                                      \
  }                                                                            \
  OVERLOAD C atomic_exchange(volatile AS A *p, C v) {                          \
    return __opencl_atomic_exchange(p, v, SEQ_CST, DEVICE);                    \
  }                                                                            \
  OVERLOAD C atomic_exchange_explicit(volatile AS A *p, C v, memory_order o) { \
    return __opencl_atomic_exchange(p, v, o, DEVICE);                          \
  }                                                                            \
  OVERLOAD C atomic_exchange_explicit(volatile AS A *p, C v, memory_order o,   \
                                      memory_scope s) {                        \
    return __opencl_atomic_exchange(p, v, o, s);                               \
  }

// compare_exchange with the expected value in address space EAS.
#define C11_CMPXCHG_KIND(AS, A, C, EAS, KIND)                                  \
  OVERLOAD bool atomic_compare_exchange_##KIND(volatile AS A *p, EAS C *e, C v) { \
    return __opencl_atomic_compare_exchange_##KIND(p, e, v, SEQ_CST, SEQ_CST,  \
                                                   DEVICE);                    \
  }                                                                            \
  OVERLOAD bool atomic_compare_exchange_##KIND##_explicit(                     \
      volatile AS A *p, EAS C *e, C v, memory_order s, memory_order f) {       \
    return __opencl_atomic_compare_exchange_##KIND(p, e, v, s, f, DEVICE);     \
  }                                                                            \
  OVERLOAD bool atomic_compare_exchange_##KIND##_explicit(                     \
      volatile AS A *p, EAS C *e, C v, memory_order s, memory_order f,         \
      memory_scope sc) {                                                       \
    return __opencl_atomic_compare_exchange_##KIND(p, e, v, s, f, sc);         \
  }
#define C11_CMPXCHG(AS, A, C, EAS)                                             \
  C11_CMPXCHG_KIND(AS, A, C, EAS, strong) C11_CMPXCHG_KIND(AS, A, C, EAS, weak)

#define C11_FETCH(AS, A, C, V, OP)                                             \
  OVERLOAD C atomic_fetch_##OP(volatile AS A *p, V v) {                        \
    return __opencl_atomic_fetch_##OP(p, v, SEQ_CST, DEVICE);                  \
  }                                                                            \
  OVERLOAD C atomic_fetch_##OP##_explicit(volatile AS A *p, V v,               \
                                          memory_order o) {                    \
    return __opencl_atomic_fetch_##OP(p, v, o, DEVICE);                        \
  }                                                                            \
  OVERLOAD C atomic_fetch_##OP##_explicit(volatile AS A *p, V v,               \
                                          memory_order o, memory_scope s) {    \
    return __opencl_atomic_fetch_##OP(p, v, o, s);                             \
  }
#define C11_INTEGER(AS, A, C)                                                  \
  C11_FETCH(AS, A, C, C, add)                                                  \
  C11_FETCH(AS, A, C, C, sub)                                                  \
  C11_FETCH(AS, A, C, C, or)                                                   \
  C11_FETCH(AS, A, C, C, xor)                                                  \
  C11_FETCH(AS, A, C, C, and)                                                  \
  C11_FETCH(AS, A, C, C, min)                                                  \
  C11_FETCH(AS, A, C, C, max)

// cl_ext_float_atomics: add, sub, min and max on float and double (LLVM's
// atomicrmw fadd/fsub/fmin/fmax: a compare-exchange loop on x86; plain
// accesses on __local memory after LocalAtomics). min and max are fmin and
// fmax: a NaN operand loses to a number.
#define C11_FLOAT(AS, A, C)                                                    \
  C11_FETCH(AS, A, C, C, add)                                                  \
  C11_FETCH(AS, A, C, C, sub)                                                  \
  C11_FETCH(AS, A, C, C, min)                                                  \
  C11_FETCH(AS, A, C, C, max)

#define C11_TYPE(AS, A, C, EXPECTED)                                           \
  C11_COMMON(AS, A, C)                                                         \
  EXPECTED(AS, A, C)
#define EXPECTED_GENERIC(AS, A, C) C11_CMPXCHG(AS, A, C, )
#define EXPECTED_NAMED(AS, A, C)                                               \
  C11_CMPXCHG(AS, A, C, __global)                                              \
  C11_CMPXCHG(AS, A, C, __local)                                               \
  C11_CMPXCHG(AS, A, C, __private)
#define C11_ALL(AS, EXPECTED)                                                  \
  C11_TYPE(AS, atomic_int, int, EXPECTED)                                      \
  C11_TYPE(AS, atomic_uint, uint, EXPECTED)                                    \
  C11_TYPE(AS, atomic_long, long, EXPECTED)                                    \
  C11_TYPE(AS, atomic_ulong, ulong, EXPECTED)                                  \
  C11_TYPE(AS, atomic_float, float, EXPECTED)                                  \
  C11_TYPE(AS, atomic_double, double, EXPECTED)                                \
  C11_INTEGER(AS, atomic_int, int)                                             \
  C11_INTEGER(AS, atomic_uint, uint)                                           \
  C11_INTEGER(AS, atomic_long, long)                                           \
  C11_INTEGER(AS, atomic_ulong, ulong)                                         \
  C11_FLOAT(AS, atomic_float, float)                                           \
  C11_FLOAT(AS, atomic_double, double)                                         \
  C11_FETCH(AS, atomic_uintptr_t, uintptr_t, ptrdiff_t, add)                   \
  C11_FETCH(AS, atomic_uintptr_t, uintptr_t, ptrdiff_t, sub)                   \
  OVERLOAD bool atomic_flag_test_and_set(volatile AS atomic_flag *p) {         \
    return __opencl_atomic_exchange((volatile AS atomic_int *)p, 1, SEQ_CST,   \
                                    DEVICE) != 0;                              \
  }                                                                            \
  OVERLOAD bool atomic_flag_test_and_set_explicit(volatile AS atomic_flag *p,  \
                                                  memory_order o) {            \
    return __opencl_atomic_exchange((volatile AS atomic_int *)p, 1, o,         \
                                    DEVICE) != 0;                              \
  }                                                                            \
  OVERLOAD bool atomic_flag_test_and_set_explicit(                             \
      volatile AS atomic_flag *p, memory_order o, memory_scope s) {            \
    return __opencl_atomic_exchange((volatile AS atomic_int *)p, 1, o, s) != 0; \
  }                                                                            \
  OVERLOAD void atomic_flag_clear(volatile AS atomic_flag *p) {                \
    __opencl_atomic_store((volatile AS atomic_int *)p, 0, SEQ_CST, DEVICE);    \
  }                                                                            \
  OVERLOAD void atomic_flag_clear_explicit(volatile AS atomic_flag *p,         \
                                           memory_order o) {                   \
    __opencl_atomic_store((volatile AS atomic_int *)p, 0, o, DEVICE);          \
  }                                                                            \
  OVERLOAD void atomic_flag_clear_explicit(volatile AS atomic_flag *p,         \
                                           memory_order o, memory_scope s) {   \
    __opencl_atomic_store((volatile AS atomic_int *)p, 0, o, s);               \
  }
C11_ALL(, EXPECTED_GENERIC)
C11_ALL(__global, EXPECTED_NAMED)
C11_ALL(__local, EXPECTED_NAMED)

// cl_ext_float_atomics on half (with cl_khr_fp16): load, store, exchange,
// add, sub, min and max, as the extension lists them (no compare-exchange);
// a compare-exchange loop on the 16 bits, as for float.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
// Clang 19 declares atomic_store and atomic_store_explicit on atomic_half
// with a value of type atomic_half (the other atomic types take their value
// type), so calls name those overloads.
#define C11_HALF(AS)                                                           \
  C11_COMMON(AS, atomic_half, half)                                            \
  C11_FLOAT(AS, atomic_half, half)                                             \
  OVERLOAD void atomic_store(volatile AS atomic_half *p, atomic_half v) {      \
    __opencl_atomic_store(p, (half)v, SEQ_CST, DEVICE);                        \
  }                                                                            \
  OVERLOAD void atomic_store_explicit(volatile AS atomic_half *p,              \
                                      atomic_half v, memory_order o) {         \
    __opencl_atomic_store(p, (half)v, o, DEVICE);                              \
  }                                                                            \
  OVERLOAD void atomic_store_explicit(volatile AS atomic_half *p,              \
                                      atomic_half v, memory_order o,           \
                                      memory_scope s) {                        \
    __opencl_atomic_store(p, (half)v, o, s);                                   \
  }
C11_HALF()
C11_HALF(__global)
C11_HALF(__local)

OVERLOAD void atomic_work_item_fence(cl_mem_fence_flags flags, memory_order o,
                                     memory_scope s) {
  if (o != memory_order_relaxed)
    __c11_atomic_thread_fence(o);
}
