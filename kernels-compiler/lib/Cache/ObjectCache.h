//===- Cache/ObjectCache.h - Object code on disk between processes -*- C++
//-*-===//
//
// One file per key, <Directory>/<key><extension> (.kco for object code): a
// header (magic, format version, the key), the bytes and a CRC-32. Files
// are written to a unique temporary name in the same directory and renamed
// into place, so readers in other processes see a whole file or none. A file
// that does not check out (wrong magic, key, size or checksum) is ignored
// and replaced.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "kc/Compiler.h"

#include <llvm/ADT/ArrayRef.h>
#include <llvm/ADT/StringRef.h>

#include <memory>
#include <string>

namespace llvm {
class MemoryBuffer;
} // namespace llvm

namespace kc {

struct HostTarget;
class ModuleImpl;

inline constexpr llvm::StringLiteral ObjectExtension = ".kco";

// The 64-digit hex BLAKE3 digest of Parts (each with its length, so that
// part boundaries count); the cache's key format.
std::string digestKey(llvm::ArrayRef<llvm::StringRef> Parts);

// Identifies a file by path, size and modification time (any rebuild or
// reinstall changes them); "" when it cannot be read.
std::string fileIdentity(const std::string &Path);

// Hex digest of everything that changes the code: the bitcode, the options,
// this library's build, the LLVM version, the host CPU and its features.
std::string cacheKey(const ModuleImpl &Executable, const HostTarget &Host);

// The cached bytes for Key, or nullptr.
std::unique_ptr<llvm::MemoryBuffer>
readCachedObject(const CodeCache &Cache, const std::string &Key,
                 llvm::StringRef Extension = ObjectExtension);

// Best effort: a failure to write leaves the cache as it was.
void writeCachedObject(const CodeCache &Cache, const std::string &Key,
                       llvm::StringRef Bytes,
                       llvm::StringRef Extension = ObjectExtension);
void writeCachedObject(const CodeCache &Cache, const std::string &Key,
                       const llvm::MemoryBuffer &Object);

} // namespace kc
