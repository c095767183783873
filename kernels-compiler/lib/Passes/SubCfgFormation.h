//===- Passes/SubCfgFormation.h - Barriers by sub-CFG formation ----------===//
//
// The SubCfgFormation pass's state and steps, shared by its three files:
// SubCfgFormation.cpp (barriers, sub-CFGs, divergence; the design),
// SubCfgValues.cpp (values and private variables live across barriers)
// and SubCfgReplication.cpp (the work-item loop nests and the dispatcher).
//
//===----------------------------------------------------------------------===//
#pragma once

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

namespace kc::subcfg {

using BlockSet = llvm::SmallPtrSet<llvm::BasicBlock *, 16>;

// A work-item's next barrier once it has ended (with early exits).
inline constexpr uint32_t Ended = ~0u;

// Divergent barriers: a work-group runs in slices of at most SliceWidth
// work-items in x and SliceItems in all, each slice through all its
// barriers before the next: the fewer work-items a pass covers, the fewer
// skipped ones it pays for, but the more passes there are. (Mandelbrot,
// 1024 x 1024 pixels, 512 x 8 work-groups: 16.7 ms unsliced, 11.8 ms in
// slices of 16 x 4, 7.1 ms of 64 x 8.)
inline constexpr uint64_t SliceWidth = 64;
inline constexpr uint64_t SliceItems = 512;
// A sub-CFG that loops back to its own barrier runs its waiting work-items
// scalar, each to its exit from the loop, when fewer than one in
// ScalarFraction of the pass waits there.
inline constexpr uint64_t ScalarFraction = 8;

// A chunk (SubCfgChunks.cpp) is this many vectors of work-items: the
// vectorized loop interleaves them, so that one iteration's chain of
// dependent operations overlaps with the others'.
// (Mandelbrot, 1024 x 1024 pixels, 256 iterations, two threads: 95
// Mpixel/s with one vector, 152 with two, 164 with four.)
inline constexpr unsigned ChunkVectors = 4;

// Loads of a uniform value's slot, hoisted out of the work-item loops.
inline constexpr llvm::StringLiteral UniformReloadMD = "kc.uniform_reload";

// How a pass over a sub-CFG treats the work-items: all of them (every one
// waits at its barrier), only those waiting there (the others skip it), or
// those waiting there, each until it leaves for another barrier (a sub-CFG
// that loops back to its own barrier, run scalar when few work-items are
// still in that loop), or those waiting there, in chunks of ChunkVectors
// vectors, each chunk until none of them waits there (SubCfgChunks.cpp).
enum class PassKind { All, Waiting, ToExit, Chunks };

struct SubCfg {
  unsigned Id = 0;                     // the id of the barrier it starts at
  llvm::BasicBlock *Barrier = nullptr; // that barrier's block
  llvm::SmallVector<llvm::BasicBlock *, 16> Blocks; // Blocks[0]: the start
  BlockSet Members;
  bool Reentrant = false; // its barrier is reachable from its own blocks
  // A branch in it may send work-items different ways (it may end some
  // while others go on, with early exits).
  bool Splits = false;
  // The chunk width of its Chunks pass (0: it has none).
  unsigned ChunkWidth = 0;
};

inline bool isBarrierBlock(const llvm::BasicBlock &BB) {
  return !BB.empty() && isBarrierPlaceholder(BB.front());
}

inline llvm::FunctionCallee placeholder(llvm::Module &M, llvm::StringRef Name) {
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
inline llvm::Instruction *usePoint(const llvm::Use &U) {
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
  // How the work-items run through a sub-CFG's clone: a loop nest, one
  // with a loop per sub-group of W work-items, or only the first
  // work-item, once (firstWorkItemOnly).
  struct NestShape {
    unsigned SubGroupWidth = 0;
    bool Once = false;
    bool PartialSubGroups = false; // a single row's last may be partial
  };
  llvm::BasicBlock *cloneSubCfgNest(const SubCfg &S, llvm::BasicBlock *Dispatch,
                                    llvm::ArrayRef<llvm::Value *> Sizes,
                                    PassKind Kind, NestShape Shape);
  bool firstWorkItemOnly(const SubCfg &S) const;
  unsigned chunkWidth(const SubCfg &S) const;
  void runInChunks(
      const SubCfg &S, const LoopNest &Nest, llvm::BasicBlock *Running,
      llvm::SmallVectorImpl<llvm::BasicBlock *> &Lanes,
      const llvm::DenseMap<llvm::BasicBlock *, llvm::BasicBlock *> &ToBarrier,
      llvm::PHINode *RecordedId);
  bool readAfter(const llvm::AllocaInst *Array, unsigned Id) const;
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

} // namespace kc::subcfg
