// Sub-tests of clGetMemAllocInfoINTEL: base, interior and outside pointers,
// return sizes, and its errors.
#include "usm.hpp"

#include <cstdlib>

using namespace usmconf;

namespace {

struct Info {
    cl_unified_shared_memory_type_intel type = 0;
    void* base = reinterpret_cast<void*>(1);
    size_t size = 1;
    cl_device_id device = reinterpret_cast<cl_device_id>(1);
    cl_mem_alloc_flags_intel flags = 1;
};

template <class T>
void query(Env& env, cl_context context, const void* p, cl_mem_info_intel name, T& value) {
    size_t returned = 0;
    CHECK_OK(env.usm.alloc_info(context, p, name, sizeof(T), &value, &returned));
    CHECK_MSG(returned == sizeof(T), "query 0x" << std::hex << name << ": param_value_size_ret "
                                                << std::dec << returned << ", expected "
                                                << sizeof(T));
    // The size alone.
    returned = 0;
    CHECK_OK(env.usm.alloc_info(context, p, name, 0, nullptr, &returned));
    CHECK_EQ(returned, sizeof(T));
}

Info info(Env& env, const void* p, cl_context context = nullptr) {
    if (context == nullptr)
        context = env.context;
    Info out;
    query(env, context, p, CL_MEM_ALLOC_TYPE_INTEL, out.type);
    query(env, context, p, CL_MEM_ALLOC_BASE_PTR_INTEL, out.base);
    query(env, context, p, CL_MEM_ALLOC_SIZE_INTEL, out.size);
    query(env, context, p, CL_MEM_ALLOC_DEVICE_INTEL, out.device);
    query(env, context, p, CL_MEM_ALLOC_FLAGS_INTEL, out.flags);
    return out;
}

// Table 4 for a pointer outside every allocation.
void check_unknown(const Info& got, const char* what) {
    CHECK_MSG(got.type == CL_MEM_TYPE_UNKNOWN_INTEL, what
                                                         << ": type 0x" << std::hex << got.type
                                                         << ", expected CL_MEM_TYPE_UNKNOWN_INTEL");
    CHECK_MSG(got.base == nullptr, what << ": base " << got.base << ", expected NULL");
    CHECK_MSG(got.size == 0, what << ": size " << got.size << ", expected 0");
    CHECK_MSG(got.device == nullptr, what << ": device " << got.device << ", expected NULL");
    CHECK_MSG(got.flags == 0, what << ": flags " << got.flags << ", expected 0");
}

// A non-NULL pointer outside every USM allocation (the stack, the system
// allocator, a freed allocation): CL_MEM_TYPE_UNKNOWN_INTEL. A device with
// shared system access may see system memory as shared memory (a shared
// system allocation is "a sub-class of a Shared allocation"): then the
// answer must at least be consistent.
void check_outside(Env& env, const Info& got, const void* p, const char* what) {
    if (got.type == CL_MEM_TYPE_SHARED_INTEL && env.accessible(Kind::system)) {
        const auto* base = static_cast<const std::byte*>(got.base);
        const auto* at = static_cast<const std::byte*>(p);
        CHECK_MSG(base <= at && at < base + got.size, what << ": reported as shared memory ["
                                                           << got.base << ", +" << got.size
                                                           << ") that does not contain it");
        note(std::string(what) + " is reported as CL_MEM_TYPE_SHARED_INTEL");
        return;
    }
    check_unknown(got, what);
}

cl_unified_shared_memory_type_intel expected_type(Kind kind) {
    switch (kind) {
    case Kind::host: return CL_MEM_TYPE_HOST_INTEL;
    case Kind::device: return CL_MEM_TYPE_DEVICE_INTEL;
    case Kind::shared:
    case Kind::shared_null_device: return CL_MEM_TYPE_SHARED_INTEL;
    case Kind::system: break;
    }
    return CL_MEM_TYPE_UNKNOWN_INTEL;
}

constexpr Kind usm_kinds[] = {Kind::host, Kind::device, Kind::shared, Kind::shared_null_device};

} // namespace

TEST(alloc_info, "clGetMemAllocInfoINTEL on base, interior, last-byte and outside pointers of "
                 "every kind") {
    constexpr size_t size = 4096 + 64;
    for (Kind kind : usm_kinds) {
        if (!env.allocatable(kind))
            continue;
        const cl_mem_alloc_flags_intel flags =
            kind == Kind::shared ? CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL : 0;
        const cl_mem_properties_intel properties[] = {CL_MEM_ALLOC_FLAGS_INTEL, flags, 0};
        Alloc alloc(env, kind, size, 0, properties);
        REQUIRE(alloc.error() == CL_SUCCESS && alloc.get() != nullptr);
        const cl_device_id expected_device =
            (kind == Kind::device || kind == Kind::shared) ? env.device : nullptr;
        for (size_t offset : {size_t{0}, size_t{1}, size / 2, size - 1}) {
            const Info got = info(env, alloc.bytes() + offset);
            CHECK_MSG(got.type == expected_type(kind),
                      kind_name(kind) << " +" << offset << ": type 0x" << std::hex << got.type);
            CHECK_MSG(got.base == alloc.get(), kind_name(kind)
                                                   << " +" << offset << ": base " << got.base
                                                   << ", expected " << alloc.get());
            // The size of the allocation: at least what was asked.
            CHECK_MSG(got.size >= size, kind_name(kind) << " +" << offset << ": size " << got.size
                                                        << ", requested " << size);
            CHECK_MSG(got.device == expected_device,
                      kind_name(kind) << " +" << offset << ": device " << got.device
                                      << ", expected " << expected_device);
            CHECK_MSG(got.flags == flags, kind_name(kind) << " +" << offset << ": flags "
                                                          << got.flags << ", expected " << flags);
        }
        // One past the end may be in another allocation; whatever it is, the
        // answer must be consistent.
        const std::byte* past = alloc.bytes() + size;
        const Info got = info(env, past);
        if (got.type == CL_MEM_TYPE_UNKNOWN_INTEL) {
            check_unknown(got, "one past the end");
        } else {
            const std::byte* base = static_cast<const std::byte*>(got.base);
            CHECK_MSG(base <= past && past < base + got.size,
                      "one past the end: reported allocation [" << got.base << ", +" << got.size
                                                                << ") does not contain it");
        }
    }
    // Pointers outside every allocation: NULL, the stack, the system
    // allocator.
    check_unknown(info(env, nullptr), "NULL");
    int on_stack = 0;
    check_outside(env, info(env, &on_stack), &on_stack, "a stack pointer");
    void* system = std::malloc(256);
    REQUIRE(system != nullptr);
    check_outside(env, info(env, system), system, "malloc memory");
    char* inside = static_cast<char*>(system) + 100;
    check_outside(env, info(env, inside), inside, "malloc memory + 100");
    std::free(system);
    // A freed allocation (nothing allocated since).
    for (Kind kind : usm_kinds) {
        if (!env.allocatable(kind))
            continue;
        Alloc alloc(env, kind, 512);
        REQUIRE(alloc.get() != nullptr);
        void* p = alloc.get();
        alloc.reset();
        check_outside(env, info(env, p), p, "a freed allocation");
        char* inside_freed = static_cast<char*>(p) + 10;
        check_outside(env, info(env, inside_freed), inside_freed, "inside a freed allocation");
    }
}

TEST(alloc_info_other_context, "clGetMemAllocInfoINTEL with an allocation of another context "
                               "answers UNKNOWN or the allocation's own values") {
    Context other = other_context(env);
    size_t done = 0;
    for (Kind kind : usm_kinds) {
        if (!env.allocatable(kind))
            continue;
        cl_int error = CL_SUCCESS;
        void* p = nullptr;
        if (kind == Kind::host)
            p = env.usm.host_alloc(other.get(), nullptr, 256, 0, &error);
        else if (kind == Kind::device)
            p = env.usm.device_alloc(other.get(), env.device, nullptr, 256, 0, &error);
        else
            p = env.usm.shared_alloc(other.get(), kind == Kind::shared ? env.device : nullptr,
                                     nullptr, 256, 0, &error);
        REQUIRE(error == CL_SUCCESS && p != nullptr);
        // Its own context knows it.
        const Info own = info(env, p, other.get());
        CHECK_EQ(own.type, expected_type(kind));
        CHECK_EQ(own.base, p);
        // The spec leaves the answer through another context open: UNKNOWN
        // or the allocation's values.
        const Info got = info(env, static_cast<char*>(p) + 8);
        if (got.type == CL_MEM_TYPE_UNKNOWN_INTEL) {
            check_unknown(got, "another context's allocation");
        } else {
            CHECK_EQ(got.type, expected_type(kind));
            CHECK_EQ(got.base, p);
        }
        CHECK_OK(env.usm.free(other.get(), p));
        ++done;
    }
    if (done == 0)
        SKIP("no USM kind is allocatable");
}

TEST(alloc_info_errors, "clGetMemAllocInfoINTEL: CL_INVALID_CONTEXT, unknown param_name, "
                        "param_value_size too small") {
    Alloc alloc;
    for (Kind kind : usm_kinds)
        if (!alloc.get() && env.allocatable(kind))
            alloc = Alloc(env, kind, 64);
    // Errors on a pointer outside USM too, when nothing is allocatable.
    int on_stack = 0;
    const void* p = alloc.get() ? alloc.get() : &on_stack;
    cl_unified_shared_memory_type_intel type = 0;
    CHECK_ERR(env.usm.alloc_info(nullptr, p, CL_MEM_ALLOC_TYPE_INTEL, sizeof(type), &type, nullptr),
              CL_INVALID_CONTEXT);
    unsigned char buffer[64] = {};
    for (cl_mem_info_intel bad : {cl_mem_info_intel{0}, cl_mem_info_intel{CL_MEM_SIZE},
                                  cl_mem_info_intel{0x4196}, cl_mem_info_intel{0x7FFF}})
        CHECK_ERR(env.usm.alloc_info(env.context, p, bad, sizeof(buffer), buffer, nullptr),
                  CL_INVALID_VALUE);
    const struct {
        cl_mem_info_intel name;
        size_t size;
    } queries[] = {
        {CL_MEM_ALLOC_TYPE_INTEL, sizeof(cl_unified_shared_memory_type_intel)},
        {CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof(void*)},
        {CL_MEM_ALLOC_SIZE_INTEL, sizeof(size_t)},
        {CL_MEM_ALLOC_DEVICE_INTEL, sizeof(cl_device_id)},
        {CL_MEM_ALLOC_FLAGS_INTEL, sizeof(cl_mem_alloc_flags_intel)},
    };
    for (const auto& q : queries) {
        for (const void* where : {p, static_cast<const void*>(&on_stack)}) {
            CHECK_ERR(env.usm.alloc_info(env.context, where, q.name, q.size - 1, buffer, nullptr),
                      CL_INVALID_VALUE);
            CHECK_ERR(env.usm.alloc_info(env.context, where, q.name, 0, buffer, nullptr),
                      CL_INVALID_VALUE);
            // Larger is fine; NULL param_value ignores the size.
            CHECK_OK(env.usm.alloc_info(env.context, where, q.name, q.size + 8, buffer, nullptr));
            CHECK_OK(env.usm.alloc_info(env.context, where, q.name, 0, nullptr, nullptr));
        }
    }
}
