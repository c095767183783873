//===- Spirv/SpirvMemory.cpp - Variables, loads, stores, pointers ---------===//
//
// Function variables, loads and stores with their memory operands, copies,
// access chains and pointer arithmetic.
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/Module.h>

namespace kc::spirv {

using spv::Op;

bool Builder::translateMemory(const Instruction &I) {
  const llvm::DataLayout &DL = M.getDataLayout();
  // Memory operands: Volatile, Aligned <n>, Nontemporal, ...
  auto Access = [&](size_t At, llvm::Type *Ty, bool &Volatile) {
    llvm::Align Align = DL.getABITypeAlign(Ty);
    Volatile = false;
    if (At < I.size()) {
      const uint32_t Mask = I[At];
      Volatile = Mask & 0x1;
      if ((Mask & 0x2) && At + 1 < I.size() && I[At + 1] &&
          (I[At + 1] & (I[At + 1] - 1)) == 0)
        Align = llvm::Align(I[At + 1]);
    }
    return Align;
  };
  switch (I.Opcode) {
  case Op::OpVariable: {
    const Type &PtrType = type(I[0]);
    llvm::Type *Ty = llvmType(PtrType.Pointee);
    if (!Ty->isSized())
      fail("a variable of a type without a size");
    if (PtrType.Storage != static_cast<uint32_t>(spv::StorageClass::Function))
      fail("a variable in a function must have the Function storage class");
    llvm::IRBuilder<> Alloca(Entry, Entry->getFirstInsertionPt());
    llvm::AllocaInst *A = Alloca.CreateAlloca(Ty);
    if (const Decoration *D =
            Spirv.decoration(I[1], spv::Decoration::Alignment))
      if (!D->Args.empty() && D->Args[0] &&
          (D->Args[0] & (D->Args[0] - 1)) == 0)
        A->setAlignment(llvm::Align(D->Args[0]));
    define(I[1], I[0], A);
    if (I.size() > 3) {
      if (value(I[3])->getType() != Ty)
        fail("a variable's initializer of another type");
      B.CreateStore(value(I[3]), A);
    }
    return true;
  }
  case Op::OpLoad: {
    if (auto It = SamplerVars.find(I[2]); It != SamplerVars.end()) {
      define(I[1], I[0], samplerValue(It->second));
      return true;
    }
    llvm::Type *Ty = llvmType(I[0]);
    if (!Ty->isSized() || Ty->isVoidTy())
      fail("OpLoad of a type without a size");
    bool Volatile = false;
    llvm::Align Align = Access(3, Ty, Volatile);
    Volatile |= Spirv.has(I[2], spv::Decoration::Volatile);
    define(I[1], I[0], B.CreateAlignedLoad(Ty, pointer(I[2]), Align, Volatile));
    return true;
  }
  case Op::OpStore: {
    llvm::Value *V = value(I[1]);
    if (!V->getType()->isSized())
      fail("OpStore of a value without a size");
    bool Volatile = false;
    llvm::Align Align = Access(2, V->getType(), Volatile);
    Volatile |= Spirv.has(I[0], spv::Decoration::Volatile);
    B.CreateAlignedStore(V, pointer(I[0]), Align, Volatile);
    return true;
  }
  case Op::OpCopyMemory: {
    llvm::Type *Ty = llvmType(type(typeOf(I[1])).Pointee);
    B.CreateMemCpy(value(I[0]), DL.getABITypeAlign(Ty), value(I[1]),
                   DL.getABITypeAlign(Ty), DL.getTypeStoreSize(Ty));
    return true;
  }
  case Op::OpCopyMemorySized:
    B.CreateMemCpy(value(I[0]), llvm::MaybeAlign(), value(I[1]),
                   llvm::MaybeAlign(), value(I[2]));
    return true;
  case Op::OpAccessChain:
  case Op::OpInBoundsAccessChain:
  case Op::OpPtrAccessChain:
  case Op::OpInBoundsPtrAccessChain: {
    const bool Ptr = I.Opcode == Op::OpPtrAccessChain ||
                     I.Opcode == Op::OpInBoundsPtrAccessChain;
    const bool InBounds = I.Opcode == Op::OpInBoundsAccessChain ||
                          I.Opcode == Op::OpInBoundsPtrAccessChain;
    uint32_t Current = type(typeOf(I[2])).Pointee;
    llvm::Type *Base = llvmType(Current);
    std::vector<llvm::Value *> Indices;
    if (!Ptr)
      Indices.push_back(B.getInt64(0));
    for (size_t Op = 3; Op < I.size(); ++Op) {
      llvm::Value *Index = integer(I[Op]);
      if (Op == 3 && Ptr) {
        Indices.push_back(Index);
        continue;
      }
      const Type &T = type(Current);
      if (T.Kind == spv::Op::OpTypeStruct) {
        const uint64_t Member = constantInt(I[Op]);
        if (Member >= T.Members.size())
          fail("an access chain indexes past a struct's members");
        Indices.push_back(B.getInt32(static_cast<uint32_t>(Member)));
        Current = T.Members[Member];
      } else if (T.Element) {
        Indices.push_back(Index);
        Current = T.Element;
      } else {
        fail("an access chain indexes into a scalar");
      }
    }
    llvm::Value *P = pointer(I[2]);
    if (Indices.empty())
      define(I[1], I[0], P);
    else
      define(I[1], I[0],
             InBounds ? B.CreateInBoundsGEP(Base, P, Indices)
                      : B.CreateGEP(Base, P, Indices));
    return true;
  }
  case Op::OpPtrEqual:
    define(I[1], I[0], B.CreateICmpEQ(value(I[2]), value(I[3])));
    return true;
  case Op::OpPtrNotEqual:
    define(I[1], I[0], B.CreateICmpNE(value(I[2]), value(I[3])));
    return true;
  case Op::OpPtrDiff: {
    llvm::Type *Elem = llvmType(type(typeOf(I[2])).Pointee);
    llvm::Value *D = B.CreatePtrDiff(Elem, value(I[2]), value(I[3]));
    define(I[1], I[0], resizeInt(D, llvmType(I[0]), true));
    return true;
  }
  case Op::OpLifetimeStart:
  case Op::OpLifetimeStop:
    return true;
  default:
    return false;
  }
}

} // namespace kc::spirv
