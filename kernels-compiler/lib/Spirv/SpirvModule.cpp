//===- Spirv/SpirvModule.cpp - A parsed SPIR-V module ---------------------===//
#include "Spirv/SpirvModule.h"

#include "Spirv/SpirvReader.h"

#include <algorithm>
#include <array>
#include <set>

namespace kc::spirv {

namespace {

struct SpirvName {
  uint32_t Value;
  const char *Name;
};

#include "SpirvTables.inc"

template <size_t N>
const char *lookupName(const SpirvName (&Table)[N], uint32_t Value) {
  auto It = std::lower_bound(
      std::begin(Table), std::end(Table), Value,
      [](const SpirvName &E, uint32_t V) { return E.Value < V; });
  return It != std::end(Table) && It->Value == Value ? It->Name : nullptr;
}

// The capabilities the reader takes: the OpenCL environment's, and those of
// the extensions below. Anything else fails the build with its name.
constexpr std::array SupportedCapabilities = {
    spv::Capability::Addresses,
    spv::Capability::Linkage,
    spv::Capability::Kernel,
    spv::Capability::Vector16,
    spv::Capability::Float16Buffer,
    spv::Capability::Float16,
    spv::Capability::Float64,
    spv::Capability::Int64,
    spv::Capability::Int64Atomics,
    spv::Capability::ImageBasic,
    spv::Capability::ImageReadWrite,
    spv::Capability::LiteralSampler,
    spv::Capability::Int16,
    spv::Capability::Int8,
    spv::Capability::GenericPointer,
    spv::Capability::Sampled1D,
    spv::Capability::SampledBuffer,
    spv::Capability::Image1D,
    spv::Capability::ImageBuffer,
    spv::Capability::ExpectAssumeKHR,
    spv::Capability::AtomicFloat32AddEXT,
    spv::Capability::AtomicFloat64AddEXT,
    spv::Capability::AtomicFloat32MinMaxEXT,
    spv::Capability::AtomicFloat64MinMaxEXT,
    spv::Capability::DotProductInputAll,
    spv::Capability::DotProductInput4x8Bit,
    spv::Capability::DotProductInput4x8BitPacked,
    spv::Capability::DotProduct,
    spv::Capability::ArbitraryPrecisionIntegersINTEL,
    spv::Capability::AtomicFloat16AddEXT,
    // Work-group and sub-group instructions (SpirvGroups.cpp).
    spv::Capability::Groups,
    spv::Capability::GroupUniformArithmeticKHR,
    spv::Capability::GroupNonUniform,
    spv::Capability::GroupNonUniformVote,
    spv::Capability::GroupNonUniformArithmetic,
    spv::Capability::GroupNonUniformBallot,
    spv::Capability::GroupNonUniformShuffle,
    spv::Capability::GroupNonUniformShuffleRelative,
    spv::Capability::GroupNonUniformClustered,
    spv::Capability::SubgroupShuffleINTEL,
    spv::Capability::SubgroupBufferBlockIOINTEL,
    // Hints: alias scopes are left out, the fast-math flags read.
    spv::Capability::MemoryAccessAliasingINTEL,
    spv::Capability::FPFastMathModeINTEL,
};

constexpr std::array<std::string_view, 16> SupportedExtensions = {
    "SPV_KHR_integer_dot_product",
    "SPV_INTEL_arbitrary_precision_integers",
    "SPV_KHR_no_integer_wrap_decoration",
    "SPV_KHR_expect_assume",
    "SPV_KHR_linkonce_odr",
    "SPV_KHR_non_semantic_info",
    "SPV_EXT_shader_atomic_float_add",
    "SPV_EXT_shader_atomic_float_min_max",
    "SPV_INTEL_cache_controls",
    "SPV_KHR_float_controls",
    "SPV_INTEL_kernel_attributes",
    "SPV_EXT_shader_atomic_float16_add",
    "SPV_KHR_uniform_group_instructions",
    "SPV_INTEL_subgroups",
    "SPV_INTEL_memory_access_aliasing",
    "SPV_INTEL_fp_fast_math_mode",
};

} // namespace

void fail(std::string Message) { throw ReadError{std::move(Message)}; }

uint32_t Instruction::operator[](size_t I) const {
  if (I >= Ops.size())
    fail(spirvOpcodeName(static_cast<uint32_t>(Opcode)) +
         " has too few operands");
  return Ops[I];
}

std::string Instruction::string(size_t I, size_t *Next) const {
  std::string S;
  for (; I < Ops.size(); ++I) {
    for (int B = 0; B < 4; ++B) {
      char C = static_cast<char>((Ops[I] >> (8 * B)) & 0xff);
      if (C == 0) {
        if (Next)
          *Next = I + 1;
        return S;
      }
      S.push_back(C);
    }
  }
  fail(spirvOpcodeName(static_cast<uint32_t>(Opcode)) +
       " has an unterminated string");
}

Module::Module(std::span<const uint32_t> Words) {
  if (Words.size() < 5 || Words[0] != spv::MagicNumber)
    fail("not a SPIR-V module (no magic number)");
  Version = Words[1];
  const uint32_t Major = (Version >> 16) & 0xff, Minor = (Version >> 8) & 0xff;
  if (Major != 1 || Minor > 6)
    fail("SPIR-V version " + std::to_string(Major) + "." +
         std::to_string(Minor) + " is not supported (1.0 to 1.6 are)");
  Bound = Words[3];
  if (Bound == 0 || Bound > (1u << 24))
    fail("the module's id bound " + std::to_string(Bound) + " is not valid");
  for (size_t At = 5; At < Words.size();) {
    const uint32_t Count = Words[At] >> 16;
    const uint32_t Opcode = Words[At] & 0xffff;
    if (Count == 0 || At + Count > Words.size())
      fail("the module is truncated or has an instruction of " +
           std::to_string(Count) + " words");
    if (!lookupName(SpirvOpcodeNames, Opcode))
      fail("unknown SPIR-V opcode " + std::to_string(Opcode));
    Instruction I{static_cast<spv::Op>(Opcode),
                  Words.subspan(At + 1, Count - 1)};
    bool HasResult = false, HasType = false;
    spv::HasResultAndType(I.Opcode, &HasResult, &HasType);
    if (HasResult && I[HasType ? 1 : 0] >= Bound)
      fail(spirvOpcodeName(Opcode) + " defines id " +
           std::to_string(I[HasType ? 1 : 0]) + ", not below the bound");
    Insts.push_back(I);
    readHeaderSection(I);
    At += Count;
  }
  checkEntryPoints();
  // Decoration groups apply their decorations to their targets.
  for (auto &[Group, Targets] : Groups) {
    auto It = Decorations.find(Group);
    if (It == Decorations.end())
      continue;
    const std::vector<Decoration> Copy = It->second;
    for (uint32_t Target : Targets)
      Decorations[Target].insert(Decorations[Target].end(), Copy.begin(),
                                 Copy.end());
  }
}

void Module::checkEntryPoints() const {
  // An entry point's function is defined in the module: an OpFunction with
  // a body (a module cut short keeps its entry points and loses them).
  std::set<uint32_t> Defined;
  uint32_t Current = 0;
  for (const Instruction &I : Insts) {
    if (I.Opcode == spv::Op::OpFunction)
      Current = I[1];
    else if (I.Opcode == spv::Op::OpLabel && Current)
      Defined.insert(Current);
    else if (I.Opcode == spv::Op::OpFunctionEnd)
      Current = 0;
  }
  for (const EntryPoint &E : Entries)
    if (!Defined.count(E.Function))
      fail("the entry point " + E.Name + " names function %" +
           std::to_string(E.Function) + ", which the module does not define");
}

void Module::checkCapability(uint32_t Cap) {
  for (spv::Capability C : SupportedCapabilities)
    if (static_cast<uint32_t>(C) == Cap)
      return;
  fail("the SPIR-V capability " + spirvCapabilityName(Cap) +
       " is not supported");
}

void Module::checkExtension(const std::string &Name) {
  for (std::string_view E : SupportedExtensions)
    if (E == Name)
      return;
  fail("the SPIR-V extension " + Name + " is not supported");
}

void Module::addDecoration(const Instruction &I, bool IdOperands) {
  (void)IdOperands;
  const bool Member = I.Opcode == spv::Op::OpMemberDecorate;
  if (Member)
    return; // only struct layouts carry them; none changes the reader's IR
  Decoration D{static_cast<spv::Decoration>(I[1]), {}, {}};
  size_t At = 2;
  if (D.Kind == spv::Decoration::LinkageAttributes ||
      D.Kind == spv::Decoration::UserSemantic ||
      I.Opcode == spv::Op::OpDecorateString)
    D.Text = I.string(2, &At);
  for (; At < I.size(); ++At)
    D.Args.push_back(I[At]);
  Decorations[I[0]].push_back(std::move(D));
}

void Module::readHeaderSection(const Instruction &I) {
  switch (I.Opcode) {
  case spv::Op::OpCapability:
    checkCapability(I[0]);
    break;
  case spv::Op::OpExtension:
    checkExtension(I.string(0));
    break;
  case spv::Op::OpExtInstImport: {
    const std::string Set = I.string(1);
    if (Set == "OpenCL.std")
      ExtSets[I[0]] = ExtSet::OpenCLStd;
    else if (Set.rfind("NonSemantic.", 0) == 0)
      ExtSets[I[0]] = ExtSet::NonSemantic;
    else
      fail("the extended instruction set " + Set + " is not supported");
    break;
  }
  case spv::Op::OpMemoryModel:
    if (I[0] != static_cast<uint32_t>(spv::AddressingModel::Physical64))
      fail("only the Physical64 addressing model is supported (the device "
           "has 64-bit addresses)");
    if (I[1] != static_cast<uint32_t>(spv::MemoryModel::OpenCL))
      fail("only the OpenCL memory model is supported");
    break;
  case spv::Op::OpEntryPoint: {
    if (I[0] != static_cast<uint32_t>(spv::ExecutionModel::Kernel))
      fail("only Kernel entry points are supported");
    EntryPoint E;
    E.Function = I[1];
    E.Name = I.string(2);
    Entries.push_back(std::move(E));
    break;
  }
  case spv::Op::OpExecutionMode:
  case spv::Op::OpExecutionModeId:
    for (EntryPoint &E : Entries) {
      if (E.Function != I[0])
        continue;
      switch (static_cast<spv::ExecutionMode>(I[1])) {
      case spv::ExecutionMode::LocalSize:
        E.LocalSize = {I[2], I[3], I[4]};
        break;
      case spv::ExecutionMode::LocalSizeHint:
        E.LocalSizeHint = {I[2], I[3], I[4]};
        break;
      case spv::ExecutionMode::VecTypeHint:
        E.VecTypeHint = I[2];
        E.HasVecTypeHint = true;
        break;
      case spv::ExecutionMode::ContractionOff:
        E.ContractionOff = true;
        break;
      default:
        break;
      }
    }
    break;
  case spv::Op::OpName:
    Names[I[0]] = I.string(1);
    break;
  case spv::Op::OpString:
    Strings[I[0]] = I.string(1);
    break;
  case spv::Op::OpDecorate:
  case spv::Op::OpDecorateString:
  case spv::Op::OpMemberDecorate:
    addDecoration(I, false);
    break;
  case spv::Op::OpDecorateId:
    addDecoration(I, true);
    break;
  case spv::Op::OpGroupDecorate:
    for (size_t At = 1; At < I.size(); ++At)
      Groups[I[0]].push_back(I[At]);
    break;
  default:
    break;
  }
}

const std::vector<Decoration> *Module::decorations(uint32_t Id) const {
  auto It = Decorations.find(Id);
  return It == Decorations.end() ? nullptr : &It->second;
}

const Decoration *Module::decoration(uint32_t Id, spv::Decoration Kind) const {
  if (const std::vector<Decoration> *All = decorations(Id))
    for (const Decoration &D : *All)
      if (D.Kind == Kind)
        return &D;
  return nullptr;
}

std::string_view Module::name(uint32_t Id) const {
  auto It = Names.find(Id);
  return It == Names.end() ? std::string_view() : It->second;
}

const std::string *Module::string(uint32_t Id) const {
  auto It = Strings.find(Id);
  return It == Strings.end() ? nullptr : &It->second;
}

const std::string *Module::stringWithPrefix(const std::string &Prefix) const {
  for (const auto &[Id, S] : Strings)
    if (S.rfind(Prefix, 0) == 0)
      return &S;
  return nullptr;
}

const EntryPoint *Module::entryPoint(uint32_t Function) const {
  for (const EntryPoint &E : Entries)
    if (E.Function == Function)
      return &E;
  return nullptr;
}

const ExtSet *Module::extSet(uint32_t Id) const {
  auto It = ExtSets.find(Id);
  return It == ExtSets.end() ? nullptr : &It->second;
}

} // namespace kc::spirv

namespace kc {

std::string spirvOpcodeName(uint32_t Opcode) {
  const char *Name = spirv::lookupName(spirv::SpirvOpcodeNames, Opcode);
  return Name ? Name : "opcode " + std::to_string(Opcode);
}

std::string spirvCapabilityName(uint32_t Capability) {
  const char *Name = spirv::lookupName(spirv::SpirvCapabilityNames, Capability);
  return Name ? Name : "capability " + std::to_string(Capability);
}

} // namespace kc

const char *kc::spirv::openclStdName(uint32_t Number) {
  return lookupName(OpenCLStdNames, Number);
}
