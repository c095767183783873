//===- Passes/LocalAtomics.cpp - Atomics on local memory as plain accesses
//-===//
//
// A work-group runs on one thread, in loops over its work-items, and its
// __local memory is that thread's arena: no other thread ever sees it. An
// atomic operation on local memory therefore needs no atomicity from the
// hardware, only its effect: `atomicrmw` becomes a load, the operation and a
// store; `cmpxchg` a load, a compare and a conditional store; atomic loads
// and stores plain ones (volatile stays volatile). A `lock xchg` costs some
// 20 cycles; the CTS's c11_atomics runs 10,000 of them per work-item on
// local memory in half of its cases.
//
// Runs on the work-group functions after their work-item loops exist: the
// accesses it creates are in no parallel-access group, so the vectorizer
// analyses them as usual (every work-item updates the same location).
// Local memory is recognized through the pointer's chain of GEPs and
// address-space casts (the builtins take generic pointers); anything else
// stays atomic.
//
//===----------------------------------------------------------------------===//
#include "Passes/Passes.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Operator.h>

namespace kc {

namespace {

constexpr unsigned LocalAddressSpace = 3;

bool isLocalPointer(const llvm::Value *Ptr) {
  for (unsigned Depth = 0; Depth < 16; ++Depth) {
    if (Ptr->getType()->getPointerAddressSpace() == LocalAddressSpace)
      return true;
    if (const auto *GEP = llvm::dyn_cast<llvm::GEPOperator>(Ptr))
      Ptr = GEP->getPointerOperand();
    else if (const auto *Cast =
                 llvm::dyn_cast<llvm::AddrSpaceCastOperator>(Ptr))
      Ptr = Cast->getPointerOperand();
    else
      return false;
  }
  return false;
}

// The new value of an atomicrmw, or nullptr for an operation left atomic.
llvm::Value *applyOperation(llvm::IRBuilder<> &B, llvm::AtomicRMWInst &RMW,
                            llvm::Value *Old) {
  llvm::Value *Val = RMW.getValOperand();
  switch (RMW.getOperation()) {
  case llvm::AtomicRMWInst::Xchg:
    return Val;
  case llvm::AtomicRMWInst::Add:
    return B.CreateAdd(Old, Val);
  case llvm::AtomicRMWInst::Sub:
    return B.CreateSub(Old, Val);
  case llvm::AtomicRMWInst::And:
    return B.CreateAnd(Old, Val);
  case llvm::AtomicRMWInst::Nand:
    return B.CreateNot(B.CreateAnd(Old, Val));
  case llvm::AtomicRMWInst::Or:
    return B.CreateOr(Old, Val);
  case llvm::AtomicRMWInst::Xor:
    return B.CreateXor(Old, Val);
  case llvm::AtomicRMWInst::Max:
    return B.CreateBinaryIntrinsic(llvm::Intrinsic::smax, Old, Val);
  case llvm::AtomicRMWInst::Min:
    return B.CreateBinaryIntrinsic(llvm::Intrinsic::smin, Old, Val);
  case llvm::AtomicRMWInst::UMax:
    return B.CreateBinaryIntrinsic(llvm::Intrinsic::umax, Old, Val);
  case llvm::AtomicRMWInst::UMin:
    return B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, Old, Val);
  case llvm::AtomicRMWInst::FAdd:
    return B.CreateFAdd(Old, Val);
  case llvm::AtomicRMWInst::FSub:
    return B.CreateFSub(Old, Val);
  case llvm::AtomicRMWInst::FMax:
    return B.CreateBinaryIntrinsic(llvm::Intrinsic::maxnum, Old, Val);
  case llvm::AtomicRMWInst::FMin:
    return B.CreateBinaryIntrinsic(llvm::Intrinsic::minnum, Old, Val);
  default:
    return nullptr;
  }
}

bool lowerRMW(llvm::AtomicRMWInst &RMW) {
  llvm::IRBuilder<> B(&RMW);
  llvm::Type *Ty = RMW.getType();
  llvm::LoadInst *Old = B.CreateAlignedLoad(Ty, RMW.getPointerOperand(),
                                            RMW.getAlign(), RMW.isVolatile());
  llvm::Value *New = applyOperation(B, RMW, Old);
  if (!New) {
    Old->eraseFromParent();
    return false;
  }
  B.CreateAlignedStore(New, RMW.getPointerOperand(), RMW.getAlign(),
                       RMW.isVolatile());
  RMW.replaceAllUsesWith(Old);
  RMW.eraseFromParent();
  return true;
}

void lowerCmpXchg(llvm::AtomicCmpXchgInst &CX) {
  llvm::IRBuilder<> B(&CX);
  llvm::Value *Ptr = CX.getPointerOperand();
  llvm::Type *Ty = CX.getCompareOperand()->getType();
  llvm::LoadInst *Old =
      B.CreateAlignedLoad(Ty, Ptr, CX.getAlign(), CX.isVolatile());
  llvm::Value *Equal = B.CreateICmpEQ(Old, CX.getCompareOperand());
  // The store happens either way (of the old value when they differ): no
  // branch, and no other thread can tell.
  B.CreateAlignedStore(B.CreateSelect(Equal, CX.getNewValOperand(), Old), Ptr,
                       CX.getAlign(), CX.isVolatile());
  llvm::Value *Result = llvm::PoisonValue::get(CX.getType());
  Result = B.CreateInsertValue(Result, Old, 0);
  Result = B.CreateInsertValue(Result, Equal, 1);
  CX.replaceAllUsesWith(Result);
  CX.eraseFromParent();
}

} // namespace

llvm::PreservedAnalyses LocalAtomicsPass::run(llvm::Function &F,
                                              llvm::FunctionAnalysisManager &) {
  if (!isWorkGroupFunction(F))
    return llvm::PreservedAnalyses::all();
  llvm::SmallVector<llvm::Instruction *, 8> Atomics;
  for (llvm::Instruction &I : llvm::instructions(F)) {
    if (auto *RMW = llvm::dyn_cast<llvm::AtomicRMWInst>(&I)) {
      if (isLocalPointer(RMW->getPointerOperand()))
        Atomics.push_back(&I);
    } else if (auto *CX = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(&I)) {
      if (CX->getCompareOperand()->getType()->isIntegerTy() &&
          isLocalPointer(CX->getPointerOperand()))
        Atomics.push_back(&I);
    } else if (auto *Load = llvm::dyn_cast<llvm::LoadInst>(&I)) {
      if (Load->isAtomic() && isLocalPointer(Load->getPointerOperand()))
        Atomics.push_back(&I);
    } else if (auto *Store = llvm::dyn_cast<llvm::StoreInst>(&I)) {
      if (Store->isAtomic() && isLocalPointer(Store->getPointerOperand()))
        Atomics.push_back(&I);
    }
  }
  bool Changed = false;
  for (llvm::Instruction *I : Atomics) {
    if (auto *RMW = llvm::dyn_cast<llvm::AtomicRMWInst>(I)) {
      Changed |= lowerRMW(*RMW);
    } else if (auto *CX = llvm::dyn_cast<llvm::AtomicCmpXchgInst>(I)) {
      lowerCmpXchg(*CX);
      Changed = true;
    } else if (auto *Load = llvm::dyn_cast<llvm::LoadInst>(I)) {
      Load->setAtomic(llvm::AtomicOrdering::NotAtomic);
      Changed = true;
    } else if (auto *Store = llvm::dyn_cast<llvm::StoreInst>(I)) {
      Store->setAtomic(llvm::AtomicOrdering::NotAtomic);
      Changed = true;
    }
  }
  if (!Changed)
    return llvm::PreservedAnalyses::all();
  llvm::PreservedAnalyses PA;
  PA.preserveSet<llvm::CFGAnalyses>();
  return PA;
}

} // namespace kc
