#include "runtime/printf_format.hpp"

#include "kc/Launch.h"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

namespace usmcl::runtime {
namespace {

enum class Length { none, hh, h, hl, l };

// One conversion specification, as written between '%' and the conversion.
struct Spec {
    std::string flags;
    std::string width;
    std::string precision; // with its '.', empty when absent
    unsigned vector = 0;   // 0: a scalar
    Length length = Length::none;
    char conversion = 0;
};

bool is_digit(char c) {
    return c >= '0' && c <= '9';
}

// Parses the specification after a '%' at format[pos]; false when it is not
// one OpenCL C knows. pos ends after the conversion character.
bool parse_spec(std::string_view format, std::size_t& pos, Spec& spec) {
    auto at = [&](std::size_t i) { return i < format.size() ? format[i] : '\0'; };
    while (std::strchr("-+ #0", at(pos)) && at(pos) != '\0')
        spec.flags += format[pos++];
    while (is_digit(at(pos)))
        spec.width += format[pos++];
    if (at(pos) == '.') {
        spec.precision += format[pos++];
        while (is_digit(at(pos)))
            spec.precision += format[pos++];
    }
    if (at(pos) == 'v') {
        ++pos;
        std::string digits;
        while (is_digit(at(pos)))
            digits += format[pos++];
        if (digits != "2" && digits != "3" && digits != "4" && digits != "8" && digits != "16")
            return false;
        spec.vector = static_cast<unsigned>(std::stoul(digits));
    }
    if (at(pos) == 'h' && at(pos + 1) == 'h') {
        spec.length = Length::hh;
        pos += 2;
    } else if (at(pos) == 'h' && at(pos + 1) == 'l') {
        spec.length = Length::hl;
        pos += 2;
    } else if (at(pos) == 'h') {
        spec.length = Length::h;
        ++pos;
    } else if (at(pos) == 'l') {
        spec.length = Length::l;
        ++pos;
    }
    const char c = at(pos);
    if (c == '\0' || !std::strchr("diouxXcsfFeEgGaAp", c))
        return false;
    spec.conversion = c;
    ++pos;
    // hl is for vectors only; vectors of characters, strings and pointers
    // do not exist.
    if (spec.length == Length::hl && spec.vector == 0)
        return false;
    if (spec.vector != 0 && std::strchr("csp", c))
        return false;
    return true;
}

bool is_float_conversion(char c) {
    return std::strchr("fFeEgGaA", c) != nullptr;
}

std::uint64_t read_bits(const char* bytes, unsigned size) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, bytes, std::min(size, 8u));
    return bits;
}

// The float of IEEE half bits.
double half_to_double(std::uint16_t h) {
    const int exponent = (h >> 10) & 0x1f;
    const int mantissa = h & 0x3ff;
    double value;
    if (exponent == 0)
        value = std::ldexp(mantissa, -24);
    else if (exponent == 31)
        value = mantissa ? NAN : INFINITY;
    else
        value = std::ldexp(mantissa + 1024, exponent - 25);
    return (h & 0x8000) ? -value : value;
}

double read_float(const char* bytes, unsigned size) {
    if (size == 8) {
        double d;
        std::memcpy(&d, bytes, 8);
        return d;
    }
    if (size == 4) {
        float f;
        std::memcpy(&f, bytes, 4);
        return f;
    }
    return half_to_double(static_cast<std::uint16_t>(read_bits(bytes, 2)));
}

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
void append_c(std::string& out, const char* c_format, ...) {
    std::va_list args;
    va_start(args, c_format);
    std::va_list copy;
    va_copy(copy, args);
    char small[128];
    const int n = std::vsnprintf(small, sizeof small, c_format, args);
    va_end(args);
    if (n >= 0 && static_cast<std::size_t>(n) < sizeof small) {
        out.append(small, static_cast<std::size_t>(n));
    } else if (n > 0) {
        const std::size_t old = out.size();
        out.resize(old + static_cast<std::size_t>(n) + 1);
        std::vsnprintf(out.data() + old, static_cast<std::size_t>(n) + 1, c_format, copy);
        out.resize(old + static_cast<std::size_t>(n));
    }
    va_end(copy);
}
#pragma GCC diagnostic pop

// One value (a scalar, or one element of a vector) of `size` bytes.
void append_value(std::string& out, const Spec& spec, const char* bytes, unsigned size) {
    std::string c_format = "%" + spec.flags + spec.width + spec.precision;
    const char c = spec.conversion;
    if (is_float_conversion(c)) {
        c_format += c;
        append_c(out, c_format.c_str(), read_float(bytes, size));
        return;
    }
    if (c == 's' || c == 'p') {
        const auto address = static_cast<std::uintptr_t>(read_bits(bytes, size));
        c_format += c;
        append_c(out, c_format.c_str(), reinterpret_cast<const void*>(address));
        return;
    }
    const std::uint64_t bits = read_bits(bytes, size);
    if (c == 'c') {
        c_format += c;
        append_c(out, c_format.c_str(), static_cast<int>(static_cast<unsigned char>(bits)));
        return;
    }
    // Integers: the width the length modifier names (int without one).
    unsigned bytes_wide = 4;
    switch (spec.length) {
    case Length::hh: bytes_wide = 1; break;
    case Length::h: bytes_wide = 2; break;
    case Length::l: bytes_wide = 8; break;
    default: break;
    }
    const bool is_signed = c == 'd' || c == 'i';
    c_format += "ll";
    c_format += c;
    if (is_signed) {
        const unsigned shift = 64 - 8 * bytes_wide;
        const auto value = static_cast<long long>(bits << shift) >> shift;
        append_c(out, c_format.c_str(), value);
    } else {
        const unsigned long long mask = bytes_wide == 8 ? ~0ull : (1ull << (8 * bytes_wide)) - 1;
        append_c(out, c_format.c_str(), static_cast<unsigned long long>(bits & mask));
    }
}

// The size of one element of a vector argument of `size` bytes.
unsigned element_size(const Spec& spec, std::uint32_t size) {
    switch (spec.length) {
    case Length::hh: return 1;
    case Length::h: return 2;
    case Length::hl: return 4;
    case Length::l: return 8;
    default: break;
    }
    // Without a length modifier: int elements, or floats of the size passed.
    if (!is_float_conversion(spec.conversion))
        return 4;
    const unsigned guess = size / spec.vector;
    return guess >= 8 ? 8 : guess >= 4 ? 4 : 2;
}

} // namespace

void format_printf(std::string& out, const char* format, std::span<const PrintfArgument> args) {
    const std::string_view text(format);
    std::size_t next_arg = 0;
    std::size_t pos = 0;
    while (pos < text.size()) {
        const std::size_t percent = text.find('%', pos);
        out.append(text.substr(pos, percent - pos));
        if (percent == std::string_view::npos)
            break;
        if (percent + 1 < text.size() && text[percent + 1] == '%') {
            out += '%';
            pos = percent + 2;
            continue;
        }
        std::size_t end = percent + 1;
        Spec spec;
        if (!parse_spec(text, end, spec) || next_arg >= args.size()) {
            out.append(text.substr(percent, end - percent));
            pos = end;
            continue;
        }
        const PrintfArgument& arg = args[next_arg++];
        pos = end;
        if (spec.vector == 0) {
            if (arg.size == 0)
                continue;
            append_value(out, spec, arg.bytes, arg.size);
            continue;
        }
        const unsigned element = element_size(spec, arg.size);
        if (static_cast<std::uint64_t>(element) * spec.vector > arg.size) {
            // The argument is no such vector: print the specification.
            out.append(text.substr(percent, end - percent));
            continue;
        }
        for (unsigned i = 0; i < spec.vector; ++i) {
            if (i != 0)
                out += ',';
            append_value(out, spec, arg.bytes + i * element, element);
        }
    }
}

void format_printf_records(std::string& out, const char* data, std::size_t size) {
    constexpr std::size_t header_size = sizeof(kc::PrintfRecordHeader);
    std::vector<PrintfArgument> args;
    std::size_t pos = 0;
    while (size - pos >= header_size) {
        kc::PrintfRecordHeader header;
        std::memcpy(&header, data + pos, header_size);
        if (header.Size < header_size || header.Size % 8 != 0 || header.Size > size - pos)
            return;
        const char* record = data + pos;
        const std::size_t sizes_bytes = (4 * std::size_t{header.ArgCount} + 7) / 8 * 8;
        if (sizes_bytes > header.Size - header_size)
            return;
        args.clear();
        std::size_t offset = header_size + sizes_bytes;
        for (std::uint32_t i = 0; i < header.ArgCount; ++i) {
            std::uint32_t arg_size;
            std::memcpy(&arg_size, record + header_size + 4 * i, 4);
            const std::size_t padded = (std::size_t{arg_size} + 7) / 8 * 8;
            if (padded > header.Size - offset)
                return;
            args.push_back({record + offset, arg_size});
            offset += padded;
        }
        if (header.Format != 0)
            format_printf(out, reinterpret_cast<const char*>(header.Format), args);
        pos += header.Size;
    }
}

} // namespace usmcl::runtime
