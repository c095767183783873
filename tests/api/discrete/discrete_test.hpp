// Helpers of the discrete-memory device tests: the devices by type, the
// migration counters of usmcl's extension (CL/usmcl_ext.h), and a program
// built for several devices.
#pragma once

#include "buffers/buffer_test.hpp"
#include "cl_handles.hpp"

#include <CL/usmcl_ext.h>

#include <array>
#include <string>
#include <vector>

namespace discrete_test {

using cl_test::ContextPtr;
using cl_test::KernelPtr;
using cl_test::MemPtr;
using cl_test::ProgramPtr;
using cl_test::QueuePtr;

// The platform's devices of a type, in its order.
inline std::vector<cl_device_id> devices_of(cl_device_type type) {
    cl_uint count = 0;
    const cl_int found = clGetDeviceIDs(cl_test::platform(), type, 0, nullptr, &count);
    if (found == CL_DEVICE_NOT_FOUND)
        return {};
    REQUIRE_OK(found);
    std::vector<cl_device_id> devices(count);
    REQUIRE_OK(clGetDeviceIDs(cl_test::platform(), type, count, devices.data(), nullptr));
    return devices;
}

inline cl_device_id cpu_device() {
    const auto devices = devices_of(CL_DEVICE_TYPE_CPU);
    REQUIRE(devices.size() == 1);
    return devices[0];
}

// The discrete-memory devices (the tests run with USMCL_DEVICES=cpu,discrete:2).
inline std::vector<cl_device_id> discrete_devices() {
    const auto devices = devices_of(CL_DEVICE_TYPE_ACCELERATOR);
    REQUIRE(devices.size() == 2);
    return devices;
}

using Counters = std::array<cl_ulong, CL_MIGRATION_COUNTERS_USMCL>;

inline clGetDeviceMigrationCountersUSMCL_fn counters_function() {
    auto* function = reinterpret_cast<clGetDeviceMigrationCountersUSMCL_fn>(
        clGetExtensionFunctionAddressForPlatform(cl_test::platform(),
                                                 "clGetDeviceMigrationCountersUSMCL"));
    REQUIRE(function != nullptr);
    return function;
}

// The migration counters of a device's memory domain now.
inline Counters counters(cl_device_id device) {
    Counters values{};
    cl_uint count = 0;
    REQUIRE_OK(counters_function()(device, CL_MIGRATION_COUNTERS_USMCL, values.data(), &count));
    REQUIRE(count == CL_DEVICE_MIGRATION_COUNTERS_USMCL);
    return values;
}

// A device's host-transfer counters now (CL_TRANSFERRED_BYTES_FROM_HOST_USMCL
// and the three after it, from index 0).
inline std::array<cl_ulong, 4> transfer_counters(cl_device_id device) {
    std::array<cl_ulong, CL_DEVICE_MIGRATION_COUNTERS_USMCL> values{};
    cl_uint count = 0;
    REQUIRE_OK(
        counters_function()(device, CL_DEVICE_MIGRATION_COUNTERS_USMCL, values.data(), &count));
    REQUIRE(count == CL_DEVICE_MIGRATION_COUNTERS_USMCL);
    return {values[CL_TRANSFERRED_BYTES_FROM_HOST_USMCL],
            values[CL_TRANSFERRED_BYTES_TO_HOST_USMCL], values[CL_TRANSFERS_FROM_HOST_USMCL],
            values[CL_TRANSFERS_TO_HOST_USMCL]};
}

// The migrations planned so far for a memory object's bytes.
inline Counters mem_counters(cl_mem mem) {
    auto* function = reinterpret_cast<clGetMemObjectMigrationCountersUSMCL_fn>(
        clGetExtensionFunctionAddressForPlatform(cl_test::platform(),
                                                 "clGetMemObjectMigrationCountersUSMCL"));
    REQUIRE(function != nullptr);
    Counters values{};
    cl_uint count = 0;
    REQUIRE_OK(function(mem, CL_MIGRATION_COUNTERS_USMCL, values.data(), &count));
    REQUIRE(count == CL_MIGRATION_COUNTERS_USMCL);
    return values;
}

// What changed between two readings.
inline Counters since(const Counters& before, const Counters& after) {
    Counters delta{};
    for (size_t i = 0; i < delta.size(); ++i)
        delta[i] = after[i] - before[i];
    return delta;
}

inline ProgramPtr build_for(cl_context context, const std::vector<cl_device_id>& devices,
                            const std::string& source) {
    ProgramPtr program = cl_test::create_program(context, source);
    const cl_int built = clBuildProgram(program.get(), static_cast<cl_uint>(devices.size()),
                                        devices.data(), nullptr, nullptr, nullptr);
    REQUIRE_OK(built);
    return program;
}

template <class T>
void set_arg(cl_kernel kernel, cl_uint index, const T& value) {
    REQUIRE_OK(clSetKernelArg(kernel, index, sizeof(T), &value));
}

inline void run_1d(cl_command_queue queue, cl_kernel kernel, size_t items,
                   cl_event* event = nullptr, const std::vector<cl_event>& wait = {}) {
    REQUIRE_OK(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &items, nullptr,
                                      static_cast<cl_uint>(wait.size()),
                                      wait.empty() ? nullptr : wait.data(), event));
}

inline MemPtr sub_buffer(cl_mem parent, size_t origin, size_t size) {
    const cl_buffer_region region{origin, size};
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_mem mem =
        clCreateSubBuffer(parent, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &error);
    REQUIRE_OK(error);
    return MemPtr(mem);
}

} // namespace discrete_test
