// Float atomics (cl_ext_float_atomics): atomic_fetch_add/sub/min/max and
// their _explicit forms on atomic_float and atomic_double in __global,
// __local and generic memory, with many work-items on the same locations.
// The values added are 1 and powers of two, so every total is exact; the old
// values returned by adding 1 must be a permutation of 0 .. n-1. The same on
// atomic_half (cl_khr_fp16), with totals half holds exactly.
#include "features_test.hpp"

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

using namespace cl_test;
using namespace kernel_test;
using namespace features_test;

namespace {

#ifndef CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT
#define CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 0)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT (1 << 1)
#define CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT (1 << 2)
#define CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT (1 << 16)
#define CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT (1 << 17)
#define CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT (1 << 18)
#define CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT 0x4231
#define CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT 0x4232
#define CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT 0x4233
#endif

constexpr size_t items = 1 << 15;
constexpr size_t local_size = 128;

// c: 6 counters; old: the old value of the first add per work-item; out: 4
// __local totals per group.
const char* const source = R"CLC(
#if !defined(cl_ext_float_atomics) || !defined(__opencl_c_ext_PREC_global_atomic_add) || \
    !defined(__opencl_c_ext_PREC_local_atomic_min_max)
#error "the float atomics feature macros are missing"
#endif
void add_generic(volatile A* p, T v) { atomic_fetch_add_explicit(p, v, memory_order_relaxed); }
__kernel void float_atomics(__global A* c, __global T* old, __global T* out) {
    __local A l[4];
    size_t id = get_global_id(0), lid = get_local_id(0);
    if (lid == 0) {
        atomic_init(&l[0], (T)0);
        atomic_init(&l[1], (T)1000);
        atomic_init(&l[2], (T)1000);
        atomic_init(&l[3], (T)-1000);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    old[id] = atomic_fetch_add(&c[0], (T)1);
    atomic_fetch_sub_explicit(&c[1], (T)0.5, memory_order_relaxed, memory_scope_device);
    atomic_fetch_min(&c[2], (T)id - (T)7);
    atomic_fetch_max_explicit(&c[3], (T)id, memory_order_seq_cst);
    add_generic(&c[4], (T)0.25);
    atomic_fetch_add_explicit(&c[5], (T)(1 << (id % 4)), memory_order_acq_rel,
                              memory_scope_work_group);
    atomic_fetch_add(&l[0], (T)(lid % 2 ? 0.5 : 2.0));
    add_generic(&l[0], (T)0.125);
    atomic_fetch_sub(&l[1], (T)1);
    atomic_fetch_min_explicit(&l[2], (T)lid - (T)3, memory_order_relaxed);
    atomic_fetch_max(&l[3], (T)lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 4)
        out[4 * get_group_id(0) + lid] = atomic_load(&l[lid]);
}
)CLC";

template <class T>
void check_type(const char* type, const char* atomic_type, const char* prefix) {
    Fixture f;
    const std::string options = std::string("-cl-std=CL3.0 -DT=") + type + " -DA=" + atomic_type;
    std::string text = source;
    for (size_t at; (at = text.find("PREC")) != std::string::npos;)
        text.replace(at, 4, prefix);
    ProgramPtr program = f.build(text, options.c_str());
    KernelPtr kernel = make_kernel(program.get(), "float_atomics");
    const size_t groups = items / local_size;
    const T n = static_cast<T>(items);
    const std::vector<T> initial = {0, n, 1e9, -1e9, 0, 0};
    MemPtr counters = make_buffer(f.ctx(), initial);
    MemPtr old = make_buffer<T>(f.ctx(), items);
    MemPtr out = make_buffer<T>(f.ctx(), 4 * groups);
    set_arg(kernel.get(), 0, counters);
    set_arg(kernel.get(), 1, old);
    set_arg(kernel.get(), 2, out);
    run_1d(f.q(), kernel.get(), items, local_size);
    const auto c = read_buffer<T>(f.q(), counters.get(), initial.size());
    CHECK(c[0] == n);
    CHECK(c[1] == n / 2);
    CHECK(c[2] == -7);
    CHECK(c[3] == n - 1);
    CHECK(c[4] == n / 4);
    CHECK(c[5] == n / 4 * (1 + 2 + 4 + 8));
    auto values = read_buffer<T>(f.q(), old.get(), items);
    std::sort(values.begin(), values.end());
    std::vector<T> expected(items);
    std::iota(expected.begin(), expected.end(), T(0));
    CHECK(values == expected);
    const auto r = read_buffer<T>(f.q(), out.get(), 4 * groups);
    const T m = static_cast<T>(local_size);
    for (size_t g = 0; g < groups; ++g) {
        INFO("group " << g);
        CHECK(r[4 * g] == m / 2 * 2.5 + m * 0.125);
        CHECK(r[4 * g + 1] == 1000 - m);
        CHECK(r[4 * g + 2] == -3);
        CHECK(r[4 * g + 3] == m - 1);
    }
}

// atomic_half: integers are exact up to 2048, so half_items work-items;
// the host sees float copies of the results (out, 4 per group after the 6
// counters).
constexpr size_t half_items = 1024;

const char* const half_source = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#if !defined(__opencl_c_ext_fp16_global_atomic_add) || \
    !defined(__opencl_c_ext_fp16_local_atomic_min_max) || \
    !defined(__opencl_c_ext_fp16_global_atomic_load_store)
#error "the half atomics feature macros are missing"
#endif
void add_generic(volatile atomic_half* p, half v) {
    atomic_fetch_add_explicit(p, v, memory_order_relaxed);
}
__kernel void init(__global atomic_half* c) {
    const half initial[6] = {0, 1024, 1000, -1000, 0, -1};
    for (int i = 0; i < 6; ++i)
        atomic_store(&c[i], initial[i]);
}
__kernel void half_atomics(__global atomic_half* c, __global float* old, __global float* out) {
    __local atomic_half l[4];
    size_t id = get_global_id(0), lid = get_local_id(0);
    if (lid == 0) {
        atomic_store(&l[0], (half)0);
        atomic_store_explicit(&l[1], (half)1000, memory_order_relaxed);
        atomic_store(&l[2], (half)1000);
        atomic_store(&l[3], (half)-1000);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    old[id] = atomic_fetch_add(&c[0], (half)1);
    atomic_fetch_sub_explicit(&c[1], (half)0.5, memory_order_relaxed, memory_scope_device);
    atomic_fetch_min(&c[2], (half)id - (half)7);
    atomic_fetch_max_explicit(&c[3], (half)id, memory_order_seq_cst);
    add_generic(&c[4], (half)0.25);
    atomic_exchange(&c[5], (half)id);
    atomic_fetch_add(&l[0], (half)(lid % 2 ? 0.5 : 2.0));
    add_generic(&l[0], (half)0.125);
    atomic_fetch_sub(&l[1], (half)1);
    atomic_fetch_min_explicit(&l[2], (half)lid - (half)3, memory_order_relaxed);
    atomic_fetch_max(&l[3], (half)lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (lid < 4)
        out[6 + 4 * get_group_id(0) + lid] = atomic_load(&l[lid]);
}
__kernel void results(__global atomic_half* c, __global float* out) {
    for (int i = 0; i < 6; ++i)
        out[i] = atomic_load_explicit(&c[i], memory_order_acquire);
}
)CLC";

} // namespace

TEST_CASE("the device reports its float atomics", "[float_atomics]") {
    cl_device_id id = device();
    REQUIRE(has(extensions(id), "cl_ext_float_atomics"));
    const cl_bitfield all =
        CL_DEVICE_GLOBAL_FP_ATOMIC_LOAD_STORE_EXT | CL_DEVICE_GLOBAL_FP_ATOMIC_ADD_EXT |
        CL_DEVICE_GLOBAL_FP_ATOMIC_MIN_MAX_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_LOAD_STORE_EXT |
        CL_DEVICE_LOCAL_FP_ATOMIC_ADD_EXT | CL_DEVICE_LOCAL_FP_ATOMIC_MIN_MAX_EXT;
    CHECK(device_info<cl_bitfield>(id, CL_DEVICE_SINGLE_FP_ATOMIC_CAPABILITIES_EXT) == all);
    CHECK(device_info<cl_bitfield>(id, CL_DEVICE_DOUBLE_FP_ATOMIC_CAPABILITIES_EXT) == all);
    CHECK(device_info<cl_bitfield>(id, CL_DEVICE_HALF_FP_ATOMIC_CAPABILITIES_EXT) == all);
    const auto features = opencl_c_features(id);
    CHECK(has(features, "__opencl_c_ext_fp16_global_atomic_load_store"));
    CHECK(has(features, "__opencl_c_ext_fp16_local_atomic_load_store"));
    for (const char* precision : {"fp16", "fp32", "fp64"})
        for (const char* space : {"global", "local"})
            for (const char* op : {"add", "min_max"}) {
                const std::string name =
                    std::string("__opencl_c_ext_") + precision + "_" + space + "_atomic_" + op;
                INFO(name);
                CHECK(has(features, name));
            }
}

TEST_CASE("float atomics give exact totals", "[float_atomics]") {
    check_type<cl_float>("float", "atomic_float", "fp32");
}

TEST_CASE("double atomics give exact totals", "[float_atomics]") {
    check_type<cl_double>("double", "atomic_double", "fp64");
}

TEST_CASE("half atomics give exact totals", "[float_atomics]") {
    Fixture f;
    ProgramPtr program = f.build(half_source, "-cl-std=CL3.0");
    KernelPtr init = make_kernel(program.get(), "init");
    KernelPtr kernel = make_kernel(program.get(), "half_atomics");
    KernelPtr results = make_kernel(program.get(), "results");
    const size_t groups = half_items / local_size;
    MemPtr counters = make_buffer<cl_ushort>(f.ctx(), 6);
    MemPtr old = make_buffer<cl_float>(f.ctx(), half_items);
    MemPtr out = make_buffer<cl_float>(f.ctx(), 6 + 4 * groups);
    set_arg(init.get(), 0, counters);
    run_1d(f.q(), init.get(), 1, 1);
    set_arg(kernel.get(), 0, counters);
    set_arg(kernel.get(), 1, old);
    set_arg(kernel.get(), 2, out);
    run_1d(f.q(), kernel.get(), half_items, local_size);
    set_arg(results.get(), 0, counters);
    set_arg(results.get(), 1, out);
    run_1d(f.q(), results.get(), 1, 1);
    const auto r = read_buffer<cl_float>(f.q(), out.get(), 6 + 4 * groups);
    const float n = static_cast<float>(half_items);
    CHECK(r[0] == n);
    CHECK(r[1] == 1024 - n / 2);
    CHECK(r[2] == -7);
    CHECK(r[3] == n - 1);
    CHECK(r[4] == n / 4);
    // Some work-item's id was the last exchanged.
    CHECK(r[5] >= 0);
    CHECK(r[5] < n);
    CHECK(r[5] == static_cast<float>(static_cast<int>(r[5])));
    auto values = read_buffer<cl_float>(f.q(), old.get(), half_items);
    std::sort(values.begin(), values.end());
    std::vector<cl_float> expected(half_items);
    std::iota(expected.begin(), expected.end(), 0.0f);
    CHECK(values == expected);
    const float m = static_cast<float>(local_size);
    for (size_t g = 0; g < groups; ++g) {
        INFO("group " << g);
        CHECK(r[6 + 4 * g] == m / 2 * 2.5f + m * 0.125f);
        CHECK(r[6 + 4 * g + 1] == 1000 - m);
        CHECK(r[6 + 4 * g + 2] == -3);
        CHECK(r[6 + 4 * g + 3] == m - 1);
    }
}
