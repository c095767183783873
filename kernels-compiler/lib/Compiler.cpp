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
  BuildOptions Parsed;
  std::string Error;
  if (!parseBuildOptions(Options, OptionsUse::Compile, Target, Parsed, Error))
    return invalidOptions(std::move(Error));
  BuildResult Result;
  llvm::LLVMContext Context;
  captureDiagnostics(Context, Result.Log);
  std::unique_ptr<llvm::Module> M =
      compileOpenCLC(Context, Source, Headers, Parsed, Target, Result.Log);
  if (!M)
    return Result;
  Result.Output = std::make_unique<ModuleImpl>(
      ModuleKind::Object, std::string(Options), writeBitcode(*M),
      std::vector<KernelInfo>{}, false);
  return Result;
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
  BuildOptions Parsed;
  std::string Error;
  if (!parseBuildOptions(Options, OptionsUse::Build, Target, Parsed, Error))
    return invalidOptions(std::move(Error));
  BuildResult Result;
  llvm::LLVMContext Context;
  captureDiagnostics(Context, Result.Log);
  std::unique_ptr<llvm::Module> M =
      compileOpenCLC(Context, Source, {}, Parsed, Target, Result.Log);
  if (!M)
    return Result;
  makeExecutable(std::move(M), Parsed, Options, Result);
  return Result;
}

namespace {

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

} // namespace

BuildResult compileSpirv(std::string_view Spirv,
                         std::span<const SpecConstantValue> SpecValues,
                         std::string_view Options, const DeviceTarget &Target,
                         const std::string &Translator) {
  BuildOptions Parsed;
  std::string Error;
  if (!parseBuildOptions(Options, OptionsUse::Compile, Target, Parsed, Error))
    return invalidOptions(std::move(Error));
  BuildResult Result;
  llvm::LLVMContext Context;
  captureDiagnostics(Context, Result.Log);
  std::unique_ptr<llvm::Module> M =
      translateSpirv(Context, Spirv, SpecValues, Translator, Result.Log);
  if (!M)
    return Result;
  applySpirvOptions(*M, Parsed);
  Result.Output = std::make_unique<ModuleImpl>(
      ModuleKind::Object, std::string(Options), writeBitcode(*M),
      std::vector<KernelInfo>{}, false);
  return Result;
}

BuildResult buildSpirv(std::string_view Spirv,
                       std::span<const SpecConstantValue> SpecValues,
                       std::string_view Options, const DeviceTarget &Target,
                       const std::string &Translator) {
  BuildOptions Parsed;
  std::string Error;
  if (!parseBuildOptions(Options, OptionsUse::Build, Target, Parsed, Error))
    return invalidOptions(std::move(Error));
  BuildResult Result;
  llvm::LLVMContext Context;
  captureDiagnostics(Context, Result.Log);
  std::unique_ptr<llvm::Module> M =
      translateSpirv(Context, Spirv, SpecValues, Translator, Result.Log);
  if (!M)
    return Result;
  applySpirvOptions(*M, Parsed);
  makeExecutable(std::move(M), Parsed, Options, Result);
  return Result;
}

} // namespace kc
