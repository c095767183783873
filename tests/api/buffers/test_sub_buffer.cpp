// clCreateSubBuffer: its errors, the flags a sub-buffer inherits, and what
// clGetMemObjectInfo says of it.
#include "buffer_test.hpp"

#include <cstdint>

using namespace cl_test;
using namespace buffer_test;

namespace {

constexpr cl_mem_flags access_mask = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags host_access_mask =
    CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;

// Whether the spec lets a sub-buffer ask for child access flags of a
// parent with parent flags (only the access and host access groups).
bool sub_flags_allowed(cl_mem_flags parent, cl_mem_flags child) {
    const cl_mem_flags parent_access = parent & access_mask;
    const cl_mem_flags child_access = child & access_mask;
    if ((parent_access & CL_MEM_WRITE_ONLY) &&
        (child_access & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY)))
        return false;
    if ((parent_access & CL_MEM_READ_ONLY) &&
        (child_access & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)))
        return false;
    const cl_mem_flags parent_host = parent & host_access_mask;
    const cl_mem_flags child_host = child & host_access_mask;
    if ((parent_host & CL_MEM_HOST_WRITE_ONLY) && (child_host & CL_MEM_HOST_READ_ONLY))
        return false;
    if ((parent_host & CL_MEM_HOST_READ_ONLY) && (child_host & CL_MEM_HOST_WRITE_ONLY))
        return false;
    if ((parent_host & CL_MEM_HOST_NO_ACCESS) &&
        (child_host & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)))
        return false;
    return true;
}

} // namespace

TEST_CASE("clCreateSubBuffer checks flags against the parent's and inherits the rest",
          "[sub-buffer][flags]") {
    Fixture f;
    const size_t align = base_address_alignment(f.device);
    const size_t size = 4 * align;
    unsigned char host_memory[4 * 1024] = {};
    REQUIRE(size <= sizeof host_memory);
    const cl_mem_flags accesses[] = {0, CL_MEM_READ_WRITE, CL_MEM_WRITE_ONLY, CL_MEM_READ_ONLY};
    const cl_mem_flags host_accesses[] = {0, CL_MEM_HOST_WRITE_ONLY, CL_MEM_HOST_READ_ONLY,
                                          CL_MEM_HOST_NO_ACCESS};
    const cl_mem_flags host_pointers[] = {0, CL_MEM_USE_HOST_PTR,
                                          CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR};
    for (cl_mem_flags parent_host_ptr : host_pointers)
        for (cl_mem_flags parent_access : accesses)
            for (cl_mem_flags parent_host : host_accesses) {
                const cl_mem_flags parent_flags = parent_access | parent_host | parent_host_ptr;
                MemPtr parent =
                    make_buffer(f.ctx(), parent_flags, size,
                                parent_host_ptr ? static_cast<void*>(host_memory) : nullptr);
                const auto reported_parent = mem_info<cl_mem_flags>(parent.get(), CL_MEM_FLAGS);
                for (cl_mem_flags child_access : accesses)
                    for (cl_mem_flags child_host : host_accesses) {
                        const cl_mem_flags child = child_access | child_host;
                        INFO("parent flags 0x" << std::hex << parent_flags
                                               << ", sub-buffer flags 0x" << child);
                        if (!sub_flags_allowed(parent_flags, child)) {
                            CHECK_CL(sub_buffer_region_error(parent.get(), child, align, align),
                                     CL_INVALID_VALUE);
                            continue;
                        }
                        MemPtr sub = make_sub_buffer(parent.get(), child, align, align);
                        // Access and host access flags not given are the
                        // parent's; the host pointer flags always are.
                        cl_mem_flags expected = child | parent_host_ptr;
                        if (!child_access)
                            expected |= reported_parent & access_mask;
                        if (!child_host)
                            expected |= parent_host;
                        const auto reported = mem_info<cl_mem_flags>(sub.get(), CL_MEM_FLAGS);
                        if (expected & access_mask)
                            CHECK(reported == expected);
                        else // neither names an access flag: the default may be named
                            CHECK((reported == expected ||
                                   reported == (expected | CL_MEM_READ_WRITE)));
                    }
            }
}

TEST_CASE("clCreateSubBuffer rejects host pointer flags and contradicting flags",
          "[sub-buffer][flags]") {
    Fixture f;
    const size_t align = base_address_alignment(f.device);
    MemPtr parent = make_buffer(f.ctx(), CL_MEM_READ_WRITE, 4 * align);
    const cl_mem_flags bad_flags[] = {CL_MEM_USE_HOST_PTR,
                                      CL_MEM_ALLOC_HOST_PTR,
                                      CL_MEM_COPY_HOST_PTR,
                                      CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR,
                                      CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,
                                      CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
                                      CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS,
                                      CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
                                      cl_mem_flags{1} << 40};
    for (cl_mem_flags flags : bad_flags) {
        INFO("flags 0x" << std::hex << flags);
        CHECK_CL(sub_buffer_region_error(parent.get(), flags, 0, align), CL_INVALID_VALUE);
    }
}

TEST_CASE("clCreateSubBuffer checks the buffer, the create type and the region", "[sub-buffer]") {
    Fixture f;
    const size_t align = base_address_alignment(f.device);
    const size_t size = 8 * align;
    MemPtr parent = make_buffer(f.ctx(), CL_MEM_READ_WRITE, size);

    SECTION("a sub-buffer of a sub-buffer is CL_INVALID_MEM_OBJECT") {
        MemPtr sub = make_sub_buffer(parent.get(), 0, 0, 4 * align);
        CHECK_CL(sub_buffer_region_error(sub.get(), 0, 0, align), CL_INVALID_MEM_OBJECT);
        CHECK_CL(sub_buffer_region_error(sub.get(), 0, align, align), CL_INVALID_MEM_OBJECT);
    }
    SECTION("an invalid buffer is CL_INVALID_MEM_OBJECT") {
        FakeObject fake(parent.get(), 0x21);
        CHECK_CL(sub_buffer_region_error(fake.as<cl_mem>(), 0, 0, align), CL_INVALID_MEM_OBJECT);
        CHECK_CL(sub_buffer_region_error(reinterpret_cast<cl_mem>(f.ctx()), 0, 0, align),
                 CL_INVALID_MEM_OBJECT);
        const cl_buffer_region region{0, align};
        cl_int error = CL_SUCCESS;
        CHECK(dispatch_of(parent.get())
                  .clCreateSubBuffer(nullptr, 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &error) ==
              nullptr);
        CHECK_CL(error, CL_INVALID_MEM_OBJECT);
    }
    SECTION("an unknown create type or a NULL create info is CL_INVALID_VALUE") {
        const cl_buffer_region region{0, align};
        CHECK_CL(sub_buffer_error(parent.get(), 0, 0, &region), CL_INVALID_VALUE);
        CHECK_CL(sub_buffer_error(parent.get(), 0, CL_BUFFER_CREATE_TYPE_REGION + 1, &region),
                 CL_INVALID_VALUE);
        CHECK_CL(sub_buffer_error(parent.get(), 0, CL_BUFFER_CREATE_TYPE_REGION, nullptr),
                 CL_INVALID_VALUE);
    }
    SECTION("a region of size 0 is CL_INVALID_BUFFER_SIZE") {
        CHECK_CL(sub_buffer_region_error(parent.get(), 0, 0, 0), CL_INVALID_BUFFER_SIZE);
        CHECK_CL(sub_buffer_region_error(parent.get(), 0, align, 0), CL_INVALID_BUFFER_SIZE);
    }
    SECTION("a region out of the buffer is CL_INVALID_VALUE") {
        CHECK_CL(sub_buffer_region_error(parent.get(), 0, 0, size + 1), CL_INVALID_VALUE);
        CHECK_CL(sub_buffer_region_error(parent.get(), 0, align, size - align + 1),
                 CL_INVALID_VALUE);
        CHECK_CL(sub_buffer_region_error(parent.get(), 0, size, 1), CL_INVALID_VALUE);
        CHECK_CL(sub_buffer_region_error(parent.get(), 0, 2 * size, align), CL_INVALID_VALUE);
        // origin + size wraps around.
        const size_t huge_origin = SIZE_MAX / align * align;
        CHECK_CL(sub_buffer_region_error(parent.get(), 0, huge_origin, 2 * align),
                 CL_INVALID_VALUE);
        CHECK_CL(sub_buffer_region_error(parent.get(), 0, align, SIZE_MAX), CL_INVALID_VALUE);
        // The largest region that fits is fine.
        MemPtr last = make_sub_buffer(parent.get(), 0, size - align, align);
        MemPtr whole = make_sub_buffer(parent.get(), 0, 0, size);
    }
    SECTION("an origin not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN is "
            "CL_MISALIGNED_SUB_BUFFER_OFFSET") {
        for (size_t origin : {size_t{1}, align / 2, align - 1, align + 8, 3 * align + align / 2}) {
            INFO("origin " << origin);
            CHECK_CL(sub_buffer_region_error(parent.get(), 0, origin, align),
                     CL_MISALIGNED_SUB_BUFFER_OFFSET);
        }
        for (size_t origin : {size_t{0}, align, 5 * align}) {
            MemPtr sub = make_sub_buffer(parent.get(), 0, origin, align + 1);
            CHECK(mem_info<size_t>(sub.get(), CL_MEM_OFFSET) == origin);
        }
    }
}

TEST_CASE("clGetMemObjectInfo describes a sub-buffer", "[sub-buffer][info]") {
    Fixture f;
    const size_t align = base_address_alignment(f.device);
    const size_t size = 8 * align;
    Bytes host(size, 0x3c);
    const cl_mem_properties properties[] = {0};
    cl_int error = CL_OUT_OF_RESOURCES;
    MemPtr use_host(clCreateBufferWithProperties(
        f.ctx(), properties, CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE, size, host.data(), &error));
    REQUIRE_OK(error);
    MemPtr plain = make_buffer(f.ctx(), CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY, size);

    for (cl_mem parent : {use_host.get(), plain.get()}) {
        const bool uses_host = parent == use_host.get();
        for (size_t origin : {size_t{0}, align, 3 * align}) {
            const size_t sub_size = size - origin - (uses_host ? 1 : 0);
            INFO("origin " << origin << ", " << (uses_host ? "USE_HOST_PTR parent" : "plain"));
            MemPtr sub = make_sub_buffer(parent, 0, origin, sub_size);
            CHECK(mem_info<cl_mem_object_type>(sub.get(), CL_MEM_TYPE) == CL_MEM_OBJECT_BUFFER);
            CHECK(mem_info<size_t>(sub.get(), CL_MEM_SIZE) == sub_size);
            CHECK(mem_info<void*>(sub.get(), CL_MEM_HOST_PTR) ==
                  (uses_host ? static_cast<void*>(host.data() + origin) : nullptr));
            CHECK(mem_info<cl_uint>(sub.get(), CL_MEM_MAP_COUNT) == 0);
            CHECK(mem_info<cl_uint>(sub.get(), CL_MEM_REFERENCE_COUNT) == 1);
            CHECK(mem_info<cl_context>(sub.get(), CL_MEM_CONTEXT) == f.ctx());
            CHECK(mem_info<cl_mem>(sub.get(), CL_MEM_ASSOCIATED_MEMOBJECT) == parent);
            CHECK(mem_info<size_t>(sub.get(), CL_MEM_OFFSET) == origin);
            CHECK(mem_info<cl_bool>(sub.get(), CL_MEM_USES_SVM_POINTER) == CL_FALSE);
            // Not created with clCreateBufferWithProperties: no properties.
            CHECK(info_size(clGetMemObjectInfo, sub.get(), CL_MEM_PROPERTIES) == 0);
            const auto flags = mem_info<cl_mem_flags>(sub.get(), CL_MEM_FLAGS);
            if (uses_host)
                CHECK(flags == (CL_MEM_USE_HOST_PTR | CL_MEM_READ_WRITE));
            else
                CHECK(flags == (CL_MEM_READ_ONLY | CL_MEM_HOST_READ_ONLY));
            REQUIRE_OK(clRetainMemObject(sub.get()));
            CHECK(mem_info<cl_uint>(sub.get(), CL_MEM_REFERENCE_COUNT) == 2);
            REQUIRE_OK(clReleaseMemObject(sub.get()));
        }
    }
    // The parent's own answers do not change.
    CHECK(mem_info<cl_mem>(use_host.get(), CL_MEM_ASSOCIATED_MEMOBJECT) == nullptr);
    CHECK(mem_info<size_t>(use_host.get(), CL_MEM_OFFSET) == 0);
    CHECK(mem_info<void*>(use_host.get(), CL_MEM_HOST_PTR) == host.data());
    CHECK(info_array<cl_mem_properties>(clGetMemObjectInfo, use_host.get(), CL_MEM_PROPERTIES) ==
          std::vector<cl_mem_properties>{0});
}

TEST_CASE("a sub-buffer views its parent's bytes", "[sub-buffer]") {
    Fixture f;
    const size_t align = base_address_alignment(f.device);
    const size_t size = 8 * align;
    Random random(2);
    Bytes model = random.bytes(size);
    MemPtr parent = make_buffer(f.ctx(), CL_MEM_COPY_HOST_PTR, size, model.data());
    MemPtr sub = make_sub_buffer(parent.get(), 0, 2 * align, 3 * align);
    // Initial content through the sub-buffer.
    CHECK(read_all(f.q(), sub.get(), 3 * align) ==
          Bytes(model.begin() + 2 * align, model.begin() + 5 * align));
    // A write through the sub-buffer lands in the parent at the origin.
    const Bytes data = random.bytes(3 * align);
    write_all(f.q(), sub.get(), data);
    std::copy(data.begin(), data.end(), model.begin() + 2 * align);
    CHECK_BYTES(read_all(f.q(), parent.get(), size), model);
}
