// Work-group reductions take one of two ways through the compiler
// (kernels-compiler/lib/Passes/Accumulation.cpp): a value the work-item
// loops carry, where one pass runs the whole group through the reduction,
// or a running value kept in work-item order (kernels with sub-group
// functions, whose sub-groups may wait at different barriers). Each way
// with reductions on the ways of a uniform branch (only the taken one may
// store its result), in a loop, on half, and after sub-group functions that
// some sub-groups skip. Results are compared with a host reference over
// each group. The last case: sub-group reductions through the three nests.
#include "features_test.hpp"

#include <algorithm>
#include <climits>
#include <string>
#include <vector>

using namespace cl_test;
using namespace kernel_test;
using namespace features_test;

namespace {

const char* const branches_source = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void branches(__global const int* in, __global int* out, int which, int rounds) {
    size_t id = get_global_id(0);
    int x = in[id];
    int r;
    if (which == 0)
        r = work_group_reduce_add(x);
    else if (which == 1)
        r = work_group_reduce_max(x);
    else
        r = work_group_any(x == which);
    int looped = 0;
    for (int k = 0; k < rounds; ++k)
        looped += work_group_reduce_min(x - k * (int)(id % 3));
    out[3 * id] = r;
    out[3 * id + 1] = looped;
    out[3 * id + 2] = (int)work_group_reduce_add((half)x);
}
)CLC";

// The same reductions after sub-group functions that the odd sub-groups
// run and the even ones skip.
const char* const sub_groups_source = R"CLC(
__kernel void after_sub_groups(__global const int* in, __global int* out) {
    size_t id = get_global_id(0);
    int x = in[id];
    int s = 0;
    if (get_sub_group_id() % 2 == 1)
        s = sub_group_reduce_add(x);
    out[3 * id] = work_group_reduce_add(x + s);
    out[3 * id + 1] = work_group_reduce_min(x - s);
    out[3 * id + 2] = work_group_all(s == 0);
}
)CLC";

std::vector<cl_int> inputs(size_t n) {
    std::vector<cl_int> in(n);
    for (size_t i = 0; i < n; ++i)
        in[i] = static_cast<cl_int>(i * 7 % 13) + 1; // 1 .. 13
    return in;
}

} // namespace

TEST_CASE("work-group reductions on the ways of a uniform branch and in a loop", "[collectives]") {
    Fixture f;
    const char* const options = GENERATE("-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable");
    INFO(options);
    ProgramPtr program = f.build(branches_source, options);
    KernelPtr kernel = make_kernel(program.get(), "branches");
    const size_t global = 1000, local = 64; // last group 40
    const std::vector<cl_int> in = inputs(global);
    MemPtr in_buffer = make_buffer(f.ctx(), in);
    MemPtr out = make_buffer<cl_int>(f.ctx(), 3 * global);
    const cl_int rounds = 3;
    for (cl_int which : {0, 1, 7, 20}) {
        INFO("which " << which);
        set_arg(kernel.get(), 0, in_buffer);
        set_arg(kernel.get(), 1, out);
        set_arg(kernel.get(), 2, which);
        set_arg(kernel.get(), 3, rounds);
        run_1d(f.q(), kernel.get(), global, local);
        const auto got = read_buffer<cl_int>(f.q(), out.get(), 3 * global);
        size_t wrong = 0;
        for (size_t first = 0; first < global; first += local) {
            const size_t last = std::min(global, first + local);
            cl_int sum = 0, most = INT_MIN, any = 0, looped = 0;
            for (size_t j = first; j < last; ++j) {
                sum += in[j];
                most = std::max(most, in[j]);
                any = any || in[j] == which;
            }
            for (cl_int k = 0; k < rounds; ++k) {
                cl_int least = INT_MAX;
                for (size_t j = first; j < last; ++j)
                    least = std::min(least, in[j] - k * static_cast<cl_int>(j % 3));
                looped += least;
            }
            const cl_int expected = which == 0 ? sum : which == 1 ? most : any;
            for (size_t i = first; i < last && wrong < 5; ++i) {
                INFO("work-item " << i);
                const bool right =
                    got[3 * i] == expected && got[3 * i + 1] == looped && got[3 * i + 2] == sum;
                wrong += !right;
                CHECK(got[3 * i] == expected);
                CHECK(got[3 * i + 1] == looped);
                CHECK(got[3 * i + 2] == sum); // sums below 2048: exact in half
            }
        }
        CHECK(wrong == 0);
    }
}

TEST_CASE("work-group reductions after sub-group functions some sub-groups skip", "[collectives]") {
    Fixture f;
    ProgramPtr program = f.build(sub_groups_source, "-cl-std=CL3.0");
    KernelPtr kernel = make_kernel(program.get(), "after_sub_groups");
    const size_t global = 1000, local = 100; // sub-groups: the last of each group partial
    size_t width = 0;
    REQUIRE(clGetKernelSubGroupInfo(kernel.get(), f.device,
                                    CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof local, &local,
                                    sizeof width, &width, nullptr) == CL_SUCCESS);
    REQUIRE(width > 1);
    REQUIRE(local % width != 0);
    INFO("sub-group size " << width);
    const std::vector<cl_int> in = inputs(global);
    MemPtr in_buffer = make_buffer(f.ctx(), in);
    MemPtr out = make_buffer<cl_int>(f.ctx(), 3 * global);
    set_arg(kernel.get(), 0, in_buffer);
    set_arg(kernel.get(), 1, out);
    run_1d(f.q(), kernel.get(), global, local);
    const auto got = read_buffer<cl_int>(f.q(), out.get(), 3 * global);
    size_t wrong = 0;
    for (size_t first = 0; first < global; first += local) {
        // Each work-item's s: its sub-group's sum for odd sub-groups.
        std::vector<cl_int> s(local, 0);
        for (size_t start = 0; start < local; start += width) {
            if ((start / width) % 2 == 0)
                continue;
            cl_int sum = 0;
            const size_t end = std::min(local, start + width);
            for (size_t l = start; l < end; ++l)
                sum += in[first + l];
            std::fill(s.begin() + static_cast<long>(start), s.begin() + static_cast<long>(end),
                      sum);
        }
        cl_int sum = 0, least = INT_MAX, all = 1;
        for (size_t l = 0; l < local; ++l) {
            sum += in[first + l] + s[l];
            least = std::min(least, in[first + l] - s[l]);
            all = all && s[l] == 0;
        }
        for (size_t i = first; i < first + local && wrong < 5; ++i) {
            INFO("work-item " << i);
            wrong += got[3 * i] != sum || got[3 * i + 1] != least || got[3 * i + 2] != all;
            CHECK(got[3 * i] == sum);
            CHECK(got[3 * i + 1] == least);
            CHECK(got[3 * i + 2] == all);
        }
    }
    CHECK(wrong == 0);
}

// Sub-group reductions take three ways (kernels-compiler/README.md,
// "Sub-groups"): loops per sub-group where the x size is a multiple of the
// sub-group size, the same loops with a partial last sub-group in groups of
// one row, per work-item elsewhere; whole sub-groups reduce on vectors in a
// library function that stays a call.
TEST_CASE("sub-group reductions in rows, in one row with a partial sub-group, and across rows",
          "[collectives]") {
    Fixture f;
    const char* const source = R"CLC(
__kernel void sums(__global const int* in, __global int* out) {
    size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);
    int x = in[i];
    out[3 * i] = sub_group_reduce_add(x);
    out[3 * i + 1] = sub_group_reduce_max(x * 3 - 20);
    out[3 * i + 2] = (int)sub_group_reduce_add((float)x);
}
)CLC";
    const char* const options = GENERATE("-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable");
    INFO(options);
    ProgramPtr program = f.build(source, options);
    KernelPtr kernel = make_kernel(program.get(), "sums");
    struct Shape {
        size_t global[2], local[2];
    };
    const Shape shapes[] = {
        {{1024, 1}, {256, 1}}, // rows of whole sub-groups
        {{1000, 1}, {200, 1}}, // one row, its last sub-group partial
        {{40, 20}, {10, 10}},  // sub-groups across rows
        {{64, 4}, {32, 2}},    // two rows of whole sub-groups
    };
    for (const Shape& s : shapes) {
        INFO("global " << s.global[0] << "x" << s.global[1] << ", local " << s.local[0] << "x"
                       << s.local[1]);
        const size_t group_items = s.local[0] * s.local[1];
        size_t width = 0;
        REQUIRE(clGetKernelSubGroupInfo(
                    kernel.get(), f.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                    2 * sizeof(size_t), s.local, sizeof width, &width, nullptr) == CL_SUCCESS);
        REQUIRE(width > 0);
        const size_t total = s.global[0] * s.global[1];
        const std::vector<cl_int> in = inputs(total);
        MemPtr in_buffer = make_buffer(f.ctx(), in);
        MemPtr out = make_buffer<cl_int>(f.ctx(), 3 * total);
        set_arg(kernel.get(), 0, in_buffer);
        set_arg(kernel.get(), 1, out);
        run(f.q(), kernel.get(), 2, s.global, s.local);
        const auto got = read_buffer<cl_int>(f.q(), out.get(), 3 * total);
        size_t wrong = 0;
        for (size_t gy = 0; gy < s.global[1]; gy += s.local[1])
            for (size_t gx = 0; gx < s.global[0]; gx += s.local[0]) {
                // The group's global indices in local linear id order.
                std::vector<size_t> ids;
                for (size_t y = 0; y < s.local[1]; ++y)
                    for (size_t x = 0; x < s.local[0]; ++x)
                        ids.push_back(gx + x + s.global[0] * (gy + y));
                for (size_t first = 0; first < group_items; first += width) {
                    const size_t end = std::min(group_items, first + width);
                    cl_int sum = 0, most = INT_MIN;
                    for (size_t l = first; l < end; ++l) {
                        sum += in[ids[l]];
                        most = std::max(most, in[ids[l]] * 3 - 20);
                    }
                    for (size_t l = first; l < end && wrong < 5; ++l) {
                        const size_t i = ids[l];
                        INFO("work-item " << i << ", sub-group size " << width);
                        wrong +=
                            got[3 * i] != sum || got[3 * i + 1] != most || got[3 * i + 2] != sum;
                        CHECK(got[3 * i] == sum);
                        CHECK(got[3 * i + 1] == most);
                        CHECK(got[3 * i + 2] == sum);
                    }
                }
            }
        CHECK(wrong == 0);
    }
}
