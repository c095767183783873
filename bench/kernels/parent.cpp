// kernel_bench: the parent process. It runs the measurements in child
// processes (bench/common/drivers.hpp), every driver going first in turn,
// and prints the comparison.
#include "kernel_bench.hpp"

#include "drivers.hpp"

#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string_view>

namespace kernel_bench {

namespace {

namespace fs = std::filesystem;

// What the children of one driver reported: every value of every key.
struct Results {
    std::string platform;
    std::map<std::string, std::vector<double>> values;
    std::vector<std::string> wrong;
    std::set<std::string> unsupported; // keys of features the driver lacks
};

// Adds one line of a child ("key value") to results, the key prefixed.
void take_line(std::string_view text, const std::string& prefix, Results& results) {
    const size_t space = text.find(' ');
    if (space == std::string_view::npos)
        return;
    const std::string key(text.substr(0, space));
    const std::string value(text.substr(space + 1));
    if (key == "platform")
        results.platform = value;
    else if (key == "wrong")
        results.wrong.push_back(value);
    else if (key == "unsupported")
        results.unsupported.insert(prefix + value);
    else
        results.values[prefix + key].push_back(std::strtod(value.c_str(), nullptr));
}

// The summary groups rows: program build, kernel throughput, launch round
// trip; info rows describe a driver's choice and have no speed-up.
enum class Group { build, kernel, launch, info };

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
    {"sg_size", "sub-group size the driver chose (256-item groups)", "work-items", true,
     Group::info, false},
    {"sg_reduce_gbs", "sub_group_reduce_add, 16M floats, a sum per sub-group", "GB/s", true,
     Group::kernel, true},
    {"sg_scan_gbs", "sub_group_scan_inclusive_add, 16M floats", "GB/s", true, Group::kernel, true},
    {"wg_reduce_int_gbs", "work_group_reduce_add, 16M ints, 256-item groups", "GB/s", true,
     Group::kernel, true},
    {"wg_scan_int_gbs", "work_group_scan_inclusive_add, 16M ints, 256-item groups", "GB/s", true,
     Group::kernel, true},
    {"wg_scan_float_gbs", "work_group_scan_inclusive_add, 16M floats, 256-item groups", "GB/s",
     true, Group::kernel, true},
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
    return value ? bench::format_value(*value) : "-";
}

// The best value, "n/a" for a feature the driver lacks, "-" for no value.
std::string format(const Results& results, const Row& row) {
    if (const std::optional<double> value = best_of(results, row))
        return bench::format_value(*value);
    return results.unsupported.count(row.key) ? "n/a" : "-";
}

// Part 1b: the programs built from both forms.
constexpr const char* form_programs[] = {"vector_add", "compute"};
constexpr const char* form_names[] = {"c", "spirv"};

// The prefix of a build_forms child's keys, or with key one of its values.
std::string form_key(const char* program, const char* form, const char* cache, const char* key) {
    return std::string("form_") + program + "_" + form + "_cache_" + cache + "_" + key;
}

std::optional<double> median_of(const Results& results, const std::string& key) {
    const auto it = results.values.find(key);
    if (it == results.values.end() || it->second.empty())
        return std::nullopt;
    std::vector<double> values = it->second;
    std::sort(values.begin(), values.end());
    const size_t middle = values.size() / 2;
    return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

// The tables of part 1b, time passed and CPU time: per driver, OpenCL C,
// SPIR-V and their ratio.
void print_forms(const bench::Drivers& drivers, const std::vector<Results>& results) {
    struct Measure {
        const char* label;
        const char* cache;
        const char* key;
    };
    const Measure measures[] = {{"cold (new process, cache off)", "off", "first"},
                                {"warm (same process, cache off)", "off", "repeat"},
                                {"cached (same process, cache hit)", "on", "repeat"}};
    for (const char* clock : {"ms", "cpu_ms"}) {
        const bool cpu = std::string_view(clock) == "cpu_ms";
        std::string header = std::string("\n| build from OpenCL C and from SPIR-V, median ") +
                             (cpu ? "CPU ms (all threads)" : "ms") + " |";
        std::string rule = "|---|";
        for (const bench::Driver& driver : drivers.all()) {
            header += " " + driver.name + " C | " + driver.name + " SPIR-V | SPIR-V/C |";
            rule += "---:|---:|---:|";
        }
        std::printf("%s\n%s\n", header.c_str(), rule.c_str());
        for (const char* program : form_programs)
            for (const Measure& measure : measures) {
                const std::string key = std::string(measure.key) + "_" + clock;
                std::string line = std::string("| ") + program + ", " + measure.label + " |";
                for (const Results& result : results) {
                    const std::optional<double> c =
                        median_of(result, form_key(program, "c", measure.cache, key.c_str()));
                    const bool no_il = result.values.count(
                        form_key(program, "spirv", measure.cache, "il_unsupported"));
                    const std::optional<double> il =
                        median_of(result, form_key(program, "spirv", measure.cache, key.c_str()));
                    char ratio[32] = "-";
                    if (c && il && *c > 0)
                        std::snprintf(ratio, sizeof ratio, "%.2f", *il / *c);
                    line += " " + format(c) + " | " + (no_il ? "n/a" : format(il)) + " | " +
                            (no_il ? "n/a" : ratio) + " |";
                }
                std::printf("%s\n", line.c_str());
            }
    }
    std::printf("\nSPIR-V/C below 1: the SPIR-V build is faster. n/a: clCreateProgramWithIL "
                "failed.\n");
}

} // namespace

int parent(const Options& options, bench::Drivers& drivers) {
    const size_t count = drivers.size();
    std::vector<Results> results(count);
    bool ok = true;
    // Runs fn(driver index) for every driver, each going first in turn.
    auto alternate = [&](int round, auto&& fn) {
        for (const size_t index : drivers.order(round))
            fn(index);
    };
    auto child = [&](size_t index, const char* mode, const fs::path& cache,
                     const std::string& prefix, const std::vector<std::string>& more = {}) {
        const bench::Driver& driver = drivers.all()[index];
        std::fprintf(stderr, "kernel_bench: %s %s%s ...\n", driver.name.c_str(), prefix.c_str(),
                     mode);
        std::vector<std::string> arguments = {"--child",   mode,
                                              "--batches", std::to_string(options.sizes.batches),
                                              "--budget",  std::to_string(options.sizes.budget)};
        arguments.insert(arguments.end(), more.begin(), more.end());
        if (!drivers.run_child(driver, arguments, cache, [&](std::string_view line) {
                take_line(line, prefix, results[index]);
            })) {
            std::fprintf(stderr, "kernel_bench: the %s child (%s) failed\n", driver.name.c_str(),
                         mode);
            ok = false;
        }
    };
    const auto runs = [&](const char* part) {
        return options.only.empty() || options.only == part;
    };
    const auto start = Clock::now();
    for (int round = 0; runs("build") && round < options.build_rounds; ++round)
        alternate(round, [&](size_t index) {
            const fs::path cache = drivers.temporary_folder("kernel_bench_cache");
            child(index, "build", cache, "cold_");
            child(index, "build", cache, "cached_");
            fs::remove_all(cache);
        });
    // Part 1b: per program, both forms, each going first in turn.
    for (int round = 0; runs("forms") && round < options.build_rounds; ++round)
        alternate(round, [&](size_t index) {
            for (const char* program : form_programs)
                for (int f = 0; f < 2; ++f) {
                    const char* form = form_names[(round + f) % 2];
                    for (const char* cache_state : {"off", "on"}) {
                        const fs::path cache = drivers.temporary_folder("kernel_bench_cache");
                        child(index, "build_forms", cache, form_key(program, form, cache_state, ""),
                              {"--program", program, "--form", form, "--cache", cache_state,
                               "--form-repeats", std::to_string(options.form_repeats)});
                        fs::remove_all(cache);
                    }
                }
        });
    for (int round = 0; runs("kernels") && round < options.rounds; ++round)
        alternate(round, [&](size_t index) {
            const fs::path cache = drivers.temporary_folder("kernel_bench_cache");
            child(index, "kernels", cache, "");
            fs::remove_all(cache);
        });
    const double elapsed = seconds_since(start);

    std::printf("kernel_bench: %d build rounds, %d throughput rounds (best counts), "
                "%.0f s in all%s%s%s\n",
                options.build_rounds, options.rounds, elapsed,
                options.only.empty() ? "" : ("; only " + options.only).c_str(),
                drivers.cpus().empty() ? "" : ", CPUs ", drivers.cpus().c_str());
    for (size_t i = 0; i < count; ++i)
        std::printf("  %s: %s\n", drivers.all()[i].name.c_str(), results[i].platform.c_str());
    // The table and summaries of parts 1, 2 and 3.
    if (options.only != "forms") {
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
        struct Tally {
            int rows = 0;
            int usmcl_faster = 0;
            double log_speedup = 0; // sum of log(usmcl's speed-up)
            const Row* worst = nullptr;
            double worst_speedup = 0;
        };
        // Per peer and group.
        std::vector<std::map<Group, Tally>> tallies(count);
        for (const Row& row : rows) {
            const std::optional<double> ours = best_of(results[0], row);
            std::string line = std::string("| ") + row.label + " | " + row.unit + " |";
            for (size_t i = 0; i < count; ++i)
                line += " " + format(results[i], row) + " |";
            for (size_t peer = 1; peer < count; ++peer) {
                const std::optional<double> theirs = best_of(results[peer], row);
                std::string cell = "-";
                if (row.group != Group::info && ours && theirs && *ours > 0 && *theirs > 0) {
                    const double r = *ours / *theirs;
                    const double speedup = row.higher_is_better ? r : 1 / r;
                    // The cell is the speed-up: > 1 where usmcl is faster.
                    char text[32];
                    std::snprintf(text, sizeof text, "%s%.2fx%s", speedup >= 1 ? "" : "**", speedup,
                                  speedup >= 1 ? "" : "**");
                    cell = text;
                    if (row.in_summary) {
                        Tally& tally = tallies[peer][row.group];
                        ++tally.rows;
                        tally.usmcl_faster += speedup >= 1;
                        tally.log_speedup += std::log(speedup);
                        if (!tally.worst || speedup < tally.worst_speedup) {
                            tally.worst = &row;
                            tally.worst_speedup = speedup;
                        }
                    }
                }
                line += " " + cell + " |";
            }
            std::printf("%s\n", line.c_str());
        }
        if (count > 1)
            std::printf("\nusmcl/<peer> is usmcl's speed-up: how many times faster usmcl is (for "
                        "times, theirs / ours); below 1 in bold.\n");
        const std::pair<Group, const char*> groups[] = {
            {Group::build, "program build (+ first launch)"},
            {Group::kernel, "kernel throughput"},
            {Group::launch, "empty-kernel round trip (median)"}};
        for (size_t peer = 1; peer < count; ++peer) {
            std::printf("\nsummary against %s\n", drivers.all()[peer].name.c_str());
            for (const auto& [group, name] : groups) {
                const auto it = tallies[peer].find(group);
                if (it == tallies[peer].end())
                    continue;
                const Tally& tally = it->second;
                std::printf("  %-34s usmcl faster in %d of %d; geometric mean speed-up %.2fx; "
                            "lowest %.2fx (%s)\n",
                            name, tally.usmcl_faster, tally.rows,
                            std::exp(tally.log_speedup / tally.rows), tally.worst_speedup,
                            tally.worst->label);
            }
        }
    }
    if (runs("forms"))
        print_forms(drivers, results);
    for (size_t i = 0; i < count; ++i)
        for (const std::string& what : results[i].wrong) {
            std::printf("WRONG RESULT: %s, %s\n", drivers.all()[i].name.c_str(), what.c_str());
            ok = false;
        }
    return ok ? 0 : 1;
}

} // namespace kernel_bench
