//===- kc/Spirv.h - SPIR-V modules as program input -----------------------===//
//
// SPIR-V (OpenCL environment) turns into a compiled Object module, the same
// kind clCompileProgram gives for OpenCL C: it links with other objects and
// libraries and becomes an executable through Compiler::link.
//
// The module is read in process by lib/Spirv (SpirvReader.h), or, when a
// translator is named, by the SPIRV-LLVM-Translator tool (Debian's
// llvm-spirv-15) run as a subprocess on in-memory files, its LLVM 15
// bitcode read by LLVM 19. The OpenCL builtin calls are then mapped onto the
// builtin library, and the module is retargeted to the host.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "kc/Compiler.h"

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kc {

// The SPIR-V versions the reader takes: 1.0 up to this minor version
// (llvm-spirv-15, when it is run instead, up to 1.4).
inline constexpr unsigned SpirvMaxMinorVersion = 6;

struct SpirvSpecConstant {
  uint32_t Id = 0;   // its SpecId decoration
  uint32_t Size = 0; // bytes clSetProgramSpecializationConstant takes
  bool IsBool = false;
};

struct SpirvModuleInfo {
  uint32_t MajorVersion = 0;
  uint32_t MinorVersion = 0;
  std::vector<SpirvSpecConstant> SpecConstants;
};

// Checks that Bytes is a SPIR-V module usmcl can translate: the magic number
// (either byte order), a version from 1.0 to 1.SpirvMaxMinorVersion, a zero
// schema, a non-zero id bound, and instructions that fill the module
// exactly. Collects the scalar specialization constants. False and Error
// otherwise.
bool inspectSpirv(std::string_view Bytes, SpirvModuleInfo &Info,
                  std::string &Error);

// A value for a specialization constant: the low Size bytes of Bits (as
// the host stores them) are the new value; for a boolean, non-zero is true.
struct SpecConstantValue {
  uint32_t Id = 0;
  uint64_t Bits = 0;
};

// The path of the llvm-spirv found when this library was built (empty if
// none was).
std::string_view builtInSpirvTranslator();

// Whether Path names a file this process may execute.
bool isExecutableFile(const std::string &Path);

// SPIR-V (checked by inspectSpirv) to an Object module, with the given
// specialization constant values. Options are compile options: the
// floating-point and optimization options apply; -D, -I and -cl-std have
// nothing to act on. Translator is the llvm-spirv to run; empty: the
// in-process reader. The translator's
// diagnostics end up in the result's log. Its output is kept in Cache (when
// enabled), so the same specialized module is translated once.
BuildResult compileSpirv(std::string_view Spirv,
                         std::span<const SpecConstantValue> SpecValues,
                         std::string_view Options, const DeviceTarget &Target,
                         const std::string &Translator, const CodeCache &Cache);

// SPIR-V to an Executable module (clBuildProgram): compileSpirv and a link
// of that one object, with build options.
BuildResult buildSpirv(std::string_view Spirv,
                       std::span<const SpecConstantValue> SpecValues,
                       std::string_view Options, const DeviceTarget &Target,
                       const std::string &Translator, const CodeCache &Cache);

} // namespace kc
