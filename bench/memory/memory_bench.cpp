// memory_bench: buffer transfers through the ICD loader, usmcl side by side
// with its peers (PoCL, Intel's CPU runtime), and migration between two
// NUMA-domain sub-devices.
//
// Usage
//   ninja -C build-bench bench-memory             (configured with -Dbenchmarks=true)
// or directly
//   build-bench/bench/memory/memory_bench --usmcl build-bench/driver/icd
//       [--pocl /etc/OpenCL/vendors/pocl.icd] [--peer Intel=<folder>/icd] [--cpus 0]
//       [--max-size 256M] [--numa-size 64M] [--rounds 200] [--seed N]
// The driver options are bench/common's (drivers.hpp).
//
// Part 1, bandwidth. Each ICD runs in a child process of its own
// (OCL_ICD_VENDORS names only it). For sizes 4 KiB … --max-size (×4), the
// child times blocking clEnqueueReadBuffer and clEnqueueWriteBuffer between a
// buffer and page-aligned, pre-faulted host memory, and clEnqueueCopyBuffer
// between two buffers followed by clFinish; and memcpy of the same size
// between the same kind of host memory, in the same process. Every operation
// runs in 7 batches of at least 3 operations and 20 ms; the best batch gives
// the time per operation (other load on the machine only adds time). The
// children run twice, every driver first in turn, and the better
// run counts. GB/s = 1e9 bytes per second, counting one transfer's bytes once.
//
// Part 2, migration (usmcl only). A child with HWLOC_SYNTHETIC="numa:2 core:1
// pu:1" and USMCL_NUMA_DOMAINS=1 partitions the device by
// CL_DEVICE_AFFINITY_DOMAIN_NUMA into two sub-devices, each its own memory
// domain, and uses one buffer of --numa-size bytes on both queues. After the
// buffer is written on A and read whole on B (a full migration, timed), each
// round writes a random 1% of the buffer (one contiguous range) on one
// sub-device and then reads on the other:
//   "small read": 64 KiB starting inside the range just written;
//   "full read":  the whole buffer.
// Sub-devices alternate every round; a round is timed from the write's
// enqueue to the read's completion, and the median round is reported. Every
// read is checked against a host mirror (outside the timed part). The driver does not report its
// copies, so the bytes moved are computed by running the same accesses through memory::Validity,
// the planner the driver itself runs (the unit tests check that it copies exactly the stale defined
// bytes). "Copy everything" is the strategy that moves the whole buffer on every switch: its bytes
// are computed, and its time is at least a memcpy of the whole buffer, measured here. The same
// rounds also run with USMCL_NUMA_DOMAINS=0 (both sub-devices share the host domain: zero-copy) as
// the floor.
#include "memory/migration_planner.hpp"

#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "cl_check.hpp"
#include "drivers.hpp"
#include "sizes.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using usmcl::memory::Access;
using usmcl::memory::ByteRange;
using usmcl::memory::Validity;

using bench::KiB;
using bench::MiB;
using bench::parse_size;

std::string human(std::uint64_t bytes) {
    return bench::human_size(bytes);
}

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// Page-aligned host memory, touched so that no page fault is timed.
struct HostMemory {
    explicit HostMemory(size_t size) : size(size) {
        bytes = static_cast<std::byte*>(std::aligned_alloc(4096, (size + 4095) / 4096 * 4096));
        if (!bytes) {
            std::fprintf(stderr, "memory_bench: aligned_alloc of %zu bytes failed\n", size);
            std::exit(2);
        }
        std::memset(bytes, 0x11, size);
    }
    ~HostMemory() { std::free(bytes); }
    HostMemory(const HostMemory&) = delete;
    HostMemory& operator=(const HostMemory&) = delete;
    std::byte* bytes;
    size_t size;
};

std::string platform_name(cl_platform_id platform) {
    char name[256] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
    return name;
}

cl_platform_id only_platform() {
    cl_uint count = 0;
    CL_CHECK(clGetPlatformIDs(0, nullptr, &count));
    if (count != 1) {
        std::fprintf(stderr, "memory_bench: expected one platform, the loader found %u\n", count);
        std::exit(2);
    }
    cl_platform_id platform = nullptr;
    CL_CHECK(clGetPlatformIDs(1, &platform, nullptr));
    return platform;
}

cl_device_id first_device(cl_platform_id platform) {
    cl_device_id device = nullptr;
    CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
    return device;
}

// ---- part 1: bandwidth (child) -------------------------------------------------

// Seconds per operation: the best of 7 batches, each of at least 3
// operations and 20 ms (interference from other processes only adds time).
// With a reference, its batches alternate with the operation's, so that both
// see the same conditions; *reference_time gets its best.
template <typename Operation, typename Reference = std::nullptr_t>
double time_per_op(Operation&& operation, Reference reference = nullptr,
                   double* reference_time = nullptr) {
    constexpr int batches = 7;
    auto batch_size = [](auto& run) {
        run(); // warm-up: first touch, lazy allocation
        const auto probe = Clock::now();
        run();
        const double once = std::max(seconds_since(probe), 1e-9);
        return std::clamp<size_t>(static_cast<size_t>(0.02 / once), 3, 100000);
    };
    auto batch = [](auto& run, size_t count) {
        const auto start = Clock::now();
        for (size_t i = 0; i < count; ++i)
            run();
        return seconds_since(start) / static_cast<double>(count);
    };
    const size_t count = batch_size(operation);
    constexpr bool with_reference = !std::is_same_v<Reference, std::nullptr_t>;
    size_t reference_count = 0;
    if constexpr (with_reference)
        reference_count = batch_size(reference);
    double best = 1e30, reference_best = 1e30;
    for (int i = 0; i < batches; ++i) {
        if constexpr (with_reference)
            reference_best = std::min(reference_best, batch(reference, reference_count));
        best = std::min(best, batch(operation, count));
    }
    if (reference_time)
        *reference_time = reference_best;
    return best;
}

int child_bandwidth(size_t max_size) {
    const cl_platform_id platform = only_platform();
    const cl_device_id device = first_device(platform);
    cl_int status = CL_SUCCESS;
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    CL_CHECK(status);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &status);
    CL_CHECK(status);
    cl_mem a = clCreateBuffer(context, CL_MEM_READ_WRITE, max_size, nullptr, &status);
    CL_CHECK(status);
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_WRITE, max_size, nullptr, &status);
    CL_CHECK(status);
    HostMemory source(max_size), destination(max_size);
    // Both buffers written whole once: allocated and faulted in.
    CL_CHECK(
        clEnqueueWriteBuffer(queue, a, CL_TRUE, 0, max_size, source.bytes, 0, nullptr, nullptr));
    CL_CHECK(
        clEnqueueWriteBuffer(queue, b, CL_TRUE, 0, max_size, source.bytes, 0, nullptr, nullptr));
    std::printf("platform %s\n", platform_name(platform).c_str());
    for (size_t size = 4 * KiB; size <= max_size; size *= 4) {
        // memcpy between the same kind of host memory, timed in alternation
        // with each operation; its best time counts.
        auto native = [&] { std::memcpy(destination.bytes, source.bytes, size); };
        double native_times[3];
        const double read = time_per_op(
            [&] {
                CL_CHECK(clEnqueueReadBuffer(queue, a, CL_TRUE, 0, size, destination.bytes, 0,
                                             nullptr, nullptr));
            },
            native, &native_times[0]);
        const double write = time_per_op(
            [&] {
                CL_CHECK(clEnqueueWriteBuffer(queue, a, CL_TRUE, 0, size, source.bytes, 0, nullptr,
                                              nullptr));
            },
            native, &native_times[1]);
        const double copy = time_per_op(
            [&] {
                CL_CHECK(clEnqueueCopyBuffer(queue, a, b, 0, 0, size, 0, nullptr, nullptr));
                CL_CHECK(clFinish(queue));
            },
            native, &native_times[2]);
        const double copy_native = *std::min_element(native_times, native_times + 3);
        std::printf("bw %zu %.9e %.9e %.9e %.9e\n", size, copy_native, read, write, copy);
        std::fflush(stdout);
    }
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    return 0;
}

// ---- part 2: migration between two NUMA-domain sub-devices (child) ----------

struct RoundStats {
    std::vector<double> seconds;  // per round, enqueue of the write to completion of the read
    std::uint64_t planned = 0;    // bytes the planner copies in all rounds
    std::uint64_t mismatches = 0; // reads that did not see the last write
    double median() {
        std::sort(seconds.begin(), seconds.end());
        return seconds.empty() ? 0 : seconds[seconds.size() / 2];
    }
};

int child_numa(size_t size, int rounds, std::uint64_t seed, bool separate_domains) {
    const cl_platform_id platform = only_platform();
    const cl_device_id root = first_device(platform);
    const cl_device_partition_property partition[] = {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
                                                      CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0};
    cl_uint count = 0;
    cl_int status = clCreateSubDevices(root, partition, 0, nullptr, &count);
    if (status != CL_SUCCESS || count < 2) {
        std::printf("numa unavailable: clCreateSubDevices by NUMA gave %d, %u sub-devices\n",
                    status, count);
        return 0;
    }
    std::vector<cl_device_id> devices(count);
    CL_CHECK(clCreateSubDevices(root, partition, count, devices.data(), nullptr));
    devices.resize(2);
    cl_context context = clCreateContext(nullptr, 2, devices.data(), nullptr, nullptr, &status);
    CL_CHECK(status);
    cl_command_queue queues[2];
    for (int i = 0; i < 2; ++i) {
        queues[i] = clCreateCommandQueueWithProperties(context, devices[i], nullptr, &status);
        CL_CHECK(status);
    }
    cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, size, nullptr, &status);
    CL_CHECK(status);

    // The planner's view of the same accesses: sub-device i uses domain
    // i + 1 (NUMA domains) or both use the host domain 0.
    const unsigned domain_of[2] = {separate_domains ? 1u : 0u, separate_domains ? 2u : 0u};
    Validity planner(size, 3, false, 0);
    auto planned_bytes = [&](int device, ByteRange range, Access access) {
        std::uint64_t total = 0;
        for (const auto& copy : planner.plan(domain_of[device], range, access))
            total += copy.range.size();
        return total;
    };

    std::mt19937_64 rng(seed);
    HostMemory mirror(size), pool(size / 50 + 64), seen(size);
    for (size_t i = 0; i < pool.size; ++i)
        pool.bytes[i] = std::byte(rng());
    for (size_t i = 0; i < size; ++i)
        mirror.bytes[i] = std::byte(rng());

    // Start: written whole on A, read whole on B (one full migration).
    CL_CHECK(clEnqueueWriteBuffer(queues[0], buffer, CL_TRUE, 0, size, mirror.bytes, 0, nullptr,
                                  nullptr));
    (void)planned_bytes(0, {0, size}, Access::overwrite);
    auto start = Clock::now();
    CL_CHECK(
        clEnqueueReadBuffer(queues[1], buffer, CL_TRUE, 0, size, seen.bytes, 0, nullptr, nullptr));
    const double first_read = seconds_since(start);
    const std::uint64_t first_planned = planned_bytes(1, {0, size}, Access::read);
    if (std::memcmp(seen.bytes, mirror.bytes, size) != 0)
        std::printf("numa mismatch in the first full read\n");

    // Copy everything: a memcpy of the whole buffer per switch (measured).
    const double full_copy = time_per_op([&] { std::memcpy(seen.bytes, mirror.bytes, size); });

    const size_t part = std::max<size_t>(size / 100, 1);
    const size_t small = std::min<size_t>(64 * KiB, size);
    auto run_rounds = [&](bool full_read) {
        RoundStats stats;
        for (int round = 0; round < rounds; ++round) {
            const int writer = round % 2;
            const int reader = 1 - writer;
            const size_t offset = rng() % (size - part + 1) / 64 * 64;
            const std::byte* data = pool.bytes + rng() % (pool.size - part + 1);
            size_t read_begin = 0, read_size = size;
            if (!full_read) {
                read_begin = std::min(offset + rng() % part, size - small);
                read_size = small;
            }
            start = Clock::now();
            CL_CHECK(clEnqueueWriteBuffer(queues[writer], buffer, CL_TRUE, offset, part, data, 0,
                                          nullptr, nullptr));
            CL_CHECK(clEnqueueReadBuffer(queues[reader], buffer, CL_TRUE, read_begin, read_size,
                                         seen.bytes, 0, nullptr, nullptr));
            stats.seconds.push_back(seconds_since(start));
            std::memcpy(mirror.bytes + offset, data, part);
            stats.planned += planned_bytes(writer, {offset, offset + part}, Access::overwrite);
            stats.planned +=
                planned_bytes(reader, {read_begin, read_begin + read_size}, Access::read);
            if (std::memcmp(seen.bytes, mirror.bytes + read_begin, read_size) != 0)
                ++stats.mismatches;
        }
        return stats;
    };
    RoundStats small_reads = run_rounds(false);
    RoundStats full_reads = run_rounds(true);

    std::printf("numa domains %d size %zu rounds %d part %zu small %zu\n", separate_domains ? 1 : 0,
                size, rounds, part, small);
    std::printf("numa first %.9e %llu\n", first_read,
                static_cast<unsigned long long>(first_planned));
    std::printf("numa memcpy %.9e\n", full_copy);
    for (auto& [name, stats] : {std::pair{"small", &small_reads}, std::pair{"full", &full_reads}})
        std::printf("numa %s %.9e %llu %llu\n", name, stats->median(),
                    static_cast<unsigned long long>(stats->planned),
                    static_cast<unsigned long long>(stats->mismatches));
    clReleaseMemObject(buffer);
    for (cl_command_queue queue : queues)
        clReleaseCommandQueue(queue);
    clReleaseContext(context);
    for (cl_device_id device : devices)
        clReleaseDevice(device);
    return 0;
}

// ---- parent: run the children, print the tables ---------------------------

struct Options {
    size_t max_size = 256 * MiB;
    size_t numa_size = 64 * MiB;
    int rounds = 200;
    std::uint64_t seed = 12345;
};

// Runs this program as a child for the driver; returns its output.
std::string run_child(const bench::Drivers& drivers, const bench::Driver& driver,
                      const std::vector<std::string>& arguments) {
    std::string output;
    if (!drivers.run_child(driver, arguments, {}, [&](std::string_view line) {
            output.append(line);
            output.push_back('\n');
        }))
        std::fprintf(stderr, "memory_bench: child %s of %s failed\n",
                     arguments.size() > 1 ? arguments[1].c_str() : "?", driver.name.c_str());
    return output;
}

struct Bandwidth {
    std::string platform;
    // size -> {memcpy, read, write, copy} seconds per operation
    std::map<size_t, std::vector<double>> times;
};

Bandwidth parse_bandwidth(const std::string& output) {
    Bandwidth result;
    size_t at = 0;
    while (at < output.size()) {
        const size_t end = output.find('\n', at);
        const std::string line = output.substr(at, end == std::string::npos ? end : end - at);
        at = end == std::string::npos ? output.size() : end + 1;
        if (line.rfind("platform ", 0) == 0)
            result.platform = line.substr(9);
        size_t size = 0;
        double t[4];
        if (std::sscanf(line.c_str(), "bw %zu %lf %lf %lf %lf", &size, &t[0], &t[1], &t[2],
                        &t[3]) == 5)
            result.times[size] = {t[0], t[1], t[2], t[3]};
    }
    return result;
}

// Keeps the better time of two runs, entry by entry.
void merge(Bandwidth& into, const Bandwidth& other) {
    for (const auto& [size, times] : other.times) {
        auto [it, inserted] = into.times.emplace(size, times);
        if (!inserted)
            for (size_t i = 0; i < times.size() && i < it->second.size(); ++i)
                it->second[i] = std::min(it->second[i], times[i]);
    }
}

double gbps(size_t size, double seconds) {
    return seconds > 0 ? static_cast<double>(size) / seconds / 1e9 : 0;
}

// One table: per size and operation, each driver's bandwidth and its share
// of memcpy in the same process, then usmcl's ratio to each peer.
void print_bandwidth(const bench::Drivers& drivers, const std::vector<Bandwidth>& results) {
    std::printf("\nBandwidth (GB/s; %% = of memcpy of the same size in the same process)\n");
    for (size_t i = 0; i < results.size(); ++i)
        std::printf("%s: %s\n", drivers.all()[i].name.c_str(), results[i].platform.c_str());
    const char* names[] = {"read", "write", "copy"};
    std::printf("\n| size | op |");
    std::string rule = "|---:|---|";
    for (const bench::Driver& driver : drivers.all()) {
        std::printf(" %s | %s %% memcpy |", driver.name.c_str(), driver.name.c_str());
        rule += "---:|---:|";
    }
    for (size_t peer = 1; peer < results.size(); ++peer) {
        std::printf(" usmcl/%s |", drivers.all()[peer].name.c_str());
        rule += "---:|";
    }
    std::printf("\n%s\n", rule.c_str());
    for (const auto& [size, times] : results[0].times) {
        for (size_t op = 0; op < 3; ++op) {
            std::printf("| %s | %s |", human(size).c_str(), names[op]);
            std::vector<double> rates;
            for (const Bandwidth& result : results) {
                const auto it = result.times.find(size);
                if (it == result.times.end()) {
                    rates.push_back(0);
                    std::printf(" - | - |");
                    continue;
                }
                const double native = gbps(size, it->second[0]);
                const double rate = gbps(size, it->second[op + 1]);
                rates.push_back(rate);
                std::printf(" %.2f | %.0f%% |", rate, 100 * rate / native);
            }
            for (size_t peer = 1; peer < rates.size(); ++peer) {
                if (rates[0] > 0 && rates[peer] > 0)
                    std::printf(rates[0] >= rates[peer] ? " %.2fx |" : " **%.2fx** |",
                                rates[0] / rates[peer]);
                else
                    std::printf(" - |");
            }
            std::printf("\n");
        }
    }
}

void print_numa(const std::string& numa, const std::string& shared) {
    if (numa.find("numa unavailable") != std::string::npos || numa.empty()) {
        std::printf("\nNUMA migration: %s\n", numa.empty() ? "child failed" : numa.c_str());
        return;
    }
    size_t size = 0, part = 0, small = 0;
    int rounds = 0, domains = 0;
    double first = 0, full_copy = 0;
    unsigned long long first_planned = 0;
    struct Row {
        double seconds = 0; // median round
        unsigned long long planned = 0, mismatches = 0;
    };
    auto parse = [&](const std::string& output, std::map<std::string, Row>& rows) {
        size_t at = 0;
        while (at < output.size()) {
            const size_t end = output.find('\n', at);
            const std::string line = output.substr(at, end - at);
            at = end == std::string::npos ? output.size() : end + 1;
            char name[16] = {};
            Row row;
            if (std::sscanf(line.c_str(), "numa domains %d size %zu rounds %d part %zu small %zu",
                            &domains, &size, &rounds, &part, &small) == 5)
                continue;
            if (std::sscanf(line.c_str(), "numa first %lf %llu", &first, &first_planned) == 2)
                continue;
            if (std::sscanf(line.c_str(), "numa memcpy %lf", &full_copy) == 1)
                continue;
            if (std::sscanf(line.c_str(), "numa %15s %lf %llu %llu", name, &row.seconds,
                            &row.planned, &row.mismatches) == 4)
                rows[name] = row;
        }
    };
    std::map<std::string, Row> separate, together;
    parse(shared, together);
    const double shared_first = first;
    parse(numa, separate);
    std::printf("\nNUMA migration (usmcl; HWLOC_SYNTHETIC=\"numa:2 core:1 pu:1\"): buffer %s, "
                "%d rounds alternating between the two sub-devices, each writing %s (1%%)\n",
                human(size).c_str(), rounds, human(part).c_str());
    std::printf("first full read on the other sub-device: %.2f ms, planner copies %s "
                "(zero-copy host domain: %.2f ms)\n",
                first * 1e3, human(first_planned).c_str(), shared_first * 1e3);
    std::printf("copy everything = %s per switch; its cost is at least one memcpy of the whole "
                "buffer: %.2f ms (measured)\n\n",
                human(size).c_str(), full_copy * 1e3);
    std::printf(
        "| reads | usmcl ms/round (median) | planner bytes/round | copy-everything bytes/round | "
        "bytes vs copy-everything | copy-everything ms/round (>=) | zero-copy ms/round "
        "| wrong reads |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const char* name : {"small", "full"}) {
        const Row& row = separate[name];
        const Row& floor = together[name];
        const double per_round = static_cast<double>(row.planned) / rounds;
        std::printf("| %s | %.3f | %.0f | %zu | %.2f%% | %.3f | %.3f | %llu |\n",
                    std::string_view(name) == "small" ? "64 KiB inside the write" : "whole buffer",
                    row.seconds * 1e3, per_round, size, 100 * per_round / static_cast<double>(size),
                    (row.seconds + full_copy) * 1e3, floor.seconds * 1e3,
                    row.mismatches + floor.mismatches);
    }
    std::printf("\nplanner bytes: the copies memory::Validity plans for the same accesses "
                "(the driver logs no copy sizes).\n"
                "copy-everything ms/round: usmcl's round plus one whole-buffer memcpy.\n");
}

int parent(const Options& options, bench::Drivers& drivers) {
    const std::string max_size = std::to_string(options.max_size);
    std::vector<Bandwidth> results(drivers.size());
    for (int round = 0; round < 2; ++round)
        for (const size_t index : drivers.order(round)) {
            const bench::Driver& driver = drivers.all()[index];
            std::fprintf(stderr, "memory_bench: bandwidth through %s ...\n", driver.name.c_str());
            const Bandwidth measured =
                parse_bandwidth(run_child(drivers, driver, {"--child", "bandwidth", max_size}));
            if (round == 0)
                results[index] = measured;
            else
                merge(results[index], measured);
        }
    print_bandwidth(drivers, results);
    std::fflush(stdout);

    std::fprintf(stderr, "memory_bench: NUMA migration through usmcl ...\n");
    const std::vector<std::string> numa_arguments = {
        "--child", "numa", std::to_string(options.numa_size), std::to_string(options.rounds),
        std::to_string(options.seed)};
    auto numa_driver = [&](const char* domains) {
        bench::Driver driver = drivers.usmcl();
        driver.environment.push_back("HWLOC_SYNTHETIC=numa:2 core:1 pu:1");
        driver.environment.push_back(std::string("USMCL_NUMA_DOMAINS=") + domains);
        return driver;
    };
    const std::string numa = run_child(drivers, numa_driver("1"), numa_arguments);
    std::vector<std::string> shared_arguments = numa_arguments;
    shared_arguments.push_back("shared");
    const std::string shared = run_child(drivers, numa_driver("0"), shared_arguments);
    print_numa(numa, shared);
    return 0;
}

} // namespace

int main(int argc, char** argv) {
    if (argc >= 3 && std::string_view(argv[1]) == "--child") {
        const std::string_view mode = argv[2];
        if (mode == "bandwidth" && argc == 4)
            return child_bandwidth(parse_size(argv[3]));
        if (mode == "numa" && argc >= 6)
            return child_numa(parse_size(argv[3]), std::atoi(argv[4]),
                              std::strtoull(argv[5], nullptr, 0),
                              !(argc == 7 && std::string_view(argv[6]) == "shared"));
        std::fprintf(stderr, "memory_bench: bad child arguments\n");
        return 2;
    }
    Options options;
    bench::Drivers drivers("memory_bench");
    for (int i = 1; i < argc; ++i) {
        const std::string_view argument = argv[i];
        const bool has_value = i + 1 < argc;
        if (has_value && drivers.take_option(argument, argv[i + 1]))
            ++i;
        else if (argument == "--max-size" && has_value)
            options.max_size = parse_size(argv[++i]);
        else if (argument == "--numa-size" && has_value)
            options.numa_size = parse_size(argv[++i]);
        else if (argument == "--rounds" && has_value)
            options.rounds = std::atoi(argv[++i]);
        else if (argument == "--seed" && has_value)
            options.seed = std::strtoull(argv[++i], nullptr, 0);
        else {
            std::fprintf(stderr,
                         "usage: %s <driver options> [--max-size 256M] [--numa-size 64M] "
                         "[--rounds 200] [--seed N]\n%s",
                         argv[0], bench::driver_options_usage());
            return 2;
        }
    }
    if (options.max_size < 4 * KiB || options.numa_size < 128 * KiB || options.rounds < 1) {
        std::fprintf(stderr, "memory_bench: sizes too small\n");
        return 2;
    }
    drivers.resolve();
    return parent(options, drivers);
}
