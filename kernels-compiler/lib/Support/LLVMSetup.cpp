//===- Support/LLVMSetup.cpp - One-time LLVM initialization ---------------===//
#include "Support/LLVMSetup.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/Support/CommandLine.h>
#include <llvm/Support/TargetSelect.h>

#include <mutex>

namespace kc {

namespace {

// Sets one of LLVM's command-line options, if this LLVM has it.
void setLLVMOption(llvm::StringRef Name, llvm::StringRef Value) {
  llvm::StringMap<llvm::cl::Option *> &Options =
      llvm::cl::getRegisteredOptions();
  auto It = Options.find(Name);
  if (It != Options.end())
    It->second->addOccurrence(1, Name, Value);
}

} // namespace

void initializeLLVM() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
    // No loop strength reduction in code generation: it took a quarter of
    // the code generation time of kernels with loops (the compute program
    // of bench/kernels: 158 -> 117 ms per build on 2 cores) and made no
    // kernel of bench/kernels or bench/math measurably faster (the work-item
    // loops are vectorized with one induction variable; their addressing
    // modes need no rewriting). LLVM has no per-module switch for it, so
    // this is its process-wide option, as JIT compilers embedding LLVM set
    // theirs; it only affects code generation of this LLVM library.
    setLLVMOption("disable-lsr", "true");
    // Non-trivial loop unswitching (a loop copied for each value of a
    // condition that does not change in it) at O2, where LLVM only does it
    // at O3: the host pipeline is O2 (Pipeline/Pipeline.cpp), and this is
    // the part of O3 that vectorizes the work-item loops of kernels like a
    // naive matmul or n-body (16x and 6x faster with it).
    setLLVMOption("enable-nontrivial-unswitch", "true");
  });
}

} // namespace kc
