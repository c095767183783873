// kernel_bench: program build time and kernel throughput, usmcl side by side
// with PoCL in one run.
//
// Usage
//   ninja -C build-bench bench-kernels            (configured with -Dbenchmarks=true)
// or directly
//   build-bench/bench/kernels/kernel_bench --usmcl build-bench/driver/icd
//       [--pocl /etc/OpenCL/vendors/pocl.icd | --pocl none]
//       [--rounds 2] [--build-rounds 3] [--batches 10] [--budget 1.5]
// --usmcl and --pocl take an ICD vendors folder or a single .icd file (copied
// into a private temporary folder, so the loader sees that ICD and nothing else).
//
// Every measurement runs in a child process (this program, started again with
// --child and OCL_ICD_VENDORS naming one ICD), so the drivers never share a
// process and their worker threads never compete. Every child gets its own
// compiled-code cache folder: USMCL_CACHE_DIR for usmcl, POCL_CACHE_DIR for
// PoCL (each driver ignores the other's variable); the user's caches are not
// touched. All on an in-order queue without profiling of the first device.
//
// Part 1, program build of a small kernel (vector add), timed from
//   clCreateProgramWithSource to the return of clBuildProgram ("build"), and
//   on to the completion of a first launch of 4096 work-items ("build + first
//   launch": PoCL compiles the work-group function at the first enqueue, so
//   only this column compares like with like). Per round and ICD, a child
//   with a fresh, empty cache folder ("cold": nothing compiled on disk; the
//   compiler's own start-up in the process counts too), then a second child
//   with the same, now filled, folder ("cached": a new process reading the
//   disk cache). The cold child also builds the same source a second time
//   ("same process"). --build-rounds rounds, ABBA order; the best time counts.
// Part 2, throughput (one child per ICD and round, --rounds rounds, ABBA
//   order; the better child counts). Each kernel is built (not timed), run
//   once as a warm-up whose result is checked against a host reference, then
//   timed in up to --batches batches: a first of one launch, which sets k,
//   then batches of k launches followed by clFinish, k chosen so that a batch
//   takes about 50 ms; once --budget seconds have passed, 2 batches suffice.
//   The best batch gives the time per launch (other load on the machine only
//   adds time).
//   - vector add c = a + b, 16M floats: GB/s counting 12 bytes per element;
//   - SAXPY y = alpha * x + y in place, 16M floats: GB/s, 12 bytes per element;
//   - matrix multiply, 1024 x 1024 floats: naive (one dot product per
//     work-item, local size chosen by the driver) and tiled (16 x 16 tiles of
//     both matrices in __local memory, two barriers per tile): GFLOP/s
//     counting 2 * 1024^3 operations;
//   - reduction, sum of 64M ints: work-groups of 256 work-items, each adding
//     two elements, then a tree in __local memory with a barrier per level,
//     one partial sum per group (summed on the host for the check, not timed):
//     GB/s counting 4 bytes per element;
//   - 1M tiny work-items (each writes one int), local size chosen by the
//     driver: launch plus per-work-item overhead, ns per work-item.
// Part 3, round trip of an empty kernel (1 work-item): clEnqueueNDRangeKernel
//   then clFinish, timed one by one after a warm-up; median and 90th
//   percentile (nearest rank) of each child, the best child counts.
//
// Data are small integers (also as floats), so every result is exact in any
// order of summation and is compared for equality. A wrong result makes the
// child, and so the program, exit non-zero; speed never does. Ratios are
// usmcl/PoCL; the summary says per row which driver is faster and by how much.

#include <CL/cl.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

[[noreturn]] void die(const char* what, cl_int status) {
    std::fprintf(stderr, "kernel_bench: %s failed: %d\n", what, status);
    std::exit(3);
}

#define CL_CHECK(call)                                                                             \
    do {                                                                                           \
        const cl_int status_ = (call);                                                             \
        if (status_ != CL_SUCCESS)                                                                 \
            die(#call, status_);                                                                   \
    } while (0)

// ---- the kernels -------------------------------------------------------------

constexpr const char* vector_add_source = R"CLC(
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
)CLC";

constexpr const char* throughput_source = R"CLC(
__kernel void saxpy(float alpha, __global const float* x, __global float* y) {
    size_t i = get_global_id(0);
    y[i] = alpha * x[i] + y[i];
}

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

#define GROUP 256
__kernel void reduce_sum(__global const int* in, __global int* partial) {
    __local int scratch[GROUP];
    size_t lid = get_local_id(0);
    size_t base = get_group_id(0) * (2 * GROUP);
    scratch[lid] = in[base + lid] + in[base + lid + GROUP];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = GROUP / 2; s > 0; s >>= 1) {
        if (lid < s)
            scratch[lid] += scratch[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0)
        partial[get_group_id(0)] = scratch[0];
}

__kernel void tiny(__global int* out) {
    size_t i = get_global_id(0);
    out[i] = (int)i * 3 + 1;
}

__kernel void empty(void) {}
)CLC";

constexpr size_t vector_elements = size_t{16} << 20;
constexpr int matrix_n = 1024;
constexpr size_t reduce_elements = size_t{64} << 20;
constexpr size_t reduce_group = 256;
constexpr size_t tiny_items = size_t{1} << 20;

// ---- the child: OpenCL set-up --------------------------------------------------

struct Sizes {
    int batches = 10;
    double budget = 1.5; // seconds per kernel after which 2 batches suffice
    int round_trips = 2000;
};

struct Device {
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;

    Device() {
        cl_uint count = 0;
        CL_CHECK(clGetPlatformIDs(1, &platform, &count));
        if (count == 0)
            die("finding a platform", CL_INVALID_PLATFORM);
        CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
        cl_int status = CL_SUCCESS;
        context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
        CL_CHECK(status);
        queue = clCreateCommandQueue(context, device, 0, &status);
        CL_CHECK(status);
    }
    ~Device() {
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    std::string platform_name() const {
        char name[256] = {};
        clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
        return name;
    }

    cl_program build(const char* source) const {
        cl_int status = CL_SUCCESS;
        cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
        CL_CHECK(status);
        status = clBuildProgram(program, 1, &device, "", nullptr, nullptr);
        if (status != CL_SUCCESS) {
            size_t size = 0;
            clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
            std::string log(size, '\0');
            clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
            std::fprintf(stderr, "kernel_bench: build log:\n%s\n", log.c_str());
            die("clBuildProgram", status);
        }
        return program;
    }

    cl_mem buffer(size_t bytes, const void* data = nullptr) const {
        cl_int status = CL_SUCCESS;
        cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
        CL_CHECK(status);
        if (data)
            CL_CHECK(
                clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, bytes, data, 0, nullptr, nullptr));
        return mem;
    }

    void read(cl_mem mem, size_t bytes, void* data) const {
        CL_CHECK(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, bytes, data, 0, nullptr, nullptr));
    }
};

cl_kernel kernel_of(cl_program program, const char* name) {
    cl_int status = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, name, &status);
    CL_CHECK(status);
    return kernel;
}

template <typename T>
void set_arg(cl_kernel kernel, cl_uint index, const T& value) {
    CL_CHECK(clSetKernelArg(kernel, index, sizeof value, &value));
}

// Sets every argument in order.
template <typename... Args>
void set_args(cl_kernel kernel, const Args&... args) {
    cl_uint index = 0;
    (set_arg(kernel, index++, args), ...);
}

// One NDRange launch (not waited for); local may be null.
struct Launch {
    cl_command_queue queue;
    cl_kernel kernel;
    cl_uint dimensions;
    size_t global[2];
    size_t local[2];
    bool with_local;

    void enqueue() const {
        CL_CHECK(clEnqueueNDRangeKernel(queue, kernel, dimensions, nullptr, global,
                                        with_local ? local : nullptr, 0, nullptr, nullptr));
    }
    void run_once() const {
        enqueue();
        CL_CHECK(clFinish(queue));
    }
};

// Seconds per launch, after the caller's warm-up: the best of up to
// sizes.batches batches, a first one of a single launch that sets k, then
// batches of k launches and one clFinish (about 50 ms each); once
// sizes.budget seconds have passed, two batches suffice.
double seconds_per_launch(const Launch& launch, const Sizes& sizes) {
    const auto start = Clock::now();
    launch.run_once();
    const double once = std::max(seconds_since(start), 1e-7);
    const int k = std::clamp(static_cast<int>(0.05 / once), 1, 10000);
    double best = once; // the probe is the first batch (of one launch)
    for (int batch = 1; batch < sizes.batches; ++batch) {
        if (batch >= 2 && seconds_since(start) > sizes.budget)
            break;
        const auto begin = Clock::now();
        for (int i = 0; i < k; ++i)
            launch.enqueue();
        CL_CHECK(clFinish(launch.queue));
        best = std::min(best, seconds_since(begin) / k);
    }
    return best;
}

bool wrong_result = false;

// Reports a mismatch (first index) and remembers that the run failed.
template <typename T>
void expect_equal(const char* what, const std::vector<T>& got, const std::vector<T>& expected) {
    for (size_t i = 0; i < expected.size(); ++i) {
        if (got[i] != expected[i]) {
            std::fprintf(stderr, "kernel_bench: wrong result of %s at %zu: %g, expected %g\n", what,
                         i, static_cast<double>(got[i]), static_cast<double>(expected[i]));
            std::printf("wrong %s\n", what);
            wrong_result = true;
            return;
        }
    }
}

void report(const char* key, double value) {
    std::printf("%s %.9g\n", key, value);
    std::fflush(stdout);
}

// ---- the child: part 1, build --------------------------------------------------

int child_build() {
    Device device;
    std::printf("platform %s\n", device.platform_name().c_str());
    constexpr size_t n = 4096;
    std::vector<float> a(n), b(n), expected(n), got(n);
    for (size_t i = 0; i < n; ++i) {
        a[i] = static_cast<float>(i % 1000);
        b[i] = static_cast<float>(i % 77) * 0.5f;
        expected[i] = a[i] + b[i];
    }
    cl_mem buffers[3] = {device.buffer(n * sizeof(float), a.data()),
                         device.buffer(n * sizeof(float), b.data()),
                         device.buffer(n * sizeof(float))};
    CL_CHECK(clFinish(device.queue));
    for (const char* prefix : {"", "again_"}) {
        const auto start = Clock::now();
        cl_program program = device.build(vector_add_source);
        const double build = seconds_since(start);
        cl_kernel kernel = kernel_of(program, "vector_add");
        set_args(kernel, buffers[0], buffers[1], buffers[2]);
        const Launch launch{device.queue, kernel, 1, {n, 1}, {}, false};
        launch.run_once();
        const double first = seconds_since(start);
        device.read(buffers[2], n * sizeof(float), got.data());
        expect_equal("vector add (build)", got, expected);
        report((std::string(prefix) + "build_ms").c_str(), build * 1e3);
        report((std::string(prefix) + "first_ms").c_str(), first * 1e3);
        clReleaseKernel(kernel);
        clReleaseProgram(program);
    }
    for (cl_mem mem : buffers)
        clReleaseMemObject(mem);
    return wrong_result ? 1 : 0;
}

// ---- the child: parts 2 and 3, throughput and round trip ---------------------

void vector_add(const Device& device, const Sizes& sizes) {
    cl_program program = device.build(vector_add_source);
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
    clReleaseProgram(program);
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
    const std::pair<const char*, bool> variants[] = {{"matmul_naive", false},
                                                     {"matmul_tiled", true}};
    for (const auto& [name, tiled] : variants) {
        cl_kernel kernel = kernel_of(program, name);
        set_args(kernel, buffers[0], buffers[1], buffers[2], static_cast<cl_int>(n));
        const Launch launch{device.queue, kernel, 2, {n, n}, {16, 16}, tiled};
        const cl_float poison = -12345.0f; // the other variant's result must not count
        CL_CHECK(clEnqueueFillBuffer(device.queue, buffers[2], &poison, sizeof poison, 0,
                                     n * n * sizeof(float), 0, nullptr, nullptr));
        launch.run_once();
        device.read(buffers[2], n * n * sizeof(float), got.data());
        expect_equal(name, got, expected);
        report(tiled ? "mm_tiled_gflops" : "mm_naive_gflops",
               flops / seconds_per_launch(launch, sizes) / 1e9);
        clReleaseKernel(kernel);
    }
    for (cl_mem mem : buffers)
        clReleaseMemObject(mem);
}

void reduction(const Device& device, cl_program program, const Sizes& sizes) {
    cl_kernel kernel = kernel_of(program, "reduce_sum");
    const size_t n = reduce_elements;
    const size_t groups = n / (2 * reduce_group);
    std::vector<cl_int> in(n);
    std::int64_t expected = 0;
    for (size_t i = 0; i < n; ++i) {
        in[i] = static_cast<cl_int>(i * 7 % 13);
        expected += in[i];
    }
    cl_mem input = device.buffer(n * sizeof(cl_int), in.data());
    cl_mem partial = device.buffer(groups * sizeof(cl_int));
    set_args(kernel, input, partial);
    const Launch launch{device.queue,      kernel, 1, {groups * reduce_group, 1},
                        {reduce_group, 1}, true};
    launch.run_once();
    std::vector<cl_int> partials(groups);
    device.read(partial, groups * sizeof(cl_int), partials.data());
    std::int64_t sum = 0;
    for (cl_int value : partials)
        sum += value;
    expect_equal("reduction", std::vector<std::int64_t>{sum}, std::vector<std::int64_t>{expected});
    report("reduce_gbs", 4.0 * n / seconds_per_launch(launch, sizes) / 1e9);
    clReleaseMemObject(input);
    clReleaseMemObject(partial);
    clReleaseKernel(kernel);
}

void tiny(const Device& device, cl_program program, const Sizes& sizes) {
    cl_kernel kernel = kernel_of(program, "tiny");
    const size_t n = tiny_items;
    std::vector<cl_int> expected(n), got(n);
    for (size_t i = 0; i < n; ++i)
        expected[i] = static_cast<cl_int>(i) * 3 + 1;
    cl_mem out = device.buffer(n * sizeof(cl_int));
    set_args(kernel, out);
    const Launch launch{device.queue, kernel, 1, {n, 1}, {}, false};
    launch.run_once();
    device.read(out, n * sizeof(cl_int), got.data());
    expect_equal("tiny work-items", got, expected);
    report("tiny_ns", seconds_per_launch(launch, sizes) / static_cast<double>(n) * 1e9);
    clReleaseMemObject(out);
    clReleaseKernel(kernel);
}

// Nearest-rank percentile.
double percentile(std::vector<double> values, double p) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * values.size()));
    return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

void round_trip(const Device& device, cl_program program, const Sizes& sizes) {
    cl_kernel kernel = kernel_of(program, "empty");
    const Launch launch{device.queue, kernel, 1, {1, 1}, {1, 1}, true};
    for (int i = 0; i < std::min(200, sizes.round_trips); ++i)
        launch.run_once();
    std::vector<double> samples;
    samples.reserve(static_cast<size_t>(sizes.round_trips));
    for (int i = 0; i < sizes.round_trips; ++i) {
        const auto start = Clock::now();
        launch.run_once();
        samples.push_back(seconds_since(start));
    }
    report("empty_median_us", percentile(samples, 50) * 1e6);
    report("empty_p90_us", percentile(samples, 90) * 1e6);
    clReleaseKernel(kernel);
}

int child_kernels(const Sizes& sizes) {
    Device device;
    std::printf("platform %s\n", device.platform_name().c_str());
    vector_add(device, sizes);
    cl_program program = device.build(throughput_source);
    saxpy(device, program, sizes);
    matmul(device, program, sizes);
    reduction(device, program, sizes);
    tiny(device, program, sizes);
    round_trip(device, program, sizes);
    clReleaseProgram(program);
    return wrong_result ? 1 : 0;
}

// ---- the parent --------------------------------------------------------------

struct Options {
    std::string usmcl;
    std::string pocl = "/etc/OpenCL/vendors/pocl.icd";
    int rounds = 2;
    int build_rounds = 3;
    Sizes sizes;
};

[[noreturn]] void usage(const char* problem) {
    if (problem)
        std::fprintf(stderr, "kernel_bench: %s\n", problem);
    std::fprintf(stderr,
                 "usage: kernel_bench --usmcl <icd dir or .icd> [--pocl <icd dir or .icd> | none]\n"
                 "         [--rounds N] [--build-rounds N] [--batches N] [--budget seconds]\n");
    std::exit(2);
}

int count_of(const char* text) {
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || value < 1 || value > 1000000)
        usage("counts are positive numbers");
    return static_cast<int>(value);
}

fs::path temporary_folder(const char* name) {
    std::string pattern = (fs::temp_directory_path() / name).string() + ".XXXXXX";
    if (mkdtemp(pattern.data()) == nullptr) {
        std::fprintf(stderr, "kernel_bench: mkdtemp: %s\n", std::strerror(errno));
        std::exit(2);
    }
    return pattern;
}

// A folder for OCL_ICD_VENDORS that holds the given ICD only.
std::string vendors_dir_for(const std::string& path, std::vector<fs::path>& temporary) {
    if (fs::is_directory(path))
        return path;
    if (!fs::is_regular_file(path)) {
        std::fprintf(stderr, "kernel_bench: no ICD at %s\n", path.c_str());
        std::exit(2);
    }
    const fs::path folder = temporary_folder("kernel_bench_icd");
    fs::copy_file(path, folder / fs::path(path).filename());
    temporary.push_back(folder);
    return folder.string();
}

// What the children of one ICD reported: every value of every key.
struct Results {
    std::string platform;
    std::map<std::string, std::vector<double>> values;
    std::vector<std::string> wrong;
};

// Runs this program as a child (--child mode) with OCL_ICD_VENDORS=vendors and
// both cache variables set to cache_dir; adds what it reports to results, its
// keys prefixed. False if the child failed.
bool run_child(const std::string& self, const char* mode, const std::string& vendors,
               const fs::path& cache_dir, const Sizes& sizes, const std::string& prefix,
               Results& results) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0)
        return false;
    std::vector<std::string> env_strings;
    for (char** var = environ; *var; ++var) {
        const std::string_view entry(*var);
        if (!entry.starts_with("OCL_ICD_VENDORS=") && !entry.starts_with("OCL_ICD_FILENAMES=") &&
            !entry.starts_with("USMCL_CACHE_DIR=") && !entry.starts_with("POCL_CACHE_DIR="))
            env_strings.emplace_back(entry);
    }
    env_strings.push_back("OCL_ICD_VENDORS=" + vendors);
    env_strings.push_back("USMCL_CACHE_DIR=" + cache_dir.string());
    env_strings.push_back("POCL_CACHE_DIR=" + cache_dir.string());
    std::vector<char*> envp;
    for (std::string& entry : env_strings)
        envp.push_back(entry.data());
    envp.push_back(nullptr);
    std::vector<std::string> arg_strings = {self,
                                            "--child",
                                            mode,
                                            "--batches",
                                            std::to_string(sizes.batches),
                                            "--budget",
                                            std::to_string(sizes.budget)};
    std::vector<char*> argv;
    for (std::string& arg : arg_strings)
        argv.push_back(arg.data());
    argv.push_back(nullptr);

    std::fflush(stdout);
    const pid_t pid = fork();
    if (pid < 0)
        return false;
    if (pid == 0) {
        dup2(pipe_fds[1], STDOUT_FILENO);
        close(pipe_fds[0]);
        close(pipe_fds[1]);
        execve(self.c_str(), argv.data(), envp.data());
        _exit(127);
    }
    close(pipe_fds[1]);
    FILE* input = fdopen(pipe_fds[0], "r");
    char line[512];
    while (input && std::fgets(line, sizeof line, input)) {
        std::string_view text(line);
        if (!text.empty() && text.back() == '\n')
            text.remove_suffix(1);
        const size_t space = text.find(' ');
        if (space == std::string_view::npos)
            continue;
        const std::string key(text.substr(0, space));
        const std::string value(text.substr(space + 1));
        if (key == "platform")
            results.platform = value;
        else if (key == "wrong")
            results.wrong.push_back(value);
        else
            results.values[prefix + key].push_back(std::strtod(value.c_str(), nullptr));
    }
    if (input)
        std::fclose(input);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// The summary groups rows: program build, kernel throughput, launch round trip.
enum class Group { build, kernel, launch };

struct Row {
    const char* key;
    const char* label;
    const char* unit;
    bool higher_is_better;
    Group group;
    bool in_summary; // counted in its group's summary
};

constexpr Row rows[] = {
    {"cold_build_ms", "build vector add, cold (empty cache): clBuildProgram", "ms", false,
     Group::build, false},
    {"cold_first_ms", "build vector add, cold: build + first launch", "ms", false, Group::build,
     true},
    {"cached_build_ms", "build vector add, cached (new process): clBuildProgram", "ms", false,
     Group::build, false},
    {"cached_first_ms", "build vector add, cached: build + first launch", "ms", false, Group::build,
     true},
    {"cold_again_build_ms", "build vector add again in the same process", "ms", false, Group::build,
     false},
    {"cold_again_first_ms", "... again in the same process + first launch", "ms", false,
     Group::build, true},
    {"vadd_gbs", "vector add, 16M floats", "GB/s", true, Group::kernel, true},
    {"saxpy_gbs", "SAXPY, 16M floats", "GB/s", true, Group::kernel, true},
    {"mm_naive_gflops", "matmul 1024^2 naive (driver's local size)", "GFLOP/s", true, Group::kernel,
     true},
    {"mm_tiled_gflops", "matmul 1024^2 tiled, 16x16 __local tiles", "GFLOP/s", true, Group::kernel,
     true},
    {"reduce_gbs", "reduction, 64M ints, 256-item groups + barriers", "GB/s", true, Group::kernel,
     true},
    {"tiny_ns", "1M tiny work-items (driver's local size)", "ns/work-item", false, Group::kernel,
     true},
    {"empty_median_us", "empty kernel enqueue+clFinish, median", "us", false, Group::launch, true},
    {"empty_p90_us", "empty kernel enqueue+clFinish, p90", "us", false, Group::launch, false},
};

std::optional<double> best_of(const Results& results, const Row& row) {
    const auto it = results.values.find(row.key);
    if (it == results.values.end() || it->second.empty())
        return std::nullopt;
    return row.higher_is_better ? *std::max_element(it->second.begin(), it->second.end())
                                : *std::min_element(it->second.begin(), it->second.end());
}

std::string format(std::optional<double> value) {
    if (!value)
        return "-";
    char text[32];
    std::snprintf(text, sizeof text,
                  *value >= 100  ? "%.0f"
                  : *value >= 10 ? "%.1f"
                  : *value >= 1  ? "%.2f"
                                 : "%.3g",
                  *value);
    return text;
}

int parent(const Options& options) {
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    std::vector<fs::path> temporary;
    const std::string usmcl_dir = vendors_dir_for(options.usmcl, temporary);
    const bool with_pocl = options.pocl != "none";
    const std::string pocl_dir = with_pocl ? vendors_dir_for(options.pocl, temporary) : "";

    Results usmcl;
    Results pocl;
    bool ok = true;
    // Runs fn(is_usmcl) for both ICDs, in ABBA order over the rounds.
    auto alternate = [&](int round, auto&& fn) {
        const bool usmcl_first = round % 2 == 0;
        for (int turn = 0; turn < 2; ++turn) {
            const bool is_usmcl = (turn == 0) == usmcl_first;
            if (is_usmcl || with_pocl)
                fn(is_usmcl);
        }
    };
    auto child = [&](bool is_usmcl, const char* mode, const fs::path& cache,
                     const std::string& prefix) {
        const char* name = is_usmcl ? "usmcl" : "PoCL";
        std::fprintf(stderr, "kernel_bench: %s %s%s ...\n", name, prefix.c_str(), mode);
        if (!run_child(self, mode, is_usmcl ? usmcl_dir : pocl_dir, cache, options.sizes, prefix,
                       is_usmcl ? usmcl : pocl)) {
            std::fprintf(stderr, "kernel_bench: the %s child (%s) failed\n", name, mode);
            ok = false;
        }
    };
    const auto start = Clock::now();
    for (int round = 0; round < options.build_rounds; ++round)
        alternate(round, [&](bool is_usmcl) {
            const fs::path cache = temporary_folder("kernel_bench_cache");
            child(is_usmcl, "build", cache, "cold_");
            child(is_usmcl, "build", cache, "cached_");
            fs::remove_all(cache);
        });
    for (int round = 0; round < options.rounds; ++round)
        alternate(round, [&](bool is_usmcl) {
            const fs::path cache = temporary_folder("kernel_bench_cache");
            child(is_usmcl, "kernels", cache, "");
            fs::remove_all(cache);
        });
    const double elapsed = seconds_since(start);
    for (const fs::path& dir : temporary)
        fs::remove_all(dir);

    std::printf("kernel_bench: %d build rounds, %d throughput rounds (best counts), "
                "%.0f s in all\n",
                options.build_rounds, options.rounds, elapsed);
    std::printf("  usmcl: %s\n", usmcl.platform.c_str());
    if (with_pocl)
        std::printf("  PoCL:  %s\n", pocl.platform.c_str());
    std::printf("\n| measurement | unit | usmcl | PoCL | usmcl/PoCL | faster |\n"
                "|---|---|---:|---:|---:|---|\n");
    struct Tally {
        int rows = 0;
        int usmcl_faster = 0;
        double log_speedup = 0; // sum of log(usmcl's speed-up)
        const Row* worst = nullptr;
        double worst_speedup = 0;
    };
    std::map<Group, Tally> tallies;
    for (const Row& row : rows) {
        const std::optional<double> ours = best_of(usmcl, row);
        const std::optional<double> theirs = with_pocl ? best_of(pocl, row) : std::nullopt;
        std::string ratio = "-", faster = "-";
        if (ours && theirs && *ours > 0 && *theirs > 0) {
            const double r = *ours / *theirs;
            const double speedup = row.higher_is_better ? r : 1 / r;
            char text[64];
            std::snprintf(text, sizeof text, "%.2f", r);
            ratio = text;
            std::snprintf(text, sizeof text, "%s %.2fx", speedup >= 1 ? "usmcl" : "PoCL",
                          speedup >= 1 ? speedup : 1 / speedup);
            faster = text;
            if (row.in_summary) {
                Tally& tally = tallies[row.group];
                ++tally.rows;
                tally.usmcl_faster += speedup >= 1;
                tally.log_speedup += std::log(speedup);
                if (!tally.worst || speedup < tally.worst_speedup) {
                    tally.worst = &row;
                    tally.worst_speedup = speedup;
                }
            }
        }
        std::printf("| %s | %s | %s | %s | %s | %s |\n", row.label, row.unit, format(ours).c_str(),
                    format(theirs).c_str(), ratio.c_str(), faster.c_str());
    }
    if (!tallies.empty())
        std::printf(
            "\nsummary (speed-up = how many times faster usmcl is than PoCL; < 1: slower)\n");
    const std::pair<Group, const char*> groups[] = {
        {Group::build, "program build (+ first launch)"},
        {Group::kernel, "kernel throughput"},
        {Group::launch, "empty-kernel round trip (median)"}};
    for (const auto& [group, name] : groups) {
        const auto it = tallies.find(group);
        if (it == tallies.end())
            continue;
        const Tally& tally = it->second;
        std::printf("  %-34s usmcl faster in %d of %d; geometric mean speed-up %.2fx; "
                    "lowest %.2fx (%s)\n",
                    name, tally.usmcl_faster, tally.rows, std::exp(tally.log_speedup / tally.rows),
                    tally.worst_speedup, tally.worst->label);
    }
    for (const auto& [name, results] : {std::pair{"usmcl", &usmcl}, std::pair{"PoCL", &pocl}})
        for (const std::string& what : results->wrong)
            std::printf("WRONG RESULT: %s, %s\n", name, what.c_str());
    if (!usmcl.wrong.empty() || !pocl.wrong.empty())
        ok = false;
    return ok ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    Options options;
    const char* child = nullptr;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help")
            usage(nullptr);
        if (i + 1 >= argc)
            usage("every option takes a value");
        const char* value = argv[++i];
        if (arg == "--child")
            child = value;
        else if (arg == "--usmcl")
            options.usmcl = value;
        else if (arg == "--pocl")
            options.pocl = value;
        else if (arg == "--rounds")
            options.rounds = count_of(value);
        else if (arg == "--build-rounds")
            options.build_rounds = count_of(value);
        else if (arg == "--batches")
            options.sizes.batches = count_of(value);
        else if (arg == "--budget")
            options.sizes.budget = std::strtod(value, nullptr);
        else
            usage("unknown option");
    }
    if (child && std::string_view(child) == "build")
        return child_build();
    if (child && std::string_view(child) == "kernels")
        return child_kernels(options.sizes);
    if (child)
        usage("unknown child mode");
    if (options.usmcl.empty())
        usage("--usmcl is required");
    return parent(options);
}
