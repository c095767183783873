// math_conformance's command line and known-failures file.
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mathconf {

constexpr int exit_failed = 1;
constexpr int exit_usage = 2;
constexpr int exit_unsupported = 77;

struct Options {
    std::string platform;
    size_t device_index = 0;
    bool list = false;
    bool quick = false;
    bool long_mode = false;
    bool relaxed = false; // -cl-fast-relaxed-math and the relaxed limits
    bool daz = false;     // -cl-denorms-are-zero: denormal inputs may be read as zero
    size_t vector_width = 1;
    size_t samples = 0; // random inputs per function and type (0: the mode's default)
    unsigned seed = 12345;
    std::string known_failures;
    std::vector<std::string> selected;
};

// Reads argv into options. -1 to go on; otherwise the exit status (0 after
// --help, exit_usage after printing the usage for a bad command line).
int parse_options(int argc, char** argv, Options& options);

// The build options of the kernels for these options.
std::string kernel_build_options(const Options& options);

// (function, type) -> reason, from a file of "function | type | reason"
// lines (# comments); an empty path is an empty list. ok is false when the
// file cannot be read or has a malformed line (reported on stdout).
using KnownFailures = std::map<std::pair<std::string, std::string>, std::string>;
KnownFailures read_known(const std::string& path, bool& ok);

} // namespace mathconf
