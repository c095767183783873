//===- Pipeline/Pipeline.h - The pass pipelines -----------------*- C++ -*-===//
#pragma once

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace kc {

// Link time, target independent: every call inlined into the kernels, the
// kernels simplified (SROA, CSE, combining), function attributes inferred
// (readonly/writeonly pointer arguments). OptDisable keeps only what the
// work-group passes need (inlining and promotion to registers).
void runKernelSimplificationPipeline(llvm::Module &M, bool OptDisable);

// Link time: the work-group functions <kernel>_wg; afterwards only they
// have external linkage.
void runWorkGroupPipeline(llvm::Module &M);

// Before code generation for TM: O3 (vectorization across work-items
// included), or O0 with OptDisable.
void runCodeGenPipeline(llvm::Module &M, llvm::TargetMachine &TM,
                        bool OptDisable);

} // namespace kc
