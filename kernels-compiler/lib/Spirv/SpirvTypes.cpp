//===- Spirv/SpirvTypes.cpp - Types and their LLVM types ------------------===//
//
// Each SPIR-V type with its LLVM type and what LLVM's type loses
// (SpirvTypes.h); storage classes as SPIR address spaces.
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Module.h>

namespace kc::spirv {

using spv::Op;

int addressSpaceOf(uint32_t StorageClass) {
  switch (static_cast<spv::StorageClass>(StorageClass)) {
  case spv::StorageClass::Function:
  case spv::StorageClass::Private:
  case spv::StorageClass::Input: // built-ins: a private copy
    return 0;
  case spv::StorageClass::CrossWorkgroup:
    return 1;
  case spv::StorageClass::UniformConstant:
    return 2;
  case spv::StorageClass::Workgroup:
    return 3;
  case spv::StorageClass::Generic:
    return 4;
  default:
    return -1;
  }
}

// An integer type of Width bits, made up for the reader when the module has
// none (the builtins' uint and size_t arguments).
uint32_t Builder::intType(unsigned Width) {
  for (uint32_t Id = 0; Id < Types.size(); ++Id)
    if (Types[Id] && Types[Id]->Kind == Op::OpTypeInt &&
        Types[Id]->Width == Width)
      return Id;
  auto Made = std::make_unique<Type>();
  Made->Kind = Op::OpTypeInt;
  Made->Width = Width;
  Made->LLVM = B.getIntNTy(Width);
  Types.push_back(std::move(Made));
  return static_cast<uint32_t>(Types.size() - 1);
}

void Builder::readType(const Instruction &I) {
  auto T = std::make_unique<Type>();
  T->Kind = I.Opcode;
  const uint32_t Id = I[0];
  switch (I.Opcode) {
  case Op::OpTypeVoid:
    T->LLVM = B.getVoidTy();
    break;
  case Op::OpTypeBool:
    T->LLVM = B.getInt1Ty();
    break;
  case Op::OpTypeInt:
    T->Width = I[1];
    if (T->Width == 0 || T->Width > 64)
      fail("integers of " + std::to_string(T->Width) +
           " bits are not supported");
    T->LLVM = B.getIntNTy(T->Width);
    break;
  case Op::OpTypeFloat:
    T->Width = I[1];
    if (T->Width == 16)
      T->LLVM = B.getHalfTy();
    else if (T->Width == 32)
      T->LLVM = B.getFloatTy();
    else if (T->Width == 64)
      T->LLVM = B.getDoubleTy();
    else
      fail("floats of " + std::to_string(T->Width) + " bits are not supported");
    break;
  case Op::OpTypeVector:
    T->Element = I[1];
    T->Count = I[2];
    if (T->Count < 2 || T->Count > 16)
      fail("vectors of " + std::to_string(T->Count) + " are not supported");
    if (!llvm::VectorType::isValidElementType(llvmType(I[1])))
      fail("a vector of elements that are not scalars");
    T->LLVM = llvm::FixedVectorType::get(llvmType(I[1]), T->Count);
    break;
  case Op::OpTypeArray:
    T->Element = I[1];
    T->Count = static_cast<uint32_t>(constantInt(I[2]));
    if (!llvm::ArrayType::isValidElementType(llvmType(I[1])) ||
        !llvmType(I[1])->isSized())
      fail("an array of elements without a size");
    T->LLVM = llvm::ArrayType::get(llvmType(I[1]), T->Count);
    break;
  case Op::OpTypeRuntimeArray:
    T->Element = I[1];
    if (!llvm::ArrayType::isValidElementType(llvmType(I[1])))
      fail("an array of elements without a size");
    T->LLVM = llvm::ArrayType::get(llvmType(I[1]), 0);
    break;
  case Op::OpTypeStruct: {
    std::vector<llvm::Type *> Members;
    for (size_t At = 1; At < I.size(); ++At) {
      T->Members.push_back(I[At]);
      Members.push_back(llvmType(I[At]));
      if (!llvm::StructType::isValidElementType(Members.back()) ||
          !Members.back()->isSized())
        fail("a struct member without a size");
    }
    std::string_view Name = Spirv.name(Id);
    T->Name = std::string(Name);
    T->LLVM = llvm::StructType::create(
        C, Members, Name.empty() ? "struct" : "struct." + std::string(Name),
        Spirv.has(Id, spv::Decoration::CPacked));
    break;
  }
  case Op::OpTypeOpaque:
    T->Name = I.string(1);
    T->LLVM = llvm::StructType::create(C, T->Name);
    break;
  case Op::OpTypePointer: {
    T->Storage = I[1];
    T->Pointee = I[2];
    const int AS = addressSpaceOf(T->Storage);
    if (AS < 0)
      fail("storage class " + std::to_string(T->Storage) + " is not supported");
    T->LLVM = llvm::PointerType::get(C, AS);
    break;
  }
  case Op::OpTypeFunction: {
    std::vector<llvm::Type *> Params;
    for (size_t At = 1; At < I.size(); ++At) {
      T->Members.push_back(I[At]);
      if (At > 1 && !llvm::FunctionType::isValidArgumentType(llvmType(I[At])))
        fail("a function parameter of type void");
      if (At > 1)
        Params.push_back(llvmType(I[At]));
    }
    if (!llvm::FunctionType::isValidReturnType(llvmType(I[1])))
      fail("a function type's return type is not valid");
    T->LLVM = llvm::FunctionType::get(llvmType(I[1]), Params, false);
    break;
  }
  case Op::OpTypeEvent:
    T->LLVM = llvm::PointerType::get(C, 0);
    break;
  case Op::OpTypeImage:
    T->Dim = I[2];
    T->Depth = I[3] == 1;
    T->Arrayed = I[4] == 1;
    T->Access = I.size() > 8 ? I[8] : 0;
    T->LLVM = llvm::PointerType::get(C, 1);
    break;
  case Op::OpTypeSampler:
    T->LLVM = llvm::PointerType::get(C, 2);
    break;
  case Op::OpTypeSampledImage: {
    T->Element = I[1];
    llvm::Type *Parts[] = {llvm::PointerType::get(C, 1),
                           llvm::PointerType::get(C, 2)};
    T->LLVM = llvm::StructType::get(C, llvm::ArrayRef<llvm::Type *>(Parts));
    break;
  }
  default:
    fail(spirvOpcodeName(static_cast<uint32_t>(I.Opcode)) +
         " is not supported");
  }
  Types[Id] = std::move(T);
}

// OpTypeForwardPointer: the pointer type exists (opaque pointers need no
// pointee) before its OpTypePointer names the pointee.
void Builder::declareForwardPointer(const Instruction &I) {
  const int AS = addressSpaceOf(I[1]);
  if (AS < 0)
    fail("storage class " + std::to_string(I[1]) + " is not supported");
  if (I[0] >= Types.size())
    fail("OpTypeForwardPointer of an id not below the bound");
  auto T = std::make_unique<Type>();
  T->Kind = Op::OpTypePointer;
  T->Storage = I[1];
  T->LLVM = llvm::PointerType::get(C, AS);
  Types[I[0]] = std::move(T);
}

} // namespace kc::spirv
