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
    // info and function: of the program's executable (shared by its devices).
    Kernel(Program& program, std::shared_ptr<const kc::Module> module, const kc::KernelInfo& info,
           kc::WorkGroupFunction function);
    // clCloneKernel: the same kernel with the same arguments.
    Kernel(const Kernel& other);

    Program& program() const { return *program_; }
    const kc::KernelInfo& info() const { return info_; }
    kc::WorkGroupFunction function() const { return function_; }

    struct Argument {
        bool set = false;
        Ref<MemObject> mem;    // buffers (null for a NULL buffer)
        size_t local_size = 0; // __local pointers
    };
    // What the arguments are now, for an enqueue (under the kernel's lock).
    struct Snapshot {
        std::vector<char> buffer;
        std::vector<Argument> arguments;
    };
    Snapshot snapshot() const;
    bool all_arguments_set() const;

    // Sets argument index (already validated against info().Args[index]).
    void set_value(cl_uint index, const void* value, size_t size);
    void set_buffer(cl_uint index, MemObject* mem);
    void set_local(cl_uint index, size_t size);

private:
    friend class Object<Kernel, _cl_kernel, ObjectType::kernel>;
    ~Kernel();

    Ref<Program> program_;
    const kc::KernelInfo& info_;
    kc::WorkGroupFunction function_;
    // Keeps info_ (owned by the module) alive.
    std::shared_ptr<const kc::Module> module_;
    mutable std::mutex mutex_;
    std::vector<char> buffer_;
    std::vector<Argument> arguments_;
};

} // namespace usmcl::core
