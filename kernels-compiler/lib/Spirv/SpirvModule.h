//===- Spirv/SpirvModule.h - A parsed SPIR-V module -------------*- C++ -*-===//
//
// The instructions of a SPIR-V module, split and checked (known opcodes,
// word counts, ids below the bound), with the module-level facts the reader
// needs first: capabilities, extensions, extended instruction sets, entry
// points, execution modes, names and decorations.
//
//===----------------------------------------------------------------------===//
#pragma once

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp11>

#include "Spirv/SpirvReader.h"

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace kc::spirv {

// Thrown for a module the reader cannot take; caught by readSpirv.
struct ReadError {
  std::string Message;
};

[[noreturn]] void fail(std::string Message);

// The name of OpenCL.std instruction Number, nullptr if there is none.
const char *openclStdName(uint32_t Number);

struct Instruction {
  spv::Op Opcode = spv::Op::OpNop;
  std::span<const uint32_t> Ops; // the words after the first

  size_t size() const { return Ops.size(); }
  // Operand I; a module error when the instruction has fewer.
  uint32_t operator[](size_t I) const;
  // The literal string starting at operand I; Next gets the operand after.
  std::string string(size_t I, size_t *Next = nullptr) const;
};

struct Decoration {
  spv::Decoration Kind;
  std::vector<uint32_t> Args; // literal or id operands
  std::string Text;           // LinkageAttributes' name, UserSemantic
};

struct EntryPoint {
  uint32_t Function = 0;
  std::string Name;
  std::vector<uint32_t> LocalSize;     // LocalSize mode
  std::vector<uint32_t> LocalSizeHint; // LocalSizeHint mode
  uint32_t VecTypeHint = 0;
  bool HasVecTypeHint = false;
  bool ContractionOff = false;
};

enum class ExtSet { OpenCLStd, NonSemantic };

class Module {
public:
  // Splits and checks Words (a whole module, host byte order).
  explicit Module(std::span<const uint32_t> Words);

  uint32_t bound() const { return Bound; }
  uint32_t version() const { return Version; }
  const std::vector<Instruction> &instructions() const { return Insts; }

  const std::vector<Decoration> *decorations(uint32_t Id) const;
  const Decoration *decoration(uint32_t Id, spv::Decoration Kind) const;
  bool has(uint32_t Id, spv::Decoration Kind) const {
    return decoration(Id, Kind) != nullptr;
  }
  std::string_view name(uint32_t Id) const;
  const std::string *string(uint32_t Id) const;
  // The first OpString starting with Prefix.
  const std::string *stringWithPrefix(const std::string &Prefix) const;
  const std::vector<EntryPoint> &entryPoints() const { return Entries; }
  const EntryPoint *entryPoint(uint32_t Function) const;
  const ExtSet *extSet(uint32_t Id) const;

private:
  void readHeaderSection(const Instruction &I);
  void checkCapability(uint32_t Cap);
  void checkEntryPoints() const;
  void checkExtension(const std::string &Name);
  void addDecoration(const Instruction &I, bool IdOperands);

  uint32_t Bound = 0;
  uint32_t Version = 0;
  std::vector<Instruction> Insts;
  std::unordered_map<uint32_t, std::vector<Decoration>> Decorations;
  std::unordered_map<uint32_t, std::string> Names;
  std::unordered_map<uint32_t, std::string> Strings;
  std::unordered_map<uint32_t, std::vector<uint32_t>> Groups;
  std::vector<EntryPoint> Entries;
  std::map<uint32_t, ExtSet> ExtSets;
};

} // namespace kc::spirv
