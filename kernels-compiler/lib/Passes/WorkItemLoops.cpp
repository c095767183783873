//===- Passes/WorkItemLoops.cpp - One loop nest around a barrier-free body
//-===//
//
// A kernel without barriers runs each work-item to completion in turn: the
// whole body goes inside one z/y/x loop nest whose induction variables are
// the local ids. The x loop carries llvm.loop.vectorize.enable and
// llvm.loop.parallel_accesses over the accesses work-items cannot share, so
// LLVM vectorizes across work-items.
//
//===----------------------------------------------------------------------===//
#include "Passes/LoopNest.h"
#include "Passes/Passes.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>

namespace kc {

llvm::PreservedAnalyses
WorkItemLoopsPass::run(llvm::Function &F, llvm::FunctionAnalysisManager &) {
  if (!isWorkGroupFunction(F) || F.hasFnAttribute("kc-work-item-loops"))
    return llvm::PreservedAnalyses::all();
  llvm::BasicBlock *Entry = &F.getEntryBlock();
  llvm::BasicBlock *Body = bodyEntry(F);
  llvm::BasicBlock *Exit = exitBlock(F);
  llvm::SmallVector<llvm::BasicBlock *, 16> BodyBlocks;
  for (llvm::BasicBlock &BB : F)
    if (&BB != Entry && &BB != Exit)
      BodyBlocks.push_back(&BB);

  llvm::Value *Sizes[3];
  for (unsigned D = 0; D < 3; ++D)
    Sizes[D] = loadContextField(F, ctx::LocalSize, D);
  LoopNest Nest = buildLoopNest(F, Body, Exit, Sizes, "wi");
  Entry->getTerminator()->replaceSuccessorWith(Body, Nest.Preheader);
  for (llvm::BasicBlock *BB : BodyBlocks)
    BB->getTerminator()->replaceSuccessorWith(Exit, Nest.Latch);
  replaceLocalIdPlaceholders(BodyBlocks, Nest);

  markWorkItemLoop(Nest.Latch->getTerminator(),
                   addParallelAccesses(BodyBlocks));
  F.addFnAttr("kc-work-item-loops");
  return llvm::PreservedAnalyses::none();
}

} // namespace kc
