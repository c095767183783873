// Every clGetDeviceInfo query of OpenCL 3.0 (plus those of the extensions
// usmcl reports) with the shape of its answer, for tests that walk them all.
#pragma once

#include "cl_test.hpp"

#include <cstdint>
#include <vector>

namespace cl_test {

enum class Shape {
    scalar, // exactly element_size bytes
    array,  // a multiple of element_size bytes (possibly 0)
    string, // NUL-terminated characters
};

struct DeviceQuery {
    cl_device_info param;
    const char* name;
    Shape shape;
    size_t element_size;
};

#define CL_TEST_SCALAR(param, type)                                                                \
    { param, #param, Shape::scalar, sizeof(type) }
#define CL_TEST_ARRAY(param, type)                                                                 \
    { param, #param, Shape::array, sizeof(type) }
#define CL_TEST_STRING(param)                                                                      \
    { param, #param, Shape::string, 1 }

inline const std::vector<DeviceQuery>& all_device_queries() {
    static const std::vector<DeviceQuery> queries = {
        CL_TEST_SCALAR(CL_DEVICE_TYPE, cl_device_type),
        CL_TEST_SCALAR(CL_DEVICE_VENDOR_ID, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_MAX_COMPUTE_UNITS, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS, cl_uint),
        CL_TEST_ARRAY(CL_DEVICE_MAX_WORK_ITEM_SIZES, size_t),
        CL_TEST_SCALAR(CL_DEVICE_MAX_WORK_GROUP_SIZE, size_t),
        CL_TEST_SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_INT, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_MAX_CLOCK_FREQUENCY, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_ADDRESS_BITS, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_MAX_MEM_ALLOC_SIZE, cl_ulong),
        CL_TEST_SCALAR(CL_DEVICE_IMAGE_SUPPORT, cl_bool),
        CL_TEST_SCALAR(CL_DEVICE_MAX_READ_IMAGE_ARGS, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_MAX_WRITE_IMAGE_ARGS, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS, cl_uint),
        CL_TEST_STRING(CL_DEVICE_IL_VERSION),
        CL_TEST_ARRAY(CL_DEVICE_ILS_WITH_VERSION, cl_name_version),
        CL_TEST_SCALAR(CL_DEVICE_IMAGE2D_MAX_WIDTH, size_t),
        CL_TEST_SCALAR(CL_DEVICE_IMAGE2D_MAX_HEIGHT, size_t),
        CL_TEST_SCALAR(CL_DEVICE_IMAGE3D_MAX_WIDTH, size_t),
        CL_TEST_SCALAR(CL_DEVICE_IMAGE3D_MAX_HEIGHT, size_t),
        CL_TEST_SCALAR(CL_DEVICE_IMAGE3D_MAX_DEPTH, size_t),
        CL_TEST_SCALAR(CL_DEVICE_IMAGE_MAX_BUFFER_SIZE, size_t),
        CL_TEST_SCALAR(CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, size_t),
        CL_TEST_SCALAR(CL_DEVICE_MAX_SAMPLERS, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_IMAGE_PITCH_ALIGNMENT, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_MAX_PIPE_ARGS, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_PIPE_MAX_PACKET_SIZE, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_MAX_PARAMETER_SIZE, size_t),
        CL_TEST_SCALAR(CL_DEVICE_MEM_BASE_ADDR_ALIGN, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_SINGLE_FP_CONFIG, cl_device_fp_config),
        CL_TEST_SCALAR(CL_DEVICE_DOUBLE_FP_CONFIG, cl_device_fp_config),
        CL_TEST_SCALAR(CL_DEVICE_HALF_FP_CONFIG, cl_device_fp_config),
        CL_TEST_SCALAR(CL_DEVICE_GLOBAL_MEM_CACHE_TYPE, cl_device_mem_cache_type),
        CL_TEST_SCALAR(CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_GLOBAL_MEM_CACHE_SIZE, cl_ulong),
        CL_TEST_SCALAR(CL_DEVICE_GLOBAL_MEM_SIZE, cl_ulong),
        CL_TEST_SCALAR(CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE, cl_ulong),
        CL_TEST_SCALAR(CL_DEVICE_MAX_CONSTANT_ARGS, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE, size_t),
        CL_TEST_SCALAR(CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE, size_t),
        CL_TEST_SCALAR(CL_DEVICE_LOCAL_MEM_TYPE, cl_device_local_mem_type),
        CL_TEST_SCALAR(CL_DEVICE_LOCAL_MEM_SIZE, cl_ulong),
        CL_TEST_SCALAR(CL_DEVICE_ERROR_CORRECTION_SUPPORT, cl_bool),
        CL_TEST_SCALAR(CL_DEVICE_HOST_UNIFIED_MEMORY, cl_bool),
        CL_TEST_SCALAR(CL_DEVICE_PROFILING_TIMER_RESOLUTION, size_t),
        CL_TEST_SCALAR(CL_DEVICE_ENDIAN_LITTLE, cl_bool),
        CL_TEST_SCALAR(CL_DEVICE_AVAILABLE, cl_bool),
        CL_TEST_SCALAR(CL_DEVICE_COMPILER_AVAILABLE, cl_bool),
        CL_TEST_SCALAR(CL_DEVICE_LINKER_AVAILABLE, cl_bool),
        CL_TEST_SCALAR(CL_DEVICE_EXECUTION_CAPABILITIES, cl_device_exec_capabilities),
        CL_TEST_SCALAR(CL_DEVICE_QUEUE_PROPERTIES, cl_command_queue_properties),
        CL_TEST_SCALAR(CL_DEVICE_QUEUE_ON_HOST_PROPERTIES, cl_command_queue_properties),
        CL_TEST_SCALAR(CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES, cl_command_queue_properties),
        CL_TEST_SCALAR(CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_MAX_ON_DEVICE_QUEUES, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_MAX_ON_DEVICE_EVENTS, cl_uint),
        CL_TEST_STRING(CL_DEVICE_BUILT_IN_KERNELS),
        CL_TEST_ARRAY(CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION, cl_name_version),
        CL_TEST_SCALAR(CL_DEVICE_PLATFORM, cl_platform_id),
        CL_TEST_STRING(CL_DEVICE_NAME),
        CL_TEST_STRING(CL_DEVICE_VENDOR),
        CL_TEST_STRING(CL_DRIVER_VERSION),
        CL_TEST_STRING(CL_DEVICE_PROFILE),
        CL_TEST_STRING(CL_DEVICE_VERSION),
        CL_TEST_SCALAR(CL_DEVICE_NUMERIC_VERSION, cl_version),
        CL_TEST_STRING(CL_DEVICE_OPENCL_C_VERSION),
        CL_TEST_ARRAY(CL_DEVICE_OPENCL_C_ALL_VERSIONS, cl_name_version),
        CL_TEST_ARRAY(CL_DEVICE_OPENCL_C_FEATURES, cl_name_version),
        CL_TEST_STRING(CL_DEVICE_EXTENSIONS),
        CL_TEST_ARRAY(CL_DEVICE_EXTENSIONS_WITH_VERSION, cl_name_version),
        CL_TEST_SCALAR(CL_DEVICE_PRINTF_BUFFER_SIZE, size_t),
        CL_TEST_SCALAR(CL_DEVICE_PREFERRED_INTEROP_USER_SYNC, cl_bool),
        CL_TEST_SCALAR(CL_DEVICE_PARENT_DEVICE, cl_device_id),
        CL_TEST_SCALAR(CL_DEVICE_PARTITION_MAX_SUB_DEVICES, cl_uint),
        CL_TEST_ARRAY(CL_DEVICE_PARTITION_PROPERTIES, cl_device_partition_property),
        CL_TEST_SCALAR(CL_DEVICE_PARTITION_AFFINITY_DOMAIN, cl_device_affinity_domain),
        CL_TEST_ARRAY(CL_DEVICE_PARTITION_TYPE, cl_device_partition_property),
        CL_TEST_SCALAR(CL_DEVICE_REFERENCE_COUNT, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_SVM_CAPABILITIES, cl_device_svm_capabilities),
        CL_TEST_SCALAR(CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_MAX_NUM_SUB_GROUPS, cl_uint),
        CL_TEST_SCALAR(CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS, cl_bool),
        CL_TEST_SCALAR(CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, cl_device_atomic_capabilities),
        CL_TEST_SCALAR(CL_DEVICE_ATOMIC_FENCE_CAPABILITIES, cl_device_atomic_capabilities),
        CL_TEST_SCALAR(CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT, cl_bool),
        CL_TEST_SCALAR(CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT, cl_bool),
        CL_TEST_SCALAR(CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT, cl_bool),
        CL_TEST_SCALAR(CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES,
                       cl_device_device_enqueue_capabilities),
        CL_TEST_SCALAR(CL_DEVICE_PIPE_SUPPORT, cl_bool),
        CL_TEST_SCALAR(CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE, size_t),
        CL_TEST_STRING(CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED),
        // cl_khr_extended_versioning
        CL_TEST_SCALAR(CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR, cl_version),
        // cl_khr_device_uuid
        CL_TEST_ARRAY(CL_DEVICE_UUID_KHR, cl_uchar),
        CL_TEST_ARRAY(CL_DRIVER_UUID_KHR, cl_uchar),
        CL_TEST_SCALAR(CL_DEVICE_LUID_VALID_KHR, cl_bool),
        CL_TEST_ARRAY(CL_DEVICE_LUID_KHR, cl_uchar),
        CL_TEST_SCALAR(CL_DEVICE_NODE_MASK_KHR, cl_uint),
    };
    return queries;
}

#undef CL_TEST_SCALAR
#undef CL_TEST_ARRAY
#undef CL_TEST_STRING

// Asks every query of device: CL_SUCCESS, an answer of the right shape, the
// size rules (NULL param_value reports the size; a too small buffer gives
// CL_INVALID_VALUE and is left untouched; a larger one receives exactly the
// answer).
inline void check_every_device_query(cl_device_id device) {
    for (const DeviceQuery& query : all_device_queries()) {
        INFO(query.name);
        size_t size = 0xdeadbeef;
        REQUIRE_OK(clGetDeviceInfo(device, query.param, 0, nullptr, &size));
        switch (query.shape) {
        case Shape::scalar: CHECK(size == query.element_size); break;
        case Shape::array: CHECK(size % query.element_size == 0); break;
        case Shape::string: CHECK(size >= 1); break;
        }

        // Room for the answer plus a guard area that must stay untouched.
        constexpr unsigned char guard = 0xa5;
        std::vector<unsigned char> buffer(size + 64, guard);
        size_t written = 0;
        REQUIRE_OK(clGetDeviceInfo(device, query.param, buffer.size(), buffer.data(), &written));
        CHECK(written == size);
        for (size_t i = size; i < buffer.size(); ++i)
            REQUIRE(buffer[i] == guard);
        if (query.shape == Shape::string) {
            CHECK(buffer[size - 1] == '\0');
            CHECK(std::strlen(reinterpret_cast<const char*>(buffer.data())) == size - 1);
        }

        // NULL param_value_size_ret is allowed.
        CHECK_OK(clGetDeviceInfo(device, query.param, buffer.size(), buffer.data(), nullptr));

        if (size > 0) {
            std::vector<unsigned char> small(size, guard);
            CHECK_CL(clGetDeviceInfo(device, query.param, size - 1, small.data(), nullptr),
                     CL_INVALID_VALUE);
            for (unsigned char byte : small)
                REQUIRE(byte == guard);
        }
    }
}

} // namespace cl_test
