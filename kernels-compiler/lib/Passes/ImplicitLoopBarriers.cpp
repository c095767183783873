//===- Passes/ImplicitLoopBarriers.cpp - Work-item loops in loops ---------===//
//
// A barrier-free kernel runs each work-item to completion in turn, so a
// loop of the kernel is inside the work-item loop and LLVM can vectorize
// only that inner loop: often it cannot (a float sum over j needs the
// additions in order; n-body, a naive matrix multiply), and the kernel runs
// scalar. When every work-item runs such a loop the same number of times,
// a barrier at the top of its body is free to add (work-items are unordered
// between barriers): SubCfgFormation then puts a work-item loop inside each
// iteration, and that loop vectorizes across work-items like the body of
// any barrier-free kernel, with the loop's per-work-item values (the sums)
// in per-work-item arrays.
//
// Work-items may also run a loop a different number of times (a varying
// bound or break, Mandelbrot's escape test, a loop under a varying
// condition): the barrier is just as free there, as long as the kernel has
// no barrier of its own, since no work-item waits for another. Such
// functions are marked kc-divergent-barriers, and SubCfgFormation runs each
// pass masked over the work-items still in the loop (see there). Each
// work-item's loop counters are then its own, so only loops without a
// memory access whose address follows the loop are chosen (such accesses
// would become gathers and scatters: a sparse matrix row, a grid-stride
// loop ran up to 2x slower), and only when the loop may run more than a
// few times (at most 32 iterations known at compile time: the passes cost
// more than they save; `j < (gid & 3)` ran 3.5x slower).
//
// Chosen loops: innermost; reached and left the same way by every work-item
// that has not ended (Uniformity: `if (gid >= n) return;` before the loop
// is fine, the function is then marked kc-may-exit-early for
// SubCfgFormation), or else divergent as above; not a small constant number
// of iterations of a body small enough to unroll whole (unrolling does
// better); something in them differs between
// work-items; no calls,
// atomics or volatile accesses (they keep the work-item loop scalar
// anyway); no access that walks a row per work-item (unit stride along the
// loop, not consecutive for neighbouring work-items in x: the loop
// vectorizes as it is, and across work-items it would gather; see
// AccessStride.h). Kernels with barriers of their own or private variables
// in memory (they would become per-work-item arrays) are left as they are,
// and so is everything built with -cl-opt-disable (Pipeline.cpp does not
// run the pass). Vector values of the chosen kernels are split into scalars
// first, which is what the vectorizer across work-items needs. Work-groups
// narrower than 4 work-items in x run a copy of the body without the
// barriers (with one work-item in x the barriers made n-body 1.8x and a
// naive matrix multiply 4x slower).
//
//===----------------------------------------------------------------------===//
#include "Passes/AccessStride.h"
#include "Passes/Passes.h"
#include "Passes/Uniformity.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/Analysis/LoopInfo.h>
#include <llvm/Analysis/PostDominators.h>
#include <llvm/Analysis/ScalarEvolution.h>
#include <llvm/Analysis/ValueTracking.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/Dominators.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Scalar/Scalarizer.h>
#include <llvm/Transforms/Utils/Cloning.h>
#include <llvm/Transforms/Utils/ValueMapper.h>

namespace kc {

namespace {

// Loops with at most this many iterations, known at compile time, are left
// for the unroller...
constexpr unsigned SmallTripCount = 32;
// ...when it unrolls them whole: their body, vector values counted by
// their elements (the vectorizer across work-items splits them), times the
// trip count at most this many instructions (LLVM's full-unroll threshold
// at O2 is 150 of its cost units). clpeak's float8 kernel, 16 iterations of
// 16 float8 mads, stayed a loop of vector operations in each work-item, a
// chain of dependent fmas: 10 GFLOPS against float4's 100.
constexpr unsigned FullUnrollSize = 600;
// At most this many loops work-items run differently get barriers in one
// kernel: each costs a sub-CFG in three copies, some 70 ms of code
// generation (a kernel with 12 such loops built in 860 ms against 33 ms).
constexpr unsigned MaxDivergentLoops = 4;
// Work-groups at least this wide in x run the version with the barriers.
constexpr uint64_t MinVectorLocalSize = 4;

bool hasBarriers(const llvm::Function &F) {
  for (const llvm::BasicBlock &BB : F)
    for (const llvm::Instruction &I : BB)
      if (const auto *Call = llvm::dyn_cast<llvm::CallInst>(&I))
        if (const llvm::Function *Callee = Call->getCalledFunction())
          if (isBarrierBuiltin(Callee->getName()) || isBarrierPlaceholder(I))
            return true;
  return false;
}

// A private variable in memory used by the body (not written once by the
// prologue, like a struct argument).
bool hasPrivateMemory(llvm::Function &F) {
  llvm::BasicBlock &Entry = F.getEntryBlock();
  for (llvm::Instruction &I : Entry) {
    auto *A = llvm::dyn_cast<llvm::AllocaInst>(&I);
    if (!A)
      continue;
    bool InPrologue = false;
    bool InBody = false;
    for (llvm::User *U : A->users()) {
      if (llvm::isa<llvm::LifetimeIntrinsic>(U))
        continue;
      (llvm::cast<llvm::Instruction>(U)->getParent() == &Entry ? InPrologue
                                                               : InBody) = true;
    }
    if (InBody && !InPrologue)
      return true;
  }
  for (llvm::BasicBlock &BB : F)
    if (&BB != &Entry)
      for (llvm::Instruction &I : BB)
        if (llvm::isa<llvm::AllocaInst>(I))
          return true;
  return false;
}

bool keepsWorkItemLoopScalar(const llvm::Instruction &I) {
  if (localIdPlaceholderDim(I) >= 0)
    return false;
  if (const auto *Call = llvm::dyn_cast<llvm::CallBase>(&I))
    return !llvm::isa<llvm::IntrinsicInst>(Call);
  if (I.isAtomic() || llvm::isa<llvm::FenceInst>(I))
    return true;
  if (const auto *Load = llvm::dyn_cast<llvm::LoadInst>(&I))
    return Load->isVolatile();
  if (const auto *Store = llvm::dyn_cast<llvm::StoreInst>(&I))
    return Store->isVolatile();
  return false;
}

// The values computed from the local id in x (the dimension the work-item
// loop vectorizes), through data only.
llvm::DenseSet<const llvm::Value *> dependOnLocalIdX(llvm::Function &F) {
  llvm::DenseSet<const llvm::Value *> Result;
  llvm::SmallVector<const llvm::Value *, 32> Work;
  for (llvm::BasicBlock &BB : F)
    for (llvm::Instruction &I : BB)
      if (int Dim = localIdPlaceholderDim(I); Dim == 0 || Dim == 3)
        if (Result.insert(&I).second)
          Work.push_back(&I);
  while (!Work.empty())
    for (const llvm::User *U : Work.pop_back_val()->users())
      if (Result.insert(U).second)
        Work.push_back(U);
  return Result;
}

// An access whose address follows the loop with a unit stride and is not
// consecutive between neighbouring work-items (a row per work-item): the
// loop vectorizes well as it is, across work-items it would gather. (A
// convolution's in[i + t] is consecutive both ways: not a row.)
bool hasRowPerWorkItemAccess(const llvm::Loop &L,
                             const llvm::DenseSet<const llvm::Value *> &OnX,
                             llvm::ScalarEvolution &SE) {
  for (const llvm::BasicBlock *BB : L.blocks()) {
    for (const llvm::Instruction &I : *BB) {
      const llvm::Value *Ptr = llvm::getLoadStorePointerOperand(&I);
      if (!Ptr || !OnX.contains(Ptr))
        continue;
      llvm::Type *Ty =
          llvm::getLoadStoreType(const_cast<llvm::Instruction *>(&I));
      uint64_t Size = I.getModule()->getDataLayout().getTypeStoreSize(Ty);
      const llvm::SCEV *Address = SE.getSCEV(const_cast<llvm::Value *>(Ptr));
      std::optional<int64_t> Step = stepAlongLoop(Address, L, SE);
      if (!Step || static_cast<uint64_t>(std::abs(*Step)) != Size)
        continue;
      std::optional<int64_t> AcrossX = stepAlongLocalIdX(Address, OnX, SE);
      if (!AcrossX || static_cast<uint64_t>(std::abs(*AcrossX)) != Size)
        return true;
    }
  }
  return false;
}

// A memory access whose address changes from one iteration to the next.
bool hasAccessAlongLoop(const llvm::Loop &L, llvm::ScalarEvolution &SE) {
  for (const llvm::BasicBlock *BB : L.blocks())
    for (const llvm::Instruction &I : *BB)
      if (const llvm::Value *Ptr = llvm::getLoadStorePointerOperand(&I))
        if (!SE.isLoopInvariant(SE.getSCEV(const_cast<llvm::Value *>(Ptr)), &L))
          return true;
  return false;
}

// The loop's instructions, a vector value counted by its elements.
uint64_t scalarSize(const llvm::Loop &L) {
  uint64_t Size = 0;
  for (const llvm::BasicBlock *BB : L.blocks())
    for (const llvm::Instruction &I : *BB) {
      const auto *Vector = llvm::dyn_cast<llvm::FixedVectorType>(I.getType());
      Size += Vector ? Vector->getNumElements() : 1;
    }
  return Size;
}

enum class Choice { No, Uniform, Divergent };

Choice choose(const llvm::Loop &L, const Uniformity &U,
              const llvm::DenseSet<const llvm::Value *> &OnX,
              llvm::ScalarEvolution &SE) {
  if (!L.isInnermost())
    return Choice::No;
  llvm::SmallVector<llvm::BasicBlock *, 4> Exiting;
  L.getExitingBlocks(Exiting);
  if (Exiting.empty())
    return Choice::No;
  bool Divergent = !U.isUniformlyReached(*L.getHeader()) ||
                   !llvm::all_of(Exiting, [&](llvm::BasicBlock *BB) {
                     return U.isUniformTerminator(*BB);
                   });
  unsigned TripCount = SE.getSmallConstantTripCount(&L);
  if (TripCount != 0 && TripCount <= SmallTripCount &&
      TripCount * scalarSize(L) <= FullUnrollSize)
    return Choice::No;
  bool Varies = Divergent;
  for (const llvm::BasicBlock *BB : L.blocks()) {
    for (const llvm::Instruction &I : *BB) {
      if (keepsWorkItemLoopScalar(I))
        return Choice::No;
      Varies |= !U.isUniform(&I);
    }
  }
  if (!Varies || hasRowPerWorkItemAccess(L, OnX, SE))
    return Choice::No;
  if (!Divergent)
    return Choice::Uniform;
  // Divergent loops: each work-item's loop counters are its own, so an
  // address that follows the loop becomes a gather or scatter across
  // work-items (a sparse matrix row, a grid-stride loop: slower than the
  // scalar loop); and a few iterations at most do not pay for the passes.
  unsigned MaxTripCount = SE.getSmallConstantMaxTripCount(&L);
  if ((MaxTripCount != 0 && MaxTripCount <= SmallTripCount) ||
      hasAccessAlongLoop(L, SE))
    return Choice::No;
  return Choice::Divergent;
}

// The body twice: as it is, for work-groups narrower than
// MinVectorLocalSize in x (too few work-items to fill a vector, and each
// iteration would pay for a pass over the work-items), and a copy for the
// others, which gets the barriers. VMap maps the body to the copy.
void addVectorVersion(llvm::Function &F, llvm::ValueToValueMapTy &VMap) {
  llvm::BasicBlock *Entry = &F.getEntryBlock();
  llvm::BasicBlock *Exit = exitBlock(F);
  llvm::BasicBlock *Body = bodyEntry(F);
  llvm::SmallVector<llvm::BasicBlock *, 16> Blocks;
  for (llvm::BasicBlock &BB : F)
    if (&BB != Entry && &BB != Exit)
      Blocks.push_back(&BB);

  llvm::SmallVector<llvm::BasicBlock *, 16> Clones;
  for (llvm::BasicBlock *BB : Blocks) {
    llvm::BasicBlock *Clone = llvm::CloneBasicBlock(BB, VMap, ".vec", &F);
    VMap[BB] = Clone;
    Clones.push_back(Clone);
  }
  for (llvm::BasicBlock *Clone : Clones)
    for (llvm::Instruction &I : *Clone)
      llvm::RemapInstruction(&I, VMap,
                             llvm::RF_IgnoreMissingLocals |
                                 llvm::RF_NoModuleLevelChanges);

  llvm::Value *Width = loadContextField(F, ctx::LocalSize, 0);
  auto *Choose =
      llvm::BasicBlock::Create(F.getContext(), "choose.version", &F, Body);
  llvm::IRBuilder<> B(Choose);
  llvm::Value *Wide = B.CreateICmpUGE(
      Width, llvm::ConstantInt::get(Width->getType(), MinVectorLocalSize));
  B.CreateCondBr(Wide, llvm::cast<llvm::BasicBlock>(VMap[Body]), Body);
  Entry->getTerminator()->replaceSuccessorWith(Body, Choose);
}

} // namespace

llvm::PreservedAnalyses
ImplicitLoopBarriersPass::run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM) {
  if (!isWorkGroupFunction(F) || hasBarriers(F) || hasPrivateMemory(F))
    return llvm::PreservedAnalyses::all();
  auto &LI = AM.getResult<llvm::LoopAnalysis>(F);
  auto &PDT = AM.getResult<llvm::PostDominatorTreeAnalysis>(F);
  auto &SE = AM.getResult<llvm::ScalarEvolutionAnalysis>(F);
  Uniformity U(F, LI, PDT);
  llvm::DenseSet<const llvm::Value *> OnX = dependOnLocalIdX(F);

  llvm::SmallVector<llvm::BasicBlock *, 4> Headers;
  llvm::SmallVector<llvm::BasicBlock *, 4> Exits;
  unsigned DivergentLoops = 0;
  for (llvm::Loop *L : LI.getLoopsInPreorder()) {
    Choice Chosen = choose(*L, U, OnX, SE);
    if (Chosen == Choice::Divergent && DivergentLoops == MaxDivergentLoops)
      continue;
    if (Chosen != Choice::No)
      Headers.push_back(L->getHeader());
    if (Chosen == Choice::Divergent) {
      llvm::SmallVector<llvm::BasicBlock *, 4> LoopExits;
      L->getExitBlocks(LoopExits);
      for (llvm::BasicBlock *BB : LoopExits)
        if (!llvm::is_contained(Exits, BB))
          Exits.push_back(BB);
    }
    DivergentLoops += Chosen == Choice::Divergent;
  }
  bool Divergent = DivergentLoops != 0;
  if (Headers.empty())
    return llvm::PreservedAnalyses::all();

  llvm::ValueToValueMapTy VMap;
  addVectorVersion(F, VMap);
  llvm::Module &M = *F.getParent();
  llvm::FunctionCallee Barrier = M.getOrInsertFunction(
      BarrierPlaceholder, llvm::Type::getVoidTy(F.getContext()));
  for (llvm::BasicBlock *Header : Headers) {
    auto *Clone = llvm::cast<llvm::BasicBlock>(VMap[Header]);
    llvm::CallInst::Create(Barrier, "", Clone->getFirstInsertionPt());
  }
  // A divergent loop's exits get one too: what follows the loop is then a
  // sub-CFG of its own, and the loop's (run in chunks, SubCfgChunks.cpp)
  // holds nothing but its iterations (the kernel's store of the result
  // after Mandelbrot's loop, inside it, kept the vectorizer from making
  // the chunk one vector iteration without a scalar fallback).
  for (llvm::BasicBlock *BB : Exits) {
    auto It = VMap.find(BB);
    if (It == VMap.end() || llvm::is_contained(Headers, BB))
      continue; // the kernel's end, or a chosen loop's header
    auto *Clone = llvm::cast<llvm::BasicBlock>(It->second);
    llvm::CallInst::Create(Barrier, "", Clone->getFirstInsertionPt());
  }
  F.addFnAttr("kc-implicit-loop-barriers");
  if (U.hasEarlyExits())
    F.addFnAttr("kc-may-exit-early");
  if (Divergent)
    F.addFnAttr("kc-divergent-barriers");

  AM.invalidate(F, llvm::PreservedAnalyses::none());
  llvm::ScalarizerPassOptions Options;
  Options.ScalarizeLoadStore = true;
  Options.ScalarizeVariableInsertExtract = true;
  llvm::ScalarizerPass(Options).run(F, AM);
  return llvm::PreservedAnalyses::none();
}

} // namespace kc
