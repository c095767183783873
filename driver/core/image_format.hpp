// Image formats: which (channel order, channel data type) pairs usmcl
// supports, their texel sizes, and the packing of a fill color into a texel.
#pragma once

#include <CL/cl.h>

#include <array>
#include <cstddef>
#include <span>

namespace usmcl::core {

// Channels stored per texel for a channel order; 0 if unknown.
unsigned channel_count(cl_channel_order order);
// Bytes per channel for a channel data type; 0 if unknown or packed.
unsigned channel_size(cl_channel_type type);
// Whether the data type is read with read_imagei (signed), read_imageui
// (unsigned) or read_imagef (float: normalized, half and float).
enum class ChannelClass { float_like, signed_int, unsigned_int };
ChannelClass channel_class(cl_channel_type type);

// A format usmcl supports for every image type and access; element_size
// is then channel_count * channel_size.
bool format_supported(const cl_image_format& format);
// Every supported format, in a fixed order.
std::span<const cl_image_format> supported_formats();
size_t element_size(const cl_image_format& format);

// The texel bytes of a fill color (clEnqueueFillImage): four floats, ints
// or uints by the channel class, converted with the rules of write_image.
std::array<std::byte, 16> pack_color(const cl_image_format& format, const void* color);

} // namespace usmcl::core
