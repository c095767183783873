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
  // printf support (reserved until printf lands).
  void *Printf;
};

// One work-group. Args points to the packed argument buffer of
// KernelInfo::ArgBufferSize bytes: each argument at ArgInfo::Offset, by
// value for scalars, vectors and structs; as an 8-byte address for
// __global/__constant pointers (0 for a NULL buffer); as an 8-byte offset
// into LaunchContext::LocalMemory for __local pointers.
using WorkGroupFunction = void (*)(const char *Args, LaunchContext *Context);

} // namespace kc
