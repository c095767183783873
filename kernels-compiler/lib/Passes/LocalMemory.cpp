//===- Passes/LocalMemory.cpp - __local variables in the local arena ------===//
//
// Clang emits a kernel's __local variables as addrspace(3) globals. Each
// work-group function gets its own layout of the ones it uses, at
// [0, size) of Ctx->LocalMemory (the calling worker's arena), and records the
// size in the "kc-static-local-mem-size" attribute. The arena is 128-byte
// aligned by contract, so no variable is placed at a coarser alignment.
//
// The work-group collective functions of the builtin library
// (builtins/collectives.cl) call __kc_work_group_scratch for an area of
// kc::MaxWorkGroupSize + 1 slots of 8 bytes (reqd_work_group_size + 1 for a
// kernel that has one); a work-group function that calls it gets one more
// __local variable, __kc_work_group_scratch.<slots>, shared by all its
// collectives (they leave nothing in it between calls).
//
//===----------------------------------------------------------------------===//
#include "Passes/Passes.h"
#include "Passes/WorkGroupABI.h"
#include "kc/Launch.h"

#include <llvm/ADT/SetVector.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/ReplaceConstant.h>

namespace kc {

namespace {

constexpr unsigned LocalAddressSpace = 3;
constexpr uint64_t ArenaAlignment = 128;

bool usedIn(const llvm::Value *V, const llvm::Function &F,
            llvm::SmallPtrSetImpl<const llvm::Value *> &Seen) {
  if (!Seen.insert(V).second)
    return false;
  for (const llvm::User *U : V->users()) {
    if (const auto *I = llvm::dyn_cast<llvm::Instruction>(U)) {
      if (I->getFunction() == &F)
        return true;
    } else if (llvm::isa<llvm::Constant>(U) && usedIn(U, F, Seen)) {
      return true;
    }
  }
  return false;
}

constexpr const char *ScratchName = "__kc_work_group_scratch";

// The largest work-group WG runs: its kernel's reqd_work_group_size when it
// has one, else kc::MaxWorkGroupSize.
uint64_t groupSizeLimit(const llvm::Function &WG) {
  std::optional<std::array<uint64_t, 3>> Reqd = requiredWorkGroupSize(WG);
  if (!Reqd)
    return MaxWorkGroupSize;
  return std::min<uint64_t>((*Reqd)[0] * (*Reqd)[1] * (*Reqd)[2],
                            MaxWorkGroupSize);
}

// The scratch area's calls in WG replaced with the variable.
void provideScratch(llvm::Function &WG) {
  llvm::Module &M = *WG.getParent();
  llvm::Function *Get = M.getFunction(ScratchName);
  if (!Get)
    return;
  llvm::SmallVector<llvm::CallInst *, 8> Calls;
  for (llvm::User *U : Get->users())
    if (auto *Call = llvm::dyn_cast<llvm::CallInst>(U))
      if (Call->getFunction() == &WG && Call->getCalledFunction() == Get)
        Calls.push_back(Call);
  if (Calls.empty())
    return;
  const uint64_t Slots = groupSizeLimit(WG) + 1;
  const std::string Name =
      std::string(ScratchName) + "." + std::to_string(Slots);
  llvm::GlobalVariable *Scratch = M.getGlobalVariable(Name, true);
  if (!Scratch) {
    llvm::Type *Ty =
        llvm::ArrayType::get(llvm::Type::getInt64Ty(M.getContext()), Slots);
    Scratch = new llvm::GlobalVariable(
        M, Ty, false, llvm::GlobalValue::InternalLinkage,
        llvm::UndefValue::get(Ty), Name, nullptr,
        llvm::GlobalValue::NotThreadLocal, LocalAddressSpace);
    Scratch->setAlignment(llvm::Align(8));
  }
  for (llvm::CallInst *Call : Calls) {
    Call->replaceAllUsesWith(Scratch);
    Call->eraseFromParent();
  }
}

void placeLocals(llvm::Function &WG) {
  provideScratch(WG);
  llvm::Module &M = *WG.getParent();
  const llvm::DataLayout &DL = M.getDataLayout();
  llvm::SetVector<llvm::GlobalVariable *> Locals;
  for (llvm::GlobalVariable &GV : M.globals()) {
    if (GV.getAddressSpace() != LocalAddressSpace)
      continue;
    llvm::SmallPtrSet<const llvm::Value *, 8> Seen;
    if (usedIn(&GV, WG, Seen))
      Locals.insert(&GV);
  }
  uint64_t Size = 0;
  if (!Locals.empty()) {
    llvm::SmallVector<llvm::Constant *, 8> Constants(Locals.begin(),
                                                     Locals.end());
    llvm::convertUsersOfConstantsToInstructions(Constants, &WG);
    llvm::Value *Base = loadContextField(WG, ctx::LocalMemory, 0);
    llvm::IRBuilder<> B(WG.getEntryBlock().getTerminator());
    for (llvm::GlobalVariable *GV : Locals) {
      uint64_t Align = std::min<uint64_t>(
          DL.getValueOrABITypeAlignment(GV->getAlign(), GV->getValueType())
              .value(),
          ArenaAlignment);
      Size = llvm::alignTo(Size, Align);
      llvm::Value *Ptr =
          B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), Base, Size);
      llvm::Value *Local =
          B.CreateAddrSpaceCast(Ptr, GV->getType(), GV->getName());
      Size += DL.getTypeAllocSize(GV->getValueType());
      GV->replaceUsesWithIf(Local, [&](llvm::Use &U) {
        auto *I = llvm::dyn_cast<llvm::Instruction>(U.getUser());
        return I && I->getFunction() == &WG;
      });
    }
  }
  WG.addFnAttr("kc-static-local-mem-size", std::to_string(Size));
}

} // namespace

llvm::PreservedAnalyses LocalMemoryPass::run(llvm::Module &M,
                                             llvm::ModuleAnalysisManager &) {
  for (llvm::Function &F : M)
    if (isWorkGroupFunction(F))
      placeLocals(F);
  return llvm::PreservedAnalyses::none();
}

} // namespace kc
