// Integer division and remainder never trap (issue 18, CTS integer_ops
// integer_divideAssign died of SIGFPE). OpenCL C leaves x / 0 and
// INT_MIN / -1 undefined; SafeDivision makes the divisor 1 there, so x / 0
// is x, x % 0 is 0, INT_MIN / -1 is INT_MIN and INT_MIN % -1 is 0. Every
// other element must be the C result.
#include "compiler_test.hpp"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace {

template <typename T>
T expectedQuotient(T A, T B) {
    if (B == 0)
        return A;
    if (std::numeric_limits<T>::is_signed && A == std::numeric_limits<T>::min() && B == T(-1))
        return A;
    return static_cast<T>(A / B);
}

template <typename T>
T expectedRemainder(T A, T B) {
    if (B == 0)
        return 0;
    if (std::numeric_limits<T>::is_signed && A == std::numeric_limits<T>::min() && B == T(-1))
        return 0;
    return static_cast<T>(A % B);
}

// Dividends and divisors covering 0, -1, the minimum and ordinary values.
template <typename T>
void operands(std::vector<T>& A, std::vector<T>& B) {
    const T Min = std::numeric_limits<T>::min(), Max = std::numeric_limits<T>::max();
    const T Values[] = {0, 1, T(-1), 7, T(-7), Min, Max, T(Min + 1), 100, T(-3)};
    for (T X : Values)
        for (T Y : Values) {
            A.push_back(X);
            B.push_back(Y);
        }
    while (A.size() % 16 != 0) {
        A.push_back(Max);
        B.push_back(0);
    }
}

// CLType: the OpenCL C element type; Width: 1 (scalar) or a vector width.
template <typename T>
void checkType(const std::string& CLType, int Width) {
    std::string V = Width == 1 ? CLType : CLType + std::to_string(Width);
    std::string Source = "kernel void divide(global " + V + " *a, global const " + V + " *b,\n" +
                         "                   global " + V + " *r) {\n" +
                         "  size_t i = get_global_id(0);\n"
                         "  r[i] = a[i] % b[i];\n"
                         "  a[i] /= b[i];\n"
                         "}\n";
    INFO(V);
    auto M = kctest::build(Source);
    auto Program = kctest::jit(*M);
    std::vector<T> A, B;
    operands(A, B);
    std::vector<T> Q = A, R(A.size(), T(0x55));
    kctest::ArgBuffer Args(M->kernels()[0]);
    Args.set(0, Q.data()).set(1, B.data()).set(2, R.data());
    uint64_t Items = A.size() / Width;
    kctest::runNDRange(Program->lookup("divide"), Args, 1, {Items, 1, 1}, {Items / 2, 1, 1});
    for (size_t I = 0; I < A.size(); ++I) {
        INFO(+A[I] << " / " << +B[I]);
        CHECK(Q[I] == expectedQuotient(A[I], B[I]));
        CHECK(R[I] == expectedRemainder(A[I], B[I]));
    }
}

} // namespace

TEST_CASE("division and remainder by zero and of the minimum by -1 do not trap",
          "[compiler][exec][division]") {
    checkType<int32_t>("int", 1);
    checkType<uint32_t>("uint", 1);
    checkType<int64_t>("long", 1);
    checkType<uint64_t>("ulong", 1);
    checkType<int32_t>("int", 4);
    checkType<int64_t>("long", 2);
    checkType<int8_t>("char", 16);
    checkType<uint16_t>("ushort", 8);
    checkType<int16_t>("short", 2);
}

TEST_CASE("division by constants stays exact", "[compiler][exec][division]") {
    auto M = kctest::build(R"CL(
kernel void by_constants(global int *a, global int *out) {
  size_t i = get_global_id(0);
  int x = a[i];
  out[4 * i] = x / 7;
  out[4 * i + 1] = x % -3;
  out[4 * i + 2] = x / -1;
  out[4 * i + 3] = (int)((uint)x / 0u);
}
)CL");
    auto Program = kctest::jit(*M);
    std::vector<int32_t> A = {0,
                              1,
                              -1,
                              22,
                              -22,
                              std::numeric_limits<int32_t>::max(),
                              std::numeric_limits<int32_t>::min(),
                              123456789};
    std::vector<int32_t> Out(4 * A.size(), 0);
    kctest::ArgBuffer Args(M->kernels()[0]);
    Args.set(0, A.data()).set(1, Out.data());
    kctest::runNDRange(Program->lookup("by_constants"), Args, 1, {A.size(), 1, 1},
                       {A.size(), 1, 1});
    for (size_t I = 0; I < A.size(); ++I) {
        INFO(A[I]);
        CHECK(Out[4 * I] == A[I] / 7);
        CHECK(Out[4 * I + 1] == A[I] % -3);
        CHECK(Out[4 * I + 2] == expectedQuotient<int32_t>(A[I], -1));
        // x / 0 with a constant 0: any value, but no trap (reached here).
    }
}
