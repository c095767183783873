//===- Spirv/SpirvConversions.cpp - Conversions ---------------------------===//
//
// Conversions between numbers and pointers; SaturatedConversion and
// FPRoundingMode through OpenCL C's convert_<type> builtins.
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace kc::spirv {

using spv::Op;

// A float type (scalar or vector) with the shape of TypeId, made up for
// the reader when the module has none.
uint32_t Builder::floatTypeLike(uint32_t TypeId) {
  const Type &T = type(TypeId);
  const uint32_t Count = T.Kind == Op::OpTypeVector ? T.Count : 0;
  for (uint32_t Id = 0; Id < Types.size(); ++Id) {
    const Type *U = Types[Id].get();
    if (!U)
      continue;
    if (!Count && U->Kind == Op::OpTypeFloat && U->Width == 32)
      return Id;
    if (Count && U->Kind == Op::OpTypeVector && U->Count == Count &&
        type(U->Element).Kind == Op::OpTypeFloat &&
        type(U->Element).Width == 32)
      return Id;
  }
  auto Made = std::make_unique<Type>();
  Made->Kind = Count ? Op::OpTypeVector : Op::OpTypeFloat;
  Made->Width = 32;
  Made->Count = Count;
  if (Count)
    Made->Element = floatTypeLike(T.Element);
  Made->LLVM = Count ? static_cast<llvm::Type *>(
                           llvm::FixedVectorType::get(B.getFloatTy(), Count))
                     : B.getFloatTy();
  Types.push_back(std::move(Made));
  return static_cast<uint32_t>(Types.size() - 1);
}

// A conversion under SaturatedConversion or FPRoundingMode: OpenCL C's
// convert_<type>[_sat][_<mode>] from the builtin library.
llvm::Value *Builder::convertWithBuiltin(const Instruction &I, bool SrcSigned,
                                         bool DstSigned) {
  const Decoration *Sat =
      Spirv.decoration(I[1], spv::Decoration::SaturatedConversion);
  const Decoration *Rounding =
      Spirv.decoration(I[1], spv::Decoration::FPRoundingMode);
  if (!Sat && !Rounding)
    return nullptr;
  static const char *const Modes[] = {"_rte", "_rtz", "_rtp", "_rtn"};
  std::string Name = "convert_" + typeName(I[0], DstSigned);
  if (Sat)
    Name += "_sat";
  if (Rounding && !Rounding->Args.empty() && Rounding->Args[0] < 4)
    Name += Modes[Rounding->Args[0]];
  uint32_t SrcType = typeOf(I[2]);
  llvm::Value *Src = value(I[2]);
  // The library converts from float, not half: half to float is exact.
  if (Src->getType()->getScalarType()->isHalfTy()) {
    SrcType = floatTypeLike(SrcType);
    Src = castTo(llvm::Instruction::FPExt, Src, llvmType(SrcType));
  }
  return call(mangle(Name, {SrcType}, {SrcSigned ? 1 : 0}), llvmType(I[0]),
              {Src});
}

bool Builder::translateConversion(const Instruction &I) {
  switch (I.Opcode) {
  case Op::OpConvertFToU:
  case Op::OpConvertFToS:
  case Op::OpConvertSToF:
  case Op::OpConvertUToF:
  case Op::OpUConvert:
  case Op::OpSConvert:
  case Op::OpFConvert:
  case Op::OpSatConvertSToU:
  case Op::OpSatConvertUToS:
  case Op::OpConvertPtrToU:
  case Op::OpConvertUToPtr:
  case Op::OpPtrCastToGeneric:
  case Op::OpGenericCastToPtr:
  case Op::OpGenericCastToPtrExplicit:
  case Op::OpBitcast:
    break;
  default:
    return false;
  }
  llvm::Type *To = llvmType(I[0]);
  llvm::Value *V = nullptr;
  switch (I.Opcode) {
  case Op::OpConvertFToU:
    if (!(V = convertWithBuiltin(I, true, false)))
      V = castTo(llvm::Instruction::FPToUI, value(I[2]), To);
    break;
  case Op::OpConvertFToS:
    if (!(V = convertWithBuiltin(I, true, true)))
      V = castTo(llvm::Instruction::FPToSI, value(I[2]), To);
    break;
  case Op::OpConvertSToF:
    if (!(V = convertWithBuiltin(I, true, true)))
      V = castTo(llvm::Instruction::SIToFP, value(I[2]), To);
    break;
  case Op::OpConvertUToF:
    if (!(V = convertWithBuiltin(I, false, true)))
      V = castTo(llvm::Instruction::UIToFP, value(I[2]), To);
    break;
  case Op::OpUConvert:
    if (!(V = convertWithBuiltin(I, false, false)))
      V = resizeInt(value(I[2]), To, false);
    break;
  case Op::OpSConvert:
    if (!(V = convertWithBuiltin(I, true, true)))
      V = resizeInt(value(I[2]), To, true);
    break;
  case Op::OpFConvert:
    if (!(V = convertWithBuiltin(I, true, true))) {
      llvm::Value *From = value(I[2]);
      const unsigned FromBits = From->getType()->getScalarSizeInBits();
      const unsigned ToBits = To->getScalarSizeInBits();
      V = castTo(FromBits < ToBits   ? llvm::Instruction::FPExt
                 : FromBits > ToBits ? llvm::Instruction::FPTrunc
                                     : llvm::Instruction::BitCast,
                 From, To);
    }
    break;
  case Op::OpSatConvertSToU: {
    const uint32_t SrcType = typeOf(I[2]);
    V = call(
        mangle("convert_" + typeName(I[0], false) + "_sat", {SrcType}, {1}), To,
        {value(I[2])});
    break;
  }
  case Op::OpSatConvertUToS: {
    const uint32_t SrcType = typeOf(I[2]);
    V = call(mangle("convert_" + typeName(I[0], true) + "_sat", {SrcType}, {0}),
             To, {value(I[2])});
    break;
  }
  case Op::OpConvertPtrToU:
    V = castTo(llvm::Instruction::PtrToInt, value(I[2]), To);
    break;
  case Op::OpConvertUToPtr:
    V = castTo(llvm::Instruction::IntToPtr, value(I[2]), To);
    break;
  case Op::OpPtrCastToGeneric:
  case Op::OpGenericCastToPtr:
  case Op::OpGenericCastToPtrExplicit:
    V = castTo(llvm::Instruction::AddrSpaceCast, value(I[2]), To);
    break;
  case Op::OpBitcast: {
    llvm::Value *From = value(I[2]);
    if (From->getType() == To)
      V = From;
    else if (From->getType()->isPointerTy() && To->isPointerTy())
      V = castTo(llvm::Instruction::AddrSpaceCast, From, To);
    else if (From->getType()->isPointerTy())
      V = castTo(llvm::Instruction::BitCast,
                 castTo(llvm::Instruction::PtrToInt, From, B.getInt64Ty()), To);
    else if (To->isPointerTy())
      V = castTo(llvm::Instruction::IntToPtr,
                 castTo(llvm::Instruction::BitCast, From, B.getInt64Ty()), To);
    else
      V = castTo(llvm::Instruction::BitCast, From, To);
    break;
  }
  default:
    return false;
  }
  define(I[1], I[0], V);
  return true;
}

} // namespace kc::spirv
