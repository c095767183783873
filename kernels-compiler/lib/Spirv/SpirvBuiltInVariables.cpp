//===- Spirv/SpirvBuiltInVariables.cpp - Built-in variables ---------------===//
//
// Built-in variables (GlobalInvocationId & co.) as private copies filled
// from the OpenCL C work-item functions at each function's entry.
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

#include <algorithm>

namespace kc::spirv {

using spv::Op;

// Each built-in variable the function uses gets a private copy, filled at
// the function's entry from the OpenCL C work-item functions.
void Builder::setBuiltInCopies(llvm::Function &F, size_t Begin, size_t End) {
  (void)F;
  std::vector<uint32_t> Used;
  const std::vector<Instruction> &Insts = Spirv.instructions();
  for (size_t I = Begin; I < End; ++I)
    for (uint32_t W : Insts[I].Ops)
      if (BuiltIns.count(W) &&
          std::find(Used.begin(), Used.end(), W) == Used.end())
        Used.push_back(W);
  for (uint32_t Var : Used) {
    const uint32_t PtrTypeId = ValueTypes[Var];
    const Type &VarType = type(type(PtrTypeId).Pointee);
    const auto Kind = static_cast<spv::BuiltIn>(BuiltIns[Var]);
    const char *Fn = nullptr;
    bool Indexed = true;
    switch (Kind) {
    case spv::BuiltIn::GlobalInvocationId:
      Fn = "_Z13get_global_idj";
      break;
    case spv::BuiltIn::LocalInvocationId:
      Fn = "_Z12get_local_idj";
      break;
    case spv::BuiltIn::WorkgroupId:
      Fn = "_Z12get_group_idj";
      break;
    case spv::BuiltIn::NumWorkgroups:
      Fn = "_Z14get_num_groupsj";
      break;
    case spv::BuiltIn::WorkgroupSize:
      Fn = "_Z14get_local_sizej";
      break;
    case spv::BuiltIn::EnqueuedWorkgroupSize:
      Fn = "_Z23get_enqueued_local_sizej";
      break;
    case spv::BuiltIn::GlobalSize:
      Fn = "_Z15get_global_sizej";
      break;
    case spv::BuiltIn::GlobalOffset:
      Fn = "_Z17get_global_offsetj";
      break;
    case spv::BuiltIn::GlobalLinearId:
      Fn = "_Z20get_global_linear_idv";
      Indexed = false;
      break;
    case spv::BuiltIn::LocalInvocationIndex:
      Fn = "_Z19get_local_linear_idv";
      Indexed = false;
      break;
    case spv::BuiltIn::WorkDim:
      Fn = "_Z12get_work_dimv";
      Indexed = false;
      break;
    default:
      fail("the built-in variable " + std::to_string(BuiltIns[Var]) +
           " is not supported");
    }
    llvm::Type *Ty = VarType.LLVM;
    llvm::Type *Elem = Ty->getScalarType();
    llvm::Type *Ret =
        Indexed
            ? B.getInt64Ty()
            : (Kind == spv::BuiltIn::WorkDim ? B.getInt32Ty() : B.getInt64Ty());
    llvm::FunctionType *FTy =
        Indexed ? llvm::FunctionType::get(Ret, {B.getInt32Ty()}, false)
                : llvm::FunctionType::get(Ret, {}, false);
    llvm::FunctionCallee Callee = M.getOrInsertFunction(Fn, FTy);
    if (auto *CalleeF = llvm::dyn_cast<llvm::Function>(Callee.getCallee())) {
      CalleeF->setDoesNotThrow();
      CalleeF->setDoesNotAccessMemory();
      CalleeF->setWillReturn();
    }
    llvm::Value *Init = nullptr;
    auto Get = [&](unsigned Dim) -> llvm::Value * {
      llvm::Value *V = Indexed ? B.CreateCall(Callee, {B.getInt32(Dim)})
                               : B.CreateCall(Callee, {});
      return resizeInt(V, Elem, false);
    };
    if (auto *VT = llvm::dyn_cast<llvm::FixedVectorType>(Ty)) {
      Init = llvm::PoisonValue::get(VT);
      for (unsigned D = 0; D < VT->getNumElements(); ++D)
        Init = B.CreateInsertElement(Init, Get(D), B.getInt32(D));
    } else if (Ty->isIntegerTy()) {
      Init = Get(0);
    } else {
      fail("a built-in variable of an unexpected type");
    }
    llvm::AllocaInst *Copy = B.CreateAlloca(Ty);
    B.CreateStore(Init, Copy);
    define(Var, PtrTypeId, Copy);
  }
}

} // namespace kc::spirv
