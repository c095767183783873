// kernel_bench: the OpenCL set-up and timing helpers of the child processes.
#include "kernel_bench.hpp"

namespace kernel_bench {

namespace {
bool wrong_result = false;
} // namespace

Device::Device() {
    cl_uint count = 0;
    CL_CHECK(clGetPlatformIDs(1, &platform, &count));
    if (count == 0)
        bench::exit_with_cl_error("finding a platform", CL_INVALID_PLATFORM);
    CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
    cl_int status = CL_SUCCESS;
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
    CL_CHECK(status);
    queue = clCreateCommandQueue(context, device, 0, &status);
    CL_CHECK(status);
}

Device::~Device() {
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
}

std::string Device::platform_name() const {
    char name[256] = {};
    clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name - 1, name, nullptr);
    return name;
}

cl_program Device::build(const char* source, const char* options) const {
    cl_int status = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
    CL_CHECK(status);
    status = clBuildProgram(program, 1, &device, options, nullptr, nullptr);
    if (status != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        std::fprintf(stderr, "kernel_bench: build log:\n%s\n", log.c_str());
        bench::exit_with_cl_error("clBuildProgram", status);
    }
    return program;
}

cl_mem Device::buffer(size_t bytes, const void* data) const {
    cl_int status = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
    CL_CHECK(status);
    if (data)
        CL_CHECK(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, bytes, data, 0, nullptr, nullptr));
    return mem;
}

void Device::read(cl_mem mem, size_t bytes, void* data) const {
    CL_CHECK(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, bytes, data, 0, nullptr, nullptr));
}

cl_kernel kernel_of(cl_program program, const char* name) {
    cl_int status = CL_SUCCESS;
    cl_kernel kernel = clCreateKernel(program, name, &status);
    CL_CHECK(status);
    return kernel;
}

void Launch::enqueue() const {
    CL_CHECK(clEnqueueNDRangeKernel(queue, kernel, dimensions, nullptr, global,
                                    with_local ? local : nullptr, 0, nullptr, nullptr));
}

void Launch::run_once() const {
    enqueue();
    CL_CHECK(clFinish(queue));
}

double seconds_per_launch(const Launch& launch, const Sizes& sizes) {
    const auto start = Clock::now();
    launch.run_once();
    const double once = std::max(seconds_since(start), 1e-7);
    const int k = std::clamp(static_cast<int>(0.05 / once), 1, 10000);
    double best = once; // the probe is the first batch (of one launch)
    for (int batch = 1; batch < sizes.batches; ++batch) {
        if (batch >= 2 && seconds_since(start) > sizes.budget)
            break;
        const auto begin = Clock::now();
        for (int i = 0; i < k; ++i)
            launch.enqueue();
        CL_CHECK(clFinish(launch.queue));
        best = std::min(best, seconds_since(begin) / k);
    }
    return best;
}

void report_wrong(const char* what) {
    std::printf("wrong %s\n", what);
    std::fflush(stdout);
    wrong_result = true;
}

bool any_wrong() {
    return wrong_result;
}

void report(const char* key, double value) {
    std::printf("%s %.9g\n", key, value);
    std::fflush(stdout);
}

} // namespace kernel_bench
