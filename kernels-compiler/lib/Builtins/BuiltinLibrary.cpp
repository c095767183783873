//===- Builtins/BuiltinLibrary.cpp - The OpenCL C builtin library ---------===//
//
// builtins/*.cl is compiled to bitcode at build time, split into one shard
// per builtin family (tools/kc-split-library) and embedded. A program reads
// only the shards that define what it calls, lazily, and links from each
// with LinkOnlyNeeded only the functions it needs; they are internalized and
// inlined with the rest of the kernel afterwards.
//
//===----------------------------------------------------------------------===//
#include "Builtins/BuiltinLibrary.h"

#include "Builtins/ShardedLibrary.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

#include <set>

#include <dlfcn.h>
#include <gnu/lib-names.h>

namespace kc {

namespace {

bool linkShard(llvm::Module &M, llvm::StringRef Bytes, std::string &Log) {
  llvm::MemoryBufferRef Buffer(Bytes, "builtins");
  auto Shard = llvm::getLazyBitcodeModule(Buffer, M.getContext());
  if (!Shard) {
    Log += "error: cannot read the builtin library: " +
           llvm::toString(Shard.takeError()) + "\n";
    return false;
  }
  (*Shard)->setDataLayout(M.getDataLayout());
  (*Shard)->setTargetTriple(M.getTargetTriple());
  if (llvm::Linker::linkModules(M, std::move(*Shard),
                                llvm::Linker::LinkOnlyNeeded)) {
    Log += "error: cannot link the builtin library\n";
    return false;
  }
  return true;
}

} // namespace

// Builtins call other builtins: the shards are linked in rounds until
// nothing M declares is defined by a shard not yet asked for it (what the
// library does not define, such as the work-item functions the passes
// replace, is left alone).
bool linkBuiltins(llvm::Module &M, std::string &Log) {
  const ShardedLibrary &Library = embeddedLibrary();
  if (!Library.valid()) {
    Log += "error: the embedded builtin library is damaged\n";
    return false;
  }
  llvm::StringSet<> Requested;
  for (;;) {
    std::set<uint32_t> Shards;
    for (const llvm::GlobalValue &GV : M.global_values()) {
      if (!GV.isDeclaration() || GV.use_empty() ||
          (llvm::isa<llvm::Function>(GV) &&
           llvm::cast<llvm::Function>(GV).isIntrinsic()) ||
          !Requested.insert(GV.getName()).second)
        continue;
      if (std::optional<uint32_t> Shard = Library.shardOf(GV.getName()))
        Shards.insert(*Shard);
    }
    if (Shards.empty())
      return true;
    for (uint32_t Shard : Shards)
      if (!linkShard(M, Library.shard(Shard), Log))
        return false;
  }
}

namespace {

// The host library functions by name: libm's for float and double, and the
// C library's memory functions.
const llvm::StringSet<> &hostLibraryNames() {
  static const llvm::StringSet<> Names = [] {
    llvm::StringSet<> S;
    for (const char *Base :
         {"acos",      "acosh",     "asin",   "asinh",     "atan",   "atan2",
          "atanh",     "cbrt",      "ceil",   "copysign",  "cos",    "cosh",
          "erf",       "erfc",      "exp",    "exp2",      "exp10",  "expm1",
          "fabs",      "fdim",      "floor",  "fma",       "fmax",   "fmin",
          "fmod",      "frexp",     "hypot",  "ilogb",     "ldexp",  "lgamma",
          "log",       "log10",     "log1p",  "log2",      "logb",   "modf",
          "nearbyint", "nextafter", "pow",    "remainder", "remquo", "rint",
          "round",     "sin",       "sincos", "sinh",      "sqrt",   "tan",
          "tanh",      "tgamma",    "trunc",  "scalbn"}) {
      S.insert(Base);
      S.insert(std::string(Base) + "f");
    }
    for (const char *Name :
         {"lgamma_r", "lgammaf_r", "memcpy", "memmove", "memset"})
      S.insert(Name);
    // The half conversions the code generator calls where the CPU has no
    // instruction for them (double to half always; float to and from half
    // without F16C): libgcc's, since GCC 12.
    for (const char *Name :
         {"__extendhfsf2", "__extendhfdf2", "__truncsfhf2", "__truncdfhf2"})
      S.insert(Name);
    return S;
  }();
  return Names;
}

// Where a host library function is in this process. libm and libgcc_s are
// asked by name: an application need not link them, and the ICD loader
// opens the driver without RTLD_GLOBAL, so they (loaded for this library)
// may be invisible to a global lookup. The C library always is.
void *openLibrary(const char *Soname) {
  void *Handle = dlopen(Soname, RTLD_NOW | RTLD_LOCAL | RTLD_NOLOAD);
  return Handle ? Handle : dlopen(Soname, RTLD_NOW | RTLD_LOCAL);
}
void *hostAddress(const char *Name) {
  static void *const LibM = openLibrary(LIBM_SO);
  static void *const LibGcc = openLibrary("libgcc_s.so.1");
  for (void *Library : {LibM, LibGcc})
    if (void *Address = Library ? dlsym(Library, Name) : nullptr)
      return Address;
  return dlsym(RTLD_DEFAULT, Name);
}

} // namespace

bool isHostLibraryFunction(llvm::StringRef Name) {
  return hostLibraryNames().contains(Name);
}

const std::vector<std::pair<std::string, void *>> &hostLibrarySymbols() {
  static const std::vector<std::pair<std::string, void *>> Symbols = [] {
    std::vector<std::pair<std::string, void *>> Result;
    for (const auto &Entry : hostLibraryNames()) {
      const std::string Name = Entry.getKey().str();
      if (void *Address = hostAddress(Name.c_str()))
        Result.emplace_back(Name, Address);
    }
    return Result;
  }();
  return Symbols;
}

} // namespace kc
