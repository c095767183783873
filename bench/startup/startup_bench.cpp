// startup_bench: start-up cost of an OpenCL application as a user feels it,
// usmcl side by side with its peers (PoCL, Intel's CPU runtime) in the same
// run.
//
// Usage
//   ninja -C build-bench bench-startup          (configured with -Dbenchmarks=true)
// or directly
//   build-bench/bench/startup/startup_bench --usmcl build-bench/driver/icd
//       [--pocl /etc/OpenCL/vendors/pocl.icd] [--peer Intel=<folder>/icd] [--cpus 0]
//       [--probe build-bench/bench/startup/startup_probe] [--runs 30] [--warmup 2]
// The driver options are bench/common's (drivers.hpp).
//
// What is measured
//   Every run spawns a fresh startup_probe process (a small C program linked
//   against the ICD loader only) with OCL_ICD_VENDORS naming one ICD. The probe
//   calls clGetPlatformIDs -> clGetDeviceIDs -> clCreateContext and reports.
//   - Time: the forked child reads CLOCK_MONOTONIC immediately before execve
//     and writes it into the pipe; the probe reads the same clock after each
//     step. CLOCK_MONOTONIC is one clock for the whole machine, so the
//     difference is the wall time from exec to a created context: kernel exec,
//     dynamic linking of the probe and libOpenCL, the loader finding and
//     dlopen-ing the ICD with its dependencies, driver initialisation, device
//     enumeration and context creation. The fork of the benchmark process
//     itself is excluded: an application does not pay for it.
//     /proc/self/stat starttime was not used: it counts clock ticks (10 ms)
//     and marks the fork, not the exec.
//     "exec -> exit" is taken in this process when wait4 returns; it adds
//     clReleaseContext and process teardown (driver destructors, joining
//     threads), which a short-lived tool also waits for.
//   - CPU: user + system time of the whole probe process, exec to exit
//     (wait4 rusage); it shows work done by helper threads that wall time hides.
//   - Memory: VmRSS and VmHWM from /proc/self/status right after the context
//     is created, and the thread count at that point.
//   Runs alternate between the ICDs (every driver first in turn) so that
//   drift in machine load affects all alike; warm-up runs are discarded, so
//   figures are for a warm page cache. Reported: median, minimum and 90th
//   percentile (nearest rank) per ICD, and the ratios usmcl/<peer> of medians
//   and of minima.

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "drivers.hpp"

namespace {

namespace fs = std::filesystem;

using u64 = unsigned long long;

u64 now_ns() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<u64>(ts.tv_sec) * 1000000000ull + static_cast<u64>(ts.tv_nsec);
}

double ms(u64 from, u64 to) {
    return static_cast<double>(to - from) / 1e6;
}

// ---- options -----------------------------------------------------------------

struct Options {
    std::string probe;
    int runs = 30;
    int warmup = 2;
};

[[noreturn]] void usage(const char* argv0, const char* problem) {
    if (problem != nullptr) {
        std::fprintf(stderr, "startup_bench: %s\n", problem);
    }
    std::fprintf(stderr,
                 "usage: %s <driver options> [--probe <startup_probe>] [--runs N] [--warmup N]\n"
                 "%s",
                 argv0, bench::driver_options_usage());
    std::exit(2);
}

int parse_count(const char* argv0, const char* text) {
    char* end = nullptr;
    long value = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || value < 0 || value > 100000) {
        usage(argv0, "--runs and --warmup take a non-negative number");
    }
    return static_cast<int>(value);
}

// The probe sits next to this executable unless --probe says otherwise.
std::string default_probe() {
    std::error_code ec;
    fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? std::string("startup_probe") : (self.parent_path() / "startup_probe").string();
}

Options parse_options(int argc, char** argv, bench::Drivers& drivers) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help") {
            usage(argv[0], nullptr);
        }
        if (i + 1 >= argc) {
            usage(argv[0], "every option takes a value");
        }
        const char* value = argv[++i];
        if (drivers.take_option(arg, value)) {
            continue;
        }
        if (arg == "--probe") {
            options.probe = value;
        } else if (arg == "--runs") {
            options.runs = parse_count(argv[0], value);
        } else if (arg == "--warmup") {
            options.warmup = parse_count(argv[0], value);
        } else {
            usage(argv[0], "unknown option");
        }
    }
    if (options.runs < 1) {
        usage(argv[0], "--runs must be at least 1");
    }
    if (options.probe.empty()) {
        options.probe = default_probe();
    }
    return options;
}

// ---- one ICD -----------------------------------------------------------------

struct Sample {
    double exec_to_main_ms = 0;
    double platforms_ms = 0;
    double devices_ms = 0;
    double context_ms = 0;
    double exec_to_context_ms = 0;
    double exec_to_exit_ms = 0;
    double cpu_ms = 0;
    double rss_mib = 0;
    double hwm_mib = 0;
    double threads = 0;
};

struct Icd {
    explicit Icd(const bench::Driver& of) : driver(&of), label(of.name) {}

    const bench::Driver* driver;
    std::string label;
    std::string platform_name;
    std::vector<Sample> samples;
};

// ---- one run -----------------------------------------------------------------

// Async-signal-safe formatting for the forked child: "exec <ns>\n".
size_t format_exec_line(char* out, u64 value) {
    char digits[24];
    size_t n = 0;
    do {
        digits[n++] = static_cast<char>('0' + value % 10);
        value /= 10;
    } while (value != 0);
    size_t len = 0;
    for (const char* p = "exec "; *p != '\0'; ++p) {
        out[len++] = *p;
    }
    while (n > 0) {
        out[len++] = digits[--n];
    }
    out[len++] = '\n';
    return len;
}

std::optional<u64> field(std::string_view line, std::string_view key) {
    std::string pattern(1, ' ');
    pattern.append(key).push_back('=');
    size_t at = line.find(pattern);
    if (at == std::string_view::npos) {
        return std::nullopt;
    }
    return std::strtoull(line.data() + at + pattern.size(), nullptr, 10);
}

struct RunOutput {
    std::string text;
    int status = 0;
    rusage usage{};
    u64 t_exit = 0;
};

std::optional<RunOutput> spawn_probe(const bench::Drivers& drivers, const std::string& probe,
                                     const std::vector<std::string>& env) {
    std::vector<char*> envp;
    for (const auto& var : env) {
        envp.push_back(const_cast<char*>(var.c_str()));
    }
    envp.push_back(nullptr);
    char* argv[] = {const_cast<char*>(probe.c_str()), nullptr};

    int fds[2];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        std::perror("startup_bench: pipe2");
        return std::nullopt;
    }
    pid_t pid = fork();
    if (pid < 0) {
        std::perror("startup_bench: fork");
        return std::nullopt;
    }
    if (pid == 0) {
        dup2(fds[1], STDOUT_FILENO); // the copy on fd 1 survives exec
        char line[40];
        if (!drivers.restrict_to_cpus()) {
            _exit(126);
        }
        size_t len = format_exec_line(line, now_ns());
        if (write(STDOUT_FILENO, line, len) == static_cast<ssize_t>(len)) {
            execve(probe.c_str(), argv, envp.data());
        }
        _exit(127);
    }
    close(fds[1]);
    RunOutput out;
    char buffer[4096];
    for (;;) {
        ssize_t got = read(fds[0], buffer, sizeof buffer);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            break;
        }
        out.text.append(buffer, static_cast<size_t>(got));
    }
    close(fds[0]);
    while (wait4(pid, &out.status, 0, &out.usage) < 0) {
        if (errno != EINTR) {
            std::perror("startup_bench: wait4");
            return std::nullopt;
        }
    }
    out.t_exit = now_ns();
    return out;
}

double cpu_ms(const rusage& usage) {
    auto to_ms = [](const timeval& tv) {
        return static_cast<double>(tv.tv_sec) * 1e3 + static_cast<double>(tv.tv_usec) / 1e3;
    };
    return to_ms(usage.ru_utime) + to_ms(usage.ru_stime);
}

bool run_once(const bench::Drivers& drivers, const std::string& probe, Icd& icd, bool keep) {
    auto out = spawn_probe(drivers, probe, drivers.environment_of(*icd.driver));
    if (!out) {
        return false;
    }
    std::string_view text = out->text;
    size_t ok_at = text.find("\nok ");
    bool exited_ok = WIFEXITED(out->status) && WEXITSTATUS(out->status) == 0;
    if (!text.starts_with("exec ") || ok_at == std::string_view::npos || !exited_ok) {
        std::fprintf(stderr, "startup_bench: the probe failed for %s (OCL_ICD_VENDORS=%s):\n%s",
                     icd.label.c_str(), icd.driver->vendors_dir.c_str(), out->text.c_str());
        if (WIFEXITED(out->status) && WEXITSTATUS(out->status) == 127) {
            std::fprintf(stderr, "startup_bench: could not execute the probe\n");
        }
        return false;
    }
    u64 t_exec = std::strtoull(text.data() + 5, nullptr, 10);
    std::string_view line = text.substr(ok_at);
    auto t_main = field(line, "main");
    auto t_platforms = field(line, "platforms");
    auto t_devices = field(line, "devices");
    auto t_context = field(line, "context");
    auto nplatforms = field(line, "nplatforms");
    size_t name_at = line.find(" name=");
    if (!t_main || !t_platforms || !t_devices || !t_context || name_at == std::string_view::npos) {
        std::fprintf(stderr, "startup_bench: unreadable probe output: %s", out->text.c_str());
        return false;
    }
    std::string_view name = line.substr(name_at + 6);
    icd.platform_name = std::string(name.substr(0, name.find('\n')));
    if (nplatforms.value_or(0) != 1) {
        std::fprintf(stderr, "startup_bench: %s: the loader found %llu platforms, expected 1\n",
                     icd.label.c_str(), nplatforms.value_or(0));
        return false;
    }
    if (!keep) {
        return true;
    }
    Sample s;
    s.exec_to_main_ms = ms(t_exec, *t_main);
    s.platforms_ms = ms(*t_main, *t_platforms);
    s.devices_ms = ms(*t_platforms, *t_devices);
    s.context_ms = ms(*t_devices, *t_context);
    s.exec_to_context_ms = ms(t_exec, *t_context);
    s.exec_to_exit_ms = ms(t_exec, out->t_exit);
    s.cpu_ms = cpu_ms(out->usage);
    s.rss_mib = static_cast<double>(field(line, "rss_kb").value_or(0)) / 1024.0;
    s.hwm_mib = static_cast<double>(field(line, "hwm_kb").value_or(0)) / 1024.0;
    s.threads = static_cast<double>(field(line, "threads").value_or(0));
    icd.samples.push_back(s);
    return true;
}

// ---- statistics and report ---------------------------------------------------

struct Stats {
    double median = 0;
    double min = 0;
    double p90 = 0;
};

Stats stats_of(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    size_t n = values.size();
    Stats s;
    s.min = values.front();
    s.median = n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    size_t rank = static_cast<size_t>(std::ceil(0.9 * static_cast<double>(n)));
    s.p90 = values[std::max<size_t>(rank, 1) - 1];
    return s;
}

struct Metric {
    const char* name;
    const char* unit;
    int decimals;
    double Sample::*member;
};

constexpr Metric metrics[] = {
    {"exec -> main", "ms", 3, &Sample::exec_to_main_ms},
    {"clGetPlatformIDs", "ms", 3, &Sample::platforms_ms},
    {"clGetDeviceIDs", "ms", 3, &Sample::devices_ms},
    {"clCreateContext", "ms", 3, &Sample::context_ms},
    {"exec -> context", "ms", 3, &Sample::exec_to_context_ms},
    {"exec -> exit", "ms", 3, &Sample::exec_to_exit_ms},
    {"CPU user+sys", "ms", 3, &Sample::cpu_ms},
    {"VmRSS", "MiB", 2, &Sample::rss_mib},
    {"VmHWM", "MiB", 2, &Sample::hwm_mib},
    {"threads", "", 0, &Sample::threads},
};

Stats metric_stats(const Icd& icd, const Metric& metric) {
    std::vector<double> values;
    values.reserve(icd.samples.size());
    for (const auto& sample : icd.samples) {
        values.push_back(sample.*metric.member);
    }
    return stats_of(std::move(values));
}

std::string ratio(double a, double b) {
    if (b <= 0) {
        return "-";
    }
    char text[32];
    std::snprintf(text, sizeof text, "%.3f", a / b);
    return text;
}

void print_report(const std::vector<Icd>& icds, int runs, int warmup) {
    std::printf(
        "startup: %d runs per ICD after %d warm-up runs (warm page cache), %ld CPUs online\n", runs,
        warmup, sysconf(_SC_NPROCESSORS_ONLN));
    for (const Icd& icd : icds) {
        std::printf("  %s: platform \"%s\", OCL_ICD_VENDORS=%s\n", icd.label.c_str(),
                    icd.platform_name.c_str(), icd.driver->vendors_dir.c_str());
    }
    std::printf("\n| metric | unit |");
    std::string rule = "|---|---|";
    for (const Icd& icd : icds) {
        std::printf(" %s median | min | p90 |", icd.label.c_str());
        rule += "---:|---:|---:|";
    }
    for (size_t peer = 1; peer < icds.size(); ++peer) {
        std::printf(" usmcl/%s median | min |", icds[peer].label.c_str());
        rule += "---:|---:|";
    }
    std::printf("\n%s\n", rule.c_str());
    for (const auto& metric : metrics) {
        int d = metric.decimals;
        std::printf("| %s | %s |", metric.name, metric.unit);
        std::vector<Stats> stats;
        for (const Icd& icd : icds) {
            stats.push_back(metric_stats(icd, metric));
            std::printf(" %.*f | %.*f | %.*f |", d, stats.back().median, d, stats.back().min, d,
                        stats.back().p90);
        }
        for (size_t peer = 1; peer < stats.size(); ++peer) {
            std::printf(" %s | %s |", ratio(stats[0].median, stats[peer].median).c_str(),
                        ratio(stats[0].min, stats[peer].min).c_str());
        }
        std::printf("\n");
    }
    if (icds.size() > 1) {
        std::printf("\nusmcl/<peer> = usmcl's value / the peer's (below 1: usmcl starts faster or "
                    "smaller)\n");
    }
}

} // namespace

int main(int argc, char** argv) {
    bench::Drivers drivers("startup_bench");
    Options options = parse_options(argc, argv, drivers);
    if (access(options.probe.c_str(), X_OK) != 0) {
        std::fprintf(stderr, "startup_bench: probe %s is not executable\n", options.probe.c_str());
        return 1;
    }
    drivers.resolve();
    std::vector<Icd> icds;
    for (const bench::Driver& driver : drivers.all()) {
        icds.emplace_back(driver);
    }

    bool ok = true;
    // Every driver first in turn (ABBA with two).
    for (int i = 0; ok && i < options.warmup + options.runs; ++i) {
        bool keep = i >= options.warmup;
        for (const size_t which : drivers.order(i)) {
            ok = run_once(drivers, options.probe, icds[which], keep);
            if (!ok) {
                break;
            }
        }
    }
    if (ok && icds[0].platform_name != "usmcl") {
        std::fprintf(stderr, "startup_bench: warning: %s names platform \"%s\", not usmcl\n",
                     icds[0].driver->vendors_dir.c_str(), icds[0].platform_name.c_str());
    }
    if (ok) {
        print_report(icds, options.runs, options.warmup);
    }
    return ok ? 0 : 1;
}
