//===- Passes/SubGroups.cpp - Sub-group collectives as barriers -----------===//
//
// A sub-group is a run of SubGroupSize consecutive work-items in the order
// of the local linear id (x fastest): the SIMD slice of the work-item loop.
// The builtin library (builtins/subgroups.cl) writes every sub-group
// function in terms of two placeholders this pass replaces in the
// work-group functions:
//
//   __kc_sg_width()         the kernel's sub-group size, a constant (the
//                           kernel's "kc-sub-group-size" attribute)
//   __kc_sg_exchange(T x, s) stores x in slot s (the work-item's local
//                           linear id) of an array of its own (one slot per
//                           work-item, rounded up to whole sub-groups),
//                           waits at a barrier, and returns the array:
//                           after the barrier each work-item reads its
//                           sub-group's slots
//   __kc_sg_exchange_active(T x, s)  the same, and also marks slot s of a
//                           second array, of bytes, as taken: the
//                           non-uniform functions' active set
//   __kc_sg_active_slots(p) that byte array, p being the result of an
//                           __kc_sg_exchange_active
//
// The active set: a work-item that does not reach a sub-group function
// does not store in its slots (below: it skips the barrier and goes on to
// the next one it meets), so the work-items that reach an
// __kc_sg_exchange_active find their sub-group's active ones as the bytes
// set to 1. The bytes start at 0 (a memset in the prologue); the library
// clears them again once the last active work-item of the sub-group has
// read them, before any of them can reach the function again (that takes
// another barrier).
//
// The sub-group ids (__kc_sg_local_id, __kc_sg_base) are left to the
// work-item loop nests (LoopNest.h): a function that asks for them gets
// SubGroupLoopsAttr, and its nests a version with a loop per sub-group.
//
// The barrier is an ordinary one (__kc_barrier): SubCfgFormation cuts the
// work-group function there, the stores run in one work-item loop, the
// reads in the next, and both vectorize across work-items like any other
// sub-CFG. An exchange the work-items may reach again (in a loop) also gets
// a barrier before its store: otherwise a work-item's next store could
// overwrite a slot a later work-item of the same pass has still to read.
// sub_group_barrier() becomes a barrier too.
//
// These barriers hold only a sub-group: each is marked (SubGroupBarrierMD).
// When one of them may not be reached by every work-item alike (a branch on
// the sub-group id, an early exit: Uniformity), the function gets
// SubGroupBarriersAttr, for which SubCfgFormation records each work-item's
// next barrier and runs, pass after pass, the work-items waiting at the
// smallest barrier id, sub-group barriers first (the machinery of divergent
// barriers): sub-groups of one work-group may then take different ways.
// Otherwise they are cut as work-group barriers (less code, faster builds).
// In such a function, a loop around an __kc_sg_exchange_active also gets a
// barrier at the end of each latch: the work-items that skip the function
// on one iteration wait there until those that call it are done, so that
// each iteration's callers are its active set.
//
//===----------------------------------------------------------------------===//
#include "Passes/Passes.h"
#include "Passes/Uniformity.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/ADT/SetVector.h>
#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace kc {

namespace {

constexpr llvm::StringLiteral WidthPlaceholder = "__kc_sg_width";
constexpr llvm::StringLiteral IdPlaceholders[2] = {"__kc_sg_local_id",
                                                   "__kc_sg_base"};
// Mangled prefix of __kc_sg_exchange's overloads.
constexpr llvm::StringLiteral ExchangePrefix = "_Z16__kc_sg_exchange";
constexpr llvm::StringLiteral ActiveExchangePrefix =
    "_Z23__kc_sg_exchange_active";
constexpr llvm::StringLiteral ActiveSlotsPlaceholder = "__kc_sg_active_slots";

bool isSubGroupBarrier(llvm::StringRef Name) {
  return Name == "_Z17sub_group_barrierj" ||
         Name == "_Z17sub_group_barrierj12memory_scope";
}

llvm::StringRef calleeName(const llvm::CallInst &Call) {
  if (const llvm::Function *Callee = Call.getCalledFunction())
    return Callee->getName();
  return {};
}

// The sub-group size the kernel was finalized with (Link/Finalize.cpp sets
// the attribute on the kernel); DefaultSubGroupSize without one.
unsigned subGroupSizeOf(llvm::Function &WG) {
  unsigned Size = DefaultSubGroupSize;
  const llvm::Function *Self = &WG;
  for (const llvm::Function *F : {kernelOf(WG), Self}) {
    if (!F)
      continue;
    llvm::Attribute A = F->getFnAttribute(SubGroupSizeAttr);
    if (A.isStringAttribute() && !A.getValueAsString().getAsInteger(10, Size) &&
        Size > 0)
      return Size;
  }
  return DefaultSubGroupSize;
}

class SubGroups {
public:
  SubGroups(llvm::Function &F, llvm::LoopInfo &LI, llvm::PostDominatorTree &PDT)
      : F(F), M(*F.getParent()), C(F.getContext()), LI(LI), PDT(PDT) {}

  bool run();

private:
  llvm::Value *arrayLength();
  void lowerExchange(llvm::CallInst *Call, bool MarksActive);
  llvm::CallInst *barrierBefore(llvm::Instruction *Point);

  llvm::Function &F;
  llvm::Module &M;
  llvm::LLVMContext &C;
  llvm::LoopInfo &LI;
  llvm::PostDominatorTree &PDT;
  unsigned Width = 1;
  llvm::Value *Length = nullptr;
};

// The work-items of the group rounded up to whole sub-groups: the reads of
// the last, partial sub-group stay inside the array.
llvm::Value *SubGroups::arrayLength() {
  if (!Length) {
    llvm::Value *Items = nullptr;
    for (unsigned D = 0; D < 3; ++D) {
      llvm::Value *Size = loadContextField(F, ctx::LocalSize, D);
      llvm::IRBuilder<> B(F.getEntryBlock().getTerminator());
      Items = Items ? B.CreateMul(Items, Size) : Size;
    }
    llvm::IRBuilder<> B(F.getEntryBlock().getTerminator());
    llvm::Value *W = B.getInt64(Width);
    Length =
        B.CreateMul(B.CreateUDiv(B.CreateAdd(Items, B.getInt64(Width - 1)), W),
                    W, "sub_group.slots");
  }
  return Length;
}

llvm::CallInst *SubGroups::barrierBefore(llvm::Instruction *Point) {
  llvm::FunctionCallee Barrier =
      M.getOrInsertFunction(BarrierPlaceholder, llvm::Type::getVoidTy(C));
  if (auto *Fn = llvm::dyn_cast<llvm::Function>(Barrier.getCallee())) {
    Fn->addFnAttr(llvm::Attribute::Convergent);
    Fn->addFnAttr(llvm::Attribute::NoUnwind);
  }
  llvm::CallInst *Call =
      llvm::CallInst::Create(Barrier, "", Point->getIterator());
  Call->setMetadata(SubGroupBarrierMD, llvm::MDNode::get(C, {}));
  return Call;
}

void SubGroups::lowerExchange(llvm::CallInst *Call, bool MarksActive) {
  llvm::Value *Operand = Call->getArgOperand(0);
  llvm::Type *Ty = Operand->getType();
  const llvm::DataLayout &DL = M.getDataLayout();
  // Vectors wider than the generic x86-64 ABI passes in registers (double8,
  // int16, ...) arrive in memory (byval): the value is what the pointer
  // points to.
  if (llvm::Type *ByVal = Call->getParamByValType(0)) {
    Ty = ByVal;
    llvm::Align Align = Call->getParamAlign(0).value_or(DL.getABITypeAlign(Ty));
    Operand = new llvm::LoadInst(Ty, Operand, "sub_group.operand", false, Align,
                                 Call->getIterator());
  }
  llvm::IRBuilder<> EntryB(F.getEntryBlock().getTerminator());
  auto WorkItemArray = [&](llvm::Type *ElementTy, const llvm::Twine &Name) {
    llvm::AllocaInst *Array = EntryB.CreateAlloca(
        ElementTy, DL.getAllocaAddrSpace(), arrayLength(), Name);
    Array->setAlignment(
        std::max(DL.getPrefTypeAlign(ElementTy), llvm::Align(64)));
    Array->setMetadata(WorkItemArrayMD, llvm::MDNode::get(C, {}));
    return Array;
  };
  llvm::AllocaInst *Slots = WorkItemArray(Ty, "sub_group.xchg");
  llvm::AllocaInst *Active = nullptr;
  if (MarksActive) {
    Active = WorkItemArray(EntryB.getInt8Ty(), "sub_group.active");
    EntryB.CreateMemSet(Active, EntryB.getInt8(0), arrayLength(),
                        Active->getAlign());
  }

  if (LI.getLoopFor(Call->getParent()))
    barrierBefore(Call);
  llvm::IRBuilder<> B(Call);
  llvm::Value *Slot = B.CreateZExt(Call->getArgOperand(1), B.getInt64Ty());
  B.CreateStore(Operand, B.CreateInBoundsGEP(Ty, Slots, Slot));
  if (Active)
    B.CreateStore(B.getInt8(1),
                  B.CreateInBoundsGEP(B.getInt8Ty(), Active, Slot));
  barrierBefore(Call);
  if (Active) {
    llvm::SmallVector<llvm::CallInst *, 2> Queries;
    for (llvm::User *U : Call->users())
      if (auto *Query = llvm::dyn_cast<llvm::CallInst>(U))
        if (calleeName(*Query) == ActiveSlotsPlaceholder)
          Queries.push_back(Query);
    for (llvm::CallInst *Query : Queries) {
      llvm::Value *Bytes = Active;
      if (Bytes->getType() != Query->getType())
        Bytes = B.CreateAddrSpaceCast(Bytes, Query->getType());
      Query->replaceAllUsesWith(Bytes);
      Query->eraseFromParent();
    }
  }
  llvm::Value *Result = Slots;
  if (Result->getType() != Call->getType())
    Result = B.CreateAddrSpaceCast(Result, Call->getType());
  Call->replaceAllUsesWith(Result);
  Call->eraseFromParent();
}

bool SubGroups::run() {
  llvm::SmallVector<llvm::CallInst *, 8> Widths, Exchanges, Barriers;
  bool AsksIds = false;
  for (llvm::BasicBlock &BB : F) {
    for (llvm::Instruction &I : BB) {
      auto *Call = llvm::dyn_cast<llvm::CallInst>(&I);
      if (!Call)
        continue;
      llvm::StringRef Name = calleeName(*Call);
      if (Name == WidthPlaceholder)
        Widths.push_back(Call);
      else if (Name.starts_with(ExchangePrefix) ||
               Name.starts_with(ActiveExchangePrefix))
        Exchanges.push_back(Call);
      else if (isSubGroupBarrier(Name))
        Barriers.push_back(Call);
      else if (llvm::is_contained(IdPlaceholders, Name))
        AsksIds = true;
    }
  }
  if (Widths.empty() && Exchanges.empty() && Barriers.empty())
    return false;
  Width = subGroupSizeOf(F);
  for (llvm::CallInst *Call : Widths) {
    Call->replaceAllUsesWith(llvm::ConstantInt::get(Call->getType(), Width));
    Call->eraseFromParent();
  }
  // Where every work-item of the group reaches every sub-group function
  // alike, its barriers may hold the whole group: the usual sub-CFGs, no
  // per-work-item dispatch.
  Uniformity U(F, LI, PDT);
  // An early exit matters only before one of them (a final
  // `if (get_sub_group_local_id() == 0) store` is not one).
  bool Diverge = false;
  for (auto *Calls : {&Exchanges, &Barriers})
    for (llvm::CallInst *Call : *Calls)
      Diverge |= !U.isUniformlyReached(*Call->getParent()) ||
                 U.mayFollowEarlyExit(*Call->getParent());
  // A non-uniform function in a loop: the work-items of a sub-group that
  // skip it on one iteration must not run on to the next and meet there
  // those that wait at it from this one (they would be one active set). A
  // sub-group barrier at the end of each latch of the loops around it
  // holds every work-item still in the loop until the iteration's calls
  // are done: its id, in block order, is above theirs.
  llvm::SmallSetVector<llvm::BasicBlock *, 4> Latches;
  if (Diverge)
    for (llvm::CallInst *Call : Exchanges)
      if (calleeName(*Call).starts_with(ActiveExchangePrefix))
        for (llvm::Loop *L = LI.getLoopFor(Call->getParent()); L;
             L = L->getParentLoop()) {
          llvm::SmallVector<llvm::BasicBlock *, 2> LoopLatches;
          L->getLoopLatches(LoopLatches);
          Latches.insert(LoopLatches.begin(), LoopLatches.end());
        }
  for (llvm::CallInst *Call : Exchanges)
    lowerExchange(Call, calleeName(*Call).starts_with(ActiveExchangePrefix));
  for (llvm::BasicBlock *Latch : Latches)
    barrierBefore(Latch->getTerminator());
  for (llvm::CallInst *Call : Barriers) {
    barrierBefore(Call);
    Call->eraseFromParent();
  }
  if (Diverge)
    F.addFnAttr(SubGroupBarriersAttr);
  if (AsksIds && Width > 1)
    F.addFnAttr(SubGroupLoopsAttr, std::to_string(Width));
  return true;
}

} // namespace

llvm::PreservedAnalyses SubGroupsPass::run(llvm::Function &F,
                                           llvm::FunctionAnalysisManager &AM) {
  if (!isWorkGroupFunction(F))
    return llvm::PreservedAnalyses::all();
  if (!SubGroups(F, AM.getResult<llvm::LoopAnalysis>(F),
                 AM.getResult<llvm::PostDominatorTreeAnalysis>(F))
           .run())
    return llvm::PreservedAnalyses::all();
  return llvm::PreservedAnalyses::none();
}

} // namespace kc
