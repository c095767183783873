// Helpers of the USM tests: the extension's functions looked up as
// applications look them up (clGetExtensionFunctionAddressForPlatform) and a
// context with one queue; owning handles, program building and bounded waits
// come from cl_handles.hpp.
#pragma once

#include <CL/usm_functions.h>

#include "cl_handles.hpp"

#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace usm_test {

using namespace std::chrono_literals;

// The functions of cl_intel_unified_shared_memory (CL/usm_functions.h).
using Usm = usm_functions;

inline Usm load_usm(cl_platform_id platform) {
    Usm usm{};
    const char* missing = load_usm_functions(platform, &usm);
    INFO("the platform lacks " << (missing ? missing : "nothing"));
    REQUIRE(missing == nullptr);
    return usm;
}

// The kinds of memory the USM tests use: the three allocation kinds, a
// shared allocation without an associated device, and plain system memory
// (aligned_alloc). Each test lists the kinds it covers.
enum class Kind { host, device, shared, shared_no_device, system };

inline const char* kind_name(Kind kind) {
    switch (kind) {
    case Kind::host: return "host";
    case Kind::device: return "device";
    case Kind::shared: return "shared";
    case Kind::shared_no_device: return "shared without device";
    case Kind::system: return "system";
    }
    return "?";
}

// What clGetMemAllocInfoINTEL's CL_MEM_ALLOC_TYPE_INTEL answers for kind.
inline cl_unified_shared_memory_type_intel type_of(Kind kind) {
    switch (kind) {
    case Kind::host: return CL_MEM_TYPE_HOST_INTEL;
    case Kind::device: return CL_MEM_TYPE_DEVICE_INTEL;
    case Kind::shared:
    case Kind::shared_no_device: return CL_MEM_TYPE_SHARED_INTEL;
    case Kind::system: return CL_MEM_TYPE_UNKNOWN_INTEL;
    }
    return CL_MEM_TYPE_UNKNOWN_INTEL;
}

// The kernel exec info flag that lets a kernel reach allocations of kind
// indirectly (0 for system memory, which needs none).
inline cl_kernel_exec_info indirect_access_flag(Kind kind) {
    switch (kind) {
    case Kind::host: return CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL;
    case Kind::device: return CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL;
    case Kind::shared:
    case Kind::shared_no_device: return CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL;
    case Kind::system: return 0;
    }
    return 0;
}

// One allocation call of a USM kind in context, its error in *error (may be
// NULL); device goes to device and shared allocations (shared_no_device
// passes NULL). System memory is not allocated here: NULL, CL_INVALID_VALUE.
inline void* try_alloc(const Usm& usm, Kind kind, cl_context context, cl_device_id device,
                       const cl_mem_properties_intel* properties, size_t size, cl_uint alignment,
                       cl_int* error) {
    switch (kind) {
    case Kind::host: return usm.host_alloc(context, properties, size, alignment, error);
    case Kind::device: return usm.device_alloc(context, device, properties, size, alignment, error);
    case Kind::shared: return usm.shared_alloc(context, device, properties, size, alignment, error);
    case Kind::shared_no_device:
        return usm.shared_alloc(context, nullptr, properties, size, alignment, error);
    case Kind::system: break;
    }
    if (error != nullptr)
        *error = CL_INVALID_VALUE;
    return nullptr;
}

using cl_test::build_program;
using cl_test::event_status;
using cl_test::EventPtr;
using cl_test::hang_limit;
using cl_test::KernelPtr;
using cl_test::make_kernel;
using cl_test::make_queue;
using cl_test::make_user_event;
using cl_test::MemPtr;
using cl_test::ProgramPtr;
using cl_test::QueuePtr;
using cl_test::wait_bounded;

// A context on the root device with one in-order queue, and the USM
// functions.
struct Fixture {
    cl_platform_id platform = cl_test::platform();
    cl_device_id device = cl_test::device();
    cl_test::ContextPtr context = cl_test::make_context({device});
    QueuePtr queue = make_queue(context.get(), device);
    Usm usm = load_usm(platform);

    cl_context ctx() const { return context.get(); }
    cl_command_queue q() const { return queue.get(); }

    // Allocations that must succeed (freed by the caller with usm.free).
    void* host(size_t size, cl_uint alignment = 0) const {
        cl_int error = CL_OUT_OF_RESOURCES;
        void* p = usm.host_alloc(ctx(), nullptr, size, alignment, &error);
        REQUIRE_OK(error);
        REQUIRE(p != nullptr);
        return p;
    }
    void* dev(size_t size, cl_uint alignment = 0) const {
        cl_int error = CL_OUT_OF_RESOURCES;
        void* p = usm.device_alloc(ctx(), device, nullptr, size, alignment, &error);
        REQUIRE_OK(error);
        REQUIRE(p != nullptr);
        return p;
    }
    void* shared(size_t size, cl_uint alignment = 0, cl_device_id on = nullptr) const {
        cl_int error = CL_OUT_OF_RESOURCES;
        void* p = usm.shared_alloc(ctx(), on, nullptr, size, alignment, &error);
        REQUIRE_OK(error);
        REQUIRE(p != nullptr);
        return p;
    }
    // An allocation of a USM kind (not system) that must succeed.
    void* alloc(Kind kind, size_t size, cl_uint alignment = 0) const {
        INFO(kind_name(kind) << " allocation of " << size << " bytes");
        cl_int error = CL_OUT_OF_RESOURCES;
        void* p = try_alloc(usm, kind, ctx(), device, nullptr, size, alignment, &error);
        REQUIRE_OK(error);
        REQUIRE(p != nullptr);
        return p;
    }
};

// Memory of one kind, freed at scope exit (system memory: aligned_alloc, 128
// bytes aligned like the USM allocations).
struct Memory {
    const Fixture& f;
    Kind kind;
    size_t size;
    void* ptr = nullptr;

    Memory(const Fixture& fixture, Kind k, size_t bytes) : f(fixture), kind(k), size(bytes) {
        if (kind == Kind::system) {
            ptr = std::aligned_alloc(128, (size + 127) / 128 * 128);
            REQUIRE(ptr != nullptr);
        } else {
            ptr = f.alloc(kind, size);
        }
    }
    Memory(const Memory&) = delete;
    Memory& operator=(const Memory&) = delete;
    ~Memory() {
        if (kind == Kind::system)
            std::free(ptr);
        else
            f.usm.free(f.ctx(), ptr);
    }

    unsigned char* bytes() const { return static_cast<unsigned char*>(ptr); }
    template <class T>
    T* as() const {
        return static_cast<T*>(ptr);
    }
};

} // namespace usm_test
