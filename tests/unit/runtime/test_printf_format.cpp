// The host side of printf: format_printf against the exact text OpenCL C's
// printf prints (C99 conversions, the OpenCL length modifiers and vector
// specifiers), and format_printf_records over records laid out as the
// compiler writes them (kc/Launch.h), including malformed ones.
#include "runtime/printf_format.hpp"

#include "kc/Launch.h"

#include <catch2/catch.hpp>

#include <cstring>
#include <limits>
#include <vector>

using usmcl::runtime::format_printf;
using usmcl::runtime::format_printf_records;
using usmcl::runtime::PrintfArgument;

namespace {

// Arguments as the kernel passes them, each kept in its own bytes.
class Args {
public:
    template <class T>
    Args& add(const T& value) {
        storage_.emplace_back(sizeof(T));
        std::memcpy(storage_.back().data(), &value, sizeof(T));
        return *this;
    }
    Args& add_string(const char* text) { return add(reinterpret_cast<std::uint64_t>(text)); }
    std::vector<PrintfArgument> list() const {
        std::vector<PrintfArgument> result;
        for (const std::vector<char>& bytes : storage_)
            result.push_back({bytes.data(), static_cast<std::uint32_t>(bytes.size())});
        return result;
    }

private:
    std::vector<std::vector<char>> storage_;
};

std::string format(const char* text, const Args& args = Args()) {
    std::string out;
    const std::vector<PrintfArgument> list = args.list();
    format_printf(out, text, list);
    return out;
}

struct Char4 {
    std::int8_t v[4];
};
struct Float3 {
    float v[3];
};
struct Long2 {
    std::int64_t v[2];
};
struct Half2 {
    std::uint16_t v[2];
};

} // namespace

TEST_CASE("format_printf: integers with flags, width, precision and length modifiers") {
    CHECK(format("%d|%i|%u|%o|%x|%X", Args().add(-5).add(6).add(7u).add(8).add(255).add(255)) ==
          "-5|6|7|10|ff|FF");
    CHECK(format("[%6d][%-6d][%06d][%+d][% d][%.4d][%#x][%#o]",
                 Args().add(42).add(42).add(42).add(42).add(42).add(42).add(42).add(8)) ==
          "[    42][42    ][000042][+42][ 42][0042][0x2a][010]");
    CHECK(format("%hd %hu %hhd %hhu %hhx", Args().add(70000).add(-1).add(300).add(-1).add(0x1ab)) ==
          "4464 65535 44 255 ab");
    CHECK(format("%ld %lu %lx", Args()
                                    .add(std::int64_t{-9000000000})
                                    .add(std::uint64_t{18000000000000000000ull})
                                    .add(std::uint64_t{0xabcdef012345ull})) ==
          "-9000000000 18000000000000000000 abcdef012345");
}

TEST_CASE("format_printf: floating point from doubles and floats") {
    CHECK(format("%f %e %g %a", Args().add(1.5).add(1.5).add(1.5).add(1.5)) ==
          "1.500000 1.500000e+00 1.5 0x1.8p+0");
    // A float argument (a device without doubles passes floats unpromoted).
    CHECK(format("%.2f %E %G %A", Args().add(2.25f).add(0.5f).add(1e20f).add(0.5f)) ==
          "2.25 5.000000E-01 1E+20 0X1P-1");
    CHECK(format("[%10.3f][%-9.1e][%+.0f][%#.0f]", Args().add(-2.5).add(1234.5).add(2.5).add(
                                                       3.0)) == "[    -2.500][1.2e+03  ][+2][3.]");
    const double inf = std::numeric_limits<double>::infinity();
    CHECK(format("%f %f", Args().add(inf).add(-inf)) == "inf -inf");
}

TEST_CASE("format_printf: characters, strings, pointers and %%") {
    CHECK(format("%c%c", Args().add(int{'o'}).add(int{'k'})) == "ok");
    CHECK(format("[%s][%5s][%-5s][%.2s]",
                 Args().add_string("abc").add_string("ab").add_string("ab").add_string("abcdef")) ==
          "[abc][   ab][ab   ][ab]");
    CHECK(format("%p", Args().add(std::uint64_t{0x1234})) == "0x1234");
    CHECK(format("100%%") == "100%");
    CHECK(format("no conversions\n") == "no conversions\n");
}

TEST_CASE("format_printf: vectors, elements separated by commas") {
    CHECK(format("%v4hhd", Args().add(Char4{{1, -2, 3, -4}})) == "1,-2,3,-4");
    CHECK(format("%v3hlf", Args().add(Float3{{1.0f, 2.5f, -3.0f}})) ==
          "1.000000,2.500000,-3.000000");
    CHECK(format("%.1v3hle", Args().add(Float3{{1.0f, 10.0f, 100.0f}})) ==
          "1.0e+00,1.0e+01,1.0e+02");
    CHECK(format("%5v2ld|%v2lx", Args().add(Long2{{-1, 42}}).add(Long2{{255, 16}})) ==
          "   -1,   42|ff,10");
    // A char4 passed coerced to one int: the same bytes.
    CHECK(format("%v4hhu", Args().add(std::uint32_t{0x04030201})) == "1,2,3,4");
    CHECK(format("%v2hf", Args().add(Half2{{0x3c00, 0xc000}})) == "1.000000,-2.000000");
}

TEST_CASE("format_printf: what OpenCL C does not know is copied as written") {
    // hl without a vector, a vector of strings, an unknown vector size, no
    // argument left, a lone '%' at the end.
    CHECK(format("%hld", Args().add(1)) == "%hld");
    CHECK(format("%v4s", Args().add_string("x")) == "%v4s");
    CHECK(format("%v5hld", Args().add(1)) == "%v5hld");
    CHECK(format("%d %d", Args().add(1)) == "1 %d");
    CHECK(format("50%") == "50%");
    // A vector argument smaller than the specifier says.
    CHECK(format("%v4hld", Args().add(1)) == "%v4hld");
}

namespace {

// A record as the compiler writes it.
void append_record(std::vector<char>& buffer, const char* format, const Args& args) {
    const std::vector<PrintfArgument> list = args.list();
    const std::size_t sizes = (4 * list.size() + 7) / 8 * 8;
    std::size_t size = sizeof(kc::PrintfRecordHeader) + sizes;
    for (const PrintfArgument& a : list)
        size += (a.size + 7) / 8 * 8;
    const std::size_t start = buffer.size();
    buffer.resize(start + size, 0);
    kc::PrintfRecordHeader header{static_cast<std::uint32_t>(size),
                                  static_cast<std::uint32_t>(list.size()),
                                  reinterpret_cast<std::uint64_t>(format)};
    std::memcpy(buffer.data() + start, &header, sizeof header);
    std::size_t offset = start + sizeof header;
    for (const PrintfArgument& a : list) {
        std::memcpy(buffer.data() + offset, &a.size, 4);
        offset += 4;
    }
    offset = start + sizeof header + sizes;
    for (const PrintfArgument& a : list) {
        std::memcpy(buffer.data() + offset, a.bytes, a.size);
        offset += (a.size + 7) / 8 * 8;
    }
}

} // namespace

TEST_CASE("format_printf_records: records in order; a malformed one ends the output") {
    std::vector<char> buffer;
    append_record(buffer, "a %d\n", Args().add(1));
    append_record(buffer, "b\n", Args());
    append_record(buffer, "c %s %v2hlf\n", Args().add_string("x").add(Long2{{0, 0}}));
    std::string out;
    format_printf_records(out, buffer.data(), buffer.size());
    CHECK(out == "a 1\nb\nc x 0.000000,0.000000\n");

    // Cut in the middle of the last record: the complete ones only.
    out.clear();
    format_printf_records(out, buffer.data(), buffer.size() - 8);
    CHECK(out == "a 1\nb\n");

    // A record whose size is not a multiple of 8, or too small.
    std::vector<char> broken = buffer;
    const std::uint32_t bad = 13;
    std::memcpy(broken.data(), &bad, 4);
    out.clear();
    format_printf_records(out, broken.data(), broken.size());
    CHECK(out.empty());
    const std::uint32_t zero = 0;
    std::memcpy(broken.data(), &zero, 4);
    format_printf_records(out, broken.data(), broken.size());
    CHECK(out.empty());

    // Argument sizes that run past the record.
    std::vector<char> overflow;
    append_record(overflow, "%d\n", Args().add(1));
    const std::uint32_t huge = 1000;
    std::memcpy(overflow.data() + sizeof(kc::PrintfRecordHeader), &huge, 4);
    out.clear();
    format_printf_records(out, overflow.data(), overflow.size());
    CHECK(out.empty());
}
