//===- Passes/AccessStride.cpp - How an address moves ---------------------===//
#include "Passes/AccessStride.h"

#include "Passes/WorkGroupABI.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ScalarEvolutionExpressions.h>
#include <llvm/IR/Instruction.h>

namespace kc {

namespace {

using Step = std::optional<int64_t>;

// S's step when Leaf knows it (Leaf returns a value: the step, or nullopt
// for "not a constant"), else through sums, constant multiples and casts.
template <typename LeafFn> Step linearStep(const llvm::SCEV *S, LeafFn Leaf) {
  if (std::optional<Step> Known = Leaf(S))
    return *Known;
  if (const auto *Cast = llvm::dyn_cast<llvm::SCEVCastExpr>(S))
    return linearStep(Cast->getOperand(), Leaf);
  if (const auto *Add = llvm::dyn_cast<llvm::SCEVAddExpr>(S)) {
    int64_t Sum = 0;
    for (const llvm::SCEV *Op : Add->operands()) {
      Step OpStep = linearStep(Op, Leaf);
      if (!OpStep)
        return std::nullopt;
      Sum += *OpStep;
    }
    return Sum;
  }
  if (const auto *Mul = llvm::dyn_cast<llvm::SCEVMulExpr>(S)) {
    if (Mul->getNumOperands() != 2)
      return std::nullopt;
    const auto *C = llvm::dyn_cast<llvm::SCEVConstant>(Mul->getOperand(0));
    Step OpStep = linearStep(Mul->getOperand(1), Leaf);
    if (!C || !OpStep)
      return std::nullopt;
    return C->getAPInt().getSExtValue() * *OpStep;
  }
  return std::nullopt;
}

} // namespace

Step stepAlongLoop(const llvm::SCEV *S, const llvm::Loop &L,
                   llvm::ScalarEvolution &SE) {
  return linearStep(S, [&](const llvm::SCEV *X) -> std::optional<Step> {
    if (!llvm::SCEVExprContains(X, [&](const llvm::SCEV *E) {
          const auto *Rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(E);
          return Rec && Rec->getLoop() == &L;
        }))
      return Step(0);
    const auto *Rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(X);
    if (!Rec)
      return std::nullopt;
    const auto *C =
        llvm::dyn_cast<llvm::SCEVConstant>(Rec->getStepRecurrence(SE));
    if (Rec->getLoop() != &L || !Rec->isAffine() || !C)
      return Step();
    return Step(C->getAPInt().getSExtValue());
  });
}

Step stepAlongLocalIdX(const llvm::SCEV *S,
                       const llvm::DenseSet<const llvm::Value *> &OnX,
                       llvm::ScalarEvolution &SE) {
  auto DependsOnX = [&](const llvm::SCEV *X) {
    return llvm::SCEVExprContains(X, [&](const llvm::SCEV *E) {
      const auto *U = llvm::dyn_cast<llvm::SCEVUnknown>(E);
      return U && OnX.contains(U->getValue());
    });
  };
  return linearStep(S, [&](const llvm::SCEV *X) -> std::optional<Step> {
    if (!DependsOnX(X))
      return Step(0);
    if (const auto *U = llvm::dyn_cast<llvm::SCEVUnknown>(X)) {
      const auto *I = llvm::dyn_cast<llvm::Instruction>(U->getValue());
      int Dim = I ? localIdPlaceholderDim(*I) : -1;
      return Dim == 0 || Dim == 3 ? Step(1) : Step();
    }
    if (const auto *Rec = llvm::dyn_cast<llvm::SCEVAddRecExpr>(X)) {
      if (!Rec->isAffine() || DependsOnX(Rec->getStepRecurrence(SE)))
        return Step();
      return stepAlongLocalIdX(Rec->getStart(), OnX, SE);
    }
    return std::nullopt;
  });
}

} // namespace kc
