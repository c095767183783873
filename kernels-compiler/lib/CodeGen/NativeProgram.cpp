//===- CodeGen/NativeProgram.cpp - Work-group functions in an ORC LLJIT ---===//
//
// Each NativeProgram owns one LLJIT holding one object: compiled for the
// host (CodeGen.cpp) or read from the on-disk cache. Only the host library
// functions (libm, memcpy & co.) resolve, to their addresses in this process.
// Every work-group function is looked up once here, so lookup() is a map read.
//
//===----------------------------------------------------------------------===//
#include "Binary/ModuleImpl.h"
#include "Builtins/BuiltinLibrary.h"
#include "Cache/ObjectCache.h"
#include "CodeGen/CodeGen.h"
#include "CodeGen/VectorMath.h"
#include "Frontend/BuildOptions.h"
#include "Passes/WorkGroupABI.h"
#include "Support/LLVMSetup.h"

#include <llvm/ExecutionEngine/Orc/Core.h>
#include <llvm/ExecutionEngine/Orc/Debugging/DebuggerSupport.h>
#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/Mangling.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <map>

namespace kc {

namespace {

class NativeProgramImpl final : public NativeProgram {
public:
  NativeProgramImpl(
      std::unique_ptr<llvm::orc::LLJIT> JIT,
      std::map<std::string, WorkGroupFunction, std::less<>> Functions)
      : JIT(std::move(JIT)), Functions(std::move(Functions)) {}

  WorkGroupFunction lookup(std::string_view KernelName) const override {
    auto It = Functions.find(KernelName);
    return It == Functions.end() ? nullptr : It->second;
  }

private:
  std::unique_ptr<llvm::orc::LLJIT> JIT;
  std::map<std::string, WorkGroupFunction, std::less<>> Functions;
};

std::unique_ptr<llvm::orc::LLJIT> createJIT(const HostTarget &Host,
                                            std::string &Error) {
  llvm::orc::JITTargetMachineBuilder Builder{llvm::Triple(Host.Triple)};
  Builder.setCPU(Host.CPU);
  Builder.setRelocationModel(llvm::Reloc::PIC_);
  Builder.setCodeModel(llvm::CodeModel::Small);
  auto JIT = llvm::orc::LLJITBuilder()
                 .setJITTargetMachineBuilder(std::move(Builder))
                 .create();
  if (!JIT) {
    Error = llvm::toString(JIT.takeError());
    return nullptr;
  }
  // The host library functions and the vector variants of the math
  // functions, at their addresses in this process.
  llvm::orc::SymbolMap Symbols;
  llvm::orc::MangleAndInterner Mangle((*JIT)->getExecutionSession(),
                                      (*JIT)->getDataLayout());
  auto Define = [&](const std::string &Name, void *Address) {
    Symbols[Mangle(Name)] = {llvm::orc::ExecutorAddr::fromPtr(Address),
                             llvm::JITSymbolFlags::Exported |
                                 llvm::JITSymbolFlags::Callable};
  };
  for (const auto &[Name, Address] : hostLibrarySymbols())
    Define(Name, Address);
  for (const auto &[Name, Address] : vectorMathSymbols(Host))
    Define(Name, Address);
  if (llvm::Error E = (*JIT)->getMainJITDylib().define(
          llvm::orc::absoluteSymbols(std::move(Symbols)))) {
    Error = llvm::toString(std::move(E));
    return nullptr;
  }
  return std::move(*JIT);
}

std::unique_ptr<NativeProgram>
loadObject(const ModuleImpl &Executable, const HostTarget &Host,
           std::unique_ptr<llvm::MemoryBuffer> Object, std::string &Error) {
  std::unique_ptr<llvm::orc::LLJIT> JIT = createJIT(Host, Error);
  if (!JIT)
    return nullptr;
  // Built with -g: let GDB see the code (best effort).
  std::vector<std::string> Tokens;
  std::string Ignored;
  if (splitOptions(Executable.options(), Tokens, Ignored) &&
      llvm::is_contained(Tokens, "-g"))
    llvm::consumeError(llvm::orc::enableDebuggerSupport(*JIT));
  if (llvm::Error E = JIT->addObjectFile(std::move(Object))) {
    Error = llvm::toString(std::move(E));
    return nullptr;
  }
  std::map<std::string, WorkGroupFunction, std::less<>> Functions;
  for (const KernelInfo &Kernel : Executable.kernels()) {
    auto Address = JIT->lookup(Kernel.Name + WorkGroupSuffix.str());
    if (!Address) {
      Error = llvm::toString(Address.takeError());
      return nullptr;
    }
    Functions.emplace(Kernel.Name, Address->toPtr<WorkGroupFunction>());
  }
  return std::make_unique<NativeProgramImpl>(std::move(JIT),
                                             std::move(Functions));
}

} // namespace

std::unique_ptr<NativeProgram> createNativeProgram(const Module &Executable,
                                                   const CodeCache &Cache,
                                                   std::string &Error) {
  if (Executable.kind() != ModuleKind::Executable) {
    Error = "not an executable module";
    return nullptr;
  }
  initializeLLVM();
  const auto &Impl = static_cast<const ModuleImpl &>(Executable);
  HostTarget Host = detectHostTarget();

  std::string Key;
  if (Cache.Enabled) {
    Key = cacheKey(Impl, Host);
    if (auto Cached = readCachedObject(Cache, Key)) {
      std::string Ignored;
      if (auto Program = loadObject(Impl, Host, std::move(Cached), Ignored))
        return Program;
    }
  }
  std::unique_ptr<llvm::MemoryBuffer> Object =
      compileToObject(Impl, Host, Error);
  if (!Object)
    return nullptr;
  if (Cache.Enabled)
    writeCachedObject(Cache, Key, *Object);
  return loadObject(Impl, Host, std::move(Object), Error);
}

} // namespace kc
