//===- Frontend/ClangFrontend.cpp - OpenCL C to LLVM IR with Clang --------===//
//
// Clang runs as a library: a CompilerInvocation built from cc1 arguments, a
// virtual file system that layers the sources (and Clang's opencl-c-base.h,
// embedded in this library) over the real one, and EmitLLVMOnlyAction into
// the caller's LLVMContext.
//
// Address spaces: the x86-64 target with Clang's fake address-space map, so
// private = 0, global = 1, constant = 2, local = 3, generic = 4 in the IR (the
// SPIR numbering); the work-group passes and the metadata rely on it.
//
//===----------------------------------------------------------------------===//
#include "Frontend/ClangFrontend.h"

#include "Support/Embedded.h"
#include "Support/LLVMSetup.h"

#include <clang/Basic/Diagnostic.h>
#include <clang/Basic/DiagnosticOptions.h>
#include <clang/CodeGen/CodeGenAction.h>
#include <clang/Frontend/CompilerInstance.h>
#include <clang/Frontend/CompilerInvocation.h>
#include <clang/Frontend/TextDiagnosticPrinter.h>
#include <llvm/ADT/SmallString.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/VirtualFileSystem.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

#include <algorithm>

namespace kc {

namespace {

constexpr const char *ResourceIncludeDir = "/usmcl-kc/include";
// The declarations of cl_intel_subgroups' functions (Clang has none), in
// ResourceIncludeDir.
constexpr const char *IntelSubgroupsHeader = "usmcl-intel-subgroups.h";

bool hasExtension(const DeviceTarget &Target, std::string_view Name) {
  return std::find(Target.Extensions.begin(), Target.Extensions.end(), Name) !=
         Target.Extensions.end();
}

std::string clStdName(unsigned Version) {
  return "-cl-std=CL" + std::to_string(Version / 100) + "." +
         std::to_string(Version / 10 % 10);
}

void addUnique(std::vector<std::string> &List, const std::string &Name) {
  if (std::find(List.begin(), List.end(), Name) == List.end())
    List.push_back(Name);
}

// The extensions and (for OpenCL C 3.0) the optional features the device
// reports become Clang's supported options, hence its predefined macros.
std::string extensionArgument(const DeviceTarget &Target, unsigned CLVersion) {
  std::vector<std::string> Enabled = Target.Extensions;
  if (Target.Fp64)
    addUnique(Enabled, "cl_khr_fp64");
  if (CLVersion >= 300) {
    for (const std::string &F : Target.OpenCLCFeatures)
      addUnique(Enabled, F);
    if (Target.Fp64)
      addUnique(Enabled, "__opencl_c_fp64");
    if (Target.ImageSupport)
      addUnique(Enabled, "__opencl_c_images");
  }
  std::string Arg = "-cl-ext=-all";
  for (const std::string &E : Enabled)
    Arg += ",+" + E;
  return Arg;
}

std::vector<std::string> clangArguments(const BuildOptions &Options,
                                        const DeviceTarget &Target) {
  std::vector<std::string> Args = {
      "-triple",
      llvm::Triple::normalize(llvm::sys::getProcessTriple()),
      "-O2",
      "-disable-llvm-passes",
      "-discard-value-names",
      clStdName(Options.CLVersion),
      "-fdeclare-opencl-builtins",
      "-finclude-default-header",
      "-ffake-address-space-map",
      extensionArgument(Target, Options.CLVersion),
      "-internal-isystem",
      ResourceIncludeDir,
      // The device's OpenCL version, whatever -cl-std says.
      "-D__OPENCL_VERSION__=300",
      // Wide vector arguments change the x86-64 ABI without AVX; every call
      // is inlined into the kernels, so that never matters here.
      "-Wno-psabi",
  };
  if (Target.ImageSupport)
    Args.emplace_back("-D__IMAGE_SUPPORT__=1");
  // Clang 19 takes these OpenCL C 3.0 features from macros only, and
  // cl_ext_float_atomics (whose builtins need OpenCL C 2.0 atomics) with its
  // __opencl_c_ext_* features too: it defines them for SPIR targets alone.
  for (const std::string &F : Target.OpenCLCFeatures)
    if ((Options.CLVersion >= 300 &&
         (F == "__opencl_c_atomic_scope_device" ||
          F == "__opencl_c_atomic_scope_all_devices" ||
          F == "__opencl_c_work_group_collective_functions")) ||
        (Options.CLVersion >= 200 && F.starts_with("__opencl_c_ext_")))
      Args.push_back("-D" + F + "=1");
  if (Options.CLVersion >= 200 && hasExtension(Target, "cl_ext_float_atomics"))
    Args.emplace_back("-Dcl_ext_float_atomics=1");
  // Extensions Clang 19 knows only by their macro: it declares the
  // cl_khr_subgroup_* functions when the macro is defined.
  for (const std::string &E : Target.Extensions)
    if (llvm::StringRef(E).starts_with("cl_khr_subgroup_") ||
        E == "cl_intel_required_subgroup_size")
      Args.push_back("-D" + E + "=1");
  if (hasExtension(Target, "cl_intel_subgroups")) {
    Args.emplace_back("-include");
    Args.push_back(std::string(ResourceIncludeDir) + "/" +
                   IntelSubgroupsHeader);
  }
  Args.insert(Args.end(), Options.ClangArgs.begin(), Options.ClangArgs.end());
  Args.emplace_back("-x");
  Args.emplace_back("cl");
  Args.emplace_back(MainFileName);
  return Args;
}

llvm::IntrusiveRefCntPtr<llvm::vfs::FileSystem>
sourceFileSystem(std::string_view Source, std::span<const Header> Headers) {
  llvm::SmallString<256> Cwd;
  if (llvm::sys::fs::current_path(Cwd))
    Cwd = "/";
  auto Memory = llvm::makeIntrusiveRefCnt<llvm::vfs::InMemoryFileSystem>();
  Memory->setCurrentWorkingDirectory(Cwd);
  auto AddFile = [&](llvm::StringRef Name, llvm::StringRef Contents) {
    llvm::SmallString<256> Path(Name);
    if (!llvm::sys::path::is_absolute(Path)) {
      Path = Cwd;
      llvm::sys::path::append(Path, Name);
    }
    Memory->addFile(Path, 0,
                    llvm::MemoryBuffer::getMemBufferCopy(Contents, Name));
  };
  AddFile(MainFileName, llvm::StringRef(Source.data(), Source.size()));
  for (const Header &H : Headers)
    AddFile(H.Name, H.Source);
  std::string_view Base = embedded::openclBaseHeader();
  llvm::SmallString<64> BasePath(ResourceIncludeDir);
  llvm::sys::path::append(BasePath, "opencl-c-base.h");
  Memory->addFile(BasePath, 0,
                  llvm::MemoryBuffer::getMemBuffer(
                      llvm::StringRef(Base.data(), Base.size()),
                      "opencl-c-base.h",
                      /*RequiresNullTerminator=*/true));
  std::string_view Intel = embedded::intelSubgroupsHeader();
  llvm::SmallString<64> IntelPath(ResourceIncludeDir);
  llvm::sys::path::append(IntelPath, IntelSubgroupsHeader);
  Memory->addFile(IntelPath, 0,
                  llvm::MemoryBuffer::getMemBuffer(
                      llvm::StringRef(Intel.data(), Intel.size()),
                      IntelSubgroupsHeader,
                      /*RequiresNullTerminator=*/true));
  auto Overlay = llvm::makeIntrusiveRefCnt<llvm::vfs::OverlayFileSystem>(
      llvm::vfs::createPhysicalFileSystem());
  Overlay->pushOverlay(Memory);
  return Overlay;
}

} // namespace

std::unique_ptr<llvm::Module>
compileOpenCLC(llvm::LLVMContext &Context, std::string_view Source,
               std::span<const Header> Headers, const BuildOptions &Options,
               const DeviceTarget &Target, std::string &Log) {
  initializeLLVM();
  llvm::raw_string_ostream LogStream(Log);

  std::vector<std::string> Args = clangArguments(Options, Target);
  std::vector<const char *> ArgPointers;
  ArgPointers.reserve(Args.size());
  for (const std::string &A : Args)
    ArgPointers.push_back(A.c_str());

  auto Invocation = std::make_shared<clang::CompilerInvocation>();
  {
    auto DiagOptions = llvm::makeIntrusiveRefCnt<clang::DiagnosticOptions>();
    clang::TextDiagnosticPrinter Printer(LogStream, DiagOptions.get());
    clang::DiagnosticsEngine Diags(
        llvm::makeIntrusiveRefCnt<clang::DiagnosticIDs>(), DiagOptions,
        &Printer, /*ShouldOwnClient=*/false);
    if (!clang::CompilerInvocation::CreateFromArgs(*Invocation, ArgPointers,
                                                   Diags))
      return nullptr;
  }

  clang::CompilerInstance Instance;
  // Moved, never copied: this file has no RTTI, and a sanitized program
  // would check the shared_ptr control block's dynamic type on a copy.
  Instance.setInvocation(std::move(Invocation));
  Instance.createDiagnostics(new clang::TextDiagnosticPrinter(
                                 LogStream, &Instance.getDiagnosticOpts()),
                             /*ShouldOwnClient=*/true);
  Instance.setVerboseOutputStream(LogStream);
  Instance.createFileManager(sourceFileSystem(Source, Headers));

  clang::EmitLLVMOnlyAction Action(&Context);
  if (!Instance.ExecuteAction(Action))
    return nullptr;
  return Action.takeModule();
}

} // namespace kc
