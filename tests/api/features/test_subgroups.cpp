// Sub-groups (__opencl_c_subgroups, cl_intel_subgroups (OpenCL C 1.2),
// cl_intel_required_subgroup_size, cl_khr_subgroup_shuffle[_relative],
// cl_khr_subgroup_extended_types): the device and kernel queries, and every
// builtin against a host reference that forms the sub-groups as the
// specification does (runs of the sub-group size in local linear id order,
// x fastest, the last one partial), over local sizes that are multiples of
// the sub-group size and not, 2D work-groups whose rows the sub-groups span,
// and non-uniform work-groups. Sub-groups in control flow:
// test_subgroups_control.cpp.
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

namespace {

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
