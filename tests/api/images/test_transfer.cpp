// clEnqueueReadImage, clEnqueueWriteImage, clEnqueueCopyImage,
// clEnqueueFillImage, clEnqueueCopyImageToBuffer,
// clEnqueueCopyBufferToImage, clEnqueueMapImage: round trips of every
// image type against a host model of the texels, and the errors.
#include "image_test.hpp"

#include <catch2/catch.hpp>

using namespace image_test;

namespace {

constexpr cl_image_format rgba8{CL_RGBA, CL_UNORM_INT8};
constexpr size_t texel = 4;

// An image of each type with its (x, y, z) bounds (layers in y for a 1D
// array, in z for a 2D array).
struct Shape {
    cl_image_desc desc;
    std::array<size_t, 3> extent;
};
const Shape shapes[] = {
    {describe(CL_MEM_OBJECT_IMAGE1D, 13), {13, 1, 1}},
    {describe(CL_MEM_OBJECT_IMAGE1D_ARRAY, 13, 0, 0, 4), {13, 4, 1}},
    {describe(CL_MEM_OBJECT_IMAGE2D, 13, 7), {13, 7, 1}},
    {describe(CL_MEM_OBJECT_IMAGE2D_ARRAY, 13, 7, 0, 3), {13, 7, 3}},
    {describe(CL_MEM_OBJECT_IMAGE3D, 13, 7, 3), {13, 7, 3}},
};

// The host model: packed texels, x fastest.
struct Model {
    std::array<size_t, 3> extent;
    Bytes bytes;
    size_t at(size_t x, size_t y, size_t z) const {
        return ((z * extent[1] + y) * extent[0] + x) * texel;
    }
};

Model whole_image(cl_command_queue queue, cl_mem image, const std::array<size_t, 3>& extent) {
    Model model{extent, Bytes(extent[0] * extent[1] * extent[2] * texel)};
    const size_t origin[3] = {0, 0, 0};
    REQUIRE_OK(clEnqueueReadImage(queue, image, CL_TRUE, origin, extent.data(), 0, 0,
                                  model.bytes.data(), 0, nullptr, nullptr));
    return model;
}

// A region inside the shape: origin 1 and region extent - 2 where the
// image has room, else 0 and 1.
void inner_region(const std::array<size_t, 3>& extent, size_t* origin, size_t* region) {
    for (int i = 0; i < 3; ++i) {
        origin[i] = extent[i] > 2 ? 1 : 0;
        region[i] = extent[i] > 2 ? extent[i] - 2 : extent[i];
    }
}

} // namespace

TEST_CASE("write then read every image type, whole and in part with host pitches") {
    Fixture f;
    unsigned seed = 1;
    for (const Shape& shape : shapes) {
        INFO("type 0x" << std::hex << shape.desc.image_type);
        MemPtr image = make_image(f.ctx(), CL_MEM_READ_WRITE, rgba8, shape.desc);
        const auto& e = shape.extent;
        Model model{e, random_bytes(e[0] * e[1] * e[2] * texel, seed++)};
        const size_t zero[3] = {0, 0, 0};
        REQUIRE_OK(clEnqueueWriteImage(f.q(), image.get(), CL_TRUE, zero, e.data(), 0, 0,
                                       model.bytes.data(), 0, nullptr, nullptr));
        CHECK(whole_image(f.q(), image.get(), e).bytes == model.bytes);

        // A part, from host memory with padded rows (and slices).
        size_t origin[3], region[3];
        inner_region(e, origin, region);
        const bool layered_1d = shape.desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
        const bool has_slices = layered_1d ||
                                shape.desc.image_type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                                shape.desc.image_type == CL_MEM_OBJECT_IMAGE3D;
        const size_t row_pitch = region[0] * texel + 8;
        const size_t slice_pitch =
            has_slices ? (layered_1d ? row_pitch + 4 : row_pitch * region[1] + 12) : 0;
        // y of the host buffer: layers of a 1D array are a slice apart.
        const size_t host_y = layered_1d ? slice_pitch : row_pitch;
        const size_t host_z = has_slices ? slice_pitch : row_pitch * region[1];
        const Bytes part = random_bytes(host_z * region[2] + host_y * region[1], seed++);
        REQUIRE_OK(clEnqueueWriteImage(f.q(), image.get(), CL_TRUE, origin, region, row_pitch,
                                       slice_pitch, part.data(), 0, nullptr, nullptr));
        for (size_t z = 0; z < region[2]; ++z)
            for (size_t y = 0; y < region[1]; ++y)
                std::memcpy(&model.bytes[model.at(origin[0], origin[1] + y, origin[2] + z)],
                            &part[z * host_z + y * host_y], region[0] * texel);
        CHECK(whole_image(f.q(), image.get(), e).bytes == model.bytes);

        // Read the part back into padded host memory: the padding stays.
        Bytes back(part.size(), 0xEE);
        REQUIRE_OK(clEnqueueReadImage(f.q(), image.get(), CL_TRUE, origin, region, row_pitch,
                                      slice_pitch, back.data(), 0, nullptr, nullptr));
        for (size_t z = 0; z < region[2]; ++z)
            for (size_t y = 0; y < region[1]; ++y) {
                const size_t at = z * host_z + y * host_y;
                CHECK(std::memcmp(&back[at], &part[at], region[0] * texel) == 0);
                CHECK(back[at + region[0] * texel] == 0xEE);
            }
    }
}

TEST_CASE("copies between images, and between images and buffers") {
    Fixture f;
    // A 2D image into a slice of a 3D image, and back out to a buffer.
    const cl_image_desc flat = describe(CL_MEM_OBJECT_IMAGE2D, 9, 5);
    const cl_image_desc cube = describe(CL_MEM_OBJECT_IMAGE3D, 9, 5, 4);
    Bytes source = random_bytes(9 * 5 * texel, 7);
    MemPtr a =
        make_image(f.ctx(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, rgba8, flat, source.data());
    MemPtr b = make_image(f.ctx(), CL_MEM_READ_WRITE, rgba8, cube);
    const float zero_color[4] = {0, 0, 0, 0};
    const size_t zero[3] = {0, 0, 0};
    const size_t cube_region[3] = {9, 5, 4};
    REQUIRE_OK(
        clEnqueueFillImage(f.q(), b.get(), zero_color, zero, cube_region, 0, nullptr, nullptr));
    const size_t src_origin[3] = {2, 1, 0};
    const size_t dst_origin[3] = {3, 0, 2};
    const size_t region[3] = {5, 3, 1};
    REQUIRE_OK(clEnqueueCopyImage(f.q(), a.get(), b.get(), src_origin, dst_origin, region, 0,
                                  nullptr, nullptr));
    Model model{{9, 5, 4}, Bytes(9 * 5 * 4 * texel, 0)};
    for (size_t y = 0; y < 3; ++y)
        std::memcpy(&model.bytes[model.at(3, y, 2)], &source[((1 + y) * 9 + 2) * texel], 5 * texel);
    CHECK(whole_image(f.q(), b.get(), {9, 5, 4}).bytes == model.bytes);

    cl_int error = CL_SUCCESS;
    MemPtr buffer(clCreateBuffer(f.ctx(), CL_MEM_READ_WRITE, 256, nullptr, &error));
    REQUIRE_OK(error);
    REQUIRE_OK(clEnqueueCopyImageToBuffer(f.q(), b.get(), buffer.get(), dst_origin, region, 16, 0,
                                          nullptr, nullptr));
    Bytes linear(5 * 3 * texel);
    REQUIRE_OK(clEnqueueReadBuffer(f.q(), buffer.get(), CL_TRUE, 16, linear.size(), linear.data(),
                                   0, nullptr, nullptr));
    for (size_t y = 0; y < 3; ++y)
        CHECK(std::memcmp(&linear[y * 5 * texel], &source[((1 + y) * 9 + 2) * texel], 5 * texel) ==
              0);

    // The buffer back into the 2D image at another place.
    REQUIRE_OK(clEnqueueCopyBufferToImage(f.q(), buffer.get(), a.get(), 16, zero, region, 0,
                                          nullptr, nullptr));
    Model flat_model{{9, 5, 1}, source};
    for (size_t y = 0; y < 3; ++y)
        std::memcpy(&flat_model.bytes[flat_model.at(0, y, 0)], &linear[y * 5 * texel], 5 * texel);
    CHECK(whole_image(f.q(), a.get(), {9, 5, 1}).bytes == flat_model.bytes);
}

TEST_CASE("copy and copy-with-buffer errors") {
    Fixture f;
    const cl_image_desc flat = describe(CL_MEM_OBJECT_IMAGE2D, 8, 8);
    MemPtr a = make_image(f.ctx(), 0, rgba8, flat);
    MemPtr other = make_image(f.ctx(), 0, {CL_RGBA, CL_FLOAT}, flat);
    cl_int error = CL_SUCCESS;
    MemPtr buffer(clCreateBuffer(f.ctx(), 0, 64, nullptr, &error));
    REQUIRE_OK(error);
    const size_t zero[3] = {0, 0, 0};
    const size_t shifted[3] = {2, 2, 0};
    const size_t region[3] = {4, 4, 1};
    CHECK_CL(
        clEnqueueCopyImage(f.q(), a.get(), a.get(), zero, shifted, region, 0, nullptr, nullptr),
        CL_MEM_COPY_OVERLAP);
    const size_t apart[3] = {4, 4, 0};
    CHECK_OK(clEnqueueCopyImage(f.q(), a.get(), a.get(), zero, apart, region, 0, nullptr, nullptr));
    CHECK_CL(
        clEnqueueCopyImage(f.q(), a.get(), other.get(), zero, zero, region, 0, nullptr, nullptr),
        CL_IMAGE_FORMAT_MISMATCH);
    CHECK_CL(
        clEnqueueCopyImage(f.q(), a.get(), buffer.get(), zero, zero, region, 0, nullptr, nullptr),
        CL_INVALID_MEM_OBJECT);
    const size_t too_far[3] = {5, 0, 0};
    CHECK_CL(
        clEnqueueCopyImage(f.q(), a.get(), a.get(), too_far, zero, region, 0, nullptr, nullptr),
        CL_INVALID_VALUE);
    // 4 x 4 texels are 64 bytes: at offset 4 they leave the buffer.
    CHECK_CL(clEnqueueCopyImageToBuffer(f.q(), a.get(), buffer.get(), zero, region, 4, 0, nullptr,
                                        nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueCopyBufferToImage(f.q(), buffer.get(), a.get(), 4, zero, region, 0, nullptr,
                                        nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(
        clEnqueueCopyImageToBuffer(f.q(), a.get(), a.get(), zero, region, 0, 0, nullptr, nullptr),
        CL_INVALID_MEM_OBJECT);
    REQUIRE_OK(clFinish(f.q()));
}

TEST_CASE("fill images of several formats") {
    Fixture f;
    struct Case {
        cl_image_format format;
        std::array<std::uint32_t, 4> color; // the bits of the float4/int4/uint4
        Bytes texel;
    };
    auto bits = [](float v) {
        std::uint32_t b = 0;
        std::memcpy(&b, &v, 4);
        return b;
    };
    const Case cases[] = {
        {{CL_RGBA, CL_UNORM_INT8},
         {bits(0.0f), bits(0.5f), bits(1.0f), bits(2.0f)},
         {0, 128, 255, 255}},
        {{CL_BGRA, CL_UNORM_INT8},
         {bits(0.0f), bits(0.5f), bits(1.0f), bits(-1.0f)},
         {255, 128, 0, 0}},
        {{CL_R, CL_SIGNED_INT16}, {static_cast<std::uint32_t>(-40000), 0, 0, 0}, {0x00, 0x80}},
        {{CL_RG, CL_UNSIGNED_INT8}, {300, 7, 0, 0}, {255, 7}},
        {{CL_RGBA, CL_HALF_FLOAT},
         {bits(1.0f), bits(-2.0f), bits(0.5f), bits(65504.0f)},
         {0x00, 0x3C, 0x00, 0xC0, 0x00, 0x38, 0xFF, 0x7B}},
        {{CL_R, CL_SNORM_INT8}, {bits(-1.0f), 0, 0, 0}, {0x81}},
    };
    for (const Case& c : cases) {
        INFO("order 0x" << std::hex << c.format.image_channel_order << " type 0x"
                        << c.format.image_channel_data_type);
        const size_t size = c.texel.size();
        MemPtr image = make_image(f.ctx(), 0, c.format, describe(CL_MEM_OBJECT_IMAGE2D, 6, 4));
        const float clear[4] = {0, 0, 0, 0};
        const size_t zero[3] = {0, 0, 0};
        const size_t all[3] = {6, 4, 1};
        REQUIRE_OK(clEnqueueFillImage(f.q(), image.get(), clear, zero, all, 0, nullptr, nullptr));
        const size_t origin[3] = {1, 2, 0};
        const size_t region[3] = {3, 1, 1};
        REQUIRE_OK(clEnqueueFillImage(f.q(), image.get(), c.color.data(), origin, region, 0,
                                      nullptr, nullptr));
        Bytes read(6 * 4 * size);
        REQUIRE_OK(clEnqueueReadImage(f.q(), image.get(), CL_TRUE, zero, all, 0, 0, read.data(), 0,
                                      nullptr, nullptr));
        for (size_t y = 0; y < 4; ++y)
            for (size_t x = 0; x < 6; ++x) {
                const bool filled = y == 2 && x >= 1 && x < 4;
                const Bytes got(read.begin() + static_cast<long>((y * 6 + x) * size),
                                read.begin() + static_cast<long>((y * 6 + x + 1) * size));
                CHECK(got == (filled ? c.texel : Bytes(size, 0)));
            }
    }
    MemPtr image = make_image(f.ctx(), 0, rgba8, describe(CL_MEM_OBJECT_IMAGE2D, 6, 4));
    const size_t zero[3] = {0, 0, 0};
    const size_t all[3] = {6, 4, 1};
    CHECK_CL(clEnqueueFillImage(f.q(), image.get(), nullptr, zero, all, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    const size_t deep[3] = {6, 4, 2};
    const float color[4] = {0, 0, 0, 0};
    CHECK_CL(clEnqueueFillImage(f.q(), image.get(), color, zero, deep, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
}

TEST_CASE("map and unmap images of every type") {
    Fixture f;
    unsigned seed = 40;
    for (const Shape& shape : shapes) {
        INFO("type 0x" << std::hex << shape.desc.image_type);
        const auto& e = shape.extent;
        Model model{e, random_bytes(e[0] * e[1] * e[2] * texel, seed++)};
        MemPtr image = make_image(f.ctx(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, rgba8,
                                  shape.desc, model.bytes.data());
        size_t origin[3], region[3];
        inner_region(e, origin, region);
        size_t row_pitch = 0, slice_pitch = 0;
        cl_int error = CL_SUCCESS;
        auto* mapped = static_cast<unsigned char*>(
            clEnqueueMapImage(f.q(), image.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, origin,
                              region, &row_pitch, &slice_pitch, 0, nullptr, nullptr, &error));
        REQUIRE_OK(error);
        const bool layered_1d = shape.desc.image_type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
        const size_t y_step = layered_1d ? slice_pitch : row_pitch;
        CHECK(row_pitch >= e[0] * texel);
        for (size_t z = 0; z < region[2]; ++z)
            for (size_t y = 0; y < region[1]; ++y) {
                unsigned char* row = mapped + z * slice_pitch + y * y_step;
                CHECK(std::memcmp(row,
                                  &model.bytes[model.at(origin[0], origin[1] + y, origin[2] + z)],
                                  region[0] * texel) == 0);
                for (size_t i = 0; i < region[0] * texel; ++i)
                    row[i] = static_cast<unsigned char>(row[i] ^ 0x5A);
                for (size_t i = 0; i < region[0] * texel; ++i)
                    model.bytes[model.at(origin[0], origin[1] + y, origin[2] + z) + i] ^= 0x5A;
            }
        cl_uint maps = 0;
        REQUIRE_OK(clGetMemObjectInfo(image.get(), CL_MEM_MAP_COUNT, sizeof maps, &maps, nullptr));
        CHECK(maps == 1);
        REQUIRE_OK(clEnqueueUnmapMemObject(f.q(), image.get(), mapped, 0, nullptr, nullptr));
        CHECK(whole_image(f.q(), image.get(), e).bytes == model.bytes);
    }
}

TEST_CASE("read, write and map errors") {
    Fixture f;
    MemPtr image = make_image(f.ctx(), 0, rgba8, describe(CL_MEM_OBJECT_IMAGE2D, 8, 8));
    MemPtr cube = make_image(f.ctx(), 0, rgba8, describe(CL_MEM_OBJECT_IMAGE3D, 4, 4, 4));
    Bytes host(8 * 8 * 2 * texel);
    const size_t zero[3] = {0, 0, 0};
    const size_t region[3] = {8, 8, 1};
    CHECK_CL(clEnqueueReadImage(nullptr, image.get(), CL_TRUE, zero, region, 0, 0, host.data(), 0,
                                nullptr, nullptr),
             CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(clEnqueueReadImage(f.q(), nullptr, CL_TRUE, zero, region, 0, 0, host.data(), 0,
                                nullptr, nullptr),
             CL_INVALID_MEM_OBJECT);
    CHECK_CL(clEnqueueReadImage(f.q(), image.get(), CL_TRUE, nullptr, region, 0, 0, host.data(), 0,
                                nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueReadImage(f.q(), image.get(), CL_TRUE, zero, region, 0, 0, nullptr, 0,
                                nullptr, nullptr),
             CL_INVALID_VALUE);
    const size_t off[3] = {1, 0, 0};
    CHECK_CL(clEnqueueReadImage(f.q(), image.get(), CL_TRUE, off, region, 0, 0, host.data(), 0,
                                nullptr, nullptr),
             CL_INVALID_VALUE);
    const size_t empty[3] = {0, 8, 1};
    CHECK_CL(clEnqueueReadImage(f.q(), image.get(), CL_TRUE, zero, empty, 0, 0, host.data(), 0,
                                nullptr, nullptr),
             CL_INVALID_VALUE);
    // A 2D image takes no slice pitch; a row pitch below the row is invalid.
    CHECK_CL(clEnqueueReadImage(f.q(), image.get(), CL_TRUE, zero, region, 0, 256, host.data(), 0,
                                nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueWriteImage(f.q(), image.get(), CL_TRUE, zero, region, 16, 0, host.data(), 0,
                                 nullptr, nullptr),
             CL_INVALID_VALUE);
    // Host access flags.
    MemPtr no_host =
        make_image(f.ctx(), CL_MEM_HOST_NO_ACCESS, rgba8, describe(CL_MEM_OBJECT_IMAGE2D, 8, 8));
    CHECK_CL(clEnqueueReadImage(f.q(), no_host.get(), CL_TRUE, zero, region, 0, 0, host.data(), 0,
                                nullptr, nullptr),
             CL_INVALID_OPERATION);
    size_t row_pitch = 0, slice_pitch = 0;
    cl_int error = CL_SUCCESS;
    CHECK(clEnqueueMapImage(f.q(), no_host.get(), CL_TRUE, CL_MAP_READ, zero, region, &row_pitch,
                            nullptr, 0, nullptr, nullptr, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_OPERATION);
    // Map: a NULL row pitch, a NULL slice pitch for a 3D image, bad flags.
    CHECK(clEnqueueMapImage(f.q(), image.get(), CL_TRUE, CL_MAP_READ, zero, region, nullptr,
                            nullptr, 0, nullptr, nullptr, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_VALUE);
    const size_t cube_region[3] = {4, 4, 4};
    CHECK(clEnqueueMapImage(f.q(), cube.get(), CL_TRUE, CL_MAP_READ, zero, cube_region, &row_pitch,
                            nullptr, 0, nullptr, nullptr, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_VALUE);
    CHECK(clEnqueueMapImage(f.q(), image.get(), CL_TRUE,
                            CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, zero, region, &row_pitch,
                            &slice_pitch, 0, nullptr, nullptr, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_VALUE);
    // A buffer is not an image.
    MemPtr buffer(clCreateBuffer(f.ctx(), 0, 64, nullptr, &error));
    REQUIRE_OK(error);
    CHECK_CL(clEnqueueReadImage(f.q(), buffer.get(), CL_TRUE, zero, region, 0, 0, host.data(), 0,
                                nullptr, nullptr),
             CL_INVALID_MEM_OBJECT);
}
