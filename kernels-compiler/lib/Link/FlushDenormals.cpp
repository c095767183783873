//===- Link/FlushDenormals.cpp - Denormal arguments of libm calls ---------===//
//
// Under -cl-denorms-are-zero the work-group function runs with MXCSR's FTZ
// and DAZ set. Some of glibc's scalar functions read the bits of their
// argument (a denormal is seen as such) and then compute with it in
// floating point (where DAZ reads it as zero): logf(denorm_min) gave
// -103.97, neither the -inf of zero nor the logarithm of the denormal;
// log2, pow, atan2 (NaN for two denormals), nextafter and lgamma_r went
// wrong the same way, for float and double (docs/conformance.md). The
// specification lets denormal inputs be flushed to zero in that mode, so
// the arguments of every call that reaches libm are flushed first, in the
// functions whose denormal mode flushes, and only there: the default mode
// keeps its code as it was.
//
//===----------------------------------------------------------------------===//
#include "Builtins/BuiltinLibrary.h"
#include "Link/Link.h"

#include <llvm/ADT/APFloat.h>
#include <llvm/ADT/APInt.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

namespace kc {

namespace {

// The math intrinsics that x86-64 code generation turns into libm calls.
bool becomesLibmCall(llvm::Intrinsic::ID ID) {
  switch (ID) {
  case llvm::Intrinsic::sin:
  case llvm::Intrinsic::cos:
  case llvm::Intrinsic::tan:
  case llvm::Intrinsic::asin:
  case llvm::Intrinsic::acos:
  case llvm::Intrinsic::atan:
  case llvm::Intrinsic::sinh:
  case llvm::Intrinsic::cosh:
  case llvm::Intrinsic::tanh:
  case llvm::Intrinsic::exp:
  case llvm::Intrinsic::exp2:
  case llvm::Intrinsic::exp10:
  case llvm::Intrinsic::log:
  case llvm::Intrinsic::log2:
  case llvm::Intrinsic::log10:
  case llvm::Intrinsic::pow:
  case llvm::Intrinsic::ldexp:
  case llvm::Intrinsic::frexp:
    return true;
  default:
    return false;
  }
}

bool reachesLibm(const llvm::CallInst &Call) {
  const llvm::Function *Callee = Call.getCalledFunction();
  if (!Callee)
    return false;
  if (Callee->isIntrinsic())
    return becomesLibmCall(Callee->getIntrinsicID());
  return Callee->isDeclaration() && isHostLibraryFunction(Callee->getName());
}

// X, or the zero of its sign when X is denormal, with integer operations:
// a floating-point form could be simplified back into X, since the
// function's denormal mode already says that X may be read as zero.
llvm::Value *flushDenormal(llvm::IRBuilder<> &B, llvm::Value *X) {
  llvm::Type *Ty = X->getType();
  const llvm::fltSemantics &Semantics = Ty->getScalarType()->getFltSemantics();
  unsigned Bits = llvm::APFloat::getSizeInBits(Semantics);
  llvm::Type *IntTy = Ty->getWithNewType(B.getIntNTy(Bits));
  llvm::Value *Word = B.CreateBitCast(X, IntTy);
  llvm::Value *Exponent = B.CreateAnd(
      Word, llvm::ConstantInt::get(
                IntTy, llvm::APFloat::getInf(Semantics).bitcastToAPInt()));
  llvm::Value *ZeroOrDenormal =
      B.CreateICmpEQ(Exponent, llvm::Constant::getNullValue(IntTy));
  llvm::Value *Sign = B.CreateAnd(
      Word, llvm::ConstantInt::get(IntTy, llvm::APInt::getSignMask(Bits)));
  return B.CreateBitCast(B.CreateSelect(ZeroOrDenormal, Sign, Word), Ty);
}

bool flushes(const llvm::Function &F, llvm::Type *Ty) {
  llvm::Type *Scalar = Ty->getScalarType();
  if (!Scalar->isFloatTy() && !Scalar->isDoubleTy())
    return false;
  return F.getDenormalMode(Scalar->getFltSemantics()).Input !=
         llvm::DenormalMode::IEEE;
}

} // namespace

void flushLibmDenormalArguments(llvm::Module &M) {
  for (llvm::Function &F : M) {
    if (F.isDeclaration())
      continue;
    for (llvm::BasicBlock &BB : F)
      for (llvm::Instruction &I : BB) {
        // frem becomes a call of fmod/fmodf.
        auto *Call = llvm::dyn_cast<llvm::CallInst>(&I);
        if (!(Call && reachesLibm(*Call)) &&
            I.getOpcode() != llvm::Instruction::FRem)
          continue;
        llvm::IRBuilder<> B(&I);
        for (llvm::Use &Operand : Call ? Call->args() : I.operands())
          if (flushes(F, Operand->getType()))
            Operand.set(flushDenormal(B, Operand.get()));
      }
  }
}

} // namespace kc
