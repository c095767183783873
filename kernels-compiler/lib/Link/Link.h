//===- Link/Link.h - Linking modules into programs --------------*- C++ -*-===//
#pragma once

#include "Frontend/BuildOptions.h"
#include "kc/KernelInfo.h"

#include <memory>
#include <span>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace kc {

class ModuleImpl;

// Routes the diagnostics of Context (linker errors, optimization remarks
// that are errors or warnings) into Log.
void captureDiagnostics(llvm::LLVMContext &Context, std::string &Log);

// Links objects and libraries into one module. The program linking options
// apply to objects and to libraries built with -enable-link-options.
std::unique_ptr<llvm::Module>
linkModules(llvm::LLVMContext &Context,
            std::span<const ModuleImpl *const> Inputs,
            const BuildOptions &Options, std::string &Log);

// The floating-point options as function attributes on every definition.
void applyMathOptions(llvm::Module &M, const BuildOptions &Options);

// Turns a linked module into an executable: builtins linked in, everything
// inlined into the kernels, kernel metadata collected, work-group functions
// generated. False with the reason in Log.
bool finalizeExecutable(llvm::Module &M, const BuildOptions &Options,
                        std::vector<KernelInfo> &Kernels, std::string &Log);

} // namespace kc
