// Explicit memory fences (OpenCL C 3.0, 6.15.9). A work-item's own accesses
// are ordered by program order; the fence keeps the compiler (and the CPU
// for other threads) from reordering across it. Barriers are not here: the
// work-group passes turn them into sub-CFG boundaries.
OVERLOAD void mem_fence(cl_mem_fence_flags flags) {
  __c11_atomic_thread_fence(__ATOMIC_ACQ_REL);
}
OVERLOAD void read_mem_fence(cl_mem_fence_flags flags) {
  __c11_atomic_thread_fence(__ATOMIC_ACQUIRE);
}
OVERLOAD void write_mem_fence(cl_mem_fence_flags flags) {
  __c11_atomic_thread_fence(__ATOMIC_RELEASE);
}
