// The platform and device math_conformance runs on, through the ICD
// loader.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif

#include "options.hpp"

#include <CL/cl.h>

#include <string>

namespace mathconf {

struct Device {
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    bool fp64 = false;
    bool fp16 = false;
    bool float_denormals = false;
    bool double_denormals = false;
    bool half_denormals = false;
};

// The device options select (platform by name, vendor or index; device by
// index), with a context and a queue; what it supports (fp64, fp16, denormals).
// Prints the platform and device. -1 when ready; otherwise the exit status
// (exit_usage, or exit_unsupported without an online compiler), with the
// reason printed.
int open_device(const Options& options, Device& dev);

} // namespace mathconf
