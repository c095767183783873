//===- kc/Spirv.h - SPIR-V modules as program input -----------------------===//
//
// SPIR-V (OpenCL environment) turns into a compiled Object module, the same
// kind clCompileProgram gives for OpenCL C: it links with other objects and
// libraries and becomes an executable through Compiler::link.
//
// The module is read in process by lib/Spirv (SpirvReader.h). The OpenCL
// builtin calls are then mapped onto the builtin library, and the module is
// retargeted to the host.
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

// The SPIR-V versions the reader takes: 1.0 up to this minor version.
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

// SPIR-V (checked by inspectSpirv) to an Object module, with the given
// specialization constant values. Options are compile options: the
// floating-point and optimization options apply; -D, -I and -cl-std have
// nothing to act on. The reader's diagnostics end up in the result's log.
BuildResult compileSpirv(std::string_view Spirv,
                         std::span<const SpecConstantValue> SpecValues,
                         std::string_view Options, const DeviceTarget &Target);

// SPIR-V to an Executable module (clBuildProgram): compileSpirv and a link
// of that one object, with build options.
BuildResult buildSpirv(std::string_view Spirv,
                       std::span<const SpecConstantValue> SpecValues,
                       std::string_view Options, const DeviceTarget &Target);

} // namespace kc
