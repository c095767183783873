// Calls functions another module defines (SPIR-V Import linkage).
int helper_scale(int x);
int helper_offset(int x);

kernel void use_helpers(global const int* in, global int* out) {
    size_t i = get_global_id(0);
    out[i] = helper_offset(helper_scale(in[i]));
}
