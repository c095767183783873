// Kernel arguments and kernel queries: clSetKernelArg for every kind of
// argument (__global and __constant buffers, NULL buffers, __local sizes,
// scalars, vectors and structs by value) and its errors, values taken at
// enqueue time, CL_INVALID_KERNEL_ARGS, clGetKernelArgInfo (with
// -cl-kernel-arg-info), clGetKernelInfo, clGetKernelWorkGroupInfo and
// clCloneKernel. Kernel results are compared with host references.
#include "kernel_test.hpp"

#include <cstdint>
#include <numeric>

using namespace cl_test;
using namespace kernel_test;

namespace {

// Every kind of argument. Each work-item i of a work-group writes eight
// values at out[8 * i].
const char* const kinds_source = R"CLC(
typedef struct {
    int a;
    float b;
    char c;
    long d;
} Mixed;

__kernel void kinds(__global const int* g, __constant int* c, __local int* l, int s, float4 v,
                    Mixed m, uchar u, float3 t, __global int* out) {
    size_t i = get_global_id(0);
    size_t li = get_local_id(0);
    size_t n = get_local_size(0);
    l[li] = (int)i * 2 + 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    __global int* o = out + 8 * i;
    o[0] = g ? g[i] : -1;
    o[1] = c ? c[i] : -1;
    o[2] = l[(li + 1) % n];
    o[3] = s;
    o[4] = (int)(v.x + v.y * 10.0f + v.z * 100.0f + v.w * 1000.0f);
    o[5] = m.a + (int)m.b + m.c + (int)m.d;
    o[6] = u;
    o[7] = (int)(t.x + t.y * 10.0f + t.z * 100.0f);
}
)CLC";

// The OpenCL C struct Mixed on the host.
struct Mixed {
    cl_int a;
    cl_float b;
    cl_char c;
    cl_long d;
};
static_assert(sizeof(Mixed) == 24);

struct KindsArgs {
    std::vector<int> g;
    std::vector<int> c;
    bool g_null = false;
    bool c_null = false;
    int s = 0;
    cl_float4 v{};
    Mixed m{};
    cl_uchar u = 0;
    cl_float3 t{};
};

// The host reference of kinds for a 1D range of global work-items in
// groups of local.
std::vector<int> kinds_reference(const KindsArgs& args, size_t global, size_t local) {
    std::vector<int> out(8 * global);
    for (size_t i = 0; i < global; ++i) {
        const size_t group_start = i / local * local;
        const size_t neighbour = group_start + (i - group_start + 1) % local;
        int* o = out.data() + 8 * i;
        o[0] = args.g_null ? -1 : args.g[i];
        o[1] = args.c_null ? -1 : args.c[i];
        o[2] = static_cast<int>(neighbour) * 2 + 1;
        o[3] = args.s;
        o[4] = static_cast<int>(args.v.s[0] + args.v.s[1] * 10.0f + args.v.s[2] * 100.0f +
                                args.v.s[3] * 1000.0f);
        o[5] = args.m.a + static_cast<int>(args.m.b) + args.m.c + static_cast<int>(args.m.d);
        o[6] = args.u;
        o[7] = static_cast<int>(args.t.s[0] + args.t.s[1] * 10.0f + args.t.s[2] * 100.0f);
    }
    return out;
}

KindsArgs sample_args(size_t global) {
    KindsArgs args;
    args.g.resize(global);
    args.c.resize(global);
    for (size_t i = 0; i < global; ++i) {
        args.g[i] = static_cast<int>(i * 7) - 40;
        args.c[i] = 1000 - static_cast<int>(i * 3);
    }
    args.s = -123456;
    args.v = {{1.0f, 2.0f, 3.0f, 4.0f}};
    args.m = {17, 2.5f, -3, 5000000000LL};
    args.u = 251;
    args.t = {{5.0f, 6.0f, 7.0f, 99.0f}};
    return args;
}

struct KindsKernel {
    const Fixture& f;
    ProgramPtr program = f.build(kinds_source);
    KernelPtr kernel = make_kernel(program.get(), "kinds");
    cl_kernel k() const { return kernel.get(); }
};

// Sets every argument of kinds from args (buffers from the given ones).
void set_kinds_args(cl_kernel kernel, const KindsArgs& args, cl_mem g, cl_mem c, size_t local_bytes,
                    cl_mem out) {
    set_arg(kernel, 0, g);
    set_arg(kernel, 1, c);
    set_local_arg(kernel, 2, local_bytes);
    set_arg(kernel, 3, args.s);
    set_arg(kernel, 4, args.v);
    set_arg(kernel, 5, args.m);
    set_arg(kernel, 6, args.u);
    set_arg(kernel, 7, args.t);
    set_arg(kernel, 8, out);
}

} // namespace

TEST_CASE("clSetKernelArg: every kind of argument reaches the kernel") {
    Fixture f;
    KindsKernel kinds{f};
    constexpr size_t global = 64;
    constexpr size_t local = 16;
    KindsArgs args = sample_args(global);
    MemPtr g = make_buffer(f.ctx(), args.g, CL_MEM_READ_ONLY);
    MemPtr c = make_buffer(f.ctx(), args.c, CL_MEM_READ_ONLY);
    MemPtr out = make_buffer<int>(f.ctx(), 8 * global);
    set_kinds_args(kinds.k(), args, g.get(), c.get(), local * sizeof(int), out.get());

    SECTION("buffers and values") {
        run_1d(f.q(), kinds.k(), global, local);
        CHECK(read_buffer<int>(f.q(), out.get(), 8 * global) ==
              kinds_reference(args, global, local));
    }
    SECTION("NULL buffers: a NULL arg_value and a pointer to a NULL cl_mem") {
        REQUIRE_OK(clSetKernelArg(kinds.k(), 0, sizeof(cl_mem), nullptr));
        const cl_mem null_mem = nullptr;
        REQUIRE_OK(clSetKernelArg(kinds.k(), 1, sizeof(cl_mem), &null_mem));
        args.g_null = true;
        args.c_null = true;
        run_1d(f.q(), kinds.k(), global, local);
        CHECK(read_buffer<int>(f.q(), out.get(), 8 * global) ==
              kinds_reference(args, global, local));
    }
    SECTION("values are taken when the kernel is enqueued") {
        // Two launches with different values, writing to two buffers; the
        // kernel's arguments change between the enqueues, before any wait.
        MemPtr out2 = make_buffer<int>(f.ctx(), 8 * global);
        EventPtr gate = make_user_event(f.ctx());
        cl_event wait[] = {gate.get()};
        REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), kinds.k(), 1, nullptr, &global, &local, 1, wait,
                                          nullptr));
        KindsArgs second = args;
        second.s = 77;
        second.m.a = -1000;
        second.u = 3;
        set_arg(kinds.k(), 3, second.s);
        set_arg(kinds.k(), 5, second.m);
        set_arg(kinds.k(), 6, second.u);
        set_arg(kinds.k(), 8, out2.get());
        REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), kinds.k(), 1, nullptr, &global, &local, 0, nullptr,
                                          nullptr));
        REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
        REQUIRE_OK(clFinish(f.q()));
        CHECK(read_buffer<int>(f.q(), out.get(), 8 * global) ==
              kinds_reference(args, global, local));
        CHECK(read_buffer<int>(f.q(), out2.get(), 8 * global) ==
              kinds_reference(second, global, local));
    }
    SECTION("a __local argument larger than the work-group needs") {
        set_local_arg(kinds.k(), 2, 64 * 1024 / 2);
        run_1d(f.q(), kinds.k(), global, local);
        CHECK(read_buffer<int>(f.q(), out.get(), 8 * global) ==
              kinds_reference(args, global, local));
    }
}

TEST_CASE("clSetKernelArg errors") {
    Fixture f;
    KindsKernel kinds{f};
    cl_kernel k = kinds.k();
    MemPtr buffer = make_buffer<int>(f.ctx(), 64);
    const cl_mem mem = buffer.get();
    const int value = 5;

    SECTION("__global and __constant buffers: arg_size must be sizeof(cl_mem)") {
        for (cl_uint index : {0u, 1u, 8u}) {
            INFO("argument " << index);
            CHECK_CL(clSetKernelArg(k, index, sizeof(cl_mem) - 4, &mem), CL_INVALID_ARG_SIZE);
            CHECK_CL(clSetKernelArg(k, index, sizeof(cl_mem) + 8, &mem), CL_INVALID_ARG_SIZE);
            CHECK_CL(clSetKernelArg(k, index, 0, nullptr), CL_INVALID_ARG_SIZE);
            CHECK_OK(clSetKernelArg(k, index, sizeof(cl_mem), &mem));
        }
    }
    SECTION("a buffer argument that is not a memory object") {
        const cl_mem context_as_mem = reinterpret_cast<cl_mem>(f.ctx());
        CHECK_CL(clSetKernelArg(k, 0, sizeof(cl_mem), &context_as_mem), CL_INVALID_MEM_OBJECT);
        const cl_mem queue_as_mem = reinterpret_cast<cl_mem>(f.q());
        CHECK_CL(clSetKernelArg(k, 1, sizeof(cl_mem), &queue_as_mem), CL_INVALID_MEM_OBJECT);
        FakeObject fake(mem, 0x5c);
        const cl_mem fake_mem = fake.as<cl_mem>();
        CHECK_CL(clSetKernelArg(k, 8, sizeof(cl_mem), &fake_mem), CL_INVALID_MEM_OBJECT);
    }
    SECTION("__local: a size and no value") {
        CHECK_OK(clSetKernelArg(k, 2, 1, nullptr));
        CHECK_OK(clSetKernelArg(k, 2, 4096, nullptr));
        CHECK_CL(clSetKernelArg(k, 2, 64, &value), CL_INVALID_ARG_VALUE);
        CHECK_CL(clSetKernelArg(k, 2, 0, nullptr), CL_INVALID_ARG_SIZE);
    }
    SECTION("values: exactly the size of the type, and a value") {
        const cl_long wide = 1;
        CHECK_OK(clSetKernelArg(k, 3, sizeof(cl_int), &value));
        CHECK_CL(clSetKernelArg(k, 3, sizeof(cl_long), &wide), CL_INVALID_ARG_SIZE);
        CHECK_CL(clSetKernelArg(k, 3, 2, &value), CL_INVALID_ARG_SIZE);
        CHECK_CL(clSetKernelArg(k, 3, sizeof(cl_int), nullptr), CL_INVALID_ARG_VALUE);

        const cl_float4 v{};
        CHECK_OK(clSetKernelArg(k, 4, sizeof v, &v));
        CHECK_CL(clSetKernelArg(k, 4, sizeof(cl_float2), &v), CL_INVALID_ARG_SIZE);
        CHECK_CL(clSetKernelArg(k, 4, sizeof(cl_float8), &v), CL_INVALID_ARG_SIZE);

        const Mixed m{};
        CHECK_OK(clSetKernelArg(k, 5, sizeof m, &m));
        CHECK_CL(clSetKernelArg(k, 5, sizeof m - 1, &m), CL_INVALID_ARG_SIZE);
        CHECK_CL(clSetKernelArg(k, 5, 4 + 4 + 1 + 8, &m), CL_INVALID_ARG_SIZE);
        CHECK_CL(clSetKernelArg(k, 5, sizeof m, nullptr), CL_INVALID_ARG_VALUE);

        const cl_uchar u = 1;
        CHECK_OK(clSetKernelArg(k, 6, 1, &u));
        CHECK_CL(clSetKernelArg(k, 6, 4, &value), CL_INVALID_ARG_SIZE);

        // A 3-component vector takes the size of the 4-component one.
        const cl_float3 t{};
        static_assert(sizeof t == 16);
        CHECK_OK(clSetKernelArg(k, 7, sizeof t, &t));
        CHECK_CL(clSetKernelArg(k, 7, 3 * sizeof(cl_float), &t), CL_INVALID_ARG_SIZE);
    }
    SECTION("arg_index out of range") {
        CHECK(kernel_info<cl_uint>(k, CL_KERNEL_NUM_ARGS) == 9);
        CHECK_CL(clSetKernelArg(k, 9, sizeof(cl_mem), &mem), CL_INVALID_ARG_INDEX);
        CHECK_CL(clSetKernelArg(k, 1000, sizeof value, &value), CL_INVALID_ARG_INDEX);
        CHECK_CL(clSetKernelArg(k, ~0u, sizeof value, &value), CL_INVALID_ARG_INDEX);
    }
    SECTION("not a kernel") {
        CHECK_CL(clSetKernelArg(nullptr, 0, sizeof(cl_mem), &mem), CL_INVALID_KERNEL);
        FakeObject fake(k, 0xa5);
        CHECK_CL(clSetKernelArg(fake.as<cl_kernel>(), 0, sizeof(cl_mem), &mem), CL_INVALID_KERNEL);
    }
}

TEST_CASE("clSetKernelArg of a sampler argument: the size first, then the sampler") {
    // A NULL sampler of the right size is CL_INVALID_SAMPLER, any value of
    // another size CL_INVALID_ARG_SIZE (tests/api/images/ sets real ones).
    Fixture f;
    ProgramPtr program = f.build(R"CLC(
__kernel void sampled(sampler_t s, __global int* out) { out[0] = 1; }
)CLC");
    KernelPtr kernel = make_kernel(program.get(), "sampled");
    const cl_sampler none = nullptr;
    CHECK_CL(clSetKernelArg(kernel.get(), 0, sizeof none + 1, &none), CL_INVALID_ARG_SIZE);
    CHECK_CL(clSetKernelArg(kernel.get(), 0, 0, nullptr), CL_INVALID_ARG_SIZE);
    CHECK_CL(clSetKernelArg(kernel.get(), 0, sizeof none, &none), CL_INVALID_SAMPLER);
}

TEST_CASE("clEnqueueNDRangeKernel before every argument is set is CL_INVALID_KERNEL_ARGS") {
    Fixture f;
    KindsKernel kinds{f};
    cl_kernel k = kinds.k();
    constexpr size_t global = 16;
    constexpr size_t local = 16;
    KindsArgs args = sample_args(global);
    MemPtr g = make_buffer(f.ctx(), args.g);
    MemPtr c = make_buffer(f.ctx(), args.c);
    MemPtr out = make_buffer<int>(f.ctx(), 8 * global);

    CHECK_CL(clEnqueueNDRangeKernel(f.q(), k, 1, nullptr, &global, &local, 0, nullptr, nullptr),
             CL_INVALID_KERNEL_ARGS);
    // All but one, for each argument in turn: a fresh kernel each time,
    // next to one with every argument set.
    for (cl_uint missing = 0; missing < 9; ++missing) {
        INFO("argument " << missing << " not set");
        KernelPtr kernel = make_kernel(kinds.program.get(), "kinds");
        set_kinds_args(kernel.get(), args, g.get(), c.get(), local * sizeof(int), out.get());
        KernelPtr partial = make_kernel(kinds.program.get(), "kinds");
        for (cl_uint index = 0; index < 9; ++index) {
            if (index == missing)
                continue;
            if (index == 2) {
                set_local_arg(partial.get(), 2, local * sizeof(int));
                continue;
            }
            switch (index) {
            case 0: set_arg(partial.get(), 0, g.get()); break;
            case 1: set_arg(partial.get(), 1, c.get()); break;
            case 3: set_arg(partial.get(), 3, args.s); break;
            case 4: set_arg(partial.get(), 4, args.v); break;
            case 5: set_arg(partial.get(), 5, args.m); break;
            case 6: set_arg(partial.get(), 6, args.u); break;
            case 7: set_arg(partial.get(), 7, args.t); break;
            case 8: set_arg(partial.get(), 8, out.get()); break;
            default: break;
            }
        }
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), partial.get(), 1, nullptr, &global, &local, 0,
                                        nullptr, nullptr),
                 CL_INVALID_KERNEL_ARGS);
        CHECK_CL(clEnqueueTask(f.q(), partial.get(), 0, nullptr, nullptr), CL_INVALID_KERNEL_ARGS);
        // A failed setting does not count as set.
        if (missing == 3) {
            const cl_long wrong = 0;
            CHECK_CL(clSetKernelArg(partial.get(), 3, sizeof wrong, &wrong), CL_INVALID_ARG_SIZE);
            CHECK_CL(clEnqueueNDRangeKernel(f.q(), partial.get(), 1, nullptr, &global, &local, 0,
                                            nullptr, nullptr),
                     CL_INVALID_KERNEL_ARGS);
        }
        // The fully set kernel runs.
        run_1d(f.q(), kernel.get(), global, local);
        CHECK(read_buffer<int>(f.q(), out.get(), 8 * global) ==
              kinds_reference(args, global, local));
    }
}

namespace {

const char* const arg_info_source = R"CLC(
typedef struct {
    int a;
    float b;
} Pair;

__kernel void described(__global const int* restrict first, __constant float* second,
                        __local volatile int* third, unsigned int fourth, __global float4* fifth,
                        Pair sixth, __global uchar* seventh) {
    size_t i = get_global_id(0);
    third[0] = first[i];
    fifth[i] = (float4)(second[i] + (float)fourth + third[0] + sixth.b, (float)sixth.a, 0.0f, 1.0f);
    seventh[i] = (uchar)i;
}

__kernel __attribute__((reqd_work_group_size(4, 2, 1))) void fixed(__global int* out) {
    out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = (int)get_local_id(0);
}

__kernel __attribute__((work_group_size_hint(8, 1, 1))) __attribute__((vec_type_hint(uint4)))
void hinted(__global int* out) {
    out[get_global_id(0)] = 1;
}
)CLC";

} // namespace

TEST_CASE("clGetKernelArgInfo with -cl-kernel-arg-info") {
    Fixture f;
    ProgramPtr program = f.build(arg_info_source, "-cl-kernel-arg-info");
    KernelPtr kernel = make_kernel(program.get(), "described");
    cl_kernel k = kernel.get();
    REQUIRE(kernel_info<cl_uint>(k, CL_KERNEL_NUM_ARGS) == 7);

    struct Expected {
        cl_kernel_arg_address_qualifier address;
        const char* type;
        cl_kernel_arg_type_qualifier qualifiers;
        const char* name;
    };
    const Expected expected[] = {
        {CL_KERNEL_ARG_ADDRESS_GLOBAL, "int*",
         CL_KERNEL_ARG_TYPE_CONST | CL_KERNEL_ARG_TYPE_RESTRICT, "first"},
        // A __constant pointer is CL_KERNEL_ARG_TYPE_CONST.
        {CL_KERNEL_ARG_ADDRESS_CONSTANT, "float*", CL_KERNEL_ARG_TYPE_CONST, "second"},
        {CL_KERNEL_ARG_ADDRESS_LOCAL, "int*", CL_KERNEL_ARG_TYPE_VOLATILE, "third"},
        // unsigned int is spelled uint.
        {CL_KERNEL_ARG_ADDRESS_PRIVATE, "uint", CL_KERNEL_ARG_TYPE_NONE, "fourth"},
        {CL_KERNEL_ARG_ADDRESS_GLOBAL, "float4*", CL_KERNEL_ARG_TYPE_NONE, "fifth"},
        {CL_KERNEL_ARG_ADDRESS_PRIVATE, "Pair", CL_KERNEL_ARG_TYPE_NONE, "sixth"},
        {CL_KERNEL_ARG_ADDRESS_GLOBAL, "uchar*", CL_KERNEL_ARG_TYPE_NONE, "seventh"},
    };
    for (cl_uint i = 0; i < 7; ++i) {
        INFO("argument " << i);
        CHECK(arg_info<cl_kernel_arg_address_qualifier>(k, i, CL_KERNEL_ARG_ADDRESS_QUALIFIER) ==
              expected[i].address);
        CHECK(arg_info<cl_kernel_arg_access_qualifier>(k, i, CL_KERNEL_ARG_ACCESS_QUALIFIER) ==
              CL_KERNEL_ARG_ACCESS_NONE);
        CHECK(arg_info_string(k, i, CL_KERNEL_ARG_TYPE_NAME) == expected[i].type);
        CHECK(arg_info<cl_kernel_arg_type_qualifier>(k, i, CL_KERNEL_ARG_TYPE_QUALIFIER) ==
              expected[i].qualifiers);
        CHECK(arg_info_string(k, i, CL_KERNEL_ARG_NAME) == expected[i].name);
    }

    cl_kernel_arg_address_qualifier address = 0;
    CHECK_CL(clGetKernelArgInfo(k, 7, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address, &address,
                                nullptr),
             CL_INVALID_ARG_INDEX);
    CHECK_CL(clGetKernelArgInfo(k, 0, 0x7fff, sizeof address, &address, nullptr), CL_INVALID_VALUE);
    CHECK_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof address - 1, &address,
                                nullptr),
             CL_INVALID_VALUE);
    char small[3];
    CHECK_CL(clGetKernelArgInfo(k, 0, CL_KERNEL_ARG_NAME, sizeof small, small, nullptr),
             CL_INVALID_VALUE);
    size_t size_ret = 0;
    CHECK_CL(clGetKernelArgInfo(nullptr, 0, CL_KERNEL_ARG_NAME, 0, nullptr, &size_ret),
             CL_INVALID_KERNEL);

    SECTION("without -cl-kernel-arg-info: not available, or the same answers") {
        ProgramPtr plain = f.build(arg_info_source);
        KernelPtr without = make_kernel(plain.get(), "described");
        size_t size = 0;
        const cl_int result =
            clGetKernelArgInfo(without.get(), 0, CL_KERNEL_ARG_NAME, 0, nullptr, &size);
        if (result == CL_SUCCESS)
            CHECK(arg_info_string(without.get(), 0, CL_KERNEL_ARG_NAME) == "first");
        else
            CHECK_CL(result, CL_KERNEL_ARG_INFO_NOT_AVAILABLE);
    }
}

TEST_CASE("clGetKernelInfo") {
    Fixture f;
    ProgramPtr program = f.build(arg_info_source);
    KernelPtr described = make_kernel(program.get(), "described");
    KernelPtr fixed = make_kernel(program.get(), "fixed");

    CHECK(kernel_info_string(described.get(), CL_KERNEL_FUNCTION_NAME) == "described");
    CHECK(kernel_info_string(fixed.get(), CL_KERNEL_FUNCTION_NAME) == "fixed");
    CHECK(kernel_info<cl_uint>(described.get(), CL_KERNEL_NUM_ARGS) == 7);
    CHECK(kernel_info<cl_uint>(fixed.get(), CL_KERNEL_NUM_ARGS) == 1);
    CHECK(kernel_info<cl_uint>(fixed.get(), CL_KERNEL_REFERENCE_COUNT) == 1);
    CHECK(kernel_info<cl_context>(fixed.get(), CL_KERNEL_CONTEXT) == f.ctx());
    CHECK(kernel_info<cl_program>(fixed.get(), CL_KERNEL_PROGRAM) == program.get());
    CHECK(kernel_info_string(described.get(), CL_KERNEL_ATTRIBUTES).empty());
    CHECK(kernel_info_string(fixed.get(), CL_KERNEL_ATTRIBUTES) == "reqd_work_group_size(4,2,1)");
    // Several attributes: space-separated, each as declared without whitespace.
    KernelPtr hinted = make_kernel(program.get(), "hinted");
    const std::vector<std::string> words =
        split_words(kernel_info_string(hinted.get(), CL_KERNEL_ATTRIBUTES));
    CHECK(std::set<std::string>(words.begin(), words.end()) ==
          std::set<std::string>{"work_group_size_hint(8,1,1)", "vec_type_hint(uint4)"});
    CHECK(words.size() == 2);

    cl_uint value = 0;
    CHECK_CL(clGetKernelInfo(fixed.get(), 0x7fff, sizeof value, &value, nullptr), CL_INVALID_VALUE);
    CHECK_CL(clGetKernelInfo(fixed.get(), CL_KERNEL_NUM_ARGS, sizeof value - 1, &value, nullptr),
             CL_INVALID_VALUE);
    char small[4];
    CHECK_CL(clGetKernelInfo(fixed.get(), CL_KERNEL_FUNCTION_NAME, sizeof small, small, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clGetKernelInfo(nullptr, CL_KERNEL_NUM_ARGS, sizeof value, &value, nullptr),
             CL_INVALID_KERNEL);
}

namespace {

const char* const work_group_source = R"CLC(
__kernel __attribute__((reqd_work_group_size(8, 4, 2))) void required(__global int* out) {
    out[0] = 1;
}

__kernel void tiled(__global const int* in, __global int* out, __local int* extra) {
    __local int tile[64];
    size_t l = get_local_id(0);
    tile[l % 64] = in[get_global_id(0)];
    extra[l] = (int)l;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = tile[(l + 1) % 64] + extra[l];
}

__kernel void private_array(__global const int* in, __global int* out) {
    int scratch[64];
    size_t i = get_global_id(0);
    for (int k = 0; k < 64; ++k)
        scratch[k] = in[(i + k) % get_global_size(0)] * (k + 1);
    out[i] = scratch[in[i] & 63];
}

// Sums of groups: a tree reduction in __local memory of the local size.
__kernel void reduce(__global const int* in, __global int* out, __local int* scratch) {
    size_t l = get_local_id(0);
    size_t n = get_local_size(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t stride = n / 2; stride > 0; stride /= 2) {
        if (l < stride)
            scratch[l] += scratch[l + stride];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = scratch[0];
}
)CLC";

} // namespace

TEST_CASE("clGetKernelWorkGroupInfo") {
    Fixture f;
    ProgramPtr program = f.build(work_group_source);
    KernelPtr required = make_kernel(program.get(), "required");
    KernelPtr tiled = make_kernel(program.get(), "tiled");
    KernelPtr private_array = make_kernel(program.get(), "private_array");
    const auto max_group = device_info<size_t>(f.device, CL_DEVICE_MAX_WORK_GROUP_SIZE);

    SECTION("CL_KERNEL_WORK_GROUP_SIZE and CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE") {
        for (cl_kernel k : {required.get(), tiled.get(), private_array.get()}) {
            const auto size = work_group_info<size_t>(k, f.device, CL_KERNEL_WORK_GROUP_SIZE);
            CHECK(size >= 1);
            CHECK(size <= max_group);
            const auto multiple =
                work_group_info<size_t>(k, f.device, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE);
            CHECK(multiple >= 1);
            CHECK(multiple <= size);
        }
        // device may be NULL: the program has one device.
        CHECK(work_group_info<size_t>(tiled.get(), nullptr, CL_KERNEL_WORK_GROUP_SIZE) ==
              work_group_info<size_t>(tiled.get(), f.device, CL_KERNEL_WORK_GROUP_SIZE));
    }
    SECTION("CL_KERNEL_COMPILE_WORK_GROUP_SIZE") {
        size_t sizes[3] = {9, 9, 9};
        size_t size_ret = 0;
        REQUIRE_OK(clGetKernelWorkGroupInfo(required.get(), f.device,
                                            CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof sizes, sizes,
                                            &size_ret));
        CHECK(size_ret == sizeof sizes);
        CHECK(sizes[0] == 8);
        CHECK(sizes[1] == 4);
        CHECK(sizes[2] == 2);
        REQUIRE_OK(clGetKernelWorkGroupInfo(tiled.get(), f.device,
                                            CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof sizes, sizes,
                                            &size_ret));
        CHECK(sizes[0] == 0);
        CHECK(sizes[1] == 0);
        CHECK(sizes[2] == 0);
    }
    SECTION("CL_KERNEL_LOCAL_MEM_SIZE counts __local variables and __local arguments") {
        const auto before =
            work_group_info<cl_ulong>(tiled.get(), f.device, CL_KERNEL_LOCAL_MEM_SIZE);
        CHECK(before >= 64 * sizeof(cl_int));
        set_local_arg(tiled.get(), 2, 1000);
        const auto after =
            work_group_info<cl_ulong>(tiled.get(), f.device, CL_KERNEL_LOCAL_MEM_SIZE);
        CHECK(after >= before + 1000);
        set_local_arg(tiled.get(), 2, 8);
        const auto smaller =
            work_group_info<cl_ulong>(tiled.get(), f.device, CL_KERNEL_LOCAL_MEM_SIZE);
        CHECK(smaller >= before + 8);
        CHECK(smaller < after);
        CHECK(work_group_info<cl_ulong>(tiled.get(), f.device, CL_KERNEL_LOCAL_MEM_SIZE) <=
              device_info<cl_ulong>(f.device, CL_DEVICE_LOCAL_MEM_SIZE));
    }
    SECTION("CL_KERNEL_PRIVATE_MEM_SIZE counts a private array") {
        CHECK(work_group_info<cl_ulong>(private_array.get(), f.device,
                                        CL_KERNEL_PRIVATE_MEM_SIZE) >= 64 * sizeof(cl_int));
        // ... which the kernel really uses.
        constexpr size_t n = 256;
        std::vector<int> in(n);
        for (size_t i = 0; i < n; ++i)
            in[i] = static_cast<int>((i * 37) % 1000);
        MemPtr input = make_buffer(f.ctx(), in);
        MemPtr output = make_buffer<int>(f.ctx(), n);
        set_arg(private_array.get(), 0, input);
        set_arg(private_array.get(), 1, output);
        run_1d(f.q(), private_array.get(), n);
        std::vector<int> expected(n);
        for (size_t i = 0; i < n; ++i) {
            const int k = in[i] & 63;
            expected[i] = in[(i + k) % n] * (k + 1);
        }
        CHECK(read_buffer<int>(f.q(), output.get(), n) == expected);
    }
    SECTION("errors") {
        size_t value = 0;
        CHECK_CL(
            clGetKernelWorkGroupInfo(tiled.get(), f.device, 0x7fff, sizeof value, &value, nullptr),
            CL_INVALID_VALUE);
        CHECK_CL(clGetKernelWorkGroupInfo(tiled.get(), f.device, CL_KERNEL_WORK_GROUP_SIZE,
                                          sizeof value - 1, &value, nullptr),
                 CL_INVALID_VALUE);
        // Only for custom devices and built-in kernels.
        size_t global[3];
        CHECK_CL(clGetKernelWorkGroupInfo(tiled.get(), f.device, CL_KERNEL_GLOBAL_WORK_SIZE,
                                          sizeof global, global, nullptr),
                 CL_INVALID_VALUE);
        CHECK_CL(clGetKernelWorkGroupInfo(nullptr, f.device, CL_KERNEL_WORK_GROUP_SIZE,
                                          sizeof value, &value, nullptr),
                 CL_INVALID_KERNEL);
        const cl_device_id not_a_device = reinterpret_cast<cl_device_id>(f.ctx());
        CHECK_CL(clGetKernelWorkGroupInfo(tiled.get(), not_a_device, CL_KERNEL_WORK_GROUP_SIZE,
                                          sizeof value, &value, nullptr),
                 CL_INVALID_DEVICE);
        // A device that is not the program's: a sub-device, when the device
        // can be partitioned.
        const cl_device_partition_property equally[] = {CL_DEVICE_PARTITION_EQUALLY, 1, 0};
        cl_device_id sub = nullptr;
        cl_uint count = 0;
        if (clCreateSubDevices(f.device, equally, 1, &sub, &count) == CL_SUCCESS) {
            DevicePtr owned(sub);
            CHECK_CL(clGetKernelWorkGroupInfo(tiled.get(), sub, CL_KERNEL_WORK_GROUP_SIZE,
                                              sizeof value, &value, nullptr),
                     CL_INVALID_DEVICE);
        }
    }
}

TEST_CASE("a work-group of CL_KERNEL_WORK_GROUP_SIZE work-items runs a barrier kernel") {
    Fixture f;
    ProgramPtr program = f.build(work_group_source);
    KernelPtr reduce = make_kernel(program.get(), "reduce");
    const auto limit = work_group_info<size_t>(reduce.get(), f.device, CL_KERNEL_WORK_GROUP_SIZE);
    // The largest power of two within the limit (the tree needs one).
    size_t local = 1;
    while (local * 2 <= limit)
        local *= 2;
    INFO("CL_KERNEL_WORK_GROUP_SIZE " << limit << ", local size " << local);
    const size_t groups = 3;
    const size_t global = local * groups;
    std::vector<int> in(global);
    for (size_t i = 0; i < global; ++i)
        in[i] = static_cast<int>(i % 1013) - 500;
    MemPtr input = make_buffer(f.ctx(), in);
    MemPtr output = make_buffer<int>(f.ctx(), groups);
    set_arg(reduce.get(), 0, input);
    set_arg(reduce.get(), 1, output);
    set_local_arg(reduce.get(), 2, local * sizeof(int));
    run_1d(f.q(), reduce.get(), global, local);
    std::vector<int> expected(groups, 0);
    for (size_t i = 0; i < global; ++i)
        expected[i / local] += in[i];
    CHECK(read_buffer<int>(f.q(), output.get(), groups) == expected);
}

TEST_CASE("clCloneKernel copies the arguments") {
    Fixture f;
    KindsKernel kinds{f};
    constexpr size_t global = 32;
    constexpr size_t local = 8;
    KindsArgs args = sample_args(global);
    MemPtr g = make_buffer(f.ctx(), args.g);
    MemPtr c = make_buffer(f.ctx(), args.c);
    MemPtr out = make_buffer<int>(f.ctx(), 8 * global);
    set_kinds_args(kinds.k(), args, g.get(), c.get(), local * sizeof(int), out.get());

    cl_int error = CL_OUT_OF_RESOURCES;
    cl_kernel raw = clCloneKernel(kinds.k(), &error);
    REQUIRE_OK(error);
    REQUIRE(raw != nullptr);
    KernelPtr clone(raw);
    CHECK(raw != kinds.k());
    CHECK(kernel_info<cl_uint>(raw, CL_KERNEL_REFERENCE_COUNT) == 1);
    CHECK(kernel_info<cl_program>(raw, CL_KERNEL_PROGRAM) == kinds.program.get());
    CHECK(kernel_info_string(raw, CL_KERNEL_FUNCTION_NAME) == "kinds");
    CHECK(kernel_info<cl_uint>(raw, CL_KERNEL_NUM_ARGS) == 9);

    const std::vector<int> expected = kinds_reference(args, global, local);
    // The clone runs with the original's arguments, none set again.
    run_1d(f.q(), raw, global, local);
    CHECK(read_buffer<int>(f.q(), out.get(), 8 * global) == expected);

    // Arguments set on the clone leave the original alone, and back.
    MemPtr out2 = make_buffer<int>(f.ctx(), 8 * global);
    KindsArgs changed = args;
    changed.s = 4242;
    changed.g_null = true;
    set_arg(raw, 3, changed.s);
    REQUIRE_OK(clSetKernelArg(raw, 0, sizeof(cl_mem), nullptr));
    set_arg(raw, 8, out2.get());
    const int original_s = -5;
    args.s = original_s;
    set_arg(kinds.k(), 3, original_s);
    run_1d(f.q(), kinds.k(), global, local);
    run_1d(f.q(), raw, global, local);
    CHECK(read_buffer<int>(f.q(), out.get(), 8 * global) == kinds_reference(args, global, local));
    CHECK(read_buffer<int>(f.q(), out2.get(), 8 * global) ==
          kinds_reference(changed, global, local));

    SECTION("the clone outlives the original") {
        kinds.kernel.reset();
        std::vector<int> zeros(8 * global, 0);
        write_buffer(f.q(), out2.get(), zeros);
        run_1d(f.q(), raw, global, local);
        CHECK(read_buffer<int>(f.q(), out2.get(), 8 * global) ==
              kinds_reference(changed, global, local));
    }
    SECTION("a clone of a kernel with unset arguments has them unset") {
        KernelPtr fresh = make_kernel(kinds.program.get(), "kinds");
        set_arg(fresh.get(), 3, args.s);
        cl_kernel partial = clCloneKernel(fresh.get(), &error);
        REQUIRE_OK(error);
        KernelPtr owned(partial);
        CHECK_CL(clEnqueueNDRangeKernel(f.q(), partial, 1, nullptr, &global, &local, 0, nullptr,
                                        nullptr),
                 CL_INVALID_KERNEL_ARGS);
    }
    SECTION("not a kernel") {
        error = CL_SUCCESS;
        CHECK(clCloneKernel(nullptr, &error) == nullptr);
        CHECK_CL(error, CL_INVALID_KERNEL);
    }
}
