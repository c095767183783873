// Kernels written with float8/float16 vectorize across work-items
// (Passes/ScalarizeVectorTypes.cpp): the host-optimized IR of their
// work-group functions has a vectorized loop, a kernel whose loop cannot
// vectorize keeps its vector types, and the results match host references.
#include "Binary/ModuleImpl.h"
#include "CodeGen/CodeGen.h"
#include "compiler_test.hpp"
#include "host_shape.hpp"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Function.h>
#include <llvm/IR/Instructions.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Metadata.h>
#include <llvm/IR/Module.h>

#include <algorithm>
#include <cstdlib>

namespace {

using kctest::hostShape;
using kctest::Shape;

// Floats aligned as an OpenCL buffer is: the kernels load float8 and float16
// with aligned vector instructions.
class AlignedFloats {
public:
    explicit AlignedFloats(size_t Count, float Value = 0)
        : Count(Count), Data(static_cast<float*>(
                            std::aligned_alloc(64, (Count * sizeof(float) + 63) / 64 * 64))) {
        REQUIRE(Data);
        std::fill(Data, Data + Count, Value);
    }
    ~AlignedFloats() { std::free(Data); }
    AlignedFloats(const AlignedFloats&) = delete;
    AlignedFloats& operator=(const AlignedFloats&) = delete;

    size_t size() const { return Count; }
    float* data() { return Data; }
    float& operator[](size_t I) { return Data[I]; }

private:
    size_t Count;
    float* Data;
};

// clpeak's compute kernels: a chain of dependent additions per work-item on
// a vector type, its lanes summed at the end. Integer-valued floats keep the
// sums exact.
const char* const Chain = R"CL(
kernel void chain8(global const float8 *in, global float8 *out) {
    size_t i = get_global_id(0);
    float8 x = in[i];
    float8 y = (float8)(float)(get_local_id(0) & 3);
    float8 z = 0;
    for (int k = 0; k < 16; k++) {
        z += x * y + y;
        z += y * x + x;
    }
    out[i] = z;
}
kernel void chain16(global const float16 *in, global float16 *out) {
    size_t i = get_global_id(0);
    float16 x = in[i];
    float16 y = (float16)(float)(get_local_id(0) & 3);
    float16 z = 0;
    for (int k = 0; k < 8; k++) {
        z += x * y + y;
        z += y * x + x;
    }
    out[i] = z;
}
)CL";

template <unsigned Lanes>
void checkChain(const kc::NativeProgram& P, const kc::Module& M, const char* Name, int Iterations) {
    const size_t Items = 96; // local size 32: three groups
    AlignedFloats In(Items * Lanes), Out(Items * Lanes, -1.0f);
    for (size_t I = 0; I < In.size(); ++I)
        In[I] = static_cast<float>(I % 7);
    kctest::ArgBuffer Args(kctest::kernel(M, Name));
    Args.set(0, In.data()).set(1, Out.data());
    kctest::runNDRange(P.lookup(Name), Args, 1, {Items, 1, 1}, {32, 1, 1});
    for (size_t Item = 0; Item < Items; ++Item)
        for (unsigned Lane = 0; Lane < Lanes; ++Lane) {
            const float X = In[Item * Lanes + Lane];
            const float Y = static_cast<float>((Item % 32) & 3);
            float Z = 0;
            for (int K = 0; K < Iterations; ++K) {
                Z += X * Y + Y;
                Z += Y * X + X;
            }
            INFO(Name << " work-item " << Item << " lane " << Lane);
            REQUIRE(Out[Item * Lanes + Lane] == Z);
        }
}

} // namespace

TEST_CASE("float8 and float16 chains vectorize across work-items", "[compiler][vector-types]") {
    for (const char* Kernel : {"chain8", "chain16"}) {
        INFO(Kernel);
        const Shape S = hostShape(Chain, Kernel);
        CHECK(S.VectorizedLoop);
    }
    std::unique_ptr<kc::Module> M = kctest::build(Chain);
    std::unique_ptr<kc::NativeProgram> P = kctest::jit(*M);
    checkChain<8>(*P, *M, "chain8", 16);
    checkChain<16>(*P, *M, "chain16", 8);
}

TEST_CASE("a float8 kernel whose loop cannot vectorize keeps its vector types",
          "[compiler][vector-types]") {
    // The atomic keeps the work-item loop scalar: split into scalars, the
    // kernel's float8 arithmetic would run one lane at a time.
    const char* const Source = R"CL(
kernel void counted(global const float8 *in, global float8 *out, volatile global int *count) {
    size_t i = get_global_id(0);
    float8 x = in[i];
    out[i] = x * x + x;
    atomic_inc(count);
}
)CL";
    const Shape S = hostShape(Source, "counted");
    CHECK(!S.VectorizedLoop);
    CHECK(S.WidestVector >= 8);

    std::unique_ptr<kc::Module> M = kctest::build(Source);
    std::unique_ptr<kc::NativeProgram> P = kctest::jit(*M);
    const size_t Items = 40;
    AlignedFloats In(Items * 8), Out(Items * 8);
    for (size_t I = 0; I < In.size(); ++I)
        In[I] = static_cast<float>(I % 11);
    int Count = 0;
    kctest::ArgBuffer Args(kctest::kernel(*M, "counted"));
    Args.set(0, In.data()).set(1, Out.data()).set(2, &Count);
    kctest::runNDRange(P->lookup("counted"), Args, 1, {Items, 1, 1}, {8, 1, 1});
    CHECK(Count == static_cast<int>(Items));
    for (size_t I = 0; I < In.size(); ++I) {
        INFO(I);
        REQUIRE(Out[I] == In[I] * In[I] + In[I]);
    }
}
