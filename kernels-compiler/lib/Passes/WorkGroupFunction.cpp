//===- Passes/WorkGroupFunction.cpp - <kernel>_wg(Args, Ctx) --------------===//
//
// For every kernel K, a function
//
//   void K_wg(const char *Args, kc::LaunchContext *Ctx)
//
// whose prologue reads K's arguments from the packed buffer (the layout of
// describeKernel), and whose body is K inlined: one work-item. The loop
// passes then turn that body into all work-items of one group.
//
// Argument buffer (see kc/Launch.h): values by value (struct arguments are
// copied into a private alloca, so the buffer needs no alignment); global
// and constant pointers, images and samplers as 8-byte addresses; local
// pointers as 8-byte offsets into Ctx->LocalMemory.
//
// Built with -cl-denorms-are-zero (the kernel's "denormal-fp-math-f32" is
// preserve-sign), the function runs with MXCSR's FTZ and DAZ bits set and
// gives the caller its own MXCSR back at the end: the worker thread, or the
// application's thread when a launch runs there, keeps its floating-point
// environment. MXCSR governs every SSE/AVX operation, so double precision
// flushes too, which the option allows (OpenCL 3.0, 5.8.6.2).
//
//===----------------------------------------------------------------------===//
#include "Metadata/KernelMetadata.h"
#include "Passes/Passes.h"
#include "Passes/WorkGroupABI.h"

#include <llvm/IR/Attributes.h>
#include <llvm/IR/DIBuilder.h>
#include <llvm/IR/DebugInfoMetadata.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>
#include <llvm/TargetParser/Triple.h>
#include <llvm/Transforms/Utils/Cloning.h>

namespace kc {

namespace {

llvm::Value *unpackArgument(llvm::IRBuilder<> &B, llvm::Function &WG,
                            const llvm::Argument &Param, const ArgInfo &Info) {
  llvm::Value *Slot =
      B.CreateConstInBoundsGEP1_64(B.getInt8Ty(), WG.getArg(0), Info.Offset);
  llvm::Type *Ty = Param.getType();
  if (Info.Kind == ArgKind::LocalPointer) {
    llvm::Value *Offset =
        B.CreateAlignedLoad(B.getInt64Ty(), Slot, llvm::Align(1));
    llvm::Value *Base = loadContextField(WG, ctx::LocalMemory, 0);
    llvm::Value *Ptr = B.CreateInBoundsGEP(B.getInt8Ty(), Base, Offset);
    return B.CreateAddrSpaceCast(Ptr, Ty, Param.getName());
  }
  if (llvm::Type *ByVal = Param.getParamByValType()) {
    const llvm::DataLayout &DL = WG.getParent()->getDataLayout();
    llvm::Align Align = Param.getParamAlign().valueOrOne();
    llvm::IRBuilder<> EntryB(&WG.getEntryBlock(), WG.getEntryBlock().begin());
    llvm::AllocaInst *Copy =
        EntryB.CreateAlloca(ByVal, DL.getAllocaAddrSpace());
    Copy->setAlignment(std::max(Align, DL.getPrefTypeAlign(ByVal)));
    B.CreateMemCpy(Copy, Copy->getAlign(), Slot, llvm::Align(1), Info.Size);
    return Copy;
  }
  return B.CreateAlignedLoad(Ty, Slot, llvm::Align(1), Param.getName());
}

// With -g, the work-group function gets a subprogram of its own (artificial,
// at the kernel's line) and the kernel is inlined at that line, so the
// kernel's locations survive as inlined locations.
void attachDebugInfo(llvm::Function &Kernel, llvm::Function &WG,
                     llvm::CallInst &Call) {
  llvm::DISubprogram *KernelSP = Kernel.getSubprogram();
  if (!KernelSP)
    return;
  llvm::DIBuilder DIB(*Kernel.getParent(), /*AllowUnresolved=*/false,
                      KernelSP->getUnit());
  llvm::DISubprogram *SP = DIB.createFunction(
      KernelSP->getFile(), WG.getName(), WG.getName(), KernelSP->getFile(),
      KernelSP->getLine(), KernelSP->getType(), KernelSP->getScopeLine(),
      llvm::DINode::FlagArtificial, llvm::DISubprogram::SPFlagDefinition);
  WG.setSubprogram(SP);
  Call.setDebugLoc(
      llvm::DILocation::get(WG.getContext(), KernelSP->getLine(), 0, SP));
  DIB.finalizeSubprogram(SP);
}

void copyFunctionAttributes(const llvm::Function &From, llvm::Function &To) {
  for (const llvm::Attribute &A : From.getAttributes().getFnAttrs())
    if (A.isStringAttribute() &&
        A.getKindAsString() != "uniform-work-group-size")
      To.addFnAttr(A);
}

// The MXCSR bits the kernel's denormal mode for float asks for: FTZ (flush
// denormal results) and DAZ (read denormal operands as zero).
uint32_t denormalFlushBits(const llvm::Function &Kernel) {
  constexpr uint32_t FlushToZero = 0x8000;
  constexpr uint32_t DenormalsAreZero = 0x0040;
  if (!llvm::Triple(Kernel.getParent()->getTargetTriple()).isX86())
    return 0;
  llvm::DenormalMode Mode = Kernel.getDenormalMode(llvm::APFloat::IEEEsingle());
  uint32_t Bits = 0;
  if (Mode.Output != llvm::DenormalMode::IEEE &&
      Mode.Output != llvm::DenormalMode::Invalid)
    Bits |= FlushToZero;
  if (Mode.Input != llvm::DenormalMode::IEEE &&
      Mode.Input != llvm::DenormalMode::Invalid)
    Bits |= DenormalsAreZero;
  return Bits;
}

// Sets Bits in MXCSR at the start of Entry, restores the caller's MXCSR
// before Exit returns. The slots are allocas of the prologue, which the
// barrier passes leave alone.
void setMXCSR(llvm::BasicBlock &Entry, llvm::BasicBlock &Exit, uint32_t Bits) {
  llvm::IRBuilder<> B(&Entry, Entry.begin());
  llvm::Type *I32 = B.getInt32Ty();
  llvm::AllocaInst *Saved = B.CreateAlloca(I32, nullptr, "mxcsr.caller");
  llvm::AllocaInst *Flushing = B.CreateAlloca(I32, nullptr, "mxcsr.kernel");
  B.CreateIntrinsic(llvm::Intrinsic::x86_sse_stmxcsr, {}, {Saved});
  llvm::Value *Caller = B.CreateLoad(I32, Saved, "mxcsr");
  B.CreateStore(B.CreateOr(Caller, Bits), Flushing);
  B.CreateIntrinsic(llvm::Intrinsic::x86_sse_ldmxcsr, {}, {Flushing});
  B.SetInsertPoint(Exit.getTerminator());
  B.CreateIntrinsic(llvm::Intrinsic::x86_sse_ldmxcsr, {}, {Saved});
}

llvm::Function *createWorkGroupFunction(llvm::Function &Kernel) {
  llvm::Module &M = *Kernel.getParent();
  llvm::LLVMContext &C = M.getContext();
  KernelInfo Info = describeKernel(Kernel);
  std::string Name = Info.Name + WorkGroupSuffix.str();
  if (llvm::Function *Existing = M.getFunction(Name))
    Existing->setName(Name + ".user");

  auto *Ptr = llvm::PointerType::get(C, 0);
  auto *Ty =
      llvm::FunctionType::get(llvm::Type::getVoidTy(C), {Ptr, Ptr}, false);
  auto *WG =
      llvm::Function::Create(Ty, llvm::GlobalValue::ExternalLinkage, Name, M);
  WG->addFnAttr(WorkGroupFunctionAttr, Info.Name);
  WG->addFnAttr(llvm::Attribute::NoUnwind);
  copyFunctionAttributes(Kernel, *WG);
  for (unsigned I = 0; I < 2; ++I) {
    WG->addParamAttr(I, llvm::Attribute::NoAlias);
    WG->addParamAttr(I, llvm::Attribute::NoCapture);
    WG->addParamAttr(I, llvm::Attribute::ReadOnly);
  }
  WG->getArg(0)->setName("args");
  WG->getArg(1)->setName("ctx");

  auto *Entry = llvm::BasicBlock::Create(C, "entry", WG);
  auto *Body = llvm::BasicBlock::Create(C, "body", WG);
  auto *Exit = llvm::BasicBlock::Create(C, "exit", WG);
  llvm::IRBuilder<> B(Entry);
  B.CreateBr(Body);
  llvm::ReturnInst::Create(C, Exit);

  B.SetInsertPoint(Entry->getTerminator());
  llvm::SmallVector<llvm::Value *, 8> Args;
  for (unsigned I = 0; I < Kernel.arg_size(); ++I)
    Args.push_back(unpackArgument(B, *WG, *Kernel.getArg(I), Info.Args[I]));

  B.SetInsertPoint(Body);
  llvm::CallInst *Call = B.CreateCall(&Kernel, Args);
  Call->setCallingConv(Kernel.getCallingConv());
  attachDebugInfo(Kernel, *WG, *Call);
  B.CreateBr(Exit);

  llvm::InlineFunctionInfo InlineInfo;
  llvm::InlineFunction(*Call, InlineInfo);
  if (uint32_t Bits = denormalFlushBits(Kernel))
    setMXCSR(*Entry, *Exit, Bits);
  return WG;
}

} // namespace

llvm::PreservedAnalyses
WorkGroupFunctionPass::run(llvm::Module &M, llvm::ModuleAnalysisManager &) {
  llvm::SmallVector<llvm::Function *, 8> Kernels;
  for (llvm::Function &F : M)
    if (isKernel(F))
      Kernels.push_back(&F);
  for (llvm::Function *K : Kernels)
    createWorkGroupFunction(*K);
  return Kernels.empty() ? llvm::PreservedAnalyses::all()
                         : llvm::PreservedAnalyses::none();
}

} // namespace kc
