// Everything clGetDeviceInfo reports about a device that is not a switch in
// capabilities.hpp: figures read from the hardware (hwloc, cpuid) once, when
// the device is created.
#pragma once

#include "cpu/topology.hpp"
#include "kc/Launch.h"

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace usmcl::core {

struct NameVersion {
    std::string name;
    cl_version version;
};

struct DeviceDescription {
    cl_device_type type = CL_DEVICE_TYPE_CPU;
    // False for a discrete-memory device: its memory is not the host's.
    bool host_unified_memory = true;
    std::string name;
    std::string vendor;
    cl_uint vendor_id = 0;
    cl_uint compute_units = 1;
    cl_uint max_clock_mhz = 0;
    cl_ulong global_mem_size = 0;
    cl_ulong max_mem_alloc_size = 0;
    cl_ulong global_mem_cache_size = 0;
    cl_uint global_mem_cacheline_size = 64;
    cl_ulong local_mem_size = 0;
    cl_ulong max_constant_buffer_size = 0;
    // The compiler's limit: the work-group collectives' scratch has a slot
    // per work-item.
    size_t max_work_group_size = kc::MaxWorkGroupSize;
    std::array<size_t, 3> max_work_item_sizes{kc::MaxWorkGroupSize, kc::MaxWorkGroupSize,
                                              kc::MaxWorkGroupSize};
    // char, short, int, long, float, double, half
    std::array<cl_uint, 7> native_vector_widths{};
    std::array<cl_uint, 7> preferred_vector_widths{};
    std::vector<unsigned> numa_nodes;
    cl_device_affinity_domain affinity_domains = 0; // splittable domains (+ next partitionable)
    std::vector<cl_device_partition_property> partition_properties; // supported schemes
    std::array<cl_uchar, CL_UUID_SIZE_KHR> device_uuid{};
    std::string extensions; // space-separated
    std::vector<NameVersion> extensions_with_version;
    std::vector<NameVersion> opencl_c_features;
    std::vector<NameVersion> opencl_c_versions;
    // Images (docs/images.md): limits in texels, at or above the full
    // profile's minimums; an image is also bounded by max_mem_alloc_size.
    size_t image2d_max_width = 16384;
    size_t image2d_max_height = 16384;
    size_t image3d_max_width = 2048;
    size_t image3d_max_height = 2048;
    size_t image3d_max_depth = 2048;
    size_t image_max_buffer_size = 65536;
    size_t image_max_array_size = 2048;
    cl_uint max_read_image_args = 128;
    cl_uint max_write_image_args = 64;
    cl_uint max_read_write_image_args = 64;
    cl_uint max_samplers = 16;
};

DeviceDescription describe_device(const cpu::Topology& topology, const cpu::CpuSet& pus);

// The sub-group size of kernels that require none: the floats of one of the
// host's vector registers (8 with AVX2, 16 with AVX-512), at least the
// smallest of capabilities::sub_group_sizes.
cl_uint default_sub_group_size();

// A discrete-memory device (docs/memory-model.md): the CPU device's
// description over the same processing units, with memory_bytes of memory
// of its own, and its own name and identity (a sub-device's differs from
// its parent's through its processing units).
DeviceDescription describe_discrete_device(const cpu::Topology& topology, const cpu::CpuSet& pus,
                                           unsigned index, cl_device_type type,
                                           cl_ulong memory_bytes);

// The OpenCL bit of an affinity domain.
cl_device_affinity_domain affinity_domain_bit(cpu::AffinityDomain domain);

// The universally unique identifier of this driver build.
const std::array<cl_uchar, CL_UUID_SIZE_KHR>& driver_uuid();

} // namespace usmcl::core
