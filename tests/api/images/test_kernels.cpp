// Kernels that read images (with samplers of every addressing mode and
// filter, normalized or not, and without a sampler), write them, and ask
// their attributes, compared with the host model of image_test.hpp; and the
// errors of clSetKernelArg for image and sampler arguments.
#include "image_test.hpp"

#include <catch2/catch.hpp>

using namespace image_test;

namespace {

constexpr cl_image_format rgba_float{CL_RGBA, CL_FLOAT};

struct KernelFixture : Fixture {
    ProgramPtr program;
    explicit KernelFixture(const std::string& source, const char* options = nullptr)
        : program(cl_test::build_program(ctx(), device, source, options)) {}
    KernelPtr kernel(const char* name) const { return cl_test::make_kernel(program.get(), name); }
};

template <class T>
void set_arg(cl_kernel kernel, cl_uint index, const T& value) {
    REQUIRE_OK(clSetKernelArg(kernel, index, sizeof value, &value));
}

MemPtr make_buffer(cl_context context, size_t size, const void* data = nullptr) {
    cl_int error = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, data ? CL_MEM_COPY_HOST_PTR : 0, size,
                                const_cast<void*>(data), &error);
    REQUIRE_OK(error);
    return MemPtr(mem);
}

void run(cl_command_queue queue, cl_kernel kernel, size_t global) {
    REQUIRE_OK(
        clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    REQUIRE_OK(clFinish(queue));
}

template <class T>
std::vector<T> read_buffer(cl_command_queue queue, cl_mem buffer, size_t n) {
    std::vector<T> values(n);
    REQUIRE_OK(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, n * sizeof(T), values.data(), 0,
                                   nullptr, nullptr));
    return values;
}

bool close(float a, float b) {
    return std::fabs(a - b) <= 1e-4f * std::max(1.0f, std::fabs(b));
}

// Coordinates inside, on the edges and outside of an image of size texels
// (normalized: divided by size).
std::vector<float> probe_coordinates(float size, bool normalized) {
    std::vector<float> texels{-2.3f, -1.0f,       -0.5f,          0.0f,        0.25f,
                              0.5f,  1.0f,        1.75f,          size - 0.5f, size - 0.2f,
                              size,  size + 0.6f, 2 * size + 0.3f};
    if (normalized)
        for (float& t : texels)
            t /= size;
    return texels;
}

const char* const sampling_source = R"CLC(
kernel void read2d(read_only image2d_t img, sampler_t s, global const float2* coords,
                   global float4* out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, coords[i]);
}
kernel void read1d(read_only image1d_t img, sampler_t s, global const float* coords,
                   global float4* out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, coords[i]);
}
kernel void read3d(read_only image3d_t img, sampler_t s, global const float4* coords,
                   global float4* out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, coords[i]);
}
)CLC";

HostImage random_host_image(size_t width, size_t height, size_t depth, unsigned seed) {
    HostImage image;
    image.width = width;
    image.height = height;
    image.depth = depth;
    std::mt19937 engine(seed);
    std::uniform_real_distribution<float> value(-4.0f, 4.0f);
    image.texels.resize(width * height * depth);
    for (Float4& t : image.texels)
        for (float& c : t)
            c = value(engine);
    return image;
}

struct Mode {
    cl_bool normalized;
    cl_addressing_mode addressing;
    cl_filter_mode filter;
};

std::vector<Mode> every_mode() {
    std::vector<Mode> modes;
    for (cl_bool normalized : {CL_FALSE, CL_TRUE})
        for (cl_addressing_mode addressing :
             {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT,
              CL_ADDRESS_MIRRORED_REPEAT})
            for (cl_filter_mode filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR}) {
                // Repeat modes need normalized coordinates.
                if (!normalized &&
                    (addressing == CL_ADDRESS_REPEAT || addressing == CL_ADDRESS_MIRRORED_REPEAT))
                    continue;
                modes.push_back({normalized, addressing, filter});
            }
    return modes;
}

} // namespace

TEST_CASE("read_imagef of a 2D image with every sampler mode matches the host model") {
    KernelFixture f(sampling_source);
    KernelPtr kernel = f.kernel("read2d");
    const HostImage host = random_host_image(5, 4, 1, 3);
    MemPtr image =
        make_image(f.ctx(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, rgba_float,
                   describe(CL_MEM_OBJECT_IMAGE2D, 5, 4), const_cast<Float4*>(host.texels.data()));
    for (const Mode& mode : every_mode()) {
        INFO("normalized " << mode.normalized << " addressing 0x" << std::hex << mode.addressing
                           << " filter 0x" << mode.filter);
        const auto xs = probe_coordinates(5, mode.normalized);
        const auto ys = probe_coordinates(4, mode.normalized);
        std::vector<std::array<float, 2>> coords;
        for (float x : xs)
            for (float y : ys)
                coords.push_back({x, y});
        MemPtr in = make_buffer(f.ctx(), coords.size() * 8, coords.data());
        MemPtr out = make_buffer(f.ctx(), coords.size() * 16);
        SamplerPtr sampler = make_sampler(f.ctx(), mode.normalized, mode.addressing, mode.filter);
        set_arg(kernel.get(), 0, image.get());
        set_arg(kernel.get(), 1, sampler.get());
        set_arg(kernel.get(), 2, in.get());
        set_arg(kernel.get(), 3, out.get());
        run(f.q(), kernel.get(), coords.size());
        const auto got = read_buffer<Float4>(f.q(), out.get(), coords.size());
        const HostSampler model{mode.normalized == CL_TRUE, mode.addressing, mode.filter};
        for (size_t i = 0; i < coords.size(); ++i) {
            // CL_ADDRESS_NONE outside the image is undefined: not compared.
            if (mode.addressing == CL_ADDRESS_NONE) {
                const float limit_x = mode.normalized ? 1.0f : 5.0f;
                const float limit_y = mode.normalized ? 1.0f : 4.0f;
                if (coords[i][0] < 0 || coords[i][1] < 0 || coords[i][0] >= limit_x ||
                    coords[i][1] >= limit_y)
                    continue;
                if (mode.filter == CL_FILTER_LINEAR)
                    continue; // the second texel of an edge may be outside
            }
            const Float4 want = sample(host, model, 2, {coords[i][0], coords[i][1], 0});
            INFO("coordinate (" << coords[i][0] << ", " << coords[i][1] << ")");
            for (int c = 0; c < 4; ++c)
                CHECK(close(got[i][c], want[c]));
        }
    }
}

TEST_CASE("read_imagef of 1D and 3D images with samplers matches the host model") {
    KernelFixture f(sampling_source);
    for (const Mode& mode : every_mode()) {
        if (mode.addressing == CL_ADDRESS_NONE)
            continue;
        INFO("normalized " << mode.normalized << " addressing 0x" << std::hex << mode.addressing
                           << " filter 0x" << mode.filter);
        SamplerPtr sampler = make_sampler(f.ctx(), mode.normalized, mode.addressing, mode.filter);
        const HostSampler model{mode.normalized == CL_TRUE, mode.addressing, mode.filter};
        {
            KernelPtr kernel = f.kernel("read1d");
            const HostImage host = random_host_image(7, 1, 1, 5);
            MemPtr image = make_image(f.ctx(), CL_MEM_COPY_HOST_PTR, rgba_float,
                                      describe(CL_MEM_OBJECT_IMAGE1D, 7),
                                      const_cast<Float4*>(host.texels.data()));
            const auto xs = probe_coordinates(7, mode.normalized);
            MemPtr in = make_buffer(f.ctx(), xs.size() * 4, xs.data());
            MemPtr out = make_buffer(f.ctx(), xs.size() * 16);
            set_arg(kernel.get(), 0, image.get());
            set_arg(kernel.get(), 1, sampler.get());
            set_arg(kernel.get(), 2, in.get());
            set_arg(kernel.get(), 3, out.get());
            run(f.q(), kernel.get(), xs.size());
            const auto got = read_buffer<Float4>(f.q(), out.get(), xs.size());
            for (size_t i = 0; i < xs.size(); ++i) {
                const Float4 want = sample(host, model, 1, {xs[i], 0, 0});
                INFO("1D coordinate " << xs[i]);
                for (int c = 0; c < 4; ++c)
                    CHECK(close(got[i][c], want[c]));
            }
        }
        {
            KernelPtr kernel = f.kernel("read3d");
            const HostImage host = random_host_image(3, 4, 5, 6);
            MemPtr image = make_image(f.ctx(), CL_MEM_COPY_HOST_PTR, rgba_float,
                                      describe(CL_MEM_OBJECT_IMAGE3D, 3, 4, 5),
                                      const_cast<Float4*>(host.texels.data()));
            const auto xs = probe_coordinates(3, mode.normalized);
            const auto ys = probe_coordinates(4, mode.normalized);
            const auto zs = probe_coordinates(5, mode.normalized);
            std::vector<Float4> coords;
            for (size_t i = 0; i < xs.size(); ++i)
                for (size_t j = 0; j < ys.size(); j += 2)
                    coords.push_back({xs[i], ys[j], zs[(i + j) % zs.size()], 0});
            MemPtr in = make_buffer(f.ctx(), coords.size() * 16, coords.data());
            MemPtr out = make_buffer(f.ctx(), coords.size() * 16);
            set_arg(kernel.get(), 0, image.get());
            set_arg(kernel.get(), 1, sampler.get());
            set_arg(kernel.get(), 2, in.get());
            set_arg(kernel.get(), 3, out.get());
            run(f.q(), kernel.get(), coords.size());
            const auto got = read_buffer<Float4>(f.q(), out.get(), coords.size());
            for (size_t i = 0; i < coords.size(); ++i) {
                const Float4 want =
                    sample(host, model, 3, {coords[i][0], coords[i][1], coords[i][2]});
                INFO("3D coordinate (" << coords[i][0] << ", " << coords[i][1] << ", "
                                       << coords[i][2] << ")");
                for (int c = 0; c < 4; ++c)
                    CHECK(close(got[i][c], want[c]));
            }
        }
    }
}

TEST_CASE("image arrays: the layer is rounded and clamped, not filtered") {
    KernelFixture f(R"CLC(
kernel void layers(read_only image2d_array_t a, read_only image1d_array_t b, sampler_t s,
                   global float4* out) {
    out[0] = read_imagef(a, s, (float4)(0.5f, 0.5f, 1.4f, 0.0f));
    out[1] = read_imagef(a, s, (float4)(0.5f, 0.5f, 7.0f, 0.0f));
    out[2] = read_imagef(b, s, (float2)(1.5f, 1.6f));
    out[3] = read_imagef(a, (int4)(1, 0, 2, 0));
    out[4] = read_imagef(b, (int2)(2, 0));
    out[5] = (float4)(get_image_array_size(a), get_image_array_size(b), get_image_width(b), 0);
}
)CLC");
    KernelPtr kernel = f.kernel("layers");
    // 2D array 2 x 1 x 3 layers; 1D array 3 x 2 layers: texel value = index.
    std::vector<Float4> a(6), b(6);
    for (size_t i = 0; i < 6; ++i) {
        a[i] = {static_cast<float>(i), 0, 0, 1};
        b[i] = {static_cast<float>(10 + i), 0, 0, 1};
    }
    MemPtr ia = make_image(f.ctx(), CL_MEM_COPY_HOST_PTR, rgba_float,
                           describe(CL_MEM_OBJECT_IMAGE2D_ARRAY, 2, 1, 0, 3), a.data());
    MemPtr ib = make_image(f.ctx(), CL_MEM_COPY_HOST_PTR, rgba_float,
                           describe(CL_MEM_OBJECT_IMAGE1D_ARRAY, 3, 0, 0, 2), b.data());
    SamplerPtr sampler =
        make_sampler(f.ctx(), CL_FALSE, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR);
    MemPtr out = make_buffer(f.ctx(), 6 * 16);
    set_arg(kernel.get(), 0, ia.get());
    set_arg(kernel.get(), 1, ib.get());
    set_arg(kernel.get(), 2, sampler.get());
    set_arg(kernel.get(), 3, out.get());
    run(f.q(), kernel.get(), 1);
    const auto got = read_buffer<Float4>(f.q(), out.get(), 6);
    CHECK(got[0][0] == 2.0f);  // layer 1, texel (0, 0): index 2
    CHECK(got[1][0] == 4.0f);  // layer clamped to 2
    CHECK(got[2][0] == 14.0f); // layer 1 (rint 1.6 = 2, clamped to 1), texel 1
    CHECK(got[3][0] == 5.0f);  // layer 2, texel 1
    CHECK(got[4][0] == 12.0f); // layer 0, texel 2
    CHECK(got[5][0] == 3.0f);
    CHECK(got[5][1] == 2.0f);
    CHECK(got[5][2] == 3.0f);
}

TEST_CASE("channel data types convert as the specification says") {
    KernelFixture f(R"CLC(
kernel void readf(read_only image2d_t img, global float4* out) {
    out[get_global_id(0)] = read_imagef(img, (int2)(get_global_id(0), 0));
}
kernel void readi(read_only image2d_t img, global int4* out) {
    out[get_global_id(0)] = read_imagei(img, (int2)(get_global_id(0), 0));
}
kernel void readui(read_only image2d_t img, global uint4* out) {
    out[get_global_id(0)] = read_imageui(img, (int2)(get_global_id(0), 0));
}
)CLC");
    SECTION("normalized, half and float reads; missing channels") {
        const unsigned char unorm8[] = {0, 51, 255, 128};
        MemPtr a =
            make_image(f.ctx(), CL_MEM_COPY_HOST_PTR, {CL_R, CL_UNORM_INT8},
                       describe(CL_MEM_OBJECT_IMAGE2D, 4, 1), const_cast<unsigned char*>(unorm8));
        KernelPtr k = f.kernel("readf");
        MemPtr out = make_buffer(f.ctx(), 4 * 16);
        set_arg(k.get(), 0, a.get());
        set_arg(k.get(), 1, out.get());
        run(f.q(), k.get(), 4);
        auto got = read_buffer<Float4>(f.q(), out.get(), 4);
        for (int i = 0; i < 4; ++i) {
            CHECK(close(got[i][0], unorm8[i] / 255.0f));
            CHECK(got[i][1] == 0.0f);
            CHECK(got[i][2] == 0.0f);
            CHECK(got[i][3] == 1.0f);
        }
        const signed char snorm8[] = {-128, -127, 0, 127, 64, 1, -1, -64};
        MemPtr b =
            make_image(f.ctx(), CL_MEM_COPY_HOST_PTR, {CL_RA, CL_SNORM_INT8},
                       describe(CL_MEM_OBJECT_IMAGE2D, 4, 1), const_cast<signed char*>(snorm8));
        set_arg(k.get(), 0, b.get());
        run(f.q(), k.get(), 4);
        got = read_buffer<Float4>(f.q(), out.get(), 4);
        for (int i = 0; i < 4; ++i) {
            CHECK(close(got[i][0], std::max(-1.0f, snorm8[2 * i] / 127.0f)));
            CHECK(got[i][1] == 0.0f);
            CHECK(close(got[i][3], std::max(-1.0f, snorm8[2 * i + 1] / 127.0f)));
        }
        const std::uint16_t halves[] = {0x3C00, 0xC000, 0x3800, 0x7BFF, 0x0001, 0x8000, 0x3555, 0};
        MemPtr c =
            make_image(f.ctx(), CL_MEM_COPY_HOST_PTR, {CL_RG, CL_HALF_FLOAT},
                       describe(CL_MEM_OBJECT_IMAGE2D, 4, 1), const_cast<std::uint16_t*>(halves));
        set_arg(k.get(), 0, c.get());
        run(f.q(), k.get(), 4);
        got = read_buffer<Float4>(f.q(), out.get(), 4);
        CHECK(got[0][0] == 1.0f);
        CHECK(got[0][1] == -2.0f);
        CHECK(got[1][0] == 0.5f);
        CHECK(got[1][1] == 65504.0f);
        CHECK(got[2][0] == std::ldexp(1.0f, -24));
        CHECK(got[3][3] == 1.0f);
        const unsigned char bgra[] = {10, 20, 30, 40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
        MemPtr d =
            make_image(f.ctx(), CL_MEM_COPY_HOST_PTR, {CL_BGRA, CL_UNORM_INT8},
                       describe(CL_MEM_OBJECT_IMAGE2D, 4, 1), const_cast<unsigned char*>(bgra));
        set_arg(k.get(), 0, d.get());
        run(f.q(), k.get(), 4);
        got = read_buffer<Float4>(f.q(), out.get(), 4);
        CHECK(close(got[0][0], 30 / 255.0f));
        CHECK(close(got[0][1], 20 / 255.0f));
        CHECK(close(got[0][2], 10 / 255.0f));
        CHECK(close(got[0][3], 40 / 255.0f));
    }
    SECTION("integer reads keep the sign or not") {
        const std::int16_t sint16[] = {-32768, -1, 0, 32767};
        MemPtr a =
            make_image(f.ctx(), CL_MEM_COPY_HOST_PTR, {CL_R, CL_SIGNED_INT16},
                       describe(CL_MEM_OBJECT_IMAGE2D, 4, 1), const_cast<std::int16_t*>(sint16));
        KernelPtr k = f.kernel("readi");
        MemPtr out = make_buffer(f.ctx(), 4 * 16);
        set_arg(k.get(), 0, a.get());
        set_arg(k.get(), 1, out.get());
        run(f.q(), k.get(), 4);
        const auto got = read_buffer<std::array<std::int32_t, 4>>(f.q(), out.get(), 4);
        for (int i = 0; i < 4; ++i) {
            CHECK(got[i][0] == sint16[i]);
            CHECK(got[i][3] == 1);
        }
        const std::uint32_t uint32[] = {0, 1, 0xFFFFFFFFu, 0x80000000u};
        MemPtr b =
            make_image(f.ctx(), CL_MEM_COPY_HOST_PTR, {CL_R, CL_UNSIGNED_INT32},
                       describe(CL_MEM_OBJECT_IMAGE2D, 4, 1), const_cast<std::uint32_t*>(uint32));
        KernelPtr ku = f.kernel("readui");
        set_arg(ku.get(), 0, b.get());
        set_arg(ku.get(), 1, out.get());
        run(f.q(), ku.get(), 4);
        const auto gotu = read_buffer<std::array<std::uint32_t, 4>>(f.q(), out.get(), 4);
        for (int i = 0; i < 4; ++i)
            CHECK(gotu[i][0] == uint32[i]);
    }
}

TEST_CASE("write_image converts, rounds and saturates; 3D writes") {
    KernelFixture f(R"CLC(
#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
kernel void writef(write_only image2d_t img, global const float4* colors) {
    int i = get_global_id(0);
    write_imagef(img, (int2)(i, 0), colors[i]);
}
kernel void writei(write_only image2d_t img, global const int4* colors) {
    int i = get_global_id(0);
    write_imagei(img, (int2)(i, 0), colors[i]);
}
kernel void write3d(write_only image3d_t img) {
    int i = get_global_id(0);
    write_imageui(img, (int4)(i % 2, (i / 2) % 2, i / 4, 0), (uint4)(i, 2 * i, 300, 0));
}
)CLC");
    SECTION("unorm8, half and float") {
        const Float4 colors[4] = {{0.0f, 0.5f, 1.0f, -3.0f},
                                  {2.0f, 1.0f / 255.0f, 0.499f / 255.0f, 127.5f / 255.0f},
                                  {1.0f, -2.0f, 0.1f, 65520.0f},
                                  {0.25f, 0.75f, 1e-8f, -0.0f}};
        MemPtr in = make_buffer(f.ctx(), sizeof colors, colors);
        KernelPtr k = f.kernel("writef");
        MemPtr u8 = make_image(f.ctx(), CL_MEM_WRITE_ONLY, {CL_RGBA, CL_UNORM_INT8},
                               describe(CL_MEM_OBJECT_IMAGE2D, 4, 1));
        set_arg(k.get(), 0, u8.get());
        set_arg(k.get(), 1, in.get());
        run(f.q(), k.get(), 2);
        unsigned char bytes[8] = {};
        const size_t zero[3] = {0, 0, 0};
        const size_t two[3] = {2, 1, 1};
        REQUIRE_OK(clEnqueueReadImage(f.q(), u8.get(), CL_TRUE, zero, two, 0, 0, bytes, 0, nullptr,
                                      nullptr));
        const unsigned char want[8] = {0, 128, 255, 0, 255, 1, 0, 128};
        for (int i = 0; i < 8; ++i)
            CHECK(static_cast<int>(bytes[i]) == static_cast<int>(want[i]));
        MemPtr h = make_image(f.ctx(), CL_MEM_WRITE_ONLY, {CL_RGBA, CL_HALF_FLOAT},
                              describe(CL_MEM_OBJECT_IMAGE2D, 4, 1));
        set_arg(k.get(), 0, h.get());
        run(f.q(), k.get(), 4);
        std::uint16_t halves[16] = {};
        const size_t four[3] = {4, 1, 1};
        REQUIRE_OK(clEnqueueReadImage(f.q(), h.get(), CL_TRUE, zero, four, 0, 0, halves, 0, nullptr,
                                      nullptr));
        CHECK(halves[8] == 0x3C00);
        CHECK(halves[9] == 0xC000);
        CHECK(halves[11] == 0x7C00); // 65520 rounds to infinity
        CHECK(halves[12] == 0x3400);
    }
    SECTION("signed int8 saturates") {
        const std::array<std::int32_t, 4> colors[2] = {{-200, 200, -5, 5}, {0, 127, -128, 1000}};
        MemPtr in = make_buffer(f.ctx(), sizeof colors, colors);
        KernelPtr k = f.kernel("writei");
        MemPtr s8 = make_image(f.ctx(), 0, {CL_RGBA, CL_SIGNED_INT8},
                               describe(CL_MEM_OBJECT_IMAGE2D, 2, 1));
        set_arg(k.get(), 0, s8.get());
        set_arg(k.get(), 1, in.get());
        run(f.q(), k.get(), 2);
        signed char bytes[8] = {};
        const size_t zero[3] = {0, 0, 0};
        const size_t two[3] = {2, 1, 1};
        REQUIRE_OK(clEnqueueReadImage(f.q(), s8.get(), CL_TRUE, zero, two, 0, 0, bytes, 0, nullptr,
                                      nullptr));
        const signed char want[8] = {-128, 127, -5, 5, 0, 127, -128, 127};
        for (int i = 0; i < 8; ++i)
            CHECK(static_cast<int>(bytes[i]) == static_cast<int>(want[i]));
    }
    SECTION("3D writes of an RG uint16 image") {
        KernelPtr k = f.kernel("write3d");
        MemPtr cube = make_image(f.ctx(), 0, {CL_RG, CL_UNSIGNED_INT16},
                                 describe(CL_MEM_OBJECT_IMAGE3D, 2, 2, 2));
        set_arg(k.get(), 0, cube.get());
        run(f.q(), k.get(), 8);
        std::uint16_t values[16] = {};
        const size_t zero[3] = {0, 0, 0};
        const size_t all[3] = {2, 2, 2};
        REQUIRE_OK(clEnqueueReadImage(f.q(), cube.get(), CL_TRUE, zero, all, 0, 0, values, 0,
                                      nullptr, nullptr));
        for (unsigned i = 0; i < 8; ++i) {
            CHECK(values[2 * i] == i);
            CHECK(values[2 * i + 1] == 2 * i);
        }
    }
}

TEST_CASE("image queries and sampler constants in the program") {
    KernelFixture f(R"CLC(
__constant sampler_t edge = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_CLAMP_TO_EDGE |
                            CLK_FILTER_NEAREST;
kernel void attributes(read_only image3d_t cube, write_only image2d_t flat,
                       read_only image1d_buffer_t line, global int* out) {
    int4 d = get_image_dim(cube);
    out[0] = d.x; out[1] = d.y; out[2] = d.z;
    out[3] = get_image_depth(cube);
    out[4] = get_image_channel_order(cube) == CLK_RGBA;
    out[5] = get_image_channel_data_type(cube) == CLK_FLOAT;
    out[6] = get_image_width(flat);
    out[7] = get_image_height(flat);
    out[8] = get_image_channel_order(flat) == CLK_R;
    out[9] = get_image_channel_data_type(flat) == CLK_UNSIGNED_INT8;
    out[10] = get_image_width(line);
    out[11] = (int)read_imagef(line, 3).x;
}
kernel void constant_sampler(read_only image3d_t cube, global float4* out) {
    const sampler_t wrap = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_NEAREST;
    out[0] = read_imagef(cube, edge, (float4)(2.0f, -1.0f, 0.9f, 0.0f));
    out[1] = read_imagef(cube, wrap, (float4)(1.25f, -0.25f, 0.1f, 0.0f));
}
)CLC");
    std::vector<Float4> texels(2 * 3 * 4);
    for (size_t i = 0; i < texels.size(); ++i)
        texels[i] = {static_cast<float>(i), 0, 0, 1};
    MemPtr cube = make_image(f.ctx(), CL_MEM_COPY_HOST_PTR, rgba_float,
                             describe(CL_MEM_OBJECT_IMAGE3D, 2, 3, 4), texels.data());
    MemPtr flat =
        make_image(f.ctx(), 0, {CL_R, CL_UNSIGNED_INT8}, describe(CL_MEM_OBJECT_IMAGE2D, 9, 7));
    std::vector<float> line_data(40);
    for (size_t i = 0; i < line_data.size(); ++i)
        line_data[i] = static_cast<float>(i);
    MemPtr buffer = make_buffer(f.ctx(), line_data.size() * 4, line_data.data());
    MemPtr line = make_image(f.ctx(), 0, rgba_float,
                             describe(CL_MEM_OBJECT_IMAGE1D_BUFFER, 10, 0, 0, 0, buffer.get()));
    KernelPtr k = f.kernel("attributes");
    MemPtr out = make_buffer(f.ctx(), 12 * 4);
    set_arg(k.get(), 0, cube.get());
    set_arg(k.get(), 1, flat.get());
    set_arg(k.get(), 2, line.get());
    set_arg(k.get(), 3, out.get());
    run(f.q(), k.get(), 1);
    const auto got = read_buffer<int>(f.q(), out.get(), 12);
    const int want[12] = {2, 3, 4, 4, 1, 1, 9, 7, 1, 1, 10, 12};
    for (int i = 0; i < 12; ++i)
        CHECK(got[i] == want[i]);

    KernelPtr c = f.kernel("constant_sampler");
    MemPtr out4 = make_buffer(f.ctx(), 2 * 16);
    set_arg(c.get(), 0, cube.get());
    set_arg(c.get(), 1, out4.get());
    run(f.q(), c.get(), 1);
    const auto sampled = read_buffer<Float4>(f.q(), out4.get(), 2);
    // Clamped to edge: x = 1, y = 0, z = floor(0.9 * 4) = 3.
    CHECK(sampled[0][0] == static_cast<float>((3 * 3 + 0) * 2 + 1));
    // Repeat: x = floor(0.25 * 2) = 0, y = floor(0.75 * 3) = 2, z = 0.
    CHECK(sampled[1][0] == static_cast<float>((0 * 3 + 2) * 2 + 0));
}

TEST_CASE("clSetKernelArg with images and samplers: the spec's errors") {
    KernelFixture f(R"CLC(
kernel void args(read_only image2d_t in, write_only image2d_t out, sampler_t s,
                 global float* buffer) {
    write_imagef(out, (int2)(0, 0), read_imagef(in, s, (int2)(0, 0)) + buffer[0]);
}
)CLC");
    KernelPtr k = f.kernel("args");
    const cl_image_desc desc = describe(CL_MEM_OBJECT_IMAGE2D, 4, 4);
    MemPtr read_only = make_image(f.ctx(), CL_MEM_READ_ONLY, rgba_float, desc);
    MemPtr write_only = make_image(f.ctx(), CL_MEM_WRITE_ONLY, rgba_float, desc);
    MemPtr buffer = make_buffer(f.ctx(), 64);
    SamplerPtr sampler = make_sampler(f.ctx(), CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
    const cl_mem none = nullptr;
    CHECK_CL(clSetKernelArg(k.get(), 0, sizeof(cl_mem), &none), CL_INVALID_MEM_OBJECT);
    CHECK_CL(clSetKernelArg(k.get(), 0, sizeof(cl_mem), nullptr), CL_INVALID_ARG_VALUE);
    CHECK_CL(clSetKernelArg(k.get(), 0, 4, &read_only), CL_INVALID_ARG_SIZE);
    const cl_mem buffer_handle = buffer.get();
    CHECK_CL(clSetKernelArg(k.get(), 0, sizeof(cl_mem), &buffer_handle), CL_INVALID_MEM_OBJECT);
    const cl_mem write_handle = write_only.get();
    CHECK_CL(clSetKernelArg(k.get(), 0, sizeof(cl_mem), &write_handle), CL_INVALID_ARG_VALUE);
    const cl_mem read_handle = read_only.get();
    CHECK_CL(clSetKernelArg(k.get(), 1, sizeof(cl_mem), &read_handle), CL_INVALID_ARG_VALUE);
    CHECK_CL(clSetKernelArg(k.get(), 3, sizeof(cl_mem), &read_handle), CL_INVALID_MEM_OBJECT);
    const cl_sampler not_sampler = reinterpret_cast<cl_sampler>(buffer.get());
    CHECK_CL(clSetKernelArg(k.get(), 2, sizeof(cl_sampler), &not_sampler), CL_INVALID_SAMPLER);
    CHECK_CL(clSetKernelArg(k.get(), 2, sizeof(cl_sampler) + 1, &not_sampler), CL_INVALID_ARG_SIZE);
    const cl_sampler sampler_handle = sampler.get();
    CHECK_OK(clSetKernelArg(k.get(), 0, sizeof(cl_mem), &read_handle));
    CHECK_OK(clSetKernelArg(k.get(), 1, sizeof(cl_mem), &write_handle));
    CHECK_OK(clSetKernelArg(k.get(), 2, sizeof(cl_sampler), &sampler_handle));
    CHECK_OK(clSetKernelArg(k.get(), 3, sizeof(cl_mem), &buffer_handle));
    // Argument info reports the image types and access qualifiers.
    ProgramPtr with_info = cl_test::build_program(
        f.ctx(), f.device,
        "kernel void q(read_only image2d_t a, write_only image3d_t b, sampler_t s) {}",
        "-cl-kernel-arg-info");
    KernelPtr q = cl_test::make_kernel(with_info.get(), "q");
    char name[64] = {};
    REQUIRE_OK(clGetKernelArgInfo(q.get(), 1, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, nullptr));
    CHECK(std::string(name) == "image3d_t");
    cl_kernel_arg_access_qualifier access = 0;
    REQUIRE_OK(clGetKernelArgInfo(q.get(), 1, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof access,
                                  &access, nullptr));
    CHECK(access == CL_KERNEL_ARG_ACCESS_WRITE_ONLY);
    REQUIRE_OK(clGetKernelArgInfo(q.get(), 2, CL_KERNEL_ARG_TYPE_NAME, sizeof name, name, nullptr));
    CHECK(std::string(name) == "sampler_t");
}

TEST_CASE("OpenCL C 3.0: read_write images and samplers") {
    KernelFixture f(R"CLC(
kernel void bump(read_write image2d_t img, read_only image3d_t cube, sampler_t s) {
    int2 p = (int2)(get_global_id(0), get_global_id(1));
    uint4 v = read_imageui(img, p);
    float4 c = read_imagef(cube, s, (float4)(p.x, p.y, 1, 0));
    write_imageui(img, p, v + (uint4)(1, 2, (uint)c.x, get_image_width(img)));
}
)CLC",
                    "-cl-std=CL3.0");
    std::vector<std::uint32_t> texels(3 * 2 * 4);
    for (size_t i = 0; i < texels.size(); ++i)
        texels[i] = static_cast<std::uint32_t>(i);
    MemPtr img =
        make_image(f.ctx(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, {CL_RGBA, CL_UNSIGNED_INT32},
                   describe(CL_MEM_OBJECT_IMAGE2D, 3, 2), texels.data());
    std::vector<Float4> cube_texels(3 * 2 * 2);
    for (size_t i = 0; i < cube_texels.size(); ++i)
        cube_texels[i] = {static_cast<float>(100 + i), 0, 0, 1};
    MemPtr cube = make_image(f.ctx(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, rgba_float,
                             describe(CL_MEM_OBJECT_IMAGE3D, 3, 2, 2), cube_texels.data());
    SamplerPtr sampler = make_sampler(f.ctx(), CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
    KernelPtr k = f.kernel("bump");
    set_arg(k.get(), 0, img.get());
    set_arg(k.get(), 1, cube.get());
    set_arg(k.get(), 2, sampler.get());
    const size_t global[2] = {3, 2};
    REQUIRE_OK(
        clEnqueueNDRangeKernel(f.q(), k.get(), 2, nullptr, global, nullptr, 0, nullptr, nullptr));
    std::vector<std::uint32_t> got(texels.size());
    const size_t zero[3] = {0, 0, 0};
    const size_t region[3] = {3, 2, 1};
    REQUIRE_OK(clEnqueueReadImage(f.q(), img.get(), CL_TRUE, zero, region, 0, 0, got.data(), 0,
                                  nullptr, nullptr));
    for (size_t y = 0; y < 2; ++y)
        for (size_t x = 0; x < 3; ++x) {
            const size_t t = (y * 3 + x) * 4;
            CHECK(got[t] == texels[t] + 1);
            CHECK(got[t + 1] == texels[t + 1] + 2);
            CHECK(got[t + 2] == texels[t + 2] + 100 + (1 * 2 + y) * 3 + x);
            CHECK(got[t + 3] == texels[t + 3] + 3);
        }
}

TEST_CASE("2D array reads with every sampler mode match the host model per layer") {
    KernelFixture f(R"CLC(
kernel void read2da(read_only image2d_array_t img, sampler_t s, global const float4* coords,
                    global float4* out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, coords[i]);
}
kernel void read_int(read_only image2d_t img, sampler_t s, global const int2* coords,
                     global float4* out) {
    size_t i = get_global_id(0);
    out[i] = read_imagef(img, s, coords[i]);
}
)CLC");
    constexpr size_t width = 4, height = 3, layers = 3;
    const HostImage all = random_host_image(width, height, layers, 11);
    MemPtr image = make_image(f.ctx(), CL_MEM_COPY_HOST_PTR, rgba_float,
                              describe(CL_MEM_OBJECT_IMAGE2D_ARRAY, width, height, 0, layers),
                              const_cast<Float4*>(all.texels.data()));
    KernelPtr kernel = f.kernel("read2da");
    for (const Mode& mode : every_mode()) {
        if (mode.addressing == CL_ADDRESS_NONE)
            continue;
        INFO("normalized " << mode.normalized << " addressing 0x" << std::hex << mode.addressing
                           << " filter 0x" << mode.filter);
        const auto xs = probe_coordinates(width, mode.normalized);
        const auto ys = probe_coordinates(height, mode.normalized);
        const float layer_coords[] = {-1.0f, 0.4f, 1.5f, 2.6f, 9.0f};
        std::vector<Float4> coords;
        for (size_t i = 0; i < xs.size(); ++i)
            for (size_t j = 0; j < ys.size(); ++j)
                coords.push_back({xs[i], ys[j], layer_coords[(i + j) % 5], 0});
        MemPtr in = make_buffer(f.ctx(), coords.size() * 16, coords.data());
        MemPtr out = make_buffer(f.ctx(), coords.size() * 16);
        SamplerPtr sampler = make_sampler(f.ctx(), mode.normalized, mode.addressing, mode.filter);
        set_arg(kernel.get(), 0, image.get());
        set_arg(kernel.get(), 1, sampler.get());
        set_arg(kernel.get(), 2, in.get());
        set_arg(kernel.get(), 3, out.get());
        run(f.q(), kernel.get(), coords.size());
        const auto got = read_buffer<Float4>(f.q(), out.get(), coords.size());
        const HostSampler model{mode.normalized == CL_TRUE, mode.addressing, mode.filter};
        for (size_t i = 0; i < coords.size(); ++i) {
            // The layer: rounded to nearest even, clamped; not filtered.
            const long layer =
                std::clamp(static_cast<long>(std::rint(coords[i][2])), 0L, long{layers} - 1);
            HostImage slice;
            slice.width = width;
            slice.height = height;
            slice.texels.assign(all.texels.begin() + static_cast<long>(layer * width * height),
                                all.texels.begin() +
                                    static_cast<long>((layer + 1) * width * height));
            const Float4 want = sample(slice, model, 2, {coords[i][0], coords[i][1], 0});
            INFO("coordinate (" << coords[i][0] << ", " << coords[i][1] << ", " << coords[i][2]
                                << ")");
            for (int c = 0; c < 4; ++c)
                CHECK(close(got[i][c], want[c]));
        }
    }

    // Integer coordinates with a sampler: the clamping modes apply.
    const HostImage flat = random_host_image(width, height, 1, 12);
    MemPtr image2d = make_image(f.ctx(), CL_MEM_COPY_HOST_PTR, rgba_float,
                                describe(CL_MEM_OBJECT_IMAGE2D, width, height),
                                const_cast<Float4*>(flat.texels.data()));
    KernelPtr ints = f.kernel("read_int");
    const std::array<std::int32_t, 2> coords[] = {{-3, 1}, {2, 2}, {4, 0}, {1, -1}, {9, 9}};
    MemPtr in = make_buffer(f.ctx(), sizeof coords, coords);
    MemPtr out = make_buffer(f.ctx(), 5 * 16);
    for (cl_addressing_mode mode : {CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP}) {
        INFO("addressing 0x" << std::hex << mode);
        SamplerPtr sampler = make_sampler(f.ctx(), CL_FALSE, mode, CL_FILTER_NEAREST);
        set_arg(ints.get(), 0, image2d.get());
        set_arg(ints.get(), 1, sampler.get());
        set_arg(ints.get(), 2, in.get());
        set_arg(ints.get(), 3, out.get());
        run(f.q(), ints.get(), 5);
        const auto got = read_buffer<Float4>(f.q(), out.get(), 5);
        for (size_t i = 0; i < 5; ++i) {
            long x = coords[i][0], y = coords[i][1];
            if (mode == CL_ADDRESS_CLAMP_TO_EDGE) {
                x = std::clamp(x, 0L, long{width} - 1);
                y = std::clamp(y, 0L, long{height} - 1);
            }
            const Float4 want = flat.at(x, y, 0);
            for (int c = 0; c < 4; ++c)
                CHECK(got[i][c] == want[c]);
        }
    }
}
