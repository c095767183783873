//===- Passes/LoopNest.cpp - Loops over the local ids ---------------------===//
#include "Passes/LoopNest.h"

#include "Passes/WorkGroupABI.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

namespace kc {

namespace {

constexpr llvm::StringLiteral SubGroupLocalIdPlaceholder = "__kc_sg_local_id";
constexpr llvm::StringLiteral SubGroupBasePlaceholder = "__kc_sg_base";

// The placeholders a nest gives values to besides the local ids:
// 0: __kc_sg_local_id, 1: __kc_sg_base, 2: __kc_first_work_item, -1: none.
int nestPlaceholder(const llvm::Instruction &I) {
  const auto *Call = llvm::dyn_cast<llvm::CallInst>(&I);
  const llvm::Function *Callee = Call ? Call->getCalledFunction() : nullptr;
  if (!Callee)
    return -1;
  if (Callee->getName() == SubGroupLocalIdPlaceholder)
    return 0;
  if (Callee->getName() == SubGroupBasePlaceholder)
    return 1;
  return Callee->getName() == FirstWorkItemPlaceholder ? 2 : -1;
}

llvm::MDNode *noRuntimeUnroll(llvm::LLVMContext &C) {
  llvm::MDNode *Loop = llvm::MDNode::getDistinct(
      C, {nullptr,
          llvm::MDNode::get(C, {llvm::MDString::get(
                                   C, "llvm.loop.unroll.runtime.disable")})});
  Loop->replaceOperandWith(0, Loop);
  return Loop;
}

} // namespace

LoopNest buildLoopNest(llvm::Function &WG, llvm::BasicBlock *Body,
                       llvm::BasicBlock *Exit,
                       llvm::ArrayRef<llvm::Value *> LocalSizes,
                       llvm::StringRef Name, unsigned SubGroupWidth,
                       bool PartialSubGroups) {
  // Loop levels from the outermost: z, y, then x, or x0 and x1 (the x
  // loop cut into sub-groups).
  static constexpr const char *FlatNames[3] = {"z", "y", "x"};
  static constexpr const char *SubGroupNames[4] = {"z", "y", "x0", "x1"};
  const char *const *LevelNames = SubGroupWidth ? SubGroupNames : FlatNames;
  const unsigned Levels = SubGroupWidth ? 4 : 3;
  llvm::LLVMContext &C = WG.getContext();
  LoopNest Nest;
  Nest.Preheader = llvm::BasicBlock::Create(C, Name + ".preheader", &WG, Body);
  std::array<llvm::BasicBlock *, 4> Headers{};
  std::array<llvm::BasicBlock *, 4> Latches{};
  for (unsigned L = 0; L < Levels; ++L)
    Headers[L] = llvm::BasicBlock::Create(
        C, Name + "." + LevelNames[L] + ".header", &WG, Body);
  for (unsigned L = Levels; L-- > 0;)
    Latches[L] = llvm::BasicBlock::Create(
        C, Name + "." + LevelNames[L] + ".latch", &WG, Exit);

  // Level L's bound and step: z, y and x over the local sizes; with
  // sub-groups, x0 steps by W and x1 runs W times (or what is left of the
  // row), in the latch B builds.
  std::array<llvm::PHINode *, 4> Ivs{};
  auto Bound = [&](unsigned L, llvm::IRBuilder<> &B) -> llvm::Value * {
    if (L != 3)
      return LocalSizes[2 - L];
    llvm::Value *Width = B.getInt64(SubGroupWidth);
    if (!PartialSubGroups)
      return Width;
    return B.CreateBinaryIntrinsic(llvm::Intrinsic::umin, Width,
                                   B.CreateSub(LocalSizes[0], Ivs[2]));
  };
  auto Step = [&](unsigned L) -> uint64_t {
    return L == 2 && SubGroupWidth ? SubGroupWidth : 1;
  };

  llvm::IRBuilder<> B(Nest.Preheader);
  B.CreateBr(Headers[0]);
  for (unsigned L = 0; L < Levels; ++L) {
    B.SetInsertPoint(Headers[L]);
    llvm::BasicBlock *Outer = L == 0 ? Nest.Preheader : Headers[L - 1];
    Ivs[L] =
        B.CreatePHI(B.getInt64Ty(), 2, std::string("lid.") + LevelNames[L]);
    Ivs[L]->addIncoming(B.getInt64(0), Outer);
    if (L + 1 < Levels)
      B.CreateBr(Headers[L + 1]);
  }
  // In the innermost header: the ids and the linear id (with sub-groups,
  // the sub-group's start plus x1).
  Nest.Ids[2] = Ivs[0];
  Nest.Ids[1] = Ivs[1];
  llvm::Value *Row = B.CreateMul(
      B.CreateAdd(B.CreateMul(Ivs[0], LocalSizes[1]), Ivs[1]), LocalSizes[0]);
  if (SubGroupWidth) {
    Nest.Ids[0] = B.CreateNUWAdd(Ivs[2], Ivs[3], "lid.x");
    Nest.SubGroupBase = B.CreateAdd(Row, Ivs[2], "sub_group.base");
    Nest.SubGroupLocalId = Ivs[3];
    Nest.LinearId = B.CreateAdd(Nest.SubGroupBase, Ivs[3], "lid.linear");
  } else {
    Nest.Ids[0] = Ivs[2];
    Nest.LinearId = B.CreateAdd(Row, Ivs[2], "lid.linear");
  }
  B.CreateBr(Body);

  for (unsigned L = Levels; L-- > 0;) {
    B.SetInsertPoint(Latches[L]);
    llvm::Value *Next =
        B.CreateAdd(Ivs[L], B.getInt64(Step(L)), "", /*HasNUW=*/true);
    Ivs[L]->addIncoming(Next, Latches[L]);
    llvm::Value *More = B.CreateICmpULT(Next, Bound(L, B));
    llvm::BranchInst *Br =
        B.CreateCondBr(More, Headers[L], L == 0 ? Exit : Latches[L - 1]);
    // Only the innermost loop is a work-item loop (markWorkItemLoop gives
    // it its metadata); the outer ones are not unrolled at run time
    // either: a copy of the whole inner nest, vectorized or not, gains
    // nothing.
    if (L + 1 < Levels)
      Br->setMetadata(llvm::LLVMContext::MD_loop, noRuntimeUnroll(C));
  }
  Nest.InnerHeader = Headers[Levels - 1];
  Nest.Latch = Latches[Levels - 1];
  Nest.OuterLatch = Latches[0];
  return Nest;
}

void replaceLocalIdPlaceholders(llvm::ArrayRef<llvm::BasicBlock *> Blocks,
                                const LoopNest &Nest,
                                const std::array<llvm::Value *, 3> &Offsets) {
  std::array<llvm::Value *, 3> Ids;
  llvm::IRBuilder<> B(Nest.InnerHeader->getTerminator());
  for (unsigned D = 0; D < 3; ++D)
    Ids[D] = Offsets[D] ? B.CreateNUWAdd(Nest.Ids[D], Offsets[D]) : Nest.Ids[D];
  for (llvm::BasicBlock *BB : Blocks) {
    for (llvm::Instruction &I : llvm::make_early_inc_range(*BB)) {
      llvm::Value *Replacement = nullptr;
      if (int Dim = localIdPlaceholderDim(I); Dim >= 0) {
        Replacement = Dim == 3 ? Nest.LinearId : Ids[Dim];
      } else if (int SG = nestPlaceholder(I); SG == 2) {
        // Whether all three local ids are 0.
        llvm::IRBuilder<> AtI(&I);
        llvm::Value *Any = AtI.CreateOr(AtI.CreateOr(Ids[0], Ids[1]), Ids[2]);
        Replacement =
            AtI.CreateZExt(AtI.CreateICmpEQ(Any, AtI.getInt64(0)), I.getType());
      } else if (SG >= 0) {
        llvm::Value *Own = SG == 0 ? Nest.SubGroupLocalId : Nest.SubGroupBase;
        Replacement = I.getOperand(0);
        if (Own) {
          llvm::IRBuilder<> AtI(&I);
          Replacement = AtI.CreateTrunc(Own, I.getType());
        }
      } else {
        continue;
      }
      I.replaceAllUsesWith(Replacement);
      I.eraseFromParent();
    }
  }
}

unsigned subGroupLoopWidth(const llvm::Function &WG) {
  unsigned Width = 0;
  llvm::Attribute A = WG.getFnAttribute(SubGroupLoopsAttr);
  if (!A.isStringAttribute() || A.getValueAsString().getAsInteger(10, Width))
    return 0;
  return Width;
}

SubGroupRows subGroupRows(llvm::Function &WG,
                          llvm::ArrayRef<llvm::Value *> LocalSizes,
                          unsigned W) {
  llvm::IRBuilder<> B(WG.getEntryBlock().getTerminator());
  if (std::optional<std::array<uint64_t, 3>> Size = requiredWorkGroupSize(WG))
    return {B.getInt1((*Size)[0] % W == 0),
            B.getInt1((*Size)[1] == 1 && (*Size)[2] == 1)};
  llvm::Value *One = B.getInt64(1);
  return {B.CreateICmpEQ(B.CreateURem(LocalSizes[0], B.getInt64(W)),
                         B.getInt64(0), "sub_groups.exact_rows"),
          B.CreateAnd(B.CreateICmpEQ(LocalSizes[1], One),
                      B.CreateICmpEQ(LocalSizes[2], One),
                      "sub_groups.one_row")};
}

void replaceSubGroupPlaceholders(llvm::Function &WG) {
  for (llvm::BasicBlock &BB : WG)
    for (llvm::Instruction &I : llvm::make_early_inc_range(BB))
      if (int SG = nestPlaceholder(I); SG >= 0) {
        // Outside any nest, the first work-item is the only one.
        I.replaceAllUsesWith(SG == 2 ? llvm::ConstantInt::get(I.getType(), 1)
                                     : I.getOperand(0));
        I.eraseFromParent();
      }
}

bool isFirstWorkItemTest(const llvm::Value *V) {
  const auto *I = llvm::dyn_cast<llvm::Instruction>(V);
  if (!I)
    return false;
  if (const auto *Cmp = llvm::dyn_cast<llvm::ICmpInst>(I))
    if (Cmp->isEquality())
      if (const auto *Zero =
              llvm::dyn_cast<llvm::ConstantInt>(Cmp->getOperand(1));
          Zero && Zero->isZero())
        if (const auto *Call =
                llvm::dyn_cast<llvm::Instruction>(Cmp->getOperand(0)))
          return nestPlaceholder(*Call) == 2;
  return nestPlaceholder(*I) == 2;
}

int firstWorkItemSuccessor(const llvm::BranchInst &Br) {
  if (!Br.isConditional() || !isFirstWorkItemTest(Br.getCondition()))
    return -1;
  // The library's `if (__kc_first_work_item())`: the call's int compared
  // with 0, either way.
  const auto *Cmp = llvm::dyn_cast<llvm::ICmpInst>(Br.getCondition());
  return Cmp && Cmp->getPredicate() == llvm::ICmpInst::ICMP_EQ ? 1 : 0;
}

} // namespace kc
