//===- Passes/LoopNest.h - Loops over the local ids -------------*- C++ -*-===//
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <array>

namespace llvm {
class BasicBlock;
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
struct LoopNest {
  llvm::BasicBlock *Preheader = nullptr;
  llvm::BasicBlock *InnerHeader = nullptr;
  llvm::BasicBlock *Latch = nullptr;
  std::array<llvm::PHINode *, 3> Ids{};
  llvm::Value *LinearId =
      nullptr; // (z * size_y + y) * size_x + x, in InnerHeader
};

LoopNest buildLoopNest(llvm::Function &WG, llvm::BasicBlock *Body,
                       llvm::BasicBlock *Exit,
                       llvm::ArrayRef<llvm::Value *> LocalSizes,
                       llvm::StringRef Name);

// Replaces the local id placeholder calls in Blocks with the nest's
// induction variables (plus Offsets, where given) and linear id.
void replaceLocalIdPlaceholders(
    llvm::ArrayRef<llvm::BasicBlock *> Blocks, const LoopNest &Nest,
    const std::array<llvm::Value *, 3> &Offsets = {});

} // namespace kc
