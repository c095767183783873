//===- Frontend/BuildOptions.cpp - OpenCL build, compile, link options ----===//
#include "Frontend/BuildOptions.h"

#include <algorithm>
#include <array>
#include <cctype>

namespace kc {

bool splitOptions(std::string_view Text, std::vector<std::string> &Tokens,
                  std::string &Error) {
  std::string Current;
  bool InToken = false;
  bool InQuotes = false;
  for (size_t I = 0; I < Text.size(); ++I) {
    char C = Text[I];
    if (InQuotes) {
      if (C == '\\' && I + 1 < Text.size()) {
        Current += Text[++I];
      } else if (C == '"') {
        InQuotes = false;
      } else {
        Current += C;
      }
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(C))) {
      if (InToken)
        Tokens.push_back(std::move(Current));
      Current.clear();
      InToken = false;
      continue;
    }
    InToken = true;
    if (C == '"')
      InQuotes = true;
    else
      Current += C;
  }
  if (InQuotes) {
    Error = "unterminated quote in options";
    return false;
  }
  if (InToken)
    Tokens.push_back(std::move(Current));
  return true;
}

static bool hasFeature(const DeviceTarget &Target, std::string_view Name) {
  return std::find(Target.OpenCLCFeatures.begin(), Target.OpenCLCFeatures.end(),
                   Name) != Target.OpenCLCFeatures.end();
}

bool supportsOpenCLC20(const DeviceTarget &Target) {
  static constexpr std::array<std::string_view, 5> Required = {
      "__opencl_c_generic_address_space",
      "__opencl_c_program_scope_global_variables", "__opencl_c_pipes",
      "__opencl_c_device_enqueue", "__opencl_c_atomic_scope_all_devices"};
  return std::all_of(Required.begin(), Required.end(),
                     [&](std::string_view F) { return hasFeature(Target, F); });
}

namespace {

// -cl-denorms-are-zero: denormals flush in float and double alike (the work-
// group function sets MXCSR's FTZ and DAZ, which govern both), so constant
// folding flushes them too.
void setDenormsAreZero(BuildOptions &Out) {
  Out.DenormsAreZero = true;
  Out.ClangArgs.emplace_back("-fdenormal-fp-math=preserve-sign,preserve-sign");
  Out.ClangArgs.emplace_back(
      "-fdenormal-fp-math-f32=preserve-sign,preserve-sign");
}

class OptionParser {
public:
  OptionParser(OptionsUse Use, const DeviceTarget &Target, BuildOptions &Out)
      : Use(Use), Target(Target), Out(Out) {}

  bool parse(const std::vector<std::string> &Tokens, std::string &Error);

private:
  bool compileAllowed() const { return Use != OptionsUse::Link; }
  bool parseStd(std::string_view Value, std::string &Error);
  bool parseFlag(std::string_view Token);
  bool parseLinkFlag(std::string_view Token);

  OptionsUse Use;
  const DeviceTarget &Target;
  BuildOptions &Out;
};

bool OptionParser::parseStd(std::string_view Value, std::string &Error) {
  struct Version {
    std::string_view Name;
    unsigned Number;
  };
  static constexpr std::array<Version, 5> Versions = {{{"CL1.0", 100},
                                                       {"CL1.1", 110},
                                                       {"CL1.2", 120},
                                                       {"CL2.0", 200},
                                                       {"CL3.0", 300}}};
  for (const Version &V : Versions) {
    if (V.Name != Value)
      continue;
    if (V.Number == 200 && !supportsOpenCLC20(Target)) {
      Error = "-cl-std=CL2.0: the device does not support OpenCL C 2.0";
      return false;
    }
    Out.CLVersion = V.Number;
    return true;
  }
  Error = "invalid value in '-cl-std=" + std::string(Value) + "'";
  return false;
}

// Compile options without a value.
bool OptionParser::parseFlag(std::string_view Token) {
  struct Flag {
    std::string_view Name;
    std::string_view ClangArg; // empty: not passed to Clang
    bool BuildOptions::*Field;
  };
  static constexpr std::array<Flag, 15> Flags = {{
      {"-cl-opt-disable", "", &BuildOptions::OptDisable},
      {"-cl-kernel-arg-info", "-cl-kernel-arg-info",
       &BuildOptions::KernelArgInfo},
      {"-cl-mad-enable", "-cl-mad-enable", &BuildOptions::MadEnable},
      {"-cl-no-signed-zeros", "-cl-no-signed-zeros",
       &BuildOptions::NoSignedZeros},
      {"-cl-no-signed-zeroes", "-cl-no-signed-zeros",
       &BuildOptions::NoSignedZeros},
      {"-cl-unsafe-math-optimizations", "-cl-unsafe-math-optimizations",
       &BuildOptions::UnsafeMath},
      {"-cl-finite-math-only", "-cl-finite-math-only",
       &BuildOptions::FiniteMathOnly},
      {"-cl-fast-relaxed-math", "-cl-fast-relaxed-math",
       &BuildOptions::FastRelaxedMath},
      {"-cl-uniform-work-group-size", "-cl-uniform-work-group-size",
       &BuildOptions::UniformWorkGroupSize},
      {"-cl-fp32-correctly-rounded-divide-sqrt",
       "-cl-fp32-correctly-rounded-divide-sqrt", nullptr},
      {"-cl-single-precision-constant", "-cl-single-precision-constant",
       nullptr},
      {"-cl-strict-aliasing", "", nullptr},
      {"-cl-no-subgroup-ifp", "", nullptr},
      {"-w", "-w", nullptr},
      {"-Werror", "-Werror", nullptr},
  }};
  if (Token == "-cl-denorms-are-zero") {
    setDenormsAreZero(Out);
    return true;
  }
  if (Token == "-g") {
    Out.DebugInfo = true;
    Out.ClangArgs.emplace_back("-debug-info-kind=constructor");
    Out.ClangArgs.emplace_back("-dwarf-version=5");
    return true;
  }
  for (const Flag &F : Flags) {
    if (F.Name != Token)
      continue;
    if (F.Field)
      Out.*F.Field = true;
    if (!F.ClangArg.empty())
      Out.ClangArgs.emplace_back(F.ClangArg);
    return true;
  }
  return false;
}

// Program linking options (OpenCL 3.0, 5.8.6.8): the floating-point ones.
bool OptionParser::parseLinkFlag(std::string_view Token) {
  struct Flag {
    std::string_view Name;
    bool BuildOptions::*Field;
  };
  static constexpr std::array<Flag, 6> Flags = {{
      {"-cl-no-signed-zeros", &BuildOptions::NoSignedZeros},
      {"-cl-no-signed-zeroes", &BuildOptions::NoSignedZeros},
      {"-cl-unsafe-math-optimizations", &BuildOptions::UnsafeMath},
      {"-cl-finite-math-only", &BuildOptions::FiniteMathOnly},
      {"-cl-fast-relaxed-math", &BuildOptions::FastRelaxedMath},
      {"-cl-no-subgroup-ifp", nullptr},
  }};
  if (Token == "-cl-denorms-are-zero") {
    setDenormsAreZero(Out);
    return true;
  }
  for (const Flag &F : Flags) {
    if (F.Name != Token)
      continue;
    if (F.Field)
      Out.*F.Field = true;
    return true;
  }
  return false;
}

bool OptionParser::parse(const std::vector<std::string> &Tokens,
                         std::string &Error) {
  for (size_t I = 0; I < Tokens.size(); ++I) {
    std::string_view Token = Tokens[I];
    bool IsDefine = Token.starts_with("-D");
    bool IsInclude = Token.starts_with("-I");
    if (compileAllowed() && (IsDefine || IsInclude)) {
      std::string Value(Token.substr(2));
      if (Value.empty()) {
        if (I + 1 == Tokens.size()) {
          Error = "missing argument to '" + std::string(Token) + "'";
          return false;
        }
        Value = Tokens[++I];
      }
      if (IsDefine && (Value.empty() || Value.front() == '=')) {
        Error = "missing macro name in '-D" + Value + "'";
        return false;
      }
      Out.ClangArgs.emplace_back(IsDefine ? "-D" : "-I");
      Out.ClangArgs.push_back(std::move(Value));
      continue;
    }
    if (compileAllowed() && Token.starts_with("-cl-std=")) {
      if (!parseStd(Token.substr(8), Error))
        return false;
      continue;
    }
    if (compileAllowed() && parseFlag(Token))
      continue;
    if (Use == OptionsUse::Link && parseLinkFlag(Token))
      continue;
    if (Use == OptionsUse::Link && Token == "-create-library") {
      Out.CreateLibrary = true;
      continue;
    }
    if (Use == OptionsUse::Link && Token == "-enable-link-options") {
      Out.EnableLinkOptions = true;
      continue;
    }
    Error = "invalid option '" + std::string(Token) + "'";
    return false;
  }
  if (Out.EnableLinkOptions && !Out.CreateLibrary) {
    Error = "-enable-link-options requires -create-library";
    return false;
  }
  return true;
}

} // namespace

bool parseBuildOptions(std::string_view Text, OptionsUse Use,
                       const DeviceTarget &Target, BuildOptions &Out,
                       std::string &Error) {
  Out = BuildOptions();
  Out.SubGroupSize = Target.SubGroupSize;
  std::vector<std::string> Tokens;
  if (!splitOptions(Text, Tokens, Error))
    return false;
  return OptionParser(Use, Target, Out).parse(Tokens, Error);
}

} // namespace kc
