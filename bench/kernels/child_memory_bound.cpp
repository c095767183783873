// kernel_bench part 2a: memory-bound kernels. Vector add and SAXPY of 16M
// floats, and the STREAM triad of 32M floats (128 MiB per array, well above
// the last-level cache) next to the same triad run natively by host threads
// in the same process.
#include "kernel_bench.hpp"

#include <thread>

namespace kernel_bench {

namespace {

constexpr const char* source = R"CLC(
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

__kernel void saxpy(float alpha, __global const float* x, __global float* y) {
    size_t i = get_global_id(0);
    y[i] = alpha * x[i] + y[i];
}

__kernel void triad(__global float* a, __global const float* b, __global const float* c,
                    float scalar) {
    size_t i = get_global_id(0);
    a[i] = b[i] + scalar * c[i];
}
)CLC";

constexpr size_t vector_elements = size_t{16} << 20;
constexpr size_t triad_elements = size_t{32} << 20;

void vector_add(const Device& device, cl_program program, const Sizes& sizes) {
    cl_kernel kernel = kernel_of(program, "vector_add");
    const size_t n = vector_elements;
    std::vector<float> a(n), b(n), expected(n), got(n);
    for (size_t i = 0; i < n; ++i) {
        a[i] = static_cast<float>(i % 1000);
        b[i] = static_cast<float>(i % 777) * 0.5f;
        expected[i] = a[i] + b[i];
    }
    cl_mem buffers[3] = {device.buffer(n * sizeof(float), a.data()),
                         device.buffer(n * sizeof(float), b.data()),
                         device.buffer(n * sizeof(float))};
    set_args(kernel, buffers[0], buffers[1], buffers[2]);
    const Launch launch{device.queue, kernel, 1, {n, 1}, {}, false};
    launch.run_once();
    device.read(buffers[2], n * sizeof(float), got.data());
    expect_equal("vector add", got, expected);
    report("vadd_gbs", 12.0 * n / seconds_per_launch(launch, sizes) / 1e9);
    for (cl_mem mem : buffers)
        clReleaseMemObject(mem);
    clReleaseKernel(kernel);
}

void saxpy(const Device& device, cl_program program, const Sizes& sizes) {
    cl_kernel kernel = kernel_of(program, "saxpy");
    const size_t n = vector_elements;
    const cl_float alpha = 2.0f;
    std::vector<float> x(n), y(n), got(n);
    for (size_t i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i % 1000);
        y[i] = static_cast<float>(i % 333) - 100.0f;
    }
    cl_mem buffers[2] = {device.buffer(n * sizeof(float), x.data()),
                         device.buffer(n * sizeof(float), y.data())};
    set_args(kernel, alpha, buffers[0], buffers[1]);
    const Launch launch{device.queue, kernel, 1, {n, 1}, {}, false};
    launch.run_once(); // y changes with every launch: checked after the first only
    device.read(buffers[1], n * sizeof(float), got.data());
    for (size_t i = 0; i < n; ++i)
        y[i] = alpha * x[i] + y[i];
    expect_equal("SAXPY", got, y);
    report("saxpy_gbs", 12.0 * n / seconds_per_launch(launch, sizes) / 1e9);
    for (cl_mem mem : buffers)
        clReleaseMemObject(mem);
    clReleaseKernel(kernel);
}

// The triad a = b + s * c on every hardware thread, each on its own slice.
double native_triad_seconds(std::vector<float>& a, const std::vector<float>& b,
                            const std::vector<float>& c, float scalar, int repeats) {
    const unsigned count = std::max(1u, std::thread::hardware_concurrency());
    const size_t n = a.size();
    return best_seconds(repeats, [&] {
        std::vector<std::thread> threads;
        for (unsigned t = 0; t < count; ++t)
            threads.emplace_back([&, t] {
                const size_t begin = n * t / count;
                const size_t end = n * (t + 1) / count;
                float* __restrict out = a.data();
                const float* __restrict left = b.data();
                const float* __restrict right = c.data();
                for (size_t i = begin; i < end; ++i)
                    out[i] = left[i] + scalar * right[i];
            });
        for (std::thread& thread : threads)
            thread.join();
    });
}

void triad(const Device& device, cl_program program, const Sizes& sizes) {
    cl_kernel kernel = kernel_of(program, "triad");
    const size_t n = triad_elements;
    const cl_float scalar = 3.0f;
    std::vector<float> a(n, 0.0f), b(n), c(n), got(n);
    for (size_t i = 0; i < n; ++i) {
        b[i] = static_cast<float>(i % 1000);
        c[i] = static_cast<float>(i % 97);
    }
    cl_mem buffers[3] = {device.buffer(n * sizeof(float)),
                         device.buffer(n * sizeof(float), b.data()),
                         device.buffer(n * sizeof(float), c.data())};
    set_args(kernel, buffers[0], buffers[1], buffers[2], scalar);
    const Launch launch{device.queue, kernel, 1, {n, 1}, {}, false};
    launch.run_once();
    device.read(buffers[0], n * sizeof(float), got.data());
    const double native = native_triad_seconds(a, b, c, scalar, 10);
    expect_equal("triad", got, a);
    const double bytes = 12.0 * static_cast<double>(n);
    const double ours = bytes / seconds_per_launch(launch, sizes) / 1e9;
    const double host = bytes / native / 1e9;
    report("triad_gbs", ours);
    report("triad_native_gbs", host);
    report("triad_pct_native", 100.0 * ours / host);
    for (cl_mem mem : buffers)
        clReleaseMemObject(mem);
    clReleaseKernel(kernel);
}

} // namespace

void measure_memory_bound(const Device& device, const Sizes& sizes) {
    cl_program program = device.build(source);
    vector_add(device, program, sizes);
    saxpy(device, program, sizes);
    triad(device, program, sizes);
    clReleaseProgram(program);
}

} // namespace kernel_bench
