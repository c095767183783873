// Compile times: printed, and bounded loosely (sanitizer builds are slow).
#include "compiler_test.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <unistd.h>

namespace {

// Wall time and this thread's CPU time (what the compiler itself costs, on a
// loaded machine too: every compile step runs on the calling thread).
struct Clock {
    std::chrono::steady_clock::time_point Wall = std::chrono::steady_clock::now();
    double Cpu = cpuMilliseconds();
    static double cpuMilliseconds() {
        timespec T{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &T);
        return static_cast<double>(T.tv_sec) * 1e3 + static_cast<double>(T.tv_nsec) / 1e6;
    }
    double wall() const {
        return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - Wall)
            .count();
    }
    double cpu() const { return cpuMilliseconds() - Cpu; }
};

const char* VectorAdd = "kernel void vadd(global const float *a, global const float *b,\n"
                        "                 global float *c) {\n"
                        "  size_t i = get_global_id(0);\n"
                        "  c[i] = a[i] + b[i];\n"
                        "}\n";

} // namespace

TEST_CASE("compile time of a vector add", "[compiler][timing]") {
    for (int Round = 0; Round < 3; ++Round) {
        Clock BuildClock;
        kc::BuildResult R = kctest::compiler().build(VectorAdd, "");
        double BuildWall = BuildClock.wall(), BuildCpu = BuildClock.cpu();
        REQUIRE(R.Output);
        Clock JitClock;
        auto Program = kctest::jit(*R.Output);
        double JitWall = JitClock.wall(), JitCpu = JitClock.cpu();
        std::printf("vector add, %s: build %.1f ms (cpu %.1f), native code %.1f ms (cpu %.1f), "
                    "total %.1f ms (cpu %.1f)\n",
                    Round == 0 ? "cold" : "again", BuildWall, BuildCpu, JitWall, JitCpu,
                    BuildWall + JitWall, BuildCpu + JitCpu);
        CHECK(BuildCpu + JitCpu < 2000);
    }
}

TEST_CASE("native code from the on-disk cache", "[compiler][timing]") {
    char Dir[] = "/tmp/kc-timing-XXXXXX";
    REQUIRE(mkdtemp(Dir));
    kc::CodeCache Cache{true, Dir};
    kc::BuildResult R = kctest::compiler().build(VectorAdd, "");
    REQUIRE(R.Output);
    for (const char* What : {"miss", "hit"}) {
        Clock C;
        std::string Error;
        auto Program = kc::createNativeProgram(*R.Output, Cache, Error);
        REQUIRE(Program);
        std::printf("vector add, cache %s: native code %.1f ms (cpu %.1f)\n", What, C.wall(),
                    C.cpu());
    }
    std::filesystem::remove_all(Dir);
}
