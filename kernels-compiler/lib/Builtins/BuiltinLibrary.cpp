//===- Builtins/BuiltinLibrary.cpp - The OpenCL C builtin library ---------===//
//
// builtins/*.cl is compiled to bitcode at build time and embedded. Linking it
// with LinkOnlyNeeded from a lazily read module materializes only the
// functions a program references; they are internalized and inlined with
// the rest of the kernel afterwards.
//
//===----------------------------------------------------------------------===//
#include "Builtins/BuiltinLibrary.h"

#include "Support/Embedded.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/ADT/StringSet.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/IR/Module.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>

namespace kc {

namespace {

// The mangled functions M calls but does not define: the conversions, or
// the others.
std::vector<std::string> undefinedBuiltins(const llvm::Module &M,
                                           bool Conversions) {
  std::vector<std::string> Names;
  for (const llvm::Function &F : M) {
    if (!F.isDeclaration() || F.isIntrinsic() || F.use_empty() ||
        !F.getName().starts_with("_Z"))
      continue;
    if (F.getName().contains("convert_") == Conversions)
      Names.push_back(F.getName().str());
  }
  return Names;
}

bool linkLibrary(llvm::Module &M, std::string_view Bytes, std::string &Log) {
  llvm::MemoryBufferRef Buffer(llvm::StringRef(Bytes.data(), Bytes.size()),
                               "builtins");
  auto Library = llvm::getLazyBitcodeModule(Buffer, M.getContext());
  if (!Library) {
    Log += "error: cannot read the builtin library: " +
           llvm::toString(Library.takeError()) + "\n";
    return false;
  }
  (*Library)->setDataLayout(M.getDataLayout());
  (*Library)->setTargetTriple(M.getTargetTriple());
  return !llvm::Linker::linkModules(M, std::move(*Library),
                                    llvm::Linker::LinkOnlyNeeded);
}

} // namespace

// Conversions call core functions and core functions call conversions: a
// library is linked again when the functions still missing have changed
// since its last link (what it cannot provide, such as the work-item
// functions the passes replace, does not count twice).
bool linkBuiltins(llvm::Module &M, std::string &Log) {
  std::vector<std::string> Tried[2];
  const std::string_view Libraries[2] = {embedded::builtinLibrary(),
                                         embedded::conversionLibrary()};
  for (bool Linked = true; Linked;) {
    Linked = false;
    for (int Conversions = 0; Conversions < 2; ++Conversions) {
      std::vector<std::string> Missing = undefinedBuiltins(M, Conversions);
      if (Missing.empty() || Missing == Tried[Conversions])
        continue;
      if (!linkLibrary(M, Libraries[Conversions], Log))
        return false;
      Tried[Conversions] = undefinedBuiltins(M, Conversions);
      Linked = true;
    }
  }
  return true;
}

bool isHostLibraryFunction(llvm::StringRef Name) {
  static const llvm::StringSet<> Names = [] {
    llvm::StringSet<> S;
    for (const char *Base :
         {"acos",      "acosh",  "asin",      "asinh",     "atan",
          "atan2",     "atanh",  "cbrt",      "ceil",      "copysign",
          "cos",       "cosh",   "erf",       "erfc",      "exp",
          "exp2",      "exp10",  "expm1",     "fabs",      "fdim",
          "floor",     "fma",    "fmax",      "fmin",      "fmod",
          "frexp",     "hypot",  "ilogb",     "ldexp",     "lgamma",
          "lgamma_r",  "log",    "log10",     "log1p",     "log2",
          "logb",      "modf",   "nearbyint", "nextafter", "pow",
          "remainder", "remquo", "rint",      "round",     "sin",
          "sincos",    "sinh",   "sqrt",      "tan",       "tanh",
          "tgamma",    "trunc",  "scalbn"}) {
      S.insert(Base);
      S.insert(std::string(Base) + "f");
    }
    for (const char *Name : {"memcpy", "memmove", "memset"})
      S.insert(Name);
    return S;
  }();
  return Names.contains(Name);
}

} // namespace kc
