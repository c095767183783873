// clGetDeviceInfo: every OpenCL 3.0 device query, one line each.
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/info_writer.hpp"
#include "core/capabilities.hpp"
#include "core/platform.hpp"
#include "core/program.hpp"
#include "support/clock.hpp"

#include <CL/cl_ext.h>

#include <array>

namespace usmcl::api {
namespace {

namespace caps = core::capabilities;

constexpr cl_device_fp_config single_fp_config =
    CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST;
constexpr cl_device_fp_config double_fp_config =
    caps::fp64 ? (CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO |
                  CL_FP_ROUND_TO_INF | CL_FP_FMA)
               : 0;
constexpr cl_device_fp_config half_fp_config =
    caps::fp16 ? (CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA) : 0;
constexpr bool little_endian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

// The partition schemes a device supports; {0} when it cannot be split.
std::vector<cl_device_partition_property> partition_properties(const core::Device& device) {
    auto properties = device.description().partition_properties;
    if (properties.empty())
        properties.push_back(0);
    return properties;
}

Status device_info(core::Device& device, cl_device_info param, InfoWriter& out) {
    const core::DeviceDescription& d = device.description();
    const auto& vectors = d.preferred_vector_widths;
    const auto& natives = d.native_vector_widths;
    // The image limits, or 0s for a device without images.
    constexpr bool images = caps::image_support;
    // clang-format off
    switch (param) {
    case CL_DEVICE_TYPE: return out.scalar<cl_device_type>(d.type);
    case CL_DEVICE_VENDOR_ID: return out.scalar<cl_uint>(d.vendor_id);
    case CL_DEVICE_MAX_COMPUTE_UNITS: return out.scalar<cl_uint>(d.compute_units);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: return out.scalar<cl_uint>(3);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: return out.array<size_t>(d.max_work_item_sizes);
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: return out.scalar<size_t>(d.max_work_group_size);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR: return out.scalar<cl_uint>(vectors[0]);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT: return out.scalar<cl_uint>(vectors[1]);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT: return out.scalar<cl_uint>(vectors[2]);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG: return out.scalar<cl_uint>(vectors[3]);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT: return out.scalar<cl_uint>(vectors[4]);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE: return out.scalar<cl_uint>(vectors[5]);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF: return out.scalar<cl_uint>(vectors[6]);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR: return out.scalar<cl_uint>(natives[0]);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT: return out.scalar<cl_uint>(natives[1]);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT: return out.scalar<cl_uint>(natives[2]);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG: return out.scalar<cl_uint>(natives[3]);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: return out.scalar<cl_uint>(natives[4]);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: return out.scalar<cl_uint>(natives[5]);
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: return out.scalar<cl_uint>(natives[6]);
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: return out.scalar<cl_uint>(d.max_clock_mhz);
    case CL_DEVICE_ADDRESS_BITS: return out.scalar<cl_uint>(sizeof(void*) * 8);
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: return out.scalar<cl_ulong>(d.max_mem_alloc_size);
    case CL_DEVICE_IMAGE_SUPPORT: return out.boolean(caps::image_support);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS: return out.scalar<cl_uint>(images ? d.max_read_image_args : 0);
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS: return out.scalar<cl_uint>(images ? d.max_write_image_args : 0);
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: return out.scalar<cl_uint>(caps::read_write_images ? d.max_read_write_image_args : 0);
    case CL_DEVICE_IL_VERSION: return out.string(core::il_version_string());
    case CL_DEVICE_ILS_WITH_VERSION: return out.name_versions(core::il_versions());
    case CL_DEVICE_IMAGE2D_MAX_WIDTH: return out.scalar<size_t>(images ? d.image2d_max_width : 0);
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT: return out.scalar<size_t>(images ? d.image2d_max_height : 0);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH: return out.scalar<size_t>(images ? d.image3d_max_width : 0);
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT: return out.scalar<size_t>(images ? d.image3d_max_height : 0);
    case CL_DEVICE_IMAGE3D_MAX_DEPTH: return out.scalar<size_t>(images ? d.image3d_max_depth : 0);
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: return out.scalar<size_t>(images ? d.image_max_buffer_size : 0);
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: return out.scalar<size_t>(images ? d.image_max_array_size : 0);
    case CL_DEVICE_MAX_SAMPLERS: return out.scalar<cl_uint>(images ? d.max_samplers : 0);
    // Both concern 2D images of buffers, which usmcl does not offer: 0.
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT: return out.scalar<cl_uint>(0);
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: return out.scalar<cl_uint>(0);
    case CL_DEVICE_MAX_PIPE_ARGS: return out.scalar<cl_uint>(0);
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS: return out.scalar<cl_uint>(0);
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE: return out.scalar<cl_uint>(0);
    case CL_DEVICE_MAX_PARAMETER_SIZE: return out.scalar<size_t>(4096);
    // 128 bytes, the size of the largest type (long16), in bits.
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: return out.scalar<cl_uint>(128 * 8);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: return out.scalar<cl_uint>(128);
    case CL_DEVICE_SINGLE_FP_CONFIG: return out.scalar<cl_device_fp_config>(single_fp_config);
    case CL_DEVICE_DOUBLE_FP_CONFIG: return out.scalar<cl_device_fp_config>(double_fp_config);
    case CL_DEVICE_HALF_FP_CONFIG: return out.scalar<cl_device_fp_config>(half_fp_config);
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: return out.scalar<cl_device_mem_cache_type>(CL_READ_WRITE_CACHE);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: return out.scalar<cl_uint>(d.global_mem_cacheline_size);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: return out.scalar<cl_ulong>(d.global_mem_cache_size);
    case CL_DEVICE_GLOBAL_MEM_SIZE: return out.scalar<cl_ulong>(d.global_mem_size);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE: return out.scalar<cl_ulong>(d.max_constant_buffer_size);
    case CL_DEVICE_MAX_CONSTANT_ARGS: return out.scalar<cl_uint>(8);
    // Program-scope globals live as long as the program, one copy per device,
    // next to the application's buffers (large ones outside the JIT's image,
    // kernels-compiler LargeGlobals). A sixteenth of the memory: the CTS's
    // progvar_prog_scope_misc fills a variable of this size, and one of
    // max_mem_alloc_size (then half the memory) was killed for want of memory on a
    // shared machine.
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
        return out.scalar<size_t>(
            std::min<size_t>(d.max_mem_alloc_size, d.global_mem_size / 16));
    case CL_DEVICE_LOCAL_MEM_TYPE: return out.scalar<cl_device_local_mem_type>(CL_GLOBAL);
    case CL_DEVICE_LOCAL_MEM_SIZE: return out.scalar<cl_ulong>(d.local_mem_size);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: return out.boolean(false);
    case CL_DEVICE_HOST_UNIFIED_MEMORY: return out.boolean(d.host_unified_memory);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION: return out.scalar<size_t>(support::host_timer_resolution_ns());
    case CL_DEVICE_ENDIAN_LITTLE: return out.boolean(little_endian);
    case CL_DEVICE_AVAILABLE: return out.boolean(true);
    case CL_DEVICE_COMPILER_AVAILABLE: return out.boolean(caps::compiler_available);
    case CL_DEVICE_LINKER_AVAILABLE: return out.boolean(caps::compiler_available);
    case CL_DEVICE_EXECUTION_CAPABILITIES: return out.scalar<cl_device_exec_capabilities>(CL_EXEC_KERNEL | CL_EXEC_NATIVE_KERNEL);
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES: return out.scalar<cl_command_queue_properties>(caps::queue_on_host_properties);
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: return out.scalar<cl_command_queue_properties>(0);
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE: return out.scalar<cl_uint>(0);
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE: return out.scalar<cl_uint>(0);
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES: return out.scalar<cl_uint>(0);
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS: return out.scalar<cl_uint>(0);
    case CL_DEVICE_BUILT_IN_KERNELS: return out.string("");
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: return out.name_versions({});
    case CL_DEVICE_PLATFORM: return out.scalar<cl_platform_id>(device.platform().handle());
    case CL_DEVICE_NAME: return out.string(d.name);
    case CL_DEVICE_VENDOR: return out.string(d.vendor);
    case CL_DRIVER_VERSION: return out.string(core::Platform::driver_version());
    case CL_DEVICE_PROFILE: return out.string(core::Platform::profile);
    case CL_DEVICE_VERSION: return out.string("OpenCL 3.0 usmcl");
    case CL_DEVICE_NUMERIC_VERSION: return out.scalar<cl_version>(CL_MAKE_VERSION(3, 0, 0));
    case CL_DEVICE_OPENCL_C_VERSION: return out.string("OpenCL C 1.2 usmcl");
    case CL_DEVICE_OPENCL_C_NUMERIC_VERSION_KHR: return out.scalar<cl_version>(CL_MAKE_VERSION(1, 2, 0));
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS: return out.name_versions(d.opencl_c_versions);
    case CL_DEVICE_OPENCL_C_FEATURES: return out.name_versions(d.opencl_c_features);
    case CL_DEVICE_EXTENSIONS: return out.string(d.extensions);
    case CL_DEVICE_EXTENSIONS_WITH_VERSION: return out.name_versions(d.extensions_with_version);
    case CL_DEVICE_PRINTF_BUFFER_SIZE: return out.scalar<size_t>(1024 * 1024);
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: return out.boolean(true);
    case CL_DEVICE_PARENT_DEVICE: return out.scalar<cl_device_id>(device.parent() ? device.parent()->handle() : nullptr);
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: return out.scalar<cl_uint>(d.compute_units > 1 && !d.partition_properties.empty() ? d.compute_units : 0);
    case CL_DEVICE_PARTITION_PROPERTIES: return out.array(partition_properties(device));
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: return out.scalar<cl_device_affinity_domain>(d.affinity_domains);
    case CL_DEVICE_PARTITION_TYPE: return out.array(device.partition_type());
    case CL_DEVICE_REFERENCE_COUNT: return out.scalar<cl_uint>(device.api_reference_count());
    // Every kind: a kernel reaches all of the host's memory at its address.
    case CL_DEVICE_SVM_CAPABILITIES:
        return out.scalar<cl_device_svm_capabilities>(
            CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
            CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS);
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT: return out.scalar<cl_uint>(0);
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT: return out.scalar<cl_uint>(0);
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: return out.scalar<cl_uint>(0);
    // Sub-groups of the smallest size filling the largest work-group.
    case CL_DEVICE_MAX_NUM_SUB_GROUPS:
        return out.scalar<cl_uint>(caps::sub_groups ? static_cast<cl_uint>((d.max_work_group_size + caps::sub_group_sizes[0] - 1) / caps::sub_group_sizes[0]) : 0);
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: return out.boolean(false);
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES: return out.scalar<cl_device_atomic_capabilities>(caps::atomic_memory);
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES: return out.scalar<cl_device_atomic_capabilities>(caps::atomic_fence);
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: return out.boolean(caps::non_uniform_work_groups);
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT:
        return out.boolean(caps::work_group_collectives);
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: return out.boolean(caps::generic_address_space);
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: return out.scalar<cl_device_device_enqueue_capabilities>(0);
    case CL_DEVICE_PIPE_SUPPORT: return out.boolean(false);
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: return out.scalar<size_t>(natives[4] ? natives[4] : 1);
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: return out.string("v0000-01-01-00");
    // cl_khr_device_uuid
    // cl_ext_float_atomics: the queries exist with the extension.
    case CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT:
    case CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT:
        if (!caps::float_atomics)
            return {CL_INVALID_VALUE, "cl_ext_float_atomics is not supported"};
        return out.scalar<cl_bitfield>(caps::fp_atomics);
    case CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT:
        if (!caps::float_atomics)
            return {CL_INVALID_VALUE, "cl_ext_float_atomics is not supported"};
        return out.scalar<cl_bitfield>(caps::half_fp_atomics);
    case CL_DEVICE_UUID_KHR: return out.array<cl_uchar>(d.device_uuid);
    case CL_DRIVER_UUID_KHR: return out.array<cl_uchar>(core::driver_uuid());
    case CL_DEVICE_LUID_VALID_KHR: return out.boolean(false);
    case CL_DEVICE_LUID_KHR: return out.array<cl_uchar>(std::array<cl_uchar, CL_LUID_SIZE_KHR>{});
    case CL_DEVICE_NODE_MASK_KHR: return out.scalar<cl_uint>(0);
    // cl_intel_unified_shared_memory
    case CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL:
    case CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL:
        return out.scalar<cl_device_unified_shared_memory_capabilities_intel>(core::capabilities::usm_capabilities);
    // cl_intel_required_subgroup_size
    case CL_DEVICE_SUB_GROUP_SIZES_INTEL:
        if (!caps::extension_enabled("cl_intel_required_subgroup_size"))
            return {CL_INVALID_VALUE, "cl_intel_required_subgroup_size is off"};
        return out.array<size_t>(caps::sub_group_sizes);
    default: return {CL_INVALID_VALUE, "unknown cl_device_info"};
    }
    // clang-format on
}

} // namespace

cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                                   size_t param_value_size, void* param_value,
                                   size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        core::Device* object = core::Device::from_handle(device);
        USMCL_CHECK(object, CL_INVALID_DEVICE, "not a device");
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        return device_info(*object, param_name, out);
    });
}

} // namespace usmcl::api
