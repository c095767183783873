// Builtins whose SPIR-V names or host ABI differ most from the library's:
// private pointer outputs (SPIR mangles them unqualified), wide vectors
// (passed by pointer on x86-64 without AVX-512), small integer vectors
// (passed as integers), conversions (a library of their own), relational
// and shuffle functions. Each work-item writes 16 floats.

kernel void builtins(global const float* x, global float* out) {
    size_t i = get_global_id(0);
    global float* o = out + 16 * i;
    float v = x[i];

    float c;
    float s = sincos(v, &c);
    float whole;
    float part = fract(v * 3.7f, &whole);
    o[0] = s + 2.0f * c;
    o[1] = part + whole;

    float16 w = vload16(0, x) * v;
    float16 r = sqrt(fabs(w)) + mad(w, w, (float16)(1.0f));
    o[2] = r.s0 + r.s7 + r.sf;
    float8 e = exp(w.lo * 0.01f);
    o[3] = e.s0 + e.s3 + e.s7;

    char2 a = (char2)((char)(i * 7), (char)(-3 - (int)i));
    char2 b = (char2)(5, -9);
    char2 h = hadd(a, b);
    uchar2 d = abs_diff(a, b);
    o[4] = (float)h.x + (float)h.y * 3.0f + (float)d.x + (float)d.y * 5.0f;

    int4 n = convert_int4_sat(w.lo.lo * 1000.0f);
    uchar4 u = convert_uchar4_sat_rte(w.hi.hi);
    o[5] = (float)(n.x + n.y + n.z + n.w) + (float)(u.x + u.y * 2 + u.z * 3 + u.w * 4);

    float4 q = (float4)(v, -v, 0.5f, 2.0f);
    int4 m = isgreater(q, (float4)(0.0f));
    float4 sel = select(q, -q, m);
    uint4 mask = (uint4)(3, 2, 1, 0);
    float4 sh = shuffle(q, mask);
    o[6] = sel.x + sel.y * 2.0f + sel.z * 3.0f + sel.w * 4.0f;
    o[7] = sh.x + sh.y * 2.0f + sh.z * 3.0f + sh.w * 4.0f;

    double dv = (double)v;
    o[8] = (float)(cbrt(dv) + hypot(dv, 2.0));
    o[9] = (float)as_int(v) * 1e-9f + (float)(as_uint(v) >> 20);

    int k = (int)(i * 2654435761u);
    o[10] = (float)(mul_hi(k, 12345) + rotate(k, 5) % 1000 + clz(k) + mad24(k & 0xffff, 3, 1));
    o[11] = (float)upsample((short)i, (ushort)(i * 3));
    float3 t = vload3(i, x);
    vstore3(t * 2.0f, 0, o + 12);
    o[15] = length(t) + distance(t, (float3)(1.0f)) + normalize(t).x;
}

// Kernel attributes: SPIR-V execution modes LocalSize and
// LocalSizeHint.
__attribute__((reqd_work_group_size(8, 2, 1))) __attribute__((work_group_size_hint(4, 1, 1)))
kernel void
fixed_group(global int* out) {
    size_t row = get_global_id(1) * get_global_size(0);
    out[row + get_global_id(0)] = (int)(get_local_id(1) * get_local_size(0) + get_local_id(0));
}
