// The OpenCL drivers a benchmark compares, and the child processes that
// measure each of them.
//
// Every OpenCL benchmark measures usmcl and its peers (PoCL, Intel's CPU
// runtime, any other ICD) in child processes: the benchmark program started
// again with OCL_ICD_VENDORS naming one driver's ICD only, so the drivers
// never share a process and their worker threads never compete. The options
// every benchmark takes:
//
//   --usmcl <icd dir or .icd>      required
//   --peer <name>=<icd dir or .icd>   any number of times; a folder may hold a
//                                  file peer.env of KEY=VALUE lines added to
//                                  that driver's environment (e.g. the
//                                  LD_LIBRARY_PATH Intel's runtime needs:
//                                  bench/peers/intel_cpu_runtime.sh writes one)
//   --pocl <icd dir or .icd>|none  the same as --peer PoCL=..., kept for the
//                                  run targets
//   --cpus <list>                  children run under sched_setaffinity to
//                                  these CPUs (e.g. 0 or 0-1): the scaling runs
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace bench {

struct Driver {
    std::string name;                     // "usmcl", "PoCL", "Intel"
    std::string vendors_dir;              // a folder for OCL_ICD_VENDORS holding its ICD only
    std::vector<std::string> environment; // KEY=VALUE lines added for its children
};

class Drivers {
public:
    explicit Drivers(std::string program_name);
    ~Drivers();
    Drivers(const Drivers&) = delete;
    Drivers& operator=(const Drivers&) = delete;

    // Takes one of the options above; false if the option is not one of them.
    bool take_option(std::string_view option, const char* value);
    // Resolves the ICDs named by the options (exits with 2 on a missing one or
    // without --usmcl). usmcl is first, the peers follow in option order.
    void resolve();

    const std::vector<Driver>& all() const { return drivers_; }
    const Driver& usmcl() const { return drivers_.front(); }
    size_t size() const { return drivers_.size(); }
    // The order of the drivers in a round: each one goes first in turn
    // (ABBA-like for two), so drift in the machine's load affects all alike.
    std::vector<size_t> order(int round) const;
    // The CPU list of --cpus, empty when not given.
    const std::string& cpus() const { return cpus_; }

    // A fresh temporary folder, removed with this object unless removed before.
    std::filesystem::path temporary_folder(const char* name);

    // Runs this program as a child with OCL_ICD_VENDORS naming the driver's
    // ICD, the driver's environment, and cache_dir (if not empty) as
    // USMCL_CACHE_DIR and POCL_CACHE_DIR; every line the child prints is passed
    // to on_line. True if the child exited with 0.
    bool run_child(const Driver& driver, const std::vector<std::string>& arguments,
                   const std::filesystem::path& cache_dir,
                   const std::function<void(std::string_view line)>& on_line) const;

    // The environment of a child measuring the driver: this process's, with
    // OCL_ICD_VENDORS naming the driver's ICD, its peer.env lines, and
    // cache_dir (if not empty) as USMCL_CACHE_DIR and POCL_CACHE_DIR.
    std::vector<std::string> environment_of(const Driver& driver,
                                            const std::filesystem::path& cache_dir = {}) const;
    // In a forked child before exec: restricts it to the CPUs of --cpus (if
    // given). False if that failed.
    bool restrict_to_cpus() const;

    const std::string& program_name() const { return program_name_; }

private:
    std::string vendors_dir_for(const std::string& path);

    std::string program_name_;
    std::vector<std::pair<std::string, std::string>> requested_; // name, path
    std::string cpus_;
    std::vector<Driver> drivers_;
    std::vector<std::filesystem::path> temporary_;
};

// The usage lines of the options above, for a benchmark's usage message.
const char* driver_options_usage();

// A number with three or four significant digits ("-" for none).
std::string format_value(double value);

} // namespace bench
