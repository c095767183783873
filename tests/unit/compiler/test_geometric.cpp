// length, distance and normalize for float and double at every width, with
// elements near the largest and the smallest values (issue 18, CTS
// geometrics: normalize(double2) of elements near 1e308 returned 0, the sum
// of squares having overflowed). Compared with a long double reference
// (x87: no overflow or underflow for these inputs) within 4 ULPs.
#include "compiler_test.hpp"

#include <cfloat>
#include <cmath>
#include <string>
#include <vector>

namespace {

template <typename T>
bool within(T Got, long double Ref, double Ulps) {
    T R = static_cast<T>(Ref);
    if (std::isnan(R))
        return std::isnan(Got);
    if (std::isinf(R) || R == 0)
        return Got == R;
    T Ulp = std::nextafter(std::fabs(R), std::numeric_limits<T>::infinity()) - std::fabs(R);
    return std::fabs(static_cast<long double>(Got) - Ref) <= Ulps * Ulp;
}

// Vectors of Width elements (padded to 4) mixing magnitudes.
template <typename T>
std::vector<T> inputs(int Width) {
    const T Max = std::numeric_limits<T>::max(), Min = std::numeric_limits<T>::min();
    const T Tiny = std::numeric_limits<T>::denorm_min();
    const T Big = sizeof(T) == 8 ? T(1e308) : T(1e38);
    const T Values[][4] = {
        {Big, Big, -Big, Big},          {-Big, Big, Big, -Big},
        {Max, Max, Max, Max},           {Max, -Max, T(1), T(0)},
        {Big, Min, Tiny, T(-2)},        {Tiny, Tiny, Tiny, -Tiny},
        {Min, -Min, Min, Min},          {T(3), T(4), T(12), T(0)},
        {T(1), T(0), T(0), T(0)},       {T(-0.5), T(0.25), T(1e-3), T(7)},
        {Tiny * 3, -Tiny * 5, Tiny, 0}, {Big / 3, -Big / 7, Big / 11, Big / 13},
    };
    std::vector<T> Out;
    for (const auto& V : Values)
        for (int I = 0; I < 4; ++I)
            Out.push_back(I < Width ? V[I] : T(0));
    return Out;
}

template <typename T>
void checkGeometry(const std::string& Type, int Width) {
    std::string V = Width == 1 ? Type : Type + std::to_string(Width);
    std::string W = std::to_string(Width);
    std::string LoadP = Width == 1 ? "p[4 * i]" : "vload" + W + "(0, p + 4 * i)";
    std::string LoadQ = Width == 1 ? "q[4 * i]" : "vload" + W + "(0, q + 4 * i)";
    std::string Store = Width == 1 ? "n[4 * i] = r;" : "vstore" + W + "(r, 0, n + 4 * i);";
    std::string Source = "kernel void geo(global const " + Type + " *p, global const " + Type +
                         " *q, global " + Type + " *n, global " + Type + " *len, global " + Type +
                         " *dist) {\n  size_t i = get_global_id(0);\n  " + V + " a = " + LoadP +
                         ", b = " + LoadQ + ";\n  " + V + " r = normalize(a);\n  " + Store +
                         "\n  len[i] = length(a);\n  dist[i] = distance(a, b);\n}\n";
    INFO(Source);
    auto M = kctest::build(Source);
    auto Program = kctest::jit(*M);
    std::vector<T> P = inputs<T>(Width);
    size_t Count = P.size() / 4;
    std::vector<T> Q(P.begin() + 4, P.end());
    Q.insert(Q.end(), P.begin(), P.begin() + 4);
    std::vector<T> N(P.size(), T(-9)), Len(Count, T(-9)), Dist(Count, T(-9));
    kctest::ArgBuffer Args(M->kernels()[0]);
    Args.set(0, P.data()).set(1, Q.data()).set(2, N.data()).set(3, Len.data()).set(4, Dist.data());
    kctest::runNDRange(Program->lookup("geo"), Args, 1, {Count, 1, 1}, {Count, 1, 1});
    for (size_t I = 0; I < Count; ++I) {
        long double SumP = 0, SumD = 0;
        for (int E = 0; E < Width; ++E) {
            long double X = P[4 * I + E], D = X - static_cast<long double>(Q[4 * I + E]);
            SumP += X * X;
            SumD += D * D;
        }
        long double LenRef = std::sqrt(SumP);
        INFO(V << " input " << I << ": " << P[4 * I] << " " << P[4 * I + 1] << " " << P[4 * I + 2]
               << " " << P[4 * I + 3]);
        CHECK(within(Len[I], LenRef, 4));
        if (sizeof(T) == 4 || std::isfinite(static_cast<T>(std::sqrt(SumD))))
            CHECK(within(Dist[I], std::sqrt(SumD), 4));
        for (int E = 0; E < Width; ++E) {
            long double Ref = LenRef == 0 ? P[4 * I + E] : P[4 * I + E] / LenRef;
            INFO("normalize element " << E << ": " << N[4 * I + E] << " expected "
                                      << static_cast<T>(Ref));
            CHECK(within(N[4 * I + E], Ref, 4));
        }
    }
}

} // namespace

TEST_CASE("length, distance and normalize without spurious overflow or underflow",
          "[compiler][exec][geometric]") {
    for (int Width : {1, 2, 3, 4}) {
        checkGeometry<double>("double", Width);
        checkGeometry<float>("float", Width);
    }
}

TEST_CASE("normalize with infinite elements gives their directions",
          "[compiler][exec][geometric]") {
    auto M = kctest::build(R"CL(
kernel void inf(global double *out, global float *outf) {
  vstore4(normalize((double4)(INFINITY, 5.0, -INFINITY, -2.0)), 0, out);
  vstore3(normalize((float3)(-INFINITY, 1.0f, 0.0f)), 0, outf);
}
)CL");
    auto Program = kctest::jit(*M);
    std::vector<double> Out(4, -9);
    std::vector<float> OutF(3, -9);
    kctest::ArgBuffer Args(M->kernels()[0]);
    Args.set(0, Out.data()).set(1, OutF.data());
    kctest::runNDRange(Program->lookup("inf"), Args, 1, {1, 1, 1}, {1, 1, 1});
    const double H = 1 / std::sqrt(2.0);
    CHECK(within<double>(Out[0], H, 1));
    CHECK(Out[1] == 0.0);
    CHECK(within<double>(Out[2], -H, 1));
    CHECK(Out[3] == 0.0);
    CHECK(std::signbit(Out[3]));
    CHECK(OutF[0] == -1.0f);
    CHECK(OutF[1] == 0.0f);
    CHECK(OutF[2] == 0.0f);
}
