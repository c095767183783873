//===- CodeGen/CodeGen.h - Executable modules to object code ----*- C++ -*-===//
#pragma once

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class MemoryBuffer;
class Module;
namespace orc {
class JITTargetMachineBuilder;
} // namespace orc
} // namespace llvm

namespace kc {

class ModuleImpl;

// The host CPU, its features and the code generation level the JIT uses.
struct HostTarget {
  std::string Triple;
  std::string CPU;
  std::string Features; // "+avx2,+fma,-avx512f,..."
};
HostTarget detectHostTarget();

// Module flag set on executables built with -cl-opt-disable.
inline constexpr const char *OptDisableFlag = "kc.opt-disable";

// The executable's IR as code generation sees it: parsed into Context, the
// host CPU and features set on every function, the O3 pipeline run (O0 with
// -cl-opt-disable). nullptr and Error on failure.
std::unique_ptr<llvm::Module> optimizeForHost(const ModuleImpl &Executable,
                                              const HostTarget &Host,
                                              llvm::LLVMContext &Context,
                                              std::string &Error);

// An ELF object of the executable's work-group functions for the host: the
// bitcode parsed into a fresh context, the host CPU and features set on
// every function, the O3 pipeline (O0 with -cl-opt-disable), code
// generation. nullptr and Error on failure.
std::unique_ptr<llvm::MemoryBuffer>
compileToObject(const ModuleImpl &Executable, const HostTarget &Host,
                std::string &Error);

} // namespace kc
