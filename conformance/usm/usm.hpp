// The environment of the sub-tests: the chosen platform and device, a
// context and queues on it, the functions of cl_intel_unified_shared_memory
// (looked up with clGetExtensionFunctionAddressForPlatform), the device's
// capabilities, and helpers to allocate, fill and read every kind of memory.
#pragma once

#include "harness.hpp"

#include <CL/usm_functions.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace usmconf {

// The functions of the extension (CL/usm_functions.h).
using UsmFunctions = usm_functions;

// The kinds of memory a kernel or a command may use.
enum class Kind {
    host,               // clHostMemAllocINTEL
    device,             // clDeviceMemAllocINTEL on the device under test
    shared,             // clSharedMemAllocINTEL on the device under test
    shared_null_device, // clSharedMemAllocINTEL with device NULL
    system,             // the system allocator (shared system allocation)
};

inline constexpr Kind all_kinds[] = {Kind::host, Kind::device, Kind::shared,
                                     Kind::shared_null_device, Kind::system};

const char* kind_name(Kind kind);

struct Env {
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;           // in order
    cl_command_queue profiling_queue = nullptr; // in order, CL_QUEUE_PROFILING_ENABLE
    UsmFunctions usm;

    cl_device_unified_shared_memory_capabilities_intel host_caps = 0;
    cl_device_unified_shared_memory_capabilities_intel device_caps = 0;
    cl_device_unified_shared_memory_capabilities_intel single_shared_caps = 0;
    cl_device_unified_shared_memory_capabilities_intel cross_shared_caps = 0;
    cl_device_unified_shared_memory_capabilities_intel system_caps = 0;

    // The size of the largest data type of the device (long16: 128 bytes,
    // or 64 bytes on an embedded profile device without 64-bit integers).
    size_t largest_type = 128;
    cl_ulong max_alloc_size = 0;

    // The capabilities that apply to allocations of a kind.
    cl_device_unified_shared_memory_capabilities_intel caps(Kind kind) const;
    // Whether the allocation API for the kind must succeed (caps non zero).
    bool allocatable(Kind kind) const;
    // Whether a kernel on the device may read and write the kind.
    bool accessible(Kind kind) const {
        return (caps(kind) & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL);
    }
    bool atomic_accessible(Kind kind) const {
        return accessible(kind) && (caps(kind) & CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL);
    }
    // Kinds the device can use: USM kinds with ACCESS, and system memory
    // when the device reports shared system access.
    std::vector<Kind> usable_kinds() const;
};

// ------------------------------------------------------------- handles --

template <class T, cl_int(CL_API_CALL* Release)(T)>
class Handle {
public:
    Handle() = default;
    explicit Handle(T object) : object_(object) {}
    Handle(const Handle&) = delete;
    Handle& operator=(const Handle&) = delete;
    Handle(Handle&& other) noexcept : object_(std::exchange(other.object_, nullptr)) {}
    Handle& operator=(Handle&& other) noexcept {
        reset(std::exchange(other.object_, nullptr));
        return *this;
    }
    ~Handle() { reset(); }
    void reset(T object = nullptr) {
        if (object_ != nullptr)
            Release(object_);
        object_ = object;
    }
    T get() const { return object_; }
    T* out() {
        reset();
        return &object_;
    }
    explicit operator bool() const { return object_ != nullptr; }

private:
    T object_ = nullptr;
};

using Context = Handle<cl_context, clReleaseContext>;
using Queue = Handle<cl_command_queue, clReleaseCommandQueue>;
using Program = Handle<cl_program, clReleaseProgram>;
using Kernel = Handle<cl_kernel, clReleaseKernel>;
using Event = Handle<cl_event, clReleaseEvent>;
using Device = Handle<cl_device_id, clReleaseDevice>;

// A user event that is completed (if nothing set its status) when it goes
// out of scope, so that a failed check never leaves commands gated forever.
class UserEvent {
public:
    UserEvent(cl_context context);
    ~UserEvent();
    UserEvent(const UserEvent&) = delete;
    UserEvent& operator=(const UserEvent&) = delete;
    cl_event get() const { return event_; }
    cl_int set(cl_int status);

private:
    cl_event event_ = nullptr;
    bool set_ = false;
};

// An allocation of some kind, freed (blocking) when it goes out of scope.
class Alloc {
public:
    Alloc() = default;
    Alloc(Env& env, Kind kind, size_t size, cl_uint alignment = 0,
          const cl_mem_properties_intel* properties = nullptr);
    Alloc(const Alloc&) = delete;
    Alloc& operator=(const Alloc&) = delete;
    Alloc(Alloc&& other) noexcept;
    Alloc& operator=(Alloc&& other) noexcept;
    ~Alloc() { reset(); }
    void reset();
    // Gives up ownership (the caller frees the allocation).
    void* release() { return std::exchange(ptr_, nullptr); }

    void* get() const { return ptr_; }
    template <class T>
    T* as() const {
        return static_cast<T*>(ptr_);
    }
    std::byte* bytes() const { return static_cast<std::byte*>(ptr_); }
    Kind kind() const { return kind_; }
    size_t size() const { return size_; }
    cl_int error() const { return error_; }

private:
    Env* env_ = nullptr;
    Kind kind_ = Kind::host;
    void* ptr_ = nullptr;
    size_t size_ = 0;
    cl_int error_ = CL_SUCCESS;
    size_t alignment_ = 0; // of system memory
};

// Allocates memory of a kind that the device reports it can use; the
// sub-test stops if the allocation fails.
Alloc must_alloc(Env& env, Kind kind, size_t size, cl_uint alignment = 0);

// Whether the host may read and write memory of the kind directly.
inline bool host_accessible(Kind kind) {
    return kind != Kind::device;
}

// Writes host data into memory of any kind (directly, or with a blocking
// clEnqueueMemcpyINTEL from host memory for device allocations).
void write_bytes(Env& env, Kind kind, void* dst, const void* src, size_t size);
// Reads memory of any kind into host memory.
void read_bytes(Env& env, Kind kind, void* dst, const void* src, size_t size);

template <class T>
std::vector<T> read_vector(Env& env, Kind kind, const void* src, size_t count) {
    std::vector<T> out(count);
    read_bytes(env, kind, out.data(), src, count * sizeof(T));
    return out;
}

// Builds a program from source for the device under test (stops the
// sub-test with the build log on failure).
Program build(Env& env, const char* source, const char* options = "");
Kernel make_kernel(const Program& program, const char* name);

// The kernels the sub-tests share (built once per run):
//   rw(global const int* in, global int* out, int add): out[i] = in[i] * 3 + add
//   atomic_count(global int* counter): atomic_inc(counter)
//   read_const(constant int* in, global int* out): out[i] = in[i] + 1
//   args_mix(global int* p, local int* l, int v)
//   walk(ulong head, global int* out): sums a linked list of Node
const Program& common_program(Env& env);

// A linked-list node as the kernel "walk" sees it.
struct Node {
    cl_ulong next;
    cl_int value;
    cl_int pad;
};

// Waits for an event with a bound (the watchdog catches a hang anyway).
cl_int event_status(cl_event event);
cl_command_type command_type(cl_event event);

// Another context on the same device (for CL_INVALID_CONTEXT checks).
Context other_context(Env& env);

// A device that is valid but not in env.context (a sub-device, or another
// device of the platform), or nothing.
Device foreign_device(Env& env);

} // namespace usmconf
