#include "options.hpp"

#include <cstdlib>
#include <fstream>
#include <iostream>

namespace mathconf {

namespace {

void usage(const char* program) {
    std::cout
        << "usage: " << program
        << " [--list] [--platform NAME|INDEX] [--device INDEX] [--quick | --long] [--relaxed]\n"
           "       [--daz] [--samples N] [--seed N] [--vector-width W] [--known-failures FILE]\n"
           "       [FUNCTION...]\n"
           "  --list              print the sub-tests (one per function) and exit\n"
           "  --platform P        the platform whose name or vendor contains P, or index P\n"
           "                      (default: platform 0)\n"
           "  --device N          the device of the platform at index N (default 0)\n"
           "  --quick             a smaller random sample (2^14 per function and type)\n"
           "  --long              all 2^32 floats for the one-argument float functions\n"
           "  --relaxed           build with -cl-fast-relaxed-math; check finite inputs and\n"
           "                      results against the spec's relaxed (unsafe math) limits\n"
           "  --daz               build with -cl-denorms-are-zero; a denormal input may give\n"
           "                      the result of a zero input, a denormal result may be zero\n"
           "  --samples N         N random inputs per function and type (default 2^18)\n"
           "  --seed N            the seed of the random inputs\n"
           "  --vector-width W    call the vector forms (W = 2, 3, 4, 8, 16; default 1)\n"
           "  --known-failures F  results over the limit listed in F (function | type |\n"
           "                      reason) are reported but do not fail\n"
           "  FUNCTION...         the sub-tests to run (default: all)\n"
           "exit status: 0 all passed, 1 some failed, 2 usage or setup error,\n"
           "             77 the device has no online compiler\n";
}

} // namespace

int parse_options(int argc, char** argv, Options& options) {
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--list") {
            options.list = true;
        } else if (arg == "--relaxed") {
            options.relaxed = true;
        } else if (arg == "--daz") {
            options.daz = true;
        } else if (arg == "--quick") {
            options.quick = true;
        } else if (arg == "--long") {
            options.long_mode = true;
        } else if (arg == "--platform" && has_value) {
            options.platform = argv[++i];
        } else if (arg == "--known-failures" && has_value) {
            options.known_failures = argv[++i];
        } else if ((arg == "--device" || arg == "--samples" || arg == "--seed" ||
                    arg == "--vector-width") &&
                   has_value) {
            const std::string value = argv[++i];
            char* end = nullptr;
            const unsigned long number = std::strtoul(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0') {
                usage(argv[0]);
                return exit_usage;
            }
            if (arg == "--device")
                options.device_index = number;
            else if (arg == "--samples")
                options.samples = number;
            else if (arg == "--vector-width")
                options.vector_width = number;
            else
                options.seed = static_cast<unsigned>(number);
        } else if (arg == "--help" || arg == "-h") {
            usage(argv[0]);
            return 0;
        } else if (!arg.empty() && arg[0] == '-') {
            usage(argv[0]);
            return exit_usage;
        } else {
            options.selected.push_back(arg);
        }
    }
    if (options.vector_width != 1 && options.vector_width != 2 && options.vector_width != 3 &&
        options.vector_width != 4 && options.vector_width != 8 && options.vector_width != 16) {
        usage(argv[0]);
        return exit_usage;
    }
    return -1;
}

std::string kernel_build_options(const Options& options) {
    std::string build;
    if (options.relaxed)
        build = "-cl-fast-relaxed-math";
    if (options.daz)
        build += std::string(build.empty() ? "" : " ") + "-cl-denorms-are-zero";
    return build;
}

KnownFailures read_known(const std::string& path, bool& ok) {
    KnownFailures known;
    ok = true;
    if (path.empty())
        return known;
    std::ifstream in(path);
    if (!in) {
        ok = false;
        return known;
    }
    auto trim = [](std::string s) {
        const size_t b = s.find_first_not_of(" \t");
        const size_t e = s.find_last_not_of(" \t");
        return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    };
    std::string line;
    while (std::getline(in, line)) {
        line = trim(line);
        if (line.empty() || line[0] == '#')
            continue;
        const size_t p1 = line.find('|');
        const size_t p2 = p1 == std::string::npos ? p1 : line.find('|', p1 + 1);
        if (p2 == std::string::npos) {
            std::cout << path << ": malformed line (function | type | reason): " << line << "\n";
            ok = false;
            continue;
        }
        known[{trim(line.substr(0, p1)), trim(line.substr(p1 + 1, p2 - p1 - 1))}] =
            trim(line.substr(p2 + 1));
    }
    return known;
}

} // namespace mathconf
