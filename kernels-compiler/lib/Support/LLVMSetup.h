//===- Support/LLVMSetup.h - One-time LLVM initialization -------*- C++ -*-===//
#pragma once

namespace kc {

// Registers the native target, its assembly printer and parser. Safe to call
// from any thread, any number of times.
void initializeLLVM();

} // namespace kc
