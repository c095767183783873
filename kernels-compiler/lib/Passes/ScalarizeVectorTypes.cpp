//===- Passes/ScalarizeVectorTypes.cpp - float8 across work-items ---------===//
//
// A work-item loop vectorizes across work-items: the loop vectorizer widens
// every scalar of the body into a vector of VF work-items. A value that is
// already a vector it cannot widen, so a kernel written with float8 or
// float16 (as code for GPUs often is) kept its vector types, each work-item
// ran on its own, and a chain of dependent operations had no other
// work-item's to overlap with: clpeak's float8 and float16 ran at a sixth
// and a third of its float.
//
// Run where the host O3 pipeline is about to vectorize (the vectorizer-start
// extension point), on a work-group function with vector-typed
// instructions: a copy of the function is scalarized (LLVM's Scalarizer,
// loads and stores too) and given to the loop vectorizer. When a loop of the
// copy vectorizes, the function itself is scalarized, and O3's vectorizer
// then widens it across work-items. When none does (atomics, calls without
// vector variants), the function keeps its vector types: scalar code that
// does not vectorize would be slower than the kernel's own vectors. The copy
// is deleted either way.
//
//===----------------------------------------------------------------------===//
#include "Passes/Passes.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Vectorize/LoopVectorize.h>

namespace kc {

namespace {

unsigned countVectorInstructions(const llvm::Function &F) {
  unsigned Count = 0;
  for (const llvm::BasicBlock &BB : F)
    for (const llvm::Instruction &I : BB)
      if (I.getType()->isVectorTy())
        ++Count;
  return Count;
}

llvm::ScalarizerPassOptions scalarizerOptions() {
  llvm::ScalarizerPassOptions Options;
  Options.ScalarizeLoadStore = true;
  Options.ScalarizeVariableInsertExtract = true;
  return Options;
}

bool hasVectorizedLoop(llvm::Function &F, llvm::FunctionAnalysisManager &AM) {
  for (const llvm::Loop *L :
       AM.getResult<llvm::LoopAnalysis>(F).getLoopsInPreorder()) {
    llvm::MDNode *ID = L->getLoopID();
    if (!ID)
      continue;
    for (const llvm::MDOperand &Operand : ID->operands()) {
      const auto *Node = llvm::dyn_cast<llvm::MDNode>(Operand);
      if (!Node || Node->getNumOperands() == 0)
        continue;
      const auto *Name = llvm::dyn_cast<llvm::MDString>(Node->getOperand(0));
      if (Name && Name->getString() == "llvm.loop.isvectorized")
        return true;
    }
  }
  return false;
}

// Whether the loop vectorizer widens a loop of F once F is scalarized.
bool vectorizesOnceScalarized(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM) {
  llvm::ValueToValueMapTy VMap;
  llvm::Function *Copy = llvm::CloneFunction(&F, VMap);
  llvm::ScalarizerPass(scalarizerOptions()).run(*Copy, AM);
  AM.invalidate(*Copy, llvm::PreservedAnalyses::none());
  const unsigned Before = countVectorInstructions(*Copy);
  llvm::LoopVectorizePass().run(*Copy, AM);
  AM.invalidate(*Copy, llvm::PreservedAnalyses::none());
  const bool Vectorized =
      countVectorInstructions(*Copy) > Before && hasVectorizedLoop(*Copy, AM);
  AM.clear(*Copy, Copy->getName());
  Copy->eraseFromParent();
  return Vectorized;
}

} // namespace

llvm::PreservedAnalyses
ScalarizeVectorTypesPass::run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM) {
  if (!isWorkGroupFunction(F) || countVectorInstructions(F) == 0 ||
      !vectorizesOnceScalarized(F, AM))
    return llvm::PreservedAnalyses::all();
  return llvm::ScalarizerPass(scalarizerOptions()).run(F, AM);
}

} // namespace kc
