//===- Builtins/ShardedLibrary.h - Index of the builtin library -*- C++ -*-===//
//
// The builtin library embedded in this library: bitcode shards, one per
// builtin family, and the sorted index of the symbols they define
// (ShardedLibraryFormat.h). Reading it allocates nothing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <llvm/ADT/StringRef.h>

#include <cstdint>
#include <optional>
#include <string_view>

namespace kc {

class ShardedLibrary {
public:
  // The library in Bytes; an invalid one has no symbols (valid() is false).
  explicit ShardedLibrary(std::string_view Bytes);

  bool valid() const { return Valid; }
  // The shard that defines Symbol, if any.
  std::optional<uint32_t> shardOf(llvm::StringRef Symbol) const;
  // The bitcode of a shard.
  llvm::StringRef shard(uint32_t Index) const;
  uint32_t shardCount() const;
  // Every symbol the library defines, in name order.
  uint32_t symbolCount() const;
  llvm::StringRef symbol(uint32_t Index) const;

private:
  std::string_view Bytes;
  bool Valid = false;
};

// The library embedded at build time.
const ShardedLibrary &embeddedLibrary();

} // namespace kc
