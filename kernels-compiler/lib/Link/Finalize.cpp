//===- Link/Finalize.cpp - From a linked module to an executable ----------===//
#include "Builtins/BuiltinLibrary.h"
#include "Link/Link.h"
#include "Metadata/KernelMetadata.h"
#include "Passes/WorkGroupABI.h"
#include "Pipeline/Pipeline.h"
#include "kc/Compiler.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/Demangle/Demangle.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Transforms/IPO/Internalize.h>

namespace kc {

namespace {

// The code must not depend on the CPU it was compiled on (the binary is
// portable; createNativeProgram adds the host's), and every function must be
// inlinable into the kernels but the library's out-of-line ones.
void prepareFunctions(llvm::Module &M) {
  for (llvm::Function &F : M) {
    F.removeFnAttr("target-cpu");
    F.removeFnAttr("target-features");
    F.removeFnAttr("tune-cpu");
    F.removeFnAttr(llvm::Attribute::OptimizeNone);
    if (!F.getName().starts_with(OutOfLinePrefix))
      F.removeFnAttr(llvm::Attribute::NoInline);
  }
}

bool usesBarriers(const llvm::Function &F) {
  for (const llvm::BasicBlock &BB : F)
    for (const llvm::Instruction &I : BB)
      if (const auto *Call = llvm::dyn_cast<llvm::CallInst>(&I))
        if (const llvm::Function *Callee = Call->getCalledFunction())
          if (isBarrierBuiltin(Callee->getName()))
            return true;
  return false;
}

// Every function still only declared must be a host library function.
bool checkUndefined(const llvm::Module &M, std::string &Log) {
  bool Ok = true;
  for (const llvm::Function &F : M) {
    if (!F.isDeclaration() || F.isIntrinsic() || F.use_empty() ||
        isHostLibraryFunction(F.getName()))
      continue;
    Log += "error: undefined function '" + llvm::demangle(F.getName().str()) +
           "'\n";
    Ok = false;
  }
  return Ok;
}

// The kernel's sub-group size: intel_reqd_sub_group_size(N) when it is one
// the device supports, else the device's default; SubGroupsPass reads it
// from the kernel's attribute.
bool chooseSubGroupSize(llvm::Function &F, const BuildOptions &Options,
                        KernelInfo &Info, std::string &Log) {
  Info.SubGroupSize = Options.SubGroupSize;
  if (uint32_t Reqd = Info.ReqdSubGroupSize) {
    if (!llvm::is_contained(SupportedSubGroupSizes, Reqd)) {
      Log += "error: kernel '" + Info.Name + "': intel_reqd_sub_group_size(" +
             std::to_string(Reqd) +
             ") is not a sub-group size of the device (4, 8, 16, 32, 64)\n";
      return false;
    }
    Info.SubGroupSize = Reqd;
  }
  F.addFnAttr(SubGroupSizeAttr, std::to_string(Info.SubGroupSize));
  return true;
}

} // namespace

bool finalizeExecutable(llvm::Module &M, const BuildOptions &Options,
                        std::vector<KernelInfo> &Kernels, std::string &Log) {
  // The user's code carries its math options as instruction flags; the
  // builtins keep their exact semantics once inlined.
  removeFastMathAttributes(M);
  keepHalfDivisionsExact(M);
  if (!linkBuiltins(M, Log))
    return false;
  prepareFunctions(M);
  llvm::internalizeModule(M, [](const llvm::GlobalValue &GV) {
    const auto *F = llvm::dyn_cast<llvm::Function>(&GV);
    return F && isKernel(*F);
  });
  runKernelSimplificationPipeline(M, Options.OptDisable);
  // Everything is inlined into the kernels now, under their denormal mode.
  flushLibmDenormalArguments(M);

  Kernels.clear();
  for (llvm::Function &F : M) {
    if (!isKernel(F))
      continue;
    KernelInfo Info = describeKernel(F);
    addInferredInfo(F, Info);
    Info.UsesBarriers = usesBarriers(F);
    if (!chooseSubGroupSize(F, Options, Info, Log))
      return false;
    Kernels.push_back(std::move(Info));
  }

  runWorkGroupPipeline(M, Options.OptDisable);
  for (KernelInfo &Info : Kernels) {
    llvm::Function *WG = M.getFunction(Info.Name + WorkGroupSuffix.str());
    if (!WG)
      continue;
    llvm::Attribute Size = WG->getFnAttribute("kc-static-local-mem-size");
    if (Size.isStringAttribute())
      Size.getValueAsString().getAsInteger(10, Info.StaticLocalMemSize);
  }
  if (!checkUndefined(M, Log))
    return false;
  std::string Broken;
  llvm::raw_string_ostream BrokenStream(Broken);
  if (llvm::verifyModule(M, &BrokenStream)) {
    Log += "error: internal compiler error: invalid IR after the work-group "
           "passes:\n" +
           Broken;
    return false;
  }
  return true;
}

} // namespace kc
