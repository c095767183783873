//===- Builtins/ShardedLibrary.cpp - Index of the builtin library ---------===//
#include "Builtins/ShardedLibrary.h"

#include "Builtins/ShardedLibraryFormat.h"
#include "Support/Embedded.h"

#include <algorithm>
#include <cstring>

namespace kc {

namespace {

using namespace library_format;

template <typename T> T readAt(std::string_view Bytes, uint64_t Offset) {
  T Value;
  std::memcpy(&Value, Bytes.data() + Offset, sizeof Value);
  return Value;
}

Header headerOf(std::string_view Bytes) { return readAt<Header>(Bytes, 0); }

uint64_t shardTableOffset() { return sizeof(Header); }

uint64_t symbolTableOffset(const Header &H) {
  return shardTableOffset() + uint64_t{H.ShardCount} * sizeof(ShardEntry);
}

uint64_t namesOffset(const Header &H) {
  return symbolTableOffset(H) + uint64_t{H.SymbolCount} * sizeof(SymbolEntry);
}

} // namespace

ShardedLibrary::ShardedLibrary(std::string_view Bytes) : Bytes(Bytes) {
  if (Bytes.size() < sizeof(Header))
    return;
  const Header H = headerOf(Bytes);
  if (std::memcmp(H.Magic, Magic, sizeof H.Magic) != 0 ||
      namesOffset(H) + H.NamesSize > Bytes.size())
    return;
  for (uint32_t I = 0; I < H.ShardCount; ++I) {
    const auto E = readAt<ShardEntry>(
        Bytes, shardTableOffset() + uint64_t{I} * sizeof(ShardEntry));
    if (E.Offset > Bytes.size() || E.Size > Bytes.size() - E.Offset)
      return;
  }
  for (uint32_t I = 0; I < H.SymbolCount; ++I) {
    const auto E = readAt<SymbolEntry>(
        Bytes, symbolTableOffset(H) + uint64_t{I} * sizeof(SymbolEntry));
    if (E.Shard >= H.ShardCount ||
        uint64_t{E.NameOffset} + E.NameSize > H.NamesSize)
      return;
  }
  Valid = true;
}

uint32_t ShardedLibrary::shardCount() const {
  return Valid ? headerOf(Bytes).ShardCount : 0;
}

uint32_t ShardedLibrary::symbolCount() const {
  return Valid ? headerOf(Bytes).SymbolCount : 0;
}

llvm::StringRef ShardedLibrary::symbol(uint32_t Index) const {
  if (Index >= symbolCount())
    return {};
  const Header H = headerOf(Bytes);
  const auto E = readAt<SymbolEntry>(
      Bytes, symbolTableOffset(H) + uint64_t{Index} * sizeof(SymbolEntry));
  return {Bytes.data() + namesOffset(H) + E.NameOffset, E.NameSize};
}

std::optional<uint32_t> ShardedLibrary::shardOf(llvm::StringRef Symbol) const {
  const uint32_t Count = symbolCount();
  uint32_t Low = 0, High = Count;
  while (Low < High) {
    const uint32_t Mid = Low + (High - Low) / 2;
    if (symbol(Mid) < Symbol)
      Low = Mid + 1;
    else
      High = Mid;
  }
  if (Low == Count || symbol(Low) != Symbol)
    return std::nullopt;
  const Header H = headerOf(Bytes);
  return readAt<SymbolEntry>(Bytes, symbolTableOffset(H) +
                                        uint64_t{Low} * sizeof(SymbolEntry))
      .Shard;
}

llvm::StringRef ShardedLibrary::shard(uint32_t Index) const {
  if (Index >= shardCount())
    return {};
  const auto E = readAt<ShardEntry>(
      Bytes, shardTableOffset() + uint64_t{Index} * sizeof(ShardEntry));
  return {Bytes.data() + E.Offset, static_cast<size_t>(E.Size)};
}

const ShardedLibrary &embeddedLibrary() {
  static const ShardedLibrary Library(embedded::builtinLibrary());
  return Library;
}

} // namespace kc
