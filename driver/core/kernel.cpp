#include "core/kernel.hpp"

#include <cstring>

namespace usmcl::core {

Kernel::Kernel(Program& program, std::shared_ptr<const kc::Module> module,
               const kc::KernelInfo& info, std::vector<DeviceFunction> functions)
    : program_(&program), info_(info), functions_(std::move(functions)), module_(std::move(module)),
      buffer_(info.ArgBufferSize, 0), arguments_(info.Args.size()) {
    program.kernel_created();
}

Kernel::Kernel(const Kernel& other)
    : Object(), program_(other.program_), info_(other.info_), functions_(other.functions_),
      module_(other.module_), non_uniform_work_groups_(other.non_uniform_work_groups_) {
    std::lock_guard lock(other.mutex_);
    buffer_ = other.buffer_;
    arguments_ = other.arguments_;
    usm_pointers_ = other.usm_pointers_;
    svm_pointers_ = other.svm_pointers_;
    indirect_kinds_ = other.indirect_kinds_;
    program_->kernel_created();
}

kc::WorkGroupFunction Kernel::function_for(const Device& device) const {
    for (const DeviceFunction& entry : functions_)
        if (entry.device == &device)
            return entry.function;
    return nullptr;
}

Kernel::~Kernel() {
    program_->kernel_released();
}

Kernel::Snapshot Kernel::snapshot() const {
    std::lock_guard lock(mutex_);
    Snapshot snapshot{buffer_, arguments_, {}, usm_pointers_, indirect_kinds_};
    snapshot.usm_pointers.insert(snapshot.usm_pointers.end(), svm_pointers_.begin(),
                                 svm_pointers_.end());
    snapshot.mems.resize(arguments_.size());
    for (size_t i = 0; i < arguments_.size(); ++i) {
        const Argument& argument = arguments_[i];
        if (!argument.mem)
            continue;
        snapshot.mems[i] = ref_if_live(argument.mem, argument.mem_serial);
        if (!snapshot.mems[i] && snapshot.released_argument < 0)
            snapshot.released_argument = static_cast<int>(i);
    }
    return snapshot;
}

bool Kernel::all_arguments_set() const {
    std::lock_guard lock(mutex_);
    for (const Argument& argument : arguments_)
        if (!argument.set)
            return false;
    return true;
}

void Kernel::set_value(cl_uint index, const void* value, size_t size) {
    std::lock_guard lock(mutex_);
    std::memcpy(buffer_.data() + info_.Args[index].Offset, value, size);
    arguments_[index] = {true, nullptr, 0, 0, false};
}

void Kernel::set_buffer(cl_uint index, MemObject* mem) {
    std::lock_guard lock(mutex_);
    std::memset(buffer_.data() + info_.Args[index].Offset, 0, sizeof(void*));
    arguments_[index] = {true, mem, mem ? mem->serial() : 0, 0, false};
}

void Kernel::set_local(cl_uint index, size_t size) {
    std::lock_guard lock(mutex_);
    arguments_[index] = {true, nullptr, 0, size, false};
}

void Kernel::set_usm_pointer(cl_uint index, const void* pointer) {
    std::lock_guard lock(mutex_);
    std::memcpy(buffer_.data() + info_.Args[index].Offset, &pointer, sizeof pointer);
    arguments_[index] = {true, nullptr, 0, 0, true};
}

void Kernel::set_usm_pointers(std::vector<const void*> pointers) {
    std::lock_guard lock(mutex_);
    usm_pointers_ = std::move(pointers);
}

void Kernel::set_svm_pointers(std::vector<const void*> pointers) {
    std::lock_guard lock(mutex_);
    svm_pointers_ = std::move(pointers);
}

void Kernel::set_indirect_access(unsigned kind_bit, bool enabled) {
    std::lock_guard lock(mutex_);
    if (enabled)
        indirect_kinds_ |= kind_bit;
    else
        indirect_kinds_ &= ~kind_bit;
}

} // namespace usmcl::core
