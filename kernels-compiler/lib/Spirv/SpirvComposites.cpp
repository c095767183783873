//===- Spirv/SpirvComposites.cpp - Vectors, arrays and structs ------------===//
//
// Composite extraction, insertion and construction, vector shuffles and
// element access.
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace kc::spirv {

using spv::Op;

namespace {

llvm::Value *extractAt(llvm::IRBuilder<> &B, llvm::Value *V,
                       llvm::ArrayRef<uint32_t> Indices) {
  for (uint32_t Index : Indices) {
    if (V->getType()->isVectorTy() &&
        Index <
            llvm::cast<llvm::FixedVectorType>(V->getType())->getNumElements())
      V = B.CreateExtractElement(V, B.getInt32(Index));
    else if (V->getType()->isAggregateType() &&
             llvm::ExtractValueInst::getIndexedType(V->getType(), Index))
      V = B.CreateExtractValue(V, Index);
    else
      fail("OpCompositeExtract indexes into a scalar");
  }
  return V;
}

llvm::Value *insertAt(llvm::IRBuilder<> &B, llvm::Value *Into,
                      llvm::Value *Part, llvm::ArrayRef<uint32_t> Indices) {
  if (Indices.empty())
    return Part;
  const uint32_t Index = Indices.front();
  if (Into->getType()->isVectorTy()) {
    if (Indices.size() != 1 ||
        Part->getType() != Into->getType()->getScalarType())
      fail("OpCompositeInsert of a value of the wrong type");
    return B.CreateInsertElement(Into, Part, B.getInt32(Index));
  }
  if (!Into->getType()->isAggregateType() ||
      !llvm::ExtractValueInst::getIndexedType(Into->getType(), Index))
    fail("OpCompositeInsert indexes into a scalar");
  llvm::Value *Inner = B.CreateExtractValue(Into, Index);
  llvm::Value *New = insertAt(B, Inner, Part, Indices.drop_front());
  if (New->getType() != Inner->getType())
    fail("OpCompositeInsert of a value of the wrong type");
  return B.CreateInsertValue(Into, New, Index);
}

} // namespace

bool Builder::translateComposite(const Instruction &I) {
  llvm::Value *V = nullptr;
  switch (I.Opcode) {
  case Op::OpCompositeExtract:
    (void)I[2];
    V = extractAt(
        B, value(I[2]),
        llvm::ArrayRef<uint32_t>(I.Ops.data(), I.Ops.size()).drop_front(3));
    break;
  case Op::OpCompositeInsert:
    (void)I[3];
    V = insertAt(
        B, value(I[3]), value(I[2]),
        llvm::ArrayRef<uint32_t>(I.Ops.data(), I.Ops.size()).drop_front(4));
    break;
  case Op::OpCompositeConstruct: {
    llvm::Type *Ty = llvmType(I[0]);
    V = llvm::PoisonValue::get(Ty);
    if (Ty->isVectorTy()) {
      unsigned At = 0;
      const unsigned N = vectorTypeOf(V)->getNumElements();
      for (size_t Op = 2; Op < I.size(); ++Op) {
        llvm::Value *Part = value(I[Op]);
        if (Part->getType()->getScalarType() != Ty->getScalarType() ||
            At + (Part->getType()->isVectorTy()
                      ? vectorTypeOf(Part)->getNumElements()
                      : 1) >
                N)
          fail("OpCompositeConstruct of parts of the wrong types");
        if (auto *PT = llvm::dyn_cast<llvm::FixedVectorType>(Part->getType())) {
          for (unsigned E = 0; E < PT->getNumElements(); ++E)
            V = B.CreateInsertElement(V, B.CreateExtractElement(Part, E),
                                      B.getInt32(At++));
        } else {
          V = B.CreateInsertElement(V, Part, B.getInt32(At++));
        }
      }
    } else {
      for (size_t Op = 2; Op < I.size(); ++Op) {
        llvm::Type *Member =
            llvm::ExtractValueInst::getIndexedType(Ty, unsigned(Op - 2));
        if (!Member || Member != value(I[Op])->getType())
          fail("OpCompositeConstruct of parts of the wrong types");
        V = B.CreateInsertValue(V, value(I[Op]), unsigned(Op - 2));
      }
    }
    break;
  }
  case Op::OpVectorExtractDynamic:
    vectorTypeOf(value(I[2]));
    V = B.CreateExtractElement(value(I[2]), integer(I[3]));
    break;
  case Op::OpVectorInsertDynamic:
    if (value(I[3])->getType() != vectorTypeOf(value(I[2]))->getElementType())
      fail("OpVectorInsertDynamic of a component of the wrong type");
    V = B.CreateInsertElement(value(I[2]), value(I[3]), integer(I[4]));
    break;
  case Op::OpVectorShuffle: {
    llvm::Value *A = value(I[2]), *Bv = value(I[3]);
    const int NA = int(vectorTypeOf(A)->getNumElements());
    const int NB = int(vectorTypeOf(Bv)->getNumElements());
    if (A->getType()->getScalarType() != Bv->getType()->getScalarType())
      fail("OpVectorShuffle of vectors of different element types");
    const int N = std::max(NA, NB);
    auto Widen = [&](llvm::Value *X, int Count) {
      if (Count == N)
        return X;
      std::vector<int> Mask(N, -1);
      for (int E = 0; E < Count; ++E)
        Mask[E] = E;
      return B.CreateShuffleVector(X, Mask);
    };
    A = Widen(A, NA);
    Bv = Widen(Bv, NB);
    std::vector<int> Mask;
    for (size_t Op = 4; Op < I.size(); ++Op) {
      const uint32_t E = I[Op];
      if (E == 0xffffffff)
        Mask.push_back(-1);
      else if (int(E) < NA)
        Mask.push_back(int(E));
      else if (int(E) < NA + NB)
        Mask.push_back(N + int(E) - NA);
      else
        fail("OpVectorShuffle selects a component out of range");
    }
    V = B.CreateShuffleVector(A, Bv, Mask);
    break;
  }
  case Op::OpCopyObject:
  case Op::OpCopyLogical:
    V = value(I[2]);
    break;
  case Op::OpUndef:
    V = llvm::UndefValue::get(llvmType(I[0]));
    break;
  case Op::OpSizeOf:
    V = llvm::ConstantInt::get(llvmType(I[0]),
                               M.getDataLayout().getTypeAllocSize(
                                   llvmType(type(typeOf(I[2])).Pointee)));
    break;
  default:
    return false;
  }
  define(I[1], I[0], V);
  return true;
}

} // namespace kc::spirv
