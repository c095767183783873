// Loops every work-item runs alike get a work-item loop inside them
// (Passes/ImplicitLoopBarriers.cpp): each kernel here is checked for whether
// the pass chose it, and its results against a host reference for local
// sizes that leave partial vectors and partial work-groups; the host
// pipeline vectorizes the work-item loop inside the matmul's loop.
#include "host_shape.hpp"
#include "implicit_loops.hpp"

using kctest::checkOneDimensional;
using kctest::chosen;
using kctest::Program;

namespace {

const char* const Matmul = R"CL(
kernel void matmul(global const float *a, global const float *b, global float *c, int n) {
    int col = get_global_id(0);
    int row = get_global_id(1);
    float sum = 0.0f;
    for (int k = 0; k < n; ++k)
        sum += a[row * n + k] * b[k * n + col];
    c[row * n + col] = sum;
}
)CL";

} // namespace

TEST_CASE("a float sum over a uniform loop runs per work-item inside it", "[compiler][loops]") {
    Program P(Matmul);
    CHECK(chosen(*P.M, "matmul"));
    const int N = 37;
    std::vector<float> A(N * N), B(N * N), Want(N * N, 0.0f);
    for (int I = 0; I < N * N; ++I) {
        A[I] = static_cast<float>(I % 7 - 3);
        B[I] = static_cast<float>(I % 5 - 2);
    }
    for (int Row = 0; Row < N; ++Row)
        for (int Col = 0; Col < N; ++Col)
            for (int K = 0; K < N; ++K)
                Want[Row * N + Col] += A[Row * N + K] * B[K * N + Col];
    const kc::KernelInfo& K = P.info("matmul");
    for (std::array<uint64_t, 3> Local :
         {std::array<uint64_t, 3>{1, 1, 1}, {16, 4, 1}, {37, 1, 1}, {5, 3, 1}, {32, 32, 1}}) {
        std::vector<float> C(N * N, -1.0f);
        kctest::ArgBuffer Args(K);
        Args.set(0, A.data()).set(1, B.data()).set(2, C.data()).set(3, N);
        kctest::runNDRange(P.P->lookup("matmul"), Args, 2, {N, N, 1}, Local);
        INFO("local size " << Local[0] << "x" << Local[1]);
        CHECK(C == Want);
    }
}

TEST_CASE("vector values and values live across the loop keep per work-item", "[compiler][loops]") {
    Program P(R"CL(
kernel void body(global const float4 *pos, global float4 *acc, int n, float scale) {
    int i = get_global_id(0);
    float4 p = pos[i];
    float3 a = (float3)(0.0f);
    int counted = 0;
    for (int j = 0; j < n; ++j) {
        float4 q = pos[j];
        float3 d = q.xyz - p.xyz;
        if (d.x > 0.0f)
            continue;
        a += q.w * d;
        ++counted;
    }
    acc[i] = (float4)(a * scale, (float)counted + p.w);
}
)CL");
    CHECK(chosen(*P.M, "body"));
    const int N = 45;
    std::vector<float> Pos(4 * N);
    for (int I = 0; I < 4 * N; ++I)
        Pos[I] = static_cast<float>((I * 13) % 9 - 4);
    const kc::KernelInfo& K = P.info("body");
    for (uint64_t Local : {1, 4, 16, 45}) {
        std::vector<float> Acc(4 * N, -1.0f);
        kctest::ArgBuffer Args(K);
        Args.set(0, Pos.data()).set(1, Acc.data()).set(2, N).set(3, 2.0f);
        kctest::runNDRange(P.P->lookup("body"), Args, 1, {N, 1, 1}, {Local, 1, 1});
        for (int I = 0; I < N; ++I) {
            float Want[3] = {0, 0, 0};
            int Counted = 0;
            for (int J = 0; J < N; ++J) {
                float D[3];
                for (int C = 0; C < 3; ++C)
                    D[C] = Pos[4 * J + C] - Pos[4 * I + C];
                if (D[0] > 0.0f)
                    continue;
                for (int C = 0; C < 3; ++C)
                    Want[C] += Pos[4 * J + 3] * D[C];
                ++Counted;
            }
            INFO("local size " << Local << ", work-item " << I);
            for (int C = 0; C < 3; ++C)
                CHECK(Acc[4 * I + C] == Want[C] * 2.0f);
            CHECK(Acc[4 * I + 3] == static_cast<float>(Counted) + Pos[4 * I + 3]);
        }
    }
}

TEST_CASE("loops in sequence, nested loops and a counter used after the loop",
          "[compiler][loops]") {
    Program P(R"CL(
kernel void seq(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    int before = in[g] * 3;
    uint s = 0;
    int k;
    for (k = 0; k < n; ++k)
        s += in[k] * (g + 1);
    uint t = s;
    for (int m = n; m > 1; m /= 2)
        t = t * 3 + in[m] - g;
    out[g] = t + before + k;
}
kernel void nested(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = 0;
    for (int i = 0; i < n; ++i) {
        uint r = g;
        for (int j = 0; j < n; ++j)
            r = r * 5 + in[i + j];
        s ^= r;
    }
    out[g] = s;
}
)CL");
    CHECK(chosen(*P.M, "seq"));
    CHECK(chosen(*P.M, "nested"));
    checkOneDimensional(P, "seq", 40, 150, [](int G, const std::vector<int>& In, int N) {
        uint32_t S = 0;
        int K = 0;
        for (K = 0; K < N; ++K)
            S += In[K] * (G + 1);
        uint32_t T = S;
        for (int M = N; M > 1; M /= 2)
            T = T * 3 + In[M] - G;
        return static_cast<int>(T + In[G] * 3 + K);
    });
    checkOneDimensional(P, "nested", 33, 130, [](int G, const std::vector<int>& In, int N) {
        uint32_t S = 0;
        for (int I = 0; I < N; ++I) {
            uint32_t R = static_cast<uint32_t>(G);
            for (int J = 0; J < N; ++J)
                R = R * 5 + In[I + J];
            S ^= R;
        }
        return static_cast<int>(S);
    });
}

TEST_CASE("a convolution reads consecutive elements along the loop and across work-items",
          "[compiler][loops]") {
    Program P(R"CL(
kernel void conv(global int *out, global const int *in, int taps) {
    int i = get_global_id(0);
    uint s = 0;
    for (int t = 0; t < taps; ++t)
        s = s * 2 + in[i + t] * (t + 1);
    out[i] = s;
}
)CL");
    CHECK(chosen(*P.M, "conv"));
    checkOneDimensional(P, "conv", 37, 150, [](int G, const std::vector<int>& In, int N) {
        uint32_t S = 0;
        for (int T = 0; T < N; ++T)
            S = S * 2 + In[G + T] * (T + 1);
        return static_cast<int>(S);
    });
}

TEST_CASE("a loop bound read from __constant memory is uniform", "[compiler][loops]") {
    Program P(R"CL(
kernel void bound(global int *out, constant int *in, int n) {
    int g = get_global_id(0);
    uint s = g;
    for (int j = 0; j < in[0] + n; ++j)
        s = s * 3 + in[j + 1];
    out[g] = s;
}
)CL");
    CHECK(chosen(*P.M, "bound"));
    checkOneDimensional(P, "bound", 30, 99, [](int G, const std::vector<int>& In, int N) {
        uint32_t S = G;
        for (int J = 0; J < In[0] + N; ++J)
            S = S * 3 + In[J + 1];
        return static_cast<int>(S);
    });
}

TEST_CASE("a work-item reads back what it wrote in an earlier iteration", "[compiler][loops]") {
    Program P(R"CL(
kernel void chain(global uint *out, global const int *in, int n) {
    int g = get_global_id(0);
    out[g] = g;
    for (int j = 1; j < n; ++j)
        out[g] = out[g] * 2 + in[j] + (j & g);
}
)CL");
    CHECK(chosen(*P.M, "chain"));
    checkOneDimensional(P, "chain", 40, 99, [](int G, const std::vector<int>& In, int N) {
        uint32_t V = static_cast<uint32_t>(G);
        for (int J = 1; J < N; ++J)
            V = V * 2 + In[J] + (J & G);
        return static_cast<int>(V);
    });
}

TEST_CASE("work-items that return early skip the loops of the others", "[compiler][loops]") {
    Program P(R"CL(
kernel void guarded(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    if (g >= n + 5)
        return;
    uint s = g;
    for (int j = 0; j < n; ++j)
        s = s * 3 + in[j];
    out[g] = s;
}
kernel void between(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = 0;
    for (int j = 0; j < n; ++j)
        s += in[j] * (g + j);
    if (g % 3 == 0) {
        out[g] = s;
        return;
    }
    for (int j = 0; j < n; ++j)
        s = s * 5 - in[j + 1];
    out[g] = s;
}
kernel void inside_loop(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = 0;
    for (int j = 0; j < n; ++j) {
        if (in[j] == g % 9 - 4) {
            out[g] = -(int)s;
            return;
        }
        s += in[j];
    }
    for (int j = 0; j < n; ++j)
        s = s * 7 + in[j];
    out[g] = s;
}
)CL");
    for (const char* Name : {"guarded", "between", "inside_loop"}) {
        INFO(Name);
        CHECK(chosen(*P.M, Name));
    }
    // guarded: work-items past n + 5 leave out untouched (-7).
    checkOneDimensional(P, "guarded", 40, 130, [](int G, const std::vector<int>& In, int N) {
        if (G >= N + 5)
            return -7;
        uint32_t S = G;
        for (int J = 0; J < N; ++J)
            S = S * 3 + In[J];
        return static_cast<int>(S);
    });
    checkOneDimensional(P, "between", 40, 130, [](int G, const std::vector<int>& In, int N) {
        uint32_t S = 0;
        for (int J = 0; J < N; ++J)
            S += In[J] * (G + J);
        if (G % 3 == 0)
            return static_cast<int>(S);
        for (int J = 0; J < N; ++J)
            S = S * 5 - In[J + 1];
        return static_cast<int>(S);
    });
    checkOneDimensional(P, "inside_loop", 40, 130, [](int G, const std::vector<int>& In, int N) {
        uint32_t S = 0;
        for (int J = 0; J < N; ++J) {
            if (In[J] == G % 9 - 4)
                return static_cast<int>(-S);
            S += In[J];
        }
        for (int J = 0; J < N; ++J)
            S = S * 7 + In[J];
        return static_cast<int>(S);
    });
}

TEST_CASE("a matrix multiply guarded against partial work-groups", "[compiler][loops]") {
    Program P(R"CL(
kernel void matmul(global const float *a, global const float *b, global float *c, int rows,
                   int cols, int inner) {
    int col = get_global_id(0);
    int row = get_global_id(1);
    if (row < rows && col < cols) {
        float sum = 0.0f;
        for (int k = 0; k < inner; ++k)
            sum += a[row * inner + k] * b[k * cols + col];
        c[row * cols + col] = sum;
    }
}
)CL");
    CHECK(chosen(*P.M, "matmul"));
    const int Rows = 29, Cols = 35, Inner = 41;
    std::vector<float> A(Rows * Inner), B(Inner * Cols), Want(Rows * Cols, 0.0f);
    for (size_t I = 0; I < A.size(); ++I)
        A[I] = static_cast<float>(static_cast<int>(I % 7) - 3);
    for (size_t I = 0; I < B.size(); ++I)
        B[I] = static_cast<float>(static_cast<int>(I % 5) - 2);
    for (int R = 0; R < Rows; ++R)
        for (int Col = 0; Col < Cols; ++Col)
            for (int K = 0; K < Inner; ++K)
                Want[R * Cols + Col] += A[R * Inner + K] * B[K * Cols + Col];
    const kc::KernelInfo& K = P.info("matmul");
    for (std::array<uint64_t, 3> Local :
         {std::array<uint64_t, 3>{16, 16, 1}, {8, 4, 1}, {1, 8, 1}, {64, 1, 1}}) {
        std::array<uint64_t, 3> Global = {(Cols + Local[0] - 1) / Local[0] * Local[0],
                                          (Rows + Local[1] - 1) / Local[1] * Local[1], 1};
        std::vector<float> C(Rows * Cols, -1.0f);
        kctest::ArgBuffer Args(K);
        Args.set(0, A.data())
            .set(1, B.data())
            .set(2, C.data())
            .set(3, Rows)
            .set(4, Cols)
            .set(5, Inner);
        kctest::runNDRange(P.P->lookup("matmul"), Args, 2, Global, Local);
        INFO("local size " << Local[0] << "x" << Local[1]);
        CHECK(C == Want);
    }
}

TEST_CASE("loops left alone: memory along loops work-items run differently, few iterations, "
          "atomics, rows, private arrays",
          "[compiler][loops]") {
    Program P(R"CL(
kernel void varying_count(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = 0;
    for (int j = 0; j < n + g % 5; ++j)
        s += in[j];
    out[g] = s;
}
kernel void varying_break(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = 0;
    for (int j = 0; j < n; ++j) {
        if (in[j] == g % 11 - 5)
            break;
        s += in[j] * j;
    }
    out[g] = s;
}
kernel void under_varying_if(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = g;
    if (g % 3 == 1)
        for (int j = 0; j < n; ++j)
            s = s * 3 + in[j];
    out[g] = s;
}
kernel void count_from_memory(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = 0;
    for (int j = 0; j < in[0] + n; ++j)
        s += in[j] ^ g;
    out[g] = s;
}
kernel void few_varying(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = g;
    for (int j = 0; j < (g & 3); ++j)
        s = s * 3 + j;
    out[g] = s + n;
}
kernel void small_constant(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = 0;
    for (int j = 0; j < 8; ++j)
        s += in[j] * g;
    out[g] = s + n;
}
kernel void with_atomic(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    for (int j = 0; j < n; ++j)
        atomic_add(&out[g], in[j]);
}
kernel void row_per_work_item(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = 0;
    for (int j = 0; j < n; ++j)
        s += in[(g % 7) * n + j] * j;
    out[g] = s;
}
kernel void private_array(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    int t[40];
    for (int j = 0; j < n; ++j)
        t[j] = in[j] + g;
    uint s = 0;
    for (int j = n - 1; j >= 0; --j)
        s = s * 2 + t[(j * 7) % n];
    out[g] = s;
}
)CL");
    for (const char* Name :
         {"varying_count", "varying_break", "under_varying_if", "count_from_memory", "few_varying",
          "small_constant", "with_atomic", "row_per_work_item", "private_array"}) {
        INFO(Name);
        CHECK_FALSE(chosen(*P.M, Name));
    }
    checkOneDimensional(P, "varying_count", 30, 70, [](int G, const std::vector<int>& In, int N) {
        uint32_t S = 0;
        for (int J = 0; J < N + G % 5; ++J)
            S += In[J];
        return static_cast<int>(S);
    });
    checkOneDimensional(P, "varying_break", 40, 70, [](int G, const std::vector<int>& In, int N) {
        uint32_t S = 0;
        for (int J = 0; J < N; ++J) {
            if (In[J] == G % 11 - 5)
                break;
            S += In[J] * J;
        }
        return static_cast<int>(S);
    });
    checkOneDimensional(P, "under_varying_if", 30, 70,
                        [](int G, const std::vector<int>& In, int N) {
                            uint32_t S = G;
                            if (G % 3 == 1)
                                for (int J = 0; J < N; ++J)
                                    S = S * 3 + In[J];
                            return static_cast<int>(S);
                        });
    checkOneDimensional(P, "few_varying", 40, 70, [](int G, const std::vector<int>&, int N) {
        uint32_t S = G;
        for (int J = 0; J < (G & 3); ++J)
            S = S * 3 + J;
        return static_cast<int>(S + N);
    });
    checkOneDimensional(P, "row_per_work_item", 9, 70,
                        [](int G, const std::vector<int>& In, int N) {
                            uint32_t S = 0;
                            for (int J = 0; J < N; ++J)
                                S += In[(G % 7) * N + J] * J;
                            return static_cast<int>(S);
                        });
    checkOneDimensional(P, "private_array", 40, 70, [](int G, const std::vector<int>& In, int N) {
        int T[40];
        for (int J = 0; J < N; ++J)
            T[J] = In[J] + G;
        uint32_t S = 0;
        for (int J = N - 1; J >= 0; --J)
            S = S * 2 + T[(J * 7) % N];
        return static_cast<int>(S);
    });
}

TEST_CASE("-cl-opt-disable keeps loops as written", "[compiler][loops]") {
    Program P(R"CL(
kernel void sum(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint s = 0;
    for (int j = 0; j < n; ++j)
        s += in[j] * g;
    out[g] = s;
}
)CL",
              "-cl-opt-disable");
    CHECK_FALSE(chosen(*P.M, "sum"));
    checkOneDimensional(P, "sum", 50, 40, [](int G, const std::vector<int>& In, int N) {
        uint32_t S = 0;
        for (int J = 0; J < N; ++J)
            S += In[J] * G;
        return static_cast<int>(S);
    });
}

// The work-item loop inside the uniform loop vectorizes in the host pipeline
// only with non-trivial loop unswitching (Pipeline/Pipeline.cpp: O2 with it;
// plain O2 left this matmul at 5 GFLOP/s instead of 83).
TEST_CASE("the host pipeline vectorizes the work-item loop inside a uniform loop",
          "[compiler][loops][pipeline]") {
    const kctest::Shape S = kctest::hostShape(Matmul, "matmul");
    CHECK(S.VectorizedLoop);
    CHECK(S.WidestVector >= 4);
}

// clpeak's float8 kernel in integers: 16 iterations, known at compile time,
// of a chain of 32 dependent uint8 multiply-adds. Too big for the unroller
// to unroll whole, so the loop gets the barrier like a long one, and the
// work-item loop inside it vectorizes across work-items (before: a chain of
// 8-lane operations in each work-item, clpeak float8 at a tenth of float4).
TEST_CASE("a small constant number of iterations of a big vector body", "[compiler][loops]") {
    const char* const Source = R"CL(
#define STEP x = y * x + y; y = x * y + x;
#define STEP8 STEP STEP STEP STEP STEP STEP STEP STEP
kernel void chain8(global int *out, global const int *in, int n) {
    int g = get_global_id(0);
    uint8 x = (uint8)(g) + (uint8)(0, 1, 2, 3, 4, 5, 6, 7);
    uint8 y = (uint8)(in[g % n]);
    for (int i = 0; i < 16; ++i) {
        STEP8 STEP8 STEP8 STEP8
    }
    out[g] = y.s0 + y.s1 + y.s2 + y.s3 + y.s4 + y.s5 + y.s6 + y.s7;
}
)CL";
    Program P(Source);
    CHECK(chosen(*P.M, "chain8"));
    checkOneDimensional(P, "chain8", 40, 70, [](int G, const std::vector<int>& In, int N) {
        uint32_t Sum = 0;
        for (uint32_t Lane = 0; Lane < 8; ++Lane) {
            uint32_t X = static_cast<uint32_t>(G) + Lane;
            uint32_t Y = static_cast<uint32_t>(In[G % N]);
            for (int I = 0; I < 16 * 32; ++I) {
                X = Y * X + Y;
                Y = X * Y + X;
            }
            Sum += Y;
        }
        return static_cast<int>(Sum);
    });
    CHECK(kctest::hostShape(Source, "chain8").VectorizedLoop);
}
