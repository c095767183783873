//===- Spirv/SpirvArithmetic.cpp - Arithmetic and comparisons -------------===//
//
// Integer and floating-point arithmetic, bit operations, the integer dot
// product (SPV_KHR_integer_dot_product), comparisons and selections.
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

namespace kc::spirv {

using spv::Op;

bool Builder::translateArithmetic(const Instruction &I) {
  using BO = llvm::Instruction::BinaryOps;
  llvm::Value *V = nullptr;
  switch (I.Opcode) {
  case Op::OpSNegate:
    V = B.CreateNeg(integer(I[2]));
    break;
  case Op::OpFNegate:
    V = B.CreateFNeg(floating(I[2]));
    break;
  case Op::OpNot:
    V = B.CreateNot(integer(I[2]));
    break;
  case Op::OpIAdd:
    V = binary(I, BO::Add);
    break;
  case Op::OpFAdd:
    V = binary(I, BO::FAdd);
    break;
  case Op::OpISub:
    V = binary(I, BO::Sub);
    break;
  case Op::OpFSub:
    V = binary(I, BO::FSub);
    break;
  case Op::OpIMul:
    V = binary(I, BO::Mul);
    break;
  case Op::OpFMul:
    V = binary(I, BO::FMul);
    break;
  case Op::OpUDiv:
    V = binary(I, BO::UDiv);
    break;
  case Op::OpSDiv:
    V = binary(I, BO::SDiv);
    break;
  case Op::OpFDiv:
    V = binary(I, BO::FDiv);
    break;
  case Op::OpUMod:
    V = binary(I, BO::URem);
    break;
  case Op::OpSRem:
    V = binary(I, BO::SRem);
    break;
  case Op::OpFRem:
    V = binary(I, BO::FRem);
    break;
  case Op::OpSMod: { // the sign of the divisor
    llvm::Value *R = binary(I, BO::SRem), *D = value(I[3]);
    llvm::Value *Zero = llvm::Constant::getNullValue(R->getType());
    llvm::Value *Fix = B.CreateAnd(B.CreateICmpNE(R, Zero),
                                   B.CreateICmpSLT(B.CreateXor(R, D), Zero));
    V = B.CreateSelect(Fix, B.CreateAdd(R, D), R);
    break;
  }
  case Op::OpFMod: { // the sign of the divisor
    llvm::Value *R = binary(I, BO::FRem), *D = value(I[3]);
    llvm::Value *Zero = llvm::Constant::getNullValue(R->getType());
    llvm::Value *Fix = B.CreateAnd(
        B.CreateFCmpUNE(R, Zero),
        B.CreateXor(B.CreateFCmpOLT(R, Zero), B.CreateFCmpOLT(D, Zero)));
    V = B.CreateSelect(Fix, B.CreateFAdd(R, D), R);
    break;
  }
  case Op::OpVectorTimesScalar: {
    llvm::Value *Vec = floating(I[2]);
    if (floating(I[3])->getType() != Vec->getType()->getScalarType())
      fail("OpVectorTimesScalar of a scalar of another type");
    V = B.CreateFMul(
        Vec,
        B.CreateVectorSplat(vectorTypeOf(Vec)->getNumElements(), value(I[3])));
    break;
  }
  case Op::OpShiftLeftLogical:
    V = binary(I, BO::Shl);
    break;
  case Op::OpShiftRightLogical:
    V = binary(I, BO::LShr);
    break;
  case Op::OpShiftRightArithmetic:
    V = binary(I, BO::AShr);
    break;
  case Op::OpBitwiseAnd:
  case Op::OpLogicalAnd:
    V = binary(I, BO::And);
    break;
  case Op::OpBitwiseOr:
  case Op::OpLogicalOr:
    V = binary(I, BO::Or);
    break;
  case Op::OpBitwiseXor:
  case Op::OpLogicalNotEqual:
    V = binary(I, BO::Xor);
    break;
  case Op::OpLogicalEqual:
    V = binary(I, BO::Xor);
    V = B.CreateNot(V);
    break;
  case Op::OpLogicalNot:
    V = B.CreateNot(integer(I[2]));
    break;
  case Op::OpBitCount:
    V = B.CreateUnaryIntrinsic(llvm::Intrinsic::ctpop, integer(I[2]));
    V = resizeInt(V, llvmType(I[0]), false);
    break;
  case Op::OpBitReverse:
    V = B.CreateUnaryIntrinsic(llvm::Intrinsic::bitreverse, integer(I[2]));
    break;
  case Op::OpDot: {
    vectorTypeOf(value(I[2]));
    llvm::Value *P = binary(I, llvm::Instruction::FMul);
    V = B.CreateExtractElement(P, uint64_t(0));
    const unsigned N = vectorTypeOf(P)->getNumElements();
    for (unsigned E = 1; E < N; ++E)
      V = B.CreateFAdd(V, B.CreateExtractElement(P, E));
    break;
  }
  case Op::OpSDot:
  case Op::OpUDot:
  case Op::OpSUDot:
  case Op::OpSDotAccSat:
  case Op::OpUDotAccSat:
  case Op::OpSUDotAccSat:
    V = integerDot(I);
    break;
  default:
    return false;
  }
  decorateResult(I[1], V);
  define(I[1], I[0], V);
  return true;
}

// SPV_KHR_integer_dot_product: the products of the (sign- or zero-)
// extended components summed in the result's width; the packed form takes
// four 8-bit components in a 32-bit integer; the AccSat forms add the
// accumulator with saturation.
llvm::Value *Builder::integerDot(const Instruction &I) {
  const bool Acc = I.Opcode == Op::OpSDotAccSat ||
                   I.Opcode == Op::OpUDotAccSat ||
                   I.Opcode == Op::OpSUDotAccSat;
  const bool SignedA = I.Opcode != Op::OpUDot && I.Opcode != Op::OpUDotAccSat;
  const bool SignedB = I.Opcode == Op::OpSDot || I.Opcode == Op::OpSDotAccSat;
  llvm::Type *Ret = llvmType(I[0]);
  if (!Ret->isIntegerTy())
    fail("an integer dot product of a type that is not an integer");
  llvm::Value *A = integer(I[2]), *Bv = integer(I[3]);
  if (A->getType() != Bv->getType())
    fail("an integer dot product of operands of different types");
  if (!A->getType()->isVectorTy()) { // 4x8BitPacked
    if (!A->getType()->isIntegerTy(32))
      fail("a packed integer dot product of a type that is not 32-bit");
    auto *V4 = llvm::FixedVectorType::get(B.getInt8Ty(), 4);
    A = B.CreateBitCast(A, V4);
    Bv = B.CreateBitCast(Bv, V4);
  }
  auto *VT = vectorTypeOf(A);
  auto *Wide = llvm::FixedVectorType::get(
      B.getIntNTy(
          std::max(Ret->getIntegerBitWidth(), VT->getScalarSizeInBits())),
      VT->getNumElements());
  llvm::Value *EA = SignedA ? B.CreateSExt(A, Wide) : B.CreateZExt(A, Wide);
  llvm::Value *EB = SignedB ? B.CreateSExt(Bv, Wide) : B.CreateZExt(Bv, Wide);
  llvm::Value *Sum = B.CreateAddReduce(B.CreateMul(EA, EB));
  Sum = B.CreateTrunc(Sum, Ret);
  if (!Acc)
    return Sum;
  llvm::Value *Accumulator = integer(I[4]);
  if (Accumulator->getType() != Ret)
    fail("an integer dot product's accumulator of another type");
  return B.CreateBinaryIntrinsic(SignedA ? llvm::Intrinsic::sadd_sat
                                         : llvm::Intrinsic::uadd_sat,
                                 Sum, Accumulator);
}

bool Builder::translateComparison(const Instruction &I) {
  using P = llvm::CmpInst::Predicate;
  P Pred = P::BAD_ICMP_PREDICATE;
  switch (I.Opcode) {
  case Op::OpIEqual:
    Pred = P::ICMP_EQ;
    break;
  case Op::OpINotEqual:
    Pred = P::ICMP_NE;
    break;
  case Op::OpUGreaterThan:
    Pred = P::ICMP_UGT;
    break;
  case Op::OpSGreaterThan:
    Pred = P::ICMP_SGT;
    break;
  case Op::OpUGreaterThanEqual:
    Pred = P::ICMP_UGE;
    break;
  case Op::OpSGreaterThanEqual:
    Pred = P::ICMP_SGE;
    break;
  case Op::OpULessThan:
    Pred = P::ICMP_ULT;
    break;
  case Op::OpSLessThan:
    Pred = P::ICMP_SLT;
    break;
  case Op::OpULessThanEqual:
    Pred = P::ICMP_ULE;
    break;
  case Op::OpSLessThanEqual:
    Pred = P::ICMP_SLE;
    break;
  case Op::OpFOrdEqual:
    Pred = P::FCMP_OEQ;
    break;
  case Op::OpFUnordEqual:
    Pred = P::FCMP_UEQ;
    break;
  case Op::OpFOrdNotEqual:
    Pred = P::FCMP_ONE;
    break;
  case Op::OpFUnordNotEqual:
    Pred = P::FCMP_UNE;
    break;
  case Op::OpFOrdLessThan:
    Pred = P::FCMP_OLT;
    break;
  case Op::OpFUnordLessThan:
    Pred = P::FCMP_ULT;
    break;
  case Op::OpFOrdGreaterThan:
    Pred = P::FCMP_OGT;
    break;
  case Op::OpFUnordGreaterThan:
    Pred = P::FCMP_UGT;
    break;
  case Op::OpFOrdLessThanEqual:
    Pred = P::FCMP_OLE;
    break;
  case Op::OpFUnordLessThanEqual:
    Pred = P::FCMP_ULE;
    break;
  case Op::OpFOrdGreaterThanEqual:
    Pred = P::FCMP_OGE;
    break;
  case Op::OpFUnordGreaterThanEqual:
    Pred = P::FCMP_UGE;
    break;
  case Op::OpLessOrGreater:
    Pred = P::FCMP_ONE;
    break;
  case Op::OpOrdered:
    Pred = P::FCMP_ORD;
    break;
  case Op::OpUnordered:
    Pred = P::FCMP_UNO;
    break;
  default:
    break;
  }
  llvm::Value *V = nullptr;
  if (Pred != P::BAD_ICMP_PREDICATE) {
    llvm::Type *L = value(I[2])->getType();
    if (L != value(I[3])->getType() ||
        (llvm::CmpInst::isFPPredicate(Pred)
             ? !L->isFPOrFPVectorTy()
             : !(L->isIntOrIntVectorTy() || L->isPtrOrPtrVectorTy())))
      fail(spirvOpcodeName(static_cast<uint32_t>(I.Opcode)) +
           " of operands of the wrong types");
    V = llvm::CmpInst::isFPPredicate(Pred)
            ? B.CreateFCmp(Pred, value(I[2]), value(I[3]))
            : B.CreateICmp(Pred, value(I[2]), value(I[3]));
  } else {
    auto FPClass = [&](unsigned Mask) {
      llvm::Value *X = floating(I[2]);
      return B.CreateIntrinsic(llvm::Intrinsic::is_fpclass, {X->getType()},
                               {X, B.getInt32(Mask)});
    };
    switch (I.Opcode) {
    case Op::OpIsNan:
      V = FPClass(llvm::fcNan);
      break;
    case Op::OpIsInf:
      V = FPClass(llvm::fcInf);
      break;
    case Op::OpIsFinite:
      V = FPClass(llvm::fcFinite);
      break;
    case Op::OpIsNormal:
      V = FPClass(llvm::fcNormal);
      break;
    case Op::OpSignBitSet:
      V = FPClass(llvm::fcNegative);
      break;
    case Op::OpAny:
    case Op::OpAll: {
      llvm::Value *X = integer(I[2]);
      if (!X->getType()->getScalarType()->isIntegerTy(1))
        fail("OpAny/OpAll of a value that is not boolean");
      V = !X->getType()->isVectorTy() ? X
          : I.Opcode == Op::OpAny     ? B.CreateOrReduce(X)
                                      : B.CreateAndReduce(X);
      break;
    }
    case Op::OpSelect: {
      llvm::Value *Cond = value(I[2]), *T = value(I[3]), *F = value(I[4]);
      if (T->getType() != F->getType() ||
          !Cond->getType()->getScalarType()->isIntegerTy(1) ||
          (Cond->getType()->isVectorTy() &&
           (!T->getType()->isVectorTy() ||
            vectorTypeOf(Cond)->getNumElements() !=
                vectorTypeOf(T)->getNumElements())))
        fail("OpSelect of operands of the wrong types");
      V = B.CreateSelect(Cond, T, F);
      break;
    }
    default:
      return false;
    }
  }
  define(I[1], I[0], V);
  return true;
}

} // namespace kc::spirv
