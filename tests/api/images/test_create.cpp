// clGetSupportedImageFormats, clCreateImage[WithProperties], clCreateImage2D,
// clCreateImage3D and their errors, clGetImageInfo, clGetMemObjectInfo of
// images, and the sampler entry points.
#include "image_test.hpp"

#include <catch2/catch.hpp>

using namespace image_test;

namespace {

constexpr cl_image_format rgba8{CL_RGBA, CL_UNORM_INT8};
constexpr cl_image_format rgba_float{CL_RGBA, CL_FLOAT};

bool listed(const std::vector<cl_image_format>& formats, cl_image_format wanted) {
    return std::any_of(formats.begin(), formats.end(), [&](const cl_image_format& f) {
        return f.image_channel_order == wanted.image_channel_order &&
               f.image_channel_data_type == wanted.image_channel_data_type;
    });
}

std::vector<cl_image_format> formats_of(cl_context context, cl_mem_flags flags,
                                        cl_mem_object_type type) {
    cl_uint count = 0;
    REQUIRE_OK(clGetSupportedImageFormats(context, flags, type, 0, nullptr, &count));
    std::vector<cl_image_format> formats(count);
    cl_uint again = 0;
    REQUIRE_OK(clGetSupportedImageFormats(context, flags, type, count, formats.data(), &again));
    CHECK(again == count);
    return formats;
}

} // namespace

TEST_CASE("the device reports images and the full profile's limits") {
    cl_device_id id = cl_test::device();
    cl_bool images = CL_FALSE;
    REQUIRE_OK(clGetDeviceInfo(id, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr));
    REQUIRE(images == CL_TRUE);
    cl_uint samplers = 0;
    REQUIRE_OK(clGetDeviceInfo(id, CL_DEVICE_MAX_SAMPLERS, sizeof samplers, &samplers, nullptr));
    CHECK(samplers >= 16);
    // No 2D images of buffers (cl_khr_image2d_from_buffer): their alignments are 0.
    cl_uint alignment = 1;
    REQUIRE_OK(clGetDeviceInfo(id, CL_DEVICE_IMAGE_PITCH_ALIGNMENT, sizeof alignment, &alignment,
                               nullptr));
    CHECK(alignment == 0);
    REQUIRE_OK(clGetDeviceInfo(id, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT, sizeof alignment,
                               &alignment, nullptr));
    CHECK(alignment == 0);
}

TEST_CASE("clGetSupportedImageFormats lists the minimum formats for every type and access") {
    Fixture f;
    const cl_channel_type minimum_types[] = {CL_UNORM_INT8,     CL_UNORM_INT16,   CL_SNORM_INT8,
                                             CL_SNORM_INT16,    CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                             CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                             CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
    // Read-write image arguments (__opencl_c_read_write_images): formats for
    // kernels that read and write one image too.
    cl_uint read_write_args = 0;
    REQUIRE_OK(clGetDeviceInfo(f.device, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS,
                               sizeof read_write_args, &read_write_args, nullptr));
    REQUIRE(read_write_args >= 64);
    for (cl_mem_object_type type :
         {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
          CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY, CL_MEM_OBJECT_IMAGE3D})
        for (cl_mem_flags flags : {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE,
                                   CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE}) {
            INFO("type 0x" << std::hex << type << " flags 0x" << flags);
            const auto formats = formats_of(f.ctx(), flags, type);
            for (cl_channel_order order : {CL_R, CL_RG, CL_RGBA})
                for (cl_channel_type data : minimum_types)
                    CHECK(listed(formats, {order, data}));
            CHECK(listed(formats, {CL_BGRA, CL_UNORM_INT8}));
        }
}

TEST_CASE("clGetSupportedImageFormats errors") {
    Fixture f;
    cl_uint count = 0;
    cl_image_format one{};
    CHECK_CL(clGetSupportedImageFormats(nullptr, CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0,
                                        nullptr, &count),
             CL_INVALID_CONTEXT);
    CHECK_CL(clGetSupportedImageFormats(f.ctx(), CL_MEM_READ_ONLY, CL_MEM_OBJECT_BUFFER, 0, nullptr,
                                        &count),
             CL_INVALID_VALUE);
    CHECK_CL(clGetSupportedImageFormats(f.ctx(), CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                        CL_MEM_OBJECT_IMAGE2D, 0, nullptr, &count),
             CL_INVALID_VALUE);
    CHECK_CL(clGetSupportedImageFormats(f.ctx(), CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 0, &one,
                                        &count),
             CL_INVALID_VALUE);
    // Fewer entries than formats: only that many are written.
    CHECK_OK(clGetSupportedImageFormats(f.ctx(), CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D, 1, &one,
                                        &count));
    CHECK(count > 1);
    CHECK(one.image_channel_order != 0);
}

TEST_CASE("clCreateImage of every type reports its shape") {
    Fixture f;
    struct Case {
        cl_image_desc desc;
        size_t height, depth, array_size, row_pitch, slice_pitch;
    };
    const Case cases[] = {
        {describe(CL_MEM_OBJECT_IMAGE1D, 17), 0, 0, 0, 68, 0},
        {describe(CL_MEM_OBJECT_IMAGE1D_ARRAY, 17, 0, 0, 3), 0, 0, 3, 68, 68},
        {describe(CL_MEM_OBJECT_IMAGE2D, 17, 5), 5, 0, 0, 68, 0},
        {describe(CL_MEM_OBJECT_IMAGE2D_ARRAY, 17, 5, 0, 3), 5, 0, 3, 68, 340},
        {describe(CL_MEM_OBJECT_IMAGE3D, 17, 5, 4), 5, 4, 0, 68, 340},
    };
    for (const Case& c : cases) {
        INFO("type 0x" << std::hex << c.desc.image_type);
        MemPtr image = make_image(f.ctx(), CL_MEM_READ_WRITE, rgba8, c.desc);
        CHECK(mem_info<cl_mem_object_type>(image.get(), CL_MEM_TYPE) == c.desc.image_type);
        CHECK(image_info<size_t>(image.get(), CL_IMAGE_WIDTH) == 17);
        CHECK(image_info<size_t>(image.get(), CL_IMAGE_HEIGHT) == c.height);
        CHECK(image_info<size_t>(image.get(), CL_IMAGE_DEPTH) == c.depth);
        CHECK(image_info<size_t>(image.get(), CL_IMAGE_ARRAY_SIZE) == c.array_size);
        CHECK(image_info<size_t>(image.get(), CL_IMAGE_ELEMENT_SIZE) == 4);
        CHECK(image_info<size_t>(image.get(), CL_IMAGE_ROW_PITCH) == c.row_pitch);
        CHECK(image_info<size_t>(image.get(), CL_IMAGE_SLICE_PITCH) == c.slice_pitch);
        CHECK(image_info<cl_uint>(image.get(), CL_IMAGE_NUM_MIP_LEVELS) == 0);
        CHECK(image_info<cl_uint>(image.get(), CL_IMAGE_NUM_SAMPLES) == 0);
        CHECK(image_info<cl_mem>(image.get(), CL_IMAGE_BUFFER) == nullptr);
        const auto format = image_info<cl_image_format>(image.get(), CL_IMAGE_FORMAT);
        CHECK(format.image_channel_order == CL_RGBA);
        CHECK(format.image_channel_data_type == CL_UNORM_INT8);
        CHECK(mem_info<cl_mem_flags>(image.get(), CL_MEM_FLAGS) == CL_MEM_READ_WRITE);
        CHECK(mem_info<cl_context>(image.get(), CL_MEM_CONTEXT) == f.ctx());
        CHECK(mem_info<size_t>(image.get(), CL_MEM_SIZE) >= 17 * 4);
    }
}

TEST_CASE("a 1D buffer image is a view of its buffer") {
    Fixture f;
    std::vector<float> data(64);
    for (size_t i = 0; i < data.size(); ++i)
        data[i] = static_cast<float>(i);
    cl_int error = CL_OUT_OF_RESOURCES;
    MemPtr buffer(clCreateBuffer(f.ctx(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, data.size() * 4,
                                 data.data(), &error));
    REQUIRE_OK(error);
    const cl_image_desc desc = describe(CL_MEM_OBJECT_IMAGE1D_BUFFER, 16, 0, 0, 0, buffer.get());
    MemPtr image = make_image(f.ctx(), 0, rgba_float, desc);
    CHECK(image_info<cl_mem>(image.get(), CL_IMAGE_BUFFER) == buffer.get());
    CHECK(mem_info<cl_mem>(image.get(), CL_MEM_ASSOCIATED_MEMOBJECT) == buffer.get());
    CHECK(mem_info<cl_mem_flags>(image.get(), CL_MEM_FLAGS) & CL_MEM_READ_WRITE);
    std::vector<float> read(8);
    const size_t origin[3] = {2, 0, 0};
    const size_t region[3] = {2, 1, 1};
    REQUIRE_OK(clEnqueueReadImage(f.q(), image.get(), CL_TRUE, origin, region, 0, 0, read.data(), 0,
                                  nullptr, nullptr));
    for (size_t i = 0; i < 8; ++i)
        CHECK(read[i] == data[8 + i]);
    // Larger than its buffer, or a buffer flag it contradicts.
    const cl_image_desc big = describe(CL_MEM_OBJECT_IMAGE1D_BUFFER, 17, 0, 0, 0, buffer.get());
    CHECK(create_image_error(f.ctx(), 0, &rgba_float, &big) == CL_INVALID_IMAGE_SIZE);
    MemPtr read_only(clCreateBuffer(f.ctx(), CL_MEM_READ_ONLY, data.size() * 4, nullptr, &error));
    REQUIRE_OK(error);
    const cl_image_desc on_read_only =
        describe(CL_MEM_OBJECT_IMAGE1D_BUFFER, 4, 0, 0, 0, read_only.get());
    CHECK(create_image_error(f.ctx(), CL_MEM_WRITE_ONLY, &rgba_float, &on_read_only) ==
          CL_INVALID_VALUE);
    const cl_image_desc no_buffer = describe(CL_MEM_OBJECT_IMAGE1D_BUFFER, 4);
    CHECK(create_image_error(f.ctx(), 0, &rgba_float, &no_buffer) == CL_INVALID_IMAGE_DESCRIPTOR);
    // An image is no buffer: buffer commands and sub-buffers refuse it.
    float value = 0;
    CHECK_CL(clEnqueueReadBuffer(f.q(), image.get(), CL_TRUE, 0, 4, &value, 0, nullptr, nullptr),
             CL_INVALID_MEM_OBJECT);
    const cl_buffer_region sub{0, 16};
    clCreateSubBuffer(image.get(), 0, CL_BUFFER_CREATE_TYPE_REGION, &sub, &error);
    CHECK_CL(error, CL_INVALID_MEM_OBJECT);
}

TEST_CASE("clCreateImage errors") {
    Fixture f;
    const cl_image_desc good = describe(CL_MEM_OBJECT_IMAGE2D, 8, 8);
    unsigned char host[8 * 8 * 4] = {};
    SECTION("context, properties and flags") {
        cl_int error = CL_SUCCESS;
        CHECK(clCreateImage(nullptr, 0, &rgba8, &good, nullptr, &error) == nullptr);
        CHECK_CL(error, CL_INVALID_CONTEXT);
        const cl_mem_properties bad[] = {0x1234, 0, 0};
        CHECK(clCreateImageWithProperties(f.ctx(), bad, 0, &rgba8, &good, nullptr, &error) ==
              nullptr);
        CHECK_CL(error, CL_INVALID_PROPERTY);
        CHECK(create_image_error(f.ctx(), CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY, &rgba8, &good) ==
              CL_INVALID_VALUE);
    }
    SECTION("format descriptors") {
        CHECK(create_image_error(f.ctx(), 0, nullptr, &good) == CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
        const cl_image_format unknown_order{0x1234, CL_UNORM_INT8};
        CHECK(create_image_error(f.ctx(), 0, &unknown_order, &good) ==
              CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
        const cl_image_format unknown_type{CL_RGBA, 0x1234};
        CHECK(create_image_error(f.ctx(), 0, &unknown_type, &good) ==
              CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
        // The table of channel orders: CL_RGB only with packed types,
        // CL_BGRA only with 8-bit ones.
        const cl_image_format rgb_float{CL_RGB, CL_FLOAT};
        CHECK(create_image_error(f.ctx(), 0, &rgb_float, &good) ==
              CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
        const cl_image_format bgra_float{CL_BGRA, CL_FLOAT};
        CHECK(create_image_error(f.ctx(), 0, &bgra_float, &good) ==
              CL_INVALID_IMAGE_FORMAT_DESCRIPTOR);
        // Valid, but not supported.
        const cl_image_format rgb565{CL_RGB, CL_UNORM_SHORT_565};
        CHECK(create_image_error(f.ctx(), 0, &rgb565, &good) == CL_IMAGE_FORMAT_NOT_SUPPORTED);
    }
    SECTION("descriptors and sizes") {
        CHECK(create_image_error(f.ctx(), 0, &rgba8, nullptr) == CL_INVALID_IMAGE_DESCRIPTOR);
        cl_image_desc bad = good;
        bad.image_type = CL_MEM_OBJECT_BUFFER;
        CHECK(create_image_error(f.ctx(), 0, &rgba8, &bad) == CL_INVALID_IMAGE_DESCRIPTOR);
        bad = good;
        bad.image_width = 0;
        CHECK(create_image_error(f.ctx(), 0, &rgba8, &bad) == CL_INVALID_IMAGE_DESCRIPTOR);
        bad = good;
        bad.num_mip_levels = 1;
        CHECK(create_image_error(f.ctx(), 0, &rgba8, &bad) == CL_INVALID_IMAGE_DESCRIPTOR);
        bad = good;
        bad.image_row_pitch = 64; // a pitch without host_ptr
        CHECK(create_image_error(f.ctx(), 0, &rgba8, &bad) == CL_INVALID_IMAGE_DESCRIPTOR);
        bad.image_row_pitch = 30; // below width * 4
        CHECK(create_image_error(f.ctx(), CL_MEM_COPY_HOST_PTR, &rgba8, &bad, host) ==
              CL_INVALID_IMAGE_DESCRIPTOR);
        bad.image_row_pitch = 34; // not a multiple of the element size
        CHECK(create_image_error(f.ctx(), CL_MEM_COPY_HOST_PTR, &rgba8, &bad, host) ==
              CL_INVALID_IMAGE_DESCRIPTOR);
        size_t max_width = 0;
        REQUIRE_OK(clGetDeviceInfo(f.device, CL_DEVICE_IMAGE2D_MAX_WIDTH, sizeof max_width,
                                   &max_width, nullptr));
        bad = good;
        bad.image_width = max_width + 1;
        CHECK(create_image_error(f.ctx(), 0, &rgba8, &bad) == CL_INVALID_IMAGE_SIZE);
        size_t max_layers = 0;
        REQUIRE_OK(clGetDeviceInfo(f.device, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE, sizeof max_layers,
                                   &max_layers, nullptr));
        bad = describe(CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 0, max_layers + 1);
        CHECK(create_image_error(f.ctx(), 0, &rgba8, &bad) == CL_INVALID_IMAGE_SIZE);
    }
    SECTION("host pointers") {
        CHECK(create_image_error(f.ctx(), CL_MEM_USE_HOST_PTR, &rgba8, &good) ==
              CL_INVALID_HOST_PTR);
        CHECK(create_image_error(f.ctx(), 0, &rgba8, &good, host) == CL_INVALID_HOST_PTR);
    }
    SECTION("the OpenCL 1.1 entry points") {
        cl_int error = CL_SUCCESS;
        CHECK(clCreateImage2D(f.ctx(), 0, &rgba8, 0, 4, 0, nullptr, &error) == nullptr);
        CHECK_CL(error, CL_INVALID_IMAGE_SIZE);
        CHECK(clCreateImage3D(f.ctx(), 0, &rgba8, 4, 4, 1, 0, 0, nullptr, &error) == nullptr);
        CHECK_CL(error, CL_INVALID_IMAGE_SIZE);
        MemPtr two(clCreateImage2D(f.ctx(), 0, &rgba8, 4, 3, 0, nullptr, &error));
        CHECK_OK(error);
        CHECK(mem_info<cl_mem_object_type>(two.get(), CL_MEM_TYPE) == CL_MEM_OBJECT_IMAGE2D);
        MemPtr three(clCreateImage3D(f.ctx(), 0, &rgba8, 4, 3, 2, 0, 0, nullptr, &error));
        CHECK_OK(error);
        CHECK(image_info<size_t>(three.get(), CL_IMAGE_DEPTH) == 2);
    }
}

TEST_CASE("CL_MEM_USE_HOST_PTR images keep the application's memory and pitches") {
    Fixture f;
    constexpr size_t width = 5, height = 3, pitch = 32;
    std::vector<unsigned char> host(pitch * height, 0);
    cl_image_desc desc = describe(CL_MEM_OBJECT_IMAGE2D, width, height);
    desc.image_row_pitch = pitch;
    MemPtr image = make_image(f.ctx(), CL_MEM_USE_HOST_PTR, rgba8, desc, host.data());
    CHECK(image_info<size_t>(image.get(), CL_IMAGE_ROW_PITCH) == pitch);
    CHECK(mem_info<void*>(image.get(), CL_MEM_HOST_PTR) == host.data());
    const unsigned char texel[4] = {1, 2, 3, 4};
    const size_t origin[3] = {2, 1, 0};
    const size_t region[3] = {1, 1, 1};
    REQUIRE_OK(clEnqueueWriteImage(f.q(), image.get(), CL_TRUE, origin, region, 0, 0, texel, 0,
                                   nullptr, nullptr));
    // The host instance is the application's memory: a map shows it in place.
    size_t row_pitch = 0;
    cl_int error = CL_SUCCESS;
    void* mapped = clEnqueueMapImage(f.q(), image.get(), CL_TRUE, CL_MAP_READ, origin, region,
                                     &row_pitch, nullptr, 0, nullptr, nullptr, &error);
    REQUIRE_OK(error);
    CHECK(mapped == host.data() + pitch + 8);
    CHECK(row_pitch == pitch);
    CHECK(std::memcmp(host.data() + pitch + 8, texel, 4) == 0);
    REQUIRE_OK(clEnqueueUnmapMemObject(f.q(), image.get(), mapped, 0, nullptr, nullptr));
    REQUIRE_OK(clFinish(f.q()));
}

TEST_CASE("clGetImageInfo errors") {
    Fixture f;
    MemPtr image = make_image(f.ctx(), 0, rgba8, describe(CL_MEM_OBJECT_IMAGE2D, 4, 4));
    size_t value = 0;
    CHECK_CL(clGetImageInfo(nullptr, CL_IMAGE_WIDTH, sizeof value, &value, nullptr),
             CL_INVALID_MEM_OBJECT);
    cl_int error = CL_SUCCESS;
    MemPtr buffer(clCreateBuffer(f.ctx(), 0, 64, nullptr, &error));
    REQUIRE_OK(error);
    CHECK_CL(clGetImageInfo(buffer.get(), CL_IMAGE_WIDTH, sizeof value, &value, nullptr),
             CL_INVALID_MEM_OBJECT);
    CHECK_CL(clGetImageInfo(image.get(), 0x1234, sizeof value, &value, nullptr), CL_INVALID_VALUE);
    CHECK_CL(clGetImageInfo(image.get(), CL_IMAGE_WIDTH, 1, &value, nullptr), CL_INVALID_VALUE);
}

TEST_CASE("samplers: creation, queries, reference counts and errors") {
    Fixture f;
    cl_int error = CL_SUCCESS;
    cl_sampler plain =
        clCreateSampler(f.ctx(), CL_TRUE, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR, &error);
    REQUIRE_OK(error);
    SamplerPtr owned(plain);
    cl_bool normalized = CL_FALSE;
    REQUIRE_OK(clGetSamplerInfo(plain, CL_SAMPLER_NORMALIZED_COORDS, sizeof normalized, &normalized,
                                nullptr));
    CHECK(normalized == CL_TRUE);
    cl_addressing_mode mode = 0;
    REQUIRE_OK(clGetSamplerInfo(plain, CL_SAMPLER_ADDRESSING_MODE, sizeof mode, &mode, nullptr));
    CHECK(mode == CL_ADDRESS_REPEAT);
    cl_filter_mode filter = 0;
    REQUIRE_OK(clGetSamplerInfo(plain, CL_SAMPLER_FILTER_MODE, sizeof filter, &filter, nullptr));
    CHECK(filter == CL_FILTER_LINEAR);
    cl_context context = nullptr;
    REQUIRE_OK(clGetSamplerInfo(plain, CL_SAMPLER_CONTEXT, sizeof context, &context, nullptr));
    CHECK(context == f.ctx());
    size_t size = 1;
    REQUIRE_OK(clGetSamplerInfo(plain, CL_SAMPLER_PROPERTIES, 0, nullptr, &size));
    CHECK(size == 0);
    REQUIRE_OK(clRetainSampler(plain));
    cl_uint count = 0;
    REQUIRE_OK(clGetSamplerInfo(plain, CL_SAMPLER_REFERENCE_COUNT, sizeof count, &count, nullptr));
    CHECK(count == 2);
    REQUIRE_OK(clReleaseSampler(plain));
    CHECK_CL(clGetSamplerInfo(plain, 0x1234, sizeof count, &count, nullptr), CL_INVALID_VALUE);

    SamplerPtr with = make_sampler(f.ctx(), CL_FALSE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST);
    REQUIRE_OK(clGetSamplerInfo(with.get(), CL_SAMPLER_PROPERTIES, 0, nullptr, &size));
    CHECK(size == 7 * sizeof(cl_sampler_properties));
    // Defaults: normalized, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST.
    SamplerPtr defaults(clCreateSamplerWithProperties(f.ctx(), nullptr, &error));
    REQUIRE_OK(error);
    REQUIRE_OK(
        clGetSamplerInfo(defaults.get(), CL_SAMPLER_ADDRESSING_MODE, sizeof mode, &mode, nullptr));
    CHECK(mode == CL_ADDRESS_CLAMP);

    CHECK(clCreateSampler(nullptr, CL_TRUE, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &error) ==
          nullptr);
    CHECK_CL(error, CL_INVALID_CONTEXT);
    CHECK(clCreateSampler(f.ctx(), 7, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_VALUE);
    CHECK(clCreateSampler(f.ctx(), CL_TRUE, 0x1234, CL_FILTER_NEAREST, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_VALUE);
    CHECK(clCreateSampler(f.ctx(), CL_TRUE, CL_ADDRESS_CLAMP, 0x1234, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_VALUE);
    const cl_sampler_properties unknown[] = {0x1234, 0, 0};
    CHECK(clCreateSamplerWithProperties(f.ctx(), unknown, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_VALUE);
    const cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR,
                                           CL_SAMPLER_FILTER_MODE, CL_FILTER_NEAREST, 0};
    CHECK(clCreateSamplerWithProperties(f.ctx(), twice, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_VALUE);
    CHECK_CL(clRetainSampler(nullptr), CL_INVALID_SAMPLER);
    CHECK_CL(clReleaseSampler(nullptr), CL_INVALID_SAMPLER);
    CHECK_CL(clGetSamplerInfo(nullptr, CL_SAMPLER_FILTER_MODE, sizeof filter, &filter, nullptr),
             CL_INVALID_SAMPLER);
}
