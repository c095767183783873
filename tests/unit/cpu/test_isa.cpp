#include "cpu/isa.hpp"
#include "cpu/os_cpu_info.hpp"

#include <catch2/catch.hpp>

using usmcl::cpu::clock_from_brand;
using usmcl::cpu::host_isa;
using usmcl::cpu::IsaInfo;
using usmcl::cpu::native_vector_width;
using usmcl::cpu::trim;

namespace {

IsaInfo sse_machine() {
    IsaInfo isa;
    isa.sse2 = isa.sse4_2 = true;
    return isa;
}

IsaInfo avx_machine() { // Sandy Bridge: 256-bit floats, 128-bit integers
    IsaInfo isa = sse_machine();
    isa.avx = true;
    isa.float_vector_bits = 256;
    return isa;
}

IsaInfo avx2_machine() {
    IsaInfo isa = avx_machine();
    isa.avx2 = isa.fma = isa.f16c = true;
    isa.int_vector_bits = 256;
    return isa;
}

IsaInfo avx512f_machine() { // Knights Landing: AVX-512F without BW
    IsaInfo isa = avx2_machine();
    isa.avx512f = true;
    isa.float_vector_bits = 512;
    return isa;
}

IsaInfo avx512bw_machine() {
    IsaInfo isa = avx512f_machine();
    isa.avx512bw = isa.avx512dq = isa.avx512vl = true;
    isa.int_vector_bits = 512;
    return isa;
}

} // namespace

TEST_CASE("native vector widths follow the vector registers", "[cpu][isa]") {
    struct Row {
        IsaInfo isa;
        unsigned char_lanes, short_lanes, int_lanes, long_lanes, float_lanes, double_lanes;
    };
    const Row rows[] = {
        {sse_machine(), 16, 8, 4, 2, 4, 2},         {avx_machine(), 16, 8, 4, 2, 8, 4},
        {avx2_machine(), 32, 16, 8, 4, 8, 4},       {avx512f_machine(), 32, 16, 16, 8, 16, 8},
        {avx512bw_machine(), 64, 32, 16, 8, 16, 8},
    };
    for (const auto& row : rows) {
        INFO("float bits " << row.isa.float_vector_bits << ", int bits "
                           << row.isa.int_vector_bits);
        CHECK(native_vector_width(row.isa, 1, false) == row.char_lanes);
        CHECK(native_vector_width(row.isa, 2, false) == row.short_lanes);
        CHECK(native_vector_width(row.isa, 4, false) == row.int_lanes);
        CHECK(native_vector_width(row.isa, 8, false) == row.long_lanes);
        CHECK(native_vector_width(row.isa, 4, true) == row.float_lanes);
        CHECK(native_vector_width(row.isa, 8, true) == row.double_lanes);
        CHECK(native_vector_width(row.isa, 2, true) == row.short_lanes); // half
    }
    CHECK(native_vector_width(sse_machine(), 0, false) == 0);
}

TEST_CASE("the host ISA is consistent", "[cpu][isa]") {
    const IsaInfo& isa = host_isa();
    CHECK(&isa == &host_isa());
    CHECK(isa.float_vector_bits >= 128);
    CHECK(isa.int_vector_bits >= 128);
    CHECK(isa.model_name == isa.model_name.substr(0, isa.model_name.find_last_not_of(' ') + 1));
    if (isa.avx512bw) {
        CHECK(isa.int_vector_bits == 512);
    }
    if (isa.avx512f) {
        CHECK(isa.float_vector_bits == 512);
        CHECK(isa.feature_list.find("+avx512f") != std::string::npos);
    }
    if (isa.avx2) {
        CHECK(isa.avx);
        CHECK(isa.int_vector_bits >= 256);
    }
#if defined(__x86_64__)
    CHECK(isa.sse2);
    CHECK_FALSE(isa.vendor.empty());
    if (isa.vendor == "GenuineIntel") {
        CHECK(isa.vendor_id == 0x8086);
    } else if (isa.vendor == "AuthenticAMD") {
        CHECK(isa.vendor_id == 0x1022);
    }
#endif
}

TEST_CASE("brand strings give a clock", "[cpu][isa]") {
    CHECK(clock_from_brand("Intel(R) Core(TM) i7-4770 CPU @ 3.40GHz") == 3400);
    CHECK(clock_from_brand("Some CPU @ 800MHz") == 800);
    CHECK(clock_from_brand("AMD EPYC 7763 64-Core Processor") == 0);
    CHECK(clock_from_brand("Broken @ GHz") == 0);
    CHECK(trim("  AMD EPYC \t") == "AMD EPYC");
    CHECK(trim("   ").empty());
}
