//===- Passes/Accumulation.cpp - Work-group reductions in the loops -------===//
//
// A work-group reduction used to be three steps around two barriers: every
// work-item stored its value in a slot, the first work-item passed over the
// slots, every work-item read the result. Where the work-item loops run the
// whole group in one pass, the first step can do the work instead: the
// loops carry the running value (a reduction the vectorizer recognizes)
// and the nest stores it once at its end, so the values are read from
// memory once, as they are loaded, and no slot per work-item is written.
// (work_group_reduce_add over 16M ints in groups of 256: one pass over the
// data instead of three.)
//
//===----------------------------------------------------------------------===//
#include "Passes/Accumulation.h"

#include "Passes/LoopNest.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/SmallVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

#include <optional>

namespace kc {

namespace {

constexpr llvm::StringLiteral AccumulatePrefix = "__kc_wg_accumulate_";
// On each call: its number in the function (numberAccumulations).
constexpr llvm::StringLiteral NumberMD = "kc.accumulation";

enum class Combine { Add, Mul, Min, Max, And, Or, Xor };

struct Accumulation {
  llvm::CallInst *Call;
  Combine Op;
  bool Unsigned; // integer min and max
};

std::optional<Accumulation> accumulationOf(llvm::Instruction &I) {
  auto *Call = llvm::dyn_cast<llvm::CallInst>(&I);
  const llvm::Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee || !Callee->getName().starts_with(AccumulatePrefix) ||
      Call->arg_size() != 2)
    return std::nullopt;
  auto [Name, Type] =
      Callee->getName().drop_front(AccumulatePrefix.size()).split('_');
  static constexpr std::pair<llvm::StringLiteral, Combine> Ops[] = {
      {"add", Combine::Add}, {"mul", Combine::Mul}, {"min", Combine::Min},
      {"max", Combine::Max}, {"and", Combine::And}, {"or", Combine::Or},
      {"xor", Combine::Xor}};
  for (const auto &[OpName, Op] : Ops)
    if (Name == OpName)
      return Accumulation{Call, Op, Type.starts_with("u")};
  return std::nullopt;
}

llvm::SmallVector<Accumulation, 4>
accumulationsIn(llvm::ArrayRef<llvm::BasicBlock *> Blocks) {
  llvm::SmallVector<Accumulation, 4> Found;
  for (llvm::BasicBlock *BB : Blocks)
    for (llvm::Instruction &I : *BB)
      if (std::optional<Accumulation> A = accumulationOf(I))
        Found.push_back(*A);
  return Found;
}

// The value that leaves any other unchanged under Op.
llvm::Constant *identity(llvm::Type *T, const Accumulation &A) {
  if (T->isFloatingPointTy()) {
    const llvm::fltSemantics &Sem = T->getFltSemantics();
    switch (A.Op) {
    case Combine::Add:
      return llvm::ConstantFP::get(T, llvm::APFloat::getZero(Sem, true));
    case Combine::Mul:
      return llvm::ConstantFP::get(T, 1.0);
    case Combine::Min:
      return llvm::ConstantFP::get(T, llvm::APFloat::getInf(Sem, false));
    default: // Max
      return llvm::ConstantFP::get(T, llvm::APFloat::getInf(Sem, true));
    }
  }
  const unsigned Bits = T->getIntegerBitWidth();
  llvm::APInt Value = llvm::APInt::getZero(Bits);
  switch (A.Op) {
  case Combine::Mul:
    Value = llvm::APInt(Bits, 1);
    break;
  case Combine::And:
    Value = llvm::APInt::getAllOnes(Bits);
    break;
  case Combine::Min:
    Value = A.Unsigned ? llvm::APInt::getAllOnes(Bits)
                       : llvm::APInt::getSignedMaxValue(Bits);
    break;
  case Combine::Max:
    Value = A.Unsigned ? llvm::APInt::getZero(Bits)
                       : llvm::APInt::getSignedMinValue(Bits);
    break;
  default: // Add, Or, Xor
    break;
  }
  return llvm::ConstantInt::get(T, Value);
}

// Acc combined with X as the library's reductions do (min and max on
// floats: `x < acc ? x : acc`, `x > acc ? x : acc`).
llvm::Value *combine(llvm::IRBuilder<> &B, const Accumulation &A,
                     llvm::Value *Acc, llvm::Value *X) {
  if (X->getType()->isFloatingPointTy()) {
    switch (A.Op) {
    case Combine::Add:
      return B.CreateFAdd(Acc, X);
    case Combine::Mul:
      return B.CreateFMul(Acc, X);
    case Combine::Min:
      return B.CreateSelect(B.CreateFCmpOLT(X, Acc), X, Acc);
    default: // Max
      return B.CreateSelect(B.CreateFCmpOGT(X, Acc), X, Acc);
    }
  }
  switch (A.Op) {
  case Combine::Add:
    return B.CreateAdd(Acc, X);
  case Combine::Mul:
    return B.CreateMul(Acc, X);
  case Combine::Min:
    return B.CreateBinaryIntrinsic(
        A.Unsigned ? llvm::Intrinsic::umin : llvm::Intrinsic::smin, Acc, X);
  case Combine::Max:
    return B.CreateBinaryIntrinsic(
        A.Unsigned ? llvm::Intrinsic::umax : llvm::Intrinsic::smax, Acc, X);
  case Combine::And:
    return B.CreateAnd(Acc, X);
  case Combine::Or:
    return B.CreateOr(Acc, X);
  default: // Xor
    return B.CreateXor(Acc, X);
  }
}

// A new block on the nest's way out (OuterLatch's edge to the block after
// the nest, which may still be empty: the dispatcher is built last).
llvm::BasicBlock *leavingBlock(const LoopNest &Nest) {
  auto *Br = llvm::cast<llvm::BranchInst>(Nest.OuterLatch->getTerminator());
  llvm::BasicBlock *After = Br->getSuccessor(Br->isConditional() ? 1 : 0);
  llvm::Function *F = Nest.OuterLatch->getParent();
  auto *Leave =
      llvm::BasicBlock::Create(F->getContext(), "nest.leave", F, After);
  llvm::BranchInst::Create(After, Leave);
  Br->replaceSuccessorWith(After, Leave);
  After->replacePhiUsesWith(Nest.OuterLatch, Leave);
  return Leave;
}

} // namespace

void numberAccumulations(llvm::Function &WG) {
  llvm::SmallVector<llvm::BasicBlock *, 32> Blocks;
  for (llvm::BasicBlock &BB : WG)
    Blocks.push_back(&BB);
  uint64_t Number = 0;
  for (const Accumulation &A : accumulationsIn(Blocks)) {
    llvm::LLVMContext &C = WG.getContext();
    A.Call->setMetadata(
        NumberMD, llvm::MDNode::get(
                      C, llvm::ConstantAsMetadata::get(llvm::ConstantInt::get(
                             llvm::Type::getInt64Ty(C), Number++))));
  }
}

void lowerAccumulationsInNest(llvm::ArrayRef<llvm::BasicBlock *> Blocks,
                              const LoopNest &Nest) {
  llvm::SmallVector<Accumulation, 4> Found = accumulationsIn(Blocks);
  if (Found.empty())
    return;
  llvm::Function &F = *Nest.Preheader->getParent();
  llvm::IRBuilder<> AtEntry(F.getEntryBlock().getTerminator());
  llvm::IRBuilder<> AtPreheader(Nest.Preheader->getTerminator());
  llvm::BasicBlock *Leave = leavingBlock(Nest);
  for (const Accumulation &A : Found) {
    llvm::Value *Slot = A.Call->getArgOperand(0);
    llvm::Value *X = A.Call->getArgOperand(1);
    auto *SlotType = llvm::cast<llvm::PointerType>(Slot->getType());
    // The running value, and the slot it goes to (null while no work-item
    // of this pass has come by: another path of the sub-CFG may hold the
    // group's call).
    llvm::AllocaInst *Acc =
        AtEntry.CreateAlloca(X->getType(), nullptr, "accumulated");
    llvm::AllocaInst *To =
        AtEntry.CreateAlloca(SlotType, nullptr, "accumulated.slot");
    AtPreheader.CreateStore(identity(X->getType(), A), Acc);
    AtPreheader.CreateStore(llvm::ConstantPointerNull::get(SlotType), To);

    llvm::IRBuilder<> B(A.Call);
    B.CreateStore(combine(B, A, B.CreateLoad(X->getType(), Acc), X), Acc);
    B.CreateStore(Slot, To);
    A.Call->eraseFromParent();

    llvm::IRBuilder<> AtLeave(Leave->getTerminator());
    llvm::Value *Target = AtLeave.CreateLoad(SlotType, To);
    llvm::Instruction *Store = llvm::SplitBlockAndInsertIfThen(
        AtLeave.CreateIsNotNull(Target), Leave->getTerminator(), false);
    llvm::IRBuilder<> AtStore(Store);
    AtStore.CreateStore(AtStore.CreateLoad(X->getType(), Acc), Target);
    Leave = Store->getParent()->getSingleSuccessor();
  }
}

void lowerRemainingAccumulations(llvm::Function &WG) {
  llvm::SmallVector<llvm::BasicBlock *, 32> Blocks;
  for (llvm::BasicBlock &BB : WG)
    Blocks.push_back(&BB);
  llvm::SmallVector<Accumulation, 4> Found = accumulationsIn(Blocks);
  if (Found.empty())
    return;
  llvm::Value *Items = nullptr;
  {
    llvm::Value *Sizes[3];
    for (unsigned D = 0; D < 3; ++D)
      Sizes[D] = loadContextField(WG, ctx::LocalSize, D);
    llvm::IRBuilder<> B(WG.getEntryBlock().getTerminator());
    Items = B.CreateMul(B.CreateMul(Sizes[0], Sizes[1]), Sizes[2]);
  }
  llvm::IRBuilder<> AtEntry(WG.getEntryBlock().getTerminator());
  // The running value and the count of work-items so far, by call number
  // (a call without one has its own).
  llvm::DenseMap<llvm::MDNode *,
                 std::pair<llvm::AllocaInst *, llvm::AllocaInst *>>
      State;
  for (const Accumulation &A : Found) {
    llvm::Value *Slot = A.Call->getArgOperand(0);
    llvm::Value *X = A.Call->getArgOperand(1);
    llvm::MDNode *Number = A.Call->getMetadata(NumberMD);
    auto [Acc, Count] =
        Number ? State.lookup(Number)
               : std::pair<llvm::AllocaInst *, llvm::AllocaInst *>{};
    if (!Acc) {
      Acc = AtEntry.CreateAlloca(X->getType(), nullptr, "accumulated");
      Count =
          AtEntry.CreateAlloca(AtEntry.getInt64Ty(), nullptr, "accumulated.n");
      AtEntry.CreateStore(AtEntry.getInt64(0), Count);
      if (Number)
        State[Number] = {Acc, Count};
    }

    // The first work-item of the group starts the value, the last stores
    // it and starts the count again for the call's next use.
    llvm::IRBuilder<> B(A.Call);
    llvm::Value *N = B.CreateLoad(B.getInt64Ty(), Count);
    llvm::Value *Value =
        B.CreateSelect(B.CreateICmpEQ(N, B.getInt64(0)), X,
                       combine(B, A, B.CreateLoad(X->getType(), Acc), X));
    B.CreateStore(Value, Acc);
    llvm::Value *Next = B.CreateAdd(N, B.getInt64(1));
    llvm::Value *Last = B.CreateICmpEQ(Next, Items);
    B.CreateStore(B.CreateSelect(Last, B.getInt64(0), Next), Count);
    llvm::Instruction *Store =
        llvm::SplitBlockAndInsertIfThen(Last, A.Call, false);
    llvm::IRBuilder<>(Store).CreateStore(Value, Slot);
    A.Call->eraseFromParent();
  }
}

} // namespace kc
