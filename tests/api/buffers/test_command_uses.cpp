// What each command on buffers and images uses, as the driver's memory log
// names it: the bytes of each memory object and the access (read, a write
// of every byte that needs no old content, a write of some bytes that
// does, or content made undefined). The access decides what the migration
// planner copies, so a wrong one moves data for nothing or loses it.
#include "buffer_test.hpp"
#include "debug_log.hpp"

#include <string>
#include <vector>

using namespace cl_test;
using namespace buffer_test;

namespace {

const DebugLog debug_log("usmcl-command-uses");

// The uses the log names for commands of type name ("CL_COMMAND_...") from
// line first on, each as "<size> bytes at <offset>, <access>".
std::vector<std::string> uses_of(const std::string& name, size_t first) {
    const std::vector<std::string> lines = debug_log.lines();
    const std::string key = "command " + name + " uses memory object ";
    std::vector<std::string> uses;
    for (size_t i = first; i < lines.size(); ++i) {
        const size_t at = lines[i].find(key);
        if (at == std::string::npos)
            continue;
        const size_t colon = lines[i].find(": ", at + key.size());
        REQUIRE(colon != std::string::npos);
        uses.push_back(lines[i].substr(colon + 2));
    }
    return uses;
}

using Uses = std::vector<std::string>;

} // namespace

TEST_CASE("buffer transfers read, or overwrite their range", "[commands]") {
    Fixture f;
    MemPtr buffer = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 1024);
    Bytes data(256, 7);
    const size_t first = debug_log.lines().size();
    REQUIRE_OK(clEnqueueWriteBuffer(f.q(), buffer.get(), CL_TRUE, 64, data.size(), data.data(), 0,
                                    nullptr, nullptr));
    REQUIRE_OK(clEnqueueReadBuffer(f.q(), buffer.get(), CL_TRUE, 128, 100, data.data(), 0, nullptr,
                                   nullptr));
    CHECK(uses_of("CL_COMMAND_WRITE_BUFFER", first) == Uses{"256 bytes at 64, overwrite"});
    CHECK(uses_of("CL_COMMAND_READ_BUFFER", first) == Uses{"100 bytes at 128, read"});
}

TEST_CASE("a rectangle write overwrites only when its rows are contiguous", "[commands]") {
    Fixture f;
    MemPtr buffer = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 1024);
    Bytes data(1024, 3);
    const size_t origin[3] = {0, 2, 0};
    const size_t host_origin[3] = {0, 0, 0};
    const size_t region[3] = {16, 4, 1};
    const size_t first = debug_log.lines().size();
    // Rows of 16 bytes, 16 apart: bytes 32 to 96, every one written.
    REQUIRE_OK(clEnqueueWriteBufferRect(f.q(), buffer.get(), CL_TRUE, origin, host_origin, region,
                                        16, 0, 16, 0, data.data(), 0, nullptr, nullptr));
    CHECK(uses_of("CL_COMMAND_WRITE_BUFFER_RECT", first) == Uses{"64 bytes at 32, overwrite"});
    // Rows of 16 bytes, 32 apart: bytes 64 to 176 with gaps the write keeps.
    const size_t second = debug_log.lines().size();
    REQUIRE_OK(clEnqueueWriteBufferRect(f.q(), buffer.get(), CL_TRUE, origin, host_origin, region,
                                        32, 0, 16, 0, data.data(), 0, nullptr, nullptr));
    CHECK(uses_of("CL_COMMAND_WRITE_BUFFER_RECT", second) == Uses{"112 bytes at 64, read_write"});
    const size_t third = debug_log.lines().size();
    REQUIRE_OK(clEnqueueReadBufferRect(f.q(), buffer.get(), CL_TRUE, origin, host_origin, region,
                                       32, 0, 16, 0, data.data(), 0, nullptr, nullptr));
    CHECK(uses_of("CL_COMMAND_READ_BUFFER_RECT", third) == Uses{"112 bytes at 64, read"});
}

TEST_CASE("copies read the source and write the destination", "[commands]") {
    Fixture f;
    MemPtr src = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 1024);
    MemPtr dst = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 1024);
    const size_t first = debug_log.lines().size();
    REQUIRE_OK(clEnqueueCopyBuffer(f.q(), src.get(), dst.get(), 0, 256, 128, 0, nullptr, nullptr));
    const size_t src_origin[3] = {8, 1, 0};
    const size_t dst_origin[3] = {0, 0, 0};
    const size_t region[3] = {8, 2, 1};
    // Source rows 8 bytes at 40 and 72 (pitch 32); destination packed rows.
    REQUIRE_OK(clEnqueueCopyBufferRect(f.q(), src.get(), dst.get(), src_origin, dst_origin, region,
                                       32, 0, 8, 0, 0, nullptr, nullptr));
    REQUIRE_OK(clFinish(f.q()));
    CHECK(uses_of("CL_COMMAND_COPY_BUFFER", first) ==
          Uses{"128 bytes at 0, read", "128 bytes at 256, overwrite"});
    CHECK(uses_of("CL_COMMAND_COPY_BUFFER_RECT", first) ==
          Uses{"40 bytes at 40, read", "16 bytes at 0, overwrite"});
}

TEST_CASE("fills overwrite; maps and unmaps use what their flags say", "[commands]") {
    Fixture f;
    MemPtr buffer = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 1024);
    const cl_uint pattern = 0x01020304;
    const size_t first = debug_log.lines().size();
    REQUIRE_OK(clEnqueueFillBuffer(f.q(), buffer.get(), &pattern, sizeof pattern, 512, 256, 0,
                                   nullptr, nullptr));
    cl_int error = CL_OUT_OF_RESOURCES;
    void* read = clEnqueueMapBuffer(f.q(), buffer.get(), CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr,
                                    nullptr, &error);
    REQUIRE_OK(error);
    REQUIRE_OK(clEnqueueUnmapMemObject(f.q(), buffer.get(), read, 0, nullptr, nullptr));
    void* write = clEnqueueMapBuffer(f.q(), buffer.get(), CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION,
                                     64, 32, 0, nullptr, nullptr, &error);
    REQUIRE_OK(error);
    REQUIRE_OK(clEnqueueUnmapMemObject(f.q(), buffer.get(), write, 0, nullptr, nullptr));
    const cl_mem list[] = {buffer.get()};
    REQUIRE_OK(clEnqueueMigrateMemObjects(f.q(), 1, list, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED,
                                          0, nullptr, nullptr));
    REQUIRE_OK(clFinish(f.q()));
    CHECK(uses_of("CL_COMMAND_FILL_BUFFER", first) == Uses{"256 bytes at 512, overwrite"});
    CHECK(uses_of("CL_COMMAND_MAP_BUFFER", first) ==
          Uses{"64 bytes at 0, read", "32 bytes at 64, overwrite"});
    CHECK(uses_of("CL_COMMAND_UNMAP_MEM_OBJECT", first) ==
          Uses{"64 bytes at 0, read", "32 bytes at 64, read_write"});
    CHECK(uses_of("CL_COMMAND_MIGRATE_MEM_OBJECTS", first) == Uses{"1024 bytes at 0, discard"});
}

TEST_CASE("image writes overwrite whole rows only", "[commands]") {
    Fixture f;
    cl_bool images = CL_FALSE;
    REQUIRE_OK(clGetDeviceInfo(f.device, CL_DEVICE_IMAGE_SUPPORT, sizeof images, &images, nullptr));
    REQUIRE(images == CL_TRUE);
    const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 8;
    desc.image_height = 8;
    cl_int error = CL_OUT_OF_RESOURCES;
    MemPtr image(clCreateImage(f.ctx(), CL_MEM_READ_WRITE, &format, &desc, nullptr, &error));
    REQUIRE_OK(error);
    Bytes texels(8 * 8 * 4, 9);
    // Rows of 32 bytes: rows 3 and 4 whole are bytes 96 to 160.
    const size_t whole_origin[3] = {0, 3, 0};
    const size_t whole_region[3] = {8, 2, 1};
    const size_t first = debug_log.lines().size();
    REQUIRE_OK(clEnqueueWriteImage(f.q(), image.get(), CL_TRUE, whole_origin, whole_region, 0, 0,
                                   texels.data(), 0, nullptr, nullptr));
    CHECK(uses_of("CL_COMMAND_WRITE_IMAGE", first) == Uses{"64 bytes at 96, overwrite"});
    // Texels 2 to 5 of rows 3 and 4: bytes 104 to 152, with gaps.
    const size_t part_origin[3] = {2, 3, 0};
    const size_t part_region[3] = {4, 2, 1};
    const size_t second = debug_log.lines().size();
    REQUIRE_OK(clEnqueueWriteImage(f.q(), image.get(), CL_TRUE, part_origin, part_region, 0, 0,
                                   texels.data(), 0, nullptr, nullptr));
    CHECK(uses_of("CL_COMMAND_WRITE_IMAGE", second) == Uses{"48 bytes at 104, read_write"});
    const size_t third = debug_log.lines().size();
    const cl_float color[4] = {0.5f, 0.5f, 0.5f, 1.0f};
    REQUIRE_OK(clEnqueueFillImage(f.q(), image.get(), color, part_origin, part_region, 0, nullptr,
                                  nullptr));
    REQUIRE_OK(clFinish(f.q()));
    CHECK(uses_of("CL_COMMAND_FILL_IMAGE", third) == Uses{"48 bytes at 104, read_write"});
}
