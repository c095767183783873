//===- Passes/Printf.cpp - printf calls to records in the printf buffer ---===//
//
// PrintfPass runs first on the linked module, before any simplification
// could turn printf into puts or putchar: every call of printf becomes the
// reservation of one record (kc/Launch.h, PrintfRecordHeader) in the
// launch's printf buffer and the stores of the format string's address and
// the arguments' bytes, exactly as the call passes them (promoted scalars,
// vectors whole, large vectors from their byval copies). printf returns 0
// when the record was written, -1 when the buffer is full. The driver
// formats the records after the launch.
//
// The buffer is reached through the placeholder __kc_printf_buffer(), which
// PrintfBufferPass replaces with LaunchContext::Printf in the work-group
// functions once the kernels are inlined into them.
//
//===----------------------------------------------------------------------===//
#include "Passes/Passes.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/BasicBlockUtils.h>

namespace kc {

namespace {

constexpr llvm::StringRef ReserveName = "__kc_printf_reserve";

uint64_t align8(uint64_t N) { return (N + 7) / 8 * 8; }

llvm::Function *printfBuffer(llvm::Module &M) {
  llvm::LLVMContext &C = M.getContext();
  llvm::FunctionCallee Callee = M.getOrInsertFunction(
      PrintfBufferPlaceholder, llvm::PointerType::get(C, 0));
  auto *F = llvm::cast<llvm::Function>(Callee.getCallee());
  F->addFnAttr(llvm::Attribute::NoUnwind);
  F->addFnAttr(llvm::Attribute::WillReturn);
  F->setDoesNotAccessMemory();
  return F;
}

// ptr __kc_printf_reserve(ptr Buffer, i64 Size): the address of a record of
// Size bytes in Buffer (a PrintfBuffer), or null when Buffer is null or full.
llvm::Function *reserveFunction(llvm::Module &M) {
  if (llvm::Function *F = M.getFunction(ReserveName))
    return F;
  llvm::LLVMContext &C = M.getContext();
  llvm::Type *Ptr = llvm::PointerType::get(C, 0);
  llvm::Type *I64 = llvm::Type::getInt64Ty(C);
  auto *F = llvm::Function::Create(
      llvm::FunctionType::get(Ptr, {Ptr, I64}, false),
      llvm::GlobalValue::InternalLinkage, ReserveName, M);
  F->addFnAttr(llvm::Attribute::NoUnwind);
  llvm::Value *Buffer = F->getArg(0);
  llvm::Value *Size = F->getArg(1);
  auto *Entry = llvm::BasicBlock::Create(C, "entry", F);
  auto *Load = llvm::BasicBlock::Create(C, "load", F);
  auto *Loop = llvm::BasicBlock::Create(C, "loop", F);
  auto *Check = llvm::BasicBlock::Create(C, "check", F);
  auto *Mark = llvm::BasicBlock::Create(C, "mark_full", F);
  auto *Try = llvm::BasicBlock::Create(C, "try", F);
  auto *Done = llvm::BasicBlock::Create(C, "done", F);
  auto *Fail = llvm::BasicBlock::Create(C, "fail", F);
  constexpr auto Relaxed = llvm::AtomicOrdering::Monotonic;

  llvm::IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateIsNull(Buffer), Fail, Load);

  B.SetInsertPoint(Load);
  llvm::LoadInst *First = B.CreateAlignedLoad(I64, Buffer, llvm::Align(8));
  First->setAtomic(Relaxed);
  llvm::Value *Capacity = B.CreateAlignedLoad(
      I64, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Buffer, 8),
      llvm::Align(8));
  B.CreateBr(Loop);

  B.SetInsertPoint(Loop);
  llvm::PHINode *Current = B.CreatePHI(I64, 2, "offset");
  Current->addIncoming(First, Load);
  llvm::Value *Full = B.CreateICmpNE(
      B.CreateAnd(Current, B.getInt64(PrintfFull)), B.getInt64(0));
  B.CreateCondBr(Full, Fail, Check);

  B.SetInsertPoint(Check);
  llvm::Value *End = B.CreateAdd(Current, Size);
  B.CreateCondBr(B.CreateICmpULE(End, Capacity), Try, Mark);

  B.SetInsertPoint(Mark);
  B.CreateAtomicRMW(llvm::AtomicRMWInst::Or, Buffer, B.getInt64(PrintfFull),
                    llvm::MaybeAlign(8), Relaxed);
  B.CreateBr(Fail);

  B.SetInsertPoint(Try);
  llvm::Value *Exchange = B.CreateAtomicCmpXchg(
      Buffer, Current, End, llvm::MaybeAlign(8), Relaxed, Relaxed);
  Current->addIncoming(B.CreateExtractValue(Exchange, 0), Try);
  B.CreateCondBr(B.CreateExtractValue(Exchange, 1), Done, Loop);

  B.SetInsertPoint(Done);
  llvm::Value *Data = B.CreateAlignedLoad(
      Ptr, B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Buffer, 16),
      llvm::Align(8));
  B.CreateRet(B.CreateInBoundsGEP(B.getInt8Ty(), Data, Current));

  B.SetInsertPoint(Fail);
  B.CreateRet(
      llvm::ConstantPointerNull::get(llvm::cast<llvm::PointerType>(Ptr)));
  return F;
}

struct PrintfArg {
  llvm::Value *V;
  llvm::Type *ByvalType; // the pointee of a byval argument, or null
  uint64_t Size;
};

void lowerCall(llvm::CallInst *Call, llvm::Function *Reserve,
               llvm::Function *Buffer) {
  llvm::Module &M = *Call->getModule();
  const llvm::DataLayout &DL = M.getDataLayout();
  llvm::SmallVector<PrintfArg, 8> Args;
  for (unsigned I = 1; I < Call->arg_size(); ++I) {
    llvm::Value *V = Call->getArgOperand(I);
    llvm::Type *Byval = Call->getParamByValType(I);
    llvm::Type *Stored = Byval ? Byval : V->getType();
    Args.push_back({V, Byval, DL.getTypeStoreSize(Stored).getFixedValue()});
  }
  const uint64_t SizesOffset = sizeof(PrintfRecordHeader);
  uint64_t Size = SizesOffset + align8(4 * Args.size());
  for (const PrintfArg &A : Args)
    Size += align8(A.Size);

  llvm::IRBuilder<> B(Call);
  llvm::Value *Record =
      B.CreateCall(Reserve, {B.CreateCall(Buffer), B.getInt64(Size)});
  llvm::Value *Written = B.CreateIsNotNull(Record);
  llvm::Instruction *Then =
      llvm::SplitBlockAndInsertIfThen(Written, Call,
                                      /*Unreachable=*/false);
  B.SetInsertPoint(Then);
  auto At = [&](uint64_t Offset) {
    return B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Record, Offset);
  };
  B.CreateAlignedStore(B.getInt32(static_cast<uint32_t>(Size)), At(0),
                       llvm::Align(8));
  B.CreateAlignedStore(B.getInt32(static_cast<uint32_t>(Args.size())), At(4),
                       llvm::Align(4));
  llvm::Value *Format = Call->getArgOperand(0);
  B.CreateAlignedStore(B.CreatePtrToInt(Format, B.getInt64Ty()), At(8),
                       llvm::Align(8));
  uint64_t Offset = SizesOffset;
  for (const PrintfArg &A : Args) {
    B.CreateAlignedStore(B.getInt32(static_cast<uint32_t>(A.Size)), At(Offset),
                         llvm::Align(4));
    Offset += 4;
  }
  Offset = SizesOffset + align8(4 * Args.size());
  for (const PrintfArg &A : Args) {
    if (A.ByvalType)
      B.CreateMemCpy(At(Offset), llvm::Align(8), A.V, llvm::MaybeAlign(1),
                     A.Size);
    else if (A.V->getType()->isPointerTy())
      B.CreateAlignedStore(B.CreatePtrToInt(A.V, B.getInt64Ty()), At(Offset),
                           llvm::Align(8));
    else
      B.CreateAlignedStore(A.V, At(Offset), llvm::Align(8));
    Offset += align8(A.Size);
  }
  B.SetInsertPoint(Call);
  llvm::Value *Result =
      B.CreateSelect(Written, B.getInt32(0), B.getInt32(uint32_t(-1)));
  if (Result->getType() != Call->getType())
    Result = B.CreateSExtOrTrunc(Result, Call->getType());
  Call->replaceAllUsesWith(Result);
  Call->eraseFromParent();
}

} // namespace

llvm::PreservedAnalyses PrintfPass::run(llvm::Module &M,
                                        llvm::ModuleAnalysisManager &) {
  llvm::Function *Printf = M.getFunction("printf");
  if (!Printf || !Printf->isDeclaration() || !Printf->isVarArg())
    return llvm::PreservedAnalyses::all();
  llvm::SmallVector<llvm::CallInst *, 8> Calls;
  for (llvm::User *U : Printf->users())
    if (auto *Call = llvm::dyn_cast<llvm::CallInst>(U))
      if (Call->getCalledOperand() == Printf && Call->arg_size() >= 1)
        Calls.push_back(Call);
  if (Calls.empty())
    return llvm::PreservedAnalyses::all();
  llvm::Function *Reserve = reserveFunction(M);
  llvm::Function *Buffer = printfBuffer(M);
  for (llvm::CallInst *Call : Calls)
    lowerCall(Call, Reserve, Buffer);
  if (Printf->use_empty())
    Printf->eraseFromParent();
  return llvm::PreservedAnalyses::none();
}

llvm::PreservedAnalyses PrintfBufferPass::run(llvm::Module &M,
                                              llvm::ModuleAnalysisManager &) {
  llvm::Function *Placeholder = M.getFunction(PrintfBufferPlaceholder);
  if (!Placeholder)
    return llvm::PreservedAnalyses::all();
  llvm::SmallVector<llvm::CallInst *, 8> Calls;
  for (llvm::User *U : Placeholder->users())
    if (auto *Call = llvm::dyn_cast<llvm::CallInst>(U))
      if (isWorkGroupFunction(*Call->getFunction()))
        Calls.push_back(Call);
  llvm::DenseMap<llvm::Function *, llvm::Value *> Loaded;
  for (llvm::CallInst *Call : Calls) {
    llvm::Function *WG = Call->getFunction();
    llvm::Value *&Buffer = Loaded[WG];
    if (!Buffer)
      Buffer = loadContextField(*WG, ctx::Printf, 0);
    Call->replaceAllUsesWith(Buffer);
    Call->eraseFromParent();
  }
  // What is left is outside the kernels (a recursive function): no buffer,
  // so its printf calls return -1.
  llvm::Constant *Null =
      llvm::ConstantPointerNull::get(llvm::PointerType::get(M.getContext(), 0));
  while (!Placeholder->use_empty()) {
    auto *Call = llvm::cast<llvm::CallInst>(Placeholder->user_back());
    Call->replaceAllUsesWith(Null);
    Call->eraseFromParent();
  }
  Placeholder->eraseFromParent();
  return llvm::PreservedAnalyses::none();
}

} // namespace kc
