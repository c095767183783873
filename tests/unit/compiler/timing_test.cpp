// Compile times: printed, and bounded loosely (sanitizer builds are slow).
#include "compiler_test.hpp"

#include <chrono>
#include <cstdio>

namespace {

double millisecondsSince(std::chrono::steady_clock::time_point Start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Start)
        .count();
}

const char* VectorAdd = "kernel void vadd(global const float *a, global const float *b,\n"
                        "                 global float *c) {\n"
                        "  size_t i = get_global_id(0);\n"
                        "  c[i] = a[i] + b[i];\n"
                        "}\n";

} // namespace

TEST_CASE("compile time of a vector add", "[compiler][timing]") {
    for (int Round = 0; Round < 3; ++Round) {
        auto Start = std::chrono::steady_clock::now();
        kc::BuildResult R = kctest::compiler().build(VectorAdd, "");
        double Build = millisecondsSince(Start);
        REQUIRE(R.Output);
        Start = std::chrono::steady_clock::now();
        auto Program = kctest::jit(*R.Output);
        double Jit = millisecondsSince(Start);
        std::printf("vector add, %s: build %.1f ms, native code %.1f ms, total %.1f ms\n",
                    Round == 0 ? "cold" : "again", Build, Jit, Build + Jit);
        CHECK(Build + Jit < 2000);
    }
}
