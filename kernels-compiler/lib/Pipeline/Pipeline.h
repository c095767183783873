//===- Pipeline/Pipeline.h - The pass pipelines -----------------*- C++ -*-===//
#pragma once

#include <string>

namespace llvm {
class Module;
class StringRef;
class TargetLibraryInfoImpl;
class TargetMachine;
} // namespace llvm

namespace kc {

// Link time, target independent: every call inlined into the kernels, the
// kernels simplified (SROA, CSE, combining), function attributes inferred
// (readonly/writeonly pointer arguments). OptDisable keeps only what the
// work-group passes need (inlining and promotion to registers).
void runKernelSimplificationPipeline(llvm::Module &M, bool OptDisable);

// Link time: the work-group functions <kernel>_wg; afterwards only they
// have external linkage. OptDisable leaves the kernel's loops as they are
// (no implicit loop barriers).
void runWorkGroupPipeline(llvm::Module &M, bool OptDisable);

// Runs a textual pipeline (LLVM's syntax) in which the kernel compiler's
// passes have names: kc-inline-into-kernels, kc-work-group-function,
// kc-work-item-builtins, kc-local-memory (module passes),
// kc-implicit-loop-barriers, kc-canonicalize-barriers, kc-subcfg-formation,
// kc-work-item-loops (function passes). For tests and kcc. False and Error on a
// parse error.
bool runPassPipeline(llvm::Module &M, llvm::StringRef Pipeline,
                     std::string &Error);

// Before code generation for TM: O2 with non-trivial loop unswitching
// (Support/LLVMSetup.cpp), vectorization across work-items included, math
// calls to the vector variants TLII lists; or O0 with OptDisable.
void runCodeGenPipeline(llvm::Module &M, llvm::TargetMachine &TM,
                        const llvm::TargetLibraryInfoImpl &TLII,
                        bool OptDisable);

} // namespace kc
