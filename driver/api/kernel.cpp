// Kernel entry points: clCreateKernel, clCreateKernelsInProgram,
// clCloneKernel, clRetainKernel, clReleaseKernel, clSetKernelArg,
// clGetKernelInfo, clGetKernelArgInfo, clGetKernelWorkGroupInfo,
// clGetKernelSubGroupInfo[KHR], clSetKernelExecInfo, and
// clSetKernelArgMemPointerINTEL (cl_intel_unified_shared_memory).
#include "core/kernel.hpp"
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/info_writer.hpp"
#include "core/capabilities.hpp"
#include "core/sampler.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

namespace usmcl::api {
namespace {

using core::Kernel;
using core::Program;

// The executable build shared by the program's devices, or
// CL_INVALID_PROGRAM_EXECUTABLE.
Result<Program::DeviceBuild> executable_of(const Program& program) {
    for (core::Device* device : program.devices())
        if (auto build = program.executable_for(*device))
            return *build;
    return Status(CL_INVALID_PROGRAM_EXECUTABLE, "the program has no executable");
}

Result<Kernel*> create_kernel(Program& program, const Program::DeviceBuild& build,
                              const kc::KernelInfo& info) {
    std::vector<Kernel::DeviceFunction> functions;
    for (core::Device* device : program.devices()) {
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
    kernel->set_non_uniform_work_groups(core::capabilities::non_uniform_work_groups &&
                                        !info.UniformWorkGroupSize);
    return kernel;
}

// A sampler argument: its kernel bits (kc/ImageDescriptor.h) as the value.
Status set_sampler(Kernel& kernel, cl_uint index, size_t size, const void* value) {
    // The size first: a sampler argument is always sizeof(cl_sampler).
    USMCL_CHECK(size == sizeof(cl_sampler), CL_INVALID_ARG_SIZE,
                "arg_size is not sizeof(cl_sampler)");
    USMCL_CHECK(value, CL_INVALID_ARG_VALUE, "arg_value is NULL");
    core::Sampler* sampler = core::Sampler::from_handle(*static_cast<const cl_sampler*>(value));
    USMCL_CHECK(sampler, CL_INVALID_SAMPLER, "arg_value is not a sampler");
    USMCL_CHECK(&sampler->context() == &kernel.program().context(), CL_INVALID_SAMPLER,
                "the sampler is of another context");
    const std::uint64_t bits = sampler->kernel_bits();
    kernel.set_value(index, &bits, sizeof bits);
    return {};
}

// An image argument: the image, whose descriptor the enqueue passes.
Status set_image(Kernel& kernel, cl_uint index, const kc::ArgInfo& arg, size_t size,
                 const void* value) {
    USMCL_CHECK(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE, "arg_size is not sizeof(cl_mem)");
    USMCL_CHECK(value, CL_INVALID_ARG_VALUE, "arg_value is NULL");
    core::MemObject* mem = core::MemObject::from_handle(*static_cast<const cl_mem*>(value));
    USMCL_CHECK(mem && mem->image(), CL_INVALID_MEM_OBJECT, "arg_value is not an image");
    USMCL_CHECK(&mem->context() == &kernel.program().context(), CL_INVALID_MEM_OBJECT,
                "the image is of another context");
    // CL_INVALID_ARG_VALUE for a read_only argument and a CL_MEM_WRITE_ONLY
    // image, or a write_only argument and a CL_MEM_READ_ONLY image.
    USMCL_CHECK(
        !(arg.AccessQualifier == kc::ArgAccessReadOnly && (mem->flags() & CL_MEM_WRITE_ONLY)),
        CL_INVALID_ARG_VALUE, "a write-only image for a read_only argument");
    USMCL_CHECK(
        !(arg.AccessQualifier == kc::ArgAccessWriteOnly && (mem->flags() & CL_MEM_READ_ONLY)),
        CL_INVALID_ARG_VALUE, "a read-only image for a write_only argument");
    kernel.set_buffer(index, mem);
    return {};
}

Status set_argument(Kernel& kernel, cl_uint index, size_t size, const void* value) {
    const auto& args = kernel.info().Args;
    USMCL_CHECK(index < args.size(), CL_INVALID_ARG_INDEX, "arg_index is out of range");
    const kc::ArgInfo& arg = args[index];
    switch (arg.Kind) {
    case kc::ArgKind::GlobalPointer:
    case kc::ArgKind::ConstantPointer: {
        // A buffer or a NULL buffer: the size of cl_mem.
        USMCL_CHECK(size == sizeof(cl_mem), CL_INVALID_ARG_SIZE, "arg_size is not sizeof(cl_mem)");
        cl_mem handle = value ? *static_cast<const cl_mem*>(value) : nullptr;
        if (!handle) {
            kernel.set_buffer(index, nullptr);
            return {};
        }
        core::MemObject* mem = core::MemObject::from_handle(handle);
        USMCL_CHECK(mem && !mem->image(), CL_INVALID_MEM_OBJECT, "arg_value is not a buffer");
        USMCL_CHECK(&mem->context() == &kernel.program().context(), CL_INVALID_MEM_OBJECT,
                    "the memory object is of another context");
        kernel.set_buffer(index, mem);
        return {};
    }
    case kc::ArgKind::LocalPointer:
        // __local: a size, and no value.
        USMCL_CHECK(value == nullptr, CL_INVALID_ARG_VALUE, "a __local argument with a value");
        USMCL_CHECK(size != 0, CL_INVALID_ARG_SIZE, "a __local argument of size 0");
        kernel.set_local(index, size);
        return {};
    case kc::ArgKind::Sampler: return set_sampler(kernel, index, size, value);
    case kc::ArgKind::Image: return set_image(kernel, index, arg, size, value);
    case kc::ArgKind::Value:
        USMCL_CHECK(value, CL_INVALID_ARG_VALUE, "arg_value is NULL");
        USMCL_CHECK(size == arg.Size, CL_INVALID_ARG_SIZE,
                    "arg_size is not the size of the argument's type");
        kernel.set_value(index, value, size);
        return {};
    }
    return {CL_INVALID_ARG_INDEX, "unknown argument kind"};
}

cl_kernel_arg_address_qualifier address_qualifier(const kc::ArgInfo& arg) {
    switch (arg.Kind) {
    case kc::ArgKind::GlobalPointer: return CL_KERNEL_ARG_ADDRESS_GLOBAL;
    case kc::ArgKind::ConstantPointer: return CL_KERNEL_ARG_ADDRESS_CONSTANT;
    case kc::ArgKind::LocalPointer: return CL_KERNEL_ARG_ADDRESS_LOCAL;
    case kc::ArgKind::Image: return CL_KERNEL_ARG_ADDRESS_GLOBAL;
    default: return CL_KERNEL_ARG_ADDRESS_PRIVATE;
    }
}

} // namespace

cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char* kernel_name,
                                     cl_int* errcode_ret) {
    return guarded_create<cl_kernel>(__func__, errcode_ret, [&]() -> Result<cl_kernel> {
        Program* object = Program::from_handle(program);
        if (!object)
            return Status(CL_INVALID_PROGRAM, "not a program");
        auto build = executable_of(*object);
        if (!build.ok())
            return build.status();
        if (!kernel_name)
            return Status(CL_INVALID_VALUE, "kernel_name is NULL");
        for (const kc::KernelInfo& info : build.value().module->kernels())
            if (info.Name == kernel_name) {
                auto kernel = create_kernel(*object, build.value(), info);
                if (!kernel.ok())
                    return kernel.status();
                return kernel.value()->handle();
            }
        return Status(CL_INVALID_KERNEL_NAME, "no kernel of that name");
    });
}

cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels,
                                            cl_kernel* kernels, cl_uint* num_kernels_ret) {
    return guarded(__func__, [&]() -> Status {
        Program* object = Program::from_handle(program);
        USMCL_CHECK(object, CL_INVALID_PROGRAM, "not a program");
        auto build = executable_of(*object);
        USMCL_TRY(build.status());
        const auto& infos = build.value().module->kernels();
        USMCL_CHECK(!kernels || num_kernels >= infos.size(), CL_INVALID_VALUE,
                    "num_kernels is smaller than the number of kernels");
        if (kernels) {
            std::vector<Kernel*> created;
            for (const kc::KernelInfo& info : infos) {
                auto kernel = create_kernel(*object, build.value(), info);
                if (!kernel.ok()) {
                    for (Kernel* done : created)
                        done->release_api();
                    return kernel.status();
                }
                created.push_back(kernel.value());
            }
            for (size_t i = 0; i < created.size(); ++i)
                kernels[i] = created[i]->handle();
        }
        if (num_kernels_ret)
            *num_kernels_ret = static_cast<cl_uint>(infos.size());
        return {};
    });
}

cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int* errcode_ret) {
    return guarded_create<cl_kernel>(__func__, errcode_ret, [&]() -> Result<cl_kernel> {
        Kernel* object = Kernel::from_handle(source_kernel);
        if (!object)
            return Status(CL_INVALID_KERNEL, "not a kernel");
        return (new Kernel(*object))->handle();
    });
}

cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
    return guarded(__func__, [&]() -> Status {
        Kernel* object = Kernel::from_handle(kernel);
        USMCL_CHECK(object, CL_INVALID_KERNEL, "not a kernel");
        object->retain_api();
        return {};
    });
}

cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
    return guarded(__func__, [&]() -> Status {
        Kernel* object = Kernel::from_handle(kernel);
        USMCL_CHECK(object, CL_INVALID_KERNEL, "not a kernel");
        object->release_api();
        return {};
    });
}

cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                  const void* arg_value) {
    return guarded(__func__, [&]() -> Status {
        Kernel* object = Kernel::from_handle(kernel);
        USMCL_CHECK(object, CL_INVALID_KERNEL, "not a kernel");
        return set_argument(*object, arg_index, arg_size, arg_value);
    });
}

namespace {

// A list of pointers (CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, _SVM_PTRS); any
// pointer value is valid. OpenCL 3.0 makes (0, NULL) the empty set of SVM
// pointers (empty_allowed); the USM extension has no such case.
Result<std::vector<const void*>> pointer_list(size_t size, const void* value, bool empty_allowed) {
    if (empty_allowed && size == 0 && !value)
        return std::vector<const void*>{};
    if (!value || size == 0)
        return Status(CL_INVALID_VALUE, "param_value and param_value_size disagree");
    if (size % sizeof(void*) != 0)
        return Status(CL_INVALID_VALUE, "param_value_size is not a multiple of sizeof(void *)");
    const auto* pointers = static_cast<const void* const*>(value);
    return std::vector<const void*>(pointers, pointers + size / sizeof(void*));
}

// clSetKernelArgMemPointerINTEL and clSetKernelArgSVMPointer: any pointer
// value is valid, since the device supports shared system allocations (a
// kernel reaches all of the process's memory).
Status set_pointer_argument(cl_kernel kernel, cl_uint arg_index, const void* arg_value) {
    Kernel* object = Kernel::from_handle(kernel);
    USMCL_CHECK(object, CL_INVALID_KERNEL, "not a kernel");
    const auto& args = object->info().Args;
    USMCL_CHECK(arg_index < args.size(), CL_INVALID_ARG_INDEX, "arg_index is out of range");
    const kc::ArgKind kind = args[arg_index].Kind;
    USMCL_CHECK(kind == kc::ArgKind::GlobalPointer || kind == kc::ArgKind::ConstantPointer,
                CL_INVALID_ARG_VALUE,
                "the argument is not a pointer to __global or __constant memory");
    object->set_usm_pointer(arg_index, arg_value);
    return {};
}

} // namespace

cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info param_name,
                                       size_t param_value_size, const void* param_value) {
    return guarded(__func__, [&]() -> Status {
        Kernel* object = Kernel::from_handle(kernel);
        USMCL_CHECK(object, CL_INVALID_KERNEL, "not a kernel");
        switch (param_name) {
        case CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL:
        case CL_KERNEL_EXEC_INFO_SVM_PTRS: {
            Result<std::vector<const void*>> list = pointer_list(
                param_value_size, param_value, param_name == CL_KERNEL_EXEC_INFO_SVM_PTRS);
            USMCL_TRY(list.status());
            if (param_name == CL_KERNEL_EXEC_INFO_SVM_PTRS)
                object->set_svm_pointers(std::move(list).value());
            else
                object->set_usm_pointers(std::move(list).value());
            return {};
        }
        // Whether the kernel may reach any host memory (default CL_TRUE):
        // on a CPU device it always may, so either answer is kept.
        case CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM:
            USMCL_CHECK(param_value && param_value_size == sizeof(cl_bool), CL_INVALID_VALUE,
                        "param_value_size is not sizeof(cl_bool)");
            return {};
        case CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL:
        case CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL:
        case CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL: {
            USMCL_CHECK(param_value && param_value_size == sizeof(cl_bool), CL_INVALID_VALUE,
                        "param_value_size is not sizeof(cl_bool)");
            const memory::UsmKind kind =
                param_name == CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL ? memory::UsmKind::host
                : param_name == CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL
                    ? memory::UsmKind::device
                    : memory::UsmKind::shared;
            object->set_indirect_access(core::usm_kind_bit(kind),
                                        *static_cast<const cl_bool*>(param_value) != CL_FALSE);
            return {};
        }
        default: return {CL_INVALID_VALUE, "unknown cl_kernel_exec_info"};
        }
    });
}

cl_int CL_API_CALL clSetKernelArgMemPointerINTEL(cl_kernel kernel, cl_uint arg_index,
                                                 const void* arg_value) {
    return guarded(__func__, [&] { return set_pointer_argument(kernel, arg_index, arg_value); });
}

cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint arg_index,
                                            const void* arg_value) {
    return guarded(__func__, [&] { return set_pointer_argument(kernel, arg_index, arg_value); });
}

cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name,
                                   size_t param_value_size, void* param_value,
                                   size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        Kernel* object = Kernel::from_handle(kernel);
        USMCL_CHECK(object, CL_INVALID_KERNEL, "not a kernel");
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        const kc::KernelInfo& info = object->info();
        switch (param_name) {
        case CL_KERNEL_FUNCTION_NAME: return out.string(info.Name);
        case CL_KERNEL_NUM_ARGS: return out.scalar<cl_uint>(static_cast<cl_uint>(info.Args.size()));
        case CL_KERNEL_REFERENCE_COUNT: return out.scalar<cl_uint>(object->api_reference_count());
        case CL_KERNEL_CONTEXT: return out.scalar<cl_context>(object->program().context().handle());
        case CL_KERNEL_PROGRAM: return out.scalar<cl_program>(object->program().handle());
        case CL_KERNEL_ATTRIBUTES: return out.string(info.Attributes);
        default: return {CL_INVALID_VALUE, "unknown cl_kernel_info"};
        }
    });
}

cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_index,
                                      cl_kernel_arg_info param_name, size_t param_value_size,
                                      void* param_value, size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        Kernel* object = Kernel::from_handle(kernel);
        USMCL_CHECK(object, CL_INVALID_KERNEL, "not a kernel");
        const kc::KernelInfo& info = object->info();
        USMCL_CHECK(arg_index < info.Args.size(), CL_INVALID_ARG_INDEX,
                    "arg_index is out of range");
        // Only with -cl-kernel-arg-info (or from source, per the spec's
        // "may be available"): usmcl keeps it when the option was given.
        USMCL_CHECK(info.HasArgNames, CL_KERNEL_ARG_INFO_NOT_AVAILABLE,
                    "built without -cl-kernel-arg-info");
        const kc::ArgInfo& arg = info.Args[arg_index];
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        switch (param_name) {
        case CL_KERNEL_ARG_ADDRESS_QUALIFIER:
            return out.scalar<cl_kernel_arg_address_qualifier>(address_qualifier(arg));
        case CL_KERNEL_ARG_ACCESS_QUALIFIER:
            return out.scalar<cl_kernel_arg_access_qualifier>(arg.AccessQualifier);
        case CL_KERNEL_ARG_TYPE_NAME: return out.string(arg.TypeName);
        case CL_KERNEL_ARG_TYPE_QUALIFIER:
            return out.scalar<cl_kernel_arg_type_qualifier>(arg.TypeQualifier);
        case CL_KERNEL_ARG_NAME: return out.string(arg.Name);
        default: return {CL_INVALID_VALUE, "unknown cl_kernel_arg_info"};
        }
    });
}

cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                            cl_kernel_work_group_info param_name,
                                            size_t param_value_size, void* param_value,
                                            size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        Kernel* object = Kernel::from_handle(kernel);
        USMCL_CHECK(object, CL_INVALID_KERNEL, "not a kernel");
        // device may be NULL when the kernel's program has one device.
        core::Device* target = nullptr;
        const auto devices = object->program().devices();
        if (device) {
            target = core::Device::from_handle(device);
            USMCL_CHECK(target &&
                            std::find(devices.begin(), devices.end(), target) != devices.end(),
                        CL_INVALID_DEVICE, "not a device of the kernel's program");
        } else {
            USMCL_CHECK(devices.size() == 1, CL_INVALID_DEVICE,
                        "device is NULL and the program has several devices");
            target = devices.front();
        }
        const kc::KernelInfo& info = object->info();
        const core::DeviceDescription& d = target->description();
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        const std::array<size_t, 3> compile_size{
            info.ReqdWorkGroupSize[0], info.ReqdWorkGroupSize[1], info.ReqdWorkGroupSize[2]};
        switch (param_name) {
        case CL_KERNEL_WORK_GROUP_SIZE: return out.scalar<size_t>(d.max_work_group_size);
        case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: return out.array<size_t>(compile_size);
        case CL_KERNEL_LOCAL_MEM_SIZE: {
            cl_ulong local = info.StaticLocalMemSize;
            for (const auto& argument : object->snapshot().arguments)
                local += argument.local_size;
            return out.scalar<cl_ulong>(local);
        }
        case CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE:
            return out.scalar<size_t>(d.native_vector_widths[4] ? d.native_vector_widths[4] : 1);
        case CL_KERNEL_PRIVATE_MEM_SIZE: return out.scalar<cl_ulong>(info.PrivateMemSize);
        case CL_KERNEL_GLOBAL_WORK_SIZE:
            // Only for custom devices and built-in kernels.
            return {CL_INVALID_VALUE, "CL_KERNEL_GLOBAL_WORK_SIZE of a CPU kernel"};
        default: return {CL_INVALID_VALUE, "unknown cl_kernel_work_group_info"};
        }
    });
}

namespace {

// The device a per-device kernel query is about: device, which must be one
// of the program's, or the program's only device when device is NULL.
Result<core::Device*> query_device(Kernel& kernel, cl_device_id device) {
    const auto devices = kernel.program().devices();
    if (!device) {
        USMCL_CHECK(devices.size() == 1, CL_INVALID_DEVICE,
                    "device is NULL and the program has several devices");
        return devices.front();
    }
    core::Device* target = core::Device::from_handle(device);
    USMCL_CHECK(target && std::find(devices.begin(), devices.end(), target) != devices.end(),
                CL_INVALID_DEVICE, "not a device of the kernel's program");
    return target;
}

// The work-items of the local size given as the input of
// CL_KERNEL_{MAX_SUB_GROUP_SIZE,SUB_GROUP_COUNT}_FOR_NDRANGE: an array of
// 1 to 3 size_t.
Result<size_t> input_local_items(size_t size, const void* value) {
    // CL_INVALID_VALUE if input_value_size is not valid or input_value is NULL.
    USMCL_CHECK(value, CL_INVALID_VALUE, "input_value is NULL");
    USMCL_CHECK(size % sizeof(size_t) == 0 && size >= sizeof(size_t) && size <= 3 * sizeof(size_t),
                CL_INVALID_VALUE, "input_value_size is not 1 to 3 size_t");
    size_t sizes[3] = {1, 1, 1};
    std::memcpy(sizes, value, size);
    return sizes[0] * sizes[1] * sizes[2];
}

size_t sub_groups_for(size_t items, size_t sub_group_size) {
    return (items + sub_group_size - 1) / sub_group_size;
}

// CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: a 1D local size of count whole
// sub-groups (the required work-group size if the kernel has one and it
// makes count sub-groups), or zeros when there is none.
Status local_size_for_count(const kc::KernelInfo& info, size_t max_items, size_t input_size,
                            const void* input, InfoWriter& out, size_t param_value_size,
                            void* param_value) {
    USMCL_CHECK(input && input_size == sizeof(size_t), CL_INVALID_VALUE,
                "input_value is not one size_t");
    size_t count = 0;
    std::memcpy(&count, input, sizeof count);
    const size_t dims = param_value ? param_value_size / sizeof(size_t) : 3;
    USMCL_CHECK(dims >= 1 && dims <= 3, CL_INVALID_VALUE, "param_value_size is not 1 to 3 size_t");
    std::vector<size_t> local(dims, 0);
    const size_t width = info.SubGroupSize;
    const auto& reqd = info.ReqdWorkGroupSize;
    if (reqd[0] != 0) {
        if (count != 0 && sub_groups_for(reqd[0] * reqd[1] * reqd[2], width) == count)
            for (size_t d = 0; d < dims; ++d)
                local[d] = reqd[d];
    } else if (count != 0 && count <= max_items / width) {
        local[0] = count * width;
        for (size_t d = 1; d < dims; ++d)
            local[d] = 1;
    }
    return out.array<size_t>(local);
}

} // namespace

cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                           cl_kernel_sub_group_info param_name,
                                           size_t input_value_size, const void* input_value,
                                           size_t param_value_size, void* param_value,
                                           size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        Kernel* object = Kernel::from_handle(kernel);
        USMCL_CHECK(object, CL_INVALID_KERNEL, "not a kernel");
        auto target = query_device(*object, device);
        if (!target.ok())
            return target.status();
        // CL_INVALID_OPERATION if the device does not support sub-groups.
        USMCL_CHECK(core::capabilities::sub_groups, CL_INVALID_OPERATION,
                    "the device supports no sub-groups");
        const kc::KernelInfo& info = object->info();
        const size_t width = info.SubGroupSize;
        const auto& reqd = info.ReqdWorkGroupSize;
        const size_t max_items = reqd[0] ? reqd[0] * reqd[1] * reqd[2]
                                         : target.value()->description().max_work_group_size;
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        switch (param_name) {
        case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
        case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
            auto items = input_local_items(input_value_size, input_value);
            if (!items.ok())
                return items.status();
            if (param_name == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE)
                return out.scalar<size_t>(std::min(items.value(), width));
            return out.scalar<size_t>(sub_groups_for(items.value(), width));
        }
        case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT:
            return local_size_for_count(info, max_items, input_value_size, input_value, out,
                                        param_value_size, param_value);
        case CL_KERNEL_MAX_NUM_SUB_GROUPS:
            return out.scalar<size_t>(sub_groups_for(max_items, width));
        // OpenCL C has no attribute for it (SPIR-V's SubgroupsPerWorkgroup).
        case CL_KERNEL_COMPILE_NUM_SUB_GROUPS: return out.scalar<size_t>(0);
        // cl_intel_required_subgroup_size: 0 without intel_reqd_sub_group_size.
        case CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL:
            return out.scalar<size_t>(info.ReqdSubGroupSize);
        default: return {CL_INVALID_VALUE, "unknown cl_kernel_sub_group_info"};
        }
    });
}

cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(cl_kernel kernel, cl_device_id device,
                                              cl_kernel_sub_group_info param_name,
                                              size_t input_value_size, const void* input_value,
                                              size_t param_value_size, void* param_value,
                                              size_t* param_value_size_ret) {
    return usmcl::api::clGetKernelSubGroupInfo(kernel, device, param_name, input_value_size,
                                               input_value, param_value_size, param_value,
                                               param_value_size_ret);
}

} // namespace usmcl::api
