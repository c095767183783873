// The builtin library, run through the compiler: lgamma_r in every address
// space and width, and -cl-denorms-are-zero (flushing inside the kernel, the
// caller's MXCSR kept, also across barriers).
#include "builtins_test.hpp"

using namespace builtins_test;

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

namespace {

// The builtins that reach libm, run on denormals under -cl-denorms-are-zero:
// each result must be that of the denormal input or that of its zero
// (OpenCL 3.0, 5.8.6.2: denormal inputs may be flushed), within a few ULPs.
// glibc's scalar functions read a denormal's bits and then computed with it
// as zero under DAZ: logf(denorm_min) gave -103.97, atan2f of two denormals
// NaN.
template <typename T>
void checkLibmUnderDaz(const char* Type) {
    const std::string Source =
        std::string(std::is_same_v<T, double> ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
                                              : "") +
        "typedef " + Type + R"CL( T;
kernel void k(global const T *a, global const T *b, global T *out, global int *e) {
    size_t i = get_global_id(0);
    T x = a[i], y = b[i];
    int n;
    out[8 * i + 0] = log(x);
    out[8 * i + 1] = log2(x);
    out[8 * i + 2] = log10(x);
    out[8 * i + 3] = atan2(x, y);
    out[8 * i + 4] = pow(x, y);
    out[8 * i + 5] = frexp(x, &n);
    out[8 * i + 6] = ldexp(x, 100);
    out[8 * i + 7] = cbrt(x);
    e[i] = n;
}
)CL";
    const T Min = std::numeric_limits<T>::min();
    const T Tiny = std::numeric_limits<T>::denorm_min();
    std::vector<T> A = {Tiny,     -Tiny,      Min / 2, Min - Tiny, -Min / 4,
                        Tiny * 3, Min / 1024, Min,     T(2),       T(0.5)};
    std::vector<T> B = {Tiny, Tiny, -Min / 2, T(2), -Tiny, Min / 8, T(0.5), -Tiny, Tiny, T(3)};
    const size_t N = A.size();
    Runner R(Source, "-cl-std=CL3.0 -cl-denorms-are-zero");
    std::vector<T> Out(8 * N);
    std::vector<int> E(N);
    R.run(N, 1, A.data(), B.data(), Out.data(), E.data());
    using L = long double;
    auto Flush = [](T X) {
        return std::fpclassify(X) == FP_SUBNORMAL ? std::copysign(T(0), X) : X;
    };
    auto Results = [](T X, T Y) {
        int Exponent = 0;
        const T Mantissa = std::frexp(X, &Exponent);
        return std::array<L, 9>{std::log(L(X)),         std::log2(L(X)),      std::log10(L(X)),
                                std::atan2(L(X), L(Y)), std::pow(L(X), L(Y)), L(Mantissa),
                                std::ldexp(L(X), 100),  std::cbrt(L(X)),      L(Exponent)};
    };
    const char* Names[] = {"log", "log2", "log10", "atan2", "pow", "frexp", "ldexp", "cbrt"};
    for (size_t I = 0; I < N; ++I) {
        const auto Exact = Results(A[I], B[I]);
        const auto Flushed = Results(Flush(A[I]), Flush(B[I]));
        for (size_t F = 0; F < 8; ++F) {
            const T Got = Out[8 * I + F];
            INFO(Type << " " << Names[F] << "(" << A[I] << ", " << B[I] << ") = " << Got
                      << ", expected " << T(Exact[F]) << " or " << T(Flushed[F]));
            // A denormal result may be written as zero.
            auto Near = [&](L Want) {
                const T W = static_cast<T>(Want);
                return ulpDistance(Got, W) <= 4 || (Got == 0 && std::fabs(W) < Min);
            };
            CHECK((Near(Exact[F]) || Near(Flushed[F])));
        }
        const bool ExactFrexp = ulpDistance(Out[8 * I + 5], T(Exact[5])) == 0;
        INFO(Type << " frexp(" << A[I] << ") exponent " << E[I]);
        CHECK(E[I] == int(ExactFrexp ? Exact[8] : Flushed[8]));
    }
}

} // namespace

TEST_CASE("-cl-denorms-are-zero: builtins that call libm take denormals as them or as zero",
          "[compiler][builtins]") {
    checkLibmUnderDaz<float>("float");
    checkLibmUnderDaz<double>("double");
}
