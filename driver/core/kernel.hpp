// A kernel: one kernel of a built program, with the arguments set so far.
#pragma once

#include "core/mem_object.hpp"
#include "core/object.hpp"
#include "core/program.hpp"

#include <CL/cl.h>

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
