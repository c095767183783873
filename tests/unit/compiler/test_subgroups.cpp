// Sub-groups in the compiler (Passes/SubGroups.cpp, builtins/subgroups.cl,
// builtins/subgroups_non_uniform.cl): the sub-group size each kernel is
// compiled for, that a kernel whose sub-groups all run alike still
// vectorizes across work-items around a reduction (a non-uniform one too),
// and the results of a few collectives run directly (local sizes that are
// not multiples of the sub-group size, 2D groups, a branch that some
// work-items of a sub-group take).
#include "Binary/ModuleImpl.h"
#include "CodeGen/CodeGen.h"
#include "compiler_test.hpp"

#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include <algorithm>

namespace {

kc::DeviceTarget subGroupTarget(unsigned SubGroupSize) {
    kc::DeviceTarget Target = kctest::cpuTarget();
    for (const char* E :
         {"cl_khr_subgroups", "cl_intel_subgroups", "cl_intel_required_subgroup_size",
          "cl_khr_subgroup_shuffle", "cl_khr_subgroup_shuffle_relative",
          "cl_khr_subgroup_extended_types", "cl_khr_subgroup_non_uniform_arithmetic"})
        Target.Extensions.push_back(E);
    Target.OpenCLCFeatures.push_back("__opencl_c_subgroups");
    Target.SubGroupSize = SubGroupSize;
    return Target;
}

std::unique_ptr<kc::Module> buildFor(unsigned SubGroupSize, const std::string& Source) {
    kc::Compiler C(subGroupTarget(SubGroupSize));
    kc::BuildResult R = C.build(Source, "-cl-std=CL3.0");
    INFO(R.Log);
    REQUIRE(R.Output);
    return std::move(R.Output);
}

struct VectorUse {
    unsigned Widest = 1;     // the widest vector of floats produced or stored
    unsigned VectorAdds = 0; // fadd instructions on vectors of floats
    // The library's out-of-line reduction of whole sub-groups: calls of it
    // in the work-group function, fadd instructions on vectors in it.
    unsigned OutOfLineCalls = 0;
    unsigned OutOfLineVectorAdds = 0;
};

constexpr llvm::StringLiteral OutOfLineReduce = "__kc_outline_sg_reduce_add_float";

unsigned vectorAdds(const llvm::Function& F) {
    unsigned Adds = 0;
    for (const llvm::BasicBlock& BB : F)
        for (const llvm::Instruction& I : BB)
            Adds += I.getOpcode() == llvm::Instruction::FAdd && I.getType()->isVectorTy();
    return Adds;
}

// Whether BB ends a loop the loop vectorizer made.
bool isVectorLoopLatch(const llvm::BasicBlock& BB) {
    const llvm::MDNode* Loop = BB.getTerminator()->getMetadata(llvm::LLVMContext::MD_loop);
    if (!Loop)
        return false;
    for (const llvm::MDOperand& Op : Loop->operands())
        if (const auto* Node = llvm::dyn_cast_or_null<llvm::MDNode>(Op.get()))
            if (Node->getNumOperands() > 0)
                if (const auto* Name = llvm::dyn_cast_or_null<llvm::MDString>(Node->getOperand(0)))
                    if (Name->getString() == "llvm.loop.isvectorized")
                        return true;
    return false;
}

unsigned callsOf(const llvm::Function& F, llvm::StringRef Callee) {
    unsigned Calls = 0;
    for (const llvm::BasicBlock& BB : F)
        for (const llvm::Instruction& I : BB)
            if (const auto* Call = llvm::dyn_cast<llvm::CallInst>(&I))
                if (const llvm::Function* Target = Call->getCalledFunction())
                    Calls += Target->getName().starts_with(Callee);
    return Calls;
}

// How the work-group function of the host-optimized IR uses float vectors.
VectorUse floatVectors(const kc::Module& M, const std::string& Kernel) {
    llvm::LLVMContext Context;
    Context.setDiagnosticHandlerCallBack([](const llvm::DiagnosticInfo*, void*) {}, nullptr);
    std::string Error;
    std::unique_ptr<llvm::Module> IR = kc::optimizeForHost(static_cast<const kc::ModuleImpl&>(M),
                                                           kctest::avx512Host(), Context, Error);
    INFO(Error);
    REQUIRE(IR);
    llvm::Function* WG = IR->getFunction(Kernel + "_wg");
    REQUIRE(WG);
    VectorUse Use;
    auto Consider = [&](llvm::Type* Ty) {
        if (auto* V = llvm::dyn_cast<llvm::FixedVectorType>(Ty))
            if (V->getElementType()->isFloatTy())
                Use.Widest = std::max(Use.Widest, static_cast<unsigned>(V->getNumElements()));
    };
    for (llvm::BasicBlock& BB : *WG)
        for (llvm::Instruction& I : BB) {
            Consider(I.getType());
            if (auto* Store = llvm::dyn_cast<llvm::StoreInst>(&I))
                Consider(Store->getValueOperand()->getType());
            if (I.getOpcode() == llvm::Instruction::FAdd && I.getType()->isVectorTy())
                ++Use.VectorAdds;
        }
    Use.OutOfLineCalls = callsOf(*WG, OutOfLineReduce);
    for (const llvm::Function& F : *IR)
        if (F.getName().starts_with(OutOfLineReduce))
            Use.OutOfLineVectorAdds += vectorAdds(F);
    return Use;
}

const char* const ReduceSource = R"CL(
kernel void reduce(global const float *in, global float *out) {
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    float x = in[i] * 2.0f + 1.0f;
    float s = sub_group_reduce_add(x);
    out[i] = s * 0.5f + x;
}
)CL";

} // namespace

TEST_CASE("each kernel is compiled for its sub-group size", "[compiler][subgroups]") {
    std::unique_ptr<kc::Module> M = buildFor(16, R"CL(
kernel void plain(global int *p) { p[0] = get_sub_group_size(); }
__attribute__((intel_reqd_sub_group_size(4)))
kernel void four(global int *p) { p[0] = get_sub_group_size(); }
)CL");
    CHECK(kctest::kernel(*M, "plain").SubGroupSize == 16);
    CHECK(kctest::kernel(*M, "plain").ReqdSubGroupSize == 0);
    CHECK(kctest::kernel(*M, "four").SubGroupSize == 4);
    CHECK(kctest::kernel(*M, "four").ReqdSubGroupSize == 4);
    CHECK(kctest::kernel(*M, "four").Attributes == "intel_reqd_sub_group_size(4)");
    // Kept in the binary.
    std::string Error;
    std::unique_ptr<kc::Module> Copy = kc::moduleFromBinary(M->toBinary(), Error);
    INFO(Error);
    REQUIRE(Copy);
    CHECK(kctest::kernel(*Copy, "four").SubGroupSize == 4);
    CHECK(kctest::kernel(*Copy, "four").ReqdSubGroupSize == 4);

    kc::Compiler C(subGroupTarget(8));
    kc::BuildResult Bad = C.build(
        "__attribute__((intel_reqd_sub_group_size(12))) kernel void k(global int *p) { p[0] = 1; }",
        "");
    CHECK(!Bad.Output);
    CHECK(Bad.Log.find("intel_reqd_sub_group_size(12)") != std::string::npos);
}

TEST_CASE("a kernel with a sub-group reduction still vectorizes across work-items",
          "[compiler][subgroups]") {
    for (unsigned Size : {8u, 16u}) {
        INFO("sub-group size " << Size);
        std::unique_ptr<kc::Module> M = buildFor(Size, ReduceSource);
        const VectorUse Use = floatVectors(*M, "reduce");
        CHECK(Use.Widest >= 8);
        // The reduction of a whole sub-group runs on a vector of its slots,
        // halves added level by level (Size 8: 4- and 2-wide additions),
        // in the library's function that stays a call.
        CHECK(Use.OutOfLineCalls >= 1);
        CHECK(Use.OutOfLineVectorAdds >= (Size == 8 ? 2u : 3u));
    }
    // The same kernel without the reduction, for comparison: the work-item
    // loop the reduction cuts in two vectorizes as wide.
    std::unique_ptr<kc::Module> Plain = buildFor(8, R"CL(
kernel void reduce(global const float *in, global float *out) {
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    float x = in[i] * 2.0f + 1.0f;
    out[i] = x * 0.5f + x;
}
)CL");
    CHECK(floatVectors(*Plain, "reduce").Widest >= 8);
}

TEST_CASE("a sub-group reduction over partial sub-groups and 2D groups", "[compiler][subgroups]") {
    struct Shape {
        uint64_t GX, GY;
        std::vector<std::array<uint64_t, 3>> Locals;
    };
    // x sizes that are not multiples of the sub-group size (sub-groups that
    // span rows, partial ones), and x sizes that are (the nests with a loop
    // per sub-group).
    const Shape Shapes[] = {
        {30, 6, {{30, 1, 1}, {15, 2, 1}, {5, 3, 1}, {3, 6, 1}, {1, 1, 1}}},
        {32, 6, {{32, 1, 1}, {16, 2, 1}, {16, 3, 1}, {8, 6, 1}, {4, 3, 1}}},
    };
    for (unsigned Size : {4u, 8u, 16u}) {
        std::unique_ptr<kc::Module> M = buildFor(Size, ReduceSource);
        std::unique_ptr<kc::NativeProgram> P = kctest::jit(*M);
        const kc::KernelInfo& K = kctest::kernel(*M, "reduce");
        for (const Shape& S : Shapes) {
            const uint64_t GX = S.GX, GY = S.GY;
            std::vector<float> In(GX * GY);
            for (size_t I = 0; I < In.size(); ++I)
                In[I] = static_cast<float>(static_cast<int>(I % 11) - 5);
            for (std::array<uint64_t, 3> Local : S.Locals) {
                std::vector<float> Out(In.size(), -1.0f);
                kctest::ArgBuffer Args(K);
                Args.set(0, In.data()).set(1, Out.data());
                kctest::runNDRange(P->lookup("reduce"), Args, 2, {GX, GY, 1}, Local);
                size_t Wrong = 0;
                for (uint64_t BY = 0; BY < GY; BY += Local[1])
                    for (uint64_t BX = 0; BX < GX; BX += Local[0]) {
                        std::vector<size_t> Linear; // global indices, local linear order
                        for (uint64_t Y = 0; Y < Local[1]; ++Y)
                            for (uint64_t X = 0; X < Local[0]; ++X)
                                Linear.push_back((BY + Y) * GX + BX + X);
                        for (size_t L = 0; L < Linear.size(); ++L) {
                            const size_t First = L - L % Size;
                            const size_t End = std::min<size_t>(First + Size, Linear.size());
                            float Sum = 0.0f;
                            for (size_t J = First; J < End; ++J)
                                Sum += In[Linear[J]] * 2.0f + 1.0f;
                            const float X = In[Linear[L]] * 2.0f + 1.0f;
                            Wrong += Out[Linear[L]] != Sum * 0.5f + X;
                        }
                    }
                INFO("sub-group size " << Size << ", global " << GX << "x" << GY << ", local "
                                       << Local[0] << "x" << Local[1]);
                CHECK(Wrong == 0);
            }
        }
    }
}

TEST_CASE("where sub-groups fit the rows, a reduction reads its slots without gathers",
          "[compiler][subgroups]") {
    // The work-group size makes the choice between the nests constant:
    // only one with a loop per sub-group is left (x a multiple of the
    // sub-group size, or a single row whose last sub-group is partial).
    // There the sub-group's slots and size are the same in every iteration
    // of the vectorized loop: the reduction runs once per sub-group, where
    // the nest without sub-group loops runs it for every work-item.
    for (const char* Size : {"64, 1, 1", "16, 4, 1", "200, 1, 1"}) {
        INFO("reqd_work_group_size(" << Size << ")");
        std::unique_ptr<kc::Module> M = buildFor(16, std::string(R"CL(
__attribute__((reqd_work_group_size()CL") + Size + R"CL()))
kernel void reduce(global const float *in, global float *out) {
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    float s = sub_group_reduce_add(in[i]);
    if (get_sub_group_local_id() == 0)
        out[get_group_id(0) * get_num_sub_groups() + get_sub_group_id()] = s;
}
)CL");
        llvm::LLVMContext Context;
        Context.setDiagnosticHandlerCallBack([](const llvm::DiagnosticInfo*, void*) {}, nullptr);
        std::string Error;
        std::unique_ptr<llvm::Module> IR = kc::optimizeForHost(
            static_cast<const kc::ModuleImpl&>(*M), kctest::avx512Host(), Context, Error);
        INFO(Error);
        REQUIRE(IR);
        llvm::Function* WG = IR->getFunction("reduce_wg");
        REQUIRE(WG);
        CHECK(callsOf(*WG, "llvm.masked.gather") == 0);
        // Whole sub-groups: the library's tree on vectors, called outside
        // the vectorized loop (a call in it would keep it scalar).
        CHECK(callsOf(*WG, OutOfLineReduce) >= 1);
        unsigned VectorLoops = 0;
        for (llvm::BasicBlock& BB : *WG) {
            if (!isVectorLoopLatch(BB))
                continue;
            ++VectorLoops;
            INFO("vector loop latch " << BB.getName().str());
            for (const llvm::Instruction& I : BB)
                if (const auto* Call = llvm::dyn_cast<llvm::CallInst>(&I))
                    CHECK(!Call->getCalledFunction()->getName().starts_with(OutOfLineReduce));
        }
        CHECK(VectorLoops >= 1);
    }
}

TEST_CASE("a non-uniform reduction that every work-item reaches vectorizes across work-items",
          "[compiler][subgroups]") {
    for (unsigned Size : {8u, 16u}) {
        INFO("sub-group size " << Size);
        std::unique_ptr<kc::Module> M = buildFor(Size, R"CL(
kernel void reduce(global const float *in, global float *out) {
    size_t i = get_global_id(1) * get_global_size(0) + get_global_id(0);
    float x = in[i] * 2.0f + 1.0f;
    float s = sub_group_non_uniform_reduce_add(x);
    out[i] = s * 0.5f + x;
}
)CL");
        CHECK(floatVectors(*M, "reduce").Widest >= 8);
    }
}

TEST_CASE("a non-uniform scan in a branch combines the work-items that take it",
          "[compiler][subgroups]") {
    // Lanes whose input is positive take the branch; the others keep -1.
    const char* const Source = R"CL(
kernel void scan(global const int *in, global int *out) {
    size_t i = get_global_id(0);
    int x = in[i];
    if (x > 0)
        out[i] = sub_group_non_uniform_scan_inclusive_add(x);
}
)CL";
    const uint64_t N = 60;
    std::vector<int> In(N);
    for (size_t I = 0; I < N; ++I)
        In[I] = static_cast<int>((I * 7) % 5) - 1; // -1, 0 and 1 to 3
    for (unsigned Size : {4u, 8u, 16u}) {
        std::unique_ptr<kc::Module> M = buildFor(Size, Source);
        std::unique_ptr<kc::NativeProgram> P = kctest::jit(*M);
        const kc::KernelInfo& K = kctest::kernel(*M, "scan");
        for (uint64_t Local : {60u, 20u, 12u}) {
            std::vector<int> Out(N, -1);
            kctest::ArgBuffer Args(K);
            Args.set(0, In.data()).set(1, Out.data());
            kctest::runNDRange(P->lookup("scan"), Args, 1, {N, 1, 1}, {Local, 1, 1});
            size_t Wrong = 0;
            for (uint64_t Group = 0; Group < N; Group += Local) {
                const uint64_t End = std::min(Group + Local, N);
                for (uint64_t First = Group; First < End; First += Size) {
                    int Sum = 0;
                    for (uint64_t I = First; I < std::min<uint64_t>(First + Size, End); ++I) {
                        const int Want = In[I] > 0 ? (Sum += In[I]) : -1;
                        Wrong += Out[I] != Want;
                    }
                }
            }
            INFO("sub-group size " << Size << ", local size " << Local);
            CHECK(Wrong == 0);
        }
    }
}
