//===- Passes/Passes.h - The kernel compiler's passes -----------*- C++ -*-===//
//
// One pass per file. Pipeline/Pipeline.cpp puts them in order:
//
//   InlineIntoKernels      every call in a kernel inlined (kernels included)
//   WorkGroupFunction      <kernel>_wg(Args, Ctx): arguments unpacked from the
//                          argument buffer, the kernel inlined into it
//   WorkItemBuiltins       get_global_id & co. from the launch context and
//                          the local-id placeholders
//   LocalMemory            __local variables placed in the local arena
//   CanonicalizeBarriers   barrier calls to __kc_barrier, alone in a block
//   SubCfgFormation        kernels with barriers: sub-CFGs in work-item loops
//   WorkItemLoops          kernels without barriers: one loop nest
//
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/IR/PassManager.h>

namespace kc {

struct InlineIntoKernelsPass : llvm::PassInfoMixin<InlineIntoKernelsPass> {
  llvm::PreservedAnalyses run(llvm::Module &M, llvm::ModuleAnalysisManager &AM);
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

} // namespace kc
