//===- Cache/ObjectCache.cpp - Object code on disk between processes ------===//
#include "Cache/ObjectCache.h"

#include "Binary/ModuleImpl.h"
#include "CodeGen/CodeGen.h"
#include "CodeGen/VectorMath.h"
#include "Support/Embedded.h"

#include <llvm/ADT/SmallString.h>
#include <llvm/ADT/StringExtras.h>
#include <llvm/Config/llvm-config.h>
#include <llvm/Support/BLAKE3.h>
#include <llvm/Support/CRC.h>
#include <llvm/Support/FileSystem.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/Path.h>
#include <llvm/Support/raw_ostream.h>

#include <array>
#include <cstring>
#include <dlfcn.h>
#include <sys/stat.h>

namespace kc {

namespace {

constexpr char Magic[8] = {'U', 'S', 'M', 'C', 'L', 'K', 'C', 'O'};
constexpr uint32_t CacheFormatVersion = 1;
constexpr size_t KeyHexSize = 64;
constexpr size_t HeaderSize = sizeof(Magic) + 4 + KeyHexSize + 8;

// Identifies the build of this code: the file it was loaded from, with its
// size and modification time (any rebuild changes them).
std::string buildIdentity() {
  static const std::string Identity = [] {
    std::string Result = "kc-" + std::to_string(CacheFormatVersion);
    Dl_info Info{};
    if (dladdr(reinterpret_cast<void *>(&buildIdentity), &Info) &&
        Info.dli_fname)
      Result += ";" + fileIdentity(Info.dli_fname);
    return Result;
  }();
  return Identity;
}

void appendInteger(std::string &Out, uint64_t Value, size_t Bytes) {
  for (size_t I = 0; I < Bytes; ++I)
    Out.push_back(static_cast<char>((Value >> (8 * I)) & 0xff));
}

uint64_t readInteger(const char *Data, size_t Bytes) {
  uint64_t V = 0;
  for (size_t I = 0; I < Bytes; ++I)
    V |= static_cast<uint64_t>(static_cast<unsigned char>(Data[I])) << (8 * I);
  return V;
}

uint32_t checksum(llvm::StringRef Bytes) {
  return llvm::crc32(llvm::arrayRefFromStringRef(Bytes));
}

// The digest of the embedded builtin library, computed once per process.
const std::array<uint8_t, 32> &builtinLibraryDigest() {
  static const std::array<uint8_t, 32> Digest = [] {
    std::string_view Builtins = embedded::builtinLibrary();
    return llvm::BLAKE3::hash(llvm::arrayRefFromStringRef(
        llvm::StringRef(Builtins.data(), Builtins.size())));
  }();
  return Digest;
}

std::string cachePath(const CodeCache &Cache, const std::string &Key,
                      llvm::StringRef Extension) {
  llvm::SmallString<256> Path(Cache.Directory);
  llvm::sys::path::append(Path, Key + Extension);
  return std::string(Path);
}

} // namespace

std::string digestKey(llvm::ArrayRef<llvm::StringRef> Parts) {
  llvm::BLAKE3 Hasher;
  for (llvm::StringRef Part : Parts) {
    std::string Size;
    appendInteger(Size, Part.size(), 8);
    Hasher.update(Size);
    Hasher.update(Part);
  }
  auto Digest = Hasher.final();
  std::string Hex;
  for (uint8_t Byte : Digest) {
    static constexpr char Digits[] = "0123456789abcdef";
    Hex.push_back(Digits[Byte >> 4]);
    Hex.push_back(Digits[Byte & 15]);
  }
  return Hex;
}

std::string fileIdentity(const std::string &Path) {
  struct stat St {};
  if (stat(Path.c_str(), &St) != 0)
    return {};
  return Path + ";" + std::to_string(St.st_size) + ";" +
         std::to_string(St.st_mtime) + "." + std::to_string(St.st_mtim.tv_nsec);
}

std::string cacheKey(const ModuleImpl &Executable, const HostTarget &Host) {
  return digestKey(
      {Executable.bitcode(), Executable.options(), buildIdentity(),
       LLVM_VERSION_STRING, Host.Triple, Host.CPU, Host.Features,
       // The math functions the code may call in vector form (none when
       // libmvec cannot be opened): the same bitcode compiles to other calls.
       vectorMathIdentity(Host),
       llvm::toStringRef(llvm::ArrayRef<uint8_t>(builtinLibraryDigest()))});
}

std::unique_ptr<llvm::MemoryBuffer>
readCachedObject(const CodeCache &Cache, const std::string &Key,
                 llvm::StringRef Extension) {
  if (!Cache.Enabled || Cache.Directory.empty())
    return nullptr;
  auto File = llvm::MemoryBuffer::getFile(cachePath(Cache, Key, Extension),
                                          /*IsText=*/false,
                                          /*RequiresNullTerminator=*/false);
  if (!File)
    return nullptr;
  llvm::StringRef Bytes = (*File)->getBuffer();
  if (Bytes.size() < HeaderSize + 4 ||
      std::memcmp(Bytes.data(), Magic, sizeof(Magic)) != 0 ||
      readInteger(Bytes.data() + sizeof(Magic), 4) != CacheFormatVersion ||
      Bytes.substr(sizeof(Magic) + 4, KeyHexSize) != Key)
    return nullptr;
  uint64_t Size = readInteger(Bytes.data() + HeaderSize - 8, 8);
  if (Size != Bytes.size() - HeaderSize - 4)
    return nullptr;
  llvm::StringRef Checked = Bytes.substr(0, HeaderSize + Size);
  if (checksum(Checked) != readInteger(Bytes.data() + HeaderSize + Size, 4))
    return nullptr;
  return llvm::MemoryBuffer::getMemBufferCopy(Bytes.substr(HeaderSize, Size),
                                              "cached.o");
}

void writeCachedObject(const CodeCache &Cache, const std::string &Key,
                       llvm::StringRef Bytes, llvm::StringRef Extension) {
  if (!Cache.Enabled || Cache.Directory.empty() || Key.size() != KeyHexSize)
    return;
  if (llvm::sys::fs::create_directories(Cache.Directory))
    return;
  std::string Contents(Magic, sizeof(Magic));
  appendInteger(Contents, CacheFormatVersion, 4);
  Contents += Key;
  appendInteger(Contents, Bytes.size(), 8);
  Contents += Bytes;
  appendInteger(Contents, checksum(Contents), 4);

  llvm::SmallString<256> Model(Cache.Directory);
  llvm::sys::path::append(Model, Key + "-%%%%%%%%.tmp");
  int FD = -1;
  llvm::SmallString<256> TempPath;
  if (llvm::sys::fs::createUniqueFile(Model, FD, TempPath))
    return;
  bool Written = false;
  {
    llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
    OS << Contents;
    OS.flush();
    Written = !OS.has_error();
    OS.clear_error();
  }
  if (!Written ||
      llvm::sys::fs::rename(TempPath, cachePath(Cache, Key, Extension)))
    llvm::sys::fs::remove(TempPath);
}

void writeCachedObject(const CodeCache &Cache, const std::string &Key,
                       const llvm::MemoryBuffer &Object) {
  writeCachedObject(Cache, Key, Object.getBuffer(), ObjectExtension);
}

} // namespace kc
