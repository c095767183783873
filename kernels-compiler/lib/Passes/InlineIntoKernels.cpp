//===- Passes/InlineIntoKernels.cpp - Every call inlined into the kernels -===//
//
// The work-item loops must see the whole kernel: its local ids become loop
// variables and its barriers become sub-CFG boundaries only when nothing is
// left behind a call. OpenCL C forbids recursion; a recursive function that
// slips through (a Clang extension) is left as a call, and so are the
// library's __kc_outline_ functions.
//
//===----------------------------------------------------------------------===//
#include "Metadata/KernelMetadata.h"
#include "Passes/Passes.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/ADT/SCCIterator.h>
#include <llvm/ADT/SmallPtrSet.h>
#include <llvm/Analysis/CallGraph.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/Transforms/Utils/Cloning.h>

namespace kc {

namespace {

llvm::SmallPtrSet<llvm::Function *, 4> recursiveFunctions(llvm::Module &M) {
  llvm::SmallPtrSet<llvm::Function *, 4> Result;
  llvm::CallGraph CG(M);
  for (auto It = llvm::scc_begin(&CG); !It.isAtEnd(); ++It) {
    const std::vector<llvm::CallGraphNode *> &SCC = *It;
    bool Recursive = SCC.size() > 1 || It.hasCycle();
    if (!Recursive)
      continue;
    for (llvm::CallGraphNode *Node : SCC)
      if (llvm::Function *F = Node->getFunction())
        Result.insert(F);
  }
  return Result;
}

bool shouldInline(const llvm::CallBase &Call,
                  const llvm::SmallPtrSetImpl<llvm::Function *> &Skip) {
  const llvm::Function *Callee = Call.getCalledFunction();
  return Callee && !Callee->isDeclaration() && !Callee->isIntrinsic() &&
         !Skip.contains(Callee) &&
         !Callee->getName().starts_with(OutOfLinePrefix) &&
         Call.getFunctionType() == Callee->getFunctionType();
}

void inlineAll(llvm::Function &Kernel,
               const llvm::SmallPtrSetImpl<llvm::Function *> &Skip) {
  llvm::SmallVector<llvm::CallBase *, 16> Work;
  for (llvm::BasicBlock &BB : Kernel)
    for (llvm::Instruction &I : BB)
      if (auto *Call = llvm::dyn_cast<llvm::CallBase>(&I);
          Call && shouldInline(*Call, Skip))
        Work.push_back(Call);
  while (!Work.empty()) {
    llvm::CallBase *Call = Work.pop_back_val();
    llvm::InlineFunctionInfo Info;
    if (!llvm::InlineFunction(*Call, Info).isSuccess())
      continue;
    for (llvm::CallBase *Inlined : Info.InlinedCallSites)
      if (shouldInline(*Inlined, Skip))
        Work.push_back(Inlined);
  }
}

} // namespace

llvm::PreservedAnalyses
InlineIntoKernelsPass::run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
  llvm::SmallPtrSet<llvm::Function *, 4> Skip = recursiveFunctions(M);
  bool Changed = false;
  for (llvm::Function &F : M) {
    if (!isKernel(F))
      continue;
    inlineAll(F, Skip);
    Changed = true;
  }
  return Changed ? llvm::PreservedAnalyses::none()
                 : llvm::PreservedAnalyses::all();
}

} // namespace kc
