//===- Passes/SubCfgReplication.cpp - Work-item loops and dispatch -------===//
//
// Part of SubCfgFormation (the design is in SubCfgFormation.cpp): each
// sub-CFG cloned into its work-item loop nest (every work-item, only those
// waiting at its barrier, or each to its exit from a loop), the slices of
// divergent barriers, and the dispatcher that chooses the next sub-CFG.
//
//===----------------------------------------------------------------------===//
#include "Passes/SubCfgFormation.h"

#include "Passes/Accumulation.h"

namespace kc::subcfg {

// One sub-CFG in its work-item loop nest, for a pass of the given kind;
// returns the block that starts it. A function with sub-group ids gets
// three nests, two with a loop per sub-group (LoopNest.h: where size_x is
// a multiple of the sub-group size, and where the group is one row whose
// last sub-group may be partial), the usual one elsewhere (not in slices:
// a slice's ids start inside the group).
llvm::BasicBlock *
SubCfgFormation::cloneSubCfg(const SubCfg &S, llvm::BasicBlock *Dispatch,
                             llvm::ArrayRef<llvm::Value *> Sizes,
                             PassKind Kind) {
  if (Kind == PassKind::All && firstWorkItemOnly(S))
    return cloneSubCfgNest(S, Dispatch, Sizes, Kind, {0, /*Once=*/true});
  if (Kind == PassKind::Chunks)
    return cloneSubCfgNest(S, Dispatch, Sizes, Kind, {S.ChunkWidth});
  unsigned W = SliceSizes[0] ? 0 : subGroupLoopWidth(F);
  if (!W)
    return cloneSubCfgNest(S, Dispatch, Sizes, Kind, {});
  // Sub-group loops where sub-groups fit the rows: whole sub-groups (the
  // inner loop's trip count a constant), or one row whose last sub-group
  // may be partial; a nest without them elsewhere.
  SubGroupRows Rows = subGroupRows(F, Sizes, W);
  auto *Exact = llvm::dyn_cast<llvm::ConstantInt>(Rows.Exact);
  auto *OneRow = llvm::dyn_cast<llvm::ConstantInt>(Rows.OneRow);
  if (Exact && OneRow) {
    if (Exact->isOne())
      return cloneSubCfgNest(S, Dispatch, Sizes, Kind, {W, false, false});
    return cloneSubCfgNest(S, Dispatch, Sizes, Kind,
                           OneRow->isOne() ? NestShape{W, false, true}
                                           : NestShape{});
  }
  llvm::BasicBlock *Flat = cloneSubCfgNest(S, Dispatch, Sizes, Kind, {});
  llvm::BasicBlock *Whole =
      cloneSubCfgNest(S, Dispatch, Sizes, Kind, {W, false, false});
  llvm::BasicBlock *Partial =
      cloneSubCfgNest(S, Dispatch, Sizes, Kind, {W, false, true});
  const std::string Name = "sub_groups.s" + std::to_string(S.Id);
  auto *Choose = llvm::BasicBlock::Create(C, Name, &F, Whole);
  auto *ChooseRow = llvm::BasicBlock::Create(C, Name + ".row", &F, Partial);
  llvm::BranchInst::Create(Whole, ChooseRow, Rows.Exact, Choose);
  llvm::BranchInst::Create(Partial, Flat, Rows.OneRow, ChooseRow);
  return Choose;
}

// Whether only the work-group's first work-item does anything in S: its
// start computes nothing that stays (no side effects) and branches on the
// library's __kc_first_work_item() test, the other way leading straight to
// a barrier. Such a sub-CFG (the middle step of the work-group collectives)
// runs once, for that work-item, instead of in a loop that tests every
// work-item. Not with per-work-item next barriers (each work-item records
// its own) or slices (a slice's first work-item is not the group's).
bool SubCfgFormation::firstWorkItemOnly(const SubCfg &S) const {
  if (NextOf || SliceSizes[0])
    return false;
  llvm::BasicBlock *Start = S.Blocks.front();
  auto *Br = llvm::dyn_cast<llvm::BranchInst>(Start->getTerminator());
  int First = Br ? firstWorkItemSuccessor(*Br) : -1;
  if (First < 0)
    return false;
  for (llvm::Instruction &I : *Start) {
    if (&I == Br || isFirstWorkItemTest(&I))
      continue; // the test (the call and its comparison)
    if (I.mayHaveSideEffects() || llvm::isa<llvm::PHINode>(I))
      return false;
  }
  llvm::BasicBlock *Others = Br->getSuccessor(1 - First);
  if (isBarrierBlock(*Others))
    return true;
  auto *Next = llvm::dyn_cast<llvm::BranchInst>(Others->getTerminator());
  return Others->size() == 1 && Next && Next->isUnconditional() &&
         isBarrierBlock(*Next->getSuccessor(0));
}

// One sub-CFG in a work-item loop nest (with a loop per sub-group of
// Shape.SubGroupWidth work-items, if not 0), or run once by the first
// work-item (Shape.Once); returns the block that starts it.
llvm::BasicBlock *
SubCfgFormation::cloneSubCfgNest(const SubCfg &S, llvm::BasicBlock *Dispatch,
                                 llvm::ArrayRef<llvm::Value *> Sizes,
                                 PassKind Kind, NestShape Shape) {
  const unsigned SubGroupWidth = Shape.SubGroupWidth;
  llvm::ValueToValueMapTy VMap;
  llvm::SmallVector<llvm::BasicBlock *, 16> Clones;
  std::string Suffix = ".s" + std::to_string(S.Id) +
                       (Kind == PassKind::Waiting  ? "w"
                        : Kind == PassKind::ToExit ? "x"
                        : Kind == PassKind::Chunks ? "c"
                                                   : "") +
                       (SubGroupWidth ? "g" : "") +
                       (Shape.PartialSubGroups ? "p" : "");
  for (llvm::BasicBlock *BB : S.Blocks) {
    llvm::BasicBlock *Clone = llvm::CloneBasicBlock(BB, VMap, Suffix, &F);
    VMap[BB] = Clone;
    Clones.push_back(Clone);
  }
  LoopNest Nest;
  if (Shape.Once) {
    // No loop: the ids are 0, and leaving for a barrier goes straight to
    // the dispatcher.
    Nest.Preheader = llvm::BasicBlock::Create(
        C, "once.s" + std::to_string(S.Id), &F, Clones.front());
    llvm::BranchInst::Create(Clones.front(), Nest.Preheader);
    Nest.InnerHeader = Nest.Preheader;
    Nest.Latch = Dispatch;
    llvm::Value *Zero = llvm::ConstantInt::get(llvm::Type::getInt64Ty(C), 0);
    Nest.Ids = {Zero, Zero, Zero};
    Nest.LinearId = Zero;
  } else if (Kind == PassKind::Chunks) {
    // Chunks of consecutive work-items in local linear id order (rows of
    // a narrow group together): a loop over the pass's work-items as one
    // row, cut into chunks.
    llvm::Value *One = llvm::ConstantInt::get(llvm::Type::getInt64Ty(C), 1);
    Nest = buildLoopNest(F, Clones.front(), Dispatch, {ItemsInPass, One, One},
                         "chunks" + std::to_string(S.Id), SubGroupWidth);
  } else {
    Nest = buildLoopNest(F, Clones.front(), Dispatch, Sizes,
                         "subcfg" + std::to_string(S.Id) +
                             (SubGroupWidth ? ".sg" : ""),
                         SubGroupWidth, Shape.PartialSubGroups);
  }

  // Leaving for a barrier: record its id, next work-item. Run to exit:
  // back to the start for the sub-CFG's own barrier.
  if (Kind == PassKind::ToExit)
    VMap[S.Barrier] = Clones.front();
  // With per-work-item slots, one store after the paths join (a phi of the
  // ids): stores on separate paths would be merged by later passes, and the
  // merged store loses the parallel-access marking the vectorizer needs.
  llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> ToBarrier;
  llvm::BasicBlock *Record = nullptr;
  llvm::PHINode *RecordedId = nullptr;
  if (NextOf) {
    Record =
        llvm::BasicBlock::Create(C, "record.next" + Suffix, &F, Nest.Latch);
    llvm::IRBuilder<> B(Record);
    RecordedId = B.CreatePHI(B.getInt32Ty(), 2, "next.id");
    B.CreateStore(RecordedId,
                  B.CreateInBoundsGEP(B.getInt32Ty(), NextOf, Nest.LinearId));
    B.CreateBr(Nest.Latch);
  }
  for (llvm::BasicBlock *BB : S.Blocks) {
    for (llvm::BasicBlock *Succ : llvm::successors(BB)) {
      if (!isBarrierBlock(*Succ) || ToBarrier.count(Succ) ||
          (Kind == PassKind::ToExit && Succ == S.Barrier))
        continue;
      unsigned Id = BarrierIds[Succ];
      auto *ToB = llvm::BasicBlock::Create(
          C, "to.barrier" + std::to_string(Id) + Suffix, &F, Nest.Latch);
      llvm::IRBuilder<> B(ToB);
      if (NextOf) {
        RecordedId->addIncoming(B.getInt32(Succ == ExitBarrier ? Ended : Id),
                                ToB);
        B.CreateBr(Record);
      } else {
        B.CreateStore(B.getInt32(Id), NextBarrier);
        B.CreateBr(Nest.Latch);
      }
      ToBarrier[Succ] = ToB;
      VMap[Succ] = ToB;
    }
  }
  for (llvm::BasicBlock *Clone : Clones)
    for (llvm::Instruction &I : *Clone)
      llvm::RemapInstruction(&I, VMap,
                             llvm::RF_IgnoreMissingLocals |
                                 llvm::RF_NoModuleLevelChanges);
  // Edges from blocks outside this sub-CFG do not exist in the clone.
  for (llvm::BasicBlock *Clone : Clones) {
    llvm::SmallPtrSet<llvm::BasicBlock *, 4> Preds(llvm::pred_begin(Clone),
                                                   llvm::pred_end(Clone));
    for (llvm::PHINode &Phi : llvm::make_early_inc_range(Clone->phis())) {
      for (unsigned I = Phi.getNumIncomingValues(); I-- > 0;)
        if (!Preds.contains(Phi.getIncomingBlock(I)))
          Phi.removeIncomingValue(I, /*DeletePHIIfEmpty=*/false);
    }
  }
  for (llvm::BasicBlock *Clone : Clones)
    for (llvm::Instruction &I : llvm::make_early_inc_range(*Clone))
      if (I.hasMetadata(UniformReloadMD))
        I.moveBefore(Nest.Preheader->getTerminator());
  // A chunk's lanes are no sub-group (the function has no sub-group ids).
  LoopNest ForIds = Nest;
  if (Kind == PassKind::Chunks) {
    ForIds.SubGroupBase = ForIds.SubGroupLocalId = nullptr;
    // The local ids from the linear one (later passes remove what no
    // work-item uses).
    llvm::IRBuilder<> B(Nest.InnerHeader->getTerminator());
    llvm::Value *Rows = B.CreateUDiv(Nest.LinearId, Sizes[0]);
    ForIds.Ids = {B.CreateURem(Nest.LinearId, Sizes[0]),
                  B.CreateURem(Rows, Sizes[1]), B.CreateUDiv(Rows, Sizes[1])};
  }
  replaceLocalIdPlaceholders(Clones, ForIds, SliceStart);
  // Work-group reductions as values the loops carry, where this pass is
  // the group's only one through the sub-CFG (the others:
  // WorkItemLoopsPass).
  if (Kind == PassKind::All && !NextOf && !SliceSizes[0] && !Shape.Once)
    lowerAccumulationsInNest(Clones, Nest);
  llvm::SmallVector<llvm::BasicBlock *, 16> LoopBlocks(Clones);
  for (auto &Entry : ToBarrier)
    LoopBlocks.push_back(Entry.second);
  if (Record) {
    if (RecordedId->getNumIncomingValues() == 0) {
      Record->eraseFromParent();
    } else {
      LoopBlocks.push_back(Record);
    }
  }
  llvm::BasicBlock *Running = nullptr;
  if (Kind != PassKind::All) {
    Running =
        llvm::BasicBlock::Create(C, "waiting" + Suffix, &F, Clones.front());
    llvm::IRBuilder<> B(Running);
    llvm::Value *Next = B.CreateLoad(
        B.getInt32Ty(),
        B.CreateInBoundsGEP(B.getInt32Ty(), NextOf, Nest.LinearId), "next");
    B.CreateCondBr(B.CreateICmpNE(Next, B.getInt32(S.Id)), Nest.Latch,
                   Clones.front());
    Nest.InnerHeader->getTerminator()->replaceSuccessorWith(Clones.front(),
                                                            Running);
    LoopBlocks.push_back(Running);
  }
  if (Kind == PassKind::Chunks)
    runInChunks(S, Nest, Running, LoopBlocks, ToBarrier, RecordedId);
  // A chunk's loop: one vector iteration of ChunkVectors interleaved
  // vectors.
  const unsigned Interleave = Kind == PassKind::Chunks ? ChunkVectors : 0;
  if (Kind != PassKind::ToExit && !Shape.Once)
    markWorkItemLoop(Nest.Latch->getTerminator(),
                     addParallelAccesses(LoopBlocks), SubGroupWidth != 0,
                     Interleave ? SubGroupWidth / Interleave : 0, Interleave);
  return Nest.Preheader;
}

// A loop over the next-barrier slots of the pass's work-items, from B's
// block on (B is left after it): reductions that start at Inits, updated
// each iteration by Step from the work-item's index and slot value; returns
// their final values.
llvm::SmallVector<llvm::Value *, 4> SubCfgFormation::scanNextSlots(
    llvm::IRBuilder<> &B, llvm::StringRef Name,
    llvm::ArrayRef<llvm::Value *> Inits,
    llvm::function_ref<void(llvm::IRBuilder<> &, llvm::Value *, llvm::Value *,
                            llvm::MutableArrayRef<llvm::Value *>)>
        Step) {
  llvm::BasicBlock *Start = B.GetInsertBlock();
  auto *Loop = llvm::BasicBlock::Create(C, Name, &F, Exit);
  auto *Done = llvm::BasicBlock::Create(C, Name + ".done", &F, Exit);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  llvm::PHINode *I = B.CreatePHI(B.getInt64Ty(), 2, "i");
  I->addIncoming(B.getInt64(0), Start);
  llvm::SmallVector<llvm::PHINode *, 4> Phis;
  for (llvm::Value *Init : Inits) {
    Phis.push_back(B.CreatePHI(Init->getType(), 2));
    Phis.back()->addIncoming(Init, Start);
  }
  llvm::Value *Next = B.CreateLoad(
      B.getInt32Ty(), B.CreateInBoundsGEP(B.getInt32Ty(), NextOf, I), "next");
  llvm::SmallVector<llvm::Value *, 4> Values(Phis.begin(), Phis.end());
  Step(B, I, Next, Values);
  llvm::Value *NextI = B.CreateAdd(I, B.getInt64(1), "", /*HasNUW=*/true);
  I->addIncoming(NextI, Loop);
  for (unsigned K = 0; K < Phis.size(); ++K)
    Phis[K]->addIncoming(Values[K], Loop);
  B.CreateCondBr(B.CreateICmpULT(NextI, ItemsInPass), Loop, Done);
  B.SetInsertPoint(Done);
  return Values;
}

// How many work-items of the pass wait at barrier Id.
llvm::Value *SubCfgFormation::countAt(llvm::IRBuilder<> &B, unsigned Id) {
  return scanNextSlots(
      B, "count.waiting", {B.getInt64(0)},
      [&](llvm::IRBuilder<> &LB, llvm::Value *, llvm::Value *Next,
          llvm::MutableArrayRef<llvm::Value *> Count) {
        Count[0] =
            LB.CreateAdd(Count[0],
                         LB.CreateZExt(LB.CreateICmpEQ(Next, LB.getInt32(Id)),
                                       LB.getInt64Ty()),
                         "count");
      })[0];
}

// With per-work-item next barriers: the smallest next barrier of the
// pass's work-items, in Leader a work-item still running (the last: a max
// reduction, which vectorizes), and whether every work-item waits at that
// barrier.
llvm::Value *SubCfgFormation::smallestNext(llvm::IRBuilder<> &B,
                                           llvm::Value *&AllThere) {
  auto Result = scanNextSlots(
      B, "smallest.next", {B.getInt32(Ended), B.getInt64(0), B.getInt32(0)},
      [&](llvm::IRBuilder<> &LB, llvm::Value *I, llvm::Value *Next,
          llvm::MutableArrayRef<llvm::Value *> MinLeadMax) {
        MinLeadMax[0] = LB.CreateBinaryIntrinsic(
            llvm::Intrinsic::umin, MinLeadMax[0], Next, nullptr, "min");
        llvm::Value *Running = LB.CreateICmpNE(Next, LB.getInt32(Ended));
        MinLeadMax[1] = LB.CreateBinaryIntrinsic(
            llvm::Intrinsic::umax, MinLeadMax[1],
            LB.CreateSelect(Running, I, LB.getInt64(0)), nullptr, "lead");
        MinLeadMax[2] = LB.CreateBinaryIntrinsic(
            llvm::Intrinsic::umax, MinLeadMax[2], Next, nullptr, "max");
      });
  B.CreateStore(Result[1], Leader);
  AllThere = B.CreateICmpEQ(Result[2], Result[0], "all.there");
  return Result[0];
}

// With slices: a loop nest over the slices of the group around everything
// after the prologue; returns the block the slice's first sub-CFG follows
// and turns Sizes from the group's local sizes into the current slice's,
// sets SliceStart and ItemsInPass. Done becomes the nest's latch (the next
// slice).
llvm::BasicBlock *SubCfgFormation::sliceLoops(llvm::Value *Sizes[3],
                                              llvm::BasicBlock *&Done) {
  auto *Start = llvm::BasicBlock::Create(C, "slice.start", &F, Exit);
  LoopNest Slices = buildLoopNest(F, Start, Exit, SliceCounts, "slices");
  llvm::IRBuilder<> B(Start);
  for (unsigned D = 0; D < 3; ++D) {
    llvm::Value *Local = Sizes[D];
    SliceStart[D] = B.CreateNUWMul(Slices.Ids[D], SliceSizes[D],
                                   "slice.start" + std::to_string(D));
    Sizes[D] = B.CreateBinaryIntrinsic(
        llvm::Intrinsic::umin, SliceSizes[D], B.CreateSub(Local, SliceStart[D]),
        nullptr, "slice.size" + std::to_string(D));
  }
  ItemsInPass = B.CreateNUWMul(B.CreateNUWMul(Sizes[0], Sizes[1]), Sizes[2],
                               "slice.items");
  Done = Slices.Latch;
  Entry->getTerminator()->replaceSuccessorWith(Barriers[0], Slices.Preheader);
  return Start;
}

void SubCfgFormation::replicate() {
  llvm::Value *Sizes[3];
  for (unsigned D = 0; D < 3; ++D)
    Sizes[D] = loadContextField(F, ctx::LocalSize, D);
  llvm::BasicBlock *Done = Exit;
  llvm::BasicBlock *Start = Entry;
  if (SliceSizes[0])
    Start = sliceLoops(Sizes, Done);
  auto *Dispatch = llvm::BasicBlock::Create(C, "dispatch", &F, Exit);
  // Each sub-CFG's nest; with per-work-item next barriers, after the first,
  // also a nest in which the work-items waiting elsewhere (or ended) are
  // skipped, run only when some are (the test costs vectorized loops masked
  // accesses).
  // With divergent barriers, a sub-CFG that loops back to its own barrier
  // also runs each waiting work-item to its exit from the loop when fewer
  // than one in ScalarFraction waits there: a pass over every work-item per
  // iteration would cost more than scalar iterations.
  // A divergent loop's sub-CFG runs in chunks where the pass's work-items
  // are a multiple of the chunk width (SubCfgChunks.cpp), whether or not
  // every work-item waits there.
  struct Passes {
    llvm::BasicBlock *All, *Waiting, *ToExit, *Chunks;
  };
  // With early exits only, after a sub-CFG that sends all running
  // work-items the same way, they still agree and the same ones have ended:
  // the next barrier is the Leader's, found without a pass over the group.
  llvm::BasicBlock *Agreed = nullptr;
  if (NextOf && !DivergentBarriers)
    Agreed = llvm::BasicBlock::Create(C, "dispatch.agreed", &F, Exit);
  llvm::SmallVector<Passes, 8> Starts;
  for (SubCfg &S : SubCfgs) {
    bool Skips = NextOf && S.Id != 0;
    llvm::BasicBlock *After = Agreed && !S.Splits ? Agreed : Dispatch;
    S.ChunkWidth = chunkWidth(S);
    Starts.push_back(
        {cloneSubCfg(S, After, Sizes, PassKind::All),
         Skips ? cloneSubCfg(S, After, Sizes, PassKind::Waiting) : nullptr,
         Skips && DivergentBarriers && !SubGroupBarriers && S.Reentrant
             ? cloneSubCfg(S, After, Sizes, PassKind::ToExit)
             : nullptr,
         S.ChunkWidth ? cloneSubCfg(S, After, Sizes, PassKind::Chunks)
                      : nullptr});
  }

  llvm::IRBuilder<> B(Dispatch);
  llvm::Value *AllThere = nullptr;
  llvm::Value *Next = nullptr;
  if (NextOf) {
    Next = smallestNext(B, AllThere);
    if (Agreed) {
      // Both ways meet at the switch; whether every work-item is there
      // stays what the last pass over the group found.
      llvm::IRBuilder<> EntryB(Entry->getTerminator());
      llvm::AllocaInst *AllThereSlot =
          EntryB.CreateAlloca(B.getInt1Ty(), nullptr, "all.there.slot");
      EntryB.CreateStore(B.getTrue(), AllThereSlot); // nobody ended yet
      B.CreateStore(AllThere, AllThereSlot);
      auto *Choose = llvm::BasicBlock::Create(C, "dispatch.switch", &F, Exit);
      llvm::BasicBlock *Scanned = B.GetInsertBlock();
      B.CreateBr(Choose);
      B.SetInsertPoint(Agreed);
      llvm::Value *Lead = B.CreateLoad(B.getInt64Ty(), Leader, "leader");
      llvm::Value *LeadNext = B.CreateLoad(
          B.getInt32Ty(), B.CreateInBoundsGEP(B.getInt32Ty(), NextOf, Lead),
          "leader.next");
      B.CreateBr(Choose);
      B.SetInsertPoint(Choose);
      llvm::PHINode *Merged = B.CreatePHI(B.getInt32Ty(), 2, "next");
      Merged->addIncoming(Next, Scanned);
      Merged->addIncoming(LeadNext, Agreed);
      Next = Merged;
      AllThere = B.CreateLoad(B.getInt1Ty(), AllThereSlot, "all.there");
    }
  } else {
    Next = B.CreateLoad(B.getInt32Ty(), NextBarrier, "next.barrier");
  }
  llvm::SwitchInst *Switch = B.CreateSwitch(Next, Done, SubCfgs.size());
  for (unsigned I = 1; I < SubCfgs.size(); ++I) {
    auto [All, Waiting, ToExit, Chunks] = Starts[I];
    unsigned Id = SubCfgs[I].Id;
    llvm::BasicBlock *Target = All;
    if (Waiting) {
      Target =
          llvm::BasicBlock::Create(C, "enter.s" + std::to_string(Id), &F, All);
      llvm::BasicBlock *Some = Waiting;
      if (ToExit) {
        Some =
            llvm::BasicBlock::Create(C, "few.s" + std::to_string(Id), &F, All);
        llvm::IRBuilder<> FewB(Some);
        llvm::Value *Count = countAt(FewB, Id);
        llvm::Value *Few = FewB.CreateICmpULT(
            FewB.CreateMul(Count, FewB.getInt64(ScalarFraction)), ItemsInPass);
        FewB.CreateCondBr(Few, ToExit, Waiting);
      }
      llvm::BranchInst::Create(All, Some, AllThere, Target);
    }
    if (Chunks) {
      auto *Choose =
          llvm::BasicBlock::Create(C, "chunks.s" + std::to_string(Id), &F, All);
      llvm::IRBuilder<> ChooseB(Choose);
      llvm::Value *Fits = ChooseB.CreateICmpEQ(
          ChooseB.CreateURem(ItemsInPass,
                             ChooseB.getInt64(SubCfgs[I].ChunkWidth)),
          ChooseB.getInt64(0));
      ChooseB.CreateCondBr(Fits, Chunks, Target);
      Target = Choose;
    }
    Switch->addCase(B.getInt32(Id), Target);
  }
  if (Start == Entry)
    Entry->getTerminator()->replaceSuccessorWith(Barriers[0], Starts[0].All);
  else
    llvm::BranchInst::Create(Starts[0].All, Start);

  for (llvm::BasicBlock *BB : OriginalBody)
    BB->dropAllReferences();
  for (llvm::BasicBlock *BB : OriginalBody)
    BB->eraseFromParent();
}

} // namespace kc::subcfg
