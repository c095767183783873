// The device capabilities that are switches rather than hardware facts. One
// line changes what every query reports (see also device_features.def).
#pragma once

#include <CL/cl.h>
#include <CL/cl_ext.h>

namespace usmcl::core::capabilities {

// Kernels compile in process (kernels-compiler/).
inline constexpr bool compiler_available = true;
inline constexpr bool image_support = false;
inline constexpr bool fp64 = false;
// Host queues: in-order and out-of-order, with profiling.
inline constexpr cl_command_queue_properties queue_on_host_properties =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
// The minimum OpenCL 3.0 allows until the builtins implement more.
inline constexpr cl_device_atomic_capabilities atomic_memory =
    CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
inline constexpr cl_device_atomic_capabilities atomic_fence =
    CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
    CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP;
inline constexpr bool non_uniform_work_groups = false;
// cl_intel_unified_shared_memory, for every kind of allocation (host,
// device, single- and cross-device shared, shared system): kernels run on
// the host's threads in the process's address space, atomics are the CPU's
// own, memory is coherent and never migrates behind the application's back
// (docs/usm.md).
inline constexpr cl_bitfield usm_capabilities =
    CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |
    CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL |
    CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL;

} // namespace usmcl::core::capabilities
