// Kernels on USM: clSetKernelArgMemPointerINTEL for __global and __constant
// pointer arguments (host, device, shared and malloc'd memory, interior
// pointers, NULL) and its errors; clSetKernelExecInfo with the USM names and
// its errors; linked lists reached only through their head (built by the
// host in host, shared and device allocations, or built by a kernel in a
// device allocation); a kernel mixing a cl_mem argument with USM pointers.
// Every result computed by a kernel is compared with a host reference.
#include "usm_test.hpp"

#include <cstdint>
#include <cstdlib>
#include <numeric>

using namespace cl_test;
using namespace usm_test;

namespace {

const char* const kernel_source = R"CLC(
struct Node {
    __global struct Node* next;
    long value;
};

__kernel void vadd(__global const int* a, __global const int* b, __global int* c) {
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}

__kernel void scale_const(__constant int* a, __global int* out, int factor) {
    size_t i = get_global_id(0);
    out[i] = a[i] * factor;
}

__kernel void is_null(__global int* p, __global int* out) {
    out[0] = (p == 0) ? 1 : 2;
}

__kernel void is_null_const(__constant int* p, __global int* out) {
    out[0] = (p == 0) ? 1 : 2;
}

__kernel void with_local(__global int* out, __local int* scratch, int v) {
    size_t l = get_local_id(0);
    scratch[l] = v + (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = scratch[l] * 2;
}

__kernel void list_sum(__global const struct Node* head, __global ulong* out) {
    ulong sum = 0, count = 0, hash = 0;
    for (__global const struct Node* n = head; n != 0; n = n->next) {
        sum += (ulong)n->value;
        hash = hash * 31 + (ulong)n->value;
        count += 1;
        if (count > 1000000)
            break;
    }
    out[0] = sum;
    out[1] = count;
    out[2] = hash;
}

__kernel void list_link(__global struct Node* nodes, uint count, uint stride) {
    uint k = get_global_id(0);
    uint idx = (k * stride) % count;
    uint next = ((k + 1) * stride) % count;
    nodes[idx].value = (long)idx * 3 + 1;
    nodes[idx].next = (k + 1 < count) ? &nodes[next] : 0;
}
)CLC";

// The OpenCL C struct Node on the host: a 64-bit device pointer, then a long.
struct Node {
    Node* next;
    int64_t value;
};
static_assert(sizeof(Node) == 16);

struct ListResult {
    uint64_t sum = 0;
    uint64_t count = 0;
    uint64_t hash = 0;
    bool operator==(const ListResult&) const = default;
};

} // namespace

namespace Catch {
template <>
struct StringMaker<ListResult> {
    static std::string convert(const ListResult& r) {
        return "{sum " + std::to_string(r.sum) + ", count " + std::to_string(r.count) + ", hash " +
               std::to_string(r.hash) + "}";
    }
};
} // namespace Catch

namespace {

// What list_sum computes, for the values in list order.
ListResult list_reference(const std::vector<int64_t>& values) {
    ListResult r;
    for (int64_t v : values) {
        r.sum += static_cast<uint64_t>(v);
        r.hash = r.hash * 31 + static_cast<uint64_t>(v);
        r.count += 1;
    }
    return r;
}

// The context, queue and USM functions, with the program built once.
struct KernelFixture : Fixture {
    ProgramPtr program = build_program(ctx(), device, kernel_source);

    KernelPtr kernel(const char* name) const { return make_kernel(program.get(), name); }

    // Runs kernel over global work-items and waits (bounded) for it.
    void run(cl_kernel k, size_t global, const size_t* local = nullptr) const {
        cl_event raw = nullptr;
        REQUIRE_OK(clEnqueueNDRangeKernel(q(), k, 1, nullptr, &global, local, 0, nullptr, &raw));
        EventPtr done(raw);
        REQUIRE(wait_bounded(raw));
        REQUIRE(event_status(raw) == CL_COMPLETE);
    }

    // Copies count values of T from any memory to a host vector (blocking).
    template <class T>
    std::vector<T> read(const void* from, size_t count) const {
        std::vector<T> values(count);
        REQUIRE_OK(
            usm.memcpy(q(), CL_TRUE, values.data(), from, count * sizeof(T), 0, nullptr, nullptr));
        return values;
    }

    // Copies a host vector into any memory (blocking).
    template <class T>
    void write(void* to, const std::vector<T>& values) const {
        REQUIRE_OK(usm.memcpy(q(), CL_TRUE, to, values.data(), values.size() * sizeof(T), 0,
                              nullptr, nullptr));
    }

    void set_ptr(cl_kernel k, cl_uint index, const void* p) const {
        INFO("argument " << index);
        REQUIRE_OK(usm.set_arg_pointer(k, index, p));
    }

    void set_exec_ptrs(cl_kernel k, const std::vector<void*>& ptrs) const {
        REQUIRE_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL,
                                       ptrs.size() * sizeof(void*), ptrs.data()));
    }

    void set_indirect(cl_kernel k, cl_kernel_exec_info name, cl_bool value) const {
        REQUIRE_OK(clSetKernelExecInfo(k, name, sizeof value, &value));
    }
};

// A USM allocation freed (non-blocking) at scope exit; every test waits for
// its commands before that.
struct Alloc {
    const Usm* usm;
    cl_context context;
    void* ptr;
    Alloc(const Usm& u, cl_context c, void* p) : usm(&u), context(c), ptr(p) {}
    Alloc(const Alloc&) = delete;
    Alloc& operator=(const Alloc&) = delete;
    ~Alloc() {
        if (ptr)
            usm->free(context, ptr);
    }
    template <class T>
    T* as() const {
        return static_cast<T*>(ptr);
    }
};

std::vector<int> iota_values(size_t n, int start, int step) {
    std::vector<int> values(n);
    for (size_t i = 0; i < n; ++i)
        values[i] = start + step * static_cast<int>(i);
    return values;
}

} // namespace

TEST_CASE("vector add with a in host USM, b in shared USM and c in device USM", "[kernels]") {
    KernelFixture f;
    constexpr size_t n = 4096;
    Memory a(f, Kind::host, n * sizeof(int));
    Memory b(f, Kind::shared, n * sizeof(int));
    Memory c(f, Kind::device, n * sizeof(int));
    const std::vector<int> va = iota_values(n, 7, 3);
    const std::vector<int> vb = iota_values(n, -1000, 5);
    std::memcpy(a.ptr, va.data(), n * sizeof(int));
    std::memcpy(b.ptr, vb.data(), n * sizeof(int));
    f.write(c.ptr, std::vector<int>(n, -1));

    KernelPtr k = f.kernel("vadd");
    f.set_ptr(k.get(), 0, a.ptr);
    f.set_ptr(k.get(), 1, b.ptr);
    f.set_ptr(k.get(), 2, c.ptr);
    f.run(k.get(), n);

    const std::vector<int> result = f.read<int>(c.ptr, n);
    std::vector<int> expected(n);
    for (size_t i = 0; i < n; ++i)
        expected[i] = va[i] + vb[i];
    CHECK(result == expected);
}

TEST_CASE("vector add over every combination of memory kinds, system memory included",
          "[kernels]") {
    KernelFixture f;
    constexpr size_t n = 1000;
    const Kind kinds[] = {Kind::host, Kind::device, Kind::shared, Kind::system};
    KernelPtr k = f.kernel("vadd");
    int round = 0;
    for (Kind ka : kinds) {
        for (Kind kb : kinds) {
            for (Kind kc : kinds) {
                ++round;
                INFO("a " << kind_name(ka) << ", b " << kind_name(kb) << ", c " << kind_name(kc));
                Memory a(f, ka, n * sizeof(int));
                Memory b(f, kb, n * sizeof(int));
                Memory c(f, kc, n * sizeof(int));
                const std::vector<int> va = iota_values(n, round, 2);
                const std::vector<int> vb = iota_values(n, 100 * round, -7);
                f.write(a.ptr, va);
                f.write(b.ptr, vb);
                f.write(c.ptr, std::vector<int>(n, 0x5a5a5a5a));
                f.set_ptr(k.get(), 0, a.ptr);
                f.set_ptr(k.get(), 1, b.ptr);
                f.set_ptr(k.get(), 2, c.ptr);
                f.run(k.get(), n);
                const std::vector<int> result = f.read<int>(c.ptr, n);
                size_t wrong = 0;
                for (size_t i = 0; i < n; ++i)
                    wrong += result[i] != va[i] + vb[i];
                CHECK(wrong == 0);
            }
        }
    }
}

TEST_CASE("interior pointers are kernel arguments that start inside an allocation", "[kernels]") {
    KernelFixture f;
    constexpr size_t n = 2048;
    constexpr size_t offset_a = 17, offset_b = 300, offset_c = 5;
    constexpr size_t count = 1500;
    Memory a(f, Kind::device, n * sizeof(int));
    Memory b(f, Kind::host, n * sizeof(int));
    Memory c(f, Kind::shared, n * sizeof(int));
    const std::vector<int> va = iota_values(n, 0, 1);
    const std::vector<int> vb = iota_values(n, 1 << 20, -3);
    f.write(a.ptr, va);
    f.write(b.ptr, vb);
    std::fill_n(c.as<int>(), n, -7);

    KernelPtr k = f.kernel("vadd");
    f.set_ptr(k.get(), 0, a.as<int>() + offset_a);
    f.set_ptr(k.get(), 1, b.as<int>() + offset_b);
    f.set_ptr(k.get(), 2, c.as<int>() + offset_c);
    f.run(k.get(), count);

    const std::vector<int> result = f.read<int>(c.ptr, n);
    for (size_t i = 0; i < n; ++i) {
        const bool written = i >= offset_c && i < offset_c + count;
        const size_t j = i - offset_c;
        const int expected = written ? va[offset_a + j] + vb[offset_b + j] : -7;
        if (result[i] != expected) {
            INFO("element " << i);
            CHECK(result[i] == expected);
            break;
        }
    }
}

TEST_CASE("a new pointer value replaces the old one for later launches only", "[kernels]") {
    KernelFixture f;
    constexpr size_t n = 512;
    Memory a(f, Kind::shared, n * sizeof(int));
    Memory b(f, Kind::shared, n * sizeof(int));
    Memory c1(f, Kind::device, n * sizeof(int));
    Memory c2(f, Kind::host, n * sizeof(int));
    const std::vector<int> va = iota_values(n, 1, 1);
    const std::vector<int> vb = iota_values(n, 1000, 10);
    f.write(a.ptr, va);
    f.write(b.ptr, vb);
    f.write(c1.ptr, std::vector<int>(n, 0));
    f.write(c2.ptr, std::vector<int>(n, 0));

    KernelPtr k = f.kernel("vadd");
    f.set_ptr(k.get(), 0, a.ptr);
    f.set_ptr(k.get(), 1, b.ptr);
    f.set_ptr(k.get(), 2, c1.ptr);
    const size_t global = n;
    // Both launches are enqueued before either runs; each keeps its own value.
    REQUIRE_OK(
        clEnqueueNDRangeKernel(f.q(), k.get(), 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    f.set_ptr(k.get(), 2, c2.ptr);
    f.set_ptr(k.get(), 1, a.ptr); // second launch: c2 = a + a
    REQUIRE_OK(
        clEnqueueNDRangeKernel(f.q(), k.get(), 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
    REQUIRE_OK(clFinish(f.q()));

    const std::vector<int> r1 = f.read<int>(c1.ptr, n);
    const std::vector<int> r2 = f.read<int>(c2.ptr, n);
    std::vector<int> e1(n), e2(n);
    for (size_t i = 0; i < n; ++i) {
        e1[i] = va[i] + vb[i];
        e2[i] = va[i] + va[i];
    }
    CHECK(r1 == e1);
    CHECK(r2 == e2);
}

TEST_CASE("__constant pointer arguments take host, device, shared and malloc'd memory",
          "[kernels][constant]") {
    KernelFixture f;
    constexpr size_t n = 1024;
    KernelPtr k = f.kernel("scale_const");
    Memory out(f, Kind::device, n * sizeof(int));
    const cl_int factor = -3;
    REQUIRE_OK(clSetKernelArg(k.get(), 2, sizeof factor, &factor));
    for (Kind kind : {Kind::host, Kind::device, Kind::shared, Kind::system}) {
        INFO("input in " << kind_name(kind) << " memory");
        Memory in(f, kind, (n + 8) * sizeof(int));
        const std::vector<int> values = iota_values(n + 8, 11, 13);
        f.write(in.ptr, values);
        f.write(out.ptr, std::vector<int>(n, 0));
        // An interior pointer: the kernel reads from the 8th element on.
        f.set_ptr(k.get(), 0, in.as<int>() + 8);
        f.set_ptr(k.get(), 1, out.ptr);
        f.run(k.get(), n);
        const std::vector<int> result = f.read<int>(out.ptr, n);
        std::vector<int> expected(n);
        for (size_t i = 0; i < n; ++i)
            expected[i] = values[i + 8] * factor;
        CHECK(result == expected);
    }
}

TEST_CASE("NULL and pointers that are never dereferenced are valid pointer arguments",
          "[kernels]") {
    KernelFixture f;
    Memory out(f, Kind::shared, sizeof(int));
    Memory some(f, Kind::device, 64);
    for (const char* name : {"is_null", "is_null_const"}) {
        INFO(name);
        KernelPtr k = f.kernel(name);
        f.set_ptr(k.get(), 1, out.ptr);

        *out.as<int>() = 0;
        f.set_ptr(k.get(), 0, nullptr);
        f.run(k.get(), 1);
        CHECK(*out.as<int>() == 1);

        *out.as<int>() = 0;
        f.set_ptr(k.get(), 0, some.ptr);
        f.run(k.get(), 1);
        CHECK(*out.as<int>() == 2);

        // docs/usm.md: the device supports shared system allocations, so any
        // pointer value is accepted (the kernel only compares it with NULL).
        int on_stack = 0;
        *out.as<int>() = 0;
        f.set_ptr(k.get(), 0, &on_stack);
        f.run(k.get(), 1);
        CHECK(*out.as<int>() == 2);

        *out.as<int>() = 0;
        f.set_ptr(k.get(), 0, reinterpret_cast<void*>(uintptr_t{0x1000}));
        f.run(k.get(), 1);
        CHECK(*out.as<int>() == 2);
    }
}

TEST_CASE("clSetKernelArgMemPointerINTEL errors", "[kernels][errors]") {
    KernelFixture f;
    KernelPtr k = f.kernel("with_local"); // (__global int*, __local int*, int)
    Memory out(f, Kind::host, 256 * sizeof(int));
    Memory other(f, Kind::device, 64);

    SECTION("a __local pointer argument is CL_INVALID_ARG_VALUE") {
        CHECK_CL(f.usm.set_arg_pointer(k.get(), 1, other.ptr), CL_INVALID_ARG_VALUE);
        CHECK_CL(f.usm.set_arg_pointer(k.get(), 1, nullptr), CL_INVALID_ARG_VALUE);
    }
    SECTION("a by-value argument is CL_INVALID_ARG_VALUE") {
        CHECK_CL(f.usm.set_arg_pointer(k.get(), 2, other.ptr), CL_INVALID_ARG_VALUE);
        CHECK_CL(f.usm.set_arg_pointer(k.get(), 2, nullptr), CL_INVALID_ARG_VALUE);
    }
    SECTION("an index past the last argument is CL_INVALID_ARG_INDEX") {
        CHECK_CL(f.usm.set_arg_pointer(k.get(), 3, other.ptr), CL_INVALID_ARG_INDEX);
        CHECK_CL(f.usm.set_arg_pointer(k.get(), 1000, other.ptr), CL_INVALID_ARG_INDEX);
        CHECK_CL(f.usm.set_arg_pointer(k.get(), ~cl_uint{0}, nullptr), CL_INVALID_ARG_INDEX);
    }
    SECTION("a NULL or fake kernel is CL_INVALID_KERNEL") {
        CHECK_CL(f.usm.set_arg_pointer(nullptr, 0, other.ptr), CL_INVALID_KERNEL);
        FakeObject fake(k.get(), 0x3c);
        CHECK_CL(f.usm.set_arg_pointer(fake.as<cl_kernel>(), 0, other.ptr), CL_INVALID_KERNEL);
        FakeObject zeros(k.get(), 0x00);
        CHECK_CL(f.usm.set_arg_pointer(zeros.as<cl_kernel>(), 0, other.ptr), CL_INVALID_KERNEL);
    }
    SECTION("other kinds of objects are CL_INVALID_KERNEL") {
        CHECK_CL(f.usm.set_arg_pointer(reinterpret_cast<cl_kernel>(f.q()), 0, other.ptr),
                 CL_INVALID_KERNEL);
        CHECK_CL(f.usm.set_arg_pointer(reinterpret_cast<cl_kernel>(f.program.get()), 0, other.ptr),
                 CL_INVALID_KERNEL);
    }

    // Failed calls change nothing: the kernel still runs with proper values.
    f.set_ptr(k.get(), 0, out.ptr);
    const size_t local = 64;
    REQUIRE_OK(clSetKernelArg(k.get(), 1, local * sizeof(int), nullptr));
    const cl_int v = 40;
    REQUIRE_OK(clSetKernelArg(k.get(), 2, sizeof v, &v));
    f.run(k.get(), 256, &local);
    for (int i = 0; i < 256; ++i) {
        INFO("work-item " << i);
        REQUIRE(out.as<int>()[i] == (v + i % 64) * 2);
    }
}

TEST_CASE("clSetKernelExecInfo: the USM names' sizes and values", "[kernels][exec-info]") {
    KernelFixture f;
    KernelPtr k = f.kernel("vadd");
    Memory a(f, Kind::host, 64);
    Memory b(f, Kind::device, 64);
    Memory c(f, Kind::shared, 64);
    void* ptrs[3] = {a.ptr, b.ptr, c.as<char>() + 8};
    const cl_bool yes = CL_TRUE, no = CL_FALSE;
    const cl_kernel_exec_info indirect[] = {CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
                                            CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL,
                                            CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL};

    SECTION("valid calls") {
        CHECK_OK(
            clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof(void*), ptrs));
        CHECK_OK(
            clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof ptrs, ptrs));
        for (cl_kernel_exec_info name : indirect) {
            INFO("name 0x" << std::hex << name);
            CHECK_OK(clSetKernelExecInfo(k.get(), name, sizeof(cl_bool), &yes));
            CHECK_OK(clSetKernelExecInfo(k.get(), name, sizeof(cl_bool), &no));
        }
    }
    SECTION("USM_PTRS: size 0, a size that is not a multiple of sizeof(void*), NULL value") {
        CHECK_CL(clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, 0, ptrs),
                 CL_INVALID_VALUE);
        CHECK_CL(clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, 0, nullptr),
                 CL_INVALID_VALUE);
        CHECK_CL(clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, 4, ptrs),
                 CL_INVALID_VALUE);
        CHECK_CL(clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof(void*) + 1,
                                     ptrs),
                 CL_INVALID_VALUE);
        CHECK_CL(clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL,
                                     2 * sizeof(void*) + 4, ptrs),
                 CL_INVALID_VALUE);
        CHECK_CL(clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof(void*),
                                     nullptr),
                 CL_INVALID_VALUE);
    }
    SECTION("INDIRECT_*_ACCESS: a size other than sizeof(cl_bool), NULL value") {
        const cl_ulong wide = CL_TRUE;
        for (cl_kernel_exec_info name : indirect) {
            INFO("name 0x" << std::hex << name);
            CHECK_CL(clSetKernelExecInfo(k.get(), name, 0, &yes), CL_INVALID_VALUE);
            CHECK_CL(clSetKernelExecInfo(k.get(), name, 1, &yes), CL_INVALID_VALUE);
            CHECK_CL(clSetKernelExecInfo(k.get(), name, sizeof(cl_bool) - 1, &yes),
                     CL_INVALID_VALUE);
            CHECK_CL(clSetKernelExecInfo(k.get(), name, sizeof wide, &wide), CL_INVALID_VALUE);
            CHECK_CL(clSetKernelExecInfo(k.get(), name, sizeof(cl_bool), nullptr),
                     CL_INVALID_VALUE);
        }
    }
    SECTION("an invalid kernel is CL_INVALID_KERNEL") {
        CHECK_CL(
            clSetKernelExecInfo(nullptr, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof(void*), ptrs),
            CL_INVALID_KERNEL);
        FakeObject fake(k.get(), 0x77);
        CHECK_CL(clSetKernelExecInfo(fake.as<cl_kernel>(),
                                     CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
                                     sizeof(cl_bool), &yes),
                 CL_INVALID_KERNEL);
    }

    // The kernel is still usable after all this.
    const std::vector<int> va = iota_values(16, 1, 1);
    std::memcpy(a.ptr, va.data(), 64);
    std::memcpy(c.ptr, va.data(), 64);
    f.set_ptr(k.get(), 0, a.ptr);
    f.set_ptr(k.get(), 1, c.ptr);
    f.set_ptr(k.get(), 2, b.ptr);
    f.run(k.get(), 16);
    const std::vector<int> result = f.read<int>(b.ptr, 16);
    for (int i = 0; i < 16; ++i)
        CHECK(result[i] == 2 * (i + 1));
}

namespace {

// How a list kernel is told about the allocations it reaches indirectly.
enum class Tell { usm_ptrs, usm_ptrs_interior, indirect_flags };

const char* tell_name(Tell tell) {
    switch (tell) {
    case Tell::usm_ptrs: return "CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL (bases)";
    case Tell::usm_ptrs_interior: return "CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL (interior pointers)";
    case Tell::indirect_flags: return "CL_KERNEL_EXEC_INFO_INDIRECT_*_ACCESS_INTEL";
    }
    return "?";
}

// A list of nodes spread over allocations of one kind, written by the host:
// node i lives in allocation i % allocations, slot i / allocations, so
// consecutive nodes are in different allocations. Returns the values in list
// order.
std::vector<int64_t> build_host_list(const std::vector<Node*>& allocations, size_t nodes) {
    std::vector<int64_t> values;
    const size_t count = allocations.size();
    for (size_t i = 0; i < nodes; ++i) {
        Node* node = allocations[i % count] + i / count;
        const size_t j = i + 1;
        node->next = j < nodes ? allocations[j % count] + j / count : nullptr;
        node->value = static_cast<int64_t>(i * i) - 50 + static_cast<int64_t>(i % 7) * 1000003;
        values.push_back(node->value);
    }
    return values;
}

void tell_kernel(const KernelFixture& f, cl_kernel k, Tell tell, const std::vector<void*>& bases,
                 std::initializer_list<cl_kernel_exec_info> flags) {
    switch (tell) {
    case Tell::usm_ptrs: f.set_exec_ptrs(k, bases); break;
    case Tell::usm_ptrs_interior: {
        std::vector<void*> interior;
        for (void* base : bases)
            interior.push_back(static_cast<char*>(base) + sizeof(Node));
        f.set_exec_ptrs(k, interior);
        break;
    }
    case Tell::indirect_flags:
        for (cl_kernel_exec_info name : flags)
            f.set_indirect(k, name, CL_TRUE);
        break;
    }
}

} // namespace

TEST_CASE("a kernel walks a list the host built in several host or shared allocations",
          "[kernels][indirect][list]") {
    KernelFixture f;
    constexpr size_t allocations = 5, nodes = 97;
    constexpr size_t per_allocation = (nodes + allocations - 1) / allocations;
    Memory out(f, Kind::device, 3 * sizeof(uint64_t));
    for (Kind kind : {Kind::host, Kind::shared}) {
        for (Tell tell : {Tell::usm_ptrs, Tell::usm_ptrs_interior, Tell::indirect_flags}) {
            INFO(kind_name(kind) << " allocations, told by " << tell_name(tell));
            std::vector<std::unique_ptr<Memory>> memories;
            std::vector<Node*> lists;
            std::vector<void*> bases;
            for (size_t i = 0; i < allocations; ++i) {
                memories.push_back(
                    std::make_unique<Memory>(f, kind, per_allocation * sizeof(Node)));
                lists.push_back(memories.back()->as<Node>());
                bases.push_back(memories.back()->ptr);
            }
            const std::vector<int64_t> values = build_host_list(lists, nodes);
            f.write(out.ptr, std::vector<uint64_t>(3, 0));

            KernelPtr k = f.kernel("list_sum");
            f.set_ptr(k.get(), 0, lists[0]); // only the head is an argument
            f.set_ptr(k.get(), 1, out.ptr);
            tell_kernel(
                f, k.get(), tell, bases,
                {static_cast<cl_kernel_exec_info>(
                    kind == Kind::host ? CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL
                                       : CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL)});
            f.run(k.get(), 1);
            const std::vector<uint64_t> r = f.read<uint64_t>(out.ptr, 3);
            CHECK(ListResult{r[0], r[1], r[2]} == list_reference(values));
        }
    }
}

TEST_CASE("a kernel walks a list whose nodes alternate between host, shared and device memory",
          "[kernels][indirect][list]") {
    KernelFixture f;
    constexpr size_t per_kind = 6, nodes = 3 * per_kind;
    Memory host(f, Kind::host, per_kind * sizeof(Node));
    Memory shared(f, Kind::shared, per_kind * sizeof(Node));
    Memory device(f, Kind::device, per_kind * sizeof(Node));
    Memory out(f, Kind::shared, 3 * sizeof(uint64_t));

    // Node i is in host (i % 3 == 0), shared (1) or device (2) memory; the
    // device nodes are written through a host copy and clEnqueueMemcpyINTEL.
    Node* const places[3] = {host.as<Node>(), shared.as<Node>(), device.as<Node>()};
    std::vector<Node> device_nodes(per_kind);
    std::vector<int64_t> values;
    for (size_t i = 0; i < nodes; ++i) {
        const size_t j = i + 1;
        Node node{j < nodes ? places[j % 3] + j / 3 : nullptr, static_cast<int64_t>(i) * 977 - 3};
        values.push_back(node.value);
        if (i % 3 == 2)
            device_nodes[i / 3] = node;
        else
            places[i % 3][i / 3] = node;
    }
    f.write(device.ptr, device_nodes);

    for (Tell tell : {Tell::usm_ptrs, Tell::usm_ptrs_interior, Tell::indirect_flags}) {
        INFO("told by " << tell_name(tell));
        std::fill_n(out.as<uint64_t>(), 3, 0);
        KernelPtr k = f.kernel("list_sum");
        f.set_ptr(k.get(), 0, host.ptr);
        f.set_ptr(k.get(), 1, out.ptr);
        tell_kernel(f, k.get(), tell, {host.ptr, shared.ptr, device.ptr},
                    {CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
                     CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL,
                     CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL});
        f.run(k.get(), 1);
        const uint64_t* r = out.as<uint64_t>();
        CHECK(ListResult{r[0], r[1], r[2]} == list_reference(values));
    }
}

TEST_CASE("a list linked by one kernel in device memory is walked by another",
          "[kernels][list][device]") {
    KernelFixture f;
    constexpr cl_uint count = 1000, stride = 7; // stride coprime with count
    Memory nodes(f, Kind::device, count * sizeof(Node));
    Memory out(f, Kind::device, 3 * sizeof(uint64_t));
    f.write(out.ptr, std::vector<uint64_t>(3, 0));

    KernelPtr link = f.kernel("list_link");
    f.set_ptr(link.get(), 0, nodes.ptr);
    REQUIRE_OK(clSetKernelArg(link.get(), 1, sizeof count, &count));
    REQUIRE_OK(clSetKernelArg(link.get(), 2, sizeof stride, &stride));
    KernelPtr walk = f.kernel("list_sum");
    f.set_ptr(walk.get(), 0, nodes.ptr); // the head is node 0
    f.set_ptr(walk.get(), 1, out.ptr);
    f.set_indirect(walk.get(), CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL, CL_TRUE);

    // Both kernels are enqueued back to back on the in-order queue.
    const size_t global = count, one = 1;
    REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), link.get(), 1, nullptr, &global, nullptr, 0, nullptr,
                                      nullptr));
    cl_event raw = nullptr;
    REQUIRE_OK(
        clEnqueueNDRangeKernel(f.q(), walk.get(), 1, nullptr, &one, nullptr, 0, nullptr, &raw));
    EventPtr walked(raw);
    REQUIRE(wait_bounded(raw));
    REQUIRE(event_status(raw) == CL_COMPLETE);

    std::vector<int64_t> values;
    for (cl_uint k = 0; k < count; ++k)
        values.push_back(static_cast<int64_t>((k * stride) % count) * 3 + 1);
    const std::vector<uint64_t> r = f.read<uint64_t>(out.ptr, 3);
    CHECK(ListResult{r[0], r[1], r[2]} == list_reference(values));

    // The links point into the device allocation, in the kernel's order.
    const std::vector<Node> copy = f.read<Node>(nodes.ptr, count);
    Node* const base = nodes.as<Node>();
    for (cl_uint k = 0; k + 1 < count; ++k) {
        const cl_uint idx = (k * stride) % count;
        const cl_uint next = ((k + 1) * stride) % count;
        if (copy[idx].next != base + next) {
            INFO("node " << idx);
            CHECK(copy[idx].next == base + next);
            break;
        }
    }
    CHECK(copy[((count - 1) * stride) % count].next == nullptr);
}

TEST_CASE("a kernel mixes a cl_mem argument with USM pointer arguments", "[kernels][cl_mem]") {
    KernelFixture f;
    constexpr size_t n = 2048;
    const std::vector<int> va = iota_values(n, 3, 11);
    const std::vector<int> vb = iota_values(n, 99, -2);
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_mem raw = clCreateBuffer(f.ctx(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(int),
                                const_cast<int*>(va.data()), &error);
    REQUIRE_OK(error);
    MemPtr buffer(raw);
    Memory b(f, Kind::shared, n * sizeof(int));
    Memory c(f, Kind::device, n * sizeof(int));
    std::memcpy(b.ptr, vb.data(), n * sizeof(int));
    f.write(c.ptr, std::vector<int>(n, 0));

    KernelPtr k = f.kernel("vadd");
    REQUIRE_OK(clSetKernelArg(k.get(), 0, sizeof(cl_mem), &raw));
    f.set_ptr(k.get(), 1, b.ptr);
    f.set_ptr(k.get(), 2, c.ptr);
    f.run(k.get(), n);
    std::vector<int> expected(n);
    for (size_t i = 0; i < n; ++i)
        expected[i] = va[i] + vb[i];
    CHECK(f.read<int>(c.ptr, n) == expected);

    // The cl_mem as the output, USM pointers as inputs: a USM pointer
    // argument replaced by a buffer and back.
    REQUIRE_OK(clSetKernelArg(k.get(), 2, sizeof(cl_mem), &raw));
    f.set_ptr(k.get(), 0, b.ptr);
    f.set_ptr(k.get(), 1, c.ptr);
    f.run(k.get(), n);
    std::vector<int> from_buffer(n);
    REQUIRE_OK(clEnqueueReadBuffer(f.q(), raw, CL_TRUE, 0, n * sizeof(int), from_buffer.data(), 0,
                                   nullptr, nullptr));
    std::vector<int> expected2(n);
    for (size_t i = 0; i < n; ++i)
        expected2[i] = vb[i] + expected[i];
    CHECK(from_buffer == expected2);

    // The buffer argument replaced by a USM pointer again.
    Memory d(f, Kind::host, n * sizeof(int));
    f.set_ptr(k.get(), 2, d.ptr);
    f.run(k.get(), n);
    CHECK(std::equal(expected2.begin(), expected2.end(), d.as<int>()));
}
