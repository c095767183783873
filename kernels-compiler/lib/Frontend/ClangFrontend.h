//===- Frontend/ClangFrontend.h - OpenCL C to LLVM IR with Clang -*- C++
//-*-===//
#pragma once

#include "Frontend/BuildOptions.h"
#include "kc/Compiler.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace kc {

// The name the main source has in diagnostics.
inline constexpr std::string_view MainFileName = "input.cl";

// Compiles Source with Clang in process: no file is written and no process is
// started. Headers are visible to #include relative to the current directory
// and to every -I path; files on disk remain visible behind them. Clang's
// diagnostics are appended to Log in its text format. nullptr on failure.
std::unique_ptr<llvm::Module>
compileOpenCLC(llvm::LLVMContext &Context, std::string_view Source,
               std::span<const Header> Headers, const BuildOptions &Options,
               const DeviceTarget &Target, std::string &Log);

} // namespace kc
