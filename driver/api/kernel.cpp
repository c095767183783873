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

#include <algorithm>
#include <cstring>
#include <vector>

namespace usmcl::api {
namespace {

using core::Kernel;
using core::Program;

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
        auto build = Kernel::executable_of(*object);
        if (!build.ok())
            return build.status();
        if (!kernel_name)
            return Status(CL_INVALID_VALUE, "kernel_name is NULL");
        for (const kc::KernelInfo& info : build.value().module->kernels())
            if (info.Name == kernel_name) {
                auto kernel = Kernel::create(*object, build.value(), info);
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
        auto build = Kernel::executable_of(*object);
        USMCL_TRY(build.status());
        const auto& infos = build.value().module->kernels();
        USMCL_CHECK(!kernels || num_kernels >= infos.size(), CL_INVALID_VALUE,
                    "num_kernels is smaller than the number of kernels");
        if (kernels) {
            std::vector<Kernel*> created;
            for (const kc::KernelInfo& info : infos) {
                auto kernel = Kernel::create(*object, build.value(), info);
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
        return object->set_argument(arg_index, arg_size, arg_value);
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
        auto target = query_device(*object, device);
        USMCL_TRY(target.status());
        const kc::KernelInfo& info = object->info();
        const core::DeviceDescription& d = target.value()->description();
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        const std::array<size_t, 3> compile_size{
            info.ReqdWorkGroupSize[0], info.ReqdWorkGroupSize[1], info.ReqdWorkGroupSize[2]};
        switch (param_name) {
        case CL_KERNEL_WORK_GROUP_SIZE: return out.scalar<size_t>(d.max_work_group_size);
        case CL_KERNEL_COMPILE_WORK_GROUP_SIZE: return out.array<size_t>(compile_size);
        case CL_KERNEL_LOCAL_MEM_SIZE: return out.scalar<cl_ulong>(object->local_memory_size());
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

// CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: the input is one size_t, the
// answer 1 to 3 size_t.
Status local_size_for_count(const Kernel& kernel, const core::Device& device, size_t input_size,
                            const void* input, InfoWriter& out, size_t param_value_size,
                            void* param_value) {
    USMCL_CHECK(input && input_size == sizeof(size_t), CL_INVALID_VALUE,
                "input_value is not one size_t");
    size_t count = 0;
    std::memcpy(&count, input, sizeof count);
    const size_t dims = param_value ? param_value_size / sizeof(size_t) : 3;
    USMCL_CHECK(dims >= 1 && dims <= 3, CL_INVALID_VALUE, "param_value_size is not 1 to 3 size_t");
    const std::array<size_t, 3> local = kernel.local_size_for_sub_groups(device, count);
    return out.array<size_t>(std::span<const size_t>(local.data(), dims));
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
        const size_t max_items = object->max_work_group_items(*target.value());
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        switch (param_name) {
        case CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE:
        case CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE: {
            auto items = input_local_items(input_value_size, input_value);
            if (!items.ok())
                return items.status();
            if (param_name == CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE)
                return out.scalar<size_t>(std::min<size_t>(items.value(), info.SubGroupSize));
            return out.scalar<size_t>(object->sub_groups_for(items.value()));
        }
        case CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT:
            return local_size_for_count(*object, *target.value(), input_value_size, input_value,
                                        out, param_value_size, param_value);
        case CL_KERNEL_MAX_NUM_SUB_GROUPS:
            return out.scalar<size_t>(object->sub_groups_for(max_items));
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
