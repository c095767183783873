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
// given specialization constant values: the reader's module, retargeted to
// the host (triple, data layout, calling conventions) and with its OpenCL
// builtin calls renamed (and adapted where the host ABI passes arguments
// differently) to the builtin library's functions. nullptr on failure, the
// reason in Log.
std::unique_ptr<llvm::Module>
translateSpirv(llvm::LLVMContext &Context, std::string_view Spirv,
               std::span<const SpecConstantValue> SpecValues, std::string &Log);

// The builtin library's name for a function called under the mangled name
// Name in SPIR-V (Itanium names of the SPIR target, address spaces as AS<n>),
// or "" when the library has none.
std::string libraryNameForSpirvBuiltin(std::string_view Name);

} // namespace kc
