//===- Frontend/SpirvBinary.cpp - Reading and patching SPIR-V words -------===//
//
// The physical layout (SPIR-V 1.x, section 2.3): a five-word header (magic,
// version 0x00MMmm00, generator, id bound, schema 0), then instructions whose
// first word holds the word count (high 16 bits) and the opcode (low 16).
//
//===----------------------------------------------------------------------===//
#include "Frontend/SpirvBinary.h"

#include <algorithm>
#include <cstring>
#include <map>

namespace kc {

namespace {

constexpr uint32_t Magic = 0x07230203;
constexpr uint32_t SwappedMagic = 0x03022307;
constexpr size_t HeaderWords = 5;

enum Opcode : uint32_t {
  OpTypeBool = 20,
  OpTypeInt = 21,
  OpTypeFloat = 22,
  OpSpecConstantTrue = 48,
  OpSpecConstantFalse = 49,
  OpSpecConstant = 50,
  OpDecorate = 71,
};
constexpr uint32_t DecorationSpecId = 1;

struct ScalarType {
  uint32_t Width = 0; // bits; 0 for bool
  bool Signed = false;
  bool Float = false;
};

// One scalar specialization constant: where its instruction starts.
struct SpecConstantSite {
  size_t Word = 0;
  ScalarType Type;
};

// Walks the instructions; false when one has a zero word count or runs
// past the end.
template <class Visit>
bool forEachInstruction(std::span<const uint32_t> Words, Visit &&V) {
  for (size_t I = HeaderWords; I < Words.size();) {
    uint32_t Count = Words[I] >> 16;
    if (Count == 0 || Count > Words.size() - I)
      return false;
    V(I, Words[I] & 0xFFFF, Words.subspan(I, Count));
    I += Count;
  }
  return true;
}

uint32_t byteSwap(uint32_t W) {
  return (W >> 24) | ((W >> 8) & 0xFF00) | ((W << 8) & 0xFF0000) | (W << 24);
}

// The specialization constants by SpecId, with their types.
std::map<uint32_t, SpecConstantSite>
findSpecConstants(std::span<const uint32_t> Words) {
  std::map<uint32_t, uint32_t> SpecIds; // result id -> SpecId
  std::map<uint32_t, ScalarType> Types; // type id -> type
  std::map<uint32_t, SpecConstantSite> Sites;
  forEachInstruction(
      Words, [&](size_t, uint32_t Op, std::span<const uint32_t> Inst) {
        if (Op == OpDecorate && Inst.size() >= 4 && Inst[2] == DecorationSpecId)
          SpecIds[Inst[1]] = Inst[3];
        else if (Op == OpTypeBool && Inst.size() >= 2)
          Types[Inst[1]] = ScalarType{};
        else if (Op == OpTypeInt && Inst.size() >= 4)
          Types[Inst[1]] = ScalarType{Inst[2], Inst[3] != 0, false};
        else if (Op == OpTypeFloat && Inst.size() >= 3)
          Types[Inst[1]] = ScalarType{Inst[2], false, true};
      });
  forEachInstruction(
      Words, [&](size_t At, uint32_t Op, std::span<const uint32_t> Inst) {
        if (Op != OpSpecConstant && Op != OpSpecConstantTrue &&
            Op != OpSpecConstantFalse)
          return;
        if (Inst.size() < 3)
          return;
        auto Id = SpecIds.find(Inst[2]);
        auto Type = Types.find(Inst[1]);
        if (Id == SpecIds.end() || Type == Types.end())
          return;
        bool IsBool = Type->second.Width == 0;
        if (IsBool != (Op != OpSpecConstant))
          return;
        // OpSpecConstant carries one literal word up to 32 bits, two for 64.
        if (!IsBool && Inst.size() != (Type->second.Width > 32 ? 5u : 4u))
          return;
        Sites[Id->second] = SpecConstantSite{At, Type->second};
      });
  return Sites;
}

} // namespace

std::vector<uint32_t> spirvWords(std::string_view Bytes) {
  if (Bytes.size() % 4 != 0 || Bytes.size() < 4)
    return {};
  std::vector<uint32_t> Words(Bytes.size() / 4);
  std::memcpy(Words.data(), Bytes.data(), Bytes.size());
  if (Words[0] == SwappedMagic)
    std::transform(Words.begin(), Words.end(), Words.begin(), byteSwap);
  if (Words[0] != Magic)
    return {};
  return Words;
}

bool inspectSpirv(std::string_view Bytes, SpirvModuleInfo &Info,
                  std::string &Error) {
  if (Bytes.size() % 4 != 0) {
    Error = "the size of a SPIR-V module is a multiple of 4 bytes";
    return false;
  }
  std::vector<uint32_t> Words = spirvWords(Bytes);
  if (Words.empty()) {
    Error = "no SPIR-V magic number";
    return false;
  }
  if (Words.size() < HeaderWords) {
    Error = "the SPIR-V header is incomplete";
    return false;
  }
  uint32_t Version = Words[1];
  Info.MajorVersion = (Version >> 16) & 0xFF;
  Info.MinorVersion = (Version >> 8) & 0xFF;
  if ((Version & 0xFF0000FF) != 0 || Info.MajorVersion != 1 ||
      Info.MinorVersion > SpirvMaxMinorVersion) {
    Error = "unsupported SPIR-V version (1.0 to 1." +
            std::to_string(SpirvMaxMinorVersion) + " are)";
    return false;
  }
  if (Words[3] == 0) {
    Error = "the SPIR-V id bound is 0";
    return false;
  }
  if (Words[4] != 0) {
    Error = "the SPIR-V schema word is not 0";
    return false;
  }
  if (Words.size() == HeaderWords) {
    Error = "the SPIR-V module has no instructions";
    return false;
  }
  if (!forEachInstruction(Words,
                          [](size_t, uint32_t, std::span<const uint32_t>) {})) {
    Error = "a SPIR-V instruction has a word count of 0 or runs past the end "
            "of the module";
    return false;
  }
  Info.SpecConstants.clear();
  for (const auto &[Id, Site] : findSpecConstants(Words)) {
    SpirvSpecConstant C;
    C.Id = Id;
    C.IsBool = Site.Type.Width == 0;
    C.Size = C.IsBool ? 1 : Site.Type.Width / 8;
    Info.SpecConstants.push_back(C);
  }
  return true;
}

bool specializeSpirv(std::vector<uint32_t> &Words,
                     std::span<const SpecConstantValue> Values,
                     std::string &Error) {
  std::map<uint32_t, SpecConstantSite> Sites = findSpecConstants(Words);
  for (const SpecConstantValue &V : Values) {
    auto Site = Sites.find(V.Id);
    if (Site == Sites.end()) {
      Error = "no specialization constant has the id " + std::to_string(V.Id);
      return false;
    }
    const ScalarType &T = Site->second.Type;
    uint32_t *Inst = &Words[Site->second.Word];
    if (T.Width == 0) {
      uint32_t Op = V.Bits & 0xFF ? OpSpecConstantTrue : OpSpecConstantFalse;
      Inst[0] = (Inst[0] & 0xFFFF0000) | Op;
      continue;
    }
    uint64_t Bits = V.Bits;
    if (T.Width < 64) {
      uint64_t Mask = (uint64_t{1} << T.Width) - 1;
      Bits &= Mask;
      // Narrower than a word: zero-extended, or sign-extended when signed.
      if (T.Width < 32 && T.Signed && !T.Float && (Bits >> (T.Width - 1)) & 1)
        Bits |= ~Mask & 0xFFFFFFFF;
    }
    Inst[3] = static_cast<uint32_t>(Bits);
    if (T.Width > 32)
      Inst[4] = static_cast<uint32_t>(Bits >> 32);
  }
  return true;
}

} // namespace kc
