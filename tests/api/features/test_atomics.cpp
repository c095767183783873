// Atomics: the 32-bit (cl_khr_{global,local}_int32_{base,extended}_atomics)
// and 64-bit (cl_khr_int64_{base,extended}_atomics) OpenCL C 1.x functions on
// __global and __local memory, and the OpenCL C 3.0 C11-style functions with
// every memory order and scope the device reports
// (CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES, the __opencl_c_atomic_* features).
// Many work-items hit the same locations; totals must be exact, and the old
// values atomic_inc returns must be a permutation.
#include "features_test.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

using namespace cl_test;
using namespace kernel_test;
using namespace features_test;

namespace {

constexpr size_t items = 1 << 16;

// 11 counters per launch, plus the old value of atomic_inc per work-item.
const char* const int32_source = R"CLC(
#pragma OPENCL EXTENSION cl_khr_global_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_global_int32_extended_atomics : enable
__kernel void global32(__global uint* c, __global uint* old) {
    uint id = get_global_id(0);
    atomic_add(&c[0], 3u);
    old[id] = atomic_inc(&c[1]);
    atomic_sub(&c[2], 2u);
    atomic_dec(&c[3]);
    uint seen = c[4], wanted;
    do {
        wanted = seen + id;
    } while ((seen = atomic_cmpxchg(&c[4], seen, wanted)) != wanted - id);
    atomic_min((__global int*)&c[5], (int)id - 7);
    atomic_max(&c[6], id);
    atomic_or(&c[7], 1u << (id % 32));
    atomic_xor(&c[8], id * 2654435761u);
    atomic_and(&c[9], ~(1u << (id % 32)));
    atom_add(&c[10], 1u);
    atom_inc(&c[10]);
}
)CLC";

// Per work-group: the same operations on __local counters, then one
// work-item copies them out.
const char* const local32_source = R"CLC(
#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_local_int32_extended_atomics : enable
__kernel void local32(__global uint* out, __local uint* arg_counters) {
    __local uint c[6];
    uint lid = get_local_id(0);
    if (lid == 0) {
        c[0] = 0; c[1] = 0; c[2] = 0; c[3] = 0xffffffffu; c[4] = 0;
        arg_counters[0] = 100;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_inc(&c[0]);
    atomic_add(&c[1], lid);
    uint seen = c[2], wanted;
    do {
        wanted = seen + 2 * lid + 1;
    } while ((seen = atomic_cmpxchg(&c[2], seen, wanted)) != wanted - 2 * lid - 1);
    atomic_and(&c[3], ~(1u << (lid % 32)));
    atomic_max(&c[4], lid);
    atom_dec(&arg_counters[0]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0) {
        __global uint* r = out + 6 * get_group_id(0);
        for (int k = 0; k < 5; ++k)
            r[k] = c[k];
        r[5] = arg_counters[0];
    }
}
)CLC";

const char* const int64_source = R"CLC(
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
__kernel void global64(__global long* c, __global long* out) {
    long id = get_global_id(0);
    atom_add(&c[0], (1L << 33) + id);
    atom_inc(&c[1]);
    atom_sub(&c[2], 3L << 32);
    long seen = c[3], wanted;
    do {
        wanted = seen + (id << 20);
    } while ((seen = atom_cmpxchg(&c[3], seen, wanted)) != wanted - (id << 20));
    atom_min(&c[4], -(id << 32));
    atom_max((__global ulong*)&c[5], (ulong)id << 40);
    atom_xor(&c[6], id << 31);
    atom_or(&c[7], 1L << (id % 64));

    __local long l[2];
    if (get_local_id(0) == 0) {
        l[0] = 0;
        l[1] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    atom_add(&l[0], (1L << 36) + 1);
    long s = l[1], w;
    do {
        w = s + id;
    } while ((s = atom_cmpxchg(&l[1], s, w)) != w - id);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) {
        out[2 * get_group_id(0)] = l[0];
        out[2 * get_group_id(0) + 1] = l[1];
    }
}
)CLC";

// OpenCL C 3.0, built with -DORDER=... -DSCOPE=...: fetch-add, a
// compare-exchange loop, exchange and load/store on global int and long and
// on local int (work-group scope).
const char* const c11_source = R"CLC(
__kernel void c11(__global atomic_int* gi, __global atomic_long* gl,
                  __global int* out) {
    __local atomic_int li;
    int lid = get_local_id(0);
    long id = get_global_id(0);
    if (lid == 0)
        atomic_init(&li, 0);
    barrier(CLK_LOCAL_MEM_FENCE);
    atomic_fetch_add_explicit(&gi[0], 1, ORDER, SCOPE);
    atomic_fetch_sub_explicit(&gi[1], 2, ORDER, SCOPE);
    atomic_fetch_max_explicit(&gi[2], (int)id, ORDER, SCOPE);
    atomic_fetch_or_explicit(&gi[3], 1 << (id % 31), ORDER, SCOPE);
    int expected = atomic_load_explicit(&gi[4], memory_order_relaxed, SCOPE);
    while (!atomic_compare_exchange_strong_explicit(&gi[4], &expected, expected + 3, ORDER,
                                                    memory_order_relaxed, SCOPE))
        ;
    atomic_fetch_add_explicit(&gl[0], (1L << 34) + id, ORDER, SCOPE);
    long e = atomic_load_explicit(&gl[1], memory_order_relaxed, SCOPE);
    while (!atomic_compare_exchange_weak_explicit(&gl[1], &e, e + id, ORDER,
                                                  memory_order_relaxed, SCOPE))
        ;
    atomic_fetch_add_explicit(&li, 1, ORDER, memory_scope_work_group);
    atomic_fetch_add(&gi[5], 1);
    if (id == 0)
        atomic_store_explicit(&gi[6], 42, STORE_ORDER, SCOPE);
    atomic_exchange_explicit(&gi[7], 7, ORDER, SCOPE);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, FENCE_ORDER, SCOPE);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid == 0)
        out[get_group_id(0)] = atomic_load_explicit(&li, LOAD_ORDER, memory_scope_work_group);
}
)CLC";

size_t group_size_for(cl_kernel kernel, cl_device_id device, size_t wanted) {
    const auto limit = work_group_info<size_t>(kernel, device, CL_KERNEL_WORK_GROUP_SIZE);
    size_t size = wanted;
    while (size > limit)
        size /= 2;
    return size;
}

} // namespace

TEST_CASE("the device reports its atomics consistently", "[atomics]") {
    cl_device_id id = device();
    const auto ext = extensions(id);
    for (const char* name :
         {"cl_khr_global_int32_base_atomics", "cl_khr_global_int32_extended_atomics",
          "cl_khr_local_int32_base_atomics", "cl_khr_local_int32_extended_atomics",
          "cl_khr_int64_base_atomics", "cl_khr_int64_extended_atomics"}) {
        INFO(name);
        CHECK(has(ext, name));
    }
    const auto features = opencl_c_features(id);
    const auto memory =
        device_info<cl_device_atomic_capabilities>(id, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
    const auto fence =
        device_info<cl_device_atomic_capabilities>(id, CL_DEVICE_ATOMIC_FENCE_CAPABILITIES);
    const std::pair<const char*, cl_device_atomic_capabilities> pairs[] = {
        {"__opencl_c_atomic_order_acq_rel", CL_DEVICE_ATOMIC_ORDER_ACQ_REL},
        {"__opencl_c_atomic_order_seq_cst", CL_DEVICE_ATOMIC_ORDER_SEQ_CST},
        {"__opencl_c_atomic_scope_device", CL_DEVICE_ATOMIC_SCOPE_DEVICE},
        {"__opencl_c_atomic_scope_all_devices", CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES}};
    for (const auto& [name, bit] : pairs) {
        INFO(name);
        CHECK(has(features, name));
        CHECK((memory & bit) == bit);
        // A fence is at least as capable as the atomics.
        CHECK((fence & bit) == bit);
    }
    CHECK((memory & CL_DEVICE_ATOMIC_ORDER_RELAXED) != 0);
    CHECK((memory & CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP) != 0);
    CHECK((memory & CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM) == 0); // fences only
    CHECK((fence & CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM) != 0);
}

TEST_CASE("32-bit atomics on __global memory give exact totals", "[atomics]") {
    Fixture f;
    ProgramPtr program = f.build(int32_source);
    KernelPtr kernel = make_kernel(program.get(), "global32");
    std::vector<cl_uint> initial = {0, 0, 1000000,    items + 5,  0, 0,
                                    0, 0, 0xdeadbeef, 0xffffffff, 0};
    MemPtr counters = make_buffer(f.ctx(), initial);
    MemPtr old = make_buffer<cl_uint>(f.ctx(), items);
    set_arg(kernel.get(), 0, counters);
    set_arg(kernel.get(), 1, old);
    for (size_t local : {size_t{0}, size_t{1}, size_t{64}}) {
        INFO("local size " << local);
        write_buffer(f.q(), counters.get(), initial);
        run_1d(f.q(), kernel.get(), items, local);
        const auto c = read_buffer<cl_uint>(f.q(), counters.get(), initial.size());
        cl_uint xored = 0xdeadbeef;
        for (cl_uint i = 0; i < items; ++i)
            xored ^= i * 2654435761u;
        CHECK(c[0] == 3 * items);
        CHECK(c[1] == items);
        CHECK(c[2] == 1000000u - 2 * items);
        CHECK(c[3] == 5);
        CHECK(c[4] == static_cast<cl_uint>(uint64_t{items} * (items - 1) / 2));
        CHECK(static_cast<cl_int>(c[5]) == -7);
        CHECK(c[6] == items - 1);
        CHECK(c[7] == 0xffffffffu);
        CHECK(c[8] == xored);
        CHECK(c[9] == 0);
        CHECK(c[10] == 2 * items);
        // The values atomic_inc returned: each of 0 .. items-1 once.
        auto values = read_buffer<cl_uint>(f.q(), old.get(), items);
        std::sort(values.begin(), values.end());
        std::vector<cl_uint> expected(items);
        std::iota(expected.begin(), expected.end(), 0u);
        CHECK(values == expected);
    }
}

TEST_CASE("32-bit atomics on __local memory give exact totals per group", "[atomics]") {
    Fixture f;
    ProgramPtr program = f.build(local32_source);
    KernelPtr kernel = make_kernel(program.get(), "local32");
    const size_t local = group_size_for(kernel.get(), f.device, 256);
    const size_t groups = 64;
    MemPtr out = make_buffer<cl_uint>(f.ctx(), 6 * groups);
    set_arg(kernel.get(), 0, out);
    set_local_arg(kernel.get(), 1, sizeof(cl_uint));
    run_1d(f.q(), kernel.get(), groups * local, local);
    const auto r = read_buffer<cl_uint>(f.q(), out.get(), 6 * groups);
    const cl_uint n = static_cast<cl_uint>(local);
    cl_uint cleared = 0xffffffffu;
    for (cl_uint i = 0; i < n; ++i)
        cleared &= ~(1u << (i % 32));
    for (size_t g = 0; g < groups; ++g) {
        INFO("group " << g << ", local size " << local);
        CHECK(r[6 * g + 0] == n);
        CHECK(r[6 * g + 1] == n * (n - 1) / 2);
        CHECK(r[6 * g + 2] == n * n);
        CHECK(r[6 * g + 3] == cleared);
        CHECK(r[6 * g + 4] == n - 1);
        CHECK(r[6 * g + 5] == 100 - n);
    }
}

TEST_CASE("64-bit atomics on __global and __local memory give exact totals", "[atomics]") {
    Fixture f;
    ProgramPtr program = f.build(int64_source);
    KernelPtr kernel = make_kernel(program.get(), "global64");
    const size_t local = group_size_for(kernel.get(), f.device, 128);
    const size_t groups = items / local;
    const std::vector<cl_long> initial = {0, 0, 0, 5, 0, 0, 0, 0};
    MemPtr counters = make_buffer(f.ctx(), initial);
    MemPtr out = make_buffer<cl_long>(f.ctx(), 2 * groups);
    set_arg(kernel.get(), 0, counters);
    set_arg(kernel.get(), 1, out);
    run_1d(f.q(), kernel.get(), items, local);
    const auto c = read_buffer<cl_long>(f.q(), counters.get(), initial.size());
    const int64_t n = items;
    const int64_t sum = n * (n - 1) / 2;
    int64_t xored = 0;
    for (int64_t i = 0; i < n; ++i)
        xored ^= i << 31;
    CHECK(c[0] == n * (int64_t{1} << 33) + sum);
    CHECK(c[1] == n);
    CHECK(c[2] == -n * (int64_t{3} << 32));
    CHECK(c[3] == 5 + (sum << 20));
    CHECK(c[4] == -((n - 1) << 32));
    CHECK(static_cast<uint64_t>(c[5]) == static_cast<uint64_t>(n - 1) << 40);
    CHECK(c[6] == xored);
    CHECK(c[7] == -1);
    const auto r = read_buffer<cl_long>(f.q(), out.get(), 2 * groups);
    for (size_t g = 0; g < groups; ++g) {
        INFO("group " << g);
        const int64_t m = static_cast<int64_t>(local);
        const int64_t first = static_cast<int64_t>(g) * m;
        CHECK(r[2 * g] == m * ((int64_t{1} << 36) + 1));
        CHECK(r[2 * g + 1] == m * first + m * (m - 1) / 2);
    }
}

TEST_CASE("C11 atomics with every order and scope the device reports", "[atomics]") {
    Fixture f;
    const auto memory =
        device_info<cl_device_atomic_capabilities>(f.device, CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES);
    struct Order {
        cl_device_atomic_capabilities bit;
        const char* order;
        const char* load;
        const char* store;
    };
    const Order orders[] = {
        {CL_DEVICE_ATOMIC_ORDER_RELAXED, "memory_order_relaxed", "memory_order_relaxed",
         "memory_order_relaxed"},
        {CL_DEVICE_ATOMIC_ORDER_ACQ_REL, "memory_order_acq_rel", "memory_order_acquire",
         "memory_order_release"},
        {CL_DEVICE_ATOMIC_ORDER_SEQ_CST, "memory_order_seq_cst", "memory_order_seq_cst",
         "memory_order_seq_cst"},
    };
    const std::pair<cl_device_atomic_capabilities, const char*> scopes[] = {
        {CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP, "memory_scope_work_group"},
        {CL_DEVICE_ATOMIC_SCOPE_DEVICE, "memory_scope_device"},
        {CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES, "memory_scope_all_svm_devices"},
        {CL_DEVICE_ATOMIC_SCOPE_ALL_DEVICES, "memory_scope_all_devices"},
    };
    const size_t n = items / 4;
    size_t combinations = 0;
    for (const Order& order : orders) {
        if (!(memory & order.bit))
            continue;
        for (const auto& [scope_bit, scope] : scopes) {
            if (!(memory & scope_bit))
                continue;
            ++combinations;
            const std::string options = std::string("-cl-std=CL3.0 -DORDER=") + order.order +
                                        " -DSCOPE=" + scope + " -DLOAD_ORDER=" + order.load +
                                        " -DSTORE_ORDER=" + order.store +
                                        " -DFENCE_ORDER=" + order.order;
            INFO("options " << options);
            ProgramPtr program = f.build(c11_source, options.c_str());
            KernelPtr kernel = make_kernel(program.get(), "c11");
            const size_t local = group_size_for(kernel.get(), f.device, 64);
            const size_t groups = n / local;
            MemPtr ints =
                make_buffer<cl_int>(f.ctx(), std::vector<cl_int>{0, 0, -1, 0, 11, 0, 0, 0});
            MemPtr longs = make_buffer<cl_long>(f.ctx(), std::vector<cl_long>{0, 9});
            MemPtr out = make_buffer<cl_int>(f.ctx(), groups);
            set_arg(kernel.get(), 0, ints);
            set_arg(kernel.get(), 1, longs);
            set_arg(kernel.get(), 2, out);
            run_1d(f.q(), kernel.get(), n, local);
            const auto gi = read_buffer<cl_int>(f.q(), ints.get(), 8);
            const auto gl = read_buffer<cl_long>(f.q(), longs.get(), 2);
            const int64_t m = static_cast<int64_t>(n);
            CHECK(gi[0] == m);
            CHECK(gi[1] == -2 * m);
            CHECK(gi[2] == m - 1);
            CHECK(gi[3] == 0x7fffffff);
            CHECK(gi[4] == 11 + 3 * m);
            CHECK(gi[5] == m);
            CHECK(gi[6] == 42);
            CHECK(gi[7] == 7);
            CHECK(gl[0] == m * (int64_t{1} << 34) + m * (m - 1) / 2);
            CHECK(gl[1] == 9 + m * (m - 1) / 2);
            const auto per_group = read_buffer<cl_int>(f.q(), out.get(), groups);
            CHECK(std::all_of(per_group.begin(), per_group.end(),
                              [&](cl_int v) { return v == static_cast<cl_int>(local); }));
        }
    }
    // Relaxed and work-group are the minimum; this device reports them all.
    CHECK(combinations == 12);
}

TEST_CASE("C11 atomics without order or scope arguments", "[atomics]") {
    Fixture f;
    const char* source = R"CLC(
__kernel void implicit(__global atomic_int* c, __global atomic_uint* u) {
    atomic_fetch_add(&c[0], 2);
    atomic_fetch_min(&c[1], -(int)get_global_id(0));
    atomic_fetch_xor(&u[0], (uint)get_global_id(0));
    atomic_flag_test_and_set((__global atomic_flag*)&c[2]);
    if (atomic_load(&c[3]) == 0)
        atomic_store(&c[4], 5);
}
)CLC";
    ProgramPtr program = f.build(source, "-cl-std=CL3.0");
    KernelPtr kernel = make_kernel(program.get(), "implicit");
    MemPtr c = make_buffer<cl_int>(f.ctx(), std::vector<cl_int>{0, 0, 0, 0, 0});
    MemPtr u = make_buffer<cl_uint>(f.ctx(), std::vector<cl_uint>{0});
    set_arg(kernel.get(), 0, c);
    set_arg(kernel.get(), 1, u);
    run_1d(f.q(), kernel.get(), items);
    const auto r = read_buffer<cl_int>(f.q(), c.get(), 5);
    CHECK(r[0] == 2 * static_cast<cl_int>(items));
    CHECK(r[1] == -static_cast<cl_int>(items - 1));
    CHECK(r[2] != 0);
    CHECK(r[4] == 5);
    cl_uint xored = 0;
    for (cl_uint i = 0; i < items; ++i)
        xored ^= i;
    CHECK(read_buffer<cl_uint>(f.q(), u.get(), 1)[0] == xored);
}
