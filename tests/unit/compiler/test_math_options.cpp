// The math options in the executable module: fast-math flags on the
// kernel's own instructions, none on the builtins inlined into it, and no
// function-level fast-math attributes (the code generator would apply those
// to the builtins too). rsqrt(float) in the library is 1.0f / sqrt(x): with
// the options as function attributes, code generation for CPUs that have a
// reciprocal square root estimate replaced it by one (2.03 ulp); this checks
// the module whatever the host CPU.
#include "Binary/ModuleImpl.h"
#include "compiler_test.hpp"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/IntrinsicInst.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

namespace {

constexpr const char* FastMathAttributes[] = {"unsafe-fp-math",          "no-infs-fp-math",
                                              "no-nans-fp-math",         "approx-func-fp-math",
                                              "no-signed-zeros-fp-math", "less-precise-fpmad"};

// The kernel divides by b itself (a division of the user's) and calls rsqrt
// (a division of 1 by a square root, the library's).
constexpr const char* Source = R"CL(
kernel void k(global const float *a, global const float *b, global float *out) {
    size_t i = get_global_id(0);
    out[i] = a[i] / b[i] + rsqrt(a[i]);
}
)CL";

struct Divisions {
    int User = 0;    // x / y with arcp
    int Library = 0; // 1 / sqrt(x) without arcp
    int Other = 0;
};

Divisions checkModule(const kc::Module& M) {
    llvm::LLVMContext Context;
    std::string Error;
    std::unique_ptr<llvm::Module> IR = static_cast<const kc::ModuleImpl&>(M).load(Context, Error);
    INFO(Error);
    REQUIRE(IR);
    const llvm::Function* WG = IR->getFunction("k_wg");
    REQUIRE(WG);
    for (const char* Name : FastMathAttributes) {
        INFO(Name);
        CHECK_FALSE(WG->hasFnAttribute(Name));
    }
    Divisions D;
    for (const llvm::BasicBlock& BB : *WG)
        for (const llvm::Instruction& I : BB) {
            if (I.getOpcode() != llvm::Instruction::FDiv)
                continue;
            const auto* Root = llvm::dyn_cast<llvm::IntrinsicInst>(I.getOperand(1));
            if (Root && Root->getIntrinsicID() == llvm::Intrinsic::sqrt)
                (I.hasAllowReciprocal() || Root->hasApproxFunc() ? D.Other : D.Library)++;
            else
                (I.hasAllowReciprocal() ? D.User : D.Other)++;
        }
    return D;
}

} // namespace

TEST_CASE("relaxed math options stay on the kernel's own instructions", "[compiler][math]") {
    SECTION("built with the options") {
        for (const char* Options : {"-cl-fast-relaxed-math", "-cl-unsafe-math-optimizations"}) {
            INFO(Options);
            std::unique_ptr<kc::Module> M = kctest::build(Source, Options);
            Divisions D = checkModule(*M);
            CHECK(D.User >= 1);
            CHECK(D.Library >= 1);
            CHECK(D.Other == 0);
        }
    }
    SECTION("an object compiled without them, linked with -cl-fast-relaxed-math") {
        std::unique_ptr<kc::Module> Linked =
            kctest::compileAndLink(Source, "-cl-fast-relaxed-math");
        Divisions D = checkModule(*Linked);
        CHECK(D.User >= 1);
        CHECK(D.Library >= 1);
        CHECK(D.Other == 0);
    }
    SECTION("without the options nothing is relaxed") {
        std::unique_ptr<kc::Module> M = kctest::build(Source, "");
        Divisions D = checkModule(*M);
        CHECK(D.User == 0);
        CHECK(D.Library >= 1);
    }
}

// Half divisions keep no reciprocal flag: with AVX512-FP16 one allowed a
// reciprocal becomes vrcpph and a multiply, and 0 / 2^-24 was NaN (2^24
// overflows half). The other relaxed flags stay, and float keeps them all.
TEST_CASE("relaxed half divisions are divisions", "[compiler][math]") {
    const char* HalfSource = R"CL(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void k(global const half *a, global const half *b, global const float *c,
              global half *out, global float *f) {
    size_t i = get_global_id(0);
    out[i] = a[i] / b[i];
    f[i] = c[i] / (float)i;
}
)CL";
    auto check = [](const kc::Module& M) {
        llvm::LLVMContext Context;
        std::string Error;
        std::unique_ptr<llvm::Module> IR =
            static_cast<const kc::ModuleImpl&>(M).load(Context, Error);
        INFO(Error);
        REQUIRE(IR);
        const llvm::Function* WG = IR->getFunction("k_wg");
        REQUIRE(WG);
        int Half = 0, Float = 0;
        for (const llvm::BasicBlock& BB : *WG)
            for (const llvm::Instruction& I : BB) {
                if (I.getOpcode() != llvm::Instruction::FDiv)
                    continue;
                if (I.getType()->getScalarType()->isHalfTy()) {
                    ++Half;
                    CHECK_FALSE(I.hasAllowReciprocal());
                    CHECK(I.hasAllowReassoc());
                } else {
                    ++Float;
                    CHECK(I.hasAllowReciprocal());
                }
            }
        CHECK(Half >= 1);
        CHECK(Float >= 1);
    };
    kc::DeviceTarget Target = kctest::cpuTarget();
    Target.Extensions.push_back("cl_khr_fp16");
    Target.OpenCLCFeatures.push_back("__opencl_c_fp16");
    const kc::Compiler C(Target);
    for (const char* Options : {"-cl-fast-relaxed-math", "-cl-unsafe-math-optimizations"}) {
        INFO(Options);
        kc::BuildResult R = C.build(HalfSource, Options);
        INFO(R.Log);
        REQUIRE(R.Output);
        check(*R.Output);
    }
}
