// NDRange launches: the work-item functions (get_global_id, get_local_id,
// get_group_id, get_num_groups, get_local_size, get_global_size,
// get_global_offset, get_work_dim) written out by every work-item of 1D, 2D
// and 3D ranges, with and without offsets, with given and automatic local
// sizes, and compared with a host model; computations checked against host
// references; barriers with __local memory (tree reductions) and __local
// arguments of several sizes; the launch errors; empty ranges; clEnqueueTask.
#include "kernel_test.hpp"

#include <array>
#include <cstdint>
#include <numeric>

using namespace cl_test;
using namespace kernel_test;

namespace {

// Every work-item writes one record of 22 values at its linear index
// (global id minus offset, x fastest): for d = 0..2 the global id, local id,
// group id, number of groups, local size, global size and global offset,
// then the work dimension.
constexpr size_t record_size = 22;

const char* const ids_source = R"CLC(
__kernel void ids(__global ulong* out) {
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    size_t linear = (z * get_global_size(1) + y) * get_global_size(0) + x;
    __global ulong* r = out + 22 * linear;
    for (uint d = 0; d < 3; ++d) {
        r[7 * d + 0] = get_global_id(d);
        r[7 * d + 1] = get_local_id(d);
        r[7 * d + 2] = get_group_id(d);
        r[7 * d + 3] = get_num_groups(d);
        r[7 * d + 4] = get_local_size(d);
        r[7 * d + 5] = get_global_size(d);
        r[7 * d + 6] = get_global_offset(d);
    }
    r[21] = get_work_dim();
}

__kernel void ids_big(__global ulong* out, uint dim) {
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    size_t linear = (z * get_global_size(1) + y) * get_global_size(0) + x;
    out[linear] = ((ulong)get_group_id(dim) << 32) | ((ulong)get_local_id(dim) << 16) |
                  (ulong)get_local_size(dim);
}

__kernel __attribute__((reqd_work_group_size(4, 3, 1))) void ids_fixed(__global ulong* out) {
    size_t x = get_global_id(0) - get_global_offset(0);
    size_t y = get_global_id(1) - get_global_offset(1);
    size_t z = get_global_id(2) - get_global_offset(2);
    size_t linear = (z * get_global_size(1) + y) * get_global_size(0) + x;
    __global ulong* r = out + 22 * linear;
    for (uint d = 0; d < 3; ++d) {
        r[7 * d + 0] = get_global_id(d);
        r[7 * d + 1] = get_local_id(d);
        r[7 * d + 2] = get_group_id(d);
        r[7 * d + 3] = get_num_groups(d);
        r[7 * d + 4] = get_local_size(d);
        r[7 * d + 5] = get_global_size(d);
        r[7 * d + 6] = get_global_offset(d);
    }
    r[21] = get_work_dim();
}
)CLC";

struct Range {
    cl_uint dims = 1;
    std::array<size_t, 3> global{1, 1, 1};
    std::array<size_t, 3> local{1, 1, 1};
    std::array<size_t, 3> offset{0, 0, 0};
    size_t count() const { return global[0] * global[1] * global[2]; }
};

// The records the ids kernel must write for range; unused dimensions give
// size 1, id 0 and offset 0.
std::vector<cl_ulong> ids_reference(const Range& range) {
    std::vector<cl_ulong> out(record_size * range.count());
    for (size_t z = 0; z < range.global[2]; ++z)
        for (size_t y = 0; y < range.global[1]; ++y)
            for (size_t x = 0; x < range.global[0]; ++x) {
                const std::array<size_t, 3> position{x, y, z};
                cl_ulong* r =
                    out.data() + record_size * ((z * range.global[1] + y) * range.global[0] + x);
                for (size_t d = 0; d < 3; ++d) {
                    r[7 * d + 0] = position[d] + range.offset[d];
                    r[7 * d + 1] = position[d] % range.local[d];
                    r[7 * d + 2] = position[d] / range.local[d];
                    r[7 * d + 3] = range.global[d] / range.local[d];
                    r[7 * d + 4] = range.local[d];
                    r[7 * d + 5] = range.global[d];
                    r[7 * d + 6] = range.offset[d];
                }
                r[21] = range.dims;
            }
    return out;
}

// Runs kernel (one __global ulong* argument, records of ids) on range, with
// the local size given or not, and returns the records.
std::vector<cl_ulong> run_ids(const Fixture& f, cl_kernel kernel, const Range& range,
                              bool give_local, bool give_offset) {
    // Filled with a pattern no work-item writes, to see the ones left out.
    const std::vector<cl_ulong> pattern(record_size * range.count(), 0xdeadbeefcafef00dULL);
    MemPtr out = make_buffer(f.ctx(), pattern);
    set_arg(kernel, 0, out);
    run(f.q(), kernel, range.dims, range.global.data(), give_local ? range.local.data() : nullptr,
        give_offset ? range.offset.data() : nullptr);
    return read_buffer<cl_ulong>(f.q(), out.get(), pattern.size());
}

// Compares records with the reference, reporting the first mismatch only.
void check_records(const std::vector<cl_ulong>& actual, const std::vector<cl_ulong>& expected) {
    REQUIRE(actual.size() == expected.size());
    size_t mismatches = 0;
    for (size_t i = 0; i < actual.size(); ++i)
        if (actual[i] != expected[i]) {
            if (mismatches == 0) {
                INFO("work-item " << i / record_size << ", field " << i % record_size);
                CHECK(actual[i] == expected[i]);
            }
            ++mismatches;
        }
    CHECK(mismatches == 0);
}

struct IdsKernels {
    const Fixture& f;
    ProgramPtr program = f.build(ids_source);
    KernelPtr ids = make_kernel(program.get(), "ids");
};

} // namespace

TEST_CASE("work-item functions with given local sizes and offsets") {
    Fixture f;
    IdsKernels kernels{f};
    const bool with_offset = GENERATE(true, false);
    Range range;
    SECTION("1D") {
        range.dims = 1;
        range.global = {96, 1, 1};
        range.local = {8, 1, 1};
        range.offset = {5, 0, 0};
    }
    SECTION("1D, one work-group") {
        range.dims = 1;
        range.global = {33, 1, 1};
        range.local = {33, 1, 1};
        range.offset = {1000000, 0, 0};
    }
    SECTION("2D") {
        range.dims = 2;
        range.global = {12, 10, 1};
        range.local = {4, 5, 1};
        range.offset = {3, 7, 0};
    }
    SECTION("3D") {
        range.dims = 3;
        range.global = {6, 4, 10};
        range.local = {3, 2, 5};
        range.offset = {1, 2, 3};
    }
    SECTION("3D, local size 1") {
        range.dims = 3;
        range.global = {5, 3, 7};
        range.local = {1, 1, 1};
        range.offset = {11, 0, 2};
    }
    INFO("dims " << range.dims << ", global " << range.global[0] << "x" << range.global[1] << "x"
                 << range.global[2] << ", local " << range.local[0] << "x" << range.local[1] << "x"
                 << range.local[2] << (with_offset ? ", with an offset" : ", offset NULL"));
    if (!with_offset)
        range.offset = {0, 0, 0};
    check_records(run_ids(f, kernels.ids.get(), range, true, with_offset), ids_reference(range));
}

TEST_CASE("work-item functions with automatic local sizes") {
    Fixture f;
    IdsKernels kernels{f};
    const auto max_group = device_info<size_t>(f.device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    const auto max_items = device_info_array<size_t>(f.device, CL_DEVICE_MAX_WORK_ITEM_SIZES);
    REQUIRE(max_items.size() == 3);
    Range range;
    SECTION("1D, a prime") {
        range.dims = 1;
        range.global = {97, 1, 1};
    }
    SECTION("1D, a power of two") {
        range.dims = 1;
        range.global = {1024, 1, 1};
    }
    SECTION("2D") {
        range.dims = 2;
        range.global = {30, 14, 1};
        range.offset = {2, 9, 0};
    }
    SECTION("3D") {
        range.dims = 3;
        range.global = {8, 9, 10};
        range.offset = {0, 1, 0};
    }
    const std::vector<cl_ulong> records = run_ids(f, kernels.ids.get(), range, false, true);
    // The local size the implementation chose (read from the first work-item):
    // within the device's limits, dividing the global size unless the device
    // supports non-uniform work-groups, and the same for every work-item.
    for (size_t d = 0; d < 3; ++d)
        range.local[d] = static_cast<size_t>(records[7 * d + 4]);
    INFO("chosen local size " << range.local[0] << "x" << range.local[1] << "x" << range.local[2]);
    size_t product = 1;
    for (size_t d = 0; d < 3; ++d) {
        REQUIRE(range.local[d] >= 1);
        CHECK(range.local[d] <= max_items[d]);
        if (!device_info<cl_bool>(f.device, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT))
            REQUIRE(range.global[d] % range.local[d] == 0);
        product *= range.local[d];
    }
    CHECK(product <= max_group);
    check_records(records, ids_reference(range));
}

// cl_khr_suggested_local_work_size: the answer is the local size a launch
// without one gets (read back from the work-items), with that launch's
// errors.
TEST_CASE("clGetKernelSuggestedLocalWorkSizeKHR answers the automatic local size") {
    Fixture f;
    IdsKernels kernels{f};
    cl_kernel k = kernels.ids.get();
    REQUIRE(device_info_string(f.device, CL_DEVICE_EXTENSIONS)
                .find("cl_khr_suggested_local_work_size") != std::string::npos);
    auto* suggest = reinterpret_cast<clGetKernelSuggestedLocalWorkSizeKHR_fn>(
        clGetExtensionFunctionAddressForPlatform(platform(),
                                                 "clGetKernelSuggestedLocalWorkSizeKHR"));
    REQUIRE(suggest != nullptr);
    for (const Range& range :
         {Range{1, {97, 1, 1}}, Range{1, {1024, 1, 1}}, Range{2, {30, 14, 1}, {1, 1, 1}, {2, 9, 0}},
          Range{3, {8, 9, 10}, {1, 1, 1}, {0, 1, 0}}, Range{1, {1 << 20, 1, 1}}}) {
        INFO("global " << range.global[0] << "x" << range.global[1] << "x" << range.global[2]);
        std::array<size_t, 3> suggested{0, 0, 0};
        MemPtr out = make_buffer<cl_ulong>(f.ctx(), record_size * range.count());
        set_arg(k, 0, out);
        REQUIRE_OK(suggest(f.q(), k, range.dims, range.offset.data(), range.global.data(),
                           suggested.data()));
        const std::vector<cl_ulong> records = run_ids(f, k, range, false, true);
        for (cl_uint d = 0; d < range.dims; ++d)
            CHECK(suggested[d] == records[7 * d + 4]);
    }

    // reqd_work_group_size is the answer where the kernel has it.
    KernelPtr fixed = make_kernel(kernels.program.get(), "ids_fixed");
    MemPtr out = make_buffer<cl_ulong>(f.ctx(), record_size * 8 * 9);
    set_arg(fixed.get(), 0, out);
    const size_t global[] = {8, 9, 1};
    std::array<size_t, 3> suggested{0, 0, 0};
    REQUIRE_OK(suggest(f.q(), fixed.get(), 2, nullptr, global, suggested.data()));
    CHECK(suggested[0] == 4);
    CHECK(suggested[1] == 3);

    // The errors, and nothing written when there is one.
    const size_t zero[] = {16, 0, 16};
    const size_t huge_offset[] = {SIZE_MAX - 4, 0, 0};
    suggested = {7, 7, 7};
    CHECK_CL(suggest(nullptr, k, 1, nullptr, global, suggested.data()), CL_INVALID_COMMAND_QUEUE);
    CHECK_CL(suggest(f.q(), nullptr, 1, nullptr, global, suggested.data()), CL_INVALID_KERNEL);
    CHECK_CL(suggest(f.q(), k, 0, nullptr, global, suggested.data()), CL_INVALID_WORK_DIMENSION);
    CHECK_CL(suggest(f.q(), k, 4, nullptr, global, suggested.data()), CL_INVALID_WORK_DIMENSION);
    CHECK_CL(suggest(f.q(), k, 1, nullptr, nullptr, suggested.data()), CL_INVALID_GLOBAL_WORK_SIZE);
    CHECK_CL(suggest(f.q(), k, 2, nullptr, zero, suggested.data()), CL_INVALID_GLOBAL_WORK_SIZE);
    CHECK_CL(suggest(f.q(), k, 1, huge_offset, global, suggested.data()), CL_INVALID_GLOBAL_OFFSET);
    CHECK_CL(suggest(f.q(), k, 1, nullptr, global, nullptr), CL_INVALID_VALUE);
    KernelPtr unset = make_kernel(kernels.program.get(), "ids");
    CHECK_CL(suggest(f.q(), unset.get(), 1, nullptr, global, suggested.data()),
             CL_INVALID_KERNEL_ARGS);
    Fixture other;
    CHECK_CL(suggest(other.q(), k, 1, nullptr, global, suggested.data()), CL_INVALID_CONTEXT);
    CHECK(suggested == std::array<size_t, 3>{7, 7, 7});
}

TEST_CASE("automatic local sizes of large ranges stay consistent") {
    Fixture f;
    IdsKernels kernels{f};
    KernelPtr big = make_kernel(kernels.program.get(), "ids_big");
    const auto max_group = device_info<size_t>(f.device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    Range range;
    SECTION("1D") {
        range.dims = 1;
        range.global = {1 << 18, 1, 1};
    }
    SECTION("2D") {
        range.dims = 2;
        range.global = {384, 500, 1};
    }
    SECTION("3D") {
        range.dims = 3;
        range.global = {64, 48, 40};
    }
    std::array<size_t, 3> local{1, 1, 1};
    for (cl_uint d = 0; d < range.dims; ++d) {
        INFO("dimension " << d);
        std::vector<cl_ulong> pattern(range.count(), ~0ULL);
        MemPtr out = make_buffer(f.ctx(), pattern);
        set_arg(big.get(), 0, out);
        set_arg(big.get(), 1, d);
        run(f.q(), big.get(), range.dims, range.global.data());
        const std::vector<cl_ulong> values = read_buffer<cl_ulong>(f.q(), out.get(), range.count());
        local[d] = static_cast<size_t>(values[0] & 0xffff);
        REQUIRE(local[d] >= 1);
        REQUIRE(range.global[d] % local[d] == 0);
        size_t mismatches = 0;
        for (size_t z = 0; z < range.global[2]; ++z)
            for (size_t y = 0; y < range.global[1]; ++y)
                for (size_t x = 0; x < range.global[0]; ++x) {
                    const size_t position = d == 0 ? x : d == 1 ? y : z;
                    const cl_ulong expected = (static_cast<cl_ulong>(position / local[d]) << 32) |
                                              (static_cast<cl_ulong>(position % local[d]) << 16) |
                                              local[d];
                    const size_t linear = (z * range.global[1] + y) * range.global[0] + x;
                    mismatches += values[linear] != expected;
                }
        CHECK(mismatches == 0);
    }
    CHECK(local[0] * local[1] * local[2] <= max_group);
}

TEST_CASE("computations over 1D, 2D and 3D ranges match the host") {
    Fixture f;
    ProgramPtr program = f.build(R"CLC(
__kernel void saxpy(float a, __global const float* x, __global float* y) {
    size_t i = get_global_id(0);
    y[i] = a * x[i] + y[i];
}

// c = a * b for row-major matrices a (n x k) and b (k x m); one work-item per element of c.
__kernel void matmul(__global const int* a, __global const int* b, __global int* c, uint k) {
    size_t col = get_global_id(0);
    size_t row = get_global_id(1);
    size_t m = get_global_size(0);
    int sum = 0;
    for (uint i = 0; i < k; ++i)
        sum += a[row * k + i] * b[i * m + col];
    c[row * m + col] = sum;
}

// A 3D stencil: the sum of the six neighbours inside the box, minus 6 times the centre.
__kernel void stencil(__global const int* in, __global int* out) {
    int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
    int nx = get_global_size(0), ny = get_global_size(1), nz = get_global_size(2);
    int centre = in[(z * ny + y) * nx + x];
    int sum = -6 * centre;
    if (x > 0) sum += in[(z * ny + y) * nx + x - 1];
    if (x + 1 < nx) sum += in[(z * ny + y) * nx + x + 1];
    if (y > 0) sum += in[(z * ny + y - 1) * nx + x];
    if (y + 1 < ny) sum += in[(z * ny + y + 1) * nx + x];
    if (z > 0) sum += in[((z - 1) * ny + y) * nx + x];
    if (z + 1 < nz) sum += in[((z + 1) * ny + y) * nx + x];
    out[(z * ny + y) * nx + x] = sum;
}
)CLC");

    SECTION("saxpy, 1D") {
        KernelPtr kernel = make_kernel(program.get(), "saxpy");
        constexpr size_t n = 100000;
        std::vector<float> x(n), y(n);
        for (size_t i = 0; i < n; ++i) {
            x[i] = static_cast<float>(i % 1000) * 0.5f;
            y[i] = static_cast<float>(i % 77) - 30.0f;
        }
        MemPtr xb = make_buffer(f.ctx(), x);
        MemPtr yb = make_buffer(f.ctx(), y);
        set_arg(kernel.get(), 0, 2.5f);
        set_arg(kernel.get(), 1, xb);
        set_arg(kernel.get(), 2, yb);
        run_1d(f.q(), kernel.get(), n);
        std::vector<float> expected(n);
        for (size_t i = 0; i < n; ++i)
            expected[i] = 2.5f * x[i] + y[i];
        CHECK(read_buffer<float>(f.q(), yb.get(), n) == expected);
    }
    SECTION("matmul, 2D") {
        KernelPtr kernel = make_kernel(program.get(), "matmul");
        constexpr size_t rows = 48, inner = 37, cols = 40;
        std::vector<int> a(rows * inner), b(inner * cols);
        for (size_t i = 0; i < a.size(); ++i)
            a[i] = static_cast<int>(i % 17) - 8;
        for (size_t i = 0; i < b.size(); ++i)
            b[i] = static_cast<int>(i % 13) - 5;
        MemPtr ab = make_buffer(f.ctx(), a);
        MemPtr bb = make_buffer(f.ctx(), b);
        MemPtr cb = make_buffer<int>(f.ctx(), rows * cols);
        set_arg(kernel.get(), 0, ab);
        set_arg(kernel.get(), 1, bb);
        set_arg(kernel.get(), 2, cb);
        set_arg(kernel.get(), 3, static_cast<cl_uint>(inner));
        std::vector<int> expected(rows * cols, 0);
        for (size_t r = 0; r < rows; ++r)
            for (size_t c = 0; c < cols; ++c)
                for (size_t i = 0; i < inner; ++i)
                    expected[r * cols + c] += a[r * inner + i] * b[i * cols + c];
        const size_t global[] = {cols, rows};
        const size_t local[] = {8, 6};
        run(f.q(), kernel.get(), 2, global, local);
        CHECK(read_buffer<int>(f.q(), cb.get(), rows * cols) == expected);
        write_buffer(f.q(), cb.get(), std::vector<int>(rows * cols, 0));
        run(f.q(), kernel.get(), 2, global);
        CHECK(read_buffer<int>(f.q(), cb.get(), rows * cols) == expected);
    }
    SECTION("stencil, 3D") {
        KernelPtr kernel = make_kernel(program.get(), "stencil");
        constexpr int nx = 20, ny = 12, nz = 9;
        std::vector<int> in(nx * ny * nz);
        for (size_t i = 0; i < in.size(); ++i)
            in[i] = static_cast<int>((i * 7919) % 101) - 50;
        MemPtr ib = make_buffer(f.ctx(), in);
        MemPtr ob = make_buffer<int>(f.ctx(), in.size());
        set_arg(kernel.get(), 0, ib);
        set_arg(kernel.get(), 1, ob);
        std::vector<int> expected(in.size());
        auto at = [&](int x, int y, int z) { return in[(z * ny + y) * nx + x]; };
        for (int z = 0; z < nz; ++z)
            for (int y = 0; y < ny; ++y)
                for (int x = 0; x < nx; ++x) {
                    int sum = -6 * at(x, y, z);
                    sum += x > 0 ? at(x - 1, y, z) : 0;
                    sum += x + 1 < nx ? at(x + 1, y, z) : 0;
                    sum += y > 0 ? at(x, y - 1, z) : 0;
                    sum += y + 1 < ny ? at(x, y + 1, z) : 0;
                    sum += z > 0 ? at(x, y, z - 1) : 0;
                    sum += z + 1 < nz ? at(x, y, z + 1) : 0;
                    expected[(z * ny + y) * nx + x] = sum;
                }
        const size_t global[] = {nx, ny, nz};
        const size_t local[] = {5, 4, 3};
        run(f.q(), kernel.get(), 3, global, local);
        CHECK(read_buffer<int>(f.q(), ob.get(), in.size()) == expected);
    }
}

namespace {

const char* const local_source = R"CLC(
// Sums of groups: a tree reduction in a __local argument of the local size.
__kernel void reduce_arg(__global const int* in, __global int* out, __local int* scratch) {
    size_t l = get_local_id(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
        if (l < stride)
            scratch[l] += scratch[l + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = scratch[0];
}

// The same with a __local array of the kernel (local size 64).
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void reduce_static(__global const int* in, __global int* out) {
    __local int scratch[64];
    size_t l = get_local_id(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t stride = 32; stride > 0; stride /= 2) {
        if (l < stride)
            scratch[l] += scratch[l + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = scratch[0];
}

// Two __local arguments of na and nb ints next to a __local array: every
// work-group fills all three with its own values, then every work-item
// counts the values that are not what its group wrote.
__kernel void local_pair(__global int* errors, __local int* a, uint na, __local int* b, uint nb) {
    __local int own[16];
    size_t l = get_local_id(0);
    size_t n = get_local_size(0);
    int group = (int)get_group_id(0);
    for (size_t j = l; j < na; j += n)
        a[j] = group * 100000 + (int)j;
    for (size_t j = l; j < nb; j += n)
        b[j] = -(group * 100000 + (int)j);
    for (size_t j = l; j < 16; j += n)
        own[j] = group + 7 * (int)j;
    barrier(CLK_LOCAL_MEM_FENCE);
    int bad = 0;
    for (size_t j = (l + 1) % n; j < na; j += n)
        bad += a[j] != group * 100000 + (int)j;
    for (size_t j = (l + 1) % n; j < nb; j += n)
        bad += b[j] != -(group * 100000 + (int)j);
    for (size_t j = (l + 1) % n; j < 16; j += n)
        bad += own[j] != group + 7 * (int)j;
    errors[get_global_id(0)] = bad;
}
)CLC";

std::vector<int> group_sums(const std::vector<int>& in, size_t local) {
    std::vector<int> sums(in.size() / local, 0);
    for (size_t i = 0; i < in.size(); ++i)
        sums[i / local] += in[i];
    return sums;
}

} // namespace

TEST_CASE("barriers and __local memory: tree reductions") {
    Fixture f;
    ProgramPtr program = f.build(local_source);
    constexpr size_t global = 4096;
    std::vector<int> in(global);
    for (size_t i = 0; i < global; ++i)
        in[i] = static_cast<int>((i * 2654435761u) % 2001) - 1000;
    MemPtr input = make_buffer(f.ctx(), in);

    SECTION("a __local argument, several local sizes") {
        KernelPtr kernel = make_kernel(program.get(), "reduce_arg");
        for (size_t local : {1u, 2u, 16u, 64u, 256u, 1024u}) {
            INFO("local size " << local);
            MemPtr output = make_buffer<int>(f.ctx(), global / local);
            set_arg(kernel.get(), 0, input);
            set_arg(kernel.get(), 1, output);
            set_local_arg(kernel.get(), 2, local * sizeof(int));
            run_1d(f.q(), kernel.get(), global, local);
            CHECK(read_buffer<int>(f.q(), output.get(), global / local) == group_sums(in, local));
        }
    }
    SECTION("a __local array of the kernel") {
        KernelPtr kernel = make_kernel(program.get(), "reduce_static");
        MemPtr output = make_buffer<int>(f.ctx(), global / 64);
        set_arg(kernel.get(), 0, input);
        set_arg(kernel.get(), 1, output);
        run_1d(f.q(), kernel.get(), global, 64);
        CHECK(read_buffer<int>(f.q(), output.get(), global / 64) == group_sums(in, 64));
        // Without a local size: reqd_work_group_size gives it.
        write_buffer(f.q(), output.get(), std::vector<int>(global / 64, 0));
        run_1d(f.q(), kernel.get(), global);
        CHECK(read_buffer<int>(f.q(), output.get(), global / 64) == group_sums(in, 64));
    }
}

TEST_CASE("__local arguments of several sizes do not overlap") {
    Fixture f;
    ProgramPtr program = f.build(local_source);
    KernelPtr kernel = make_kernel(program.get(), "local_pair");
    const auto local_mem = device_info<cl_ulong>(f.device, CL_DEVICE_LOCAL_MEM_SIZE);
    struct Sizes {
        cl_uint a;
        cl_uint b;
        size_t local;
    };
    const Sizes cases[] = {{1, 1, 1},        {1, 7, 8},       {100, 3, 16},
                           {1000, 2048, 64}, {4096, 33, 128}, {33, 5000, 32}};
    for (const Sizes& sizes : cases) {
        INFO("a: " << sizes.a << " ints, b: " << sizes.b << " ints, local size " << sizes.local);
        REQUIRE((sizes.a + sizes.b + 16) * sizeof(int) + 512 <= local_mem);
        const size_t global = sizes.local * 8;
        MemPtr errors = make_buffer(f.ctx(), std::vector<int>(global, -1));
        set_arg(kernel.get(), 0, errors);
        set_local_arg(kernel.get(), 1, sizes.a * sizeof(int));
        set_arg(kernel.get(), 2, sizes.a);
        set_local_arg(kernel.get(), 3, sizes.b * sizeof(int));
        set_arg(kernel.get(), 4, sizes.b);
        run_1d(f.q(), kernel.get(), global, sizes.local);
        CHECK(read_buffer<int>(f.q(), errors.get(), global) == std::vector<int>(global, 0));
    }
}

TEST_CASE("reqd_work_group_size: the local size must match") {
    Fixture f;
    IdsKernels kernels{f};
    KernelPtr fixed = make_kernel(kernels.program.get(), "ids_fixed");
    Range range;
    range.dims = 2;
    range.global = {8, 6, 1};
    range.local = {4, 3, 1};
    range.offset = {1, 1, 0};
    const std::vector<cl_ulong> pattern(record_size * range.count(), 0);
    MemPtr out = make_buffer(f.ctx(), pattern);
    set_arg(fixed.get(), 0, out);

    const size_t wrong[][2] = {{3, 4}, {2, 3}, {4, 1}, {8, 6}};
    for (const auto& local : wrong) {
        INFO("local size " << local[0] << "x" << local[1]);
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), fixed.get(), 2, nullptr, range.global.data(), local,
                                        0, nullptr, nullptr),
                 CL_INVALID_WORK_GROUP_SIZE);
    }
    SECTION("the required size") {
        check_records(run_ids(f, fixed.get(), range, true, true), ids_reference(range));
    }
    SECTION("no local size: the required one") {
        check_records(run_ids(f, fixed.get(), range, false, true), ids_reference(range));
    }
}

TEST_CASE("clEnqueueNDRangeKernel errors") {
    Fixture f;
    IdsKernels kernels{f};
    cl_kernel k = kernels.ids.get();
    MemPtr out = make_buffer<cl_ulong>(f.ctx(), record_size * 4096);
    set_arg(k, 0, out);
    const size_t global[] = {16, 16, 16, 16};
    const size_t local[] = {4, 4, 4, 4};
    const auto max_group = device_info<size_t>(f.device, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    const auto max_items = device_info_array<size_t>(f.device, CL_DEVICE_MAX_WORK_ITEM_SIZES);
    REQUIRE(device_info<cl_uint>(f.device, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS) == 3);
    REQUIRE(max_items.size() == 3);

    SECTION("work_dim 0 or 4") {
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), k, 0, nullptr, global, local, 0, nullptr, nullptr),
                 CL_INVALID_WORK_DIMENSION);
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), k, 4, nullptr, global, local, 0, nullptr, nullptr),
                 CL_INVALID_WORK_DIMENSION);
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), k, 4, nullptr, global, nullptr, 0, nullptr, nullptr),
                 CL_INVALID_WORK_DIMENSION);
    }
    SECTION("a local size that does not divide the global size") {
        const size_t odd[] = {16, 15, 16};
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), k, 1, nullptr, &odd[1], local, 0, nullptr, nullptr),
                 CL_INVALID_WORK_GROUP_SIZE);
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), k, 2, nullptr, odd, local, 0, nullptr, nullptr),
                 CL_INVALID_WORK_GROUP_SIZE);
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), k, 3, nullptr, odd, local, 0, nullptr, nullptr),
                 CL_INVALID_WORK_GROUP_SIZE);
        const size_t seven[] = {7, 1, 1};
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), k, 1, nullptr, global, seven, 0, nullptr, nullptr),
                 CL_INVALID_WORK_GROUP_SIZE);
    }
    SECTION("a work-group larger than CL_DEVICE_MAX_WORK_GROUP_SIZE / CL_KERNEL_WORK_GROUP_SIZE") {
        const auto kernel_limit = work_group_info<size_t>(k, f.device, CL_KERNEL_WORK_GROUP_SIZE);
        REQUIRE(kernel_limit <= max_group);
        // Each dimension within its item limit, the product above the group limit.
        std::array<size_t, 3> big{1, 1, 1};
        size_t product = 1;
        for (size_t d = 0; d < 3 && product <= kernel_limit; ++d) {
            big[d] = std::min(max_items[d], (kernel_limit / product) + 1);
            product *= big[d];
        }
        REQUIRE(product > kernel_limit);
        INFO("local size " << big[0] << "x" << big[1] << "x" << big[2]);
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), k, 3, nullptr, big.data(), big.data(), 0, nullptr,
                                        nullptr),
                 CL_INVALID_WORK_GROUP_SIZE);
    }
    SECTION("a local size above CL_DEVICE_MAX_WORK_ITEM_SIZES") {
        for (cl_uint d = 0; d < 3; ++d) {
            INFO("dimension " << d);
            std::array<size_t, 3> size{1, 1, 1};
            size[d] = max_items[d] + 1;
            const cl_int result = clEnqueueNDRangeKernel(f.q(), k, 3, nullptr, size.data(),
                                                         size.data(), 0, nullptr, nullptr);
            if (max_items[d] + 1 <= max_group)
                CHECK_CL(result, CL_INVALID_WORK_ITEM_SIZE);
            else // the work-group is too large as well: either error
                CHECK(
                    (result == CL_INVALID_WORK_ITEM_SIZE || result == CL_INVALID_WORK_GROUP_SIZE));
        }
    }
    SECTION("__local memory beyond CL_DEVICE_LOCAL_MEM_SIZE is CL_OUT_OF_RESOURCES") {
        ProgramPtr program = f.build(local_source);
        KernelPtr reduce = make_kernel(program.get(), "reduce_arg");
        const auto local_mem = device_info<cl_ulong>(f.device, CL_DEVICE_LOCAL_MEM_SIZE);
        MemPtr ints = make_buffer<int>(f.ctx(), 64);
        set_arg(reduce.get(), 0, ints);
        set_arg(reduce.get(), 1, ints);
        const cl_int set = clSetKernelArg(reduce.get(), 2, local_mem + 1, nullptr);
        // clSetKernelArg may refuse the size already; otherwise the launch fails.
        if (set == CL_SUCCESS)
            CHECK_CL(clEnqueueNDRangeKernel(f.q(), reduce.get(), 1, nullptr, global, local, 0,
                                            nullptr, nullptr),
                     CL_OUT_OF_RESOURCES);
        else
            CHECK_CL(set, CL_INVALID_ARG_SIZE);
    }
    SECTION("a global offset that overflows size_t") {
        const size_t offset[] = {SIZE_MAX - 4, 0, 0};
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), k, 1, offset, global, local, 0, nullptr, nullptr),
                 CL_INVALID_GLOBAL_OFFSET);
    }
    SECTION("a kernel of another context") {
        cl_test::ContextPtr other = make_context({f.device});
        QueuePtr other_queue = make_queue(other.get(), f.device);
        CHECK_CL(clEnqueueNDRangeKernel(other_queue.get(), k, 1, nullptr, global, local, 0, nullptr,
                                        nullptr),
                 CL_INVALID_CONTEXT);
        CHECK_CL(clEnqueueTask(other_queue.get(), k, 0, nullptr, nullptr), CL_INVALID_CONTEXT);
    }
    SECTION("an event of another context in the wait list") {
        cl_test::ContextPtr other = make_context({f.device});
        EventPtr foreign = make_user_event(other.get());
        cl_event wait[] = {foreign.get()};
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), k, 1, nullptr, global, local, 1, wait, nullptr),
                 CL_INVALID_CONTEXT);
        REQUIRE_OK(clSetUserEventStatus(foreign.get(), CL_COMPLETE));
    }
    SECTION("invalid handles and wait lists") {
        CHECK_CL(
            clEnqueueNDRangeKernel(f.q(), nullptr, 1, nullptr, global, local, 0, nullptr, nullptr),
            CL_INVALID_KERNEL);
        CHECK_CL(clEnqueueNDRangeKernel(nullptr, k, 1, nullptr, global, local, 0, nullptr, nullptr),
                 CL_INVALID_COMMAND_QUEUE);
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), k, 1, nullptr, global, local, 1, nullptr, nullptr),
                 CL_INVALID_EVENT_WAIT_LIST);
        cl_event none = nullptr;
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), k, 1, nullptr, global, local, 0, &none, nullptr),
                 CL_INVALID_EVENT_WAIT_LIST);
    }
    // Nothing failed ran: the queue is still usable.
    run(f.q(), k, 1, global, local);
}

TEST_CASE("a NULL global_work_size is a command that does nothing (OpenCL 2.1+)") {
    // OpenCL 3.0, clEnqueueNDRangeKernel: "If global_work_size is NULL, or
    // the value in any passed dimension is 0 then the kernel command will
    // trivially succeed after its event dependencies are satisfied and
    // subsequently update its completion event" (CL_INVALID_GLOBAL_WORK_SIZE
    // for it is deprecated by version 2.1).
    Fixture f;
    IdsKernels kernels{f};
    const std::vector<cl_ulong> pattern(record_size * 16, 42);
    MemPtr out = make_buffer(f.ctx(), pattern);
    set_arg(kernels.ids.get(), 0, out);
    cl_event raw = nullptr;
    REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), kernels.ids.get(), 1, nullptr, nullptr, nullptr, 0,
                                      nullptr, &raw));
    EventPtr event(raw);
    REQUIRE(wait_bounded(raw));
    CHECK(event_status(raw) == CL_COMPLETE);
    CHECK(read_buffer<cl_ulong>(f.q(), out.get(), pattern.size()) == pattern);
}

TEST_CASE("a global size of 0 in one dimension runs nothing and completes (OpenCL 2.1+)") {
    Fixture f;
    IdsKernels kernels{f};
    const std::vector<cl_ulong> pattern(record_size * 64, 42);
    MemPtr out = make_buffer(f.ctx(), pattern);
    set_arg(kernels.ids.get(), 0, out);

    struct Case {
        cl_uint dims;
        std::array<size_t, 3> global;
        bool with_local;
    };
    const Case cases[] = {{1, {0, 1, 1}, false},
                          {2, {8, 0, 1}, false},
                          {3, {4, 4, 0}, false},
                          {1, {0, 1, 1}, true},
                          {3, {0, 4, 4}, true}};
    const size_t local[] = {4, 4, 4};
    for (const Case& c : cases) {
        INFO("dims " << c.dims << ", global " << c.global[0] << "x" << c.global[1] << "x"
                     << c.global[2] << (c.with_local ? ", local 4" : ", no local size"));
        // After its dependencies: a user event holds it back.
        EventPtr gate = make_user_event(f.ctx());
        cl_event wait[] = {gate.get()};
        cl_event raw = nullptr;
        REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), kernels.ids.get(), c.dims, nullptr,
                                          c.global.data(), c.with_local ? local : nullptr, 1, wait,
                                          &raw));
        EventPtr event(raw);
        cl_command_type type = 0;
        REQUIRE_OK(clGetEventInfo(raw, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
        CHECK(type == CL_COMMAND_NDRANGE_KERNEL);
        std::this_thread::sleep_for(20ms);
        CHECK(event_status(raw) > CL_COMPLETE);
        REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
        REQUIRE(wait_bounded(raw));
        CHECK(event_status(raw) == CL_COMPLETE);
        CHECK(read_buffer<cl_ulong>(f.q(), out.get(), pattern.size()) == pattern);
    }
}

TEST_CASE("clEnqueueTask runs one work-item") {
    Fixture f;
    IdsKernels kernels{f};
    const std::vector<cl_ulong> pattern(record_size * 2, 0x1234);
    MemPtr out = make_buffer(f.ctx(), pattern);
    set_arg(kernels.ids.get(), 0, out);
    cl_event raw = nullptr;
    REQUIRE_OK(clEnqueueTask(f.q(), kernels.ids.get(), 0, nullptr, &raw));
    EventPtr event(raw);
    REQUIRE(wait_bounded(raw));
    CHECK(event_status(raw) == CL_COMPLETE);
    const std::vector<cl_ulong> records = read_buffer<cl_ulong>(f.q(), out.get(), pattern.size());
    // One record as for a 1D range of one work-item in one group; the second untouched.
    std::vector<cl_ulong> expected = ids_reference(Range{});
    expected.insert(expected.end(), pattern.begin() + record_size, pattern.end());
    check_records(records, expected);

    SECTION("a kernel with barriers and __local memory") {
        ProgramPtr program = f.build(local_source);
        KernelPtr reduce = make_kernel(program.get(), "reduce_arg");
        const std::vector<int> in = {-77};
        MemPtr input = make_buffer(f.ctx(), in);
        MemPtr output = make_buffer(f.ctx(), std::vector<int>{0});
        set_arg(reduce.get(), 0, input);
        set_arg(reduce.get(), 1, output);
        set_local_arg(reduce.get(), 2, sizeof(int));
        REQUIRE_OK(clEnqueueTask(f.q(), reduce.get(), 0, nullptr, nullptr));
        REQUIRE_OK(clFinish(f.q()));
        CHECK(read_buffer<int>(f.q(), output.get(), 1) == std::vector<int>{-77});
    }
    SECTION("errors") {
        CHECK_CL(clEnqueueTask(f.q(), nullptr, 0, nullptr, nullptr), CL_INVALID_KERNEL);
        CHECK_CL(clEnqueueTask(nullptr, kernels.ids.get(), 0, nullptr, nullptr),
                 CL_INVALID_COMMAND_QUEUE);
        // A required work-group size other than (1, 1, 1).
        KernelPtr fixed = make_kernel(kernels.program.get(), "ids_fixed");
        set_arg(fixed.get(), 0, out);
        CHECK_CL(clEnqueueTask(f.q(), fixed.get(), 0, nullptr, nullptr),
                 CL_INVALID_WORK_GROUP_SIZE);
    }
}
