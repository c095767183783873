// build_spirv_images: builds SPIR-V modules on one platform through the ICD
// loader, each with clCreateProgramWithIL and clBuildProgram (no options),
// then checks clCreateKernelsInProgram and that every kernel has a name.
// run_spirv_images.py gives it the images DPC++ 2025 compiled into one of
// dpctl's libraries (README.md).
//
//   build_spirv_images [--platform <index or text>] [--jobs N] <folder or .spv>...
//
// A folder stands for the .spv files in it. Builds run on N threads (default:
// the CPUs this process may use). Each failure is reported with its file,
// the error and the build log. Exit status: 0 when every module built, 1 when
// one did not or none was found, 2 on a usage error.
#include "../cl_query.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <mutex>
#include <string_view>
#include <thread>

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr int exit_failed = 1;
constexpr int exit_usage = 2;

struct Outcome {
    bool built = false;
    std::string failure; // what went wrong, with the build log
    size_t kernels = 0;
    double seconds = 0;
};

[[noreturn]] void usage(const char* problem) {
    std::fprintf(stderr,
                 "build_spirv_images: %s\nusage: build_spirv_images [--platform <index or text>] "
                 "[--jobs N] <folder or .spv>...\n",
                 problem);
    std::exit(exit_usage);
}

// sycl_spir64_12.spv before sycl_spir64_100.spv: by length, then by name.
bool natural_less(const fs::path& a, const fs::path& b) {
    const std::string x = a.string(), y = b.string();
    return x.size() != y.size() ? x.size() < y.size() : x < y;
}

std::vector<fs::path> modules_of(const std::vector<std::string>& arguments) {
    std::vector<fs::path> modules;
    for (const std::string& argument : arguments) {
        if (!fs::is_directory(argument)) {
            modules.emplace_back(argument);
            continue;
        }
        std::vector<fs::path> found;
        for (const fs::directory_entry& entry : fs::directory_iterator(argument))
            if (entry.is_regular_file() && entry.path().extension() == ".spv")
                found.push_back(entry.path());
        std::sort(found.begin(), found.end(), natural_less);
        modules.insert(modules.end(), found.begin(), found.end());
    }
    return modules;
}

std::string build_log(cl_program program, cl_device_id device) {
    size_t size = 0;
    if (clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size) !=
        CL_SUCCESS)
        return "(no build log)";
    std::string log(size, '\0');
    clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
        log.pop_back();
    return log.empty() ? "(empty build log)" : log;
}

// The kernels of a built program, each of which must have a name.
std::string check_kernels(cl_program program, size_t& count) {
    cl_uint number = 0;
    cl_int status = clCreateKernelsInProgram(program, 0, nullptr, &number);
    if (status != CL_SUCCESS)
        return "clCreateKernelsInProgram (count) failed: " + std::to_string(status);
    if (number == 0)
        return "no kernels in the program";
    std::vector<cl_kernel> kernels(number);
    status = clCreateKernelsInProgram(program, number, kernels.data(), nullptr);
    if (status != CL_SUCCESS)
        return "clCreateKernelsInProgram failed: " + std::to_string(status);
    std::string problem;
    for (cl_kernel kernel : kernels) {
        size_t size = 0;
        status = clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &size);
        if (status != CL_SUCCESS || size <= 1)
            problem =
                "a kernel without a name (CL_KERNEL_FUNCTION_NAME: " + std::to_string(status) +
                ", size " + std::to_string(size) + ")";
        clReleaseKernel(kernel);
    }
    count = number;
    return problem;
}

Outcome build_one(cl_context context, cl_device_id device, const fs::path& path) {
    Outcome outcome;
    const auto start = Clock::now();
    std::ifstream file(path, std::ios::binary);
    const std::string il((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (!file || il.empty()) {
        outcome.failure = "cannot read the file";
        return outcome;
    }
    cl_int status = CL_SUCCESS;
    cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &status);
    if (status != CL_SUCCESS) {
        outcome.failure = "clCreateProgramWithIL failed: " + std::to_string(status);
        return outcome;
    }
    status = clBuildProgram(program, 1, &device, "", nullptr, nullptr);
    if (status != CL_SUCCESS)
        outcome.failure = "clBuildProgram failed: " + std::to_string(status) + "; build log:\n" +
                          build_log(program, device);
    else
        outcome.failure = check_kernels(program, outcome.kernels);
    clReleaseProgram(program);
    outcome.built = outcome.failure.empty();
    outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    return outcome;
}

unsigned usable_cpus() {
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        return std::max(1, CPU_COUNT(&set));
    return std::max(1u, std::thread::hardware_concurrency());
}

} // namespace

int main(int argc, char** argv) {
    std::string platform_argument;
    unsigned jobs = usable_cpus();
    std::vector<std::string> inputs;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--platform" || arg == "--jobs") {
            if (i + 1 >= argc)
                usage("--platform and --jobs take a value");
            if (arg == "--platform")
                platform_argument = argv[++i];
            else
                jobs = static_cast<unsigned>(std::max(1, std::atoi(argv[++i])));
        } else if (arg.starts_with("-")) {
            usage("unknown option");
        } else {
            inputs.emplace_back(arg);
        }
    }
    if (inputs.empty())
        usage("no folder or module named");
    const std::vector<fs::path> modules = modules_of(inputs);
    if (modules.empty()) {
        std::printf("no SPIR-V modules (.spv) found: failed\n");
        return exit_failed;
    }

    cl_uint count = 0;
    clGetPlatformIDs(0, nullptr, &count);
    std::vector<cl_platform_id> platforms(count);
    if (count == 0 || clGetPlatformIDs(count, platforms.data(), nullptr) != CL_SUCCESS) {
        std::printf("no OpenCL platform\n");
        return exit_failed;
    }
    cl_platform_id platform = platforms[0];
    if (!platform_argument.empty() &&
        !(platform = conformance::named_platform(platforms, platform_argument)))
        return exit_failed;
    cl_device_id device = nullptr;
    cl_int status = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
    if (status != CL_SUCCESS) {
        std::printf("clGetDeviceIDs failed: %d\n", status);
        return exit_failed;
    }
    cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    if (status != CL_SUCCESS) {
        std::printf("clCreateContext failed: %d\n", status);
        return exit_failed;
    }
    std::printf("platform %s, device %s; %zu SPIR-V modules on %u threads\n",
                conformance::platform_string(platform, CL_PLATFORM_NAME).c_str(),
                conformance::device_string(device, CL_DEVICE_NAME).c_str(), modules.size(), jobs);
    std::fflush(stdout);

    // Each thread takes the next module; failures are printed as they come.
    std::vector<Outcome> outcomes(modules.size());
    std::atomic<size_t> next{0};
    std::mutex print_mutex;
    const auto start = Clock::now();
    auto work = [&] {
        for (size_t index; (index = next.fetch_add(1)) < modules.size();) {
            outcomes[index] = build_one(context, device, modules[index]);
            if (!outcomes[index].built) {
                std::lock_guard lock(print_mutex);
                std::printf("FAILED %s: %s\n", modules[index].string().c_str(),
                            outcomes[index].failure.c_str());
                std::fflush(stdout);
            }
        }
    };
    std::vector<std::thread> threads;
    for (unsigned t = 1; t < std::min<size_t>(jobs, modules.size()); ++t)
        threads.emplace_back(work);
    work();
    for (std::thread& thread : threads)
        thread.join();
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    clReleaseContext(context);

    size_t built = 0, kernels = 0;
    std::vector<size_t> order;
    for (size_t index = 0; index < outcomes.size(); ++index) {
        built += outcomes[index].built;
        kernels += outcomes[index].kernels;
        order.push_back(index);
    }
    std::printf("%zu of %zu modules built, %zu kernels, in %.1f s\n", built, modules.size(),
                kernels, elapsed);
    // The slowest builds, where the time goes.
    std::sort(order.begin(), order.end(),
              [&](size_t a, size_t b) { return outcomes[a].seconds > outcomes[b].seconds; });
    std::printf("slowest:");
    for (size_t i = 0; i < std::min<size_t>(5, order.size()); ++i)
        std::printf(" %s %.2f s%s", modules[order[i]].filename().c_str(),
                    outcomes[order[i]].seconds,
                    i + 1 < std::min<size_t>(5, order.size()) ? "," : "");
    std::printf("\n");
    return built == modules.size() ? 0 : exit_failed;
}
