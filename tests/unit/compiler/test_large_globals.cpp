// Program-scope variables of any size CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE
// allows (issue 18, CTS basic progvar_prog_scope_misc: a variable beyond the
// reach of the JIT image's 32-bit fixups failed to link). Large ones live
// outside the image; their values persist between launches, initializers
// are copied, and every program has storage of its own.
#include "compiler_test.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace {

constexpr uint64_t Chunk = 4096;

void runChunk(const kc::NativeProgram& Program, const kc::Module& M, const char* Kernel,
              void* Buffer, uint64_t Base) {
    kctest::ArgBuffer Args(kctest::kernel(M, Kernel));
    Args.set(0, Buffer).set(1, Base);
    kctest::runNDRange(Program.lookup(Kernel), Args, 1, {Chunk, 1, 1}, {256, 1, 1});
}

} // namespace

TEST_CASE("a 3 GiB program-scope variable links, runs and keeps its values",
          "[compiler][exec][globals]") {
    constexpr uint64_t Size = uint64_t{3} << 30;
    const std::string Source = "uchar var[" + std::to_string(Size) +
                               "];\n"
                               "kernel void writer(global const uchar *src, ulong base) {\n"
                               "  var[base + get_global_id(0)] = src[get_global_id(0)];\n"
                               "}\n"
                               "kernel void reader(global uchar *dst, ulong base) {\n"
                               "  dst[get_global_id(0)] = var[base + get_global_id(0)];\n"
                               "}\n";
    auto M = kctest::build(Source, "-cl-std=CL3.0");
    auto Program = kctest::jit(*M);
    const uint64_t Bases[] = {0, Size / 2 + 3, Size - Chunk};
    for (uint64_t Base : Bases) {
        std::vector<uint8_t> Src(Chunk);
        for (uint64_t I = 0; I < Chunk; ++I)
            Src[I] = static_cast<uint8_t>(I * 7 + Base / 4096 + 1);
        runChunk(*Program, *M, "writer", Src.data(), Base);
    }
    for (uint64_t Base : Bases) {
        std::vector<uint8_t> Expected(Chunk), Dst(Chunk, 0);
        for (uint64_t I = 0; I < Chunk; ++I)
            Expected[I] = static_cast<uint8_t>(I * 7 + Base / 4096 + 1);
        runChunk(*Program, *M, "reader", Dst.data(), Base);
        REQUIRE(Dst == Expected);
    }
    // Never written: zero.
    std::vector<uint8_t> Dst(Chunk, 0xff);
    runChunk(*Program, *M, "reader", Dst.data(), Size / 4);
    CHECK(Dst == std::vector<uint8_t>(Chunk, 0));

    // Another program of the same source has storage of its own.
    auto Other = kctest::jit(*M);
    runChunk(*Other, *M, "reader", Dst.data(), 0);
    CHECK(Dst == std::vector<uint8_t>(Chunk, 0));
}

TEST_CASE("large initialized program-scope variables next to small ones",
          "[compiler][exec][globals]") {
    // 4 MiB and 8 MiB (outside the image, the second a constant) and an int
    // (inside).
    auto M = kctest::build(R"CL(
global int table[1 << 20] = {7, 8, 9};
constant long big_constant[1 << 20] = {1, 2, [(1 << 20) - 1] = 42};
global int small = 5;
global int *pointer = &table[2];
kernel void bump(global int *out) {
  size_t i = get_global_id(0);
  table[i * 1024] += 1;
  if (i == 0) {
    out[0] = table[0];
    out[1] = table[1];
    out[2] = *pointer;
    out[3] = table[(1 << 20) - 1];
    out[4] = small++;
    out[5] = (int)(big_constant[0] + big_constant[1] + big_constant[(1 << 20) - 1]);
  }
}
)CL",
                           "-cl-std=CL3.0");
    auto Program = kctest::jit(*M);
    for (int Launch = 1; Launch <= 2; ++Launch) {
        std::vector<int32_t> Out(6, -1);
        kctest::ArgBuffer Args(M->kernels()[0]);
        Args.set(0, Out.data());
        kctest::runNDRange(Program->lookup("bump"), Args, 1, {1024, 1, 1}, {64, 1, 1});
        CHECK(Out[0] == 7 + Launch);
        CHECK(Out[1] == 8);
        CHECK(Out[2] == 9);
        CHECK(Out[3] == 0);
        CHECK(Out[4] == 4 + Launch);
        CHECK(Out[5] == 45);
    }
}
