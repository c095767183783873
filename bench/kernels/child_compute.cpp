// kernel_bench part 2b: compute-bound kernels. Matrix multiply of 1024 x 1024
// floats (naive, naive with a bounds guard in work-groups that overrun the
// matrix, and tiled in __local memory), Mandelbrot (divergent work:
// per-pixel iteration counts from 1 to 256) and one n-body step (every body
// against every other, rsqrt per pair).
#include "kernel_bench.hpp"

#include <cmath>
#include <utility>

namespace kernel_bench {

namespace {

constexpr const char* source = R"CLC(
__kernel void matmul_naive(__global const float* a, __global const float* b, __global float* c,
                           int n) {
    int col = get_global_id(0);
    int row = get_global_id(1);
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
}

// The naive form with the usual guard for work-groups that overrun the
// matrix (launched with a global size rounded up to 24 x 8 groups).
__kernel void matmul_guarded(__global const float* a, __global const float* b,
                             __global float* c, int n) {
    int col = get_global_id(0);
    int row = get_global_id(1);
    if (row >= n || col >= n)
        return;
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
    float3 a = (float3)(0.0f);
    for (int j = 0; j < n; ++j) {
        float4 q = pos[j];
        float3 d = q.xyz - p.xyz;
        float inv = rsqrt(dot(d, d) + softening);
        a += (q.w * inv * inv * inv) * d;
    }
    acc[i] = (float4)(a, 0.0f);
}
)CLC";

constexpr int matrix_n = 1024;
constexpr int mandel_size = 1024;
constexpr int mandel_iterations = 256;
constexpr int bodies = 8192;
constexpr float softening = 0.01f;

void matmul(const Device& device, cl_program program, const Sizes& sizes) {
    const size_t n = matrix_n;
    std::vector<float> a(n * n), b(n * n), expected(n * n, 0.0f), got(n * n);
    for (size_t row = 0; row < n; ++row) {
        for (size_t col = 0; col < n; ++col) {
            a[row * n + col] = static_cast<float>(static_cast<int>((row * 3 + col) % 7) - 3);
            b[row * n + col] = static_cast<float>(static_cast<int>((row * 5 + col) % 5) - 2);
        }
    }
    // Host reference, i-k-j order; all partial sums are small integers: exact.
    for (size_t row = 0; row < n; ++row)
        for (size_t k = 0; k < n; ++k) {
            const float scale = a[row * n + k];
            const float* b_row = &b[k * n];
            float* c_row = &expected[row * n];
            for (size_t col = 0; col < n; ++col)
                c_row[col] += scale * b_row[col];
        }
    cl_mem buffers[3] = {device.buffer(n * n * sizeof(float), a.data()),
                         device.buffer(n * n * sizeof(float), b.data()),
                         device.buffer(n * n * sizeof(float))};
    const double flops = 2.0 * n * n * n;
    struct Variant {
        const char* name;
        const char* key;
        size_t local[2]; // {0, 0}: the driver's choice
    };
    const Variant variants[] = {{"matmul_naive", "mm_naive_gflops", {0, 0}},
                                {"matmul_guarded", "mm_guarded_gflops", {24, 8}},
                                {"matmul_tiled", "mm_tiled_gflops", {16, 16}}};
    for (const Variant& variant : variants) {
        const char* name = variant.name;
        cl_kernel kernel = kernel_of(program, name);
        set_args(kernel, buffers[0], buffers[1], buffers[2], static_cast<cl_int>(n));
        const bool with_local = variant.local[0] != 0;
        const auto rounded = [&](size_t local) {
            return with_local ? (n + local - 1) / local * local : n;
        };
        const Launch launch{device.queue,
                            kernel,
                            2,
                            {rounded(variant.local[0]), rounded(variant.local[1])},
                            {variant.local[0], variant.local[1]},
                            with_local};
        const cl_float poison = -12345.0f; // the other variant's result must not count
        CL_CHECK(clEnqueueFillBuffer(device.queue, buffers[2], &poison, sizeof poison, 0,
                                     n * n * sizeof(float), 0, nullptr, nullptr));
        launch.run_once();
        device.read(buffers[2], n * n * sizeof(float), got.data());
        expect_equal(name, got, expected);
        report(variant.key, flops / seconds_per_launch(launch, sizes) / 1e9);
        clReleaseKernel(kernel);
    }
    for (cl_mem mem : buffers)
        clReleaseMemObject(mem);
}

// Mandelbrot over [-2, 1] x [-1.5, 1.5]. The device may contract a * b + c
// into fused multiply-adds (OpenCL C's default FP_CONTRACT), which changes the
// iteration count of a few pixels near the set's boundary: up to 1% of the
// pixels may differ from the host's count.
void mandelbrot(const Device& device, cl_program program, const Sizes& sizes) {
    cl_kernel kernel = kernel_of(program, "mandelbrot");
    const size_t side = mandel_size;
    const cl_float x0 = -2.0f, y0 = -1.5f, step = 3.0f / static_cast<float>(side);
    cl_mem out = device.buffer(side * side * sizeof(cl_int));
    set_args(kernel, out, x0, y0, step, static_cast<cl_int>(mandel_iterations));
    const Launch launch{device.queue, kernel, 2, {side, side}, {}, false};
    launch.run_once();
    std::vector<cl_int> got(side * side);
    device.read(out, got.size() * sizeof(cl_int), got.data());
    size_t differing = 0;
    for (size_t py = 0; py < side; ++py)
        for (size_t px = 0; px < side; ++px) {
            const float cr = x0 + static_cast<float>(px) * step;
            const float ci = y0 + static_cast<float>(py) * step;
            float zr = 0.0f, zi = 0.0f;
            int i = 0;
            while (i < mandel_iterations && zr * zr + zi * zi <= 4.0f) {
                const float t = zr * zr - zi * zi + cr;
                zi = 2.0f * zr * zi + ci;
                zr = t;
                ++i;
            }
            differing += got[py * side + px] != i;
        }
    if (differing * 100 > side * side) {
        std::fprintf(stderr, "kernel_bench: Mandelbrot: %zu of %zu pixels differ\n", differing,
                     side * side);
        report_wrong("Mandelbrot");
    }
    report("mandel_mpixels",
           static_cast<double>(side * side) / seconds_per_launch(launch, sizes) / 1e6);
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
}

// One n-body step: the accelerations of 8192 bodies. A sample of 256 bodies is
// checked against a double-precision host sum (relative 1e-3 of the largest
// component: rsqrt may be 2 ulp off and the sums run in float).
void nbody(const Device& device, cl_program program, const Sizes& sizes) {
    cl_kernel kernel = kernel_of(program, "nbody");
    const size_t n = bodies;
    std::vector<cl_float4> positions(n);
    for (size_t i = 0; i < n; ++i) {
        const double angle = static_cast<double>(i) * 2.399963;
        const double radius = 1.0 + static_cast<double>(i % 97) * 0.05;
        positions[i] = {{static_cast<float>(radius * std::cos(angle)),
                         static_cast<float>(radius * std::sin(angle)),
                         static_cast<float>(static_cast<double>(i % 13) * 0.01 - 0.06),
                         static_cast<float>(1.0 + static_cast<double>(i % 7) * 0.25)}};
    }
    cl_mem pos = device.buffer(n * sizeof(cl_float4), positions.data());
    cl_mem acc = device.buffer(n * sizeof(cl_float4));
    set_args(kernel, pos, acc, static_cast<cl_int>(n), softening);
    const Launch launch{device.queue, kernel, 1, {n, 1}, {}, false};
    launch.run_once();
    std::vector<cl_float4> got(n);
    device.read(acc, n * sizeof(cl_float4), got.data());
    // The host's acceleration of body i, in double precision.
    auto host_acceleration = [&](size_t i, double(&a)[3]) {
        a[0] = a[1] = a[2] = 0;
        for (size_t j = 0; j < n; ++j) {
            double d[3];
            for (int c = 0; c < 3; ++c)
                d[c] = static_cast<double>(positions[j].s[c]) - positions[i].s[c];
            const double inv = 1.0 / std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + softening);
            for (int c = 0; c < 3; ++c)
                a[c] += positions[j].s[3] * inv * inv * inv * d[c];
        }
    };
    bool wrong = false;
    for (size_t i = 0; i < n && !wrong; i += n / 256) {
        double a[3];
        host_acceleration(i, a);
        const double scale = std::max({std::fabs(a[0]), std::fabs(a[1]), std::fabs(a[2]), 1.0});
        for (int c = 0; c < 3 && !wrong; ++c)
            if (std::fabs(got[i].s[c] - a[c]) > 1e-3 * scale) {
                std::fprintf(stderr,
                             "kernel_bench: n-body body %zu component %d: %g, expected %g\n", i, c,
                             static_cast<double>(got[i].s[c]), a[c]);
                wrong = true;
            }
    }
    if (wrong)
        report_wrong("n-body");
    const double pairs = static_cast<double>(n) * static_cast<double>(n);
    report("nbody_gpairs", pairs / seconds_per_launch(launch, sizes) / 1e9);
    clReleaseMemObject(pos);
    clReleaseMemObject(acc);
    clReleaseKernel(kernel);
}

} // namespace

void measure_compute(const Device& device, const Sizes& sizes) {
    cl_program program = device.build(source);
    matmul(device, program, sizes);
    mandelbrot(device, program, sizes);
    nbody(device, program, sizes);
    clReleaseProgram(program);
}

} // namespace kernel_bench
