// Helpers of the kernel compiler's unit tests.
#pragma once

#include "CodeGen/CodeGen.h"
#include "kc/Compiler.h"

#include <catch2/catch.hpp>

#include <array>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace kctest {

// What a full-profile OpenCL 3.0 CPU device reports.
inline kc::DeviceTarget cpuTarget() {
    kc::DeviceTarget Target;
    Target.Extensions = {"cl_khr_fp64",
                         "cl_khr_global_int32_base_atomics",
                         "cl_khr_global_int32_extended_atomics",
                         "cl_khr_local_int32_base_atomics",
                         "cl_khr_local_int32_extended_atomics",
                         "cl_khr_int64_base_atomics",
                         "cl_khr_int64_extended_atomics",
                         "cl_khr_byte_addressable_store"};
    Target.OpenCLCFeatures = {"__opencl_c_int64",
                              "__opencl_c_fp64",
                              "__opencl_c_atomic_order_acq_rel",
                              "__opencl_c_atomic_order_seq_cst",
                              "__opencl_c_atomic_scope_device",
                              "__opencl_c_atomic_scope_all_devices",
                              "__opencl_c_program_scope_global_variables",
                              "__opencl_c_generic_address_space"};
    Target.Fp64 = true;
    return Target;
}

// A fixed AVX-512 CPU, whatever this machine is, for checks of the IR the
// vectorizer makes (nothing runs it).
inline kc::HostTarget avx512Host() {
    kc::HostTarget Host = kc::detectHostTarget();
    Host.CPU = "znver4";
    Host.Features = "";
    return Host;
}

inline const kc::Compiler& compiler() {
    static const kc::Compiler C(cpuTarget());
    return C;
}

// Builds Source into an executable; fails the test with the log otherwise.
inline std::unique_ptr<kc::Module> build(const std::string& Source,
                                         const std::string& Options = "") {
    kc::BuildResult R = compiler().build(Source, Options);
    INFO(R.Log);
    REQUIRE(R.Output);
    return std::move(R.Output);
}

// Compiles Source into an object and links it alone into an executable
// with LinkOptions; fails the test with the log otherwise.
inline std::unique_ptr<kc::Module> compileAndLink(const std::string& Source,
                                                  const std::string& LinkOptions) {
    kc::BuildResult Object = compiler().compile(Source, "", {});
    INFO(Object.Log);
    REQUIRE(Object.Output);
    const kc::Module* Inputs[] = {Object.Output.get()};
    kc::BuildResult Linked = compiler().link(Inputs, LinkOptions);
    INFO(Linked.Log);
    REQUIRE(Linked.Output);
    return std::move(Linked.Output);
}

inline const kc::KernelInfo& kernel(const kc::Module& M, const std::string& Name) {
    for (const kc::KernelInfo& K : M.kernels())
        if (K.Name == Name)
            return K;
    FAIL("no kernel " << Name);
    throw 0;
}

// Packs arguments into the buffer layout KernelInfo describes.
class ArgBuffer {
public:
    explicit ArgBuffer(const kc::KernelInfo& K) : Info(K), Bytes(K.ArgBufferSize) {}

    template <typename T>
    ArgBuffer& set(unsigned Index, const T& Value) {
        REQUIRE(Index < Info.Args.size());
        REQUIRE(sizeof(T) <= Info.Args[Index].Size);
        std::memcpy(Bytes.data() + Info.Args[Index].Offset, &Value, sizeof(T));
        return *this;
    }
    const char* data() const { return Bytes.data(); }

private:
    const kc::KernelInfo& Info;
    std::vector<char> Bytes;
};

// Runs every work-group of an NDRange the way the driver does.
inline void runNDRange(kc::WorkGroupFunction Fn, const ArgBuffer& Args, unsigned Dims,
                       std::array<uint64_t, 3> Global, std::array<uint64_t, 3> Local,
                       std::array<uint64_t, 3> Offset = {0, 0, 0}, size_t LocalMemory = 0) {
    REQUIRE(Fn);
    kc::LaunchContext Ctx{};
    Ctx.WorkDim = Dims;
    alignas(128) static thread_local char Arena[64 * 1024];
    REQUIRE(LocalMemory <= sizeof(Arena));
    Ctx.LocalMemory = Arena;
    for (unsigned D = 0; D < 3; ++D) {
        if (D >= Dims) {
            Global[D] = 1;
            Local[D] = 1;
            Offset[D] = 0;
        }
        Ctx.GlobalSize[D] = Global[D];
        Ctx.GlobalOffset[D] = Offset[D];
        Ctx.EnqueuedLocalSize[D] = Local[D];
        Ctx.NumGroups[D] = (Global[D] + Local[D] - 1) / Local[D];
    }
    for (uint64_t Z = 0; Z < Ctx.NumGroups[2]; ++Z)
        for (uint64_t Y = 0; Y < Ctx.NumGroups[1]; ++Y)
            for (uint64_t X = 0; X < Ctx.NumGroups[0]; ++X) {
                uint64_t Group[3] = {X, Y, Z};
                for (unsigned D = 0; D < 3; ++D) {
                    Ctx.GroupId[D] = Group[D];
                    uint64_t Start = Group[D] * Local[D];
                    Ctx.LocalSize[D] = std::min(Local[D], Global[D] - Start);
                }
                Fn(Args.data(), &Ctx);
            }
}

// A folder of its own under /tmp (an on-disk cache), removed with it.
struct TempDir {
    std::filesystem::path Path;
    TempDir() {
        char Name[] = "/tmp/kc-test-XXXXXX";
        REQUIRE(mkdtemp(Name));
        Path = Name;
    }
    ~TempDir() { std::filesystem::remove_all(Path); }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
};

inline std::unique_ptr<kc::NativeProgram> jit(const kc::Module& M) {
    std::string Error;
    auto P = kc::createNativeProgram(M, kc::CodeCache{}, Error);
    INFO(Error);
    REQUIRE(P);
    return P;
}

} // namespace kctest
