//===- Spirv/SpirvControlFlow.cpp - Branches, calls, barriers -------------===//
//
// Phis, branches, switches, loop controls, returns, function calls,
// barriers and the hints of SPV_KHR_expect_assume.
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Module.h>

namespace kc::spirv {

using spv::Op;

bool Builder::translateControl(const Instruction &I) {
  switch (I.Opcode) {
  case Op::OpPhi: {
    llvm::PHINode *Phi = B.CreatePHI(llvmType(I[0]), unsigned(I.size() / 2));
    Phis.push_back({Phi, &I});
    define(I[1], I[0], Phi);
    return true;
  }
  case Op::OpBranch:
    B.CreateBr(block(I[0]));
    return true;
  case Op::OpBranchConditional: {
    if (!value(I[0])->getType()->isIntegerTy(1))
      fail("OpBranchConditional on a value that is not a boolean");
    llvm::BranchInst *Br =
        B.CreateCondBr(value(I[0]), block(I[1]), block(I[2]));
    if (I.size() == 5 && (I[3] || I[4]))
      Br->setMetadata(llvm::LLVMContext::MD_prof,
                      llvm::MDBuilder(C).createBranchWeights(I[3], I[4]));
    return true;
  }
  case Op::OpSwitch: {
    llvm::Value *Selector = value(I[0]);
    if (!Selector->getType()->isIntegerTy())
      fail("OpSwitch on a value that is not an integer");
    const unsigned Width = Selector->getType()->getIntegerBitWidth();
    const size_t Step = Width > 32 ? 3 : 2;
    llvm::SwitchInst *S = B.CreateSwitch(Selector, block(I[1]));
    for (size_t At = 2; At + Step - 1 < I.size(); At += Step) {
      uint64_t Literal = I[At];
      if (Step == 3)
        Literal |= uint64_t(I[At + 1]) << 32;
      S->addCase(
          llvm::ConstantInt::get(
              llvm::cast<llvm::IntegerType>(Selector->getType()), Literal),
          block(I[At + Step - 1]));
    }
    return true;
  }
  case Op::OpReturn:
    B.CreateRetVoid();
    return true;
  case Op::OpReturnValue:
    B.CreateRet(value(I[0]));
    return true;
  case Op::OpUnreachable:
    B.CreateUnreachable();
    return true;
  case Op::OpLoopMerge:
    if (I[2] & 0x3)
      LoopControls.push_back({I[1], I[2]});
    return true;
  case Op::OpSelectionMerge:
  case Op::OpLine:
  case Op::OpNoLine:
  case Op::OpNop:
    return true;
  case Op::OpFunctionCall: {
    auto It = Functions.find(I[2]);
    if (It == Functions.end())
      fail("OpFunctionCall of an id that is not a function");
    std::vector<llvm::Value *> Args;
    for (size_t At = 3; At < I.size(); ++At)
      Args.push_back(value(I[At]));
    llvm::Function *Callee = It->second;
    if (Args.size() != Callee->arg_size())
      fail("OpFunctionCall with the wrong number of arguments");
    for (size_t A = 0; A < Args.size(); ++A)
      if (Args[A]->getType() != Callee->getArg(unsigned(A))->getType())
        fail("OpFunctionCall with an argument of the wrong type");
    llvm::CallInst *Call = B.CreateCall(Callee, Args);
    Call->setCallingConv(Callee->getCallingConv());
    Call->setConvergent();
    define(I[1], I[0], Call);
    return true;
  }
  case Op::OpControlBarrier: {
    const uint32_t Semantics = static_cast<uint32_t>(constantInt(I[2]));
    uint32_t Flags = 0;
    if (Semantics & 0x100)
      Flags |= 1; // CLK_LOCAL_MEM_FENCE
    if (Semantics & 0x200)
      Flags |= 2; // CLK_GLOBAL_MEM_FENCE
    if (Semantics & 0x800)
      Flags |= 4; // CLK_IMAGE_MEM_FENCE
    // Convergent, as Clang declares it: no transform may make a barrier
    // depend on a condition (jump threading would copy it into branches).
    // Execution scope Subgroup (3): sub_group_barrier.
    const bool Subgroup = constantInt(I[0]) == 3;
    auto *Barrier = llvm::cast<llvm::CallInst>(
        call(Subgroup ? "_Z17sub_group_barrierj" : "_Z7barrierj", B.getVoidTy(),
             {B.getInt32(Flags)}));
    Barrier->getCalledFunction()->setConvergent();
    Barrier->setConvergent();
    return true;
  }
  case Op::OpMemoryBarrier:
    if (constantInt(I[1]) & 0x1f)
      B.CreateFence(llvm::AtomicOrdering::SequentiallyConsistent);
    return true;
  case Op::OpExpectKHR:
    if (integer(I[2])->getType() != integer(I[3])->getType() ||
        value(I[2])->getType() != llvmType(I[0]))
      fail("OpExpectKHR of operands of the wrong types");
    define(I[1], I[0],
           B.CreateIntrinsic(llvm::Intrinsic::expect, {llvmType(I[0])},
                             {value(I[2]), value(I[3])}));
    return true;
  case Op::OpAssumeTrueKHR:
    if (!value(I[0])->getType()->isIntegerTy(1))
      fail("OpAssumeTrueKHR of a value that is not a boolean");
    B.CreateAssumption(value(I[0]));
    return true;
  default:
    return false;
  }
}

} // namespace kc::spirv
