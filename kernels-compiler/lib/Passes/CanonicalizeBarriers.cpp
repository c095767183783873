//===- Passes/CanonicalizeBarriers.cpp - Barriers alone in their blocks ---===//
//
// barrier() and work_group_barrier() (every overload) become calls to
// __kc_barrier, each alone in a block whose successor has no other
// predecessor: the shape SubCfgFormation expects. On a CPU a work-group runs
// on one thread, so the fence flags and scopes need nothing more: the
// sub-CFG boundary orders every access before the barrier before every
// access after it.
//
//===----------------------------------------------------------------------===//
#include "Passes/Passes.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace kc {

namespace {

llvm::FunctionCallee barrierPlaceholder(llvm::Module &M) {
  llvm::FunctionCallee Callee = M.getOrInsertFunction(
      BarrierPlaceholder, llvm::Type::getVoidTy(M.getContext()));
  if (auto *F = llvm::dyn_cast<llvm::Function>(Callee.getCallee())) {
    F->addFnAttr(llvm::Attribute::Convergent);
    F->addFnAttr(llvm::Attribute::NoUnwind);
  }
  return Callee;
}

} // namespace

llvm::PreservedAnalyses
CanonicalizeBarriersPass::run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &) {
  if (!isWorkGroupFunction(F))
    return llvm::PreservedAnalyses::all();
  llvm::SmallVector<llvm::CallInst *, 4> Barriers;
  for (llvm::BasicBlock &BB : F)
    for (llvm::Instruction &I : BB)
      if (auto *Call = llvm::dyn_cast<llvm::CallInst>(&I))
        if (llvm::Function *Callee = Call->getCalledFunction())
          if (isBarrierBuiltin(Callee->getName()) || isBarrierPlaceholder(I))
            Barriers.push_back(Call);
  if (Barriers.empty())
    return llvm::PreservedAnalyses::all();

  llvm::FunctionCallee Placeholder = barrierPlaceholder(*F.getParent());
  for (llvm::CallInst *Call : Barriers) {
    llvm::CallInst *Barrier = Call;
    if (!isBarrierPlaceholder(*Call)) {
      Barrier = llvm::CallInst::Create(Placeholder, "", Call->getIterator());
      Barrier->setDebugLoc(Call->getDebugLoc());
      Call->eraseFromParent();
    }
    llvm::BasicBlock *BB = Barrier->getParent();
    if (&BB->front() != Barrier)
      BB = BB->splitBasicBlock(Barrier, "barrier");
    BB->splitBasicBlock(Barrier->getNextNode(), "after.barrier");
  }
  F.addFnAttr("kc-uses-barriers");
  return llvm::PreservedAnalyses::none();
}

} // namespace kc
