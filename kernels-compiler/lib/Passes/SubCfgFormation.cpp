//===- Passes/SubCfgFormation.cpp - Barriers by sub-CFG formation ---------===//
#include "Passes/Passes.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/IR/Function.h>

namespace kc {

llvm::PreservedAnalyses
SubCfgFormationPass::run(llvm::Function &F, llvm::FunctionAnalysisManager &) {
  if (!isWorkGroupFunction(F) || !F.hasFnAttribute("kc-uses-barriers"))
    return llvm::PreservedAnalyses::all();
  return llvm::PreservedAnalyses::all();
}

} // namespace kc
