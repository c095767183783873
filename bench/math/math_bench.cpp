// math_bench: throughput of math-heavy kernels, usmcl side by side with its
// peers (PoCL, Intel's CPU runtime).
//
// Usage
//   ninja -C <build> bench-math                 (configured with -Dbenchmarks=true)
// or directly
//   <build>/bench/math/math_bench --usmcl <build>/driver/icd
//       [--pocl /etc/OpenCL/vendors/pocl.icd] [--peer Intel=<folder>/icd] [--cpus 0]
//       [--rounds 2] [--elements 8388608] [--budget 1.0]
// The driver options are bench/common's (drivers.hpp).
//
// Every measurement runs in a child process (this program, started again with
// --child and OCL_ICD_VENDORS naming one ICD), so the drivers never share a
// process and their worker threads never compete; --rounds rounds, every
// driver first in turn, the best child counts. Each child gets its own compiled-code cache
// folder (USMCL_CACHE_DIR, POCL_CACHE_DIR).
//
// The kernels, over --elements values (8M) in [0.5, 4), float and (when the
// device reports cl_khr_fp64) double, one work-item per element, local size
// chosen by the driver, default build options:
//   - "sin exp log pow": y = sin(x) + exp(x) * log(x) + pow(x, e), e a kernel
//     argument (so that pow stays a real pow);
//   - each of sin(x), exp(x), log(x), pow(x, e) alone.
// Each kernel is built (not timed), run once and checked against the host's
// long double result (relative error within 1e-5 for float, 1e-13 for
// double), then launched repeatedly with clFinish after each launch until
// --budget seconds have passed (at least 3 launches); the best launch counts
// (other load on the machine only adds time). Reported in Gelem/s (elements
// per second); usmcl/<peer> is usmcl's speed-up (> 1: usmcl is faster).

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif
#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "cl_check.hpp"
#include "drivers.hpp"

namespace {

namespace fs = std::filesystem;

struct Kernel {
    const char* name; // the row label and the kernel's name suffix
    const char* body; // y[i] = body, over v (and e)
    long double (*reference)(long double v, long double e);
};

const Kernel kernels[] = {
    {"sin exp log pow", "sin(v) + exp(v) * log(v) + pow(v, e)",
     [](long double v, long double e) {
         return std::sin(v) + std::exp(v) * std::log(v) + std::pow(v, e);
     }},
    {"sin", "sin(v)", [](long double v, long double) { return std::sin(v); }},
    {"exp", "exp(v)", [](long double v, long double) { return std::exp(v); }},
    {"log", "log(v)", [](long double v, long double) { return std::log(v); }},
    {"pow", "pow(v, e)", [](long double v, long double e) { return std::pow(v, e); }},
};
constexpr double exponent = 1.37;

// ------------------------------------------------------------------ child --

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <class T>
bool run_type(cl_context context, cl_device_id device, cl_command_queue queue, size_t elements,
              double budget) {
    const bool is_double = std::is_same_v<T, double>;
    const char* type = is_double ? "double" : "float";
    std::string source = is_double ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                                     "typedef double T;\n"
                                   : "typedef float T;\n";
    for (size_t k = 0; k < std::size(kernels); ++k)
        source += "kernel void k" + std::to_string(k) +
                  "(global const T* x, global T* y, T e) {\n"
                  "  size_t i = get_global_id(0);\n  T v = x[i];\n  y[i] = " +
                  kernels[k].body + ";\n}\n";
    const char* text = source.c_str();
    cl_int error = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &error);
    CL_CHECK(error);
    if (clBuildProgram(program, 1, &device, "", nullptr, nullptr) != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        std::fprintf(stderr, "math_bench: the %s program does not build:\n%s\n", type, log.c_str());
        return false;
    }
    std::vector<T> x(elements), y(elements);
    uint64_t state = 0x9e3779b97f4a7c15ull;
    for (T& v : x) {
        state = state * 6364136223846793005ull + 1442695040888963407ull;
        v = static_cast<T>(0.5 + 3.5 * static_cast<double>(state >> 11) * 0x1p-53);
    }
    cl_mem x_buffer = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                                     elements * sizeof(T), x.data(), &error);
    CL_CHECK(error);
    cl_mem y_buffer =
        clCreateBuffer(context, CL_MEM_WRITE_ONLY, elements * sizeof(T), nullptr, &error);
    CL_CHECK(error);
    bool ok = true;
    const T e = static_cast<T>(exponent);
    for (size_t k = 0; k < std::size(kernels); ++k) {
        const std::string name = "k" + std::to_string(k);
        cl_kernel kernel = clCreateKernel(program, name.c_str(), &error);
        CL_CHECK(error);
        CL_CHECK(clSetKernelArg(kernel, 0, sizeof(cl_mem), &x_buffer));
        CL_CHECK(clSetKernelArg(kernel, 1, sizeof(cl_mem), &y_buffer));
        CL_CHECK(clSetKernelArg(kernel, 2, sizeof(T), &e));
        // Warm-up and check.
        CL_CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &elements, nullptr, 0, nullptr,
                                        nullptr));
        CL_CHECK(clEnqueueReadBuffer(queue, y_buffer, CL_TRUE, 0, elements * sizeof(T), y.data(), 0,
                                     nullptr, nullptr));
        const long double tolerance = is_double ? 1e-13L : 1e-5L;
        size_t wrong = 0;
        for (size_t i = 0; i < elements; i += 7) {
            const long double want = kernels[k].reference(x[i], e);
            if (!(std::fabs(y[i] - want) <= tolerance * std::max(std::fabs(want), 1.0L)))
                ++wrong;
        }
        if (wrong > 0) {
            std::printf("wrong %s %s: %zu checked results out of tolerance\n", kernels[k].name,
                        type, wrong);
            ok = false;
        }
        double best = 1e30;
        const auto start = std::chrono::steady_clock::now();
        for (int launches = 0; launches < 3 || seconds_since(start) < budget; ++launches) {
            const auto launch = std::chrono::steady_clock::now();
            CL_CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &elements, nullptr, 0,
                                            nullptr, nullptr));
            CL_CHECK(clFinish(queue));
            best = std::min(best, seconds_since(launch));
            if (launches > 1000)
                break;
        }
        std::printf("%s/%s %.9f\n", kernels[k].name, type, best);
        std::fflush(stdout);
        clReleaseKernel(kernel);
    }
    clReleaseMemObject(x_buffer);
    clReleaseMemObject(y_buffer);
    clReleaseProgram(program);
    return ok;
}

int child_main(size_t elements, double budget) {
    cl_platform_id platform = nullptr;
    cl_uint count = 0;
    CL_CHECK(clGetPlatformIDs(1, &platform, &count));
    cl_device_id device = nullptr;
    CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
    char name[256] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_VERSION, sizeof(name) - 1, name, nullptr);
    std::printf("platform %s\n", name);
    cl_int error = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
    CL_CHECK(error);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &error);
    CL_CHECK(error);
    bool ok = run_type<float>(context, device, queue, elements, budget);
    cl_device_fp_config double_config = 0;
    clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(double_config), &double_config,
                    nullptr);
    if (double_config != 0)
        ok = run_type<double>(context, device, queue, elements, budget) && ok;
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return ok ? 0 : 1;
}

// ----------------------------------------------------------------- parent --

struct Results {
    std::string platform;
    std::map<std::string, double> best; // key -> best seconds
    std::vector<std::string> wrong;
    bool failed = false;
};

void run_child(bench::Drivers& drivers, const bench::Driver& driver, size_t elements, double budget,
               Results& results) {
    const fs::path cache = drivers.temporary_folder("math_bench_cache");
    const std::vector<std::string> arguments = {"--child", "--elements", std::to_string(elements),
                                                "--budget", std::to_string(budget)};
    const bool ok = drivers.run_child(driver, arguments, cache, [&](std::string_view line) {
        const std::string text(line);
        if (text.starts_with("platform ")) {
            results.platform = text.substr(9);
        } else if (text.starts_with("wrong ")) {
            results.wrong.push_back(text.substr(6));
        } else {
            const size_t space = text.rfind(' ');
            if (space == std::string::npos)
                return;
            const std::string key = text.substr(0, space);
            const double value = std::strtod(text.c_str() + space + 1, nullptr);
            auto [it, inserted] = results.best.try_emplace(key, value);
            if (!inserted)
                it->second = std::min(it->second, value);
        }
    });
    if (!ok)
        results.failed = true;
    std::error_code ignored;
    fs::remove_all(cache, ignored);
}

std::string load_average() {
    std::ifstream in("/proc/loadavg");
    std::string one, five, fifteen;
    in >> one >> five >> fifteen;
    return one + " " + five + " " + fifteen;
}

void usage() {
    std::printf("usage: math_bench <driver options> [--rounds N] [--elements N] "
                "[--budget SECONDS]\n%s",
                bench::driver_options_usage());
}

} // namespace

int main(int argc, char** argv) {
    bench::Drivers drivers("math_bench");
    int rounds = 2;
    size_t elements = size_t(8) << 20;
    double budget = 1.0;
    bool child = false;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--child")
            child = true;
        else if (has_value && drivers.take_option(arg, argv[i + 1]))
            ++i;
        else if (arg == "--rounds" && has_value)
            rounds = std::max(1, std::atoi(argv[++i]));
        else if (arg == "--elements" && has_value)
            elements = std::max<size_t>(1, std::strtoull(argv[++i], nullptr, 10));
        else if (arg == "--budget" && has_value)
            budget = std::strtod(argv[++i], nullptr);
        else {
            usage();
            return 2;
        }
    }
    if (child)
        return child_main(elements, budget);
    drivers.resolve();
    struct Icd {
        const bench::Driver* driver;
        Results results;
    };
    std::vector<Icd> icds;
    for (const bench::Driver& driver : drivers.all())
        icds.push_back({&driver, {}});
    const std::string load_before = load_average();
    for (int round = 0; round < rounds; ++round) {
        for (const size_t index : drivers.order(round)) {
            std::fprintf(stderr, "round %d: %s\n", round + 1, icds[index].driver->name.c_str());
            run_child(drivers, *icds[index].driver, elements, budget, icds[index].results);
        }
    }

    std::printf("## Math kernels: %zu elements, best of %d children per ICD\n\n", elements, rounds);
    for (const Icd& icd : icds)
        std::printf("- %s: %s\n", icd.driver->name.c_str(), icd.results.platform.c_str());
    std::printf("- load average before: %s, after: %s\n\n", load_before.c_str(),
                load_average().c_str());
    std::string header = "| kernel | type |";
    std::string rule = "| --- | --- |";
    for (const Icd& icd : icds) {
        header += " " + icd.driver->name + " Gelem/s |";
        rule += " --- |";
    }
    for (size_t peer = 1; peer < icds.size(); ++peer) {
        header += " usmcl/" + icds[peer].driver->name + " |";
        rule += " --- |";
    }
    std::printf("%s\n%s\n", header.c_str(), rule.c_str());
    for (const char* type : {"float", "double"}) {
        for (const Kernel& k : kernels) {
            const std::string key = std::string(k.name) + "/" + type;
            auto rate = [&](const Icd& icd) -> double {
                const auto it = icd.results.best.find(key);
                return it == icd.results.best.end() ? 0 : elements / it->second * 1e-9;
            };
            std::printf("| %s | %s |", k.name, type);
            for (const Icd& icd : icds) {
                const double r = rate(icd);
                std::printf(" %s |", r > 0 ? bench::format_value(r).c_str() : "-");
            }
            const double ours = rate(icds[0]);
            for (size_t peer = 1; peer < icds.size(); ++peer) {
                const double theirs = rate(icds[peer]);
                if (ours > 0 && theirs > 0)
                    std::printf(ours >= theirs ? " %.2fx |" : " **%.2fx** |", ours / theirs);
                else
                    std::printf(" - |");
            }
            std::printf("\n");
        }
    }
    bool failed = false;
    for (const Icd& icd : icds) {
        for (const std::string& w : icd.results.wrong)
            std::printf("\n%s: WRONG RESULTS: %s", icd.driver->name.c_str(), w.c_str());
        if (icd.results.failed) {
            std::printf("\n%s: a child failed (see its messages above)", icd.driver->name.c_str());
            failed = true;
        }
    }
    std::printf("\n");
    return failed ? 1 : 0;
}
