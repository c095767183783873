//===- Support/Embedded.h - Files compiled into the library -----*- C++ -*-===//
//
// Build-time inputs embedded as byte arrays by tools/embed.py: Clang's
// opencl-c-base.h (so the front end reads no file from disk) and the builtin
// library (bitcode shards with their index, Builtins/ShardedLibrary.h).
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string_view>

namespace kc::embedded {

extern const unsigned char OpenCLBaseHeader[];
extern const std::size_t OpenCLBaseHeaderSize;
extern const unsigned char IntelSubgroupsHeader[];
extern const std::size_t IntelSubgroupsHeaderSize;
extern const unsigned char BuiltinLibrary[];
extern const std::size_t BuiltinLibrarySize;

inline std::string_view openclBaseHeader() {
  return {reinterpret_cast<const char *>(OpenCLBaseHeader),
          OpenCLBaseHeaderSize};
}

// Declarations of cl_intel_subgroups' functions (builtins/intel_subgroups.h).
inline std::string_view intelSubgroupsHeader() {
  return {reinterpret_cast<const char *>(IntelSubgroupsHeader),
          IntelSubgroupsHeaderSize};
}

inline std::string_view builtinLibrary() {
  return {reinterpret_cast<const char *>(BuiltinLibrary), BuiltinLibrarySize};
}

} // namespace kc::embedded
