//===- Spirv/SpirvInstructions.cpp - Instructions in function bodies ------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

namespace kc::spirv {

using spv::Op;

namespace {

llvm::AtomicOrdering orderingOf(uint32_t Semantics) {
  if (Semantics & 0x10)
    return llvm::AtomicOrdering::SequentiallyConsistent;
  if (Semantics & 0x8)
    return llvm::AtomicOrdering::AcquireRelease;
  if ((Semantics & 0x6) == 0x6)
    return llvm::AtomicOrdering::AcquireRelease;
  if (Semantics & 0x2)
    return llvm::AtomicOrdering::Acquire;
  if (Semantics & 0x4)
    return llvm::AtomicOrdering::Release;
  return llvm::AtomicOrdering::Monotonic;
}

llvm::AtomicOrdering forLoad(llvm::AtomicOrdering O) {
  if (O == llvm::AtomicOrdering::Release)
    return llvm::AtomicOrdering::Monotonic;
  if (O == llvm::AtomicOrdering::AcquireRelease)
    return llvm::AtomicOrdering::Acquire;
  return O;
}

llvm::AtomicOrdering forStore(llvm::AtomicOrdering O) {
  if (O == llvm::AtomicOrdering::Acquire)
    return llvm::AtomicOrdering::Monotonic;
  if (O == llvm::AtomicOrdering::AcquireRelease)
    return llvm::AtomicOrdering::Release;
  return O;
}

} // namespace

void Builder::decorateResult(uint32_t Id, llvm::Value *V) {
  auto *I = llvm::dyn_cast<llvm::Instruction>(V);
  if (!I)
    return;
  const std::vector<Decoration> *Ds = Spirv.decorations(Id);
  if (!Ds)
    return;
  for (const Decoration &D : *Ds) {
    if (D.Kind == spv::Decoration::NoSignedWrap &&
        llvm::isa<llvm::OverflowingBinaryOperator>(I))
      I->setHasNoSignedWrap(true);
    else if (D.Kind == spv::Decoration::NoUnsignedWrap &&
             llvm::isa<llvm::OverflowingBinaryOperator>(I))
      I->setHasNoUnsignedWrap(true);
    else if (D.Kind == spv::Decoration::FPFastMathMode && !D.Args.empty() &&
             llvm::isa<llvm::FPMathOperator>(I)) {
      const uint32_t Mode = D.Args[0];
      llvm::FastMathFlags FMF;
      if (Mode & 0x10) // Fast
        FMF.setFast();
      FMF.setNoNaNs(Mode & 0x1);
      FMF.setNoInfs(Mode & 0x2);
      FMF.setNoSignedZeros(Mode & 0x4);
      FMF.setAllowReciprocal(Mode & 0x8);
      if (Mode & 0x10)
        FMF.setFast();
      I->setFastMathFlags(FMF);
    }
  }
}

llvm::Value *Builder::binary(const Instruction &I,
                             llvm::Instruction::BinaryOps Op) {
  llvm::Value *L = value(I[2]), *R = value(I[3]);
  if (Op == llvm::Instruction::Shl || Op == llvm::Instruction::LShr ||
      Op == llvm::Instruction::AShr) {
    if (R->getType() != L->getType()) {
      if (L->getType()->isVectorTy() && !R->getType()->isVectorTy())
        R = B.CreateVectorSplat(
            llvm::cast<llvm::FixedVectorType>(L->getType())->getNumElements(),
            R);
      R = resizeInt(R, L->getType(), false);
    }
  }
  if (L->getType() != R->getType())
    fail(spirvOpcodeName(static_cast<uint32_t>(I.Opcode)) +
         " of operands of different types");
  const bool FP =
      Op == llvm::Instruction::FAdd || Op == llvm::Instruction::FSub ||
      Op == llvm::Instruction::FMul || Op == llvm::Instruction::FDiv ||
      Op == llvm::Instruction::FRem;
  if (FP ? !L->getType()->isFPOrFPVectorTy()
         : !L->getType()->isIntOrIntVectorTy())
    fail(spirvOpcodeName(static_cast<uint32_t>(I.Opcode)) +
         " of operands of the wrong type");
  return B.CreateBinOp(Op, L, R);
}

llvm::Value *Builder::castTo(llvm::Instruction::CastOps Op, llvm::Value *V,
                             llvm::Type *To) {
  if (V->getType() == To && Op != llvm::Instruction::AddrSpaceCast)
    return V;
  if (!llvm::CastInst::castIsValid(Op, V->getType(), To))
    fail("a conversion between types it does not apply to");
  return B.CreateCast(Op, V, To);
}

// An integer (vector) to the integer type To: extended (signed or not),
// truncated, or kept.
llvm::Value *Builder::resizeInt(llvm::Value *V, llvm::Type *To, bool Signed) {
  const unsigned From = V->getType()->getScalarSizeInBits();
  const unsigned Want = To->getScalarSizeInBits();
  if (!V->getType()->isIntOrIntVectorTy() || !To->isIntOrIntVectorTy())
    fail("an integer conversion of a value that is not an integer");
  if (From == Want)
    return castTo(llvm::Instruction::BitCast, V, To);
  return castTo(From > Want ? llvm::Instruction::Trunc
                : Signed    ? llvm::Instruction::SExt
                            : llvm::Instruction::ZExt,
                V, To);
}

llvm::FixedVectorType *Builder::vectorTypeOf(llvm::Value *V) {
  auto *VT = llvm::dyn_cast<llvm::FixedVectorType>(V->getType());
  if (!VT)
    fail("a vector operand is expected");
  return VT;
}

llvm::Value *Builder::integer(uint32_t Id) {
  llvm::Value *V = value(Id);
  if (!V->getType()->isIntOrIntVectorTy())
    fail("id " + std::to_string(Id) + " is not an integer");
  return V;
}

llvm::Value *Builder::floating(uint32_t Id) {
  llvm::Value *V = value(Id);
  if (!V->getType()->isFPOrFPVectorTy())
    fail("id " + std::to_string(Id) + " is not a floating-point value");
  return V;
}

llvm::Value *Builder::pointer(uint32_t Id) {
  llvm::Value *P = value(Id);
  if (!P->getType()->isPointerTy())
    fail("id " + std::to_string(Id) + " is not a pointer");
  return P;
}

llvm::Value *Builder::call(const std::string &Name, llvm::Type *Ret,
                           llvm::ArrayRef<llvm::Value *> Args) {
  std::vector<llvm::Type *> Params;
  for (llvm::Value *A : Args)
    Params.push_back(A->getType());
  llvm::FunctionCallee Callee =
      M.getOrInsertFunction(Name, llvm::FunctionType::get(Ret, Params, false));
  auto *F = llvm::dyn_cast<llvm::Function>(Callee.getCallee());
  if (!F || F->getFunctionType() != Callee.getFunctionType())
    fail("the builtin " + Name + " is called with two different signatures");
  F->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  F->setDoesNotThrow();
  llvm::CallInst *Call = B.CreateCall(Callee, Args);
  Call->setCallingConv(llvm::CallingConv::SPIR_FUNC);
  return Call;
}

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

// A float type (scalar or vector) with the shape of TypeId, made up for
// the reader when the module has none.
uint32_t Builder::floatTypeLike(uint32_t TypeId) {
  const Type &T = type(TypeId);
  const uint32_t Count = T.Kind == Op::OpTypeVector ? T.Count : 0;
  for (uint32_t Id = 0; Id < Types.size(); ++Id) {
    const Type *U = Types[Id].get();
    if (!U)
      continue;
    if (!Count && U->Kind == Op::OpTypeFloat && U->Width == 32)
      return Id;
    if (Count && U->Kind == Op::OpTypeVector && U->Count == Count &&
        type(U->Element).Kind == Op::OpTypeFloat &&
        type(U->Element).Width == 32)
      return Id;
  }
  auto Made = std::make_unique<Type>();
  Made->Kind = Count ? Op::OpTypeVector : Op::OpTypeFloat;
  Made->Width = 32;
  Made->Count = Count;
  if (Count)
    Made->Element = floatTypeLike(T.Element);
  Made->LLVM = Count ? static_cast<llvm::Type *>(
                           llvm::FixedVectorType::get(B.getFloatTy(), Count))
                     : B.getFloatTy();
  Types.push_back(std::move(Made));
  return static_cast<uint32_t>(Types.size() - 1);
}

// A conversion under SaturatedConversion or FPRoundingMode: OpenCL C's
// convert_<type>[_sat][_<mode>] from the builtin library.
llvm::Value *Builder::convertWithBuiltin(const Instruction &I, bool SrcSigned,
                                         bool DstSigned) {
  const Decoration *Sat =
      Spirv.decoration(I[1], spv::Decoration::SaturatedConversion);
  const Decoration *Rounding =
      Spirv.decoration(I[1], spv::Decoration::FPRoundingMode);
  if (!Sat && !Rounding)
    return nullptr;
  static const char *const Modes[] = {"_rte", "_rtz", "_rtp", "_rtn"};
  std::string Name = "convert_" + typeName(I[0], DstSigned);
  if (Sat)
    Name += "_sat";
  if (Rounding && !Rounding->Args.empty() && Rounding->Args[0] < 4)
    Name += Modes[Rounding->Args[0]];
  uint32_t SrcType = typeOf(I[2]);
  llvm::Value *Src = value(I[2]);
  // The library converts from float, not half: half to float is exact.
  if (Src->getType()->getScalarType()->isHalfTy()) {
    SrcType = floatTypeLike(SrcType);
    Src = castTo(llvm::Instruction::FPExt, Src, llvmType(SrcType));
  }
  return call(mangle(Name, {SrcType}, {SrcSigned ? 1 : 0}), llvmType(I[0]),
              {Src});
}

bool Builder::translateConversion(const Instruction &I) {
  switch (I.Opcode) {
  case Op::OpConvertFToU:
  case Op::OpConvertFToS:
  case Op::OpConvertSToF:
  case Op::OpConvertUToF:
  case Op::OpUConvert:
  case Op::OpSConvert:
  case Op::OpFConvert:
  case Op::OpSatConvertSToU:
  case Op::OpSatConvertUToS:
  case Op::OpConvertPtrToU:
  case Op::OpConvertUToPtr:
  case Op::OpPtrCastToGeneric:
  case Op::OpGenericCastToPtr:
  case Op::OpGenericCastToPtrExplicit:
  case Op::OpBitcast:
    break;
  default:
    return false;
  }
  llvm::Type *To = llvmType(I[0]);
  llvm::Value *V = nullptr;
  switch (I.Opcode) {
  case Op::OpConvertFToU:
    if (!(V = convertWithBuiltin(I, true, false)))
      V = castTo(llvm::Instruction::FPToUI, value(I[2]), To);
    break;
  case Op::OpConvertFToS:
    if (!(V = convertWithBuiltin(I, true, true)))
      V = castTo(llvm::Instruction::FPToSI, value(I[2]), To);
    break;
  case Op::OpConvertSToF:
    if (!(V = convertWithBuiltin(I, true, true)))
      V = castTo(llvm::Instruction::SIToFP, value(I[2]), To);
    break;
  case Op::OpConvertUToF:
    if (!(V = convertWithBuiltin(I, false, true)))
      V = castTo(llvm::Instruction::UIToFP, value(I[2]), To);
    break;
  case Op::OpUConvert:
    if (!(V = convertWithBuiltin(I, false, false)))
      V = resizeInt(value(I[2]), To, false);
    break;
  case Op::OpSConvert:
    if (!(V = convertWithBuiltin(I, true, true)))
      V = resizeInt(value(I[2]), To, true);
    break;
  case Op::OpFConvert:
    if (!(V = convertWithBuiltin(I, true, true))) {
      llvm::Value *From = value(I[2]);
      const unsigned FromBits = From->getType()->getScalarSizeInBits();
      const unsigned ToBits = To->getScalarSizeInBits();
      V = castTo(FromBits < ToBits   ? llvm::Instruction::FPExt
                 : FromBits > ToBits ? llvm::Instruction::FPTrunc
                                     : llvm::Instruction::BitCast,
                 From, To);
    }
    break;
  case Op::OpSatConvertSToU: {
    const uint32_t SrcType = typeOf(I[2]);
    V = call(
        mangle("convert_" + typeName(I[0], false) + "_sat", {SrcType}, {1}), To,
        {value(I[2])});
    break;
  }
  case Op::OpSatConvertUToS: {
    const uint32_t SrcType = typeOf(I[2]);
    V = call(mangle("convert_" + typeName(I[0], true) + "_sat", {SrcType}, {0}),
             To, {value(I[2])});
    break;
  }
  case Op::OpConvertPtrToU:
    V = castTo(llvm::Instruction::PtrToInt, value(I[2]), To);
    break;
  case Op::OpConvertUToPtr:
    V = castTo(llvm::Instruction::IntToPtr, value(I[2]), To);
    break;
  case Op::OpPtrCastToGeneric:
  case Op::OpGenericCastToPtr:
  case Op::OpGenericCastToPtrExplicit:
    V = castTo(llvm::Instruction::AddrSpaceCast, value(I[2]), To);
    break;
  case Op::OpBitcast: {
    llvm::Value *From = value(I[2]);
    if (From->getType() == To)
      V = From;
    else if (From->getType()->isPointerTy() && To->isPointerTy())
      V = castTo(llvm::Instruction::AddrSpaceCast, From, To);
    else if (From->getType()->isPointerTy())
      V = castTo(llvm::Instruction::BitCast,
                 castTo(llvm::Instruction::PtrToInt, From, B.getInt64Ty()), To);
    else if (To->isPointerTy())
      V = castTo(llvm::Instruction::IntToPtr,
                 castTo(llvm::Instruction::BitCast, From, B.getInt64Ty()), To);
    else
      V = castTo(llvm::Instruction::BitCast, From, To);
    break;
  }
  default:
    return false;
  }
  define(I[1], I[0], V);
  return true;
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

namespace {

llvm::Value *extractAt(llvm::IRBuilder<> &B, llvm::Value *V,
                       llvm::ArrayRef<uint32_t> Indices) {
  for (uint32_t Index : Indices) {
    if (V->getType()->isVectorTy() &&
        Index <
            llvm::cast<llvm::FixedVectorType>(V->getType())->getNumElements())
      V = B.CreateExtractElement(V, B.getInt32(Index));
    else if (V->getType()->isAggregateType() &&
             llvm::ExtractValueInst::getIndexedType(V->getType(), Index))
      V = B.CreateExtractValue(V, Index);
    else
      fail("OpCompositeExtract indexes into a scalar");
  }
  return V;
}

llvm::Value *insertAt(llvm::IRBuilder<> &B, llvm::Value *Into,
                      llvm::Value *Part, llvm::ArrayRef<uint32_t> Indices) {
  if (Indices.empty())
    return Part;
  const uint32_t Index = Indices.front();
  if (Into->getType()->isVectorTy()) {
    if (Indices.size() != 1 ||
        Part->getType() != Into->getType()->getScalarType())
      fail("OpCompositeInsert of a value of the wrong type");
    return B.CreateInsertElement(Into, Part, B.getInt32(Index));
  }
  if (!Into->getType()->isAggregateType() ||
      !llvm::ExtractValueInst::getIndexedType(Into->getType(), Index))
    fail("OpCompositeInsert indexes into a scalar");
  llvm::Value *Inner = B.CreateExtractValue(Into, Index);
  llvm::Value *New = insertAt(B, Inner, Part, Indices.drop_front());
  if (New->getType() != Inner->getType())
    fail("OpCompositeInsert of a value of the wrong type");
  return B.CreateInsertValue(Into, New, Index);
}

} // namespace

bool Builder::translateComposite(const Instruction &I) {
  llvm::Value *V = nullptr;
  switch (I.Opcode) {
  case Op::OpCompositeExtract:
    (void)I[2];
    V = extractAt(
        B, value(I[2]),
        llvm::ArrayRef<uint32_t>(I.Ops.data(), I.Ops.size()).drop_front(3));
    break;
  case Op::OpCompositeInsert:
    (void)I[3];
    V = insertAt(
        B, value(I[3]), value(I[2]),
        llvm::ArrayRef<uint32_t>(I.Ops.data(), I.Ops.size()).drop_front(4));
    break;
  case Op::OpCompositeConstruct: {
    llvm::Type *Ty = llvmType(I[0]);
    V = llvm::PoisonValue::get(Ty);
    if (Ty->isVectorTy()) {
      unsigned At = 0;
      const unsigned N = vectorTypeOf(V)->getNumElements();
      for (size_t Op = 2; Op < I.size(); ++Op) {
        llvm::Value *Part = value(I[Op]);
        if (Part->getType()->getScalarType() != Ty->getScalarType() ||
            At + (Part->getType()->isVectorTy()
                      ? vectorTypeOf(Part)->getNumElements()
                      : 1) >
                N)
          fail("OpCompositeConstruct of parts of the wrong types");
        if (auto *PT = llvm::dyn_cast<llvm::FixedVectorType>(Part->getType())) {
          for (unsigned E = 0; E < PT->getNumElements(); ++E)
            V = B.CreateInsertElement(V, B.CreateExtractElement(Part, E),
                                      B.getInt32(At++));
        } else {
          V = B.CreateInsertElement(V, Part, B.getInt32(At++));
        }
      }
    } else {
      for (size_t Op = 2; Op < I.size(); ++Op) {
        llvm::Type *Member =
            llvm::ExtractValueInst::getIndexedType(Ty, unsigned(Op - 2));
        if (!Member || Member != value(I[Op])->getType())
          fail("OpCompositeConstruct of parts of the wrong types");
        V = B.CreateInsertValue(V, value(I[Op]), unsigned(Op - 2));
      }
    }
    break;
  }
  case Op::OpVectorExtractDynamic:
    vectorTypeOf(value(I[2]));
    V = B.CreateExtractElement(value(I[2]), integer(I[3]));
    break;
  case Op::OpVectorInsertDynamic:
    if (value(I[3])->getType() != vectorTypeOf(value(I[2]))->getElementType())
      fail("OpVectorInsertDynamic of a component of the wrong type");
    V = B.CreateInsertElement(value(I[2]), value(I[3]), integer(I[4]));
    break;
  case Op::OpVectorShuffle: {
    llvm::Value *A = value(I[2]), *Bv = value(I[3]);
    const int NA = int(vectorTypeOf(A)->getNumElements());
    const int NB = int(vectorTypeOf(Bv)->getNumElements());
    if (A->getType()->getScalarType() != Bv->getType()->getScalarType())
      fail("OpVectorShuffle of vectors of different element types");
    const int N = std::max(NA, NB);
    auto Widen = [&](llvm::Value *X, int Count) {
      if (Count == N)
        return X;
      std::vector<int> Mask(N, -1);
      for (int E = 0; E < Count; ++E)
        Mask[E] = E;
      return B.CreateShuffleVector(X, Mask);
    };
    A = Widen(A, NA);
    Bv = Widen(Bv, NB);
    std::vector<int> Mask;
    for (size_t Op = 4; Op < I.size(); ++Op) {
      const uint32_t E = I[Op];
      if (E == 0xffffffff)
        Mask.push_back(-1);
      else if (int(E) < NA)
        Mask.push_back(int(E));
      else if (int(E) < NA + NB)
        Mask.push_back(N + int(E) - NA);
      else
        fail("OpVectorShuffle selects a component out of range");
    }
    V = B.CreateShuffleVector(A, Bv, Mask);
    break;
  }
  case Op::OpCopyObject:
  case Op::OpCopyLogical:
    V = value(I[2]);
    break;
  case Op::OpUndef:
    V = llvm::UndefValue::get(llvmType(I[0]));
    break;
  case Op::OpSizeOf:
    V = llvm::ConstantInt::get(llvmType(I[0]),
                               M.getDataLayout().getTypeAllocSize(
                                   llvmType(type(typeOf(I[2])).Pointee)));
    break;
  default:
    return false;
  }
  define(I[1], I[0], V);
  return true;
}

bool Builder::translateMemory(const Instruction &I) {
  const llvm::DataLayout &DL = M.getDataLayout();
  // Memory operands: Volatile, Aligned <n>, Nontemporal, ...
  auto Access = [&](size_t At, llvm::Type *Ty, bool &Volatile) {
    llvm::Align Align = DL.getABITypeAlign(Ty);
    Volatile = false;
    if (At < I.size()) {
      const uint32_t Mask = I[At];
      Volatile = Mask & 0x1;
      if ((Mask & 0x2) && At + 1 < I.size() && I[At + 1] &&
          (I[At + 1] & (I[At + 1] - 1)) == 0)
        Align = llvm::Align(I[At + 1]);
    }
    return Align;
  };
  switch (I.Opcode) {
  case Op::OpVariable: {
    const Type &PtrType = type(I[0]);
    llvm::Type *Ty = llvmType(PtrType.Pointee);
    if (!Ty->isSized())
      fail("a variable of a type without a size");
    if (PtrType.Storage != static_cast<uint32_t>(spv::StorageClass::Function))
      fail("a variable in a function must have the Function storage class");
    llvm::IRBuilder<> Alloca(Entry, Entry->getFirstInsertionPt());
    llvm::AllocaInst *A = Alloca.CreateAlloca(Ty);
    if (const Decoration *D =
            Spirv.decoration(I[1], spv::Decoration::Alignment))
      if (!D->Args.empty() && D->Args[0] &&
          (D->Args[0] & (D->Args[0] - 1)) == 0)
        A->setAlignment(llvm::Align(D->Args[0]));
    define(I[1], I[0], A);
    if (I.size() > 3) {
      if (value(I[3])->getType() != Ty)
        fail("a variable's initializer of another type");
      B.CreateStore(value(I[3]), A);
    }
    return true;
  }
  case Op::OpLoad: {
    if (auto It = SamplerVars.find(I[2]); It != SamplerVars.end()) {
      define(I[1], I[0], samplerValue(It->second));
      return true;
    }
    llvm::Type *Ty = llvmType(I[0]);
    if (!Ty->isSized() || Ty->isVoidTy())
      fail("OpLoad of a type without a size");
    bool Volatile = false;
    llvm::Align Align = Access(3, Ty, Volatile);
    Volatile |= Spirv.has(I[2], spv::Decoration::Volatile);
    define(I[1], I[0], B.CreateAlignedLoad(Ty, pointer(I[2]), Align, Volatile));
    return true;
  }
  case Op::OpStore: {
    llvm::Value *V = value(I[1]);
    if (!V->getType()->isSized())
      fail("OpStore of a value without a size");
    bool Volatile = false;
    llvm::Align Align = Access(2, V->getType(), Volatile);
    Volatile |= Spirv.has(I[0], spv::Decoration::Volatile);
    B.CreateAlignedStore(V, pointer(I[0]), Align, Volatile);
    return true;
  }
  case Op::OpCopyMemory: {
    llvm::Type *Ty = llvmType(type(typeOf(I[1])).Pointee);
    B.CreateMemCpy(value(I[0]), DL.getABITypeAlign(Ty), value(I[1]),
                   DL.getABITypeAlign(Ty), DL.getTypeStoreSize(Ty));
    return true;
  }
  case Op::OpCopyMemorySized:
    B.CreateMemCpy(value(I[0]), llvm::MaybeAlign(), value(I[1]),
                   llvm::MaybeAlign(), value(I[2]));
    return true;
  case Op::OpAccessChain:
  case Op::OpInBoundsAccessChain:
  case Op::OpPtrAccessChain:
  case Op::OpInBoundsPtrAccessChain: {
    const bool Ptr = I.Opcode == Op::OpPtrAccessChain ||
                     I.Opcode == Op::OpInBoundsPtrAccessChain;
    const bool InBounds = I.Opcode == Op::OpInBoundsAccessChain ||
                          I.Opcode == Op::OpInBoundsPtrAccessChain;
    uint32_t Current = type(typeOf(I[2])).Pointee;
    llvm::Type *Base = llvmType(Current);
    std::vector<llvm::Value *> Indices;
    if (!Ptr)
      Indices.push_back(B.getInt64(0));
    for (size_t Op = 3; Op < I.size(); ++Op) {
      llvm::Value *Index = integer(I[Op]);
      if (Op == 3 && Ptr) {
        Indices.push_back(Index);
        continue;
      }
      const Type &T = type(Current);
      if (T.Kind == spv::Op::OpTypeStruct) {
        const uint64_t Member = constantInt(I[Op]);
        if (Member >= T.Members.size())
          fail("an access chain indexes past a struct's members");
        Indices.push_back(B.getInt32(static_cast<uint32_t>(Member)));
        Current = T.Members[Member];
      } else if (T.Element) {
        Indices.push_back(Index);
        Current = T.Element;
      } else {
        fail("an access chain indexes into a scalar");
      }
    }
    llvm::Value *P = pointer(I[2]);
    if (Indices.empty())
      define(I[1], I[0], P);
    else
      define(I[1], I[0],
             InBounds ? B.CreateInBoundsGEP(Base, P, Indices)
                      : B.CreateGEP(Base, P, Indices));
    return true;
  }
  case Op::OpPtrEqual:
    define(I[1], I[0], B.CreateICmpEQ(value(I[2]), value(I[3])));
    return true;
  case Op::OpPtrNotEqual:
    define(I[1], I[0], B.CreateICmpNE(value(I[2]), value(I[3])));
    return true;
  case Op::OpPtrDiff: {
    llvm::Type *Elem = llvmType(type(typeOf(I[2])).Pointee);
    llvm::Value *D = B.CreatePtrDiff(Elem, value(I[2]), value(I[3]));
    define(I[1], I[0], resizeInt(D, llvmType(I[0]), true));
    return true;
  }
  case Op::OpLifetimeStart:
  case Op::OpLifetimeStop:
    return true;
  default:
    return false;
  }
}

bool Builder::translateControl(const Instruction &I) {
  switch (I.Opcode) {
  case Op::OpPhi: {
    llvm::PHINode *Phi = B.CreatePHI(llvmType(I[0]), unsigned(I.size() / 2));
    Phis.push_back({Phi, &I});
    define(I[1], I[0], Phi);
    return true;
  }
  case Op::OpBranch:
    B.CreateBr(block(I[0]));
    return true;
  case Op::OpBranchConditional: {
    if (!value(I[0])->getType()->isIntegerTy(1))
      fail("OpBranchConditional on a value that is not a boolean");
    llvm::BranchInst *Br =
        B.CreateCondBr(value(I[0]), block(I[1]), block(I[2]));
    if (I.size() == 5 && (I[3] || I[4]))
      Br->setMetadata(llvm::LLVMContext::MD_prof,
                      llvm::MDBuilder(C).createBranchWeights(I[3], I[4]));
    return true;
  }
  case Op::OpSwitch: {
    llvm::Value *Selector = value(I[0]);
    if (!Selector->getType()->isIntegerTy())
      fail("OpSwitch on a value that is not an integer");
    const unsigned Width = Selector->getType()->getIntegerBitWidth();
    const size_t Step = Width > 32 ? 3 : 2;
    llvm::SwitchInst *S = B.CreateSwitch(Selector, block(I[1]));
    for (size_t At = 2; At + Step - 1 < I.size(); At += Step) {
      uint64_t Literal = I[At];
      if (Step == 3)
        Literal |= uint64_t(I[At + 1]) << 32;
      S->addCase(
          llvm::ConstantInt::get(
              llvm::cast<llvm::IntegerType>(Selector->getType()), Literal),
          block(I[At + Step - 1]));
    }
    return true;
  }
  case Op::OpReturn:
    B.CreateRetVoid();
    return true;
  case Op::OpReturnValue:
    B.CreateRet(value(I[0]));
    return true;
  case Op::OpUnreachable:
    B.CreateUnreachable();
    return true;
  case Op::OpLoopMerge:
    if (I[2] & 0x3)
      LoopControls.push_back({I[1], I[2]});
    return true;
  case Op::OpSelectionMerge:
  case Op::OpLine:
  case Op::OpNoLine:
  case Op::OpNop:
    return true;
  case Op::OpFunctionCall: {
    auto It = Functions.find(I[2]);
    if (It == Functions.end())
      fail("OpFunctionCall of an id that is not a function");
    std::vector<llvm::Value *> Args;
    for (size_t At = 3; At < I.size(); ++At)
      Args.push_back(value(I[At]));
    llvm::Function *Callee = It->second;
    if (Args.size() != Callee->arg_size())
      fail("OpFunctionCall with the wrong number of arguments");
    for (size_t A = 0; A < Args.size(); ++A)
      if (Args[A]->getType() != Callee->getArg(unsigned(A))->getType())
        fail("OpFunctionCall with an argument of the wrong type");
    llvm::CallInst *Call = B.CreateCall(Callee, Args);
    Call->setCallingConv(Callee->getCallingConv());
    Call->setConvergent();
    define(I[1], I[0], Call);
    return true;
  }
  case Op::OpControlBarrier: {
    const uint32_t Semantics = static_cast<uint32_t>(constantInt(I[2]));
    uint32_t Flags = 0;
    if (Semantics & 0x100)
      Flags |= 1; // CLK_LOCAL_MEM_FENCE
    if (Semantics & 0x200)
      Flags |= 2; // CLK_GLOBAL_MEM_FENCE
    if (Semantics & 0x800)
      Flags |= 4; // CLK_IMAGE_MEM_FENCE
    // Convergent, as Clang declares it: no transform may make a barrier
    // depend on a condition (jump threading would copy it into branches).
    auto *Barrier = llvm::cast<llvm::CallInst>(
        call("_Z7barrierj", B.getVoidTy(), {B.getInt32(Flags)}));
    Barrier->getCalledFunction()->setConvergent();
    Barrier->setConvergent();
    return true;
  }
  case Op::OpMemoryBarrier:
    if (constantInt(I[1]) & 0x1f)
      B.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
    return true;
  case Op::OpExpectKHR:
    if (integer(I[2])->getType() != integer(I[3])->getType() ||
        value(I[2])->getType() != llvmType(I[0]))
      fail("OpExpectKHR of operands of the wrong types");
    define(I[1], I[0],
           B.CreateIntrinsic(llvm::Intrinsic::expect, {llvmType(I[0])},
                             {value(I[2]), value(I[3])}));
    return true;
  case Op::OpAssumeTrueKHR:
    if (!value(I[0])->getType()->isIntegerTy(1))
      fail("OpAssumeTrueKHR of a value that is not a boolean");
    B.CreateAssumption(value(I[0]));
    return true;
  default:
    return false;
  }
}

bool Builder::translateAtomic(const Instruction &I) {
  using RMW = llvm::AtomicRMWInst::BinOp;
  RMW Op = RMW::BAD_BINOP;
  switch (I.Opcode) {
  case Op::OpAtomicExchange:
    Op = RMW::Xchg;
    break;
  case Op::OpAtomicIAdd:
    Op = RMW::Add;
    break;
  case Op::OpAtomicISub:
    Op = RMW::Sub;
    break;
  case Op::OpAtomicSMin:
    Op = RMW::Min;
    break;
  case Op::OpAtomicUMin:
    Op = RMW::UMin;
    break;
  case Op::OpAtomicSMax:
    Op = RMW::Max;
    break;
  case Op::OpAtomicUMax:
    Op = RMW::UMax;
    break;
  case Op::OpAtomicAnd:
    Op = RMW::And;
    break;
  case Op::OpAtomicOr:
    Op = RMW::Or;
    break;
  case Op::OpAtomicXor:
    Op = RMW::Xor;
    break;
  case Op::OpAtomicFAddEXT:
    Op = RMW::FAdd;
    break;
  case Op::OpAtomicFMinEXT:
    Op = RMW::FMin;
    break;
  case Op::OpAtomicFMaxEXT:
    Op = RMW::FMax;
    break;
  default:
    break;
  }
  const llvm::DataLayout &DL = M.getDataLayout();
  auto Align = [&](llvm::Type *Ty) {
    const uint64_t Size = DL.getTypeStoreSize(Ty).getFixedValue();
    if (!llvm::isPowerOf2_64(Size))
      fail("an atomic access of a size that is not a power of 2");
    return llvm::Align(Size);
  };
  if (Op != RMW::BAD_BINOP) {
    llvm::Value *V = value(I[5]);
    const bool FP = Op == RMW::FAdd || Op == RMW::FMin || Op == RMW::FMax;
    if (FP ? !V->getType()->isFloatingPointTy()
           : !(V->getType()->isIntegerTy() ||
               (Op == RMW::Xchg && V->getType()->isFloatingPointTy())) ||
                 V->getType()->getPrimitiveSizeInBits() < 8 ||
                 !llvm::isPowerOf2_64(V->getType()->getPrimitiveSizeInBits()))
      fail(spirvOpcodeName(static_cast<uint32_t>(I.Opcode)) +
           " of a value of the wrong type");
    define(I[1], I[0],
           B.CreateAtomicRMW(Op, pointer(I[2]), V, Align(V->getType()),
                             orderingOf(uint32_t(constantInt(I[4])))));
    return true;
  }
  switch (I.Opcode) {
  case Op::OpAtomicIIncrement:
  case Op::OpAtomicIDecrement: {
    llvm::Type *Ty = llvmType(I[0]);
    if (!Ty->isIntegerTy())
      fail("OpAtomicIIncrement/IDecrement of a type that is not an integer");
    define(I[1], I[0],
           B.CreateAtomicRMW(
               I.Opcode == Op::OpAtomicIIncrement ? RMW::Add : RMW::Sub,
               pointer(I[2]), llvm::ConstantInt::get(Ty, 1), Align(Ty),
               orderingOf(uint32_t(constantInt(I[4])))));
    return true;
  }
  case Op::OpAtomicLoad: {
    llvm::Type *Ty = llvmType(I[0]);
    if (!Ty->isIntegerTy() && !Ty->isFloatingPointTy())
      fail("OpAtomicLoad of a type that is not scalar");
    llvm::LoadInst *L = B.CreateAlignedLoad(Ty, pointer(I[2]), Align(Ty));
    L->setAtomic(forLoad(orderingOf(uint32_t(constantInt(I[4])))));
    define(I[1], I[0], L);
    return true;
  }
  case Op::OpAtomicStore: {
    llvm::Value *V = value(I[3]);
    if (!V->getType()->isIntegerTy() && !V->getType()->isFloatingPointTy())
      fail("OpAtomicStore of a value that is not scalar");
    llvm::StoreInst *S =
        B.CreateAlignedStore(V, pointer(I[0]), Align(V->getType()));
    S->setAtomic(forStore(orderingOf(uint32_t(constantInt(I[2])))));
    return true;
  }
  case Op::OpAtomicCompareExchange:
  case Op::OpAtomicCompareExchangeWeak: {
    llvm::Value *New = value(I[6]), *Cmp = value(I[7]);
    if (New->getType() != Cmp->getType() || !New->getType()->isIntegerTy())
      fail("OpAtomicCompareExchange of values of the wrong types");
    llvm::AtomicOrdering Success = orderingOf(uint32_t(constantInt(I[4])));
    llvm::AtomicOrdering Failure =
        forLoad(orderingOf(uint32_t(constantInt(I[5]))));
    if (Success == llvm::AtomicOrdering::Monotonic ||
        Success == llvm::AtomicOrdering::Release)
      Failure = llvm::AtomicOrdering::Monotonic;
    llvm::Value *X = B.CreateAtomicCmpXchg(
        pointer(I[2]), Cmp, New, Align(New->getType()), Success, Failure);
    define(I[1], I[0], B.CreateExtractValue(X, 0));
    return true;
  }
  case Op::OpAtomicFlagTestAndSet: {
    llvm::Value *Old = B.CreateAtomicRMW(
        RMW::Xchg, pointer(I[2]), B.getInt32(1), llvm::Align(4),
        orderingOf(uint32_t(constantInt(I[4]))));
    define(I[1], I[0], B.CreateICmpNE(Old, B.getInt32(0)));
    return true;
  }
  case Op::OpAtomicFlagClear: {
    llvm::StoreInst *S =
        B.CreateAlignedStore(B.getInt32(0), pointer(I[0]), llvm::Align(4));
    S->setAtomic(forStore(orderingOf(uint32_t(constantInt(I[2])))));
    return true;
  }
  default:
    return false;
  }
}

void Builder::translate(const Instruction &I) {
  if (I.Opcode == Op::OpExtInst) {
    translateExtInst(I);
    return;
  }
  if (translateArithmetic(I) || translateConversion(I) ||
      translateComparison(I) || translateComposite(I) || translateMemory(I) ||
      translateControl(I) || translateAtomic(I) || translateImage(I) ||
      translateGroupCopy(I))
    return;
  fail(spirvOpcodeName(static_cast<uint32_t>(I.Opcode)) +
       " is not supported in a function");
}

// OpSpecConstantOp: the operation on constants, folded by the IRBuilder.
llvm::Value *Builder::specConstantOp(const Instruction &I) {
  std::vector<uint32_t> Words;
  Words.push_back(I[0]);
  Words.push_back(I[1]);
  for (size_t At = 3; At < I.size(); ++At)
    Words.push_back(I[At]);
  Instruction Inner{static_cast<spv::Op>(I[2]), Words};
  llvm::BasicBlock *Saved = B.GetInsertBlock();
  B.ClearInsertionPoint();
  const bool AccessChain = Inner.Opcode == Op::OpAccessChain ||
                           Inner.Opcode == Op::OpInBoundsAccessChain ||
                           Inner.Opcode == Op::OpPtrAccessChain ||
                           Inner.Opcode == Op::OpInBoundsPtrAccessChain;
  if (!(translateArithmetic(Inner) || translateConversion(Inner) ||
        translateComparison(Inner) || translateComposite(Inner) ||
        (AccessChain && translateMemory(Inner))))
    fail("OpSpecConstantOp of " + spirvOpcodeName(I[2]) + " is not supported");
  if (Saved)
    B.SetInsertPoint(Saved);
  llvm::Value *V = Values[I[1]];
  if (!llvm::isa<llvm::Constant>(V))
    fail("OpSpecConstantOp of " + spirvOpcodeName(I[2]) +
         " does not give a constant");
  return V;
}

} // namespace kc::spirv
