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
#include "Passes/Accumulation.h"
#include "Passes/LoopNest.h"
#include "Passes/Passes.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

namespace kc {

llvm::PreservedAnalyses
WorkItemLoopsPass::run(llvm::Function &F, llvm::FunctionAnalysisManager &) {
  if (!isWorkGroupFunction(F))
    return llvm::PreservedAnalyses::all();
  if (F.hasFnAttribute("kc-work-item-loops")) {
    // Sub-CFGs have their nests: what is left of the sub-group ids is
    // outside them.
    replaceSubGroupPlaceholders(F);
    lowerRemainingAccumulations(F);
    return llvm::PreservedAnalyses::none();
  }
  numberAccumulations(F);
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

  // With sub-group ids, a nest with a loop per sub-group where size_x is a
  // multiple of the sub-group size: the only nest where that is known (a
  // reqd_work_group_size), else a copy of the body in one, chosen at run
  // time.
  const unsigned W = subGroupLoopWidth(F);
  // (Both ways in one nest, the last sub-group of a row maybe partial.)
  llvm::Value *Fits = nullptr;
  bool Partial = false;
  if (W) {
    SubGroupRows Rows = subGroupRows(F, Sizes, W);
    llvm::IRBuilder<> B(F.getEntryBlock().getTerminator());
    Fits = B.CreateOr(Rows.Exact, Rows.OneRow);
    auto *Exact = llvm::dyn_cast<llvm::ConstantInt>(Rows.Exact);
    Partial = !Exact || !Exact->isOne();
  }
  unsigned BodyWidth = 0;
  if (auto *Known = llvm::dyn_cast_or_null<llvm::ConstantInt>(Fits)) {
    BodyWidth = Known->isOne() ? W : 0;
    Fits = nullptr;
  }
  llvm::BasicBlock *SubGroupPreheader = nullptr;
  if (Fits) {
    llvm::ValueToValueMapTy VMap;
    llvm::SmallVector<llvm::BasicBlock *, 16> Clones;
    for (llvm::BasicBlock *BB : BodyBlocks) {
      llvm::BasicBlock *Clone = llvm::CloneBasicBlock(BB, VMap, ".sg", &F);
      VMap[BB] = Clone;
      Clones.push_back(Clone);
    }
    LoopNest SgNest = buildLoopNest(F, llvm::cast<llvm::BasicBlock>(VMap[Body]),
                                    Exit, Sizes, "wi.sg", W, Partial);
    VMap[Exit] = SgNest.Latch;
    for (llvm::BasicBlock *Clone : Clones)
      for (llvm::Instruction &I : *Clone)
        llvm::RemapInstruction(&I, VMap,
                               llvm::RF_IgnoreMissingLocals |
                                   llvm::RF_NoModuleLevelChanges);
    replaceLocalIdPlaceholders(Clones, SgNest);
    markWorkItemLoop(SgNest.Latch->getTerminator(), addParallelAccesses(Clones),
                     /*KeepLoop=*/true);
    SubGroupPreheader = SgNest.Preheader;
  }

  LoopNest Nest = buildLoopNest(F, Body, Exit, Sizes, "wi", BodyWidth,
                                BodyWidth && Partial);
  Entry->getTerminator()->replaceSuccessorWith(Body, Nest.Preheader);
  for (llvm::BasicBlock *BB : BodyBlocks)
    BB->getTerminator()->replaceSuccessorWith(Exit, Nest.Latch);
  replaceLocalIdPlaceholders(BodyBlocks, Nest);

  markWorkItemLoop(Nest.Latch->getTerminator(), addParallelAccesses(BodyBlocks),
                   /*KeepLoop=*/BodyWidth != 0);
  if (SubGroupPreheader) {
    llvm::BranchInst *Term =
        llvm::cast<llvm::BranchInst>(Entry->getTerminator());
    llvm::BranchInst::Create(SubGroupPreheader, Nest.Preheader, Fits, Entry);
    Term->eraseFromParent();
  }
  lowerRemainingAccumulations(F);
  F.addFnAttr("kc-work-item-loops");
  return llvm::PreservedAnalyses::none();
}

} // namespace kc
