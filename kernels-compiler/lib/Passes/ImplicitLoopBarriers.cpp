//===- Passes/ImplicitLoopBarriers.cpp - Work-item loops inside kernel loops
//===//
//
// A barrier-free kernel runs each work-item to completion in turn, so a
// loop of the kernel is inside the work-item loop and LLVM can vectorize
// only that inner loop: often it cannot (a float sum over j needs the
// additions in order; n-body, a naive matrix multiply), and the kernel runs
// scalar. When every work-item runs such a loop the same number of times,
// a barrier at the top of its body is free to add (work-items are unordered
// between barriers): SubCfgFormation then puts a work-item loop inside each
// iteration, and that loop vectorizes across work-items like the body of
// any barrier-free kernel, with the loop's per-work-item values (the sums)
// in per-work-item arrays.
//
// Chosen loops: innermost; reached and left the same way by every work-item
// (Uniformity); not a small constant number of iterations (unrolling does
// better); something in them differs between work-items; no calls, atomics
// or volatile accesses (they keep the work-item loop scalar anyway). Kernels
// with barriers of their own, private variables in memory (they would
// become per-work-item arrays) or built with -cl-opt-disable are left as
// they are. Vector values of the chosen kernels are split into scalars
// first, which is what the vectorizer across work-items needs.
//
//===----------------------------------------------------------------------===//
#include "Passes/Passes.h"
#include "Passes/Uniformity.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>

namespace kc {

namespace {

// Loops with at most this many iterations, known at compile time, are left
// for the unroller.
constexpr unsigned SmallTripCount = 32;

bool hasBarriers(const llvm::Function &F) {
  for (const llvm::BasicBlock &BB : F)
    for (const llvm::Instruction &I : BB)
      if (const auto *Call = llvm::dyn_cast<llvm::CallInst>(&I))
        if (const llvm::Function *Callee = Call->getCalledFunction())
          if (isBarrierBuiltin(Callee->getName()) || isBarrierPlaceholder(I))
            return true;
  return false;
}

// A private variable in memory used by the body (not written once by the
// prologue, like a struct argument).
bool hasPrivateMemory(llvm::Function &F) {
  llvm::BasicBlock &Entry = F.getEntryBlock();
  for (llvm::Instruction &I : Entry) {
    auto *A = llvm::dyn_cast<llvm::AllocaInst>(&I);
    if (!A)
      continue;
    bool InPrologue = false;
    bool InBody = false;
    for (llvm::User *U : A->users()) {
      if (llvm::isa<llvm::LifetimeIntrinsic>(U))
        continue;
      (llvm::cast<llvm::Instruction>(U)->getParent() == &Entry ? InPrologue
                                                               : InBody) = true;
    }
    if (InBody && !InPrologue)
      return true;
  }
  for (llvm::BasicBlock &BB : F)
    if (&BB != &Entry)
      for (llvm::Instruction &I : BB)
        if (llvm::isa<llvm::AllocaInst>(I))
          return true;
  return false;
}

bool keepsWorkItemLoopScalar(const llvm::Instruction &I) {
  if (localIdPlaceholderDim(I) >= 0)
    return false;
  if (const auto *Call = llvm::dyn_cast<llvm::CallBase>(&I))
    return !llvm::isa<llvm::IntrinsicInst>(Call);
  if (I.isAtomic() || llvm::isa<llvm::FenceInst>(I))
    return true;
  if (const auto *Load = llvm::dyn_cast<llvm::LoadInst>(&I))
    return Load->isVolatile();
  if (const auto *Store = llvm::dyn_cast<llvm::StoreInst>(&I))
    return Store->isVolatile();
  return false;
}

bool isChosen(const llvm::Loop &L, const Uniformity &U,
              llvm::ScalarEvolution &SE) {
  if (!L.isInnermost() || !U.isUniformlyReached(*L.getHeader()))
    return false;
  llvm::SmallVector<llvm::BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  if (Exiting.empty() || !llvm::all_of(Exiting, [&](llvm::BasicBlock *BB) {
        return U.isUniformTerminator(*BB);
      }))
    return false;
  unsigned TripCount = SE.getSmallConstantTripCount(&L);
  if (TripCount != 0 && TripCount <= SmallTripCount)
    return false;
  bool Varies = false;
  for (const llvm::BasicBlock *BB : L.blocks()) {
    for (const llvm::Instruction &I : *BB) {
      if (keepsWorkItemLoopScalar(I))
        return false;
      Varies |= !U.isUniform(&I);
    }
  }
  return Varies;
}

} // namespace

llvm::PreservedAnalyses
ImplicitLoopBarriersPass::run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM) {
  if (!isWorkGroupFunction(F) || F.hasOptNone() || hasBarriers(F) ||
      hasPrivateMemory(F))
    return llvm::PreservedAnalyses::all();
  auto &LI = AM.getResult<llvm::LoopAnalysis>(F);
  auto &PDT = AM.getResult<llvm::PostDominatorTreeAnalysis>(F);
  auto &SE = AM.getResult<llvm::ScalarEvolutionAnalysis>(F);
  Uniformity U(F, LI, PDT);

  llvm::SmallVector<llvm::BasicBlock *, 4> Headers;
  for (llvm::Loop *L : LI.getLoopsInPreorder())
    if (isChosen(*L, U, SE))
      Headers.push_back(L->getHeader());
  if (Headers.empty())
    return llvm::PreservedAnalyses::all();

  llvm::Module &M = *F.getParent();
  llvm::FunctionCallee Barrier = M.getOrInsertFunction(
      BarrierPlaceholder, llvm::Type::getVoidTy(F.getContext()));
  for (llvm::BasicBlock *Header : Headers)
    llvm::CallInst::Create(Barrier, "", Header->getFirstInsertionPt());
  F.addFnAttr("kc-implicit-loop-barriers");

  AM.invalidate(F, llvm::PreservedAnalyses::none());
  llvm::ScalarizerPassOptions Options;
  Options.ScalarizeLoadStore = true;
  Options.ScalarizeVariableInsertExtract = true;
  llvm::ScalarizerPass(Options).run(F, AM);
  return llvm::PreservedAnalyses::none();
}

} // namespace kc
