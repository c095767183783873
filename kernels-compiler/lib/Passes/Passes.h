//===- Passes/Passes.h - The kernel compiler's passes -----------*- C++ -*-===//
//
// One pass per file. Pipeline/Pipeline.cpp puts them in order:
//
//   Printf                 printf calls to records in the printf buffer
//                          (first, before anything turns them into puts)
//   InlineIntoKernels      every call in a kernel inlined (kernels included)
//   SafeDivision           integer division and remainder that never trap
//                          (divisor 1 for x / 0 and INT_MIN / -1)
//   WorkGroupFunction      <kernel>_wg(Args, Ctx): arguments unpacked from the
//                          argument buffer, the kernel inlined into it
//   WorkItemBuiltins       get_global_id & co. from the launch context and
//                          the local-id placeholders
//   PrintfBuffer           the printf buffer from the launch context
//   GenericAddressSpace    to_global/to_local/to_private/get_fence from the
//                          launch context's address ranges
//   LocalMemory            __local variables placed in the local arena
//   SubGroups              sub-group collectives and shuffles: each
//                          work-item's operand to a slot, a barrier, the
//                          sub-group's slots read back
//   ImplicitLoopBarriers   barrier-free kernels: a barrier at the top of the
//                          loops every work-item runs alike, so that the
//                          work-item loop goes inside them
//   CanonicalizeBarriers   barrier calls to __kc_barrier, alone in a block
//   SubCfgFormation        kernels with barriers: sub-CFGs in work-item loops
//   WorkItemLoops          kernels without barriers: one loop nest
//   LocalAtomics           atomics on __local memory as plain accesses (a
//                          work-group runs on one thread)
//   LargeGlobals           program-scope variables of 1 MiB or more to
//                          storage outside the JIT's image (WorkGroupABI.h)
//
// In the host O3 pipeline, before its loop vectorizer:
//   ScalarizeVectorTypes   float8 & co. split into scalars where the work-item
//                          loop then vectorizes across work-items
//
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/IR/PassManager.h>

namespace kc {

struct PrintfPass : llvm::PassInfoMixin<PrintfPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

struct PrintfBufferPass : llvm::PassInfoMixin<PrintfBufferPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

struct GenericAddressSpacePass : llvm::PassInfoMixin<GenericAddressSpacePass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

struct InlineIntoKernelsPass : llvm::PassInfoMixin<InlineIntoKernelsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

struct SafeDivisionPass : llvm::PassInfoMixin<SafeDivisionPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

struct WorkGroupFunctionPass : llvm::PassInfoMixin<WorkGroupFunctionPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

struct WorkItemBuiltinsPass : llvm::PassInfoMixin<WorkItemBuiltinsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

struct LocalMemoryPass : llvm::PassInfoMixin<LocalMemoryPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};

struct SubGroupsPass : llvm::PassInfoMixin<SubGroupsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

struct ImplicitLoopBarriersPass
    : llvm::PassInfoMixin<ImplicitLoopBarriersPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

struct CanonicalizeBarriersPass
    : llvm::PassInfoMixin<CanonicalizeBarriersPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

struct SubCfgFormationPass : llvm::PassInfoMixin<SubCfgFormationPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

struct WorkItemLoopsPass : llvm::PassInfoMixin<WorkItemLoopsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

struct LocalAtomicsPass : llvm::PassInfoMixin<LocalAtomicsPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

struct LargeGlobalsPass : llvm::PassInfoMixin<LargeGlobalsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
};
struct ScalarizeVectorTypesPass
    : llvm::PassInfoMixin<ScalarizeVectorTypesPass> {
  llvm::PreservedAnalyses run(llvm::Function &F,
                              llvm::FunctionAnalysisManager &AM);
};

} // namespace kc
