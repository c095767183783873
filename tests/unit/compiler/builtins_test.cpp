// Builtin functions on random inputs against host references.
#include "compiler_test.hpp"

#include <bit>
#include <cfenv>
#include <cmath>
#include <limits>
#include <random>

namespace {

// Builds one kernel and runs it over N work-items in groups of Local.
struct Runner {
    std::unique_ptr<kc::Module> M;
    std::unique_ptr<kc::NativeProgram> P;
    Runner(const std::string& Source, const std::string& Options = "-cl-std=CL3.0")
        : M(kctest::build(Source, Options)), P(kctest::jit(*M)) {}
    template <typename... Ptrs>
    void run(size_t N, size_t Local, Ptrs... Args) {
        const kc::KernelInfo& K = M->kernels().at(0);
        kctest::ArgBuffer Buffer(K);
        unsigned I = 0;
        (Buffer.set(I++, Args), ...);
        kctest::runNDRange(P->lookup(K.Name), Buffer, 1, {N, 1, 1}, {Local, 1, 1}, {0, 0, 0},
                           Local * 64);
    }
};

template <typename T>
int64_t ulpDistance(T A, T B) {
    using I = std::conditional_t<sizeof(T) == 4, int32_t, int64_t>;
    if (std::isnan(A) && std::isnan(B))
        return 0;
    if (A == B)
        return 0;
    auto Ordered = [](T X) {
        I Bits = std::bit_cast<I>(X);
        return Bits < 0 ? std::numeric_limits<I>::min() - Bits : Bits;
    };
    return std::abs(static_cast<int64_t>(Ordered(A)) - static_cast<int64_t>(Ordered(B)));
}

// The high half of the 128-bit product.
int64_t mulHigh(int64_t A, int64_t B) {
    __extension__ typedef __int128 Int128;
    return static_cast<int64_t>((static_cast<Int128>(A) * B) >> 64);
}

std::vector<float> randomFloats(size_t N, float Lo, float Hi, unsigned Seed) {
    std::mt19937 Gen(Seed);
    std::uniform_real_distribution<float> D(Lo, Hi);
    std::vector<float> V(N);
    for (float& X : V)
        X = D(Gen);
    return V;
}

} // namespace

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

// The half (as float) nearest to F in the given direction.
float halfReference(float F, int Mode) {
    auto HalfValue = [](uint16_t Bits) {
        int E = (Bits >> 10) & 31, M = Bits & 1023;
        float V = E == 0    ? std::ldexp(static_cast<float>(M), -24)
                  : E == 31 ? std::numeric_limits<float>::infinity()
                            : std::ldexp(static_cast<float>(M | 1024), E - 25);
        return (Bits & 0x8000) ? -V : V;
    };
    float A = std::fabs(F);
    uint16_t Lo = 0; // the largest half magnitude not above A
    for (int Step = 1 << 14; Step; Step >>= 1)
        if (Lo + Step <= 0x7c00 && HalfValue(static_cast<uint16_t>(Lo + Step)) <= A)
            Lo = static_cast<uint16_t>(Lo + Step);
    float Down = HalfValue(Lo), Up = HalfValue(static_cast<uint16_t>(std::min(Lo + 1, 0x7c00)));
    if (Down == A)
        return std::copysign(Down, F);
    bool Negative = std::signbit(F);
    float Magnitude = 0;
    switch (Mode) {
    case 0: { // to nearest even; 65520 and above overflow
        float Mid = (Down + Up) / 2;
        bool Even = (Lo & 1) == 0;
        Magnitude = A < Mid || (A == Mid && Even) ? Down : Up;
        if (Lo == 0x7bff && A >= 65520.0f)
            Magnitude = std::numeric_limits<float>::infinity();
        break;
    }
    case 1: Magnitude = Down; break;
    case 2: Magnitude = Negative ? Down : Up; break;
    default: Magnitude = Negative ? Up : Down; break;
    }
    return Negative ? -Magnitude : Magnitude;
}

} // namespace

TEST_CASE("vload, vstore and half conversions in every rounding mode", "[compiler][builtins]") {
    Runner R(R"CL(
kernel void k(global const float *in, global half *h, global float *back, global int *v) {
    size_t i = get_global_id(0);
    vstore_half_rte(in[i], 4 * i, h);
    vstore_half_rtz(in[i], 4 * i + 1, h);
    vstore_half_rtp(in[i], 4 * i + 2, h);
    vstore_half_rtn(in[i], 4 * i + 3, h);
    float4 b = vload_half4(i, h);
    vstore4(b, i, back);
    int3 t = vload3(i, v);
    vstore3(t.zyx + (int3)(1, 2, 3), i, v);
}
)CL");
    const size_t N = 512;
    std::vector<float> In = randomFloats(N, -70000, 70000, 5);
    for (size_t I = 0; I < N; I += 7)
        In[I] = std::ldexp(In[I], -30); // subnormal halves
    In[1] = 65519.0f;
    In[2] = 65520.0f;
    In[3] = -0.0f;
    In[4] = std::numeric_limits<float>::infinity();
    std::vector<uint16_t> H(4 * N);
    std::vector<float> Back(4 * N);
    std::vector<int> V(3 * N);
    for (size_t I = 0; I < V.size(); ++I)
        V[I] = static_cast<int>(I);
    R.run(N, 64, In.data(), H.data(), Back.data(), V.data());
    for (size_t I = 0; I < N; ++I)
        for (int Mode = 0; Mode < 4; ++Mode) {
            INFO("value " << In[I] << " mode " << Mode);
            float Want = halfReference(In[I], Mode);
            CHECK(std::bit_cast<uint32_t>(Back[4 * I + Mode]) == std::bit_cast<uint32_t>(Want));
        }
    for (size_t I = 0; I < N; ++I) {
        CHECK(V[3 * I] == static_cast<int>(3 * I + 2) + 1);
        CHECK(V[3 * I + 1] == static_cast<int>(3 * I + 1) + 2);
        CHECK(V[3 * I + 2] == static_cast<int>(3 * I) + 3);
    }
}

TEST_CASE("conversions with saturation and rounding modes", "[compiler][builtins]") {
    Runner R(R"CL(
kernel void k(global const float *f, global const long *l, global int *io, global float *fo) {
    size_t i = get_global_id(0);
    float x = f[i];
    long y = l[i];
    global int *o = io + 8 * i;
    o[0] = convert_int(x);
    o[1] = convert_int_sat_rte(x * 1e8f);
    o[2] = convert_int_rtp(x);
    o[3] = convert_int_rtn(x);
    o[4] = convert_uchar_sat((int)x);
    o[5] = convert_char_sat_rtz(x);
    int4 v = convert_int4_sat(vload4(0, f) * 1e9f);
    o[6] = v.x + v.y;
    o[7] = convert_ushort_sat(y);
    global float *p = fo + 4 * i;
    p[0] = convert_float_rtz(y);
    p[1] = convert_float_rtp(y);
    p[2] = convert_float_rtn((double)y * 1.0000001);
    p[3] = convert_float(y);
}
)CL");
    const size_t N = 256;
    std::vector<float> F = randomFloats(N, -300, 300, 9);
    F[0] = std::nanf("");
    std::mt19937_64 Gen(4);
    std::vector<int64_t> L(N);
    for (int64_t& Y : L)
        Y = static_cast<int64_t>(Gen()) >> (Gen() % 40);
    std::vector<int> IO(8 * N);
    std::vector<float> FO(4 * N);
    R.run(N, 32, F.data(), L.data(), IO.data(), FO.data());
    auto SatInt = [](double V) {
        if (std::isnan(V))
            return 0;
        return static_cast<int>(std::clamp(V, -2147483648.0, 2147483647.0));
    };
    auto Directed = [](double V, int Mode) {
        std::fesetround(Mode);
        volatile double In = V;
        float Out = static_cast<float>(In);
        std::fesetround(FE_TONEAREST);
        return Out;
    };
    for (size_t I = 0; I < N; ++I) {
        float X = F[I];
        const int* O = &IO[8 * I];
        INFO("x = " << X << " y = " << L[I]);
        if (!std::isnan(X)) {
            CHECK(O[0] == static_cast<int>(X));
            CHECK(O[2] == static_cast<int>(std::ceil(X)));
            CHECK(O[3] == static_cast<int>(std::floor(X)));
            CHECK(O[4] == std::clamp(static_cast<int>(X), 0, 255));
            CHECK(O[5] == static_cast<int>(std::clamp(std::trunc(X), -128.0f, 127.0f)));
        }
        CHECK(O[1] == SatInt(std::nearbyint(static_cast<double>(X * 1e8f))));
        int V0 = SatInt(static_cast<double>(F[0] * 1e9f)), V1 = SatInt(F[1] * 1e9f);
        CHECK(O[6] == static_cast<int>(static_cast<uint32_t>(V0) + static_cast<uint32_t>(V1)));
        CHECK(O[7] == std::clamp<int64_t>(L[I], 0, 65535));
        const float* P = &FO[4 * I];
        // long -> float directed: via the exact long double.
        auto FromLong = [&](int Mode) {
            std::fesetround(Mode);
            volatile long double In = static_cast<long double>(L[I]);
            float Out = static_cast<float>(In);
            std::fesetround(FE_TONEAREST);
            return Out;
        };
        CHECK(P[0] == FromLong(FE_TOWARDZERO));
        CHECK(P[1] == FromLong(FE_UPWARD));
        CHECK(P[2] == Directed(static_cast<double>(L[I]) * 1.0000001, FE_DOWNWARD));
        CHECK(P[3] == static_cast<float>(L[I]));
    }
}

TEST_CASE("atomics, legacy and C11, on global and local memory", "[compiler][builtins]") {
    Runner R(R"CL(
kernel void k(global int *counters, global long *wide, global atomic_int *c11) {
    local int hist[4];
    local atomic_int lc;
    size_t l = get_local_id(0);
    if (l < 4)
        hist[l] = 0;
    if (l == 0)
        atomic_init(&lc, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_add(&counters[0], 1);
    atomic_inc(&counters[1]);
    atomic_max(&counters[2], (int)get_global_id(0));
    atomic_min(&counters[3], -(int)get_global_id(0));
    atomic_or(&counters[4], 1 << (get_global_id(0) % 31));
    int old;
    do {
        old = counters[5];
    } while (atomic_cmpxchg(&counters[5], old, old + 2) != old);
    atom_add(&wide[0], 1L << 33);
    atomic_inc(&hist[l % 4]);
    atomic_fetch_add(&c11[0], 3);
    atomic_fetch_sub_explicit(&c11[1], 1, memory_order_relaxed, memory_scope_device);
    atomic_fetch_add_explicit(&lc, 1, memory_order_relaxed, memory_scope_work_group);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 4)
        atomic_add(&counters[8 + l], hist[l]);
    if (l == 0)
        atomic_fetch_add(&c11[2], atomic_load(&lc));
}
)CL");
    const size_t N = 1024, Local = 64;
    std::vector<int> Counters(12, 0);
    Counters[3] = 5;
    std::vector<int64_t> Wide(1, 0);
    std::vector<int> C11(3, 0);
    R.run(N, Local, Counters.data(), Wide.data(), C11.data());
    CHECK(Counters[0] == static_cast<int>(N));
    CHECK(Counters[1] == static_cast<int>(N));
    CHECK(Counters[2] == static_cast<int>(N - 1));
    CHECK(Counters[3] == -static_cast<int>(N - 1));
    CHECK(Counters[4] == 0x7fffffff);
    CHECK(Counters[5] == static_cast<int>(2 * N));
    CHECK(Wide[0] == static_cast<int64_t>(N) << 33);
    for (int J = 0; J < 4; ++J)
        CHECK(Counters[8 + J] == static_cast<int>(N / 4));
    CHECK(C11[0] == static_cast<int>(3 * N));
    CHECK(C11[1] == -static_cast<int>(N));
    CHECK(C11[2] == static_cast<int>(N));
}

TEST_CASE("async copies, shuffles and fences", "[compiler][builtins]") {
    Runner R(R"CL(
kernel void k(global const int *in, global int *out, global int4 *sh) {
    local int tile[64];
    size_t g = get_group_id(0);
    event_t e = async_work_group_copy(tile, in + 64 * g, 64, 0);
    wait_group_events(1, &e);
    for (size_t l = get_local_id(0); l < 64; l += get_local_size(0))
        tile[l] *= 2;
    mem_fence(CLK_LOCAL_MEM_FENCE);
    barrier(CLK_LOCAL_MEM_FENCE);
    e = async_work_group_strided_copy(out + g, tile, 64, 2, 0);
    wait_group_events(1, &e);
    if (get_global_id(0) == 0) {
        int4 a = (int4)(10, 11, 12, 13), b = (int4)(20, 21, 22, 23);
        sh[0] = shuffle(a, (uint4)(3, 2, 1, 0));
        int8 c = shuffle2(a, b, (uint8)(0, 4, 1, 5, 2, 6, 3, 15));
        sh[1] = c.lo;
        sh[2] = c.hi;
    }
}
)CL");
    const size_t Groups = 2, Local = 16;
    std::vector<int> In(64 * Groups), Out(128 * Groups + 2, -1);
    for (size_t I = 0; I < In.size(); ++I)
        In[I] = static_cast<int>(I);
    std::vector<int> Sh(12);
    R.run(Groups * Local, Local, In.data(), Out.data(), Sh.data());
    for (size_t G = 0; G < Groups; ++G)
        for (size_t I = 0; I < 64; ++I)
            CHECK(Out[G + 2 * I] == 2 * In[64 * G + I]);
    CHECK(Sh == std::vector<int>{13, 12, 11, 10, 10, 20, 11, 21, 12, 22, 13, 23});
}

namespace {

// The host's lgamma_r of a double, result and sign.
struct Lgamma {
    double Value;
    int Sign;
};
// The C library's lgamma_r, with the sign OpenCL C wants at the poles (zero
// and the negative integers): 0, where the C library reports 1 or -1.
Lgamma hostLgammaR(double X) {
    int Sign = 0;
    double Value = ::lgamma_r(X, &Sign);
    if (X <= 0 && std::floor(X) == X && !std::isinf(X))
        Sign = 0;
    return {Value, Sign};
}

// lgamma_r through every address space of the sign pointer, scalar and every
// vector width; each result is checked against the scalar private one.
const char* LgammaSource = R"CL(
#define WIDTHS(T, I) W(T, I, 2) W(T, I, 3) W(T, I, 4) W(T, I, 8) W(T, I, 16)
#define W(T, I, N)                                                            \
    if (i % N == 0) {                                                         \
        I##N s;                                                               \
        T##N r = lgamma_r(vload##N(i / N, in), &s);                           \
        vstore##N(r, i / N, vout##N);                                         \
        vstore##N(s, i / N, vsign##N);                                        \
    }
#define KERNEL(T, I)                                                          \
kernel void k_##T(global const T *in, global T *out, global int *sign,        \
                  global T *spaces, global int *space_signs,                  \
                  global T *vout2, global T *vout3, global T *vout4,          \
                  global T *vout8, global T *vout16, global int *vsign2,      \
                  global int *vsign3, global int *vsign4, global int *vsign8, \
                  global int *vsign16) {                                      \
    local int lsign[64];                                                      \
    size_t i = get_global_id(0);                                              \
    int s;                                                                    \
    out[i] = lgamma_r(in[i], &s);                                             \
    sign[i] = s;                                                              \
    spaces[3 * i] = lgamma_r(in[i], space_signs + 3 * i);                     \
    spaces[3 * i + 1] = lgamma_r(in[i], &lsign[get_local_id(0)]);             \
    space_signs[3 * i + 1] = lsign[get_local_id(0)];                          \
    GENERIC(T)                                                                \
    WIDTHS(T, I)                                                              \
}
#ifdef __opencl_c_generic_address_space
#define GENERIC(T)                                                            \
    int gs;                                                                   \
    int *g = &gs;                                                             \
    spaces[3 * i + 2] = lgamma_r(in[i], g);                                   \
    space_signs[3 * i + 2] = gs;
#else
#define GENERIC(T)                                                            \
    spaces[3 * i + 2] = out[i];                                               \
    space_signs[3 * i + 2] = s;
#endif
KERNEL(float, int)
KERNEL(double, int)
)CL";

template <typename T>
std::vector<T> lgammaInputs() {
    const T Inf = std::numeric_limits<T>::infinity();
    const T Nan = std::numeric_limits<T>::quiet_NaN();
    std::vector<T> X = {T(0),
                        -T(0),
                        T(1),
                        T(2),
                        T(-1),
                        T(-2),
                        T(-3),
                        T(-100),
                        Inf,
                        -Inf,
                        Nan,
                        T(0.5),
                        T(-0.5),
                        T(1.5),
                        T(-1.5),
                        T(-2.5),
                        T(-3.5),
                        T(1e-15),
                        T(-1e-15),
                        T(1e-30),
                        T(-1e-30),
                        T(3e37),
                        T(1e30),
                        T(-1e10),
                        T(-2.457024738220800),
                        T(1e-6),
                        T(7.5),
                        T(35.25),
                        T(-0.999),
                        T(-2.001),
                        std::numeric_limits<T>::max(),
                        std::numeric_limits<T>::min(),
                        std::numeric_limits<T>::denorm_min(),
                        -std::numeric_limits<T>::denorm_min()};
    std::mt19937 Gen(11);
    std::uniform_real_distribution<double> Small(-20, 20), Exponent(-30, 30);
    while (X.size() < 256) {
        X.push_back(static_cast<T>(Small(Gen)));
        X.push_back(static_cast<T>(std::pow(10.0, Exponent(Gen))));
    }
    X.resize(256);
    return X;
}

template <typename T>
void checkLgammaR(Runner& R, const std::string& Name) {
    INFO(Name);
    const size_t N = 256;
    std::vector<T> In = lgammaInputs<T>(), Out(N), Spaces(3 * N);
    In.resize(N + 16, T(1)); // the last vector of 3 reads past N
    std::vector<int> Sign(N), SpaceSigns(3 * N);
    const unsigned Widths[] = {2, 3, 4, 8, 16};
    std::vector<std::vector<T>> VOut(5, std::vector<T>(N + 16));
    std::vector<std::vector<int>> VSign(5, std::vector<int>(N + 16));
    const kc::KernelInfo* K = nullptr;
    for (const kc::KernelInfo& Info : R.M->kernels())
        if (Info.Name == Name)
            K = &Info;
    REQUIRE(K);
    kctest::ArgBuffer Args(*K);
    Args.set(0, In.data()).set(1, Out.data()).set(2, Sign.data());
    Args.set(3, Spaces.data()).set(4, SpaceSigns.data());
    for (unsigned W = 0; W < 5; ++W) {
        Args.set(5 + W, VOut[W].data());
        Args.set(10 + W, VSign[W].data());
    }
    // Groups of 16: N is a multiple of every width but 3.
    kctest::runNDRange(R.P->lookup(Name), Args, 1, {N, 1, 1}, {16, 1, 1}, {0, 0, 0}, 4096);
    size_t Wrong = 0;
    for (size_t I = 0; I < N; ++I) {
        const T X = In[I];
        const Lgamma Host = hostLgammaR(static_cast<double>(X));
        INFO("x = " << X << " (i = " << I << "), host " << Host.Value << " sign " << Host.Sign
                    << ", got " << Out[I] << " sign " << Sign[I]);
        // The sign exactly; the value within an ulp (float, from the double
        // function) or exactly (double: the same function).
        CHECK(Sign[I] == Host.Sign);
        CHECK(ulpDistance(Out[I], static_cast<T>(Host.Value)) <= (sizeof(T) == 4 ? 1 : 0));
        if (std::isnan(X))
            CHECK(std::isnan(Out[I]));
        for (unsigned S = 0; S < 3; ++S) {
            Wrong += ulpDistance(Spaces[3 * I + S], Out[I]) != 0;
            Wrong += SpaceSigns[3 * I + S] != Sign[I];
        }
        for (unsigned W = 0; W < 5; ++W) {
            if (I / Widths[W] * Widths[W] + Widths[W] > N)
                continue;
            Wrong += ulpDistance(VOut[W][I], Out[I]) != 0;
            Wrong += VSign[W][I] != Sign[I];
        }
    }
    CHECK(Wrong == 0);
}

} // namespace

TEST_CASE("lgamma_r: float and double, every address space and width", "[compiler][builtins]") {
    for (const char* Options : {"-cl-std=CL3.0", "-cl-std=CL1.2"}) {
        INFO(Options);
        Runner R(LgammaSource, Options);
        checkLgammaR<float>(R, "k_float");
        checkLgammaR<double>(R, "k_double");
    }
    // Float lgamma and lgamma_r agree.
    Runner R(R"CL(
kernel void k(global const float *in, global float *out) {
    size_t i = get_global_id(0);
    int s;
    out[2 * i] = lgamma(in[i]);
    out[2 * i + 1] = lgamma_r(in[i], &s);
}
)CL");
    std::vector<float> In = lgammaInputs<float>(), Out(512);
    R.run(256, 64, In.data(), Out.data());
    for (size_t I = 0; I < 256; ++I) {
        INFO("x = " << In[I]);
        CHECK(ulpDistance(Out[2 * I], Out[2 * I + 1]) == 0);
    }
}

TEST_CASE("-cl-denorms-are-zero flushes in the kernel and keeps the caller's MXCSR",
          "[compiler][builtins]") {
    const char* Source = R"CL(
kernel void k(global const float *a, global const float *b, global float *out,
              global const double *d, global double *dout) {
    size_t i = get_global_id(0);
    out[2 * i] = a[i] + b[i];
    out[2 * i + 1] = a[i] * b[i];
    dout[i] = d[i] * 0x1p-1000;
}
)CL";
    auto Flush = [](auto X) {
        return std::fpclassify(X) == FP_SUBNORMAL ? std::copysign(decltype(X)(0), X) : X;
    };
    const float Denormal = std::bit_cast<float>(uint32_t{64});
    std::vector<float> A = {0.0f, Denormal, -Denormal, 1e-20f, 1.0f, 0x1p-126f, 0x1.8p-126f, 2.0f};
    std::vector<float> B = {Denormal, 0.0f, 1.0f, 1e-20f, Denormal, 0.5f, -0x1p-126f, 3.0f};
    std::vector<double> D = {0x1p-50, 1.0, -0x1p-30, 0x1p-22, 0.0, -0x1p-23, 0x1p-60, 7.0};
    const size_t N = A.size();
    for (const char* Options :
         {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-denorms-are-zero", "-cl-denorms-are-zero"}) {
        const bool Flushing = std::string(Options).find("denorms") != std::string::npos;
        INFO(Options);
        Runner R(Source, Options);
        std::vector<float> Out(2 * N);
        std::vector<double> DOut(N);
        // The control bits (rounding, masks, FTZ, DAZ); the low six are
        // exception flags the arithmetic may raise.
        const unsigned Control = ~0x3fu;
        const unsigned Before = __builtin_ia32_stmxcsr();
        R.run(N, 4, A.data(), B.data(), Out.data(), D.data(), DOut.data());
        CHECK((__builtin_ia32_stmxcsr() & Control) == (Before & Control));
        for (size_t I = 0; I < N; ++I) {
            INFO("element " << I);
            float X = Flushing ? Flush(A[I]) : A[I], Y = Flushing ? Flush(B[I]) : B[I];
            float Sum = X + Y, Product = X * Y;
            double Scaled = D[I] * 0x1p-1000;
            if (Flushing) {
                Sum = Flush(Sum);
                Product = Flush(Product);
                Scaled = Flush(Scaled);
            }
            CHECK(std::bit_cast<uint32_t>(Out[2 * I]) == std::bit_cast<uint32_t>(Sum));
            CHECK(std::bit_cast<uint32_t>(Out[2 * I + 1]) == std::bit_cast<uint32_t>(Product));
            CHECK(std::bit_cast<uint64_t>(DOut[I]) == std::bit_cast<uint64_t>(Scaled));
        }
    }
}

TEST_CASE("-cl-denorms-are-zero with barriers", "[compiler][builtins]") {
    Runner R(R"CL(
kernel void k(global const float *a, global float *out) {
    local float tile[16];
    size_t l = get_local_id(0);
    tile[l] = a[get_global_id(0)] * 0x1p-100f;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[15 - l] * 0x1p-30f;
}
)CL",
             "-cl-denorms-are-zero");
    std::vector<float> A(64, 1.0f), Out(64, -1.0f);
    const unsigned Before = __builtin_ia32_stmxcsr() & ~0x3fu;
    R.run(64, 16, A.data(), Out.data());
    CHECK((__builtin_ia32_stmxcsr() & ~0x3fu) == Before);
    // 2^-130 is a denormal: flushed to +0.
    for (float X : Out)
        CHECK(std::bit_cast<uint32_t>(X) == 0u);
}
