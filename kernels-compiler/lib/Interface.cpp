//===- Interface.cpp - Key functions of the public interface classes ------===//
//
// Compiled with RTTI (most of the library is not, like LLVM), as are
// ModuleImpl (Binary.cpp) and NativeProgramImpl (NativeProgram.cpp): the
// driver, built with RTTI, may derive from or dynamic_cast these classes,
// and its sanitizers check their dynamic types.
//
//===----------------------------------------------------------------------===//
#include "kc/Compiler.h"

namespace kc {

Module::~Module() = default;
NativeProgram::~NativeProgram() = default;

} // namespace kc
