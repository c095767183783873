// shared_pages_bench: what moving a shared USM allocation of a
// discrete-memory device block by block costs (docs/memory-model.md,
// "Shared USM allocations"), against the same allocation left in host memory
// (USMCL_DISCRETE_SHARED_PAGES=0) and on the CPU device.
//
// Usage
//   ninja -C build-bench bench-shared-pages     (configured with -Dbenchmarks=true)
// or directly
//   build-bench/bench/migration/shared_pages_bench --usmcl build-bench/driver/icd
//       [--size 64M] [--rounds 5]
// Of the driver options of bench/common (drivers.hpp) only --usmcl and --cpus
// matter: the allocation needs usmcl's discrete-memory device.
//
// One shared allocation of --size bytes (uint32 values) made for the device;
// each round, timed separately:
//   "kernel, data on the host": a kernel of the device adds 1 to every value
//     while every block is in host memory (each block moves on first touch);
//   "kernel again": the same kernel at once (nothing moves);
//   "host reads all": the host sums every value (each block comes back).
// The best round counts. The bytes moved each round are read from the
// device's migration counters (clGetDeviceMigrationCountersUSMCL) and must be
// the whole allocation each way with migration and nothing without; the
// values are checked at the end. A wrong value or byte count is an error
// (exit 1), never a timing.
#include "cl_check.hpp"
#include "drivers.hpp"
#include "sizes.hpp"

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/usmcl_ext.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace {

using bench::parse_size;

using bench::MiB;

const char* const source =
    "kernel void add_one(global uint* data) { data[get_global_id(0)] += 1; }";

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// ---- child: one configuration ----------------------------------------------

int child(std::size_t size, int rounds) {
    cl_platform_id platform = nullptr;
    CL_CHECK(clGetPlatformIDs(1, &platform, nullptr));
    cl_device_id device = nullptr;
    CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_DEFAULT, 1, &device, nullptr));
    auto* counters = reinterpret_cast<clGetDeviceMigrationCountersUSMCL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clGetDeviceMigrationCountersUSMCL"));
    auto* shared_alloc = reinterpret_cast<clSharedMemAllocINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clSharedMemAllocINTEL"));
    auto* set_pointer = reinterpret_cast<clSetKernelArgMemPointerINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clSetKernelArgMemPointerINTEL"));
    auto* blocking_free = reinterpret_cast<clMemBlockingFreeINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clMemBlockingFreeINTEL"));
    if (!counters || !shared_alloc || !set_pointer || !blocking_free) {
        std::fprintf(stderr, "shared_pages_bench: usmcl's functions are missing\n");
        return 2;
    }
    cl_int status = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    CL_CHECK(status);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &status);
    CL_CHECK(status);
    const char* text = source;
    cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &status);
    CL_CHECK(status);
    CL_CHECK(clBuildProgram(program, 1, &device, "", nullptr, nullptr));
    cl_kernel kernel = clCreateKernel(program, "add_one", &status);
    CL_CHECK(status);
    const std::size_t count = size / sizeof(cl_uint);
    auto* data = static_cast<cl_uint*>(shared_alloc(context, device, nullptr, size, 0, &status));
    CL_CHECK(status);
    for (std::size_t i = 0; i < count; ++i)
        data[i] = static_cast<cl_uint>(i);
    CL_CHECK(set_pointer(kernel, 0, data));

    auto moved = [&] {
        std::vector<cl_ulong> values(CL_MIGRATION_COUNTERS_USMCL);
        CL_CHECK(counters(device, CL_MIGRATION_COUNTERS_USMCL, values.data(), nullptr));
        return std::pair<cl_ulong, cl_ulong>(values[CL_MIGRATED_BYTES_FROM_HOST_USMCL],
                                             values[CL_MIGRATED_BYTES_TO_HOST_USMCL]);
    };
    auto run_kernel = [&] {
        const auto start = std::chrono::steady_clock::now();
        CL_CHECK(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &count, nullptr, 0, nullptr,
                                        nullptr));
        CL_CHECK(clFinish(queue));
        return seconds_since(start);
    };
    for (int round = 0; round < rounds; ++round) {
        const auto before = moved();
        const double first = run_kernel();
        const double again = run_kernel();
        const auto start = std::chrono::steady_clock::now();
        std::uint64_t sum = 0;
        for (std::size_t i = 0; i < count; ++i)
            sum += data[i];
        const double read = seconds_since(start);
        const auto after = moved();
        std::printf("round %.9f %.9f %.9f %llu %llu %llu\n", first, again, read,
                    static_cast<unsigned long long>(after.first - before.first),
                    static_cast<unsigned long long>(after.second - before.second),
                    static_cast<unsigned long long>(sum));
    }
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < count; ++i)
        wrong += data[i] != static_cast<cl_uint>(i + 2 * static_cast<std::size_t>(rounds));
    std::printf("wrong %zu\n", wrong);
    CL_CHECK(blocking_free(context, data));
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return 0;
}

// ---- parent ----------------------------------------------------------------

struct Best {
    double first = 1e30, again = 1e30, read = 1e30;
    unsigned long long to_device = 0, to_host = 0;
    bool seen = false;
};

int parent(std::size_t size, int rounds, bench::Drivers& drivers) {
    struct Configuration {
        const char* name;
        std::vector<std::string> environment;
        bool migrates;
    };
    const std::vector<Configuration> configurations = {
        {"discrete device, blocks migrate",
         {"USMCL_DEVICES=discrete", "USMCL_DISCRETE_SHARED_PAGES=1"},
         true},
        {"discrete device, host memory (USMCL_DISCRETE_SHARED_PAGES=0)",
         {"USMCL_DEVICES=discrete", "USMCL_DISCRETE_SHARED_PAGES=0"},
         false},
        {"CPU device", {"USMCL_DEVICES=cpu"}, false},
    };
    const auto cache = drivers.temporary_folder("shared_pages_bench_cache");
    const std::vector<std::string> arguments = {"--child", std::to_string(size),
                                                std::to_string(rounds)};
    int errors = 0;
    std::printf("shared USM allocation of %zu MiB, best of %d rounds (ms; GB/s of the allocation's "
                "size)\n\n",
                size / MiB, rounds);
    std::printf("| configuration | kernel, data on the host | kernel again | host reads all | "
                "moved to the device | moved to the host |\n|---|---:|---:|---:|---:|---:|\n");
    for (const Configuration& configuration : configurations) {
        bench::Driver driver = drivers.usmcl();
        driver.environment.insert(driver.environment.end(), configuration.environment.begin(),
                                  configuration.environment.end());
        driver.environment.push_back("USMCL_DISCRETE_MEMORY=" +
                                     std::to_string(2 * size + 64 * MiB));
        Best best;
        const bool ok = drivers.run_child(driver, arguments, cache, [&](std::string_view line) {
            double first = 0, again = 0, read = 0;
            unsigned long long to_device = 0, to_host = 0, sum = 0, wrong = 0;
            const std::string text(line);
            if (std::sscanf(text.c_str(), "wrong %llu", &wrong) == 1 && wrong != 0) {
                std::fprintf(stderr, "shared_pages_bench: %s: %llu wrong values\n",
                             configuration.name, wrong);
                ++errors;
            }
            if (std::sscanf(text.c_str(), "round %lf %lf %lf %llu %llu %llu", &first, &again, &read,
                            &to_device, &to_host, &sum) != 6)
                return;
            const unsigned long long expected = configuration.migrates ? size : 0;
            if (to_device != expected || to_host != expected) {
                std::fprintf(stderr,
                             "shared_pages_bench: %s: moved %llu bytes to the device and %llu "
                             "back, expected %llu each way\n",
                             configuration.name, to_device, to_host, expected);
                ++errors;
            }
            best.first = std::min(best.first, first);
            best.again = std::min(best.again, again);
            best.read = std::min(best.read, read);
            best.to_device = to_device;
            best.to_host = to_host;
            best.seen = true;
        });
        if (!ok || !best.seen) {
            std::fprintf(stderr, "shared_pages_bench: %s: the child failed\n", configuration.name);
            ++errors;
            continue;
        }
        auto cell = [&](double seconds) {
            return bench::format_value(seconds * 1e3) + " (" +
                   bench::format_value(static_cast<double>(size) / seconds / 1e9) + ")";
        };
        std::printf("| %s | %s | %s | %s | %llu | %llu |\n", configuration.name,
                    cell(best.first).c_str(), cell(best.again).c_str(), cell(best.read).c_str(),
                    best.to_device, best.to_host);
    }
    return errors == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 4 && std::string_view(argv[1]) == "--child")
        return child(parse_size(argv[2]), std::atoi(argv[3]));
    std::size_t size = 64 * MiB;
    int rounds = 5;
    bench::Drivers drivers("shared_pages_bench");
    for (int i = 1; i < argc; ++i) {
        const std::string_view argument = argv[i];
        const bool has_value = i + 1 < argc;
        if (has_value && drivers.take_option(argument, argv[i + 1]))
            ++i;
        else if (argument == "--size" && has_value)
            size = parse_size(argv[++i]);
        else if (argument == "--rounds" && has_value)
            rounds = std::atoi(argv[++i]);
        else {
            std::fprintf(stderr, "usage: %s --usmcl <icd> [--size 64M] [--rounds 5]\n%s", argv[0],
                         bench::driver_options_usage());
            return 2;
        }
    }
    if (size < MiB || size % 4096 != 0 || rounds < 1) {
        std::fprintf(stderr, "shared_pages_bench: --size must be at least 1M and a multiple of "
                             "4K; --rounds at least 1\n");
        return 2;
    }
    drivers.resolve();
    return parent(size, rounds, drivers);
}
