// Owning handles and the small helpers every API test folder needs: queues,
// user events, programs built from source (the build log in the failure
// message), kernels, event status and bounded waits (a hang fails the test
// instead of hanging it).
#pragma once

#include "cl_test.hpp"

#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>

namespace cl_test {

// How long a test waits for something that should happen soon before it
// calls it a hang.
inline constexpr std::chrono::seconds hang_limit{20};

struct QueueReleaser {
    void operator()(cl_command_queue queue) const { clReleaseCommandQueue(queue); }
};
using QueuePtr = std::unique_ptr<std::remove_pointer_t<cl_command_queue>, QueueReleaser>;

struct EventReleaser {
    void operator()(cl_event event) const { clReleaseEvent(event); }
};
using EventPtr = std::unique_ptr<std::remove_pointer_t<cl_event>, EventReleaser>;

struct MemReleaser {
    void operator()(cl_mem mem) const { clReleaseMemObject(mem); }
};
using MemPtr = std::unique_ptr<std::remove_pointer_t<cl_mem>, MemReleaser>;

struct ProgramReleaser {
    void operator()(cl_program program) const { clReleaseProgram(program); }
};
using ProgramPtr = std::unique_ptr<std::remove_pointer_t<cl_program>, ProgramReleaser>;

struct KernelReleaser {
    void operator()(cl_kernel kernel) const { clReleaseKernel(kernel); }
};
using KernelPtr = std::unique_ptr<std::remove_pointer_t<cl_kernel>, KernelReleaser>;

// A host queue with the given CL_QUEUE_PROPERTIES (0: in order, no profiling).
inline QueuePtr make_queue(cl_context context, cl_device_id device,
                           cl_command_queue_properties properties = 0) {
    const cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, properties, 0};
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, list, &error);
    REQUIRE_OK(error);
    REQUIRE(queue != nullptr);
    return QueuePtr(queue);
}

inline EventPtr make_user_event(cl_context context) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_event event = clCreateUserEvent(context, &error);
    REQUIRE_OK(error);
    REQUIRE(event != nullptr);
    return EventPtr(event);
}

// A program from one source string (not built).
inline ProgramPtr create_program(cl_context context, const std::string& source) {
    const char* text = source.c_str();
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_program program = clCreateProgramWithSource(context, 1, &text, nullptr, &error);
    REQUIRE_OK(error);
    REQUIRE(program != nullptr);
    return ProgramPtr(program);
}

// Builds program for device; fails the test with the build log otherwise.
inline void build(cl_program program, cl_device_id device, const char* options = nullptr) {
    const cl_int built = clBuildProgram(program, 1, &device, options, nullptr, nullptr);
    if (built != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        if (size > 0)
            clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        INFO("build log:\n" << log);
        REQUIRE_CL(built, CL_SUCCESS);
    }
}

// A program built from source for device.
inline ProgramPtr build_program(cl_context context, cl_device_id device, const std::string& source,
                                const char* options = nullptr) {
    ProgramPtr program = create_program(context, source);
    build(program.get(), device, options);
    return program;
}

inline KernelPtr make_kernel(cl_program program, const char* name) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_kernel kernel = clCreateKernel(program, name, &error);
    INFO(name);
    REQUIRE_OK(error);
    REQUIRE(kernel != nullptr);
    return KernelPtr(kernel);
}

// The execution status of event.
inline cl_int event_status(cl_event event) {
    cl_int status = CL_INVALID_VALUE;
    REQUIRE_OK(
        clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
    return status;
}

// Waits (polling) until event is complete or failed; false after limit.
inline bool wait_bounded(cl_event event, std::chrono::milliseconds limit = hang_limit) {
    const auto deadline = std::chrono::steady_clock::now() + limit;
    while (event_status(event) > CL_COMPLETE) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    return true;
}

} // namespace cl_test
