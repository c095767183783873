// Sub-group functions for control flow that differs within a sub-group
// (cl_khr_subgroup_non_uniform_vote, cl_khr_subgroup_ballot,
// cl_khr_subgroup_non_uniform_arithmetic): every function called where all
// work-items reach it, in a branch on the sub-group local id and in a
// branch on the data, with sub-group sizes 4, 8 and 16 and the default,
// over local sizes that are multiples of the sub-group size and not, 2D
// work-groups whose rows the sub-groups span and non-uniform work-groups.
// The host reference combines exactly the work-items that take the branch
// (the active ones); the others' results must stay as they were.
#include "features_test.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

using namespace cl_test;
using namespace kernel_test;
using namespace features_test;

namespace {

size_t sub_group_width(cl_kernel kernel, cl_device_id device) {
    const size_t local = 4096;
    size_t value = 0;
    REQUIRE_OK(clGetKernelSubGroupInfo(kernel, device, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                       sizeof local, &local, sizeof value, &value, nullptr));
    return value;
}

struct Shape {
    size_t global[2];
    size_t local[2];
};

// Multiples of the sub-group sizes and not, 2D groups, non-uniform
// NDRanges.
const Shape shapes[] = {
    {{128, 1}, {64, 1}}, {{130, 1}, {13, 1}}, {{20, 6}, {5, 3}},
    {{100, 1}, {32, 1}}, {{37, 5}, {12, 2}},  {{48, 2}, {24, 1}},
};

// The sub-groups of an NDRange: for each, the global linear indices of its
// work-items in sub-group local id order.
std::vector<std::vector<size_t>> sub_groups_of(const Shape& shape, size_t width) {
    const size_t gx = shape.global[0], gy = shape.global[1];
    const size_t lx = shape.local[0], ly = shape.local[1];
    std::vector<std::vector<size_t>> groups;
    for (size_t group_y = 0; group_y < gy; group_y += ly) {
        for (size_t group_x = 0; group_x < gx; group_x += lx) {
            const size_t sx = std::min(lx, gx - group_x), sy = std::min(ly, gy - group_y);
            std::vector<size_t> linear;
            for (size_t y = 0; y < sy; ++y)
                for (size_t x = 0; x < sx; ++x)
                    linear.push_back((group_y + y) * gx + group_x + x);
            for (size_t begin = 0; begin < linear.size(); begin += width)
                groups.emplace_back(linear.begin() + begin,
                                    linear.begin() + std::min(begin + width, linear.size()));
        }
    }
    return groups;
}

// Which work-items call the functions: all of them, those whose sub-group
// local id is a multiple of 3, those whose input is above a threshold. A
// program built with -DDIVERGENT takes the branch its mode argument names
// (1 or 2), one built without it calls the functions unconditionally.
enum class Branch { All, Lanes, Data };

const char* branch_name(Branch branch) {
    switch (branch) {
    case Branch::All: return "all";
    case Branch::Lanes: return "lane % 3 == 0";
    case Branch::Data: return "data";
    }
    return "";
}

const char* const branch_macros = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#ifdef DIVERGENT
#define TAKES (mode == 1 ? get_sub_group_local_id() % 3 == 0 : x > (T)THRESHOLD)
#else
#define TAKES 1
#endif
#ifdef REQD
#define SIZE __attribute__((intel_reqd_sub_group_size(REQD)))
#else
#define SIZE
#endif
)CLC";

// The branches a program covers, and the options that build it.
std::vector<Branch> branches_of(bool divergent) {
    if (divergent)
        return {Branch::Lanes, Branch::Data};
    return {Branch::All};
}

constexpr double threshold = 0.75;

// The inputs: small integers, or for floating-point types 1, 2, 0.5, -1,
// -2 and 0.5 again (sums and products exact in every order, products
// without overflow in half).
template <class Value>
std::vector<Value> inputs(size_t n, bool floating) {
    static const double floats[] = {1, 2, 0.5, -1, -2, 0.5};
    std::vector<Value> in(n);
    for (size_t g = 0; g < n; ++g)
        in[g] = floating ? static_cast<Value>(floats[(g * 7 + g / 5) % 6])
                         : static_cast<Value>(static_cast<int>((g * 37 + 11) % 7) - 3);
    return in;
}

// One kernel per operation (fewer sub-group functions per kernel build
// faster), each writing the reduction and both scans.
const char* const arithmetic_source = R"CLC(
#define NU(op)                                                                \
SIZE __kernel void k_##op(__global const S* in, __global S* out, int mode) {  \
    size_t gid = get_global_id(1) * get_global_size(0) + get_global_id(0);    \
    T x = (T)in[gid];                                                         \
    __global S* o = out + 3 * gid;                                            \
    if (TAKES) {                                                              \
        o[0] = (S)sub_group_non_uniform_reduce_##op(x);                       \
        o[1] = (S)sub_group_non_uniform_scan_inclusive_##op(x);               \
        o[2] = (S)sub_group_non_uniform_scan_exclusive_##op(x);               \
    }                                                                         \
}
#ifdef ADD_MUL
NU(add) NU(mul)
#endif
#ifdef MIN_MAX
NU(min) NU(max)
#endif
#ifdef BITWISE
NU(and) NU(or) NU(xor)
#endif
#ifdef LOGICAL
NU(logical_and) NU(logical_or) NU(logical_xor)
#endif
)CLC";

// An operation of the arithmetic kernels: its name, identity and host
// reference.
template <class Value>
struct Operation {
    const char* name;
    Value identity;
    std::function<Value(Value, Value)> apply;
};

// The groups of operations a program holds (its -D options).
enum OperationGroups : unsigned { AddMul = 1, MinMax = 2, Bitwise = 4, Logical = 8 };

template <class Value>
std::vector<Operation<Value>> operations(unsigned groups) {
    using L = std::numeric_limits<Value>;
    constexpr bool floating = std::is_floating_point_v<Value>;
    std::vector<Operation<Value>> ops;
    if (groups & AddMul) {
        // The identity of addition is -0 in floating point.
        ops.push_back({"add", floating ? Value(-0.0) : Value(0),
                       [](Value a, Value b) { return Value(a + b); }});
        ops.push_back({"mul", Value(1), [](Value a, Value b) { return Value(a * b); }});
    }
    if (groups & MinMax) {
        ops.push_back({"min", floating ? L::infinity() : L::max(),
                       [](Value a, Value b) { return std::min(a, b); }});
        ops.push_back({"max", floating ? Value(-L::infinity()) : L::lowest(),
                       [](Value a, Value b) { return std::max(a, b); }});
    }
    if constexpr (std::is_integral_v<Value>) {
        if (groups & Bitwise) {
            ops.push_back({"and", Value(~Value(0)), [](Value a, Value b) { return Value(a & b); }});
            ops.push_back({"or", Value(0), [](Value a, Value b) { return Value(a | b); }});
            ops.push_back({"xor", Value(0), [](Value a, Value b) { return Value(a ^ b); }});
        }
        if (groups & Logical) {
            ops.push_back({"logical_and", 1, [](Value a, Value b) { return Value(a && b); }});
            ops.push_back({"logical_or", 0, [](Value a, Value b) { return Value(a || b); }});
            ops.push_back({"logical_xor", 0, [](Value a, Value b) { return Value(!a != !b); }});
        }
    }
    return ops;
}

std::string group_options(unsigned groups) {
    std::string options;
    if (groups & AddMul)
        options += " -DADD_MUL";
    if (groups & MinMax)
        options += " -DMIN_MAX";
    if (groups & Bitwise)
        options += " -DBITWISE";
    if (groups & Logical)
        options += " -DLOGICAL";
    return options;
}

// Whether a work-item with input value and sub-group local id lane takes
// the branch.
template <class Value>
bool takes(Branch branch, Value value, size_t lane) {
    switch (branch) {
    case Branch::All: return true;
    case Branch::Lanes: return lane % 3 == 0;
    case Branch::Data: return static_cast<double>(value) > threshold;
    }
    return false;
}

std::string program_options(const std::string& type, bool half, size_t required, bool divergent) {
    std::string options = "-cl-std=CL3.0 -DT=" + type +
                          " -DS=" + (half ? std::string("float") : type) +
                          " -DTHRESHOLD=" + std::to_string(threshold);
    if (required)
        options += " -DREQD=" + std::to_string(required);
    if (divergent)
        options += " -DDIVERGENT";
    return options;
}

// Runs the arithmetic kernels on type (stored as Value: float for half) and
// compares each active work-item's results with folds over the active
// work-items of its sub-group; the others' results must stay untouched.
template <class Value>
void check_arithmetic(const Fixture& f, const std::string& type, unsigned groups, size_t required,
                      bool divergent, bool half = false) {
    const bool floating = std::is_floating_point_v<Value>;
    const bool logical = groups & Logical;
    const std::string options =
        program_options(type, half, required, divergent) + group_options(groups);
    INFO(type << " " << options);
    ProgramPtr program = f.build(std::string(branch_macros) + arithmetic_source, options.c_str());
    for (const Operation<Value>& op : operations<Value>(groups)) {
        KernelPtr kernel = make_kernel(program.get(), (std::string("k_") + op.name).c_str());
        const size_t width = sub_group_width(kernel.get(), f.device);
        if (required)
            CHECK(width == required);
        for (Branch branch : branches_of(divergent)) {
            for (const Shape& shape : shapes) {
                const size_t n = shape.global[0] * shape.global[1];
                std::vector<Value> in = inputs<Value>(n, floating);
                if (logical)
                    for (size_t g = 0; g < n; ++g)
                        in[g] = Value((g * 5 + g / 3) % 4 != 0); // mostly true, some false
                const Value untouched = Value(42);
                MemPtr in_buffer = make_buffer(f.ctx(), in);
                MemPtr out = make_buffer(f.ctx(), std::vector<Value>(3 * n, untouched));
                set_arg(kernel.get(), 0, in_buffer);
                set_arg(kernel.get(), 1, out);
                set_arg(kernel.get(), 2, cl_int(branch == Branch::Lanes ? 1 : 2));
                run(f.q(), kernel.get(), 2, shape.global, shape.local);
                const auto got = read_buffer<Value>(f.q(), out.get(), 3 * n);
                size_t wrong = 0, active_items = 0;
                for (const std::vector<size_t>& lanes : sub_groups_of(shape, width)) {
                    Value total = op.identity, scan = op.identity;
                    for (size_t lane = 0; lane < lanes.size(); ++lane)
                        if (takes(branch, in[lanes[lane]], lane))
                            total = op.apply(total, in[lanes[lane]]);
                    for (size_t lane = 0; lane < lanes.size(); ++lane) {
                        const size_t g = lanes[lane];
                        Value want[3] = {untouched, untouched, untouched};
                        if (takes(branch, in[g], lane)) {
                            ++active_items;
                            want[2] = scan;
                            scan = op.apply(scan, in[g]);
                            want[1] = scan;
                            want[0] = total;
                        }
                        for (size_t k = 0; k < 3; ++k) {
                            if (got[3 * g + k] != want[k] && wrong++ < 8) {
                                INFO(op.name << " (reduce, inclusive, exclusive: " << k << ") "
                                             << branch_name(branch) << " local " << shape.local[0]
                                             << "x" << shape.local[1] << " work-item " << g
                                             << " lane " << lane << " got " << +got[3 * g + k]
                                             << " want " << +want[k]);
                                CHECK(got[3 * g + k] == want[k]);
                            }
                        }
                    }
                }
                CHECK(wrong == 0);
                CHECK(active_items > 0);
                // The branches leave some work-items out.
                if (branch != Branch::All)
                    CHECK(active_items < n);
            }
        }
    }
}

// With -DVOTE the functions whose operands are int (the vote functions,
// ballots and their queries, the masks), which only the int programs
// check; the functions on T in every program.
const char* const vote_source = R"CLC(
SIZE __kernel void vote(__global const S* in, __global uint* out, __global S* values,
                        __global uint* masks, int mode) {
    size_t gid = get_global_id(1) * get_global_size(0) + get_global_id(0);
    T x = (T)in[gid];
    __global uint* o = out + 18 * gid;
    __global S* v = values + 6 * gid;
    if (TAKES) {
#ifdef VOTE
        o[0] = sub_group_elect();
        o[1] = sub_group_non_uniform_all(x > (T)0);
        o[2] = sub_group_non_uniform_any(x == (T)2);
        uint4 b = sub_group_ballot(x > (T)0);
        o[5] = b.x;
        o[6] = b.y;
        o[7] = b.z;
        o[8] = b.w;
        o[9] = sub_group_inverse_ballot(b);
        o[10] = sub_group_ballot_bit_extract(b, 1);
        o[11] = sub_group_ballot_bit_count(b);
        o[12] = sub_group_ballot_inclusive_scan(b);
        o[13] = sub_group_ballot_exclusive_scan(b);
        o[14] = b.x | b.y ? sub_group_ballot_find_lsb(b) : 99;
        o[15] = b.x | b.y ? sub_group_ballot_find_msb(b) : 99;
#endif
        o[3] = sub_group_non_uniform_all_equal(x);
        o[4] = sub_group_non_uniform_all_equal((T)get_sub_group_id());
        uint4 everyone = sub_group_ballot(1);
        o[16] = everyone.x;
        o[17] = everyone.y;
        uint last = everyone.y ? 32 + (31 - clz(everyone.y)) : 31 - clz(everyone.x);
        v[0] = (S)sub_group_broadcast_first(x);
        v[1] = (S)sub_group_non_uniform_broadcast(x, last);
        T4 w = sub_group_non_uniform_broadcast((T4)(x, x + (T)1, x + (T)2, x + (T)3), last);
        v[2] = (S)w.x;
        v[3] = (S)w.y;
        v[4] = (S)w.z;
        v[5] = (S)w.w;
    }
#ifdef VOTE
    __global uint* m = masks + 20 * gid;
    uint4 eq = get_sub_group_eq_mask(), ge = get_sub_group_ge_mask(),
          gt = get_sub_group_gt_mask(), le = get_sub_group_le_mask(),
          lt = get_sub_group_lt_mask();
    vstore4(eq, 0, m);
    vstore4(ge, 1, m);
    vstore4(gt, 2, m);
    vstore4(le, 3, m);
    vstore4(lt, 4, m);
#endif
}
)CLC";

uint64_t bits_below(size_t n) {
    return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
}

template <class Value>
void check_vote(const Fixture& f, const std::string& type, size_t required, bool divergent,
                bool half = false) {
    const bool floating = std::is_floating_point_v<Value>;
    const bool vote = type == "int";
    const std::string options = program_options(type, half, required, divergent) + " -DT4=" + type +
                                "4" + (vote ? " -DVOTE" : "");
    INFO(type << " " << options);
    ProgramPtr program = f.build(std::string(branch_macros) + vote_source, options.c_str());
    KernelPtr kernel = make_kernel(program.get(), "vote");
    const size_t width = sub_group_width(kernel.get(), f.device);
    if (required)
        CHECK(width == required);
    for (Branch branch : branches_of(divergent)) {
        for (const Shape& shape : shapes) {
            const size_t n = shape.global[0] * shape.global[1];
            std::vector<Value> in = inputs<Value>(n, floating);
            // Some sub-groups whose active work-items hold one value.
            for (size_t g = 0; g < n; g += 3 * width)
                for (size_t k = g; k < std::min(n, g + width); ++k)
                    in[k] = Value(2);
            const cl_uint untouched = 0xdeadu;
            const Value untouched_value = Value(42);
            MemPtr in_buffer = make_buffer(f.ctx(), in);
            MemPtr out = make_buffer(f.ctx(), std::vector<cl_uint>(18 * n, untouched));
            MemPtr values = make_buffer(f.ctx(), std::vector<Value>(6 * n, untouched_value));
            MemPtr masks = make_buffer<cl_uint>(f.ctx(), 20 * n);
            set_arg(kernel.get(), 0, in_buffer);
            set_arg(kernel.get(), 1, out);
            set_arg(kernel.get(), 2, values);
            set_arg(kernel.get(), 3, masks);
            set_arg(kernel.get(), 4, cl_int(branch == Branch::Lanes ? 1 : 2));
            run(f.q(), kernel.get(), 2, shape.global, shape.local);
            const auto got = read_buffer<cl_uint>(f.q(), out.get(), 18 * n);
            const auto got_values = read_buffer<Value>(f.q(), values.get(), 6 * n);
            const auto got_masks = read_buffer<cl_uint>(f.q(), masks.get(), 20 * n);
            size_t wrong = 0;
            auto expect = [&](bool same, size_t g, size_t lane, const char* what, double got_v,
                              double want_v) {
                if (!same && wrong++ < 8) {
                    INFO(branch_name(branch) << " local " << shape.local[0] << "x" << shape.local[1]
                                             << " work-item " << g << " lane " << lane << " "
                                             << what << " got " << got_v << " want " << want_v);
                    CHECK(same);
                }
            };
            const auto groups = sub_groups_of(shape, width);
            for (size_t sg = 0; sg < groups.size(); ++sg) {
                const std::vector<size_t>& lanes = groups[sg];
                uint64_t active = 0, positive = 0;
                for (size_t lane = 0; lane < lanes.size(); ++lane) {
                    if (!takes(branch, in[lanes[lane]], lane))
                        continue;
                    active |= uint64_t{1} << lane;
                    if (in[lanes[lane]] > Value(0))
                        positive |= uint64_t{1} << lane;
                }
                const size_t first = active ? __builtin_ctzll(active) : 0;
                const size_t last = active ? 63 - __builtin_clzll(active) : 0;
                bool all_positive = true, any_two = false, all_equal = true;
                for (size_t lane = 0; lane < lanes.size(); ++lane) {
                    if (!(active >> lane & 1))
                        continue;
                    const Value x = in[lanes[lane]];
                    all_positive &= x > Value(0);
                    any_two |= x == Value(2);
                    all_equal &= x == in[lanes[first]];
                }
                for (size_t lane = 0; lane < lanes.size(); ++lane) {
                    const size_t g = lanes[lane];
                    const cl_uint* o = &got[18 * g];
                    const Value* v = &got_values[6 * g];
                    const cl_uint* m = &got_masks[20 * g];
                    // The masks hold the bits of the sub-group's work-items.
                    const uint64_t in_group = bits_below(lanes.size());
                    const uint64_t want_masks[5] = {
                        uint64_t{1} << lane, ~bits_below(lane) & in_group,
                        ~bits_below(lane + 1) & in_group, bits_below(lane + 1) & in_group,
                        bits_below(lane) & in_group};
                    for (size_t k = 0; vote && k < 5; ++k) {
                        const uint64_t mask = m[4 * k] | uint64_t{m[4 * k + 1]} << 32;
                        expect(mask == want_masks[k] && m[4 * k + 2] == 0 && m[4 * k + 3] == 0, g,
                               lane, "mask", double(mask), double(want_masks[k]));
                    }
                    if (!(active >> lane & 1)) {
                        for (size_t k = 0; k < 18; ++k)
                            expect(o[k] == untouched, g, lane, "inactive result", o[k], untouched);
                        for (size_t k = 0; k < 6; ++k)
                            expect(v[k] == untouched_value, g, lane, "inactive value", double(v[k]),
                                   double(untouched_value));
                        continue;
                    }
                    const bool has_bits = positive != 0;
                    const cl_uint want[18] = {
                        lane == first,
                        all_positive,
                        any_two,
                        all_equal,
                        1,
                        static_cast<cl_uint>(positive),
                        static_cast<cl_uint>(positive >> 32),
                        0,
                        0,
                        static_cast<cl_uint>(positive >> lane & 1),
                        static_cast<cl_uint>(positive >> 1 & 1),
                        static_cast<cl_uint>(__builtin_popcountll(positive)),
                        static_cast<cl_uint>(__builtin_popcountll(positive & bits_below(lane + 1))),
                        static_cast<cl_uint>(__builtin_popcountll(positive & bits_below(lane))),
                        has_bits ? static_cast<cl_uint>(__builtin_ctzll(positive)) : 99u,
                        has_bits ? static_cast<cl_uint>(63 - __builtin_clzll(positive)) : 99u,
                        static_cast<cl_uint>(active),
                        static_cast<cl_uint>(active >> 32)};
                    cl_uint want_here[18];
                    for (size_t k = 0; k < 18; ++k)
                        want_here[k] = vote || k == 3 || k == 4 || k >= 16 ? want[k] : untouched;
                    static const char* const names[18] = {
                        "elect",       "all",         "any",        "all_equal", "all_equal id",
                        "ballot.x",    "ballot.y",    "ballot.z",   "ballot.w",  "inverse",
                        "bit_extract", "bit_count",   "incl scan",  "excl scan", "find_lsb",
                        "find_msb",    "ballot(1).x", "ballot(1).y"};
                    for (size_t k = 0; k < 18; ++k)
                        expect(o[k] == want_here[k], g, lane, names[k], o[k], want_here[k]);
                    const Value x_last = in[lanes[last]];
                    const Value want_values[6] = {in[lanes[first]],
                                                  x_last,
                                                  x_last,
                                                  Value(x_last + Value(1)),
                                                  Value(x_last + Value(2)),
                                                  Value(x_last + Value(3))};
                    for (size_t k = 0; k < 6; ++k)
                        expect(v[k] == want_values[k], g, lane, "broadcast", double(v[k]),
                               double(want_values[k]));
                }
            }
            CHECK(wrong == 0);
        }
    }
}

// A call in a loop that fewer work-items take on every iteration: the
// active set of each iteration starts afresh (the active marks of the
// previous one are cleared).
const char* const loop_source = R"CLC(
SIZE __kernel void shrinking(__global const int* in, __global int* out) {
    size_t gid = get_global_id(1) * get_global_size(0) + get_global_id(0);
    int x = in[gid];
    uint lane = get_sub_group_local_id();
    int sum = 0, scan = 0, elected = 0;
    for (uint k = 0; k < 6; ++k) {
        if (lane >= k) {
            sum += sub_group_non_uniform_reduce_add(x + (int)k) << (4 * k);
            scan += sub_group_non_uniform_scan_exclusive_add(x + (int)k) << (4 * k);
            elected |= sub_group_elect() << k;
        }
    }
    out[3 * gid] = sum;
    out[3 * gid + 1] = scan;
    out[3 * gid + 2] = elected;
}
)CLC";

// Work-items of a sub-group reaching the calls on different iterations:
// each iteration's callers are its active set (lane % 3 == k: a third of the
// lanes each time; bit k of the input: a data-dependent set).
const char* const rotating_source = R"CLC(
SIZE __kernel void rotating(__global const int* in, __global int* out) {
    size_t gid = get_global_id(1) * get_global_size(0) + get_global_id(0);
    int x = in[gid];
    uint lane = get_sub_group_local_id();
    int sum = 0, counts = 0;
    for (uint k = 0; k < 3; ++k) {
        if (lane % 3 == k)
            sum = sub_group_non_uniform_reduce_add(x + (int)k);
    }
    for (uint k = 0; k < 4; ++k) {
        if ((x >> k) & 1)
            counts |= sub_group_non_uniform_reduce_add(1) << (8 * k);
    }
    out[2 * gid] = sum;
    out[2 * gid + 1] = counts;
}
)CLC";

// Builds source (int sub-groups of the required size, or the default),
// runs kernel_name(in, out) on every shape, where each work-item writes
// `results` ints, and compares them with want(in, lanes of its sub-group,
// its lane, the expected values).
using Want =
    std::function<void(const std::vector<cl_int>&, const std::vector<size_t>&, size_t, cl_int*)>;
void check_lanes(const Fixture& f, const char* source, const char* kernel_name, size_t required,
                 size_t results, const Want& want) {
    const std::string options = program_options("int", false, required, true);
    INFO(options);
    ProgramPtr program = f.build(std::string(branch_macros) + source, options.c_str());
    KernelPtr kernel = make_kernel(program.get(), kernel_name);
    const size_t width = sub_group_width(kernel.get(), f.device);
    for (const Shape& shape : shapes) {
        const size_t n = shape.global[0] * shape.global[1];
        const std::vector<cl_int> in = inputs<cl_int>(n, false);
        MemPtr in_buffer = make_buffer(f.ctx(), in);
        MemPtr out = make_buffer<cl_int>(f.ctx(), results * n);
        set_arg(kernel.get(), 0, in_buffer);
        set_arg(kernel.get(), 1, out);
        run(f.q(), kernel.get(), 2, shape.global, shape.local);
        const auto got = read_buffer<cl_int>(f.q(), out.get(), results * n);
        size_t wrong = 0;
        std::vector<cl_int> expected(results);
        for (const std::vector<size_t>& lanes : sub_groups_of(shape, width)) {
            for (size_t lane = 0; lane < lanes.size(); ++lane) {
                std::fill(expected.begin(), expected.end(), 0);
                want(in, lanes, lane, expected.data());
                const size_t g = lanes[lane];
                for (size_t k = 0; k < results; ++k) {
                    if (got[results * g + k] != expected[k] && wrong++ < 8) {
                        INFO("local " << shape.local[0] << "x" << shape.local[1] << " work-item "
                                      << g << " lane " << lane << " result " << k << " got "
                                      << got[results * g + k] << " want " << expected[k]);
                        CHECK(got[results * g + k] == expected[k]);
                    }
                }
            }
        }
        CHECK(wrong == 0);
    }
}

void check_rotating(const Fixture& f, size_t required) {
    check_lanes(f, rotating_source, "rotating", required, 2,
                [](const std::vector<cl_int>& in, const std::vector<size_t>& lanes, size_t lane,
                   cl_int* want) {
                    const cl_int x = in[lanes[lane]];
                    for (size_t other = 0; other < lanes.size(); ++other)
                        if (other % 3 == lane % 3)
                            want[0] += in[lanes[other]] + cl_int(lane % 3);
                    for (unsigned k = 0; k < 4; ++k) {
                        if (!((x >> k) & 1))
                            continue;
                        cl_int count = 0;
                        for (size_t other = 0; other < lanes.size(); ++other)
                            count += (in[lanes[other]] >> k) & 1;
                        want[1] |= count << (8 * k);
                    }
                });
}

void check_loop(const Fixture& f, size_t required) {
    check_lanes(f, loop_source, "shrinking", required, 3,
                [](const std::vector<cl_int>& in, const std::vector<size_t>& lanes, size_t lane,
                   cl_int* want) {
                    for (size_t k = 0; k < 6 && k <= lane; ++k) {
                        cl_int total = 0, below = 0;
                        for (size_t other = k; other < lanes.size(); ++other) {
                            total += in[lanes[other]] + cl_int(k);
                            if (other < lane)
                                below += in[lanes[other]] + cl_int(k);
                        }
                        want[0] += static_cast<cl_int>(static_cast<uint32_t>(total) << (4 * k));
                        want[1] += static_cast<cl_int>(static_cast<uint32_t>(below) << (4 * k));
                        want[2] |= cl_int(lane == k) << k;
                    }
                });
}

} // namespace

TEST_CASE("the device reports the non-uniform sub-group extensions", "[subgroups]") {
    const auto exts = extensions(device());
    for (const char* name : {"cl_khr_subgroup_non_uniform_vote", "cl_khr_subgroup_ballot",
                             "cl_khr_subgroup_non_uniform_arithmetic"}) {
        INFO(name);
        CHECK(has(exts, name));
    }
    // The OpenCL C macros of the extensions are defined for kernels.
    Fixture f;
    ProgramPtr program = f.build(R"CLC(
#if !defined(cl_khr_subgroup_non_uniform_vote) || !defined(cl_khr_subgroup_ballot) || \
    !defined(cl_khr_subgroup_non_uniform_arithmetic)
#error an extension macro is missing
#endif
__kernel void k(__global int* out) { out[0] = sub_group_elect(); }
)CLC",
                                 "-cl-std=CL3.0");
    CHECK(program != nullptr);
}

TEST_CASE("cl_khr_subgroup_non_uniform_arithmetic on int", "[subgroups]") {
    Fixture f;
    const unsigned all = AddMul | MinMax | Bitwise;
    for (bool divergent : {false, true})
        check_arithmetic<cl_int>(f, "int", all, 0, divergent);
    for (size_t required : {4, 8, 16})
        check_arithmetic<cl_int>(f, "int", all, required, true);
    check_arithmetic<cl_int>(f, "int", Logical, 0, true);
}

TEST_CASE("cl_khr_subgroup_non_uniform_arithmetic on the other types", "[subgroups]") {
    Fixture f;
    const unsigned all = AddMul | MinMax | Bitwise;
    check_arithmetic<cl_char>(f, "char", all, 0, true);
    check_arithmetic<cl_short>(f, "short", all, 0, true);
    check_arithmetic<cl_long>(f, "long", all, 0, true);
    // Unsigned types differ from their signed ones in min and max.
    check_arithmetic<cl_uchar>(f, "uchar", MinMax, 0, true);
    check_arithmetic<cl_ushort>(f, "ushort", MinMax, 0, true);
    check_arithmetic<cl_uint>(f, "uint", MinMax, 0, true);
    check_arithmetic<cl_ulong>(f, "ulong", MinMax, 0, true);
    check_arithmetic<cl_float>(f, "float", AddMul | MinMax, 0, true);
    check_arithmetic<cl_double>(f, "double", AddMul | MinMax, 0, true);
    check_arithmetic<cl_float>(f, "half", AddMul | MinMax, 0, true, true);
}

TEST_CASE("cl_khr_subgroup_non_uniform_vote and cl_khr_subgroup_ballot", "[subgroups]") {
    Fixture f;
    for (bool divergent : {false, true})
        check_vote<cl_int>(f, "int", 0, divergent);
    for (size_t required : {4, 8, 16})
        check_vote<cl_int>(f, "int", required, true);
    check_vote<cl_uint>(f, "uint", 0, true);
    check_vote<cl_char>(f, "char", 0, true);
    check_vote<cl_uchar>(f, "uchar", 0, true);
    check_vote<cl_short>(f, "short", 0, true);
    check_vote<cl_ushort>(f, "ushort", 0, true);
    check_vote<cl_long>(f, "long", 0, true);
    check_vote<cl_ulong>(f, "ulong", 0, true);
    check_vote<cl_float>(f, "float", 0, true);
    check_vote<cl_double>(f, "double", 0, true);
    check_vote<cl_float>(f, "half", 0, true, true);
}

TEST_CASE("non-uniform sub-group functions in a loop that fewer work-items take each time",
          "[subgroups]") {
    Fixture f;
    for (size_t required : {0, 4, 8})
        check_loop(f, required);
}

TEST_CASE("non-uniform sub-group functions in a loop that work-items reach on different "
          "iterations",
          "[subgroups]") {
    Fixture f;
    for (size_t required : {0, 4, 8, 16})
        check_rotating(f, required);
}
