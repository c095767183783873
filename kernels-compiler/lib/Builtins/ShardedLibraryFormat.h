//===- Builtins/ShardedLibraryFormat.h - Layout of the library --*- C++ -*-===//
//
// The builtin library as tools/kc-split-library writes it and
// ShardedLibrary.cpp reads it (both on the same machine, so in its byte
// order):
//
//   Header
//   ShardEntry[ShardCount]    where each shard's bitcode starts, its size
//   SymbolEntry[SymbolCount]  sorted by name: the shard defining the symbol
//   char Names[NamesSize]     the symbol names, back to back
//   the shards' bitcode, each at a multiple of ShardAlignment
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstdint>

namespace kc::library_format {

inline constexpr char Magic[8] = {'K', 'C', 'L', 'I', 'B', 0, 0, 1};
inline constexpr uint64_t ShardAlignment = 16;

struct Header {
  char Magic[8];
  uint32_t ShardCount;
  uint32_t SymbolCount;
  uint32_t NamesSize;
  uint32_t Reserved;
};

struct ShardEntry {
  uint64_t Offset; // from the start of the library
  uint64_t Size;
};

struct SymbolEntry {
  uint32_t NameOffset; // into Names
  uint32_t NameSize;
  uint32_t Shard;
};

} // namespace kc::library_format
