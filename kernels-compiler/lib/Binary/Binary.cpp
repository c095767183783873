//===- Binary/Binary.cpp - The program binary container -------------------===//
//
// CL_PROGRAM_BINARIES. Little-endian throughout:
//
//   char[8]  magic "USMCL-KC"
//   u32      format version (FormatVersion; also covers kc/Launch.h)
//   u8       module kind, u8 flags (bit 0: -enable-link-options), u16 zero
//   string   build options (u32 length + bytes)
//   u32      kernel count, then each KernelInfo (writeKernel below)
//   u64      total size of the program-scope __global variables
//   u64      bitcode length + bitcode
//   u32      CRC-32 of every byte before it
//
//===----------------------------------------------------------------------===//
#include "Binary/ModuleImpl.h"

#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CRC.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>

#include <cstring>

namespace kc {

namespace {

constexpr char Magic[8] = {'U', 'S', 'M', 'C', 'L', '-', 'K', 'C'};
// 2: the kernel flags gained bit 2 (uniform work-group size).
// 3: the size of the program-scope __global variables.
constexpr uint32_t FormatVersion = 4;

class Writer {
public:
  void bytes(const void *Data, size_t Size) {
    Out.append(static_cast<const char *>(Data), Size);
  }
  template <typename T> void integer(T Value) {
    for (size_t I = 0; I < sizeof(T); ++I)
      Out.push_back(
          static_cast<char>((static_cast<uint64_t>(Value) >> (8 * I)) & 0xff));
  }
  void string(const std::string &S) {
    integer<uint32_t>(static_cast<uint32_t>(S.size()));
    bytes(S.data(), S.size());
  }
  std::string &str() { return Out; }

private:
  std::string Out;
};

class Reader {
public:
  explicit Reader(std::string_view In) : In(In) {}

  bool bytes(void *Data, size_t Size) {
    if (In.size() - Pos < Size)
      return fail();
    std::memcpy(Data, In.data() + Pos, Size);
    Pos += Size;
    return true;
  }
  template <typename T> bool integer(T &Value) {
    if (In.size() - Pos < sizeof(T))
      return fail();
    uint64_t V = 0;
    for (size_t I = 0; I < sizeof(T); ++I)
      V |= static_cast<uint64_t>(static_cast<unsigned char>(In[Pos + I]))
           << (8 * I);
    Pos += sizeof(T);
    Value = static_cast<T>(V);
    return true;
  }
  bool string(std::string &S) {
    uint32_t Size = 0;
    if (!integer(Size) || In.size() - Pos < Size)
      return fail();
    S.assign(In.data() + Pos, Size);
    Pos += Size;
    return true;
  }
  bool view(std::string_view &S, uint64_t Size) {
    if (In.size() - Pos < Size)
      return fail();
    S = In.substr(Pos, Size);
    Pos += Size;
    return true;
  }
  size_t position() const { return Pos; }
  bool failed() const { return Failed; }

private:
  bool fail() {
    Failed = true;
    return false;
  }
  std::string_view In;
  size_t Pos = 0;
  bool Failed = false;
};

void writeKernel(Writer &W, const KernelInfo &K) {
  W.string(K.Name);
  W.integer<uint32_t>(static_cast<uint32_t>(K.Args.size()));
  for (const ArgInfo &A : K.Args) {
    W.string(A.Name);
    W.string(A.TypeName);
    W.integer<uint8_t>(static_cast<uint8_t>(A.Kind));
    W.integer<uint8_t>(static_cast<uint8_t>(A.AddrSpace));
    W.integer<uint8_t>(
        static_cast<uint8_t>((A.ReadOnly ? 1 : 0) | (A.WriteOnly ? 2 : 0)));
    W.integer(A.AccessQualifier);
    W.integer(A.TypeQualifier);
    W.integer(A.Size);
    W.integer(A.Align);
    W.integer(A.Offset);
  }
  W.integer(K.ArgBufferSize);
  W.integer<uint8_t>(static_cast<uint8_t>((K.HasArgNames ? 1 : 0) |
                                          (K.UsesBarriers ? 2 : 0) |
                                          (K.UniformWorkGroupSize ? 4 : 0)));
  for (uint64_t V : K.ReqdWorkGroupSize)
    W.integer(V);
  for (uint64_t V : K.WorkGroupSizeHint)
    W.integer(V);
  W.string(K.VecTypeHint);
  W.string(K.Attributes);
  W.integer(K.PrivateMemSize);
  W.integer(K.StaticLocalMemSize);
  W.integer(K.SubGroupSize);
  W.integer(K.ReqdSubGroupSize);
}

bool readKernel(Reader &R, KernelInfo &K) {
  uint32_t ArgCount = 0;
  if (!R.string(K.Name) || !R.integer(ArgCount))
    return false;
  for (uint32_t I = 0; I < ArgCount; ++I) {
    ArgInfo A;
    uint8_t Kind = 0, Space = 0, Flags = 0;
    if (!R.string(A.Name) || !R.string(A.TypeName) || !R.integer(Kind) ||
        !R.integer(Space) || !R.integer(Flags) ||
        !R.integer(A.AccessQualifier) || !R.integer(A.TypeQualifier) ||
        !R.integer(A.Size) || !R.integer(A.Align) || !R.integer(A.Offset))
      return false;
    if (Kind > static_cast<uint8_t>(ArgKind::Sampler) ||
        Space > static_cast<uint8_t>(AddressSpace::Generic))
      return false;
    A.Kind = static_cast<ArgKind>(Kind);
    A.AddrSpace = static_cast<AddressSpace>(Space);
    A.ReadOnly = Flags & 1;
    A.WriteOnly = Flags & 2;
    K.Args.push_back(std::move(A));
  }
  uint8_t Flags = 0;
  if (!R.integer(K.ArgBufferSize) || !R.integer(Flags))
    return false;
  K.HasArgNames = Flags & 1;
  K.UsesBarriers = Flags & 2;
  K.UniformWorkGroupSize = Flags & 4;
  for (uint64_t &V : K.ReqdWorkGroupSize)
    if (!R.integer(V))
      return false;
  for (uint64_t &V : K.WorkGroupSizeHint)
    if (!R.integer(V))
      return false;
  return R.string(K.VecTypeHint) && R.string(K.Attributes) &&
         R.integer(K.PrivateMemSize) && R.integer(K.StaticLocalMemSize) &&
         R.integer(K.SubGroupSize) && R.integer(K.ReqdSubGroupSize) &&
         K.SubGroupSize > 0;
}

uint32_t checksum(std::string_view Bytes) {
  return llvm::crc32(llvm::ArrayRef<uint8_t>(
      reinterpret_cast<const uint8_t *>(Bytes.data()), Bytes.size()));
}

} // namespace

std::string writeBitcode(const llvm::Module &M) {
  std::string Bitcode;
  llvm::raw_string_ostream OS(Bitcode);
  llvm::WriteBitcodeToFile(M, OS);
  OS.flush();
  return Bitcode;
}

uint64_t globalVariableSize(const llvm::Module &M) {
  // The address space of __global with Clang's fake address-space map.
  constexpr unsigned GlobalAddressSpace = 1;
  const llvm::DataLayout &DL = M.getDataLayout();
  uint64_t Total = 0;
  for (const llvm::GlobalVariable &GV : M.globals())
    if (!GV.isDeclaration() && GV.getAddressSpace() == GlobalAddressSpace)
      Total += DL.getTypeAllocSize(GV.getValueType()).getFixedValue();
  return Total;
}

std::unique_ptr<llvm::Module> ModuleImpl::load(llvm::LLVMContext &Context,
                                               std::string &Error) const {
  auto Buffer = llvm::MemoryBuffer::getMemBuffer(Bitcode, "module", false);
  auto M = llvm::parseBitcodeFile(Buffer->getMemBufferRef(), Context);
  if (!M) {
    Error = llvm::toString(M.takeError());
    return nullptr;
  }
  return std::move(*M);
}

std::string ModuleImpl::toBinary() const {
  Writer W;
  W.bytes(Magic, sizeof(Magic));
  W.integer(FormatVersion);
  W.integer<uint8_t>(static_cast<uint8_t>(Kind));
  W.integer<uint8_t>(LinkOptionsEnabled ? 1 : 0);
  W.integer<uint16_t>(0);
  W.string(Options);
  W.integer<uint32_t>(static_cast<uint32_t>(Kernels.size()));
  for (const KernelInfo &K : Kernels)
    writeKernel(W, K);
  W.integer(GlobalVariableSize);
  W.integer<uint64_t>(Bitcode.size());
  W.bytes(Bitcode.data(), Bitcode.size());
  W.integer(checksum(W.str()));
  return std::move(W.str());
}

std::unique_ptr<Module> moduleFromBinary(std::string_view Bytes,
                                         std::string &Error) {
  if (Bytes.size() < sizeof(Magic) ||
      std::memcmp(Bytes.data(), Magic, sizeof(Magic)) != 0) {
    Error = "not a usmcl program binary (bad magic)";
    return nullptr;
  }
  Reader R(Bytes);
  char Head[sizeof(Magic)];
  uint32_t Version = 0;
  R.bytes(Head, sizeof(Head));
  if (!R.integer(Version) || Version != FormatVersion) {
    Error = "unsupported program binary version " + std::to_string(Version) +
            " (expected " + std::to_string(FormatVersion) + ")";
    return nullptr;
  }
  uint8_t Kind = 0, Flags = 0;
  uint16_t Reserved = 0;
  std::string Options;
  uint32_t KernelCount = 0;
  std::vector<KernelInfo> Kernels;
  uint64_t GlobalSize = 0;
  uint64_t BitcodeSize = 0;
  std::string_view Bitcode;
  uint32_t Stored = 0;
  if (R.integer(Kind) && R.integer(Flags) && R.integer(Reserved) &&
      R.string(Options) && R.integer(KernelCount) &&
      KernelCount <= Bytes.size()) {
    for (uint32_t I = 0; I < KernelCount && !R.failed(); ++I) {
      KernelInfo K;
      if (readKernel(R, K))
        Kernels.push_back(std::move(K));
      else
        break;
    }
  }
  size_t Checked = 0;
  if (!R.failed() && Kernels.size() == KernelCount && R.integer(GlobalSize) &&
      R.integer(BitcodeSize) && R.view(Bitcode, BitcodeSize)) {
    Checked = R.position();
    R.integer(Stored);
  }
  if (R.failed() || Kernels.size() != KernelCount ||
      R.position() != Bytes.size()) {
    Error = "truncated or malformed program binary";
    return nullptr;
  }
  if (checksum(Bytes.substr(0, Checked)) != Stored) {
    Error = "corrupt program binary (checksum mismatch)";
    return nullptr;
  }
  if (Kind > static_cast<uint8_t>(ModuleKind::Executable)) {
    Error = "invalid module kind in program binary";
    return nullptr;
  }
  llvm::MemoryBufferRef Ref(llvm::StringRef(Bitcode.data(), Bitcode.size()),
                            "module");
  if (auto Contents = llvm::getBitcodeFileContents(Ref); !Contents) {
    Error = "corrupt bitcode in program binary: " +
            llvm::toString(Contents.takeError());
    return nullptr;
  } else if (Contents->Mods.size() != 1) {
    Error = "program binary holds " + std::to_string(Contents->Mods.size()) +
            " modules";
    return nullptr;
  }
  return std::make_unique<ModuleImpl>(
      static_cast<ModuleKind>(Kind), std::move(Options), std::string(Bitcode),
      std::move(Kernels), Flags & 1, GlobalSize);
}

} // namespace kc
