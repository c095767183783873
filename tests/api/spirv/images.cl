// Images and samplers in a SPIR-V kernel: a sampled read with a sampler
// argument and with a sampler constant, a write, and queries.
__constant sampler_t edge =
    CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_LINEAR;

kernel void sample_and_write(read_only image2d_t in, sampler_t s, write_only image2d_t out,
                             global float4* results) {
    int i = get_global_id(0);
    float4 v = read_imagef(in, s, (float2)(i + 0.5f, 0.5f));
    results[i] = v;
    results[4 + i] = read_imagef(in, edge, (float2)(-1.0f, 0.5f));
    results[8 + i] = (float4)(get_image_width(in), get_image_height(in),
                              get_image_channel_order(in) == CLK_RGBA, 0.0f);
    write_imagef(out, (int2)(i, 0), 2.0f * v);
}
