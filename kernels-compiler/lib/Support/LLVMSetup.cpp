//===- Support/LLVMSetup.cpp - One-time LLVM initialization ---------------===//
#include "Support/LLVMSetup.h"

#include <llvm/Support/TargetSelect.h>

#include <mutex>

namespace kc {

void initializeLLVM() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
    llvm::InitializeNativeTargetAsmParser();
  });
}

} // namespace kc
