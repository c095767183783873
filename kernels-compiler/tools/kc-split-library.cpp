//===- kc-split-library.cpp - The builtin library in small shards ---------===//
//
// usage: kc-split-library OUTPUT INPUT.bc...
//
// Splits the builtin library's bitcode files into shards, one per builtin
// family (every overload of one OpenCL C name: sin, vload4, convert_int_rte,
// ...), and writes them with an index of the symbols each shard defines in
// the format Builtins/ShardedLibrary.h reads. A build then reads only the
// shards of the builtins a program calls instead of the declarations of
// every builtin.
//
//===----------------------------------------------------------------------===//
#include "Builtins/ShardedLibraryFormat.h"

#include <llvm/ADT/DenseMap.h>
#include <llvm/ADT/StringMap.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Bitcode/BitcodeWriter.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/Utils/Cloning.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <vector>

namespace {

using namespace kc::library_format;

// The family of a symbol: the source name of an Itanium-mangled OpenCL C
// function (_Z3sinDv4_f → "sin"), else the symbol's own name.
std::string familyOf(llvm::StringRef Name) {
  if (!Name.consume_front("_Z"))
    return Name.str();
  size_t Digits = 0;
  while (Digits < Name.size() && Name[Digits] >= '0' && Name[Digits] <= '9')
    ++Digits;
  unsigned Length = 0;
  if (Digits == 0 || Name.take_front(Digits).getAsInteger(10, Length) ||
      Digits + Length > Name.size())
    return ("_Z" + Name).str();
  return Name.substr(Digits, Length).str();
}

// Local symbols cannot be reached from another shard: give them external
// (hidden) linkage under a name no program can use.
void externalizeLocals(llvm::Module &M, unsigned InputIndex) {
  for (llvm::GlobalValue &GV : M.global_values()) {
    if (!GV.hasLocalLinkage() || GV.isDeclaration())
      continue;
    GV.setName("__kc.lib" + std::to_string(InputIndex) + "." +
               (GV.hasName() ? GV.getName().str() : std::string("anon")));
    GV.setLinkage(llvm::GlobalValue::ExternalLinkage);
    GV.setVisibility(llvm::GlobalValue::HiddenVisibility);
  }
}

// The family each definition belongs to; a symbol without a family of its
// own (a renamed local) goes with the family of its first user.
std::map<std::string, std::vector<const llvm::GlobalValue *>>
familiesOf(const llvm::Module &M) {
  llvm::DenseMap<const llvm::GlobalValue *, std::string> Family;
  for (const llvm::GlobalValue &GV : M.global_values())
    if (!GV.isDeclaration() && !GV.hasAppendingLinkage())
      Family[&GV] = familyOf(GV.getName());
  for (const llvm::GlobalValue &GV : M.global_values()) {
    if (GV.isDeclaration() || !GV.getName().starts_with("__kc.lib"))
      continue;
    for (const llvm::User *U : GV.users()) {
      const auto *I = llvm::dyn_cast<llvm::Instruction>(U);
      if (I && I->getFunction())
        if (auto It = Family.find(I->getFunction()); It != Family.end()) {
          Family[&GV] = It->second;
          break;
        }
    }
  }
  std::map<std::string, std::vector<const llvm::GlobalValue *>> Families;
  for (const auto &[GV, Name] : Family)
    Families[Name].push_back(GV);
  return Families;
}

// A module that defines only Members; everything else it uses is declared.
std::string
shardBitcode(const llvm::Module &M,
             const std::vector<const llvm::GlobalValue *> &Members) {
  llvm::ValueToValueMapTy Map;
  auto Shard = llvm::CloneModule(M, Map, [&](const llvm::GlobalValue *GV) {
    return std::find(Members.begin(), Members.end(), GV) != Members.end();
  });
  for (llvm::Function &F : llvm::make_early_inc_range(*Shard))
    if (F.isDeclaration() && F.use_empty())
      F.eraseFromParent();
  for (llvm::GlobalVariable &G : llvm::make_early_inc_range(Shard->globals()))
    if (G.isDeclaration() && G.use_empty())
      G.eraseFromParent();
  std::string Bytes;
  llvm::raw_string_ostream Out(Bytes);
  llvm::WriteBitcodeToFile(*Shard, Out);
  Out.flush();
  return Bytes;
}

template <typename T> void append(std::string &Out, const T &Value) {
  Out.append(reinterpret_cast<const char *>(&Value), sizeof Value);
}

void padTo(std::string &Out, size_t Alignment) {
  Out.append((Alignment - Out.size() % Alignment) % Alignment, '\0');
}

} // namespace

int main(int Argc, char **Argv) {
  if (Argc < 3) {
    llvm::errs() << "usage: kc-split-library OUTPUT INPUT.bc...\n";
    return 2;
  }
  llvm::LLVMContext Context;
  std::vector<std::string> Shards;
  std::vector<std::pair<std::string, uint32_t>> Symbols; // name → shard
  for (int Index = 2; Index < Argc; ++Index) {
    auto Buffer = llvm::MemoryBuffer::getFile(Argv[Index]);
    if (!Buffer) {
      llvm::errs() << "kc-split-library: cannot read " << Argv[Index] << ": "
                   << Buffer.getError().message() << "\n";
      return 1;
    }
    auto M = llvm::parseBitcodeFile((*Buffer)->getMemBufferRef(), Context);
    if (!M) {
      llvm::errs() << "kc-split-library: " << Argv[Index] << ": "
                   << llvm::toString(M.takeError()) << "\n";
      return 1;
    }
    externalizeLocals(**M, static_cast<unsigned>(Index - 2));
    for (const auto &[Family, Members] : familiesOf(**M)) {
      const auto Shard = static_cast<uint32_t>(Shards.size());
      Shards.push_back(shardBitcode(**M, Members));
      for (const llvm::GlobalValue *GV : Members)
        Symbols.emplace_back(GV->getName().str(), Shard);
    }
  }
  std::sort(Symbols.begin(), Symbols.end());
  for (size_t I = 1; I < Symbols.size(); ++I)
    if (Symbols[I].first == Symbols[I - 1].first) {
      llvm::errs() << "kc-split-library: " << Symbols[I].first
                   << " is defined twice\n";
      return 1;
    }

  // Header, shard table, symbol table, names, then the shards' bitcode.
  std::string Names;
  std::vector<SymbolEntry> SymbolTable;
  for (const auto &[Name, Shard] : Symbols) {
    SymbolTable.push_back({static_cast<uint32_t>(Names.size()),
                           static_cast<uint32_t>(Name.size()), Shard});
    Names += Name;
  }
  Header H{};
  std::memcpy(H.Magic, Magic, sizeof H.Magic);
  H.ShardCount = static_cast<uint32_t>(Shards.size());
  H.SymbolCount = static_cast<uint32_t>(SymbolTable.size());
  H.NamesSize = static_cast<uint32_t>(Names.size());
  uint64_t Offset = sizeof(Header) + Shards.size() * sizeof(ShardEntry) +
                    SymbolTable.size() * sizeof(SymbolEntry) + Names.size();
  std::vector<ShardEntry> ShardTable;
  for (const std::string &Shard : Shards) {
    Offset += (ShardAlignment - Offset % ShardAlignment) % ShardAlignment;
    ShardTable.push_back({Offset, Shard.size()});
    Offset += Shard.size();
  }
  std::string Out;
  append(Out, H);
  for (const ShardEntry &E : ShardTable)
    append(Out, E);
  for (const SymbolEntry &E : SymbolTable)
    append(Out, E);
  Out += Names;
  for (size_t I = 0; I < Shards.size(); ++I) {
    padTo(Out, ShardAlignment);
    Out += Shards[I];
  }

  std::error_code Error;
  llvm::raw_fd_ostream File(Argv[1], Error);
  if (Error) {
    llvm::errs() << "kc-split-library: cannot write " << Argv[1] << ": "
                 << Error.message() << "\n";
    return 1;
  }
  File << Out;
  return 0;
}
