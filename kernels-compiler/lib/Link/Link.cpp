//===- Link/Link.cpp - Linking modules into programs ----------------------===//
#include "Link/Link.h"

#include "Binary/ModuleImpl.h"

#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/FMF.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Operator.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/raw_ostream.h>

namespace kc {

void captureDiagnostics(llvm::LLVMContext &Context, std::string &Log) {
  Context.setDiagnosticHandlerCallBack(
      [](const llvm::DiagnosticInfo *Info, void *Data) {
        if (Info->getSeverity() != llvm::DS_Error &&
            Info->getSeverity() != llvm::DS_Warning)
          return;
        llvm::raw_string_ostream OS(*static_cast<std::string *>(Data));
        OS << (Info->getSeverity() == llvm::DS_Error ? "error: " : "warning: ");
        llvm::DiagnosticPrinterRawOStream Printer(OS);
        Info->print(Printer);
        OS << '\n';
      },
      &Log);
}

namespace {

// The fast-math flags of the options, as Clang sets them on the OpenCL C it
// compiles (-cl-fast-relaxed-math: all of them), plus contraction for
// -cl-mad-enable.
llvm::FastMathFlags mathFlags(const BuildOptions &Options) {
  bool Fast = Options.FastRelaxedMath;
  bool Unsafe = Fast || Options.UnsafeMath;
  llvm::FastMathFlags Flags;
  if (Unsafe || Options.NoSignedZeros)
    Flags.setNoSignedZeros();
  if (Unsafe) {
    Flags.setAllowReassoc();
    Flags.setAllowReciprocal();
    Flags.setApproxFunc();
  }
  if (Unsafe || Options.MadEnable)
    Flags.setAllowContract();
  if (Fast || Options.FiniteMathOnly) {
    Flags.setNoNaNs();
    Flags.setNoInfs();
  }
  return Flags;
}

} // namespace

void applyMathOptions(llvm::Module &M, const BuildOptions &Options) {
  llvm::FastMathFlags Flags = mathFlags(Options);
  for (llvm::Function &F : M) {
    if (F.isDeclaration())
      continue;
    if (Flags.any())
      for (llvm::BasicBlock &BB : F)
        for (llvm::Instruction &I : BB)
          if (llvm::isa<llvm::FPMathOperator>(I)) {
            llvm::FastMathFlags Own = I.getFastMathFlags();
            Own |= Flags;
            I.setFastMathFlags(Own);
          }
    if (Options.DenormsAreZero) {
      // Float and double: the work-group function flushes both (MXCSR).
      F.addFnAttr("denormal-fp-math", "preserve-sign,preserve-sign");
      F.addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
    }
  }
}

void keepHalfDivisionsExact(llvm::Module &M) {
  for (llvm::Function &F : M)
    for (llvm::BasicBlock &BB : F)
      for (llvm::Instruction &I : BB)
        if (llvm::isa<llvm::FPMathOperator>(I) &&
            I.getType()->getScalarType()->isHalfTy() &&
            I.getFastMathFlags().allowReciprocal()) {
          llvm::FastMathFlags Flags = I.getFastMathFlags();
          Flags.setAllowReciprocal(false);
          I.copyFastMathFlags(Flags); // setFastMathFlags would OR them
        }
}

void removeFastMathAttributes(llvm::Module &M) {
  for (llvm::Function &F : M)
    for (const char *Name : {"unsafe-fp-math", "no-infs-fp-math",
                             "no-nans-fp-math", "approx-func-fp-math",
                             "no-signed-zeros-fp-math", "less-precise-fpmad"})
      F.removeFnAttr(Name);
}

std::unique_ptr<llvm::Module>
linkModules(llvm::LLVMContext &Context,
            std::span<const ModuleImpl *const> Inputs,
            const BuildOptions &Options, std::string &Log) {
  auto Result = std::make_unique<llvm::Module>("program", Context);
  llvm::Linker L(*Result);
  for (const ModuleImpl *Input : Inputs) {
    std::string Error;
    std::unique_ptr<llvm::Module> M = Input->load(Context, Error);
    if (!M) {
      Log += "error: cannot read an input module: " + Error + "\n";
      return nullptr;
    }
    if (Input->kind() == ModuleKind::Object || Input->linkOptionsEnabled())
      applyMathOptions(*M, Options);
    if (Result->getDataLayout().isDefault() && Result->empty()) {
      Result->setDataLayout(M->getDataLayout());
      Result->setTargetTriple(M->getTargetTriple());
    }
    if (L.linkInModule(std::move(M)))
      return nullptr;
  }
  return Result;
}

} // namespace kc
