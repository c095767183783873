// clEnqueueReadBuffer, clEnqueueWriteBuffer, clEnqueueCopyBuffer and
// clEnqueueFillBuffer: results against a host model (buffers, overlapping
// sub-buffers, every fill pattern size), command types, and threads (errors:
// test_transfer_errors.cpp).
#include "buffer_test.hpp"

#include <cstdint>
#include <functional>
#include <string>

using namespace cl_test;
using namespace buffer_test;

namespace {

// A buffer or sub-buffer and where its bytes lie in the root's model.
struct View {
    cl_mem mem;
    size_t origin;
    size_t size;
    bool is_sub;
};

// Parent of size bytes with sub-buffers at aligned origins, two of which overlap.
struct Family {
    MemPtr parent;
    std::vector<MemPtr> subs;
    std::vector<View> views;
    Bytes model;

    Family(const Fixture& f, size_t size, size_t align, Random& random) {
        model = random.bytes(size);
        parent = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, model.data());
        views.push_back({parent.get(), 0, size, false});
        const std::pair<size_t, size_t> regions[] = {
            {align, 4 * align},         // overlaps the next one
            {3 * align, 4 * align + 5}, // ends at an odd byte
            {8 * align, 2 * align},     // apart from both
            {0, size},                  // the whole parent
        };
        for (const auto& [origin, sub_size] : regions) {
            REQUIRE(origin + sub_size <= size);
            subs.push_back(make_sub_buffer(parent.get(), 0, origin, sub_size));
            views.push_back({subs.back().get(), origin, sub_size, true});
        }
    }
};

} // namespace

TEST_CASE("reads and writes at random offsets agree with a host model", "[transfer]") {
    Fixture f;
    Random random(10);
    constexpr size_t size = 48 * 1024 + 13;
    Bytes model = random.bytes(size);
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, model.data());
    struct PendingRead {
        Bytes data;
        Bytes expected;
        EventPtr event;
    };
    std::vector<PendingRead> pending;
    for (int step = 0; step < 300; ++step) {
        const size_t offset = random.between(0, size - 1);
        const size_t length = random.between(1, std::min<size_t>(size - offset, 4096));
        const bool blocking = random.chance(50);
        INFO("step " << step << ": " << length << " bytes at " << offset);
        if (random.chance(50)) {
            Bytes data = random.bytes(length);
            cl_event event = nullptr;
            REQUIRE_OK(clEnqueueWriteBuffer(f.q(), mem.get(), blocking, offset, length, data.data(),
                                            0, nullptr, &event));
            EventPtr owned(event);
            if (!blocking)
                REQUIRE(wait_final(event) == CL_COMPLETE);
            CHECK(status_of(event) == CL_COMPLETE);
            std::copy(data.begin(), data.end(), model.begin() + static_cast<long>(offset));
        } else {
            PendingRead read{Bytes(length, 0xee),
                             Bytes(model.begin() + static_cast<long>(offset),
                                   model.begin() + static_cast<long>(offset + length)),
                             nullptr};
            cl_event event = nullptr;
            REQUIRE_OK(clEnqueueReadBuffer(f.q(), mem.get(), blocking, offset, length,
                                           read.data.data(), 0, nullptr, &event));
            read.event.reset(event);
            if (blocking)
                CHECK_BYTES(read.data, read.expected);
            else
                pending.push_back(std::move(read));
        }
    }
    finish(f.q());
    for (const PendingRead& read : pending)
        CHECK_BYTES(read.data, read.expected);
    CHECK_BYTES(read_all(f.q(), mem.get(), size), model);
}

TEST_CASE("writes through a sub-buffer are seen through the parent and overlapping sub-buffers",
          "[transfer][sub-buffer]") {
    Fixture f;
    Random random(11);
    const size_t align = base_address_alignment(f.device);
    Family family(f, 12 * align, align, random);
    for (int step = 0; step < 300; ++step) {
        const View& view = random.pick(family.views);
        const size_t offset = random.between(0, view.size - 1);
        const size_t length = random.between(1, view.size - offset);
        INFO("step " << step << ": view at " << view.origin << " (" << view.size << " bytes), "
                     << length << " bytes at " << offset);
        switch (random.between(0, 3)) {
        case 0: { // write
            const Bytes data = random.bytes(length);
            REQUIRE_OK(clEnqueueWriteBuffer(f.q(), view.mem, CL_FALSE, offset, length, data.data(),
                                            0, nullptr, nullptr));
            finish(f.q()); // data must live until the write ran
            std::copy(data.begin(), data.end(),
                      family.model.begin() + static_cast<long>(view.origin + offset));
            break;
        }
        case 1: { // read
            Bytes data(length);
            REQUIRE_OK(clEnqueueReadBuffer(f.q(), view.mem, CL_TRUE, offset, length, data.data(), 0,
                                           nullptr, nullptr));
            const auto* expected = family.model.data() + view.origin + offset;
            CHECK_SAME_BYTES(data.data(), expected, length);
            break;
        }
        case 2: { // fill
            const size_t pattern_size = size_t{1} << random.between(0, 4);
            const size_t first = offset / pattern_size * pattern_size;
            const size_t count = std::max<size_t>(1, length / pattern_size);
            if (first + count * pattern_size > view.size)
                break;
            const Bytes pattern = random.bytes(pattern_size);
            REQUIRE_OK(clEnqueueFillBuffer(f.q(), view.mem, pattern.data(), pattern_size, first,
                                           count * pattern_size, 0, nullptr, nullptr));
            for (size_t i = 0; i < count * pattern_size; ++i)
                family.model[view.origin + first + i] = pattern[i % pattern_size];
            break;
        }
        default: { // copy between two views of the family
            const View& other = random.pick(family.views);
            const size_t dst_offset = random.between(0, other.size - 1);
            const size_t copy_size = std::min(length, other.size - dst_offset);
            const size_t src_begin = view.origin + offset;
            const size_t dst_begin = other.origin + dst_offset;
            const bool overlap =
                src_begin < dst_begin + copy_size && dst_begin < src_begin + copy_size;
            // The spec's overlap error covers one object and two sub-buffers
            // of one parent; a parent and its own sub-buffer is left out.
            const bool same_or_subs = view.mem == other.mem || (view.is_sub && other.is_sub);
            if (overlap && !same_or_subs)
                break;
            const cl_int result = clEnqueueCopyBuffer(f.q(), view.mem, other.mem, offset,
                                                      dst_offset, copy_size, 0, nullptr, nullptr);
            if (overlap) {
                CHECK_CL(result, CL_MEM_COPY_OVERLAP);
                break;
            }
            REQUIRE_OK(result);
            std::memmove(family.model.data() + dst_begin, family.model.data() + src_begin,
                         copy_size);
            break;
        }
        }
    }
    CHECK_BYTES(read_all(f.q(), family.parent.get(), family.model.size()), family.model);
}

TEST_CASE("clEnqueueCopyBuffer copies between buffers and within one buffer", "[transfer][copy]") {
    Fixture f;
    Random random(12);
    constexpr size_t size = 20000;
    Bytes a_model = random.bytes(size);
    Bytes b_model = random.bytes(size);
    MemPtr a = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, a_model.data());
    MemPtr b = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR | CL_MEM_READ_ONLY, size, b_model.data());
    for (int step = 0; step < 200; ++step) {
        const bool within = random.chance(40);
        cl_mem src = within ? a.get() : random.pick(std::vector<cl_mem>{a.get(), b.get()});
        cl_mem dst = within ? a.get() : (src == a.get() ? b.get() : a.get());
        Bytes& src_model = src == a.get() ? a_model : b_model;
        Bytes& dst_model = dst == a.get() ? a_model : b_model;
        const size_t length = random.between(1, 3000);
        const size_t src_offset = random.between(0, size - length);
        const size_t dst_offset = random.between(0, size - length);
        INFO("step " << step << ": " << length << " bytes from " << src_offset << " to "
                     << dst_offset);
        const bool overlap =
            within && src_offset < dst_offset + length && dst_offset < src_offset + length;
        cl_event event = nullptr;
        const cl_int result = clEnqueueCopyBuffer(f.q(), src, dst, src_offset, dst_offset, length,
                                                  0, nullptr, &event);
        EventPtr owned(event);
        if (overlap) {
            CHECK_CL(result, CL_MEM_COPY_OVERLAP);
            continue;
        }
        REQUIRE_OK(result);
        CHECK(status_of(event) <= CL_QUEUED);
        std::memmove(dst_model.data() + dst_offset, src_model.data() + src_offset, length);
    }
    CHECK_BYTES(read_all(f.q(), a.get(), size), a_model);
    CHECK_BYTES(read_all(f.q(), b.get(), size), b_model);
}

TEST_CASE("clEnqueueCopyBuffer reports CL_MEM_COPY_OVERLAP exactly", "[transfer][copy]") {
    Fixture f;
    const size_t align = base_address_alignment(f.device);
    const size_t size = 16 * align;
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
    auto copy = [&](cl_mem src, cl_mem dst, size_t src_offset, size_t dst_offset, size_t length) {
        return clEnqueueCopyBuffer(f.q(), src, dst, src_offset, dst_offset, length, 0, nullptr,
                                   nullptr);
    };
    SECTION("one buffer") {
        // Overlap: src_offset <= dst_offset <= src_offset + size - 1 or the reverse.
        CHECK_CL(copy(mem.get(), mem.get(), 0, 0, 64), CL_MEM_COPY_OVERLAP);
        CHECK_CL(copy(mem.get(), mem.get(), 0, 63, 64), CL_MEM_COPY_OVERLAP);
        CHECK_CL(copy(mem.get(), mem.get(), 63, 0, 64), CL_MEM_COPY_OVERLAP);
        CHECK_CL(copy(mem.get(), mem.get(), 100, 150, 100), CL_MEM_COPY_OVERLAP);
        CHECK_CL(copy(mem.get(), mem.get(), 0, 64, 64), CL_SUCCESS);
        CHECK_CL(copy(mem.get(), mem.get(), 64, 0, 64), CL_SUCCESS);
        CHECK_CL(copy(mem.get(), mem.get(), 0, size - 1, 1), CL_SUCCESS);
    }
    SECTION("one sub-buffer") {
        MemPtr sub = make_sub_buffer(mem.get(), 0, align, 4 * align);
        CHECK_CL(copy(sub.get(), sub.get(), 0, 10, 20), CL_MEM_COPY_OVERLAP);
        CHECK_CL(copy(sub.get(), sub.get(), 0, 20, 20), CL_SUCCESS);
    }
    SECTION("two sub-buffers of one parent") {
        MemPtr first = make_sub_buffer(mem.get(), 0, 0, 4 * align);
        MemPtr second = make_sub_buffer(mem.get(), 0, 2 * align, 4 * align);
        // first[2 align, 3 align) is second[0, align).
        CHECK_CL(copy(first.get(), second.get(), 2 * align, 0, align), CL_MEM_COPY_OVERLAP);
        CHECK_CL(copy(first.get(), second.get(), 2 * align + align / 2, 0, align),
                 CL_MEM_COPY_OVERLAP);
        CHECK_CL(copy(second.get(), first.get(), 0, 3 * align - 1, align), CL_MEM_COPY_OVERLAP);
        CHECK_CL(copy(second.get(), first.get(), align, 0, align), CL_SUCCESS);
        CHECK_CL(copy(first.get(), second.get(), 0, 0, align), CL_SUCCESS);
        CHECK_CL(copy(first.get(), second.get(), align, 0, align), CL_SUCCESS);
        // Sub-buffers of different parents never overlap.
        MemPtr other = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
        MemPtr other_sub = make_sub_buffer(other.get(), 0, 2 * align, 4 * align);
        CHECK_CL(copy(first.get(), other_sub.get(), 2 * align, 0, align), CL_SUCCESS);
    }
    finish(f.q());
}

TEST_CASE("clEnqueueFillBuffer writes every pattern size at random offsets", "[transfer][fill]") {
    Fixture f;
    Random random(13);
    constexpr size_t size = 16 * 1024;
    Bytes model = random.bytes(size);
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, model.data());
    const size_t align = base_address_alignment(f.device);
    MemPtr sub = make_sub_buffer(mem.get(), 0, 3 * align, size - 4 * align);
    for (size_t pattern_size = 1; pattern_size <= 128; pattern_size *= 2) {
        for (int round = 0; round < 6; ++round) {
            const bool through_sub = round % 2 == 1;
            const size_t target_size = through_sub ? size - 4 * align : size;
            const size_t base = through_sub ? 3 * align : 0;
            const size_t slots = target_size / pattern_size;
            const size_t first = random.between(0, slots - 1);
            const size_t count = random.between(1, std::min<size_t>(slots - first, 300));
            INFO("pattern of " << pattern_size << " bytes, " << count << " times from slot "
                               << first << (through_sub ? " of the sub-buffer" : ""));
            const Bytes pattern = random.bytes(pattern_size);
            cl_event event = nullptr;
            REQUIRE_OK(clEnqueueFillBuffer(f.q(), through_sub ? sub.get() : mem.get(),
                                           pattern.data(), pattern_size, first * pattern_size,
                                           count * pattern_size, 0, nullptr, &event));
            EventPtr owned(event);
            cl_command_type type = 0;
            REQUIRE_OK(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
            CHECK(type == CL_COMMAND_FILL_BUFFER);
            for (size_t i = 0; i < count * pattern_size; ++i)
                model[base + first * pattern_size + i] = pattern[i % pattern_size];
            const Bytes content = read_all(f.q(), mem.get(), size);
            REQUIRE_SAME_BYTES(content.data(), model.data(), size);
        }
    }
}

TEST_CASE("clEnqueueFillBuffer copies the pattern at enqueue", "[transfer][fill]") {
    Fixture f;
    EventPtr gate = make_user_event(f.ctx());
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 1024);
    const cl_event gate_list[] = {gate.get()};
    {
        std::vector<std::uint32_t> pattern{0x01020304u, 0x05060708u};
        REQUIRE_OK(clEnqueueFillBuffer(f.q(), mem.get(), pattern.data(), 8, 0, 1024, 1, gate_list,
                                       nullptr));
        pattern.assign(pattern.size(), 0xdeadbeefu);
    }
    REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
    const Bytes content = read_all(f.q(), mem.get(), 1024);
    for (size_t i = 0; i < 1024; i += 8) {
        std::uint32_t words[2];
        std::memcpy(words, content.data() + i, 8);
        REQUIRE(words[0] == 0x01020304u);
        REQUIRE(words[1] == 0x05060708u);
    }
}

TEST_CASE("large fills and copies, split across workers, are exact", "[transfer][large]") {
    Fixture f;
    Random random(14);
    constexpr size_t size = (20u << 20) + 4096 + 64;
    const Bytes pattern = random.bytes(64);
    MemPtr a = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
    MemPtr b = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);
    REQUIRE_OK(
        clEnqueueFillBuffer(f.q(), a.get(), pattern.data(), 64, 0, size, 0, nullptr, nullptr));
    const Bytes head = random.bytes(4096);
    REQUIRE_OK(clEnqueueWriteBuffer(f.q(), b.get(), CL_TRUE, 0, head.size(), head.data(), 0,
                                    nullptr, nullptr));
    REQUIRE_OK(clEnqueueCopyBuffer(f.q(), a.get(), b.get(), 64, 4096, size - 4096 - 64, 0, nullptr,
                                   nullptr));
    Bytes expected(size);
    std::copy(head.begin(), head.end(), expected.begin());
    for (size_t i = 4096; i < size - 64; ++i)
        expected[i] = pattern[(i - 4096 + 64) % 64];
    Bytes content(size);
    REQUIRE_OK(
        clEnqueueReadBuffer(f.q(), b.get(), CL_TRUE, 0, size, content.data(), 0, nullptr, nullptr));
    // The last 64 bytes were never written: no content to check.
    CHECK_SAME_BYTES(content.data(), expected.data(), size - 64);
    Bytes filled(size);
    REQUIRE_OK(
        clEnqueueReadBuffer(f.q(), a.get(), CL_TRUE, 0, size, filled.data(), 0, nullptr, nullptr));
    bool all_pattern = true;
    for (size_t i = 0; i < size && all_pattern; i += 64)
        all_pattern =
            std::memcmp(filled.data() + i, pattern.data(), std::min<size_t>(64, size - i)) == 0;
    CHECK(all_pattern);
}

TEST_CASE("commands report their command types and complete", "[transfer][events]") {
    Fixture f;
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 256);
    MemPtr other = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 256);
    Bytes host(256, 1);
    const unsigned char pattern = 7;
    std::vector<std::pair<cl_command_type, std::function<cl_int(cl_event*)>>> commands = {
        {CL_COMMAND_WRITE_BUFFER,
         [&](cl_event* e) {
             return clEnqueueWriteBuffer(f.q(), mem.get(), CL_FALSE, 0, 256, host.data(), 0,
                                         nullptr, e);
         }},
        {CL_COMMAND_READ_BUFFER,
         [&](cl_event* e) {
             return clEnqueueReadBuffer(f.q(), mem.get(), CL_FALSE, 0, 256, host.data(), 0, nullptr,
                                        e);
         }},
        {CL_COMMAND_COPY_BUFFER,
         [&](cl_event* e) {
             return clEnqueueCopyBuffer(f.q(), mem.get(), other.get(), 0, 0, 256, 0, nullptr, e);
         }},
        {CL_COMMAND_FILL_BUFFER,
         [&](cl_event* e) {
             return clEnqueueFillBuffer(f.q(), mem.get(), &pattern, 1, 0, 256, 0, nullptr, e);
         }},
    };
    for (auto& [type, enqueue] : commands) {
        INFO("command type 0x" << std::hex << type);
        cl_event event = nullptr;
        REQUIRE_OK(enqueue(&event));
        EventPtr owned(event);
        cl_command_type reported = 0;
        REQUIRE_OK(
            clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof reported, &reported, nullptr));
        CHECK(reported == type);
        cl_command_queue queue = nullptr;
        REQUIRE_OK(clGetEventInfo(event, CL_EVENT_COMMAND_QUEUE, sizeof queue, &queue, nullptr));
        CHECK(queue == f.q());
        CHECK(wait_final(event) == CL_COMPLETE);
    }
}

TEST_CASE("threads use one buffer at once through their own queues", "[transfer][threads]") {
    Fixture f;
    const size_t align = base_address_alignment(f.device);
    constexpr unsigned threads = 4;
    const size_t part = 8 * align;
    MemPtr mem = make_buffer(f.ctx(), CL_MEM_READ_WRITE, threads * part);
    std::vector<Bytes> finals(threads);
    std::vector<std::thread> workers;
    std::atomic<int> failures{0};
    for (unsigned t = 0; t < threads; ++t) {
        workers.emplace_back([&, t] {
            // Catch2 assertions are not thread-safe: count failures instead.
            auto ok = [&](bool condition) {
                if (!condition)
                    ++failures;
                return condition;
            };
            cl_int error = CL_SUCCESS;
            cl_command_queue queue =
                clCreateCommandQueueWithProperties(f.ctx(), f.device, nullptr, &error);
            if (!ok(error == CL_SUCCESS))
                return;
            Random random(100 + t);
            const size_t base = t * part;
            Bytes model(part, 0);
            for (int round = 0; round < 60; ++round) {
                const Bytes data = random.bytes(part);
                ok(clEnqueueWriteBuffer(queue, mem.get(), CL_FALSE, base, part, data.data(), 0,
                                        nullptr, nullptr) == CL_SUCCESS);
                const cl_buffer_region region{base, part};
                cl_mem sub =
                    clCreateSubBuffer(mem.get(), 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &error);
                ok(error == CL_SUCCESS && sub != nullptr);
                Bytes back(part);
                ok(clEnqueueReadBuffer(queue, sub, CL_TRUE, 0, part, back.data(), 0, nullptr,
                                       nullptr) == CL_SUCCESS);
                ok(back == data);
                auto* mapped = static_cast<unsigned char*>(
                    clEnqueueMapBuffer(queue, mem.get(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, base,
                                       part, 0, nullptr, nullptr, &error));
                if (ok(error == CL_SUCCESS && mapped)) {
                    ok(std::memcmp(mapped, data.data(), part) == 0);
                    mapped[round % part] ^= 0xff;
                    ok(clEnqueueUnmapMemObject(queue, mem.get(), mapped, 0, nullptr, nullptr) ==
                       CL_SUCCESS);
                }
                model = data;
                model[round % part] ^= 0xff;
                ok(clRetainMemObject(sub) == CL_SUCCESS);
                ok(clReleaseMemObject(sub) == CL_SUCCESS);
                ok(clReleaseMemObject(sub) == CL_SUCCESS);
            }
            ok(clFinish(queue) == CL_SUCCESS);
            finals[t] = model;
            clReleaseCommandQueue(queue);
        });
    }
    for (std::thread& worker : workers)
        worker.join();
    CHECK(failures == 0);
    CHECK(mem_info<cl_uint>(mem.get(), CL_MEM_MAP_COUNT) == 0);
    const Bytes content = read_all(f.q(), mem.get(), threads * part);
    for (unsigned t = 0; t < threads; ++t) {
        INFO("thread " << t);
        CHECK_BYTES(Bytes(content.begin() + static_cast<long>(t * part),
                          content.begin() + static_cast<long>((t + 1) * part)),
                    finals[t]);
    }
}
