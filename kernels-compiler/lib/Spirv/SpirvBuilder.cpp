//===- Spirv/SpirvBuilder.cpp - The module, in one pass -------------------===//
//
// Builder::run: types, constants and global variables in module order
// (SpirvTypes, SpirvConstants), then every function declared and defined
// (SpirvFunctions); the values and types by id.
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Module.h>

namespace kc::spirv {

using spv::Op;

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
    // SPV_INTEL_memory_access_aliasing: alias scopes, hints left out.
    case Op::OpAliasDomainDeclINTEL:
    case Op::OpAliasScopeDeclINTEL:
    case Op::OpAliasScopeListDeclINTEL:
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
