// Program entry points: clCreateProgramWithSource, clCreateProgramWithIL (and
// cl_khr_il_program's clCreateProgramWithILKHR), clCreateProgramWithBinary,
// clCreateProgramWithBuiltInKernels, clBuildProgram, clCompileProgram,
// clLinkProgram, clRetainProgram, clReleaseProgram,
// clSetProgramSpecializationConstant, clSetProgramReleaseCallback.
#include "core/program.hpp"
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/info_writer.hpp"
#include "runtime/thread_pool.hpp"

#include <thread>

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

// Runs body now, or (with pfn_notify) on a thread of its own, calling
// pfn_notify when it is done. The program is kept alive meanwhile. The
// devices' status is CL_BUILD_IN_PROGRESS before this returns: an
// application polling it right after an asynchronous clCompileProgram must
// not see CL_BUILD_NONE (the CTS's compile_and_link_status_options_log did,
// and took it for a failure).
template <class Body>
Status run_build(Program& program, const std::vector<core::Device*>& devices, Notify pfn_notify,
                 void* user_data, Body body) {
    if (!program.begin_build())
        return {CL_INVALID_OPERATION, "a build of the program is running"};
    program.mark_in_progress(devices);
    if (!pfn_notify) {
        const Status status = body();
        program.end_in_progress(devices);
        program.end_build();
        return status;
    }
    core::Ref<Program> keep(&program);
    std::thread([keep, devices, pfn_notify, user_data, body]() mutable {
        (void)body();
        keep->end_in_progress(devices);
        keep->end_build();
        pfn_notify(keep->handle(), user_data);
    }).detach();
    return {};
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
    // CL_INVALID_VALUE if il is not well-formed SPIR-V the devices take.
    std::string bytes(static_cast<const char*>(il), length);
    kc::SpirvModuleInfo info;
    std::string error;
    if (!kc::inspectSpirv(bytes, info, error))
        return Status(CL_INVALID_VALUE, "not a SPIR-V module usmcl takes");
    return (new Program(*object, std::move(bytes), std::move(info)))->handle();
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
        std::vector<core::Device*> devices;
        for (cl_uint i = 0; i < num_devices; ++i) {
            core::Device* device = core::Device::from_handle(device_list[i]);
            if (!device || !object->has_device(device))
                return Status(CL_INVALID_DEVICE, "a device of device_list is not the context's");
            devices.push_back(device);
        }
        // CL_INVALID_VALUE if a length is 0 or a binary is NULL;
        // CL_INVALID_BINARY if a binary is not one usmcl wrote.
        for (cl_uint i = 0; i < num_devices; ++i)
            if (lengths[i] == 0 || !binaries[i]) {
                if (binary_status)
                    binary_status[i] = CL_INVALID_VALUE;
                return Status(CL_INVALID_VALUE, "an empty binary");
            }
        std::vector<std::shared_ptr<const kc::Module>> modules;
        bool invalid = false;
        for (cl_uint i = 0; i < num_devices; ++i) {
            std::string error;
            std::shared_ptr<const kc::Module> module = kc::moduleFromBinary(
                {reinterpret_cast<const char*>(binaries[i]), lengths[i]}, error);
            if (binary_status)
                binary_status[i] = module ? CL_SUCCESS : CL_INVALID_BINARY;
            invalid |= !module;
            modules.push_back(std::move(module));
        }
        if (invalid)
            return Status(CL_INVALID_BINARY, "a binary is not a usmcl binary");
        return (new Program(*object, std::move(devices), std::move(modules)))->handle();
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
        for (cl_uint i = 0; i < num_devices; ++i) {
            core::Device* device = core::Device::from_handle(device_list[i]);
            if (!device || !object->has_device(device))
                return Status(CL_INVALID_DEVICE, "a device of device_list is not the context's");
        }
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
        return run_build(*object, list, pfn_notify, user_data,
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
        return run_build(*object, list, pfn_notify, user_data, [object, list, text, headers] {
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
            if (device_list) {
                for (cl_uint i = 0; i < num_devices; ++i) {
                    core::Device* device = core::Device::from_handle(device_list[i]);
                    if (!device || !object->has_device(device))
                        return Status(CL_INVALID_DEVICE, "a device is not the context's");
                    devices.push_back(device);
                }
            } else {
                for (const auto& device : object->devices())
                    devices.push_back(device.get());
            }
            std::string error;
            const std::string text = options_of(options);
            if (!core::compiler().checkLinkOptions(text, error))
                return Status(CL_INVALID_LINKER_OPTIONS, "invalid linker options");
            // Every input must hold a compiled object or library for the devices.
            std::vector<std::shared_ptr<const kc::Module>> inputs;
            for (cl_uint i = 0; i < num_input_programs; ++i) {
                Program* input = Program::from_handle(input_programs[i]);
                if (!input)
                    return Status(CL_INVALID_PROGRAM, "an input is not a program");
                auto build = input->build_of(*devices.front());
                if (!build || !build->module || build->module->kind() == kc::ModuleKind::Executable)
                    return Status(CL_INVALID_OPERATION,
                                  "an input has no compiled object or library");
                inputs.push_back(build->module);
            }
            std::vector<const kc::Module*> raw;
            for (const auto& input : inputs)
                raw.push_back(input.get());
            kc::BuildResult result = core::compiler().link(raw, text);
            if (result.InvalidOptions)
                return Status(CL_INVALID_LINKER_OPTIONS, "invalid linker options");
            auto* linked = new Program(
                *object, devices, std::vector<std::shared_ptr<const kc::Module>>(devices.size()));
            const bool success = result.Output != nullptr;
            linked->set_linked(devices, text, std::move(result.Output), result.Log, success);
            if (pfn_notify)
                runtime::post_callback([keep = core::Ref<Program>(linked), pfn_notify, user_data] {
                    pfn_notify(keep->handle(), user_data);
                });
            // On failure the program still exists (its build log says why).
            link_failed = !success;
            return linked->handle();
        });
    if (link_failed && errcode_ret)
        *errcode_ret = CL_LINK_PROGRAM_FAILURE;
    return linked_program;
}

} // namespace usmcl::api
