//===- Passes/WorkItemBuiltins.cpp - get_global_id & co. ------------------===//
//
// Replaces the work-item functions in work-group functions: what is uniform
// over the group is loaded from the launch context once, in the prologue;
// local ids are the placeholders __kc_local_id_{x,y,z}, which the loop
// passes turn into induction variables. A dimension index that is not a
// constant selects among the three; out of range it yields the value the
// specification gives (1 for sizes, 0 for ids and offsets).
//
//===----------------------------------------------------------------------===//
#include "Passes/Passes.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringSwitch.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <array>
#include <optional>

namespace kc {

namespace {

enum class Query {
  WorkDim,
  GlobalSize,
  GlobalId,
  LocalSize,
  EnqueuedLocalSize,
  LocalId,
  NumGroups,
  GroupId,
  GlobalOffset,
  GlobalLinearId,
  LocalLinearId,
};

std::optional<Query> classify(llvm::StringRef Name) {
  return llvm::StringSwitch<std::optional<Query>>(Name)
      .Case("_Z12get_work_dimv", Query::WorkDim)
      .Case("_Z15get_global_sizej", Query::GlobalSize)
      .Case("_Z13get_global_idj", Query::GlobalId)
      .Case("_Z14get_local_sizej", Query::LocalSize)
      .Case("_Z23get_enqueued_local_sizej", Query::EnqueuedLocalSize)
      .Case("_Z12get_local_idj", Query::LocalId)
      .Case("_Z14get_num_groupsj", Query::NumGroups)
      .Case("_Z12get_group_idj", Query::GroupId)
      .Case("_Z17get_global_offsetj", Query::GlobalOffset)
      .Case("_Z20get_global_linear_idv", Query::GlobalLinearId)
      .Case("_Z19get_local_linear_idv", Query::LocalLinearId)
      .Default(std::nullopt);
}

class Lowering {
public:
  explicit Lowering(llvm::Function &WG) : WG(WG), M(*WG.getParent()) {}

  void lower(llvm::CallInst *Call, Query Q);

private:
  llvm::Value *uniform(uint64_t Offset, unsigned Dim);
  llvm::Value *globalBase(unsigned Dim);
  llvm::Value *localId(llvm::IRBuilder<> &B, unsigned Dim);
  llvm::Value *perDimension(llvm::IRBuilder<> &B, Query Q, unsigned Dim);
  llvm::Value *linearId(llvm::IRBuilder<> &B, bool Global);

  llvm::Function &WG;
  llvm::Module &M;
  llvm::DenseMap<uint64_t, llvm::Value *> Loaded;
  std::array<llvm::Value *, 3> GlobalBase{};
};

llvm::Value *Lowering::uniform(uint64_t Offset, unsigned Dim) {
  llvm::Value *&V = Loaded[Offset + 8 * Dim];
  if (!V)
    V = loadContextField(WG, Offset, Dim);
  return V;
}

// GroupId * EnqueuedLocalSize + GlobalOffset: the global id of local id 0.
llvm::Value *Lowering::globalBase(unsigned Dim) {
  if (!GlobalBase[Dim]) {
    llvm::IRBuilder<> B(WG.getEntryBlock().getTerminator());
    llvm::Value *Group = uniform(ctx::GroupId, Dim);
    llvm::Value *Size = uniform(ctx::EnqueuedLocalSize, Dim);
    GlobalBase[Dim] =
        B.CreateAdd(B.CreateMul(Group, Size), uniform(ctx::GlobalOffset, Dim),
                    "global_base");
  }
  return GlobalBase[Dim];
}

llvm::Value *Lowering::localId(llvm::IRBuilder<> &B, unsigned Dim) {
  llvm::LLVMContext &C = M.getContext();
  llvm::FunctionCallee Placeholder = M.getOrInsertFunction(
      LocalIdPlaceholders[Dim], llvm::Type::getInt64Ty(C));
  if (auto *F = llvm::dyn_cast<llvm::Function>(Placeholder.getCallee())) {
    F->addFnAttr(llvm::Attribute::NoUnwind);
    F->setDoesNotAccessMemory();
  }
  return B.CreateCall(Placeholder);
}

llvm::Value *Lowering::perDimension(llvm::IRBuilder<> &B, Query Q,
                                    unsigned Dim) {
  switch (Q) {
  case Query::GlobalSize:
    return uniform(ctx::GlobalSize, Dim);
  case Query::LocalSize:
    return uniform(ctx::LocalSize, Dim);
  case Query::EnqueuedLocalSize:
    return uniform(ctx::EnqueuedLocalSize, Dim);
  case Query::NumGroups:
    return uniform(ctx::NumGroups, Dim);
  case Query::GroupId:
    return uniform(ctx::GroupId, Dim);
  case Query::GlobalOffset:
    return uniform(ctx::GlobalOffset, Dim);
  case Query::LocalId:
    return localId(B, Dim);
  case Query::GlobalId:
    return B.CreateAdd(globalBase(Dim), localId(B, Dim));
  default:
    return nullptr;
  }
}

// (z * size_y + y) * size_x + x, over local ids and local sizes, or over
// global ids minus offsets and global sizes.
llvm::Value *Lowering::linearId(llvm::IRBuilder<> &B, bool Global) {
  auto Id = [&](unsigned D) -> llvm::Value * {
    llvm::Value *L = localId(B, D);
    if (!Global)
      return L;
    llvm::IRBuilder<> Pro(WG.getEntryBlock().getTerminator());
    llvm::Value *Base = Pro.CreateMul(uniform(ctx::GroupId, D),
                                      uniform(ctx::EnqueuedLocalSize, D));
    return B.CreateAdd(Base, L);
  };
  uint64_t SizeField = Global ? ctx::GlobalSize : ctx::LocalSize;
  llvm::Value *Result = Id(2);
  Result = B.CreateAdd(B.CreateMul(Result, uniform(SizeField, 1)), Id(1));
  Result = B.CreateAdd(B.CreateMul(Result, uniform(SizeField, 0)), Id(0));
  return Result;
}

void Lowering::lower(llvm::CallInst *Call, Query Q) {
  llvm::IRBuilder<> B(Call);
  llvm::Value *Result = nullptr;
  if (Q == Query::WorkDim) {
    Result = uniform(ctx::WorkDim, 0);
  } else if (Q == Query::LocalLinearId || Q == Query::GlobalLinearId) {
    Result = linearId(B, Q == Query::GlobalLinearId);
  } else {
    bool IsSize = Q == Query::GlobalSize || Q == Query::LocalSize ||
                  Q == Query::EnqueuedLocalSize || Q == Query::NumGroups;
    llvm::Value *Default = B.getInt64(IsSize ? 1 : 0);
    llvm::Value *DimArg = Call->getArgOperand(0);
    if (auto *Const = llvm::dyn_cast<llvm::ConstantInt>(DimArg)) {
      uint64_t Dim = Const->getZExtValue();
      Result =
          Dim < 3 ? perDimension(B, Q, static_cast<unsigned>(Dim)) : Default;
    } else {
      Result = Default;
      for (int D = 2; D >= 0; --D) {
        llvm::Value *IsDim = B.CreateICmpEQ(DimArg, B.getInt32(D));
        Result = B.CreateSelect(IsDim, perDimension(B, Q, D), Result);
      }
    }
  }
  if (Result->getType() != Call->getType())
    Result = B.CreateZExtOrTrunc(Result, Call->getType());
  Call->replaceAllUsesWith(Result);
  Call->eraseFromParent();
}

} // namespace

llvm::PreservedAnalyses
WorkItemBuiltinsPass::run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
  bool Changed = false;
  for (llvm::Function &F : M) {
    if (!isWorkGroupFunction(F))
      continue;
    llvm::SmallVector<std::pair<llvm::CallInst *, Query>, 16> Calls;
    for (llvm::BasicBlock &BB : F)
      for (llvm::Instruction &I : BB)
        if (auto *Call = llvm::dyn_cast<llvm::CallInst>(&I))
          if (llvm::Function *Callee = Call->getCalledFunction())
            if (auto Q = classify(Callee->getName()))
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
