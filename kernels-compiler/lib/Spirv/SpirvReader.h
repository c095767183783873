//===- Spirv/SpirvReader.h - SPIR-V to LLVM IR, in process ------*- C++ -*-===//
//
// Reads a SPIR-V module of the OpenCL environment into LLVM IR of the form
// the SPIRV-LLVM-Translator gives with --spirv-target-env=CL2.0: kernels
// with the spir_kernel calling convention and Clang's kernel_arg_*
// metadata, OpenCL C builtins as calls of their Itanium-mangled SPIR names
// (address spaces spelled U3AS<n>), the work-item functions and barriers
// under their OpenCL C names, atomics as LLVM atomic instructions.
// Frontend/SpirvFrontend then retargets the module and maps the builtin
// calls onto the builtin library.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace llvm {
class DataLayout;
class LLVMContext;
class Module;
} // namespace llvm

namespace kc {

// Words: a whole module in host byte order, specialization constants
// already given their values. nullptr on failure, the reason (an
// unsupported capability, extension or instruction, a malformed module) in
// Log. Never aborts on bad input.
std::unique_ptr<llvm::Module> readSpirv(llvm::LLVMContext &Context,
                                        std::span<const uint32_t> Words,
                                        const llvm::DataLayout &Layout,
                                        std::string &Log);

// The name of a SPIR-V opcode or capability (from the grammar), or its
// number when the grammar has none.
std::string spirvOpcodeName(uint32_t Opcode);
std::string spirvCapabilityName(uint32_t Capability);

} // namespace kc
