// Specialization constants as SYCL compilers write them: calls of
// __spirv_SpecConstant(id, default), which llvm-spirv turns into
// OpSpecConstant (OpSpecConstantTrue/False for bool) with a SpecId.
char __attribute__((overloadable)) __spirv_SpecConstant(int, char);
uchar __attribute__((overloadable)) __spirv_SpecConstant(int, uchar);
short __attribute__((overloadable)) __spirv_SpecConstant(int, short);
ushort __attribute__((overloadable)) __spirv_SpecConstant(int, ushort);
int __attribute__((overloadable)) __spirv_SpecConstant(int, int);
uint __attribute__((overloadable)) __spirv_SpecConstant(int, uint);
long __attribute__((overloadable)) __spirv_SpecConstant(int, long);
ulong __attribute__((overloadable)) __spirv_SpecConstant(int, ulong);
float __attribute__((overloadable)) __spirv_SpecConstant(int, float);
double __attribute__((overloadable)) __spirv_SpecConstant(int, double);
bool __attribute__((overloadable)) __spirv_SpecConstant(int, bool);

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
half __attribute__((overloadable)) __spirv_SpecConstant(int, half);

// Each constant's value, widened without loss: integers as long (ulong's
// bits), float and double as their bits, bool as 0 or 1.
kernel void spec_values(global long* out) {
    out[0] = __spirv_SpecConstant(1, (char)-3);
    out[1] = __spirv_SpecConstant(2, (uchar)200);
    out[2] = __spirv_SpecConstant(3, (short)-1234);
    out[3] = __spirv_SpecConstant(4, (ushort)60000);
    out[4] = __spirv_SpecConstant(5, -100000);
    out[5] = __spirv_SpecConstant(6, 4000000000u);
    out[6] = __spirv_SpecConstant(7, -5000000000l);
    out[7] = (long)__spirv_SpecConstant(8, 18000000000000000000ul);
    out[8] = as_int(__spirv_SpecConstant(9, 1.5f));
    out[9] = as_long(__spirv_SpecConstant(10, 2.25));
    out[10] = __spirv_SpecConstant(11, true) ? 1 : 0;
    out[11] = __spirv_SpecConstant(12, false) ? 1 : 0;
    // half: a 2-byte constant, read as a float (folded, no half arithmetic).
    out[12] = as_int((float)__spirv_SpecConstant(13, (half)0.75h));
}

// A constant that changes what the kernel computes.
kernel void scaled(global const int* in, global int* out) {
    size_t i = get_global_id(0);
    out[i] = in[i] * __spirv_SpecConstant(20, 2);
}
