//===- Spirv/SpirvGroups.cpp - Work-group and sub-group instructions ------===//
//
// The Groups capability (OpGroupAll/Any/Broadcast and the arithmetic of
// OpGroupIAdd & co., with SPV_KHR_uniform_group_instructions), the
// GroupNonUniform* capabilities and SPV_INTEL_subgroups become calls of the
// OpenCL C builtins: the work-group collective functions and those of
// cl_khr_subgroups, cl_khr_subgroup_* and cl_intel_subgroups, under the
// Itanium names Clang gives them for OpenCL C (work_group_reduce_add(int) is
// _Z21work_group_reduce_addi). The execution scope chooses work_group_ or
// sub_group_; a boolean operand is passed as an int, an int result compared
// with 0 where SPIR-V wants a boolean. Every call is convergent, as Clang
// declares the builtins.
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Module.h>

namespace kc::spirv {

using spv::Op;

namespace {

constexpr uint64_t ScopeWorkgroup = 2;
constexpr uint64_t ScopeSubgroup = 3;

// An arithmetic group instruction: the operation's OpenCL C name and the
// sign its integer operand is mangled with (floating-point operands have
// none).
struct GroupArithmetic {
  Op Opcode;
  const char *Name;
  bool Signed;
  enum Family {
    Uniform,    // Groups: work_group_reduce_add, sub_group_scan_inclusive_min
    UniformKHR, // SPV_KHR_uniform_group_instructions
    NonUniform, // GroupNonUniformArithmetic: sub-groups only
  } Kind;
};

constexpr GroupArithmetic GroupArithmetics[] = {
    {Op::OpGroupIAdd, "add", true, GroupArithmetic::Uniform},
    {Op::OpGroupFAdd, "add", true, GroupArithmetic::Uniform},
    {Op::OpGroupFMin, "min", true, GroupArithmetic::Uniform},
    {Op::OpGroupUMin, "min", false, GroupArithmetic::Uniform},
    {Op::OpGroupSMin, "min", true, GroupArithmetic::Uniform},
    {Op::OpGroupFMax, "max", true, GroupArithmetic::Uniform},
    {Op::OpGroupUMax, "max", false, GroupArithmetic::Uniform},
    {Op::OpGroupSMax, "max", true, GroupArithmetic::Uniform},
    {Op::OpGroupIMulKHR, "mul", true, GroupArithmetic::UniformKHR},
    {Op::OpGroupFMulKHR, "mul", true, GroupArithmetic::UniformKHR},
    {Op::OpGroupBitwiseAndKHR, "and", false, GroupArithmetic::UniformKHR},
    {Op::OpGroupBitwiseOrKHR, "or", false, GroupArithmetic::UniformKHR},
    {Op::OpGroupBitwiseXorKHR, "xor", false, GroupArithmetic::UniformKHR},
    {Op::OpGroupLogicalAndKHR, "logical_and", true,
     GroupArithmetic::UniformKHR},
    {Op::OpGroupLogicalOrKHR, "logical_or", true, GroupArithmetic::UniformKHR},
    {Op::OpGroupLogicalXorKHR, "logical_xor", true,
     GroupArithmetic::UniformKHR},
    {Op::OpGroupNonUniformIAdd, "add", true, GroupArithmetic::NonUniform},
    {Op::OpGroupNonUniformFAdd, "add", true, GroupArithmetic::NonUniform},
    {Op::OpGroupNonUniformIMul, "mul", true, GroupArithmetic::NonUniform},
    {Op::OpGroupNonUniformFMul, "mul", true, GroupArithmetic::NonUniform},
    {Op::OpGroupNonUniformSMin, "min", true, GroupArithmetic::NonUniform},
    {Op::OpGroupNonUniformUMin, "min", false, GroupArithmetic::NonUniform},
    {Op::OpGroupNonUniformFMin, "min", true, GroupArithmetic::NonUniform},
    {Op::OpGroupNonUniformSMax, "max", true, GroupArithmetic::NonUniform},
    {Op::OpGroupNonUniformUMax, "max", false, GroupArithmetic::NonUniform},
    {Op::OpGroupNonUniformFMax, "max", true, GroupArithmetic::NonUniform},
    {Op::OpGroupNonUniformBitwiseAnd, "and", false,
     GroupArithmetic::NonUniform},
    {Op::OpGroupNonUniformBitwiseOr, "or", false, GroupArithmetic::NonUniform},
    {Op::OpGroupNonUniformBitwiseXor, "xor", false,
     GroupArithmetic::NonUniform},
    {Op::OpGroupNonUniformLogicalAnd, "logical_and", true,
     GroupArithmetic::NonUniform},
    {Op::OpGroupNonUniformLogicalOr, "logical_or", true,
     GroupArithmetic::NonUniform},
    {Op::OpGroupNonUniformLogicalXor, "logical_xor", true,
     GroupArithmetic::NonUniform},
};

// The Itanium code of an unsigned integer of Width bits.
const char *unsignedCode(unsigned Width) {
  switch (Width) {
  case 8:
    return "h";
  case 16:
    return "t";
  case 32:
    return "j";
  case 64:
    return "m";
  default:
    fail("no sub-group block access of " + std::to_string(Width) +
         "-bit integers");
  }
}

} // namespace

bool Builder::isSubgroupScope(const Instruction &I, uint32_t ScopeId,
                              bool SubgroupOnly) {
  const uint64_t Scope = constantInt(ScopeId);
  if (Scope == ScopeSubgroup)
    return true;
  if (Scope == ScopeWorkgroup && !SubgroupOnly)
    return false;
  fail(
      spirvOpcodeName(static_cast<uint32_t>(I.Opcode)) +
      " with execution scope " + std::to_string(Scope) + " is not supported" +
      (SubgroupOnly ? " (only Subgroup is)" : " (Workgroup and Subgroup are)"));
}

// A boolean becomes an int, as OpenCL C's predicates are.
Builder::GroupArg Builder::groupOperand(uint32_t Id) {
  llvm::Value *V = value(Id);
  if (V->getType()->isIntegerTy(1))
    return {B.CreateZExt(V, B.getInt32Ty()), intType(32)};
  if (V->getType()->isVectorTy() &&
      V->getType()->getScalarType()->isIntegerTy(1))
    fail("a group operation on a vector of booleans is not supported");
  return {V, typeOf(Id)};
}

// An integer operand as the uint (or, Width 64, size_t) the builtins take.
Builder::GroupArg Builder::groupIndex(uint32_t Id, unsigned Width) {
  llvm::Value *V = integer(Id);
  if (V->getType()->isVectorTy())
    fail("a group operation's index is a vector");
  return {resizeInt(V, B.getIntNTy(Width), false), intType(Width)};
}

llvm::Value *Builder::groupCall(const std::string &Name, llvm::Type *Ret,
                                llvm::ArrayRef<llvm::Value *> Args) {
  auto *Call = llvm::cast<llvm::CallInst>(call(Name, Ret, Args));
  Call->getCalledFunction()->setConvergent();
  Call->setConvergent();
  return Call;
}

// Defines the result Id of type TypeId from a builtin's result: an int
// compared with 0 for a boolean, an integer resized to another width.
void Builder::defineGroupResult(uint32_t TypeId, uint32_t Id, llvm::Value *V) {
  llvm::Type *Want = llvmType(TypeId);
  if (Want->isIntegerTy(1) && V->getType()->isIntegerTy())
    V = B.CreateICmpNE(V, llvm::ConstantInt::get(V->getType(), 0));
  else if (Want != V->getType() && Want->isIntegerTy() &&
           V->getType()->isIntegerTy())
    V = resizeInt(V, Want, false);
  if (V->getType() != Want)
    fail("a group operation's result type does not match its operands");
  define(Id, TypeId, V);
}

// OpGroupIAdd & co. (result type, result, scope, operation, value, and for
// ClusteredReduce the cluster size): <prefix>[non_uniform_]reduce_<op>,
// scan_inclusive_<op>, scan_exclusive_<op>, sub_group_clustered_reduce_<op>.
bool Builder::translateGroupArithmetic(const Instruction &I) {
  const GroupArithmetic *A = nullptr;
  for (const GroupArithmetic &G : GroupArithmetics)
    if (G.Opcode == I.Opcode)
      A = &G;
  if (!A)
    return false;
  const bool Subgroup =
      isSubgroupScope(I, I[2], A->Kind == GroupArithmetic::NonUniform);
  // OpenCL C has the uniform mul, and, or, xor and logical operations
  // for work-groups only (cl_khr_work_group_uniform_arithmetic); on a
  // sub-group, the non-uniform ones give the same results.
  const bool NonUniform = A->Kind == GroupArithmetic::NonUniform ||
                          (A->Kind == GroupArithmetic::UniformKHR && Subgroup);
  std::string Name = Subgroup ? "sub_group_" : "work_group_";
  if (NonUniform)
    Name += "non_uniform_";
  const auto Operation = static_cast<spv::GroupOperation>(I[3]);
  switch (Operation) {
  case spv::GroupOperation::Reduce:
    Name += "reduce_";
    break;
  case spv::GroupOperation::InclusiveScan:
    Name += "scan_inclusive_";
    break;
  case spv::GroupOperation::ExclusiveScan:
    Name += "scan_exclusive_";
    break;
  case spv::GroupOperation::ClusteredReduce:
    if (A->Kind != GroupArithmetic::NonUniform)
      fail(spirvOpcodeName(static_cast<uint32_t>(I.Opcode)) +
           " with ClusteredReduce");
    Name = "sub_group_clustered_reduce_";
    break;
  default:
    fail(spirvOpcodeName(static_cast<uint32_t>(I.Opcode)) +
         " with group operation " + std::to_string(I[3]) + " is not supported");
  }
  Name += A->Name;
  GroupArg Value = groupOperand(I[4]);
  std::vector<uint32_t> Types = {Value.TypeId};
  std::vector<llvm::Value *> Args = {Value.V};
  std::vector<int> Signs = {A->Signed ? 1 : 0};
  if (Operation == spv::GroupOperation::ClusteredReduce) {
    if (!llvm::isa<llvm::ConstantInt>(value(I[5])))
      fail("a ClusteredReduce whose cluster size is not a constant");
    GroupArg Size = groupIndex(I[5], 32);
    Types.push_back(Size.TypeId);
    Args.push_back(Size.V);
    Signs.push_back(0);
  }
  defineGroupResult(
      I[0], I[1],
      groupCall(mangle(Name, Types, Signs), Value.V->getType(), Args));
  return true;
}

// OpGroupBroadcast: work_group_broadcast(value, size_t x[, y[, z]]) with the
// local id's components, or sub_group_broadcast(value, uint).
void Builder::groupBroadcast(const Instruction &I) {
  const bool Subgroup = isSubgroupScope(I, I[2], false);
  GroupArg Value = groupOperand(I[3]);
  std::vector<uint32_t> Types = {Value.TypeId};
  std::vector<llvm::Value *> Args = {Value.V};
  std::vector<int> Signs = {1};
  llvm::Value *Id = integer(I[4]);
  if (Subgroup) {
    GroupArg Index = groupIndex(I[4], 32);
    Types.push_back(Index.TypeId);
    Args.push_back(Index.V);
    Signs.push_back(0);
  } else {
    const uint32_t SizeT = intType(64);
    auto *VT = llvm::dyn_cast<llvm::FixedVectorType>(Id->getType());
    const unsigned Count = VT ? VT->getNumElements() : 1;
    if (Count > 3)
      fail("OpGroupBroadcast with a local id of more than 3 components");
    for (unsigned D = 0; D < Count; ++D) {
      llvm::Value *Component = VT ? B.CreateExtractElement(Id, D) : Id;
      Args.push_back(resizeInt(Component, B.getInt64Ty(), false));
      Types.push_back(SizeT);
      Signs.push_back(0);
    }
  }
  const char *Name = Subgroup ? "sub_group_broadcast" : "work_group_broadcast";
  defineGroupResult(
      I[0], I[1],
      groupCall(mangle(Name, Types, Signs), Value.V->getType(), Args));
}

// OpSubgroupBlockReadINTEL (result type, result, pointer) and
// OpSubgroupBlockWriteINTEL (pointer, data):
// intel_sub_group_block_read[_uc|_us|_ul][2|4|8|16] and _write, on a
// __global or __local pointer to the unsigned element type.
void Builder::subgroupBlockAccess(const Instruction &I) {
  const bool Write = I.Opcode == Op::OpSubgroupBlockWriteINTEL;
  llvm::Value *Ptr = pointer(I[Write ? 0 : 2]);
  llvm::Value *Data = Write ? integer(I[1]) : nullptr;
  llvm::Type *DataTy = Write ? Data->getType() : llvmType(I[0]);
  if (!DataTy->isIntOrIntVectorTy())
    fail(spirvOpcodeName(static_cast<uint32_t>(I.Opcode)) +
         " of a type that is not an integer (vector)");
  const unsigned Width = DataTy->getScalarSizeInBits();
  auto *VT = llvm::dyn_cast<llvm::FixedVectorType>(DataTy);
  const unsigned Count = VT ? VT->getNumElements() : 1;
  const unsigned AS = Ptr->getType()->getPointerAddressSpace();
  if (AS != 1 && AS != 3)
    fail(spirvOpcodeName(static_cast<uint32_t>(I.Opcode)) +
         " of a pointer that is neither global nor local");
  std::string Name =
      Write ? "intel_sub_group_block_write" : "intel_sub_group_block_read";
  Name += Width == 8 ? "_uc" : Width == 16 ? "_us" : Width == 64 ? "_ul" : "";
  if (Count > 1)
    Name += std::to_string(Count);
  const std::string Elem = unsignedCode(Width);
  std::string Mangled = "_Z" + std::to_string(Name.size()) + Name + "PU3AS" +
                        std::to_string(AS) + (Write ? "" : "K") + Elem;
  if (Write)
    Mangled += Count > 1 ? "Dv" + std::to_string(Count) + "_" + Elem : Elem;
  if (Write)
    groupCall(Mangled, B.getVoidTy(), {Ptr, Data});
  else
    define(I[1], I[0], groupCall(Mangled, DataTy, {Ptr}));
}

bool Builder::translateGroup(const Instruction &I) {
  if (translateGroupArithmetic(I))
    return true;
  auto Ballot = [&](uint32_t Id) {
    llvm::Value *V = integer(Id);
    auto *VT = llvm::dyn_cast<llvm::FixedVectorType>(V->getType());
    if (!VT || VT->getNumElements() != 4 ||
        !VT->getElementType()->isIntegerTy(32))
      fail(spirvOpcodeName(static_cast<uint32_t>(I.Opcode)) +
           " of a ballot that is not a uint4");
    return GroupArg{V, typeOf(Id)};
  };
  // Name(operand): an integer operand signed (a predicate, a value whose
  // bits are moved or compared), a ballot unsigned.
  auto Unary = [&](const char *Name, GroupArg Arg, llvm::Type *Ret,
                   int Sign = 1) {
    defineGroupResult(
        I[0], I[1],
        groupCall(mangle(Name, {Arg.TypeId}, {Sign}), Ret, {Arg.V}));
  };
  auto WithIndex = [&](const char *Name, GroupArg Arg, uint32_t IndexId) {
    GroupArg Index = groupIndex(IndexId, 32);
    defineGroupResult(
        I[0], I[1],
        groupCall(mangle(Name, {Arg.TypeId, Index.TypeId}, {1, 0}),
                  Arg.V->getType(), {Arg.V, Index.V}));
  };
  switch (I.Opcode) {
  case Op::OpGroupAll:
  case Op::OpGroupAny: {
    const bool Subgroup = isSubgroupScope(I, I[2], false);
    std::string Name = Subgroup ? "sub_group_" : "work_group_";
    Name += I.Opcode == Op::OpGroupAll ? "all" : "any";
    Unary(Name.c_str(), groupOperand(I[3]), B.getInt32Ty());
    return true;
  }
  case Op::OpGroupBroadcast:
    groupBroadcast(I);
    return true;
  case Op::OpGroupNonUniformElect:
    isSubgroupScope(I, I[2], true);
    defineGroupResult(I[0], I[1],
                      groupCall("_Z15sub_group_electv", B.getInt32Ty(), {}));
    return true;
  case Op::OpGroupNonUniformAll:
  case Op::OpGroupNonUniformAny:
    isSubgroupScope(I, I[2], true);
    Unary(I.Opcode == Op::OpGroupNonUniformAll ? "sub_group_non_uniform_all"
                                               : "sub_group_non_uniform_any",
          groupOperand(I[3]), B.getInt32Ty());
    return true;
  case Op::OpGroupNonUniformAllEqual:
    isSubgroupScope(I, I[2], true);
    Unary("sub_group_non_uniform_all_equal", groupOperand(I[3]),
          B.getInt32Ty());
    return true;
  case Op::OpGroupNonUniformBroadcast:
    isSubgroupScope(I, I[2], true);
    WithIndex("sub_group_non_uniform_broadcast", groupOperand(I[3]), I[4]);
    return true;
  case Op::OpGroupNonUniformBroadcastFirst: {
    isSubgroupScope(I, I[2], true);
    GroupArg Value = groupOperand(I[3]);
    Unary("sub_group_broadcast_first", Value, Value.V->getType());
    return true;
  }
  case Op::OpGroupNonUniformBallot:
    isSubgroupScope(I, I[2], true);
    Unary("sub_group_ballot", groupOperand(I[3]),
          llvm::FixedVectorType::get(B.getInt32Ty(), 4));
    return true;
  case Op::OpGroupNonUniformInverseBallot:
    isSubgroupScope(I, I[2], true);
    Unary("sub_group_inverse_ballot", Ballot(I[3]), B.getInt32Ty(), 0);
    return true;
  case Op::OpGroupNonUniformBallotBitExtract: {
    isSubgroupScope(I, I[2], true);
    GroupArg Mask = Ballot(I[3]), Index = groupIndex(I[4], 32);
    defineGroupResult(I[0], I[1],
                      groupCall(mangle("sub_group_ballot_bit_extract",
                                       {Mask.TypeId, Index.TypeId}, {0, 0}),
                                B.getInt32Ty(), {Mask.V, Index.V}));
    return true;
  }
  case Op::OpGroupNonUniformBallotBitCount: {
    isSubgroupScope(I, I[2], true);
    const auto Operation = static_cast<spv::GroupOperation>(I[3]);
    const char *Name = Operation == spv::GroupOperation::Reduce
                           ? "sub_group_ballot_bit_count"
                       : Operation == spv::GroupOperation::InclusiveScan
                           ? "sub_group_ballot_inclusive_scan"
                       : Operation == spv::GroupOperation::ExclusiveScan
                           ? "sub_group_ballot_exclusive_scan"
                           : nullptr;
    if (!Name)
      fail("OpGroupNonUniformBallotBitCount with group operation " +
           std::to_string(I[3]) + " is not supported");
    Unary(Name, Ballot(I[4]), B.getInt32Ty(), 0);
    return true;
  }
  case Op::OpGroupNonUniformBallotFindLSB:
  case Op::OpGroupNonUniformBallotFindMSB:
    isSubgroupScope(I, I[2], true);
    Unary(I.Opcode == Op::OpGroupNonUniformBallotFindLSB
              ? "sub_group_ballot_find_lsb"
              : "sub_group_ballot_find_msb",
          Ballot(I[3]), B.getInt32Ty(), 0);
    return true;
  case Op::OpGroupNonUniformShuffle:
  case Op::OpGroupNonUniformShuffleXor:
  case Op::OpGroupNonUniformShuffleUp:
  case Op::OpGroupNonUniformShuffleDown: {
    isSubgroupScope(I, I[2], true);
    const char *Name =
        I.Opcode == Op::OpGroupNonUniformShuffle      ? "sub_group_shuffle"
        : I.Opcode == Op::OpGroupNonUniformShuffleXor ? "sub_group_shuffle_xor"
        : I.Opcode == Op::OpGroupNonUniformShuffleUp  ? "sub_group_shuffle_up"
                                                     : "sub_group_shuffle_down";
    WithIndex(Name, groupOperand(I[3]), I[4]);
    return true;
  }
  case Op::OpSubgroupShuffleINTEL:
    WithIndex("intel_sub_group_shuffle", groupOperand(I[2]), I[3]);
    return true;
  case Op::OpSubgroupShuffleXorINTEL:
    WithIndex("intel_sub_group_shuffle_xor", groupOperand(I[2]), I[3]);
    return true;
  case Op::OpSubgroupShuffleDownINTEL:
  case Op::OpSubgroupShuffleUpINTEL: {
    // (current, next, delta) and (previous, current, delta).
    GroupArg First = groupOperand(I[2]), Second = groupOperand(I[3]);
    GroupArg Delta = groupIndex(I[4], 32);
    if (First.V->getType() != Second.V->getType())
      fail(spirvOpcodeName(static_cast<uint32_t>(I.Opcode)) +
           " of values of different types");
    const char *Name = I.Opcode == Op::OpSubgroupShuffleDownINTEL
                           ? "intel_sub_group_shuffle_down"
                           : "intel_sub_group_shuffle_up";
    defineGroupResult(
        I[0], I[1],
        groupCall(mangle(Name, {First.TypeId, Second.TypeId, Delta.TypeId},
                         {1, 1, 0}),
                  First.V->getType(), {First.V, Second.V, Delta.V}));
    return true;
  }
  case Op::OpSubgroupBlockReadINTEL:
  case Op::OpSubgroupBlockWriteINTEL:
    subgroupBlockAccess(I);
    return true;
  default:
    return false;
  }
}

} // namespace kc::spirv
