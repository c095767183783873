//===- kc/KernelInfo.h - What the driver needs to know of a kernel --------===//
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace kc {

enum class AddressSpace : uint8_t { Private, Global, Constant, Local, Generic };

enum class ArgKind : uint8_t {
  Value, // scalar, vector or struct passed by value
  GlobalPointer,
  ConstantPointer,
  LocalPointer,
  Image,
  Sampler,
};

// Values of the OpenCL enums (CL_KERNEL_ARG_ACCESS_*, CL_KERNEL_ARG_TYPE_*),
// repeated here so the compiler needs no OpenCL header.
enum : uint32_t {
  ArgAccessReadOnly = 0x11A0,
  ArgAccessWriteOnly = 0x11A1,
  ArgAccessReadWrite = 0x11A2,
  ArgAccessNone = 0x11A3,
};
enum : uint32_t {
  ArgTypeNone = 0,
  ArgTypeConst = 1 << 0,
  ArgTypeRestrict = 1 << 1,
  ArgTypeVolatile = 1 << 2,
  ArgTypePipe = 1 << 3,
};

struct ArgInfo {
  std::string Name;     // empty unless built with -cl-kernel-arg-info
  std::string TypeName; // e.g. "float*", "int4", "struct S"
  ArgKind Kind = ArgKind::Value;
  AddressSpace AddrSpace = AddressSpace::Private;
  uint32_t AccessQualifier = ArgAccessNone;
  uint32_t TypeQualifier = ArgTypeNone;
  uint32_t Size = 0; // bytes clSetKernelArg must be given (8 for pointers)
  uint32_t Align = 1;
  uint32_t Offset = 0; // in the packed argument buffer
  // Pointer arguments: the kernel provably never writes (ReadOnly) or never
  // reads (WriteOnly) through it. Both false when unknown.
  bool ReadOnly = false;
  bool WriteOnly = false;
};

struct KernelInfo {
  std::string Name;
  std::vector<ArgInfo> Args;
  uint32_t ArgBufferSize = 0;
  bool HasArgNames = false; // built with -cl-kernel-arg-info
  std::array<uint64_t, 3> ReqdWorkGroupSize{0, 0, 0}; // 0s: none
  std::array<uint64_t, 3> WorkGroupSizeHint{0, 0, 0};
  std::string VecTypeHint;         // e.g. "float4"
  std::string Attributes;          // CL_KERNEL_ATTRIBUTES
  uint64_t PrivateMemSize = 0;     // per work-item
  uint64_t StaticLocalMemSize = 0; // __local variables declared in the kernel
  bool UsesBarriers = false;
  // Every work-group must be of the enqueued local size: the kernel was
  // compiled as OpenCL C 1.x or with -cl-uniform-work-group-size (Clang's
  // "uniform-work-group-size" function attribute). When false, the last
  // group of a dimension may be smaller (non-uniform work-groups).
  bool UniformWorkGroupSize = true;
  // The sub-group size the kernel was compiled for (the SIMD width of its
  // work-item loop): intel_reqd_sub_group_size(N) when given (then also
  // ReqdSubGroupSize), else the device's default (DeviceTarget).
  uint32_t SubGroupSize = 1;
  uint32_t ReqdSubGroupSize = 0; // 0: none
};

} // namespace kc
