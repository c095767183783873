//===- Passes/Accumulation.h - Work-group reductions in the loops -*- C++
//-*-===//
//
// The library's work-group reductions (builtins/collectives.cl) call
//
//   void __kc_wg_accumulate_<op>_<type>(__local ulong *slot, <type> x)
//
// before their barrier: the x of every work-item of the group combined
// with <op> (add, mul, min, max, and, or, xor; min and max unsigned for
// the types whose name starts with "u"), in any order, the result in the
// low bytes of *slot once every work-item has passed the call.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/ADT/ArrayRef.h>

namespace llvm {
class BasicBlock;
class Function;
} // namespace llvm

namespace kc {

struct LoopNest;

// Numbers WG's accumulations, so that the copies the work-item loop nests
// make of one call share its running value (lowerRemainingAccumulations).
// Before any copy is made.
void numberAccumulations(llvm::Function &WG);

// In a nest that runs each work-item of the group once, in one pass: a
// reduction across the work-item loops (one value the loops carry, which
// the vectorizer keeps in vector registers), stored in its slot when the
// nest ends. Nest.OuterLatch's way out gets the stores.
void lowerAccumulationsInNest(llvm::ArrayRef<llvm::BasicBlock *> Blocks,
                              const LoopNest &Nest);

// The rest of WG's accumulations (nests that run some of the work-items
// per pass, code outside any nest): a running value in the order the
// work-items pass, stored in the slot by the group's last; one for all the
// copies of a call.
void lowerRemainingAccumulations(llvm::Function &WG);

} // namespace kc
