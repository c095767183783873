//===- CodeGen/CodeGen.cpp - Executable modules to object code ------------===//
#include "CodeGen/CodeGen.h"

#include "Binary/ModuleImpl.h"
#include "CodeGen/VectorMath.h"
#include "Pipeline/Pipeline.h"
#include "Support/LLVMSetup.h"

#include <llvm/ADT/APFloat.h>
#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/FloatingPointMode.h>
#include <llvm/ADT/STLExtras.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IR/Module.h>
#include <llvm/MC/TargetRegistry.h>
#include <llvm/Support/CodeGen.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Target/TargetOptions.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/SubtargetFeature.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/SplitModule.h>

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

namespace kc {

HostTarget detectHostTarget() {
  static const HostTarget Host = [] {
    HostTarget H;
    H.Triple = llvm::Triple::normalize(llvm::sys::getProcessTriple());
    H.CPU = llvm::sys::getHostCPUName().str();
    llvm::SubtargetFeatures Features;
    for (const auto &Feature : llvm::sys::getHostCPUFeatures())
      Features.AddFeature(Feature.first(), Feature.second);
    H.Features = Features.getString();
    return H;
  }();
  return Host;
}

bool hasFeature(const HostTarget &Host, llvm::StringRef Feature) {
  llvm::SmallVector<llvm::StringRef, 64> Features;
  llvm::StringRef(Host.Features).split(Features, ',');
  return llvm::is_contained(Features, ("+" + Feature).str());
}

namespace {

std::unique_ptr<llvm::TargetMachine> createTargetMachine(const HostTarget &Host,
                                                         bool OptDisable,
                                                         std::string &Error) {
  const llvm::Target *T =
      llvm::TargetRegistry::lookupTarget(Host.Triple, Error);
  if (!T)
    return nullptr;
  llvm::TargetOptions Options;
  auto Level = OptDisable ? llvm::CodeGenOptLevel::None
                          : llvm::CodeGenOptLevel::Aggressive;
  std::unique_ptr<llvm::TargetMachine> TM(T->createTargetMachine(
      Host.Triple, Host.CPU, Host.Features, Options, llvm::Reloc::PIC_,
      llvm::CodeModel::Small, Level, /*JIT=*/true));
  if (!TM)
    Error = "cannot create a target machine for " + Host.Triple;
  return TM;
}

void prepareForTarget(llvm::Module &M, llvm::TargetMachine &TM,
                      const HostTarget &Host) {
  M.setTargetTriple(Host.Triple);
  M.setDataLayout(TM.createDataLayout());
  // With AVX-512, 512-bit vectors: the work-item loops vectorize 16 floats
  // (the sub-group size) in zmm registers, as Intel's CPU runtime does, and
  // 512-bit call arguments go in zmm, as libmvec's AVX-512 variants
  // (_ZGVeN16v_sinf) take them. LLVM prefers 256 bits on Intel's AVX-512
  // CPUs: loops then ran in ymm halves (Mandelbrot 153 against 198
  // Mpixel/s, a sub-group reduction 7.4 against 15.0 GB/s on a 2-core
  // Xeon), and without "min-legal-vector-width" a 512-bit argument was
  // passed as two ymm halves, the variant computing its upper lanes from
  // garbage.
  const bool Zmm = hasFeature(Host, "avx512f");
  for (llvm::Function &F : M) {
    if (F.isDeclaration())
      continue;
    F.addFnAttr("target-cpu", Host.CPU);
    F.addFnAttr("target-features", Host.Features);
    if (Zmm) {
      F.addFnAttr("prefer-vector-width", "512");
      F.addFnAttr("min-legal-vector-width", "512");
    }
  }
}

// Built with -cl-denorms-are-zero: the work-group functions run with
// MXCSR's FTZ and DAZ set.
bool flushesDenormals(const llvm::Module &M) {
  for (const llvm::Function &F : M) {
    if (F.isDeclaration())
      continue;
    for (const llvm::fltSemantics *Type :
         {&llvm::APFloat::IEEEsingle(), &llvm::APFloat::IEEEdouble()})
      if (F.getDenormalMode(*Type) != llvm::DenormalMode::getIEEE())
        return true;
  }
  return false;
}

// The host's library functions, with the vector variants of the math
// functions this process can call. Not when denormals flush: under FTZ/DAZ
// libmvec's hypot is hundreds (float) to millions (double) of ULPs off on
// normal inputs, where the scalar libm is right.
llvm::TargetLibraryInfoImpl hostLibraryInfo(const llvm::Module &M,
                                            const HostTarget &Host) {
  llvm::TargetLibraryInfoImpl TLII{llvm::Triple(Host.Triple)};
  if (!flushesDenormals(M))
    addVectorMathFunctions(TLII, Host);
  return TLII;
}

} // namespace

std::unique_ptr<llvm::Module> optimizeForHost(const ModuleImpl &Executable,
                                              const HostTarget &Host,
                                              llvm::LLVMContext &Context,
                                              std::string &Error) {
  initializeLLVM();
  std::unique_ptr<llvm::Module> M = Executable.load(Context, Error);
  if (!M)
    return nullptr;
  bool OptDisable = M->getModuleFlag(OptDisableFlag) != nullptr;
  std::unique_ptr<llvm::TargetMachine> TM =
      createTargetMachine(Host, OptDisable, Error);
  if (!TM)
    return nullptr;
  prepareForTarget(*M, *TM, Host);
  llvm::TargetLibraryInfoImpl TLII = hostLibraryInfo(*M, Host);
  runCodeGenPipeline(*M, *TM, TLII, OptDisable);
  return M;
}

namespace {

// Errors of a context (remarks and warnings, such as a work-item loop the
// vectorizer declined, are no one's business at this point).
void collectErrors(llvm::LLVMContext &Context, std::string &Diagnostics) {
  Context.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo *Info, void *Data) {
        if (Info->getSeverity() != llvm::DS_Error)
          return;
        llvm::raw_string_ostream OS(*static_cast<std::string *>(Data));
        llvm::DiagnosticPrinterRawOStream Printer(OS);
        Info->print(Printer);
        OS << '\n';
      },
      &Diagnostics);
}

// M optimized for the host and compiled into Object; false and Error on
// failure.
bool compileModule(llvm::Module &M, const HostTarget &Host,
                   llvm::SmallVectorImpl<char> &Object, std::string &Error) {
  bool OptDisable = M.getModuleFlag(OptDisableFlag) != nullptr;
  std::unique_ptr<llvm::TargetMachine> TM =
      createTargetMachine(Host, OptDisable, Error);
  if (!TM)
    return false;
  prepareForTarget(M, *TM, Host);
  llvm::TargetLibraryInfoImpl TLII = hostLibraryInfo(M, Host);
  runCodeGenPipeline(M, *TM, TLII, OptDisable);
  llvm::raw_svector_ostream OS(Object);
  llvm::legacy::PassManager PM;
  PM.add(new llvm::TargetLibraryInfoWrapperPass(TLII));
  if (TM->addPassesToEmitFile(PM, OS, nullptr,
                              llvm::CodeGenFileType::ObjectFile)) {
    Error = "the target cannot emit object files";
    return false;
  }
  PM.run(M);
  return true;
}

// One part of a split executable, compiled in a context of its own (on a
// thread of its own).
struct Part {
  llvm::SmallVector<char, 0> Bitcode;
  llvm::SmallVector<char, 0> Object;
  std::string Error;
};

void compilePart(Part &P, const HostTarget &Host) {
  llvm::LLVMContext Context;
  std::string Diagnostics;
  collectErrors(Context, Diagnostics);
  auto M = llvm::parseBitcodeFile(
      llvm::MemoryBufferRef(llvm::StringRef(P.Bitcode.data(), P.Bitcode.size()),
                            "part"),
      Context);
  if (!M) {
    P.Error = llvm::toString(M.takeError());
    return;
  }
  if (compileModule(**M, Host, P.Object, P.Error) && !Diagnostics.empty())
    P.Error = Diagnostics;
}

std::atomic<unsigned> CodeGenThreads{0};

// The processing units this process may run on.
unsigned availableThreads() {
  if (unsigned Threads = CodeGenThreads.load(std::memory_order_relaxed))
    return Threads;
  cpu_set_t Set;
  if (sched_getaffinity(0, sizeof(Set), &Set) == 0)
    return std::max(1, CPU_COUNT(&Set));
  return std::max(1u, std::thread::hardware_concurrency());
}

} // namespace

void setCodeGenThreads(unsigned Threads) {
  CodeGenThreads.store(Threads, std::memory_order_relaxed);
}

unsigned codeGenParts(const llvm::Module &M) {
  unsigned Functions = 0;
  for (const llvm::Function &F : M)
    Functions += !F.isDeclaration();
  return std::max(1u,
                  std::min({Functions, availableThreads(), MaxCodeGenParts}));
}

// Without the loops, the compute program of bench/kernels from SPIR-V
// weighed its Mandelbrot kernel (31 loops, the chunks of its divergent
// loop) 702 and the three others (8 to 10 loops) 424, 282 and 190, where
// they took 103, 41, 41 and 35 ms to compile: two parts put one of the
// small ones with Mandelbrot (152 against 92 ms per build). Those times
// fit about 23 instructions a loop.
uint64_t codeGenWeight(const llvm::Function &F) {
  llvm::DominatorTree Dominators(const_cast<llvm::Function &>(F));
  llvm::LoopInfo Loops(Dominators);
  uint64_t Count = 0;
  llvm::SmallVector<const llvm::Loop *, 16> Work(Loops.begin(), Loops.end());
  while (!Work.empty()) {
    const llvm::Loop *L = Work.pop_back_val();
    ++Count;
    Work.append(L->begin(), L->end());
  }
  return F.getInstructionCount() + CodeGenLoopWeight * Count;
}

namespace {

// Splits M into Count parts for code generation, as llvm::SplitModule does
// (every local symbol becomes a hidden external one, so that what one part
// uses of another's links; each definition in one part), but with the
// functions weighed by their instructions and loops (codeGenWeight): the
// heaviest first, each into the lightest part so far. (SplitModule's round
// robin put Mandelbrot's kernel, as heavy as three plain ones, with another
// kernel: one thread took 135 ms where the other took 95.) The global variables
// are defined in part 0. A module with aliases, ifuncs or comdats, which must
// stay with what they name, goes to llvm::SplitModule.
void splitByWeight(
    llvm::Module &M, unsigned Count,
    llvm::function_ref<void(std::unique_ptr<llvm::Module>)> Callback) {
  if (!M.alias_empty() || !M.ifunc_empty() ||
      !M.getComdatSymbolTable().empty()) {
    llvm::SplitModule(M, Count, Callback, /*PreserveLocals=*/false,
                      /*RoundRobin=*/true);
    return;
  }
  auto Externalize = [](llvm::GlobalValue &GV) {
    if (GV.hasLocalLinkage()) {
      GV.setLinkage(llvm::GlobalValue::ExternalLinkage);
      GV.setVisibility(llvm::GlobalValue::HiddenVisibility);
    }
    if (!GV.hasName())
      GV.setName("__kc_split_unnamed"); // made unique by setName
  };
  for (llvm::Function &F : M)
    Externalize(F);
  for (llvm::GlobalVariable &GV : M.globals())
    Externalize(GV);
  std::vector<std::pair<uint64_t, const llvm::Function *>> Weights;
  for (const llvm::Function &F : M)
    if (!F.isDeclaration())
      Weights.emplace_back(codeGenWeight(F), &F);
  std::stable_sort(
      Weights.begin(), Weights.end(),
      [](const auto &A, const auto &B) { return A.first > B.first; });
  std::vector<uint64_t> Load(Count, 0);
  llvm::DenseMap<const llvm::GlobalValue *, unsigned> PartOf;
  for (const auto &[Weight, F] : Weights) {
    const auto Lightest = static_cast<unsigned>(
        std::min_element(Load.begin(), Load.end()) - Load.begin());
    PartOf[F] = Lightest;
    Load[Lightest] += Weight + 1;
  }
  for (unsigned I = 0; I < Count; ++I) {
    llvm::ValueToValueMapTy VMap;
    std::unique_ptr<llvm::Module> Part =
        llvm::CloneModule(M, VMap, [&](const llvm::GlobalValue *GV) {
          auto It = PartOf.find(GV);
          return It != PartOf.end() ? It->second == I : I == 0;
        });
    if (I != 0)
      Part->setModuleInlineAsm("");
    Callback(std::move(Part));
  }
}

} // namespace

std::unique_ptr<llvm::MemoryBuffer>
compileToObject(const ModuleImpl &Executable, const HostTarget &Host,
                std::string &Error) {
  initializeLLVM();
  llvm::LLVMContext Context;
  std::string Diagnostics;
  collectErrors(Context, Diagnostics);
  std::unique_ptr<llvm::Module> M = Executable.load(Context, Error);
  if (!M)
    return nullptr;
  const unsigned Count = codeGenParts(*M);
  if (Count <= 1) {
    llvm::SmallVector<char, 0> Object;
    if (!compileModule(*M, Host, Object, Error))
      return nullptr;
    if (!Diagnostics.empty()) {
      Error = Diagnostics;
      return nullptr;
    }
    return llvm::MemoryBuffer::getMemBufferCopy(
        llvm::StringRef(Object.data(), Object.size()), "kernels.o");
  }

  // Several work-group functions: split the module into parts of about the
  // same weight (splitByWeight), compile the parts at once, each on a
  // thread and in a context of its own; the JIT links their objects.
  std::vector<Part> Parts;
  Parts.reserve(Count);
  splitByWeight(*M, Count, [&](std::unique_ptr<llvm::Module> PartModule) {
    Parts.emplace_back();
    llvm::raw_svector_ostream OS(Parts.back().Bitcode);
    llvm::WriteBitcodeToFile(*PartModule, OS);
  });
  M.reset();
  std::vector<std::thread> Threads;
  for (size_t I = 1; I < Parts.size(); ++I)
    Threads.emplace_back(compilePart, std::ref(Parts[I]), std::cref(Host));
  compilePart(Parts[0], Host);
  for (std::thread &T : Threads)
    T.join();
  std::vector<llvm::StringRef> Objects;
  for (const Part &P : Parts) {
    if (!P.Error.empty()) {
      Error = P.Error;
      return nullptr;
    }
    Objects.emplace_back(P.Object.data(), P.Object.size());
  }
  return packObjects(Objects);
}

std::unique_ptr<llvm::MemoryBuffer>
packObjects(llvm::ArrayRef<llvm::StringRef> Objects) {
  if (Objects.size() == 1)
    return llvm::MemoryBuffer::getMemBufferCopy(Objects[0], "kernels.o");
  std::string Packed(PackedObjectsMagic, sizeof(PackedObjectsMagic));
  auto Put = [&](uint64_t Value) {
    for (unsigned Byte = 0; Byte < 8; ++Byte)
      Packed.push_back(static_cast<char>(Value >> (8 * Byte)));
  };
  Put(Objects.size());
  for (llvm::StringRef Object : Objects)
    Put(Object.size());
  for (llvm::StringRef Object : Objects)
    Packed.append(Object.data(), Object.size());
  return llvm::MemoryBuffer::getMemBufferCopy(Packed, "kernels.o");
}

bool unpackObjects(const llvm::MemoryBuffer &Buffer,
                   std::vector<std::unique_ptr<llvm::MemoryBuffer>> &Objects) {
  llvm::StringRef Data = Buffer.getBuffer();
  Objects.clear();
  if (!Data.starts_with(
          llvm::StringRef(PackedObjectsMagic, sizeof(PackedObjectsMagic)))) {
    Objects.push_back(llvm::MemoryBuffer::getMemBufferCopy(Data, "kernels.o"));
    return true;
  }
  size_t At = sizeof(PackedObjectsMagic);
  auto Get = [&](uint64_t &Value) {
    if (Data.size() - At < 8)
      return false;
    Value = 0;
    for (unsigned Byte = 0; Byte < 8; ++Byte)
      Value |= uint64_t(static_cast<unsigned char>(Data[At + Byte]))
               << (8 * Byte);
    At += 8;
    return true;
  };
  uint64_t Count = 0;
  if (!Get(Count) || Count == 0 || Count > MaxCodeGenParts)
    return false;
  std::vector<uint64_t> Sizes(Count);
  for (uint64_t &Size : Sizes)
    if (!Get(Size))
      return false;
  for (uint64_t Size : Sizes) {
    if (Data.size() - At < Size)
      return false;
    // A copy of its own: the object file reader wants it aligned.
    Objects.push_back(llvm::MemoryBuffer::getMemBufferCopy(
        Data.substr(At, Size), "kernels.o"));
    At += Size;
  }
  return At == Data.size();
}

} // namespace kc
