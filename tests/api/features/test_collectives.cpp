// Work-group collective functions (__opencl_c_work_group_collective_functions):
// broadcast (1D, 2D and 3D local ids), reduce and inclusive/exclusive scans
// with add, min and max on int, uint, long, ulong, float and double,
// work_group_all/any. Kernels call them back to back over 1D, 2D and 3D
// NDRanges whose last groups are smaller (non-uniform), and the results are
// compared with a host reference computed over each group in local linear
// id order. Float inputs are small integers, so every sum is exact.
#include "features_test.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

using namespace cl_test;
using namespace kernel_test;
using namespace features_test;

namespace {

// Per work-item: 9 reduce/scan results and 2 broadcasts of T, and 2
// predicates. The global linear id orders the outputs.
const char* const source = R"CLC(
size_t linear_global_id(void) {
    return get_global_id(0) +
           get_global_size(0) * (get_global_id(1) + get_global_size(1) * get_global_id(2));
}
T broadcast_last(T x) {
#if DIMS == 1
    return work_group_broadcast(x, get_local_size(0) - 1);
#elif DIMS == 2
    return work_group_broadcast(x, get_local_size(0) - 1, get_local_size(1) - 1);
#else
    return work_group_broadcast(x, get_local_size(0) - 1, get_local_size(1) - 1,
                                get_local_size(2) - 1);
#endif
}
T broadcast_middle(T x) {
#if DIMS == 1
    return work_group_broadcast(x, get_local_size(0) / 2);
#elif DIMS == 2
    return work_group_broadcast(x, get_local_size(0) / 2, get_local_size(1) / 2);
#else
    return work_group_broadcast(x, get_local_size(0) / 2, get_local_size(1) / 2,
                                get_local_size(2) / 2);
#endif
}
__kernel void collectives(__global const T* in, __global T* out, __global int* predicates,
                          int limit) {
    size_t id = linear_global_id();
    T x = in[id];
    __global T* o = out + 11 * id;
    o[0] = work_group_reduce_add(x);
    o[1] = work_group_reduce_min(x);
    o[2] = work_group_reduce_max(x);
    o[3] = work_group_scan_inclusive_add(x);
    o[4] = work_group_scan_inclusive_min(x);
    o[5] = work_group_scan_inclusive_max(x);
    o[6] = work_group_scan_exclusive_add(x);
    o[7] = work_group_scan_exclusive_min(x);
    o[8] = work_group_scan_exclusive_max(x);
    o[9] = broadcast_last(x);
    o[10] = broadcast_middle(x);
    size_t group = get_group_id(0) +
                   get_num_groups(0) * (get_group_id(1) + get_num_groups(1) * get_group_id(2));
    T bound = group % 3 == 0 ? (T)100 : (T)limit;
    predicates[2 * id] = work_group_all(x < bound);
    predicates[2 * id + 1] = work_group_any(x > bound);
}
)CLC";

struct Shape {
    cl_uint dims;
    std::array<size_t, 3> global;
    std::array<size_t, 3> local;
};

template <class T>
struct Expected {
    std::vector<T> out;
    std::vector<cl_int> predicates;
};

// The host reference: each group's work-items in local linear id order.
template <class T>
Expected<T> reference(const Shape& s, const std::vector<T>& in, T limit) {
    const size_t total = s.global[0] * s.global[1] * s.global[2];
    Expected<T> e{std::vector<T>(11 * total), std::vector<cl_int>(2 * total)};
    std::array<size_t, 3> groups{};
    for (int d = 0; d < 3; ++d)
        groups[d] = (s.global[d] + s.local[d] - 1) / s.local[d];
    for (size_t gz = 0; gz < groups[2]; ++gz)
        for (size_t gy = 0; gy < groups[1]; ++gy)
            for (size_t gx = 0; gx < groups[0]; ++gx) {
                const std::array<size_t, 3> g{gx, gy, gz};
                std::array<size_t, 3> size{};
                for (int d = 0; d < 3; ++d)
                    size[d] = std::min(s.local[d], s.global[d] - g[d] * s.local[d]);
                // Global linear ids of the group's work-items, by local linear id.
                std::vector<size_t> ids;
                for (size_t z = 0; z < size[2]; ++z)
                    for (size_t y = 0; y < size[1]; ++y)
                        for (size_t x = 0; x < size[0]; ++x) {
                            const size_t X = gx * s.local[0] + x, Y = gy * s.local[1] + y,
                                         Z = gz * s.local[2] + z;
                            ids.push_back(X + s.global[0] * (Y + s.global[1] * Z));
                        }
                T sum = 0, lo = std::numeric_limits<T>::max(),
                  hi = std::numeric_limits<T>::lowest();
                if constexpr (std::is_floating_point_v<T>) {
                    lo = std::numeric_limits<T>::infinity();
                    hi = -std::numeric_limits<T>::infinity();
                }
                const size_t group = gx + groups[0] * (gy + groups[1] * gz);
                const T bound = group % 3 == 0 ? T(100) : limit;
                bool all = true, any = false;
                for (size_t id : ids) {
                    const T v = in[id];
                    T* o = &e.out[11 * id];
                    o[6] = sum;
                    o[7] = lo;
                    o[8] = hi;
                    sum += v;
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                    o[3] = sum;
                    o[4] = lo;
                    o[5] = hi;
                    all = all && v < bound;
                    any = any || v > bound;
                }
                const auto at = [&](size_t x, size_t y, size_t z) {
                    return in[ids[x + size[0] * (y + size[1] * z)]];
                };
                const T last = at(size[0] - 1, size[1] - 1, size[2] - 1);
                const T middle = at(size[0] / 2, size[1] / 2, size[2] / 2);
                for (size_t id : ids) {
                    T* o = &e.out[11 * id];
                    o[0] = sum;
                    o[1] = lo;
                    o[2] = hi;
                    o[9] = last;
                    o[10] = middle;
                    e.predicates[2 * id] = all;
                    e.predicates[2 * id + 1] = any;
                }
            }
    return e;
}

const char* const names[11] = {"reduce_add",         "reduce_min",         "reduce_max",
                               "scan_inclusive_add", "scan_inclusive_min", "scan_inclusive_max",
                               "scan_exclusive_add", "scan_exclusive_min", "scan_exclusive_max",
                               "broadcast (last)",   "broadcast (middle)"};

template <class T>
void check_type(const char* type_name) {
    Fixture f;
    const Shape shapes[] = {
        {1, {1000, 1, 1}, {64, 1, 1}}, // last group 40
        {1, {256, 1, 1}, {256, 1, 1}},
        {1, {5, 1, 1}, {1, 1, 1}},
        {1, {4096 + 77, 1, 1}, {4096, 1, 1}},
        {2, {37, 11, 1}, {8, 4, 1}},
        {2, {16, 16, 1}, {16, 16, 1}},
        {3, {9, 7, 5}, {4, 3, 2}},
        {3, {8, 8, 8}, {4, 4, 4}},
    };
    std::mt19937 random(42);
    // Unsigned types get values in [0, 16), signed ones [-8, 8).
    const long offset = std::is_signed_v<T> ? 8 : 0;
    for (const Shape& s : shapes) {
        const std::string options =
            std::string("-cl-std=CL3.0 -DT=") + type_name + " -DDIMS=" + std::to_string(s.dims);
        INFO(type_name << ", " << s.dims << "D, global " << s.global[0] << "x" << s.global[1] << "x"
                       << s.global[2] << ", local " << s.local[0] << "x" << s.local[1] << "x"
                       << s.local[2]);
        ProgramPtr program = f.build(source, options.c_str());
        KernelPtr kernel = make_kernel(program.get(), "collectives");
        const size_t group_items = s.local[0] * s.local[1] * s.local[2];
        if (group_items >
            work_group_info<size_t>(kernel.get(), f.device, CL_KERNEL_WORK_GROUP_SIZE))
            continue;
        const size_t total = s.global[0] * s.global[1] * s.global[2];
        std::vector<T> in(total);
        for (T& v : in)
            v = static_cast<T>(static_cast<long>(random() % 16) - offset);
        const T limit = 5;
        MemPtr in_buffer = make_buffer(f.ctx(), in);
        MemPtr out = make_buffer<T>(f.ctx(), 11 * total);
        MemPtr predicates = make_buffer<cl_int>(f.ctx(), 2 * total);
        set_arg(kernel.get(), 0, in_buffer);
        set_arg(kernel.get(), 1, out);
        set_arg(kernel.get(), 2, predicates);
        set_arg(kernel.get(), 3, static_cast<cl_int>(5));
        run(f.q(), kernel.get(), s.dims, s.global.data(), s.local.data());
        const auto got = read_buffer<T>(f.q(), out.get(), 11 * total);
        const auto got_predicates = read_buffer<cl_int>(f.q(), predicates.get(), 2 * total);
        const Expected<T> e = reference(s, in, limit);
        size_t wrong = 0;
        for (size_t i = 0; i < 11 * total && wrong < 5; ++i)
            if (got[i] != e.out[i]) {
                ++wrong;
                INFO(names[i % 11] << " of work-item " << i / 11);
                CHECK(got[i] == e.out[i]);
            }
        for (size_t i = 0; i < 2 * total && wrong < 5; ++i)
            if (got_predicates[i] != e.predicates[i]) {
                ++wrong;
                INFO((i % 2 ? "any" : "all") << " of work-item " << i / 2);
                CHECK(got_predicates[i] == e.predicates[i]);
            }
        CHECK(wrong == 0);
    }
}

// Collectives of different widths back to back and in a loop: the read of
// one call and the store of the next share a sub-CFG.
const char* const mixed_source = R"CLC(
__kernel void mixed(__global const int* in, __global double* out) {
    size_t id = get_global_id(0);
    int x = in[id];
    double acc = 0;
    for (int k = 0; k < 3; ++k) {
        int sum = work_group_reduce_add(x + k);
        double scan = work_group_scan_inclusive_add((double)x * k);
        long first = work_group_broadcast((long)x << 33, 0);
        acc += sum + scan + (double)(first >> 33);
    }
    out[id] = acc;
}
)CLC";

} // namespace

TEST_CASE("the device reports work-group collective functions", "[collectives]") {
    cl_device_id id = device();
    CHECK(has(opencl_c_features(id), "__opencl_c_work_group_collective_functions"));
    CHECK(device_info<cl_bool>(id, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT) == CL_TRUE);
}

TEST_CASE("work-group collectives on int", "[collectives]") {
    check_type<cl_int>("int");
}
TEST_CASE("work-group collectives on uint", "[collectives]") {
    check_type<cl_uint>("uint");
}
TEST_CASE("work-group collectives on long", "[collectives]") {
    check_type<cl_long>("long");
}
TEST_CASE("work-group collectives on ulong", "[collectives]") {
    check_type<cl_ulong>("ulong");
}
TEST_CASE("work-group collectives on float", "[collectives]") {
    check_type<cl_float>("float");
}
TEST_CASE("work-group collectives on double", "[collectives]") {
    check_type<cl_double>("double");
}

TEST_CASE("work-group collectives of different types back to back", "[collectives]") {
    Fixture f;
    // -cl-opt-disable has a pipeline of its own.
    const char* const options = GENERATE("-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable");
    INFO(options);
    ProgramPtr program = f.build(mixed_source, options);
    KernelPtr kernel = make_kernel(program.get(), "mixed");
    const size_t global = 1000, local = 128; // last group 104
    std::vector<cl_int> in(global);
    for (size_t i = 0; i < global; ++i)
        in[i] = static_cast<cl_int>(i * 7 % 13) - 6;
    MemPtr in_buffer = make_buffer(f.ctx(), in);
    MemPtr out = make_buffer<cl_double>(f.ctx(), global);
    set_arg(kernel.get(), 0, in_buffer);
    set_arg(kernel.get(), 1, out);
    run_1d(f.q(), kernel.get(), global, local);
    const auto got = read_buffer<cl_double>(f.q(), out.get(), global);
    for (size_t first = 0; first < global; first += local) {
        const size_t n = std::min(local, global - first);
        for (size_t i = first; i < first + n; ++i) {
            double expected = 0;
            for (int k = 0; k < 3; ++k) {
                long sum = 0;
                double scan = 0;
                for (size_t j = first; j < first + n; ++j) {
                    sum += in[j] + k;
                    if (j <= i)
                        scan += static_cast<double>(in[j]) * k;
                }
                expected += static_cast<double>(sum) + scan + in[first];
            }
            INFO("work-item " << i);
            CHECK(got[i] == expected);
        }
    }
}

// With reqd_work_group_size the scratch area has a slot per work-item of
// that size, plus one, instead of one per work-item of the largest group.
TEST_CASE("work-group collectives in a kernel with reqd_work_group_size", "[collectives]") {
    Fixture f;
    const char* const reqd_source = R"CLC(
__kernel __attribute__((reqd_work_group_size(16, 4, 1)))
void reqd(__global const int* in, __global int* out) {
    size_t id = get_global_id(0) + get_global_size(0) * get_global_id(1);
    out[id] = work_group_scan_exclusive_add(in[id]) + work_group_reduce_max(in[id]);
}
)CLC";
    ProgramPtr program = f.build(reqd_source, "-cl-std=CL3.0");
    KernelPtr kernel = make_kernel(program.get(), "reqd");
    CHECK(work_group_info<cl_ulong>(kernel.get(), f.device, CL_KERNEL_LOCAL_MEM_SIZE) ==
          (16 * 4 + 1) * 8);
    const std::array<size_t, 3> global{32, 8, 1}, local{16, 4, 1};
    std::vector<cl_int> in(32 * 8);
    for (size_t i = 0; i < in.size(); ++i)
        in[i] = static_cast<cl_int>(i * 5 % 11);
    MemPtr in_buffer = make_buffer(f.ctx(), in);
    MemPtr out = make_buffer<cl_int>(f.ctx(), in.size());
    set_arg(kernel.get(), 0, in_buffer);
    set_arg(kernel.get(), 1, out);
    run(f.q(), kernel.get(), 2, global.data(), local.data());
    const auto got = read_buffer<cl_int>(f.q(), out.get(), in.size());
    const Shape shape{2, global, local};
    const Expected<cl_int> e = reference(shape, in, cl_int{5});
    for (size_t i = 0; i < in.size(); ++i) {
        INFO("work-item " << i);
        CHECK(got[i] == e.out[11 * i + 6] + e.out[11 * i + 2]);
    }
}

// The uniform arithmetic of SPV_KHR_uniform_group_instructions, which SPIR-V
// producers (DPC++'s reductions) emit: the library defines the functions of
// cl_khr_work_group_uniform_arithmetic. The device does not report that
// extension (Clang 19 has no declarations of them for OpenCL C), so this
// kernel declares them itself; the names mangle as the SPIR-V reader's
// calls do.
TEST_CASE("work-group uniform arithmetic: mul, and, or, xor, logical", "[collectives]") {
    Fixture f;
    const char* const uniform_source = R"CLC(
#define DECLARE(T, OP) \
    T __attribute__((overloadable)) work_group_reduce_##OP(T); \
    T __attribute__((overloadable)) work_group_scan_inclusive_##OP(T); \
    T __attribute__((overloadable)) work_group_scan_exclusive_##OP(T);
DECLARE(uint, mul) DECLARE(double, mul) DECLARE(uint, and) DECLARE(uint, or) DECLARE(uint, xor)
DECLARE(int, logical_and) DECLARE(int, logical_or) DECLARE(int, logical_xor)
__kernel void uniform(__global const uint* in, __global uint* out, __global double* products) {
    size_t id = get_global_id(0);
    uint x = in[id];
    __global uint* o = out + 12 * id;
    o[0] = work_group_reduce_mul(x);
    o[1] = work_group_scan_inclusive_mul(x);
    o[2] = work_group_scan_exclusive_mul(x);
    o[3] = work_group_reduce_and(x);
    o[4] = work_group_reduce_or(x);
    o[5] = work_group_reduce_xor(x);
    o[6] = work_group_scan_inclusive_xor(x);
    o[7] = work_group_scan_exclusive_or(x);
    o[8] = work_group_reduce_logical_and((int)(x & 4));
    o[9] = work_group_reduce_logical_or((int)(x & 64));
    o[10] = work_group_reduce_logical_xor((int)(x & 2));
    o[11] = work_group_scan_inclusive_logical_xor((int)(x & 2));
    double d = (x & 1) ? 2.0 : 0.5;
    products[2 * id] = work_group_reduce_mul(d);
    products[2 * id + 1] = work_group_scan_exclusive_mul(d);
}
)CLC";
    ProgramPtr program = f.build(uniform_source, "-cl-std=CL3.0");
    KernelPtr kernel = make_kernel(program.get(), "uniform");
    const size_t global = 100, local = 32; // last group 4
    std::vector<cl_uint> in(global);
    for (size_t i = 0; i < global; ++i)
        in[i] = static_cast<cl_uint>((i * 37 + 11) % 29) + 1;
    MemPtr in_buffer = make_buffer(f.ctx(), in);
    MemPtr out = make_buffer<cl_uint>(f.ctx(), 12 * global);
    MemPtr products = make_buffer<cl_double>(f.ctx(), 2 * global);
    set_arg(kernel.get(), 0, in_buffer);
    set_arg(kernel.get(), 1, out);
    set_arg(kernel.get(), 2, products);
    run_1d(f.q(), kernel.get(), global, local);
    const auto got = read_buffer<cl_uint>(f.q(), out.get(), 12 * global);
    const auto got_products = read_buffer<cl_double>(f.q(), products.get(), 2 * global);
    for (size_t first = 0; first < global; first += local) {
        const size_t n = std::min(local, global - first);
        cl_uint mul = 1, all_and = ~0u, all_or = 0, all_xor = 0;
        int land = 1, lor = 0, lxor = 0;
        double product = 1;
        for (size_t j = first; j < first + n; ++j) {
            mul *= in[j];
            all_and &= in[j];
            all_or |= in[j];
            all_xor ^= in[j];
            land = land && (in[j] & 4) != 0;
            lor = lor || (in[j] & 64) != 0;
            lxor ^= (in[j] & 2) != 0;
            product *= (in[j] & 1) ? 2.0 : 0.5;
        }
        cl_uint running_mul = 1, running_xor = 0, running_or = 0;
        int running_lxor = 0;
        double running_product = 1;
        for (size_t i = first; i < first + n; ++i) {
            INFO("work-item " << i);
            const cl_uint* o = &got[12 * i];
            CHECK(o[0] == mul);
            CHECK(o[2] == running_mul);
            running_mul *= in[i];
            CHECK(o[1] == running_mul);
            CHECK(o[3] == all_and);
            CHECK(o[4] == all_or);
            CHECK(o[5] == all_xor);
            CHECK(o[7] == running_or);
            running_or |= in[i];
            running_xor ^= in[i];
            CHECK(o[6] == running_xor);
            CHECK(o[8] == static_cast<cl_uint>(land));
            CHECK(o[9] == static_cast<cl_uint>(lor));
            CHECK(o[10] == static_cast<cl_uint>(lxor));
            running_lxor ^= (in[i] & 2) != 0;
            CHECK(o[11] == static_cast<cl_uint>(running_lxor));
            CHECK(got_products[2 * i] == product);
            CHECK(got_products[2 * i + 1] == running_product);
            running_product *= (in[i] & 1) ? 2.0 : 0.5;
        }
    }
}
