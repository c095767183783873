// Sub-groups in control flow and over time: sub_group_barrier ordering local
// memory, collectives in loops and after work-group barriers,
// cl_khr_subgroup_clustered_reduce, cl_khr_subgroup_rotate, and sub-groups
// of one work-group taking different ways (test_subgroups.cpp has the
// queries and the collectives, shuffles and block accesses in straight-line
// code).
#include "features_test.hpp"
#include "subgroups_test.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

using namespace cl_test;
using namespace kernel_test;
using namespace features_test;
using namespace subgroups_test;

TEST_CASE("sub_group_barrier orders local memory within the sub-group", "[subgroups]") {
    Fixture f;
    for (const char* options : {"-cl-std=CL1.2", "-cl-std=CL3.0"}) {
        ProgramPtr program = f.build(R"CLC(
__kernel void neighbours(__global int* out, __local int* scratch) {
    uint lid = get_local_id(0);
    scratch[lid] = (int)lid * 3 + 1;
#if __OPENCL_C_VERSION__ >= 300
    sub_group_barrier(CLK_LOCAL_MEM_FENCE, memory_scope_sub_group);
#else
    sub_group_barrier(CLK_LOCAL_MEM_FENCE);
#endif
    uint lane = get_sub_group_local_id(), n = get_sub_group_size();
    out[get_global_id(0)] = scratch[lid - lane + (lane + 1) % n];
}
)CLC",
                                     options);
        KernelPtr kernel = make_kernel(program.get(), "neighbours");
        for (size_t local : {13, 64}) {
            const size_t width = sub_group_info(kernel.get(), f.device,
                                                CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {4096});
            const size_t global = local * 3;
            MemPtr out = make_buffer<cl_int>(f.ctx(), global);
            set_arg(kernel.get(), 0, out);
            set_local_arg(kernel.get(), 1, local * sizeof(cl_int));
            run_1d(f.q(), kernel.get(), global, local);
            const auto o = read_buffer<cl_int>(f.q(), out.get(), global);
            size_t wrong = 0;
            for (size_t g = 0; g < global; ++g) {
                const size_t lid = g % local, lane = lid % width, first = lid - lane;
                const size_t count = std::min(width, local - first);
                wrong += o[g] != static_cast<cl_int>((first + (lane + 1) % count) * 3 + 1);
            }
            INFO(options << " local size " << local);
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("sub-group collectives in a loop and after a work-group barrier", "[subgroups]") {
    Fixture f;
    ProgramPtr program = f.build(R"CLC(
__kernel void loop(__global const int* in, __global int* out, __local int* tmp, int rounds) {
    uint lid = get_local_id(0);
    uint lane = get_sub_group_local_id(), n = get_sub_group_size();
    int x = in[get_global_id(0)];
    int acc = 0;
    for (int r = 0; r < rounds; ++r) {
        acc += sub_group_reduce_add(x + r);
        x = sub_group_shuffle(x, (lane + 1) % n) + (acc & 7);
    }
    tmp[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tmp[get_local_size(0) - 1 - lid] + sub_group_scan_inclusive_add(x);
}
)CLC",
                                 "-cl-std=CL3.0");
    KernelPtr kernel = make_kernel(program.get(), "loop");
    const size_t width =
        sub_group_info(kernel.get(), f.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {4096});
    for (int rounds : {0, 1, 5}) {
        for (size_t local : {7, 16, 40}) {
            const size_t global = local * 3;
            std::vector<cl_int> in(global);
            for (size_t g = 0; g < global; ++g)
                in[g] = static_cast<cl_int>((g * 13) % 29) - 9;
            MemPtr in_buffer = make_buffer(f.ctx(), in);
            MemPtr out = make_buffer<cl_int>(f.ctx(), global);
            set_arg(kernel.get(), 0, in_buffer);
            set_arg(kernel.get(), 1, out);
            set_local_arg(kernel.get(), 2, local * sizeof(cl_int));
            set_arg(kernel.get(), 3, rounds);
            run_1d(f.q(), kernel.get(), global, local);
            const auto o = read_buffer<cl_int>(f.q(), out.get(), global);
            size_t wrong = 0;
            for (size_t group = 0; group < global; group += local) {
                std::vector<cl_int> x(in.begin() + group, in.begin() + group + local);
                std::vector<cl_int> acc(local, 0);
                for (int r = 0; r < rounds; ++r) {
                    std::vector<cl_int> next(local);
                    for (size_t first = 0; first < local; first += width) {
                        const size_t count = std::min(width, local - first);
                        cl_int sum = 0;
                        for (size_t l = 0; l < count; ++l)
                            sum += x[first + l] + r;
                        for (size_t l = 0; l < count; ++l) {
                            acc[first + l] += sum;
                            next[first + l] = x[first + (l + 1) % count] + (acc[first + l] & 7);
                        }
                    }
                    x = next;
                }
                for (size_t lid = 0; lid < local; ++lid) {
                    cl_int scan = 0;
                    for (size_t l = lid - lid % width; l <= lid; ++l)
                        scan += x[l];
                    wrong += o[group + lid] != acc[local - 1 - lid] + scan;
                }
            }
            INFO("rounds " << rounds << ", local size " << local);
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("cl_khr_subgroup_clustered_reduce", "[subgroups]") {
    Fixture f;
    ProgramPtr program = f.build(R"CLC(
#define CLUSTERED(op, x, c)                                                    \
    switch (c) {                                                               \
    case 1: r = sub_group_clustered_reduce_##op(x, 1); break;                  \
    case 2: r = sub_group_clustered_reduce_##op(x, 2); break;                  \
    case 4: r = sub_group_clustered_reduce_##op(x, 4); break;                  \
    case 8: r = sub_group_clustered_reduce_##op(x, 8); break;                  \
    default: r = sub_group_clustered_reduce_##op(x, 16); break;                \
    }
__kernel void clustered(__global const int* in, __global int* out, __global float* fout,
                        uint cluster) {
    size_t gid = get_global_id(1) * get_global_size(0) + get_global_id(0);
    int x = in[gid];
    int r;
    __global int* o = out + 8 * gid;
    CLUSTERED(add, x, cluster) o[0] = r;
    CLUSTERED(mul, x, cluster) o[1] = r;
    CLUSTERED(min, x, cluster) o[2] = r;
    CLUSTERED(max, x, cluster) o[3] = r;
    CLUSTERED(and, x, cluster) o[4] = r;
    CLUSTERED(or, x, cluster) o[5] = r;
    CLUSTERED(xor, x, cluster) o[6] = r;
    CLUSTERED(logical_xor, x & 1, cluster) o[7] = r;
    float fr;
    switch (cluster) {
    case 1: fr = sub_group_clustered_reduce_add((float)x, 1); break;
    case 2: fr = sub_group_clustered_reduce_add((float)x, 2); break;
    case 4: fr = sub_group_clustered_reduce_add((float)x, 4); break;
    case 8: fr = sub_group_clustered_reduce_add((float)x, 8); break;
    default: fr = sub_group_clustered_reduce_add((float)x, 16); break;
    }
    fout[gid] = fr;
}
)CLC",
                                 "-cl-std=CL3.0");
    KernelPtr kernel = make_kernel(program.get(), "clustered");
    const size_t width =
        sub_group_info(kernel.get(), f.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {4096});
    for (cl_uint cluster : {1u, 2u, 4u, 8u, 16u}) {
        if (cluster > width)
            continue;
        for (const Shape& shape : shapes) {
            const size_t n = shape.global[0] * shape.global[1];
            std::vector<cl_int> in(n);
            for (size_t g = 0; g < n; ++g)
                in[g] = static_cast<cl_int>((g * 5 + 3) % 9) - 3;
            MemPtr in_buffer = make_buffer(f.ctx(), in);
            MemPtr out = make_buffer<cl_int>(f.ctx(), 8 * n);
            MemPtr fout = make_buffer<cl_float>(f.ctx(), n);
            set_arg(kernel.get(), 0, in_buffer);
            set_arg(kernel.get(), 1, out);
            set_arg(kernel.get(), 2, fout);
            set_arg(kernel.get(), 3, cluster);
            run(f.q(), kernel.get(), 2, shape.global, shape.local);
            const auto o = read_buffer<cl_int>(f.q(), out.get(), 8 * n);
            const auto fo = read_buffer<cl_float>(f.q(), fout.get(), n);
            size_t wrong = 0;
            for (const Item& item : ndrange_items(shape.global[0], shape.global[1], shape.local[0],
                                                  shape.local[1], width)) {
                const size_t first = item.lane - item.lane % cluster;
                const size_t end = std::min<size_t>(first + cluster, item.lanes.size());
                cl_int want[8] = {0,
                                  1,
                                  std::numeric_limits<cl_int>::max(),
                                  std::numeric_limits<cl_int>::min(),
                                  -1,
                                  0,
                                  0,
                                  0};
                float fwant = 0.0f;
                for (size_t l = first; l < end; ++l) {
                    const cl_int v = in[item.lanes[l]];
                    want[0] += v;
                    want[1] *= v;
                    want[2] = std::min(want[2], v);
                    want[3] = std::max(want[3], v);
                    want[4] &= v;
                    want[5] |= v;
                    want[6] ^= v;
                    want[7] ^= v & 1;
                    fwant += static_cast<float>(v);
                }
                for (size_t k = 0; k < 8; ++k)
                    wrong += o[8 * item.global + k] != want[k];
                wrong += fo[item.global] != fwant;
            }
            INFO("cluster " << cluster << ", local " << shape.local[0] << "x" << shape.local[1]);
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("cl_khr_subgroup_rotate", "[subgroups]") {
    Fixture f;
    REQUIRE(has(extensions(f.device), "cl_khr_subgroup_rotate"));
    ProgramPtr program = f.build(R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void rotate(__global const int* in, __global int* out, int delta, uint cluster) {
    size_t gid = get_global_id(1) * get_global_size(0) + get_global_id(0);
    int x = in[gid];
    __global int* o = out + 4 * gid;
    o[0] = sub_group_rotate(x, delta);
    o[1] = sub_group_clustered_rotate(x, delta, cluster);
    o[2] = (int)sub_group_rotate((double)x, delta);
    o[3] = (int)sub_group_clustered_rotate((half)x, delta, cluster);
}
)CLC",
                                 "-cl-std=CL3.0");
    KernelPtr kernel = make_kernel(program.get(), "rotate");
    const size_t width =
        sub_group_info(kernel.get(), f.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {4096});
    for (cl_int delta : {1, 3, -2, 0, 17})
        for (cl_uint cluster : {2u, 4u, 8u}) {
            if (cluster > width)
                continue;
            for (const Shape& shape : shapes) {
                const size_t n = shape.global[0] * shape.global[1];
                std::vector<cl_int> in(n);
                for (size_t g = 0; g < n; ++g)
                    in[g] = static_cast<cl_int>((g * 7 + 5) % 1000) - 500;
                MemPtr in_buffer = make_buffer(f.ctx(), in);
                MemPtr out = make_buffer<cl_int>(f.ctx(), 4 * n);
                set_arg(kernel.get(), 0, in_buffer);
                set_arg(kernel.get(), 1, out);
                set_arg(kernel.get(), 2, delta);
                set_arg(kernel.get(), 3, cluster);
                run(f.q(), kernel.get(), 2, shape.global, shape.local);
                const auto o = read_buffer<cl_int>(f.q(), out.get(), 4 * n);
                size_t wrong = 0;
                size_t checked = 0;
                for (const Item& item : ndrange_items(shape.global[0], shape.global[1],
                                                      shape.local[0], shape.local[1], width)) {
                    // Lanes round the sub-group of width lanes, or round the
                    // cluster; a lane past a partial sub-group is undefined.
                    const size_t shifted = item.lane + static_cast<size_t>(delta);
                    const size_t whole = shifted & (width - 1);
                    const size_t clustered =
                        (shifted & (cluster - 1)) + (item.lane & ~size_t{cluster - 1});
                    if (whole < item.lanes.size()) {
                        const cl_int want = in[item.lanes[whole]];
                        wrong += o[4 * item.global] != want;
                        wrong += o[4 * item.global + 2] != want;
                        ++checked;
                    }
                    if (clustered < item.lanes.size()) {
                        const cl_int want = in[item.lanes[clustered]];
                        wrong += o[4 * item.global + 1] != want;
                        wrong += o[4 * item.global + 3] != want;
                        ++checked;
                    }
                }
                INFO("delta " << delta << ", cluster " << cluster << ", local " << shape.local[0]
                              << "x" << shape.local[1]);
                CHECK(wrong == 0);
                // Work-groups of one work-item have one active lane.
                if (shape.local[0] * shape.local[1] > 1)
                    CHECK(checked > n);
            }
        }
}

TEST_CASE("sub-groups of one work-group take different ways", "[subgroups]") {
    // Even sub-groups: a sub_group_barrier and a reduction; odd ones: a loop
    // of broadcasts as many times as their sub-group id; then a work-group
    // barrier for all.
    Fixture f;
    ProgramPtr program = f.build(R"CLC(
__kernel void divergent(__global const int* in, __global int* out, __local int* scratch) {
    uint lid = get_local_id(0);
    uint sg = get_sub_group_id(), lane = get_sub_group_local_id(), n = get_sub_group_size();
    int x = in[get_global_id(0)];
    int result;
    if (sg % 2 == 0) {
        scratch[lid] = x * 3;
        sub_group_barrier(CLK_LOCAL_MEM_FENCE);
        result = scratch[lid - lane + (lane + 1) % n] + sub_group_reduce_add(x);
    } else {
        for (uint r = 0; r < sg; ++r)
            x = sub_group_broadcast(x, r % n) + (int)lane;
        result = x;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    scratch[lid] = result;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = result * 1000 + scratch[get_local_size(0) - 1 - lid];
}
)CLC",
                                 "-cl-std=CL3.0");
    KernelPtr kernel = make_kernel(program.get(), "divergent");
    const size_t width =
        sub_group_info(kernel.get(), f.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {4096});
    for (size_t local : {7, 64, 100}) {
        const size_t global = local * 3;
        std::vector<cl_int> in(global);
        for (size_t g = 0; g < global; ++g)
            in[g] = static_cast<cl_int>((g * 11) % 17) - 8;
        MemPtr in_buffer = make_buffer(f.ctx(), in);
        MemPtr out = make_buffer<cl_int>(f.ctx(), global);
        set_arg(kernel.get(), 0, in_buffer);
        set_arg(kernel.get(), 1, out);
        set_local_arg(kernel.get(), 2, local * sizeof(cl_int));
        run_1d(f.q(), kernel.get(), global, local);
        const auto o = read_buffer<cl_int>(f.q(), out.get(), global);
        size_t wrong = 0;
        for (size_t group = 0; group < global; group += local) {
            std::vector<cl_int> result(local);
            for (size_t first = 0; first < local; first += width) {
                const size_t count = std::min(width, local - first), sg = first / width;
                std::vector<cl_int> x(in.begin() + group + first,
                                      in.begin() + group + first + count);
                if (sg % 2 == 0) {
                    cl_int sum = 0;
                    for (cl_int v : x)
                        sum += v;
                    for (size_t l = 0; l < count; ++l)
                        result[first + l] = x[(l + 1) % count] * 3 + sum;
                } else {
                    for (size_t r = 0; r < sg; ++r) {
                        const cl_int b = x[r % count];
                        for (size_t l = 0; l < count; ++l)
                            x[l] = b + static_cast<cl_int>(l);
                    }
                    for (size_t l = 0; l < count; ++l)
                        result[first + l] = x[l];
                }
            }
            for (size_t lid = 0; lid < local; ++lid)
                wrong += o[group + lid] != result[lid] * 1000 + result[local - 1 - lid];
        }
        INFO("local size " << local << ", sub-group size " << width);
        CHECK(wrong == 0);
    }
}
