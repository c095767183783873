// What the host CPU's instruction set offers: identity, vector features and
// the vector widths OpenCL reports from them.
#pragma once

#include <cstdint>
#include <string>

namespace usmcl::cpu {

struct IsaInfo {
    std::string vendor;          // e.g. "GenuineIntel", "AuthenticAMD"
    std::string model_name;      // the CPU's brand string, trimmed
    std::uint32_t vendor_id = 0; // PCI vendor id: 0x8086 Intel, 0x1022 AMD, 0 unknown
    unsigned max_clock_mhz = 0;  // highest clock the OS reports; 0 if unknown
    bool sse2 = false, sse4_2 = false, avx = false, avx2 = false, fma = false, f16c = false;
    bool avx512f = false, avx512bw = false, avx512vl = false, avx512dq = false;
    // Width in bits of the widest vector registers usable for float and for
    // 8/16-bit integer arithmetic (AVX-512F without BW: 512 and 256).
    unsigned float_vector_bits = 128;
    unsigned int_vector_bits = 128;
    std::string feature_list; // "+avx2,+fma,..." style list for diagnostics
};

// Reads the running CPU (cpuid on x86-64, /proc/cpuinfo and sysfs for the
// rest). Never fails: unknown fields keep their defaults.
const IsaInfo& host_isa();

// Lanes of a native vector for an element of elem_bytes bytes (1, 2, 4, 8):
// float_vector_bits for 4/8-byte floats, int_vector_bits for 1/2-byte ints.
unsigned native_vector_width(const IsaInfo& isa, unsigned elem_bytes, bool floating_point);

} // namespace usmcl::cpu
