//===- Passes/GenericAddressSpace.cpp - to_global & co., get_fence --------===//
//
// Replaces, in the work-group functions, what Clang emits for the generic
// address space queries: __to_global, __to_local, __to_private (the
// to_global/to_local/to_private builtins) and get_fence. Every address space
// is one flat address space on the CPU; what a pointer points to is decided
// by address ranges from the launch context:
//   local    [LocalMemory, LocalMemory + LocalMemorySize): the worker's arena
//   private  [PrivateBegin, PrivateEnd): the worker's stack, where every
//            alloca of the work-group function lives
//   global   anything else but null
// to_<space>(p) is p when p points there, null otherwise; get_fence(p) is
// CLK_LOCAL_MEM_FENCE for local, 0 for private (no fence needed) and
// CLK_GLOBAL_MEM_FENCE otherwise.
//
//===----------------------------------------------------------------------===//
#include "Passes/Passes.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <optional>

namespace kc {

namespace {

enum class Query { ToGlobal, ToLocal, ToPrivate, GetFence };

constexpr uint32_t LocalMemFence = 1;  // CLK_LOCAL_MEM_FENCE
constexpr uint32_t GlobalMemFence = 2; // CLK_GLOBAL_MEM_FENCE

std::optional<Query> classify(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<Query>>(Name)
      .Case("__to_global", Query::ToGlobal)
      .Case("__to_local", Query::ToLocal)
      .Case("__to_private", Query::ToPrivate)
      .Case("_Z9get_fencePU9CLgenericv", Query::GetFence)
      .Case("_Z9get_fencePU9CLgenericKv", Query::GetFence)
      .Case("_Z9get_fencePU3AS4v", Query::GetFence)
      .Case("_Z9get_fencePU3AS4Kv", Query::GetFence)
      .Default(std::nullopt);
}

class Lowering {
public:
  explicit Lowering(llvm::Function &WG) : WG(WG) {}

  void lower(llvm::CallInst *Call, Query Q) {
    llvm::IRBuilder<> B(Call);
    llvm::Value *P = B.CreatePtrToInt(Call->getArgOperand(0), B.getInt64Ty());
    llvm::Value *IsLocal = inRange(B, P, localBegin(), localSize());
    llvm::Value *IsPrivate = inRange(B, P, privateBegin(), privateSize());
    llvm::Value *Result = nullptr;
    if (Q == Query::GetFence) {
      Result = B.CreateSelect(
          IsLocal, B.getInt32(LocalMemFence),
          B.CreateSelect(IsPrivate, B.getInt32(0), B.getInt32(GlobalMemFence)));
      Result = B.CreateZExtOrTrunc(Result, Call->getType());
    } else {
      llvm::Value *Is = Q == Query::ToLocal ? IsLocal
                        : Q == Query::ToPrivate
                            ? IsPrivate
                            : B.CreateNot(B.CreateOr(IsLocal, IsPrivate));
      auto *Type = llvm::cast<llvm::PointerType>(Call->getType());
      Result = B.CreateSelect(
          Is, B.CreateAddrSpaceCast(Call->getArgOperand(0), Type),
          llvm::ConstantPointerNull::get(Type));
    }
    Call->replaceAllUsesWith(Result);
    Call->eraseFromParent();
  }

private:
  // Begin <= P < Begin + Size, as one unsigned comparison.
  static llvm::Value *inRange(llvm::IRBuilder<> &B, llvm::Value *P,
                              llvm::Value *Begin, llvm::Value *Size) {
    return B.CreateICmpULT(B.CreateSub(P, Begin), Size);
  }
  llvm::IRBuilder<> prologue() {
    return llvm::IRBuilder<>(WG.getEntryBlock().getTerminator());
  }
  llvm::Value *localBegin() {
    if (!LocalBegin) {
      llvm::IRBuilder<> B = prologue();
      LocalBegin = B.CreatePtrToInt(loadContextField(WG, ctx::LocalMemory, 0),
                                    B.getInt64Ty());
    }
    return LocalBegin;
  }
  llvm::Value *localSize() {
    if (!LocalSize)
      LocalSize = loadContextField(WG, ctx::LocalMemorySize, 0);
    return LocalSize;
  }
  llvm::Value *privateBegin() {
    if (!PrivateBegin) {
      llvm::IRBuilder<> B = prologue();
      PrivateBegin = B.CreatePtrToInt(
          loadContextField(WG, ctx::PrivateBegin, 0), B.getInt64Ty());
    }
    return PrivateBegin;
  }
  llvm::Value *privateSize() {
    if (!PrivateSize) {
      llvm::Value *Begin = privateBegin();
      llvm::IRBuilder<> B = prologue();
      llvm::Value *End = B.CreatePtrToInt(
          loadContextField(WG, ctx::PrivateEnd, 0), B.getInt64Ty());
      PrivateSize = B.CreateSub(End, Begin, "private_size");
    }
    return PrivateSize;
  }

  llvm::Function &WG;
  llvm::Value *LocalBegin = nullptr;
  llvm::Value *LocalSize = nullptr;
  llvm::Value *PrivateBegin = nullptr;
  llvm::Value *PrivateSize = nullptr;
};

} // namespace

llvm::PreservedAnalyses
GenericAddressSpacePass::run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
  bool Changed = false;
  for (llvm::Function &F : M) {
    if (!isWorkGroupFunction(F))
      continue;
    llvm::SmallVector<std::pair<llvm::CallInst *, Query>, 8> Calls;
    for (llvm::BasicBlock &BB : F)
      for (llvm::Instruction &I : BB)
        if (auto *Call = llvm::dyn_cast<llvm::CallInst>(&I))
          if (llvm::Function *Callee = Call->getCalledFunction())
            if (auto Q = classify(Callee->getName());
                Q && Call->arg_size() == 1)
              Calls.emplace_back(Call, *Q);
    Lowering L(F);
    for (auto &[Call, Q] : Calls)
      L.lower(Call, Q);
    Changed |= !Calls.empty();
  }
  return Changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace kc
