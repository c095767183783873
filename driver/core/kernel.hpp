// A kernel: one kernel of a built program, with the arguments set so far.
#pragma once

#include "core/mem_object.hpp"
#include "core/object.hpp"
#include "core/program.hpp"
#include "core/result.hpp"

#include <CL/cl.h>

#include <array>
#include <mutex>
#include <vector>

namespace usmcl::core {

class Kernel : public Object<Kernel, _cl_kernel, ObjectType::kernel> {
public:
    // The work-group function of the kernel on one device of the program.
    struct DeviceFunction {
        const Device* device;
        kc::WorkGroupFunction function;
    };
    // info: of the program's executable (shared by its devices); functions:
    // per device with an executable (devices may share one function, or have
    // their own when the program has program-scope globals).
    Kernel(Program& program, std::shared_ptr<const kc::Module> module, const kc::KernelInfo& info,
           std::vector<DeviceFunction> functions);
    // clCloneKernel: the same kernel with the same arguments.
    Kernel(const Kernel& other);

    // The executable build the program's devices share, or
    // CL_INVALID_PROGRAM_EXECUTABLE.
    static Result<Program::DeviceBuild> executable_of(const Program& program);
    // clCreateKernel, clCreateKernelsInProgram: the kernel info names, of
    // build (the program's executable), with each device's native code.
    static Result<Kernel*> create(Program& program, const Program::DeviceBuild& build,
                                  const kc::KernelInfo& info);

    Program& program() const { return *program_; }
    const kc::KernelInfo& info() const { return info_; }
    // Whether an NDRange may end in smaller work-groups: the program was
    // built as OpenCL C 2.0 or later without -cl-uniform-work-group-size.
    bool non_uniform_work_groups() const { return non_uniform_work_groups_; }
    void set_non_uniform_work_groups(bool allowed) { non_uniform_work_groups_ = allowed; }
    // The work-group function on device; null if the program has no
    // executable for it.
    kc::WorkGroupFunction function_for(const Device& device) const;

    struct Argument {
        bool set = false;
        // Buffers and images (null for a NULL buffer). clSetKernelArg does
        // not retain the object: releasing it frees it (its destructor
        // callbacks run) even while the kernel still names it; an enqueue
        // takes it only if it still lives (mem_serial tells it from a new
        // object at the same address).
        MemObject* mem = nullptr;
        std::uint64_t mem_serial = 0;
        size_t local_size = 0;    // __local pointers
        bool usm_pointer = false; // clSetKernelArgMemPointerINTEL: the value is the pointer
    };
    // What the arguments are now, for an enqueue (under the kernel's lock),
    // with a reference to each argument's memory object.
    struct Snapshot {
        std::vector<char> buffer;
        std::vector<Argument> arguments;
        std::vector<Ref<MemObject>> mems;      // per argument; empty for other kinds
        std::vector<const void*> usm_pointers; // CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL and _SVM_PTRS
        unsigned indirect_kinds = 0;           // usm_kind_bit of the indirect-access flags
        // The first argument whose memory object the application released
        // since it was set, or -1.
        int released_argument = -1;
    };
    Snapshot snapshot() const;
    bool all_arguments_set() const;

    // clSetKernelArg: checks the value against the argument's kind and
    // type (the spec's error codes) and sets it; nothing changes on error.
    Status set_argument(cl_uint index, size_t size, const void* value);

    // Bytes of local memory a work-group uses: the kernel's own and its
    // __local arguments' (CL_KERNEL_LOCAL_MEM_SIZE).
    cl_ulong local_memory_size() const;
    // Sub-groups (clGetKernelSubGroupInfo): the most work-items a
    // work-group of the kernel has on device (its required size, or the
    // device's limit); how many sub-groups items work-items make; a 1D
    // local size (dims entries) of count whole sub-groups (the required
    // size if the kernel has one and it makes count sub-groups), zeros when
    // there is none.
    size_t max_work_group_items(const Device& device) const;
    size_t sub_groups_for(size_t items) const;
    std::array<size_t, 3> local_size_for_sub_groups(const Device& device, size_t count) const;

    // Sets argument index (already validated against info().Args[index]).
    void set_value(cl_uint index, const void* value, size_t size);
    void set_buffer(cl_uint index, MemObject* mem);
    void set_local(cl_uint index, size_t size);
    // clSetKernelArgMemPointerINTEL: a pointer for a __global or __constant argument.
    void set_usm_pointer(cl_uint index, const void* pointer);

    // clSetKernelExecInfo: the USM allocations the kernel may use
    // indirectly (replacing the previous set), and the kinds of allocation
    // it may reach indirectly (usm_kind_bit).
    void set_usm_pointers(std::vector<const void*> pointers);
    // CL_KERNEL_EXEC_INFO_SVM_PTRS: the same for SVM pointers, a set of its
    // own (setting one set leaves the other alone).
    void set_svm_pointers(std::vector<const void*> pointers);
    void set_indirect_access(unsigned kind_bit, bool enabled);

private:
    friend class Object<Kernel, _cl_kernel, ObjectType::kernel>;
    ~Kernel();

    Ref<Program> program_;
    const kc::KernelInfo& info_;
    std::vector<DeviceFunction> functions_;
    // Keeps info_ (owned by the module) alive.
    std::shared_ptr<const kc::Module> module_;
    mutable std::mutex mutex_;
    std::vector<char> buffer_;
    std::vector<Argument> arguments_;
    std::vector<const void*> usm_pointers_;
    std::vector<const void*> svm_pointers_;
    unsigned indirect_kinds_ = 0;
    bool non_uniform_work_groups_ = false;
};

} // namespace usmcl::core
