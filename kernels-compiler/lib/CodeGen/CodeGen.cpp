//===- CodeGen/CodeGen.cpp - Executable modules to object code ------------===//
#include "CodeGen/CodeGen.h"

#include "Binary/ModuleImpl.h"
#include "CodeGen/VectorMath.h"
#include "Pipeline/Pipeline.h"
#include "Support/LLVMSetup.h"

#include <llvm/ADT/APFloat.h>
#include <llvm/ADT/FloatingPointMode.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
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
  for (llvm::Function &F : M) {
    if (F.isDeclaration())
      continue;
    F.addFnAttr("target-cpu", Host.CPU);
    F.addFnAttr("target-features", Host.Features);
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

std::unique_ptr<llvm::MemoryBuffer>
compileToObject(const ModuleImpl &Executable, const HostTarget &Host,
                std::string &Error) {
  initializeLLVM();
  llvm::LLVMContext Context;
  // Remarks and warnings (a work-item loop the vectorizer declined) are no
  // one's business at this point; errors fail the compilation.
  std::string Diagnostics;
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

  llvm::SmallVector<char, 0> Object;
  llvm::raw_svector_ostream OS(Object);
  llvm::legacy::PassManager PM;
  PM.add(new llvm::TargetLibraryInfoWrapperPass(TLII));
  if (TM->addPassesToEmitFile(PM, OS, nullptr,
                              llvm::CodeGenFileType::ObjectFile)) {
    Error = "the target cannot emit object files";
    return nullptr;
  }
  PM.run(*M);
  if (!Diagnostics.empty()) {
    Error = Diagnostics;
    return nullptr;
  }
  return llvm::MemoryBuffer::getMemBufferCopy(
      llvm::StringRef(Object.data(), Object.size()), "kernels.o");
}

} // namespace kc
