//===- Spirv/SpirvConstants.cpp - Constants and global variables ----------===//
//
// Constants, specialization constants, samplers and program-scope
// variables (built-in variables are recorded, their copies made per
// function by SpirvBuiltInVariables).
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Module.h>

namespace kc::spirv {

using spv::Op;

void Builder::readConstant(const Instruction &I) {
  const uint32_t TypeId = I[0], Id = I[1];
  llvm::Type *Ty =
      I.Opcode == Op::OpConstantSampler ? nullptr : llvmType(TypeId);
  llvm::Constant *V = nullptr;
  switch (I.Opcode) {
  case Op::OpConstant:
  case Op::OpSpecConstant: {
    uint64_t Bits = I[2];
    if (I.size() > 3)
      Bits |= uint64_t(I[3]) << 32;
    if (Ty->isIntegerTy()) {
      V = llvm::ConstantInt::get(Ty, Bits);
    } else if (Ty->isFloatingPointTy()) {
      const unsigned Width = Ty->getPrimitiveSizeInBits();
      V = llvm::ConstantFP::get(
          C,
          llvm::APFloat(
              Ty->getFltSemantics(),
              llvm::APInt(Width, Bits & (Width == 64
                                             ? ~uint64_t(0)
                                             : ((uint64_t(1) << Width) - 1)))));
    } else {
      fail("OpConstant of a type that is not scalar");
    }
    break;
  }
  case Op::OpConstantTrue:
  case Op::OpSpecConstantTrue:
    V = B.getTrue();
    break;
  case Op::OpConstantFalse:
  case Op::OpSpecConstantFalse:
    V = B.getFalse();
    break;
  case Op::OpConstantNull:
    if (!Ty->isSized() && !Ty->isPointerTy())
      fail("OpConstantNull of a type without a size");
    V = llvm::Constant::getNullValue(Ty);
    break;
  case Op::OpConstantComposite:
  case Op::OpSpecConstantComposite: {
    std::vector<llvm::Constant *> Parts;
    for (size_t At = 2; At < I.size(); ++At) {
      auto *P = llvm::dyn_cast<llvm::Constant>(value(I[At]));
      if (!P)
        fail("a composite constant of a value that is not constant");
      llvm::Type *Want =
          Ty->isVectorTy() ? Ty->getScalarType()
          : Ty->isAggregateType()
              ? llvm::ExtractValueInst::getIndexedType(Ty, unsigned(At - 2))
              : nullptr;
      if (P->getType() != Want)
        fail("a composite constant of parts of the wrong types");
      Parts.push_back(P);
    }
    if (auto *VT = llvm::dyn_cast<llvm::FixedVectorType>(Ty)) {
      if (Parts.size() != VT->getNumElements())
        fail("a vector constant with the wrong number of elements");
      V = llvm::ConstantVector::get(Parts);
    } else if (auto *ST = llvm::dyn_cast<llvm::StructType>(Ty)) {
      if (Parts.size() != ST->getNumElements())
        fail("a struct constant with the wrong number of members");
      V = llvm::ConstantStruct::get(ST, Parts);
    } else if (auto *AT = llvm::dyn_cast<llvm::ArrayType>(Ty)) {
      if (Parts.size() != AT->getNumElements())
        fail("an array constant with the wrong number of elements");
      V = llvm::ConstantArray::get(AT, Parts);
    } else {
      fail("a composite constant of a type that is not composite");
    }
    break;
  }
  case Op::OpConstantSampler:
    SamplerBits[Id] = I[2] * 2 + I[3] + (I[4] == 0 ? 0x10 : 0x20);
    ValueTypes[Id] = TypeId;
    return;
  case Op::OpSpecConstantOp:
    define(Id, TypeId, specConstantOp(I));
    return;
  case Op::OpUndef:
    V = llvm::UndefValue::get(Ty);
    break;
  default:
    break;
  }
  define(Id, TypeId, V);
}

void Builder::readGlobalVariable(const Instruction &I) {
  const uint32_t TypeId = I[0], Id = I[1];
  const Type &PtrType = type(TypeId);
  if (const Decoration *D = Spirv.decoration(Id, spv::Decoration::BuiltIn)) {
    BuiltIns[Id] = D->Args.at(0);
    ValueTypes[Id] = TypeId;
    return;
  }
  if (I.size() > 3 && SamplerBits.count(I[3])) {
    SamplerVars[Id] = I[3];
    ValueTypes[Id] = TypeId;
    return;
  }
  if (PtrType.Kind != Op::OpTypePointer)
    fail("OpVariable of a type that is not a pointer");
  llvm::Type *Ty = llvmType(PtrType.Pointee);
  if (!Ty->isSized())
    fail("a global variable of a type without a size");
  llvm::Constant *Init = nullptr;
  if (I.size() > 3) {
    Init = llvm::dyn_cast<llvm::Constant>(value(I[3]));
    if (!Init || Init->getType() != Ty)
      fail("a global variable's initializer must be a constant of its type");
  }
  auto Linkage = llvm::GlobalValue::InternalLinkage;
  std::string Name(Spirv.name(Id));
  if (const Decoration *D =
          Spirv.decoration(Id, spv::Decoration::LinkageAttributes)) {
    Name = D->Text;
    const auto Kind = static_cast<spv::LinkageType>(D->Args.at(0));
    Linkage = Kind == spv::LinkageType::LinkOnceODR
                  ? llvm::GlobalValue::WeakODRLinkage
                  : llvm::GlobalValue::ExternalLinkage;
    if (Kind == spv::LinkageType::Import)
      Init = nullptr;
  } else if (!Init && PtrType.Storage !=
                          static_cast<uint32_t>(spv::StorageClass::Workgroup)) {
    Init = llvm::Constant::getNullValue(Ty);
  }
  if (PtrType.Storage == static_cast<uint32_t>(spv::StorageClass::Workgroup))
    Init = llvm::UndefValue::get(Ty);
  auto *G = new llvm::GlobalVariable(
      M, Ty,
      Spirv.has(Id, spv::Decoration::Constant) ||
          PtrType.Storage ==
              static_cast<uint32_t>(spv::StorageClass::UniformConstant),
      Linkage, Init, Name, nullptr, llvm::GlobalValue::NotThreadLocal,
      addressSpaceOf(PtrType.Storage));
  if (const Decoration *D = Spirv.decoration(Id, spv::Decoration::Alignment))
    if (!D->Args.empty() && llvm::isPowerOf2_64(D->Args[0]))
      G->setAlignment(llvm::Align(D->Args[0]));
  define(Id, TypeId, G);
}

} // namespace kc::spirv
