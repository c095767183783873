//===- Passes/SafeDivision.cpp - Integer division that never traps --------===//
//
// OpenCL C leaves x / 0, x % 0 and INT_MIN / -1 undefined, but on x86-64
// the idiv/div instructions trap (SIGFPE) and would kill the application.
// Every sdiv, udiv, srem and urem (scalars and vectors) whose divisor is not
// a constant known to be safe gets its divisor replaced by 1 in those cases:
//
//   udiv/urem x, d  ->  udiv/urem x, select(d == 0, 1, d)
//   sdiv/srem x, d  ->  sdiv/srem x, select(d == 0 | (d == -1 & x == MIN), 1,
//   d)
//
// A compare and a select per division, no branch: the work-item loops still
// vectorize (the division itself is scalarized as before: x86 has no vector
// integer division). x / 0 then gives x, INT_MIN / -1 gives INT_MIN (the
// wrapped quotient) and INT_MIN % -1 gives 0.
//
//===----------------------------------------------------------------------===//
#include "Passes/Passes.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>

namespace kc {

namespace {

// A constant divisor of which no element is 0 (nor -1 when signed).
bool isSafeConstantDivisor(const llvm::Value *Divisor, bool Signed) {
  const auto *C = llvm::dyn_cast<llvm::Constant>(Divisor);
  if (!C)
    return false;
  auto IsSafe = [Signed](const llvm::Constant *Element) {
    const auto *CI = llvm::dyn_cast_or_null<llvm::ConstantInt>(Element);
    return CI && !CI->isZero() && !(Signed && CI->isMinusOne());
  };
  if (!C->getType()->isVectorTy())
    return IsSafe(C);
  const auto *VT = llvm::dyn_cast<llvm::FixedVectorType>(C->getType());
  if (!VT)
    return false;
  for (unsigned I = 0, E = VT->getNumElements(); I != E; ++I)
    if (!IsSafe(C->getAggregateElement(I)))
      return false;
  return true;
}

void makeSafe(llvm::BinaryOperator &Div) {
  bool Signed = Div.getOpcode() == llvm::Instruction::SDiv ||
                Div.getOpcode() == llvm::Instruction::SRem;
  llvm::Value *Dividend = Div.getOperand(0);
  llvm::Value *Divisor = Div.getOperand(1);
  llvm::Type *Ty = Divisor->getType();
  llvm::IRBuilder<> B(&Div);
  llvm::Value *Bad =
      B.CreateICmpEQ(Divisor, llvm::Constant::getNullValue(Ty), "div.by.zero");
  if (Signed) {
    unsigned Bits = Ty->getScalarSizeInBits();
    llvm::Value *MinusOne =
        B.CreateICmpEQ(Divisor, llvm::Constant::getAllOnesValue(Ty));
    llvm::Value *Min = B.CreateICmpEQ(
        Dividend,
        llvm::ConstantInt::get(Ty, llvm::APInt::getSignedMinValue(Bits)));
    Bad = B.CreateOr(Bad, B.CreateAnd(MinusOne, Min), "div.overflow");
  }
  llvm::Value *Safe = B.CreateSelect(Bad, llvm::ConstantInt::get(Ty, 1),
                                     Divisor, "safe.divisor");
  Div.setOperand(1, Safe);
}

} // namespace

llvm::PreservedAnalyses SafeDivisionPass::run(llvm::Function &F,
                                              llvm::FunctionAnalysisManager &) {
  llvm::SmallVector<llvm::BinaryOperator *, 8> Divisions;
  for (llvm::Instruction &I : llvm::instructions(F)) {
    auto *Div = llvm::dyn_cast<llvm::BinaryOperator>(&I);
    if (!Div)
      continue;
    switch (Div->getOpcode()) {
    case llvm::Instruction::UDiv:
    case llvm::Instruction::URem:
      if (!isSafeConstantDivisor(Div->getOperand(1), false))
        Divisions.push_back(Div);
      break;
    case llvm::Instruction::SDiv:
    case llvm::Instruction::SRem:
      if (!isSafeConstantDivisor(Div->getOperand(1), true))
        Divisions.push_back(Div);
      break;
    default:
      break;
    }
  }
  for (llvm::BinaryOperator *Div : Divisions)
    makeSafe(*Div);
  if (Divisions.empty())
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses PA;
  PA.preserveSet<llvm::CFGAnalyses>();
  return PA;
}

} // namespace kc
