//===- Metadata/KernelMetadata.cpp - KernelInfo from LLVM IR --------------===//
//
// Clang attaches to every kernel: kernel_arg_addr_space,
// kernel_arg_access_qual, kernel_arg_type, kernel_arg_base_type,
// kernel_arg_type_qual and, with -cl-kernel-arg-info, kernel_arg_name; plus
// reqd_work_group_size, work_group_size_hint and vec_type_hint when the source
// has them. The function attribute "uniform-work-group-size" is "true" for
// OpenCL C 1.x and with -cl-uniform-work-group-size, "false" otherwise; it
// stays with the kernel through clCompileProgram and clLinkProgram.
//
//===----------------------------------------------------------------------===//
#include "Metadata/KernelMetadata.h"

#include <llvm/ADT/StringRef.h>
#include <llvm/IR/Constants.h>
#include <llvm/IR/DataLayout.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/MathExtras.h>

#include <algorithm>

namespace kc {

bool isKernel(const llvm::Function &F) {
  return F.getCallingConv() == llvm::CallingConv::SPIR_KERNEL &&
         !F.isDeclaration();
}

namespace {

llvm::StringRef stringOperand(const llvm::MDNode *Node, unsigned I) {
  if (!Node || I >= Node->getNumOperands())
    return {};
  if (auto *S = llvm::dyn_cast_or_null<llvm::MDString>(Node->getOperand(I)))
    return S->getString();
  return {};
}

uint64_t intOperand(const llvm::MDNode *Node, unsigned I) {
  if (!Node || I >= Node->getNumOperands())
    return 0;
  if (auto *C = llvm::mdconst::dyn_extract_or_null<llvm::ConstantInt>(
          Node->getOperand(I)))
    return C->getZExtValue();
  return 0;
}

AddressSpace addressSpace(uint64_t Number) {
  switch (Number) {
  case 1:
    return AddressSpace::Global;
  case 2:
    return AddressSpace::Constant;
  case 3:
    return AddressSpace::Local;
  case 4:
    return AddressSpace::Generic;
  default:
    return AddressSpace::Private;
  }
}

uint32_t accessQualifier(llvm::StringRef Name) {
  if (Name == "read_only")
    return ArgAccessReadOnly;
  if (Name == "write_only")
    return ArgAccessWriteOnly;
  if (Name == "read_write")
    return ArgAccessReadWrite;
  return ArgAccessNone;
}

uint32_t typeQualifiers(llvm::StringRef Text) {
  uint32_t Result = ArgTypeNone;
  llvm::SmallVector<llvm::StringRef, 4> Words;
  Text.split(Words, ' ', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef W : Words) {
    if (W == "const")
      Result |= ArgTypeConst;
    else if (W == "restrict")
      Result |= ArgTypeRestrict;
    else if (W == "volatile")
      Result |= ArgTypeVolatile;
    else if (W == "pipe")
      Result |= ArgTypePipe;
  }
  return Result;
}

bool isImageType(llvm::StringRef Name) {
  return Name.starts_with("image") && Name.ends_with("_t");
}

ArgKind argumentKind(AddressSpace Space, llvm::StringRef BaseType) {
  if (BaseType == "sampler_t")
    return ArgKind::Sampler;
  if (isImageType(BaseType))
    return ArgKind::Image;
  switch (Space) {
  case AddressSpace::Global:
    return ArgKind::GlobalPointer;
  case AddressSpace::Constant:
    return ArgKind::ConstantPointer;
  case AddressSpace::Local:
    return ArgKind::LocalPointer;
  default:
    return ArgKind::Value;
  }
}

// OpenCL C spelling of a vec_type_hint type, e.g. "float4" or "uint".
std::string vecTypeName(llvm::Type *Ty, bool Signed) {
  unsigned Count = 1;
  if (auto *Vec = llvm::dyn_cast<llvm::FixedVectorType>(Ty)) {
    Count = Vec->getNumElements();
    Ty = Vec->getElementType();
  }
  std::string Name;
  if (Ty->isHalfTy())
    Name = "half";
  else if (Ty->isFloatTy())
    Name = "float";
  else if (Ty->isDoubleTy())
    Name = "double";
  else if (Ty->isIntegerTy()) {
    switch (Ty->getIntegerBitWidth()) {
    case 8:
      Name = "char";
      break;
    case 16:
      Name = "short";
      break;
    case 32:
      Name = "int";
      break;
    default:
      Name = "long";
      break;
    }
    if (!Signed)
      Name = "u" + Name;
  }
  if (Count > 1)
    Name += std::to_string(Count);
  return Name;
}

std::array<uint64_t, 3> sizeTriple(const llvm::MDNode *Node) {
  return {intOperand(Node, 0), intOperand(Node, 1), intOperand(Node, 2)};
}

void describeArgument(const llvm::Function &F, unsigned I, ArgInfo &Arg) {
  const llvm::DataLayout &DL = F.getParent()->getDataLayout();
  const llvm::Argument *A = F.getArg(I);
  if (Arg.Kind != ArgKind::Value) {
    Arg.Size = 8;
    Arg.Align = 8;
    return;
  }
  llvm::Type *Ty = A->getType();
  llvm::MaybeAlign ParamAlign = A->getParamAlign();
  if (llvm::Type *ByVal = A->getParamByValType())
    Ty = ByVal;
  Arg.Size = static_cast<uint32_t>(DL.getTypeAllocSize(Ty).getFixedValue());
  uint64_t Align = DL.getABITypeAlign(Ty).value();
  if (ParamAlign)
    Align = std::max<uint64_t>(Align, ParamAlign->value());
  // An OpenCL vector is aligned to its size (rounded up to a power of two).
  if (Ty->isVectorTy())
    Align = std::max<uint64_t>(Align, llvm::PowerOf2Ceil(Arg.Size));
  Arg.Align = static_cast<uint32_t>(Align);
}

std::string attributeString(const KernelInfo &Info) {
  std::string Result;
  auto Append = [&](const std::string &Text) {
    if (!Result.empty())
      Result += ' ';
    Result += Text;
  };
  auto Triple = [](const std::array<uint64_t, 3> &S) {
    return "(" + std::to_string(S[0]) + "," + std::to_string(S[1]) + "," +
           std::to_string(S[2]) + ")";
  };
  if (Info.ReqdWorkGroupSize[0])
    Append("reqd_work_group_size" + Triple(Info.ReqdWorkGroupSize));
  if (Info.WorkGroupSizeHint[0])
    Append("work_group_size_hint" + Triple(Info.WorkGroupSizeHint));
  if (!Info.VecTypeHint.empty())
    Append("vec_type_hint(" + Info.VecTypeHint + ")");
  if (Info.ReqdSubGroupSize)
    Append("intel_reqd_sub_group_size(" +
           std::to_string(Info.ReqdSubGroupSize) + ")");
  return Result;
}

} // namespace

void layOutArguments(KernelInfo &Info) {
  uint64_t Offset = 0;
  uint64_t MaxAlign = 1;
  for (ArgInfo &Arg : Info.Args) {
    Offset = llvm::alignTo(Offset, Arg.Align);
    Arg.Offset = static_cast<uint32_t>(Offset);
    Offset += Arg.Size;
    MaxAlign = std::max<uint64_t>(MaxAlign, Arg.Align);
  }
  Info.ArgBufferSize = static_cast<uint32_t>(llvm::alignTo(Offset, MaxAlign));
}

KernelInfo describeKernel(const llvm::Function &F) {
  KernelInfo Info;
  Info.Name = F.getName().str();
  const llvm::MDNode *AddrSpaces = F.getMetadata("kernel_arg_addr_space");
  const llvm::MDNode *Access = F.getMetadata("kernel_arg_access_qual");
  const llvm::MDNode *Types = F.getMetadata("kernel_arg_type");
  const llvm::MDNode *BaseTypes = F.getMetadata("kernel_arg_base_type");
  const llvm::MDNode *Quals = F.getMetadata("kernel_arg_type_qual");
  const llvm::MDNode *Names = F.getMetadata("kernel_arg_name");
  Info.HasArgNames = Names != nullptr;

  for (unsigned I = 0; I < F.arg_size(); ++I) {
    ArgInfo Arg;
    Arg.AddrSpace = addressSpace(intOperand(AddrSpaces, I));
    Arg.TypeName = stringOperand(Types, I).str();
    Arg.Kind = argumentKind(Arg.AddrSpace, stringOperand(BaseTypes, I));
    Arg.AccessQualifier = accessQualifier(stringOperand(Access, I));
    Arg.TypeQualifier = typeQualifiers(stringOperand(Quals, I));
    if (Names)
      Arg.Name = stringOperand(Names, I).str();
    if (Arg.Kind == ArgKind::ConstantPointer)
      Arg.ReadOnly = true;
    describeArgument(F, I, Arg);
    Info.Args.push_back(std::move(Arg));
  }
  layOutArguments(Info);

  Info.ReqdWorkGroupSize = sizeTriple(F.getMetadata("reqd_work_group_size"));
  Info.WorkGroupSizeHint = sizeTriple(F.getMetadata("work_group_size_hint"));
  if (const llvm::MDNode *Hint = F.getMetadata("vec_type_hint")) {
    auto *Ty =
        llvm::mdconst::dyn_extract_or_null<llvm::Constant>(Hint->getOperand(0));
    if (Ty)
      Info.VecTypeHint = vecTypeName(Ty->getType(), intOperand(Hint, 1) != 0);
  }
  if (const llvm::MDNode *SubGroup = F.getMetadata("intel_reqd_sub_group_size"))
    Info.ReqdSubGroupSize = static_cast<uint32_t>(intOperand(SubGroup, 0));
  Info.Attributes = attributeString(Info);
  // Without the attribute (IR from elsewhere), the conservative answer.
  Info.UniformWorkGroupSize =
      F.getFnAttribute("uniform-work-group-size").getValueAsString() != "false";
  return Info;
}

void addInferredInfo(const llvm::Function &F, KernelInfo &Info) {
  bool NoMemory = F.doesNotAccessMemory();
  bool ReadsOnly = F.onlyReadsMemory();
  bool WritesOnly = F.onlyWritesMemory();
  for (unsigned I = 0; I < F.arg_size() && I < Info.Args.size(); ++I) {
    ArgInfo &Arg = Info.Args[I];
    if (Arg.Kind != ArgKind::GlobalPointer &&
        Arg.Kind != ArgKind::ConstantPointer)
      continue;
    const llvm::Argument *A = F.getArg(I);
    bool ReadNone = NoMemory || A->hasAttribute(llvm::Attribute::ReadNone);
    Arg.ReadOnly =
        Arg.ReadOnly || ReadNone || ReadsOnly || A->onlyReadsMemory();
    Arg.WriteOnly =
        ReadNone || WritesOnly || A->hasAttribute(llvm::Attribute::WriteOnly);
  }

  const llvm::DataLayout &DL = F.getParent()->getDataLayout();
  uint64_t Private = 0;
  for (const llvm::Instruction &I : F.getEntryBlock()) {
    if (const auto *Alloca = llvm::dyn_cast<llvm::AllocaInst>(&I)) {
      if (auto Size = Alloca->getAllocationSize(DL))
        Private += Size->getFixedValue();
    }
  }
  Info.PrivateMemSize = Private;
}

} // namespace kc
