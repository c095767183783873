// Runs an NDRange: every work-group of a kernel's work-group function, in
// chunks of groups taken by the device's workers.
#pragma once

#include "kc/Launch.h"
#include "runtime/thread_pool.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace usmcl::runtime {

struct NDRange {
    std::uint32_t dimensions = 1;
    std::array<std::uint64_t, 3> global_offset{0, 0, 0};
    std::array<std::uint64_t, 3> global_size{1, 1, 1};
    std::array<std::uint64_t, 3> local_size{1, 1, 1}; // enqueued local size
};

// Calls function once per work-group of range; args is the packed argument
// buffer; each worker gives the groups it runs a local memory arena of
// local_memory_bytes. Returns when every group has run and what the kernel
// printed is written to stdout. The calling thread takes part (it is a
// worker of pool when called from a command). memory_domain is the number
// of the memory domain of the kernel's device, which kernel_memory_domain()
// answers on every thread while it runs the kernel's groups.
void run_ndrange(ThreadPool& pool, kc::WorkGroupFunction function, const char* args,
                 const NDRange& range, std::size_t local_memory_bytes,
                 std::uint32_t memory_domain = 0);

// The memory domain of the kernel whose work-groups the calling thread is
// running, 0 (the host's) when it runs none. Async-signal-safe: a fault
// handler asks it to know whose access faulted.
std::uint32_t kernel_memory_domain();

} // namespace usmcl::runtime
