// kernel_bench part 1b: the build of the same program from OpenCL C and from
// SPIR-V. One child builds one program (spirv/<program>.cl, or the
// spirv/<program>.spv meson assembles from the .spvasm made from it) in one
// form, timed from clCreateProgramWithSource or clCreateProgramWithIL to the
// return of clBuildProgram (and the CPU time of the process meanwhile, all
// its threads): first in the process, then `repeats` times more.
// With the cache off (USMCL_CACHE=0, POCL_KERNEL_CACHE=0, set here before the
// driver loads) every build compiles; with it on, the builds after the first
// find its native code in the (fresh) cache folder.
#include "kernel_bench.hpp"

#include <time.h>

#include <fstream>
#include <iterator>

namespace kernel_bench {

namespace {

std::string read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (!file || text.empty()) {
        std::fprintf(stderr, "kernel_bench: cannot read %s\n", path.c_str());
        std::exit(3);
    }
    return text;
}

// The CPU time of every thread of this process so far: on a loaded machine,
// steadier than the time that passes.
double process_cpu_seconds() {
    timespec now{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

// The program in the form, built; nullptr when the driver does not take
// SPIR-V (clCreateProgramWithIL fails).
cl_program create_and_build(const Device& device, const FormBuild& build, const std::string& text) {
    cl_int status = CL_SUCCESS;
    cl_program program = nullptr;
    if (build.il) {
        program = clCreateProgramWithIL(device.context, text.data(), text.size(), &status);
        if (status != CL_SUCCESS)
            return nullptr;
    } else {
        const char* source = text.c_str();
        program = clCreateProgramWithSource(device.context, 1, &source, nullptr, &status);
        CL_CHECK(status);
    }
    status = clBuildProgram(program, 1, &device.device, "", nullptr, nullptr);
    if (status != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(program, device.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        clGetProgramBuildInfo(program, device.device, CL_PROGRAM_BUILD_LOG, size, log.data(),
                              nullptr);
        std::fprintf(stderr, "kernel_bench: build log of %s:\n%s\n", build.program, log.c_str());
        bench::exit_with_cl_error("clBuildProgram", status);
    }
    return program;
}

// Every kernel of the program can be created (a check, not timed).
void check_kernels(cl_program program, const FormBuild& build) {
    cl_uint count = 0;
    CL_CHECK(clCreateKernelsInProgram(program, 0, nullptr, &count));
    std::vector<cl_kernel> kernels(count);
    if (count == 0 ||
        clCreateKernelsInProgram(program, count, kernels.data(), nullptr) != CL_SUCCESS) {
        report_wrong((std::string("kernels of ") + build.program).c_str());
        return;
    }
    for (cl_kernel kernel : kernels)
        clReleaseKernel(kernel);
}

} // namespace

int child_build_forms(const FormBuild& build) {
    const char* cache = build.cache ? "1" : "0";
    setenv("USMCL_CACHE", cache, 1);
    setenv("POCL_KERNEL_CACHE", cache, 1);
    const std::string path = std::string(build.il ? KERNEL_BENCH_SPIRV_DIR : KERNEL_BENCH_CL_DIR) +
                             "/" + build.program + (build.il ? ".spv" : ".cl");
    const std::string text = read_file(path);
    Device device;
    std::printf("platform %s\n", device.platform_name().c_str());
    for (int i = 0; i <= build.repeats; ++i) {
        const auto start = Clock::now();
        const double cpu_start = process_cpu_seconds();
        cl_program program = create_and_build(device, build, text);
        const double elapsed = seconds_since(start);
        const double cpu = process_cpu_seconds() - cpu_start;
        if (!program) {
            report("il_unsupported", 1);
            return 0;
        }
        report(i == 0 ? "first_ms" : "repeat_ms", elapsed * 1e3);
        report(i == 0 ? "first_cpu_ms" : "repeat_cpu_ms", cpu * 1e3);
        if (i == 0)
            check_kernels(program, build);
        clReleaseProgram(program);
    }
    return any_wrong() ? 1 : 0;
}

} // namespace kernel_bench
