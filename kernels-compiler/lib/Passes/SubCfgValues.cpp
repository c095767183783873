//===- Passes/SubCfgValues.cpp - Values live across barriers -------------===//
//
// Part of SubCfgFormation (the design is in SubCfgFormation.cpp): the values
// defined on one side of a barrier and used on the other, recomputed when
// they derive from the prologue and the local ids, else kept in
// per-work-item arrays; private variables used in more than one sub-CFG
// become per-work-item arrays too.
//
//===----------------------------------------------------------------------===//
#include "Passes/SubCfgFormation.h"

namespace kc::subcfg {

// Whether a value defined in Def's block may be used in UseBlock after a
// barrier: some barrier reachable from the definition starts a sub-CFG in
// which the use can be reached without passing the definition (where the
// definition is passed, it dominates the use in the clone).
bool SubCfgFormation::crossesBarrier(llvm::Instruction &Def,
                                     llvm::BasicBlock *UseBlock) {
  auto It = ReachableBarriers.find(Def.getParent());
  if (It == ReachableBarriers.end())
    return false;
  for (unsigned Id : It->second) {
    if (Barriers[Id] == ExitBarrier)
      continue;
    // SubCfgs[k] starts at Barriers[k] (the exit barrier is last).
    const SubCfg &S = SubCfgs[Id];
    if (!S.Members.contains(UseBlock))
      continue;
    if (!S.Members.contains(Def.getParent()))
      return true;
    BlockSet &Reached = Avoiding[{Id, Def.getParent()}];
    if (Reached.empty() && S.Blocks.front() != Def.getParent()) {
      llvm::SmallVector<llvm::BasicBlock *, 16> Work = {S.Blocks.front()};
      while (!Work.empty()) {
        llvm::BasicBlock *BB = Work.pop_back_val();
        if (BB == Def.getParent() || !S.Members.contains(BB) ||
            !Reached.insert(BB).second)
          continue;
        llvm::append_range(Work, llvm::successors(BB));
      }
    }
    if (Reached.contains(UseBlock))
      return true;
  }
  return false;
}

bool SubCfgFormation::isRematerializable(llvm::Value *V, unsigned Depth) {
  auto *I = llvm::dyn_cast<llvm::Instruction>(V);
  if (!I || I->getParent() == Entry)
    return true;
  if (localIdPlaceholderDim(*I) >= 0)
    return true;
  if (Depth == 0 || I->mayReadOrWriteMemory() || I->mayHaveSideEffects() ||
      llvm::isa<llvm::PHINode, llvm::CallBase, llvm::AllocaInst>(I) ||
      I->isTerminator())
    return false;
  for (llvm::Value *Op : I->operands())
    if (!isRematerializable(Op, Depth - 1))
      return false;
  return true;
}

llvm::Value *SubCfgFormation::rematerialize(llvm::Value *V,
                                            llvm::Instruction *Before) {
  auto *I = llvm::dyn_cast<llvm::Instruction>(V);
  if (!I || I->getParent() == Entry)
    return V;
  llvm::Instruction *Copy = I->clone();
  if (localIdPlaceholderDim(*I) < 0)
    for (llvm::Use &Op : Copy->operands())
      Op.set(rematerialize(Op.get(), Before));
  Copy->insertBefore(Before);
  return Copy;
}

llvm::Value *SubCfgFormation::linearIdAt(llvm::Instruction *Before) {
  return llvm::CallInst::Create(placeholder(M, LinearIdPlaceholder),
                                "lid.linear", Before->getIterator());
}

llvm::AllocaInst *
SubCfgFormation::createWorkItemArray(llvm::Type *Ty, llvm::Align Align,
                                     const llvm::Twine &Name) {
  const llvm::DataLayout &DL = M.getDataLayout();
  llvm::IRBuilder<> B(Entry->getTerminator());
  llvm::AllocaInst *Array =
      B.CreateAlloca(Ty, DL.getAllocaAddrSpace(), ArrayLength, Name);
  Array->setAlignment(std::max(Align, llvm::Align(64)));
  Array->setMetadata(WorkItemArrayMD, llvm::MDNode::get(C, {}));
  return Array;
}

// Whether, in a sub-CFG holding the definition and a use across a barrier,
// the use can also be reached from the definition without a barrier: then
// the use sees this phase's value or the previous one's, depending on the
// path, and only a per-work-item copy keeps both right.
bool SubCfgFormation::reusesWithinSubCfg(llvm::BasicBlock *Def,
                                         llvm::ArrayRef<llvm::Use *> Uses) {
  for (const SubCfg &S : SubCfgs) {
    if (!S.Members.contains(Def))
      continue;
    BlockSet Reached;
    llvm::SmallVector<llvm::BasicBlock *, 16> Work(llvm::successors(Def));
    while (!Work.empty()) {
      llvm::BasicBlock *BB = Work.pop_back_val();
      if (!S.Members.contains(BB) || !Reached.insert(BB).second)
        continue;
      llvm::append_range(Work, llvm::successors(BB));
    }
    for (llvm::Use *U : Uses)
      if (Reached.contains(usePoint(*U)->getParent()))
        return true;
  }
  return false;
}

// A value used across a barrier is stored, right after its definition, in
// its work-item's slot of an array and loaded there at each such use; or
// recomputed at the use when it depends only on the prologue and local ids.
// A uniform value needs one slot for the whole group, read once before the
// work-item loop of each sub-CFG using it (so the work-items that already
// ran cannot have overwritten it for the others).
void SubCfgFormation::demoteCrossingValues() {
  for (llvm::BasicBlock *BB : OriginalBody) {
    for (llvm::Instruction &I : llvm::make_early_inc_range(*BB)) {
      if (I.getType()->isVoidTy() || I.use_empty())
        continue;
      llvm::SmallVector<llvm::Use *, 4> Crossing;
      for (llvm::Use &U : I.uses()) {
        llvm::Instruction *Point = usePoint(U);
        if (Point->getParent() != BB && crossesBarrier(I, Point->getParent()))
          Crossing.push_back(&U);
      }
      if (Crossing.empty())
        continue;
      if (isRematerializable(&I, 6)) {
        for (llvm::Use *U : Crossing)
          U->set(rematerialize(&I, usePoint(*U)));
        continue;
      }
      bool Uniform = !DivergentBarriers && !Divergent.contains(&I) &&
                     !reusesWithinSubCfg(BB, Crossing);
      // With early exits, the work-items that ended do not store a uniform
      // value: each running one stores its own copy (a store on every path
      // keeps the work-item loop vectorizable), read back from a running
      // work-item's slot (the dispatcher's Leader).
      bool OneSlot = Uniform && !NextOf;
      llvm::AllocaInst *Array = nullptr;
      if (OneSlot) {
        llvm::IRBuilder<> EntryB(Entry->getTerminator());
        Array = EntryB.CreateAlloca(I.getType(), nullptr, I.getName() + ".uni");
      } else {
        Array = createWorkItemArray(
            I.getType(), M.getDataLayout().getPrefTypeAlign(I.getType()),
            I.getName() + (Uniform ? ".uni" : ".wi"));
      }
      llvm::MDNode *Hoist = llvm::MDNode::get(C, {});
      auto SlotAt = [&](llvm::IRBuilder<> &B, llvm::Instruction *Point,
                        bool Reload) -> llvm::Value * {
        if (OneSlot)
          return Array;
        if (!Uniform || !Reload)
          return B.CreateInBoundsGEP(I.getType(), Array, linearIdAt(Point));
        auto *Lead = B.CreateLoad(B.getInt64Ty(), Leader, "leader");
        auto *Slot = llvm::cast<llvm::Instruction>(
            B.CreateInBoundsGEP(I.getType(), Array, Lead));
        Lead->setMetadata(UniformReloadMD, Hoist);
        Slot->setMetadata(UniformReloadMD, Hoist);
        return Slot;
      };
      llvm::Instruction *StorePoint = llvm::isa<llvm::PHINode>(I)
                                          ? &*BB->getFirstInsertionPt()
                                          : I.getNextNode();
      llvm::IRBuilder<> B(StorePoint);
      B.CreateStore(&I, SlotAt(B, StorePoint, false));
      for (llvm::Use *U : Crossing) {
        llvm::Instruction *Point = usePoint(*U);
        B.SetInsertPoint(Point);
        llvm::LoadInst *Reload = B.CreateLoad(
            I.getType(), SlotAt(B, Point, true), I.getName() + ".reload");
        if (Uniform)
          Reload->setMetadata(UniformReloadMD, Hoist);
        U->set(Reload);
      }
    }
  }
}

// A private variable (an alloca of the prologue) keeps its value across a
// barrier only in memory of its own: one element per work-item, unless all
// its uses are in one sub-CFG that no work-item enters twice. Allocas the
// prologue writes (struct arguments) are the same for every work-item.
void SubCfgFormation::arrayifyPrivateAllocas() {
  llvm::SmallVector<llvm::AllocaInst *, 8> Allocas;
  for (llvm::Instruction &I : *Entry)
    if (auto *A = llvm::dyn_cast<llvm::AllocaInst>(&I))
      if (A->isStaticAlloca() && !A->hasMetadata(WorkItemArrayMD))
        Allocas.push_back(A);

  for (llvm::AllocaInst *A : Allocas) {
    bool UsedInPrologue = false;
    llvm::SmallPtrSet<const SubCfg *, 4> Users;
    for (llvm::Use &U : A->uses()) {
      llvm::BasicBlock *BB = usePoint(U)->getParent();
      if (BB == Entry && !llvm::isa<llvm::LifetimeIntrinsic>(U.getUser()))
        UsedInPrologue = true;
      for (const SubCfg &S : SubCfgs)
        if (S.Members.contains(BB))
          Users.insert(&S);
    }
    if (UsedInPrologue || Users.empty())
      continue;
    if (Users.size() == 1 && !(*Users.begin())->Reentrant)
      continue;

    llvm::AllocaInst *Array = createWorkItemArray(
        A->getAllocatedType(), A->getAlign(), A->getName() + ".wi");
    for (llvm::Use &U : llvm::make_early_inc_range(A->uses())) {
      if (auto *Lifetime =
              llvm::dyn_cast<llvm::LifetimeIntrinsic>(U.getUser())) {
        Lifetime->eraseFromParent();
        continue;
      }
      llvm::Instruction *Point = usePoint(U);
      llvm::IRBuilder<> B(Point);
      U.set(
          B.CreateInBoundsGEP(A->getAllocatedType(), Array, linearIdAt(Point)));
    }
    if (A->use_empty())
      A->eraseFromParent();
  }
}

} // namespace kc::subcfg
