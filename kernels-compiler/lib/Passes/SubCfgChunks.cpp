//===- Passes/SubCfgChunks.cpp - A divergent loop's chunks in registers --===//
//
// Part of SubCfgFormation (the design is in SubCfgFormation.cpp). A sub-CFG
// that loops back to its own barrier (a divergent loop's body, with
// kc-divergent-barriers) otherwise runs one iteration per pass over the
// slice, and every value the loop carries is loaded from its per-work-item
// slot and stored back each time (masked accesses once vectorized). Here
// the pass's work-items run in chunks of W = ChunkVectors vectors (a
// vector: the floats of a register, the kernel's default sub-group size),
// consecutive in local linear id order, so that a chunk of a group with
// several rows is a block of rows: the chunk's work-items, the lanes, take
// one iteration each, again and again until none of them waits at the
// barrier. Before the first round the chunk's slots are copied into arrays
// of W elements, after the last they are copied back; in the lanes' loop
// each array is read once at the top and written once at the bottom, with
// the value every path leaves (a phi where the paths join), loads and
// stores in between becoming those values. The loop asks the vectorizer for
// one vector iteration (its width, ChunkVectors interleaved: four
// independent chains of dependent operations), and SROA then makes each
// array vector registers that the rounds carry: no memory per iteration,
// as a GPU keeps a loop's values in registers. A lane leaving for a
// barrier after which nothing reads an array leaves its value undefined
// there (no blend for it), and a lane going round again keeps its
// next-barrier slot as it was.
//
// The loop's exits have barriers of their own (ImplicitLoopBarriers), so
// the work after the loop is not in this sub-CFG: a store there in the
// lanes' loop needed a run-time check of its address, and the vectorizer's
// scalar fallback kept the arrays in memory.
//
//   x0.header -> chunk.start (copy in) -> chunk.round -> x1.header ...
//   x1.latch -> x1.header | chunk.again -> chunk.round | chunk.done (copy out)
//
//===----------------------------------------------------------------------===//
#include "Passes/SubCfgFormation.h"

#include <llvm/ADT/MapVector.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/Transforms/Utils/SSAUpdater.h>

namespace kc::subcfg {

namespace {

// The scalar types a chunk array holds (an i1 as a byte).
bool isChunkable(const llvm::Type *T) {
  return T->isIntegerTy() || T->isFloatingPointTy() || T->isPointerTy();
}

// Whether I, an instruction of a sub-CFG using the per-work-item array
// Array, is a slot access the chunks can keep in a register: the address of
// the work-item's own slot, only loaded and stored whole.
bool isPlainSlotAddress(const llvm::Instruction &I, const llvm::Value *Array) {
  const auto *GEP = llvm::dyn_cast<llvm::GetElementPtrInst>(&I);
  if (!GEP || GEP->getPointerOperand() != Array || GEP->getNumIndices() != 1)
    return false;
  if (GEP->hasMetadata(UniformReloadMD))
    return true; // hoisted out of the work-item loops
  const auto *Index = llvm::dyn_cast<llvm::Instruction>(GEP->getOperand(1));
  llvm::Type *T = GEP->getSourceElementType();
  if (!Index || localIdPlaceholderDim(*Index) != 3 || !isChunkable(T))
    return false;
  for (const llvm::User *U : GEP->users()) {
    if (const auto *Load = llvm::dyn_cast<llvm::LoadInst>(U)) {
      if (!Load->isSimple() || Load->getType() != T)
        return false;
    } else if (const auto *Store = llvm::dyn_cast<llvm::StoreInst>(U)) {
      if (!Store->isSimple() || Store->getValueOperand() == GEP ||
          Store->getValueOperand()->getType() != T)
        return false;
    } else {
      return false;
    }
  }
  return true;
}

// Moves V, computed in Header from values of outer loops only, and what it
// depends on in Header to the end of To.
void hoistInto(llvm::Value *V, llvm::BasicBlock *Header, llvm::BasicBlock *To) {
  auto *I = llvm::dyn_cast<llvm::Instruction>(V);
  if (!I || I->getParent() != Header || llvm::isa<llvm::PHINode>(I))
    return;
  for (llvm::Value *Op : I->operands())
    hoistInto(Op, Header, To);
  I->moveBefore(To->getTerminator());
}

} // namespace

// The chunk width S runs with (0: none). Only for a sub-CFG that loops
// back to its own barrier, with per-work-item next barriers and without
// sub-group ids (a nest with sub-group loops of its own) or sub-group
// barriers, and only where every per-work-item array S uses is a slot of
// scalars loaded and stored whole (a private array made per-work-item is
// not).
unsigned SubCfgFormation::chunkWidth(const SubCfg &S) const {
  if (!NextOf || S.Id == 0 || !DivergentBarriers || SubGroupBarriers ||
      !S.Reentrant || subGroupLoopWidth(F) != 0)
    return 0;
  unsigned W = DefaultSubGroupSize;
  llvm::Attribute A = F.getFnAttribute(SubGroupSizeAttr);
  if (A.isStringAttribute() && A.getValueAsString().getAsInteger(10, W))
    return 0;
  if (W < 4 || !llvm::isPowerOf2_32(W))
    return 0;
  // (A required sub-group size of 32 or 64 is not a register's width.)
  W = std::min(W, 16u) * ChunkVectors;
  for (llvm::BasicBlock *BB : S.Blocks)
    for (llvm::Instruction &I : *BB)
      for (llvm::Value *Op : I.operands())
        if (auto *Array = llvm::dyn_cast<llvm::AllocaInst>(Op))
          if (Array->hasMetadata(WorkItemArrayMD) &&
              !isPlainSlotAddress(I, Array))
            return 0;
  return W;
}

// Whether a work-item leaving for barrier Id may read Array's slot again:
// a sub-CFG reachable from there, through any barriers, loads it.
bool SubCfgFormation::readAfter(const llvm::AllocaInst *Array,
                                unsigned Id) const {
  llvm::SmallVector<unsigned, 8> Work = {Id};
  llvm::DenseSet<unsigned> Seen;
  while (!Work.empty()) {
    unsigned B = Work.pop_back_val();
    if (Barriers[B] == ExitBarrier || !Seen.insert(B).second)
      continue;
    for (llvm::BasicBlock *BB : SubCfgs[B].Blocks) {
      for (llvm::Instruction &I : *BB)
        if (auto *Load = llvm::dyn_cast<llvm::LoadInst>(&I))
          if (llvm::getUnderlyingObject(Load->getPointerOperand()) == Array)
            return true;
      for (llvm::BasicBlock *Succ : llvm::successors(BB))
        if (isBarrierBlock(*Succ))
          Work.push_back(BarrierIds.lookup(Succ));
    }
  }
  return false;
}

// Turns the Chunks pass Nest (x0 over chunks of W, x1 over a chunk's lanes;
// Running, the lanes' test whether they wait at S, leads the blocks Lanes
// of x1's body) into rounds over the chunk with the chunk's slots in arrays
// of W elements, as the file comment says. Adds the blocks holding new
// accesses of the lanes' loop to Lanes.
void SubCfgFormation::runInChunks(
    const SubCfg &S, const LoopNest &Nest, llvm::BasicBlock *Running,
    llvm::SmallVectorImpl<llvm::BasicBlock *> &Lanes,
    const llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> &ToBarrier,
    llvm::PHINode *RecordedId) {
  const unsigned W = S.ChunkWidth;
  const llvm::DataLayout &DL = M.getDataLayout();
  llvm::BasicBlock *Inner = Nest.InnerHeader;
  llvm::BasicBlock *Latch = Nest.Latch;
  auto *LatchBr = llvm::cast<llvm::BranchInst>(Latch->getTerminator());
  llvm::BasicBlock *ChunkLatch = LatchBr->getSuccessor(1); // x0's latch
  llvm::BasicBlock *Outer = nullptr;
  for (llvm::BasicBlock *Pred : llvm::predecessors(Inner))
    if (Pred != Latch)
      Outer = Pred;
  const std::string Suffix = ".s" + std::to_string(S.Id);

  // The slot accesses of the lanes, by array (the next-barrier slots too).
  llvm::MapVector<llvm::AllocaInst *, llvm::SmallVector<llvm::Instruction *, 8>>
      Accesses;
  for (llvm::BasicBlock *BB : Lanes)
    for (llvm::Instruction &I : *BB) {
      auto *GEP = llvm::dyn_cast_or_null<llvm::GetElementPtrInst>(
          llvm::getLoadStorePointerOperand(&I));
      if (!GEP || GEP->getNumIndices() != 1 ||
          GEP->getOperand(1) != Nest.LinearId)
        continue;
      auto *Array = llvm::dyn_cast<llvm::AllocaInst>(GEP->getPointerOperand());
      if (Array && Array->hasMetadata(WorkItemArrayMD))
        Accesses[Array].push_back(&I);
    }

  auto *Start = llvm::BasicBlock::Create(C, "chunk.start" + Suffix, &F, Inner);
  auto *Round = llvm::BasicBlock::Create(C, "chunk.round" + Suffix, &F, Inner);
  auto *Again =
      llvm::BasicBlock::Create(C, "chunk.again" + Suffix, &F, ChunkLatch);
  auto *Done =
      llvm::BasicBlock::Create(C, "chunk.done" + Suffix, &F, ChunkLatch);
  llvm::BranchInst::Create(Round, Start);
  llvm::BranchInst::Create(Inner, Round);
  llvm::BranchInst::Create(ChunkLatch, Done);
  Outer->getTerminator()->replaceSuccessorWith(Inner, Start);
  for (llvm::PHINode &Phi : Inner->phis())
    Phi.replaceIncomingBlockWith(Outer, Round);
  // The chunk's first slot (the sub-group base of the nest, which does not
  // depend on x1).
  hoistInto(Nest.SubGroupBase, Inner, Start);
  llvm::Value *Lane = Nest.SubGroupLocalId;

  llvm::Value *FinalNext = nullptr;
  for (auto &[Array, List] : Accesses) {
    llvm::Type *T = llvm::getLoadStoreType(List.front());
    llvm::Type *Elem = T->isIntegerTy(1) ? llvm::Type::getInt8Ty(C) : T;
    llvm::IRBuilder<> EntryB(Entry->getTerminator());
    auto *ArrayTy = llvm::ArrayType::get(Elem, W);
    llvm::AllocaInst *Local =
        EntryB.CreateAlloca(ArrayTy, nullptr, Array->getName() + ".chunk");
    Local->setAlignment(llvm::Align(64));
    Local->setMetadata(WorkItemArrayMD, llvm::MDNode::get(C, {}));
    const uint64_t Bytes = DL.getTypeAllocSize(T) * W;
    const llvm::Align SlotsAlign =
        llvm::commonAlignment(Array->getAlign(), Bytes);

    llvm::IRBuilder<> B(Start->getTerminator());
    llvm::Value *Slots = B.CreateInBoundsGEP(T, Array, Nest.SubGroupBase);
    B.CreateMemCpy(Local, Local->getAlign(), Slots, SlotsAlign, Bytes);

    // The lane's value as the round starts, whatever path it then takes.
    B.SetInsertPoint(Running, Running->getFirstInsertionPt());
    llvm::Value *LaneSlot =
        B.CreateInBoundsGEP(ArrayTy, Local, {B.getInt64(0), Lane});
    llvm::Value *AtStart = B.CreateLoad(Elem, LaneSlot, Array->getName());
    if (Elem != T)
      AtStart = B.CreateTrunc(AtStart, T);

    // A lane going round again records S's id, which it held: its value
    // as the round started, so the vectorized loop keeps that lane's slot
    // as it is instead of blending in a constant.
    if (Array == NextOf && RecordedId)
      if (llvm::BasicBlock *Back = ToBarrier.lookup(S.Barrier))
        RecordedId->setIncomingValueForBlock(Back, AtStart);

    llvm::SSAUpdater Values;
    Values.Initialize(T, Array->getName());
    llvm::SmallPtrSet<llvm::Instruction *, 8> IsAccess(List.begin(),
                                                       List.end());
    llvm::DenseMap<llvm::BasicBlock *, llvm::Value *> Stored;
    for (llvm::Instruction *I : List)
      if (auto *Store = llvm::dyn_cast<llvm::StoreInst>(I))
        Stored[Store->getParent()] = Store->getValueOperand();
    if (!Stored.count(Running))
      Values.AddAvailableValue(Running, AtStart);
    for (auto &[BB, V] : Stored)
      Values.AddAvailableValue(BB, V);
    // Leaving for a barrier after which no sub-CFG reads the array, the
    // lane's value no longer matters: the vectorized loop blends nothing
    // in for those lanes.
    if (Array != NextOf)
      for (auto &[Barrier, To] : ToBarrier)
        if (Barrier != S.Barrier && !Stored.count(To) &&
            !readAfter(Array, BarrierIds.lookup(Barrier)))
          Values.AddAvailableValue(To, llvm::PoisonValue::get(T));
    bool Written = !Stored.empty();

    // Loads become the value of the last store before them.
    llvm::SmallVector<llvm::Instruction *, 8> Dead;
    for (llvm::BasicBlock *BB : Lanes) {
      llvm::Value *Current = BB == Running ? AtStart : nullptr;
      for (llvm::Instruction &I : *BB) {
        if (!IsAccess.contains(&I))
          continue;
        if (auto *Store = llvm::dyn_cast<llvm::StoreInst>(&I)) {
          Current = Store->getValueOperand();
        } else {
          I.replaceAllUsesWith(Current ? Current
                                       : Values.GetValueInMiddleOfBlock(BB));
        }
        Dead.push_back(&I);
      }
    }
    // The lane's value as the round ends, back in its slot.
    llvm::Value *AtEnd = Values.GetValueInMiddleOfBlock(Latch);
    if (Array == NextOf)
      FinalNext = AtEnd;
    B.SetInsertPoint(Latch, Latch->getFirstInsertionPt());
    B.CreateStore(Elem != T ? B.CreateZExt(AtEnd, Elem) : AtEnd,
                  B.CreateInBoundsGEP(ArrayTy, Local, {B.getInt64(0), Lane}));
    for (llvm::Instruction *I : Dead) {
      auto *GEP = llvm::dyn_cast<llvm::Instruction>(
          llvm::getLoadStorePointerOperand(I));
      I->eraseFromParent();
      if (GEP && GEP->use_empty())
        GEP->eraseFromParent();
    }
    if (Written) {
      B.SetInsertPoint(Done->getTerminator());
      B.CreateMemCpy(B.CreateInBoundsGEP(T, Array, Nest.SubGroupBase),
                     SlotsAlign, Local, Local->getAlign(), Bytes);
    }
  }
  Lanes.push_back(Latch);

  // Another round while a lane waits at S again: an "or" over the lanes,
  // which the vectorizer keeps in a register.
  llvm::IRBuilder<> B(LatchBr);
  llvm::Value *Waits =
      FinalNext ? B.CreateICmpEQ(FinalNext, B.getInt32(S.Id)) : B.getFalse();
  llvm::PHINode *Any = llvm::PHINode::Create(B.getInt1Ty(), 2, "any.waits");
  Any->insertBefore(Inner->begin());
  llvm::Value *AnyNext = B.CreateOr(Any, Waits, "any.waits.next");
  Any->addIncoming(B.getFalse(), Round);
  Any->addIncoming(AnyNext, Latch);
  LatchBr->setSuccessor(1, Again);
  llvm::BranchInst::Create(Round, Done, AnyNext, Again);
}

} // namespace kc::subcfg
