// clHostMemAllocINTEL, clDeviceMemAllocINTEL, clSharedMemAllocINTEL,
// clMemFreeINTEL and clMemBlockingFreeINTEL: every error the extension lists
// for them (exact code, NULL result, errcode_ret NULL allowed), successful
// allocations of every type over a spread of sizes, alignments and
// properties with their whole range usable, frees of pointers that are not
// live allocations of the context (which change nothing), many live
// allocations at once, and contexts released with allocations still live.
#include "usm_test.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>

using namespace cl_test;
using namespace usm_test;

namespace {

constexpr Kind all_kinds[] = {Kind::host, Kind::device, Kind::shared};

using Properties = std::vector<cl_mem_properties_intel>;

// One call of the allocation function of kind (device is not passed to
// clHostMemAllocINTEL). An empty properties vector passes NULL.
void* allocate(const Usm& usm, Kind kind, cl_context context, cl_device_id device,
               const Properties& properties, size_t size, cl_uint alignment, cl_int* error) {
    const cl_mem_properties_intel* list = properties.empty() ? nullptr : properties.data();
    return try_alloc(usm, kind, context, device, list, size, alignment, error);
}

// An allocation that must fail: returns its error code after checking that
// it returned NULL, and that the same call with errcode_ret NULL returns NULL
// too.
cl_int alloc_error(const Usm& usm, Kind kind, cl_context context, cl_device_id device,
                   const Properties& properties, size_t size, cl_uint alignment) {
    INFO(kind_name(kind) << " allocation of " << size << " bytes, alignment " << alignment);
    cl_int error = CL_SUCCESS;
    void* p = allocate(usm, kind, context, device, properties, size, alignment, &error);
    CHECK(p == nullptr);
    if (p != nullptr)
        usm.free(context, p);
    void* q = allocate(usm, kind, context, device, properties, size, alignment, nullptr);
    CHECK(q == nullptr);
    if (q != nullptr)
        usm.free(context, q);
    return error;
}

// An allocation that must succeed.
void* must_allocate(const Usm& usm, Kind kind, cl_context context, cl_device_id device,
                    const Properties& properties, size_t size, cl_uint alignment) {
    INFO(kind_name(kind) << " allocation of " << size << " bytes, alignment " << alignment);
    cl_int error = CL_OUT_OF_RESOURCES;
    void* p = allocate(usm, kind, context, device, properties, size, alignment, &error);
    REQUIRE_OK(error);
    REQUIRE(p != nullptr);
    return p;
}

// A scalar answer of clGetMemAllocInfoINTEL; its size must be sizeof(T).
template <class T>
T alloc_info(const Usm& usm, cl_context context, const void* ptr, cl_mem_info_intel param) {
    INFO("clGetMemAllocInfoINTEL param 0x" << std::hex << param);
    size_t size = 0;
    REQUIRE_OK(usm.alloc_info(context, ptr, param, 0, nullptr, &size));
    REQUIRE(size == sizeof(T));
    T value{};
    size_t written = 0;
    REQUIRE_OK(usm.alloc_info(context, ptr, param, sizeof value, &value, &written));
    REQUIRE(written == sizeof(T));
    return value;
}

// ptr is the start of a live allocation of context of that type and size.
void check_live(const Usm& usm, cl_context context, void* ptr, Kind kind, size_t size) {
    CHECK(alloc_info<cl_unified_shared_memory_type_intel>(
              usm, context, ptr, CL_MEM_ALLOC_TYPE_INTEL) == type_of(kind));
    CHECK(alloc_info<void*>(usm, context, ptr, CL_MEM_ALLOC_BASE_PTR_INTEL) == ptr);
    CHECK(alloc_info<size_t>(usm, context, ptr, CL_MEM_ALLOC_SIZE_INTEL) == size);
}

// ptr is in no allocation of context.
void check_unknown(const Usm& usm, cl_context context, const void* ptr) {
    CHECK(alloc_info<cl_unified_shared_memory_type_intel>(
              usm, context, ptr, CL_MEM_ALLOC_TYPE_INTEL) == CL_MEM_TYPE_UNKNOWN_INTEL);
    CHECK(alloc_info<void*>(usm, context, ptr, CL_MEM_ALLOC_BASE_PTR_INTEL) == nullptr);
    CHECK(alloc_info<size_t>(usm, context, ptr, CL_MEM_ALLOC_SIZE_INTEL) == 0);
}

unsigned char pattern_byte(size_t index, unsigned seed) {
    return static_cast<unsigned char>((index * 131u + seed) ^ (index >> 9) ^ (index >> 17));
}

void write_pattern(unsigned char* bytes, size_t size, unsigned seed) {
    for (size_t i = 0; i < size; ++i)
        bytes[i] = pattern_byte(i, seed);
}

// The index of the first byte that differs from the pattern, or size.
size_t first_pattern_mismatch(const unsigned char* bytes, size_t size, unsigned seed) {
    for (size_t i = 0; i < size; ++i)
        if (bytes[i] != pattern_byte(i, seed))
            return i;
    return size;
}

// The allocation holds size bytes the host (host, shared) or the queue's
// copies and fills (device) can write and read back, all of them.
void check_usable(const Fixture& f, void* ptr, Kind kind, size_t size, unsigned seed) {
    INFO(kind_name(kind) << " allocation of " << size << " bytes");
    if (kind != Kind::device) {
        auto* bytes = static_cast<unsigned char*>(ptr);
        write_pattern(bytes, size, seed);
        CHECK(first_pattern_mismatch(bytes, size, seed) == size);
        return;
    }
    std::vector<unsigned char> source(size);
    write_pattern(source.data(), size, seed);
    REQUIRE_OK(f.usm.memcpy(f.q(), CL_TRUE, ptr, source.data(), size, 0, nullptr, nullptr));
    std::vector<unsigned char> back(size, 0);
    REQUIRE_OK(f.usm.memcpy(f.q(), CL_TRUE, back.data(), ptr, size, 0, nullptr, nullptr));
    CHECK(first_pattern_mismatch(back.data(), size, seed) == size);
    // A one-byte fill over the whole range, read back.
    const unsigned char value = static_cast<unsigned char>(0xA5 ^ seed);
    REQUIRE_OK(f.usm.fill(f.q(), ptr, &value, 1, size, 0, nullptr, nullptr));
    REQUIRE_OK(clFinish(f.q()));
    std::fill(back.begin(), back.end(), static_cast<unsigned char>(~value));
    REQUIRE_OK(f.usm.memcpy(f.q(), CL_TRUE, back.data(), ptr, size, 0, nullptr, nullptr));
    CHECK(std::count(back.begin(), back.end(), value) == static_cast<std::ptrdiff_t>(size));
}

uintptr_t address(const void* ptr) {
    return reinterpret_cast<uintptr_t>(ptr);
}

cl_ulong max_alloc_size(cl_device_id device) {
    return device_info<cl_ulong>(device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
}

cl_uint compute_units(cl_device_id device) {
    return device_info<cl_uint>(device, CL_DEVICE_MAX_COMPUTE_UNITS);
}

} // namespace

// ---------------------------------------------------------------------------
// Errors of the allocation functions.

TEST_CASE("USM allocations with an invalid context: CL_INVALID_CONTEXT", "[alloc][errors]") {
    Fixture f;
    FakeObject fake(f.ctx(), 0x5a);
    FakeObject zeros(f.ctx(), 0x00);
    const cl_context bad_contexts[] = {nullptr, fake.as<cl_context>(), zeros.as<cl_context>(),
                                       reinterpret_cast<cl_context>(f.device),
                                       reinterpret_cast<cl_context>(f.q())};
    for (Kind kind : all_kinds)
        for (cl_context bad : bad_contexts) {
            INFO("context " << static_cast<const void*>(bad));
            CHECK_CL(alloc_error(f.usm, kind, bad, f.device, {}, 64, 0), CL_INVALID_CONTEXT);
        }
    for (cl_context bad : bad_contexts)
        CHECK_CL(alloc_error(f.usm, Kind::shared, bad, nullptr, {}, 64, 0), CL_INVALID_CONTEXT);
}

TEST_CASE("USM allocations with an invalid device: CL_INVALID_DEVICE", "[alloc][errors]") {
    Fixture f;
    FakeObject fake(f.device, 0x00);
    FakeObject ones(f.device, 0xff);
    const cl_device_id bad_devices[] = {fake.as<cl_device_id>(), ones.as<cl_device_id>(),
                                        reinterpret_cast<cl_device_id>(f.ctx()),
                                        reinterpret_cast<cl_device_id>(f.platform)};
    for (Kind kind : {Kind::device, Kind::shared})
        for (cl_device_id bad : bad_devices) {
            INFO("device " << static_cast<const void*>(bad));
            CHECK_CL(alloc_error(f.usm, kind, f.ctx(), bad, {}, 64, 0), CL_INVALID_DEVICE);
        }
    // A device allocation needs a device; a shared one does not.
    CHECK_CL(alloc_error(f.usm, Kind::device, f.ctx(), nullptr, {}, 64, 0), CL_INVALID_DEVICE);
}

TEST_CASE("USM allocations on a device that is not in the context: CL_INVALID_DEVICE",
          "[alloc][errors][sub-devices]") {
    const cl_device_id root = device();
    if (compute_units(root) < 2) {
        WARN("one compute unit: nothing to partition");
        return;
    }
    const Usm usm = load_usm(platform());
    std::vector<DevicePtr> subs = create_sub_devices(root, {CL_DEVICE_PARTITION_EQUALLY, 1, 0});
    REQUIRE(subs.size() >= 2);
    const cl_device_id sub0 = subs[0].get();
    const cl_device_id sub1 = subs[1].get();

    SECTION("a sub-device with a context of the root device") {
        ContextPtr context = make_context({root});
        for (Kind kind : {Kind::device, Kind::shared}) {
            CHECK_CL(alloc_error(usm, kind, context.get(), sub0, {}, 64, 0), CL_INVALID_DEVICE);
            CHECK_CL(alloc_error(usm, kind, context.get(), sub1, {}, 64, 0), CL_INVALID_DEVICE);
        }
    }
    SECTION("the root device and another sub-device with a context of one sub-device") {
        ContextPtr context = make_context({sub0});
        for (Kind kind : {Kind::device, Kind::shared}) {
            CHECK_CL(alloc_error(usm, kind, context.get(), root, {}, 64, 0), CL_INVALID_DEVICE);
            CHECK_CL(alloc_error(usm, kind, context.get(), sub1, {}, 64, 0), CL_INVALID_DEVICE);
            // The context's own sub-device is fine, and the allocation is its.
            void* p = must_allocate(usm, kind, context.get(), sub0, {}, 64, 0);
            CHECK(alloc_info<cl_device_id>(usm, context.get(), p, CL_MEM_ALLOC_DEVICE_INTEL) ==
                  sub0);
            CHECK_OK(usm.free(context.get(), p));
        }
        // Host and device-less shared allocations work in a sub-device context.
        void* h = must_allocate(usm, Kind::host, context.get(), nullptr, {}, 64, 0);
        void* s = must_allocate(usm, Kind::shared, context.get(), nullptr, {}, 64, 0);
        CHECK_OK(usm.free(context.get(), h));
        CHECK_OK(usm.free(context.get(), s));
    }
}

TEST_CASE("USM alignments that are not a power of two or above 128: CL_INVALID_VALUE",
          "[alloc][errors][alignment]") {
    Fixture f;
    const cl_uint not_powers[] = {3,  5,   6,   7,   12,  24,          48,
                                  96, 100, 127, 129, 255, 0x80000001u, 0xffffffffu};
    const cl_uint too_big[] = {256, 512, 4096, 65536, 0x80000000u};
    for (Kind kind : all_kinds) {
        for (cl_uint alignment : not_powers)
            CHECK_CL(alloc_error(f.usm, kind, f.ctx(), f.device, {}, 256, alignment),
                     CL_INVALID_VALUE);
        for (cl_uint alignment : too_big)
            CHECK_CL(alloc_error(f.usm, kind, f.ctx(), f.device, {}, 4096, alignment),
                     CL_INVALID_VALUE);
    }
    for (cl_uint alignment : not_powers)
        CHECK_CL(alloc_error(f.usm, Kind::shared, f.ctx(), nullptr, {}, 256, alignment),
                 CL_INVALID_VALUE);
    for (cl_uint alignment : too_big)
        CHECK_CL(alloc_error(f.usm, Kind::shared, f.ctx(), nullptr, {}, 4096, alignment),
                 CL_INVALID_VALUE);
}

TEST_CASE("USM allocation properties that are not valid: CL_INVALID_PROPERTY",
          "[alloc][errors][properties]") {
    Fixture f;
    const cl_mem_properties_intel flags = CL_MEM_ALLOC_FLAGS_INTEL;
    const cl_mem_properties_intel wc = CL_MEM_ALLOC_WRITE_COMBINED_INTEL;
    const cl_mem_properties_intel on_device = CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL;
    const cl_mem_properties_intel on_host = CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL;

    // For every type, and for shared allocations without a device.
    auto check_all = [&](const Properties& properties) {
        for (Kind kind : all_kinds)
            CHECK_CL(alloc_error(f.usm, kind, f.ctx(), f.device, properties, 64, 0),
                     CL_INVALID_PROPERTY);
        CHECK_CL(alloc_error(f.usm, Kind::shared, f.ctx(), nullptr, properties, 64, 0),
                 CL_INVALID_PROPERTY);
    };

    SECTION("an unknown property name") {
        check_all({0x1234, 0, 0});
        check_all({CL_MEM_FLAGS, CL_MEM_READ_WRITE, 0});
        check_all({CL_MEM_ALLOC_BUFFER_LOCATION_INTEL, 0, 0});
        check_all({CL_MEM_ALLOC_TYPE_INTEL, CL_MEM_TYPE_HOST_INTEL, 0});
        check_all({~cl_mem_properties_intel{0}, 0, 0});
        // After a valid one.
        check_all({flags, wc, 0x4196, 1, 0});
    }
    SECTION("flag bits that are not defined") {
        for (cl_mem_properties_intel bits :
             {cl_mem_properties_intel{1} << 3, cl_mem_properties_intel{1} << 31,
              cl_mem_properties_intel{1} << 63, cl_mem_properties_intel{0xff},
              wc | (cl_mem_properties_intel{1} << 8)}) {
            INFO("flags 0x" << std::hex << bits);
            check_all({flags, bits, 0});
        }
    }
    SECTION("a property name given twice") {
        check_all({flags, 0, flags, 0, 0});
        check_all({flags, wc, flags, wc, 0});
        check_all({flags, wc, flags, 0, 0});
    }
    SECTION("initial placement flags on host and device allocations") {
        for (cl_mem_properties_intel bits : {on_device, on_host, wc | on_device, wc | on_host})
            for (Kind kind : {Kind::host, Kind::device}) {
                INFO("flags 0x" << std::hex << bits);
                CHECK_CL(alloc_error(f.usm, kind, f.ctx(), f.device, {flags, bits, 0}, 64, 0),
                         CL_INVALID_PROPERTY);
            }
    }
    SECTION("both initial placement flags on a shared allocation") {
        for (cl_mem_properties_intel bits : {on_device | on_host, wc | on_device | on_host}) {
            INFO("flags 0x" << std::hex << bits);
            CHECK_CL(alloc_error(f.usm, Kind::shared, f.ctx(), f.device, {flags, bits, 0}, 64, 0),
                     CL_INVALID_PROPERTY);
            CHECK_CL(alloc_error(f.usm, Kind::shared, f.ctx(), nullptr, {flags, bits, 0}, 64, 0),
                     CL_INVALID_PROPERTY);
        }
    }
}

TEST_CASE("USM allocation sizes of 0 or above CL_DEVICE_MAX_MEM_ALLOC_SIZE: "
          "CL_INVALID_BUFFER_SIZE",
          "[alloc][errors][size]") {
    Fixture f;
    const cl_ulong max = max_alloc_size(f.device);
    REQUIRE(max > 0);
    REQUIRE(max < std::numeric_limits<size_t>::max());
    const size_t sizes[] = {0, static_cast<size_t>(max) + 1, static_cast<size_t>(max) * 2,
                            std::numeric_limits<size_t>::max(),
                            std::numeric_limits<size_t>::max() - 127};
    for (Kind kind : all_kinds)
        for (size_t size : sizes)
            CHECK_CL(alloc_error(f.usm, kind, f.ctx(), f.device, {}, size, 0),
                     CL_INVALID_BUFFER_SIZE);
    for (size_t size : sizes)
        CHECK_CL(alloc_error(f.usm, Kind::shared, f.ctx(), nullptr, {}, size, 0),
                 CL_INVALID_BUFFER_SIZE);
}

// ---------------------------------------------------------------------------
// Successful allocations.

TEST_CASE("USM allocations of every type and size are usable over their whole range",
          "[alloc][sizes]") {
    Fixture f;
    const size_t sizes[] = {1,
                            2,
                            3,
                            7,
                            63,
                            127,
                            128,
                            129,
                            1000,
                            4095,
                            4096,
                            4097,
                            65537,
                            (1 << 20),
                            (1 << 20) + 3,
                            3 << 20,
                            (8 << 20) + 77,
                            64 << 20};
    unsigned seed = 1;
    for (Kind kind : all_kinds)
        for (size_t size : sizes) {
            void* p = must_allocate(f.usm, kind, f.ctx(), f.device, {}, size, 0);
            CHECK(address(p) % 128 == 0);
            check_live(f.usm, f.ctx(), p, kind, size);
            check_usable(f, p, kind, size, seed++);
            CHECK_OK(f.usm.free(f.ctx(), p));
            check_unknown(f.usm, f.ctx(), p);
        }
}

TEST_CASE("USM allocations that live together do not overlap and keep their contents",
          "[alloc][sizes]") {
    Fixture f;
    struct Live {
        void* ptr;
        Kind kind;
        size_t size;
        unsigned seed;
    };
    std::vector<Live> live;
    unsigned seed = 7;
    for (Kind kind : all_kinds)
        for (size_t size : {size_t{1}, size_t{5}, size_t{129}, size_t{4097}, size_t{300000}}) {
            void* p = must_allocate(f.usm, kind, f.ctx(), f.device, {}, size, 0);
            live.push_back({p, kind, size, seed});
            check_usable(f, p, kind, size, seed++);
        }
    // Written in turn, every allocation still holds its own pattern.
    for (const Live& a : live) {
        INFO(kind_name(a.kind) << " allocation of " << a.size << " bytes");
        if (a.kind != Kind::device) {
            CHECK(first_pattern_mismatch(static_cast<unsigned char*>(a.ptr), a.size, a.seed) ==
                  a.size);
        }
        for (const Live& b : live)
            if (&a != &b)
                CHECK((address(a.ptr) + a.size <= address(b.ptr) ||
                       address(b.ptr) + b.size <= address(a.ptr)));
    }
    for (const Live& a : live)
        CHECK_OK(f.usm.free(f.ctx(), a.ptr));
}

TEST_CASE("USM allocations start at a multiple of the alignment asked for (0 means 128)",
          "[alloc][alignment]") {
    Fixture f;
    const cl_uint alignments[] = {0, 1, 2, 4, 8, 16, 32, 64, 128};
    for (Kind kind : all_kinds)
        for (cl_uint alignment : alignments)
            for (size_t size : {size_t{1}, size_t{3}, size_t{100}, size_t{4097}}) {
                // Several at once, so that they are not all the first of a fresh range.
                std::vector<void*> ptrs;
                for (int i = 0; i < 8; ++i) {
                    void* p = must_allocate(f.usm, kind, f.ctx(), f.device, {}, size, alignment);
                    INFO(kind_name(kind) << " size " << size << " alignment " << alignment);
                    CHECK(address(p) % (alignment ? alignment : 128) == 0);
                    check_live(f.usm, f.ctx(), p, kind, size);
                    ptrs.push_back(p);
                }
                for (void* p : ptrs)
                    CHECK_OK(f.usm.free(f.ctx(), p));
            }
    for (cl_uint alignment : alignments) {
        void* p = must_allocate(f.usm, Kind::shared, f.ctx(), nullptr, {}, 33, alignment);
        CHECK(address(p) % (alignment ? alignment : 128) == 0);
        CHECK_OK(f.usm.free(f.ctx(), p));
    }
}

TEST_CASE("USM allocations with errcode_ret NULL", "[alloc]") {
    Fixture f;
    for (Kind kind : all_kinds) {
        void* p = allocate(f.usm, kind, f.ctx(), f.device, {}, 1000, 0, nullptr);
        REQUIRE(p != nullptr);
        check_live(f.usm, f.ctx(), p, kind, 1000);
        CHECK_OK(f.usm.free(f.ctx(), p));
    }
    void* s = allocate(f.usm, Kind::shared, f.ctx(), nullptr, {}, 1000, 64, nullptr);
    REQUIRE(s != nullptr);
    check_live(f.usm, f.ctx(), s, Kind::shared, 1000);
    CHECK_OK(f.usm.free(f.ctx(), s));
}

TEST_CASE("shared USM allocations with no device", "[alloc][shared]") {
    Fixture f;
    for (size_t size : {size_t{1}, size_t{4096}, size_t{(1 << 20) + 1}}) {
        void* p = must_allocate(f.usm, Kind::shared, f.ctx(), nullptr, {}, size, 0);
        CHECK(address(p) % 128 == 0);
        check_live(f.usm, f.ctx(), p, Kind::shared, size);
        CHECK(alloc_info<cl_device_id>(f.usm, f.ctx(), p, CL_MEM_ALLOC_DEVICE_INTEL) == nullptr);
        check_usable(f, p, Kind::shared, size, 99);
        CHECK_OK(f.usm.free(f.ctx(), p));
    }
}

TEST_CASE("USM allocation properties with CL_MEM_ALLOC_FLAGS_INTEL", "[alloc][properties]") {
    Fixture f;
    const cl_mem_properties_intel flags = CL_MEM_ALLOC_FLAGS_INTEL;
    const cl_mem_alloc_flags_intel wc = CL_MEM_ALLOC_WRITE_COMBINED_INTEL;
    const cl_mem_alloc_flags_intel on_device = CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL;
    const cl_mem_alloc_flags_intel on_host = CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL;

    auto check_accepted = [&](Kind kind, cl_device_id device, const Properties& properties,
                              cl_mem_alloc_flags_intel reported) {
        INFO(kind_name(kind) << " properties of " << properties.size() << " values, flags 0x"
                             << std::hex << reported);
        void* p = must_allocate(f.usm, kind, f.ctx(), device, properties, 4100, 0);
        CHECK(address(p) % 128 == 0);
        check_live(f.usm, f.ctx(), p, kind, 4100);
        CHECK(alloc_info<cl_mem_alloc_flags_intel>(f.usm, f.ctx(), p, CL_MEM_ALLOC_FLAGS_INTEL) ==
              reported);
        check_usable(f, p, kind, 4100, 3);
        CHECK_OK(f.usm.free(f.ctx(), p));
    };

    for (Kind kind : all_kinds) {
        check_accepted(kind, f.device, {}, 0);
        check_accepted(kind, f.device, {0}, 0);
        check_accepted(kind, f.device, {flags, 0, 0}, 0);
        check_accepted(kind, f.device, {flags, wc, 0}, wc);
    }
    for (cl_device_id device : {f.device, static_cast<cl_device_id>(nullptr)}) {
        check_accepted(Kind::shared, device, {flags, on_device, 0}, on_device);
        check_accepted(Kind::shared, device, {flags, on_host, 0}, on_host);
        check_accepted(Kind::shared, device, {flags, wc | on_host, 0}, wc | on_host);
        check_accepted(Kind::shared, device, {flags, wc | on_device, 0}, wc | on_device);
    }
}

// ---------------------------------------------------------------------------
// Freeing.

TEST_CASE("clMemFreeINTEL and clMemBlockingFreeINTEL of NULL do nothing", "[free]") {
    Fixture f;
    void* p = f.host(64);
    CHECK_OK(f.usm.free(f.ctx(), nullptr));
    CHECK_OK(f.usm.blocking_free(f.ctx(), nullptr));
    check_live(f.usm, f.ctx(), p, Kind::host, 64);
    CHECK_OK(f.usm.free(f.ctx(), p));
}

TEST_CASE("clMemFreeINTEL and clMemBlockingFreeINTEL free at once", "[free]") {
    Fixture f;
    for (Kind kind : all_kinds)
        for (bool blocking : {false, true}) {
            INFO(kind_name(kind) << (blocking ? " blocking" : ""));
            void* p = must_allocate(f.usm, kind, f.ctx(), f.device, {}, 333, 0);
            check_live(f.usm, f.ctx(), p, kind, 333);
            CHECK_OK(blocking ? f.usm.blocking_free(f.ctx(), p) : f.usm.free(f.ctx(), p));
            check_unknown(f.usm, f.ctx(), p);
            check_unknown(f.usm, f.ctx(), static_cast<char*>(p) + 332);
        }
}

TEST_CASE("freeing what is not a live allocation of the context: CL_INVALID_VALUE, nothing "
          "changes",
          "[free][errors]") {
    Fixture f;
    ContextPtr other = make_context({f.device});
    for (bool blocking : {false, true}) {
        auto free_fn = blocking ? f.usm.blocking_free : f.usm.free;
        for (Kind kind : all_kinds) {
            INFO(kind_name(kind) << (blocking ? ", clMemBlockingFreeINTEL" : ", clMemFreeINTEL"));
            constexpr size_t size = 1000;
            void* p = must_allocate(f.usm, kind, f.ctx(), f.device, {}, size, 0);
            auto* bytes = static_cast<char*>(p);

            // Interior pointers.
            CHECK_CL(free_fn(f.ctx(), bytes + 1), CL_INVALID_VALUE);
            CHECK_CL(free_fn(f.ctx(), bytes + size / 2), CL_INVALID_VALUE);
            CHECK_CL(free_fn(f.ctx(), bytes + size - 1), CL_INVALID_VALUE);
            check_live(f.usm, f.ctx(), p, kind, size);

            // System memory: the stack, malloc.
            int on_stack = 0;
            CHECK_CL(free_fn(f.ctx(), &on_stack), CL_INVALID_VALUE);
            void* system = std::malloc(256);
            REQUIRE(system != nullptr);
            CHECK_CL(free_fn(f.ctx(), system), CL_INVALID_VALUE);
            std::free(system);
            CHECK_CL(free_fn(f.ctx(), reinterpret_cast<void*>(uintptr_t{0x1000})),
                     CL_INVALID_VALUE);
            check_live(f.usm, f.ctx(), p, kind, size);

            // The allocation with another context: it stays live in its own.
            CHECK_CL(free_fn(other.get(), p), CL_INVALID_VALUE);
            check_live(f.usm, f.ctx(), p, kind, size);
            // And another context's allocation with this one.
            void* q = must_allocate(f.usm, kind, other.get(), f.device, {}, 48, 0);
            CHECK_CL(free_fn(f.ctx(), q), CL_INVALID_VALUE);
            check_live(f.usm, other.get(), q, kind, 48);
            CHECK_OK(free_fn(other.get(), q));

            // The contents are untouched by the failed frees.
            if (kind != Kind::device) {
                write_pattern(static_cast<unsigned char*>(p), size, 5);
                CHECK_CL(free_fn(f.ctx(), bytes + 7), CL_INVALID_VALUE);
                CHECK_CL(free_fn(other.get(), p), CL_INVALID_VALUE);
                CHECK(first_pattern_mismatch(static_cast<unsigned char*>(p), size, 5) == size);
            }

            // A double free.
            CHECK_OK(free_fn(f.ctx(), p));
            CHECK_CL(free_fn(f.ctx(), p), CL_INVALID_VALUE);
            check_unknown(f.usm, f.ctx(), p);
        }
    }
}

TEST_CASE("a double free does not free an allocation made in between", "[free][errors]") {
    Fixture f;
    for (Kind kind : all_kinds) {
        INFO(kind_name(kind));
        void* p = must_allocate(f.usm, kind, f.ctx(), f.device, {}, 256, 0);
        CHECK_OK(f.usm.free(f.ctx(), p));
        // The next allocations may reuse p's address; p's second free may only
        // succeed if p is one of them (then it frees that one, as asked).
        std::vector<void*> next;
        for (int i = 0; i < 4; ++i)
            next.push_back(must_allocate(f.usm, kind, f.ctx(), f.device, {}, 256, 0));
        const bool reused = std::find(next.begin(), next.end(), p) != next.end();
        if (!reused) {
            CHECK_CL(f.usm.free(f.ctx(), p), CL_INVALID_VALUE);
            for (void* q : next)
                check_live(f.usm, f.ctx(), q, kind, 256);
        }
        for (void* q : next)
            CHECK_OK(f.usm.free(f.ctx(), q));
    }
}

TEST_CASE("clMemFreeINTEL and clMemBlockingFreeINTEL with an invalid context: "
          "CL_INVALID_CONTEXT",
          "[free][errors]") {
    Fixture f;
    FakeObject fake(f.ctx(), 0x3c);
    void* p = f.shared(512, 0, f.device);
    for (cl_context bad : {static_cast<cl_context>(nullptr), fake.as<cl_context>(),
                           reinterpret_cast<cl_context>(f.device)}) {
        INFO("context " << static_cast<const void*>(bad));
        CHECK_CL(f.usm.free(bad, p), CL_INVALID_CONTEXT);
        CHECK_CL(f.usm.blocking_free(bad, p), CL_INVALID_CONTEXT);
        check_live(f.usm, f.ctx(), p, Kind::shared, 512);
    }
    CHECK_OK(f.usm.free(f.ctx(), p));
}

TEST_CASE("ten thousand USM allocations live at once, then all freed", "[free][many]") {
    Fixture f;
    struct Live {
        void* ptr;
        Kind kind;
        size_t size;
        cl_uint alignment;
    };
    std::mt19937 random(12345);
    std::vector<Live> live;
    constexpr int count = 10000;
    live.reserve(count);
    for (int i = 0; i < count; ++i) {
        const Kind kind = all_kinds[i % 3];
        const size_t size = 1 + random() % 600;
        const cl_uint alignment = (random() % 3 == 0) ? 0 : (1u << (random() % 8));
        void* p = must_allocate(f.usm, kind, f.ctx(), f.device, {}, size, alignment);
        REQUIRE(address(p) % (alignment ? alignment : 128) == 0);
        live.push_back({p, kind, size, alignment});
        if (kind != Kind::device) {
            // First and last byte carry the index.
            static_cast<unsigned char*>(p)[0] = static_cast<unsigned char>(i);
            static_cast<unsigned char*>(p)[size - 1] = static_cast<unsigned char>(i >> 8);
        }
    }
    // No two overlap.
    std::vector<Live> sorted = live;
    std::sort(sorted.begin(), sorted.end(),
              [](const Live& a, const Live& b) { return address(a.ptr) < address(b.ptr); });
    size_t overlaps = 0;
    for (size_t i = 1; i < sorted.size(); ++i)
        if (address(sorted[i - 1].ptr) + sorted[i - 1].size > address(sorted[i].ptr))
            ++overlaps;
    CHECK(overlaps == 0);
    // Every one answers for itself, at its first and last byte, and holds its bytes.
    size_t wrong = 0;
    for (int i = 0; i < count; ++i) {
        const Live& a = live[i];
        auto* last = static_cast<char*>(a.ptr) + a.size - 1;
        for (const void* probe :
             {static_cast<const void*>(a.ptr), static_cast<const void*>(last)}) {
            cl_unified_shared_memory_type_intel type = 0;
            void* base = nullptr;
            size_t size = 0;
            REQUIRE_OK(f.usm.alloc_info(f.ctx(), probe, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type,
                                        nullptr));
            REQUIRE_OK(f.usm.alloc_info(f.ctx(), probe, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof base,
                                        &base, nullptr));
            REQUIRE_OK(f.usm.alloc_info(f.ctx(), probe, CL_MEM_ALLOC_SIZE_INTEL, sizeof size, &size,
                                        nullptr));
            if (type != type_of(a.kind) || base != a.ptr || size != a.size)
                ++wrong;
        }
        if (a.kind != Kind::device) {
            const auto* bytes = static_cast<const unsigned char*>(a.ptr);
            if (a.size == 1) {
                if (bytes[0] != static_cast<unsigned char>(i >> 8))
                    ++wrong;
            } else if (bytes[0] != static_cast<unsigned char>(i) ||
                       bytes[a.size - 1] != static_cast<unsigned char>(i >> 8)) {
                ++wrong;
            }
        }
    }
    CHECK(wrong == 0);
    // Freed in a shuffled order, half of them with the blocking free.
    std::shuffle(live.begin(), live.end(), random);
    size_t failed_frees = 0;
    for (size_t i = 0; i < live.size(); ++i) {
        const cl_int status =
            (i % 2) ? f.usm.blocking_free(f.ctx(), live[i].ptr) : f.usm.free(f.ctx(), live[i].ptr);
        if (status != CL_SUCCESS)
            ++failed_frees;
    }
    CHECK(failed_frees == 0);
    size_t still_known = 0;
    for (const Live& a : live) {
        cl_unified_shared_memory_type_intel type = 0;
        REQUIRE_OK(
            f.usm.alloc_info(f.ctx(), a.ptr, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, nullptr));
        if (type != CL_MEM_TYPE_UNKNOWN_INTEL)
            ++still_known;
    }
    CHECK(still_known == 0);
}

// ---------------------------------------------------------------------------
// Contexts released with live allocations.

namespace {

void CL_CALLBACK count_destruction(cl_context, void* user_data) {
    static_cast<std::atomic<int>*>(user_data)->fetch_add(1);
}

} // namespace

TEST_CASE("a context released with live USM allocations is destroyed and frees them",
          "[free][context]") {
    const cl_device_id dev = device();
    const Usm usm = load_usm(platform());
    for (int round = 0; round < 10; ++round) {
        INFO("round " << round);
        ContextPtr context = make_context({dev});
        std::atomic<int> destroyed{0};
        REQUIRE_OK(clSetContextDestructorCallback(context.get(), count_destruction, &destroyed));
        const size_t sizes[] = {1, 4096, (1 << 20) + 5, 16 << 20};
        for (Kind kind : all_kinds)
            for (size_t size : sizes) {
                void* p = must_allocate(usm, kind, context.get(), dev, {}, size, 0);
                if (kind != Kind::device)
                    std::memset(p, round, size);
            }
        for (size_t size : sizes)
            must_allocate(usm, Kind::shared, context.get(), nullptr, {}, size, 16);
        // One allocation freed before the release, so the context holds a mix.
        void* freed = must_allocate(usm, Kind::host, context.get(), nullptr, {}, 100, 0);
        CHECK_OK(usm.free(context.get(), freed));
        context.reset();
        const auto deadline = std::chrono::steady_clock::now() + hang_limit;
        while (destroyed.load() == 0 && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(1ms);
        CHECK(destroyed.load() == 1);
    }
    // Allocations keep working in a new context.
    ContextPtr context = make_context({dev});
    void* p = must_allocate(usm, Kind::device, context.get(), dev, {}, 16 << 20, 0);
    check_live(usm, context.get(), p, Kind::device, 16 << 20);
    CHECK_OK(usm.free(context.get(), p));
}

TEST_CASE("a context released with live USM allocations and a finished queue", "[free][context]") {
    const cl_device_id dev = device();
    const Usm usm = load_usm(platform());
    ContextPtr context = make_context({dev});
    QueuePtr queue = make_queue(context.get(), dev);
    void* d = must_allocate(usm, Kind::device, context.get(), dev, {}, 1 << 20, 0);
    void* h = must_allocate(usm, Kind::host, context.get(), dev, {}, 1 << 20, 0);
    const unsigned char value = 0x42;
    REQUIRE_OK(usm.fill(queue.get(), d, &value, 1, 1 << 20, 0, nullptr, nullptr));
    REQUIRE_OK(usm.memcpy(queue.get(), CL_TRUE, h, d, 1 << 20, 0, nullptr, nullptr));
    CHECK(static_cast<unsigned char*>(h)[(1 << 20) - 1] == value);
    REQUIRE_OK(clFinish(queue.get()));
    queue.reset();
    context.reset();
}
