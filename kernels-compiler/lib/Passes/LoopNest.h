//===- Passes/LoopNest.h - Loops over the local ids -------------*- C++ -*-===//
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <array>

namespace llvm {
class BasicBlock;
class BranchInst;
class Function;
class PHINode;
class Value;
} // namespace llvm

namespace kc {

// z, y, x loops (x innermost) over [0, LocalSize[d]):
//   Preheader -> z.header -> y.header -> x.header -> Body ... -> x.latch
//   x.latch -> x.header | y.latch -> y.header | z.latch -> z.header | Exit
// Body blocks branch to Latch when a work-item is done. Every local size is
// at least 1, so the loops test at the bottom.
//
// With a sub-group width W (SubGroupWidth, only where no sub-group spans
// two rows: size_x a multiple of W, or a single row), the x loop is two:
// sub-groups (x0 = 0, W, 2W, ...) around their W work-items (x1 = 0 ..
// W-1; with PartialSubGroups, fewer in a single row's last sub-group:
// min(W, size_x - x0)), x = x0 + x1; the inner loop is the one vectorized,
// and the sub-group's values (its start, SubGroupBase) do not change in
// it.
struct LoopNest {
  llvm::BasicBlock *Preheader = nullptr;
  llvm::BasicBlock *InnerHeader = nullptr;
  llvm::BasicBlock *Latch = nullptr;
  // The outermost loop's latch, whose branch leaves the nest.
  llvm::BasicBlock *OuterLatch = nullptr;
  std::array<llvm::Value *, 3> Ids{};
  llvm::Value *LinearId =
      nullptr; // (z * size_y + y) * size_x + x, in InnerHeader
  // With a sub-group width: the sub-group's first local linear id and the
  // sub-group local id (x1), in InnerHeader.
  llvm::Value *SubGroupBase = nullptr;
  llvm::Value *SubGroupLocalId = nullptr;
};

LoopNest buildLoopNest(llvm::Function &WG, llvm::BasicBlock *Body,
                       llvm::BasicBlock *Exit,
                       llvm::ArrayRef<llvm::Value *> LocalSizes,
                       llvm::StringRef Name, unsigned SubGroupWidth = 0,
                       bool PartialSubGroups = false);

// Replaces the local id placeholder calls in Blocks with the nest's
// induction variables (plus Offsets, where given) and linear id, the
// sub-group placeholders (__kc_sg_local_id, __kc_sg_base) with the nest's
// sub-group values or, in a nest without them, with their operand, and
// __kc_first_work_item with whether every local id is 0.
void replaceLocalIdPlaceholders(
    llvm::ArrayRef<llvm::BasicBlock *> Blocks, const LoopNest &Nest,
    const std::array<llvm::Value *, 3> &Offsets = {});

// The sub-group width the nests of WG use where size_x allows
// (SubGroupLoopsAttr, set by SubGroupsPass where the function asks for
// sub-group ids); 0 without one.
unsigned subGroupLoopWidth(const llvm::Function &WG);

// Where sub-groups of W work-items fit the rows of the group, so nests
// with sub-group loops may run it: Exact when size_x is a multiple of W,
// OneRow when the group is a single row (size_y and size_z 1; its last
// sub-group may be partial). i1 values before the entry block's
// terminator (LocalSizes there), constants with a reqd_work_group_size.
struct SubGroupRows {
  llvm::Value *Exact = nullptr;
  llvm::Value *OneRow = nullptr;
};
SubGroupRows subGroupRows(llvm::Function &WG,
                          llvm::ArrayRef<llvm::Value *> LocalSizes, unsigned W);

// Replaces the sub-group placeholders left anywhere in WG with their
// operand, __kc_first_work_item with 1 (code outside any nest).
void replaceSubGroupPlaceholders(llvm::Function &WG);

// Whether V is the library's test for the work-group's first work-item
// (__kc_first_work_item(), which the nests replace with "every local id is
// 0"), or its comparison with 0.
bool isFirstWorkItemTest(const llvm::Value *V);

// The successor of Br (0 or 1) the first work-item takes where Br branches
// on that test; -1 for any other branch.
int firstWorkItemSuccessor(const llvm::BranchInst &Br);

} // namespace kc
