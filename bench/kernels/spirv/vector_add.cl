// The vector add of kernel_bench's build measurement (child_build.cpp), built
// from this source and from vector_add.spvasm (made from it: meson.build).
__kernel void vector_add(__global const float* a, __global const float* b, __global float* c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
