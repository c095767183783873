//===- Spirv/SpirvBuilder.cpp - Types, constants, globals, functions ------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/GlobalVariable.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <algorithm>

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

Builder::Builder(const Module &Spirv, llvm::Module &M)
    : Spirv(Spirv), M(M), C(M.getContext()), B(M.getContext()) {
  Types.resize(Spirv.bound());
  Values.resize(Spirv.bound(), nullptr);
  ValueTypes.resize(Spirv.bound(), 0);
}

const Type &Builder::type(uint32_t Id) const {
  if (Id >= Types.size() || !Types[Id])
    fail("id " + std::to_string(Id) + " is not a type");
  return *Types[Id];
}

uint32_t Builder::typeOf(uint32_t ValueId) const {
  if (ValueId >= ValueTypes.size() || !ValueTypes[ValueId])
    fail("id " + std::to_string(ValueId) + " is not a value");
  return ValueTypes[ValueId];
}

void Builder::define(uint32_t Id, uint32_t TypeId, llvm::Value *V) {
  if (Id >= Values.size())
    fail("id " + std::to_string(Id) + " is not below the bound");
  Values[Id] = V;
  ValueTypes[Id] = TypeId;
  if (V && !V->getType()->isVoidTy() && !llvm::isa<llvm::Constant>(V)) {
    std::string_view Name = Spirv.name(Id);
    if (!Name.empty())
      V->setName(llvm::StringRef(Name.data(), Name.size()));
  }
}

llvm::Value *Builder::value(uint32_t Id) {
  if (Id < Values.size() && SamplerBits.count(Id))
    return samplerValue(Id);
  if (Id >= Values.size() || !Values[Id])
    fail("id " + std::to_string(Id) + " is used before it is defined");
  return Values[Id];
}

llvm::BasicBlock *Builder::block(uint32_t Id) {
  auto It = Blocks.find(Id);
  if (It == Blocks.end())
    fail("id " + std::to_string(Id) + " is not a block of the function");
  return It->second;
}

uint64_t Builder::constantInt(uint32_t Id) {
  auto *CI = llvm::dyn_cast<llvm::ConstantInt>(value(Id));
  if (!CI)
    fail("id " + std::to_string(Id) + " must be an integer constant");
  return CI->getZExtValue();
}

llvm::Value *Builder::samplerValue(uint32_t Id) {
  if (!B.GetInsertBlock())
    fail("a sampler constant is used outside a function");
  llvm::Type *Sampler = llvm::PointerType::get(C, 2);
  llvm::FunctionCallee Init = M.getOrInsertFunction(
      "__translate_sampler_initializer", Sampler, B.getInt32Ty());
  return B.CreateCall(Init, {B.getInt32(SamplerBits[Id])});
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

void Builder::declareFunction(size_t At) {
  const Instruction &I = Spirv.instructions()[At];
  const uint32_t Id = I[1];
  const Type &FnType = type(I[3]);
  if (FnType.Kind != Op::OpTypeFunction)
    fail("OpFunction's type is not a function type");
  auto *FTy = llvm::cast<llvm::FunctionType>(FnType.LLVM);
  std::string Name(Spirv.name(Id));
  auto Linkage = llvm::GlobalValue::InternalLinkage;
  const EntryPoint *Entry = Spirv.entryPoint(Id);
  // LinkOnceODR: weak_odr, not linkonce_odr, so that a definition no
  // function of its own module calls still reaches the modules linked
  // with it (the linker drops unreferenced linkonce definitions).
  if (const Decoration *D =
          Spirv.decoration(Id, spv::Decoration::LinkageAttributes)) {
    Name = D->Text;
    Linkage = static_cast<spv::LinkageType>(D->Args.at(0)) ==
                      spv::LinkageType::LinkOnceODR
                  ? llvm::GlobalValue::WeakODRLinkage
                  : llvm::GlobalValue::ExternalLinkage;
  }
  if (Entry) {
    Name = Entry->Name;
    Linkage = llvm::GlobalValue::ExternalLinkage;
  }
  if (Name.empty())
    Name = "__spirv_function_" + std::to_string(Id);
  if (M.getFunction(Name))
    Name += ".spirv" + std::to_string(Id);
  llvm::Function *F = llvm::Function::Create(FTy, Linkage, Name, M);
  F->setCallingConv(Entry ? llvm::CallingConv::SPIR_KERNEL
                          : llvm::CallingConv::SPIR_FUNC);
  F->addFnAttr(llvm::Attribute::NoUnwind);
  // Every OpenCL C function is convergent to Clang (it may hold a barrier).
  F->addFnAttr(llvm::Attribute::Convergent);
  Functions[Id] = F;
  define(Id, I[3], F);
}

void Builder::addKernelMetadata(llvm::Function &F, uint32_t Id,
                                const Type &FnType) {
  const EntryPoint *Entry = Spirv.entryPoint(Id);
  std::vector<llvm::Metadata *> AddrSpaces, Access, Types, BaseTypes, Quals,
      Names;
  std::vector<std::string> KeptNames;
  if (const std::string *Kept = Spirv.stringWithPrefix(
          "kernel_arg_type." + F.getName().str() + ".")) {
    std::string_view Rest(*Kept);
    Rest.remove_prefix(std::string("kernel_arg_type.").size() +
                       F.getName().size() + 1);
    for (size_t Comma; (Comma = Rest.find(',')) != std::string_view::npos;
         Rest.remove_prefix(Comma + 1))
      KeptNames.emplace_back(Rest.substr(0, Comma));
  }
  unsigned ArgNo = 0;
  for (llvm::Argument &A : F.args()) {
    const uint32_t TypeId = FnType.Members[ArgNo + 1];
    const Type &T = type(TypeId);
    int AS = 0;
    std::string Access_ = "none", Qual;
    // OpenCL C's names when the producer kept them (llvm-spirv writes
    // OpString "kernel_arg_type.<kernel>.<type>,<type>,"), else signed ones.
    std::string TypeName =
        ArgNo < KeptNames.size() ? KeptNames[ArgNo] : typeName(TypeId, true);
    if (T.Kind == Op::OpTypePointer) {
      AS = addressSpaceOf(T.Storage);
      if (AS == 2)
        Qual = "const";
    } else if (T.Kind == Op::OpTypeImage) {
      AS = 1;
      Access_ = T.Access == 0   ? "read_only"
                : T.Access == 1 ? "write_only"
                                : "read_write";
    }
    for (const auto &[Kind, Text] :
         {std::pair{llvm::Attribute::ReadOnly, "const"},
          std::pair{llvm::Attribute::NoAlias, "restrict"}})
      if (AS != 2 && F.hasParamAttribute(ArgNo, Kind))
        Qual += (Qual.empty() ? "" : " ") + std::string(Text);
    if (F.hasParamAttribute(ArgNo, llvm::Attribute::ByVal))
      AS = 0;
    AddrSpaces.push_back(
        llvm::ConstantAsMetadata::get(B.getInt32(static_cast<uint32_t>(AS))));
    Access.push_back(llvm::MDString::get(C, Access_));
    Types.push_back(llvm::MDString::get(C, TypeName));
    BaseTypes.push_back(llvm::MDString::get(C, TypeName));
    Quals.push_back(llvm::MDString::get(C, Qual));
    Names.push_back(llvm::MDString::get(C, A.getName()));
    ++ArgNo;
  }
  F.setMetadata("kernel_arg_addr_space", llvm::MDNode::get(C, AddrSpaces));
  F.setMetadata("kernel_arg_access_qual", llvm::MDNode::get(C, Access));
  F.setMetadata("kernel_arg_type", llvm::MDNode::get(C, Types));
  F.setMetadata("kernel_arg_base_type", llvm::MDNode::get(C, BaseTypes));
  F.setMetadata("kernel_arg_type_qual", llvm::MDNode::get(C, Quals));
  // Names (empty without OpName) as llvm-spirv's
  // --spirv-gen-kernel-arg-name-md gives them: clGetKernelArgInfo answers.
  F.setMetadata("kernel_arg_name", llvm::MDNode::get(C, Names));
  auto Sizes = [&](const std::vector<uint32_t> &S) {
    std::vector<llvm::Metadata *> Ops;
    for (uint32_t V : S)
      Ops.push_back(llvm::ConstantAsMetadata::get(B.getInt32(V)));
    return llvm::MDNode::get(C, Ops);
  };
  if (Entry && Entry->LocalSize.size() == 3)
    F.setMetadata("reqd_work_group_size", Sizes(Entry->LocalSize));
  if (Entry && Entry->LocalSizeHint.size() == 3)
    F.setMetadata("work_group_size_hint", Sizes(Entry->LocalSizeHint));
}

void Builder::defineFunction(size_t &At) {
  const std::vector<Instruction> &Insts = Spirv.instructions();
  const Instruction &FnInst = Insts[At];
  llvm::Function *F = Functions.at(FnInst[1]);
  const Type &FnType = type(FnInst[3]);
  Current = F;
  Blocks.clear();
  Phis.clear();
  LoopControls.clear();
  LoopHeaders.clear();
  size_t End = At + 1;
  unsigned ArgNo = 0;
  for (; End < Insts.size() && Insts[End].Opcode != Op::OpFunctionEnd; ++End) {
    const Instruction &I = Insts[End];
    if (I.Opcode == Op::OpFunctionParameter) {
      if (ArgNo >= F->arg_size())
        fail("a function has more parameters than its type");
      llvm::Argument *A = F->getArg(ArgNo);
      define(I[1], I[0], A);
      if (const std::vector<Decoration> *Ds = Spirv.decorations(I[1]))
        for (const Decoration &D : *Ds) {
          if (D.Kind == spv::Decoration::Alignment && D.Args.size() == 1 &&
              A->getType()->isPointerTy() && D.Args[0] &&
              (D.Args[0] & (D.Args[0] - 1)) == 0)
            F->addParamAttr(ArgNo, llvm::Attribute::getWithAlignment(
                                       C, llvm::Align(D.Args[0])));
          if (D.Kind != spv::Decoration::FuncParamAttr || D.Args.empty())
            continue;
          switch (static_cast<spv::FunctionParameterAttribute>(D.Args[0])) {
          case spv::FunctionParameterAttribute::NoAlias:
            F->addParamAttr(ArgNo, llvm::Attribute::NoAlias);
            break;
          case spv::FunctionParameterAttribute::NoCapture:
            F->addParamAttr(ArgNo, llvm::Attribute::NoCapture);
            break;
          case spv::FunctionParameterAttribute::NoWrite:
            F->addParamAttr(ArgNo, llvm::Attribute::ReadOnly);
            break;
          case spv::FunctionParameterAttribute::ByVal:
            if (A->getType()->isPointerTy())
              F->addParamAttr(ArgNo, llvm::Attribute::getWithByValType(
                                         C, llvmType(type(I[0]).Pointee)));
            break;
          case spv::FunctionParameterAttribute::Zext:
            F->addParamAttr(ArgNo, llvm::Attribute::ZExt);
            break;
          case spv::FunctionParameterAttribute::Sext:
            F->addParamAttr(ArgNo, llvm::Attribute::SExt);
            break;
          default:
            break;
          }
        }
      ++ArgNo;
    } else if (I.Opcode == Op::OpLabel) {
      Blocks[I[0]] = llvm::BasicBlock::Create(C, "", F);
    }
  }
  if (End >= Insts.size())
    fail("a function has no OpFunctionEnd");
  if (F->getCallingConv() == llvm::CallingConv::SPIR_KERNEL)
    addKernelMetadata(*F, FnInst[1], FnType);
  if (Blocks.empty()) { // a declaration (Import linkage)
    F->setLinkage(llvm::GlobalValue::ExternalLinkage);
    At = End;
    return;
  }
  Entry = nullptr;
  // The blocks in reverse post-order of the CFG: a block after every block
  // that dominates it. Producers do not all keep SPIR-V's rule that the
  // layout does (llvm-spirv-15 writes LLVM's block order), and a value must
  // be defined before its uses are translated.
  for (const BlockRange &R : blockOrder(At + 1, End)) {
    llvm::BasicBlock *BB = Blocks.at(Insts[R.Begin][0]);
    B.SetInsertPoint(BB);
    if (!Entry) {
      Entry = BB;
      setBuiltInCopies(*F, At + 1, End);
    }
    for (size_t I = R.Begin + 1; I < R.End; ++I)
      translate(Insts[I]);
  }
  for (const PendingPhi &P : Phis)
    for (size_t Op = 2; Op + 1 < P.I->size(); Op += 2) {
      llvm::Value *In = value((*P.I)[Op]);
      if (In->getType() != P.Phi->getType())
        fail("OpPhi of a value of another type");
      P.Phi->addIncoming(In, block((*P.I)[Op + 1]));
    }
  for (const auto &[Continue, Mask] : LoopControls) {
    llvm::Instruction *Back = block(Continue)->getTerminator();
    if (!Back)
      continue;
    llvm::Metadata *Hint = llvm::MDString::get(
        C, (Mask & 1) ? "llvm.loop.unroll.enable" : "llvm.loop.unroll.disable");
    llvm::MDNode *Loop =
        llvm::MDNode::getDistinct(C, {nullptr, llvm::MDNode::get(C, {Hint})});
    Loop->replaceOperandWith(0, Loop);
    Back->setMetadata(llvm::LLVMContext::MD_loop, Loop);
  }
  for (auto &BB : *F)
    if (!BB.getTerminator())
      fail("a block of function " + F->getName().str() + " has no terminator");
  B.ClearInsertionPoint();
  Current = nullptr;
  At = End;
}

// The blocks of the function body [Begin, End) (instruction ranges starting
// at their OpLabel), in reverse post-order from the first; unreachable
// blocks follow in layout order.
std::vector<Builder::BlockRange> Builder::blockOrder(size_t Begin, size_t End) {
  const std::vector<Instruction> &Insts = Spirv.instructions();
  std::vector<BlockRange> Layout;
  std::unordered_map<uint32_t, size_t> Index;
  for (size_t I = Begin; I < End; ++I) {
    const Instruction &Inst = Insts[I];
    if (Inst.Opcode == Op::OpFunctionParameter)
      continue;
    if (Inst.Opcode == Op::OpLabel) {
      if (!Layout.empty())
        Layout.back().End = I;
      Index[Inst[0]] = Layout.size();
      Layout.push_back({I, End});
    } else if (Layout.empty()) {
      fail("an instruction before the function's first block");
    } else {
      bool HasResult = false, HasType = false;
      spv::HasResultAndType(Inst.Opcode, &HasResult, &HasType);
      if (HasResult && HasType && Inst[1] < ValueTypes.size())
        ValueTypes[Inst[1]] = Inst[0]; // for OpSwitch's literal widths
    }
  }
  auto Successors = [&](const BlockRange &R) {
    std::vector<size_t> Out;
    if (R.End <= R.Begin + 1)
      return Out;
    const Instruction &T = Insts[R.End - 1];
    auto Add = [&](uint32_t Label) {
      auto It = Index.find(Label);
      if (It == Index.end())
        fail("a branch to id " + std::to_string(Label) +
             ", not a block of the function");
      Out.push_back(It->second);
    };
    if (T.Opcode == Op::OpBranch) {
      Add(T[0]);
    } else if (T.Opcode == Op::OpBranchConditional) {
      Add(T[1]);
      Add(T[2]);
    } else if (T.Opcode == Op::OpSwitch) {
      const uint32_t SelectorType =
          T[0] < ValueTypes.size() ? ValueTypes[T[0]] : 0;
      const size_t Step =
          SelectorType && Types[SelectorType] && type(SelectorType).Width > 32
              ? 3
              : 2;
      Add(T[1]);
      for (size_t At = 2 + Step - 1; At < T.size(); At += Step)
        Add(T[At]);
    }
    return Out;
  };
  std::vector<BlockRange> Order;
  if (Layout.empty())
    return Order;
  // Iterative depth-first search; post-order, then reversed.
  std::vector<char> Seen(Layout.size(), 0);
  std::vector<std::pair<size_t, std::vector<size_t>>> Stack;
  std::vector<size_t> Post;
  Seen[0] = 1;
  Stack.push_back({0, Successors(Layout[0])});
  while (!Stack.empty()) {
    auto &[Node, Next] = Stack.back();
    if (Next.empty()) {
      Post.push_back(Node);
      Stack.pop_back();
      continue;
    }
    const size_t S = Next.back();
    Next.pop_back();
    if (!Seen[S]) {
      Seen[S] = 1;
      Stack.push_back({S, Successors(Layout[S])});
    }
  }
  for (auto It = Post.rbegin(); It != Post.rend(); ++It)
    Order.push_back(Layout[*It]);
  for (size_t I = 0; I < Layout.size(); ++I)
    if (!Seen[I])
      Order.push_back(Layout[I]);
  return Order;
}

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

void Builder::run() {
  const std::vector<Instruction> &Insts = Spirv.instructions();
  // Types, constants and global variables, in order.
  size_t At = 0;
  for (; At < Insts.size(); ++At) {
    const Instruction &I = Insts[At];
    if (I.Opcode == Op::OpFunction)
      break;
    switch (I.Opcode) {
    case Op::OpTypeVoid:
    case Op::OpTypeBool:
    case Op::OpTypeInt:
    case Op::OpTypeFloat:
    case Op::OpTypeVector:
    case Op::OpTypeArray:
    case Op::OpTypeRuntimeArray:
    case Op::OpTypeStruct:
    case Op::OpTypeOpaque:
    case Op::OpTypePointer:
    case Op::OpTypeFunction:
    case Op::OpTypeEvent:
    case Op::OpTypeImage:
    case Op::OpTypeSampler:
    case Op::OpTypeSampledImage:
    case Op::OpTypeMatrix:
    case Op::OpTypeDeviceEvent:
    case Op::OpTypeReserveId:
    case Op::OpTypeQueue:
    case Op::OpTypePipe:
      readType(I);
      break;
    case Op::OpConstant:
    case Op::OpConstantTrue:
    case Op::OpConstantFalse:
    case Op::OpConstantNull:
    case Op::OpConstantComposite:
    case Op::OpConstantSampler:
    case Op::OpSpecConstant:
    case Op::OpSpecConstantTrue:
    case Op::OpSpecConstantFalse:
    case Op::OpSpecConstantComposite:
    case Op::OpSpecConstantOp:
    case Op::OpUndef:
      readConstant(I);
      break;
    case Op::OpVariable:
      readGlobalVariable(I);
      break;
    case Op::OpTypeForwardPointer:
      declareForwardPointer(I);
      break;
    case Op::OpCapability:
    case Op::OpExtension:
    case Op::OpExtInstImport:
    case Op::OpMemoryModel:
    case Op::OpEntryPoint:
    case Op::OpExecutionMode:
    case Op::OpExecutionModeId:
    case Op::OpString:
    case Op::OpSourceExtension:
    case Op::OpSource:
    case Op::OpSourceContinued:
    case Op::OpName:
    case Op::OpMemberName:
    case Op::OpModuleProcessed:
    case Op::OpDecorate:
    case Op::OpDecorateId:
    case Op::OpDecorateString:
    case Op::OpMemberDecorate:
    case Op::OpMemberDecorateString:
    case Op::OpDecorationGroup:
    case Op::OpGroupDecorate:
    case Op::OpGroupMemberDecorate:
    case Op::OpLine:
    case Op::OpNoLine:
    case Op::OpNop:
      break;
    case Op::OpExtInst: // non-semantic information only, outside functions
      if (const ExtSet *Set = Spirv.extSet(I[2]);
          Set && *Set == ExtSet::NonSemantic)
        break;
      [[fallthrough]];
    default:
      fail(spirvOpcodeName(static_cast<uint32_t>(I.Opcode)) +
           " is not supported outside functions");
    }
  }
  // Kernels first: they keep their entry point names, a function of the
  // same name (the translator's wrapped kernel body) gets another.
  for (bool Kernels : {true, false})
    for (size_t F = At; F < Insts.size(); ++F)
      if (Insts[F].Opcode == Op::OpFunction &&
          (Spirv.entryPoint(Insts[F][1]) != nullptr) == Kernels)
        declareFunction(F);
  for (; At < Insts.size(); ++At) {
    if (Insts[At].Opcode == Op::OpFunction)
      defineFunction(At);
    else if (Insts[At].Opcode != Op::OpExtInst &&
             Insts[At].Opcode != Op::OpLine && Insts[At].Opcode != Op::OpNoLine)
      fail(spirvOpcodeName(static_cast<uint32_t>(Insts[At].Opcode)) +
           " outside a function");
  }
}

} // namespace kc::spirv
