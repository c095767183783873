//===- Passes/LargeGlobals.cpp - Big program-scope variables outside the JIT
//===//
//
// A program-scope variable may be as large as
// CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE (gigabytes). In the JIT's image it
// would sit in .bss next to the code, beyond the reach of the small code
// model's 32-bit PC-relative fixups. So every variable of at least
// LargeGlobalThreshold bytes becomes an external declaration named
// __kc_gvar.<size>.<init size>.<name>, not dso_local: the code reaches it
// through its GOT entry, a 64-bit address. NativeProgram allocates its
// storage when the JIT asks for the symbol (zero pages from the system,
// committed on first touch) and copies the initializer, if any, from the
// constant __kc_ginit.<name>. Trailing zero fields of an initializer (Clang
// writes `= {1}` as a struct of the given part and a zeroinitializer tail)
// are left out: the storage starts zeroed.
//
//===----------------------------------------------------------------------===//
#include "Passes/Passes.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>

namespace kc {

namespace {

// The initializer without its trailing zero fields; nullptr when it is all
// zero (or undefined).
llvm::Constant *trimmedInitializer(llvm::Constant *Init) {
  if (Init->isNullValue() || llvm::isa<llvm::UndefValue>(Init))
    return nullptr;
  auto *S = llvm::dyn_cast<llvm::ConstantStruct>(Init);
  if (!S)
    return Init;
  unsigned End = S->getNumOperands();
  while (End > 0 && (S->getOperand(End - 1)->isNullValue() ||
                     llvm::isa<llvm::UndefValue>(S->getOperand(End - 1))))
    --End;
  if (End == S->getNumOperands())
    return Init;
  llvm::SmallVector<llvm::Constant *, 8> Fields;
  for (unsigned I = 0; I < End; ++I)
    Fields.push_back(S->getOperand(I));
  return llvm::ConstantStruct::getAnon(Fields, S->getType()->isPacked());
}

} // namespace

std::string largeGlobalSymbol(uint64_t Size, uint64_t InitSize,
                              llvm::StringRef Name) {
  return (LargeGlobalPrefix + llvm::Twine(Size) + "." + llvm::Twine(InitSize) +
          "." + Name)
      .str();
}

bool parseLargeGlobalSymbol(llvm::StringRef Symbol, uint64_t &Size,
                            uint64_t &InitSize, llvm::StringRef &Name) {
  if (!Symbol.consume_front(LargeGlobalPrefix))
    return false;
  auto [SizeText, Rest] = Symbol.split('.');
  auto [InitText, NameText] = Rest.split('.');
  if (SizeText.getAsInteger(10, Size) || InitText.getAsInteger(10, InitSize) ||
      NameText.empty() || InitSize > Size)
    return false;
  Name = NameText;
  return true;
}

llvm::PreservedAnalyses LargeGlobalsPass::run(llvm::Module &M,
                                              llvm::ModuleAnalysisManager &) {
  const llvm::DataLayout &DL = M.getDataLayout();
  llvm::SmallVector<llvm::GlobalVariable *, 4> Large;
  for (llvm::GlobalVariable &GV : M.globals())
    if (!GV.isDeclaration() && !GV.isThreadLocal() &&
        DL.getTypeAllocSize(GV.getValueType()) >= LargeGlobalThreshold &&
        GV.getAlign().valueOrOne().value() <= LargeGlobalMaxAlign)
      Large.push_back(&GV);
  for (llvm::GlobalVariable *GV : Large) {
    uint64_t Size = DL.getTypeAllocSize(GV->getValueType());
    std::string Name = GV->getName().str();
    llvm::Constant *Init = trimmedInitializer(GV->getInitializer());
    uint64_t InitSize = Init ? DL.getTypeAllocSize(Init->getType()) : 0;
    if (Init) {
      auto *InitGV =
          new llvm::GlobalVariable(M, Init->getType(), /*isConstant=*/true,
                                   llvm::GlobalValue::ExternalLinkage, Init,
                                   (LargeGlobalInitPrefix + Name).str());
      InitGV->setAlignment(GV->getAlign());
    }
    auto *Decl = new llvm::GlobalVariable(
        M, GV->getValueType(), GV->isConstant(),
        llvm::GlobalValue::ExternalLinkage, nullptr,
        largeGlobalSymbol(Size, InitSize, Name), nullptr,
        llvm::GlobalValue::NotThreadLocal, GV->getAddressSpace());
    Decl->setAlignment(GV->getAlign());
    Decl->setDSOLocal(false);
    GV->replaceAllUsesWith(Decl);
    GV->eraseFromParent();
  }
  return Large.empty() ? llvm::PreservedAnalyses::all()
                       : llvm::PreservedAnalyses::none();
}

} // namespace kc
