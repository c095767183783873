// The host pipeline (Pipeline/Pipeline.cpp: O2 with non-trivial loop
// unswitching) vectorizes the work-item loops of kernels whose inner loop
// runs a count the work-items share, as a naive matmul's does, and the
// results match a host reference.
#include "compiler_test.hpp"
#include "host_shape.hpp"

#include <vector>

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

TEST_CASE("a naive matmul's work-item loop is vectorized", "[compiler][pipeline]") {
    const kctest::Shape S = kctest::hostShape(Matmul, "matmul");
    CHECK(S.VectorizedLoop);
    CHECK(S.WidestVector >= 4);
}

TEST_CASE("a naive matmul computes the product", "[compiler][pipeline]") {
    auto M = kctest::build(Matmul);
    auto P = kctest::jit(*M);
    for (int N : {16, 24, 33}) {
        INFO("n " << N);
        std::vector<float> A(N * N), B(N * N), C(N * N, -1.0f);
        for (int I = 0; I < N * N; ++I) {
            A[I] = static_cast<float>(I % 7 - 3);
            B[I] = static_cast<float>(I % 5 - 2);
        }
        kctest::ArgBuffer Args(kctest::kernel(*M, "matmul"));
        const float* AP = A.data();
        const float* BP = B.data();
        float* CP = C.data();
        Args.set(0, AP).set(1, BP).set(2, CP).set(3, N);
        const size_t Local = N % 8 == 0 ? 8 : 1;
        kctest::runNDRange(P->lookup("matmul"), Args, 2,
                           {static_cast<size_t>(N), static_cast<size_t>(N), 1}, {Local, 1, 1});
        for (int Row = 0; Row < N; ++Row)
            for (int Col = 0; Col < N; ++Col) {
                float Sum = 0.0f;
                for (int K = 0; K < N; ++K)
                    Sum += A[Row * N + K] * B[K * N + Col];
                REQUIRE(C[Row * N + Col] == Sum);
            }
    }
}
