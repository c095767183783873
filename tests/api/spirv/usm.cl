// A kernel as SYCL compilers write them for USM: plain global pointers that
// the runtime sets with clSetKernelArgMemPointerINTEL.
kernel void saxpy_usm(global const float* x, global float* y, float a, ulong n) {
    size_t i = get_global_id(0);
    if (i < n)
        y[i] = a * x[i] + y[i];
}
