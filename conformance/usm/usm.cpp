// Helpers of the sub-tests: kinds of memory, allocations, reading and
// writing any kind, programs and events.
#include "usm.hpp"

#include <cstdlib>
#include <cstring>
#include <new>

namespace usmconf {

const char* kind_name(Kind kind) {
    switch (kind) {
    case Kind::host: return "host";
    case Kind::device: return "device";
    case Kind::shared: return "shared";
    case Kind::shared_null_device: return "shared(NULL device)";
    case Kind::system: return "system";
    }
    return "?";
}

cl_device_unified_shared_memory_capabilities_intel Env::caps(Kind kind) const {
    switch (kind) {
    case Kind::host: return host_caps;
    case Kind::device: return device_caps;
    // "The cross-device shared memory access capabilities apply to any
    // shared allocation associated with this device" as well.
    case Kind::shared: return single_shared_caps | cross_shared_caps;
    // "Allocations with no associated device are accessible by the host and
    // OpenCL devices in the context that have cross-device access
    // capabilities."
    case Kind::shared_null_device: return cross_shared_caps;
    case Kind::system: return system_caps;
    }
    return 0;
}

bool Env::allocatable(Kind kind) const {
    switch (kind) {
    case Kind::host: return host_caps != 0;
    case Kind::device: return device_caps != 0;
    case Kind::shared:
    case Kind::shared_null_device: return (single_shared_caps | cross_shared_caps) != 0;
    case Kind::system: return true;
    }
    return false;
}

std::vector<Kind> Env::usable_kinds() const {
    std::vector<Kind> kinds;
    for (Kind kind : all_kinds)
        if (accessible(kind))
            kinds.push_back(kind);
    return kinds;
}

UserEvent::UserEvent(cl_context context) {
    cl_int error = CL_SUCCESS;
    event_ = clCreateUserEvent(context, &error);
    if (error != CL_SUCCESS || event_ == nullptr) {
        record_failure(__FILE__, __LINE__, "clCreateUserEvent: " + error_name(error));
        throw Abort{};
    }
}

UserEvent::~UserEvent() {
    if (!set_)
        clSetUserEventStatus(event_, CL_COMPLETE);
    clReleaseEvent(event_);
}

cl_int UserEvent::set(cl_int status) {
    set_ = true;
    return clSetUserEventStatus(event_, status);
}

Alloc::Alloc(Env& env, Kind kind, size_t size, cl_uint alignment,
             const cl_mem_properties_intel* properties)
    : env_(&env), kind_(kind), size_(size) {
    error_ = CL_OUT_OF_RESOURCES;
    switch (kind) {
    case Kind::host:
        ptr_ = env.usm.host_alloc(env.context, properties, size, alignment, &error_);
        break;
    case Kind::device:
        ptr_ = env.usm.device_alloc(env.context, env.device, properties, size, alignment, &error_);
        break;
    case Kind::shared:
        ptr_ = env.usm.shared_alloc(env.context, env.device, properties, size, alignment, &error_);
        break;
    case Kind::shared_null_device:
        ptr_ = env.usm.shared_alloc(env.context, nullptr, properties, size, alignment, &error_);
        break;
    case Kind::system: {
        const size_t align = alignment == 0 ? env.largest_type : alignment;
        ptr_ = ::operator new(size, std::align_val_t(align), std::nothrow);
        error_ = ptr_ != nullptr ? CL_SUCCESS : CL_OUT_OF_HOST_MEMORY;
        alignment_ = align;
        break;
    }
    }
    if (error_ != CL_SUCCESS && ptr_ != nullptr) {
        // Not what the spec allows; reported by the caller's checks.
        ptr_ = nullptr;
    }
}

Alloc::Alloc(Alloc&& other) noexcept
    : env_(other.env_), kind_(other.kind_), ptr_(std::exchange(other.ptr_, nullptr)),
      size_(other.size_), error_(other.error_), alignment_(other.alignment_) {}

Alloc& Alloc::operator=(Alloc&& other) noexcept {
    reset();
    env_ = other.env_;
    kind_ = other.kind_;
    ptr_ = std::exchange(other.ptr_, nullptr);
    size_ = other.size_;
    error_ = other.error_;
    alignment_ = other.alignment_;
    return *this;
}

void Alloc::reset() {
    if (ptr_ == nullptr)
        return;
    if (kind_ == Kind::system) {
        // Commands on system memory must have finished before it goes.
        clFinish(env_->queue);
        clFinish(env_->profiling_queue);
        ::operator delete(ptr_, std::align_val_t(alignment_), std::nothrow);
    } else {
        const cl_int error = env_->usm.blocking_free(env_->context, ptr_);
        if (error != CL_SUCCESS)
            record_failure(__FILE__, __LINE__,
                           "clMemBlockingFreeINTEL of a live allocation: " + error_name(error));
    }
    ptr_ = nullptr;
}

Alloc must_alloc(Env& env, Kind kind, size_t size, cl_uint alignment) {
    Alloc alloc(env, kind, size, alignment);
    if (alloc.error() != CL_SUCCESS || alloc.get() == nullptr) {
        record_failure(__FILE__, __LINE__,
                       std::string("allocation of ") + kind_name(kind) + " memory of " +
                           std::to_string(size) + " bytes: " + error_name(alloc.error()) +
                           ", pointer " + show(alloc.get()));
        throw Abort{};
    }
    return alloc;
}

void write_bytes(Env& env, Kind kind, void* dst, const void* src, size_t size) {
    if (host_accessible(kind)) {
        std::memcpy(dst, src, size);
        return;
    }
    const cl_int error = env.usm.memcpy(env.queue, CL_TRUE, dst, src, size, 0, nullptr, nullptr);
    if (error != CL_SUCCESS) {
        record_failure(__FILE__, __LINE__,
                       "clEnqueueMemcpyINTEL(host memory -> device allocation): " +
                           error_name(error));
        throw Abort{};
    }
}

void read_bytes(Env& env, Kind kind, void* dst, const void* src, size_t size) {
    if (host_accessible(kind)) {
        std::memcpy(dst, src, size);
        return;
    }
    const cl_int error = env.usm.memcpy(env.queue, CL_TRUE, dst, src, size, 0, nullptr, nullptr);
    if (error != CL_SUCCESS) {
        record_failure(__FILE__, __LINE__,
                       "clEnqueueMemcpyINTEL(device allocation -> host memory): " +
                           error_name(error));
        throw Abort{};
    }
}

Program build(Env& env, const char* source, const char* options) {
    cl_int error = CL_SUCCESS;
    Program program(clCreateProgramWithSource(env.context, 1, &source, nullptr, &error));
    if (error != CL_SUCCESS) {
        record_failure(__FILE__, __LINE__, "clCreateProgramWithSource: " + error_name(error));
        throw Abort{};
    }
    error = clBuildProgram(program.get(), 1, &env.device, options, nullptr, nullptr);
    if (error != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(program.get(), env.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        clGetProgramBuildInfo(program.get(), env.device, CL_PROGRAM_BUILD_LOG, size, log.data(),
                              nullptr);
        record_failure(__FILE__, __LINE__, "clBuildProgram: " + error_name(error) + "\n" + log);
        throw Abort{};
    }
    return program;
}

Kernel make_kernel(const Program& program, const char* name) {
    cl_int error = CL_SUCCESS;
    Kernel kernel(clCreateKernel(program.get(), name, &error));
    if (error != CL_SUCCESS) {
        record_failure(__FILE__, __LINE__,
                       std::string("clCreateKernel(") + name + "): " + error_name(error));
        throw Abort{};
    }
    return kernel;
}

cl_int event_status(cl_event event) {
    cl_int status = 1;
    const cl_int error =
        clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr);
    return error == CL_SUCCESS ? status : error;
}

cl_command_type command_type(cl_event event) {
    cl_command_type type = 0;
    const cl_int error = clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr);
    if (error != CL_SUCCESS)
        record_failure(__FILE__, __LINE__,
                       "clGetEventInfo(CL_EVENT_COMMAND_TYPE): " + error_name(error));
    return type;
}

Context other_context(Env& env) {
    cl_int error = CL_SUCCESS;
    const cl_context_properties properties[] = {
        CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(env.platform), 0};
    Context context(clCreateContext(properties, 1, &env.device, nullptr, nullptr, &error));
    if (error != CL_SUCCESS) {
        record_failure(__FILE__, __LINE__, "clCreateContext: " + error_name(error));
        throw Abort{};
    }
    return context;
}

Device foreign_device(Env& env) {
    // Another device of the platform.
    cl_uint count = 0;
    clGetDeviceIDs(env.platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count);
    std::vector<cl_device_id> devices(count);
    if (count > 0)
        clGetDeviceIDs(env.platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr);
    for (cl_device_id device : devices)
        if (device != env.device)
            return Device(device);
    // A sub-device of the device under test.
    cl_uint max_sub_devices = 0;
    clGetDeviceInfo(env.device, CL_DEVICE_PARTITION_MAX_SUB_DEVICES, sizeof(max_sub_devices),
                    &max_sub_devices, nullptr);
    if (max_sub_devices < 2)
        return Device();
    const cl_device_partition_property counts[] = {CL_DEVICE_PARTITION_BY_COUNTS, 1,
                                                   CL_DEVICE_PARTITION_BY_COUNTS_LIST_END, 0};
    const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
    for (const cl_device_partition_property* how : {counts, equally}) {
        cl_uint made = 0;
        if (clCreateSubDevices(env.device, how, 0, nullptr, &made) != CL_SUCCESS || made == 0)
            continue;
        std::vector<cl_device_id> subs(made);
        if (clCreateSubDevices(env.device, how, made, subs.data(), nullptr) != CL_SUCCESS)
            continue;
        for (cl_uint i = 1; i < made; ++i)
            clReleaseDevice(subs[i]);
        return Device(subs[0]);
    }
    return Device();
}

} // namespace usmconf

namespace usmconf {

const Program& common_program(Env& env) {
    static Program program;
    static cl_context built_for = nullptr;
    if (!program || built_for != env.context) {
        static const char* source = R"CLC(
kernel void rw(global const int* in, global int* out, int add) {
    size_t i = get_global_id(0);
    out[i] = in[i] * 3 + add;
}
kernel void atomic_count(global int* counter) {
    atomic_inc(counter);
}
kernel void read_const(constant int* in, global int* out) {
    size_t i = get_global_id(0);
    out[i] = in[i] + 1;
}
kernel void args_mix(global int* p, local int* l, int v) {
    l[get_local_id(0)] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    p[get_global_id(0)] = l[get_local_id(0)];
}
typedef struct { ulong next; int value; int pad; } node_t;
kernel void walk(ulong head, global int* out) {
    const global node_t* n = (const global node_t*)(uintptr_t)head;
    int sum = 0;
    int count = 0;
    while (n != 0 && count < 100000) {
        sum += n->value;
        count++;
        n = (const global node_t*)(uintptr_t)n->next;
    }
    out[0] = sum;
    out[1] = count;
}
)CLC";
        program = build(env, source);
        built_for = env.context;
    }
    return program;
}

} // namespace usmconf
