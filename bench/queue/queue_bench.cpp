// queue_bench: the cost of the command queue machinery, usmcl side by side
// with its peers (PoCL, Intel's CPU runtime) in one run.
//
// Usage
//   ninja -C build-bench bench-queue            (configured with -Dbenchmarks=true)
// or directly
//   build-bench/bench/queue/queue_bench --usmcl build-bench/driver/icd
//       [--pocl /etc/OpenCL/vendors/pocl.icd] [--peer Intel=<folder>/icd] [--cpus 0]
//       [--rounds 3] [--round-trips 20000] [--markers 100000] [--chain 10000]
// The driver options are bench/common's (drivers.hpp).
//
// What is measured
//   Each ICD runs in a child process of its own (this program, started again
//   with --child and OCL_ICD_VENDORS naming only that ICD), so the drivers
//   never share a process, their worker threads never compete, and none sees
//   another's platform. Children run one after the other, every driver first
//   in turn, for --rounds rounds so that drift in machine load affects all
//   alike. All on an in-order queue without profiling of the
//   first device, after a warm-up:
//   1. round trip: clEnqueueMarkerWithWaitList (no event) then clFinish, timed
//      one by one; median and 90th percentile (nearest rank) over all rounds.
//   2. throughput: 100k markers (no events) enqueued back to back, then one
//      clFinish; markers per second from the first enqueue to the return of
//      clFinish. Median over rounds (each round takes the best of 3).
//   3. dependency chain: 10k markers alternating between two in-order queues,
//      each waiting for the event of the previous one (which is released as
//      soon as it is in the wait list), then clFinish on both; total time.
//      Median over rounds (each round takes the best of 3).
//   4. commands with memory objects, timed one by one like the markers of 1
//      (as many as --round-trips): clEnqueueCopyBuffer of 4 KiB between two
//      buffers then clFinish, a blocking clEnqueueReadBuffer of 4 KiB, and
//      clEnqueueFillBuffer of 4 KiB (4-byte pattern) then clFinish; median
//      and 90th percentile. At 4 KiB the bytes cost little: what remains is
//      the cost of a command (validation, the event, planning, hand-off).
//   The usmcl/<peer> columns are usmcl's speed-up against each peer.

#include <CL/cl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cl_check.hpp"
#include "drivers.hpp"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

// ---- the measurements, in the child ------------------------------------------

struct Sizes {
    int round_trips = 20000;
    int markers = 100000;
    int chain = 10000;
};

struct Child {
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    cl_command_queue other = nullptr;
    std::string platform_name;
    static constexpr size_t transfer_bytes = 4096;
    cl_mem source = nullptr;
    cl_mem destination = nullptr;
    std::vector<unsigned char> host = std::vector<unsigned char>(transfer_bytes, 1);

    Child() {
        cl_platform_id platform = nullptr;
        cl_uint count = 0;
        CL_CHECK(clGetPlatformIDs(1, &platform, &count));
        if (count == 0)
            bench::exit_with_cl_error("finding a platform", CL_INVALID_PLATFORM);
        char name[256] = {};
        CL_CHECK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr));
        platform_name = name;
        cl_device_id device = nullptr;
        CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
        cl_int error = CL_SUCCESS;
        context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
        bench::check_cl(error, "clCreateContext");
        queue = clCreateCommandQueue(context, device, 0, &error);
        bench::check_cl(error, "clCreateCommandQueue");
        other = clCreateCommandQueue(context, device, 0, &error);
        bench::check_cl(error, "clCreateCommandQueue");
        source = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, transfer_bytes,
                                host.data(), &error);
        bench::check_cl(error, "clCreateBuffer");
        destination = clCreateBuffer(context, CL_MEM_READ_WRITE, transfer_bytes, nullptr, &error);
        bench::check_cl(error, "clCreateBuffer");
    }
    ~Child() {
        clReleaseMemObject(destination);
        clReleaseMemObject(source);
        clReleaseCommandQueue(other);
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;

    // Nanoseconds of each marker + clFinish round trip.
    std::vector<double> round_trips(int count) {
        std::vector<double> samples;
        samples.reserve(static_cast<size_t>(count));
        for (int i = 0; i < count; ++i) {
            const auto start = Clock::now();
            CL_CHECK(clEnqueueMarkerWithWaitList(queue, 0, nullptr, nullptr));
            CL_CHECK(clFinish(queue));
            samples.push_back(seconds_since(start) * 1e9);
        }
        return samples;
    }

    // Nanoseconds of each command of a kind (see part 4 above).
    enum class Transfer { copy, read, fill };
    std::vector<double> transfer_round_trips(Transfer kind, int count) {
        std::vector<double> samples;
        samples.reserve(static_cast<size_t>(count));
        const cl_uint pattern = 0x01020304;
        for (int i = 0; i < count; ++i) {
            const auto start = Clock::now();
            switch (kind) {
            case Transfer::copy:
                CL_CHECK(clEnqueueCopyBuffer(queue, source, destination, 0, 0, transfer_bytes, 0,
                                             nullptr, nullptr));
                CL_CHECK(clFinish(queue));
                break;
            case Transfer::read:
                CL_CHECK(clEnqueueReadBuffer(queue, source, CL_TRUE, 0, transfer_bytes, host.data(),
                                             0, nullptr, nullptr));
                break;
            case Transfer::fill:
                CL_CHECK(clEnqueueFillBuffer(queue, destination, &pattern, sizeof pattern, 0,
                                             transfer_bytes, 0, nullptr, nullptr));
                CL_CHECK(clFinish(queue));
                break;
            }
            samples.push_back(seconds_since(start) * 1e9);
        }
        return samples;
    }

    // Markers per second, enqueue to finish.
    double throughput(int count) {
        const auto start = Clock::now();
        for (int i = 0; i < count; ++i)
            CL_CHECK(clEnqueueMarkerWithWaitList(queue, 0, nullptr, nullptr));
        CL_CHECK(clFinish(queue));
        return count / seconds_since(start);
    }

    // Seconds for a chain of markers across the two queues.
    double chain(int count) {
        const auto start = Clock::now();
        cl_event previous = nullptr;
        for (int i = 0; i < count; ++i) {
            cl_event next = nullptr;
            CL_CHECK(clEnqueueMarkerWithWaitList(i % 2 ? other : queue, previous ? 1 : 0,
                                                 previous ? &previous : nullptr, &next));
            if (previous)
                CL_CHECK(clReleaseEvent(previous));
            previous = next;
        }
        CL_CHECK(clFinish(queue));
        CL_CHECK(clFinish(other));
        const double elapsed = seconds_since(start);
        CL_CHECK(clReleaseEvent(previous));
        return elapsed;
    }
};

int run_child(const Sizes& sizes) {
    Child child;
    // Warm-up: first use of every path (thread start-up, allocations).
    (void)child.round_trips(std::min(1000, sizes.round_trips));
    (void)child.throughput(std::min(10000, sizes.markers));
    (void)child.chain(std::min(1000, sizes.chain));
    const int transfers = std::min(1000, sizes.round_trips);
    (void)child.transfer_round_trips(Child::Transfer::copy, transfers);
    (void)child.transfer_round_trips(Child::Transfer::read, transfers);
    (void)child.transfer_round_trips(Child::Transfer::fill, transfers);

    std::printf("platform %s\n", child.platform_name.c_str());
    for (double sample : child.round_trips(sizes.round_trips))
        std::printf("round_trip_ns %.1f\n", sample);
    double best_throughput = 0;
    double best_chain = 1e30;
    for (int i = 0; i < 3; ++i) {
        best_throughput = std::max(best_throughput, child.throughput(sizes.markers));
        best_chain = std::min(best_chain, child.chain(sizes.chain));
    }
    const std::pair<Child::Transfer, const char*> kinds[] = {{Child::Transfer::copy, "copy_ns"},
                                                             {Child::Transfer::read, "read_ns"},
                                                             {Child::Transfer::fill, "fill_ns"}};
    for (const auto& [kind, key] : kinds)
        for (double sample : child.transfer_round_trips(kind, sizes.round_trips))
            std::printf("%s %.1f\n", key, sample);
    std::printf("throughput %.1f\n", best_throughput);
    std::printf("chain_s %.9f\n", best_chain);
    return 0;
}

// ---- the parent --------------------------------------------------------------

struct Options {
    int rounds = 3;
    Sizes sizes;
};

[[noreturn]] void usage(const char* problem) {
    if (problem)
        std::fprintf(stderr, "queue_bench: %s\n", problem);
    std::fprintf(stderr,
                 "usage: queue_bench <driver options> [--rounds N] [--round-trips N] "
                 "[--markers N] [--chain N]\n%s",
                 bench::driver_options_usage());
    std::exit(2);
}

int count_of(const char* text) {
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || value < 1 || value > 100000000)
        usage("counts are positive numbers");
    return static_cast<int>(value);
}

struct Results {
    std::string platform;
    std::vector<double> round_trips_ns;
    std::vector<double> throughputs;
    std::vector<double> chains_s;
    std::map<std::string, std::vector<double>> transfers_ns; // copy_ns, read_ns, fill_ns
};

// Runs this program as a child for the driver and adds what it reports to
// results.
bool run_round(const bench::Drivers& drivers, const bench::Driver& driver, const Sizes& sizes,
               Results& results) {
    const std::vector<std::string> arguments = {"--child",
                                                "--round-trips",
                                                std::to_string(sizes.round_trips),
                                                "--markers",
                                                std::to_string(sizes.markers),
                                                "--chain",
                                                std::to_string(sizes.chain)};
    return drivers.run_child(driver, arguments, {}, [&](std::string_view text) {
        const size_t space = text.find(' ');
        if (space == std::string_view::npos)
            return;
        const std::string key(text.substr(0, space));
        const std::string value(text.substr(space + 1));
        if (key == "platform")
            results.platform = value;
        else if (key == "round_trip_ns")
            results.round_trips_ns.push_back(std::strtod(value.c_str(), nullptr));
        else if (key == "throughput")
            results.throughputs.push_back(std::strtod(value.c_str(), nullptr));
        else if (key == "chain_s")
            results.chains_s.push_back(std::strtod(value.c_str(), nullptr));
        else if (key == "copy_ns" || key == "read_ns" || key == "fill_ns")
            results.transfers_ns[key].push_back(std::strtod(value.c_str(), nullptr));
    });
}

// Nearest-rank percentile.
double percentile(std::vector<double> values, double p) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * values.size()));
    return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

// One row: every driver's value, then usmcl's speed-up against each peer
// (> 1: usmcl is better; lower_is_better rows compare theirs / ours).
void print_row(const char* what, const std::vector<double>& values, const char* unit,
               bool lower_is_better) {
    std::printf("| %s | %s |", what, unit);
    for (const double value : values)
        std::printf(" %s |", bench::format_value(value).c_str());
    for (size_t peer = 1; peer < values.size(); ++peer) {
        const double speedup =
            lower_is_better ? values[peer] / values[0] : values[0] / values[peer];
        std::printf(speedup >= 1 ? " %.2fx |" : " **%.2fx** |", speedup);
    }
    std::printf("\n");
}

} // namespace

int main(int argc, char** argv) {
    Options options;
    bench::Drivers drivers("queue_bench");
    bool child = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--child") {
            child = true;
            continue;
        }
        if (arg == "-h" || arg == "--help")
            usage(nullptr);
        if (i + 1 >= argc)
            usage("every option but --child takes a value");
        const char* value = argv[++i];
        if (drivers.take_option(arg, value))
            continue;
        if (arg == "--rounds")
            options.rounds = count_of(value);
        else if (arg == "--round-trips")
            options.sizes.round_trips = count_of(value);
        else if (arg == "--markers")
            options.sizes.markers = count_of(value);
        else if (arg == "--chain")
            options.sizes.chain = count_of(value);
        else
            usage("unknown option");
    }
    if (child)
        return run_child(options.sizes);
    drivers.resolve();

    const size_t count = drivers.size();
    std::vector<Results> results(count);
    bool ok = true;
    for (int round = 0; round < options.rounds && ok; ++round) {
        for (const size_t index : drivers.order(round)) {
            ok = run_round(drivers, drivers.all()[index], options.sizes, results[index]);
            if (!ok) {
                std::fprintf(stderr, "queue_bench: the %s child failed\n",
                             drivers.all()[index].name.c_str());
                break;
            }
        }
    }
    if (!ok)
        return 1;

    auto median = [](const std::vector<double>& values) { return percentile(values, 50); };
    // Every driver's value of fn(results).
    auto each = [&](auto&& fn) {
        std::vector<double> values;
        for (Results& result : results)
            values.push_back(fn(result));
        return values;
    };
    std::printf("queue_bench: %d rounds; %d round trips, %d markers, a chain of %d events%s%s\n",
                options.rounds, options.sizes.round_trips, options.sizes.markers,
                options.sizes.chain, drivers.cpus().empty() ? "" : "; CPUs ",
                drivers.cpus().c_str());
    for (size_t i = 0; i < count; ++i)
        std::printf("  %s: %s\n", drivers.all()[i].name.c_str(), results[i].platform.c_str());
    std::string header = "\n| measurement | unit |";
    std::string rule = "|---|---|";
    for (const bench::Driver& driver : drivers.all()) {
        header += " " + driver.name + " |";
        rule += "---:|";
    }
    for (size_t peer = 1; peer < count; ++peer) {
        header += " usmcl/" + drivers.all()[peer].name + " |";
        rule += "---:|";
    }
    std::printf("%s\n%s\n", header.c_str(), rule.c_str());
    print_row("marker+clFinish round trip, median",
              each([&](Results& r) { return median(r.round_trips_ns) / 1e3; }), "us", true);
    print_row("marker+clFinish round trip, p90",
              each([&](Results& r) { return percentile(r.round_trips_ns, 90) / 1e3; }), "us", true);
    print_row("100k markers then clFinish",
              each([&](Results& r) { return median(r.throughputs) / 1e6; }), "M markers/s", false);
    print_row("10k-event chain across 2 queues",
              each([&](Results& r) { return median(r.chains_s) * 1e3; }), "ms", true);
    const std::pair<const char*, const char*> transfer_rows[] = {
        {"copy_ns", "4 KiB copy+clFinish"},
        {"read_ns", "4 KiB blocking read"},
        {"fill_ns", "4 KiB fill+clFinish"}};
    for (const auto& [key, what] : transfer_rows) {
        print_row((std::string(what) + ", median").c_str(),
                  each([&](Results& r) { return median(r.transfers_ns[key]) / 1e3; }), "us", true);
        print_row((std::string(what) + ", p90").c_str(),
                  each([&](Results& r) { return percentile(r.transfers_ns[key], 90) / 1e3; }), "us",
                  true);
    }
    if (count > 1)
        std::printf("\nusmcl/<peer> is usmcl's speed-up (for times: theirs / ours); below 1 in "
                    "bold.\n");
    return 0;
}
