// Every explicit conversion convert_<dst>[_sat][_rte|_rtz|_rtp|_rtn](<src>)
// between the ten scalar types (OpenCL C 3.0, 6.4.3), scalar and 8-wide,
// on the edge values of each source type (the limits of every destination,
// and for floating-point sources the values around them and the ties) plus
// a random sample, against host references: exact integer arithmetic, and
// the host's conversions in the requested rounding mode for the
// floating-point destinations.
#include "compiler_test.hpp"

#include <algorithm>
#include <bit>
#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>

namespace {

__extension__ typedef __int128 Int128;

struct TypeInfo {
    const char* Name;
    unsigned Bytes;
    bool IsFloat;
    bool Signed;
};

const TypeInfo Types[] = {
    {"char", 1, false, true},    {"uchar", 1, false, false}, {"short", 2, false, true},
    {"ushort", 2, false, false}, {"int", 4, false, true},    {"uint", 4, false, false},
    {"long", 8, false, true},    {"ulong", 8, false, false}, {"float", 4, true, true},
    {"double", 8, true, true},
};

const char* const Roundings[] = {"", "_rte", "_rtz", "_rtp", "_rtn"};

// One conversion of the kernel: destination, saturation, rounding.
struct Conversion {
    const TypeInfo* Dst;
    bool Sat;
    const char* Rounding;
    std::string name(const char* Width = "") const {
        return std::string("convert_") + Dst->Name + Width + (Sat ? "_sat" : "") + Rounding;
    }
};

std::vector<Conversion> conversions() {
    std::vector<Conversion> List;
    for (const TypeInfo& D : Types)
        for (bool Sat : {false, true}) {
            if (Sat && D.IsFloat)
                continue; // no _sat for floating-point destinations
            for (const char* R : Roundings)
                List.push_back({&D, Sat, R});
        }
    return List;
}

// The unsigned type of the same size, the way results are stored (bits).
std::string bitsType(const TypeInfo& T) {
    switch (T.Bytes) {
    case 1: return "uchar";
    case 2: return "ushort";
    case 4: return "uint";
    default: return "ulong";
    }
}

// A kernel converting src[i] (or the 8-vector i) by every conversion; the
// result bits go to out[i * Count + j], zero-extended to 64 bits.
std::string kernelSource(const TypeInfo& Src, const std::vector<Conversion>& List, int Width) {
    std::ostringstream S;
    S << "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
      << "kernel void k(global const " << Src.Name << " *in, global ulong *out) {\n"
      << "  size_t i = get_global_id(0);\n";
    if (Width == 1)
        S << "  " << Src.Name << " x = in[i];\n";
    else
        S << "  " << Src.Name << Width << " x = vload" << Width << "(i, in);\n";
    for (size_t J = 0; J < List.size(); ++J) {
        const Conversion& C = List[J];
        const std::string Bits = bitsType(*C.Dst);
        const std::string Cast = C.Dst->IsFloat ? "as_" + Bits : "(" + Bits + ")";
        if (Width == 1) {
            S << "  out[i * " << List.size() << " + " << J << "] = (ulong)" << Cast << "("
              << C.name() << "(x));\n";
        } else {
            const std::string W = std::to_string(Width);
            S << "  { " << C.Dst->Name << " r[" << W << "]; vstore" << W << "(" << C.name(W.c_str())
              << "(x), 0, r);\n"
              << "    for (int k = 0; k < " << W << "; ++k) out[(i * " << W << " + k) * "
              << List.size() << " + " << J << "] = (ulong)" << Cast << "(r[k]); }\n";
        }
    }
    S << "}\n";
    return S.str();
}

// Integer limits of a type as Int128.
Int128 minOf(const TypeInfo& T) {
    return T.Signed ? -(Int128(1) << (T.Bytes * 8 - 1)) : 0;
}
Int128 maxOf(const TypeInfo& T) {
    return T.Signed ? (Int128(1) << (T.Bytes * 8 - 1)) - 1 : (Int128(1) << (T.Bytes * 8)) - 1;
}

// Values of the source types held exactly: integers as Int128, floats as
// long double (64-bit significand: every double and every 64-bit integer).
struct Value {
    Int128 I = 0;
    long double F = 0;
};

// The edge values of a source type: every destination's limits and their
// neighbours, zero, small values, powers of two and their neighbours; for
// floating-point sources also the halves around them, the neighbouring
// floating-point numbers, denormals, infinities and NaN.
template <typename S>
std::vector<S> edgeValues() {
    std::vector<long double> Bases = {0, 1, 2, 3, 100};
    for (const TypeInfo& T : Types)
        if (!T.IsFloat) {
            Bases.push_back(static_cast<long double>(minOf(T)));
            Bases.push_back(static_cast<long double>(maxOf(T)));
            Bases.push_back(static_cast<long double>(maxOf(T)) + 1);
        }
    for (int E : {23, 24, 25, 52, 53, 54, 62, 63, 64})
        Bases.push_back(std::ldexp(1.0L, E));
    std::vector<S> Values;
    auto Add = [&](long double V) {
        if constexpr (std::is_floating_point_v<S>) {
            Values.push_back(static_cast<S>(V));
        } else {
            if (V >= static_cast<long double>(std::numeric_limits<S>::min()) &&
                V <= static_cast<long double>(std::numeric_limits<S>::max()))
                Values.push_back(static_cast<S>(V));
        }
    };
    for (long double B : Bases)
        for (long double Sign : {1.0L, -1.0L})
            for (long double D : {-1.0L, 0.0L, 1.0L}) {
                const long double V = Sign * B + D;
                Add(V);
                if constexpr (std::is_floating_point_v<S>) {
                    for (long double H : {-0.5L, 0.5L, -0.25L, 0.75L})
                        Add(V + H);
                    const S X = static_cast<S>(V);
                    Values.push_back(std::nextafter(X, std::numeric_limits<S>::infinity()));
                    Values.push_back(std::nextafter(X, -std::numeric_limits<S>::infinity()));
                }
            }
    if constexpr (std::is_floating_point_v<S>) {
        using L = std::numeric_limits<S>;
        for (S V : {L::denorm_min(), L::min(), L::max(), L::infinity(), S(0.5), S(1.5), S(2.5),
                    S(0.49999997f), L::epsilon(), L::quiet_NaN(), S(1e-30), S(1e30)}) {
            Values.push_back(V);
            Values.push_back(-V);
        }
        Values.push_back(-S(0));
    } else {
        Values.push_back(std::numeric_limits<S>::min());
        Values.push_back(std::numeric_limits<S>::max());
    }
    return Values;
}

template <typename S>
S randomValue(std::mt19937_64& Gen) {
    const uint64_t Bits = Gen();
    if constexpr (std::is_same_v<S, float>) {
        switch (Gen() % 4) {
        case 0: return std::bit_cast<float>(static_cast<uint32_t>(Bits));
        case 1: return std::ldexp(static_cast<float>(Bits >> 40), -static_cast<int>(Gen() % 24));
        case 2:
            return (Gen() & 1 ? 1.0f : -1.0f) *
                   std::ldexp(static_cast<float>(Bits >> 40) + 0.5f, static_cast<int>(Gen() % 48));
        default:
            return static_cast<float>(static_cast<int64_t>(Bits) >> (Gen() % 64)) +
                   static_cast<float>(Gen() % 8) / 8.0f;
        }
    } else if constexpr (std::is_same_v<S, double>) {
        switch (Gen() % 4) {
        case 0: return std::bit_cast<double>(Bits);
        case 1: return std::ldexp(static_cast<double>(Bits >> 11), -static_cast<int>(Gen() % 53));
        case 2:
            return (Gen() & 1 ? 1.0 : -1.0) *
                   std::ldexp(static_cast<double>(Bits >> 11) + 0.5, static_cast<int>(Gen() % 75));
        default:
            return static_cast<double>(static_cast<int64_t>(Bits) >> (Gen() % 64)) +
                   static_cast<double>(Gen() % 8) / 8.0;
        }
    } else {
        // Full-range patterns, and small values in one draw of four.
        return static_cast<S>(Gen() % 4 == 0 ? static_cast<int64_t>(Bits) >> (Gen() % 64) : Bits);
    }
}

long double roundInMode(long double X, const char* R, bool IntegerDefault) {
    const std::string Mode = R;
    if (Mode == "_rtz" || (Mode.empty() && IntegerDefault))
        return std::trunc(X);
    if (Mode == "_rtp")
        return std::ceil(X);
    if (Mode == "_rtn")
        return std::floor(X);
    return std::nearbyint(X); // _rte (the host's default mode is to nearest)
}

int fenvMode(const char* R) {
    const std::string Mode = R;
    if (Mode == "_rtz")
        return FE_TOWARDZERO;
    if (Mode == "_rtp")
        return FE_UPWARD;
    if (Mode == "_rtn")
        return FE_DOWNWARD;
    return FE_TONEAREST;
}

// The reference bits of one conversion, or false when the result is
// undefined (an unsaturated conversion of a floating-point value out of
// the destination's range or NaN).
template <typename S>
bool reference(S X, const Conversion& C, uint64_t& Bits) {
    const TypeInfo& D = *C.Dst;
    if (!D.IsFloat) {
        Int128 V;
        if constexpr (std::is_floating_point_v<S>) {
            if (std::isnan(X)) {
                if (!C.Sat)
                    return false;
                V = 0;
            } else {
                const long double R = roundInMode(X, C.Rounding, true);
                const long double Lo = static_cast<long double>(minOf(D));
                const long double Hi = static_cast<long double>(maxOf(D));
                if (!C.Sat && (R < Lo || R > Hi))
                    return false;
                V = R <= Lo ? minOf(D) : R >= Hi ? maxOf(D) : static_cast<Int128>(R);
            }
        } else {
            V = static_cast<Int128>(X);
            if (C.Sat)
                V = std::clamp(V, minOf(D), maxOf(D));
        }
        const uint64_t Mask = D.Bytes == 8 ? ~uint64_t(0) : (uint64_t(1) << (D.Bytes * 8)) - 1;
        Bits = static_cast<uint64_t>(V) & Mask;
        return true;
    }
    // Floating-point destination: the exact source value rounded once in
    // the requested mode (default: to nearest).
    long double Exact;
    if constexpr (std::is_floating_point_v<S>)
        Exact = X;
    else
        Exact = static_cast<long double>(X); // exact: 64-bit significand
    std::fesetround(fenvMode(C.Rounding));
    volatile long double In = Exact;
    if (D.Bytes == 4) {
        volatile float Out = static_cast<float>(In);
        std::fesetround(FE_TONEAREST);
        Bits = std::bit_cast<uint32_t>(static_cast<float>(Out));
    } else {
        volatile double Out = static_cast<double>(In);
        std::fesetround(FE_TONEAREST);
        Bits = std::bit_cast<uint64_t>(static_cast<double>(Out));
    }
    return true;
}

bool isNaNBits(uint64_t Bits, const TypeInfo& D) {
    if (!D.IsFloat)
        return false;
    return D.Bytes == 4 ? std::isnan(std::bit_cast<float>(static_cast<uint32_t>(Bits)))
                        : std::isnan(std::bit_cast<double>(Bits));
}

template <typename S>
std::string show(S X) {
    std::ostringstream O;
    if constexpr (std::is_floating_point_v<S>)
        O << std::hexfloat << X;
    else
        O << static_cast<long long>(X) << " (0x" << std::hex << static_cast<unsigned long long>(X)
          << ")";
    return O.str();
}

template <typename S>
void checkSource(const TypeInfo& Src) {
    const std::vector<Conversion> List = conversions();
    std::vector<S> Inputs = edgeValues<S>();
    std::mt19937_64 Gen(0x5eed + Src.Bytes * 7 + (Src.IsFloat ? 1 : 0) + (Src.Signed ? 2 : 0));
    while (Inputs.size() < 8192)
        Inputs.push_back(randomValue<S>(Gen));
    const size_t N = Inputs.size(); // a multiple of 64 and of 8
    for (int Width : {1, 8}) {
        INFO("source " << Src.Name << ", width " << Width);
        const std::string Source = kernelSource(Src, List, Width);
        kc::BuildResult R = kctest::compiler().build(Source, "-cl-std=CL3.0");
        INFO(R.Log);
        REQUIRE(R.Output);
        auto P = kctest::jit(*R.Output);
        const kc::KernelInfo& K = R.Output->kernels().at(0);
        std::vector<uint64_t> Out(N * List.size(), 0xdeadbeefdeadbeefull);
        kctest::ArgBuffer Args(K);
        Args.set(0, Inputs.data());
        Args.set(1, Out.data());
        const size_t Items = N / Width;
        kctest::runNDRange(P->lookup(K.Name), Args, 1, {Items, 1, 1}, {64, 1, 1});
        size_t Failures = 0, Checked = 0;
        for (size_t I = 0; I < N; ++I)
            for (size_t J = 0; J < List.size(); ++J) {
                uint64_t Expected = 0;
                if (!reference(Inputs[I], List[J], Expected))
                    continue;
                ++Checked;
                const uint64_t Got = Out[I * List.size() + J];
                const bool Ok = Got == Expected ||
                                (isNaNBits(Got, *List[J].Dst) && isNaNBits(Expected, *List[J].Dst));
                if (!Ok && ++Failures <= 10)
                    FAIL_CHECK(List[J].name()
                               << "(" << Src.Name << " " << show(Inputs[I]) << ") = 0x" << std::hex
                               << Got << ", expected 0x" << Expected);
            }
        CHECK(Failures == 0);
        CHECK(Checked > N * List.size() / 2);
    }
}

} // namespace

TEST_CASE("conversions: every destination, saturation and rounding mode from every type",
          "[compiler][builtins][conversions]") {
    for (const TypeInfo& Src : Types) {
        const std::string Name = Src.Name;
        if (Name == "char")
            checkSource<int8_t>(Src);
        else if (Name == "uchar")
            checkSource<uint8_t>(Src);
        else if (Name == "short")
            checkSource<int16_t>(Src);
        else if (Name == "ushort")
            checkSource<uint16_t>(Src);
        else if (Name == "int")
            checkSource<int32_t>(Src);
        else if (Name == "uint")
            checkSource<uint32_t>(Src);
        else if (Name == "long")
            checkSource<int64_t>(Src);
        else if (Name == "ulong")
            checkSource<uint64_t>(Src);
        else if (Name == "float")
            checkSource<float>(Src);
        else
            checkSource<double>(Src);
    }
}
