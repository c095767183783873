//===- Compiler.cpp - The public interface --------------------------------===//
#include "kc/Compiler.h"
#include "kc/Spirv.h"

#include "Binary/ModuleImpl.h"
#include "CodeGen/CodeGen.h"
#include "Frontend/BuildOptions.h"
#include "Frontend/ClangFrontend.h"
#include "Frontend/SpirvFrontend.h"
#include "Link/Link.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

namespace kc {

namespace {

BuildResult invalidOptions(std::string Error) {
  BuildResult Result;
  Result.InvalidOptions = true;
  Result.Log = "error: " + std::move(Error) + "\n";
  return Result;
}

// Links the builtins, generates the work-group functions and wraps the result.
void makeExecutable(std::unique_ptr<llvm::Module> M,
                    const BuildOptions &Options, std::string_view OptionText,
                    BuildResult &Result) {
  if (Options.OptDisable)
    M->addModuleFlag(llvm::Module::Warning, OptDisableFlag, 1);
  // The program's own variables, before the builtins join and before
  // optimization drops unused ones.
  uint64_t GlobalSize = globalVariableSize(*M);
  std::vector<KernelInfo> Kernels;
  if (!finalizeExecutable(*M, Options, Kernels, Result.Log))
    return;
  Result.Output = std::make_unique<ModuleImpl>(
      ModuleKind::Executable, std::string(OptionText), writeBitcode(*M),
      std::move(Kernels), false, GlobalSize);
}

// Every entry point with one front end: parses the options for Use, runs
// MakeModule(Context, Parsed, Log) in a fresh context whose diagnostics go
// into the log, then wraps the module as an object (compile) or makes an
// executable of it (build).
template <class FrontEnd>
BuildResult fromFrontEnd(std::string_view Options, OptionsUse Use,
                         const DeviceTarget &Target, FrontEnd &&MakeModule) {
  BuildOptions Parsed;
  std::string Error;
  if (!parseBuildOptions(Options, Use, Target, Parsed, Error))
    return invalidOptions(std::move(Error));
  BuildResult Result;
  llvm::LLVMContext Context;
  captureDiagnostics(Context, Result.Log);
  std::unique_ptr<llvm::Module> M = MakeModule(Context, Parsed, Result.Log);
  if (!M)
    return Result;
  if (Use == OptionsUse::Compile)
    Result.Output = std::make_unique<ModuleImpl>(
        ModuleKind::Object, std::string(Options), writeBitcode(*M),
        std::vector<KernelInfo>{}, false);
  else
    makeExecutable(std::move(M), Parsed, Options, Result);
  return Result;
}

// What Clang gives the kernels of OpenCL C, for kernels from SPIR-V: the
// math and denormal options, and the work-group rule (non-uniform
// work-groups unless -cl-uniform-work-group-size).
void applySpirvOptions(llvm::Module &M, const BuildOptions &Parsed) {
  applyMathOptions(M, Parsed);
  for (llvm::Function &F : M)
    if (!F.isDeclaration() &&
        F.getCallingConv() == llvm::CallingConv::SPIR_KERNEL)
      F.addFnAttr("uniform-work-group-size",
                  Parsed.UniformWorkGroupSize ? "true" : "false");
}

// The SPIR-V front end: the module read with the options applied.
auto spirvFrontEnd(std::string_view Spirv,
                   std::span<const SpecConstantValue> SpecValues) {
  return [=](llvm::LLVMContext &Context, const BuildOptions &Parsed,
             std::string &Log) {
    std::unique_ptr<llvm::Module> M =
        translateSpirv(Context, Spirv, SpecValues, Log);
    if (M)
      applySpirvOptions(*M, Parsed);
    return M;
  };
}

} // namespace

Compiler::Compiler(DeviceTarget Target) : Target(std::move(Target)) {}

Compiler::~Compiler() = default;

bool Compiler::checkCompileOptions(std::string_view Options,
                                   std::string &Error) const {
  BuildOptions Parsed;
  return parseBuildOptions(Options, OptionsUse::Build, Target, Parsed, Error);
}

bool Compiler::checkLinkOptions(std::string_view Options,
                                std::string &Error) const {
  BuildOptions Parsed;
  return parseBuildOptions(Options, OptionsUse::Link, Target, Parsed, Error);
}

BuildResult Compiler::compile(std::string_view Source, std::string_view Options,
                              std::span<const Header> Headers) const {
  return fromFrontEnd(Options, OptionsUse::Compile, Target,
                      [&](llvm::LLVMContext &Context,
                          const BuildOptions &Parsed, std::string &Log) {
                        return compileOpenCLC(Context, Source, Headers, Parsed,
                                              Target, Log);
                      });
}

BuildResult Compiler::link(std::span<const Module *const> Inputs,
                           std::string_view Options) const {
  BuildOptions Parsed;
  std::string Error;
  if (!parseBuildOptions(Options, OptionsUse::Link, Target, Parsed, Error))
    return invalidOptions(std::move(Error));
  std::vector<const ModuleImpl *> Impls;
  for (const Module *Input : Inputs) {
    if (!Input || Input->kind() == ModuleKind::Executable) {
      BuildResult Result;
      Result.Log = "error: only compiled objects and libraries can be linked\n";
      return Result;
    }
    Impls.push_back(static_cast<const ModuleImpl *>(Input));
  }
  BuildResult Result;
  llvm::LLVMContext Context;
  captureDiagnostics(Context, Result.Log);
  std::unique_ptr<llvm::Module> M =
      linkModules(Context, Impls, Parsed, Result.Log);
  if (!M)
    return Result;
  if (Parsed.CreateLibrary) {
    Result.Output = std::make_unique<ModuleImpl>(
        ModuleKind::Library, std::string(Options), writeBitcode(*M),
        std::vector<KernelInfo>{}, Parsed.EnableLinkOptions);
    return Result;
  }
  makeExecutable(std::move(M), Parsed, Options, Result);
  return Result;
}

BuildResult Compiler::build(std::string_view Source,
                            std::string_view Options) const {
  return fromFrontEnd(Options, OptionsUse::Build, Target,
                      [&](llvm::LLVMContext &Context,
                          const BuildOptions &Parsed, std::string &Log) {
                        return compileOpenCLC(Context, Source, {}, Parsed,
                                              Target, Log);
                      });
}

BuildResult compileSpirv(std::string_view Spirv,
                         std::span<const SpecConstantValue> SpecValues,
                         std::string_view Options, const DeviceTarget &Target) {
  return fromFrontEnd(Options, OptionsUse::Compile, Target,
                      spirvFrontEnd(Spirv, SpecValues));
}

BuildResult buildSpirv(std::string_view Spirv,
                       std::span<const SpecConstantValue> SpecValues,
                       std::string_view Options, const DeviceTarget &Target) {
  return fromFrontEnd(Options, OptionsUse::Build, Target,
                      spirvFrontEnd(Spirv, SpecValues));
}

} // namespace kc
