// The builtin library, run through the compiler: vload/vstore and half
// conversions in every rounding mode, conversions with saturation and
// rounding, atomics (legacy and C11, global and local), async copies,
// shuffles and fences.
#include "builtins_test.hpp"

using namespace builtins_test;

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
