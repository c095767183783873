// Formats what a kernel's printf calls left in the launch's printf buffer
// (the records of kc/Launch.h) the way OpenCL C's printf prints: the C99
// conversions with flags, width and precision, the length modifiers hh, h,
// l and hl, vector specifiers (%v4hld: the elements separated by commas).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

namespace usmcl::runtime {

// The bytes of records one launch may write (CL_DEVICE_PRINTF_BUFFER_SIZE,
// which driver/api/device_info.cpp reports).
inline constexpr std::size_t printf_buffer_size = std::size_t{1} << 20;

// One argument as the kernel passed it: its bytes (little endian).
struct PrintfArgument {
    const char* bytes = nullptr;
    std::uint32_t size = 0;
};

// Appends to out what printf(format, args...) prints. A conversion without
// an argument left, or that OpenCL C does not know, is copied as written.
void format_printf(std::string& out, const char* format, std::span<const PrintfArgument> args);

// Appends the output of every record in [data, data + size), in order. Stops
// at the first malformed record.
void format_printf_records(std::string& out, const char* data, std::size_t size);

} // namespace usmcl::runtime
