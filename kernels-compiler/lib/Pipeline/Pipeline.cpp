//===- Pipeline/Pipeline.cpp - The pass pipelines -------------------------===//
#include "Pipeline/Pipeline.h"

#include "Passes/Passes.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/Analysis/CGSCCPassManager.h>
#include <llvm/Analysis/LoopAnalysisManager.h>
#include <llvm/Analysis/TargetLibraryInfo.h>
#include <llvm/CodeGen/ReplaceWithVeclib.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/PassManager.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Target/TargetMachine.h>
#include <llvm/Transforms/IPO/FunctionAttrs.h>
#include <llvm/Transforms/IPO/GlobalDCE.h>
#include <llvm/Transforms/IPO/Internalize.h>
#include <llvm/Transforms/InstCombine/InstCombine.h>
#include <llvm/Transforms/Scalar/EarlyCSE.h>
#include <llvm/Transforms/Scalar/SROA.h>
#include <llvm/Transforms/Scalar/SimplifyCFG.h>
#include <llvm/Transforms/Utils/Mem2Reg.h>

namespace kc {

namespace {

// The analysis managers a pipeline runs with, cross-registered. With TLII,
// the target library information is that one (vector variants included)
// instead of the triple's default.
struct Analyses {
  explicit Analyses(llvm::TargetMachine *TM = nullptr,
                    const llvm::TargetLibraryInfoImpl *TLII = nullptr)
      : PB(TM) {
    if (TLII)
      FAM.registerPass([TLII] { return llvm::TargetLibraryAnalysis(*TLII); });
    PB.registerModuleAnalyses(MAM);
    PB.registerCGSCCAnalyses(CGAM);
    PB.registerFunctionAnalyses(FAM);
    PB.registerLoopAnalyses(LAM);
    PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  }
  llvm::PassBuilder PB;
  llvm::LoopAnalysisManager LAM;
  llvm::FunctionAnalysisManager FAM;
  llvm::CGSCCAnalysisManager CGAM;
  llvm::ModuleAnalysisManager MAM;
};

} // namespace

void runKernelSimplificationPipeline(llvm::Module &M, bool OptDisable) {
  Analyses A;
  llvm::ModulePassManager MPM;
  MPM.addPass(PrintfPass());
  MPM.addPass(InlineIntoKernelsPass());
  MPM.addPass(llvm::GlobalDCEPass());
  llvm::FunctionPassManager FPM;
  if (OptDisable) {
    FPM.addPass(llvm::PromotePass());
  } else {
    FPM.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
    FPM.addPass(llvm::EarlyCSEPass(/*UseMemorySSA=*/true));
    FPM.addPass(llvm::InstCombinePass());
    FPM.addPass(llvm::SimplifyCFGPass());
    FPM.addPass(llvm::SROAPass(llvm::SROAOptions::ModifyCFG));
  }
  // After the clean-up, so that constant divisors are known as such.
  FPM.addPass(SafeDivisionPass());
  MPM.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(FPM)));
  MPM.addPass(llvm::createModuleToPostOrderCGSCCPassAdaptor(
      llvm::PostOrderFunctionAttrsPass()));
  MPM.run(M, A.MAM);
}

void runWorkGroupPipeline(llvm::Module &M, bool OptDisable) {
  Analyses A;
  llvm::ModulePassManager MPM;
  MPM.addPass(WorkGroupFunctionPass());
  MPM.addPass(WorkItemBuiltinsPass());
  MPM.addPass(PrintfBufferPass());
  MPM.addPass(GenericAddressSpacePass());
  MPM.addPass(LocalMemoryPass());
  llvm::FunctionPassManager FPM;
  FPM.addPass(SubGroupsPass());
  if (!OptDisable)
    FPM.addPass(ImplicitLoopBarriersPass());
  FPM.addPass(CanonicalizeBarriersPass());
  FPM.addPass(SubCfgFormationPass());
  FPM.addPass(WorkItemLoopsPass());
  FPM.addPass(LocalAtomicsPass());
  MPM.addPass(llvm::createModuleToFunctionPassAdaptor(std::move(FPM)));
  MPM.addPass(llvm::InternalizePass([](const llvm::GlobalValue &GV) {
    const auto *F = llvm::dyn_cast<llvm::Function>(&GV);
    return F && isWorkGroupFunction(*F);
  }));
  MPM.addPass(llvm::GlobalDCEPass());
  MPM.addPass(LargeGlobalsPass());
  MPM.run(M, A.MAM);
}

bool runPassPipeline(llvm::Module &M, llvm::StringRef Pipeline,
                     std::string &Error) {
  Analyses A;
  A.PB.registerPipelineParsingCallback(
      [](llvm::StringRef Name, llvm::ModulePassManager &MPM,
         llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
        if (Name == "kc-inline-into-kernels")
          MPM.addPass(InlineIntoKernelsPass());
        else if (Name == "kc-work-group-function")
          MPM.addPass(WorkGroupFunctionPass());
        else if (Name == "kc-work-item-builtins")
          MPM.addPass(WorkItemBuiltinsPass());
        else if (Name == "kc-local-memory")
          MPM.addPass(LocalMemoryPass());
        else if (Name == "kc-printf")
          MPM.addPass(PrintfPass());
        else if (Name == "kc-printf-buffer")
          MPM.addPass(PrintfBufferPass());
        else if (Name == "kc-large-globals")
          MPM.addPass(LargeGlobalsPass());
        else if (Name == "kc-generic-address-space")
          MPM.addPass(GenericAddressSpacePass());
        else
          return false;
        return true;
      });
  A.PB.registerPipelineParsingCallback(
      [](llvm::StringRef Name, llvm::FunctionPassManager &FPM,
         llvm::ArrayRef<llvm::PassBuilder::PipelineElement>) {
        if (Name == "kc-safe-division")
          FPM.addPass(SafeDivisionPass());
        else if (Name == "kc-sub-groups")
          FPM.addPass(SubGroupsPass());
        else if (Name == "kc-implicit-loop-barriers")
          FPM.addPass(ImplicitLoopBarriersPass());
        else if (Name == "kc-canonicalize-barriers")
          FPM.addPass(CanonicalizeBarriersPass());
        else if (Name == "kc-subcfg-formation")
          FPM.addPass(SubCfgFormationPass());
        else if (Name == "kc-work-item-loops")
          FPM.addPass(WorkItemLoopsPass());
        else if (Name == "kc-local-atomics")
          FPM.addPass(LocalAtomicsPass());
        else if (Name == "kc-scalarize-vector-types")
          FPM.addPass(ScalarizeVectorTypesPass());
        else
          return false;
        return true;
      });
  llvm::ModulePassManager MPM;
  if (llvm::Error E = A.PB.parsePassPipeline(MPM, Pipeline)) {
    Error = llvm::toString(std::move(E));
    return false;
  }
  MPM.run(M, A.MAM);
  return true;
}

void runCodeGenPipeline(llvm::Module &M, llvm::TargetMachine &TM,
                        const llvm::TargetLibraryInfoImpl &TLII,
                        bool OptDisable) {
  Analyses A(&TM, &TLII);
  // Vector intrinsics the vectorizer kept or the source had (llvm.exp.v8f32)
  // become calls to the vector variants TLII knows, rather than being split
  // into scalar calls by code generation.
  A.PB.registerOptimizerLastEPCallback(
      [](llvm::ModulePassManager &MPM, llvm::OptimizationLevel) {
        MPM.addPass(
            llvm::createModuleToFunctionPassAdaptor(llvm::ReplaceWithVeclib()));
      });
  // Kernels written with float8 and the like: scalars where the work-item
  // loops then vectorize across work-items.
  A.PB.registerVectorizerStartEPCallback(
      [](llvm::FunctionPassManager &FPM, llvm::OptimizationLevel) {
        FPM.addPass(ScalarizeVectorTypesPass());
      });
  // O2, not O3: what O3 adds that mattered here is non-trivial loop
  // unswitching (without it the naive matmul of bench/kernels ran at 5
  // GFLOP/s instead of 83, n-body at 0.9 Gpair/s instead of 5.3), which
  // initializeLLVM turns on for every level. The rest of O3 (more
  // unrolling, AggressiveInstCombine, call-site splitting) made no kernel of
  // bench/kernels or bench/math faster and cost 8-10% of the build time of
  // the compute program (210 -> 192 ms of CPU).
  llvm::ModulePassManager MPM =
      OptDisable
          ? A.PB.buildO0DefaultPipeline(llvm::OptimizationLevel::O0)
          : A.PB.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2);
  MPM.run(M, A.MAM);
}

} // namespace kc
