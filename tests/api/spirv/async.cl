// async_work_group_copy & co. (OpGroupAsyncCopy, OpGroupWaitEvents) and
// get_fence (OpGenericPtrMemSemantics): each group copies its slice of in
// to tmp, writes it back reversed with a stride of 2, and records the
// fence of a generic pointer to local memory.
kernel void async_copy(global const int* in, global int* out, local int* tmp, global int* fences) {
    size_t group = get_group_id(0), n = get_local_size(0);
    event_t e = async_work_group_copy(tmp, in + group * n, n, 0);
    wait_group_events(1, &e);
    size_t l = get_local_id(0);
    int v = tmp[n - 1 - l];
    barrier(CLK_LOCAL_MEM_FENCE);
    tmp[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    event_t f = async_work_group_strided_copy(out + group * 2 * n, tmp, n, 2, 0);
    wait_group_events(1, &f);
    generic int* p = tmp;
    fences[get_global_id(0)] = get_fence(p);
}
