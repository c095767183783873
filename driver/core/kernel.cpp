#include "core/kernel.hpp"
#include "core/capabilities.hpp"

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

Result<Program::DeviceBuild> Kernel::executable_of(const Program& program) {
    for (Device* device : program.devices())
        if (auto build = program.executable_for(*device))
            return *build;
    return Status(CL_INVALID_PROGRAM_EXECUTABLE, "the program has no executable");
}

Result<Kernel*> Kernel::create(Program& program, const Program::DeviceBuild& build,
                               const kc::KernelInfo& info) {
    std::vector<DeviceFunction> functions;
    for (Device* device : program.devices()) {
        auto device_build = program.executable_for(*device);
        if (!device_build)
            continue;
        kc::WorkGroupFunction function = device_build->native->lookup(info.Name);
        if (!function)
            return Status(CL_OUT_OF_RESOURCES, "the kernel's native code could not be produced");
        functions.push_back({device, function});
    }
    auto* kernel = new Kernel(program, build.module, info, std::move(functions));
    // The compiler tells per kernel: OpenCL C 2.0 or later, compiled without
    // -cl-uniform-work-group-size.
    kernel->set_non_uniform_work_groups(capabilities::non_uniform_work_groups &&
                                        !info.UniformWorkGroupSize);
    return kernel;
}

cl_ulong Kernel::local_memory_size() const {
    std::lock_guard lock(mutex_);
    cl_ulong local = info_.StaticLocalMemSize;
    for (const Argument& argument : arguments_)
        local += argument.local_size;
    return local;
}

size_t Kernel::max_work_group_items(const Device& device) const {
    const auto& reqd = info_.ReqdWorkGroupSize;
    return reqd[0] ? reqd[0] * reqd[1] * reqd[2] : device.description().max_work_group_size;
}

size_t Kernel::sub_groups_for(size_t items) const {
    const size_t width = info_.SubGroupSize;
    return (items + width - 1) / width;
}

std::array<size_t, 3> Kernel::local_size_for_sub_groups(const Device& device, size_t count) const {
    std::array<size_t, 3> local{0, 0, 0};
    const auto& reqd = info_.ReqdWorkGroupSize;
    if (count == 0)
        return local;
    if (reqd[0] != 0) {
        if (sub_groups_for(reqd[0] * reqd[1] * reqd[2]) == count)
            local = {reqd[0], reqd[1], reqd[2]};
    } else if (count <= max_work_group_items(device) / info_.SubGroupSize) {
        local = {count * info_.SubGroupSize, 1, 1};
    }
    return local;
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
