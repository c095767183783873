// kernel_bench: the parent process. It runs the measurements in child
// processes (this program again, with --child and OCL_ICD_VENDORS naming one
// ICD), alternating between the ICDs, and prints the comparison.
#include "kernel_bench.hpp"

#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <string_view>
#include <utility>

#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace kernel_bench {

namespace {

namespace fs = std::filesystem;

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
    {"triad_gbs", "STREAM triad, 32M floats", "GB/s", true, Group::kernel, true},
    {"triad_native_gbs", "... the same triad on host threads, in that process", "GB/s", true,
     Group::kernel, false},
    {"triad_pct_native", "... the kernel's share of the host threads' bandwidth", "%", true,
     Group::kernel, false},
    {"mm_naive_gflops", "matmul 1024^2 naive (driver's local size)", "GFLOP/s", true, Group::kernel,
     true},
    {"mm_guarded_gflops", "matmul 1024^2 naive + bounds guard, 24x8 groups", "GFLOP/s", true,
     Group::kernel, true},
    {"mm_tiled_gflops", "matmul 1024^2 tiled, 16x16 __local tiles", "GFLOP/s", true, Group::kernel,
     true},
    {"mandel_mpixels", "Mandelbrot 1024^2, up to 256 iterations", "Mpixel/s", true, Group::kernel,
     true},
    {"nbody_gpairs", "n-body step, 8192 bodies (all pairs)", "Gpair/s", true, Group::kernel, true},
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

} // namespace

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

} // namespace kernel_bench
