#include "cpu/isa.hpp"

#include "cpu/os_cpu_info.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <string>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace usmcl::cpu {

namespace {

#if defined(__x86_64__) || defined(__i386__)

struct CpuidRegisters {
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
};

// Zeroes when the leaf is beyond what the CPU supports.
CpuidRegisters cpuid(unsigned leaf, unsigned subleaf = 0) {
    CpuidRegisters regs;
    if (__get_cpuid_count(leaf, subleaf, &regs.eax, &regs.ebx, &regs.ecx, &regs.edx) == 0) {
        return {};
    }
    return regs;
}

bool bit(unsigned reg, unsigned index) {
    return ((reg >> index) & 1U) != 0;
}

// XCR0: the register state the OS saves on context switches.
std::uint64_t read_xcr0() {
    unsigned eax = 0;
    unsigned edx = 0;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return (static_cast<std::uint64_t>(edx) << 32) | eax;
}

std::string registers_text(std::initializer_list<unsigned> regs) {
    std::string text;
    for (unsigned reg : regs) {
        std::array<char, sizeof reg> bytes{};
        std::memcpy(bytes.data(), &reg, sizeof reg);
        text.append(bytes.data(), bytes.size());
    }
    return text;
}

std::string brand_string() {
    if (cpuid(0x80000000U).eax < 0x80000004U) {
        return {};
    }
    std::string brand;
    for (unsigned leaf = 0x80000002U; leaf <= 0x80000004U; ++leaf) {
        const auto regs = cpuid(leaf);
        brand += registers_text({regs.eax, regs.ebx, regs.ecx, regs.edx});
    }
    brand.resize(std::min(brand.size(), brand.find('\0')));
    return trim(brand);
}

void read_identity_and_features(IsaInfo& isa) {
    const auto leaf0 = cpuid(0);
    isa.vendor = registers_text({leaf0.ebx, leaf0.edx, leaf0.ecx});
    isa.vendor.resize(std::min(isa.vendor.size(), isa.vendor.find('\0')));
    isa.model_name = brand_string();

    constexpr std::uint64_t avx_state = 0x6;     // SSE and AVX registers
    constexpr std::uint64_t avx512_state = 0xE0; // opmask and upper ZMM registers
    const auto leaf1 = cpuid(1);
    const std::uint64_t xcr0 = bit(leaf1.ecx, 27) ? read_xcr0() : 0; // OSXSAVE
    const bool avx_os = (xcr0 & avx_state) == avx_state;
    const bool avx512_os = avx_os && (xcr0 & avx512_state) == avx512_state;

    isa.sse2 = bit(leaf1.edx, 26);
    isa.sse4_2 = bit(leaf1.ecx, 20);
    isa.fma = avx_os && bit(leaf1.ecx, 12);
    isa.avx = avx_os && bit(leaf1.ecx, 28);
    isa.f16c = avx_os && bit(leaf1.ecx, 29);

    const auto leaf7 = cpuid(7, 0);
    isa.avx2 = avx_os && bit(leaf7.ebx, 5);
    isa.avx512f = avx512_os && bit(leaf7.ebx, 16);
    isa.avx512dq = avx512_os && bit(leaf7.ebx, 17);
    isa.avx512bw = avx512_os && bit(leaf7.ebx, 30);
    isa.avx512vl = avx512_os && bit(leaf7.ebx, 31);
}

#else

void read_identity_and_features(IsaInfo& isa) {
    isa.vendor = cpuinfo_field("vendor_id");
}

#endif

std::uint32_t pci_vendor_id(const std::string& vendor) {
    if (vendor == "GenuineIntel") {
        return 0x8086;
    }
    if (vendor == "AuthenticAMD") {
        return 0x1022;
    }
    return 0;
}

std::string feature_list(const IsaInfo& isa) {
    const std::array<std::pair<bool, const char*>, 10> features{{
        {isa.sse2, "sse2"},
        {isa.sse4_2, "sse4.2"},
        {isa.avx, "avx"},
        {isa.avx2, "avx2"},
        {isa.fma, "fma"},
        {isa.f16c, "f16c"},
        {isa.avx512f, "avx512f"},
        {isa.avx512bw, "avx512bw"},
        {isa.avx512dq, "avx512dq"},
        {isa.avx512vl, "avx512vl"},
    }};
    std::string list;
    for (const auto& [present, name] : features) {
        if (present) {
            list += list.empty() ? "+" : ",+";
            list += name;
        }
    }
    return list;
}

IsaInfo detect_host_isa() {
    IsaInfo isa;
    read_identity_and_features(isa);
    if (isa.model_name.empty()) {
        isa.model_name = cpuinfo_field("model name");
    }
    isa.vendor_id = pci_vendor_id(isa.vendor);
    isa.max_clock_mhz = max_clock_mhz(isa.model_name);
    isa.float_vector_bits = isa.avx512f ? 512 : isa.avx ? 256 : 128;
    isa.int_vector_bits = isa.avx512bw ? 512 : isa.avx2 ? 256 : 128;
    isa.feature_list = feature_list(isa);
    return isa;
}

} // namespace

const IsaInfo& host_isa() {
    static const IsaInfo isa = detect_host_isa();
    return isa;
}

// 1- and 2-byte elements use the 8/16-bit integer width; 4- and 8-byte ones
// the float width, except integers on AVX without AVX2 (no 256-bit integer ops).
unsigned native_vector_width(const IsaInfo& isa, unsigned elem_bytes, bool floating_point) {
    if (elem_bytes == 0) {
        return 0;
    }
    unsigned bits = isa.float_vector_bits;
    if (elem_bytes <= 2) {
        bits = isa.int_vector_bits;
    } else if (!floating_point && isa.avx && !isa.avx2) {
        bits = 128;
    }
    return std::max(1U, bits / (8 * elem_bytes));
}

} // namespace usmcl::cpu
