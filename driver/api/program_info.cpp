// clGetProgramInfo and clGetProgramBuildInfo.
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/info_writer.hpp"
#include "core/program.hpp"

namespace usmcl::api {
namespace {

using core::Program;

// The executable's kernel names of the first device that has one, or
// CL_INVALID_PROGRAM_EXECUTABLE.
Result<std::vector<std::string>> kernel_names(const Program& program) {
    for (core::Device* device : program.devices())
        if (auto build = program.executable_for(*device)) {
            std::vector<std::string> names;
            for (const kc::KernelInfo& kernel : build->module->kernels())
                names.push_back(kernel.Name);
            return names;
        }
    return Status(CL_INVALID_PROGRAM_EXECUTABLE, "no device has a built executable");
}

std::string binary_of(const Program& program, core::Device* device) {
    auto build = program.build_of(*device);
    return build && build->module ? build->module->toBinary() : std::string();
}

} // namespace

cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                    size_t param_value_size, void* param_value,
                                    size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        Program* object = Program::from_handle(program);
        USMCL_CHECK(object, CL_INVALID_PROGRAM, "not a program");
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        const std::vector<core::Device*> devices = object->devices();
        std::vector<cl_device_id> handles;
        for (core::Device* device : devices)
            handles.push_back(device->handle());
        switch (param_name) {
        case CL_PROGRAM_REFERENCE_COUNT: return out.scalar<cl_uint>(object->api_reference_count());
        case CL_PROGRAM_CONTEXT: return out.scalar<cl_context>(object->context().handle());
        case CL_PROGRAM_NUM_DEVICES:
            return out.scalar<cl_uint>(static_cast<cl_uint>(handles.size()));
        case CL_PROGRAM_DEVICES: return out.array(handles);
        case CL_PROGRAM_SOURCE: return out.string(object->has_source() ? object->source() : "");
        // The SPIR-V as given; nothing for other programs.
        case CL_PROGRAM_IL:
            return object->has_il() ? out.bytes(object->il().data(), object->il().size())
                                    : out.bytes(nullptr, 0);
        case CL_PROGRAM_BINARY_SIZES: {
            std::vector<size_t> sizes;
            for (core::Device* device : devices)
                sizes.push_back(binary_of(*object, device).size());
            return out.array(sizes);
        }
        case CL_PROGRAM_BINARIES: {
            // param_value is an array of pointers to buffers of the sizes
            // CL_PROGRAM_BINARY_SIZES gave; NULL entries are skipped.
            const size_t needed = devices.size() * sizeof(unsigned char*);
            if (param_value) {
                USMCL_CHECK(param_value_size >= needed, CL_INVALID_VALUE,
                            "param_value_size is smaller than the array of binaries");
                auto** targets = static_cast<unsigned char**>(param_value);
                for (size_t i = 0; i < devices.size(); ++i)
                    if (targets[i]) {
                        const std::string binary = binary_of(*object, devices[i]);
                        std::memcpy(targets[i], binary.data(), binary.size());
                    }
            }
            if (param_value_size_ret)
                *param_value_size_ret = needed;
            return {};
        }
        case CL_PROGRAM_NUM_KERNELS: {
            auto names = kernel_names(*object);
            USMCL_TRY(names.status());
            return out.scalar<size_t>(names.value().size());
        }
        case CL_PROGRAM_KERNEL_NAMES: {
            auto names = kernel_names(*object);
            USMCL_TRY(names.status());
            std::string joined;
            for (const std::string& name : names.value())
                joined += (joined.empty() ? "" : ";") + name;
            return out.string(joined);
        }
        case CL_PROGRAM_SCOPE_GLOBAL_CTORS_PRESENT:
        case CL_PROGRAM_SCOPE_GLOBAL_DTORS_PRESENT: {
            // Asked of a built executable only (the same rule as the kernel
            // names); OpenCL C has no program-scope constructors or destructors.
            USMCL_TRY(kernel_names(*object).status());
            return out.boolean(false);
        }
        default: return {CL_INVALID_VALUE, "unknown cl_program_info"};
        }
    });
}

cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                         cl_program_build_info param_name, size_t param_value_size,
                                         void* param_value, size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        Program* object = Program::from_handle(program);
        USMCL_CHECK(object, CL_INVALID_PROGRAM, "not a program");
        core::Device* target = core::Device::from_handle(device);
        USMCL_CHECK(target, CL_INVALID_DEVICE, "not a device");
        auto build = object->build_of(*target);
        USMCL_CHECK(build, CL_INVALID_DEVICE, "not a device of the program");
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        switch (param_name) {
        case CL_PROGRAM_BUILD_STATUS: return out.scalar<cl_build_status>(build->status);
        // Empty until a build, compile or link has run for the device.
        case CL_PROGRAM_BUILD_OPTIONS:
            return out.string(build->status == CL_BUILD_NONE ? std::string() : build->options);
        case CL_PROGRAM_BUILD_LOG: return out.string(build->log);
        case CL_PROGRAM_BINARY_TYPE: return out.scalar<cl_program_binary_type>(build->binary_type);
        case CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE:
            return out.scalar<size_t>(
                build->module ? static_cast<size_t>(build->module->globalVariableTotalSize()) : 0);
        default: return {CL_INVALID_VALUE, "unknown cl_program_build_info"};
        }
    });
}

} // namespace usmcl::api
