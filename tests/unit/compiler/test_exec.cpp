// Work-group functions run directly with a launch context filled here.
#include "compiler_test.hpp"

#include <numeric>

TEST_CASE("vector add over two work-groups", "[compiler][exec]") {
    auto M = kctest::build("kernel void vadd(global const float *a, global const float *b,\n"
                           "                 global float *c) {\n"
                           "  size_t i = get_global_id(0);\n"
                           "  c[i] = a[i] + b[i];\n"
                           "}\n");
    auto Program = kctest::jit(*M);
    constexpr size_t N = 1000;
    std::vector<float> A(N), B(N), C(N, -1.0f);
    for (size_t I = 0; I < N; ++I) {
        A[I] = static_cast<float>(I);
        B[I] = 0.5f * static_cast<float>(I);
    }
    kctest::ArgBuffer Args(M->kernels()[0]);
    Args.set(0, A.data()).set(1, B.data()).set(2, C.data());
    kctest::runNDRange(Program->lookup("vadd"), Args, 1, {N, 1, 1}, {500, 1, 1});
    for (size_t I = 0; I < N; ++I)
        REQUIRE(C[I] == A[I] + B[I]);
    CHECK(Program->lookup("nope") == nullptr);
}

TEST_CASE("work-item functions with offsets in 2D and 3D", "[compiler][exec]") {
    auto M = kctest::build(R"CL(
kernel void ids(global ulong *out, uint dims) {
    size_t lin = get_global_linear_id();
    global ulong *o = out + 16 * lin;
    for (uint d = 0; d < 3; ++d) {
        o[d] = get_global_id(d);
        o[3 + d] = get_local_id(d);
        o[6 + d] = get_group_id(d);
        o[9 + d] = get_global_size(d) * 1000 + get_local_size(d) * 100 + get_num_groups(d);
    }
    o[12] = get_work_dim();
    o[13] = get_local_linear_id();
    o[14] = get_global_offset(0) + get_global_offset(1) * 10 + get_global_offset(2) * 100;
    o[15] = get_global_id(dims);  // out of range: 0
}
)CL",
                           "-cl-std=CL3.0");
    auto Program = kctest::jit(*M);
    const kc::KernelInfo& K = M->kernels()[0];
    struct Case {
        unsigned Dims;
        std::array<uint64_t, 3> Global, Local, Offset;
    };
    for (const Case& C :
         {Case{2, {6, 4, 1}, {3, 2, 1}, {5, 7, 0}}, Case{3, {4, 2, 6}, {2, 1, 3}, {1, 2, 3}},
          Case{1, {7, 1, 1}, {7, 1, 1}, {10, 0, 0}}}) {
        uint64_t Items = C.Global[0] * C.Global[1] * C.Global[2];
        std::vector<uint64_t> Out(16 * Items, ~uint64_t{0});
        kctest::ArgBuffer Args(K);
        Args.set(0, Out.data()).set(1, uint32_t{7});
        kctest::runNDRange(Program->lookup("ids"), Args, C.Dims, C.Global, C.Local, C.Offset);
        for (uint64_t Z = 0; Z < C.Global[2]; ++Z)
            for (uint64_t Y = 0; Y < C.Global[1]; ++Y)
                for (uint64_t X = 0; X < C.Global[0]; ++X) {
                    uint64_t Lin = (Z * C.Global[1] + Y) * C.Global[0] + X;
                    const uint64_t* O = &Out[16 * Lin];
                    uint64_t Id[3] = {X, Y, Z};
                    INFO("dims " << C.Dims << " item " << X << "," << Y << "," << Z);
                    for (unsigned D = 0; D < 3; ++D) {
                        CHECK(O[D] == Id[D] + C.Offset[D]);
                        CHECK(O[3 + D] == Id[D] % C.Local[D]);
                        CHECK(O[6 + D] == Id[D] / C.Local[D]);
                        CHECK(O[9 + D] ==
                              C.Global[D] * 1000 + C.Local[D] * 100 + C.Global[D] / C.Local[D]);
                    }
                    CHECK(O[12] == C.Dims);
                    uint64_t L[3] = {X % C.Local[0], Y % C.Local[1], Z % C.Local[2]};
                    CHECK(O[13] == (L[2] * C.Local[1] + L[1]) * C.Local[0] + L[0]);
                    CHECK(O[14] == C.Offset[0] + C.Offset[1] * 10 + C.Offset[2] * 100);
                    CHECK(O[15] == 0);
                }
    }
}

TEST_CASE("non-uniform work-groups: the last group is smaller", "[compiler][exec]") {
    auto M = kctest::build("kernel void fill(global int *out) {\n"
                           "  out[get_global_id(0)] = (int)(get_local_size(0) * 100 +\n"
                           "      get_enqueued_local_size(0));\n"
                           "}\n",
                           "-cl-std=CL3.0");
    auto Program = kctest::jit(*M);
    std::vector<int> Out(10, 0);
    kctest::ArgBuffer Args(M->kernels()[0]);
    Args.set(0, Out.data());
    kctest::runNDRange(Program->lookup("fill"), Args, 1, {10, 1, 1}, {4, 1, 1});
    CHECK(Out[0] == 404);
    CHECK(Out[7] == 404);
    CHECK(Out[8] == 204);
    CHECK(Out[9] == 204);
}

TEST_CASE("__local arguments and variables live in the arena", "[compiler][exec]") {
    auto M = kctest::build(R"CL(
kernel void copy(global int *out, local int *a, local int *b) {
    local int fixed[4];
    size_t l = get_local_id(0);
    a[l] = (int)l;
    b[l] = (int)(10 * l);
    fixed[l] = 100;
    out[get_global_id(0)] = a[l] + b[l] + fixed[l];
}
)CL");
    auto Program = kctest::jit(*M);
    const kc::KernelInfo& K = M->kernels()[0];
    CHECK(K.StaticLocalMemSize == 16);
    std::vector<int> Out(8, 0);
    kctest::ArgBuffer Args(K);
    Args.set(0, Out.data()).set(1, uint64_t{128}).set(2, uint64_t{256});
    kctest::runNDRange(Program->lookup("copy"), Args, 1, {8, 1, 1}, {4, 1, 1}, {0, 0, 0}, 512);
    for (int I = 0; I < 8; ++I)
        CHECK(Out[I] == (I % 4) * 11 + 100);
}

TEST_CASE("struct arguments by value, kernels calling kernels", "[compiler][exec]") {
    auto M = kctest::build(R"CL(
typedef struct { int a; float b; long c; } S;
kernel void inner(global long *out, S s) { out[get_global_id(0)] = s.a + (long)s.b + s.c; }
kernel void outer(global long *out, S s) { s.a += 1; inner(out, s); }
)CL");
    auto Program = kctest::jit(*M);
    struct S {
        int32_t A;
        float B;
        int64_t C;
    } Value{1, 2.0f, 100};
    for (const char* Name : {"inner", "outer"}) {
        std::vector<int64_t> Out(4, 0);
        kctest::ArgBuffer Args(kctest::kernel(*M, Name));
        Args.set(0, Out.data()).set(1, Value);
        kctest::runNDRange(Program->lookup(Name), Args, 1, {4, 1, 1}, {2, 1, 1});
        int64_t Want = std::string(Name) == "inner" ? 103 : 104;
        for (int64_t V : Out)
            CHECK(V == Want);
    }
}

TEST_CASE("-g and -cl-opt-disable builds run", "[compiler][exec]") {
    for (const char* Options : {"-g", "-g -cl-opt-disable", "-cl-opt-disable"}) {
        INFO(Options);
        auto M = kctest::build("kernel void k(global int *p) {\n"
                               "  local int t[8];\n"
                               "  t[get_local_id(0)] = (int)get_global_id(0);\n"
                               "  barrier(CLK_LOCAL_MEM_FENCE);\n"
                               "  p[get_global_id(0)] = t[7 - get_local_id(0)];\n"
                               "}\n",
                               Options);
        auto Program = kctest::jit(*M);
        std::vector<int> Out(16, -1);
        kctest::ArgBuffer Args(M->kernels()[0]);
        Args.set(0, Out.data());
        kctest::runNDRange(Program->lookup("k"), Args, 1, {16, 1, 1}, {8, 1, 1});
        for (int I = 0; I < 16; ++I)
            CHECK(Out[I] == I / 8 * 8 + 7 - I % 8);
    }
}
