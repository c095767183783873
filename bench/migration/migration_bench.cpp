// migration_bench: usmcl's planned migrations against a copy-everything
// baseline, on a kernel pipeline over a CPU device and a discrete-memory
// device (USMCL_DEVICES=cpu,discrete) that touches part of a buffer per step.
//
// Usage
//   ninja -C build-bench bench-migration          (configured with -Dbenchmarks=true)
// or directly
//   build-bench/bench/migration/migration_bench --usmcl build-bench/driver/icd
//       [--size 64M] [--steps 64] [--cpu-every 4] [--rounds 2] [--seed N]
//       [--bandwidth 16GiB] [--latency 5]
// Of the driver options of bench/common (drivers.hpp) only --usmcl and
// --cpus matter: the pipeline needs usmcl's discrete-memory device.
//
// The pipeline, in one context of the CPU device and the discrete device, on
// one buffer of --size bytes (uint32 values) cut into 8 slices: the host
// writes the whole buffer on the CPU device's queue, then every step
//   1. a kernel on the discrete device updates one slice, chosen at random
//      per step (x = 3x + step, on a sub-buffer of the slice);
//   2. the host maps that slice for reading on the discrete device's queue
//      (a map works on the host instance: what is stale there comes back),
//      checks it against a host model, and unmaps it;
//   3. every --cpu-every steps, a kernel on the CPU device updates the whole
//      buffer (x = x ^ (x >> 7) + 1), which makes the device's copy stale.
// At the end the whole buffer is read on the CPU device's queue and compared
// with the model; a wrong value is an error (exit 1), never a timing.
//
// "planned": the pipeline as written; usmcl copies what is stale where it is
// needed, range by range. Its bytes are read from the driver's counters
// (clGetDeviceMigrationCountersUSMCL, clGetMemObjectMigrationCountersUSMCL)
// and compared with the minimum, computed by a per-slice model of validity
// (a slice moves to the device when the device's copy is stale, and back when
// the host's is); any other number of bytes is an error.
//
// "copy everything": what a driver without range validity does, the whole
// buffer to the device before every kernel and the whole buffer back after
// it: 2 x size bytes per step, computed. For its time the same pipeline runs
// through usmcl with the kernel of step 1 given the whole buffer (and the
// slice's offset), so that the driver must copy all of it in and out:
// before the kernel, a kernel on the CPU device that may write the whole
// buffer (it writes nothing) makes the device's copy stale; after it,
// clEnqueueMigrateMemObjects of the buffer to the CPU device brings the whole
// buffer back. Its copies are migrations, so the cost model applies to them
// as to the planned ones; the counters must show exactly 2 x size per step.
//
// Each configuration runs with and without the cost model
// (USMCL_DISCRETE_BANDWIDTH=--bandwidth, USMCL_DISCRETE_LATENCY=--latency),
// in a child process of its own, --rounds times with the two pipelines in
// turn; the better round counts. A step is timed from the enqueue of its
// first command to the unmap's completion (with the CPU kernel when it runs);
// the table gives the median and the mean step. Building the program and the
// first write of the buffer are not timed.
#include <CL/cl.h>
#include <CL/usmcl_ext.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <numeric>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "cl_check.hpp"
#include "drivers.hpp"
#include "sizes.hpp"

namespace {

using Clock = std::chrono::steady_clock;

using bench::KiB;
using bench::MiB;
using bench::parse_size;

std::string human(std::uint64_t bytes) {
    return bench::human_size(bytes);
}
constexpr unsigned slices = 8;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

const char* const source = R"CLC(
kernel void update(global uint* x, uint step) {
    const size_t i = get_global_id(0);
    x[i] = 3u * x[i] + step;
}
kernel void update_at(global uint* x, uint offset, uint step) {
    const size_t i = offset + get_global_id(0);
    x[i] = 3u * x[i] + step;
}
kernel void mix(global uint* x) {
    const size_t i = get_global_id(0);
    x[i] = (x[i] ^ (x[i] >> 7)) + 1u;
}
kernel void touch(global uint* x, uint really) {
    if (really)
        x[get_global_id(0)] = 0u;
}
)CLC";

std::uint32_t update_value(std::uint32_t x, std::uint32_t step) {
    return 3u * x + step;
}
std::uint32_t mix_value(std::uint32_t x) {
    return (x ^ (x >> 7)) + 1u;
}

struct Counters {
    cl_ulong values[CL_MIGRATION_COUNTERS_USMCL] = {};
    Counters operator-(const Counters& other) const {
        Counters result;
        for (int i = 0; i < CL_MIGRATION_COUNTERS_USMCL; ++i)
            result.values[i] = values[i] - other.values[i];
        return result;
    }
    cl_ulong to_device() const { return values[CL_MIGRATED_BYTES_FROM_HOST_USMCL]; }
    cl_ulong to_host() const { return values[CL_MIGRATED_BYTES_TO_HOST_USMCL]; }
    cl_ulong copies() const {
        return values[CL_MIGRATIONS_FROM_HOST_USMCL] + values[CL_MIGRATIONS_TO_HOST_USMCL] +
               values[CL_MIGRATIONS_FROM_DEVICES_USMCL] + values[CL_MIGRATIONS_TO_DEVICES_USMCL];
    }
    cl_ulong between_devices() const {
        return values[CL_MIGRATED_BYTES_FROM_DEVICES_USMCL] +
               values[CL_MIGRATED_BYTES_TO_DEVICES_USMCL];
    }
};

// ---- child: one pipeline ----------------------------------------------------

struct Setup {
    cl_platform_id platform = nullptr;
    cl_device_id cpu = nullptr, discrete = nullptr;
    cl_context context = nullptr;
    cl_command_queue cpu_queue = nullptr, device_queue = nullptr;
    cl_program program = nullptr;
    cl_kernel update = nullptr, update_at = nullptr, mix = nullptr, touch = nullptr;
    clGetDeviceMigrationCountersUSMCL_fn device_counters = nullptr;
    clGetMemObjectMigrationCountersUSMCL_fn buffer_counters = nullptr;

    Setup() {
        cl_uint count = 0;
        CL_CHECK(clGetPlatformIDs(1, &platform, &count));
        cl_device_id devices[2] = {};
        CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 2, devices, &count));
        cl_bool unified[2] = {};
        for (int i = 0; i < 2 && i < static_cast<int>(count); ++i)
            CL_CHECK(clGetDeviceInfo(devices[i], CL_DEVICE_HOST_UNIFIED_MEMORY, sizeof(cl_bool),
                                     &unified[i], nullptr));
        if (count != 2 || !unified[0] || unified[1]) {
            std::fprintf(stderr, "migration_bench: expected the CPU device and a discrete device "
                                 "(USMCL_DEVICES=cpu,discrete)\n");
            std::exit(2);
        }
        cpu = devices[0];
        discrete = devices[1];
        device_counters = reinterpret_cast<clGetDeviceMigrationCountersUSMCL_fn>(
            clGetExtensionFunctionAddressForPlatform(platform,
                                                     "clGetDeviceMigrationCountersUSMCL"));
        buffer_counters = reinterpret_cast<clGetMemObjectMigrationCountersUSMCL_fn>(
            clGetExtensionFunctionAddressForPlatform(platform,
                                                     "clGetMemObjectMigrationCountersUSMCL"));
        if (!device_counters || !buffer_counters) {
            std::fprintf(stderr, "migration_bench: usmcl's migration counters are missing\n");
            std::exit(2);
        }
        cl_int status = CL_SUCCESS;
        context = clCreateContext(nullptr, 2, devices, nullptr, nullptr, &status);
        CL_CHECK(status);
        cpu_queue = clCreateCommandQueueWithProperties(context, cpu, nullptr, &status);
        CL_CHECK(status);
        device_queue = clCreateCommandQueueWithProperties(context, discrete, nullptr, &status);
        CL_CHECK(status);
        const char* text = source;
        program = clCreateProgramWithSource(context, 1, &text, nullptr, &status);
        CL_CHECK(status);
        CL_CHECK(clBuildProgram(program, 2, devices, "", nullptr, nullptr));
        update = clCreateKernel(program, "update", &status);
        CL_CHECK(status);
        update_at = clCreateKernel(program, "update_at", &status);
        CL_CHECK(status);
        mix = clCreateKernel(program, "mix", &status);
        CL_CHECK(status);
        touch = clCreateKernel(program, "touch", &status);
        CL_CHECK(status);
    }
    ~Setup() {
        for (cl_kernel kernel : {update, update_at, mix, touch})
            clReleaseKernel(kernel);
        clReleaseProgram(program);
        clReleaseCommandQueue(cpu_queue);
        clReleaseCommandQueue(device_queue);
        clReleaseContext(context);
    }
    Setup(const Setup&) = delete;
    Setup& operator=(const Setup&) = delete;

    Counters of_device() const {
        Counters counters;
        CL_CHECK(device_counters(discrete, CL_MIGRATION_COUNTERS_USMCL, counters.values, nullptr));
        return counters;
    }
    Counters of_buffer(cl_mem buffer) const {
        Counters counters;
        CL_CHECK(buffer_counters(buffer, CL_MIGRATION_COUNTERS_USMCL, counters.values, nullptr));
        return counters;
    }
};

struct PipelineResult {
    std::vector<double> seconds; // per step
    Counters device;             // the discrete device's counters over the timed steps
    Counters buffer;             // the buffer's over the timed steps
    std::uint64_t minimum_to_device = 0, minimum_to_host = 0;
    std::uint64_t wrong_values = 0;
};

PipelineResult run_pipeline(Setup& setup, bool copy_everything, size_t size, int steps,
                            int cpu_every, std::uint64_t seed) {
    const size_t count = size / sizeof(std::uint32_t);
    const size_t slice_count = count / slices;
    const size_t slice_size = slice_count * sizeof(std::uint32_t);
    cl_int status = CL_SUCCESS;
    cl_mem buffer = clCreateBuffer(setup.context, CL_MEM_READ_WRITE, size, nullptr, &status);
    CL_CHECK(status);
    std::vector<cl_mem> sub(slices);
    for (unsigned s = 0; s < slices; ++s) {
        const cl_buffer_region region = {s * slice_size, slice_size};
        sub[s] = clCreateSubBuffer(buffer, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region,
                                   &status);
        CL_CHECK(status);
    }

    std::vector<std::uint32_t> model(count);
    std::mt19937_64 rng(seed);
    for (std::uint32_t& value : model)
        value = static_cast<std::uint32_t>(rng());
    CL_CHECK(clEnqueueWriteBuffer(setup.cpu_queue, buffer, CL_TRUE, 0, size, model.data(), 0,
                                  nullptr, nullptr));
    // Validity per slice, for the minimum: after the write only the host's
    // copy is up to date.
    std::vector<bool> on_device(slices, false), on_host(slices, true);

    PipelineResult result;
    const Counters device_before = setup.of_device();
    const Counters buffer_before = setup.of_buffer(buffer);
    const size_t one = 1;
    for (int step = 0; step < steps; ++step) {
        const unsigned s = static_cast<unsigned>(rng() % slices);
        const cl_uint step_value = static_cast<cl_uint>(step + 1);
        const auto start = Clock::now();
        if (copy_everything) {
            // The whole buffer is (maybe) written on the host: the device's copy is stale.
            const cl_uint really = 0;
            CL_CHECK(clSetKernelArg(setup.touch, 0, sizeof(cl_mem), &buffer));
            CL_CHECK(clSetKernelArg(setup.touch, 1, sizeof really, &really));
            cl_event touched = nullptr, updated = nullptr;
            CL_CHECK(clEnqueueNDRangeKernel(setup.cpu_queue, setup.touch, 1, nullptr, &one, nullptr,
                                            0, nullptr, &touched));
            CL_CHECK(clFlush(setup.cpu_queue));
            const cl_uint offset = static_cast<cl_uint>(s * slice_count);
            CL_CHECK(clSetKernelArg(setup.update_at, 0, sizeof(cl_mem), &buffer));
            CL_CHECK(clSetKernelArg(setup.update_at, 1, sizeof offset, &offset));
            CL_CHECK(clSetKernelArg(setup.update_at, 2, sizeof step_value, &step_value));
            CL_CHECK(clEnqueueNDRangeKernel(setup.device_queue, setup.update_at, 1, nullptr,
                                            &slice_count, nullptr, 1, &touched, &updated));
            CL_CHECK(clFlush(setup.device_queue));
            // ... and the whole buffer comes back after the kernel.
            CL_CHECK(
                clEnqueueMigrateMemObjects(setup.cpu_queue, 1, &buffer, 0, 1, &updated, nullptr));
            CL_CHECK(clFinish(setup.cpu_queue));
            clReleaseEvent(touched);
            clReleaseEvent(updated);
        } else {
            CL_CHECK(clSetKernelArg(setup.update, 0, sizeof(cl_mem), &sub[s]));
            CL_CHECK(clSetKernelArg(setup.update, 1, sizeof step_value, &step_value));
            CL_CHECK(clEnqueueNDRangeKernel(setup.device_queue, setup.update, 1, nullptr,
                                            &slice_count, nullptr, 0, nullptr, nullptr));
        }
        auto* mapped = static_cast<std::uint32_t*>(
            clEnqueueMapBuffer(setup.device_queue, buffer, CL_TRUE, CL_MAP_READ, s * slice_size,
                               slice_size, 0, nullptr, nullptr, &status));
        CL_CHECK(status);
        // The check against the model is part of the step in both pipelines (the
        // application's use of the slice).
        std::uint32_t* expected = model.data() + s * slice_count;
        for (size_t i = 0; i < slice_count; ++i)
            expected[i] = update_value(expected[i], step_value);
        if (std::memcmp(mapped, expected, slice_size) != 0)
            ++result.wrong_values;
        cl_event unmapped = nullptr;
        CL_CHECK(
            clEnqueueUnmapMemObject(setup.device_queue, buffer, mapped, 0, nullptr, &unmapped));
        CL_CHECK(clWaitForEvents(1, &unmapped));
        clReleaseEvent(unmapped);
        // The minimum: the slice to the device if stale there, back for the map.
        if (!on_device[s])
            result.minimum_to_device += slice_size;
        on_device[s] = true;
        on_host[s] = false;
        result.minimum_to_host += slice_size;
        on_host[s] = true;
        if (cpu_every > 0 && (step + 1) % cpu_every == 0) {
            CL_CHECK(clSetKernelArg(setup.mix, 0, sizeof(cl_mem), &buffer));
            CL_CHECK(clEnqueueNDRangeKernel(setup.cpu_queue, setup.mix, 1, nullptr, &count, nullptr,
                                            0, nullptr, nullptr));
            CL_CHECK(clFinish(setup.cpu_queue));
            for (std::uint32_t& value : model)
                value = mix_value(value);
            for (unsigned t = 0; t < slices; ++t) {
                if (!on_host[t])
                    result.minimum_to_host += slice_size;
                on_host[t] = true;
                on_device[t] = false;
            }
        }
        result.seconds.push_back(seconds_since(start));
    }
    result.device = setup.of_device() - device_before;
    result.buffer = setup.of_buffer(buffer) - buffer_before;

    std::vector<std::uint32_t> seen(count);
    CL_CHECK(clEnqueueReadBuffer(setup.cpu_queue, buffer, CL_TRUE, 0, size, seen.data(), 0, nullptr,
                                 nullptr));
    for (size_t i = 0; i < count; ++i)
        result.wrong_values += seen[i] != model[i];
    for (cl_mem object : sub)
        clReleaseMemObject(object);
    clReleaseMemObject(buffer);
    return result;
}

int child(size_t size, int steps, int cpu_every, int rounds, std::uint64_t seed) {
    Setup setup;
    // One step of each pipeline first, untimed: first use of the kernels, the
    // device's region.
    (void)run_pipeline(setup, false, size, 1, cpu_every, seed);
    (void)run_pipeline(setup, true, size, 1, cpu_every, seed);
    int failures = 0;
    for (int round = 0; round < rounds; ++round)
        for (int which = 0; which < 2; ++which) {
            const bool copy_everything = (which + round) % 2 == 1;
            PipelineResult r = run_pipeline(setup, copy_everything, size, steps, cpu_every, seed);
            std::vector<double> sorted = r.seconds;
            std::sort(sorted.begin(), sorted.end());
            const double median = sorted[sorted.size() / 2];
            const double mean =
                std::accumulate(sorted.begin(), sorted.end(), 0.0) / static_cast<double>(steps);
            // name median mean to_device to_host copies between_devices
            // buffer_to_device buffer_to_host minimum_to_device minimum_to_host wrong
            std::printf("run %s %.9e %.9e %llu %llu %llu %llu %llu %llu %llu %llu %llu\n",
                        copy_everything ? "everything" : "planned", median, mean,
                        static_cast<unsigned long long>(r.device.to_device()),
                        static_cast<unsigned long long>(r.device.to_host()),
                        static_cast<unsigned long long>(r.device.copies()),
                        static_cast<unsigned long long>(r.device.between_devices()),
                        static_cast<unsigned long long>(r.buffer.to_device()),
                        static_cast<unsigned long long>(r.buffer.to_host()),
                        static_cast<unsigned long long>(r.minimum_to_device),
                        static_cast<unsigned long long>(r.minimum_to_host),
                        static_cast<unsigned long long>(r.wrong_values));
            std::fflush(stdout);
            if (r.wrong_values != 0)
                ++failures;
        }
    return failures == 0 ? 0 : 1;
}

// ---- parent ---------------------------------------------------------------

struct Options {
    size_t size = 64 * MiB;
    int steps = 64;
    int cpu_every = 4;
    int rounds = 2;
    std::uint64_t seed = 12345;
    std::string bandwidth = "16GiB";
    std::string latency = "5";
};

struct Run {
    double median = 0, mean = 0;
    unsigned long long to_device = 0, to_host = 0, copies = 0, between = 0;
    unsigned long long buffer_to_device = 0, buffer_to_host = 0;
    unsigned long long minimum_to_device = 0, minimum_to_host = 0, wrong = 0;
    bool seen = false;
};

int parent(const Options& options, bench::Drivers& drivers) {
    const std::vector<std::string> arguments = {"--child",
                                                std::to_string(options.size),
                                                std::to_string(options.steps),
                                                std::to_string(options.cpu_every),
                                                std::to_string(options.rounds),
                                                std::to_string(options.seed)};
    const auto cache = drivers.temporary_folder("migration_bench_cache");
    int errors = 0;
    std::map<std::pair<bool, std::string>, Run> runs; // (cost model, pipeline) -> best round
    for (const bool cost_model : {false, true}) {
        bench::Driver driver = drivers.usmcl();
        driver.environment.push_back("USMCL_DEVICES=cpu,discrete");
        driver.environment.push_back("USMCL_DISCRETE_MEMORY=" +
                                     std::to_string(std::max<size_t>(4 * options.size, 64 * MiB)));
        driver.environment.push_back("USMCL_DISCRETE_BANDWIDTH=" +
                                     (cost_model ? options.bandwidth : std::string("0")));
        driver.environment.push_back("USMCL_DISCRETE_LATENCY=" +
                                     (cost_model ? options.latency : std::string("0")));
        std::fprintf(stderr, "migration_bench: %s the cost model ...\n",
                     cost_model ? "with" : "without");
        const bool ok = drivers.run_child(driver, arguments, cache, [&](std::string_view line) {
            char name[16] = {};
            Run run;
            if (std::sscanf(std::string(line).c_str(),
                            "run %15s %lf %lf %llu %llu %llu %llu %llu %llu %llu %llu %llu", name,
                            &run.median, &run.mean, &run.to_device, &run.to_host, &run.copies,
                            &run.between, &run.buffer_to_device, &run.buffer_to_host,
                            &run.minimum_to_device, &run.minimum_to_host, &run.wrong) != 12)
                return;
            run.seen = true;
            Run& best = runs[{cost_model, name}];
            if (run.wrong != 0)
                ++errors;
            // The bytes are the same in every round; the faster round counts.
            if (!best.seen || run.median < best.median)
                best = run;
        });
        if (!ok) {
            std::fprintf(stderr, "migration_bench: the child %s the cost model failed\n",
                         cost_model ? "with" : "without");
            ++errors;
        }
    }

    const double steps = options.steps;
    const std::uint64_t baseline_bytes = 2 * static_cast<std::uint64_t>(options.size);
    std::printf("\nMigration: buffer %s in %u slices of %s, %d steps; per step a kernel on the "
                "discrete device updates one random slice and the host maps it; every %d steps a "
                "kernel on the CPU device updates the whole buffer\n",
                human(options.size).c_str(), slices, human(options.size / slices).c_str(),
                options.steps, options.cpu_every);
    std::printf("copy everything (analytic): %s to the device and %s back per step = %s\n",
                human(options.size).c_str(), human(options.size).c_str(),
                human(baseline_bytes).c_str());
    std::printf("cost model: USMCL_DISCRETE_BANDWIDTH=%s USMCL_DISCRETE_LATENCY=%s (us)\n\n",
                options.bandwidth.c_str(), options.latency.c_str());
    std::printf("| cost model | pipeline | to device/step | to host/step | copies/step | "
                "bytes vs copy everything | expected/step | ms/step (median) | ms/step (mean) | "
                "time vs copy everything (median) | wrong values |\n"
                "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const bool cost_model : {false, true}) {
        const Run& everything = runs[{cost_model, "everything"}];
        for (const char* name : {"planned", "everything"}) {
            const Run& run = runs[{cost_model, name}];
            if (!run.seen) {
                std::printf("| %s | %s | - | - | - | - | - | - | - | - | - |\n",
                            cost_model ? "on" : "off", name);
                ++errors;
                continue;
            }
            const bool planned = std::string_view(name) == "planned";
            const double moved = static_cast<double>(run.to_device + run.to_host);
            const double expected = static_cast<double>(
                planned ? run.minimum_to_device + run.minimum_to_host : baseline_bytes * steps);
            std::printf("| %s | %s | %s | %s | %.2f | %.3fx | %s | %.3f | %.3f | %.2fx | %llu |\n",
                        cost_model ? "on" : "off", planned ? "usmcl planned" : "copy everything",
                        human(static_cast<std::uint64_t>(run.to_device / steps)).c_str(),
                        human(static_cast<std::uint64_t>(run.to_host / steps)).c_str(),
                        static_cast<double>(run.copies) / steps,
                        moved / (static_cast<double>(baseline_bytes) * steps),
                        human(static_cast<std::uint64_t>(expected / steps)).c_str(),
                        run.median * 1e3, run.mean * 1e3,
                        everything.seen ? run.median / everything.median : 0.0, run.wrong);
            // The counters must agree with each other and with the minimum.
            if (run.buffer_to_device != run.to_device || run.buffer_to_host != run.to_host ||
                run.between != 0) {
                std::printf("\n**counters disagree** (%s, cost model %s): device %llu/%llu, "
                            "buffer %llu/%llu, between devices %llu\n\n",
                            name, cost_model ? "on" : "off", run.to_device, run.to_host,
                            run.buffer_to_device, run.buffer_to_host, run.between);
                ++errors;
            }
            if (moved != expected) {
                std::printf("\n**%s moved %.0f bytes, expected %.0f** (cost model %s)\n\n", name,
                            moved, expected, cost_model ? "on" : "off");
                ++errors;
            }
        }
    }
    std::printf(
        "\nbytes: the discrete device's migration counters over the timed steps "
        "(the buffer's counters agree); expected: the minimum of the per-slice model of validity "
        "(planned), 2 x the buffer (copy everything).\n"
        "time: one step, its first enqueue to the unmap's completion; the better of %d "
        "rounds.\n",
        options.rounds);
    return errors == 0 ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    if (argc == 7 && std::string_view(argv[1]) == "--child")
        return child(parse_size(argv[2]), std::atoi(argv[3]), std::atoi(argv[4]),
                     std::atoi(argv[5]), std::strtoull(argv[6], nullptr, 0));
    Options options;
    bench::Drivers drivers("migration_bench");
    for (int i = 1; i < argc; ++i) {
        const std::string_view argument = argv[i];
        const bool has_value = i + 1 < argc;
        if (has_value && drivers.take_option(argument, argv[i + 1]))
            ++i;
        else if (argument == "--size" && has_value)
            options.size = parse_size(argv[++i]);
        else if (argument == "--steps" && has_value)
            options.steps = std::atoi(argv[++i]);
        else if (argument == "--cpu-every" && has_value)
            options.cpu_every = std::atoi(argv[++i]);
        else if (argument == "--rounds" && has_value)
            options.rounds = std::atoi(argv[++i]);
        else if (argument == "--seed" && has_value)
            options.seed = std::strtoull(argv[++i], nullptr, 0);
        else if (argument == "--bandwidth" && has_value)
            options.bandwidth = argv[++i];
        else if (argument == "--latency" && has_value)
            options.latency = argv[++i];
        else {
            std::fprintf(stderr,
                         "usage: %s --usmcl <icd> [--size 64M] [--steps 64] [--cpu-every 4] "
                         "[--rounds 2] [--seed N] [--bandwidth 16GiB] [--latency 5]\n%s",
                         argv[0], bench::driver_options_usage());
            return 2;
        }
    }
    if (options.size < MiB || options.size % (slices * 4096) != 0 || options.steps < 1 ||
        options.rounds < 1 || options.size / sizeof(std::uint32_t) > 0xffffffffu) {
        std::fprintf(stderr, "migration_bench: --size must be at least 1M and a multiple of "
                             "32K; --steps and --rounds at least 1\n");
        return 2;
    }
    drivers.resolve();
    return parent(options, drivers);
}
