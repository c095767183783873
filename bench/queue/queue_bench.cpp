// queue_bench: the cost of the command queue machinery, usmcl side by side
// with PoCL in one run.
//
// Usage
//   ninja -C build-bench bench-queue            (configured with -Dbenchmarks=true)
// or directly
//   build-bench/bench/queue/queue_bench --usmcl build-bench/driver/icd
//       [--pocl /etc/OpenCL/vendors/pocl.icd | --pocl none] [--rounds 3]
//       [--round-trips 20000] [--markers 100000] [--chain 10000]
// --usmcl and --pocl take an ICD vendors folder or a single .icd file (copied
// into a private temporary folder, so the loader sees that ICD and nothing else).
//
// What is measured
//   Each ICD runs in a child process of its own (this program, started again
//   with --child and OCL_ICD_VENDORS naming only that ICD), so the two
//   drivers never share a process, their worker threads never compete, and
//   neither sees the other's platform. Children run one after the other,
//   alternating between the ICDs for --rounds rounds so that drift in machine
//   load affects both alike. All on an in-order queue without profiling of the
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
//   Ratios are usmcl/PoCL; the goal is at least 5x PoCL's throughput
//   and at most 1/5 of its round-trip latency.

#include <CL/cl.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
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

[[noreturn]] void fail(const char* what, cl_int code) {
    std::fprintf(stderr, "queue_bench: %s failed: %d\n", what, code);
    std::exit(3);
}

void check(cl_int code, const char* what) {
    if (code != CL_SUCCESS)
        fail(what, code);
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
        check(clGetPlatformIDs(1, &platform, &count), "clGetPlatformIDs");
        if (count == 0)
            fail("finding a platform", CL_INVALID_PLATFORM);
        char name[256] = {};
        check(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr),
              "clGetPlatformInfo");
        platform_name = name;
        cl_device_id device = nullptr;
        check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr), "clGetDeviceIDs");
        cl_int error = CL_SUCCESS;
        context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &error);
        check(error, "clCreateContext");
        queue = clCreateCommandQueue(context, device, 0, &error);
        check(error, "clCreateCommandQueue");
        other = clCreateCommandQueue(context, device, 0, &error);
        check(error, "clCreateCommandQueue");
        source = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, transfer_bytes,
                                host.data(), &error);
        check(error, "clCreateBuffer");
        destination = clCreateBuffer(context, CL_MEM_READ_WRITE, transfer_bytes, nullptr, &error);
        check(error, "clCreateBuffer");
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
            check(clEnqueueMarkerWithWaitList(queue, 0, nullptr, nullptr), "marker");
            check(clFinish(queue), "clFinish");
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
                check(clEnqueueCopyBuffer(queue, source, destination, 0, 0, transfer_bytes, 0,
                                          nullptr, nullptr),
                      "clEnqueueCopyBuffer");
                check(clFinish(queue), "clFinish");
                break;
            case Transfer::read:
                check(clEnqueueReadBuffer(queue, source, CL_TRUE, 0, transfer_bytes, host.data(), 0,
                                          nullptr, nullptr),
                      "clEnqueueReadBuffer");
                break;
            case Transfer::fill:
                check(clEnqueueFillBuffer(queue, destination, &pattern, sizeof pattern, 0,
                                          transfer_bytes, 0, nullptr, nullptr),
                      "clEnqueueFillBuffer");
                check(clFinish(queue), "clFinish");
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
            check(clEnqueueMarkerWithWaitList(queue, 0, nullptr, nullptr), "marker");
        check(clFinish(queue), "clFinish");
        return count / seconds_since(start);
    }

    // Seconds for a chain of markers across the two queues.
    double chain(int count) {
        const auto start = Clock::now();
        cl_event previous = nullptr;
        for (int i = 0; i < count; ++i) {
            cl_event next = nullptr;
            check(clEnqueueMarkerWithWaitList(i % 2 ? other : queue, previous ? 1 : 0,
                                              previous ? &previous : nullptr, &next),
                  "chained marker");
            if (previous)
                check(clReleaseEvent(previous), "clReleaseEvent");
            previous = next;
        }
        check(clFinish(queue), "clFinish");
        check(clFinish(other), "clFinish");
        const double elapsed = seconds_since(start);
        check(clReleaseEvent(previous), "clReleaseEvent");
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
    std::string usmcl;
    std::string pocl = "/etc/OpenCL/vendors/pocl.icd";
    int rounds = 3;
    Sizes sizes;
};

[[noreturn]] void usage(const char* problem) {
    if (problem)
        std::fprintf(stderr, "queue_bench: %s\n", problem);
    std::fprintf(stderr, "usage: queue_bench --usmcl <icd dir or .icd> [--pocl <icd dir or .icd> | "
                         "none]\n"
                         "         [--rounds N] [--round-trips N] [--markers N] [--chain N]\n");
    std::exit(2);
}

int count_of(const char* text) {
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || value < 1 || value > 100000000)
        usage("counts are positive numbers");
    return static_cast<int>(value);
}

// A folder for OCL_ICD_VENDORS that holds the given ICD only.
std::string vendors_dir_for(const std::string& path, std::vector<fs::path>& temporary) {
    if (fs::is_directory(path))
        return path;
    if (!fs::is_regular_file(path)) {
        std::fprintf(stderr, "queue_bench: no ICD at %s\n", path.c_str());
        std::exit(2);
    }
    std::string templ = (fs::temp_directory_path() / "queue_bench.XXXXXX").string();
    if (mkdtemp(templ.data()) == nullptr) {
        std::fprintf(stderr, "queue_bench: mkdtemp: %s\n", std::strerror(errno));
        std::exit(2);
    }
    fs::copy_file(path, fs::path(templ) / fs::path(path).filename());
    temporary.emplace_back(templ);
    return templ;
}

struct Results {
    std::string platform;
    std::vector<double> round_trips_ns;
    std::vector<double> throughputs;
    std::vector<double> chains_s;
    std::map<std::string, std::vector<double>> transfers_ns; // copy_ns, read_ns, fill_ns
};

// Runs this program as a child with OCL_ICD_VENDORS=vendors and adds what
// it reports to results.
bool run_round(const std::string& self, const std::string& vendors, const Sizes& sizes,
               Results& results) {
    int pipe_fds[2];
    if (pipe(pipe_fds) != 0)
        return false;
    std::vector<std::string> env_strings;
    for (char** var = environ; *var; ++var) {
        const std::string_view entry(*var);
        if (!entry.starts_with("OCL_ICD_VENDORS=") && !entry.starts_with("OCL_ICD_FILENAMES="))
            env_strings.emplace_back(entry);
    }
    env_strings.push_back("OCL_ICD_VENDORS=" + vendors);
    std::vector<char*> envp;
    for (std::string& entry : env_strings)
        envp.push_back(entry.data());
    envp.push_back(nullptr);
    std::vector<std::string> arg_strings = {self,
                                            "--child",
                                            "--round-trips",
                                            std::to_string(sizes.round_trips),
                                            "--markers",
                                            std::to_string(sizes.markers),
                                            "--chain",
                                            std::to_string(sizes.chain)};
    std::vector<char*> argv;
    for (std::string& arg : arg_strings)
        argv.push_back(arg.data());
    argv.push_back(nullptr);

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
        else if (key == "round_trip_ns")
            results.round_trips_ns.push_back(std::strtod(value.c_str(), nullptr));
        else if (key == "throughput")
            results.throughputs.push_back(std::strtod(value.c_str(), nullptr));
        else if (key == "chain_s")
            results.chains_s.push_back(std::strtod(value.c_str(), nullptr));
        else if (key == "copy_ns" || key == "read_ns" || key == "fill_ns")
            results.transfers_ns[key].push_back(std::strtod(value.c_str(), nullptr));
    }
    if (input)
        std::fclose(input);
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

// Nearest-rank percentile.
double percentile(std::vector<double> values, double p) {
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t rank = static_cast<size_t>(std::ceil(p / 100.0 * values.size()));
    return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

void print_row(const char* what, double usmcl, std::optional<double> pocl, const char* unit) {
    std::printf("  %-40s %14.2f", what, usmcl);
    if (pocl)
        std::printf(" %14.2f %12.3f", *pocl, usmcl / *pocl);
    std::printf("  %s\n", unit);
}

} // namespace

int main(int argc, char** argv) {
    Options options;
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
        if (arg == "--usmcl")
            options.usmcl = value;
        else if (arg == "--pocl")
            options.pocl = value;
        else if (arg == "--rounds")
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
    if (options.usmcl.empty())
        usage("--usmcl is required");

    const std::string self = fs::read_symlink("/proc/self/exe").string();
    std::vector<fs::path> temporary;
    const std::string usmcl_dir = vendors_dir_for(options.usmcl, temporary);
    const bool with_pocl = options.pocl != "none";
    const std::string pocl_dir = with_pocl ? vendors_dir_for(options.pocl, temporary) : "";

    Results usmcl;
    Results pocl;
    bool ok = true;
    for (int round = 0; round < options.rounds && ok; ++round) {
        // Alternate the order (ABBA) so that neither always runs first.
        const bool usmcl_first = round % 2 == 0;
        for (int turn = 0; turn < 2 && ok; ++turn) {
            const bool is_usmcl = (turn == 0) == usmcl_first;
            if (!is_usmcl && !with_pocl)
                continue;
            ok = run_round(self, is_usmcl ? usmcl_dir : pocl_dir, options.sizes,
                           is_usmcl ? usmcl : pocl);
            if (!ok)
                std::fprintf(stderr, "queue_bench: the %s child failed\n",
                             is_usmcl ? "usmcl" : "PoCL");
        }
    }
    for (const fs::path& dir : temporary)
        fs::remove_all(dir);
    if (!ok)
        return 1;

    auto median = [](const std::vector<double>& values) { return percentile(values, 50); };
    auto pocl_value = [&](double value) {
        return with_pocl ? std::optional<double>(value) : std::nullopt;
    };
    std::printf("queue_bench: %d rounds; %d round trips, %d markers, a chain of %d events\n",
                options.rounds, options.sizes.round_trips, options.sizes.markers,
                options.sizes.chain);
    std::printf("  usmcl: %s\n", usmcl.platform.c_str());
    if (with_pocl)
        std::printf("  PoCL:  %s\n", pocl.platform.c_str());
    std::printf("\n  %-40s %14s %14s %12s\n", "", "usmcl", "PoCL", "usmcl/PoCL");
    print_row("marker+clFinish round trip, median", median(usmcl.round_trips_ns) / 1e3,
              pocl_value(median(pocl.round_trips_ns) / 1e3), "us");
    print_row("marker+clFinish round trip, p90", percentile(usmcl.round_trips_ns, 90) / 1e3,
              pocl_value(percentile(pocl.round_trips_ns, 90) / 1e3), "us");
    print_row("100k markers then clFinish", median(usmcl.throughputs) / 1e6,
              pocl_value(median(pocl.throughputs) / 1e6), "M markers/s");
    print_row("10k-event chain across 2 queues", median(usmcl.chains_s) * 1e3,
              pocl_value(median(pocl.chains_s) * 1e3), "ms");
    const std::pair<const char*, const char*> transfer_rows[] = {
        {"copy_ns", "4 KiB copy+clFinish"},
        {"read_ns", "4 KiB blocking read"},
        {"fill_ns", "4 KiB fill+clFinish"}};
    for (const auto& [key, what] : transfer_rows) {
        const std::vector<double>& ours = usmcl.transfers_ns[key];
        const std::vector<double>& theirs = pocl.transfers_ns[key];
        print_row((std::string(what) + ", median").c_str(), median(ours) / 1e3,
                  pocl_value(median(theirs) / 1e3), "us");
        print_row((std::string(what) + ", p90").c_str(), percentile(ours, 90) / 1e3,
                  pocl_value(percentile(theirs, 90) / 1e3), "us");
    }
    if (with_pocl) {
        const double throughput_ratio = median(usmcl.throughputs) / median(pocl.throughputs);
        const double latency_ratio = median(usmcl.round_trips_ns) / median(pocl.round_trips_ns);
        std::printf("\n  goal: throughput >= 5x PoCL: %.1fx (%s); round trip <= 1/5 of PoCL: "
                    "%.3f (%s)\n",
                    throughput_ratio, throughput_ratio >= 5 ? "met" : "not met", latency_ratio,
                    latency_ratio <= 0.2 ? "met" : "not met");
    }
    return 0;
}
