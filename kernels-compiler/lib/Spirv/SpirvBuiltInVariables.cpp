//===- Spirv/SpirvBuiltInVariables.cpp - Built-in variables ---------------===//
//
// Built-in variables (GlobalInvocationId, SubgroupSize & co.) as private
// copies filled from the OpenCL C work-item and sub-group functions at each
// function's entry.
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

namespace {

// The OpenCL C function that gives a built-in variable's value: called
// once per dimension (Indexed) or once; its result type an integer of
// Width bits, or a uint4 (Mask).
struct BuiltInSource {
  spv::BuiltIn Kind;
  const char *Fn;
  bool Indexed;
  unsigned Width;
  bool Mask = false;
};

constexpr BuiltInSource BuiltInSources[] = {
    {spv::BuiltIn::GlobalInvocationId, "_Z13get_global_idj", true, 64},
    {spv::BuiltIn::LocalInvocationId, "_Z12get_local_idj", true, 64},
    {spv::BuiltIn::WorkgroupId, "_Z12get_group_idj", true, 64},
    {spv::BuiltIn::NumWorkgroups, "_Z14get_num_groupsj", true, 64},
    {spv::BuiltIn::WorkgroupSize, "_Z14get_local_sizej", true, 64},
    {spv::BuiltIn::EnqueuedWorkgroupSize, "_Z23get_enqueued_local_sizej", true,
     64},
    {spv::BuiltIn::GlobalSize, "_Z15get_global_sizej", true, 64},
    {spv::BuiltIn::GlobalOffset, "_Z17get_global_offsetj", true, 64},
    {spv::BuiltIn::GlobalLinearId, "_Z20get_global_linear_idv", false, 64},
    {spv::BuiltIn::LocalInvocationIndex, "_Z19get_local_linear_idv", false, 64},
    {spv::BuiltIn::WorkDim, "_Z12get_work_dimv", false, 32},
    // cl_khr_subgroups (OpenCL C 3.0 __opencl_c_subgroups).
    {spv::BuiltIn::SubgroupSize, "_Z18get_sub_group_sizev", false, 32},
    {spv::BuiltIn::SubgroupMaxSize, "_Z22get_max_sub_group_sizev", false, 32},
    {spv::BuiltIn::NumSubgroups, "_Z18get_num_sub_groupsv", false, 32},
    {spv::BuiltIn::NumEnqueuedSubgroups, "_Z27get_enqueued_num_sub_groupsv",
     false, 32},
    {spv::BuiltIn::SubgroupId, "_Z16get_sub_group_idv", false, 32},
    {spv::BuiltIn::SubgroupLocalInvocationId, "_Z22get_sub_group_local_idv",
     false, 32},
    // cl_khr_subgroup_ballot.
    {spv::BuiltIn::SubgroupEqMask, "_Z21get_sub_group_eq_maskv", false, 32,
     true},
    {spv::BuiltIn::SubgroupGeMask, "_Z21get_sub_group_ge_maskv", false, 32,
     true},
    {spv::BuiltIn::SubgroupGtMask, "_Z21get_sub_group_gt_maskv", false, 32,
     true},
    {spv::BuiltIn::SubgroupLeMask, "_Z21get_sub_group_le_maskv", false, 32,
     true},
    {spv::BuiltIn::SubgroupLtMask, "_Z21get_sub_group_lt_maskv", false, 32,
     true},
};

} // namespace

// Each built-in variable the function uses gets a private copy, filled at
// the function's entry from the OpenCL C work-item and sub-group functions.
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
    const BuiltInSource *Source = nullptr;
    for (const BuiltInSource &S : BuiltInSources)
      if (S.Kind == Kind)
        Source = &S;
    if (!Source)
      fail("the built-in variable " + std::to_string(BuiltIns[Var]) +
           " is not supported");
    llvm::Type *Ty = VarType.LLVM;
    llvm::Type *Elem = Ty->getScalarType();
    llvm::Type *Ret = B.getIntNTy(Source->Width);
    if (Source->Mask)
      Ret = llvm::FixedVectorType::get(Ret, 4);
    llvm::FunctionType *FTy =
        Source->Indexed ? llvm::FunctionType::get(Ret, {B.getInt32Ty()}, false)
                        : llvm::FunctionType::get(Ret, {}, false);
    llvm::FunctionCallee Callee = M.getOrInsertFunction(Source->Fn, FTy);
    if (auto *CalleeF = llvm::dyn_cast<llvm::Function>(Callee.getCallee())) {
      CalleeF->setDoesNotThrow();
      CalleeF->setDoesNotAccessMemory();
      CalleeF->setWillReturn();
    }
    llvm::Value *Init = nullptr;
    auto Get = [&](unsigned Dim) -> llvm::Value * {
      llvm::Value *V = Source->Indexed ? B.CreateCall(Callee, {B.getInt32(Dim)})
                                       : B.CreateCall(Callee, {});
      return resizeInt(V, Elem, false);
    };
    if (Source->Mask) {
      // A uint4 (or a ulong2, as some producers declare the masks).
      llvm::Value *Mask = B.CreateCall(Callee, {});
      const llvm::DataLayout &DL = M.getDataLayout();
      if (!Ty->isVectorTy() || DL.getTypeStoreSize(Ty) != 16 ||
          !Elem->isIntegerTy())
        fail("a sub-group mask built-in variable that is not a 128-bit "
             "integer vector");
      Init = B.CreateBitCast(Mask, Ty);
    } else if (auto *VT = llvm::dyn_cast<llvm::FixedVectorType>(Ty)) {
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
