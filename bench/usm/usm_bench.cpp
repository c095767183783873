// usm_bench: cl_intel_unified_shared_memory in usmcl, against the C library
// in the same process and against PoCL (which has no USM) through the ICD
// loader.
//
// Usage
//   ninja -C build-bench bench-usm               (configured with -Dbenchmarks=true)
// or directly
//   build-bench/bench/usm/usm_bench --usmcl build-bench/driver/icd
//       [--pocl /etc/OpenCL/vendors/pocl.icd | --pocl none] [--cpus 0]
//       [--max-size 256M] [--seed N]
// --usmcl, --pocl and --cpus are bench/common's driver options (drivers.hpp);
// a --pocl that does not exist leaves PoCL out.
//   build-bench/bench/usm/usm_bench --child registry <seed>
// runs part 2's lookups on a memory::UsmRegistry alone, without an ICD
// (ranges from aligned_alloc and a memory::DevicePool), and prints
// "registry <live> <seconds per find> <CPU seconds per find>".
//
// Every OpenCL measurement runs in a child process of its own with
// OCL_ICD_VENDORS naming one ICD; the USM functions are looked up with
// clGetExtensionFunctionAddressForPlatform. Every timed operation runs in 7
// batches of at least 3 operations and 20 ms; the best batch gives the time
// per operation (other load on the machine only adds time). A reference
// (malloc+free, memset, memcpy) is timed in batches alternating with the
// operation's, in the same process.
//
// Part 1, allocation + free latency, for 64 B, 4 KiB, 64 KiB, 1 MiB and
//   16 MiB: clHostMemAllocINTEL, clDeviceMemAllocINTEL and
//   clSharedMemAllocINTEL each followed by clMemFreeINTEL (memory not
//   touched), against malloc+free of the same size, clCreateBuffer +
//   clReleaseMemObject on usmcl, and clCreateBuffer + clReleaseMemObject on
//   PoCL. The children run in the order usmcl, PoCL, PoCL, usmcl; the better
//   run counts.
// Part 2, clGetMemAllocInfoINTEL(CL_MEM_ALLOC_BASE_PTR_INTEL) on precomputed
//   random interior pointers with 1k and with 100k live allocations (host,
//   device and shared in turn, 64 B … 4 KiB), and the same lookups straight
//   on a memory::UsmRegistry (the driver's structure, linked here). The
//   child runs twice; the better run counts.
//   Goal: ≤ 100 ns per lookup at 100k.
// Part 3, bandwidth for 4 KiB … --max-size (×4): clEnqueueMemFillINTEL +
//   clFinish and blocking clEnqueueMemcpyINTEL on pre-faulted device and
//   shared allocations, against memset / memcpy of the same size on
//   pre-faulted host memory, each the best of 31 batches of at least 2 ms
//   (3 operations), batches of both alternating. Every result is checked
//   once per size outside the timing. Fills with patterns of 1, 4, 16 and
//   128 bytes. GB/s = 1e9 bytes per second. Goal: ≥ 90% of native. The
//   child runs twice (before and after part 4's); the better time of each
//   entry counts.
// Part 4, memory (memory::UsmRegistry and memory::DevicePool linked from
//   the driver's static memory library): bookkeeping bytes per live
//   allocation after 100k inserts / 100k pool allocations of 64 B (goal:
//   registry + pool ≤ 64 bytes per device allocation); a pool as large as
//   the machine's memory: address space reserved and resident growth (from
//   /proc/self/statm) on creation, after touching 1 GiB in 16 MiB
//   allocations and after freeing them; the same through the ICD.
//
// The program exits non-zero only on errors (a failing OpenCL call, wrong
// data, a child that fails); goals missed are reported, not errors.
#include "usm_bench.hpp"

#include "drivers.hpp"

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace usm_bench {

void fail(const char* what) {
    std::fprintf(stderr, "usm_bench: %s failed\n", what);
    std::exit(3);
}

namespace {

// The default --pocl: used when present.
constexpr const char* default_pocl = "/etc/OpenCL/vendors/pocl.icd";

struct Options {
    size_t max_size = 256 * MiB;
    unsigned long long seed = 12345;
};

bool children_failed = false;

// Runs this program as a child for the driver; returns its output, one vector
// of words per line.
std::vector<std::vector<std::string>> run_child(const bench::Drivers& drivers,
                                                const bench::Driver& driver,
                                                const std::vector<std::string>& arguments) {
    std::vector<std::vector<std::string>> lines;
    const bool exited_ok = drivers.run_child(driver, arguments, {}, [&](std::string_view line) {
        std::istringstream words{std::string(line)};
        std::vector<std::string> split;
        for (std::string word; words >> word;)
            split.push_back(word);
        if (!split.empty())
            lines.push_back(std::move(split));
        if (line.starts_with("platform "))
            lines.back() = {"platform", std::string(line.substr(9))};
    });
    if (!exited_ok) {
        std::fprintf(stderr, "usm_bench: child %s of %s failed\n",
                     arguments.size() > 1 ? arguments[1].c_str() : "?", driver.name.c_str());
        children_failed = true;
    }
    return lines;
}

// Keeps the smaller value, key by key.
template <typename Key>
void keep_best(std::map<Key, double>& into, const std::type_identity_t<Key>& key, double value) {
    auto [it, inserted] = into.emplace(key, value);
    if (!inserted)
        it->second = std::min(it->second, value);
}

double ns(double seconds) {
    return seconds * 1e9;
}

double gbps(size_t size, double seconds) {
    return seconds > 0 ? static_cast<double>(size) / seconds / 1e9 : 0;
}

std::string format_ns(const std::map<std::pair<std::string, size_t>, double>& times,
                      const std::string& name, size_t size) {
    const auto it = times.find({name, size});
    if (it == times.end())
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, ns(it->second) < 100 ? "%.1f" : "%.0f", ns(it->second));
    return text;
}

const char* verdict(bool pass) {
    return pass ? "PASS" : "FAIL";
}

// ---- part 1 ------------------------------------------------------------------

struct AllocRun {
    std::string platform;
    bool usm = false;
    std::map<std::pair<std::string, size_t>, double> seconds; // {operation, size}
};

void parse_alloc(const std::vector<std::vector<std::string>>& lines, AllocRun& run) {
    for (const auto& words : lines) {
        if (words[0] == "platform" && words.size() == 2)
            run.platform = words[1];
        else if (words[0] == "usm" && words.size() == 2)
            run.usm = words[1] == "1";
        else if (words[0] == "alloc" && words.size() == 4)
            keep_best(run.seconds, std::pair{words[1], std::stoull(words[2])}, std::stod(words[3]));
    }
}

double ratio(const std::map<std::pair<std::string, size_t>, double>& a, const std::string& an,
             const std::map<std::pair<std::string, size_t>, double>& b, const std::string& bn,
             size_t size) {
    const auto x = a.find({an, size});
    const auto y = b.find({bn, size});
    if (x == a.end() || y == b.end() || y->second <= 0)
        return NAN;
    return x->second / y->second;
}

std::string format_ratio(double value) {
    if (std::isnan(value))
        return "-";
    char text[32];
    std::snprintf(text, sizeof text, value < 10 ? "%.2f" : "%.0f", value);
    return text;
}

void print_alloc(const AllocRun& ours, const AllocRun* pocl) {
    std::printf("\n## Part 1: allocation + free latency (ns per pair; memory not touched; an ICD "
                "may defer a buffer's memory to its first use)\n\n");
    std::printf("usmcl: %s\n", ours.platform.c_str());
    if (pocl)
        std::printf("PoCL:  %s (cl_intel_unified_shared_memory: %s)\n", pocl->platform.c_str(),
                    pocl->usm ? "yes" : "no");
    static const AllocRun none;
    const AllocRun& theirs = pocl ? *pocl : none;
    std::printf("\n| size | malloc+free | host USM | device USM | shared USM | clCreateBuffer | "
                "PoCL clCreateBuffer | malloc+free (PoCL proc) |\n"
                "|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const size_t size : alloc_sizes)
        std::printf("| %s | %s | %s | %s | %s | %s | %s | %s |\n", human(size).c_str(),
                    format_ns(ours.seconds, "malloc", size).c_str(),
                    format_ns(ours.seconds, "host", size).c_str(),
                    format_ns(ours.seconds, "device", size).c_str(),
                    format_ns(ours.seconds, "shared", size).c_str(),
                    format_ns(ours.seconds, "buffer", size).c_str(),
                    format_ns(theirs.seconds, "buffer", size).c_str(),
                    format_ns(theirs.seconds, "malloc", size).c_str());
    std::printf(
        "\nRatios (x malloc = times as long as malloc+free in the usmcl process; "
        "PoCL buffer / x = times as long as x takes)\n\n"
        "| size | host x malloc | device x malloc | shared x malloc | usmcl buffer x malloc "
        "| PoCL buffer / host | PoCL buffer / device | PoCL buffer / shared "
        "| PoCL buffer / usmcl buffer |\n|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for (const size_t size : alloc_sizes) {
        std::printf("| %s |", human(size).c_str());
        for (const char* name : {"host", "device", "shared", "buffer"})
            std::printf(
                " %s |",
                format_ratio(ratio(ours.seconds, name, ours.seconds, "malloc", size)).c_str());
        for (const char* name : {"host", "device", "shared", "buffer"})
            std::printf(
                " %s |",
                format_ratio(ratio(theirs.seconds, "buffer", ours.seconds, name, size)).c_str());
        std::printf("\n");
    }
}

// ---- part 2 ------------------------------------------------------------------

using LookupTimes = std::map<size_t, std::pair<double, double>>; // count -> {API, registry}

// Keeps the better of this run and the ones parsed before.
void parse_lookup(const std::vector<std::vector<std::string>>& lines, LookupTimes& times) {
    for (const auto& words : lines) {
        if (words[0] != "lookup" || words.size() != 4)
            continue;
        const std::pair run{std::stod(words[2]), std::stod(words[3])};
        auto [it, inserted] = times.emplace(std::stoull(words[1]), run);
        if (!inserted)
            it->second = {std::min(it->second.first, run.first),
                          std::min(it->second.second, run.second)};
    }
}

constexpr double lookup_goal_ns = 100;

void print_lookup(const LookupTimes& times) {
    std::printf("\n## Part 2: clGetMemAllocInfoINTEL(CL_MEM_ALLOC_BASE_PTR_INTEL), random "
                "interior pointers (usmcl)\n\n"
                "| live allocations | ns per lookup | lookups per second | "
                "memory::UsmRegistry::find alone, ns |\n|---:|---:|---:|---:|\n");
    for (const auto& [count, pair] : times)
        std::printf("| %zu | %.1f | %.3g | %.1f |\n", count, ns(pair.first), 1 / pair.first,
                    ns(pair.second));
}

// ---- part 3 ------------------------------------------------------------------

struct BandwidthRun {
    std::vector<std::string> operations; // in the child's order
    std::map<std::pair<std::string, size_t>, double> native, timed;
    std::map<std::string, double> empty; // "fill", "copy": a command of size 0
};

void parse_bandwidth(const std::vector<std::vector<std::string>>& lines, BandwidthRun& run) {
    for (const auto& words : lines) {
        if (words[0] == "bw-empty" && words.size() == 3) {
            keep_best(run.empty, "fill", std::stod(words[1]));
            keep_best(run.empty, "copy", std::stod(words[2]));
        }
        if (words[0] != "bw" || words.size() != 5)
            continue;
        const std::pair key{words[1], static_cast<size_t>(std::stoull(words[2]))};
        if (std::find(run.operations.begin(), run.operations.end(), words[1]) ==
            run.operations.end())
            run.operations.push_back(words[1]);
        keep_best(run.native, key, std::stod(words[3]));
        keep_best(run.timed, key, std::stod(words[4]));
    }
}

constexpr double bandwidth_goal = 0.90;

std::string operation_title(const std::string& name) {
    if (name == "fill-device-1")
        return "clEnqueueMemFillINTEL device, 1 B pattern (vs memset)";
    if (name == "fill-device-4")
        return "clEnqueueMemFillINTEL device, 4 B pattern (vs memset)";
    if (name == "fill-device-16")
        return "clEnqueueMemFillINTEL device, 16 B pattern (vs memset)";
    if (name == "fill-device-128")
        return "clEnqueueMemFillINTEL device, 128 B pattern (vs memset)";
    if (name == "fill-shared-1")
        return "clEnqueueMemFillINTEL shared, 1 B pattern (vs memset)";
    if (name == "copy-device-device")
        return "clEnqueueMemcpyINTEL device -> device (vs memcpy)";
    if (name == "copy-shared-shared")
        return "clEnqueueMemcpyINTEL shared -> shared (vs memcpy)";
    if (name == "copy-host-device")
        return "clEnqueueMemcpyINTEL malloc'd host -> device (vs memcpy)";
    return name;
}

void print_bandwidth(const BandwidthRun& run) {
    std::printf("\n## Part 3: fill and copy bandwidth (usmcl; GB/s; native = memset or memcpy "
                "of the same size on pre-faulted host memory, same process)\n");
    if (run.empty.size() == 2)
        std::printf("\nA command of size 0 (no bytes moved): clEnqueueMemFillINTEL + clFinish "
                    "%.2f us, blocking clEnqueueMemcpyINTEL %.2f us\n",
                    run.empty.at("fill") * 1e6, run.empty.at("copy") * 1e6);
    for (const std::string& operation : run.operations) {
        std::printf("\n%s\n\n| size | native GB/s | usmcl GB/s | %% of native | goal >= 90%% "
                    "|\n|---:|---:|---:|---:|---|\n",
                    operation_title(operation).c_str());
        for (const auto& [key, timed] : run.timed) {
            if (key.first != operation)
                continue;
            const double native = run.native.at(key);
            std::printf("| %s | %.2f | %.2f | %.0f%% | %s |\n", human(key.second).c_str(),
                        gbps(key.second, native), gbps(key.second, timed), 100 * native / timed,
                        verdict(native / timed >= bandwidth_goal));
        }
    }
}

// ---- part 4 ------------------------------------------------------------------

using MemoryValues = std::map<std::string, double>;

MemoryValues parse_memory(const std::vector<std::vector<std::string>>& lines) {
    MemoryValues values;
    for (const auto& words : lines)
        if (words[0] == "mem" && words.size() == 3)
            values[words[1]] = std::stod(words[2]);
    return values;
}

constexpr double bookkeeping_goal = 64;

double mib(double bytes) {
    return bytes / static_cast<double>(MiB);
}

void print_memory(MemoryValues& v) {
    const double n = v["count"];
    std::printf("\n## Part 4: memory\n\n");
    if (n <= 0) {
        std::printf("no results (the child failed)\n");
        return;
    }
    std::printf("Bookkeeping with %.0f live allocations of 64 B (bytes per allocation):\n\n", n);
    std::printf("| structure | total bytes | empty | per allocation |\n|---|---:|---:|---:|\n");
    std::printf("| memory::UsmRegistry (address order) | %.0f | %.0f | %.1f |\n",
                v["registry_bookkeeping"], v["registry_bookkeeping_empty"],
                v["registry_bookkeeping"] / n);
    std::printf("| memory::UsmRegistry (random order) | %.0f | - | %.1f |\n",
                v["registry_bookkeeping_random"], v["registry_bookkeeping_random"] / n);
    std::printf("| memory::DevicePool, 64 B each (%.0f free ranges) | %.0f | %.0f | %.1f |\n",
                v["pool_free_ranges"], v["pool_bookkeeping"], v["pool_bookkeeping_empty"],
                v["pool_bookkeeping"] / n);
    std::printf("| memory::DevicePool, 64 B … 64 KiB, after as many frees (%.0f free ranges) "
                "| %.0f | - | %.1f |\n",
                v["mixed_free_ranges"], v["mixed_bookkeeping"], v["mixed_bookkeeping"] / n);
    std::printf("\nDevice pool of the machine's memory (%.2f GiB): address space reserved "
                "%.2f GiB\n\n",
                v["machine"] / static_cast<double>(GiB),
                v["pool_reserved"] / static_cast<double>(GiB));
    std::printf("| resident growth (MiB) | memory::DevicePool | through the ICD (device USM) "
                "|\n|---|---:|---:|\n");
    std::printf("| after creating the pool | %.2f | %.2f |\n", mib(v["pool_rss_create"]),
                mib(v["api_rss_create"]));
    std::printf("| after touching %s in %s allocations | %.2f | %.2f |\n",
                human(touch_total).c_str(), human(touch_chunk).c_str(), mib(v["pool_rss_touched"]),
                mib(v["api_rss_touched"]));
    std::printf("| after freeing them | %.2f | %.2f |\n", mib(v["pool_rss_freed"]),
                mib(v["api_rss_freed"]));
    std::printf("| after destroying the pool | %.2f | - |\n", mib(v["pool_rss_destroyed"]));
    std::printf("\n(through the ICD: growth from a context with a queue, before its first device "
                "allocation)\n");
}

// ---- summary -----------------------------------------------------------------

void print_summary(const AllocRun& ours, const AllocRun* pocl, const LookupTimes& lookups,
                   const BandwidthRun& bandwidth, MemoryValues& memory) {
    std::printf("\n## Summary\n\n");
    std::printf("1. Allocation + free latency (no goal set). x malloc: its time / malloc+free's "
                "(same size, same process); PoCL / x: PoCL clCreateBuffer+release's time / its "
                "time\n   %-30s",
                "");
    for (const size_t size : alloc_sizes)
        std::printf(" %8s", human(size).c_str());
    std::printf("\n");
    for (const char* name : {"host", "device", "shared", "buffer"}) {
        const std::string title = std::string_view(name) == "buffer" ? "usmcl clCreateBuffer"
                                                                     : std::string(name) + " USM";
        std::printf("   %-30s", (title + " x malloc").c_str());
        for (const size_t size : alloc_sizes)
            std::printf(
                " %8s",
                format_ratio(ratio(ours.seconds, name, ours.seconds, "malloc", size)).c_str());
        std::printf("\n   %-30s", (title + " PoCL / x").c_str());
        for (const size_t size : alloc_sizes)
            std::printf(
                " %8s",
                pocl
                    ? format_ratio(ratio(pocl->seconds, "buffer", ours.seconds, name, size)).c_str()
                    : "-");
        std::printf("\n");
    }

    std::printf("2. clGetMemAllocInfoINTEL base-pointer lookup [goal: <= %.0f ns at 100k live]:",
                lookup_goal_ns);
    for (const auto& [count, pair] : lookups)
        std::printf(" %zu live: %.1f ns (%.3g/s);", count, ns(pair.first), 1 / pair.first);
    const auto at_goal = lookups.find(100000);
    if (at_goal == lookups.end())
        std::printf(" no result at 100k\n");
    else
        std::printf(" -> %s (%.2f x the goal)\n",
                    verdict(ns(at_goal->second.first) <= lookup_goal_ns),
                    ns(at_goal->second.first) / lookup_goal_ns);

    std::printf("3. Fill / copy bandwidth [goal: >= 90%% of memset / memcpy], %% of native per "
                "size:\n");
    size_t passed = 0, total = 0;
    for (const std::string& operation : bandwidth.operations) {
        std::printf("   %-19s", operation.c_str());
        std::string failed_sizes;
        for (const auto& [key, timed] : bandwidth.timed) {
            if (key.first != operation)
                continue;
            const double share = bandwidth.native.at(key) / timed;
            std::printf(" %s:%.0f%%", human(key.second).c_str(), 100 * share);
            ++total;
            if (share >= bandwidth_goal)
                ++passed;
            else
                failed_sizes += (failed_sizes.empty() ? "" : ", ") + human(key.second);
        }
        std::printf(" -> %s%s%s\n", verdict(failed_sizes.empty()),
                    failed_sizes.empty() ? "" : " below 90% at ", failed_sizes.c_str());
    }
    std::printf("   %zu of %zu (operation, size) pairs reach the goal -> %s\n", passed, total,
                verdict(total > 0 && passed == total));

    const double n = memory["count"];
    if (n > 0) {
        const double registry = memory["registry_bookkeeping"] / n;
        const double pool = memory["pool_bookkeeping"] / n;
        std::printf("4. Bookkeeping per device allocation [goal: <= %.0f bytes]: registry %.1f + "
                    "pool %.1f = %.1f bytes -> %s (%.2f x the goal)\n",
                    bookkeeping_goal, registry, pool, registry + pool,
                    verdict(registry + pool <= bookkeeping_goal),
                    (registry + pool) / bookkeeping_goal);
        const double retained = memory["pool_rss_freed"];
        const double api_retained = memory["api_rss_freed"];
        const double limit = 0.01 * static_cast<double>(touch_total);
        std::printf("   device pool: %.2f GiB address space reserved for %.2f GiB of memory; "
                    "resident growth on creation %.2f MiB (through the ICD %.2f MiB)\n",
                    memory["pool_reserved"] / static_cast<double>(GiB),
                    memory["machine"] / static_cast<double>(GiB), mib(memory["pool_rss_create"]),
                    mib(memory["api_rss_create"]));
        std::printf("   freed pages go back [<= 1%% of the %s touched still resident after the "
                    "frees]: pool %.2f MiB of %.2f MiB touched, through the ICD %.2f MiB of "
                    "%.2f MiB -> %s\n",
                    human(touch_total).c_str(), mib(retained), mib(memory["pool_rss_touched"]),
                    mib(api_retained), mib(memory["api_rss_touched"]),
                    verdict(retained <= limit && api_retained <= limit));
    } else {
        std::printf("4. Bookkeeping: no results (the child failed)\n");
    }
}

int parent(const Options& options, const bench::Drivers& drivers) {
    const bench::Driver& usmcl = drivers.usmcl();
    const bench::Driver* pocl = drivers.size() > 1 ? &drivers.all()[1] : nullptr;
    const std::string seed = std::to_string(options.seed);
    const auto start = Clock::now();

    AllocRun ours, theirs;
    auto alloc = [&](const bench::Driver& driver, AllocRun& into) {
        std::fprintf(stderr, "usm_bench: allocation latency through %s ...\n", driver.name.c_str());
        parse_alloc(run_child(drivers, driver, {"--child", "alloc"}), into);
    };
    alloc(usmcl, ours);
    if (pocl) {
        alloc(*pocl, theirs);
        alloc(*pocl, theirs);
    }
    alloc(usmcl, ours);
    print_alloc(ours, pocl ? &theirs : nullptr);
    std::fflush(stdout);

    LookupTimes lookups;
    for (int run = 0; run < 2; ++run) {
        std::fprintf(stderr, "usm_bench: lookups through usmcl ...\n");
        parse_lookup(run_child(drivers, usmcl, {"--child", "lookup", seed}), lookups);
    }
    print_lookup(lookups);
    std::fflush(stdout);

    BandwidthRun bandwidth;
    auto measure_bandwidth = [&] {
        std::fprintf(stderr, "usm_bench: bandwidth through usmcl ...\n");
        parse_bandwidth(run_child(drivers, usmcl,
                                  {"--child", "bandwidth", std::to_string(options.max_size), seed}),
                        bandwidth);
    };
    measure_bandwidth();
    std::fprintf(stderr, "usm_bench: memory ...\n");
    MemoryValues memory = parse_memory(run_child(drivers, usmcl, {"--child", "memory", seed}));
    measure_bandwidth();
    print_bandwidth(bandwidth);
    print_memory(memory);

    print_summary(ours, pocl ? &theirs : nullptr, lookups, bandwidth, memory);
    std::printf("\n(%.0f s)\n", seconds_since(start));
    if (children_failed)
        std::fprintf(stderr, "usm_bench: a child failed: results above are incomplete\n");
    return children_failed ? 1 : 0;
}

} // namespace
} // namespace usm_bench

int main(int argc, char** argv) {
    using namespace usm_bench;
    if (argc >= 3 && std::string_view(argv[1]) == "--child") {
        const std::string_view mode = argv[2];
        if (mode == "alloc" && argc == 3)
            return child_alloc();
        if (mode == "lookup" && argc == 4)
            return child_lookup(std::strtoull(argv[3], nullptr, 0));
        if (mode == "bandwidth" && argc == 5)
            return child_bandwidth(parse_size(argv[3]), std::strtoull(argv[4], nullptr, 0));
        if (mode == "memory" && argc == 4)
            return child_memory(std::strtoull(argv[3], nullptr, 0));
        if (mode == "registry" && argc == 4)
            return child_registry(std::strtoull(argv[3], nullptr, 0));
        std::fprintf(stderr, "usm_bench: bad child arguments\n");
        return 2;
    }
    Options options;
    bench::Drivers drivers("usm_bench");
    std::string pocl = default_pocl;
    for (int i = 1; i < argc; ++i) {
        const std::string_view argument = argv[i];
        const bool has_value = i + 1 < argc;
        if ((argument == "--usmcl" || argument == "--cpus") && has_value)
            drivers.take_option(argument, argv[++i]);
        else if (argument == "--pocl" && has_value)
            pocl = argv[++i];
        else if (argument == "--max-size" && has_value)
            options.max_size = parse_size(argv[++i]);
        else if (argument == "--seed" && has_value)
            options.seed = std::strtoull(argv[++i], nullptr, 0);
        else {
            std::fprintf(stderr,
                         "usage: %s --usmcl <icd dir|file> [--pocl <icd file|dir|none>] "
                         "[--cpus <list>] [--max-size 256M] [--seed N]\n",
                         argv[0]);
            return 2;
        }
    }
    if (options.max_size < 4 * KiB) {
        std::fprintf(stderr, "usm_bench: --max-size at least 4K\n");
        return 2;
    }
    if (pocl == "none" || std::filesystem::exists(pocl))
        drivers.take_option("--pocl", pocl.c_str());
    else
        std::fprintf(stderr, "usm_bench: %s not found; running without PoCL\n", pocl.c_str());
    drivers.resolve();
    return parent(options, drivers);
}
