// What usmcl says about cl_intel_unified_shared_memory: the extension in the
// device and platform extension lists (with version 1.0.0), the five USM
// capability queries, the twelve entry points found by both lookup
// functions, and clGetMemAllocInfoINTEL: every query for first, middle and
// last bytes of every type, the answers for pointers outside the context's
// allocations, the size rules and errors, and correct answers among 100k live
// allocations (checked against a host model).
#include "usm_test.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <random>
#include <sstream>

using namespace cl_test;
using namespace usm_test;

namespace {

constexpr const char* extension_name = "cl_intel_unified_shared_memory";

constexpr Kind all_kinds[] = {Kind::host, Kind::device, Kind::shared, Kind::shared_no_device};

// The device CL_MEM_ALLOC_DEVICE_INTEL names for an allocation of kind.
cl_device_id device_of(Kind kind, cl_device_id device) {
    return (kind == Kind::device || kind == Kind::shared) ? device : nullptr;
}

void* allocate(const Fixture& f, Kind kind, size_t size, cl_uint alignment = 0,
               cl_mem_alloc_flags_intel flags = 0) {
    const cl_mem_properties_intel properties[] = {CL_MEM_ALLOC_FLAGS_INTEL, flags, 0};
    const cl_mem_properties_intel* list = flags ? properties : nullptr;
    cl_int error = CL_OUT_OF_RESOURCES;
    void* p = try_alloc(f.usm, kind, f.ctx(), f.device, list, size, alignment, &error);
    INFO(kind_name(kind) << " allocation of " << size << " bytes");
    REQUIRE_OK(error);
    REQUIRE(p != nullptr);
    return p;
}

// A scalar answer of clGetMemAllocInfoINTEL; its size must be sizeof(T).
template <class T>
T alloc_info(const Usm& usm, cl_context context, const void* ptr, cl_mem_info_intel param) {
    INFO("clGetMemAllocInfoINTEL param 0x" << std::hex << param << " ptr " << ptr);
    size_t size = 0;
    REQUIRE_OK(usm.alloc_info(context, ptr, param, 0, nullptr, &size));
    REQUIRE(size == sizeof(T));
    T value{};
    size_t written = 0;
    REQUIRE_OK(usm.alloc_info(context, ptr, param, sizeof value, &value, &written));
    REQUIRE(written == sizeof(T));
    return value;
}

struct Answers {
    cl_unified_shared_memory_type_intel type;
    void* base;
    size_t size;
    cl_device_id device;
    cl_mem_alloc_flags_intel flags;
    bool operator==(const Answers&) const = default;
};

std::ostream& operator<<(std::ostream& out, const Answers& a) {
    return out << "{type 0x" << std::hex << a.type << ", base " << a.base << ", size " << std::dec
               << a.size << ", device " << static_cast<const void*>(a.device) << ", flags 0x"
               << std::hex << a.flags << std::dec << "}";
}

Answers answers(const Usm& usm, cl_context context, const void* ptr) {
    return {
        alloc_info<cl_unified_shared_memory_type_intel>(usm, context, ptr, CL_MEM_ALLOC_TYPE_INTEL),
        alloc_info<void*>(usm, context, ptr, CL_MEM_ALLOC_BASE_PTR_INTEL),
        alloc_info<size_t>(usm, context, ptr, CL_MEM_ALLOC_SIZE_INTEL),
        alloc_info<cl_device_id>(usm, context, ptr, CL_MEM_ALLOC_DEVICE_INTEL),
        alloc_info<cl_mem_alloc_flags_intel>(usm, context, ptr, CL_MEM_ALLOC_FLAGS_INTEL)};
}

constexpr Answers unknown{CL_MEM_TYPE_UNKNOWN_INTEL, nullptr, 0, nullptr, 0};

} // namespace

namespace Catch {
template <>
struct StringMaker<Answers> {
    static std::string convert(const Answers& a) {
        std::ostringstream out;
        out << a;
        return out.str();
    }
};
} // namespace Catch

// ---------------------------------------------------------------------------
// Extension lists, capabilities and entry points.

TEST_CASE("cl_intel_unified_shared_memory is in the extension lists", "[info][extension]") {
    const cl_device_id dev = device();
    const cl_platform_id plat = platform();
    const auto device_words = split_words(device_info_string(dev, CL_DEVICE_EXTENSIONS));
    CHECK(std::count(device_words.begin(), device_words.end(), extension_name) == 1);
    const auto platform_words = split_words(platform_info_string(plat, CL_PLATFORM_EXTENSIONS));
    CHECK(std::count(platform_words.begin(), platform_words.end(), extension_name) == 1);

    const auto device_list =
        device_info_array<cl_name_version>(dev, CL_DEVICE_EXTENSIONS_WITH_VERSION);
    const auto platform_list =
        info_array<cl_name_version>(clGetPlatformInfo, plat, CL_PLATFORM_EXTENSIONS_WITH_VERSION);
    for (const auto* list : {&device_list, &platform_list}) {
        int found = 0;
        for (const cl_name_version& entry : *list)
            if (std::string(entry.name) == extension_name) {
                ++found;
                CHECK(entry.version == CL_MAKE_VERSION(1, 0, 0));
            }
        CHECK(found == 1);
    }
}

TEST_CASE("the five USM capability queries answer access, atomics and concurrency",
          "[info][capabilities]") {
    const cl_device_id dev = device();
    const cl_device_unified_shared_memory_capabilities_intel all =
        CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |
        CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL |
        CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL;
    REQUIRE(all == 0xF);
    for (cl_device_info param :
         {CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL, CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL,
          CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
          CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
          CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL}) {
        INFO("param 0x" << std::hex << param);
        CHECK(device_info<cl_device_unified_shared_memory_capabilities_intel>(dev, param) == all);
        // A buffer too small for the answer.
        cl_uint small = 0;
        CHECK_CL(clGetDeviceInfo(dev, param, sizeof small, &small, nullptr), CL_INVALID_VALUE);
    }
}

TEST_CASE("the capability queries of a sub-device", "[info][capabilities][sub-devices]") {
    const cl_device_id root = device();
    if (device_info<cl_uint>(root, CL_DEVICE_MAX_COMPUTE_UNITS) < 2) {
        WARN("one compute unit: nothing to partition");
        return;
    }
    auto subs = create_sub_devices(root, {CL_DEVICE_PARTITION_EQUALLY, 1, 0});
    for (cl_device_info param :
         {CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL, CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL,
          CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
          CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
          CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL})
        CHECK(device_info<cl_device_unified_shared_memory_capabilities_intel>(subs[0].get(),
                                                                              param) == 0xF);
    const auto words = split_words(device_info_string(subs[0].get(), CL_DEVICE_EXTENSIONS));
    CHECK(std::count(words.begin(), words.end(), extension_name) == 1);
}

TEST_CASE("the twelve USM entry points resolve through both lookup functions",
          "[info][entry-points]") {
    const cl_platform_id plat = platform();
    const char* names[] = {"clHostMemAllocINTEL",           "clDeviceMemAllocINTEL",
                           "clSharedMemAllocINTEL",         "clMemFreeINTEL",
                           "clMemBlockingFreeINTEL",        "clGetMemAllocInfoINTEL",
                           "clSetKernelArgMemPointerINTEL", "clEnqueueMemFillINTEL",
                           "clEnqueueMemcpyINTEL",          "clEnqueueMigrateMemINTEL",
                           "clEnqueueMemAdviseINTEL",       "clEnqueueMemsetINTEL"};
    std::vector<void*> addresses;
    for (const char* name : names) {
        INFO(name);
        void* for_platform = clGetExtensionFunctionAddressForPlatform(plat, name);
        void* any = clGetExtensionFunctionAddress(name);
        CHECK(for_platform != nullptr);
        CHECK(any != nullptr);
        CHECK(any == for_platform);
        addresses.push_back(for_platform);
    }
    // Twelve different functions.
    std::sort(addresses.begin(), addresses.end());
    CHECK(std::unique(addresses.begin(), addresses.end()) == addresses.end());
    // Names that are not entry points of usmcl.
    for (const char* name : {"clFooINTEL", "clHostMemAllocINTELx", "clhostmemallocintel",
                             "clMemAllocINTEL", "clCreateBufferWithPropertiesINTEL"}) {
        INFO(name);
        CHECK(clGetExtensionFunctionAddressForPlatform(plat, name) == nullptr);
    }
    // The table of usm_test.hpp loads.
    const Usm usm = load_usm(plat);
    CHECK(reinterpret_cast<void*>(usm.memset) ==
          clGetExtensionFunctionAddressForPlatform(plat, "clEnqueueMemsetINTEL"));
}

// ---------------------------------------------------------------------------
// clGetMemAllocInfoINTEL.

TEST_CASE("clGetMemAllocInfoINTEL answers for the first, a middle and the last byte",
          "[info][alloc-info]") {
    Fixture f;
    for (Kind kind : all_kinds)
        for (size_t size : {size_t{1}, size_t{2}, size_t{129}, size_t{4096}, size_t{1000003}}) {
            void* p = allocate(f, kind, size);
            auto* bytes = static_cast<char*>(p);
            const Answers expected{type_of(kind), p, size, device_of(kind, f.device), 0};
            for (size_t offset : {size_t{0}, size / 2, size - 1}) {
                INFO(kind_name(kind) << " size " << size << " offset " << offset);
                CHECK(answers(f.usm, f.ctx(), bytes + offset) == expected);
            }
            CHECK_OK(f.usm.free(f.ctx(), p));
        }
}

TEST_CASE("clGetMemAllocInfoINTEL reports the allocation flags", "[info][alloc-info]") {
    Fixture f;
    const cl_mem_alloc_flags_intel wc = CL_MEM_ALLOC_WRITE_COMBINED_INTEL;
    for (Kind kind : all_kinds) {
        void* p = allocate(f, kind, 300, 0, wc);
        CHECK(alloc_info<cl_mem_alloc_flags_intel>(f.usm, f.ctx(), static_cast<char*>(p) + 299,
                                                   CL_MEM_ALLOC_FLAGS_INTEL) == wc);
        CHECK_OK(f.usm.free(f.ctx(), p));
    }
    for (cl_mem_alloc_flags_intel flags :
         {cl_mem_alloc_flags_intel{CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL},
          cl_mem_alloc_flags_intel{CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL | wc}}) {
        void* p = allocate(f, Kind::shared, 300, 0, flags);
        CHECK(alloc_info<cl_mem_alloc_flags_intel>(f.usm, f.ctx(), static_cast<char*>(p) + 150,
                                                   CL_MEM_ALLOC_FLAGS_INTEL) == flags);
        CHECK_OK(f.usm.free(f.ctx(), p));
    }
}

TEST_CASE("clGetMemAllocInfoINTEL outside the context's allocations answers UNKNOWN, NULL, 0",
          "[info][alloc-info]") {
    Fixture f;
    ContextPtr other = make_context({f.device});

    SECTION("NULL") {
        CHECK(answers(f.usm, f.ctx(), nullptr) == unknown);
    }
    SECTION("system memory") {
        void* system = std::malloc(1000);
        REQUIRE(system != nullptr);
        CHECK(answers(f.usm, f.ctx(), system) == unknown);
        CHECK(answers(f.usm, f.ctx(), static_cast<char*>(system) + 999) == unknown);
        std::free(system);
        int on_stack = 0;
        CHECK(answers(f.usm, f.ctx(), &on_stack) == unknown);
        CHECK(answers(f.usm, f.ctx(), &extension_name) == unknown);
    }
    SECTION("one past the end of an allocation, and one before its start") {
        for (Kind kind : all_kinds)
            for (size_t size : {size_t{1}, size_t{100}, size_t{128}, size_t{4096}}) {
                INFO(kind_name(kind) << " size " << size);
                // Two allocations live, so the byte after the first is not the
                // start of the second by chance only if they are apart.
                void* p = allocate(f, kind, size);
                char* end = static_cast<char*>(p) + size;
                CHECK(answers(f.usm, f.ctx(), end) == unknown);
                CHECK(answers(f.usm, f.ctx(), static_cast<char*>(p) - 1) == unknown);
                CHECK_OK(f.usm.free(f.ctx(), p));
            }
    }
    SECTION("a freed allocation") {
        for (Kind kind : all_kinds) {
            INFO(kind_name(kind));
            void* p = allocate(f, kind, 777);
            CHECK_OK(f.usm.free(f.ctx(), p));
            CHECK(answers(f.usm, f.ctx(), p) == unknown);
            CHECK(answers(f.usm, f.ctx(), static_cast<char*>(p) + 776) == unknown);
            void* q = allocate(f, kind, 777);
            CHECK_OK(f.usm.blocking_free(f.ctx(), q));
            CHECK(answers(f.usm, f.ctx(), static_cast<char*>(q) + 3) == unknown);
        }
    }
    SECTION("another context's allocation") {
        for (Kind kind : all_kinds) {
            INFO(kind_name(kind));
            cl_int error = CL_OUT_OF_RESOURCES;
            void* p = try_alloc(f.usm, kind, other.get(), f.device, nullptr, 64, 0, &error);
            REQUIRE_OK(error);
            REQUIRE(p != nullptr);
            CHECK(answers(f.usm, f.ctx(), p) == unknown);
            CHECK(answers(f.usm, f.ctx(), static_cast<char*>(p) + 63) == unknown);
            // Its own context knows it.
            CHECK(answers(f.usm, other.get(), p) ==
                  Answers{type_of(kind), p, 64, device_of(kind, f.device), 0});
            CHECK_OK(f.usm.free(other.get(), p));
        }
    }
}

TEST_CASE("clGetMemAllocInfoINTEL with param_value NULL reports the size only",
          "[info][alloc-info]") {
    Fixture f;
    void* p = f.dev(64);
    const std::pair<cl_mem_info_intel, size_t> params[] = {
        {CL_MEM_ALLOC_TYPE_INTEL, sizeof(cl_unified_shared_memory_type_intel)},
        {CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof(void*)},
        {CL_MEM_ALLOC_SIZE_INTEL, sizeof(size_t)},
        {CL_MEM_ALLOC_DEVICE_INTEL, sizeof(cl_device_id)},
        {CL_MEM_ALLOC_FLAGS_INTEL, sizeof(cl_mem_alloc_flags_intel)}};
    for (auto [param, size] : params) {
        INFO("param 0x" << std::hex << param);
        for (const void* ptr : {static_cast<const void*>(p), static_cast<const void*>(nullptr)}) {
            size_t reported = 12345;
            CHECK_OK(f.usm.alloc_info(f.ctx(), ptr, param, 0, nullptr, &reported));
            CHECK(reported == size);
            // A size with a NULL value is ignored.
            reported = 12345;
            CHECK_OK(f.usm.alloc_info(f.ctx(), ptr, param, 3, nullptr, &reported));
            CHECK(reported == size);
            // Neither wanted: nothing to do.
            CHECK_OK(f.usm.alloc_info(f.ctx(), ptr, param, 0, nullptr, nullptr));
        }
        // A larger buffer takes the answer, written at the start only.
        std::vector<unsigned char> buffer(size + 8, 0xEE);
        size_t reported = 0;
        CHECK_OK(f.usm.alloc_info(f.ctx(), p, param, buffer.size(), buffer.data(), &reported));
        CHECK(reported == size);
        CHECK(std::count(buffer.begin() + static_cast<std::ptrdiff_t>(size), buffer.end(), 0xEE) ==
              8);
    }
    CHECK_OK(f.usm.free(f.ctx(), p));
}

TEST_CASE("clGetMemAllocInfoINTEL with param_value_size too small: CL_INVALID_VALUE",
          "[info][alloc-info][errors]") {
    Fixture f;
    void* p = f.shared(64, 0, f.device);
    const std::pair<cl_mem_info_intel, size_t> params[] = {
        {CL_MEM_ALLOC_TYPE_INTEL, sizeof(cl_unified_shared_memory_type_intel)},
        {CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof(void*)},
        {CL_MEM_ALLOC_SIZE_INTEL, sizeof(size_t)},
        {CL_MEM_ALLOC_DEVICE_INTEL, sizeof(cl_device_id)},
        {CL_MEM_ALLOC_FLAGS_INTEL, sizeof(cl_mem_alloc_flags_intel)}};
    for (auto [param, size] : params)
        for (const void* ptr : {static_cast<const void*>(p), static_cast<const void*>(nullptr)})
            for (size_t given : {size_t{0}, size_t{1}, size - 1}) {
                INFO("param 0x" << std::hex << param << std::dec << " size " << given << " ptr "
                                << ptr);
                unsigned char buffer[16];
                std::memset(buffer, 0xEE, sizeof buffer);
                CHECK_CL(f.usm.alloc_info(f.ctx(), ptr, param, given, buffer, nullptr),
                         CL_INVALID_VALUE);
                size_t reported = 0;
                CHECK_CL(f.usm.alloc_info(f.ctx(), ptr, param, given, buffer, &reported),
                         CL_INVALID_VALUE);
            }
    CHECK_OK(f.usm.free(f.ctx(), p));
}

TEST_CASE("clGetMemAllocInfoINTEL with an unknown param_name: CL_INVALID_VALUE",
          "[info][alloc-info][errors]") {
    Fixture f;
    void* p = f.host(64);
    const cl_mem_info_intel bad[] = {0,
                                     0x4196, // a type, not a query
                                     0x4199,
                                     0x419E, // CL_MEM_ALLOC_BUFFER_LOCATION_INTEL: not supported
                                     0x41A0, CL_MEM_SIZE, CL_MEM_TYPE, 0xffffffffu};
    for (cl_mem_info_intel param : bad)
        for (const void* ptr : {static_cast<const void*>(p), static_cast<const void*>(nullptr)}) {
            INFO("param 0x" << std::hex << param);
            unsigned char buffer[16];
            size_t reported = 0;
            CHECK_CL(f.usm.alloc_info(f.ctx(), ptr, param, sizeof buffer, buffer, &reported),
                     CL_INVALID_VALUE);
            CHECK_CL(f.usm.alloc_info(f.ctx(), ptr, param, 0, nullptr, &reported),
                     CL_INVALID_VALUE);
        }
    CHECK_OK(f.usm.free(f.ctx(), p));
}

TEST_CASE("clGetMemAllocInfoINTEL with an invalid context: CL_INVALID_CONTEXT",
          "[info][alloc-info][errors]") {
    Fixture f;
    void* p = f.host(64);
    FakeObject fake(f.ctx(), 0x77);
    for (cl_context bad :
         {static_cast<cl_context>(nullptr), fake.as<cl_context>(),
          reinterpret_cast<cl_context>(f.device), reinterpret_cast<cl_context>(f.q())})
        for (const void* ptr : {static_cast<const void*>(p), static_cast<const void*>(nullptr)}) {
            INFO("context " << static_cast<const void*>(bad) << " ptr " << ptr);
            cl_unified_shared_memory_type_intel type = 0;
            size_t reported = 0;
            CHECK_CL(
                f.usm.alloc_info(bad, ptr, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, &reported),
                CL_INVALID_CONTEXT);
            CHECK_CL(f.usm.alloc_info(bad, ptr, CL_MEM_ALLOC_SIZE_INTEL, 0, nullptr, &reported),
                     CL_INVALID_CONTEXT);
        }
    CHECK_OK(f.usm.free(f.ctx(), p));
}

TEST_CASE("clGetMemAllocInfoINTEL among 100k live allocations matches a host model",
          "[info][alloc-info][many]") {
    Fixture f;
    struct Model {
        size_t size;
        Kind kind;
    };
    std::map<uintptr_t, Model> model; // base address -> allocation
    std::mt19937_64 random(2024);
    constexpr int count = 100000;
    // Plain status checks in the loops: a Catch2 assertion per call would
    // dominate the run time.
    size_t failed_calls = 0;
    for (int i = 0; i < count; ++i) {
        const Kind kind = all_kinds[random() % 4];
        const size_t size = 1 + random() % 256;
        const cl_uint alignment = (random() % 2) ? 0 : (1u << (random() % 8));
        cl_int error = CL_OUT_OF_RESOURCES;
        void* p = try_alloc(f.usm, kind, f.ctx(), f.device, nullptr, size, alignment, &error);
        if (error != CL_SUCCESS || p == nullptr) {
            ++failed_calls;
            continue;
        }
        if (!model.emplace(reinterpret_cast<uintptr_t>(p), Model{size, kind}).second)
            ++failed_calls; // the same address twice
    }
    REQUIRE(failed_calls == 0);
    // Free a tenth of them, so the model has holes where allocations were.
    std::vector<uintptr_t> bases;
    for (const auto& [base, a] : model)
        bases.push_back(base);
    std::vector<uintptr_t> freed;
    for (uintptr_t base : bases)
        if (random() % 10 == 0) {
            if (f.usm.free(f.ctx(), reinterpret_cast<void*>(base)) != CL_SUCCESS)
                ++failed_calls;
            model.erase(base);
            freed.push_back(base);
        }

    // The answer of the model for any address.
    auto expected = [&](uintptr_t address) -> Answers {
        auto it = model.upper_bound(address);
        if (it == model.begin())
            return unknown;
        --it;
        if (address >= it->first + it->second.size)
            return unknown;
        return {type_of(it->second.kind), reinterpret_cast<void*>(it->first), it->second.size,
                device_of(it->second.kind, f.device), 0};
    };
    auto actual = [&](uintptr_t address) -> Answers {
        const void* ptr = reinterpret_cast<const void*>(address);
        Answers a{};
        const cl_int statuses[] = {f.usm.alloc_info(f.ctx(), ptr, CL_MEM_ALLOC_TYPE_INTEL,
                                                    sizeof a.type, &a.type, nullptr),
                                   f.usm.alloc_info(f.ctx(), ptr, CL_MEM_ALLOC_BASE_PTR_INTEL,
                                                    sizeof a.base, &a.base, nullptr),
                                   f.usm.alloc_info(f.ctx(), ptr, CL_MEM_ALLOC_SIZE_INTEL,
                                                    sizeof a.size, &a.size, nullptr),
                                   f.usm.alloc_info(f.ctx(), ptr, CL_MEM_ALLOC_DEVICE_INTEL,
                                                    sizeof a.device, &a.device, nullptr),
                                   f.usm.alloc_info(f.ctx(), ptr, CL_MEM_ALLOC_FLAGS_INTEL,
                                                    sizeof a.flags, &a.flags, nullptr)};
        for (cl_int status : statuses)
            if (status != CL_SUCCESS)
                ++failed_calls;
        return a;
    };

    std::vector<uintptr_t> live_bases;
    for (const auto& [base, a] : model)
        live_bases.push_back(base);
    size_t wrong = 0;
    size_t known = 0;
    uintptr_t first_wrong = 0;
    auto probe = [&](uintptr_t address) {
        const Answers want = expected(address);
        if (want.type != CL_MEM_TYPE_UNKNOWN_INTEL)
            ++known;
        if (actual(address) != want) {
            if (wrong == 0)
                first_wrong = address;
            ++wrong;
        }
    };
    for (int i = 0; i < 100000; ++i) {
        switch (random() % 4) {
        case 0:
        case 1: { // an interior byte of a live allocation
            const uintptr_t base = live_bases[random() % live_bases.size()];
            probe(base + random() % model.at(base).size);
            break;
        }
        case 2: { // around the ends of a live allocation
            const uintptr_t base = live_bases[random() % live_bases.size()];
            const size_t size = model.at(base).size;
            const uintptr_t near[] = {base - 1, base + size - 1, base + size, base + size + 1};
            probe(near[random() % 4]);
            break;
        }
        case 3: { // inside a freed allocation
            if (!freed.empty())
                probe(freed[random() % freed.size()] + random() % 4);
            break;
        }
        }
    }
    INFO("first wrong answer at 0x" << std::hex << first_wrong << ": expected "
                                    << expected(first_wrong) << ", got " << actual(first_wrong));
    CHECK(wrong == 0);
    CHECK(known > 50000);
    for (const auto& [base, a] : model)
        if (f.usm.free(f.ctx(), reinterpret_cast<void*>(base)) != CL_SUCCESS)
            ++failed_calls;
    CHECK(failed_calls == 0);
}
