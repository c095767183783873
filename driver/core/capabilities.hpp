// The device capabilities that are switches rather than hardware facts. One
// line changes what every query reports (see also device_features.def).
#pragma once

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <string_view>

namespace usmcl::core::capabilities {

// Whether device_features.def switches the extension or OpenCL C feature on.
constexpr bool extension_enabled(std::string_view wanted) {
#define USMCL_DEVICE_EXTENSION(name, major, minor, patch, enabled)                                 \
    if (wanted == #name)                                                                           \
        return enabled;
#include "core/device_features.def"
    return false;
}
constexpr bool opencl_c_feature_enabled(std::string_view wanted) {
#define USMCL_OPENCL_C_FEATURE(name, major, minor, patch, enabled)                                 \
    if (wanted == #name)                                                                           \
        return enabled;
#include "core/device_features.def"
    return false;
}

// Work-group collective functions (kernels-compiler/builtins/collectives.cl).
inline constexpr bool work_group_collectives =
    opencl_c_feature_enabled("__opencl_c_work_group_collective_functions");
// cl_ext_float_atomics (kernels-compiler/builtins/atomics.cl): load, store,
// exchange, add, sub, min and max on float and double, global and local
// memory alike; on half too, with cl_khr_fp16 (the __opencl_c_ext_fp16_*
// features of device_features.def).
#ifndef CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
#define CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 0)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT (1 << 1)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT (1 << 2)
#define CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 16)
#define CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT (1 << 17)
#define CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT (1 << 18)
#define CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231
#define CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT 0x4232
#define CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT 0x4233
#endif
inline constexpr bool float_atomics = extension_enabled("cl_ext_float_atomics");
inline constexpr cl_bitfield fp_atomics =
    float_atomics
        ? CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |
              CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |
              CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT
        : 0;
inline constexpr cl_bitfield half_fp_atomics =
    float_atomics && opencl_c_feature_enabled("__opencl_c_ext_fp16_global_atomic_add")
        ? CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |
              CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |
              CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT
        : 0;
// Sub-groups (kernels-compiler/README.md): __opencl_c_subgroups in
// device_features.def.
inline constexpr bool sub_groups = opencl_c_feature_enabled("__opencl_c_subgroups");
// The sizes intel_reqd_sub_group_size may ask for (kc::SupportedSubGroupSizes,
// CL_DEVICE_SUB_GROUP_SIZES_INTEL); the smallest bounds
// CL_DEVICE_MAX_NUM_SUB_GROUPS.
inline constexpr size_t sub_group_sizes[] = {4, 8, 16, 32, 64};

// Kernels compile in process (kernels-compiler/).
inline constexpr bool compiler_available = true;
// Images and samplers (docs/images.md): follows __opencl_c_images.
inline constexpr bool image_support = opencl_c_feature_enabled("__opencl_c_images");
// Image arguments a kernel both reads and writes (read_write).
inline constexpr bool read_write_images = opencl_c_feature_enabled("__opencl_c_read_write_images");
// Double precision (cl_khr_fp64 and __opencl_c_fp64 in device_features.def):
// IEEE 754 binary64 on the host's FPU, FMA and denormals included.
inline constexpr bool fp64 = true;
// Half precision (cl_khr_fp16): computed in float and rounded to half once,
// denormals and infinities kept, round to nearest even; fma is correctly
// rounded (kernels-compiler/builtins/half.cl).
inline constexpr bool fp16 = extension_enabled("cl_khr_fp16");
// Host queues: in-order and out-of-order, with profiling.
inline constexpr cl_command_queue_properties queue_on_host_properties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
// Atomics (kernels-compiler/builtins/atomics.cl): every order and scope.
// Work-items run on the host's threads in the process's address space, so
// each atomic is the CPU's own at system scope, which serves every narrower
// one; __opencl_c_atomic_* in device_features.def report the same.
inline constexpr cl_device_atomic_capabilities atomic_orders = CL_DEVICE_ATOMIC_ORDER_RELAXED |
                                                               CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                                               CL_DEVICE_ATOMIC_ORDER_SEQ_CST;
inline constexpr cl_device_atomic_capabilities atomic_memory =
    atomic_orders | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP | CL_DEVICE_ATOMIC_SCOPE_DEVICE |
    CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES;
// Fences also order a single work-item's accesses (work-item scope).
inline constexpr cl_device_atomic_capabilities atomic_fence =
    atomic_memory | CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM;
// NDRanges whose global size is not a multiple of the local size end in
// smaller work-groups (the launcher gives each group its own size).
inline constexpr bool non_uniform_work_groups = true;
// Pointers without an address space (OpenCL C 3.0): follows the feature.
inline constexpr bool generic_address_space =
    opencl_c_feature_enabled("__opencl_c_generic_address_space");
// cl_intel_unified_shared_memory, for every kind of allocation (host,
// device, single- and cross-device shared, shared system): kernels run on
// the host's threads in the process's address space, atomics are the CPU's
// own, memory is coherent and never migrates behind the application's back
// (docs/usm.md).
inline constexpr cl_bitfield usm_capabilities =
    CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |
    CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL |
    CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL;

// The queries and the lists must tell the same story.
static_assert(extension_enabled("cl_khr_3d_image_writes") ==
                  opencl_c_feature_enabled("__opencl_c_3d_image_writes"),
              "cl_khr_3d_image_writes and __opencl_c_3d_image_writes go together");
static_assert(!opencl_c_feature_enabled("__opencl_c_3d_image_writes") || image_support,
              "3D image writes need images");
static_assert(!read_write_images || image_support, "read-write images need images");
static_assert(fp64 == extension_enabled("cl_khr_fp64") &&
                  fp64 == opencl_c_feature_enabled("__opencl_c_fp64"),
              "cl_khr_fp64, __opencl_c_fp64 and fp64 go together");
static_assert(((atomic_memory & CL_DEVICE_ATOMIC_ORDER_ACQ_REL) != 0) ==
                  opencl_c_feature_enabled("__opencl_c_atomic_order_acq_rel"),
              "__opencl_c_atomic_order_acq_rel");
static_assert(((atomic_memory & CL_DEVICE_ATOMIC_ORDER_SEQ_CST) != 0) ==
                  opencl_c_feature_enabled("__opencl_c_atomic_order_seq_cst"),
              "__opencl_c_atomic_order_seq_cst");
static_assert(((atomic_memory & CL_DEVICE_ATOMIC_SCOPE_DEVICE) != 0) ==
                  opencl_c_feature_enabled("__opencl_c_atomic_scope_device"),
              "__opencl_c_atomic_scope_device");
static_assert(((atomic_memory & CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES) != 0) ==
                  opencl_c_feature_enabled("__opencl_c_atomic_scope_all_devices"),
              "__opencl_c_atomic_scope_all_devices");

} // namespace usmcl::core::capabilities
