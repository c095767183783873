//===- Link/Link.cpp - Linking modules into programs ----------------------===//
#include "Link/Link.h"

#include "Binary/ModuleImpl.h"

#include <llvm/IR/DiagnosticInfo.h>
#include <llvm/IR/DiagnosticPrinter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
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

void applyMathOptions(llvm::Module &M, const BuildOptions &Options) {
  bool Fast = Options.FastRelaxedMath;
  bool Unsafe = Fast || Options.UnsafeMath;
  bool NoSignedZeros = Unsafe || Options.NoSignedZeros;
  bool Finite = Fast || Options.FiniteMathOnly;
  for (llvm::Function &F : M) {
    if (F.isDeclaration())
      continue;
    if (NoSignedZeros)
      F.addFnAttr("no-signed-zeros-fp-math", "true");
    if (Unsafe) {
      F.addFnAttr("unsafe-fp-math", "true");
      F.addFnAttr("less-precise-fpmad", "true");
    }
    if (Finite) {
      F.addFnAttr("no-infs-fp-math", "true");
      F.addFnAttr("no-nans-fp-math", "true");
    }
    if (Fast)
      F.addFnAttr("approx-func-fp-math", "true");
    if (Options.DenormsAreZero) {
      // Float and double: the work-group function flushes both (MXCSR).
      F.addFnAttr("denormal-fp-math", "preserve-sign,preserve-sign");
      F.addFnAttr("denormal-fp-math-f32", "preserve-sign,preserve-sign");
    }
  }
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
