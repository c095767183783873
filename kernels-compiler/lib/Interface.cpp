//===- Interface.cpp - Key functions of the public interface classes ------===//
//
// Compiled with RTTI (the rest of the library is not, like LLVM), so the
// driver may derive from or dynamic_cast these classes.
//
//===----------------------------------------------------------------------===//
#include "kc/Compiler.h"

namespace kc {

Module::~Module() = default;
NativeProgram::~NativeProgram() = default;

} // namespace kc
