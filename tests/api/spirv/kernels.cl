// Kernels built both from source (by usmcl) and from SPIR-V (kernels.spvasm,
// made from this file: see meson.build); the tests compare both with host
// references. Valid OpenCL C 1.2 and 2.0.

kernel void arith(global const float* a, global const float* b, global float* out, float scale,
                  int bias) {
    size_t i = get_global_id(0);
    out[i] = a[i] * scale + b[i] - (float)bias + (float)(i % 7);
}

kernel void int_ops(global const int* a, global int* out, uint shift) {
    size_t i = get_global_id(0);
    int x = a[i];
    out[i] = ((x << shift) ^ (x >> 1)) + x / 3 - x % 5 + abs(x) + min(x, 17) + max(x, -4) +
             clamp(x, -10, 10) + popcount(x);
}

// One sum per work-group through local memory and barriers.
kernel void group_sum(global const int* in, global int* sums, local int* scratch) {
    size_t l = get_local_id(0);
    size_t n = get_local_size(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t step = n / 2; step > 0; step /= 2) {
        if (l < step)
            scratch[l] += scratch[l + step];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        sums[get_group_id(0)] = scratch[0];
}

// A __local array declared in the kernel, reversed within the group.
kernel void reverse_in_group(global const int* in, global int* out) {
    local int tile[64];
    size_t l = get_local_id(0);
    size_t n = get_local_size(0);
    tile[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[n - 1 - l];
}

// counters[0]: work-items; counters[1]: sum of ids; counters[2]: max id;
// counters[3]: work-groups (one atomic per group from a local counter).
kernel void atomics(volatile global int* counters) {
    local int group_count;
    size_t l = get_local_id(0);
    if (l == 0)
        group_count = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&counters[0]);
    atomic_add(&counters[1], (int)get_global_id(0));
    atomic_max(&counters[2], (int)get_global_id(0));
    atomic_add(&group_count, 1);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l == 0 && group_count == (int)get_local_size(0))
        atomic_inc(&counters[3]);
}

kernel void math(global const float* x, global float* out) {
    size_t i = get_global_id(0);
    float v = x[i];
    out[4 * i + 0] = sqrt(v) + sin(v) * cos(v);
    out[4 * i + 1] = exp(-v) + log(v + 1.0f);
    out[4 * i + 2] = pow(v, 1.5f) + fma(v, 2.0f, 1.0f);
    out[4 * i + 3] = floor(v * 3.3f) + fabs(-v) + atan2(v, 2.0f);
}

kernel void vectors(global const float4* a, global float4* out, float4 k) {
    size_t i = get_global_id(0);
    float4 v = a[i];
    float d = dot(v, k);
    float4 r = v * k + (float4)(d);
    r.xy = r.yx;
    out[i] = r + vload4(0, (global const float*)&a[i]) * 0.5f;
}
