// Kernels with barriers: sub-CFG formation run through whole work-groups.
#include "compiler_test.hpp"

#include <numeric>

namespace {

struct Launch {
    std::unique_ptr<kc::Module> M;
    std::unique_ptr<kc::NativeProgram> P;
    explicit Launch(const char* Source, const std::string& Options = "")
        : M(kctest::build(Source, Options)), P(kctest::jit(*M)) {}
    const kc::KernelInfo& info(const char* Name) const { return kctest::kernel(*M, Name); }
};

} // namespace

TEST_CASE("local-memory reduction with a barrier in a loop", "[compiler][barrier]") {
    Launch L(R"CL(
kernel void reduce(global const float *in, global float *out, local float *scratch) {
    size_t l = get_local_id(0);
    scratch[l] = in[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
        if (l < s)
            scratch[l] += scratch[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0)
        out[get_group_id(0)] = scratch[0];
}
)CL");
    const kc::KernelInfo& K = L.info("reduce");
    CHECK(K.UsesBarriers);
    for (uint64_t Local : {1, 2, 16, 64, 256}) {
        const uint64_t Groups = 3;
        std::vector<float> In(Local * Groups), Out(Groups, -1);
        for (size_t I = 0; I < In.size(); ++I)
            In[I] = static_cast<float>(I % 17);
        kctest::ArgBuffer Args(K);
        Args.set(0, In.data()).set(1, Out.data()).set(2, uint64_t{0});
        kctest::runNDRange(L.P->lookup("reduce"), Args, 1, {Local * Groups, 1, 1}, {Local, 1, 1},
                           {0, 0, 0}, Local * sizeof(float));
        for (uint64_t G = 0; G < Groups; ++G) {
            float Want =
                std::accumulate(In.begin() + G * Local, In.begin() + (G + 1) * Local, 0.0f);
            INFO("local size " << Local << " group " << G);
            CHECK(Out[G] == Want);
        }
    }
}

TEST_CASE("barriers in conditionals and inlined helpers keep private values",
          "[compiler][barrier]") {
    Launch L(R"CL(
void publish(local int *t, int v) {
    t[get_local_id(0)] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
}
kernel void cond(global int *out, int flag, local int *t) {
    int l = (int)get_local_id(0);
    int n = (int)get_local_size(0);
    int mine = l * 3 + flag;
    if (flag) {
        publish(t, l * 10);
        mine += t[(l + 1) % n];
    } else {
        t[l] = 7;
        work_group_barrier(CLK_LOCAL_MEM_FENCE);
        mine -= t[(l + 1) % n];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = mine;
}
)CL",
             "-cl-std=CL3.0");
    const kc::KernelInfo& K = L.info("cond");
    for (int Flag : {0, 1}) {
        const int N = 8;
        std::vector<int> Out(2 * N, 0);
        kctest::ArgBuffer Args(K);
        Args.set(0, Out.data()).set(1, Flag).set(2, uint64_t{0});
        kctest::runNDRange(L.P->lookup("cond"), Args, 1, {2 * N, 1, 1}, {N, 1, 1}, {0, 0, 0},
                           N * sizeof(int));
        for (int I = 0; I < 2 * N; ++I) {
            int Lid = I % N;
            int Want = Flag ? Lid * 3 + 1 + ((Lid + 1) % N) * 10 : Lid * 3 - 7;
            INFO("flag " << Flag << " item " << I);
            CHECK(Out[I] == Want);
        }
    }
}

TEST_CASE("private arrays and loop-carried values across barriers", "[compiler][barrier]") {
    Launch L(R"CL(
kernel void priv(global int *out, local int *t, int rounds) {
    int a[8];
    int l = (int)get_local_id(0);
    int n = (int)get_local_size(0);
    for (int i = 0; i < 8; ++i)
        a[i] = l + i;
    int acc = 0;
    for (int r = 0; r < rounds; ++r) {
        t[l] = a[(l + r) & 7] + acc;
        barrier(CLK_LOCAL_MEM_FENCE);
        acc += t[(l + 1) % n];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    out[get_global_id(0)] = acc;
}
)CL");
    const kc::KernelInfo& K = L.info("priv");
    const int N = 4, Rounds = 5;
    std::vector<int> Out(N, 0);
    kctest::ArgBuffer Args(K);
    Args.set(0, Out.data()).set(1, uint64_t{0}).set(2, Rounds);
    kctest::runNDRange(L.P->lookup("priv"), Args, 1, {N, 1, 1}, {N, 1, 1}, {0, 0, 0},
                       N * sizeof(int));
    // Host reference of the same rounds.
    std::vector<int> Acc(N, 0), T(N);
    for (int R = 0; R < Rounds; ++R) {
        for (int I = 0; I < N; ++I)
            T[I] = I + ((I + R) & 7) + Acc[I];
        for (int I = 0; I < N; ++I)
            Acc[I] += T[(I + 1) % N];
    }
    for (int I = 0; I < N; ++I)
        CHECK(Out[I] == Acc[I]);
}

TEST_CASE("2D tiled transpose and an inclusive scan", "[compiler][barrier]") {
    Launch L(R"CL(
#define TILE 8
kernel void transpose(global const float *in, global float *out, int w, int h) {
    local float tile[TILE][TILE + 1];
    int lx = get_local_id(0), ly = get_local_id(1);
    int x = get_group_id(0) * TILE + lx, y = get_group_id(1) * TILE + ly;
    tile[ly][lx] = in[y * w + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    int tx = get_group_id(1) * TILE + lx, ty = get_group_id(0) * TILE + ly;
    out[ty * h + tx] = tile[lx][ly];
}
kernel void scan(global int *data, local int *t) {
    int l = get_local_id(0), n = get_local_size(0);
    t[l] = data[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < n; off *= 2) {
        int v = l >= off ? t[l - off] : 0;
        barrier(CLK_LOCAL_MEM_FENCE);
        t[l] += v;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    data[get_global_id(0)] = t[l];
}
)CL");
    const int W = 32, H = 16;
    std::vector<float> In(W * H), Out(W * H, -1);
    std::iota(In.begin(), In.end(), 0.0f);
    kctest::ArgBuffer Args(L.info("transpose"));
    Args.set(0, In.data()).set(1, Out.data()).set(2, W).set(3, H);
    kctest::runNDRange(L.P->lookup("transpose"), Args, 2, {W, H, 1}, {8, 8, 1});
    for (int Y = 0; Y < H; ++Y)
        for (int X = 0; X < W; ++X)
            REQUIRE(Out[X * H + Y] == In[Y * W + X]);

    const int N = 64;
    std::vector<int> Data(2 * N);
    for (int I = 0; I < 2 * N; ++I)
        Data[I] = I % 5 + 1;
    std::vector<int> Want = Data;
    for (int G = 0; G < 2; ++G)
        std::partial_sum(Want.begin() + G * N, Want.begin() + (G + 1) * N, Want.begin() + G * N);
    kctest::ArgBuffer ScanArgs(L.info("scan"));
    ScanArgs.set(0, Data.data()).set(1, uint64_t{0});
    kctest::runNDRange(L.P->lookup("scan"), ScanArgs, 1, {2 * N, 1, 1}, {N, 1, 1}, {0, 0, 0},
                       N * sizeof(int));
    CHECK(Data == Want);
}

TEST_CASE("3D work-groups with a barrier; -cl-opt-disable", "[compiler][barrier]") {
    const char* Source = R"CL(
kernel void rotate3(global int *out, local int *t) {
    size_t lin = get_local_linear_id();
    size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
    t[lin] = (int)(get_global_id(0) + 100 * get_global_id(1) + 10000 * get_global_id(2));
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_linear_id()] = t[(lin + 1) % n];
}
)CL";
    for (const char* Options : {"-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"}) {
        Launch L(Source, Options);
        const std::array<uint64_t, 3> Global{4, 4, 4}, Local{2, 2, 2};
        std::vector<int> Out(64, -1);
        kctest::ArgBuffer Args(L.info("rotate3"));
        Args.set(0, Out.data()).set(1, uint64_t{0});
        kctest::runNDRange(L.P->lookup("rotate3"), Args, 3, Global, Local, {0, 0, 0}, 64);
        for (uint64_t Z = 0; Z < 4; ++Z)
            for (uint64_t Y = 0; Y < 4; ++Y)
                for (uint64_t X = 0; X < 4; ++X) {
                    uint64_t Lin = (Z % 2 * 2 + Y % 2) * 2 + X % 2;
                    uint64_t Next = (Lin + 1) % 8;
                    uint64_t NX = X / 2 * 2 + Next % 2, NY = Y / 2 * 2 + Next / 2 % 2,
                             NZ = Z / 2 * 2 + Next / 4;
                    INFO(Options << " item " << X << "," << Y << "," << Z);
                    CHECK(Out[(Z * 4 + Y) * 4 + X] == static_cast<int>(NX + 100 * NY + 10000 * NZ));
                }
    }
}

TEST_CASE("a helper with a barrier called twice; a while loop left by a uniform break",
          "[compiler][barrier]") {
    Launch L(R"CL(
int exchange(local int *t, int v) {
    size_t l = get_local_id(0);
    t[l] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    int r = t[get_local_size(0) - 1 - l];
    barrier(CLK_LOCAL_MEM_FENCE);
    return r;
}
kernel __attribute__((reqd_work_group_size(8, 1, 1)))
void twice(global int *out, local int *t, int limit) {
    int l = (int)get_local_id(0);
    int v = exchange(t, l + 1);
    v += exchange(t, 10 * v);
    int rounds = 0;
    while (1) {
        t[l] = v;
        barrier(CLK_LOCAL_MEM_FENCE);
        v += t[(l + 1) % 8];
        barrier(CLK_LOCAL_MEM_FENCE);
        if (++rounds == limit)
            break;
    }
    out[get_global_id(0)] = v * 100 + rounds;
}
)CL");
    const kc::KernelInfo& K = L.info("twice");
    CHECK(K.ReqdWorkGroupSize == std::array<uint64_t, 3>{8, 1, 1});
    const int N = 8, Limit = 3;
    std::vector<int> Out(2 * N, 0);
    kctest::ArgBuffer Args(K);
    Args.set(0, Out.data()).set(1, uint64_t{0}).set(2, Limit);
    kctest::runNDRange(L.P->lookup("twice"), Args, 1, {2 * N, 1, 1}, {N, 1, 1}, {0, 0, 0},
                       N * sizeof(int));
    std::vector<int> V(N);
    for (int I = 0; I < N; ++I)
        V[I] = (N - 1 - I) + 1;
    std::vector<int> W(N);
    for (int I = 0; I < N; ++I)
        W[I] = V[I] + 10 * V[N - 1 - I];
    for (int R = 0; R < Limit; ++R) {
        std::vector<int> T = W;
        for (int I = 0; I < N; ++I)
            W[I] += T[(I + 1) % N];
    }
    for (int I = 0; I < 2 * N; ++I)
        CHECK(Out[I] == W[I % N] * 100 + Limit);
}
