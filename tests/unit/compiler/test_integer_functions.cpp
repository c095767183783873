// The integer functions (OpenCL C 3.0, 6.15.3) for every integer type,
// scalar and vectors of 3 and 16: abs, abs_diff, add_sat, sub_sat, hadd,
// rhadd, clz, ctz, popcount, rotate, mul_hi, mad_hi, mad_sat, upsample, and
// mad24 / mul24 for int and uint, on every pair of the type's edge values
// (0, +-1, +-2, the limits and their neighbours, powers of two and their
// neighbours, the rotation counts around the width) and a random sample,
// against exact 128-bit host references.
#include "compiler_test.hpp"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <sstream>

namespace {

__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

struct IntType {
    const char* Name;
    const char* Unsigned; // the unsigned type of the same width
    const char* Wide;     // upsample's result type ("" for long and ulong)
    unsigned Bits;
    bool Signed;
};

const IntType IntTypes[] = {
    {"char", "uchar", "short", 8, true},  {"uchar", "uchar", "ushort", 8, false},
    {"short", "ushort", "int", 16, true}, {"ushort", "ushort", "uint", 16, false},
    {"int", "uint", "long", 32, true},    {"uint", "uint", "ulong", 32, false},
    {"long", "ulong", "", 64, true},      {"ulong", "ulong", "", 64, false},
};

enum class Result { Same, Unsigned, Wide };

struct Function {
    const char* Name;
    const char* Expression; // over a, b, c (and a24, b24, c24 for the 24-bit forms)
    Result Kind;
    bool Only32; // mul24, mad24: int and uint only
};

const Function Functions[] = {
    {"abs", "abs(a)", Result::Unsigned, false},
    {"abs_diff", "abs_diff(a, b)", Result::Unsigned, false},
    {"add_sat", "add_sat(a, b)", Result::Same, false},
    {"sub_sat", "sub_sat(a, b)", Result::Same, false},
    {"hadd", "hadd(a, b)", Result::Same, false},
    {"rhadd", "rhadd(a, b)", Result::Same, false},
    {"clz", "clz(a)", Result::Same, false},
    {"ctz", "ctz(a)", Result::Same, false},
    {"popcount", "popcount(a)", Result::Same, false},
    {"rotate", "rotate(a, b)", Result::Same, false},
    {"mul_hi", "mul_hi(a, b)", Result::Same, false},
    {"mad_hi", "mad_hi(a, b, c)", Result::Same, false},
    {"mad_sat", "mad_sat(a, b, c)", Result::Same, false},
    {"upsample", "upsample(a, UAS(b))", Result::Wide, false},
    {"mul24", "mul24(a24, b24)", Result::Same, true},
    {"mad24", "mad24(a24, b24, c)", Result::Same, true},
};

bool applies(const Function& F, const IntType& T) {
    if (F.Only32 && T.Bits != 32)
        return false;
    if (F.Kind == Result::Wide && T.Wide[0] == '\0')
        return false;
    return true;
}

std::string resultType(const Function& F, const IntType& T) {
    switch (F.Kind) {
    case Result::Unsigned: return T.Unsigned;
    case Result::Wide: return T.Wide;
    default: return T.Name;
    }
}

// The bits of a result type, as an unsigned OpenCL C type name.
std::string bitsTypeOf(const std::string& Type) {
    return Type[0] == 'u' ? Type : "u" + Type;
}

std::string kernelSource(const IntType& T, const std::vector<const Function*>& List, int Width) {
    const std::string W = Width == 1 ? "" : std::to_string(Width);
    const std::string TW = T.Name + W;
    std::ostringstream S;
    S << "#define UAS(x) as_" << T.Unsigned << W << "(x)\n"
      << "kernel void k(global const " << T.Name << " *A, global const " << T.Name
      << " *B, global const " << T.Name << " *C, global ulong *out) {\n"
      << "  size_t i = get_global_id(0);\n";
    if (Width == 1)
        S << "  " << TW << " a = A[i], b = B[i], c = C[i];\n";
    else
        S << "  " << TW << " a = vload" << W << "(i, A), b = vload" << W << "(i, B), c = vload" << W
          << "(i, C);\n";
    if (T.Bits == 32) {
        // mul24 and mad24 are defined for values of 24 bits only.
        if (T.Signed)
            S << "  " << TW << " a24 = (a << 8) >> 8, b24 = (b << 8) >> 8;\n";
        else
            S << "  " << TW << " a24 = a & 0xffffffu, b24 = b & 0xffffffu;\n";
    }
    for (size_t J = 0; J < List.size(); ++J) {
        const std::string R = resultType(*List[J], T);
        const std::string Bits = bitsTypeOf(R);
        if (Width == 1) {
            S << "  out[i * " << List.size() << " + " << J << "] = (ulong)(" << Bits << ")("
              << List[J]->Expression << ");\n";
        } else {
            S << "  { " << R << " r[" << W << "]; vstore" << W << "(" << List[J]->Expression
              << ", 0, r);\n"
              << "    for (int k = 0; k < " << W << "; ++k) out[(i * " << W << " + k) * "
              << List.size() << " + " << J << "] = (ulong)(" << Bits << ")r[k]; }\n";
        }
    }
    S << "}\n";
    return S.str();
}

// Values as Int128 in the type's range.
Int128 minOf(const IntType& T) {
    return T.Signed ? -(Int128(1) << (T.Bits - 1)) : 0;
}
Int128 maxOf(const IntType& T) {
    return T.Signed ? (Int128(1) << (T.Bits - 1)) - 1 : (Int128(1) << T.Bits) - 1;
}
// The value of the low Bits bits of V in type T (wrapping).
Int128 wrap(const IntType& T, Int128 V) {
    const UInt128 Mask = (UInt128(1) << T.Bits) - 1;
    UInt128 U = static_cast<UInt128>(V) & Mask;
    if (T.Signed && (U >> (T.Bits - 1)) != 0)
        return static_cast<Int128>(U) - (Int128(1) << T.Bits);
    return static_cast<Int128>(U);
}
Int128 saturate(const IntType& T, Int128 V) {
    return std::clamp(V, minOf(T), maxOf(T));
}
// Floor division by 2 (C++20: >> of a negative value is arithmetic).
Int128 half(Int128 V) {
    return V >> 1;
}

// The expected result bits (zero-extended) of F on a, b, c of type T.
uint64_t reference(const Function& F, const IntType& T, Int128 A, Int128 B, Int128 C) {
    const unsigned N = T.Bits;
    const UInt128 Mask = (UInt128(1) << N) - 1;
    const UInt128 UA = static_cast<UInt128>(A) & Mask;
    const std::string Name = F.Name;
    Int128 V = 0;
    unsigned ResultBits = N;
    if (Name == "abs") {
        V = A < 0 ? -A : A;
    } else if (Name == "abs_diff") {
        V = A > B ? A - B : B - A;
    } else if (Name == "add_sat") {
        V = saturate(T, A + B);
    } else if (Name == "sub_sat") {
        V = saturate(T, A - B);
    } else if (Name == "hadd") {
        V = half(A + B);
    } else if (Name == "rhadd") {
        V = half(A + B + 1);
    } else if (Name == "clz") {
        unsigned Count = 0;
        for (int Bit = static_cast<int>(N) - 1; Bit >= 0 && ((UA >> Bit) & 1) == 0; --Bit)
            ++Count;
        V = Count;
    } else if (Name == "ctz") {
        unsigned Count = 0;
        while (Count < N && ((UA >> Count) & 1) == 0)
            ++Count;
        V = Count;
    } else if (Name == "popcount") {
        unsigned Count = 0;
        for (unsigned Bit = 0; Bit < N; ++Bit)
            Count += static_cast<unsigned>((UA >> Bit) & 1);
        V = Count;
    } else if (Name == "rotate") {
        const unsigned S = static_cast<unsigned>(static_cast<UInt128>(B) & (N - 1));
        V = static_cast<Int128>(S == 0 ? UA : ((UA << S) | (UA >> (N - S))) & Mask);
    } else if (Name == "mul_hi" || Name == "mad_hi") {
        if (T.Signed) {
            V = (A * B) >> N; // the product fits 127 bits; arithmetic shift
        } else {
            V = static_cast<Int128>((static_cast<UInt128>(A) * static_cast<UInt128>(B)) >> N);
        }
        if (Name == "mad_hi")
            V += C;
    } else if (Name == "mad_sat") {
        if (T.Signed) {
            V = saturate(T, A * B + C);
        } else {
            const UInt128 P = static_cast<UInt128>(A) * static_cast<UInt128>(B) +
                              static_cast<UInt128>(C); // < 2^128
            V = P > static_cast<UInt128>(maxOf(T)) ? maxOf(T) : static_cast<Int128>(P);
        }
    } else if (Name == "upsample") {
        const UInt128 Lo = static_cast<UInt128>(B) & Mask;
        V = static_cast<Int128>((static_cast<UInt128>(A) << N) | Lo);
        ResultBits = 2 * N;
    } else if (Name == "mul24" || Name == "mad24") {
        auto Narrow = [&](Int128 X) {
            const Int128 Low = static_cast<Int128>(static_cast<UInt128>(X) & 0xffffff);
            return T.Signed && Low >= 0x800000 ? Low - 0x1000000 : Low;
        };
        V = Narrow(A) * Narrow(B);
        if (Name == "mad24")
            V += C;
    }
    const UInt128 ResultMask = (UInt128(1) << ResultBits) - 1;
    return static_cast<uint64_t>(static_cast<UInt128>(V) & ResultMask);
}

// The edge values of T: 0, +-1, +-2, the limits and their neighbours,
// every power of two and its neighbours, the rotation counts around the
// width.
std::vector<Int128> edgeValues(const IntType& T) {
    std::vector<Int128> Values = {0,
                                  1,
                                  2,
                                  3,
                                  -1,
                                  -2,
                                  -3,
                                  minOf(T),
                                  minOf(T) + 1,
                                  maxOf(T),
                                  maxOf(T) - 1,
                                  T.Bits,
                                  T.Bits - 1,
                                  T.Bits + 1,
                                  2 * T.Bits - 1};
    for (unsigned E = 1; E < T.Bits; E += (E < 8 ? 1 : 3)) {
        const Int128 P = Int128(1) << E;
        for (Int128 V : {P, P - 1, P + 1, -P, -P + 1, -P - 1})
            Values.push_back(V);
    }
    std::vector<Int128> InRange;
    for (Int128 V : Values)
        if (V >= minOf(T) && V <= maxOf(T))
            InRange.push_back(V);
    return InRange;
}

template <typename S>
void storeAs(std::vector<char>& Bytes, size_t Index, Int128 V) {
    const S X = static_cast<S>(V);
    std::memcpy(Bytes.data() + Index * sizeof(S), &X, sizeof(S));
}

void checkType(const IntType& T) {
    std::vector<const Function*> List;
    for (const Function& F : Functions)
        if (applies(F, T))
            List.push_back(&F);
    // Every pair of edge values (c from the edge values in turn), then a
    // random sample: full-width patterns and small values, to 4096 inputs
    // at least and a multiple of 16 * 64.
    const std::vector<Int128> Edges = edgeValues(T);
    std::vector<Int128> A, B, C;
    size_t K = 0;
    for (Int128 X : Edges)
        for (Int128 Y : Edges) {
            A.push_back(X);
            B.push_back(Y);
            C.push_back(Edges[K++ % Edges.size()]);
        }
    std::mt19937_64 Gen(T.Bits * 2 + (T.Signed ? 1 : 0));
    auto Random = [&]() {
        const uint64_t Bits = Gen();
        const uint64_t Pattern = Gen() % 4 == 0 ? Bits >> (Gen() % 64) : Bits;
        return wrap(T, static_cast<Int128>(Pattern) * (Gen() % 8 == 0 ? -1 : 1));
    };
    const size_t Block = 16 * 64;
    const size_t N = std::max<size_t>(4096, (A.size() + Block - 1) / Block * Block + Block);
    while (A.size() < N) {
        A.push_back(Random());
        B.push_back(Random());
        C.push_back(Random());
    }
    const size_t Size = T.Bits / 8;
    std::vector<char> BytesA(N * Size), BytesB(N * Size), BytesC(N * Size);
    for (size_t I = 0; I < N; ++I)
        for (int Which = 0; Which < 3; ++Which) {
            std::vector<char>& Bytes = Which == 0 ? BytesA : Which == 1 ? BytesB : BytesC;
            const Int128 V = Which == 0 ? A[I] : Which == 1 ? B[I] : C[I];
            switch (Size) {
            case 1: storeAs<uint8_t>(Bytes, I, V); break;
            case 2: storeAs<uint16_t>(Bytes, I, V); break;
            case 4: storeAs<uint32_t>(Bytes, I, V); break;
            default: storeAs<uint64_t>(Bytes, I, V); break;
            }
        }
    for (int Width : {1, 3, 16}) {
        INFO("type " << T.Name << ", width " << Width);
        kc::BuildResult R = kctest::compiler().build(kernelSource(T, List, Width), "-cl-std=CL3.0");
        INFO(R.Log);
        REQUIRE(R.Output);
        auto P = kctest::jit(*R.Output);
        const kc::KernelInfo& Kernel = R.Output->kernels().at(0);
        // vload3 reads 3 elements per work-item: N / 3 work-items cover all
        // but N mod 3 inputs.
        const size_t Items = N / Width;
        const size_t Checked = Items * Width;
        std::vector<uint64_t> Out(N * List.size(), 0xdeadbeefdeadbeefull);
        kctest::ArgBuffer Args(Kernel);
        Args.set(0, BytesA.data());
        Args.set(1, BytesB.data());
        Args.set(2, BytesC.data());
        Args.set(3, Out.data());
        kctest::runNDRange(P->lookup(Kernel.Name), Args, 1, {Items, 1, 1}, {64, 1, 1});
        size_t Failures = 0;
        for (size_t I = 0; I < Checked; ++I)
            for (size_t J = 0; J < List.size(); ++J) {
                const uint64_t Expected = reference(*List[J], T, A[I], B[I], C[I]);
                const uint64_t Got = Out[I * List.size() + J];
                if (Got != Expected && ++Failures <= 10)
                    FAIL_CHECK(List[J]->Name << "(" << static_cast<long long>(A[I]) << ", "
                                             << static_cast<long long>(B[I]) << ", "
                                             << static_cast<long long>(C[I]) << ") = 0x" << std::hex
                                             << Got << ", expected 0x" << Expected);
            }
        CHECK(Failures == 0);
    }
}

} // namespace

TEST_CASE("integer functions: every integer type, scalar and vectors, edge values and a random "
          "sample",
          "[compiler][builtins][integer]") {
    for (const IntType& T : IntTypes)
        checkType(T);
}
