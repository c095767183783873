// Four kernels like those of kernel_bench's throughput measurement
// (child_compute.cpp; n-body with float4 differences) in one program: loops, __local tiles with
// barriers, a divergent loop, vectors and rsqrt. Built from this source and from compute.spvasm
// (made from it: meson.build).
__kernel void matmul_naive(__global const float* a, __global const float* b, __global float* c,
                           int n) {
    int col = get_global_id(0);
    int row = get_global_id(1);
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
}

#define TILE 16
__kernel void matmul_tiled(__global const float* a, __global const float* b, __global float* c,
                           int n) {
    __local float a_tile[TILE][TILE];
    __local float b_tile[TILE][TILE];
    int lx = get_local_id(0);
    int ly = get_local_id(1);
    int col = get_global_id(0);
    int row = get_global_id(1);
    float sum = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        a_tile[ly][lx] = a[row * n + t + lx];
        b_tile[ly][lx] = b[(t + ly) * n + col];
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int k = 0; k < TILE; ++k)
            sum += a_tile[ly][k] * b_tile[k][lx];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    c[row * n + col] = sum;
}

__kernel void mandelbrot(__global int* out, float x0, float y0, float step, int max_iter) {
    int px = get_global_id(0);
    int py = get_global_id(1);
    float cr = x0 + px * step;
    float ci = y0 + py * step;
    float zr = 0.0f, zi = 0.0f;
    int i = 0;
    while (i < max_iter && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++i;
    }
    out[py * get_global_size(0) + px] = i;
}

__kernel void nbody(__global const float4* pos, __global float4* acc, int n, float softening) {
    int i = get_global_id(0);
    float4 p = pos[i];
    float4 a = (float4)(0.0f);
    for (int j = 0; j < n; ++j) {
        float4 q = pos[j];
        float4 d = (float4)(q.xyz - p.xyz, 0.0f);
        float inv = rsqrt(dot(d, d) + softening);
        a += (q.w * inv * inv * inv) * d;
    }
    acc[i] = a;
}
