// USM pointers given to the cl_mem API, as the table of docs/usm.md says
// (the extension's open issues 20-23): CL_MEM_USE_HOST_PTR rejects USM of
// the context, CL_MEM_COPY_HOST_PTR takes host USM only, the ptr of
// clEnqueueRead/WriteBuffer[Rect] may be host or device USM but not shared
// USM, and the pattern of clEnqueueFillBuffer may be host USM only
// (CL_INVALID_HOST_PTR otherwise). Where allowed the data arrives intact;
// where rejected nothing is created or changed. USM of another context is
// plain host memory to all of them.
#include "usm_test.hpp"

#include <algorithm>
#include <array>
#include <cstdint>

using namespace cl_test;
using namespace usm_test;

namespace {

using Bytes = std::vector<unsigned char>;

constexpr Kind all_kinds[] = {Kind::host, Kind::device, Kind::shared};

Bytes pattern(size_t size, unsigned seed) {
    Bytes bytes(size);
    for (size_t i = 0; i < size; ++i)
        bytes[i] = static_cast<unsigned char>(i * 37u + seed * 101u + (i >> 8));
    return bytes;
}

// An allocation of kind in context, freed on scope exit; its bytes are set
// and read by the host (host, shared) or by USM copies on queue (device).
class Allocation {
public:
    Allocation(const Usm& usm, cl_context context, cl_device_id device, cl_command_queue queue,
               Kind kind, size_t size)
        : usm_(usm), context_(context), queue_(queue), kind_(kind), size_(size) {
        cl_int error = CL_OUT_OF_RESOURCES;
        ptr_ = try_alloc(usm, kind, context, device, nullptr, size, 0, &error);
        REQUIRE_OK(error);
        REQUIRE(ptr_ != nullptr);
    }
    ~Allocation() { usm_.free(context_, ptr_); }
    Allocation(const Allocation&) = delete;
    Allocation& operator=(const Allocation&) = delete;

    unsigned char* ptr() const { return static_cast<unsigned char*>(ptr_); }
    size_t size() const { return size_; }
    Kind kind() const { return kind_; }

    void set(const Bytes& bytes) const {
        REQUIRE(bytes.size() == size_);
        if (kind_ == Kind::device)
            REQUIRE_OK(
                usm_.memcpy(queue_, CL_TRUE, ptr_, bytes.data(), size_, 0, nullptr, nullptr));
        else
            std::memcpy(ptr_, bytes.data(), size_);
    }
    Bytes get() const {
        Bytes bytes(size_, 0);
        if (kind_ == Kind::device)
            REQUIRE_OK(
                usm_.memcpy(queue_, CL_TRUE, bytes.data(), ptr_, size_, 0, nullptr, nullptr));
        else
            std::memcpy(bytes.data(), ptr_, size_);
        return bytes;
    }

private:
    const Usm& usm_;
    cl_context context_;
    cl_command_queue queue_;
    Kind kind_;
    size_t size_;
    void* ptr_ = nullptr;
};

MemPtr make_buffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr = nullptr) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_mem mem = clCreateBuffer(context, flags, size, host_ptr, &error);
    REQUIRE_OK(error);
    REQUIRE(mem != nullptr);
    return MemPtr(mem);
}

// A buffer holding bytes.
MemPtr buffer_with(cl_context context, const Bytes& bytes) {
    return make_buffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes.size(),
                       const_cast<unsigned char*>(bytes.data()));
}

Bytes read_all(cl_command_queue queue, cl_mem mem, size_t size) {
    Bytes bytes(size, 0);
    REQUIRE_OK(
        clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, size, bytes.data(), 0, nullptr, nullptr));
    return bytes;
}

// clCreateBuffer that must fail: its error, after checking that no buffer
// came back (also with errcode_ret NULL).
cl_int create_error(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr) {
    cl_int error = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, flags, size, host_ptr, &error);
    CHECK(mem == nullptr);
    if (mem)
        clReleaseMemObject(mem);
    mem = clCreateBuffer(context, flags, size, host_ptr, nullptr);
    CHECK(mem == nullptr);
    if (mem)
        clReleaseMemObject(mem);
    // clCreateBufferWithProperties answers the same.
    const cl_mem_properties none[] = {0};
    cl_int error2 = CL_SUCCESS;
    mem = clCreateBufferWithProperties(context, none, flags, size, host_ptr, &error2);
    CHECK(mem == nullptr);
    if (mem)
        clReleaseMemObject(mem);
    CHECK(Status{error2} == Status{error});
    return error;
}

// The rectangle of the Rect tests, within 256-byte buffer and host ranges.
struct Rect {
    std::array<size_t, 3> buffer_origin{2, 1, 0};
    std::array<size_t, 3> host_origin{1, 2, 1};
    std::array<size_t, 3> region{5, 3, 2};
    size_t buffer_row = 16, buffer_slice = 128, host_row = 12, host_slice = 72;

    size_t buffer_offset(size_t x, size_t y, size_t z) const {
        return (buffer_origin[2] + z) * buffer_slice + (buffer_origin[1] + y) * buffer_row +
               buffer_origin[0] + x;
    }
    size_t host_offset(size_t x, size_t y, size_t z) const {
        return (host_origin[2] + z) * host_slice + (host_origin[1] + y) * host_row +
               host_origin[0] + x;
    }
    // to with the rectangle of from copied in (buffer to host or host to buffer).
    Bytes copied(const Bytes& from, Bytes to, bool to_host) const {
        for (size_t z = 0; z < region[2]; ++z)
            for (size_t y = 0; y < region[1]; ++y)
                for (size_t x = 0; x < region[0]; ++x) {
                    if (to_host)
                        to[host_offset(x, y, z)] = from[buffer_offset(x, y, z)];
                    else
                        to[buffer_offset(x, y, z)] = from[host_offset(x, y, z)];
                }
        return to;
    }
};
constexpr size_t rect_size = 256;

cl_int read_rect(cl_command_queue queue, cl_mem mem, cl_bool blocking, const Rect& r, void* ptr,
                 cl_event* event = nullptr) {
    return clEnqueueReadBufferRect(
        queue, mem, blocking, r.buffer_origin.data(), r.host_origin.data(), r.region.data(),
        r.buffer_row, r.buffer_slice, r.host_row, r.host_slice, ptr, 0, nullptr, event);
}

cl_int write_rect(cl_command_queue queue, cl_mem mem, cl_bool blocking, const Rect& r,
                  const void* ptr, cl_event* event = nullptr) {
    return clEnqueueWriteBufferRect(
        queue, mem, blocking, r.buffer_origin.data(), r.host_origin.data(), r.region.data(),
        r.buffer_row, r.buffer_slice, r.host_row, r.host_slice, ptr, 0, nullptr, event);
}

} // namespace

// ---------------------------------------------------------------------------
// Creating buffers (issues 20 and 21).

TEST_CASE("CL_MEM_USE_HOST_PTR with USM of the context: CL_INVALID_HOST_PTR", "[interop][create]") {
    Fixture f;
    for (Kind kind : all_kinds) {
        Allocation a(f.usm, f.ctx(), f.device, f.q(), kind, 4096);
        for (size_t offset : {size_t{0}, size_t{128}, size_t{1}}) {
            INFO(kind_name(kind) << " USM, offset " << offset);
            for (cl_mem_flags access : {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY})
                CHECK_CL(
                    create_error(f.ctx(), access | CL_MEM_USE_HOST_PTR, 1024, a.ptr() + offset),
                    CL_INVALID_HOST_PTR);
        }
    }
    // The same with a shared allocation that has no device.
    cl_int error = CL_OUT_OF_RESOURCES;
    void* s = f.usm.shared_alloc(f.ctx(), nullptr, nullptr, 4096, 0, &error);
    REQUIRE_OK(error);
    CHECK_CL(create_error(f.ctx(), CL_MEM_USE_HOST_PTR, 4096, s), CL_INVALID_HOST_PTR);
    CHECK_OK(f.usm.free(f.ctx(), s));
}

TEST_CASE("CL_MEM_COPY_HOST_PTR from host USM copies the data", "[interop][create]") {
    Fixture f;
    constexpr size_t size = 5000;
    Allocation a(f.usm, f.ctx(), f.device, f.q(), Kind::host, size);
    const Bytes initial = pattern(size, 1);
    a.set(initial);
    for (cl_mem_flags flags : {CL_MEM_COPY_HOST_PTR, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY,
                               CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR}) {
        INFO("flags 0x" << std::hex << flags);
        MemPtr mem = make_buffer(f.ctx(), flags, size, a.ptr());
        // A copy: the USM may change afterwards.
        std::memset(a.ptr(), 0, size);
        CHECK(read_all(f.q(), mem.get(), size) == initial);
        a.set(initial);
        // From an interior pointer, a part.
        MemPtr part = make_buffer(f.ctx(), flags, 1000, a.ptr() + 77);
        CHECK(read_all(f.q(), part.get(), 1000) ==
              Bytes(initial.begin() + 77, initial.begin() + 1077));
    }
}

TEST_CASE("CL_MEM_COPY_HOST_PTR from device or shared USM: CL_INVALID_HOST_PTR",
          "[interop][create]") {
    Fixture f;
    for (Kind kind : {Kind::device, Kind::shared}) {
        Allocation a(f.usm, f.ctx(), f.device, f.q(), kind, 4096);
        for (cl_mem_flags flags : {CL_MEM_COPY_HOST_PTR, CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY,
                                   CL_MEM_COPY_HOST_PTR | CL_MEM_ALLOC_HOST_PTR})
            for (size_t offset : {size_t{0}, size_t{64}}) {
                INFO(kind_name(kind)
                     << " USM, flags 0x" << std::hex << flags << std::dec << ", offset " << offset);
                CHECK_CL(create_error(f.ctx(), flags, 2048, a.ptr() + offset), CL_INVALID_HOST_PTR);
            }
    }
}

// ---------------------------------------------------------------------------
// Reads and writes (issue 22).

TEST_CASE("clEnqueueReadBuffer and clEnqueueWriteBuffer with host and device USM",
          "[interop][transfer]") {
    Fixture f;
    constexpr size_t size = 70000;
    for (Kind kind : {Kind::host, Kind::device})
        for (cl_bool blocking : {CL_TRUE, CL_FALSE}) {
            INFO(kind_name(kind) << (blocking ? " blocking" : " non-blocking"));
            Allocation source(f.usm, f.ctx(), f.device, f.q(), kind, size);
            Allocation target(f.usm, f.ctx(), f.device, f.q(), kind, size);
            const Bytes data = pattern(size, 2 + blocking);
            source.set(data);
            target.set(Bytes(size, 0xEE));
            MemPtr mem = buffer_with(f.ctx(), Bytes(size, 0));

            // The whole range, USM -> buffer -> USM.
            cl_event raw = nullptr;
            REQUIRE_OK(clEnqueueWriteBuffer(f.q(), mem.get(), blocking, 0, size, source.ptr(), 0,
                                            nullptr, &raw));
            EventPtr written(raw);
            REQUIRE_OK(clEnqueueReadBuffer(f.q(), mem.get(), blocking, 0, size, target.ptr(), 0,
                                           nullptr, &raw));
            EventPtr read(raw);
            REQUIRE(wait_bounded(read.get()));
            CHECK(event_status(written.get()) == CL_COMPLETE);
            CHECK(event_status(read.get()) == CL_COMPLETE);
            CHECK(target.get() == data);
            CHECK(read_all(f.q(), mem.get(), size) == data);

            // A part at an offset, from an interior pointer, into an interior pointer.
            target.set(Bytes(size, 0x11));
            REQUIRE_OK(clEnqueueWriteBuffer(f.q(), mem.get(), CL_TRUE, 100, 333,
                                            source.ptr() + 5000, 0, nullptr, nullptr));
            REQUIRE_OK(clEnqueueReadBuffer(f.q(), mem.get(), CL_TRUE, 90, 500, target.ptr() + 7, 0,
                                           nullptr, nullptr));
            Bytes buffer_model = data;
            std::copy(data.begin() + 5000, data.begin() + 5333, buffer_model.begin() + 100);
            Bytes target_model(size, 0x11);
            std::copy(buffer_model.begin() + 90, buffer_model.begin() + 590,
                      target_model.begin() + 7);
            CHECK(target.get() == target_model);
            CHECK(read_all(f.q(), mem.get(), size) == buffer_model);
        }
}

TEST_CASE("clEnqueueReadBuffer and clEnqueueWriteBuffer with shared USM: CL_INVALID_HOST_PTR",
          "[interop][transfer]") {
    Fixture f;
    constexpr size_t size = 4096;
    Allocation shared(f.usm, f.ctx(), f.device, f.q(), Kind::shared, size);
    const Bytes usm_bytes = pattern(size, 3);
    const Bytes buffer_bytes = pattern(size, 4);
    shared.set(usm_bytes);
    MemPtr mem = buffer_with(f.ctx(), buffer_bytes);
    for (cl_bool blocking : {CL_TRUE, CL_FALSE})
        for (size_t offset : {size_t{0}, size_t{1}, size_t{2048}}) {
            INFO((blocking ? "blocking" : "non-blocking") << ", offset " << offset);
            cl_event event = nullptr;
            CHECK_CL(clEnqueueReadBuffer(f.q(), mem.get(), blocking, 0, 1024, shared.ptr() + offset,
                                         0, nullptr, &event),
                     CL_INVALID_HOST_PTR);
            CHECK(event == nullptr);
            CHECK_CL(clEnqueueWriteBuffer(f.q(), mem.get(), blocking, 0, 1024,
                                          shared.ptr() + offset, 0, nullptr, &event),
                     CL_INVALID_HOST_PTR);
            CHECK(event == nullptr);
        }
    REQUIRE_OK(clFinish(f.q()));
    CHECK(shared.get() == usm_bytes);
    CHECK(read_all(f.q(), mem.get(), size) == buffer_bytes);

    // A shared allocation without a device too.
    cl_int error = CL_OUT_OF_RESOURCES;
    void* s = f.usm.shared_alloc(f.ctx(), nullptr, nullptr, size, 0, &error);
    REQUIRE_OK(error);
    CHECK_CL(clEnqueueReadBuffer(f.q(), mem.get(), CL_TRUE, 0, size, s, 0, nullptr, nullptr),
             CL_INVALID_HOST_PTR);
    CHECK_CL(clEnqueueWriteBuffer(f.q(), mem.get(), CL_TRUE, 0, size, s, 0, nullptr, nullptr),
             CL_INVALID_HOST_PTR);
    CHECK_OK(f.usm.free(f.ctx(), s));
}

TEST_CASE("clEnqueueReadBufferRect and clEnqueueWriteBufferRect with host and device USM",
          "[interop][transfer][rect]") {
    Fixture f;
    const Rect r;
    for (Kind kind : {Kind::host, Kind::device})
        for (cl_bool blocking : {CL_TRUE, CL_FALSE}) {
            INFO(kind_name(kind) << (blocking ? " blocking" : " non-blocking"));
            Allocation host_side(f.usm, f.ctx(), f.device, f.q(), kind, rect_size);

            // Write: USM rectangle -> buffer.
            const Bytes source = pattern(rect_size, 5);
            const Bytes buffer_initial(rect_size, 0);
            host_side.set(source);
            MemPtr mem = buffer_with(f.ctx(), buffer_initial);
            cl_event raw = nullptr;
            REQUIRE_OK(write_rect(f.q(), mem.get(), blocking, r, host_side.ptr(), &raw));
            EventPtr written(raw);
            REQUIRE(wait_bounded(written.get()));
            CHECK(event_status(written.get()) == CL_COMPLETE);
            CHECK(read_all(f.q(), mem.get(), rect_size) == r.copied(source, buffer_initial, false));

            // Read: buffer rectangle -> USM.
            const Bytes buffer_bytes = pattern(rect_size, 6);
            MemPtr full = buffer_with(f.ctx(), buffer_bytes);
            const Bytes host_initial(rect_size, 0xEE);
            host_side.set(host_initial);
            REQUIRE_OK(read_rect(f.q(), full.get(), blocking, r, host_side.ptr(), &raw));
            EventPtr read(raw);
            REQUIRE(wait_bounded(read.get()));
            CHECK(event_status(read.get()) == CL_COMPLETE);
            CHECK(host_side.get() == r.copied(buffer_bytes, host_initial, true));
        }
}

TEST_CASE("clEnqueueReadBufferRect and clEnqueueWriteBufferRect with shared USM: "
          "CL_INVALID_HOST_PTR",
          "[interop][transfer][rect]") {
    Fixture f;
    const Rect r;
    Allocation shared(f.usm, f.ctx(), f.device, f.q(), Kind::shared, rect_size + 64);
    const Bytes usm_bytes = pattern(rect_size + 64, 7);
    const Bytes buffer_bytes = pattern(rect_size, 8);
    shared.set(usm_bytes);
    MemPtr mem = buffer_with(f.ctx(), buffer_bytes);
    for (cl_bool blocking : {CL_TRUE, CL_FALSE})
        for (size_t offset : {size_t{0}, size_t{3}, size_t{64}}) {
            INFO((blocking ? "blocking" : "non-blocking") << ", offset " << offset);
            cl_event event = nullptr;
            CHECK_CL(read_rect(f.q(), mem.get(), blocking, r, shared.ptr() + offset, &event),
                     CL_INVALID_HOST_PTR);
            CHECK(event == nullptr);
            CHECK_CL(write_rect(f.q(), mem.get(), blocking, r, shared.ptr() + offset, &event),
                     CL_INVALID_HOST_PTR);
            CHECK(event == nullptr);
        }
    REQUIRE_OK(clFinish(f.q()));
    CHECK(shared.get() == usm_bytes);
    CHECK(read_all(f.q(), mem.get(), rect_size) == buffer_bytes);
}

// ---------------------------------------------------------------------------
// Fill patterns (issue 23).

TEST_CASE("clEnqueueFillBuffer with a pattern in host USM", "[interop][fill]") {
    Fixture f;
    constexpr size_t size = 4096;
    Allocation a(f.usm, f.ctx(), f.device, f.q(), Kind::host, 256);
    a.set(pattern(256, 9));
    for (size_t pattern_size : {size_t{1}, size_t{2}, size_t{4}, size_t{16}, size_t{128}}) {
        INFO("pattern size " << pattern_size);
        MemPtr mem = buffer_with(f.ctx(), Bytes(size, 0));
        const size_t offset = pattern_size * 3;
        const size_t length = size - pattern_size * 5;
        cl_event raw = nullptr;
        REQUIRE_OK(clEnqueueFillBuffer(f.q(), mem.get(), a.ptr() + 64, pattern_size, offset, length,
                                       0, nullptr, &raw));
        EventPtr filled(raw);
        // The pattern's memory may change once the call returned.
        std::memset(a.ptr(), 0, 256);
        REQUIRE(wait_bounded(filled.get()));
        CHECK(event_status(filled.get()) == CL_COMPLETE);
        const Bytes expected_pattern = pattern(256, 9);
        Bytes model(size, 0);
        for (size_t i = 0; i < length; ++i)
            model[offset + i] = expected_pattern[64 + i % pattern_size];
        CHECK(read_all(f.q(), mem.get(), size) == model);
        a.set(pattern(256, 9));
    }
}

TEST_CASE("clEnqueueFillBuffer with a pattern in device or shared USM: CL_INVALID_HOST_PTR",
          "[interop][fill]") {
    Fixture f;
    const Bytes buffer_bytes = pattern(1024, 10);
    MemPtr mem = buffer_with(f.ctx(), buffer_bytes);
    for (Kind kind : {Kind::device, Kind::shared}) {
        Allocation a(f.usm, f.ctx(), f.device, f.q(), kind, 256);
        a.set(pattern(256, 11));
        for (size_t pattern_size : {size_t{1}, size_t{4}, size_t{64}})
            for (size_t offset : {size_t{0}, size_t{128}}) {
                INFO(kind_name(kind)
                     << " USM, pattern size " << pattern_size << ", offset " << offset);
                cl_event event = nullptr;
                CHECK_CL(clEnqueueFillBuffer(f.q(), mem.get(), a.ptr() + offset, pattern_size, 0,
                                             1024, 0, nullptr, &event),
                         CL_INVALID_HOST_PTR);
                CHECK(event == nullptr);
            }
    }
    REQUIRE_OK(clFinish(f.q()));
    CHECK(read_all(f.q(), mem.get(), 1024) == buffer_bytes);
}

// ---------------------------------------------------------------------------
// USM of another context is plain host memory.

TEST_CASE("USM of another context works as host memory with the cl_mem API",
          "[interop][other-context]") {
    Fixture f;
    ContextPtr other = make_context({f.device});
    QueuePtr other_queue = make_queue(other.get(), f.device);
    constexpr size_t size = 4096;

    for (Kind kind : all_kinds) {
        INFO(kind_name(kind) << " USM of another context");
        Allocation a(f.usm, other.get(), f.device, other_queue.get(), kind, size);
        const Bytes data = pattern(size, 12);
        a.set(data);

        SECTION(std::string("CL_MEM_USE_HOST_PTR, ") + kind_name(kind)) {
            cl_int error = CL_OUT_OF_RESOURCES;
            cl_mem raw = clCreateBuffer(f.ctx(), CL_MEM_USE_HOST_PTR, size, a.ptr(), &error);
            REQUIRE_OK(error);
            MemPtr mem(raw);
            void* host_ptr = nullptr;
            REQUIRE_OK(clGetMemObjectInfo(mem.get(), CL_MEM_HOST_PTR, sizeof host_ptr, &host_ptr,
                                          nullptr));
            CHECK(host_ptr == a.ptr());
            CHECK(read_all(f.q(), mem.get(), size) == data);
            const Bytes update = pattern(size, 13);
            REQUIRE_OK(clEnqueueWriteBuffer(f.q(), mem.get(), CL_TRUE, 0, size, update.data(), 0,
                                            nullptr, nullptr));
            // The application's memory holds the buffer's content after a
            // map (a device with memory of its own may cache the buffer there).
            void* mapped = clEnqueueMapBuffer(f.q(), mem.get(), CL_TRUE, CL_MAP_READ, 0, size, 0,
                                              nullptr, nullptr, &error);
            REQUIRE_OK(error);
            CHECK(mapped == a.ptr());
            CHECK(a.get() == update);
            REQUIRE_OK(clEnqueueUnmapMemObject(f.q(), mem.get(), mapped, 0, nullptr, nullptr));
            REQUIRE_OK(clFinish(f.q()));
        }
        SECTION(std::string("CL_MEM_COPY_HOST_PTR, ") + kind_name(kind)) {
            MemPtr mem = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, a.ptr());
            CHECK(read_all(f.q(), mem.get(), size) == data);
        }
        SECTION(std::string("clEnqueueReadBuffer and clEnqueueWriteBuffer, ") + kind_name(kind)) {
            const Bytes buffer_bytes = pattern(size, 14);
            MemPtr mem = buffer_with(f.ctx(), buffer_bytes);
            REQUIRE_OK(clEnqueueReadBuffer(f.q(), mem.get(), CL_TRUE, 0, size, a.ptr(), 0, nullptr,
                                           nullptr));
            CHECK(a.get() == buffer_bytes);
            a.set(data);
            REQUIRE_OK(clEnqueueWriteBuffer(f.q(), mem.get(), CL_TRUE, 0, size, a.ptr(), 0, nullptr,
                                            nullptr));
            CHECK(read_all(f.q(), mem.get(), size) == data);
        }
        SECTION(std::string("clEnqueueReadBufferRect and clEnqueueWriteBufferRect, ") +
                kind_name(kind)) {
            const Rect r;
            const Bytes buffer_bytes = pattern(rect_size, 15);
            MemPtr mem = buffer_with(f.ctx(), buffer_bytes);
            REQUIRE_OK(read_rect(f.q(), mem.get(), CL_TRUE, r, a.ptr()));
            CHECK(a.get() == [&] {
                Bytes host_model(data.begin(), data.begin() + rect_size);
                host_model = r.copied(buffer_bytes, host_model, true);
                host_model.insert(host_model.end(), data.begin() + rect_size, data.end());
                return host_model;
            }());
            a.set(data);
            REQUIRE_OK(write_rect(f.q(), mem.get(), CL_TRUE, r, a.ptr()));
            CHECK(read_all(f.q(), mem.get(), rect_size) ==
                  r.copied(Bytes(data.begin(), data.begin() + rect_size), buffer_bytes, false));
        }
        SECTION(std::string("clEnqueueFillBuffer, ") + kind_name(kind)) {
            MemPtr mem = buffer_with(f.ctx(), Bytes(1024, 0));
            REQUIRE_OK(clEnqueueFillBuffer(f.q(), mem.get(), a.ptr() + 8, 8, 0, 1024, 0, nullptr,
                                           nullptr));
            REQUIRE_OK(clFinish(f.q()));
            Bytes model(1024);
            for (size_t i = 0; i < model.size(); ++i)
                model[i] = data[8 + i % 8];
            CHECK(read_all(f.q(), mem.get(), 1024) == model);
        }
    }
}
