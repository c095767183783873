// Asynchronous copies between global and local memory and prefetch
// (OpenCL C 3.0, 6.15.11). Every work-item of the group makes the call with
// the same arguments; each copies its share (every local-size-th element,
// starting at its local linear id), and wait_group_events is a barrier
// after which the whole copy is visible to the group. Events carry nothing.
static size_t group_items(void) {
  return get_local_size(0) * get_local_size(1) * get_local_size(2);
}

#define ASYNC_COPY(T)                                                          \
  OVERLOAD event_t async_work_group_copy(__local T *dst, const __global T *src, \
                                         size_t n, event_t e) {                \
    for (size_t i = get_local_linear_id(); i < n; i += group_items())          \
      dst[i] = src[i];                                                         \
    return e;                                                                  \
  }                                                                            \
  OVERLOAD event_t async_work_group_copy(__global T *dst, const __local T *src, \
                                         size_t n, event_t e) {                \
    for (size_t i = get_local_linear_id(); i < n; i += group_items())          \
      dst[i] = src[i];                                                         \
    return e;                                                                  \
  }                                                                            \
  OVERLOAD event_t async_work_group_strided_copy(                              \
      __local T *dst, const __global T *src, size_t n, size_t stride,          \
      event_t e) {                                                             \
    for (size_t i = get_local_linear_id(); i < n; i += group_items())          \
      dst[i] = src[i * stride];                                                \
    return e;                                                                  \
  }                                                                            \
  OVERLOAD event_t async_work_group_strided_copy(                              \
      __global T *dst, const __local T *src, size_t n, size_t stride,          \
      event_t e) {                                                             \
    for (size_t i = get_local_linear_id(); i < n; i += group_items())          \
      dst[i * stride] = src[i];                                                \
    return e;                                                                  \
  }                                                                            \
  OVERLOAD void prefetch(const __global T *p, size_t n) {}
#define ASYNC_COPY_WIDTHS(T)                                                   \
  ASYNC_COPY(T)                                                                \
  ASYNC_COPY(T##2)                                                             \
  ASYNC_COPY(T##3)                                                             \
  ASYNC_COPY(T##4)                                                             \
  ASYNC_COPY(T##8)                                                             \
  ASYNC_COPY(T##16)
ASYNC_COPY_WIDTHS(char)
ASYNC_COPY_WIDTHS(uchar)
ASYNC_COPY_WIDTHS(short)
ASYNC_COPY_WIDTHS(ushort)
ASYNC_COPY_WIDTHS(int)
ASYNC_COPY_WIDTHS(uint)
ASYNC_COPY_WIDTHS(long)
ASYNC_COPY_WIDTHS(ulong)
ASYNC_COPY_WIDTHS(float)
ASYNC_COPY_WIDTHS(double)
ASYNC_COPY_WIDTHS(half)

OVERLOAD void wait_group_events(int n, event_t *events) {
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
}
