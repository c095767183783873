// Image builtins: read_image{f,i,ui} (with a sampler and float or int
// coordinates, and sampler-less), write_image{f,i,ui}, get_image_*.
//
// An image argument is, in the IR, a global pointer to the driver's
// KcImageDescriptor (kc/ImageDescriptor.h); a sampler a constant pointer
// whose address is the sampler bits. OpenCL C cannot turn an image or a
// sampler into a pointer, so each builtin is defined here on the descriptor
// pointer and the bits, under the mangled name Clang gives the OpenCL C
// overload (an asm label): the parameters have the same IR types.
//
// Sampling follows the OpenCL C specification's "Image Addressing and
// Filtering" (nearest and linear filters, the five addressing modes,
// normalized or not) and its conversion rules per channel data type.
#include "kc/ImageDescriptor.h"

typedef __global const KcImageDescriptor *ImageDesc;

// --- texel addresses and bounds.

static __global uchar *texelAddress(ImageDesc D, int4 C) {
  return (__global uchar *)D->Data + (ulong)C.z * D->SliceStep +
         (ulong)C.y * D->RowStep + (ulong)C.x * D->ElementSize;
}

static bool outside(ImageDesc D, int4 C) {
  return C.x < 0 || C.y < 0 || C.z < 0 || (uint)C.x >= D->Extent[0] ||
         (uint)C.y >= D->Extent[1] || (uint)C.z >= D->Extent[2];
}

static bool hasAlpha(uint Order) {
  return Order == CLK_A || Order == CLK_RA || Order == CLK_RGBA ||
         Order == CLK_BGRA || Order == CLK_ARGB || Order == CLK_ABGR ||
         Order == CLK_INTENSITY;
}

// --- channel orders: stored channels to (r, g, b, a) and back. Values
// travel as 32-bit patterns (float bits or integers); One is the pattern of
// 1 (1.0f for float reads).

static int4 swizzleRead(uint Order, int4 C, int One) {
  switch (Order) {
  case CLK_R:
    return (int4)(C.x, 0, 0, One);
  case CLK_A:
    return (int4)(0, 0, 0, C.x);
  case CLK_RG:
    return (int4)(C.x, C.y, 0, One);
  case CLK_RA:
    return (int4)(C.x, 0, 0, C.y);
  case CLK_BGRA:
    return C.zyxw;
  case CLK_ARGB:
    return C.yzwx;
  case CLK_ABGR:
    return C.wzyx;
  case CLK_INTENSITY:
    return C.xxxx;
  case CLK_LUMINANCE:
    return (int4)(C.x, C.x, C.x, One);
  default:
    return C;
  }
}

static int4 swizzleWrite(uint Order, int4 V) {
  switch (Order) {
  case CLK_A:
    return (int4)(V.w, 0, 0, 0);
  case CLK_RA:
    return (int4)(V.x, V.w, 0, 0);
  case CLK_BGRA:
    return V.zyxw;
  case CLK_ARGB:
    return V.wxyz;
  case CLK_ABGR:
    return V.wzyx;
  default: // R, RG, RGBA, INTENSITY, LUMINANCE: red first
    return V;
  }
}

// --- loads and stores of the stored channels.

static float loadChannelF(ImageDesc D, __global uchar *P, uint I) {
  switch (D->ChannelDataType) {
  case CLK_UNORM_INT8:
    return P[I] / 255.0f;
  case CLK_UNORM_INT16:
    return ((__global ushort *)P)[I] / 65535.0f;
  case CLK_SNORM_INT8:
    return __builtin_fmaxf(-1.0f, ((__global char *)P)[I] / 127.0f);
  case CLK_SNORM_INT16:
    return __builtin_fmaxf(-1.0f, ((__global short *)P)[I] / 32767.0f);
  case CLK_HALF_FLOAT:
    return vload_half(I, (__global half *)P);
  case CLK_FLOAT:
    return ((__global float *)P)[I];
  case CLK_SIGNED_INT8:
    return ((__global char *)P)[I];
  case CLK_SIGNED_INT16:
    return ((__global short *)P)[I];
  case CLK_SIGNED_INT32:
    return ((__global int *)P)[I];
  case CLK_UNSIGNED_INT8:
    return P[I];
  case CLK_UNSIGNED_INT16:
    return ((__global ushort *)P)[I];
  case CLK_UNSIGNED_INT32:
    return ((__global uint *)P)[I];
  default:
    return 0.0f;
  }
}

static int loadChannelI(ImageDesc D, __global uchar *P, uint I) {
  switch (D->ChannelDataType) {
  case CLK_SIGNED_INT8:
    return ((__global char *)P)[I];
  case CLK_SIGNED_INT16:
    return ((__global short *)P)[I];
  case CLK_UNSIGNED_INT8:
  case CLK_UNORM_INT8:
  case CLK_SNORM_INT8:
    return P[I];
  case CLK_UNSIGNED_INT16:
  case CLK_UNORM_INT16:
  case CLK_SNORM_INT16:
  case CLK_HALF_FLOAT:
    return ((__global ushort *)P)[I];
  default:
    return ((__global int *)P)[I];
  }
}

// Float to an integer of [Low, High], rounded to nearest even (NaN: 0
// clamped into the range).
static int saturateRte(float F, float Low, float High) {
  return (int)__builtin_rintf(__builtin_fminf(__builtin_fmaxf(F, Low), High));
}

static int clampInt(int V, int Low, int High) {
  return V < Low ? Low : (V > High ? High : V);
}

static uint minUint(uint V, uint High) { return V > High ? High : V; }

static void storeChannelF(ImageDesc D, __global uchar *P, uint I, float F) {
  switch (D->ChannelDataType) {
  case CLK_UNORM_INT8:
    P[I] = (uchar)saturateRte(F * 255.0f, 0.0f, 255.0f);
    break;
  case CLK_UNORM_INT16:
    ((__global ushort *)P)[I] = (ushort)saturateRte(F * 65535.0f, 0.0f, 65535.0f);
    break;
  case CLK_SNORM_INT8:
    ((__global char *)P)[I] = (char)saturateRte(F * 127.0f, -128.0f, 127.0f);
    break;
  case CLK_SNORM_INT16:
    ((__global short *)P)[I] =
        (short)saturateRte(F * 32767.0f, -32768.0f, 32767.0f);
    break;
  case CLK_HALF_FLOAT:
    vstore_half_rte(F, I, (__global half *)P);
    break;
  case CLK_FLOAT:
    ((__global float *)P)[I] = F;
    break;
  default:
    break;
  }
}

static void storeChannelI(ImageDesc D, __global uchar *P, uint I, int V) {
  switch (D->ChannelDataType) {
  case CLK_SIGNED_INT8:
    ((__global char *)P)[I] = (char)clampInt(V, -128, 127);
    break;
  case CLK_SIGNED_INT16:
    ((__global short *)P)[I] = (short)clampInt(V, -32768, 32767);
    break;
  case CLK_SIGNED_INT32:
    ((__global int *)P)[I] = V;
    break;
  default:
    break;
  }
}

static void storeChannelU(ImageDesc D, __global uchar *P, uint I, uint V) {
  switch (D->ChannelDataType) {
  case CLK_UNSIGNED_INT8:
    P[I] = (uchar)minUint(V, 255u);
    break;
  case CLK_UNSIGNED_INT16:
    ((__global ushort *)P)[I] = (ushort)minUint(V, 65535u);
    break;
  case CLK_UNSIGNED_INT32:
    ((__global uint *)P)[I] = V;
    break;
  default:
    break;
  }
}

// --- texels: (r, g, b, a) at integer coordinates, the border color outside.

static float4 texelF(ImageDesc D, int4 C) {
  if (outside(D, C))
    return (float4)(0.0f, 0.0f, 0.0f, hasAlpha(D->ChannelOrder) ? 0.0f : 1.0f);
  __global uchar *P = texelAddress(D, C);
  float4 V = 0.0f;
  for (uint I = 0; I < D->Channels; ++I)
    V[I] = loadChannelF(D, P, I);
  return as_float4(swizzleRead(D->ChannelOrder, as_int4(V), as_int(1.0f)));
}

static int4 texelI(ImageDesc D, int4 C) {
  if (outside(D, C))
    return (int4)(0, 0, 0, hasAlpha(D->ChannelOrder) ? 0 : 1);
  __global uchar *P = texelAddress(D, C);
  int4 V = 0;
  for (uint I = 0; I < D->Channels; ++I)
    V[I] = loadChannelI(D, P, I);
  return swizzleRead(D->ChannelOrder, V, 1);
}

// --- addressing.

static int floorToInt(float F) {
  return (int)__builtin_floorf(
      __builtin_fminf(__builtin_fmaxf(F, -1073741824.0f), 1073741824.0f));
}

static float fraction(float F) { return F - __builtin_floorf(F); }

static float mirror(float S) {
  return __builtin_fabsf(S - 2.0f * __builtin_rintf(0.5f * S));
}

static int nearestAxis(float S, int Size, uint Bits) {
  const uint Mode = Bits & KC_SAMPLER_ADDRESS_MASK;
  if (Mode == KC_SAMPLER_ADDRESS_REPEAT) {
    int I = floorToInt(fraction(S) * Size);
    return I > Size - 1 ? I - Size : I;
  }
  if (Mode == KC_SAMPLER_ADDRESS_MIRRORED_REPEAT)
    return clampInt(floorToInt(mirror(S) * Size), 0, Size - 1);
  const float U = (Bits & KC_SAMPLER_NORMALIZED_COORDS) ? S * Size : S;
  const int I = floorToInt(U);
  if (Mode == KC_SAMPLER_ADDRESS_CLAMP_TO_EDGE)
    return clampInt(I, 0, Size - 1);
  if (Mode == KC_SAMPLER_ADDRESS_CLAMP)
    return clampInt(I, -1, Size);
  return I; // NONE: outside the image reads the border color
}

// The two texels around S and the weight of the second one.
static void linearAxis(float S, int Size, uint Bits, int *I0, int *I1,
                       float *Weight) {
  const uint Mode = Bits & KC_SAMPLER_ADDRESS_MASK;
  float U;
  if (Mode == KC_SAMPLER_ADDRESS_REPEAT)
    U = fraction(S) * Size;
  else if (Mode == KC_SAMPLER_ADDRESS_MIRRORED_REPEAT)
    U = mirror(S) * Size;
  else
    U = (Bits & KC_SAMPLER_NORMALIZED_COORDS) ? S * Size : S;
  *I0 = floorToInt(U - 0.5f);
  *I1 = *I0 + 1;
  *Weight = fraction(U - 0.5f);
  if (Mode == KC_SAMPLER_ADDRESS_REPEAT) {
    if (*I0 < 0)
      *I0 += Size;
    if (*I1 > Size - 1)
      *I1 -= Size;
  } else if (Mode == KC_SAMPLER_ADDRESS_MIRRORED_REPEAT) {
    *I0 = clampInt(*I0, 0, Size - 1);
    *I1 = clampInt(*I1, 0, Size - 1);
  } else if (Mode == KC_SAMPLER_ADDRESS_CLAMP_TO_EDGE) {
    *I0 = clampInt(*I0, 0, Size - 1);
    *I1 = clampInt(*I1, 0, Size - 1);
  } else if (Mode == KC_SAMPLER_ADDRESS_CLAMP) {
    *I0 = clampInt(*I0, -1, Size);
    *I1 = clampInt(*I1, -1, Size);
  }
}

static int layerOf(float S, uint Layers) {
  return clampInt((int)__builtin_rintf(__builtin_fminf(
                      __builtin_fmaxf(S, 0.0f), (float)Layers)),
                  0, (int)Layers - 1);
}

static uint samplerBits(__constant void *S) { return (uint)(ulong)S; }

// Dims coordinates are sampled; with Array, coordinate Dims is the layer.
static int4 nearestIndex(ImageDesc D, uint Bits, float4 C, uint Dims,
                         bool Array) {
  int4 Index = 0;
  for (uint A = 0; A < Dims; ++A)
    Index[A] = nearestAxis(C[A], (int)D->Extent[A], Bits);
  if (Array)
    Index[Dims] = layerOf(C[Dims], D->Extent[Dims]);
  return Index;
}

static float4 sampleF(ImageDesc D, uint Bits, float4 C, uint Dims,
                      bool Array) {
  if (!(Bits & KC_SAMPLER_FILTER_LINEAR))
    return texelF(D, nearestIndex(D, Bits, C, Dims, Array));
  int I0[3], I1[3];
  float W[3];
  int4 Base = 0;
  if (Array)
    Base[Dims] = layerOf(C[Dims], D->Extent[Dims]);
  for (uint A = 0; A < Dims; ++A)
    linearAxis(C[A], (int)D->Extent[A], Bits, &I0[A], &I1[A], &W[A]);
  float4 Sum = 0.0f;
  for (uint Corner = 0; Corner < (1u << Dims); ++Corner) {
    int4 Index = Base;
    float Weight = 1.0f;
    for (uint A = 0; A < Dims; ++A) {
      const bool Second = (Corner >> A) & 1;
      Index[A] = Second ? I1[A] : I0[A];
      Weight *= Second ? W[A] : 1.0f - W[A];
    }
    Sum += Weight * texelF(D, Index);
  }
  return Sum;
}

// Integer coordinates with a sampler: not normalized, nearest; only the
// clamping addressing modes apply.
static int4 integerIndex(ImageDesc D, uint Bits, int4 C, uint Dims,
                         bool Array) {
  const uint Mode = Bits & KC_SAMPLER_ADDRESS_MASK;
  int4 Index = 0;
  for (uint A = 0; A < Dims; ++A) {
    const int Size = (int)D->Extent[A];
    Index[A] = Mode == KC_SAMPLER_ADDRESS_CLAMP_TO_EDGE ? clampInt(C[A], 0, Size - 1)
               : Mode == KC_SAMPLER_ADDRESS_CLAMP       ? clampInt(C[A], -1, Size)
                                                        : C[A];
  }
  if (Array)
    Index[Dims] = clampInt(C[Dims], 0, (int)D->Extent[Dims] - 1);
  return Index;
}

static int4 plainIndex(ImageDesc D, int4 C, uint Dims, bool Array) {
  int4 Index = 0;
  for (uint A = 0; A < Dims + (Array ? 1 : 0); ++A)
    Index[A] = C[A];
  return Index;
}

// --- coordinate widening.

static float4 toF4_f(float C) { return (float4)(C, 0.0f, 0.0f, 0.0f); }
static float4 toF4_f2(float2 C) { return (float4)(C, 0.0f, 0.0f); }
static float4 toF4_f4(float4 C) { return C; }
static int4 toI4_i(int C) { return (int4)(C, 0, 0, 0); }
static int4 toI4_i2(int2 C) { return (int4)(C, 0, 0); }
static int4 toI4_i4(int4 C) { return C; }

// --- the OpenCL C overloads.

#define IMG_1D(Q) "14ocl_image1d_" Q
#define IMG_1DB(Q) "21ocl_image1d_buffer_" Q
#define IMG_1DA(Q) "20ocl_image1d_array_" Q
#define IMG_2D(Q) "14ocl_image2d_" Q
#define IMG_2DA(Q) "20ocl_image2d_array_" Q
#define IMG_3D(Q) "14ocl_image3d_" Q
#define SAMPLER "11ocl_sampler"

// read_imagef(image, sampler, float coordinates).
#define READ_F_SAMPLED(Id, Img, CoordT, Coord, Dims, Array)                    \
  float4 __kc_readf_s_##Id(ImageDesc D, __constant void *S, CoordT C)          \
      __asm__("_Z11read_imagef" Img SAMPLER Coord);                            \
  float4 __kc_readf_s_##Id(ImageDesc D, __constant void *S, CoordT C) {        \
    return sampleF(D, samplerBits(S), toF4_##CoordT(C), Dims, Array);          \
  }
// read_image{i,ui}(image, sampler, float coordinates): nearest only.
#define READ_I_SAMPLED(Name, Mangled, R, Id, Img, CoordT, Coord, Dims, Array)  \
  R##4 __kc_##Name##_s_##Id(ImageDesc D, __constant void *S, CoordT C)         \
      __asm__(Mangled Img SAMPLER Coord);                                      \
  R##4 __kc_##Name##_s_##Id(ImageDesc D, __constant void *S, CoordT C) {       \
    const uint Bits = samplerBits(S);                                          \
    return as_##R##4(                                                          \
        texelI(D, nearestIndex(D, Bits, toF4_##CoordT(C), Dims, Array)));      \
  }
// read_image{f,i,ui}(image, sampler, int coordinates).
#define READ_INT_SAMPLED(Name, Mangled, R, Texel, Id, Img, CoordT, Coord,      \
                         Dims, Array)                                          \
  R##4 __kc_##Name##_si_##Id(ImageDesc D, __constant void *S, CoordT C)        \
      __asm__(Mangled Img SAMPLER Coord);                                      \
  R##4 __kc_##Name##_si_##Id(ImageDesc D, __constant void *S, CoordT C) {      \
    return as_##R##4(Texel(                                                    \
        D, integerIndex(D, samplerBits(S), toI4_##CoordT(C), Dims, Array)));   \
  }
// read_image{f,i,ui}(image, int coordinates): no sampler.
#define READ_PLAIN(Name, Mangled, R, Texel, Id, Img, CoordT, Coord, Dims,      \
                   Array)                                                      \
  R##4 __kc_##Name##_p_##Id(ImageDesc D, CoordT C) __asm__(Mangled Img Coord); \
  R##4 __kc_##Name##_p_##Id(ImageDesc D, CoordT C) {                           \
    return as_##R##4(Texel(D, plainIndex(D, toI4_##CoordT(C), Dims, Array)));  \
  }

#define toF4_float toF4_f
#define toF4_float2 toF4_f2
#define toF4_float4 toF4_f4
#define toI4_int toI4_i
#define toI4_int2 toI4_i2
#define toI4_int4 toI4_i4

// Every readable image type: Id, mangled type, float and int coordinate
// types and their mangling, sampled coordinates, array.
#define FOR_SAMPLED_IMAGES(X)                                                  \
  X(1d, IMG_1D("ro"), float, "f", int, "i", 1, false)                          \
  X(1da, IMG_1DA("ro"), float2, "Dv2_f", int2, "Dv2_i", 1, true)               \
  X(2d, IMG_2D("ro"), float2, "Dv2_f", int2, "Dv2_i", 2, false)                \
  X(2da, IMG_2DA("ro"), float4, "Dv4_f", int4, "Dv4_i", 2, true)               \
  X(3d, IMG_3D("ro"), float4, "Dv4_f", int4, "Dv4_i", 3, false)

#define SAMPLED_READS(Id, Img, FT, FM, IT, IM, Dims, Array)                    \
  READ_F_SAMPLED(Id, Img, FT, FM, Dims, Array)                                 \
  READ_I_SAMPLED(readi, "_Z11read_imagei", int, Id, Img, FT, FM, Dims, Array)  \
  READ_I_SAMPLED(readui, "_Z12read_imageui", uint, Id, Img, FT, FM, Dims,      \
                 Array)                                                        \
  READ_INT_SAMPLED(readf, "_Z11read_imagef", float, texelF, Id, Img, IT, IM,   \
                   Dims, Array)                                                \
  READ_INT_SAMPLED(readi, "_Z11read_imagei", int, texelI, Id, Img, IT, IM,     \
                   Dims, Array)                                                \
  READ_INT_SAMPLED(readui, "_Z12read_imageui", uint, texelI, Id, Img, IT, IM,  \
                   Dims, Array)                                                \
  READ_PLAIN(readf, "_Z11read_imagef", float, texelF, Id, Img, IT, IM, Dims,   \
             Array)                                                            \
  READ_PLAIN(readi, "_Z11read_imagei", int, texelI, Id, Img, IT, IM, Dims,     \
             Array)                                                            \
  READ_PLAIN(readui, "_Z12read_imageui", uint, texelI, Id, Img, IT, IM, Dims,  \
             Array)

FOR_SAMPLED_IMAGES(SAMPLED_READS)

// Sampler-less reads only: 1D buffer images, and read-write images of
// every type (__opencl_c_read_write_images).
#define PLAIN_READS(Id, Img, IT, IM, Dims, Array)                              \
  READ_PLAIN(readf, "_Z11read_imagef", float, texelF, Id, Img, IT, IM, Dims,   \
             Array)                                                            \
  READ_PLAIN(readi, "_Z11read_imagei", int, texelI, Id, Img, IT, IM, Dims,     \
             Array)                                                            \
  READ_PLAIN(readui, "_Z12read_imageui", uint, texelI, Id, Img, IT, IM, Dims,  \
             Array)

PLAIN_READS(1db, IMG_1DB("ro"), int, "i", 1, false)
PLAIN_READS(1d_rw, IMG_1D("rw"), int, "i", 1, false)
PLAIN_READS(1db_rw, IMG_1DB("rw"), int, "i", 1, false)
PLAIN_READS(1da_rw, IMG_1DA("rw"), int2, "Dv2_i", 1, true)
PLAIN_READS(2d_rw, IMG_2D("rw"), int2, "Dv2_i", 2, false)
PLAIN_READS(2da_rw, IMG_2DA("rw"), int4, "Dv4_i", 2, true)
PLAIN_READS(3d_rw, IMG_3D("rw"), int4, "Dv4_i", 3, false)

// --- writes: outside the image nothing is written.

static void writeF(ImageDesc D, int4 C, float4 Color) {
  if (outside(D, C))
    return;
  __global uchar *P = texelAddress(D, C);
  const float4 V = as_float4(swizzleWrite(D->ChannelOrder, as_int4(Color)));
  for (uint I = 0; I < D->Channels; ++I)
    storeChannelF(D, P, I, V[I]);
}

static void writeI(ImageDesc D, int4 C, int4 Color) {
  if (outside(D, C))
    return;
  __global uchar *P = texelAddress(D, C);
  const int4 V = swizzleWrite(D->ChannelOrder, Color);
  for (uint I = 0; I < D->Channels; ++I)
    storeChannelI(D, P, I, V[I]);
}

static void writeU(ImageDesc D, int4 C, uint4 Color) {
  if (outside(D, C))
    return;
  __global uchar *P = texelAddress(D, C);
  const uint4 V = as_uint4(swizzleWrite(D->ChannelOrder, as_int4(Color)));
  for (uint I = 0; I < D->Channels; ++I)
    storeChannelU(D, P, I, V[I]);
}

// Color mangling: float4 "Dv4_f", int4 "Dv4_i" (a substitution "S0_" when
// the coordinate is int4 too), uint4 "Dv4_j".
#define WRITE(Name, Mangled, T, Store, Id, Img, CoordT, Coord, ColorM, Dims,   \
              Array)                                                           \
  void __kc_##Name##_##Id(ImageDesc D, CoordT C, T##4 Color)                   \
      __asm__(Mangled Img Coord ColorM);                                       \
  void __kc_##Name##_##Id(ImageDesc D, CoordT C, T##4 Color) {                 \
    Store(D, plainIndex(D, toI4_##CoordT(C), Dims, Array), Color);             \
  }

#define WRITES(Id, Img, CoordT, Coord, IntColorM, Dims, Array)                 \
  WRITE(writef, "_Z12write_imagef", float, writeF, Id, Img, CoordT, Coord,     \
        "Dv4_f", Dims, Array)                                                  \
  WRITE(writei, "_Z12write_imagei", int, writeI, Id, Img, CoordT, Coord,       \
        IntColorM, Dims, Array)                                                \
  WRITE(writeui, "_Z13write_imageui", uint, writeU, Id, Img, CoordT, Coord,    \
        "Dv4_j", Dims, Array)

WRITES(1d, IMG_1D("wo"), int, "i", "Dv4_i", 1, false)
WRITES(1db, IMG_1DB("wo"), int, "i", "Dv4_i", 1, false)
WRITES(1da, IMG_1DA("wo"), int2, "Dv2_i", "Dv4_i", 1, true)
WRITES(2d, IMG_2D("wo"), int2, "Dv2_i", "Dv4_i", 2, false)
WRITES(2da, IMG_2DA("wo"), int4, "Dv4_i", "S0_", 2, true)
// cl_khr_3d_image_writes.
WRITES(3d, IMG_3D("wo"), int4, "Dv4_i", "S0_", 3, false)
// Read-write images.
WRITES(1d_rw, IMG_1D("rw"), int, "i", "Dv4_i", 1, false)
WRITES(1db_rw, IMG_1DB("rw"), int, "i", "Dv4_i", 1, false)
WRITES(1da_rw, IMG_1DA("rw"), int2, "Dv2_i", "Dv4_i", 1, true)
WRITES(2d_rw, IMG_2D("rw"), int2, "Dv2_i", "Dv4_i", 2, false)
WRITES(2da_rw, IMG_2DA("rw"), int4, "Dv4_i", "S0_", 2, true)
WRITES(3d_rw, IMG_3D("rw"), int4, "Dv4_i", "S0_", 3, false)

// --- read_imageh and write_imageh (cl_khr_fp16): read_imagef's value
// rounded to half, write_imagef of the half color (exact in float).
#define READH_PLAIN(Id, Img, IT, IM, Dims, Array)                              \
  half4 __kc_readh_p_##Id(ImageDesc D, IT C) __asm__("_Z11read_imageh" Img IM); \
  half4 __kc_readh_p_##Id(ImageDesc D, IT C) {                                 \
    return __builtin_convertvector(                                            \
        texelF(D, plainIndex(D, toI4_##IT(C), Dims, Array)), half4);           \
  }
#define READH_SAMPLED(Id, Img, FT, FM, IT, IM, Dims, Array)                    \
  half4 __kc_readh_s_##Id(ImageDesc D, __constant void *S, FT C)               \
      __asm__("_Z11read_imageh" Img SAMPLER FM);                               \
  half4 __kc_readh_s_##Id(ImageDesc D, __constant void *S, FT C) {             \
    return __builtin_convertvector(                                            \
        sampleF(D, samplerBits(S), toF4_##FT(C), Dims, Array), half4);         \
  }                                                                            \
  half4 __kc_readh_si_##Id(ImageDesc D, __constant void *S, IT C)              \
      __asm__("_Z11read_imageh" Img SAMPLER IM);                               \
  half4 __kc_readh_si_##Id(ImageDesc D, __constant void *S, IT C) {            \
    return __builtin_convertvector(                                            \
        texelF(D, integerIndex(D, samplerBits(S), toI4_##IT(C), Dims, Array)), \
        half4);                                                                \
  }                                                                            \
  READH_PLAIN(Id, Img, IT, IM, Dims, Array)
FOR_SAMPLED_IMAGES(READH_SAMPLED)
READH_PLAIN(1db, IMG_1DB("ro"), int, "i", 1, false)
READH_PLAIN(1d_rw, IMG_1D("rw"), int, "i", 1, false)
READH_PLAIN(1db_rw, IMG_1DB("rw"), int, "i", 1, false)
READH_PLAIN(1da_rw, IMG_1DA("rw"), int2, "Dv2_i", 1, true)
READH_PLAIN(2d_rw, IMG_2D("rw"), int2, "Dv2_i", 2, false)
READH_PLAIN(2da_rw, IMG_2DA("rw"), int4, "Dv4_i", 2, true)
READH_PLAIN(3d_rw, IMG_3D("rw"), int4, "Dv4_i", 3, false)

#define WRITEH(Id, Img, CoordT, Coord, Dims, Array)                            \
  void __kc_writeh_##Id(ImageDesc D, CoordT C, half4 Color)                    \
      __asm__("_Z12write_imageh" Img Coord "Dv4_Dh");                          \
  void __kc_writeh_##Id(ImageDesc D, CoordT C, half4 Color) {                  \
    writeF(D, plainIndex(D, toI4_##CoordT(C), Dims, Array),                    \
           __builtin_convertvector(Color, float4));                            \
  }
WRITEH(1d, IMG_1D("wo"), int, "i", 1, false)
WRITEH(1db, IMG_1DB("wo"), int, "i", 1, false)
WRITEH(1da, IMG_1DA("wo"), int2, "Dv2_i", 1, true)
WRITEH(2d, IMG_2D("wo"), int2, "Dv2_i", 2, false)
WRITEH(2da, IMG_2DA("wo"), int4, "Dv4_i", 2, true)
WRITEH(3d, IMG_3D("wo"), int4, "Dv4_i", 3, false)
WRITEH(1d_rw, IMG_1D("rw"), int, "i", 1, false)
WRITEH(1db_rw, IMG_1DB("rw"), int, "i", 1, false)
WRITEH(1da_rw, IMG_1DA("rw"), int2, "Dv2_i", 1, true)
WRITEH(2d_rw, IMG_2D("rw"), int2, "Dv2_i", 2, false)
WRITEH(2da_rw, IMG_2DA("rw"), int4, "Dv4_i", 2, true)
WRITEH(3d_rw, IMG_3D("rw"), int4, "Dv4_i", 3, false)

// --- queries, for read-only, write-only and read-write images of every type.

#define QUERY(Name, Mangled, R, Id, Img, Expr)                                 \
  R __kc_##Name##_##Id(ImageDesc D) __asm__(Mangled Img);                      \
  R __kc_##Name##_##Id(ImageDesc D) { return Expr; }

#define EVERY_IMAGE(X, Name, Mangled, R, Expr)                                 \
  X(Name, Mangled, R, 1d_ro, IMG_1D("ro"), Expr)                               \
  X(Name, Mangled, R, 1d_wo, IMG_1D("wo"), Expr)                               \
  X(Name, Mangled, R, 1db_ro, IMG_1DB("ro"), Expr)                             \
  X(Name, Mangled, R, 1db_wo, IMG_1DB("wo"), Expr)                             \
  X(Name, Mangled, R, 1da_ro, IMG_1DA("ro"), Expr)                             \
  X(Name, Mangled, R, 1da_wo, IMG_1DA("wo"), Expr)                             \
  X(Name, Mangled, R, 2d_ro, IMG_2D("ro"), Expr)                               \
  X(Name, Mangled, R, 2d_wo, IMG_2D("wo"), Expr)                               \
  X(Name, Mangled, R, 2da_ro, IMG_2DA("ro"), Expr)                             \
  X(Name, Mangled, R, 2da_wo, IMG_2DA("wo"), Expr)                             \
  X(Name, Mangled, R, 3d_ro, IMG_3D("ro"), Expr)                               \
  X(Name, Mangled, R, 3d_wo, IMG_3D("wo"), Expr)                               \
  X(Name, Mangled, R, 1d_rw, IMG_1D("rw"), Expr)                               \
  X(Name, Mangled, R, 1db_rw, IMG_1DB("rw"), Expr)                             \
  X(Name, Mangled, R, 1da_rw, IMG_1DA("rw"), Expr)                             \
  X(Name, Mangled, R, 2d_rw, IMG_2D("rw"), Expr)                               \
  X(Name, Mangled, R, 2da_rw, IMG_2DA("rw"), Expr)                             \
  X(Name, Mangled, R, 3d_rw, IMG_3D("rw"), Expr)

#define TWO_D_IMAGES(X, Name, Mangled, R, Expr)                                \
  X(Name, Mangled, R, 2d_ro, IMG_2D("ro"), Expr)                               \
  X(Name, Mangled, R, 2d_wo, IMG_2D("wo"), Expr)                               \
  X(Name, Mangled, R, 2da_ro, IMG_2DA("ro"), Expr)                             \
  X(Name, Mangled, R, 2da_wo, IMG_2DA("wo"), Expr)                             \
  X(Name, Mangled, R, 2d_rw, IMG_2D("rw"), Expr)                               \
  X(Name, Mangled, R, 2da_rw, IMG_2DA("rw"), Expr)

EVERY_IMAGE(QUERY, width, "_Z15get_image_width", int, (int)D->Width)
EVERY_IMAGE(QUERY, order, "_Z23get_image_channel_order", int,
            (int)D->ChannelOrder)
EVERY_IMAGE(QUERY, type, "_Z27get_image_channel_data_type", int,
            (int)D->ChannelDataType)
TWO_D_IMAGES(QUERY, height, "_Z16get_image_height", int, (int)D->Height)
TWO_D_IMAGES(QUERY, dim, "_Z13get_image_dim", int2,
             (int2)((int)D->Width, (int)D->Height))
#define THREE_D_QUERIES(Id, Img)                                               \
  QUERY(height, "_Z16get_image_height", int, Id, Img, (int)D->Height)          \
  QUERY(depth, "_Z15get_image_depth", int, Id, Img, (int)D->Depth)             \
  QUERY(dim, "_Z13get_image_dim", int4, Id, Img,                               \
        (int4)((int)D->Width, (int)D->Height, (int)D->Depth, 0))
THREE_D_QUERIES(3d_ro, IMG_3D("ro"))
THREE_D_QUERIES(3d_wo, IMG_3D("wo"))
THREE_D_QUERIES(3d_rw, IMG_3D("rw"))

#define ARRAY_QUERY(Id, Img)                                                   \
  QUERY(array, "_Z20get_image_array_size", size_t, Id, Img,                    \
        (size_t)D->ArraySize)
ARRAY_QUERY(1da_ro, IMG_1DA("ro"))
ARRAY_QUERY(1da_wo, IMG_1DA("wo"))
ARRAY_QUERY(1da_rw, IMG_1DA("rw"))
ARRAY_QUERY(2da_ro, IMG_2DA("ro"))
ARRAY_QUERY(2da_wo, IMG_2DA("wo"))
ARRAY_QUERY(2da_rw, IMG_2DA("rw"))

// Sampler constants of the program (Clang calls this for every sampler_t
// initializer on targets other than SPIR): the bits are the sampler.
__constant void *__translate_sampler_initializer(int Bits) {
  return (__constant void *)(ulong)(uint)Bits;
}
