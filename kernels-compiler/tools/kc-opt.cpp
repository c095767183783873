//===- tools/kc-opt.cpp - Runs the kernel compiler's passes on IR ---------===//
//
// Like LLVM's opt, for the passes of this library (and LLVM's own):
//
//   kc-opt -passes=PIPELINE FILE.ll
//
// prints the module after PIPELINE (LLVM's pipeline syntax; see
// runPassPipeline in lib/Pipeline/Pipeline.h for the names of ours).
// The IR-level tests in tests/unit/compiler/passes check its output with
// FileCheck.
//
//===----------------------------------------------------------------------===//
#include "Pipeline/Pipeline.h"

#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>

#include <string>

int main(int Argc, char **Argv) {
  std::string Pipeline, File;
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    if (Arg.rfind("-passes=", 0) == 0)
      Pipeline = Arg.substr(8);
    else
      File = Arg;
  }
  if (File.empty()) {
    llvm::errs() << "usage: kc-opt -passes=PIPELINE FILE.ll\n";
    return 2;
  }
  llvm::LLVMContext Context;
  llvm::SMDiagnostic Diag;
  std::unique_ptr<llvm::Module> M = llvm::parseIRFile(File, Diag, Context);
  if (!M) {
    Diag.print(Argv[0], llvm::errs());
    return 1;
  }
  std::string Error;
  if (!Pipeline.empty() && !kc::runPassPipeline(*M, Pipeline, Error)) {
    llvm::errs() << Error << "\n";
    return 1;
  }
  if (llvm::verifyModule(*M, &llvm::errs()))
    return 1;
  M->print(llvm::outs(), nullptr);
  return 0;
}
