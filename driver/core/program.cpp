#include "core/program.hpp"

#include "core/capabilities.hpp"
#include "core/device.hpp"
#include "core/device_description.hpp"
#include "core/platform.hpp"
#include "runtime/thread_pool.hpp"
#include "support/config.hpp"
#include "support/log.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>

namespace usmcl::core {
namespace {

kc::DeviceTarget device_target() {
    kc::DeviceTarget target;
#define USMCL_DEVICE_EXTENSION(name, major, minor, patch, enabled)                                 \
    if (enabled)                                                                                   \
        target.Extensions.push_back(#name);
#define USMCL_OPENCL_C_FEATURE(name, major, minor, patch, enabled)                                 \
    if (enabled)                                                                                   \
        target.OpenCLCFeatures.push_back(#name);
#include "core/device_features.def"
    target.ImageSupport = core::capabilities::image_support;
    target.SubGroupSize = default_sub_group_size();
    return target;
}

cl_program_binary_type binary_type_of(const kc::Module& module) {
    switch (module.kind()) {
    case kc::ModuleKind::Object: return CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
    case kc::ModuleKind::Library: return CL_PROGRAM_BINARY_TYPE_LIBRARY;
    case kc::ModuleKind::Executable: return CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
    }
    return CL_PROGRAM_BINARY_TYPE_NONE;
}

} // namespace

const kc::Compiler& compiler() {
    static const kc::Compiler instance(device_target());
    return instance;
}

const std::vector<NameVersion>& il_versions() {
    static const std::vector<NameVersion> list = [] {
        std::vector<NameVersion> versions;
        // The reader takes SPIR-V 1.0 to 1.SpirvMaxMinorVersion.
        for (cl_uint minor = 0; minor <= kc::SpirvMaxMinorVersion; ++minor)
            versions.push_back({"SPIR-V", CL_MAKE_VERSION(1, minor, 0)});
        return versions;
    }();
    return list;
}

const std::string& il_version_string() {
    static const std::string text = [] {
        std::string joined;
        for (const NameVersion& version : il_versions())
            joined += (joined.empty() ? "" : " ") + version.name + "_" +
                      std::to_string(CL_VERSION_MAJOR(version.version)) + "." +
                      std::to_string(CL_VERSION_MINOR(version.version));
        return joined;
    }();
    return text;
}

const kc::CodeCache& code_cache() {
    static const kc::CodeCache cache = [] {
        kc::CodeCache settings;
        const support::Config& config = support::config();
        settings.Enabled = config.cache;
        if (!config.cache_dir.empty()) {
            settings.Directory = config.cache_dir;
        } else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) {
            settings.Directory = std::string(xdg) + "/usmcl";
        } else if (const char* home = std::getenv("HOME"); home && *home) {
            settings.Directory = std::string(home) + "/.cache/usmcl";
        } else {
            settings.Enabled = false;
        }
        return settings;
    }();
    return cache;
}

namespace {

// Native code of an executable for `count` devices: one instance shared by
// all of them, unless the program has program-scope __global variables, of
// which each device has its own copy (an instance each). False, with the
// error in the log, when code generation fails.
bool natives_for(const kc::Module& module, size_t count,
                 std::vector<std::shared_ptr<const kc::NativeProgram>>& natives, std::string& log) {
    natives.assign(count, nullptr);
    const bool per_device = module.globalVariableTotalSize() > 0;
    for (size_t index = 0; index < count; ++index) {
        if (index > 0 && !per_device) {
            natives[index] = natives[0];
            continue;
        }
        std::string error;
        natives[index] = kc::createNativeProgram(module, code_cache(), error);
        if (!natives[index]) {
            log += error;
            return false;
        }
    }
    return true;
}

} // namespace

Program::Program(Context& context, std::string source)
    : context_(&context), source_(std::move(source)), has_source_(true) {
    for (const auto& device : context.devices())
        builds_.emplace_back(device.get());
}

Program::Program(Context& context, std::string il, kc::SpirvModuleInfo info)
    : context_(&context), il_(std::move(il)), has_il_(true), il_info_(std::move(info)) {
    for (const auto& device : context.devices())
        builds_.emplace_back(device.get());
}

Program::Program(Context& context, std::vector<Device*> devices,
                 std::vector<std::shared_ptr<const kc::Module>> modules)
    : context_(&context) {
    for (size_t i = 0; i < devices.size(); ++i) {
        DeviceBuild build{devices[i]};
        build.module = std::move(modules[i]);
        if (build.module) {
            build.binary_type = binary_type_of(*build.module);
            build.options = build.module->options();
        }
        builds_.push_back(std::move(build));
    }
}

Program::~Program() = default;

std::vector<Device*> Program::devices() const {
    std::lock_guard lock(mutex_);
    std::vector<Device*> list;
    for (const DeviceBuild& build : builds_)
        list.push_back(build.device);
    return list;
}

Program::DeviceBuild* Program::find(const Device& device) {
    for (DeviceBuild& build : builds_)
        if (build.device == &device)
            return &build;
    return nullptr;
}

std::optional<Program::DeviceBuild> Program::build_of(const Device& device) const {
    std::lock_guard lock(mutex_);
    for (const DeviceBuild& build : builds_)
        if (build.device == &device)
            return build;
    return std::nullopt;
}

std::optional<Program::DeviceBuild> Program::executable_for(const Device& device) const {
    std::lock_guard lock(mutex_);
    for (const DeviceBuild& build : builds_)
        if (build.device == &device && build.status == CL_BUILD_SUCCESS && build.native)
            return build;
    return std::nullopt;
}

Status Program::set_spec_constant(cl_uint spec_id, size_t spec_size, const void* spec_value) {
    const auto constant =
        std::find_if(il_info_.SpecConstants.begin(), il_info_.SpecConstants.end(),
                     [&](const kc::SpirvSpecConstant& c) { return c.Id == spec_id; });
    if (constant == il_info_.SpecConstants.end())
        return {CL_INVALID_SPEC_ID, "the module has no specialization constant with this id"};
    if (spec_size != constant->Size)
        return {CL_INVALID_VALUE, "spec_size is not the size of the specialization constant"};
    uint64_t bits = 0;
    std::memcpy(&bits, spec_value, spec_size);
    std::lock_guard lock(mutex_);
    spec_values_[spec_id] = bits;
    return {};
}

kc::BuildResult Program::translate_il(const std::string& options, bool executable) const {
    std::vector<kc::SpecConstantValue> values;
    {
        std::lock_guard lock(mutex_);
        for (const auto& [id, bits] : spec_values_)
            values.push_back({id, bits});
    }
    static const kc::DeviceTarget target = device_target();
    return executable ? kc::buildSpirv(il_, values, options, target)
                      : kc::compileSpirv(il_, values, options, target);
}

namespace {

const Device& root_of(const Device& device) {
    const Device* root = &device;
    while (root->parent())
        root = root->parent();
    return *root;
}

} // namespace

std::vector<Device*> Program::covered_by(const std::vector<Device*>& devices) const {
    std::lock_guard lock(mutex_);
    std::vector<Device*> covered;
    for (const DeviceBuild& build : builds_)
        for (const Device* named : devices)
            if (&root_of(*build.device) == &root_of(*named)) {
                covered.push_back(build.device);
                break;
            }
    return covered;
}

void Program::mark_in_progress(const std::vector<Device*>& named) {
    const std::vector<Device*> devices = covered_by(named);
    std::lock_guard lock(mutex_);
    for (Device* device : devices)
        if (DeviceBuild* build = find(*device))
            build->status = CL_BUILD_IN_PROGRESS;
}

void Program::end_in_progress(const std::vector<Device*>& named) {
    const std::vector<Device*> devices = covered_by(named);
    std::lock_guard lock(mutex_);
    for (Device* device : devices)
        if (DeviceBuild* build = find(*device); build && build->status == CL_BUILD_IN_PROGRESS)
            build->status = CL_BUILD_ERROR;
}

bool Program::begin_build() {
    bool expected = false;
    return building_.compare_exchange_strong(expected, true);
}

void Program::end_build() {
    building_.store(false);
}

Status Program::build(const std::vector<Device*>& named, const std::string& options) {
    const std::vector<Device*> devices = covered_by(named);
    std::string error;
    if (!compiler().checkCompileOptions(options, error) &&
        !compiler().checkLinkOptions(options, error))
        return {CL_INVALID_BUILD_OPTIONS, "invalid build options"};
    mark_in_progress(devices);
    // One build serves every device: they share the instruction set.
    std::shared_ptr<const kc::Module> module;
    std::string log;
    if (has_source_ || has_il_) {
        kc::BuildResult result =
            has_il_ ? translate_il(options, true) : compiler().build(source_, options);
        if (result.InvalidOptions)
            return {CL_INVALID_BUILD_OPTIONS, "invalid build options"};
        module = std::move(result.Output);
        log = std::move(result.Log);
    } else {
        std::shared_ptr<const kc::Module> input;
        {
            std::lock_guard lock(mutex_);
            for (Device* device : devices)
                if (DeviceBuild* build = find(*device); build && build->module)
                    input = build->module;
        }
        if (!input)
            return {CL_INVALID_BINARY, "no binary to build"};
        if (input->kind() == kc::ModuleKind::Executable) {
            module = input;
        } else {
            const kc::Module* inputs[] = {input.get()};
            kc::BuildResult result = compiler().link(inputs, options);
            module = std::move(result.Output);
            log = std::move(result.Log);
        }
    }
    std::vector<std::shared_ptr<const kc::NativeProgram>> natives;
    const bool success = module && natives_for(*module, devices.size(), natives, log);
    std::lock_guard lock(mutex_);
    for (size_t index = 0; index < devices.size(); ++index) {
        DeviceBuild* build = find(*devices[index]);
        if (!build)
            continue;
        build->status = success ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
        build->options = options;
        build->log = log;
        build->module = success ? module : nullptr;
        build->native = success ? natives[index] : nullptr;
        build->binary_type =
            success ? CL_PROGRAM_BINARY_TYPE_EXECUTABLE : CL_PROGRAM_BINARY_TYPE_NONE;
    }
    USMCL_LOG(compiler, "build of program %p: %s", static_cast<void*>(this),
              success ? "success" : "failure");
    return success ? Status{} : Status{CL_BUILD_PROGRAM_FAILURE, "the build failed (see the log)"};
}

Status Program::compile(const std::vector<Device*>& named, const std::string& options,
                        const std::vector<kc::Header>& headers) {
    const std::vector<Device*> devices = covered_by(named);
    std::string error;
    if (!compiler().checkCompileOptions(options, error))
        return {CL_INVALID_COMPILER_OPTIONS, "invalid compiler options"};
    mark_in_progress(devices);
    kc::BuildResult result =
        has_il_ ? translate_il(options, false) : compiler().compile(source_, options, headers);
    if (result.InvalidOptions)
        return {CL_INVALID_COMPILER_OPTIONS, "invalid compiler options"};
    std::shared_ptr<const kc::Module> module = std::move(result.Output);
    std::lock_guard lock(mutex_);
    for (Device* device : devices) {
        DeviceBuild* build = find(*device);
        if (!build)
            continue;
        build->status = module ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
        build->options = options;
        build->log = result.Log;
        build->module = module;
        build->native = nullptr;
        build->binary_type =
            module ? CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT : CL_PROGRAM_BINARY_TYPE_NONE;
    }
    return module ? Status{}
                  : Status{CL_COMPILE_PROGRAM_FAILURE, "the compilation failed (see the log)"};
}

void Program::set_linked(const std::vector<Device*>& devices, const std::string& options,
                         std::shared_ptr<const kc::Module> module, const std::string& log,
                         bool success) {
    from_link_.store(true);
    std::vector<std::shared_ptr<const kc::NativeProgram>> natives(devices.size());
    std::string full_log = log;
    if (success && module && module->kind() == kc::ModuleKind::Executable)
        success = natives_for(*module, devices.size(), natives, full_log);
    std::lock_guard lock(mutex_);
    builds_.clear();
    for (size_t index = 0; index < devices.size(); ++index) {
        DeviceBuild build{devices[index]};
        build.status = success ? CL_BUILD_SUCCESS : CL_BUILD_ERROR;
        build.options = options;
        build.log = full_log;
        build.module = success ? module : nullptr;
        build.native = success ? natives[index] : nullptr;
        build.binary_type =
            success && module ? binary_type_of(*module) : CL_PROGRAM_BINARY_TYPE_NONE;
        builds_.push_back(std::move(build));
    }
}

} // namespace usmcl::core
