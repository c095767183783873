// Sub-groups (__opencl_c_subgroups, cl_intel_subgroups (OpenCL C 1.2),
// cl_intel_required_subgroup_size, cl_khr_subgroup_shuffle[_relative],
// cl_khr_subgroup_extended_types): the device and kernel queries, and every
// builtin against a host reference that forms the sub-groups as the
// specification does (runs of the sub-group size in local linear id order,
// x fastest, the last one partial), over local sizes that are multiples of
// the sub-group size and not, 2D work-groups whose rows the sub-groups span,
// and non-uniform work-groups.
#include "features_test.hpp"

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

namespace {

size_t sub_group_info(cl_kernel kernel, cl_device_id device, cl_kernel_sub_group_info param,
                      const std::vector<size_t>& input) {
    size_t value = 0;
    REQUIRE_OK(clGetKernelSubGroupInfo(kernel, device, param, input.size() * sizeof(size_t),
                                       input.empty() ? nullptr : input.data(), sizeof value, &value,
                                       nullptr));
    return value;
}

// One work-item of an NDRange as the host reference sees it: where its
// result goes (the global linear id) and its place in its sub-group.
struct Item {
    size_t global = 0;         // index into the kernel's per-work-item arrays
    size_t first = 0;          // global index of lane 0 of its sub-group
    std::vector<size_t> lanes; // global indices of its sub-group's lanes
    size_t lane = 0;
    size_t sub_group = 0;
    size_t num_sub_groups = 0;
    size_t enqueued_num_sub_groups = 0;
};

// Every work-item of a 2D NDRange of global size gx x gy in work-groups of
// lx x ly (the last ones smaller when they do not divide), sub-groups of
// width work-items.
std::vector<Item> ndrange_items(size_t gx, size_t gy, size_t lx, size_t ly, size_t width) {
    std::vector<Item> items(gx * gy);
    for (size_t group_y = 0; group_y < gy; group_y += ly) {
        for (size_t group_x = 0; group_x < gx; group_x += lx) {
            const size_t sx = std::min(lx, gx - group_x), sy = std::min(ly, gy - group_y);
            std::vector<size_t> linear; // global indices in local linear order
            for (size_t y = 0; y < sy; ++y)
                for (size_t x = 0; x < sx; ++x)
                    linear.push_back((group_y + y) * gx + group_x + x);
            const size_t count = (linear.size() + width - 1) / width;
            for (size_t l = 0; l < linear.size(); ++l) {
                Item& item = items[linear[l]];
                item.global = linear[l];
                item.sub_group = l / width;
                item.lane = l % width;
                const size_t begin = item.sub_group * width;
                const size_t end = std::min(begin + width, linear.size());
                item.lanes.assign(linear.begin() + begin, linear.begin() + end);
                item.first = linear[begin];
                item.num_sub_groups = count;
                item.enqueued_num_sub_groups = (lx * ly + width - 1) / width;
            }
        }
    }
    return items;
}

struct Shape {
    size_t global[2];
    size_t local[2];
};

// Local sizes: multiples of the sub-group size and not, 2D groups whose
// rows sub-groups span, a single work-item, non-uniform NDRanges.
const Shape shapes[] = {
    {{128, 1}, {64, 1}}, {{130, 1}, {13, 1}}, {{20, 6}, {5, 3}},  {{64, 8}, {16, 4}},
    {{7, 1}, {1, 1}},    {{100, 1}, {32, 1}}, {{37, 5}, {12, 2}}, {{48, 3}, {48, 1}},
};

const char* const collectives_source = R"CLC(
#if __OPENCL_C_VERSION__ < 300
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
#ifdef REQD
__attribute__((intel_reqd_sub_group_size(REQD)))
#endif
__kernel void collectives(__global const T* in, __global T* out, __global uint* info) {
    size_t gid = get_global_id(1) * get_global_size(0) + get_global_id(0);
    T x = in[gid];
    __global uint* i = info + 8 * gid;
    i[0] = get_sub_group_size();
    i[1] = get_max_sub_group_size();
    i[2] = get_num_sub_groups();
#if __OPENCL_C_VERSION__ >= 200
    i[3] = get_enqueued_num_sub_groups();
#else
    i[3] = get_num_sub_groups(); // work-groups are uniform in OpenCL C 1.x
#endif
    i[4] = get_sub_group_id();
    i[5] = get_sub_group_local_id();
    i[6] = sub_group_all(x > (T)(-20));
    i[7] = sub_group_any(x == (T)3);
    __global T* o = out + 11 * gid;
    o[0] = sub_group_reduce_add(x);
    o[1] = sub_group_reduce_min(x);
    o[2] = sub_group_reduce_max(x);
    o[3] = sub_group_scan_inclusive_add(x);
    o[4] = sub_group_scan_inclusive_min(x);
    o[5] = sub_group_scan_inclusive_max(x);
    o[6] = sub_group_scan_exclusive_add(x);
    o[7] = sub_group_scan_exclusive_min(x);
    o[8] = sub_group_scan_exclusive_max(x);
    o[9] = sub_group_broadcast(x, 0);
    o[10] = sub_group_broadcast(x, get_sub_group_size() - 1);
}
)CLC";

template <class T>
void check_collectives(const Fixture& f, const std::string& type, const std::string& options,
                       size_t required) {
    const std::string all =
        "-DT=" + type + (required ? " -DREQD=" + std::to_string(required) : "") + " " + options;
    ProgramPtr program = f.build(collectives_source, all.c_str());
    KernelPtr kernel = make_kernel(program.get(), "collectives");
    for (const Shape& shape : shapes) {
        const bool uniform =
            shape.global[0] % shape.local[0] == 0 && shape.global[1] % shape.local[1] == 0;
        if (!uniform && options.find("CL3.0") == std::string::npos)
            continue; // non-uniform work-groups need OpenCL C 2.0 or later
        const size_t gx = shape.global[0], gy = shape.global[1];
        const size_t n = gx * gy;
        const size_t width = sub_group_info(kernel.get(), f.device,
                                            CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {4096});
        if (required)
            CHECK(width == required);
        std::vector<T> in(n);
        for (size_t g = 0; g < n; ++g)
            in[g] = static_cast<T>(static_cast<int>((g * 37 + 11) % 41) - 15);
        MemPtr in_buffer = make_buffer(f.ctx(), in);
        MemPtr out = make_buffer<T>(f.ctx(), 11 * n);
        MemPtr info = make_buffer<cl_uint>(f.ctx(), 8 * n);
        set_arg(kernel.get(), 0, in_buffer);
        set_arg(kernel.get(), 1, out);
        set_arg(kernel.get(), 2, info);
        run(f.q(), kernel.get(), 2, shape.global, shape.local);
        const auto o = read_buffer<T>(f.q(), out.get(), 11 * n);
        const auto got_info = read_buffer<cl_uint>(f.q(), info.get(), 8 * n);
        const size_t max_size = std::min(width, shape.local[0] * shape.local[1]);
        size_t wrong = 0;
        for (const Item& item : ndrange_items(gx, gy, shape.local[0], shape.local[1], width)) {
            const size_t g = item.global;
            const std::vector<size_t>& lanes = item.lanes;
            const cl_uint want_info[8] = {
                static_cast<cl_uint>(lanes.size()),
                static_cast<cl_uint>(max_size),
                static_cast<cl_uint>(item.num_sub_groups),
                static_cast<cl_uint>(item.enqueued_num_sub_groups),
                static_cast<cl_uint>(item.sub_group),
                static_cast<cl_uint>(item.lane),
                std::all_of(lanes.begin(), lanes.end(), [&](size_t l) { return in[l] > T(-20); }),
                std::any_of(lanes.begin(), lanes.end(), [&](size_t l) { return in[l] == T(3); })};
            T sum = 0, lo = std::numeric_limits<T>::max(), hi = std::numeric_limits<T>::lowest();
            T want[11] = {};
            for (size_t k = 0; k < lanes.size(); ++k) {
                const T v = in[lanes[k]];
                if (k == item.lane) {
                    want[6] = sum;
                    want[7] = lo;
                    want[8] = hi;
                }
                sum += v;
                lo = std::min(lo, v);
                hi = std::max(hi, v);
                if (k == item.lane) {
                    want[3] = sum;
                    want[4] = lo;
                    want[5] = hi;
                }
            }
            if constexpr (std::is_floating_point_v<T>) {
                // The identities of min and max are the infinities.
                if (item.lane == 0) {
                    want[7] = std::numeric_limits<T>::infinity();
                    want[8] = -std::numeric_limits<T>::infinity();
                }
            }
            want[0] = sum;
            want[1] = lo;
            want[2] = hi;
            want[9] = in[lanes.front()];
            want[10] = in[lanes.back()];
            for (size_t k = 0; k < 8; ++k) {
                if (got_info[8 * g + k] != want_info[k] && wrong++ < 8) {
                    INFO(type << " " << options << " local " << shape.local[0] << "x"
                              << shape.local[1] << " work-item " << g << " info " << k);
                    CHECK(got_info[8 * g + k] == want_info[k]);
                }
            }
            for (size_t k = 0; k < 11; ++k) {
                if (o[11 * g + k] != want[k] && wrong++ < 8) {
                    INFO(type << " " << options << " local " << shape.local[0] << "x"
                              << shape.local[1] << " work-item " << g << " result " << k);
                    CHECK(o[11 * g + k] == want[k]);
                }
            }
        }
        CHECK(wrong == 0);
    }
}

} // namespace

TEST_CASE("the device reports sub-groups", "[subgroups]") {
    const cl_device_id id = device();
    const auto exts = extensions(id);
    // cl_khr_subgroups would require independent forward progress.
    CHECK(!has(exts, "cl_khr_subgroups"));
    for (const char* name :
         {"cl_intel_subgroups", "cl_intel_required_subgroup_size", "cl_khr_subgroup_shuffle",
          "cl_khr_subgroup_shuffle_relative", "cl_khr_subgroup_extended_types",
          "cl_khr_subgroup_clustered_reduce"}) {
        INFO(name);
        CHECK(has(exts, name));
    }
    CHECK(has(opencl_c_features(id), "__opencl_c_subgroups"));
    const auto sizes = device_info_array<size_t>(id, CL_DEVICE_SUB_GROUP_SIZES_INTEL);
    CHECK(sizes == std::vector<size_t>{4, 8, 16, 32, 64});
    const auto max_group = device_info<size_t>(id, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    CHECK(device_info<cl_uint>(id, CL_DEVICE_MAX_NUM_SUB_GROUPS) == (max_group + 3) / 4);
    CHECK(device_info<cl_bool>(id, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS) == CL_FALSE);
}

TEST_CASE("sub-group functions on int, uint, long, ulong, float and double", "[subgroups]") {
    Fixture f;
    for (const char* options : {"-cl-std=CL3.0", "-cl-std=CL1.2"}) {
        check_collectives<cl_int>(f, "int", options, 0);
        check_collectives<cl_uint>(f, "uint", options, 0);
        check_collectives<cl_long>(f, "long", options, 0);
        check_collectives<cl_ulong>(f, "ulong", options, 0);
        check_collectives<cl_float>(f, "float", options, 0);
        check_collectives<cl_double>(f, "double", options, 0);
    }
}

TEST_CASE("cl_khr_subgroup_extended_types: char and short collectives", "[subgroups]") {
    Fixture f;
    check_collectives<cl_char>(f, "char", "-cl-std=CL3.0", 0);
    check_collectives<cl_uchar>(f, "uchar", "-cl-std=CL3.0", 0);
    check_collectives<cl_short>(f, "short", "-cl-std=CL3.0", 0);
    check_collectives<cl_ushort>(f, "ushort", "-cl-std=CL3.0", 0);
}

TEST_CASE("intel_reqd_sub_group_size is honoured", "[subgroups]") {
    Fixture f;
    for (size_t required : {4, 8, 16, 32, 64}) {
        INFO("intel_reqd_sub_group_size(" << required << ")");
        check_collectives<cl_int>(f, "int", "-cl-std=CL3.0", required);
        check_collectives<cl_float>(f, "float", "-cl-std=CL3.0", required);
    }
    // A size the device does not have fails the build.
    for (int unsupported : {3, 128}) {
        const std::string source = "__attribute__((intel_reqd_sub_group_size(" +
                                   std::to_string(unsupported) +
                                   "))) __kernel void k(__global int* p) { p[0] = 1; }";
        const char* text = source.c_str();
        cl_int err = CL_SUCCESS;
        ProgramPtr program(clCreateProgramWithSource(f.ctx(), 1, &text, nullptr, &err));
        REQUIRE_OK(err);
        CHECK(clBuildProgram(program.get(), 1, &f.device, "", nullptr, nullptr) ==
              CL_BUILD_PROGRAM_FAILURE);
        CHECK(build_log(program.get(), f.device).find("intel_reqd_sub_group_size") !=
              std::string::npos);
    }
}

TEST_CASE("clGetKernelSubGroupInfo answers every query", "[subgroups]") {
    Fixture f;
    ProgramPtr program = f.build(R"CLC(
__kernel void plain(__global int* p) { p[get_global_id(0)] = get_sub_group_size(); }
__attribute__((intel_reqd_sub_group_size(16)))
__kernel void sixteen(__global int* p) { p[get_global_id(0)] = get_sub_group_size(); }
__attribute__((reqd_work_group_size(24, 2, 1)))
__kernel void fixed(__global int* p) { p[get_global_id(0)] = get_sub_group_size(); }
)CLC",
                                 "-cl-std=CL3.0");
    KernelPtr plain = make_kernel(program.get(), "plain");
    KernelPtr sixteen = make_kernel(program.get(), "sixteen");
    KernelPtr fixed = make_kernel(program.get(), "fixed");
    const cl_device_id dev = f.device;
    const size_t width =
        sub_group_info(plain.get(), dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {1024});
    CHECK((width == 4 || width == 8 || width == 16));
    const size_t max_group = work_group_info<size_t>(plain.get(), dev, CL_KERNEL_WORK_GROUP_SIZE);

    CHECK(sub_group_info(sixteen.get(), dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {5, 3}) ==
          15);
    CHECK(sub_group_info(sixteen.get(), dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {8, 4, 2}) ==
          16);
    CHECK(sub_group_info(sixteen.get(), dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, {13, 5}) == 5);
    CHECK(sub_group_info(sixteen.get(), dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, {64}) == 4);
    CHECK(sub_group_info(plain.get(), dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, {64}) ==
          64 / width);
    CHECK(sub_group_info(sixteen.get(), dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, {}) ==
          (max_group + 15) / 16);
    CHECK(sub_group_info(plain.get(), dev, CL_KERNEL_COMPILE_NUM_SUB_GROUPS, {}) == 0);
    CHECK(sub_group_info(plain.get(), dev, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, {}) == 0);
    CHECK(sub_group_info(sixteen.get(), dev, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, {}) == 16);
    CHECK(sub_group_info(fixed.get(), dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, {}) ==
          (48 + width - 1) / width);
    // The work-group query is not affected.
    CHECK(work_group_info<size_t>(sixteen.get(), dev, CL_KERNEL_WORK_GROUP_SIZE) == max_group);

    // CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT: as many dimensions as asked.
    std::array<size_t, 3> local{};
    const size_t count = 3;
    REQUIRE_OK(clGetKernelSubGroupInfo(sixteen.get(), dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                       sizeof count, &count, sizeof local, local.data(), nullptr));
    CHECK(local == std::array<size_t, 3>{48, 1, 1});
    size_t local1 = 0;
    size_t ret = 0;
    REQUIRE_OK(clGetKernelSubGroupInfo(sixteen.get(), dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                       sizeof count, &count, sizeof local1, &local1, &ret));
    CHECK(local1 == 48);
    CHECK(ret == sizeof(size_t));
    const size_t too_many = max_group; // sub-groups of 16 cannot make that many
    REQUIRE_OK(clGetKernelSubGroupInfo(sixteen.get(), dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                       sizeof too_many, &too_many, sizeof local, local.data(),
                                       nullptr));
    CHECK(local == std::array<size_t, 3>{0, 0, 0});
    // With a required work-group size, only its count has a local size.
    const size_t fixed_count = (48 + width - 1) / width;
    REQUIRE_OK(clGetKernelSubGroupInfo(fixed.get(), dev, CL_KERNEL_LOCAL_SIZE_FOR_SUB_GROUP_COUNT,
                                       sizeof fixed_count, &fixed_count, sizeof local, local.data(),
                                       nullptr));
    CHECK(local == std::array<size_t, 3>{24, 2, 1});

    // Errors.
    const size_t four[4] = {1, 1, 1, 1};
    size_t value = 0;
    CHECK(clGetKernelSubGroupInfo(plain.get(), dev, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                  sizeof four, four, sizeof value, &value,
                                  nullptr) == CL_INVALID_VALUE);
    CHECK(clGetKernelSubGroupInfo(plain.get(), dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 0, four,
                                  sizeof value, &value, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetKernelSubGroupInfo(plain.get(), dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, 5, four,
                                  sizeof value, &value, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetKernelSubGroupInfo(plain.get(), dev, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE,
                                  sizeof(size_t), nullptr, sizeof value, &value,
                                  nullptr) == CL_INVALID_VALUE);
    CHECK(clGetKernelSubGroupInfo(plain.get(), dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, 1,
                                  &value, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetKernelSubGroupInfo(plain.get(), dev, CL_KERNEL_WORK_GROUP_SIZE, 0, nullptr,
                                  sizeof value, &value, nullptr) == CL_INVALID_VALUE);
    CHECK(clGetKernelSubGroupInfo(nullptr, dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr,
                                  sizeof value, &value, nullptr) == CL_INVALID_KERNEL);
    CHECK(clGetKernelSubGroupInfo(plain.get(), reinterpret_cast<cl_device_id>(plain.get()),
                                  CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr, sizeof value, &value,
                                  nullptr) == CL_INVALID_DEVICE);
    // NULL device: the program's only device.
    CHECK(clGetKernelSubGroupInfo(plain.get(), nullptr, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr,
                                  sizeof value, &value, nullptr) == CL_SUCCESS);
    size_t size_ret = 0;
    REQUIRE_OK(clGetKernelSubGroupInfo(plain.get(), dev, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr,
                                       0, nullptr, &size_ret));
    CHECK(size_ret == sizeof(size_t));
}

TEST_CASE("sub-group shuffles, khr and intel", "[subgroups]") {
    Fixture f;
    ProgramPtr program = f.build(R"CLC(
__kernel void shuffles(__global const int* in, __global int* out) {
    size_t gid = get_global_id(1) * get_global_size(0) + get_global_id(0);
    uint lane = get_sub_group_local_id(), n = get_sub_group_size();
    int x = in[gid];
    __global int* o = out + 9 * gid;
    o[0] = sub_group_shuffle(x, (lane + 1) % n);
    o[1] = sub_group_shuffle_xor(x, 1u);
    o[2] = sub_group_shuffle_up(x, 1u);
    o[3] = sub_group_shuffle_down(x, 1u);
    o[4] = intel_sub_group_shuffle(x, (lane + 2) % n);
    o[5] = intel_sub_group_shuffle_down(x, x + 1000, 3u);
    o[6] = intel_sub_group_shuffle_up(x - 1000, x, 2u);
    o[7] = intel_sub_group_shuffle_xor(x, 2u);
    float4 v = (float4)(x, x + 1, x + 2, x + 3);
    float4 s = intel_sub_group_shuffle(v, n - 1 - lane);
    o[8] = (int)(s.x + s.y + s.z + s.w);
}
)CLC",
                                 "-cl-std=CL3.0");
    KernelPtr kernel = make_kernel(program.get(), "shuffles");
    const size_t width =
        sub_group_info(kernel.get(), f.device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {4096});
    for (const Shape& shape : shapes) {
        const size_t n = shape.global[0] * shape.global[1];
        std::vector<cl_int> in(n);
        for (size_t g = 0; g < n; ++g)
            in[g] = static_cast<cl_int>(g * 7 + 1);
        MemPtr in_buffer = make_buffer(f.ctx(), in);
        MemPtr out = make_buffer<cl_int>(f.ctx(), 9 * n);
        set_arg(kernel.get(), 0, in_buffer);
        set_arg(kernel.get(), 1, out);
        run(f.q(), kernel.get(), 2, shape.global, shape.local);
        const auto o = read_buffer<cl_int>(f.q(), out.get(), 9 * n);
        size_t wrong = 0;
        for (const Item& item : ndrange_items(shape.global[0], shape.global[1], shape.local[0],
                                              shape.local[1], width)) {
            const auto& lanes = item.lanes;
            const size_t lane = item.lane, count = lanes.size();
            // The intel shuffles' reach: get_max_sub_group_size().
            const size_t max_size = std::min(width, shape.local[0] * shape.local[1]);
            // Only lanes inside the sub-group are defined.
            auto value = [&](size_t l) { return in[lanes[l]]; };
            std::vector<std::pair<size_t, cl_int>> want = {{0, value((lane + 1) % count)},
                                                           {4, value((lane + 2) % count)}};
            if ((lane ^ 1) < count)
                want.push_back({1, value(lane ^ 1)});
            if (lane >= 1)
                want.push_back({2, value(lane - 1)});
            if (lane + 1 < count)
                want.push_back({3, value(lane + 1)});
            if (lane + 3 < max_size) {
                if (lane + 3 < count)
                    want.push_back({5, value(lane + 3)});
            } else if (lane + 3 - max_size < count) {
                want.push_back({5, value(lane + 3 - max_size) + 1000});
            }
            if (lane >= 2)
                want.push_back({6, value(lane - 2)});
            else if (lane + max_size - 2 < count)
                want.push_back({6, value(lane + max_size - 2) - 1000});
            if ((lane ^ 2) < count)
                want.push_back({7, value(lane ^ 2)});
            want.push_back({8, 4 * value(count - 1 - lane) + 6});
            for (auto [k, expected] : want) {
                if (o[9 * item.global + k] != expected && wrong++ < 8) {
                    INFO("local " << shape.local[0] << "x" << shape.local[1] << " work-item "
                                  << item.global << " lane " << lane << " of " << count
                                  << " result " << k);
                    CHECK(o[9 * item.global + k] == expected);
                }
            }
        }
        CHECK(wrong == 0);
    }
}

TEST_CASE("sub_group_broadcast of wide vectors", "[subgroups]") {
    // Vectors of 32 bytes and more: the widest reach the builtin library in
    // memory under the generic x86-64 calling convention.
    Fixture f;
    for (const char* type : {"int8", "int16", "long8", "double8", "double16", "float16"}) {
        INFO(type);
        const std::string source = std::string("typedef ") + type + R"CLC( V;
__kernel void wide(__global const V* in, __global V* out) {
    size_t g = get_global_id(0);
    out[g] = sub_group_broadcast(in[g], get_sub_group_size() - 1);
}
)CLC";
        ProgramPtr program = f.build(source, "-cl-std=CL3.0");
        KernelPtr kernel = make_kernel(program.get(), "wide");
        const size_t width = sub_group_info(kernel.get(), f.device,
                                            CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {4096});
        const size_t words = std::string(type).find("16") != std::string::npos ? 16 : 8;
        const size_t bytes = words * (type[0] == 'i' || type[0] == 'f' ? 4 : 8);
        for (size_t local : {13, 64}) {
            const size_t global = local * 4;
            std::vector<cl_uchar> in(global * bytes);
            for (size_t i = 0; i < in.size(); ++i)
                in[i] = static_cast<cl_uchar>(i * 7 + i / 251);
            MemPtr in_buffer = make_buffer(f.ctx(), in);
            MemPtr out = make_buffer<cl_uchar>(f.ctx(), in.size());
            set_arg(kernel.get(), 0, in_buffer);
            set_arg(kernel.get(), 1, out);
            run_1d(f.q(), kernel.get(), global, local);
            const auto o = read_buffer<cl_uchar>(f.q(), out.get(), in.size());
            size_t wrong = 0;
            for (size_t g = 0; g < global; ++g) {
                const size_t lid = g % local, first = g - lid % width;
                const size_t last = first + std::min(width, local - lid + lid % width) - 1;
                wrong += !std::equal(o.begin() + g * bytes, o.begin() + (g + 1) * bytes,
                                     in.begin() + last * bytes);
            }
            INFO("local size " << local);
            CHECK(wrong == 0);
        }
    }
}

TEST_CASE("intel sub-group block reads and writes", "[subgroups]") {
    Fixture f;
    ProgramPtr program = f.build(R"CLC(
__kernel void blocks(__global const uint* in, __global uint* out, __global uint* direct) {
    uint width = get_max_sub_group_size();
    uint sg = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();
    const __global uint* p = in + sg * 15 * width;
    uint a = intel_sub_group_block_read(p);
    uint2 b = intel_sub_group_block_read2(p + width);
    uint4 c = intel_sub_group_block_read4(p + 3 * width);
    uint8 d = intel_sub_group_block_read8(p + 7 * width);
    __global uint* q = out + sg * 15 * width;
    intel_sub_group_block_write(q, a + 1);
    intel_sub_group_block_write2(q + width, b + 1);
    intel_sub_group_block_write4(q + 3 * width, c + 1);
    intel_sub_group_block_write8(q + 7 * width, d + 1);
    direct[get_global_id(0)] = d.s7;
}
)CLC",
                                 "-cl-std=CL3.0");
    KernelPtr kernel = make_kernel(program.get(), "blocks");
    for (size_t local : {8, 16, 32, 64}) {
        const size_t width = sub_group_info(kernel.get(), f.device,
                                            CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, {local});
        REQUIRE(local % width == 0);
        const size_t global = 4 * local, sub_groups = global / width;
        std::vector<cl_uint> in(sub_groups * 15 * width);
        for (size_t i = 0; i < in.size(); ++i)
            in[i] = static_cast<cl_uint>(i * 3 + 5);
        MemPtr in_buffer = make_buffer(f.ctx(), in);
        MemPtr out = make_buffer<cl_uint>(f.ctx(), in.size());
        MemPtr direct = make_buffer<cl_uint>(f.ctx(), global);
        set_arg(kernel.get(), 0, in_buffer);
        set_arg(kernel.get(), 1, out);
        set_arg(kernel.get(), 2, direct);
        run_1d(f.q(), kernel.get(), global, local);
        const auto o = read_buffer<cl_uint>(f.q(), out.get(), in.size());
        const auto d = read_buffer<cl_uint>(f.q(), direct.get(), global);
        size_t wrong = 0;
        for (size_t i = 0; i < in.size(); ++i)
            wrong += o[i] != in[i] + 1;
        for (size_t g = 0; g < global; ++g) {
            const size_t sg = g / width, lane = g % width;
            wrong += d[g] != in[sg * 15 * width + 7 * width + 7 * width + lane];
        }
        INFO("local size " << local << ", sub-group size " << width);
        CHECK(wrong == 0);
    }
}

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
