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
#include "Passes/LoopNest.h"
#include "Passes/Passes.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SetVector.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/IR/CFG.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

#include <algorithm>
#include <array>

namespace kc {

namespace {

using BlockSet = llvm::SmallPtrSet<llvm::BasicBlock *, 16>;

// A work-item's next barrier once it has ended (with early exits).
constexpr uint32_t Ended = ~0u;

// Divergent barriers: a work-group runs in slices of at most SliceWidth
// work-items in x and SliceItems in all, each slice through all its
// barriers before the next: the fewer work-items a pass covers, the fewer
// skipped ones it pays for, but the more passes there are. (Mandelbrot,
// 1024 x 1024 pixels, 512 x 8 work-groups: 16.7 ms unsliced, 11.8 ms in
// slices of 16 x 4, 7.1 ms of 64 x 8.)
constexpr uint64_t SliceWidth = 64;
constexpr uint64_t SliceItems = 512;
// A sub-CFG that loops back to its own barrier runs its waiting work-items
// scalar, each to its exit from the loop, when fewer than one in
// ScalarFraction of the pass waits there.
constexpr uint64_t ScalarFraction = 8;

// Loads of a uniform value's slot, hoisted out of the work-item loops.
constexpr llvm::StringLiteral UniformReloadMD = "kc.uniform_reload";

// How a pass over a sub-CFG treats the work-items: all of them (every one
// waits at its barrier), only those waiting there (the others skip it), or
// those waiting there, each until it leaves for another barrier (a sub-CFG
// that loops back to its own barrier, run scalar when few work-items are
// still in that loop).
enum class PassKind { All, Waiting, ToExit };

struct SubCfg {
  unsigned Id = 0;                     // the id of the barrier it starts at
  llvm::BasicBlock *Barrier = nullptr; // that barrier's block
  llvm::SmallVector<llvm::BasicBlock *, 16> Blocks; // Blocks[0]: the start
  BlockSet Members;
  bool Reentrant = false; // its barrier is reachable from its own blocks
  // A branch in it may send work-items different ways (it may end some
  // while others go on, with early exits).
  bool Splits = false;
};

bool isBarrierBlock(const llvm::BasicBlock &BB) {
  return !BB.empty() && isBarrierPlaceholder(BB.front());
}

llvm::FunctionCallee placeholder(llvm::Module &M, llvm::StringRef Name) {
  llvm::FunctionCallee Callee =
      M.getOrInsertFunction(Name, llvm::Type::getInt64Ty(M.getContext()));
  if (auto *F = llvm::dyn_cast<llvm::Function>(Callee.getCallee())) {
    F->addFnAttr(llvm::Attribute::NoUnwind);
    F->setDoesNotAccessMemory();
  }
  return Callee;
}

// Where a use is evaluated: before its user, or at the end of the incoming
// block for a phi.
llvm::Instruction *usePoint(const llvm::Use &U) {
  auto *User = llvm::cast<llvm::Instruction>(U.getUser());
  if (auto *Phi = llvm::dyn_cast<llvm::PHINode>(User))
    return Phi->getIncomingBlock(U)->getTerminator();
  return User;
}

class SubCfgFormation {
public:
  explicit SubCfgFormation(llvm::Function &F)
      : F(F), M(*F.getParent()), C(F.getContext()) {}

  void run();

private:
  void addEntryAndExitBarriers();
  void collectBarriers();
  void formSubCfgs();
  void computeBarrierReachability();
  void computeDivergence();
  bool crossesBarrier(llvm::Instruction &Def, llvm::BasicBlock *UseBlock);
  bool reusesWithinSubCfg(llvm::BasicBlock *Def,
                          llvm::ArrayRef<llvm::Use *> Uses);
  bool isRematerializable(llvm::Value *V, unsigned Depth);
  llvm::Value *rematerialize(llvm::Value *V, llvm::Instruction *Before);
  llvm::Value *linearIdAt(llvm::Instruction *Before);
  llvm::AllocaInst *createWorkItemArray(llvm::Type *Ty, llvm::Align Align,
                                        const llvm::Twine &Name);
  void demoteCrossingValues();
  void arrayifyPrivateAllocas();
  void replicate();
  llvm::BasicBlock *sliceLoops(llvm::Value *Sizes[3], llvm::BasicBlock *&Done);
  llvm::Value *smallestNext(llvm::IRBuilder<> &B, llvm::Value *&AllThere);
  llvm::BasicBlock *cloneSubCfg(const SubCfg &S, llvm::BasicBlock *Dispatch,
                                llvm::ArrayRef<llvm::Value *> Sizes,
                                PassKind Kind);
  llvm::Value *countAt(llvm::IRBuilder<> &B, unsigned Id);
  llvm::SmallVector<llvm::Value *, 4> scanNextSlots(
      llvm::IRBuilder<> &B, llvm::StringRef Name,
      llvm::ArrayRef<llvm::Value *> Inits,
      llvm::function_ref<void(llvm::IRBuilder<> &, llvm::Value *, llvm::Value *,
                              llvm::MutableArrayRef<llvm::Value *>)>
          Step);

  llvm::Function &F;
  llvm::Module &M;
  llvm::LLVMContext &C;
  llvm::BasicBlock *Entry = nullptr;
  llvm::BasicBlock *Exit = nullptr;
  llvm::BasicBlock *ExitBarrier = nullptr;
  llvm::SmallVector<llvm::BasicBlock *, 8> Barriers; // index = barrier id
  llvm::DenseMap<llvm::BasicBlock *, unsigned> BarrierIds;
  llvm::SmallVector<SubCfg, 8> SubCfgs; // one per barrier but the exit one
  // For every block, the barrier blocks reachable from its end.
  llvm::DenseMap<llvm::BasicBlock *, llvm::SmallVector<unsigned, 4>>
      ReachableBarriers;
  llvm::SmallVector<llvm::BasicBlock *, 32> OriginalBody;
  // For a sub-CFG and a block, the blocks reachable from the sub-CFG's start
  // without passing through that block.
  llvm::DenseMap<std::pair<unsigned, llvm::BasicBlock *>, BlockSet> Avoiding;
  // Values that may differ between the work-items of a group.
  llvm::DenseSet<llvm::Value *> Divergent;
  // The work-items of one pass over a sub-CFG: the whole group, or with
  // slices the current slice; the length of the per-work-item arrays.
  llvm::Value *ItemsInPass = nullptr;
  llvm::Value *ArrayLength = nullptr;
  // With slices: their local sizes and (per-dimension) work-item counts,
  // and the local id of a slice's first work-item.
  std::array<llvm::Value *, 3> SliceSizes{};
  std::array<llvm::Value *, 3> SliceCounts{};
  std::array<llvm::Value *, 3> SliceStart{};
  llvm::AllocaInst *NextBarrier = nullptr;
  // With early exits or divergent barriers: each work-item's next barrier,
  // ~0 once it has ended, and the index of a work-item still running (set
  // by the dispatcher).
  llvm::AllocaInst *NextOf = nullptr;
  llvm::AllocaInst *Leader = nullptr;
  // Work-items may wait at different barriers (kc-divergent-barriers, or
  // sub-group barriers: kc-sub-group-barriers, with no slices and no
  // scalar runs to a loop's exit, which would skip the barriers).
  bool DivergentBarriers = false;
  bool SubGroupBarriers = false;
};

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

// One sub-CFG in its work-item loop nest, for a pass of the given kind;
// returns the nest's preheader.
llvm::BasicBlock *
SubCfgFormation::cloneSubCfg(const SubCfg &S, llvm::BasicBlock *Dispatch,
                             llvm::ArrayRef<llvm::Value *> Sizes,
                             PassKind Kind) {
  llvm::ValueToValueMapTy VMap;
  llvm::SmallVector<llvm::BasicBlock *, 16> Clones;
  std::string Suffix = ".s" + std::to_string(S.Id) +
                       (Kind == PassKind::Waiting  ? "w"
                        : Kind == PassKind::ToExit ? "x"
                                                   : "");
  for (llvm::BasicBlock *BB : S.Blocks) {
    llvm::BasicBlock *Clone = llvm::CloneBasicBlock(BB, VMap, Suffix, &F);
    VMap[BB] = Clone;
    Clones.push_back(Clone);
  }
  LoopNest Nest = buildLoopNest(F, Clones.front(), Dispatch, Sizes,
                                "subcfg" + std::to_string(S.Id));

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
  replaceLocalIdPlaceholders(Clones, Nest, SliceStart);
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
  if (Kind != PassKind::All) {
    auto *Running =
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
  if (Kind != PassKind::ToExit)
    markWorkItemLoop(Nest.Latch->getTerminator(),
                     addParallelAccesses(LoopBlocks));
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
  struct Passes {
    llvm::BasicBlock *All, *Waiting, *ToExit;
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
    Starts.push_back(
        {cloneSubCfg(S, After, Sizes, PassKind::All),
         Skips ? cloneSubCfg(S, After, Sizes, PassKind::Waiting) : nullptr,
         Skips && DivergentBarriers && !SubGroupBarriers && S.Reentrant
             ? cloneSubCfg(S, After, Sizes, PassKind::ToExit)
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
    auto [All, Waiting, ToExit] = Starts[I];
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
    SliceSizes[0] = B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, Sizes[0],
                                            B.getInt64(SliceWidth));
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

  // Private allocas first: the slots for uniform values are allocas too.
  arrayifyPrivateAllocas();
  demoteCrossingValues();
  replicate();
}

} // namespace

llvm::PreservedAnalyses
SubCfgFormationPass::run(llvm::Function &F, llvm::FunctionAnalysisManager &) {
  if (!isWorkGroupFunction(F) || !F.hasFnAttribute("kc-uses-barriers"))
    return llvm::PreservedAnalyses::all();
  SubCfgFormation(F).run();
  F.addFnAttr("kc-work-item-loops");
  return llvm::PreservedAnalyses::none();
}

} // namespace kc
