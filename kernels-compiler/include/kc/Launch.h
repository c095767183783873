//===- kc/Launch.h - The ABI between generated code and the driver --------===//
//
// A kernel is compiled into a work-group function: one call runs every
// work-item of one work-group. The driver calls it once per group with the
// packed kernel arguments and a launch context; the work-item builtins
// (get_global_id & co.) read the context.
//
// This layout is shared by the generated code and the driver: change both,
// and the binary format version, together.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace kc {

// The largest work-group the generated code supports: the work-group
// collective functions keep one 8-byte slot per work-item, plus one, in a
// __local scratch area of this many slots (lib/Passes/LocalMemory.cpp).
// The driver's CL_DEVICE_MAX_WORK_GROUP_SIZE is at most this.
constexpr uint64_t MaxWorkGroupSize = 4096;

struct LaunchContext {
  uint32_t WorkDim; // 1, 2 or 3
  uint32_t Reserved;
  uint64_t GlobalSize[3];   // unused dimensions: 1
  uint64_t GlobalOffset[3]; // unused dimensions: 0
  uint64_t EnqueuedLocalSize[3];
  uint64_t NumGroups[3];
  // Set by the driver before each call:
  uint64_t GroupId[3];
  uint64_t LocalSize[3]; // this group's size (smaller at the edge of a
                         // non-uniform NDRange)
  // The calling worker's local memory arena: the kernel's static __local
  // variables at [0, KernelInfo::StaticLocalMemSize), then the __local
  // arguments at the offsets the driver wrote into the argument buffer.
  char *LocalMemory;
  // The launch's printf buffer (a PrintfBuffer), or null: printf then
  // returns -1 and prints nothing.
  void *Printf;
  // Size of the arena at LocalMemory: to_local/get_fence answer "local" for
  // the addresses in [LocalMemory, LocalMemory + LocalMemorySize).
  uint64_t LocalMemorySize;
  // The calling thread's stack, where the work-items' private memory lives:
  // to_private/get_fence answer "private" in [PrivateBegin, PrivateEnd).
  char *PrivateBegin;
  char *PrivateEnd;
};

// What LaunchContext::Printf points to. A printf call reserves a record of
// its size at Data + Offset by bumping Offset atomically (records of one
// work-item are in its program order); when a record does not fit in
// Capacity, PrintfFull is set in Offset and that printf and every later one
// of the launch return -1 without writing. After the launch, the records
// lie back to back in [Data, Data + (Offset & ~PrintfFull)).
struct PrintfBuffer {
  uint64_t Offset;
  uint64_t Capacity;
  char *Data; // 8-byte aligned
};
inline constexpr uint64_t PrintfFull = uint64_t(1) << 63;

// One printf record, every part 8-byte aligned:
//   uint32_t Size;          the whole record, a multiple of 8
//   uint32_t ArgCount;
//   uint64_t Format;        address of the format string (NUL-terminated)
//   uint32_t ArgSizes[ArgCount], padded to a multiple of 8 bytes
//   the arguments, each as passed to printf (after the default argument
//   promotions: char and short as int, float as double when the device
//   has doubles; vectors as they are, 3-element vectors as 3 elements;
//   strings and %p as 8-byte addresses), each padded to a multiple of 8.
struct PrintfRecordHeader {
  uint32_t Size;
  uint32_t ArgCount;
  uint64_t Format;
};

// One work-group. Args points to the packed argument buffer of
// KernelInfo::ArgBufferSize bytes: each argument at ArgInfo::Offset, by
// value for scalars, vectors and structs; as an 8-byte address for
// __global/__constant pointers (0 for a NULL buffer); as an 8-byte offset
// into LaunchContext::LocalMemory for __local pointers.
using WorkGroupFunction = void (*)(const char *Args, LaunchContext *Context);

} // namespace kc
