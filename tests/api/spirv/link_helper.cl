// Functions for link_user.cl (SPIR-V Export linkage); helper_offset is also
// given as OpenCL C source by the tests.
int helper_scale(int x) {
    return 3 * x;
}
int helper_offset(int x) {
    return x + 11;
}
