//===- Spirv/SpirvBuilder.h - SPIR-V instructions to LLVM IR ----*- C++ -*-===//
#pragma once

#include "Spirv/SpirvModule.h"
#include "Spirv/SpirvTypes.h"

#include <llvm/IR/IRBuilder.h>

#include <map>
#include <memory>
#include <unordered_map>
#include <vector>

namespace llvm {
class BasicBlock;
class Function;
class Module;
class PHINode;
} // namespace llvm

namespace kc::spirv {

class Builder {
public:
  Builder(const Module &Spirv, llvm::Module &M);
  void run();

private:
  // Module level.
  void readType(const Instruction &I);
  void readConstant(const Instruction &I);
  void readGlobalVariable(const Instruction &I);
  void declareForwardPointer(const Instruction &I);
  void declareFunction(size_t At);
  struct BlockRange {
    size_t Begin; // the OpLabel
    size_t End;   // one past the block's last instruction
  };
  std::vector<BlockRange> blockOrder(size_t Begin, size_t End);
  void defineFunction(size_t &At);
  void addKernelMetadata(llvm::Function &F, uint32_t Id, const Type &FnType);

  // Function bodies.
  void translate(const Instruction &I);
  bool translateArithmetic(const Instruction &I);
  bool translateConversion(const Instruction &I);
  bool translateComparison(const Instruction &I);
  bool translateComposite(const Instruction &I);
  bool translateMemory(const Instruction &I);
  bool translateControl(const Instruction &I);
  bool translateAtomic(const Instruction &I);
  bool translateImage(const Instruction &I);
  bool translateGroupCopy(const Instruction &I);
  bool translateGroup(const Instruction &I);
  void translateExtInst(const Instruction &I);
  llvm::Value *specConstantOp(const Instruction &I);
  void setBuiltInCopies(llvm::Function &F, size_t Begin, size_t End);

  // Values and types by id.
  const Type &type(uint32_t Id) const;
  llvm::Type *llvmType(uint32_t Id) const { return type(Id).LLVM; }
  llvm::Value *value(uint32_t Id);
  uint32_t typeOf(uint32_t ValueId) const;
  void define(uint32_t Id, uint32_t TypeId, llvm::Value *V);
  llvm::BasicBlock *block(uint32_t Id);
  uint64_t constantInt(uint32_t Id);

  // Helpers.
  llvm::FixedVectorType *vectorTypeOf(llvm::Value *V);
  llvm::Value *castTo(llvm::Instruction::CastOps Op, llvm::Value *V,
                      llvm::Type *To);
  llvm::Value *resizeInt(llvm::Value *V, llvm::Type *To, bool Signed);
  uint32_t floatTypeLike(uint32_t TypeId);
  llvm::Value *pointer(uint32_t Id);
  llvm::Value *integer(uint32_t Id);
  llvm::Value *floating(uint32_t Id);
  llvm::Value *integerDot(const Instruction &I);
  llvm::Value *binary(const Instruction &I, llvm::Instruction::BinaryOps Op);
  llvm::Value *convertWithBuiltin(const Instruction &I, bool SrcSigned,
                                  bool DstSigned);
  llvm::Value *call(const std::string &Name, llvm::Type *Ret,
                    llvm::ArrayRef<llvm::Value *> Args);
  llvm::Value *samplerValue(uint32_t Id);
  void decorateResult(uint32_t Id, llvm::Value *V);
  std::string mangle(const std::string &Name, llvm::ArrayRef<uint32_t> ArgTypes,
                     llvm::ArrayRef<int> Signedness,
                     llvm::ArrayRef<int> ConstPointee = {});
  std::string mangleType(uint32_t TypeId, bool Signed, bool ConstPointee,
                         std::vector<std::string> &Subst);
  std::string typeName(uint32_t TypeId, bool Signed);
  std::string imageTypeName(const Type &T, bool Mangled);
  uint32_t intType(unsigned Width);

  // Work-group and sub-group instructions (SpirvGroups.cpp): an operand as
  // the builtin takes it, with the type id it is mangled by.
  struct GroupArg {
    llvm::Value *V;
    uint32_t TypeId;
  };
  bool translateGroupArithmetic(const Instruction &I);
  void groupBroadcast(const Instruction &I);
  void subgroupBlockAccess(const Instruction &I);
  bool isSubgroupScope(const Instruction &I, uint32_t ScopeId,
                       bool SubgroupOnly);
  GroupArg groupOperand(uint32_t Id);
  GroupArg groupIndex(uint32_t Id, unsigned Width);
  llvm::Value *groupCall(const std::string &Name, llvm::Type *Ret,
                         llvm::ArrayRef<llvm::Value *> Args);
  void defineGroupResult(uint32_t TypeId, uint32_t Id, llvm::Value *V);

  const Module &Spirv;
  llvm::Module &M;
  llvm::LLVMContext &C;
  llvm::IRBuilder<> B;
  std::vector<std::unique_ptr<Type>> Types;
  std::vector<llvm::Value *> Values;
  std::vector<uint32_t> ValueTypes;
  std::unordered_map<uint32_t, uint32_t> BuiltIns;    // variable -> BuiltIn
  std::unordered_map<uint32_t, uint32_t> SamplerBits; // constant -> bits
  std::unordered_map<uint32_t, uint32_t> SamplerVars; // variable -> constant
  std::unordered_map<uint32_t, llvm::Function *> Functions;
  // OpSampledImage results: the image and sampler type ids, for mangling.
  std::unordered_map<uint32_t, std::pair<uint32_t, uint32_t>> SampledParts;
  std::unordered_map<uint32_t, llvm::BasicBlock *> Blocks;
  struct PendingPhi {
    llvm::PHINode *Phi;
    const Instruction *I;
  };
  std::vector<PendingPhi> Phis;
  std::vector<std::pair<uint32_t, uint32_t>> LoopControls; // continue, mask
  std::unordered_map<uint32_t, uint32_t> LoopHeaders;      // continue->header
  class DepthGuard;
  unsigned TypeDepth = 0;
  llvm::Function *Current = nullptr;
  llvm::BasicBlock *Entry = nullptr;
};

} // namespace kc::spirv
