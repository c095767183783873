// A program: OpenCL C source or a binary, and per device what building it
// gave (status, options, log, the module, native code).
#pragma once

#include "core/context.hpp"
#include "core/device.hpp"
#include "core/object.hpp"
#include "core/result.hpp"
#include "kc/Compiler.h"
#include "kc/Spirv.h"

#include <CL/cl.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace usmcl::core {

using ProgramNotify = void(CL_CALLBACK*)(cl_program program, void* user_data);

// The compiler for usmcl's devices (their features fixed in device_features.def).
const kc::Compiler& compiler();
// The code cache settings from USMCL_CACHE and USMCL_CACHE_DIR.
const kc::CodeCache& code_cache();
// CL_DEVICE_ILS_WITH_VERSION ("SPIR-V" 1.0 to 1.6, what usmcl's reader
// takes) and CL_DEVICE_IL_VERSION ("SPIR-V_1.0 SPIR-V_1.1 ...").
const std::vector<NameVersion>& il_versions();
const std::string& il_version_string();

class Program : public Object<Program, _cl_program, ObjectType::program> {
public:
    struct DeviceBuild {
        DeviceBuild() = default;
        explicit DeviceBuild(Device* of) : device(of) {}
        Device* device = nullptr;
        cl_build_status status = CL_BUILD_NONE;
        cl_program_binary_type binary_type = CL_PROGRAM_BINARY_TYPE_NONE;
        std::string options;
        std::string log;
        std::shared_ptr<const kc::Module> module;
        std::shared_ptr<const kc::NativeProgram> native;
    };

    // From source (clCreateProgramWithSource).
    Program(Context& context, std::string source);
    // From SPIR-V (clCreateProgramWithIL), checked by kc::inspectSpirv.
    Program(Context& context, std::string il, kc::SpirvModuleInfo info);
    // From binaries, one module per device (clCreateProgramWithBinary), or
    // the result of clLinkProgram.
    Program(Context& context, std::vector<Device*> devices,
            std::vector<std::shared_ptr<const kc::Module>> modules);

    Context& context() const { return *context_; }
    const std::string& source() const { return source_; }
    bool has_source() const { return has_source_; }
    // Created from SPIR-V: the module as given (CL_PROGRAM_IL).
    bool has_il() const { return has_il_; }
    const std::string& il() const { return il_; }
    // clSetProgramSpecializationConstant: CL_INVALID_SPEC_ID for an id the
    // module has no constant for, CL_INVALID_VALUE for a size that is not
    // the constant's. Used by the next build or compile.
    Status set_spec_constant(cl_uint spec_id, size_t spec_size, const void* spec_value);
    std::vector<Device*> devices() const;

    // A copy of what the last build gave for device (null if not a device of the program).
    std::optional<DeviceBuild> build_of(const Device& device) const;
    // The build of device if it is an executable with native code.
    std::optional<DeviceBuild> executable_for(const Device& device) const;

    // clBuildProgram / clCompileProgram for devices; runs the build now.
    // A build for a device is a build for every device of the program with
    // the same root device: sub-devices and their parent run the same code.
    // Returns CL_BUILD_PROGRAM_FAILURE / CL_COMPILE_PROGRAM_FAILURE with
    // the log stored, or the options' error.
    Status build(const std::vector<Device*>& devices, const std::string& options);
    Status compile(const std::vector<Device*>& devices, const std::string& options,
                   const std::vector<kc::Header>& headers);
    // Adopts a linked module for devices (clLinkProgram's result).
    // Such a program cannot be built (clBuildProgram: CL_INVALID_OPERATION).
    bool from_link() const { return from_link_.load(); }
    void set_linked(const std::vector<Device*>& devices, const std::string& options,
                    std::shared_ptr<const kc::Module> module, const std::string& log, bool success);

    // clBuildProgram, clCompileProgram: runs body (the build or compile of
    // devices) now, or with notify on a thread of its own, calling notify
    // when it is done (the program is kept alive meanwhile). The devices'
    // status is CL_BUILD_IN_PROGRESS before this returns: an application
    // polling it right after an asynchronous clCompileProgram must not see
    // CL_BUILD_NONE. CL_INVALID_OPERATION while another build runs.
    Status run_build(const std::vector<Device*>& devices, ProgramNotify notify, void* user_data,
                     std::function<Status()> body);
    // clCreateProgramWithIL: CL_INVALID_VALUE if il is not well-formed
    // SPIR-V the devices take.
    static Result<Program*> from_il(Context& context, std::string il);
    // clCreateProgramWithBinary: binaries[i] for devices[i];
    // CL_INVALID_BINARY if one is not a binary usmcl wrote (binary_status,
    // if not NULL, says which).
    static Result<Program*> from_binaries(Context& context, std::vector<Device*> devices,
                                          std::span<const std::string_view> binaries,
                                          cl_int* binary_status);
    // clLinkProgram: a new program of devices in context, linked from the
    // compiled objects or libraries of inputs (CL_INVALID_OPERATION if an
    // input has none, CL_INVALID_LINKER_OPTIONS for bad options). A link
    // that fails still makes a program, whose build log says why (linked is
    // false); notify is called once it is done.
    struct Link {
        Program* program = nullptr;
        bool linked = false;
    };
    static Result<Link> link(Context& context, const std::vector<Device*>& devices,
                             const std::string& options, std::span<Program* const> inputs,
                             ProgramNotify notify, void* user_data);

    // A build or compile is running (CL_INVALID_OPERATION for another).
    bool begin_build();
    void end_build();
    // The devices' build status becomes CL_BUILD_IN_PROGRESS; after the
    // build, CL_BUILD_ERROR where it still is (a build that stopped early).
    void mark_in_progress(const std::vector<Device*>& devices);
    void end_in_progress(const std::vector<Device*>& devices);
    // Kernels created from the program (no rebuild while any exists).
    void kernel_created() { kernels_.fetch_add(1); }
    void kernel_released() { kernels_.fetch_sub(1); }
    bool has_kernels() const { return kernels_.load() != 0; }

private:
    friend class Object<Program, _cl_program, ObjectType::program>;
    ~Program();
    DeviceBuild* find(const Device& device);
    // The program's devices that share a root device with one of devices.
    std::vector<Device*> covered_by(const std::vector<Device*>& devices) const;

    // The module's object (compile) or executable (build) from SPIR-V.
    kc::BuildResult translate_il(const std::string& options, bool executable) const;

    Ref<Context> context_;
    std::string source_;
    bool has_source_ = false;
    std::string il_;
    bool has_il_ = false;
    kc::SpirvModuleInfo il_info_;
    std::map<cl_uint, uint64_t> spec_values_; // guarded by mutex_
    mutable std::mutex mutex_;
    std::vector<DeviceBuild> builds_;
    std::atomic<bool> building_{false};
    std::atomic<bool> from_link_{false};
    std::atomic<int> kernels_{0};
};

} // namespace usmcl::core
