// Helpers of the buffer tests: owning handles, a context with one queue,
// typed memory object queries, bounded waits (a hang fails the test instead
// of hanging it), seeded random data and a host model of the rectangle
// copies of the Rect entry points.
#pragma once

#include "cl_handles.hpp"
#include "event_polling.hpp"

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

namespace buffer_test {

using namespace std::chrono_literals;
using Bytes = std::vector<unsigned char>;

using cl_test::EventPtr;
using cl_test::eventually;
using cl_test::hang_limit;
using cl_test::make_queue;
using cl_test::make_user_event;
using cl_test::MemPtr;
using cl_test::QueuePtr;
using cl_test::Signal;
using cl_test::wait_final;

inline cl_int status_of(cl_event event) {
    return cl_test::event_status(event);
}

// A context on the root device with one in-order queue.
struct Fixture {
    cl_device_id device = cl_test::device();
    cl_test::ContextPtr context = cl_test::make_context({device});
    QueuePtr queue = make_queue(context.get(), device);

    cl_context ctx() const { return context.get(); }
    cl_command_queue q() const { return queue.get(); }
};

// clCreateBuffer that must succeed.
inline MemPtr make_buffer(cl_context context, cl_mem_flags flags, size_t size,
                          void* host_ptr = nullptr) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_mem mem = clCreateBuffer(context, flags, size, host_ptr, &error);
    REQUIRE_OK(error);
    REQUIRE(mem != nullptr);
    return MemPtr(mem);
}

// The error of a clCreateBuffer that must fail (and return NULL).
inline cl_int create_buffer_error(cl_context context, cl_mem_flags flags, size_t size,
                                  void* host_ptr) {
    cl_int error = CL_SUCCESS;
    cl_mem mem = clCreateBuffer(context, flags, size, host_ptr, &error);
    CHECK(mem == nullptr);
    if (mem)
        clReleaseMemObject(mem);
    return error;
}

inline MemPtr make_sub_buffer(cl_mem parent, cl_mem_flags flags, size_t origin, size_t size) {
    const cl_buffer_region region{origin, size};
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_mem mem = clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &error);
    INFO("sub-buffer at " << origin << ", " << size << " bytes");
    REQUIRE_OK(error);
    REQUIRE(mem != nullptr);
    return MemPtr(mem);
}

// The error of a clCreateSubBuffer that must fail (and return NULL).
inline cl_int sub_buffer_error(cl_mem parent, cl_mem_flags flags, cl_buffer_create_type type,
                               const void* info) {
    cl_int error = CL_SUCCESS;
    cl_mem mem = clCreateSubBuffer(parent, flags, type, info, &error);
    CHECK(mem == nullptr);
    if (mem)
        clReleaseMemObject(mem);
    return error;
}

inline cl_int sub_buffer_region_error(cl_mem parent, cl_mem_flags flags, size_t origin,
                                      size_t size) {
    const cl_buffer_region region{origin, size};
    return sub_buffer_error(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region);
}

template <class T>
T mem_info(cl_mem mem, cl_mem_info param) {
    return cl_test::info<T>(clGetMemObjectInfo, mem, param);
}

// CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes (the query answers in bits).
inline size_t base_address_alignment(cl_device_id device) {
    const auto bits = cl_test::device_info<cl_uint>(device, CL_DEVICE_MEM_BASE_ADDR_ALIGN);
    REQUIRE(bits % 8 == 0);
    REQUIRE(bits >= 8);
    return bits / 8;
}

// clFinish with a limit: a marker's event is polled.
inline void finish(cl_command_queue queue) {
    cl_event marker = nullptr;
    REQUIRE_OK(clEnqueueMarkerWithWaitList(queue, 0, nullptr, &marker));
    EventPtr owned(marker);
    REQUIRE(wait_final(marker) == CL_COMPLETE);
    REQUIRE_OK(clFinish(queue));
}

// Random numbers seeded from Catch2's --rng-seed (0 unless given), so a
// failing run can be repeated exactly.
class Random {
public:
    explicit Random(std::uint64_t salt)
        : engine_(Catch::rngSeed() * 0x9e3779b97f4a7c15ull + salt) {}

    // Uniform in [low, high].
    size_t between(size_t low, size_t high) {
        return std::uniform_int_distribution<size_t>(low, high)(engine_);
    }
    bool chance(unsigned percent) { return between(0, 99) < percent; }
    Bytes bytes(size_t count) {
        Bytes data(count);
        for (auto& byte : data)
            byte = static_cast<unsigned char>(engine_());
        return data;
    }
    template <class T>
    const T& pick(const std::vector<T>& list) {
        return list[between(0, list.size() - 1)];
    }

private:
    std::mt19937_64 engine_;
};

// The layout of a rectangle in linear memory, pitches resolved as the spec
// says: a row pitch of 0 is region[0], a slice pitch of 0 is region[1] times
// the row pitch.
struct Layout {
    size_t row_pitch;
    size_t slice_pitch;

    static Layout resolve(const std::array<size_t, 3>& region, size_t row_pitch,
                          size_t slice_pitch) {
        const size_t row = row_pitch ? row_pitch : region[0];
        return {row, slice_pitch ? slice_pitch : region[1] * row};
    }
    size_t offset(const std::array<size_t, 3>& origin) const {
        return origin[2] * slice_pitch + origin[1] * row_pitch + origin[0];
    }
    // One past the last byte the rectangle touches.
    size_t end(const std::array<size_t, 3>& origin, const std::array<size_t, 3>& region) const {
        return offset(origin) + (region[2] - 1) * slice_pitch + (region[1] - 1) * row_pitch +
               region[0];
    }
};

// The host model of a rectangle copy.
inline void reference_rect_copy(unsigned char* dst, const std::array<size_t, 3>& dst_origin,
                                const Layout& dst_layout, const unsigned char* src,
                                const std::array<size_t, 3>& src_origin, const Layout& src_layout,
                                const std::array<size_t, 3>& region) {
    const size_t dst_base = dst_layout.offset(dst_origin);
    const size_t src_base = src_layout.offset(src_origin);
    for (size_t z = 0; z < region[2]; ++z)
        for (size_t y = 0; y < region[1]; ++y)
            std::memcpy(dst + dst_base + z * dst_layout.slice_pitch + y * dst_layout.row_pitch,
                        src + src_base + z * src_layout.slice_pitch + y * src_layout.row_pitch,
                        region[0]);
}

// Whether two rectangles in one linear memory share a byte (row by row).
inline bool rects_share_a_byte(size_t a_base, const Layout& a, size_t b_base, const Layout& b,
                               const std::array<size_t, 3>& region) {
    for (size_t az = 0; az < region[2]; ++az)
        for (size_t ay = 0; ay < region[1]; ++ay) {
            const size_t a_begin = a_base + az * a.slice_pitch + ay * a.row_pitch;
            for (size_t bz = 0; bz < region[2]; ++bz)
                for (size_t by = 0; by < region[1]; ++by) {
                    const size_t b_begin = b_base + bz * b.slice_pitch + by * b.row_pitch;
                    if (a_begin < b_begin + region[0] && b_begin < a_begin + region[0])
                        return true;
                }
        }
    return false;
}

// The first index where two byte ranges differ, or -1; keeps failure
// messages short for large buffers.
inline long first_difference(const unsigned char* a, const unsigned char* b, size_t size) {
    for (size_t i = 0; i < size; ++i)
        if (a[i] != b[i])
            return static_cast<long>(i);
    return -1;
}

#define CHECK_SAME_BYTES(a, b, size) CHECK(::buffer_test::first_difference((a), (b), (size)) == -1)
#define REQUIRE_SAME_BYTES(a, b, size)                                                             \
    REQUIRE(::buffer_test::first_difference((a), (b), (size)) == -1)

// How two byte vectors differ, briefly; empty when they are equal.
inline std::string difference(const std::vector<unsigned char>& actual,
                              const std::vector<unsigned char>& expected) {
    if (actual.size() != expected.size())
        return "sizes " + std::to_string(actual.size()) + " and " + std::to_string(expected.size());
    const long at = first_difference(actual.data(), expected.data(), actual.size());
    if (at < 0)
        return {};
    size_t count = 0;
    for (size_t i = 0; i < actual.size(); ++i)
        count += actual[i] != expected[i];
    const auto index = static_cast<size_t>(at);
    return std::to_string(count) + " bytes differ, the first at " + std::to_string(at) + ": " +
           std::to_string(actual[index]) + " instead of " + std::to_string(expected[index]);
}

#define CHECK_BYTES(actual, expected) CHECK(::buffer_test::difference((actual), (expected)) == "")

inline Bytes read_all(cl_command_queue queue, cl_mem mem, size_t size) {
    Bytes data(size);
    REQUIRE_OK(clEnqueueReadBuffer(queue, mem, CL_TRUE, 0, size, data.data(), 0, nullptr, nullptr));
    return data;
}

inline void write_all(cl_command_queue queue, cl_mem mem, const Bytes& data) {
    REQUIRE_OK(clEnqueueWriteBuffer(queue, mem, CL_TRUE, 0, data.size(), data.data(), 0, nullptr,
                                    nullptr));
}

} // namespace buffer_test
