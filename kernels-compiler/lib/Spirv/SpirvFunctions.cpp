//===- Spirv/SpirvFunctions.cpp - Functions and their blocks --------------===//
//
// Functions declared (calls may precede definitions) and defined, their
// blocks in reverse post-order of the CFG.
//
//===----------------------------------------------------------------------===//
#include "Spirv/SpirvBuilder.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/MDBuilder.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <algorithm>

namespace kc::spirv {

using spv::Op;

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

} // namespace kc::spirv
