// The builtin library, run through the compiler: math functions (scalar,
// vector, two arguments, pointer results), integer, relational, common and
// geometric functions against host references.
#include "builtins_test.hpp"

using namespace builtins_test;

TEST_CASE("math functions, float and double, scalar and vector", "[compiler][builtins]") {
    struct Fn {
        const char* Name;
        double (*Ref)(double);
        float Lo, Hi;
        int64_t FloatUlps;
    };
    const Fn Functions[] = {
        {"sqrt", [](double X) { return std::sqrt(X); }, 0, 1000, 1},
        {"sin", [](double X) { return std::sin(X); }, -10, 10, 4},
        {"cos", [](double X) { return std::cos(X); }, -10, 10, 4},
        {"tan", [](double X) { return std::tan(X); }, -1.5, 1.5, 5},
        {"exp", [](double X) { return std::exp(X); }, -20, 20, 3},
        {"exp2", [](double X) { return std::exp2(X); }, -20, 20, 3},
        {"exp10", [](double X) { return std::pow(10.0, X); }, -10, 10, 3},
        {"log", [](double X) { return std::log(X); }, 0.001f, 1000, 3},
        {"log2", [](double X) { return std::log2(X); }, 0.001f, 1000, 3},
        {"log10", [](double X) { return std::log10(X); }, 0.001f, 1000, 3},
        {"cbrt", [](double X) { return std::cbrt(X); }, -100, 100, 2},
        {"atan", [](double X) { return std::atan(X); }, -10, 10, 5},
        {"asinpi", [](double X) { return std::asin(X) / M_PI; }, -1, 1, 5},
        {"sinpi", [](double X) { return std::sin(M_PI * X); }, -4, 4, 4},
        {"cospi", [](double X) { return std::cos(M_PI * X); }, -4, 4, 4},
        {"rsqrt", [](double X) { return 1 / std::sqrt(X); }, 0.01f, 100, 2},
        {"floor", [](double X) { return std::floor(X); }, -100, 100, 0},
        {"ceil", [](double X) { return std::ceil(X); }, -100, 100, 0},
        {"round", [](double X) { return std::round(X); }, -100, 100, 0},
        {"trunc", [](double X) { return std::trunc(X); }, -100, 100, 0},
        {"erf", [](double X) { return std::erf(X); }, -3, 3, 16},
        {"tgamma", [](double X) { return std::tgamma(X); }, 0.5, 10, 16},
    };
    const size_t N = 256;
    std::vector<float> In = randomFloats(N, 0, 1, 7);
    for (const Fn& F : Functions) {
        INFO(F.Name);
        std::string Source = std::string("kernel void k(global const float *in, global float *out, "
                                         "global double *dout, global float4 *vout) {\n"
                                         "  size_t i = get_global_id(0);\n"
                                         "  out[i] = ") +
                             F.Name + "(in[i]);\n  dout[i] = " + F.Name +
                             "((double)in[i]);\n"
                             "  if (i % 4 == 0) vout[i / 4] = " +
                             F.Name + "(vload4(i / 4, in));\n}\n";
        Runner R(Source);
        std::vector<float> X(N), Out(N), VOut(N);
        std::vector<double> DOut(N);
        for (size_t I = 0; I < N; ++I)
            X[I] = F.Lo + (F.Hi - F.Lo) * In[I];
        R.run(N, 64, X.data(), Out.data(), DOut.data(), VOut.data());
        for (size_t I = 0; I < N; ++I) {
            double Want = F.Ref(static_cast<double>(X[I]));
            INFO("x = " << X[I]);
            CHECK(ulpDistance(Out[I], static_cast<float>(Want)) <= F.FloatUlps);
            // The vector form meets the same limit; it need not match the
            // scalar form bit for bit (each may call a different libmvec
            // variant, or libm).
            CHECK(ulpDistance(VOut[I], static_cast<float>(Want)) <= F.FloatUlps);
            CHECK(std::abs(DOut[I] - Want) <= 1e-13 * std::max(1.0, std::abs(Want)));
        }
    }
}

TEST_CASE("math functions with two arguments or pointer results", "[compiler][builtins]") {
    Runner R(R"CL(
kernel void k(global const float *a, global const float *b, global float *out, global int *iout) {
    size_t i = get_global_id(0);
    float x = a[i], y = b[i];
    global float *o = out + 16 * i;
    o[0] = pow(fabs(x), y);
    o[1] = atan2(x, y);
    o[2] = fmin(x, y);
    o[3] = fmax(x, y);
    o[4] = fma(x, y, 1.5f);
    o[5] = hypot(x, y);
    o[6] = fmod(x, y);
    o[7] = copysign(x, y);
    float ip;
    o[8] = fract(x, &ip);
    o[9] = ip;
    int e;
    o[10] = frexp(x, &e);
    iout[2 * i] = e;
    o[11] = ldexp(x, (int)y);
    o[12] = rootn(fabs(x), 3);
    o[13] = pown(x, 3);
    int q;
    o[14] = remquo(x, y, &q);
    iout[2 * i + 1] = q & 7;
    o[15] = mix(x, y, 0.25f);
}
)CL");
    const size_t N = 128;
    std::vector<float> A = randomFloats(N, -8, 8, 1), B = randomFloats(N, 0.5f, 4, 2);
    std::vector<float> Out(16 * N);
    std::vector<int> IOut(2 * N);
    R.run(N, 32, A.data(), B.data(), Out.data(), IOut.data());
    for (size_t I = 0; I < N; ++I) {
        float X = A[I], Y = B[I];
        const float* O = &Out[16 * I];
        INFO("x = " << X << " y = " << Y);
        CHECK(ulpDistance(O[0], std::pow(std::fabs(X), Y)) <= 4);
        CHECK(ulpDistance(O[1], std::atan2(X, Y)) <= 4);
        CHECK(O[2] == std::fmin(X, Y));
        CHECK(O[3] == std::fmax(X, Y));
        CHECK(O[4] == std::fma(X, Y, 1.5f));
        CHECK(ulpDistance(O[5], std::hypot(X, Y)) <= 2);
        CHECK(O[6] == std::fmod(X, Y));
        CHECK(O[7] == std::copysign(X, Y));
        CHECK(O[8] == std::fmin(X - std::floor(X), 0x1.fffffep-1f));
        CHECK(O[9] == std::floor(X));
        int E;
        CHECK(O[10] == std::frexp(X, &E));
        CHECK(IOut[2 * I] == E);
        CHECK(O[11] == std::ldexp(X, static_cast<int>(Y)));
        CHECK(ulpDistance(O[12], static_cast<float>(std::cbrt(std::fabs(X)))) <= 2);
        CHECK(ulpDistance(O[13], X * X * X) <= 2);
        int Q;
        CHECK(O[14] == std::remquo(X, Y, &Q));
        CHECK(IOut[2 * I + 1] == (Q & 7));
        CHECK(ulpDistance(O[15], X + (Y - X) * 0.25f) <= 1);
    }
}

TEST_CASE("integer functions", "[compiler][builtins]") {
    Runner R(R"CL(
kernel void k(global const int *a, global const int *b, global int *out, global long *lout) {
    size_t i = get_global_id(0);
    int x = a[i], y = b[i];
    global int *o = out + 16 * i;
    o[0] = (int)abs(x);
    o[1] = (int)abs_diff(x, y);
    o[2] = add_sat(x, y);
    o[3] = sub_sat(x, y);
    o[4] = hadd(x, y);
    o[5] = rhadd(x, y);
    o[6] = clz(x);
    o[7] = ctz(x);
    o[8] = popcount(x);
    o[9] = rotate(x, y);
    o[10] = mul_hi(x, y);
    o[11] = mad_sat(x, y, x);
    o[12] = clamp(x, -1000, 1000);
    o[13] = (int)add_sat((uchar)x, (uchar)y);
    o[14] = (int)clz((short)x);
    o[15] = (int)((uint)max(x, y) - (uint)min(x, y));
    lout[2 * i] = upsample(x, (uint)y);
    lout[2 * i + 1] = mul_hi((long)x << 20, (long)y << 30);
}
)CL");
    const size_t N = 256;
    std::mt19937 Gen(3);
    std::vector<int> A(N), B(N), Out(16 * N);
    std::vector<int64_t> LOut(2 * N);
    for (size_t I = 0; I < N; ++I) {
        A[I] = static_cast<int>(Gen());
        B[I] = I % 3 == 0 ? static_cast<int>(Gen()) : static_cast<int>(Gen() % 64) - 32;
    }
    A[0] = 0;
    A[1] = INT32_MIN;
    R.run(N, 64, A.data(), B.data(), Out.data(), LOut.data());
    auto Sat = [](int64_t V) {
        return static_cast<int>(std::clamp<int64_t>(V, INT32_MIN, INT32_MAX));
    };
    for (size_t I = 0; I < N; ++I) {
        int X = A[I], Y = B[I];
        uint32_t UX = static_cast<uint32_t>(X);
        const int* O = &Out[16 * I];
        INFO("x = " << X << " y = " << Y);
        CHECK(static_cast<uint32_t>(O[0]) == (X < 0 ? 0u - UX : UX));
        CHECK(static_cast<uint32_t>(O[1]) ==
              static_cast<uint32_t>(std::abs(static_cast<int64_t>(X) - Y)));
        CHECK(O[2] == Sat(static_cast<int64_t>(X) + Y));
        CHECK(O[3] == Sat(static_cast<int64_t>(X) - Y));
        CHECK(O[4] == static_cast<int>((static_cast<int64_t>(X) + Y) >> 1));
        CHECK(O[5] == static_cast<int>((static_cast<int64_t>(X) + Y + 1) >> 1));
        CHECK(O[6] == (X == 0 ? 32 : __builtin_clz(UX)));
        CHECK(O[7] == (X == 0 ? 32 : __builtin_ctz(UX)));
        CHECK(O[8] == __builtin_popcount(UX));
        unsigned Rot = static_cast<uint32_t>(Y) & 31;
        CHECK(static_cast<uint32_t>(O[9]) == (Rot ? (UX << Rot) | (UX >> (32 - Rot)) : UX));
        CHECK(O[10] == static_cast<int>((static_cast<int64_t>(X) * Y) >> 32));
        CHECK(O[11] == Sat(static_cast<int64_t>(X) * Y + X));
        CHECK(O[12] == std::clamp(X, -1000, 1000));
        CHECK(O[13] == std::min(255, (X & 255) + (Y & 255)));
        uint16_t S = static_cast<uint16_t>(X);
        CHECK(O[14] == (S == 0 ? 16 : __builtin_clz(S) - 16));
        CHECK(static_cast<uint32_t>(O[15]) ==
              static_cast<uint32_t>(std::max(X, Y)) - static_cast<uint32_t>(std::min(X, Y)));
        CHECK(LOut[2 * I] ==
              static_cast<int64_t>((static_cast<uint64_t>(UX) << 32) | static_cast<uint32_t>(Y)));
        CHECK(LOut[2 * I + 1] ==
              mulHigh(static_cast<int64_t>(X) << 20, static_cast<int64_t>(Y) << 30));
    }
}

TEST_CASE("relational, common and geometric functions", "[compiler][builtins]") {
    Runner R(R"CL(
kernel void k(global const float4 *a, global const float4 *b, global float *out, global int *iout) {
    size_t i = get_global_id(0);
    float4 x = a[i], y = b[i];
    global float *o = out + 8 * i;
    global int *io = iout + 12 * i;
    o[0] = dot(x, y);
    o[1] = length(x);
    o[2] = distance(x, y);
    float3 c = cross(x.xyz, y.xyz);
    o[3] = c.x; o[4] = c.y; o[5] = c.z;
    o[6] = normalize(x).x;
    o[7] = smoothstep(-1.0f, 1.0f, x.w) + step(0.5f, y.w) + sign(x.z);
    int4 lt = isless(x, y);
    io[0] = lt.x; io[1] = lt.y; io[2] = lt.z; io[3] = lt.w;
    io[4] = isless(x.x, y.x);
    io[5] = any(lt);
    io[6] = all(lt);
    io[7] = isnan((x.x - x.x) / (y.x - y.x)) + 2 * isinf(1.0f / (x.y - x.y));
    float4 s = select(x, y, lt);
    io[8] = s.x == fmax(x.x, y.x);
    io[9] = as_int(bitselect(x.x, y.x, as_float(0xffff0000)));
    io[10] = signbit(x.y) + 2 * isequal(x, x).w + 4 * isnotequal(x.z, x.z);
    io[11] = convert_int(clamp(x.x, -2.0f, 2.0f) * 1000.0f);
}
)CL");
    const size_t N = 64;
    std::vector<float> A = randomFloats(4 * N, -5, 5, 11), B = randomFloats(4 * N, -5, 5, 12);
    std::vector<float> Out(8 * N);
    std::vector<int> IOut(12 * N);
    R.run(N, 16, A.data(), B.data(), Out.data(), IOut.data());
    for (size_t I = 0; I < N; ++I) {
        const float* X = &A[4 * I];
        const float* Y = &B[4 * I];
        const float* O = &Out[8 * I];
        const int* IO = &IOut[12 * I];
        double Dot = 0, Len = 0, Dist = 0;
        for (int J = 0; J < 4; ++J) {
            Dot += double(X[J]) * Y[J];
            Len += double(X[J]) * X[J];
            Dist += (double(X[J]) - Y[J]) * (double(X[J]) - Y[J]);
        }
        CHECK(std::abs(O[0] - Dot) <= 1e-4 * std::max(1.0, std::abs(Dot)));
        CHECK(ulpDistance(O[1], static_cast<float>(std::sqrt(Len))) <= 1);
        CHECK(ulpDistance(O[2], static_cast<float>(std::sqrt(Dist))) <= 1);
        CHECK(std::abs(O[3] - (X[1] * Y[2] - X[2] * Y[1])) < 1e-4);
        CHECK(std::abs(O[4] - (X[2] * Y[0] - X[0] * Y[2])) < 1e-4);
        CHECK(std::abs(O[5] - (X[0] * Y[1] - X[1] * Y[0])) < 1e-4);
        CHECK(std::abs(O[6] - X[0] / std::sqrt(Len)) < 1e-6);
        float T = std::clamp((X[3] + 1.0f) / 2.0f, 0.0f, 1.0f);
        CHECK(std::abs(O[7] - (T * T * (3 - 2 * T) + (Y[3] < 0.5f ? 0 : 1) +
                               (X[2] > 0   ? 1
                                : X[2] < 0 ? -1
                                           : 0))) < 1e-6);
        bool AnyLess = false, AllLess = true;
        for (int J = 0; J < 4; ++J) {
            CHECK(IO[J] == (X[J] < Y[J] ? -1 : 0));
            AnyLess |= X[J] < Y[J];
            AllLess &= X[J] < Y[J];
        }
        CHECK(IO[4] == (X[0] < Y[0] ? 1 : 0));
        CHECK(IO[5] == (AnyLess ? 1 : 0));
        CHECK(IO[6] == (AllLess ? 1 : 0));
        CHECK(IO[7] == 3);
        CHECK(IO[8] == 1);
        uint32_t Mask = 0xffff0000u;
        CHECK(static_cast<uint32_t>(IO[9]) ==
              ((std::bit_cast<uint32_t>(X[0]) & ~Mask) | (std::bit_cast<uint32_t>(Y[0]) & Mask)));
        CHECK(IO[10] == (std::signbit(X[1]) ? 1 : 0) - 2); // vector isequal: -1
        CHECK(IO[11] == static_cast<int>(std::clamp(X[0], -2.0f, 2.0f) * 1000.0f));
    }
}

namespace {

// The error of R in float ULPs against the exact value Exact (the ULP of
// Exact's binade; infinities and NaN must match exactly).
double floatUlpError(float R, long double Exact) {
    if (std::isnan(R) || std::isinf(R) || std::isinf(Exact))
        return static_cast<long double>(R) == Exact ? 0 : INFINITY;
    const int Exponent = std::max(std::ilogb(static_cast<float>(Exact)), -126);
    return static_cast<double>(std::fabs(static_cast<long double>(R) - Exact) /
                               std::ldexp(1.0L, Exponent - 23));
}

// Every float of [1, 4) (all significands with both parities of the
// exponent, which is all rsqrt's range reduction sees) and denormals of
// every size, padded with ones to a multiple of 64.
std::vector<float> rsqrtInputs() {
    std::vector<float> In;
    for (uint32_t Bits = std::bit_cast<uint32_t>(1.0f); Bits < std::bit_cast<uint32_t>(4.0f);
         ++Bits)
        In.push_back(std::bit_cast<float>(Bits));
    for (uint32_t Bits : {1u, 2u, 3u, 0x1234u, 0x400000u, 0x7fffffu})
        In.push_back(std::bit_cast<float>(Bits));
    for (float X : {0x1p-126f, 0x1p-100f, 1e-30f, 3.0e38f, 0x1.fffffep127f})
        In.push_back(X);
    while (In.size() % 64 != 0)
        In.push_back(1.0f);
    return In;
}

void checkRsqrt(const std::vector<float>& In, const std::vector<float>& Out) {
    double Worst = 0;
    size_t WorstAt = 0;
    for (size_t I = 0; I < In.size(); ++I) {
        const double E = floatUlpError(Out[I], 1.0L / std::sqrt(static_cast<long double>(In[I])));
        if (!(E <= Worst)) {
            Worst = E;
            WorstAt = I;
        }
    }
    INFO("worst: rsqrt(" << In[WorstAt] << ") = " << Out[WorstAt] << ", " << Worst << " ulp");
    CHECK(Worst <= 2.0);
}

} // namespace

// The math options are fast-math flags on the kernel's own instructions;
// the builtins inlined into it keep their exact semantics. rsqrt(float) is
// 1.0f / sqrt(x) in the library: when the options were function attributes
// of the kernel, the code generator applied them to the inlined builtin too
// and made a reciprocal square root estimate of it (2.03 ulp, and -inf for
// denormals).
TEST_CASE("rsqrt stays within 2 ulp under the relaxed math options", "[compiler][builtins]") {
    const std::string Source = R"CL(
kernel void k(global const float *a, global float *out) {
    size_t i = get_global_id(0);
    out[i] = rsqrt(a[i]);
}
)CL";
    const std::vector<float> In = rsqrtInputs();
    SECTION("built with the options") {
        for (const char* Options : {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-fast-relaxed-math",
                                    "-cl-unsafe-math-optimizations"}) {
            INFO(Options);
            Runner R(Source, Options);
            std::vector<float> Out(In.size());
            R.run(In.size(), 64, In.data(), Out.data());
            checkRsqrt(In, Out);
        }
    }
    SECTION("an object linked with -cl-fast-relaxed-math") {
        std::unique_ptr<kc::Module> Linked =
            kctest::compileAndLink(Source, "-cl-fast-relaxed-math");
        auto Program = kctest::jit(*Linked);
        std::vector<float> Out(In.size());
        kctest::ArgBuffer Args(Linked->kernels().at(0));
        Args.set(0, In.data());
        Args.set(1, Out.data());
        kctest::runNDRange(Program->lookup("k"), Args, 1, {In.size(), 1, 1}, {64, 1, 1});
        checkRsqrt(In, Out);
    }
}
