//===- Passes/WorkGroupABI.cpp - Helpers the passes share -----------------===//
#include "Passes/WorkGroupABI.h"

#include <llvm/ADT/SmallVector.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <array>

namespace kc {

bool isWorkGroupFunction(const llvm::Function &F) {
  return F.hasFnAttribute(WorkGroupFunctionAttr) && !F.isDeclaration();
}

bool isBarrierBuiltin(llvm::StringRef Name) {
  static constexpr std::array<llvm::StringRef, 3> Names = {
      "_Z7barrierj", "_Z18work_group_barrierj",
      "_Z18work_group_barrierj12memory_scope"};
  for (llvm::StringRef N : Names)
    if (Name == N)
      return true;
  return false;
}

static llvm::StringRef calleeName(const llvm::Instruction &I) {
  if (const auto *Call = llvm::dyn_cast<llvm::CallInst>(&I))
    if (const llvm::Function *Callee = Call->getCalledFunction())
      return Callee->getName();
  return {};
}

bool isBarrierPlaceholder(const llvm::Instruction &I) {
  return calleeName(I) == BarrierPlaceholder;
}

int localIdPlaceholderDim(const llvm::Instruction &I) {
  llvm::StringRef Name = calleeName(I);
  for (int D = 0; D < 3; ++D)
    if (Name == LocalIdPlaceholders[D])
      return D;
  return Name == LinearIdPlaceholder ? 3 : -1;
}

llvm::Value *loadContextField(llvm::Function &WG, uint64_t Offset,
                              unsigned Dim) {
  llvm::BasicBlock &Entry = WG.getEntryBlock();
  llvm::IRBuilder<> B(Entry.getTerminator());
  llvm::Value *Ctx = WG.getArg(1);
  llvm::Value *Field =
      B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Ctx, Offset + 8 * Dim);
  if (Offset == ctx::WorkDim)
    return B.CreateLoad(B.getInt32Ty(), Field, "work_dim");
  if (Offset == ctx::LocalMemory)
    return B.CreateLoad(B.getPtrTy(), Field, "local_memory");
  if (Offset == ctx::Printf || Offset == ctx::PrivateBegin ||
      Offset == ctx::PrivateEnd)
    return B.CreateLoad(B.getPtrTy(), Field);
  return B.CreateLoad(B.getInt64Ty(), Field);
}

const llvm::Function *kernelOf(const llvm::Function &WG) {
  return WG.getParent()->getFunction(
      WG.getFnAttribute(WorkGroupFunctionAttr).getValueAsString());
}

std::optional<std::array<uint64_t, 3>>
requiredWorkGroupSize(const llvm::Function &WG) {
  const llvm::Function *Kernel = kernelOf(WG);
  const llvm::MDNode *Reqd =
      Kernel ? Kernel->getMetadata("reqd_work_group_size") : nullptr;
  if (!Reqd || Reqd->getNumOperands() != 3)
    return std::nullopt;
  std::array<uint64_t, 3> Size{};
  for (unsigned D = 0; D < 3; ++D) {
    auto *N =
        llvm::mdconst::dyn_extract<llvm::ConstantInt>(Reqd->getOperand(D));
    if (!N || N->isZero())
      return std::nullopt;
    Size[D] = N->getZExtValue();
  }
  return Size;
}

llvm::BasicBlock *bodyEntry(llvm::Function &WG) {
  return WG.getEntryBlock().getSingleSuccessor();
}

llvm::BasicBlock *exitBlock(llvm::Function &WG) {
  for (llvm::BasicBlock &BB : WG)
    if (llvm::isa<llvm::ReturnInst>(BB.getTerminator()))
      return &BB;
  return nullptr;
}

void markWorkItemLoop(llvm::Instruction *LatchTerm, llvm::MDNode *AccessGroup,
                      bool KeepLoop, unsigned Width, unsigned Interleave) {
  llvm::LLVMContext &C = LatchTerm->getContext();
  llvm::SmallVector<llvm::Metadata *, 4> Ops;
  Ops.push_back(nullptr); // the self reference
  Ops.push_back(llvm::MDNode::get(
      C, {llvm::MDString::get(C, "llvm.loop.vectorize.enable"),
          llvm::ConstantAsMetadata::get(llvm::ConstantInt::getTrue(C))}));
  if (AccessGroup)
    Ops.push_back(llvm::MDNode::get(
        C,
        {llvm::MDString::get(C, "llvm.loop.parallel_accesses"), AccessGroup}));
  // No runtime unrolling: the vector loop the vectorizer makes of it gets
  // this anyway (it interleaves instead), and what is left is the scalar
  // remainder (fewer iterations than the vector epilogue's width) or a loop
  // that did not vectorize (atomics, gathers); unrolled 8 times with a
  // prologue (the host's LoopUnroll does so on Zen), they doubled the code
  // and the time of code generation (loop strength reduction above all)
  // for no speed.
  Ops.push_back(llvm::MDNode::get(
      C, {llvm::MDString::get(C, "llvm.loop.unroll.runtime.disable")}));
  if (KeepLoop)
    Ops.push_back(llvm::MDNode::get(
        C, {llvm::MDString::get(C, "llvm.loop.unroll.disable")}));
  auto Count = [&](llvm::StringRef Name, unsigned N) {
    Ops.push_back(llvm::MDNode::get(
        C, {llvm::MDString::get(C, Name),
            llvm::ConstantAsMetadata::get(
                llvm::ConstantInt::get(llvm::Type::getInt32Ty(C), N))}));
  };
  if (Width)
    Count("llvm.loop.vectorize.width", Width);
  if (Interleave)
    Count("llvm.loop.interleave.count", Interleave);
  llvm::MDNode *Loop = llvm::MDNode::getDistinct(C, Ops);
  Loop->replaceOperandWith(0, Loop);
  LatchTerm->setMetadata(llvm::LLVMContext::MD_loop, Loop);
}

// Private memory every work-item of the loop shares: an alloca of the
// prologue that is not a per-work-item array.
static bool isSharedPrivate(const llvm::Value *Ptr) {
  llvm::SmallVector<const llvm::Value *, 4> Objects;
  llvm::getUnderlyingObjects(Ptr, Objects);
  for (const llvm::Value *Object : Objects) {
    const auto *Alloca = llvm::dyn_cast<llvm::AllocaInst>(Object);
    if (Alloca && !Alloca->hasMetadata(WorkItemArrayMD))
      return true;
  }
  return false;
}

static bool isParallelAccess(llvm::Instruction &I) {
  if (auto *Load = llvm::dyn_cast<llvm::LoadInst>(&I))
    return Load->isSimple() && !isSharedPrivate(Load->getPointerOperand());
  if (auto *Store = llvm::dyn_cast<llvm::StoreInst>(&I))
    return Store->isSimple() && !isSharedPrivate(Store->getPointerOperand());
  if (auto *Transfer = llvm::dyn_cast<llvm::MemTransferInst>(&I))
    return !Transfer->isVolatile() &&
           !isSharedPrivate(Transfer->getRawDest()) &&
           !isSharedPrivate(Transfer->getRawSource());
  if (auto *Set = llvm::dyn_cast<llvm::MemSetInst>(&I))
    return !Set->isVolatile() && !isSharedPrivate(Set->getRawDest());
  return false;
}

llvm::MDNode *addParallelAccesses(llvm::ArrayRef<llvm::BasicBlock *> Blocks) {
  if (Blocks.empty())
    return nullptr;
  llvm::LLVMContext &C = Blocks.front()->getContext();
  llvm::MDNode *Group = nullptr;
  for (llvm::BasicBlock *BB : Blocks) {
    for (llvm::Instruction &I : *BB) {
      if (!I.mayReadOrWriteMemory() || !isParallelAccess(I))
        continue;
      if (!Group)
        Group = llvm::MDNode::getDistinct(C, {});
      I.setMetadata(llvm::LLVMContext::MD_access_group, Group);
    }
  }
  return Group;
}

} // namespace kc
