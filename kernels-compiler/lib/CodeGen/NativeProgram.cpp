//===- CodeGen/NativeProgram.cpp - Work-group functions in an ORC LLJIT ---===//
//
// Each NativeProgram owns one LLJIT holding the program's objects (one, or
// one per part compiled in parallel): compiled for the host (CodeGen.cpp)
// or read from the on-disk cache. Only the host library
// functions (libm, memcpy & co.) resolve, to their addresses in this process.
// Every work-group function is looked up once here, so lookup() is a map read.
// Large program-scope variables (Passes/LargeGlobals.cpp) get their storage
// here, outside the JIT's image, when the object asks for them.
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

#include <sys/mman.h>

#include <cstring>
#include <map>
#include <mutex>

namespace kc {

namespace {

// Storage of the large program-scope variables: anonymous mappings, zero
// until touched, as long as the JIT (which owns this generator) lives.
class LargeGlobalStorage final : public llvm::orc::DefinitionGenerator {
public:
  struct Variable {
    std::string Name; // without the prefix
    void *Address;
    uint64_t Size;
    uint64_t InitSize;
  };

  ~LargeGlobalStorage() override {
    for (const Variable &V : Variables)
      munmap(V.Address, V.Size);
  }

  llvm::Error
  tryToGenerate(llvm::orc::LookupState &, llvm::orc::LookupKind,
                llvm::orc::JITDylib &JD, llvm::orc::JITDylibLookupFlags,
                const llvm::orc::SymbolLookupSet &Symbols) override {
    llvm::orc::SymbolMap New;
    std::lock_guard<std::mutex> Lock(Mutex);
    for (const auto &[Symbol, Flags] : Symbols) {
      uint64_t Size = 0, InitSize = 0;
      llvm::StringRef Name;
      if (!parseLargeGlobalSymbol(*Symbol, Size, InitSize, Name))
        continue;
      void *Address = mmap(nullptr, Size, PROT_READ | PROT_WRITE,
                           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (Address == MAP_FAILED)
        return llvm::createStringError(
            std::errc::not_enough_memory,
            "cannot allocate %llu bytes for the program-scope variable %s",
            static_cast<unsigned long long>(Size), Name.str().c_str());
      Variables.push_back({Name.str(), Address, Size, InitSize});
      New[Symbol] = {llvm::orc::ExecutorAddr::fromPtr(Address),
                     llvm::JITSymbolFlags::Exported};
    }
    if (New.empty())
      return llvm::Error::success();
    return JD.define(llvm::orc::absoluteSymbols(std::move(New)));
  }

  // Copies the initializers (__kc_ginit.<name>) into the storage.
  llvm::Error initialize(llvm::orc::LLJIT &JIT) {
    std::lock_guard<std::mutex> Lock(Mutex);
    for (const Variable &V : Variables) {
      if (V.InitSize == 0)
        continue;
      auto Init = JIT.lookup((LargeGlobalInitPrefix + V.Name).str());
      if (!Init)
        return Init.takeError();
      std::memcpy(V.Address, Init->toPtr<const void *>(), V.InitSize);
    }
    return llvm::Error::success();
  }

private:
  std::mutex Mutex;
  std::vector<Variable> Variables;
};

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
                                            LargeGlobalStorage *&Storage,
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
  auto Generator = std::make_unique<LargeGlobalStorage>();
  Storage = Generator.get();
  (*JIT)->getMainJITDylib().addGenerator(std::move(Generator));
  return std::move(*JIT);
}

std::unique_ptr<NativeProgram>
loadObject(const ModuleImpl &Executable, const HostTarget &Host,
           std::unique_ptr<llvm::MemoryBuffer> Object, std::string &Error) {
  LargeGlobalStorage *Storage = nullptr;
  std::unique_ptr<llvm::orc::LLJIT> JIT = createJIT(Host, Storage, Error);
  if (!JIT)
    return nullptr;
  // Built with -g: let GDB see the code (best effort).
  std::vector<std::string> Tokens;
  std::string Ignored;
  if (splitOptions(Executable.options(), Tokens, Ignored) &&
      llvm::is_contained(Tokens, "-g"))
    llvm::consumeError(llvm::orc::enableDebuggerSupport(*JIT));
  std::vector<std::unique_ptr<llvm::MemoryBuffer>> Objects;
  if (!unpackObjects(*Object, Objects)) {
    Error = "the packed objects do not parse";
    return nullptr;
  }
  for (std::unique_ptr<llvm::MemoryBuffer> &Part : Objects)
    if (llvm::Error E = JIT->addObjectFile(std::move(Part))) {
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
  // Every kernel is linked now, and with it every variable it uses.
  if (llvm::Error E = Storage->initialize(*JIT)) {
    Error = llvm::toString(std::move(E));
    return nullptr;
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
