//===- Builtins/BuiltinLibrary.h - The OpenCL C builtin library -*- C++ -*-===//
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace llvm {
class Module;
class StringRef;
} // namespace llvm

namespace kc {

// Links into M the builtin library functions M calls (and what they call),
// read lazily from the bitcode embedded in this library.
bool linkBuiltins(llvm::Module &M, std::string &Log);

// Functions generated code may call in the host process (libm and the C
// memory functions): nothing else resolves against the process.
bool isHostLibraryFunction(llvm::StringRef Name);
// Those functions with their addresses in this process (what generated
// code links against).
const std::vector<std::pair<std::string, void *>> &hostLibrarySymbols();

} // namespace kc
