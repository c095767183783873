// Loops work-items may run a different number of times (a varying bound, a
// varying break, a loop under a varying condition) get masked passes
// (Passes/ImplicitLoopBarriers.cpp, Passes/SubCfgFormation.cpp): each pass
// over a slice of the work-group runs one iteration of the work-items still
// in the loop, and a loop only a few are still in runs them scalar to its
// exit. Each kernel is checked for the pass's choice and its results against
// a host reference, for local sizes that leave partial vectors, partial
// slices and partial work-groups.
#include "implicit_loops.hpp"

#include <llvm/IR/DerivedTypes.h>
#include <llvm/IR/Instructions.h>

#include <array>
#include <cstdint>

using kctest::checkOneDimensional;
using kctest::chosen;
using kctest::divergent;
using kctest::Program;

namespace {

void checkChosenDivergent(const Program& P, std::initializer_list<const char*> Names) {
    for (const char* Name : Names) {
        INFO(Name);
        CHECK(chosen(*P.M, Name));
        CHECK(divergent(*P.M, Name));
    }
}

// Runs a 2D kernel (out, width, height, limit) over Global for each local
// size and compares out (width * height ints) with Expected(x, y, limit).
void checkTwoDimensional(const Program& P, const std::string& Name, std::array<uint64_t, 2> Global,
                         int Limit, const std::function<int(int, int, int)>& Expected) {
    const kc::KernelInfo& K = P.info(Name);
    const int Width = static_cast<int>(Global[0]), Height = static_cast<int>(Global[1]);
    for (std::array<uint64_t, 3> Local : {std::array<uint64_t, 3>{70, 9, 1},
                                          {16, 16, 1},
                                          {128, 8, 1},
                                          {5, 40, 1},
                                          {3, 7, 1},
                                          {150, 1, 1}}) {
        std::vector<int> Out(Global[0] * Global[1], -7);
        kctest::ArgBuffer Args(K);
        Args.set(0, Out.data()).set(1, Width).set(2, Height).set(3, Limit);
        kctest::runNDRange(P.P->lookup(Name), Args, 2, {Global[0], Global[1], 1}, Local);
        for (int Y = 0; Y < Height; ++Y)
            for (int X = 0; X < Width; ++X) {
                INFO(Name << ": local size " << Local[0] << "x" << Local[1] << ", work-item " << X
                          << "," << Y);
                REQUIRE(Out[Y * Width + X] == Expected(X, Y, Limit));
            }
    }
}

} // namespace

TEST_CASE("loops work-items run a different number of times get masked passes",
          "[compiler][loops]") {
    Program P(R"CL(
kernel void varying_count(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = in[g];
    for (int j = 0; j < n + g % 5; ++j)
        s = s * 3 + (j ^ g);
    out[g] = s;
}
kernel void varying_break(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = in[g];
    for (int j = 0; j < n; ++j) {
        if (((s >> 5) & 15) == g % 11)
            break;
        s = s * 5 + j;
    }
    out[g] = s;
}
kernel void under_varying_if(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = g;
    if (in[g] > 0)
        for (int j = 0; j < n; ++j)
            s = s * 3 + j * g;
    out[g] = s;
}
kernel void count_from_memory(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = 0;
    int m = in[g % 8];
    for (int j = 0; j < m + n; ++j)
        s = s * 7 + (j ^ g);
    out[g] = s;
}
)CL");
    checkChosenDivergent(
        P, {"varying_count", "varying_break", "under_varying_if", "count_from_memory"});
    checkOneDimensional(P, "varying_count", 40, 230, [](int G, const std::vector<int>& In, int N) {
        uint32_t S = In[G];
        for (int J = 0; J < N + G % 5; ++J)
            S = S * 3 + (J ^ G);
        return static_cast<int>(S);
    });
    checkOneDimensional(P, "varying_break", 40, 230, [](int G, const std::vector<int>& In, int N) {
        uint32_t S = In[G];
        for (int J = 0; J < N; ++J) {
            if (static_cast<int>((S >> 5) & 15) == G % 11)
                break;
            S = S * 5 + J;
        }
        return static_cast<int>(S);
    });
    checkOneDimensional(P, "under_varying_if", 40, 230,
                        [](int G, const std::vector<int>& In, int N) {
                            uint32_t S = G;
                            if (In[G] > 0)
                                for (int J = 0; J < N; ++J)
                                    S = S * 3 + static_cast<uint32_t>(J) * G;
                            return static_cast<int>(S);
                        });
    checkOneDimensional(P, "count_from_memory", 40, 230,
                        [](int G, const std::vector<int>& In, int N) {
                            uint32_t S = 0;
                            const int M = In[G % 8];
                            for (int J = 0; J < M + N; ++J)
                                S = S * 7 + (J ^ G);
                            return static_cast<int>(S);
                        });
}

TEST_CASE("an escape-time loop over two-dimensional slices and partial work-groups",
          "[compiler][loops]") {
    Program P(R"CL(
kernel void collatz(global int *out, int width, int height, int limit) {
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    uint v = (uint)(y * width + x) * 7u + 3u;
    int steps = 0;
    while (v != 1u && steps < limit) {
        v = (v & 1u) ? 3u * v + 1u : v / 2u;
        ++steps;
    }
    out[y * width + x] = steps * 1000 + (int)(v % 1000u);
}
)CL");
    checkChosenDivergent(P, {"collatz"});
    checkTwoDimensional(P, "collatz", {150, 37}, 400, [](int X, int Y, int Limit) {
        uint32_t V = static_cast<uint32_t>(Y * 150 + X) * 7u + 3u;
        int Steps = 0;
        while (V != 1u && Steps < Limit) {
            V = (V & 1u) ? 3u * V + 1u : V / 2u;
            ++Steps;
        }
        return Steps * 1000 + static_cast<int>(V % 1000u);
    });
}

// One work-item in `stride` loops `long_count` times, the others 3 times:
// with a few long ones, the pass ends with scalar runs to the loop's exit;
// with many, every pass is masked.
TEST_CASE("work-items that loop far longer than the others", "[compiler][loops]") {
    Program P(R"CL(
kernel void skewed(global int *out, int width, int height, int limit) {
    int x = get_global_id(0);
    int y = get_global_id(1);
    int n = (x + y) % limit == 0 ? 900 + x : 3;
    uint h = x * 2654435761u + y;
    for (int i = 0; i < n; ++i)
        h = h * 1664525u + 1013904223u + (h >> 7);
    out[y * width + x] = h;
}
)CL");
    checkChosenDivergent(P, {"skewed"});
    for (int Stride : {97, 29, 5, 2}) {
        INFO("one work-item in " << Stride << " loops long");
        checkTwoDimensional(P, "skewed", {150, 37}, Stride, [](int X, int Y, int Limit) {
            int N = (X + Y) % Limit == 0 ? 900 + X : 3;
            uint32_t H = static_cast<uint32_t>(X) * 2654435761u + static_cast<uint32_t>(Y);
            for (int I = 0; I < N; ++I)
                H = H * 1664525u + 1013904223u + (H >> 7);
            return static_cast<int>(H);
        });
    }
}

TEST_CASE("work-items wait at different loops and return early", "[compiler][loops]") {
    Program P(R"CL(
kernel void sequence(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = g;
    int j = 0;
    while (j < n && ((s ^ j) & 31) != g % 13) {
        s = s * 3 + j;
        ++j;
    }
    uint t = j;
    for (int k = 0; k < n + g % 7; ++k)
        t = t * 5 + (s ^ k);
    for (int k = 0; k < n; ++k)
        t += in[k] * k;
    out[g] = t;
}
kernel void guarded(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    if (g >= 3 * n)
        return;
    uint s = in[g];
    for (int j = 0; j < g % 50; ++j)
        s = s * 7 + j;
    if (s % 4 == 0) {
        out[g] = -1;
        return;
    }
    for (int j = 0; j < n + g % 3; ++j)
        s = s * 11 + (j ^ 5);
    out[g] = s;
}
#define DIVERGENT_LOOP(l)                                          \
    {                                                              \
        int j = 0;                                                 \
        while (j < n + (g + l) % 7 && ((s ^ j) & 63) != l + 1) {   \
            s = s * (2 * l + 3) + j;                               \
            ++j;                                                   \
        }                                                          \
        s += j;                                                    \
    }
kernel void six_loops(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = in[g];
    DIVERGENT_LOOP(0) DIVERGENT_LOOP(1) DIVERGENT_LOOP(2)
    DIVERGENT_LOOP(3) DIVERGENT_LOOP(4) DIVERGENT_LOOP(5)
    out[g] = s;
}
kernel void nested(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = in[g];
    for (int i = 0; i < g % 4; ++i)
        for (int k = 0; k < n; ++k)
            s = s * 3 + (k + i);
    out[g] = s;
}
)CL");
    checkChosenDivergent(P, {"sequence", "guarded", "six_loops", "nested"});
    checkOneDimensional(P, "sequence", 40, 230, [](int G, const std::vector<int>& In, int N) {
        uint32_t S = G;
        int J = 0;
        while (J < N && static_cast<int>((S ^ J) & 31) != G % 13) {
            S = S * 3 + J;
            ++J;
        }
        uint32_t T = J;
        for (int K = 0; K < N + G % 7; ++K)
            T = T * 5 + (S ^ static_cast<uint32_t>(K));
        for (int K = 0; K < N; ++K)
            T += In[K] * K;
        return static_cast<int>(T);
    });
    checkOneDimensional(P, "guarded", 40, 230, [](int G, const std::vector<int>& In, int N) {
        if (G >= 3 * N)
            return -7;
        uint32_t S = In[G];
        for (int J = 0; J < G % 50; ++J)
            S = S * 7 + J;
        if (S % 4 == 0)
            return -1;
        for (int J = 0; J < N + G % 3; ++J)
            S = S * 11 + (J ^ 5);
        return static_cast<int>(S);
    });
    // Six divergent loops in sequence: the first four (MaxDivergentLoops)
    // get barriers, the last two stay inside the work-item loops.
    checkOneDimensional(P, "six_loops", 40, 230, [](int G, const std::vector<int>& In, int N) {
        uint32_t S = In[G];
        for (int L = 0; L < 6; ++L) {
            int J = 0;
            while (J < N + (G + L) % 7 && static_cast<int>((S ^ J) & 63) != L + 1) {
                S = S * (2 * L + 3) + J;
                ++J;
            }
            S += J;
        }
        return static_cast<int>(S);
    });
    checkOneDimensional(P, "nested", 40, 230, [](int G, const std::vector<int>& In, int N) {
        uint32_t S = In[G];
        for (int I = 0; I < G % 4; ++I)
            for (int K = 0; K < N; ++K)
                S = S * 3 + (K + I);
        return static_cast<int>(S);
    });
}

// Mandelbrot's escape loop runs in chunks of four vectors of work-items
// (Passes/SubCfgChunks.cpp): built for an AVX-512 device (sub-groups of
// 16), the values the loop carries are vectors the chunk's round loop
// carries in registers (phis of 16 floats), and no chunk array is left in
// memory. The results, for local sizes whose slices hold whole chunks and
// others, against the host (contraction off on both sides).
TEST_CASE("a divergent loop's chunks keep its values in registers", "[compiler][loops]") {
    const std::string Source = R"CL(
#pragma OPENCL FP_CONTRACT OFF
kernel void escape(global int *out, int width, int height, int limit) {
    int x = get_global_id(0);
    int y = get_global_id(1);
    if (x >= width || y >= height)
        return;
    float cr = -2.0f + (float)x * (3.0f / (float)width);
    float ci = -1.5f + (float)y * (3.0f / (float)height);
    float zr = 0.0f, zi = 0.0f;
    int i = 0;
    while (i < limit && zr * zr + zi * zi <= 4.0f) {
        float t = zr * zr - zi * zi + cr;
        zi = 2.0f * zr * zi + ci;
        zr = t;
        ++i;
    }
    out[y * width + x] = i;
}
)CL";
    kc::DeviceTarget Target = kctest::cpuTarget();
    Target.SubGroupSize = 16;
    kc::BuildResult Built = kc::Compiler(Target).build(Source, "");
    INFO(Built.Log);
    REQUIRE(Built.Output);
    llvm::LLVMContext Context;
    Context.setDiagnosticHandlerCallBack([](const llvm::DiagnosticInfo*, void*) {}, nullptr);
    std::string Error;
    std::unique_ptr<llvm::Module> IR = kc::optimizeForHost(
        static_cast<const kc::ModuleImpl&>(*Built.Output), kctest::avx512Host(), Context, Error);
    INFO(Error);
    REQUIRE(IR);
    const llvm::Function* WG = IR->getFunction("escape_wg");
    REQUIRE(WG);
    unsigned VectorPhis = 0, ChunkArrays = 0;
    for (const llvm::BasicBlock& BB : *WG)
        for (const llvm::Instruction& I : BB) {
            if (const auto* Phi = llvm::dyn_cast<llvm::PHINode>(&I))
                if (const auto* V = llvm::dyn_cast<llvm::FixedVectorType>(Phi->getType()))
                    VectorPhis += V->getNumElements() == 16 && V->getElementType()->isFloatTy();
            if (const auto* Alloca = llvm::dyn_cast<llvm::AllocaInst>(&I))
                if (const auto* A = llvm::dyn_cast<llvm::ArrayType>(Alloca->getAllocatedType()))
                    ChunkArrays += A->getNumElements() == 64;
        }
    CHECK(ChunkArrays == 0);
    // zr and zi of four vectors.
    CHECK(VectorPhis >= 8);

    Program P(Source);
    checkChosenDivergent(P, {"escape"});
    checkTwoDimensional(P, "escape", {150, 37}, 300, [](int X, int Y, int Limit) {
        const float Cr = -2.0f + static_cast<float>(X) * (3.0f / 150.0f);
        const float Ci = -1.5f + static_cast<float>(Y) * (3.0f / 37.0f);
        float Zr = 0.0f, Zi = 0.0f;
        int I = 0;
        while (I < Limit) {
            const float Zr2 = Zr * Zr, Zi2 = Zi * Zi;
            if (!(Zr2 + Zi2 <= 4.0f))
                break;
            const float T = Zr2 - Zi2 + Cr;
            const float Prod = 2.0f * Zr;
            Zi = Prod * Zi + Ci;
            Zr = T;
            ++I;
        }
        return I;
    });
}
