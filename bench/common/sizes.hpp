// Byte counts on the command line and in the benchmarks' tables.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace bench {

inline constexpr std::size_t KiB = 1024;
inline constexpr std::size_t MiB = 1024 * KiB;
inline constexpr std::size_t GiB = 1024 * MiB;

// "64 KiB", "16 MiB", "1 GiB" for whole units, "1.50 MiB" from 1 MiB on
// otherwise, "100 B" below.
std::string human_size(std::uint64_t bytes);

// A size of the command line: a number with an optional K, M or G (binary
// multiples, either case): "64K", "256M", "1G", "4096".
std::size_t parse_size(const char* text);

} // namespace bench
