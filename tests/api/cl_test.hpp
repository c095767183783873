// Shared helpers of the API tests. Every test talks to usmcl through the ICD
// loader (libOpenCL.so), exactly as an application does; OCL_ICD_VENDORS
// points the loader at the build's usmcl.icd.
#pragma once

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/cl_icd.h>

#include <catch2/catch.hpp>

#include <sched.h>

#include <cstring>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

namespace cl_test {

// The name of an OpenCL error code, e.g. "CL_INVALID_VALUE".
inline const char* error_name(cl_int code) {
    switch (code) {
#define CL_TEST_ERROR(name)                                                                        \
    case name: return #name;
        CL_TEST_ERROR(CL_SUCCESS)
        CL_TEST_ERROR(CL_DEVICE_NOT_FOUND)
        CL_TEST_ERROR(CL_DEVICE_NOT_AVAILABLE)
        CL_TEST_ERROR(CL_COMPILER_NOT_AVAILABLE)
        CL_TEST_ERROR(CL_MEM_OBJECT_ALLOCATION_FAILURE)
        CL_TEST_ERROR(CL_OUT_OF_RESOURCES)
        CL_TEST_ERROR(CL_OUT_OF_HOST_MEMORY)
        CL_TEST_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE)
        CL_TEST_ERROR(CL_MEM_COPY_OVERLAP)
        CL_TEST_ERROR(CL_IMAGE_FORMAT_MISMATCH)
        CL_TEST_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED)
        CL_TEST_ERROR(CL_BUILD_PROGRAM_FAILURE)
        CL_TEST_ERROR(CL_MAP_FAILURE)
        CL_TEST_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET)
        CL_TEST_ERROR(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        CL_TEST_ERROR(CL_COMPILE_PROGRAM_FAILURE)
        CL_TEST_ERROR(CL_LINKER_NOT_AVAILABLE)
        CL_TEST_ERROR(CL_LINK_PROGRAM_FAILURE)
        CL_TEST_ERROR(CL_DEVICE_PARTITION_FAILED)
        CL_TEST_ERROR(CL_KERNEL_ARG_INFO_NOT_AVAILABLE)
        CL_TEST_ERROR(CL_INVALID_VALUE)
        CL_TEST_ERROR(CL_INVALID_DEVICE_TYPE)
        CL_TEST_ERROR(CL_INVALID_PLATFORM)
        CL_TEST_ERROR(CL_INVALID_DEVICE)
        CL_TEST_ERROR(CL_INVALID_CONTEXT)
        CL_TEST_ERROR(CL_INVALID_QUEUE_PROPERTIES)
        CL_TEST_ERROR(CL_INVALID_COMMAND_QUEUE)
        CL_TEST_ERROR(CL_INVALID_HOST_PTR)
        CL_TEST_ERROR(CL_INVALID_MEM_OBJECT)
        CL_TEST_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR)
        CL_TEST_ERROR(CL_INVALID_IMAGE_SIZE)
        CL_TEST_ERROR(CL_INVALID_SAMPLER)
        CL_TEST_ERROR(CL_INVALID_BINARY)
        CL_TEST_ERROR(CL_INVALID_BUILD_OPTIONS)
        CL_TEST_ERROR(CL_INVALID_PROGRAM)
        CL_TEST_ERROR(CL_INVALID_PROGRAM_EXECUTABLE)
        CL_TEST_ERROR(CL_INVALID_KERNEL_NAME)
        CL_TEST_ERROR(CL_INVALID_KERNEL_DEFINITION)
        CL_TEST_ERROR(CL_INVALID_KERNEL)
        CL_TEST_ERROR(CL_INVALID_ARG_INDEX)
        CL_TEST_ERROR(CL_INVALID_ARG_VALUE)
        CL_TEST_ERROR(CL_INVALID_ARG_SIZE)
        CL_TEST_ERROR(CL_INVALID_KERNEL_ARGS)
        CL_TEST_ERROR(CL_INVALID_WORK_DIMENSION)
        CL_TEST_ERROR(CL_INVALID_WORK_GROUP_SIZE)
        CL_TEST_ERROR(CL_INVALID_WORK_ITEM_SIZE)
        CL_TEST_ERROR(CL_INVALID_GLOBAL_OFFSET)
        CL_TEST_ERROR(CL_INVALID_EVENT_WAIT_LIST)
        CL_TEST_ERROR(CL_INVALID_EVENT)
        CL_TEST_ERROR(CL_INVALID_OPERATION)
        CL_TEST_ERROR(CL_INVALID_GL_OBJECT)
        CL_TEST_ERROR(CL_INVALID_BUFFER_SIZE)
        CL_TEST_ERROR(CL_INVALID_MIP_LEVEL)
        CL_TEST_ERROR(CL_INVALID_GLOBAL_WORK_SIZE)
        CL_TEST_ERROR(CL_INVALID_PROPERTY)
        CL_TEST_ERROR(CL_INVALID_IMAGE_DESCRIPTOR)
        CL_TEST_ERROR(CL_INVALID_COMPILER_OPTIONS)
        CL_TEST_ERROR(CL_INVALID_LINKER_OPTIONS)
        CL_TEST_ERROR(CL_INVALID_DEVICE_PARTITION_COUNT)
        CL_TEST_ERROR(CL_INVALID_PIPE_SIZE)
        CL_TEST_ERROR(CL_INVALID_DEVICE_QUEUE)
        CL_TEST_ERROR(CL_INVALID_SPEC_ID)
        CL_TEST_ERROR(CL_MAX_SIZE_RESTRICTION_EXCEEDED)
        CL_TEST_ERROR(CL_PLATFORM_NOT_FOUND_KHR)
#undef CL_TEST_ERROR
    default: return "unknown error code";
    }
}

// A cl_int status that Catch2 prints by name in failure messages.
struct Status {
    cl_int code;
    bool operator==(const Status&) const = default;
};

} // namespace cl_test

namespace Catch {
template <>
struct StringMaker<cl_test::Status> {
    static std::string convert(const cl_test::Status& status) {
        return std::string(cl_test::error_name(status.code)) + " (" + std::to_string(status.code) +
               ")";
    }
};
} // namespace Catch

// CHECK_CL(clFoo(...), CL_INVALID_VALUE): the call returns exactly that code.
#define CHECK_CL(call, expected) CHECK(::cl_test::Status{(call)} == ::cl_test::Status{(expected)})
#define REQUIRE_CL(call, expected)                                                                 \
    REQUIRE(::cl_test::Status{(call)} == ::cl_test::Status{(expected)})
#define REQUIRE_OK(call) REQUIRE_CL(call, CL_SUCCESS)
#define CHECK_OK(call) CHECK_CL(call, CL_SUCCESS)

namespace cl_test {

// The usmcl platform as the loader lists it (the loader sees only usmcl).
inline cl_platform_id platform() {
    cl_platform_id id = nullptr;
    cl_uint count = 0;
    REQUIRE_OK(clGetPlatformIDs(1, &id, &count));
    REQUIRE(count == 1);
    REQUIRE(id != nullptr);
    return id;
}

// usmcl's root CPU device.
inline cl_device_id device() {
    cl_device_id id = nullptr;
    REQUIRE_OK(clGetDeviceIDs(platform(), CL_DEVICE_TYPE_CPU, 1, &id, nullptr));
    REQUIRE(id != nullptr);
    return id;
}

// The driver's own dispatch table, read from a handle (the ICD ABI puts it
// first in every object). Calling through it skips the loader's checks, so a
// test reaches the driver's argument validation directly.
template <class Handle>
const cl_icd_dispatch& dispatch_of(Handle handle) {
    return **reinterpret_cast<const cl_icd_dispatch* const*>(handle);
}

// Memory that starts with a real usmcl dispatch pointer followed by garbage:
// the loader forwards it to usmcl, which must reject it as an invalid handle.
struct FakeObject {
    const void* dispatch;
    unsigned char bytes[256];

    FakeObject(const void* real_handle, unsigned char fill) {
        dispatch = *static_cast<const void* const*>(real_handle);
        std::memset(bytes, fill, sizeof bytes);
    }
    template <class Handle>
    Handle as() {
        return reinterpret_cast<Handle>(this);
    }
};

// A clGet*Info query with its object and parameter bound:
// answer(param_value_size, param_value, param_value_size_ret) -> cl_int.

// A scalar answer; its size must be exactly sizeof(T).
template <class T, class Answer>
T scalar_answer(Answer answer) {
    static_assert(std::is_trivially_copyable_v<T>);
    size_t size = 0;
    REQUIRE_OK(answer(0, nullptr, &size));
    REQUIRE(size == sizeof(T));
    T value{};
    size = 0;
    REQUIRE_OK(answer(sizeof value, &value, &size));
    REQUIRE(size == sizeof(T));
    return value;
}

// A string answer; its size must count the terminating NUL exactly.
template <class Answer>
std::string string_answer(Answer answer) {
    size_t size = 0;
    REQUIRE_OK(answer(0, nullptr, &size));
    REQUIRE(size >= 1);
    std::vector<char> text(size + 8, 'x');
    size_t written = 0;
    REQUIRE_OK(answer(size, text.data(), &written));
    REQUIRE(written == size);
    REQUIRE(text[size - 1] == '\0');
    REQUIRE(std::strlen(text.data()) == size - 1);
    REQUIRE(text[size] == 'x'); // nothing written past the answer
    return std::string(text.data());
}

// The size clGet*Info reports for a query.
template <class Handle, class Param>
size_t info_size(cl_int(CL_API_CALL* query)(Handle, Param, size_t, void*, size_t*), Handle handle,
                 std::type_identity_t<Param> param) {
    size_t size = 0;
    REQUIRE_OK(query(handle, param, 0, nullptr, &size));
    return size;
}

// A scalar answer of query(handle, param); its size must be exactly sizeof(T).
template <class T, class Handle, class Param>
T info(cl_int(CL_API_CALL* query)(Handle, Param, size_t, void*, size_t*), Handle handle,
       std::type_identity_t<Param> param) {
    INFO("param 0x" << std::hex << param);
    return scalar_answer<T>([&](size_t size, void* value, size_t* size_ret) {
        return query(handle, param, size, value, size_ret);
    });
}

// An array answer; its size must be a multiple of sizeof(T).
template <class T, class Handle, class Param>
std::vector<T> info_array(cl_int(CL_API_CALL* query)(Handle, Param, size_t, void*, size_t*),
                          Handle handle, std::type_identity_t<Param> param) {
    INFO("param 0x" << std::hex << param);
    const size_t size = info_size(query, handle, param);
    REQUIRE(size % sizeof(T) == 0);
    std::vector<T> values(size / sizeof(T));
    size_t written = 0;
    REQUIRE_OK(query(handle, param, size, values.empty() ? nullptr : values.data(), &written));
    REQUIRE(written == size);
    return values;
}

// A string answer of query(handle, param).
template <class Handle, class Param>
std::string info_string(cl_int(CL_API_CALL* query)(Handle, Param, size_t, void*, size_t*),
                        Handle handle, std::type_identity_t<Param> param) {
    INFO("param 0x" << std::hex << param);
    return string_answer([&](size_t size, void* value, size_t* size_ret) {
        return query(handle, param, size, value, size_ret);
    });
}

template <class T>
T device_info(cl_device_id device, cl_device_info param) {
    return info<T>(clGetDeviceInfo, device, param);
}
template <class T>
std::vector<T> device_info_array(cl_device_id device, cl_device_info param) {
    return info_array<T>(clGetDeviceInfo, device, param);
}
inline std::string device_info_string(cl_device_id device, cl_device_info param) {
    return info_string(clGetDeviceInfo, device, param);
}
inline std::string platform_info_string(cl_platform_id platform, cl_platform_info param) {
    return info_string(clGetPlatformInfo, platform, param);
}
template <class T>
T context_info(cl_context context, cl_context_info param) {
    return info<T>(clGetContextInfo, context, param);
}
template <class T>
std::vector<T> context_info_array(cl_context context, cl_context_info param) {
    return info_array<T>(clGetContextInfo, context, param);
}

// Splits a space-separated list (extension strings).
inline std::vector<std::string> split_words(const std::string& text) {
    std::vector<std::string> words;
    size_t start = 0;
    while (start < text.size()) {
        const size_t end = text.find(' ', start);
        const size_t stop = end == std::string::npos ? text.size() : end;
        if (stop > start)
            words.push_back(text.substr(start, stop - start));
        start = stop + 1;
    }
    return words;
}

inline std::vector<std::string> names_of(const std::vector<cl_name_version>& list) {
    std::vector<std::string> names;
    for (const auto& entry : list)
        names.emplace_back(entry.name);
    return names;
}

// Owning handles: release on scope exit.
struct ContextReleaser {
    void operator()(cl_context context) const { clReleaseContext(context); }
};
using ContextPtr = std::unique_ptr<std::remove_pointer_t<cl_context>, ContextReleaser>;

struct DeviceReleaser {
    void operator()(cl_device_id device) const { clReleaseDevice(device); }
};
using DevicePtr = std::unique_ptr<std::remove_pointer_t<cl_device_id>, DeviceReleaser>;

// A context on the given devices with no properties.
inline ContextPtr make_context(const std::vector<cl_device_id>& devices) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_context context = clCreateContext(nullptr, static_cast<cl_uint>(devices.size()),
                                         devices.data(), nullptr, nullptr, &error);
    REQUIRE_CL(error, CL_SUCCESS);
    REQUIRE(context != nullptr);
    return ContextPtr(context);
}

// Sub-devices of device for a 0-terminated partition property list; the
// count is asked first, then exactly that many are created.
inline std::vector<DevicePtr>
create_sub_devices(cl_device_id device,
                   const std::vector<cl_device_partition_property>& properties) {
    cl_uint count = 0;
    REQUIRE_OK(clCreateSubDevices(device, properties.data(), 0, nullptr, &count));
    REQUIRE(count > 0);
    std::vector<cl_device_id> raw(count);
    cl_uint created = 0;
    REQUIRE_OK(clCreateSubDevices(device, properties.data(), count, raw.data(), &created));
    REQUIRE(created == count);
    std::vector<DevicePtr> devices;
    for (cl_device_id id : raw) {
        REQUIRE(id != nullptr);
        devices.emplace_back(id);
    }
    return devices;
}

// The processing units this process may run on (sched_getaffinity).
inline unsigned allowed_cpu_count() {
    cpu_set_t set;
    CPU_ZERO(&set);
    REQUIRE(sched_getaffinity(0, sizeof set, &set) == 0);
    return static_cast<unsigned>(CPU_COUNT(&set));
}

} // namespace cl_test
