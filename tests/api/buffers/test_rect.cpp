// clEnqueueReadBufferRect, clEnqueueWriteBufferRect and
// clEnqueueCopyBufferRect: random pitches and origins against a host model
// of the rectangle copy, every pitch rule, bounds and overlap.
#include "buffer_test.hpp"

#include <cstdint>

using namespace cl_test;
using namespace buffer_test;

namespace {

using Triple = std::array<size_t, 3>;

// A random rectangle placement: region, origin and the pitches passed to the
// API (0 sometimes, meaning "computed"), within a memory of capacity bytes.
struct Placement {
    Triple origin;
    size_t row_pitch;   // as passed
    size_t slice_pitch; // as passed
    Layout layout;      // resolved
};

Triple random_region(Random& random) {
    return {random.between(1, 40), random.between(1, 6), random.between(1, 4)};
}

// A placement of region that fits in capacity bytes; false if it could not.
bool random_placement(Random& random, const Triple& region, size_t capacity, Placement& out) {
    for (int attempt = 0; attempt < 20; ++attempt) {
        const bool packed_rows = random.chance(20);
        const size_t row_pitch = packed_rows ? 0 : region[0] + random.between(0, 24);
        const size_t row = row_pitch ? row_pitch : region[0];
        const bool packed_slices = random.chance(20);
        const size_t slice_pitch = packed_slices ? 0 : row * (region[1] + random.between(0, 3));
        const Layout layout = Layout::resolve(region, row_pitch, slice_pitch);
        const Triple origin{random.between(0, 16), random.between(0, 3), random.between(0, 2)};
        if (layout.end(origin, region) <= capacity) {
            out = {origin, row_pitch, slice_pitch, layout};
            return true;
        }
    }
    return false;
}

} // namespace

TEST_CASE("clEnqueueReadBufferRect and clEnqueueWriteBufferRect match a host model",
          "[rect][transfer]") {
    Fixture f;
    Random random(20);
    const size_t align = base_address_alignment(f.device);
    const size_t size = 64 * align + 17;
    Bytes model = random.bytes(size);
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, model.data());
    MemPtr sub = make_sub_buffer(mem.get(), 0, 8 * align, size - 8 * align);
    constexpr size_t host_size = 16 * 1024;
    int done = 0;
    for (int step = 0; step < 400; ++step) {
        const bool through_sub = random.chance(30);
        const size_t base = through_sub ? 8 * align : 0;
        const Triple region = random_region(random);
        Placement buffer_place;
        Placement host_place;
        if (!random_placement(random, region, size - base, buffer_place) ||
            !random_placement(random, region, host_size, host_place))
            continue;
        ++done;
        const bool read = random.chance(50);
        const bool blocking = random.chance(60);
        INFO("step " << step << (read ? ": read" : ": write") << " region " << region[0] << "x"
                     << region[1] << "x" << region[2] << ", buffer origin "
                     << buffer_place.origin[0] << "," << buffer_place.origin[1] << ","
                     << buffer_place.origin[2] << " pitches " << buffer_place.row_pitch << "/"
                     << buffer_place.slice_pitch << ", host origin " << host_place.origin[0] << ","
                     << host_place.origin[1] << "," << host_place.origin[2] << " pitches "
                     << host_place.row_pitch << "/" << host_place.slice_pitch
                     << (through_sub ? ", through a sub-buffer" : ""));
        Bytes host = random.bytes(host_size);
        Bytes host_expected = host;
        cl_event event = nullptr;
        if (read) {
            REQUIRE_OK(clEnqueueReadBufferRect(
                f.q(), through_sub ? sub.get() : mem.get(), blocking, buffer_place.origin.data(),
                host_place.origin.data(), region.data(), buffer_place.row_pitch,
                buffer_place.slice_pitch, host_place.row_pitch, host_place.slice_pitch, host.data(),
                0, nullptr, &event));
            reference_rect_copy(host_expected.data(), host_place.origin, host_place.layout,
                                model.data() + base, buffer_place.origin, buffer_place.layout,
                                region);
        } else {
            REQUIRE_OK(clEnqueueWriteBufferRect(
                f.q(), through_sub ? sub.get() : mem.get(), blocking, buffer_place.origin.data(),
                host_place.origin.data(), region.data(), buffer_place.row_pitch,
                buffer_place.slice_pitch, host_place.row_pitch, host_place.slice_pitch, host.data(),
                0, nullptr, &event));
            reference_rect_copy(model.data() + base, buffer_place.origin, buffer_place.layout,
                                host.data(), host_place.origin, host_place.layout, region);
        }
        EventPtr owned(event);
        REQUIRE(wait_final(event) == CL_COMPLETE);
        cl_command_type type = 0;
        REQUIRE_OK(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
        CHECK(type == (read ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT));
        // Reads touch exactly the rectangle of host memory; writes exactly
        // the rectangle of the buffer.
        CHECK_SAME_BYTES(host.data(), host_expected.data(), host_size);
        if (!read || step % 8 == 0) {
            const Bytes content = read_all(f.q(), mem.get(), size);
            REQUIRE_SAME_BYTES(content.data(), model.data(), size);
        }
    }
    CHECK(done > 300);
}

TEST_CASE("clEnqueueCopyBufferRect matches a host model", "[rect][copy]") {
    Fixture f;
    Random random(21);
    const size_t align = base_address_alignment(f.device);
    const size_t size = 48 * align + 3;
    Bytes a_model = random.bytes(size);
    Bytes b_model = random.bytes(size);
    MemPtr a = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, a_model.data());
    MemPtr b = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, b_model.data());
    int copies = 0;
    int overlaps = 0;
    for (int step = 0; step < 400; ++step) {
        const bool within = random.chance(40);
        const bool a_to_b = random.chance(50);
        cl_mem src = within || a_to_b ? a.get() : b.get();
        cl_mem dst = within ? a.get() : (a_to_b ? b.get() : a.get());
        Bytes& src_model = src == a.get() ? a_model : b_model;
        Bytes& dst_model = dst == a.get() ? a_model : b_model;
        const Triple region = random_region(random);
        Placement src_place;
        Placement dst_place;
        if (!random_placement(random, region, size, src_place) ||
            !random_placement(random, region, size, dst_place))
            continue;
        if (within) { // one buffer: one set of pitches
            dst_place.row_pitch = src_place.row_pitch;
            dst_place.slice_pitch = src_place.slice_pitch;
            dst_place.layout = src_place.layout;
            dst_place.origin[0] = random.between(0, 64);
            if (dst_place.layout.end(dst_place.origin, region) > size)
                continue;
        }
        INFO("step " << step << (within ? " within one buffer" : " between buffers") << ": region "
                     << region[0] << "x" << region[1] << "x" << region[2] << ", src origin "
                     << src_place.origin[0] << "," << src_place.origin[1] << ","
                     << src_place.origin[2] << " pitches " << src_place.row_pitch << "/"
                     << src_place.slice_pitch << ", dst origin " << dst_place.origin[0] << ","
                     << dst_place.origin[1] << "," << dst_place.origin[2] << " pitches "
                     << dst_place.row_pitch << "/" << dst_place.slice_pitch);
        const bool overlap =
            within &&
            rects_share_a_byte(src_place.layout.offset(src_place.origin), src_place.layout,
                               dst_place.layout.offset(dst_place.origin), dst_place.layout, region);
        const cl_int result = clEnqueueCopyBufferRect(
            f.q(), src, dst, src_place.origin.data(), dst_place.origin.data(), region.data(),
            src_place.row_pitch, src_place.slice_pitch, dst_place.row_pitch, dst_place.slice_pitch,
            0, nullptr, nullptr);
        if (overlap) {
            ++overlaps;
            CHECK_CL(result, CL_MEM_COPY_OVERLAP);
            continue;
        }
        REQUIRE_OK(result);
        ++copies;
        reference_rect_copy(dst_model.data(), dst_place.origin, dst_place.layout, src_model.data(),
                            src_place.origin, src_place.layout, region);
        if (step % 10 == 0) {
            const Bytes content = read_all(f.q(), dst, size);
            REQUIRE_SAME_BYTES(content.data(), dst_model.data(), size);
        }
    }
    CHECK(copies > 200);
    CHECK(overlaps > 0);
    CHECK_BYTES(read_all(f.q(), a.get(), size), a_model);
    CHECK_BYTES(read_all(f.q(), b.get(), size), b_model);
}

TEST_CASE("clEnqueueCopyBufferRect overlap is exact, rows by rows", "[rect][copy][overlap]") {
    Fixture f;
    Random random(22);
    const size_t align = base_address_alignment(f.device);
    const size_t size = 16 * align;
    Bytes model = random.bytes(size);
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, model.data());
    auto copy = [&](cl_mem src, cl_mem dst, Triple src_origin, Triple dst_origin, Triple region,
                    size_t row_pitch, size_t slice_pitch) {
        return clEnqueueCopyBufferRect(f.q(), src, dst, src_origin.data(), dst_origin.data(),
                                       region.data(), row_pitch, slice_pitch, row_pitch,
                                       slice_pitch, 0, nullptr, nullptr);
    };
    SECTION("one buffer") {
        // Interleaved rows: columns [0, 16) and [16, 32) of rows 32 bytes
        // apart share no byte, though their bounding ranges overlap.
        CHECK_OK(copy(mem.get(), mem.get(), {0, 0, 0}, {16, 0, 0}, {16, 8, 1}, 32, 0));
        reference_rect_copy(model.data(), {16, 0, 0}, Layout::resolve({16, 8, 1}, 32, 0),
                            model.data(), {0, 0, 0}, Layout::resolve({16, 8, 1}, 32, 0),
                            {16, 8, 1});
        // Interleaved slices, the same way.
        CHECK_OK(copy(mem.get(), mem.get(), {0, 0, 0}, {0, 2, 0}, {8, 2, 3}, 16, 64));
        reference_rect_copy(model.data(), {0, 2, 0}, Layout::resolve({8, 2, 3}, 16, 64),
                            model.data(), {0, 0, 0}, Layout::resolve({8, 2, 3}, 16, 64), {8, 2, 3});
        // Overlapping: one byte in common.
        CHECK_CL(copy(mem.get(), mem.get(), {0, 0, 0}, {15, 0, 0}, {16, 8, 1}, 32, 0),
                 CL_MEM_COPY_OVERLAP);
        CHECK_CL(copy(mem.get(), mem.get(), {0, 0, 0}, {0, 7, 0}, {16, 8, 1}, 32, 0),
                 CL_MEM_COPY_OVERLAP);
        CHECK_CL(copy(mem.get(), mem.get(), {4, 1, 0}, {0, 0, 0}, {16, 4, 2}, 32, 256),
                 CL_MEM_COPY_OVERLAP);
        CHECK_CL(copy(mem.get(), mem.get(), {0, 0, 0}, {0, 0, 0}, {1, 1, 1}, 0, 0),
                 CL_MEM_COPY_OVERLAP);
        CHECK_CL(copy(mem.get(), mem.get(), {0, 0, 1}, {0, 1, 0}, {8, 2, 2}, 16, 48),
                 CL_MEM_COPY_OVERLAP);
    }
    SECTION("two overlapping sub-buffers of one parent") {
        MemPtr first = make_sub_buffer(mem.get(), 0, 0, 8 * align);
        MemPtr second = make_sub_buffer(mem.get(), 0, align, 8 * align);
        // Rows of align / 2 bytes: second's row 0 is first's row 2.
        const size_t row = align / 2;
        CHECK_CL(copy(first.get(), second.get(), {0, 2, 0}, {0, 0, 0}, {8, 4, 1}, row, 0),
                 CL_MEM_COPY_OVERLAP);
        CHECK_CL(copy(first.get(), second.get(), {0, 2, 0}, {4, 0, 0}, {8, 4, 1}, row, 0),
                 CL_MEM_COPY_OVERLAP);
        // Columns beside each other: no byte in common.
        CHECK_OK(copy(first.get(), second.get(), {0, 2, 0}, {8, 0, 0}, {8, 4, 1}, row, 0));
        reference_rect_copy(model.data() + align, {8, 0, 0}, Layout::resolve({8, 4, 1}, row, 0),
                            model.data(), {0, 2, 0}, Layout::resolve({8, 4, 1}, row, 0), {8, 4, 1});
        CHECK_OK(copy(first.get(), second.get(), {0, 0, 0}, {0, 8, 0}, {8, 4, 1}, row, 0));
        reference_rect_copy(model.data() + align, {0, 8, 0}, Layout::resolve({8, 4, 1}, row, 0),
                            model.data(), {0, 0, 0}, Layout::resolve({8, 4, 1}, row, 0), {8, 4, 1});
    }
    CHECK_BYTES(read_all(f.q(), mem.get(), size), model);
}

TEST_CASE("clEnqueueCopyBufferRect within one buffer rejects different pitches only when both "
          "differ",
          "[rect][copy][pitch]") {
    // CL_INVALID_VALUE if src_buffer and dst_buffer are the same buffer
    // object and src_slice_pitch is not equal to dst_slice_pitch and
    // src_row_pitch is not equal to dst_row_pitch.
    Fixture f;
    Random random(23);
    constexpr size_t size = 4096;
    Bytes model = random.bytes(size);
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, model.data());
    const Triple region{8, 2, 2};
    const Triple src_origin{0, 0, 0};
    const Triple dst_origin{0, 0, 8};
    auto copy = [&](size_t src_row, size_t src_slice, size_t dst_row, size_t dst_slice) {
        return clEnqueueCopyBufferRect(f.q(), mem.get(), mem.get(), src_origin.data(),
                                       dst_origin.data(), region.data(), src_row, src_slice,
                                       dst_row, dst_slice, 0, nullptr, nullptr);
    };
    CHECK_CL(copy(16, 64, 32, 128), CL_INVALID_VALUE);
    CHECK_CL(copy(16, 0, 8, 0), CL_INVALID_VALUE); // 16/32 against 8/16
    SECTION("only the slice pitches differ") {
        REQUIRE_OK(copy(16, 64, 16, 128));
        reference_rect_copy(model.data(), dst_origin, Layout::resolve(region, 16, 128),
                            model.data(), src_origin, Layout::resolve(region, 16, 64), region);
    }
    SECTION("only the row pitches differ") {
        REQUIRE_OK(copy(16, 64, 32, 64));
        reference_rect_copy(model.data(), dst_origin, Layout::resolve(region, 32, 64), model.data(),
                            src_origin, Layout::resolve(region, 16, 64), region);
    }
    CHECK_BYTES(read_all(f.q(), mem.get(), size), model);
}

TEST_CASE("the Rect entry points enforce every pitch rule", "[rect][pitch][errors]") {
    Fixture f;
    constexpr size_t size = 8192;
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
    MemPtr other = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
    Bytes host(size);
    const Triple zero{0, 0, 0};
    // Status of each entry point for one region and pitches; the host (or
    // destination) side uses the given pitches or the buffer's.
    auto read_rect = [&](const Triple& region, size_t brow, size_t bslice, size_t hrow,
                         size_t hslice) {
        return clEnqueueReadBufferRect(f.q(), mem.get(), CL_TRUE, zero.data(), zero.data(),
                                       region.data(), brow, bslice, hrow, hslice, host.data(), 0,
                                       nullptr, nullptr);
    };
    auto write_rect = [&](const Triple& region, size_t brow, size_t bslice, size_t hrow,
                          size_t hslice) {
        return clEnqueueWriteBufferRect(f.q(), mem.get(), CL_TRUE, zero.data(), zero.data(),
                                        region.data(), brow, bslice, hrow, hslice, host.data(), 0,
                                        nullptr, nullptr);
    };
    auto copy_rect = [&](const Triple& region, size_t srow, size_t sslice, size_t drow,
                         size_t dslice) {
        return clEnqueueCopyBufferRect(f.q(), mem.get(), other.get(), zero.data(), zero.data(),
                                       region.data(), srow, sslice, drow, dslice, 0, nullptr,
                                       nullptr);
    };
    const Triple region{16, 4, 2};
    struct Pitches {
        size_t row, slice;
        const char* why;
    };
    // Wrong everywhere: a row pitch below region[0]; a slice pitch below
    // region[1] * row pitch and not a multiple of the row pitch.
    const Pitches bad[] = {
        {15, 0, "row pitch below region[0]"},
        {1, 0, "row pitch of 1"},
        {16, 63, "slice pitch below region[1] * row pitch, not a multiple"},
        {0, 30, "slice pitch below region[1] * computed row pitch, not a multiple"},
        {20, 50, "slice pitch below region[1] * row pitch, not a multiple"},
    };
    // clEnqueueCopyBufferRect says "less than ... or not a multiple": each
    // alone is wrong there.
    const Pitches bad_for_copy[] = {
        {16, 48, "slice pitch below region[1] * row pitch, a multiple"},
        {16, 72, "slice pitch not a multiple of the row pitch"},
        {20, 90, "slice pitch not a multiple of the row pitch"},
        {0, 32, "slice pitch below region[1] * computed row pitch, a multiple"},
    };
    const Pitches good[] = {{0, 0, "computed"},
                            {16, 64, "tight"},
                            {20, 80, "row padding"},
                            {0, 96, "slice padding"},
                            {32, 256, "both"}};
    for (const Pitches& p : bad) {
        INFO(p.why << ": " << p.row << "/" << p.slice);
        CHECK_CL(read_rect(region, p.row, p.slice, 0, 0), CL_INVALID_VALUE);
        CHECK_CL(read_rect(region, 0, 0, p.row, p.slice), CL_INVALID_VALUE);
        CHECK_CL(write_rect(region, p.row, p.slice, 0, 0), CL_INVALID_VALUE);
        CHECK_CL(write_rect(region, 0, 0, p.row, p.slice), CL_INVALID_VALUE);
        CHECK_CL(copy_rect(region, p.row, p.slice, 0, 0), CL_INVALID_VALUE);
        CHECK_CL(copy_rect(region, 0, 0, p.row, p.slice), CL_INVALID_VALUE);
    }
    for (const Pitches& p : bad_for_copy) {
        INFO(p.why << ": " << p.row << "/" << p.slice);
        CHECK_CL(copy_rect(region, p.row, p.slice, 0, 0), CL_INVALID_VALUE);
        CHECK_CL(copy_rect(region, 0, 0, p.row, p.slice), CL_INVALID_VALUE);
    }
    for (const Pitches& p : good) {
        INFO(p.why << ": " << p.row << "/" << p.slice);
        CHECK_OK(read_rect(region, p.row, p.slice, p.row, p.slice));
        CHECK_OK(write_rect(region, p.row, p.slice, 0, 0));
        CHECK_OK(copy_rect(region, p.row, p.slice, p.row, p.slice));
    }
    // A region with a 0.
    for (const Triple& empty : {Triple{0, 1, 1}, Triple{1, 0, 1}, Triple{1, 1, 0}}) {
        CHECK_CL(read_rect(empty, 0, 0, 0, 0), CL_INVALID_VALUE);
        CHECK_CL(write_rect(empty, 0, 0, 0, 0), CL_INVALID_VALUE);
        CHECK_CL(copy_rect(empty, 0, 0, 0, 0), CL_INVALID_VALUE);
    }
    // NULL origins, region and host pointer.
    CHECK_CL(clEnqueueReadBufferRect(f.q(), mem.get(), CL_TRUE, nullptr, zero.data(), region.data(),
                                     0, 0, 0, 0, host.data(), 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueReadBufferRect(f.q(), mem.get(), CL_TRUE, zero.data(), nullptr, region.data(),
                                     0, 0, 0, 0, host.data(), 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueWriteBufferRect(f.q(), mem.get(), CL_TRUE, zero.data(), zero.data(), nullptr,
                                      0, 0, 0, 0, host.data(), 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueReadBufferRect(f.q(), mem.get(), CL_TRUE, zero.data(), zero.data(),
                                     region.data(), 0, 0, 0, 0, nullptr, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueWriteBufferRect(f.q(), mem.get(), CL_TRUE, zero.data(), zero.data(),
                                      region.data(), 0, 0, 0, 0, nullptr, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueCopyBufferRect(f.q(), mem.get(), other.get(), nullptr, zero.data(),
                                     region.data(), 0, 0, 0, 0, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueCopyBufferRect(f.q(), mem.get(), other.get(), zero.data(), zero.data(),
                                     nullptr, 0, 0, 0, 0, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    finish(f.q());
}

TEST_CASE("the Rect entry points reject rectangles out of the buffer", "[rect][bounds][errors]") {
    Fixture f;
    constexpr size_t size = 4096;
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
    MemPtr other = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
    Bytes host(size);
    const Triple zero{0, 0, 0};
    auto all_three = [&](const Triple& origin, const Triple& region, size_t row, size_t slice) {
        CHECK_CL(clEnqueueReadBufferRect(f.q(), mem.get(), CL_TRUE, origin.data(), zero.data(),
                                         region.data(), row, slice, 0, 0, host.data(), 0, nullptr,
                                         nullptr),
                 CL_INVALID_VALUE);
        CHECK_CL(clEnqueueWriteBufferRect(f.q(), mem.get(), CL_TRUE, origin.data(), zero.data(),
                                          region.data(), row, slice, 0, 0, host.data(), 0, nullptr,
                                          nullptr),
                 CL_INVALID_VALUE);
        CHECK_CL(clEnqueueCopyBufferRect(f.q(), mem.get(), other.get(), origin.data(), zero.data(),
                                         region.data(), row, slice, 0, 0, 0, nullptr, nullptr),
                 CL_INVALID_VALUE);
        CHECK_CL(clEnqueueCopyBufferRect(f.q(), other.get(), mem.get(), zero.data(), origin.data(),
                                         region.data(), 0, 0, row, slice, 0, nullptr, nullptr),
                 CL_INVALID_VALUE);
    };
    SECTION("one byte past the end") {
        // 64 x 16 x 4 with pitches 64/1024 ends exactly at 4096.
        const Triple region{64, 16, 4};
        CHECK_OK(clEnqueueReadBufferRect(f.q(), mem.get(), CL_TRUE, zero.data(), zero.data(),
                                         region.data(), 64, 1024, 0, 0, host.data(), 0, nullptr,
                                         nullptr));
        all_three({1, 0, 0}, region, 64, 1024);
        all_three({0, 0, 0}, {64, 16, 5}, 64, 1024);
        all_three({0, 1, 0}, region, 64, 1024);
        all_three({0, 0, 1}, region, 64, 1024);
        all_three({0, 0, 0}, {65, 16, 4}, 65, 0);
    }
    finish(f.q());
}

TEST_CASE("clEnqueueReadBufferRect and clEnqueueWriteBufferRect accept a slice pitch that is "
          "large enough but not a multiple of the row pitch",
          "[rect][pitch]") {
    // Their rule: CL_INVALID_VALUE if the slice pitch is not 0 and is less
    // than region[1] * row pitch and not a multiple of the row pitch. A slice
    // pitch of at least region[1] * row pitch is valid.
    Fixture f;
    Random random(24);
    constexpr size_t size = 4096;
    Bytes model = random.bytes(size);
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, model.data());
    const Triple region{16, 4, 3};
    const Triple origin{3, 1, 1};
    const Layout odd = Layout::resolve(region, 16, 72);
    const Layout packed = Layout::resolve(region, 0, 0);
    const Bytes data = random.bytes(region[0] * region[1] * region[2]);
    CHECK_OK(clEnqueueWriteBufferRect(f.q(), mem.get(), CL_TRUE, origin.data(),
                                      Triple{0, 0, 0}.data(), region.data(), 16, 72, 0, 0,
                                      data.data(), 0, nullptr, nullptr));
    reference_rect_copy(model.data(), origin, odd, data.data(), {0, 0, 0}, packed, region);
    CHECK_BYTES(read_all(f.q(), mem.get(), size), model);
    Bytes host(1024, 0);
    Bytes expected = host;
    const Layout host_layout = Layout::resolve(region, 20, 90);
    CHECK_OK(clEnqueueReadBufferRect(f.q(), mem.get(), CL_TRUE, origin.data(),
                                     Triple{1, 0, 0}.data(), region.data(), 16, 72, 20, 90,
                                     host.data(), 0, nullptr, nullptr));
    reference_rect_copy(expected.data(), {1, 0, 0}, host_layout, model.data(), origin, odd, region);
    CHECK_BYTES(host, expected);
}

// Last in this program: if the driver computes the wrapped offsets, the
// transfer touches memory outside the buffer.
TEST_CASE("the Rect entry points reject origins whose offset wraps around",
          "[rect][bounds][errors]") {
    Fixture f;
    constexpr size_t size = 4096;
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
    MemPtr other = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
    Bytes host(size);
    const Triple zero{0, 0, 0};
    auto all_three = [&](const Triple& origin, const Triple& region, size_t row, size_t slice) {
        CHECK_CL(clEnqueueReadBufferRect(f.q(), mem.get(), CL_TRUE, origin.data(), zero.data(),
                                         region.data(), row, slice, 0, 0, host.data(), 0, nullptr,
                                         nullptr),
                 CL_INVALID_VALUE);
        CHECK_CL(clEnqueueWriteBufferRect(f.q(), mem.get(), CL_TRUE, origin.data(), zero.data(),
                                          region.data(), row, slice, 0, 0, host.data(), 0, nullptr,
                                          nullptr),
                 CL_INVALID_VALUE);
        CHECK_CL(clEnqueueCopyBufferRect(f.q(), mem.get(), other.get(), origin.data(), zero.data(),
                                         region.data(), row, slice, 0, 0, 0, nullptr, nullptr),
                 CL_INVALID_VALUE);
        CHECK_CL(clEnqueueCopyBufferRect(f.q(), other.get(), mem.get(), zero.data(), origin.data(),
                                         region.data(), 0, 0, row, slice, 0, nullptr, nullptr),
                 CL_INVALID_VALUE);
    };
    // origin[2] * slice pitch is 2^64: the offset wraps to 0.
    const Triple region{4, 1, 1}; // pitches 4 and 4
    all_three({0, 0, size_t{1} << 62}, region, 0, 0);
    // origin[1] * row pitch wraps the same way.
    all_three({0, size_t{1} << 62, 0}, region, 4, 0);
    // origin[0] alone.
    all_three({SIZE_MAX, 0, 0}, region, 0, 0);
    finish(f.q());
}
