//===- Frontend/SpirvFrontend.h - SPIR-V to LLVM IR -------------*- C++ -*-===//
#pragma once

#include "kc/Spirv.h"

#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace kc {

// Translates a SPIR-V module (checked by inspectSpirv) into Context, with the
// given specialization constant values: the translator's bitcode, retargeted
// to the host (triple, data layout, calling conventions) and with its OpenCL
// builtin calls renamed (and adapted where the host ABI passes arguments
// differently) to the builtin library's functions. nullptr on failure, the
// reason in Log. The translator's output (and its messages) is kept in Cache,
// keyed by the specialized module and the translator's file identity, so a
// module already translated there does not start the translator again.
std::unique_ptr<llvm::Module>
translateSpirv(llvm::LLVMContext &Context, std::string_view Spirv,
               std::span<const SpecConstantValue> SpecValues,
               const std::string &Translator, const CodeCache &Cache,
               std::string &Log);

// The builtin library's name for a function called under the mangled name
// Name in SPIR-V (Itanium names of the SPIR target, address spaces as AS<n>),
// or "" when the library has none.
std::string libraryNameForSpirvBuiltin(std::string_view Name);

} // namespace kc
