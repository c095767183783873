// The functions of cl_intel_subgroups, declared for kernels (Clang declares
// the cl_khr_subgroups ones itself): the front end includes this file when
// the device reports the extension; builtins/subgroups.cl defines them.
// Image block reads and writes are not provided.
#pragma once

#define __KC_SG_DECL __attribute__((overloadable, convergent))

#define __KC_INTEL_SHUFFLES(T)                                                 \
  T __KC_SG_DECL intel_sub_group_shuffle(T x, uint c);                         \
  T __KC_SG_DECL intel_sub_group_shuffle_down(T cur, T next, uint c);          \
  T __KC_SG_DECL intel_sub_group_shuffle_up(T prev, T cur, uint c);            \
  T __KC_SG_DECL intel_sub_group_shuffle_xor(T x, uint c);

#define __KC_INTEL_SHUFFLES_VECTORS(T)                                         \
  __KC_INTEL_SHUFFLES(T)                                                       \
  __KC_INTEL_SHUFFLES(T##2)                                                    \
  __KC_INTEL_SHUFFLES(T##3)                                                    \
  __KC_INTEL_SHUFFLES(T##4)                                                    \
  __KC_INTEL_SHUFFLES(T##8)                                                    \
  __KC_INTEL_SHUFFLES(T##16)

__KC_INTEL_SHUFFLES_VECTORS(float)
__KC_INTEL_SHUFFLES_VECTORS(int)
__KC_INTEL_SHUFFLES_VECTORS(uint)
__KC_INTEL_SHUFFLES(long)
__KC_INTEL_SHUFFLES(ulong)
#if defined(cl_khr_fp64) || defined(__opencl_c_fp64)
__KC_INTEL_SHUFFLES(double)
#endif
// cl_intel_subgroups_char and cl_intel_subgroups_short.
__KC_INTEL_SHUFFLES_VECTORS(char)
__KC_INTEL_SHUFFLES_VECTORS(uchar)
__KC_INTEL_SHUFFLES_VECTORS(short)
__KC_INTEL_SHUFFLES_VECTORS(ushort)

uint __KC_SG_DECL intel_sub_group_block_read(const __global uint *p);
uint2 __KC_SG_DECL intel_sub_group_block_read2(const __global uint *p);
uint4 __KC_SG_DECL intel_sub_group_block_read4(const __global uint *p);
uint8 __KC_SG_DECL intel_sub_group_block_read8(const __global uint *p);
void __KC_SG_DECL intel_sub_group_block_write(__global uint *p, uint data);
void __KC_SG_DECL intel_sub_group_block_write2(__global uint *p, uint2 data);
void __KC_SG_DECL intel_sub_group_block_write4(__global uint *p, uint4 data);
void __KC_SG_DECL intel_sub_group_block_write8(__global uint *p, uint8 data);

#undef __KC_INTEL_SHUFFLES_VECTORS
#undef __KC_INTEL_SHUFFLES
#undef __KC_SG_DECL
