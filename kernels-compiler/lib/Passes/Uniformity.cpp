//===- Passes/Uniformity.cpp - Values equal in every work-item ------------===//
#include "Passes/Uniformity.h"

#include "Passes/WorkGroupABI.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>

namespace kc {

namespace {

// __constant memory: no work-item writes it.
constexpr unsigned ConstantAddressSpace = 2;

bool variesByConstruction(const llvm::Instruction &I) {
  if (localIdPlaceholderDim(I) >= 0)
    return true;
  if (const auto *Load = llvm::dyn_cast<llvm::LoadInst>(&I))
    if (!Load->isVolatile() && !Load->isAtomic() &&
        Load->getPointerAddressSpace() == ConstantAddressSpace)
      return false;
  if (llvm::isa<llvm::AllocaInst>(I) || I.mayReadOrWriteMemory())
    return true;
  return llvm::isa<llvm::CallBase>(I) && !llvm::isa<llvm::IntrinsicInst>(I);
}

} // namespace

Uniformity::Uniformity(llvm::Function &WG, const llvm::LoopInfo &LI,
                       const llvm::PostDominatorTree &PDT)
    : PDT(PDT) {
  End.insert(exitBlock(WG));
  for (bool Grew = true; Grew;) {
    Grew = false;
    for (llvm::BasicBlock &BB : WG)
      if (BB.size() == 1 && BB.getSingleSuccessor() &&
          End.contains(BB.getSingleSuccessor()))
        Grew |= End.insert(&BB).second;
  }
  llvm::BasicBlock *Entry = &WG.getEntryBlock();
  llvm::SmallVector<const llvm::Value *, 32> Work;
  auto Mark = [&](const llvm::Value *V) {
    if (Varying.insert(V).second)
      Work.push_back(V);
  };
  for (llvm::BasicBlock &BB : WG)
    if (&BB != Entry)
      for (llvm::Instruction &I : BB)
        if (variesByConstruction(I))
          Mark(&I);

  llvm::SmallPtrSet<const llvm::BasicBlock *, 16> Done;
  for (bool Changed = true; Changed;) {
    while (!Work.empty()) {
      const llvm::Value *V = Work.pop_back_val();
      for (const llvm::User *U : V->users())
        if (llvm::isa<llvm::Instruction>(U))
          Mark(U);
    }
    Changed = false;
    for (llvm::BasicBlock &BB : WG) {
      if (isUniformTerminator(BB) || !Done.insert(&BB).second)
        continue;
      Changed = true;
      markVaryingRegion(&BB);
      // Phis of the region and the join may merge values of different paths.
      for (llvm::BasicBlock &Other : WG)
        if (VaryingControlled.contains(&Other) || VaryingJoins.contains(&Other))
          for (llvm::PHINode &Phi : Other.phis())
            Mark(&Phi);
      // Work-items may leave the loops BB exits after different numbers of
      // iterations: what the loop computed differs when used after it.
      for (const llvm::Loop *L = LI.getLoopFor(&BB); L;
           L = L->getParentLoop()) {
        if (llvm::all_of(llvm::successors(&BB), [&](llvm::BasicBlock *Succ) {
              return L->contains(Succ);
            }))
          break;
        for (llvm::BasicBlock *Member : L->blocks())
          for (llvm::Instruction &I : *Member)
            for (llvm::User *U : I.users())
              if (auto *UI = llvm::dyn_cast<llvm::Instruction>(U))
                if (!L->contains(UI->getParent()))
                  Mark(UI);
      }
    }
  }
}

bool Uniformity::isUniformTerminator(const llvm::BasicBlock &BB) const {
  const llvm::Instruction *Term = BB.getTerminator();
  if (!Term)
    return true;
  if (llvm::isa<llvm::IndirectBrInst>(Term))
    return false;
  return !Varying.contains(Term);
}

// The blocks a path from Branch's block can reach before it meets the
// branch's immediate post-dominator: they run or not depending on the way
// taken.
void Uniformity::markVaryingRegion(llvm::BasicBlock *Branch) {
  if (llvm::BasicBlock *Side = earlyExitSide(Branch)) {
    EarlyExits = true;
    auto *Br = llvm::cast<llvm::BranchInst>(Branch->getTerminator());
    Stays.push_back(Br->getSuccessor(Br->getSuccessor(0) == Side ? 1 : 0));
    llvm::SmallVector<llvm::BasicBlock *, 16> Work = {Side};
    while (!Work.empty()) {
      llvm::BasicBlock *BB = Work.pop_back_val();
      if (!End.contains(BB) && VaryingControlled.insert(BB).second)
        llvm::append_range(Work, llvm::successors(BB));
    }
    return;
  }
  const llvm::DomTreeNode *Node = PDT.getNode(Branch);
  const llvm::BasicBlock *Join = nullptr;
  if (Node && Node->getIDom())
    Join = Node->getIDom()->getBlock();
  llvm::SmallVector<llvm::BasicBlock *, 16> Work(llvm::successors(Branch));
  llvm::SmallPtrSet<const llvm::BasicBlock *, 16> Seen;
  while (!Work.empty()) {
    llvm::BasicBlock *BB = Work.pop_back_val();
    if (BB == Join) {
      VaryingJoins.insert(BB);
      continue;
    }
    if (!Seen.insert(BB).second)
      continue;
    VaryingControlled.insert(BB);
    llvm::append_range(Work, llvm::successors(BB));
  }
}

bool Uniformity::mayFollowEarlyExit(const llvm::BasicBlock &BB) const {
  llvm::SmallPtrSet<const llvm::BasicBlock *, 16> Seen;
  llvm::SmallVector<const llvm::BasicBlock *, 16> Work(Stays.begin(),
                                                       Stays.end());
  while (!Work.empty()) {
    const llvm::BasicBlock *Next = Work.pop_back_val();
    if (Next == &BB)
      return true;
    if (Seen.insert(Next).second)
      llvm::append_range(Work, llvm::successors(Next));
  }
  return false;
}

// The successor of a two-way branch from which only the kernel's end can be
// reached without meeting anything reachable from the other successor.
llvm::BasicBlock *Uniformity::earlyExitSide(llvm::BasicBlock *Branch) const {
  auto *Br = llvm::dyn_cast<llvm::BranchInst>(Branch->getTerminator());
  if (!Br || !Br->isConditional())
    return nullptr;
  auto Reach = [&](llvm::BasicBlock *From) {
    llvm::SmallPtrSet<const llvm::BasicBlock *, 16> Seen;
    llvm::SmallVector<llvm::BasicBlock *, 16> Work = {From};
    while (!Work.empty()) {
      llvm::BasicBlock *BB = Work.pop_back_val();
      if (!End.contains(BB) && Seen.insert(BB).second)
        llvm::append_range(Work, llvm::successors(BB));
    }
    return Seen;
  };
  for (unsigned Side = 0; Side < 2; ++Side) {
    llvm::BasicBlock *Leaving = Br->getSuccessor(Side);
    llvm::BasicBlock *Staying = Br->getSuccessor(1 - Side);
    auto Left = Reach(Leaving);
    auto Stayed = Reach(Staying);
    if (Left.contains(Branch) || Stayed.empty())
      continue;
    if (llvm::none_of(Left, [&](const llvm::BasicBlock *BB) {
          return Stayed.contains(BB);
        }))
      return Leaving;
  }
  return nullptr;
}

} // namespace kc
