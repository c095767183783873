// Programs from SPIR-V and binaries (Program::from_il, from_binaries), how
// builds run (Program::run_build) and clLinkProgram's link (Program::link).
#include "core/program.hpp"
#include "runtime/thread_pool.hpp"

#include <thread>

namespace usmcl::core {

Result<Program*> Program::from_il(Context& context, std::string il) {
    kc::SpirvModuleInfo info;
    std::string error;
    if (!kc::inspectSpirv(il, info, error))
        return Status(CL_INVALID_VALUE, "not a SPIR-V module usmcl takes");
    return new Program(context, std::move(il), std::move(info));
}

Result<Program*> Program::from_binaries(Context& context, std::vector<Device*> devices,
                                        std::span<const std::string_view> binaries,
                                        cl_int* binary_status) {
    std::vector<std::shared_ptr<const kc::Module>> modules;
    bool invalid = false;
    for (size_t i = 0; i < binaries.size(); ++i) {
        std::string error;
        std::shared_ptr<const kc::Module> module = kc::moduleFromBinary(binaries[i], error);
        if (binary_status)
            binary_status[i] = module ? CL_SUCCESS : CL_INVALID_BINARY;
        invalid |= !module;
        modules.push_back(std::move(module));
    }
    if (invalid)
        return Status(CL_INVALID_BINARY, "a binary is not a usmcl binary");
    return new Program(context, std::move(devices), std::move(modules));
}

Status Program::run_build(const std::vector<Device*>& devices, ProgramNotify notify,
                          void* user_data, std::function<Status()> body) {
    if (!begin_build())
        return {CL_INVALID_OPERATION, "a build of the program is running"};
    mark_in_progress(devices);
    if (!notify) {
        const Status status = body();
        end_in_progress(devices);
        end_build();
        return status;
    }
    Ref<Program> keep(this);
    std::thread([keep, devices, notify, user_data, body = std::move(body)] {
        (void)body();
        keep->end_in_progress(devices);
        keep->end_build();
        notify(keep->handle(), user_data);
    }).detach();
    return {};
}

Result<Program::Link> Program::link(Context& context, const std::vector<Device*>& devices,
                                    const std::string& options, std::span<Program* const> inputs,
                                    ProgramNotify notify, void* user_data) {
    // Every input must hold a compiled object or library for the devices.
    std::vector<std::shared_ptr<const kc::Module>> modules;
    for (Program* input : inputs) {
        auto build = input->build_of(*devices.front());
        if (!build || !build->module || build->module->kind() == kc::ModuleKind::Executable)
            return Status(CL_INVALID_OPERATION, "an input has no compiled object or library");
        modules.push_back(build->module);
    }
    std::vector<const kc::Module*> raw;
    raw.reserve(modules.size());
    for (const auto& module : modules)
        raw.push_back(module.get());
    kc::BuildResult result = compiler().link(raw, options);
    if (result.InvalidOptions)
        return Status(CL_INVALID_LINKER_OPTIONS, "invalid linker options");
    auto* linked = new Program(context, devices,
                               std::vector<std::shared_ptr<const kc::Module>>(devices.size()));
    const bool success = result.Output != nullptr;
    linked->set_linked(devices, options, std::move(result.Output), result.Log, success);
    if (notify)
        runtime::post_callback([keep = Ref<Program>(linked), notify, user_data] {
            notify(keep->handle(), user_data);
        });
    return Link{linked, success};
}

} // namespace usmcl::core
