//===- Passes/SubCfgFormation.cpp - Barriers by sub-CFG formation ---------===//
//
// Continuation-based synchronization (Meyer, Alpay, Heuveline, IWOCL 2023):
// the kernel body is cut at its barriers into sub-CFGs, the blocks reachable
// from one barrier without crossing another. Each sub-CFG is cloned into its
// own z/y/x work-item loop nest; where a work-item reaches a barrier, it
// records that barrier's id and goes on to the next work-item. After the
// nest, a dispatcher enters the sub-CFG that starts at the recorded barrier
// (every work-item reaches the same one, as OpenCL requires) or returns
// after the implicit exit barrier.
//
//   entry (prologue) -> sub-CFG 0 nest -> dispatch -> sub-CFG k nest -> ...
//
// Values live across a barrier (defined on one side of it, used on the
// other) go through per-work-item arrays indexed by the local linear id;
// values computed only from the prologue and the local ids are recomputed
// instead. Private allocas used in more than one sub-CFG become
// per-work-item arrays. Barriers work in loops, conditionals (with uniform
// conditions) and inlined helpers alike: only the CFG matters.
//
// Early exits (functions marked kc-may-exit-early, by ImplicitLoopBarriers):
// work-items may reach the end before a barrier the others wait at. Then
// each work-item records its next barrier in a slot of its own (the end:
// ~0), the later sub-CFGs skip the work-items whose slot names another
// barrier, and the dispatcher takes the smallest id of the group (the
// running work-items agree on it; ~0 when none runs). A slot per work-item
// rather than one for the group keeps the work-item loop vectorizable: its
// stores are to consecutive addresses, not a conditional store to one place.
// After a sub-CFG without a branch that work-items may take different ways,
// the running ones still agree and no more have ended: the dispatcher reads
// the next barrier from a running work-item's slot instead of passing over
// the group (a guarded matrix multiply's loop: 2x faster).
//
// Divergent barriers (kc-divergent-barriers, also by ImplicitLoopBarriers:
// only implicit barriers, at the top of loops work-items may run a
// different number of times): work-items may wait at different barriers
// for good. The same slots and smallest id let each pass run the work-items
// waiting at one barrier, masked, one loop iteration each; values crossing
// a barrier all get per-work-item slots (nothing is uniform). Since no
// barrier is the kernel's own, the group need not run as a whole: it runs
// in slices of at most SliceWidth x SliceItems work-items, each through all
// its sub-CFGs before the next (a pass covers fewer skipped work-items),
// with the slice's local ids offset by its start. A sub-CFG that loops back
// to its own barrier has a third clone that runs each waiting work-item to
// its exit from the loop, scalar, chosen when few work-items still wait
// there (one work-item looping far longer than the others would otherwise
// cost a pass over the slice per iteration).
//
// Sub-group barriers (kc-sub-group-barriers, by SubGroups: sub-group
// functions and sub_group_barrier) hold only a sub-group, so sub-groups may
// wait at different ones: the same per-work-item slots and smallest id, the
// sub-group barriers numbered before the work-group ones (a work-group
// barrier then runs only once every work-item waits there), the whole group
// in one slice (the kernel may have barriers of its own) and no scalar runs
// (they would skip the barriers).
//
//===----------------------------------------------------------------------===//
#include "Passes/SubCfgFormation.h"

#include "Passes/Accumulation.h"

namespace kc {
namespace subcfg {

void SubCfgFormation::addEntryAndExitBarriers() {
  llvm::FunctionCallee Barrier =
      M.getOrInsertFunction(BarrierPlaceholder, llvm::Type::getVoidTy(C));
  Entry = &F.getEntryBlock();
  Exit = exitBlock(F);
  llvm::BasicBlock *Body = bodyEntry(F);

  auto *EntryBarrier = llvm::BasicBlock::Create(C, "entry.barrier", &F, Body);
  auto *Start = llvm::BasicBlock::Create(C, "kernel.start", &F, Body);
  llvm::CallInst::Create(Barrier, "", EntryBarrier);
  llvm::BranchInst::Create(Start, EntryBarrier);
  llvm::BranchInst::Create(Body, Start);
  Entry->getTerminator()->replaceSuccessorWith(Body, EntryBarrier);

  ExitBarrier = llvm::BasicBlock::Create(C, "exit.barrier", &F, Exit);
  llvm::SmallVector<llvm::BasicBlock *, 4> Preds(llvm::predecessors(Exit));
  for (llvm::BasicBlock *Pred : Preds)
    Pred->getTerminator()->replaceSuccessorWith(Exit, ExitBarrier);
  llvm::CallInst::Create(Barrier, "", ExitBarrier);
  llvm::BranchInst::Create(Exit, ExitBarrier);
}

// Ids: the entry barrier 0, the others in block order, the exit barrier
// last. Every barrier's successor becomes a block of its own with no other
// predecessor, so a sub-CFG starts without phis.
void SubCfgFormation::collectBarriers() {
  for (llvm::BasicBlock &BB : F)
    if (isBarrierBlock(BB) && &BB != ExitBarrier)
      Barriers.push_back(&BB);
  // Sub-group barriers before the work-group ones: the smallest id goes
  // first, so a work-group barrier runs only once no work-item waits at a
  // sub-group barrier (all of them then wait there).
  if (SubGroupBarriers)
    std::stable_partition(Barriers.begin() + 1, Barriers.end(),
                          [](llvm::BasicBlock *BB) {
                            return BB->front().hasMetadata(SubGroupBarrierMD);
                          });
  Barriers.push_back(ExitBarrier);
  for (unsigned I = 0; I < Barriers.size(); ++I)
    BarrierIds[Barriers[I]] = I;
  for (llvm::BasicBlock *B : Barriers) {
    if (B == ExitBarrier)
      continue;
    llvm::BasicBlock *Succ = B->getSingleSuccessor();
    if (!Succ->getSinglePredecessor() || isBarrierBlock(*Succ))
      llvm::SplitEdge(B, Succ);
  }
  for (llvm::BasicBlock &BB : F)
    if (&BB != Entry && &BB != Exit)
      OriginalBody.push_back(&BB);
}

void SubCfgFormation::formSubCfgs() {
  for (llvm::BasicBlock *B : Barriers) {
    if (B == ExitBarrier)
      continue;
    SubCfg S;
    S.Id = BarrierIds[B];
    S.Barrier = B;
    llvm::SmallVector<llvm::BasicBlock *, 16> Work = {B->getSingleSuccessor()};
    S.Members.insert(Work.front());
    while (!Work.empty()) {
      llvm::BasicBlock *BB = Work.pop_back_val();
      S.Blocks.push_back(BB);
      for (llvm::BasicBlock *Succ : llvm::successors(BB)) {
        if (Succ == B)
          S.Reentrant = true;
        if (!isBarrierBlock(*Succ) && S.Members.insert(Succ).second)
          Work.push_back(Succ);
      }
    }
    SubCfgs.push_back(std::move(S));
  }
}

// Walks backwards from every barrier: a block reaches the barriers found on
// the way (through other barriers too).
void SubCfgFormation::computeBarrierReachability() {
  for (unsigned Id = 0; Id < Barriers.size(); ++Id) {
    BlockSet Seen;
    llvm::SmallVector<llvm::BasicBlock *, 16> Work(
        llvm::predecessors(Barriers[Id]));
    while (!Work.empty()) {
      llvm::BasicBlock *BB = Work.pop_back_val();
      if (!Seen.insert(BB).second)
        continue;
      ReachableBarriers[BB].push_back(Id);
      for (llvm::BasicBlock *Pred : llvm::predecessors(BB))
        Work.push_back(Pred);
    }
  }
}

// Divergence: the local ids, memory reads and calls may differ between
// work-items, and so does everything computed from them. A phi merges
// values from paths work-items may take differently, unless it heads a loop
// holding a barrier: every work-item runs such a loop the same number of
// times (OpenCL requires it), so which edge enters the header is uniform.
void SubCfgFormation::computeDivergence() {
  llvm::DominatorTree DT(F);
  llvm::LoopInfo LI(DT);
  BlockSet UniformHeaders;
  for (llvm::Loop *L : LI.getLoopsInPreorder())
    if (llvm::any_of(L->blocks(),
                     [](llvm::BasicBlock *BB) { return isBarrierBlock(*BB); }))
      UniformHeaders.insert(L->getHeader());

  llvm::SmallVector<llvm::Value *, 32> Work;
  auto MarkDivergent = [&](llvm::Value *V) {
    if (Divergent.insert(V).second)
      Work.push_back(V);
  };
  for (llvm::BasicBlock *BB : OriginalBody) {
    for (llvm::Instruction &I : *BB) {
      if (auto *Phi = llvm::dyn_cast<llvm::PHINode>(&I)) {
        if (!UniformHeaders.contains(BB) && !Phi->hasConstantOrUndefValue())
          MarkDivergent(&I);
      } else if (localIdPlaceholderDim(I) >= 0 || I.mayReadOrWriteMemory() ||
                 llvm::isa<llvm::AllocaInst>(I)) {
        MarkDivergent(&I);
      }
    }
  }
  while (!Work.empty()) {
    llvm::Value *V = Work.pop_back_val();
    for (llvm::User *U : V->users())
      if (llvm::isa<llvm::Instruction>(U))
        MarkDivergent(U);
  }
}

void SubCfgFormation::run() {
  SubGroupBarriers = F.hasFnAttribute(SubGroupBarriersAttr);
  addEntryAndExitBarriers();
  collectBarriers();
  formSubCfgs();
  computeBarrierReachability();
  computeDivergence();
  for (SubCfg &S : SubCfgs)
    S.Splits = llvm::any_of(S.Blocks, [&](llvm::BasicBlock *BB) {
      llvm::Instruction *Term = BB->getTerminator();
      return Term->getNumSuccessors() > 1 && Divergent.contains(Term);
    });

  llvm::IRBuilder<> B(Entry->getTerminator());
  llvm::Value *Sizes[3];
  for (unsigned D = 0; D < 3; ++D)
    Sizes[D] = loadContextField(F, ctx::LocalSize, D);
  ItemsInPass = ArrayLength =
      B.CreateMul(B.CreateMul(Sizes[0], Sizes[1]), Sizes[2], "work_items");
  NextBarrier = B.CreateAlloca(B.getInt32Ty(), nullptr, "next.barrier.slot");
  DivergentBarriers =
      F.hasFnAttribute("kc-divergent-barriers") || SubGroupBarriers;
  if (DivergentBarriers && !SubGroupBarriers) {
    // Slices: at most SliceWidth work-items in x, SliceItems in all.
    llvm::Value *One = B.getInt64(1);
    // (Groups of more than one row: slices of half that width, so that the
    // chunks a divergent loop runs in (SubCfgChunks.cpp) are blocks of
    // rows, whose work-items loop more alike than a long row's.)
    SliceSizes[0] = B.CreateBinaryIntrinsic(
        llvm::Intrinsic::umin, Sizes[0],
        B.CreateSelect(B.CreateICmpUGT(Sizes[1], One),
                       B.getInt64(SliceWidth / 2), B.getInt64(SliceWidth)));
    SliceSizes[1] = B.CreateBinaryIntrinsic(
        llvm::Intrinsic::umin, Sizes[1],
        B.CreateBinaryIntrinsic(
            llvm::Intrinsic::umax, One,
            B.CreateUDiv(B.getInt64(SliceItems), SliceSizes[0])));
    SliceSizes[2] = One;
    for (unsigned D = 0; D < 3; ++D)
      SliceCounts[D] =
          B.CreateUDiv(B.CreateAdd(Sizes[D], B.CreateSub(SliceSizes[D], One)),
                       SliceSizes[D], "slices" + std::to_string(D));
    ArrayLength = B.getInt64(SliceItems);
  }
  if (DivergentBarriers || F.hasFnAttribute("kc-may-exit-early")) {
    NextOf = createWorkItemArray(B.getInt32Ty(), llvm::Align(4), "next.of");
    Leader = B.CreateAlloca(B.getInt64Ty(), nullptr, "leader.slot");
    B.CreateStore(B.getInt64(0), Leader);
  }

  numberAccumulations(F);
  // Private allocas first: the slots for uniform values are allocas too.
  arrayifyPrivateAllocas();
  demoteCrossingValues();
  replicate();
}

} // namespace subcfg

llvm::PreservedAnalyses
SubCfgFormationPass::run(llvm::Function &F, llvm::FunctionAnalysisManager &) {
  if (!isWorkGroupFunction(F) || !F.hasFnAttribute("kc-uses-barriers"))
    return llvm::PreservedAnalyses::all();
  subcfg::SubCfgFormation(F).run();
  F.addFnAttr("kc-work-item-loops");
  return llvm::PreservedAnalyses::none();
}

} // namespace kc
