#include "core/image_format.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace usmcl::core {
namespace {

constexpr cl_channel_type all_types[] = {
    CL_UNORM_INT8,     CL_UNORM_INT16,    CL_SNORM_INT8,   CL_SNORM_INT16,
    CL_SIGNED_INT8,    CL_SIGNED_INT16,   CL_SIGNED_INT32, CL_UNSIGNED_INT8,
    CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT,
};
constexpr cl_channel_type byte_types[] = {CL_UNORM_INT8, CL_SNORM_INT8, CL_SIGNED_INT8,
                                          CL_UNSIGNED_INT8};
constexpr cl_channel_type float_types[] = {CL_UNORM_INT8,  CL_UNORM_INT16, CL_SNORM_INT8,
                                           CL_SNORM_INT16, CL_HALF_FLOAT,  CL_FLOAT};

bool contains(std::span<const cl_channel_type> list, cl_channel_type type) {
    return std::find(list.begin(), list.end(), type) != list.end();
}

// The data types usmcl supports with a channel order.
std::span<const cl_channel_type> types_of(cl_channel_order order) {
    switch (order) {
    case CL_R:
    case CL_A:
    case CL_RG:
    case CL_RA:
    case CL_RGBA: return all_types;
    case CL_BGRA:
    case CL_ARGB:
    case CL_ABGR: return byte_types;
    case CL_INTENSITY:
    case CL_LUMINANCE: return float_types;
    default: return {};
    }
}

std::vector<cl_image_format> make_supported() {
    std::vector<cl_image_format> list;
    for (cl_channel_order order :
         {CL_R, CL_A, CL_RG, CL_RA, CL_RGBA, CL_BGRA, CL_ARGB, CL_ABGR, CL_INTENSITY, CL_LUMINANCE})
        for (cl_channel_type type : types_of(static_cast<cl_channel_order>(order)))
            list.push_back({static_cast<cl_channel_order>(order), type});
    return list;
}

// Float to an integer of [low, high], rounded to nearest even; NaN gives 0
// clamped into the range (as write_imagef does).
std::int64_t saturate_rte(float value, float low, float high) {
    if (std::isnan(value))
        value = 0.0f;
    return static_cast<std::int64_t>(std::nearbyint(std::clamp(value, low, high)));
}

// IEEE binary32 to binary16 bits, rounded to nearest even.
std::uint16_t float_to_half(float value) {
    const std::uint32_t bits = std::bit_cast<std::uint32_t>(value);
    const std::uint32_t sign = (bits >> 16) & 0x8000u;
    const std::uint32_t exponent = (bits >> 23) & 0xFFu;
    std::uint32_t mantissa = bits & 0x7FFFFFu;
    if (exponent == 0xFF) // Inf or NaN
        return static_cast<std::uint16_t>(sign | 0x7C00u | (mantissa ? 0x200u : 0u));
    const int e = static_cast<int>(exponent) - 127 + 15;
    if (e >= 31)
        return static_cast<std::uint16_t>(sign | 0x7C00u);
    std::uint32_t shift = 13;
    std::uint32_t base = 0;
    if (e <= 0) { // a half denormal (or 0)
        if (e < -10)
            return static_cast<std::uint16_t>(sign);
        mantissa |= 0x800000u;
        shift = static_cast<std::uint32_t>(14 - e);
    } else {
        base = static_cast<std::uint32_t>(e) << 10;
    }
    std::uint32_t half = base | (mantissa >> shift);
    const std::uint32_t rest = mantissa & ((1u << shift) - 1);
    const std::uint32_t halfway = 1u << (shift - 1);
    if (rest > halfway || (rest == halfway && (half & 1u)))
        ++half; // may carry into the exponent: still the right answer
    return static_cast<std::uint16_t>(sign | half);
}

template <typename T>
void put(std::byte* at, T value) {
    std::memcpy(at, &value, sizeof value);
}

void pack_channel(cl_channel_type type, std::byte* at, const void* color, unsigned channel) {
    float f = 0;
    std::int32_t i = 0;
    std::uint32_t u = 0;
    std::memcpy(&f, static_cast<const std::byte*>(color) + channel * 4, 4);
    std::memcpy(&i, static_cast<const std::byte*>(color) + channel * 4, 4);
    std::memcpy(&u, static_cast<const std::byte*>(color) + channel * 4, 4);
    switch (type) {
    case CL_UNORM_INT8: put<std::uint8_t>(at, saturate_rte(f * 255.0f, 0, 255)); break;
    case CL_UNORM_INT16: put<std::uint16_t>(at, saturate_rte(f * 65535.0f, 0, 65535)); break;
    case CL_SNORM_INT8: put<std::int8_t>(at, saturate_rte(f * 127.0f, -128, 127)); break;
    case CL_SNORM_INT16: put<std::int16_t>(at, saturate_rte(f * 32767.0f, -32768, 32767)); break;
    case CL_HALF_FLOAT: put<std::uint16_t>(at, float_to_half(f)); break;
    case CL_FLOAT: put<float>(at, f); break;
    case CL_SIGNED_INT8: put<std::int8_t>(at, std::clamp<std::int32_t>(i, -128, 127)); break;
    case CL_SIGNED_INT16: put<std::int16_t>(at, std::clamp<std::int32_t>(i, -32768, 32767)); break;
    case CL_SIGNED_INT32: put<std::int32_t>(at, i); break;
    case CL_UNSIGNED_INT8: put<std::uint8_t>(at, std::min<std::uint32_t>(u, 255)); break;
    case CL_UNSIGNED_INT16: put<std::uint16_t>(at, std::min<std::uint32_t>(u, 65535)); break;
    case CL_UNSIGNED_INT32: put<std::uint32_t>(at, u); break;
    default: break;
    }
}

// The color channel (0 = r ... 3 = a) stored at each position of a texel.
std::array<unsigned, 4> stored_channels(cl_channel_order order) {
    switch (order) {
    case CL_A: return {3, 0, 0, 0};
    case CL_RA: return {0, 3, 0, 0};
    case CL_BGRA: return {2, 1, 0, 3};
    case CL_ARGB: return {3, 0, 1, 2};
    case CL_ABGR: return {3, 2, 1, 0};
    default: return {0, 1, 2, 3};
    }
}

} // namespace

unsigned channel_count(cl_channel_order order) {
    switch (order) {
    case CL_R:
    case CL_A:
    case CL_INTENSITY:
    case CL_LUMINANCE: return 1;
    case CL_RG:
    case CL_RA: return 2;
    case CL_RGBA:
    case CL_BGRA:
    case CL_ARGB:
    case CL_ABGR: return 4;
    default: return 0;
    }
}

unsigned channel_size(cl_channel_type type) {
    switch (type) {
    case CL_UNORM_INT8:
    case CL_SNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8: return 1;
    case CL_UNORM_INT16:
    case CL_SNORM_INT16:
    case CL_SIGNED_INT16:
    case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT: return 2;
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32:
    case CL_FLOAT: return 4;
    default: return 0;
    }
}

ChannelClass channel_class(cl_channel_type type) {
    switch (type) {
    case CL_SIGNED_INT8:
    case CL_SIGNED_INT16:
    case CL_SIGNED_INT32: return ChannelClass::signed_int;
    case CL_UNSIGNED_INT8:
    case CL_UNSIGNED_INT16:
    case CL_UNSIGNED_INT32: return ChannelClass::unsigned_int;
    default: return ChannelClass::float_like;
    }
}

bool format_supported(const cl_image_format& format) {
    return contains(types_of(format.image_channel_order), format.image_channel_data_type);
}

std::span<const cl_image_format> supported_formats() {
    static const std::vector<cl_image_format> list = make_supported();
    return list;
}

size_t element_size(const cl_image_format& format) {
    return size_t{channel_count(format.image_channel_order)} *
           channel_size(format.image_channel_data_type);
}

std::array<std::byte, 16> pack_color(const cl_image_format& format, const void* color) {
    std::array<std::byte, 16> texel{};
    const unsigned size = channel_size(format.image_channel_data_type);
    const auto from = stored_channels(format.image_channel_order);
    for (unsigned i = 0; i < channel_count(format.image_channel_order); ++i)
        pack_channel(format.image_channel_data_type, texel.data() + i * size, color, from[i]);
    return texel;
}

} // namespace usmcl::core
