// Atomics that llvm-spirv gives back as the C11-style functions on generic
// pointers (the builtin library has them for global and local pointers).
// Built from source with -cl-std=CL3.0. counters: see the test.
kernel void c11_atomics(global int* o) {
    size_t i = get_global_id(0);
    local int lowest;
    if (get_local_id(0) == 0)
        lowest = 1 << 30;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_cmpxchg(&o[0], 0, 5);
    atomic_xchg(&o[1], 7);
    atomic_min(&lowest, (int)i);
    atomic_and(&o[2], 0xff);
    atomic_or(&o[3], 1 << (i % 8));
    atomic_fetch_sub_explicit((volatile global atomic_int*)&o[4], 1, memory_order_relaxed,
                              memory_scope_device);
    int expected = 0;
    atomic_compare_exchange_strong_explicit((volatile global atomic_int*)&o[5], &expected, 9,
                                            memory_order_seq_cst, memory_order_relaxed,
                                            memory_scope_device);
    atomic_store_explicit((volatile global atomic_int*)&o[6], 3, memory_order_release,
                          memory_scope_device);
    int v = atomic_load_explicit((volatile global atomic_int*)&o[6], memory_order_acquire,
                                 memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_seq_cst, memory_scope_device);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0)
        o[7 + get_group_id(0)] = lowest + v;
}
