//===- Passes/Uniformity.h - Values equal in every work-item ----*- C++ -*-===//
//
// Which values and branches of a work-group function's body are the same
// for every work-item of a group, before the work-item loops exist (the
// body still reads its local ids through the placeholders).
//
// Varying by construction: the local id placeholders, every memory read
// but from __constant memory (another work-item may have written the
// location in between), calls, allocas. Everything computed from a varying
// value varies, and so do:
//   - phis in blocks that paths from a varying branch can reach before
//     those paths join (which incoming edge is taken varies), the join
//     included;
//   - values defined in a loop that work-items may leave after different
//     numbers of iterations, where they are used outside it.
// The prologue (entry block: arguments, launch context) is uniform.
//
// Early exits: a varying branch one side of which only leads to the end of
// the kernel (`if (gid >= n) return;`) leaves the other side to the
// work-items still running, and among them what follows is uniform as
// usual. Code that relies on this (a barrier after such a branch) must let
// the work-items that left skip the barrier: hasEarlyExits() says when.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/ADT/DenseSet.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/ADT/SmallVector.h>

namespace llvm {
class BasicBlock;
class Function;
class Instruction;
class LoopInfo;
class PostDominatorTree;
class Value;
} // namespace llvm

namespace kc {

class Uniformity {
public:
  Uniformity(llvm::Function &WG, const llvm::LoopInfo &LI,
             const llvm::PostDominatorTree &PDT);

  bool isUniform(const llvm::Value *V) const { return !Varying.contains(V); }
  // Whether the branch (or switch) ending BB goes the same way for every
  // work-item; true for unconditional branches and returns.
  bool isUniformTerminator(const llvm::BasicBlock &BB) const;
  // Whether every work-item that runs the body reaches BB the same number
  // of times: no varying branch decides whether BB runs.
  bool isUniformlyReached(const llvm::BasicBlock &BB) const {
    return !VaryingControlled.contains(&BB);
  }
  // Whether some work-items may end the kernel early, on a varying branch
  // whose other side the remaining ones run uniformly.
  bool hasEarlyExits() const { return EarlyExits; }
  // Whether BB may run after an early exit: it is reachable from the side
  // of an early-exit branch that stays (a barrier there is one the
  // work-items that left must skip).
  bool mayFollowEarlyExit(const llvm::BasicBlock &BB) const;

private:
  void markVaryingRegion(llvm::BasicBlock *Branch);
  llvm::BasicBlock *earlyExitSide(llvm::BasicBlock *Branch) const;

  const llvm::PostDominatorTree &PDT;
  // The end of the kernel: the exit block and the empty blocks that only
  // lead to it.
  llvm::SmallPtrSet<const llvm::BasicBlock *, 4> End;
  bool EarlyExits = false;
  // The staying side of each early-exit branch.
  llvm::SmallVector<llvm::BasicBlock *, 2> Stays;
  llvm::DenseSet<const llvm::Value *> Varying;
  // Blocks whose execution depends on a varying branch (the join excluded),
  // and the joins (the immediate post-dominators of varying branches).
  llvm::SmallPtrSet<const llvm::BasicBlock *, 16> VaryingControlled;
  llvm::SmallPtrSet<const llvm::BasicBlock *, 16> VaryingJoins;
};

} // namespace kc
