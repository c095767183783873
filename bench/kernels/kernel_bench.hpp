// kernel_bench: what the parent and the child processes share. The usage and
// what is measured are described at the top of main.cpp.
#pragma once

#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cl_check.hpp"

namespace bench {
class Drivers;
}

namespace kernel_bench {

using Clock = std::chrono::steady_clock;

inline double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// How long the child measures each kernel.
struct Sizes {
    int batches = 10;
    double budget = 1.5; // seconds per kernel after which 2 batches suffice
    int round_trips = 2000;
};

// The first device of the first platform the loader shows, with a context and
// an in-order queue without profiling.
class Device {
public:
    Device();
    ~Device();
    Device(const Device&) = delete;
    Device& operator=(const Device&) = delete;

    std::string platform_name() const;
    // Builds the source with the options; a failed build prints the log and exits.
    cl_program build(const char* source, const char* options = "") const;
    cl_mem buffer(size_t bytes, const void* data = nullptr) const;
    void read(cl_mem mem, size_t bytes, void* data) const;

    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
};

cl_kernel kernel_of(cl_program program, const char* name);

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

// One NDRange launch (not waited for); the local size is used when with_local.
struct Launch {
    cl_command_queue queue;
    cl_kernel kernel;
    cl_uint dimensions;
    size_t global[2];
    size_t local[2];
    bool with_local;

    void enqueue() const;
    void run_once() const;
};

// Seconds per launch, after the caller's warm-up: the best of up to
// sizes.batches batches, a first one of a single launch that sets k, then
// batches of k launches and one clFinish (about 50 ms each); once
// sizes.budget seconds have passed, two batches suffice.
double seconds_per_launch(const Launch& launch, const Sizes& sizes);

// Best of `repeats` timings of fn, in seconds.
template <typename Fn>
double best_seconds(int repeats, Fn&& fn) {
    double best = 1e30;
    for (int i = 0; i < repeats; ++i) {
        const auto start = Clock::now();
        fn();
        best = std::min(best, seconds_since(start));
    }
    return best;
}

// A wrong result: reported to the parent ("wrong <what>") and remembered, so
// the child exits non-zero.
void report_wrong(const char* what);
bool any_wrong();

// Reports the first mismatch of an exact comparison.
template <typename T>
void expect_equal(const char* what, const std::vector<T>& got, const std::vector<T>& expected) {
    for (size_t i = 0; i < expected.size(); ++i) {
        if (got[i] != expected[i]) {
            std::fprintf(stderr, "kernel_bench: wrong result of %s at %zu: %g, expected %g\n", what,
                         i, static_cast<double>(got[i]), static_cast<double>(expected[i]));
            report_wrong(what);
            return;
        }
    }
}

// One measured value for the parent: a line "key value".
void report(const char* key, double value);

// The child's measurements, one function per family (child_*.cpp).
int child_build();
// One program built from one form (child_build_forms.cpp).
struct FormBuild {
    const char* program = "vector_add"; // spirv/<program>.cl and .spv
    bool il = false;                    // SPIR-V, else OpenCL C
    bool cache = false;                 // the driver's on-disk cache on
    int repeats = 5;                    // builds after the first
};
int child_build_forms(const FormBuild& build);
void measure_memory_bound(const Device& device, const Sizes& sizes);
void measure_compute(const Device& device, const Sizes& sizes);
void measure_collectives(const Device& device, const Sizes& sizes);
void measure_barriers_and_launch(const Device& device, const Sizes& sizes);

// The parent (parent.cpp).
struct Options {
    int rounds = 2;
    int build_rounds = 3;
    int form_repeats = 5;
    std::string only; // "build", "forms" or "kernels": that part alone
    Sizes sizes;
};
int parent(const Options& options, bench::Drivers& drivers);

} // namespace kernel_bench
