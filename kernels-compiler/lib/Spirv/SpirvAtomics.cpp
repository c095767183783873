//===- Spirv/SpirvAtomics.cpp - Atomic instructions -----------------------===//
//
// Atomics as LLVM atomicrmw, cmpxchg and atomic loads and stores, their
// ordering from the memory semantics (SPV_EXT_shader_atomic_float_add and
// _min_max included).
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
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

} // namespace kc::spirv
