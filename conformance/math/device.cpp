#include "device.hpp"

#include "../cl_query.hpp"

#include <CL/cl_ext.h>

#include <iostream>
#include <vector>

namespace mathconf {

using conformance::device_string;
using conformance::has_word;
using conformance::platform_string;

int open_device(const Options& options, Device& dev) {
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) {
        std::cout << "no OpenCL platform found (check OCL_ICD_VENDORS / /etc/OpenCL/vendors)\n";
        return exit_usage;
    }
    std::vector<cl_platform_id> platforms(count);
    clGetPlatformIDs(count, platforms.data(), nullptr);
    dev.platform = options.platform.empty()
                       ? platforms[0]
                       : conformance::named_platform(platforms, options.platform);
    if (dev.platform == nullptr)
        return exit_usage;
    cl_uint device_count = 0;
    clGetDeviceIDs(dev.platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &device_count);
    if (options.device_index >= device_count) {
        std::cout << "device index " << options.device_index << " out of range (" << device_count
                  << " devices)\n";
        return exit_usage;
    }
    std::vector<cl_device_id> devices(device_count);
    clGetDeviceIDs(dev.platform, CL_DEVICE_TYPE_ALL, device_count, devices.data(), nullptr);
    dev.device = devices[options.device_index];
    std::cout << "Platform: " << platform_string(dev.platform, CL_PLATFORM_NAME) << " ("
              << platform_string(dev.platform, CL_PLATFORM_VERSION) << ")\n"
              << "Device:   " << device_string(dev.device, CL_DEVICE_NAME) << " ("
              << device_string(dev.device, CL_DEVICE_VERSION) << ")\n";
    cl_bool compiler = CL_FALSE;
    clGetDeviceInfo(dev.device, CL_DEVICE_COMPILER_AVAILABLE, sizeof(compiler), &compiler, nullptr);
    if (!compiler) {
        std::cout << "The device has no online compiler: every sub-test is skipped.\n"
                  << "0 passed, 0 failed" << std::endl;
        return exit_unsupported;
    }
    cl_device_fp_config single_config = 0, double_config = 0, half_config = 0;
    clGetDeviceInfo(dev.device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof(single_config), &single_config,
                    nullptr);
    clGetDeviceInfo(dev.device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(double_config), &double_config,
                    nullptr);
    if (clGetDeviceInfo(dev.device, CL_DEVICE_HALF_FP_CONFIG, sizeof(half_config), &half_config,
                        nullptr) != CL_SUCCESS)
        half_config = 0;
    const std::string extensions = device_string(dev.device, CL_DEVICE_EXTENSIONS);
    dev.fp64 = has_word(extensions, "cl_khr_fp64") && double_config != 0;
    dev.fp16 = has_word(extensions, "cl_khr_fp16") && half_config != 0;
    dev.float_denormals = (single_config & CL_FP_DENORM) != 0;
    dev.double_denormals = (double_config & CL_FP_DENORM) != 0;
    dev.half_denormals = (half_config & CL_FP_DENORM) != 0;
    cl_int error = CL_SUCCESS;
    const cl_context_properties properties[] = {
        CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(dev.platform), 0};
    dev.context = clCreateContext(properties, 1, &dev.device, nullptr, nullptr, &error);
    if (error != CL_SUCCESS) {
        std::cout << "clCreateContext: " << error << "\n";
        return exit_usage;
    }
    dev.queue = clCreateCommandQueueWithProperties(dev.context, dev.device, nullptr, &error);
    if (error != CL_SUCCESS) {
        std::cout << "clCreateCommandQueueWithProperties: " << error << "\n";
        return exit_usage;
    }
    return -1;
}

} // namespace mathconf
