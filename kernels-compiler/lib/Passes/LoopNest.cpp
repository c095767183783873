//===- Passes/LoopNest.cpp - Loops over the local ids ---------------------===//
#include "Passes/LoopNest.h"

#include "Passes/WorkGroupABI.h"

#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>

namespace kc {

LoopNest buildLoopNest(llvm::Function &WG, llvm::BasicBlock *Body,
                       llvm::BasicBlock *Exit,
                       llvm::ArrayRef<llvm::Value *> LocalSizes,
                       llvm::StringRef Name) {
  static constexpr const char *DimNames[3] = {"x", "y", "z"};
  llvm::LLVMContext &C = WG.getContext();
  LoopNest Nest;
  Nest.Preheader = llvm::BasicBlock::Create(C, Name + ".preheader", &WG, Body);
  std::array<llvm::BasicBlock *, 3> Headers{};
  std::array<llvm::BasicBlock *, 3> Latches{};
  for (int D = 2; D >= 0; --D)
    Headers[D] = llvm::BasicBlock::Create(
        C, Name + "." + DimNames[D] + ".header", &WG, Body);
  for (int D = 0; D < 3; ++D)
    Latches[D] = llvm::BasicBlock::Create(
        C, Name + "." + DimNames[D] + ".latch", &WG, Exit);

  llvm::IRBuilder<> B(Nest.Preheader);
  B.CreateBr(Headers[2]);
  for (int D = 2; D >= 0; --D) {
    B.SetInsertPoint(Headers[D]);
    llvm::BasicBlock *Outer = D == 2 ? Nest.Preheader : Headers[D + 1];
    llvm::PHINode *Id =
        B.CreatePHI(B.getInt64Ty(), 2, std::string("lid.") + DimNames[D]);
    Id->addIncoming(B.getInt64(0), Outer);
    Nest.Ids[D] = Id;
    if (D == 0) {
      llvm::Value *Linear = B.CreateMul(Nest.Ids[2], LocalSizes[1]);
      Linear = B.CreateAdd(Linear, Nest.Ids[1]);
      Linear = B.CreateMul(Linear, LocalSizes[0]);
      Nest.LinearId = B.CreateAdd(Linear, Nest.Ids[0], "lid.linear");
      B.CreateBr(Body);
    } else {
      B.CreateBr(Headers[D - 1]);
    }
  }
  for (int D = 0; D < 3; ++D) {
    B.SetInsertPoint(Latches[D]);
    llvm::Value *Next =
        B.CreateAdd(Nest.Ids[D], B.getInt64(1), "", /*HasNUW=*/true);
    Nest.Ids[D]->addIncoming(Next, Latches[D]);
    llvm::Value *More = B.CreateICmpULT(Next, LocalSizes[D]);
    llvm::BranchInst *Br =
        B.CreateCondBr(More, Headers[D], D == 2 ? Exit : Latches[D + 1]);
    // The y and z loops are not unrolled at run time either (the x loop's
    // metadata says so for it, markWorkItemLoop): a copy of the whole x
    // loop nest, vectorized or not, gains nothing.
    if (D > 0) {
      llvm::MDNode *Loop = llvm::MDNode::getDistinct(
          C, {nullptr, llvm::MDNode::get(
                           C, {llvm::MDString::get(
                                  C, "llvm.loop.unroll.runtime.disable")})});
      Loop->replaceOperandWith(0, Loop);
      Br->setMetadata(llvm::LLVMContext::MD_loop, Loop);
    }
  }
  Nest.InnerHeader = Headers[0];
  Nest.Latch = Latches[0];
  return Nest;
}

void replaceLocalIdPlaceholders(llvm::ArrayRef<llvm::BasicBlock *> Blocks,
                                const LoopNest &Nest,
                                const std::array<llvm::Value *, 3> &Offsets) {
  std::array<llvm::Value *, 3> Ids;
  llvm::IRBuilder<> B(Nest.InnerHeader->getTerminator());
  for (unsigned D = 0; D < 3; ++D)
    Ids[D] = Offsets[D] ? B.CreateNUWAdd(Nest.Ids[D], Offsets[D])
                        : static_cast<llvm::Value *>(Nest.Ids[D]);
  for (llvm::BasicBlock *BB : Blocks) {
    for (llvm::Instruction &I : llvm::make_early_inc_range(*BB)) {
      int Dim = localIdPlaceholderDim(I);
      if (Dim < 0)
        continue;
      I.replaceAllUsesWith(Dim == 3 ? Nest.LinearId : Ids[Dim]);
      I.eraseFromParent();
    }
  }
}

} // namespace kc
