// Sub-tests of the extension's functions and device queries, allocations
// (sizes, alignment, properties, every listed error) and frees.
#include "usm.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

using namespace usmconf;

namespace {

constexpr Kind usm_kinds[] = {Kind::host, Kind::device, Kind::shared, Kind::shared_null_device};

// Calls the allocation function of a USM kind with explicit arguments.
void* alloc_call(Env& env, Kind kind, cl_context context, cl_device_id device,
                 const cl_mem_properties_intel* properties, size_t size, cl_uint alignment,
                 cl_int* error) {
    switch (kind) {
    case Kind::host: return env.usm.host_alloc(context, properties, size, alignment, error);
    case Kind::device:
        return env.usm.device_alloc(context, device, properties, size, alignment, error);
    case Kind::shared:
        return env.usm.shared_alloc(context, device, properties, size, alignment, error);
    case Kind::shared_null_device:
        return env.usm.shared_alloc(context, nullptr, properties, size, alignment, error);
    case Kind::system: break;
    }
    return nullptr;
}

void* alloc_call(Env& env, Kind kind, const cl_mem_properties_intel* properties, size_t size,
                 cl_uint alignment, cl_int* error) {
    return alloc_call(env, kind, env.context, env.device, properties, size, alignment, error);
}

// An allocation call that must fail with `expected` and return NULL.
#define CHECK_ALLOC_FAILS(kind, call_args, expected)                                               \
    do {                                                                                           \
        cl_int usmconf_error = CL_SUCCESS;                                                         \
        void* usmconf_p = alloc_call call_args;                                                    \
        CHECK_MSG(usmconf_error == (expected) && usmconf_p == nullptr,                             \
                  kind_name(kind) << " allocation " #call_args ": returned "                       \
                                  << error_name(usmconf_error) << " and " << show(usmconf_p)       \
                                  << ", expected " << error_name(expected) << " and NULL");        \
        if (usmconf_p != nullptr)                                                                  \
            env.usm.free(env.context, usmconf_p);                                                  \
    } while (0)

bool aligned(const void* p, size_t alignment) {
    return reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

cl_mem_alloc_flags_intel alloc_flags(Env& env, const void* p) {
    cl_mem_alloc_flags_intel flags = ~cl_mem_alloc_flags_intel{0};
    CHECK_OK(env.usm.alloc_info(env.context, p, CL_MEM_ALLOC_FLAGS_INTEL, sizeof(flags), &flags,
                                nullptr));
    return flags;
}

} // namespace

TEST(extension_functions, "the device reports the extension and every function is returned by "
                          "clGetExtensionFunctionAddressForPlatform") {
    size_t size = 0;
    REQUIRE_OK(clGetDeviceInfo(env.device, CL_DEVICE_EXTENSIONS, 0, nullptr, &size));
    std::string extensions(size, '\0');
    REQUIRE_OK(clGetDeviceInfo(env.device, CL_DEVICE_EXTENSIONS, size, extensions.data(), nullptr));
    CHECK(extensions.find("cl_intel_unified_shared_memory") != std::string::npos);
    for (const char* name :
         {"clHostMemAllocINTEL", "clDeviceMemAllocINTEL", "clSharedMemAllocINTEL", "clMemFreeINTEL",
          "clMemBlockingFreeINTEL", "clGetMemAllocInfoINTEL", "clSetKernelArgMemPointerINTEL",
          "clEnqueueMemFillINTEL", "clEnqueueMemcpyINTEL", "clEnqueueMigrateMemINTEL",
          "clEnqueueMemAdviseINTEL"}) {
        void* address = clGetExtensionFunctionAddressForPlatform(env.platform, name);
        CHECK_MSG(address != nullptr, name << " is not returned");
    }
}

TEST(device_capabilities, "the five capability queries: type, size, defined bits, device access "
                          "required") {
    const cl_device_unified_shared_memory_capabilities_intel defined =
        CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL | CL_UNIFIED_SHARED_MEMORY_ATOMIC_ACCESS_INTEL |
        CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ACCESS_INTEL |
        CL_UNIFIED_SHARED_MEMORY_CONCURRENT_ATOMIC_ACCESS_INTEL;
    const struct {
        cl_device_info name;
        const char* text;
    } queries[] = {
        {CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL, "CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL"},
        {CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL, "CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL"},
        {CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
         "CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL"},
        {CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL,
         "CL_DEVICE_CROSS_DEVICE_SHARED_MEM_CAPABILITIES_INTEL"},
        {CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL,
         "CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL"},
    };
    for (const auto& query : queries) {
        size_t size = 0;
        CHECK_OK(clGetDeviceInfo(env.device, query.name, 0, nullptr, &size));
        CHECK_MSG(size == sizeof(cl_device_unified_shared_memory_capabilities_intel),
                  query.text << ": size " << size);
        cl_device_unified_shared_memory_capabilities_intel caps = 0;
        size_t returned = 0;
        CHECK_OK(clGetDeviceInfo(env.device, query.name, sizeof(caps), &caps, &returned));
        CHECK_EQ(returned, sizeof(caps));
        CHECK_MSG((caps & ~defined) == 0,
                  query.text << " = 0x" << std::hex << caps << ": bits outside the defined ones");
        // A value too small for the return type (the rule of clGetDeviceInfo).
        CHECK_ERR(clGetDeviceInfo(env.device, query.name, sizeof(caps) - 1, &caps, nullptr),
                  CL_INVALID_VALUE);
    }
    // Table 2: access to device allocations is required.
    CHECK_MSG((env.device_caps & CL_UNIFIED_SHARED_MEMORY_ACCESS_INTEL) != 0,
              "CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL = 0x" << std::hex << env.device_caps
                                                             << " lacks ACCESS (required)");
}

TEST(alloc_sizes, "allocations of every supported kind and several sizes: non-NULL, default "
                  "alignment, usable, disjoint") {
    bool any = false;
    for (Kind kind : usm_kinds) {
        if (!env.allocatable(kind))
            continue;
        any = true;
        std::vector<std::pair<std::byte*, size_t>> live;
        for (size_t size : {size_t{1}, size_t{3}, size_t{64}, size_t{4096}, size_t{1} << 20,
                            (size_t{1} << 20) + 7}) {
            cl_int error = CL_OUT_OF_RESOURCES;
            void* p = alloc_call(env, kind, nullptr, size, 0, &error);
            CHECK_MSG(error == CL_SUCCESS && p != nullptr,
                      kind_name(kind) << " size " << size << ": " << error_name(error));
            if (p == nullptr)
                continue;
            CHECK_MSG(aligned(p, env.largest_type),
                      kind_name(kind)
                          << " " << p << " not aligned to the default " << env.largest_type);
            std::vector<unsigned char> data(size);
            for (size_t i = 0; i < size; ++i)
                data[i] = static_cast<unsigned char>(i * 7 + size);
            write_bytes(env, kind, p, data.data(), size);
            std::vector<unsigned char> back(size);
            read_bytes(env, kind, back.data(), p, size);
            CHECK_MSG(back == data, kind_name(kind) << " size " << size << ": data not kept");
            live.emplace_back(static_cast<std::byte*>(p), size);
        }
        // errcode_ret may be NULL.
        void* p = alloc_call(env, kind, nullptr, 16, 0, nullptr);
        CHECK_MSG(p != nullptr, kind_name(kind) << " with errcode_ret NULL");
        if (p != nullptr)
            live.emplace_back(static_cast<std::byte*>(p), 16);
        for (size_t i = 0; i < live.size(); ++i)
            for (size_t j = i + 1; j < live.size(); ++j)
                CHECK_MSG(live[i].first + live[i].second <= live[j].first ||
                              live[j].first + live[j].second <= live[i].first,
                          kind_name(kind) << " allocations overlap");
        for (auto& [q, size] : live)
            CHECK_OK(env.usm.free(env.context, q));
    }
    if (!any)
        SKIP("no USM kind is allocatable");
}

TEST(alloc_alignment, "every power-of-two alignment up to the largest data type is honoured; "
                      "others are CL_INVALID_VALUE") {
    for (Kind kind : usm_kinds) {
        if (!env.allocatable(kind))
            continue;
        for (size_t alignment = 1; alignment <= env.largest_type; alignment *= 2) {
            for (size_t size : {size_t{1}, size_t{100}, size_t{4097}}) {
                cl_int error = CL_OUT_OF_RESOURCES;
                void* p =
                    alloc_call(env, kind, nullptr, size, static_cast<cl_uint>(alignment), &error);
                CHECK_MSG(error == CL_SUCCESS && p != nullptr,
                          kind_name(kind) << " alignment " << alignment << " size " << size << ": "
                                          << error_name(error));
                if (p == nullptr)
                    continue;
                CHECK_MSG(aligned(p, alignment),
                          kind_name(kind) << " alignment " << alignment << ": got " << p);
                CHECK_OK(env.usm.free(env.context, p));
            }
        }
        for (cl_uint alignment :
             {3u, 6u, 12u, 24u, 100u, static_cast<cl_uint>(env.largest_type - 1),
              static_cast<cl_uint>(env.largest_type + env.largest_type / 2)})
            CHECK_ALLOC_FAILS(kind, (env, kind, nullptr, 64, alignment, &usmconf_error),
                              CL_INVALID_VALUE);
        // Powers of two greater than the largest data type.
        for (cl_uint alignment : {static_cast<cl_uint>(env.largest_type * 2), 1u << 31})
            CHECK_ALLOC_FAILS(kind, (env, kind, nullptr, 64, alignment, &usmconf_error),
                              CL_INVALID_VALUE);
    }
}

TEST(alloc_properties, "CL_MEM_ALLOC_FLAGS_INTEL: every valid flag per allocation kind, reported "
                       "back by CL_MEM_ALLOC_FLAGS_INTEL") {
    for (Kind kind : usm_kinds) {
        if (!env.allocatable(kind))
            continue;
        std::vector<cl_mem_alloc_flags_intel> valid = {0, CL_MEM_ALLOC_WRITE_COMBINED_INTEL};
        if (kind == Kind::shared || kind == Kind::shared_null_device) {
            valid.push_back(CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL);
            valid.push_back(CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL);
            valid.push_back(CL_MEM_ALLOC_WRITE_COMBINED_INTEL |
                            CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL);
            valid.push_back(CL_MEM_ALLOC_WRITE_COMBINED_INTEL |
                            CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL);
        }
        for (cl_mem_alloc_flags_intel flags : valid) {
            const cl_mem_properties_intel properties[] = {CL_MEM_ALLOC_FLAGS_INTEL, flags, 0};
            cl_int error = CL_OUT_OF_RESOURCES;
            void* p = alloc_call(env, kind, properties, 256, 0, &error);
            CHECK_MSG(error == CL_SUCCESS && p != nullptr, kind_name(kind)
                                                               << " flags 0x" << std::hex << flags
                                                               << ": " << error_name(error));
            if (p == nullptr)
                continue;
            CHECK_MSG(alloc_flags(env, p) == flags, kind_name(kind) << " flags 0x" << std::hex
                                                                    << flags << " reported as 0x"
                                                                    << alloc_flags(env, p));
            // The memory works as any other allocation.
            std::vector<unsigned char> data(256, 0x5A), back(256);
            write_bytes(env, kind, p, data.data(), data.size());
            read_bytes(env, kind, back.data(), p, back.size());
            CHECK(back == data);
            CHECK_OK(env.usm.free(env.context, p));
        }
        // An empty property list, and NULL: no flags.
        const cl_mem_properties_intel empty[] = {0};
        for (const cl_mem_properties_intel* properties :
             {empty, (const cl_mem_properties_intel*)0}) {
            cl_int error = CL_OUT_OF_RESOURCES;
            void* p = alloc_call(env, kind, properties, 64, 0, &error);
            CHECK_MSG(error == CL_SUCCESS && p != nullptr,
                      kind_name(kind) << " properties " << (properties ? "{0}" : "NULL") << ": "
                                      << error_name(error));
            if (p == nullptr)
                continue;
            CHECK_EQ(alloc_flags(env, p), cl_mem_alloc_flags_intel{0});
            CHECK_OK(env.usm.free(env.context, p));
        }
    }
}

TEST(alloc_errors, "every error listed for clHostMemAllocINTEL, clDeviceMemAllocINTEL and "
                   "clSharedMemAllocINTEL, one per call") {
    Device foreign = foreign_device(env);
    if (!foreign)
        note("no device outside the context (no second device, no sub-device): the "
             "CL_INVALID_DEVICE check for a device not in the context is not made");
    for (Kind kind : usm_kinds) {
        // CL_INVALID_CONTEXT
        CHECK_ALLOC_FAILS(kind, (env, kind, nullptr, env.device, nullptr, 64, 0, &usmconf_error),
                          CL_INVALID_CONTEXT);
        // CL_INVALID_OPERATION: only when the capabilities are zero.
        if (!env.allocatable(kind)) {
            CHECK_ALLOC_FAILS(kind, (env, kind, nullptr, 64, 0, &usmconf_error),
                              CL_INVALID_OPERATION);
            continue;
        }
        // CL_INVALID_DEVICE
        if (kind == Kind::device)
            CHECK_ALLOC_FAILS(kind,
                              (env, kind, env.context, nullptr, nullptr, 64, 0, &usmconf_error),
                              CL_INVALID_DEVICE);
        if ((kind == Kind::device || kind == Kind::shared) && foreign)
            CHECK_ALLOC_FAILS(
                kind, (env, kind, env.context, foreign.get(), nullptr, 64, 0, &usmconf_error),
                CL_INVALID_DEVICE);
        // CL_INVALID_VALUE (alignment)
        CHECK_ALLOC_FAILS(kind, (env, kind, nullptr, 64, 5, &usmconf_error), CL_INVALID_VALUE);
        CHECK_ALLOC_FAILS(
            kind,
            (env, kind, nullptr, 64, static_cast<cl_uint>(env.largest_type * 2), &usmconf_error),
            CL_INVALID_VALUE);
        // CL_INVALID_PROPERTY: unknown name, invalid value, a name twice.
        const cl_mem_properties_intel unknown_name[] = {0xDEAD0000, 0, 0};
        CHECK_ALLOC_FAILS(kind, (env, kind, unknown_name, 64, 0, &usmconf_error),
                          CL_INVALID_PROPERTY);
        const cl_mem_properties_intel bad_value[] = {CL_MEM_ALLOC_FLAGS_INTEL,
                                                     cl_mem_properties_intel{1} << 40, 0};
        CHECK_ALLOC_FAILS(kind, (env, kind, bad_value, 64, 0, &usmconf_error), CL_INVALID_PROPERTY);
        const cl_mem_properties_intel twice[] = {CL_MEM_ALLOC_FLAGS_INTEL, 0,
                                                 CL_MEM_ALLOC_FLAGS_INTEL, 0, 0};
        CHECK_ALLOC_FAILS(kind, (env, kind, twice, 64, 0, &usmconf_error), CL_INVALID_PROPERTY);
        // CL_INVALID_PROPERTY: placement flags.
        if (kind == Kind::host || kind == Kind::device) {
            for (cl_mem_alloc_flags_intel flags : {CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL,
                                                   CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL}) {
                const cl_mem_properties_intel placement[] = {CL_MEM_ALLOC_FLAGS_INTEL, flags, 0};
                CHECK_ALLOC_FAILS(kind, (env, kind, placement, 64, 0, &usmconf_error),
                                  CL_INVALID_PROPERTY);
            }
        } else {
            const cl_mem_properties_intel both[] = {CL_MEM_ALLOC_FLAGS_INTEL,
                                                    CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL |
                                                        CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL,
                                                    0};
            CHECK_ALLOC_FAILS(kind, (env, kind, both, 64, 0, &usmconf_error), CL_INVALID_PROPERTY);
        }
        // CL_INVALID_BUFFER_SIZE
        CHECK_ALLOC_FAILS(kind, (env, kind, nullptr, 0, 0, &usmconf_error), CL_INVALID_BUFFER_SIZE);
        if (env.max_alloc_size < std::numeric_limits<size_t>::max())
            CHECK_ALLOC_FAILS(kind,
                              (env, kind, nullptr, static_cast<size_t>(env.max_alloc_size) + 1, 0,
                               &usmconf_error),
                              CL_INVALID_BUFFER_SIZE);
        // A failing call with errcode_ret NULL returns NULL.
        void* p = alloc_call(env, kind, nullptr, 0, 0, nullptr);
        CHECK_MSG(p == nullptr, kind_name(kind) << " size 0 with errcode_ret NULL: " << p);
    }
}

TEST(free, "clMemFreeINTEL and clMemBlockingFreeINTEL: every kind, NULL, and their errors") {
    CHECK_OK(env.usm.free(env.context, nullptr));
    CHECK_OK(env.usm.blocking_free(env.context, nullptr));
    for (Kind kind : usm_kinds) {
        if (!env.allocatable(kind))
            continue;
        for (int blocking = 0; blocking < 2; ++blocking) {
            auto free_fn = blocking ? env.usm.blocking_free : env.usm.free;
            const char* fn = blocking ? "clMemBlockingFreeINTEL" : "clMemFreeINTEL";
            cl_int error = CL_OUT_OF_RESOURCES;
            void* p = alloc_call(env, kind, nullptr, 256, 0, &error);
            REQUIRE(error == CL_SUCCESS && p != nullptr);
            // CL_INVALID_CONTEXT
            CHECK_ERR(free_fn(nullptr, p), CL_INVALID_CONTEXT);
            // CL_INVALID_VALUE: pointers not returned by an allocation function.
            int on_stack = 0;
            CHECK_ERR(free_fn(env.context, &on_stack), CL_INVALID_VALUE);
            CHECK_ERR(free_fn(env.context, static_cast<char*>(p) + 1), CL_INVALID_VALUE);
            CHECK_ERR(free_fn(env.context, static_cast<char*>(p) + 128), CL_INVALID_VALUE);
            // The failed calls did not free the allocation.
            cl_unified_shared_memory_type_intel type = 0;
            CHECK_OK(env.usm.alloc_info(env.context, p, CL_MEM_ALLOC_TYPE_INTEL, sizeof(type),
                                        &type, nullptr));
            CHECK_MSG(type != CL_MEM_TYPE_UNKNOWN_INTEL,
                      fn << ": the allocation is gone after a failed free");
            const cl_int freed = free_fn(env.context, p);
            CHECK_MSG(freed == CL_SUCCESS,
                      fn << "(" << kind_name(kind) << " allocation): " << error_name(freed));
        }
    }
}
