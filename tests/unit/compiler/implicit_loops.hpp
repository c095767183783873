// Helpers of the tests of loops with work-item loops inside them
// (Passes/ImplicitLoopBarriers.cpp): which kernels the pass chose, and runs
// of a kernel over every local size against a host reference.
#pragma once

#include "Binary/ModuleImpl.h"
#include "compiler_test.hpp"

#include <llvm/IR/Function.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <functional>

namespace kctest {

// Whether the work-group function of Kernel has the attribute Attribute.
inline bool hasAttribute(const kc::Module& M, const std::string& Kernel,
                         const std::string& Attribute) {
    llvm::LLVMContext Context;
    std::string Error;
    std::unique_ptr<llvm::Module> IR = static_cast<const kc::ModuleImpl&>(M).load(Context, Error);
    INFO(Error);
    REQUIRE(IR);
    const llvm::Function* WG = IR->getFunction(Kernel + "_wg");
    REQUIRE(WG);
    return WG->hasFnAttribute(Attribute);
}

// Whether the work-group function of Kernel got implicit loop barriers.
inline bool chosen(const kc::Module& M, const std::string& Kernel) {
    return hasAttribute(M, Kernel, "kc-implicit-loop-barriers");
}

// Whether some of them are at loops work-items may run differently.
inline bool divergent(const kc::Module& M, const std::string& Kernel) {
    return hasAttribute(M, Kernel, "kc-divergent-barriers");
}

struct Program {
    std::unique_ptr<kc::Module> M;
    std::unique_ptr<kc::NativeProgram> P;
    explicit Program(const std::string& Source, const std::string& Options = "")
        : M(kctest::build(Source, Options)), P(kctest::jit(*M)) {}
    const kc::KernelInfo& info(const std::string& Name) const { return kctest::kernel(*M, Name); }
};

// Runs a 1D kernel (out, in, n) over Global work-items for every local
// size, and compares out with Expected(gid, in, n).
inline void
checkOneDimensional(const Program& P, const std::string& Name, int N, uint64_t Global,
                    const std::function<int(int, const std::vector<int>&, int)>& Expected) {
    const kc::KernelInfo& K = P.info(Name);
    std::vector<int> In(std::max<uint64_t>(Global, static_cast<uint64_t>(N)) + 64);
    for (size_t I = 0; I < In.size(); ++I)
        In[I] = static_cast<int>((I * 7919) % 23) - 11;
    for (uint64_t Local : {1, 3, 16, 64, 100}) {
        std::vector<int> Out(Global, -7);
        kctest::ArgBuffer Args(K);
        Args.set(0, Out.data()).set(1, In.data()).set(2, N);
        kctest::runNDRange(P.P->lookup(Name), Args, 1, {Global, 1, 1}, {Local, 1, 1});
        for (uint64_t G = 0; G < Global; ++G) {
            INFO(Name << ": local size " << Local << ", work-item " << G);
            REQUIRE(Out[G] == Expected(static_cast<int>(G), In, N));
        }
    }
}

} // namespace kctest
