// SPIR-V programs under stress and bad input, through the ICD loader: the
// errors of clCreateProgramWithIL, malformed and corrupted modules,
// concurrent builds.
#include "spirv_test.hpp"

#include <cmath>
#include <cstdlib>
#include <numeric>
#include <random>
#include <thread>

using namespace spirv_test;

TEST_CASE("clCreateProgramWithIL rejects bad arguments and malformed modules", "[spirv]") {
    Fixture f;
    REQUIRE(il_supported(f.device));
    const std::string good = spirv_module("kernels");
    auto create_error = [&](cl_context context, const void* il, size_t length) {
        cl_int error = CL_SUCCESS;
        cl_program program = clCreateProgramWithIL(context, il, length, &error);
        CHECK(program == nullptr);
        if (program)
            clReleaseProgram(program);
        return error;
    };
    auto with_word = [&](size_t index, uint32_t value) {
        std::string bytes = good;
        std::memcpy(bytes.data() + 4 * index, &value, 4);
        return bytes;
    };

    SECTION("arguments") {
        CHECK_CL(create_error(nullptr, good.data(), good.size()), CL_INVALID_CONTEXT);
        CHECK_CL(create_error(f.ctx(), nullptr, good.size()), CL_INVALID_VALUE);
        CHECK_CL(create_error(f.ctx(), good.data(), 0), CL_INVALID_VALUE);
        // errcode_ret may be NULL.
        CHECK(clCreateProgramWithIL(f.ctx(), nullptr, 4, nullptr) == nullptr);
    }
    SECTION("malformed headers and instruction streams are CL_INVALID_VALUE") {
        // Not a multiple of 4 bytes, or cut inside the header.
        CHECK_CL(create_error(f.ctx(), good.data(), good.size() - 1), CL_INVALID_VALUE);
        CHECK_CL(create_error(f.ctx(), good.data(), 12), CL_INVALID_VALUE);
        // OpenCL C source is not SPIR-V.
        const std::string source = kernel_source("kernels");
        CHECK_CL(create_error(f.ctx(), source.data(), source.size() & ~size_t{3}),
                 CL_INVALID_VALUE);
        // Wrong magic, SPIR-V 2.0 and 1.7, a non-zero schema, a zero id bound.
        for (const std::string& bad : {with_word(0, 0x07230204), with_word(1, 0x00020000),
                                       with_word(1, 0x00010700), with_word(4, 1), with_word(3, 0)})
            CHECK_CL(create_error(f.ctx(), bad.data(), bad.size()), CL_INVALID_VALUE);
        // The first instruction's word count runs past the end / is zero.
        CHECK_CL(create_error(f.ctx(), with_word(5, 0xFFFF0011).data(), good.size()),
                 CL_INVALID_VALUE);
        CHECK_CL(create_error(f.ctx(), with_word(5, 0x00000011).data(), good.size()),
                 CL_INVALID_VALUE);
        // The module ends in the middle of an instruction (OpCapability
        // has two words).
        CHECK_CL(create_error(f.ctx(), good.data(), 24), CL_INVALID_VALUE);
    }
    SECTION("a module in the other byte order is accepted") {
        std::string swapped = good;
        for (size_t i = 0; i < swapped.size(); i += 4)
            std::reverse(swapped.begin() + static_cast<std::ptrdiff_t>(i),
                         swapped.begin() + static_cast<std::ptrdiff_t>(i + 4));
        ProgramPtr program = create_il_program(f.ctx(), swapped);
        build(program.get(), f.device);
        CHECK(kernel_names(program.get()).count("arith") == 1);
    }
    SECTION("a module the reader rejects fails the build with its diagnostics") {
        // A well-formed stream whose first instruction (OpCapability) has an
        // unknown opcode.
        uint32_t first = 0;
        std::memcpy(&first, good.data() + 20, 4);
        const std::string bad = with_word(5, (first & 0xFFFF0000u) | 0x7FFFu);
        ProgramPtr program = create_il_program(f.ctx(), bad);
        CHECK_CL(clBuildProgram(program.get(), 1, &f.device, nullptr, nullptr, nullptr),
                 CL_BUILD_PROGRAM_FAILURE);
        CHECK(build_status(program.get(), f.device) == CL_BUILD_ERROR);
        const std::string log = build_log(program.get(), f.device);
        INFO(log);
        // The reader names the opcode.
        CHECK(log.find("unknown SPIR-V opcode 32767") != std::string::npos);
        CHECK_CL(clCompileProgram(program.get(), 1, &f.device, nullptr, 0, nullptr, nullptr,
                                  nullptr, nullptr),
                 CL_COMPILE_PROGRAM_FAILURE);
    }
    SECTION("invalid build options") {
        ProgramPtr program = create_il_program(f.ctx(), good);
        CHECK_CL(clBuildProgram(program.get(), 1, &f.device, "-no-such-option", nullptr, nullptr),
                 CL_INVALID_BUILD_OPTIONS);
        // -cl-opt-disable and the math options apply.
        build(program.get(), f.device, "-cl-opt-disable -cl-fast-relaxed-math");
    }
}

TEST_CASE("built-in variables read as DPC++ 2025 reads them", "[spirv]") {
    // dpcpp_builtins.spvasm: OpBitcast of a vector built-in to a scalar
    // pointer then OpLoad, access chains into built-ins, whole-vector loads.
    Fixture f;
    REQUIRE(il_supported(f.device));
    ProgramPtr program = build_il_program(f, "dpcpp_builtins");
    KernelPtr kernel = make_kernel(program.get(), "dpcpp_ids");
    const size_t global[2] = {16, 4}, local[2] = {4, 2};
    MemPtr out = make_buffer(f.ctx(), std::vector<cl_ulong>(4 * 16 * 4, 12345));
    set_arg(kernel.get(), 0, out);
    REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), kernel.get(), 2, nullptr, global, local, 0, nullptr,
                                      nullptr));
    const std::vector<cl_ulong> got = read_buffer<cl_ulong>(f.q(), out.get(), 4 * 16 * 4);
    for (size_t y = 0; y < 4; ++y)
        for (size_t x = 0; x < 16; ++x) {
            const size_t at = 4 * (y * 16 + x);
            INFO("work-item " << x << ", " << y);
            CHECK(got[at] == x / 4);     // WorkgroupId x
            CHECK(got[at + 1] == y % 2); // LocalInvocationId y
            CHECK(got[at + 2] == 4);     // WorkgroupSize x
            CHECK(got[at + 3] == y);     // GlobalInvocationId y
        }
}

TEST_CASE("a kernel written as SYCL compilers write it", "[spirv]") {
    // __spirv_BuiltIn* variables, __spirv_ControlBarrier, __spirv_AtomicIAdd
    // and __spirv_ocl_sqrt/fma in the LLVM IR the module was made from.
    Fixture f;
    REQUIRE(il_supported(f.device));
    ProgramPtr program = build_il_program(f, "sycl_style");
    KernelPtr kernel = make_kernel(program.get(), "sycl_style");
    CHECK(arg_info_string(kernel.get(), 0, CL_KERNEL_ARG_NAME) == "out");
    CHECK(arg_info<cl_kernel_arg_address_qualifier>(
              kernel.get(), 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER) == CL_KERNEL_ARG_ADDRESS_LOCAL);
    const size_t n = 256, local = 32;
    MemPtr out = make_buffer<float>(f.ctx(), n);
    const std::vector<cl_int> zero(1, 0);
    MemPtr count = make_buffer(f.ctx(), zero);
    set_arg(kernel.get(), 0, out);
    set_arg(kernel.get(), 1, count);
    set_local_arg(kernel.get(), 2, local * sizeof(float));
    run_1d(f.q(), kernel.get(), n, local);
    const std::vector<float> result = read_buffer<float>(f.q(), out.get(), n);
    for (size_t i = 0; i < n; ++i) {
        const size_t from = (i / local) * local + local - 1 - i % local;
        INFO("i = " << i);
        CHECK(close(result[i], std::sqrt(static_cast<float>(from)) * 2.0f + 1.0f));
    }
    CHECK(read_buffer<cl_int>(f.q(), count.get(), 1)[0] == static_cast<cl_int>(n));
}

TEST_CASE("SPIR-V programs build concurrently", "[spirv]") {
    // Each thread translates its own copy with its own constant; nothing of
    // one translation (memfds, child process) is seen by another.
    Fixture f;
    REQUIRE(il_supported(f.device));
    const std::string il = spirv_module("spec_constants");
    constexpr int threads = 4;
    std::vector<ProgramPtr> programs;
    for (int t = 0; t < threads; ++t) {
        programs.push_back(create_il_program(f.ctx(), il));
        const cl_int factor = 10 + t;
        REQUIRE_OK(
            clSetProgramSpecializationConstant(programs.back().get(), 20, sizeof factor, &factor));
    }
    std::vector<cl_int> results(threads, CL_OUT_OF_RESOURCES);
    std::vector<std::thread> builders;
    for (int t = 0; t < threads; ++t)
        builders.emplace_back([&, t] {
            results[t] = clBuildProgram(programs[t].get(), 1, &f.device, nullptr, nullptr, nullptr);
        });
    for (std::thread& builder : builders)
        builder.join();
    const std::vector<cl_int> in = {1, -2, 3, 100};
    MemPtr input = make_buffer(f.ctx(), in);
    for (int t = 0; t < threads; ++t) {
        INFO("thread " << t);
        REQUIRE_OK(results[t]);
        KernelPtr kernel = make_kernel(programs[t].get(), "scaled");
        MemPtr out = make_buffer<cl_int>(f.ctx(), in.size());
        set_arg(kernel.get(), 0, input);
        set_arg(kernel.get(), 1, out);
        run_1d(f.q(), kernel.get(), in.size());
        const std::vector<cl_int> got = read_buffer<cl_int>(f.q(), out.get(), in.size());
        for (size_t k = 0; k < in.size(); ++k)
            CHECK(got[k] == (10 + t) * in[k]);
    }
}

TEST_CASE("corrupted SPIR-V is rejected or fails to build, never crashes", "[spirv]") {
    // Words of a valid module changed at random (fixed seed): creation
    // answers CL_INVALID_VALUE or succeeds, the build succeeds or fails
    // with CL_BUILD_PROGRAM_FAILURE and a log.
    Fixture f;
    REQUIRE(il_supported(f.device));
    const std::string good = spirv_module("kernels");
    std::mt19937 random(12345);
    const size_t words = good.size() / 4;
    for (int attempt = 0; attempt < 40; ++attempt) {
        std::string bad = good;
        const int changes = 1 + static_cast<int>(random() % 3);
        for (int k = 0; k < changes; ++k) {
            const size_t word = 5 + random() % (words - 5);
            uint32_t value = 0;
            std::memcpy(&value, bad.data() + 4 * word, 4);
            value = random() % 2 ? value ^ (1u << (random() % 32))
                                 : static_cast<uint32_t>(random() % 200);
            std::memcpy(bad.data() + 4 * word, &value, 4);
        }
        INFO("attempt " << attempt);
        cl_int error = CL_OUT_OF_RESOURCES;
        ProgramPtr program(clCreateProgramWithIL(f.ctx(), bad.data(), bad.size(), &error));
        if (!program) {
            CHECK_CL(error, CL_INVALID_VALUE);
            continue;
        }
        REQUIRE_OK(error);
        const cl_int built = clBuildProgram(program.get(), 1, &f.device, nullptr, nullptr, nullptr);
        if (built == CL_SUCCESS)
            continue;
        CHECK_CL(built, CL_BUILD_PROGRAM_FAILURE);
        CHECK(!build_log(program.get(), f.device).empty());
    }
}
