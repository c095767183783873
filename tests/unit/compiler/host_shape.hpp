// What the host pipeline (kc::optimizeForHost) made of a kernel's work-group
// function: whether a loop was vectorized, and how wide its vectors are.
#pragma once

#include "Binary/ModuleImpl.h"
#include "CodeGen/CodeGen.h"
#include "compiler_test.hpp"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <string>

namespace kctest {

struct Shape {
    bool VectorizedLoop = false; // a loop with llvm.loop.isvectorized
    unsigned WidestVector = 0;   // lanes of the widest vector-typed value
};

inline Shape hostShape(const std::string& Source, const std::string& Kernel) {
    std::unique_ptr<kc::Module> M = build(Source);
    llvm::LLVMContext Context;
    Context.setDiagnosticHandlerCallBack([](const llvm::DiagnosticInfo*, void*) {}, nullptr);
    std::string Error;
    std::unique_ptr<llvm::Module> IR = kc::optimizeForHost(static_cast<const kc::ModuleImpl&>(*M),
                                                           kc::detectHostTarget(), Context, Error);
    INFO(Error);
    REQUIRE(IR);
    const llvm::Function* F = IR->getFunction(Kernel + "_wg");
    REQUIRE(F);
    Shape S;
    for (const llvm::BasicBlock& BB : *F)
        for (const llvm::Instruction& I : BB) {
            if (const auto* VT = llvm::dyn_cast<llvm::FixedVectorType>(I.getType()))
                S.WidestVector = std::max(S.WidestVector, VT->getNumElements());
            const llvm::MDNode* Loop = I.getMetadata(llvm::LLVMContext::MD_loop);
            if (!Loop)
                continue;
            for (const llvm::MDOperand& Operand : Loop->operands())
                if (const auto* Node = llvm::dyn_cast<llvm::MDNode>(Operand))
                    if (Node->getNumOperands() > 0)
                        if (const auto* Name = llvm::dyn_cast<llvm::MDString>(Node->getOperand(0)))
                            S.VectorizedLoop |= Name->getString() == "llvm.loop.isvectorized";
        }
    return S;
}

} // namespace kctest
