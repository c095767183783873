//===- Passes/AccessStride.h - How an address moves -------------*- C++ -*-===//
//
// The constant by which an address (a SCEV) grows from one iteration of a
// loop to the next, or from one work-item to its neighbour in x, for the
// heuristics of ImplicitLoopBarriers. Sums, constant multiples and
// extensions are followed; wrapping is ignored.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/ADT/DenseSet.h>

#include <cstdint>
#include <optional>

namespace llvm {
class Loop;
class SCEV;
class ScalarEvolution;
class Value;
} // namespace llvm

namespace kc {

// Along L: recurrences of L give their step; what holds none is taken as
// not moving (a value computed in the loop from the work-item's id).
std::optional<int64_t> stepAlongLoop(const llvm::SCEV *S, const llvm::Loop &L,
                                     llvm::ScalarEvolution &SE);

// Along the local id in x: OnX holds the values computed from it; the
// local id x (and the linear id) move by 1, values of OnX the SCEV cannot
// see through by an unknown amount.
std::optional<int64_t>
stepAlongLocalIdX(const llvm::SCEV *S,
                  const llvm::DenseSet<const llvm::Value *> &OnX,
                  llvm::ScalarEvolution &SE);

} // namespace kc
