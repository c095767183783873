//===- Frontend/SpirvFrontend.cpp - SPIR-V to LLVM IR ---------------------===//
//
// Spirv/SpirvReader (in process) gives a module for the spir64 target with
// the OpenCL C builtins as Itanium-mangled calls in the SPIR style (address
// spaces spelled U3AS<n>, private pointers unqualified, every function
// spir_func). The builtin library is compiled for the host with Clang's fake
// address-space map, whose mangling spells the address spaces CLglobal,
// CLprivate, ... So a builtin is found by its demangled signature with the
// address spaces normalized; the generic-pointer forms the library lacks (the
// C11 atomics on a generic pointer) use the global ones, which on this CPU act
// on any address. Where the host ABI passes arguments differently (wide vectors
// by pointer, small vectors as integers), the declaration becomes a small
// adapter that the kernel inlining removes again.
//
//===----------------------------------------------------------------------===//
#include "Frontend/SpirvFrontend.h"

#include "Builtins/ShardedLibrary.h"
#include "Frontend/SpirvBinary.h"
#include "Spirv/SpirvReader.h"
#include "Support/LLVMSetup.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/Bitcode/BitcodeReader.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/Error.h>
#include <llvm/Support/MemoryBuffer.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/TargetParser/Host.h>
#include <llvm/TargetParser/Triple.h>

#include <array>
#include <map>
#include <optional>

namespace kc {

namespace {

void replaceAll(std::string &S, std::string_view From, std::string_view To) {
  for (size_t At = S.find(From); At != std::string::npos;
       At = S.find(From, At + To.size()))
    S.replace(At, From.size(), To);
}

// A demangled signature with the address spaces spelled one way.
std::string normalizedSignature(llvm::StringRef Mangled) {
  std::string S = llvm::demangle(Mangled.str());
  replaceAll(S, " CLprivate", "");
  replaceAll(S, " AS0", "");
  replaceAll(S, " CLglobal", " AS1");
  replaceAll(S, " CLconstant", " AS2");
  replaceAll(S, " CLlocal", " AS3");
  replaceAll(S, " CLgeneric", " AS4");
  return S;
}

// One shard of the builtin library, read lazily into Context.
std::unique_ptr<llvm::Module>
loadShard(uint32_t Shard, llvm::LLVMContext &Context, std::string &Log) {
  llvm::MemoryBufferRef Buffer(embeddedLibrary().shard(Shard), "builtins");
  auto Library = llvm::getLazyBitcodeModule(Buffer, Context);
  if (!Library) {
    Log += "error: cannot read the builtin library: " +
           llvm::toString(Library.takeError()) + "\n";
    return nullptr;
  }
  return std::move(*Library);
}

// Normalized signature -> the library's mangled name, for every function of
// the builtin library; built once per process from the library's index.
const llvm::StringMap<std::string> &libraryIndex() {
  static const llvm::StringMap<std::string> Index = [] {
    llvm::StringMap<std::string> Result;
    const ShardedLibrary &Library = embeddedLibrary();
    for (uint32_t I = 0; I < Library.symbolCount(); ++I) {
      const llvm::StringRef Name = Library.symbol(I);
      if (Name.starts_with("_Z"))
        Result.try_emplace(normalizedSignature(Name), Name.str());
    }
    return Result;
  }();
  return Index;
}

// Stores V in a new stack slot and reads it back as type To (the same
// allocation size: a 3-element vector of chars is returned as an i32).
llvm::Value *reinterpret(llvm::IRBuilder<> &B, llvm::Value *V, llvm::Type *To,
                         const llvm::DataLayout &DL) {
  llvm::AllocaInst *Slot = B.CreateAlloca(DL.getTypeStoreSize(V->getType()) >=
                                                  DL.getTypeStoreSize(To)
                                              ? V->getType()
                                              : To);
  Slot->setAlignment(
      std::max(DL.getABITypeAlign(V->getType()), DL.getABITypeAlign(To)));
  B.CreateStore(V, Slot);
  return B.CreateLoad(To, Slot);
}

bool sameSize(llvm::Type *A, llvm::Type *B, const llvm::DataLayout &DL) {
  return A->isSized() && B->isSized() &&
         DL.getTypeAllocSize(A) == DL.getTypeAllocSize(B);
}

// Gives F (a declaration with the SPIR-side signature) a body that calls
// Target (the library function, declared in F's module with its own type
// and attributes). False, with F untouched, when the two cannot be matched.
bool buildAdapter(llvm::Function &F, llvm::Function &Target) {
  const llvm::DataLayout &DL = F.getParent()->getDataLayout();
  llvm::FunctionType *TT = Target.getFunctionType();
  unsigned First = 0;
  bool HasSRet = TT->getNumParams() > 0 &&
                 Target.hasParamAttribute(0, llvm::Attribute::StructRet);
  if (HasSRet)
    First = 1;
  if (TT->getNumParams() - First != F.arg_size())
    return false;

  llvm::BasicBlock *Body =
      llvm::BasicBlock::Create(F.getContext(), "adapter", &F);
  llvm::IRBuilder<> B(Body);
  std::vector<llvm::Value *> Args;
  llvm::AllocaInst *Result = nullptr;
  bool Ok = true;
  if (HasSRet) {
    Result = B.CreateAlloca(Target.getParamStructRetType(0));
    Args.push_back(Result);
  }
  for (llvm::Argument &A : F.args()) {
    unsigned I = First + A.getArgNo();
    llvm::Type *Want = TT->getParamType(I);
    if (llvm::Type *ByVal = Target.getParamByValType(I)) {
      if (!sameSize(A.getType(), ByVal, DL)) {
        Ok = false;
        break;
      }
      llvm::AllocaInst *Slot = B.CreateAlloca(ByVal);
      Slot->setAlignment(DL.getABITypeAlign(ByVal));
      B.CreateStore(&A, Slot);
      Args.push_back(Slot);
    } else if (A.getType() == Want) {
      Args.push_back(&A);
    } else if (A.getType()->isPointerTy() && Want->isPointerTy()) {
      Args.push_back(B.CreateAddrSpaceCast(&A, Want));
    } else if (sameSize(A.getType(), Want, DL)) {
      Args.push_back(reinterpret(B, &A, Want, DL));
    } else {
      Ok = false;
      break;
    }
  }
  llvm::Type *Ret = F.getReturnType();
  if (Ok) {
    llvm::CallInst *Call = B.CreateCall(&Target, Args);
    Call->setCallingConv(Target.getCallingConv());
    Call->setAttributes(Target.getAttributes());
    if (Ret->isVoidTy())
      B.CreateRetVoid();
    else if (Result && sameSize(Ret, Result->getAllocatedType(), DL))
      B.CreateRet(B.CreateLoad(Ret, Result));
    else if (Call->getType() == Ret)
      B.CreateRet(Call);
    else if (sameSize(Call->getType(), Ret, DL))
      B.CreateRet(reinterpret(B, Call, Ret, DL));
    else
      Ok = false;
  }
  if (!Ok) {
    F.deleteBody();
    return false;
  }
  F.setLinkage(llvm::GlobalValue::InternalLinkage);
  return true;
}

// Points the calls of the SPIR-V builtin F at the library function Name.
void useLibraryFunction(llvm::Function &F, const std::string &Name,
                        llvm::Module &Library) {
  llvm::Function *LibF = Library.getFunction(Name);
  if (!LibF)
    return;
  llvm::Module &M = *F.getParent();
  bool PlainCall = LibF->getFunctionType() == F.getFunctionType() &&
                   !LibF->hasParamAttribute(0, llvm::Attribute::StructRet);
  for (unsigned I = 0; PlainCall && I < F.arg_size(); ++I)
    PlainCall = !LibF->getParamByValType(I);
  llvm::Function *Existing = M.getFunction(Name);
  if (Existing == &F) {
    // The library's name already, but another signature (the host ABI):
    // F becomes the adapter under a name of its own.
    if (PlainCall)
      return;
    F.setName(Name + ".spirv");
    Existing = nullptr;
  }
  if (PlainCall) {
    if (!Existing) {
      F.setName(Name);
    } else if (Existing->getFunctionType() == F.getFunctionType()) {
      F.replaceAllUsesWith(Existing);
    }
    return;
  }
  if (Existing && Existing->getFunctionType() != LibF->getFunctionType())
    return;
  if (!Existing) {
    Existing = llvm::Function::Create(
        LibF->getFunctionType(), llvm::GlobalValue::ExternalLinkage, Name, M);
    Existing->setAttributes(LibF->getAttributes());
    Existing->setCallingConv(LibF->getCallingConv());
  }
  buildAdapter(F, *Existing);
}

// The OpenCL builtins the reader left as declarations, renamed or
// adapted to the builtin library's functions.
bool mapBuiltins(llvm::Module &M, std::string &Log) {
  std::map<uint32_t, std::unique_ptr<llvm::Module>> Shards;
  std::vector<llvm::Function *> Declarations;
  for (llvm::Function &F : M)
    if (F.isDeclaration() && !F.isIntrinsic() && !F.use_empty() &&
        F.getName().starts_with("_Z"))
      Declarations.push_back(&F);
  for (llvm::Function *F : Declarations) {
    std::string Name = libraryNameForSpirvBuiltin(F->getName());
    if (Name.empty())
      continue;
    const std::optional<uint32_t> Shard = embeddedLibrary().shardOf(Name);
    if (!Shard)
      continue;
    std::unique_ptr<llvm::Module> &Library = Shards[*Shard];
    if (!Library && !(Library = loadShard(*Shard, M.getContext(), Log)))
      return false;
    useLibraryFunction(*F, Name, *Library);
  }
  for (llvm::Function *F : Declarations)
    if (F->use_empty() && F->isDeclaration())
      F->eraseFromParent();
  return true;
}

// The host's triple and data layout (the builtin library's), and the C
// calling convention for everything but the kernels, as the OpenCL C front
// end gives them.
bool retarget(llvm::Module &M, std::string &Log) {
  std::unique_ptr<llvm::Module> Library = loadShard(0, M.getContext(), Log);
  if (!Library)
    return false;
  M.setTargetTriple(llvm::Triple::normalize(llvm::sys::getProcessTriple()));
  M.setDataLayout(Library->getDataLayout());
  for (llvm::Function &F : M) {
    if (F.getCallingConv() == llvm::CallingConv::SPIR_FUNC)
      F.setCallingConv(llvm::CallingConv::C);
    for (llvm::BasicBlock &BB : F)
      for (llvm::Instruction &I : BB)
        if (auto *Call = llvm::dyn_cast<llvm::CallBase>(&I))
          if (Call->getCallingConv() == llvm::CallingConv::SPIR_FUNC)
            Call->setCallingConv(llvm::CallingConv::C);
  }
  return true;
}

} // namespace

std::string libraryNameForSpirvBuiltin(std::string_view Name) {
  const llvm::StringMap<std::string> &Index = libraryIndex();
  std::string Key = normalizedSignature(llvm::StringRef(Name));
  auto It = Index.find(Key);
  if (It != Index.end())
    return It->second;
  // No generic-pointer form: the global one.
  if (Key.find(" AS4") != std::string::npos) {
    replaceAll(Key, " AS4", " AS1");
    It = Index.find(Key);
    if (It != Index.end())
      return It->second;
  }
  return {};
}

std::unique_ptr<llvm::Module>
translateSpirv(llvm::LLVMContext &Context, std::string_view Spirv,
               std::span<const SpecConstantValue> SpecValues,
               std::string &Log) {
  initializeLLVM();
  std::vector<uint32_t> Words = spirvWords(Spirv);
  if (Words.empty()) {
    Log += "error: not a SPIR-V module\n";
    return nullptr;
  }
  std::string Error;
  if (!specializeSpirv(Words, SpecValues, Error)) {
    Log += "error: " + Error + "\n";
    return nullptr;
  }
  std::unique_ptr<llvm::Module> Library = loadShard(0, Context, Log);
  if (!Library)
    return nullptr;
  std::unique_ptr<llvm::Module> M =
      readSpirv(Context, Words, Library->getDataLayout(), Log);
  if (!M)
    return nullptr;
  if (!retarget(*M, Log) || !mapBuiltins(*M, Log))
    return nullptr;
  std::string Broken;
  llvm::raw_string_ostream BrokenStream(Broken);
  if (llvm::verifyModule(*M, &BrokenStream)) {
    Log += "error: the translated SPIR-V module is not valid IR:\n" + Broken;
    return nullptr;
  }
  return M;
}

} // namespace kc
