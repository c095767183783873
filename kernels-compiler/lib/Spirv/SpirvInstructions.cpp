//===- Spirv/SpirvInstructions.cpp - Instructions in function bodies ------===//
//
// One instruction of a function body to LLVM IR: translate() hands it to
// the reader of its family (SpirvArithmetic, SpirvConversions,
// SpirvComposites, SpirvMemory, SpirvControlFlow, SpirvAtomics,
// SpirvBuiltins: OpenCL.std, images and group copies; SpirvGroups:
// work-group and sub-group instructions); the operand helpers
// they share; OpSpecConstantOp, folded by the same readers.
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace kc::spirv {

using spv::Op;

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
      FMF.setAllowContract(Mode & 0x10000); // AllowContractFastINTEL
      FMF.setAllowReassoc(Mode & 0x20000);  // AllowReassocINTEL
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

void Builder::translate(const Instruction &I) {
  if (I.Opcode == Op::OpExtInst) {
    translateExtInst(I);
    return;
  }
  if (translateArithmetic(I) || translateConversion(I) ||
      translateComparison(I) || translateComposite(I) || translateMemory(I) ||
      translateControl(I) || translateAtomic(I) || translateImage(I) ||
      translateGroupCopy(I) || translateGroup(I))
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
