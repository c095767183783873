//===- Frontend/SpirvTranslator.h - llvm-spirv as a subprocess --*- C++ -*-===//
#pragma once

#include <cstdint>
#include <span>
#include <string>

namespace kc {

// Runs `Tool -r` on the SPIR-V Words (in host byte order) and gives the LLVM
// bitcode it writes, with OpenCL C builtin names (--spirv-target-env=CL2.0).
// Input, output and diagnostics live in anonymous in-memory files (memfd);
// nothing is written to disk. False with the tool's diagnostics (or why it
// could not run) appended to Log.
// The file that runs for Tool: Tool itself when it names a path (has a '/'),
// else the first match in PATH; "" when it is not an executable file.
std::string resolveExecutable(const std::string &Tool);

bool runSpirvTranslator(const std::string &Tool,
                        std::span<const uint32_t> Words, std::string &Bitcode,
                        std::string &Log);

} // namespace kc
