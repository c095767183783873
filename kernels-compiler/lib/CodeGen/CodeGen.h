//===- CodeGen/CodeGen.h - Executable modules to object code ----*- C++ -*-===//
#pragma once

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Function;
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
// Whether Host.Features enables Feature ("avx512f": "+avx512f" is listed).
bool hasFeature(const HostTarget &Host, llvm::StringRef Feature);

// Module flag set on executables built with -cl-opt-disable.
inline constexpr const char *OptDisableFlag = "kc.opt-disable";

// The executable's IR as code generation sees it: parsed into Context, the
// host CPU and features set on every function, the host pipeline run
// (runCodeGenPipeline: O2 with non-trivial loop unswitching; O0 with
// -cl-opt-disable). nullptr and Error on failure.
std::unique_ptr<llvm::Module> optimizeForHost(const ModuleImpl &Executable,
                                              const HostTarget &Host,
                                              llvm::LLVMContext &Context,
                                              std::string &Error);

// The object code of the executable's work-group functions for the host:
// the bitcode parsed into a fresh context, the host CPU and features set on
// every function, the host pipeline (O0 with -cl-opt-disable), code
// generation. An executable with several work-group functions is split into
// codeGenParts() parts of about the same weight (codeGenWeight), compiled at
// once, on a thread each; the result
// is then their ELF objects packed into one buffer (packObjects), else one
// ELF object. nullptr and Error on failure.
std::unique_ptr<llvm::MemoryBuffer>
compileToObject(const ModuleImpl &Executable, const HostTarget &Host,
                std::string &Error);

// How many parts compileToObject compiles M in: one per defined function,
// at most one per processing unit this process may run on, at most
// MaxCodeGenParts.
inline constexpr unsigned MaxCodeGenParts = 16;
unsigned codeGenParts(const llvm::Module &M);
// Tests: at most Threads parts from now on in this process (0: as many as
// the processing units).
void setCodeGenThreads(unsigned Threads);

// What compiling F is expected to cost, in instructions, for splitting a
// module into parts of the same weight: its instructions, and
// CodeGenLoopWeight for each of its loops, which the host pipeline rotates,
// unswitches, unrolls and vectorizes (a vector body, a vector epilogue and a
// scalar remainder each).
inline constexpr uint64_t CodeGenLoopWeight = 23;
uint64_t codeGenWeight(const llvm::Function &F);

// Several objects in one buffer (the on-disk cache keeps one buffer per
// executable): the magic, the count and the sizes as 8-byte little-endian
// numbers, then the objects. One object stays as it is.
inline constexpr char PackedObjectsMagic[8] = {'K', 'C', 'O', 'B',
                                               'J', 'E', 'C', 'T'};
std::unique_ptr<llvm::MemoryBuffer>
packObjects(llvm::ArrayRef<llvm::StringRef> Objects);
// The objects of a buffer from compileToObject or packObjects (a plain ELF
// object is one); false for a packed buffer that does not parse.
bool unpackObjects(const llvm::MemoryBuffer &Buffer,
                   std::vector<std::unique_ptr<llvm::MemoryBuffer>> &Objects);

} // namespace kc
