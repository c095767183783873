// usm_conformance: a CTS-style conformance program for
// cl_intel_unified_shared_memory, run through the ICD loader against any
// platform. See README.md for the options, the sub-tests and exit codes.
#include "usm.hpp"

#include "../cl_query.hpp"

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>
#include <unistd.h>

namespace usmconf {

namespace {

int g_failures_in_test = 0;
int g_passed = 0;
int g_failed = 0;
std::mutex g_print_mutex;

constexpr int exit_failed = 1;
constexpr int exit_usage = 2;
constexpr int exit_unsupported = 77; // the automake/meson "skipped" code

} // namespace

std::vector<TestCase>& registry() {
    static std::vector<TestCase> tests;
    return tests;
}

void record_failure(const char* file, int line, const std::string& what) {
    std::lock_guard lock(g_print_mutex);
    ++g_failures_in_test;
    const char* base = std::strrchr(file, '/');
    std::cout << "    FAILED CHECK at " << (base ? base + 1 : file) << ":" << line << ": " << what
              << std::endl;
}

void note(const std::string& text) {
    std::lock_guard lock(g_print_mutex);
    std::cout << "    note: " << text << std::endl;
}

std::string error_name(cl_int code) {
    static const std::map<cl_int, const char*> names = {
#define N(x) {x, #x}
        N(CL_SUCCESS),
        N(CL_DEVICE_NOT_FOUND),
        N(CL_DEVICE_NOT_AVAILABLE),
        N(CL_COMPILER_NOT_AVAILABLE),
        N(CL_MEM_OBJECT_ALLOCATION_FAILURE),
        N(CL_OUT_OF_RESOURCES),
        N(CL_OUT_OF_HOST_MEMORY),
        N(CL_PROFILING_INFO_NOT_AVAILABLE),
        N(CL_MEM_COPY_OVERLAP),
        N(CL_BUILD_PROGRAM_FAILURE),
        N(CL_MISALIGNED_SUB_BUFFER_OFFSET),
        N(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
        N(CL_INVALID_VALUE),
        N(CL_INVALID_DEVICE_TYPE),
        N(CL_INVALID_PLATFORM),
        N(CL_INVALID_DEVICE),
        N(CL_INVALID_CONTEXT),
        N(CL_INVALID_QUEUE_PROPERTIES),
        N(CL_INVALID_COMMAND_QUEUE),
        N(CL_INVALID_HOST_PTR),
        N(CL_INVALID_MEM_OBJECT),
        N(CL_INVALID_BUFFER_SIZE),
        N(CL_INVALID_PROGRAM),
        N(CL_INVALID_PROGRAM_EXECUTABLE),
        N(CL_INVALID_KERNEL_NAME),
        N(CL_INVALID_KERNEL),
        N(CL_INVALID_ARG_INDEX),
        N(CL_INVALID_ARG_VALUE),
        N(CL_INVALID_ARG_SIZE),
        N(CL_INVALID_KERNEL_ARGS),
        N(CL_INVALID_WORK_DIMENSION),
        N(CL_INVALID_WORK_GROUP_SIZE),
        N(CL_INVALID_WORK_ITEM_SIZE),
        N(CL_INVALID_GLOBAL_OFFSET),
        N(CL_INVALID_EVENT_WAIT_LIST),
        N(CL_INVALID_EVENT),
        N(CL_INVALID_OPERATION),
        N(CL_INVALID_PROPERTY),
#undef N
    };
    const auto it = names.find(code);
    std::string text = it != names.end() ? it->second : "error";
    return text + " (" + std::to_string(code) + ")";
}

namespace {

// ------------------------------------------------------------- crashes --

// The running sub-test, for the crash report.
const char* volatile g_current = "";

// A crash (in the program or the driver) is reported as the running
// sub-test's failure, with the final line, before the process ends.
extern "C" void on_crash(int signal) {
    char text[512];
    const int length = std::snprintf(
        text, sizeof(text), "    FAILED: signal %d (crash)\n%s FAILED\n%d passed, %d failed\n",
        signal, g_current, g_passed, g_failed + 1);
    if (length > 0) [[maybe_unused]]
        const ssize_t written = write(STDOUT_FILENO, text, static_cast<size_t>(length));
    std::_Exit(exit_failed);
}

// ------------------------------------------------------------ watchdog --

class Watchdog {
public:
    explicit Watchdog(int seconds) : seconds_(seconds), thread_([this] { watch(); }) {}
    ~Watchdog() {
        {
            std::lock_guard lock(mutex_);
            stop_ = true;
        }
        changed_.notify_all();
        thread_.join();
    }
    void arm(const char* name) {
        std::lock_guard lock(mutex_);
        name_ = name;
        deadline_ = std::chrono::steady_clock::now() + std::chrono::seconds(seconds_);
        armed_ = true;
        changed_.notify_all();
    }
    void disarm() {
        std::lock_guard lock(mutex_);
        armed_ = false;
    }

private:
    void watch() {
        std::unique_lock lock(mutex_);
        while (!stop_) {
            if (!armed_) {
                changed_.wait(lock);
                continue;
            }
            if (changed_.wait_until(lock, deadline_) == std::cv_status::timeout && armed_ &&
                std::chrono::steady_clock::now() >= deadline_) {
                std::lock_guard print(g_print_mutex);
                std::cout << "    FAILED: no progress within " << seconds_
                          << " s (hang); stopping the run" << std::endl;
                std::cout << name_ << " FAILED" << std::endl;
                std::cout << g_passed << " passed, " << g_failed + 1 << " failed" << std::endl;
                std::_Exit(exit_failed);
            }
        }
    }

    int seconds_;
    std::mutex mutex_;
    std::condition_variable changed_;
    bool stop_ = false;
    bool armed_ = false;
    const char* name_ = "";
    std::chrono::steady_clock::time_point deadline_;
    std::thread thread_;
};

// --------------------------------------------------------- environment --

using conformance::device_string;
using conformance::has_word;
using conformance::platform_string;

void usage(const char* program) {
    std::cout
        << "usage: " << program
        << " [--list] [--platform NAME|INDEX] [--device INDEX] [--timeout SECONDS] [SUB-TEST...]\n"
           "  --list            print the sub-tests and exit\n"
           "  --platform P      the platform whose name or vendor contains P, or index P\n"
           "                    (default: the first platform with a device that supports\n"
           "                    cl_intel_unified_shared_memory, else platform 0)\n"
           "  --device N        the device of the platform at index N (default 0)\n"
           "  --timeout S       a sub-test that runs longer than S seconds is a hang (default "
           "120)\n"
           "  SUB-TEST...       the sub-tests to run (default: all)\n"
           "exit status: 0 all passed, 1 some failed, 2 usage or setup error,\n"
           "             77 the device does not support cl_intel_unified_shared_memory\n";
}

std::vector<cl_platform_id> platforms() {
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0)
        return {};
    std::vector<cl_platform_id> ids(count);
    clGetPlatformIDs(count, ids.data(), nullptr);
    return ids;
}

std::vector<cl_device_id> devices_of(cl_platform_id platform) {
    cl_uint count = 0;
    if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS ||
        count == 0)
        return {};
    std::vector<cl_device_id> ids(count);
    clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, ids.data(), nullptr);
    return ids;
}

} // namespace
} // namespace usmconf

int main(int argc, char** argv) {
    using namespace usmconf;
    std::string platform_arg;
    size_t device_index = 0;
    int timeout = 120;
    bool list = false;
    std::vector<std::string> selected;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--list") {
            list = true;
        } else if ((arg == "--platform" || arg == "--device" || arg == "--timeout") &&
                   i + 1 < argc) {
            const std::string value = argv[++i];
            if (arg == "--platform") {
                platform_arg = value;
            } else {
                char* end = nullptr;
                const unsigned long number = std::strtoul(value.c_str(), &end, 10);
                if (value.empty() || *end != '\0') {
                    usage(argv[0]);
                    return exit_usage;
                }
                if (arg == "--device")
                    device_index = number;
                else
                    timeout = static_cast<int>(number);
            }
        } else if (arg == "--help" || arg == "-h") {
            usage(argv[0]);
            return 0;
        } else if (!arg.empty() && arg[0] == '-') {
            usage(argv[0]);
            return exit_usage;
        } else {
            selected.push_back(arg);
        }
    }
    if (list) {
        for (const TestCase& test : registry())
            std::cout << test.name << "  " << test.description << "\n";
        return 0;
    }
    std::vector<const TestCase*> to_run;
    if (selected.empty()) {
        for (const TestCase& test : registry())
            to_run.push_back(&test);
    } else {
        for (const std::string& name : selected) {
            const TestCase* found = nullptr;
            for (const TestCase& test : registry())
                if (name == test.name)
                    found = &test;
            if (found == nullptr) {
                std::cout << "unknown sub-test '" << name << "' (see --list)\n";
                return exit_usage;
            }
            to_run.push_back(found);
        }
    }

    // The platform.
    const std::vector<cl_platform_id> all_platforms = platforms();
    if (all_platforms.empty()) {
        std::cout << "no OpenCL platform found (check OCL_ICD_VENDORS / /etc/OpenCL/vendors)\n";
        return exit_usage;
    }
    Env env;
    if (platform_arg.empty()) {
        env.platform = all_platforms[0];
        for (cl_platform_id platform : all_platforms) {
            const std::vector<cl_device_id> devices = devices_of(platform);
            if (device_index < devices.size() &&
                has_word(device_string(devices[device_index], CL_DEVICE_EXTENSIONS),
                         "cl_intel_unified_shared_memory")) {
                env.platform = platform;
                break;
            }
        }
    } else {
        env.platform = conformance::named_platform(all_platforms, platform_arg);
        if (env.platform == nullptr)
            return exit_usage;
    }
    const std::vector<cl_device_id> devices = devices_of(env.platform);
    if (device_index >= devices.size()) {
        std::cout << "device index " << device_index << " out of range (" << devices.size()
                  << " devices)\n";
        return exit_usage;
    }
    env.device = devices[device_index];
    std::cout << "Platform: " << platform_string(env.platform, CL_PLATFORM_NAME) << " ("
              << platform_string(env.platform, CL_PLATFORM_VERSION) << ")\n"
              << "Device:   " << device_string(env.device, CL_DEVICE_NAME) << " ("
              << device_string(env.device, CL_DEVICE_VERSION) << ")\n";

    const std::string extensions = device_string(env.device, CL_DEVICE_EXTENSIONS);
    if (!has_word(extensions, "cl_intel_unified_shared_memory")) {
        std::cout << "The device does not support cl_intel_unified_shared_memory: every sub-test "
                     "is skipped.\n";
        for (const TestCase* test : to_run)
            std::cout << test->name << " SKIPPED" << std::endl;
        std::cout << to_run.size() << " skipped\n";
        std::cout << "0 passed, 0 failed" << std::endl;
        return exit_unsupported;
    }

    // The largest data type: long16 (128 bytes), or float16 (64 bytes) on an
    // embedded profile device without 64-bit integers.
    if (device_string(env.device, CL_DEVICE_PROFILE) == "EMBEDDED_PROFILE" &&
        !has_word(extensions, "cles_khr_int64"))
        env.largest_type = 64;
    clGetDeviceInfo(env.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof(env.max_alloc_size),
                    &env.max_alloc_size, nullptr);
    clGetDeviceInfo(env.device, CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL, sizeof(env.host_caps),
                    &env.host_caps, nullptr);
    clGetDeviceInfo(env.device, CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL, sizeof(env.device_caps),
                    &env.device_caps, nullptr);
    clGetDeviceInfo(env.device, CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
                    sizeof(env.single_shared_caps), &env.single_shared_caps, nullptr);
    clGetDeviceInfo(env.device, CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
                    sizeof(env.cross_shared_caps), &env.cross_shared_caps, nullptr);
    clGetDeviceInfo(env.device, CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL,
                    sizeof(env.system_caps), &env.system_caps, nullptr);
    std::cout << "USM capabilities: host 0x" << std::hex << env.host_caps << ", device 0x"
              << env.device_caps << ", single-device shared 0x" << env.single_shared_caps
              << ", cross-device shared 0x" << env.cross_shared_caps << ", shared system 0x"
              << env.system_caps << std::dec << "\n";

    UsmFunctions& usm = env.usm;
    const bool all_functions = load_usm_functions(env.platform, &usm) == nullptr;

    cl_int error = CL_SUCCESS;
    const cl_context_properties context_properties[] = {
        CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(env.platform), 0};
    Context context(clCreateContext(context_properties, 1, &env.device, nullptr, nullptr, &error));
    if (error != CL_SUCCESS) {
        std::cout << "clCreateContext: " << error_name(error) << "\n";
        return exit_usage;
    }
    env.context = context.get();
    Queue queue(clCreateCommandQueueWithProperties(env.context, env.device, nullptr, &error));
    if (error != CL_SUCCESS) {
        std::cout << "clCreateCommandQueueWithProperties: " << error_name(error) << "\n";
        return exit_usage;
    }
    env.queue = queue.get();
    const cl_queue_properties profiling[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
    Queue profiling_queue(
        clCreateCommandQueueWithProperties(env.context, env.device, profiling, &error));
    if (error != CL_SUCCESS) {
        std::cout << "clCreateCommandQueueWithProperties(profiling): " << error_name(error) << "\n";
        return exit_usage;
    }
    env.profiling_queue = profiling_queue.get();

    for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        std::signal(signal, on_crash);
    int skipped = 0;
    {
        Watchdog watchdog(timeout);
        for (const TestCase* test : to_run) {
            std::cout << test->name << "..." << std::endl;
            g_failures_in_test = 0;
            std::string skip_reason;
            g_current = test->name;
            watchdog.arm(test->name);
            try {
                if (!all_functions && std::strcmp(test->name, "extension_functions") != 0) {
                    record_failure(__FILE__, __LINE__,
                                   "a function of the extension is missing (see "
                                   "extension_functions)");
                } else {
                    test->run(env);
                }
            } catch (const Abort&) {
                if (g_failures_in_test == 0)
                    ++g_failures_in_test;
            } catch (const Skipped& skip) {
                skip_reason = skip.why;
            }
            clFinish(env.queue);
            clFinish(env.profiling_queue);
            watchdog.disarm();
            if (g_failures_in_test > 0) {
                ++g_failed;
                std::cout << test->name << " FAILED" << std::endl;
            } else if (!skip_reason.empty()) {
                ++skipped;
                std::cout << test->name << " SKIPPED (" << skip_reason << ")" << std::endl;
            } else {
                ++g_passed;
                std::cout << test->name << " PASSED" << std::endl;
            }
        }
    }
    if (skipped > 0)
        std::cout << skipped << " skipped\n";
    std::cout << g_passed << " passed, " << g_failed << " failed" << std::endl;
    return g_failed == 0 ? 0 : exit_failed;
}
