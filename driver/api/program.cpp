// Program entry points: clCreateProgramWithSource, clCreateProgramWithIL (and
// cl_khr_il_program's clCreateProgramWithILKHR), clCreateProgramWithBinary,
// clCreateProgramWithBuiltInKernels, clBuildProgram, clCompileProgram,
// clLinkProgram, clRetainProgram, clReleaseProgram,
// clSetProgramSpecializationConstant, clSetProgramReleaseCallback.
#include "core/program.hpp"
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/info_writer.hpp"

namespace usmcl::api {
namespace {

using core::Program;
using Notify = core::ProgramNotify;

// The devices a build names: all of the program's when device_list is NULL.
Result<std::vector<core::Device*>> build_devices(const Program& program, cl_uint num_devices,
                                                 const cl_device_id* device_list) {
    // CL_INVALID_VALUE if device_list is NULL and num_devices > 0, or not
    // NULL and num_devices is 0; CL_INVALID_DEVICE for a device that is not
    // the program's.
    if ((device_list == nullptr) != (num_devices == 0))
        return Status(CL_INVALID_VALUE, "device_list and num_devices disagree");
    const std::vector<core::Device*> all = program.devices();
    if (!device_list)
        return all;
    std::vector<core::Device*> list;
    for (cl_uint i = 0; i < num_devices; ++i) {
        core::Device* device = core::Device::from_handle(device_list[i]);
        if (!device || std::find(all.begin(), all.end(), device) == all.end())
            return Status(CL_INVALID_DEVICE, "a device of device_list is not the program's");
        list.push_back(device);
    }
    return list;
}

// The devices of device_list, each the context's (CL_INVALID_DEVICE).
Result<std::vector<core::Device*>> context_devices(const core::Context& context,
                                                   cl_uint num_devices,
                                                   const cl_device_id* device_list) {
    std::vector<core::Device*> devices;
    for (cl_uint i = 0; i < num_devices; ++i) {
        core::Device* device = core::Device::from_handle(device_list[i]);
        if (!device || !context.has_device(device))
            return Status(CL_INVALID_DEVICE, "a device of device_list is not the context's");
        devices.push_back(device);
    }
    return devices;
}

std::string options_of(const char* options) {
    return options ? std::string(options) : std::string();
}

Result<cl_program> create_program_with_il(cl_context context, const void* il, size_t length) {
    core::Context* object = core::Context::from_handle(context);
    if (!object)
        return Status(CL_INVALID_CONTEXT, "not a context");
    // CL_INVALID_VALUE if il is NULL or length is zero.
    if (!il || length == 0)
        return Status(CL_INVALID_VALUE, "il is NULL or length is 0");
    // (CL_INVALID_OPERATION if no devices in context support intermediate
    // language programs: every usmcl device takes SPIR-V.)
    auto created = Program::from_il(*object, std::string(static_cast<const char*>(il), length));
    if (!created.ok())
        return created.status();
    return created.value()->handle();
}

} // namespace

cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count,
                                                 const char** strings, const size_t* lengths,
                                                 cl_int* errcode_ret) {
    return guarded_create<cl_program>(__func__, errcode_ret, [&]() -> Result<cl_program> {
        core::Context* object = core::Context::from_handle(context);
        if (!object)
            return Status(CL_INVALID_CONTEXT, "not a context");
        // CL_INVALID_VALUE if count is 0, strings is NULL or an entry is NULL.
        if (count == 0 || !strings)
            return Status(CL_INVALID_VALUE, "no strings");
        std::string source;
        for (cl_uint i = 0; i < count; ++i) {
            if (!strings[i])
                return Status(CL_INVALID_VALUE, "an entry of strings is NULL");
            if (lengths && lengths[i] != 0)
                source.append(strings[i], lengths[i]);
            else
                source.append(strings[i]);
        }
        return (new Program(*object, std::move(source)))->handle();
    });
}

cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void* il, size_t length,
                                             cl_int* errcode_ret) {
    return guarded_create<cl_program>(__func__, errcode_ret, [&]() -> Result<cl_program> {
        return create_program_with_il(context, il, length);
    });
}

cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context context, const void* il, size_t length,
                                                cl_int* errcode_ret) {
    return guarded_create<cl_program>(__func__, errcode_ret, [&]() -> Result<cl_program> {
        return create_program_with_il(context, il, length);
    });
}

cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                 const cl_device_id* device_list,
                                                 const size_t* lengths,
                                                 const unsigned char** binaries,
                                                 cl_int* binary_status, cl_int* errcode_ret) {
    return guarded_create<cl_program>(__func__, errcode_ret, [&]() -> Result<cl_program> {
        core::Context* object = core::Context::from_handle(context);
        if (!object)
            return Status(CL_INVALID_CONTEXT, "not a context");
        if (num_devices == 0 || !device_list)
            return Status(CL_INVALID_VALUE, "no devices");
        if (!lengths || !binaries)
            return Status(CL_INVALID_VALUE, "lengths or binaries is NULL");
        auto devices = context_devices(*object, num_devices, device_list);
        if (!devices.ok())
            return devices.status();
        // CL_INVALID_VALUE if a length is 0 or a binary is NULL.
        std::vector<std::string_view> list;
        for (cl_uint i = 0; i < num_devices; ++i) {
            if (lengths[i] == 0 || !binaries[i]) {
                if (binary_status)
                    binary_status[i] = CL_INVALID_VALUE;
                return Status(CL_INVALID_VALUE, "an empty binary");
            }
            list.emplace_back(reinterpret_cast<const char*>(binaries[i]), lengths[i]);
        }
        auto created =
            Program::from_binaries(*object, std::move(devices).value(), list, binary_status);
        if (!created.ok())
            return created.status();
        return created.value()->handle();
    });
}

cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint num_devices,
                                                         const cl_device_id* device_list,
                                                         const char* kernel_names,
                                                         cl_int* errcode_ret) {
    return guarded_create<cl_program>(__func__, errcode_ret, [&]() -> Result<cl_program> {
        core::Context* object = core::Context::from_handle(context);
        if (!object)
            return Status(CL_INVALID_CONTEXT, "not a context");
        if (num_devices == 0 || !device_list || !kernel_names)
            return Status(CL_INVALID_VALUE, "no devices or no kernel names");
        if (auto devices = context_devices(*object, num_devices, device_list); !devices.ok())
            return devices.status();
        // CL_INVALID_VALUE if kernel_names names a kernel no device has:
        // usmcl's devices have no built-in kernels.
        return Status(CL_INVALID_VALUE, "the devices have no built-in kernels");
    });
}

cl_int CL_API_CALL clRetainProgram(cl_program program) {
    return guarded(__func__, [&]() -> Status {
        Program* object = Program::from_handle(program);
        USMCL_CHECK(object, CL_INVALID_PROGRAM, "not a program");
        object->retain_api();
        return {};
    });
}

cl_int CL_API_CALL clReleaseProgram(cl_program program) {
    return guarded(__func__, [&]() -> Status {
        Program* object = Program::from_handle(program);
        USMCL_CHECK(object, CL_INVALID_PROGRAM, "not a program");
        object->release_api();
        return {};
    });
}

cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program, Notify pfn_notify,
                                               void* user_data) {
    return guarded(__func__, [&]() -> Status {
        Program* object = Program::from_handle(program);
        USMCL_CHECK(object, CL_INVALID_PROGRAM, "not a program");
        // CL_INVALID_OPERATION if no device of the program's context
        // supports program initialization and clean-up kernels (none does:
        // CL_PROGRAM_SCOPE_GLOBAL_CTORS/DTORS_PRESENT are CL_FALSE).
        (void)pfn_notify;
        (void)user_data;
        return {CL_INVALID_OPERATION, "no device supports program clean-up kernels"};
    });
}

cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                                      size_t spec_size, const void* spec_value) {
    return guarded(__func__, [&]() -> Status {
        Program* object = Program::from_handle(program);
        // CL_INVALID_PROGRAM if program is not a valid program object created
        // from an intermediate language.
        USMCL_CHECK(object && object->has_il(), CL_INVALID_PROGRAM,
                    "not a program created from SPIR-V");
        USMCL_CHECK(spec_value, CL_INVALID_VALUE, "spec_value is NULL");
        return object->set_spec_constant(spec_id, spec_size, spec_value);
    });
}

cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices,
                                  const cl_device_id* device_list, const char* options,
                                  Notify pfn_notify, void* user_data) {
    return guarded(__func__, [&]() -> Status {
        Program* object = Program::from_handle(program);
        USMCL_CHECK(object, CL_INVALID_PROGRAM, "not a program");
        Result<std::vector<core::Device*>> devices =
            build_devices(*object, num_devices, device_list);
        USMCL_TRY(devices.status());
        USMCL_CHECK(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data without pfn_notify");
        USMCL_CHECK(!object->has_kernels(), CL_INVALID_OPERATION, "kernels of the program exist");
        // Only programs created from source or binaries are built.
        USMCL_CHECK(!object->from_link(), CL_INVALID_OPERATION,
                    "the program was created by clLinkProgram");
        std::string error;
        const std::string text = options_of(options);
        USMCL_CHECK(core::compiler().checkCompileOptions(text, error), CL_INVALID_BUILD_OPTIONS,
                    "invalid build options");
        std::vector<core::Device*> list = std::move(devices).value();
        return object->run_build(list, pfn_notify, user_data,
                                 [object, list, text] { return object->build(list, text); });
    });
}

cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices,
                                    const cl_device_id* device_list, const char* options,
                                    cl_uint num_input_headers, const cl_program* input_headers,
                                    const char** header_include_names, Notify pfn_notify,
                                    void* user_data) {
    return guarded(__func__, [&]() -> Status {
        Program* object = Program::from_handle(program);
        USMCL_CHECK(object, CL_INVALID_PROGRAM, "not a program");
        Result<std::vector<core::Device*>> devices =
            build_devices(*object, num_devices, device_list);
        USMCL_TRY(devices.status());
        USMCL_CHECK(pfn_notify || !user_data, CL_INVALID_VALUE, "user_data without pfn_notify");
        // CL_INVALID_VALUE if the headers, their names and their count disagree.
        USMCL_CHECK(num_input_headers == 0 ? (!input_headers && !header_include_names)
                                           : (input_headers && header_include_names),
                    CL_INVALID_VALUE, "input_headers, names and count disagree");
        USMCL_CHECK(object->has_source() || object->has_il(), CL_INVALID_OPERATION,
                    "the program has no source or IL");
        USMCL_CHECK(!object->has_kernels(), CL_INVALID_OPERATION, "kernels of the program exist");
        std::vector<kc::Header> headers;
        for (cl_uint i = 0; i < num_input_headers; ++i) {
            Program* header = Program::from_handle(input_headers[i]);
            USMCL_CHECK(header && header->has_source(), CL_INVALID_PROGRAM,
                        "an input header is not a program with source");
            USMCL_CHECK(header_include_names[i], CL_INVALID_VALUE, "a header name is NULL");
            headers.push_back({header_include_names[i], header->source()});
        }
        std::string error;
        const std::string text = options_of(options);
        USMCL_CHECK(core::compiler().checkCompileOptions(text, error), CL_INVALID_COMPILER_OPTIONS,
                    "invalid compiler options");
        std::vector<core::Device*> list = std::move(devices).value();
        return object->run_build(list, pfn_notify, user_data, [object, list, text, headers] {
            return object->compile(list, text, headers);
        });
    });
}

cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                     const cl_device_id* device_list, const char* options,
                                     cl_uint num_input_programs, const cl_program* input_programs,
                                     Notify pfn_notify, void* user_data, cl_int* errcode_ret) {
    bool link_failed = false;
    cl_program linked_program =
        guarded_create<cl_program>(__func__, errcode_ret, [&]() -> Result<cl_program> {
            core::Context* object = core::Context::from_handle(context);
            if (!object)
                return Status(CL_INVALID_CONTEXT, "not a context");
            if ((device_list == nullptr) != (num_devices == 0))
                return Status(CL_INVALID_VALUE, "device_list and num_devices disagree");
            if (num_input_programs == 0 || !input_programs)
                return Status(CL_INVALID_VALUE, "no input programs");
            if (!pfn_notify && user_data)
                return Status(CL_INVALID_VALUE, "user_data without pfn_notify");
            std::vector<core::Device*> devices;
            for (const auto& device : object->devices())
                devices.push_back(device.get());
            if (device_list) {
                auto listed = context_devices(*object, num_devices, device_list);
                if (!listed.ok())
                    return listed.status();
                devices = std::move(listed).value();
            }
            std::string error;
            const std::string text = options_of(options);
            if (!core::compiler().checkLinkOptions(text, error))
                return Status(CL_INVALID_LINKER_OPTIONS, "invalid linker options");
            std::vector<Program*> inputs;
            for (cl_uint i = 0; i < num_input_programs; ++i) {
                inputs.push_back(Program::from_handle(input_programs[i]));
                if (!inputs.back())
                    return Status(CL_INVALID_PROGRAM, "an input is not a program");
            }
            auto link = Program::link(*object, devices, text, inputs, pfn_notify, user_data);
            if (!link.ok())
                return link.status();
            link_failed = !link->linked;
            return link->program->handle();
        });
    if (link_failed && errcode_ret)
        *errcode_ret = CL_LINK_PROGRAM_FAILURE;
    return linked_program;
}

} // namespace usmcl::api
