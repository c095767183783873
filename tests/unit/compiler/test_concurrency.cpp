// Builds from several threads at once, and the on-disk cache.
#include "compiler_test.hpp"

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>
#include <unistd.h>

namespace {

std::string kernelSource(int Variant) {
    return "kernel void scale(global float *p, local float *t) {\n"
           "  size_t l = get_local_id(0);\n"
           "  t[l] = p[get_global_id(0)] * " +
           std::to_string(Variant) +
           ".0f;\n"
           "  barrier(CLK_LOCAL_MEM_FENCE);\n"
           "  p[get_global_id(0)] = t[get_local_size(0) - 1 - l] + sqrt(4.0f);\n"
           "}\n";
}

// Builds, JIT-compiles and runs variant V; true when the results are right.
bool buildAndRun(const kc::Compiler& C, int Variant, const kc::CodeCache& Cache) {
    kc::BuildResult R = C.build(kernelSource(Variant), "-cl-std=CL3.0");
    if (!R.Output)
        return false;
    std::string Error;
    auto Program = kc::createNativeProgram(*R.Output, Cache, Error);
    if (!Program)
        return false;
    const kc::KernelInfo& K = R.Output->kernels()[0];
    std::vector<char> Args(K.ArgBufferSize);
    std::vector<float> Data(64);
    for (size_t I = 0; I < Data.size(); ++I)
        Data[I] = static_cast<float>(I);
    float* Pointer = Data.data();
    std::memcpy(Args.data() + K.Args[0].Offset, &Pointer, sizeof(Pointer));
    uint64_t LocalOffset = 0;
    std::memcpy(Args.data() + K.Args[1].Offset, &LocalOffset, sizeof(LocalOffset));
    alignas(128) char Arena[1024];
    kc::LaunchContext Ctx{};
    Ctx.WorkDim = 1;
    for (int D = 0; D < 3; ++D) {
        Ctx.GlobalSize[D] = D ? 1 : 64;
        Ctx.EnqueuedLocalSize[D] = Ctx.LocalSize[D] = D ? 1 : 16;
        Ctx.NumGroups[D] = D ? 1 : 4;
    }
    Ctx.LocalMemory = Arena;
    kc::WorkGroupFunction Fn = Program->lookup("scale");
    for (uint64_t G = 0; G < 4; ++G) {
        Ctx.GroupId[0] = G;
        Fn(Args.data(), &Ctx);
    }
    for (size_t I = 0; I < Data.size(); ++I) {
        size_t Mirror = I / 16 * 16 + 15 - I % 16;
        if (Data[I] != static_cast<float>(Mirror) * static_cast<float>(Variant) + 2.0f)
            return false;
    }
    return true;
}

} // namespace

TEST_CASE("builds from four threads at once", "[compiler][concurrency]") {
    kc::Compiler C(kctest::cpuTarget());
    std::atomic<int> Failures{0};
    std::vector<std::thread> Threads;
    for (int T = 0; T < 4; ++T)
        Threads.emplace_back([&, T] {
            for (int Round = 0; Round < 3; ++Round)
                if (!buildAndRun(C, T * 10 + Round + 1, kc::CodeCache{}))
                    ++Failures;
        });
    for (std::thread& T : Threads)
        T.join();
    CHECK(Failures == 0);
}

TEST_CASE("the on-disk cache: hits, misses, corrupted files", "[compiler][cache]") {
    kctest::TempDir Dir;
    kc::CodeCache Cache{true, (Dir.Path / "sub").string()};
    kc::Compiler C(kctest::cpuTarget());
    auto Entries = [&] {
        std::vector<std::filesystem::path> Files;
        if (std::filesystem::exists(Cache.Directory))
            for (const auto& E : std::filesystem::directory_iterator(Cache.Directory))
                Files.push_back(E.path());
        return Files;
    };

    REQUIRE(buildAndRun(C, 3, Cache)); // a miss: compiled and stored
    auto Files = Entries();
    REQUIRE(Files.size() == 1);
    CHECK(Files[0].extension() == ".kco");
    auto Written = std::filesystem::last_write_time(Files[0]);

    REQUIRE(buildAndRun(C, 3, Cache)); // a hit: read back, not rewritten
    CHECK(Entries().size() == 1);
    CHECK(std::filesystem::last_write_time(Files[0]) == Written);

    REQUIRE(buildAndRun(C, 4, Cache)); // another program, another entry
    CHECK(Entries().size() == 2);

    // A corrupted entry is ignored (and replaced), never run.
    {
        std::fstream F(Files[0], std::ios::in | std::ios::out | std::ios::binary);
        F.seekp(200);
        F.write("garbage!", 8);
    }
    REQUIRE(buildAndRun(C, 3, Cache));
    std::filesystem::resize_file(Files[0], 100); // truncated
    REQUIRE(buildAndRun(C, 3, Cache));
    CHECK(std::filesystem::file_size(Files[0]) > 100);

    // Four threads on the same entries.
    std::atomic<int> Failures{0};
    std::vector<std::thread> Threads;
    for (int T = 0; T < 4; ++T)
        Threads.emplace_back([&, T] {
            if (!buildAndRun(C, 5 + T % 2, Cache))
                ++Failures;
        });
    for (std::thread& T : Threads)
        T.join();
    CHECK(Failures == 0);
    for (const auto& F : Entries())
        CHECK(F.extension() == ".kco"); // no temporary left behind

    // A disabled cache neither reads nor writes.
    kc::CodeCache Off{false, (Dir.Path / "off").string()};
    REQUIRE(buildAndRun(C, 3, Off));
    CHECK_FALSE(std::filesystem::exists(Off.Directory));
}
