//===- Frontend/BuildOptions.h - OpenCL build, compile, link options -*- C++
//-*-===//
//
// Parses the option strings of clBuildProgram, clCompileProgram and
// clLinkProgram (OpenCL 3.0, section 5.8.6) into a BuildOptions, rejecting
// anything the specification does not define for that call.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "kc/Compiler.h"

#include <string>
#include <string_view>
#include <vector>

namespace kc {

enum class OptionsUse { Compile, Link, Build };

struct BuildOptions {
  unsigned CLVersion = 120; // -cl-std: 100, 110, 120, 200 or 300
  // -D, -I, -w, -Werror, -g and the -cl-* flags, spelled for Clang's cc1.
  std::vector<std::string> ClangArgs;
  bool OptDisable = false;
  bool KernelArgInfo = false;
  bool DebugInfo = false;
  bool UniformWorkGroupSize = false;
  // Library linking options.
  bool CreateLibrary = false;
  bool EnableLinkOptions = false;
  // Floating-point options (compile options that are also link options).
  bool MadEnable = false;
  bool NoSignedZeros = false;
  bool UnsafeMath = false;
  bool FiniteMathOnly = false;
  bool FastRelaxedMath = false;
  bool DenormsAreZero = false;
  // The device's default sub-group size (DeviceTarget::SubGroupSize).
  unsigned SubGroupSize = 8;

  bool hasLinkMathOptions() const {
    return NoSignedZeros || UnsafeMath || FiniteMathOnly || FastRelaxedMath ||
           DenormsAreZero;
  }
};

// Splits an option string at white space; double quotes group (and are
// removed), a backslash escapes the next character inside them.
bool splitOptions(std::string_view Text, std::vector<std::string> &Tokens,
                  std::string &Error);

// Parses Text for Use. False with Error naming the first rejected option.
bool parseBuildOptions(std::string_view Text, OptionsUse Use,
                       const DeviceTarget &Target, BuildOptions &Out,
                       std::string &Error);

// Whether the device can compile OpenCL C 2.0 (every feature 2.0 requires).
bool supportsOpenCLC20(const DeviceTarget &Target);

} // namespace kc
