//===- Metadata/KernelMetadata.h - KernelInfo from LLVM IR ------*- C++ -*-===//
#pragma once

#include "kc/KernelInfo.h"

namespace llvm {
class Function;
class Module;
} // namespace llvm

namespace kc {

// Whether F is an OpenCL kernel (Clang gives kernels the SPIR kernel calling
// convention on every target).
bool isKernel(const llvm::Function &F);

// The argument descriptions, attributes and argument buffer layout of kernel
// F, from Clang's kernel metadata and the module's data layout.
KernelInfo describeKernel(const llvm::Function &F);

// What optimization proved: pointer arguments only read or only written (the
// readonly/writeonly/readnone parameter attributes function-attribute
// inference adds), and the private memory left in allocas.
void addInferredInfo(const llvm::Function &F, KernelInfo &Info);

// The argument buffer layout: each argument at the next offset aligned to its
// alignment; the size rounded up to the largest alignment.
void layOutArguments(KernelInfo &Info);

} // namespace kc
