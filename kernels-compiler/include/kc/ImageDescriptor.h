//===- kc/ImageDescriptor.h - What an image argument points to ------------===//
//
// A kernel's image argument (image1d_t, image2d_t, ...) is, in the IR, a
// pointer in the global address space; the driver passes the address of one
// of these descriptors, and the image builtins (builtins/images.cl) read it.
// Both sides include this header: C++ (the driver) and OpenCL C (the
// builtin library), so the layout is written in fixed-size fields only.
//
// Texel (x, y, z) is at Data + z * SliceStep + y * RowStep + x * ElementSize,
// where y and z are the row and slice of a 2D or 3D image, the layer of a 1D
// array in y, the layer of a 2D array in z. Extent holds the bound of each
// of x, y and z (1 where the image has no such coordinate).
//
// A sampler argument or constant is a 64-bit value holding the OpenCL C
// sampler bits (CLK_NORMALIZED_COORDS_*, CLK_ADDRESS_*, CLK_FILTER_*), in
// the IR a pointer in the constant address space whose address is the bits.
//
//===----------------------------------------------------------------------===//
#ifndef KC_IMAGEDESCRIPTOR_H
#define KC_IMAGEDESCRIPTOR_H

#ifdef __OPENCL_C_VERSION__
#define KC_IMAGE_U64 ulong
#define KC_IMAGE_U32 uint
#else
#include <cstdint>
#define KC_IMAGE_U64 std::uint64_t
#define KC_IMAGE_U32 std::uint32_t
#endif

typedef struct KcImageDescriptor {
  KC_IMAGE_U64 Data;            // address of texel (0, 0, 0)
  KC_IMAGE_U64 RowStep;         // bytes from y to y + 1
  KC_IMAGE_U64 SliceStep;       // bytes from z to z + 1
  KC_IMAGE_U32 Extent[4];       // bounds of x, y, z; Extent[3] unused (0)
  KC_IMAGE_U32 Width;           // get_image_width
  KC_IMAGE_U32 Height;          // get_image_height (0 for 1D images)
  KC_IMAGE_U32 Depth;           // get_image_depth (0 unless 3D)
  KC_IMAGE_U32 ArraySize;       // get_image_array_size (0 unless an array)
  KC_IMAGE_U32 ChannelOrder;    // CL_R, CL_RGBA, ... (= CLK_R, CLK_RGBA)
  KC_IMAGE_U32 ChannelDataType; // CL_UNORM_INT8, ... (= CLK_UNORM_INT8)
  KC_IMAGE_U32 ElementSize;     // bytes per texel
  KC_IMAGE_U32 Channels;        // channels stored per texel
} KcImageDescriptor;

// The sampler bits (the values of opencl-c-base.h's CLK_* macros).
#define KC_SAMPLER_NORMALIZED_COORDS 0x1u
#define KC_SAMPLER_ADDRESS_MASK 0xEu
#define KC_SAMPLER_ADDRESS_NONE 0x0u
#define KC_SAMPLER_ADDRESS_CLAMP_TO_EDGE 0x2u
#define KC_SAMPLER_ADDRESS_CLAMP 0x4u
#define KC_SAMPLER_ADDRESS_REPEAT 0x6u
#define KC_SAMPLER_ADDRESS_MIRRORED_REPEAT 0x8u
#define KC_SAMPLER_FILTER_NEAREST 0x10u
#define KC_SAMPLER_FILTER_LINEAR 0x20u

#undef KC_IMAGE_U64
#undef KC_IMAGE_U32

#endif // KC_IMAGEDESCRIPTOR_H
