// Helpers of the program and kernel tests: owning handles, a context with
// one in-order queue, program creation and building (with the build log in
// the failure message), program and build queries, buffers filled from and
// read back into host vectors, kernel arguments, launches and bounded waits.
#pragma once

#include "cl_handles.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace kernel_test {

using namespace std::chrono_literals;

using cl_test::build;
using cl_test::build_program;
using cl_test::create_program;
using cl_test::event_status;
using cl_test::EventPtr;
using cl_test::hang_limit;
using cl_test::KernelPtr;
using cl_test::make_kernel;
using cl_test::make_queue;
using cl_test::make_user_event;
using cl_test::MemPtr;
using cl_test::ProgramPtr;
using cl_test::QueuePtr;
using cl_test::wait_bounded;

// A string answer of clGetProgramBuildInfo; its size counts the NUL exactly.
inline std::string build_info_string(cl_program program, cl_device_id device,
                                     cl_program_build_info param) {
    INFO("build info 0x" << std::hex << param);
    return cl_test::string_answer([&](size_t size, void* value, size_t* size_ret) {
        return clGetProgramBuildInfo(program, device, param, size, value, size_ret);
    });
}

// A scalar answer of clGetProgramBuildInfo; its size must be sizeof(T).
template <class T>
T build_info(cl_program program, cl_device_id device, cl_program_build_info param) {
    INFO("build info 0x" << std::hex << param);
    return cl_test::scalar_answer<T>([&](size_t size, void* value, size_t* size_ret) {
        return clGetProgramBuildInfo(program, device, param, size, value, size_ret);
    });
}

inline std::string build_log(cl_program program, cl_device_id device) {
    return build_info_string(program, device, CL_PROGRAM_BUILD_LOG);
}

inline cl_build_status build_status(cl_program program, cl_device_id device) {
    return build_info<cl_build_status>(program, device, CL_PROGRAM_BUILD_STATUS);
}

inline cl_program_binary_type binary_type(cl_program program, cl_device_id device) {
    return build_info<cl_program_binary_type>(program, device, CL_PROGRAM_BINARY_TYPE);
}

template <class T>
T program_info(cl_program program, cl_program_info param) {
    return cl_test::info<T>(clGetProgramInfo, program, param);
}

inline std::string program_info_string(cl_program program, cl_program_info param) {
    return cl_test::info_string(clGetProgramInfo, program, param);
}

// The kernel names of CL_PROGRAM_KERNEL_NAMES (';'-separated), as a set.
inline std::set<std::string> kernel_names(cl_program program) {
    const std::string text = program_info_string(program, CL_PROGRAM_KERNEL_NAMES);
    std::set<std::string> names;
    size_t start = 0;
    while (start <= text.size()) {
        const size_t end = std::min(text.find(';', start), text.size());
        if (end > start)
            names.insert(text.substr(start, end - start));
        start = end + 1;
    }
    return names;
}

template <class T>
T kernel_info(cl_kernel kernel, cl_kernel_info param) {
    return cl_test::info<T>(clGetKernelInfo, kernel, param);
}

inline std::string kernel_info_string(cl_kernel kernel, cl_kernel_info param) {
    return cl_test::info_string(clGetKernelInfo, kernel, param);
}

// A scalar answer of clGetKernelWorkGroupInfo; its size must be sizeof(T).
template <class T>
T work_group_info(cl_kernel kernel, cl_device_id device, cl_kernel_work_group_info param) {
    INFO("work-group info 0x" << std::hex << param);
    return cl_test::scalar_answer<T>([&](size_t size, void* value, size_t* size_ret) {
        return clGetKernelWorkGroupInfo(kernel, device, param, size, value, size_ret);
    });
}

// A scalar answer of clGetKernelArgInfo; its size must be sizeof(T).
template <class T>
T arg_info(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param) {
    INFO("arg " << index << " info 0x" << std::hex << param);
    return cl_test::scalar_answer<T>([&](size_t size, void* value, size_t* size_ret) {
        return clGetKernelArgInfo(kernel, index, param, size, value, size_ret);
    });
}

// A string answer of clGetKernelArgInfo; its size counts the NUL exactly.
inline std::string arg_info_string(cl_kernel kernel, cl_uint index, cl_kernel_arg_info param) {
    INFO("arg " << index << " info 0x" << std::hex << param);
    return cl_test::string_answer([&](size_t size, void* value, size_t* size_ret) {
        return clGetKernelArgInfo(kernel, index, param, size, value, size_ret);
    });
}

// A buffer of count elements of T, filled from data when given.
template <class T>
MemPtr make_buffer(cl_context context, size_t count, const T* data = nullptr,
                   cl_mem_flags flags = CL_MEM_READ_WRITE) {
    cl_int error = CL_OUT_OF_RESOURCES;
    if (data)
        flags |= CL_MEM_COPY_HOST_PTR;
    cl_mem mem = clCreateBuffer(context, flags, count * sizeof(T), const_cast<T*>(data), &error);
    REQUIRE_OK(error);
    REQUIRE(mem != nullptr);
    return MemPtr(mem);
}

template <class T>
MemPtr make_buffer(cl_context context, const std::vector<T>& data,
                   cl_mem_flags flags = CL_MEM_READ_WRITE) {
    return make_buffer<T>(context, data.size(), data.data(), flags);
}

// The whole content of a buffer of count elements of T (a blocking read).
template <class T>
std::vector<T> read_buffer(cl_command_queue queue, cl_mem mem, size_t count) {
    std::vector<T> data(count);
    REQUIRE_OK(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, count * sizeof(T), data.data(), 0,
                                   nullptr, nullptr));
    return data;
}

template <class T>
void write_buffer(cl_command_queue queue, cl_mem mem, const std::vector<T>& data) {
    REQUIRE_OK(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, data.size() * sizeof(T), data.data(), 0,
                                    nullptr, nullptr));
}

// Argument index of kernel: a value of exactly sizeof(T) bytes (a cl_mem
// for buffers).
template <class T>
void set_arg(cl_kernel kernel, cl_uint index, const T& value) {
    INFO("argument " << index);
    REQUIRE_OK(clSetKernelArg(kernel, index, sizeof(T), &value));
}

inline void set_arg(cl_kernel kernel, cl_uint index, const MemPtr& mem) {
    set_arg(kernel, index, mem.get());
}

// A __local argument of size bytes.
inline void set_local_arg(cl_kernel kernel, cl_uint index, size_t size) {
    INFO("local argument " << index);
    REQUIRE_OK(clSetKernelArg(kernel, index, size, nullptr));
}

// Enqueues kernel on an NDRange and waits for the queue.
inline void run(cl_command_queue queue, cl_kernel kernel, cl_uint dims, const size_t* global,
                const size_t* local = nullptr, const size_t* offset = nullptr) {
    REQUIRE_OK(
        clEnqueueNDRangeKernel(queue, kernel, dims, offset, global, local, 0, nullptr, nullptr));
    REQUIRE_OK(clFinish(queue));
}

inline void run_1d(cl_command_queue queue, cl_kernel kernel, size_t global, size_t local = 0) {
    run(queue, kernel, 1, &global, local ? &local : nullptr);
}

// Waits (polling) until counter reaches at least value; false after hang_limit.
inline bool wait_for_count(const std::atomic<int>& counter, int value) {
    const auto deadline = std::chrono::steady_clock::now() + hang_limit;
    while (counter.load() < value) {
        if (std::chrono::steady_clock::now() > deadline)
            return false;
        std::this_thread::sleep_for(1ms);
    }
    return true;
}

// A context on the root device with one in-order queue.
struct Fixture {
    cl_device_id device = cl_test::device();
    cl_test::ContextPtr context = cl_test::make_context({device});
    QueuePtr queue = make_queue(context.get(), device);

    cl_context ctx() const { return context.get(); }
    cl_command_queue q() const { return queue.get(); }

    ProgramPtr build(const std::string& source, const char* options = nullptr) const {
        return build_program(ctx(), device, source, options);
    }
};

} // namespace kernel_test
