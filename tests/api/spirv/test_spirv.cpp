// SPIR-V programs through the ICD loader: clCreateProgramWithIL and
// cl_khr_il_program's clCreateProgramWithILKHR, CL_PROGRAM_IL, the device's
// IL queries, specialization constants, linking, USM pointer arguments and
// the errors. The modules were made at build time from the .cl files of this
// folder with clang-15 -target spir64 and llvm-spirv-15; each kernel's
// results are compared with a host reference and with the same kernel built
// from source by usmcl.
#include "kernel_test.hpp"

#include <CL/cl_ext.h>

#include <cmath>
#include <csignal>
#include <fstream>
#include <iterator>
#include <numeric>
#include <random>
#include <thread>

using namespace kernel_test;

namespace {

std::string read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    INFO(path);
    REQUIRE(file.good());
    return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

// A module made at build time (SPIRV_DIR/<name>.spv).
std::string spirv_module(const std::string& name) {
    return read_file(std::string(SPIRV_DIR) + "/" + name + ".spv");
}

// The OpenCL C the module was made from.
std::string kernel_source(const std::string& name) {
    return read_file(std::string(SPIRV_SOURCE_DIR) + "/" + name + ".cl");
}

bool il_supported(cl_device_id device) {
    return !cl_test::device_info_string(device, CL_DEVICE_IL_VERSION).empty();
}

ProgramPtr create_il_program(cl_context context, const std::string& il) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &error);
    REQUIRE_OK(error);
    REQUIRE(program != nullptr);
    return ProgramPtr(program);
}

ProgramPtr build_il_program(const Fixture& f, const std::string& name,
                            const char* options = nullptr) {
    ProgramPtr program = create_il_program(f.ctx(), spirv_module(name));
    build(program.get(), f.device, options);
    return program;
}

// The same kernels from SPIR-V and from source, built for the fixture's device.
struct ProgramPair {
    ProgramPtr from_il;
    ProgramPtr from_source;
};

ProgramPair both_programs(const Fixture& f, const std::string& name,
                          const char* source_options = nullptr) {
    return {build_il_program(f, name), f.build(kernel_source(name), source_options)};
}

std::vector<float> float_inputs(size_t count, float start, float step) {
    std::vector<float> values(count);
    for (size_t i = 0; i < count; ++i)
        values[i] = start + step * static_cast<float>(i);
    return values;
}

bool close(float a, float b) {
    return std::fabs(a - b) <= 1e-4f * std::max(1.0f, std::fabs(b));
}

#define SKIP_WITHOUT_IL(device)                                                                    \
    if (!il_supported(device)) {                                                                   \
        WARN("the device takes no SPIR-V (no llvm-spirv)");                                        \
        return;                                                                                    \
    }

} // namespace

TEST_CASE("the device reports SPIR-V 1.0 to 1.4 and cl_khr_il_program", "[spirv]") {
    cl_device_id device = cl_test::device();
    SKIP_WITHOUT_IL(device);
    const std::string versions = cl_test::device_info_string(device, CL_DEVICE_IL_VERSION);
    CHECK(versions == "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4");
    const auto ils =
        cl_test::device_info_array<cl_name_version>(device, CL_DEVICE_ILS_WITH_VERSION);
    REQUIRE(ils.size() == 5);
    for (cl_uint i = 0; i < ils.size(); ++i) {
        CHECK(std::string(ils[i].name) == "SPIR-V");
        CHECK(ils[i].version == CL_MAKE_VERSION(1, i, 0));
    }
    const auto extensions =
        cl_test::split_words(cl_test::device_info_string(device, CL_DEVICE_EXTENSIONS));
    CHECK(std::find(extensions.begin(), extensions.end(), "cl_khr_il_program") != extensions.end());
}

// Runs body(program) for the program from SPIR-V and the one from source;
// body returns what the kernel wrote. Both must agree exactly (the same
// builtins, the same code generation).
template <class Body>
auto both_results(const ProgramPair& programs, Body&& body) {
    auto from_il = body(programs.from_il.get());
    auto from_source = body(programs.from_source.get());
    CHECK(from_il == from_source);
    return from_il;
}

TEST_CASE("SPIR-V kernels give the results of the same kernels from source", "[spirv]") {
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
    ProgramPair programs = both_programs(f, "kernels");
    CHECK(kernel_names(programs.from_il.get()) == kernel_names(programs.from_source.get()));
    CHECK(program_info<size_t>(programs.from_il.get(), CL_PROGRAM_NUM_KERNELS) == 7);
    CHECK(binary_type(programs.from_il.get(), f.device) == CL_PROGRAM_BINARY_TYPE_EXECUTABLE);

    SECTION("arithmetic on floats") {
        const size_t n = 256;
        const std::vector<float> a = float_inputs(n, -3.0f, 0.25f);
        const std::vector<float> b = float_inputs(n, 7.0f, -0.5f);
        MemPtr in_a = make_buffer(f.ctx(), a);
        MemPtr in_b = make_buffer(f.ctx(), b);
        const std::vector<float> out = both_results(programs, [&](cl_program program) {
            KernelPtr kernel = make_kernel(program, "arith");
            MemPtr result = make_buffer<float>(f.ctx(), n);
            set_arg(kernel.get(), 0, in_a);
            set_arg(kernel.get(), 1, in_b);
            set_arg(kernel.get(), 2, result);
            set_arg(kernel.get(), 3, 1.5f);
            set_arg(kernel.get(), 4, cl_int{4});
            run_1d(f.q(), kernel.get(), n);
            return read_buffer<float>(f.q(), result.get(), n);
        });
        for (size_t i = 0; i < n; ++i) {
            INFO("i = " << i);
            CHECK(close(out[i], a[i] * 1.5f + b[i] - 4.0f + static_cast<float>(i % 7)));
        }
    }

    SECTION("integer operations and integer builtins") {
        const size_t n = 200;
        std::vector<cl_int> a(n);
        for (size_t i = 0; i < n; ++i)
            a[i] = static_cast<cl_int>(i * 37) - 3000;
        MemPtr in = make_buffer(f.ctx(), a);
        const std::vector<cl_int> out = both_results(programs, [&](cl_program program) {
            KernelPtr kernel = make_kernel(program, "int_ops");
            MemPtr result = make_buffer<cl_int>(f.ctx(), n);
            set_arg(kernel.get(), 0, in);
            set_arg(kernel.get(), 1, result);
            set_arg(kernel.get(), 2, cl_uint{3});
            run_1d(f.q(), kernel.get(), n);
            return read_buffer<cl_int>(f.q(), result.get(), n);
        });
        for (size_t i = 0; i < n; ++i) {
            const int x = a[i];
            const int expected =
                static_cast<int>((static_cast<unsigned>(x) << 3) ^ static_cast<unsigned>(x >> 1)) +
                x / 3 - x % 5 + std::abs(x) + std::min(x, 17) + std::max(x, -4) +
                std::clamp(x, -10, 10) + __builtin_popcount(static_cast<unsigned>(x));
            INFO("x = " << x);
            CHECK(out[i] == expected);
        }
    }

    SECTION("barriers and __local arguments") {
        const size_t n = 512, local = 64;
        std::vector<cl_int> in(n);
        std::iota(in.begin(), in.end(), -100);
        MemPtr input = make_buffer(f.ctx(), in);
        const std::vector<cl_int> sums = both_results(programs, [&](cl_program program) {
            KernelPtr kernel = make_kernel(program, "group_sum");
            MemPtr result = make_buffer<cl_int>(f.ctx(), n / local);
            set_arg(kernel.get(), 0, input);
            set_arg(kernel.get(), 1, result);
            set_local_arg(kernel.get(), 2, local * sizeof(cl_int));
            run_1d(f.q(), kernel.get(), n, local);
            return read_buffer<cl_int>(f.q(), result.get(), n / local);
        });
        for (size_t g = 0; g < n / local; ++g)
            CHECK(sums[g] ==
                  std::accumulate(in.begin() + g * local, in.begin() + (g + 1) * local, 0));
    }

    SECTION("a __local array declared in the kernel") {
        const size_t n = 256, local = 64;
        std::vector<cl_int> in(n);
        std::iota(in.begin(), in.end(), 0);
        MemPtr input = make_buffer(f.ctx(), in);
        const std::vector<cl_int> out = both_results(programs, [&](cl_program program) {
            KernelPtr kernel = make_kernel(program, "reverse_in_group");
            MemPtr result = make_buffer<cl_int>(f.ctx(), n);
            set_arg(kernel.get(), 0, input);
            set_arg(kernel.get(), 1, result);
            run_1d(f.q(), kernel.get(), n, local);
            return read_buffer<cl_int>(f.q(), result.get(), n);
        });
        for (size_t i = 0; i < n; ++i)
            CHECK(out[i] == static_cast<cl_int>((i / local) * local + local - 1 - i % local));
    }

    SECTION("atomics on global and local memory") {
        const size_t n = 1024, local = 32;
        const std::vector<cl_int> out = both_results(programs, [&](cl_program program) {
            KernelPtr kernel = make_kernel(program, "atomics");
            const std::vector<cl_int> zeros(4, 0);
            MemPtr counters = make_buffer(f.ctx(), zeros);
            set_arg(kernel.get(), 0, counters);
            run_1d(f.q(), kernel.get(), n, local);
            return read_buffer<cl_int>(f.q(), counters.get(), 4);
        });
        CHECK(out[0] == static_cast<cl_int>(n));
        CHECK(out[1] == static_cast<cl_int>(n * (n - 1) / 2));
        CHECK(out[2] == static_cast<cl_int>(n - 1));
        CHECK(out[3] == static_cast<cl_int>(n / local));
    }

    SECTION("math builtins") {
        const size_t n = 128;
        const std::vector<float> x = float_inputs(n, 0.05f, 0.37f);
        MemPtr input = make_buffer(f.ctx(), x);
        const std::vector<float> out = both_results(programs, [&](cl_program program) {
            KernelPtr kernel = make_kernel(program, "math");
            MemPtr result = make_buffer<float>(f.ctx(), 4 * n);
            set_arg(kernel.get(), 0, input);
            set_arg(kernel.get(), 1, result);
            run_1d(f.q(), kernel.get(), n);
            return read_buffer<float>(f.q(), result.get(), 4 * n);
        });
        for (size_t i = 0; i < n; ++i) {
            const double v = x[i];
            INFO("v = " << v);
            CHECK(close(out[4 * i + 0],
                        static_cast<float>(std::sqrt(v) + std::sin(v) * std::cos(v))));
            CHECK(close(out[4 * i + 1], static_cast<float>(std::exp(-v) + std::log(v + 1.0))));
            CHECK(close(out[4 * i + 2], static_cast<float>(std::pow(v, 1.5) + (v * 2.0 + 1.0))));
            CHECK(close(out[4 * i + 3],
                        static_cast<float>(std::floor(x[i] * 3.3f) + v + std::atan2(v, 2.0))));
        }
    }

    SECTION("vectors") {
        const size_t n = 64;
        const std::vector<float> a = float_inputs(4 * n, -2.0f, 0.125f);
        MemPtr input = make_buffer(f.ctx(), a);
        const cl_float4 k = {{0.5f, -1.0f, 2.0f, 0.25f}};
        const std::vector<float> out = both_results(programs, [&](cl_program program) {
            KernelPtr kernel = make_kernel(program, "vectors");
            MemPtr result = make_buffer<float>(f.ctx(), 4 * n);
            set_arg(kernel.get(), 0, input);
            set_arg(kernel.get(), 1, result);
            set_arg(kernel.get(), 2, k);
            run_1d(f.q(), kernel.get(), n);
            return read_buffer<float>(f.q(), result.get(), 4 * n);
        });
        for (size_t i = 0; i < n; ++i) {
            const float* v = &a[4 * i];
            float d = 0;
            for (int c = 0; c < 4; ++c)
                d += v[c] * k.s[c];
            float r[4];
            for (int c = 0; c < 4; ++c)
                r[c] = v[c] * k.s[c] + d;
            std::swap(r[0], r[1]);
            for (int c = 0; c < 4; ++c) {
                INFO("i = " << i << ", c = " << c);
                CHECK(close(out[4 * i + c], r[c] + v[c] * 0.5f));
            }
        }
    }
}

TEST_CASE("builtins with private pointers, wide and narrow vectors, conversions", "[spirv]") {
    // The calls whose SPIR-V names or host ABI differ most from the builtin
    // library's: both programs must compute exactly the same.
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
    ProgramPair programs = both_programs(f, "builtins");
    const size_t n = 48;
    const std::vector<float> x = float_inputs(3 * n, 0.3f, 0.061f);
    MemPtr input = make_buffer(f.ctx(), x);
    const std::vector<float> out = both_results(programs, [&](cl_program program) {
        KernelPtr kernel = make_kernel(program, "builtins");
        MemPtr result = make_buffer<float>(f.ctx(), 16 * n);
        set_arg(kernel.get(), 0, input);
        set_arg(kernel.get(), 1, result);
        run_1d(f.q(), kernel.get(), n);
        return read_buffer<float>(f.q(), result.get(), 16 * n);
    });
    // A few host references on top of the comparison.
    for (size_t i = 0; i < n; ++i) {
        const double v = x[i];
        INFO("i = " << i);
        CHECK(close(out[16 * i + 0], static_cast<float>(std::sin(v) + 2.0 * std::cos(v))));
        CHECK(close(out[16 * i + 8], static_cast<float>(std::cbrt(v) + std::hypot(v, 2.0))));
        CHECK(out[16 * i + 11] ==
              static_cast<float>(static_cast<cl_int>((static_cast<cl_uint>(i) << 16) | (i * 3))));
        for (int c = 0; c < 3; ++c)
            CHECK(out[16 * i + 12 + c] == 2.0f * x[3 * i + c]);
    }
}

TEST_CASE("C11-style atomics on generic pointers from SPIR-V", "[spirv]") {
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
    ProgramPair programs = both_programs(f, "c11_atomics", "-cl-std=CL3.0");
    const size_t n = 256, local = 32, groups = n / local;
    const std::vector<cl_int> out = both_results(programs, [&](cl_program program) {
        KernelPtr kernel = make_kernel(program, "c11_atomics");
        std::vector<cl_int> init(7 + groups, 0);
        init[2] = 0x1234;
        MemPtr counters = make_buffer(f.ctx(), init);
        set_arg(kernel.get(), 0, counters);
        run_1d(f.q(), kernel.get(), n, local);
        return read_buffer<cl_int>(f.q(), counters.get(), init.size());
    });
    CHECK(out[0] == 5);
    CHECK(out[1] == 7);
    CHECK(out[2] == 0x34);
    CHECK(out[3] == 0xff);
    CHECK(out[4] == -static_cast<cl_int>(n));
    CHECK(out[5] == 9);
    CHECK(out[6] == 3);
    for (size_t g = 0; g < groups; ++g)
        CHECK(out[7 + g] == static_cast<cl_int>(g * local + 3));
}

TEST_CASE("build options of SPIR-V programs: work-group rule and denormals", "[spirv]") {
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
    // arith: out[i] = a[i] * scale + b[i] - bias + i % 7.
    const size_t n = 100; // not a multiple of the local size 16
    std::vector<float> a(n, 1.0f);
    a[0] = 1e-40f; // a denormal
    const std::vector<float> b(n, 0.0f);
    MemPtr in_a = make_buffer(f.ctx(), a);
    MemPtr in_b = make_buffer(f.ctx(), b);
    MemPtr result = make_buffer<float>(f.ctx(), n);
    auto launch = [&](cl_program program) {
        KernelPtr kernel = make_kernel(program, "arith");
        set_arg(kernel.get(), 0, in_a);
        set_arg(kernel.get(), 1, in_b);
        set_arg(kernel.get(), 2, result);
        set_arg(kernel.get(), 3, 1.0f);
        set_arg(kernel.get(), 4, cl_int{0});
        const size_t global = n, local = 16;
        const cl_int status = clEnqueueNDRangeKernel(f.q(), kernel.get(), 1, nullptr, &global,
                                                     &local, 0, nullptr, nullptr);
        REQUIRE_OK(clFinish(f.q()));
        return status;
    };

    SECTION("non-uniform work-groups by default") {
        ProgramPtr program = build_il_program(f, "kernels");
        REQUIRE_OK(launch(program.get()));
        const std::vector<float> out = read_buffer<float>(f.q(), result.get(), n);
        CHECK(out[0] == 1e-40f); // denormals kept without -cl-denorms-are-zero
        for (size_t i = 1; i < n; ++i)
            CHECK(out[i] == 1.0f + static_cast<float>(i % 7));
    }
    SECTION("-cl-uniform-work-group-size at build") {
        ProgramPtr program = build_il_program(f, "kernels", "-cl-uniform-work-group-size");
        CHECK(launch(program.get()) == CL_INVALID_WORK_GROUP_SIZE);
    }
    SECTION("-cl-uniform-work-group-size at compile, then link") {
        ProgramPtr object = create_il_program(f.ctx(), spirv_module("kernels"));
        REQUIRE_OK(clCompileProgram(object.get(), 1, &f.device, "-cl-uniform-work-group-size", 0,
                                    nullptr, nullptr, nullptr, nullptr));
        cl_program inputs[] = {object.get()};
        cl_int error = CL_OUT_OF_RESOURCES;
        ProgramPtr linked(
            clLinkProgram(f.ctx(), 1, &f.device, nullptr, 1, inputs, nullptr, nullptr, &error));
        REQUIRE_OK(error);
        CHECK(launch(linked.get()) == CL_INVALID_WORK_GROUP_SIZE);
    }
    SECTION("-cl-denorms-are-zero") {
        ProgramPtr program = build_il_program(f, "kernels", "-cl-denorms-are-zero");
        REQUIRE_OK(launch(program.get()));
        const std::vector<float> out = read_buffer<float>(f.q(), result.get(), n);
        CHECK(out[0] == 0.0f);
        CHECK(out[1] == 2.0f);
    }
}

TEST_CASE("SPIR-V 1.0 modules and kernel attributes", "[spirv]") {
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
    const std::string old = spirv_module("kernels_1_0");
    REQUIRE(old.size() > 8);
    CHECK(static_cast<unsigned char>(old[6]) == 1); // version word 0x00010000
    CHECK(static_cast<unsigned char>(old[5]) == 0);
    ProgramPtr program = create_il_program(f.ctx(), old);
    build(program.get(), f.device);
    CHECK(program_info<size_t>(program.get(), CL_PROGRAM_NUM_KERNELS) == 7);

    ProgramPtr attributes = build_il_program(f, "builtins");
    KernelPtr kernel = make_kernel(attributes.get(), "fixed_group");
    size_t sizes[3] = {};
    REQUIRE_OK(clGetKernelWorkGroupInfo(kernel.get(), f.device, CL_KERNEL_COMPILE_WORK_GROUP_SIZE,
                                        sizeof sizes, sizes, nullptr));
    CHECK(sizes[0] == 8);
    CHECK(sizes[1] == 2);
    CHECK(sizes[2] == 1);
    MemPtr out = make_buffer<cl_int>(f.ctx(), 64);
    set_arg(kernel.get(), 0, out);
    const size_t global[2] = {16, 4}, local[2] = {8, 2};
    run(f.q(), kernel.get(), 2, global, local);
    const std::vector<cl_int> ids = read_buffer<cl_int>(f.q(), out.get(), 64);
    for (size_t y = 0; y < 4; ++y)
        for (size_t x = 0; x < 16; ++x)
            CHECK(ids[y * 16 + x] == static_cast<cl_int>((y % 2) * 8 + x % 8));
    // Another local size is CL_INVALID_WORK_GROUP_SIZE.
    const size_t wrong[2] = {4, 2};
    CHECK_CL(
        clEnqueueNDRangeKernel(f.q(), kernel.get(), 2, nullptr, global, wrong, 0, nullptr, nullptr),
        CL_INVALID_WORK_GROUP_SIZE);
}

TEST_CASE("kernel metadata and argument info of a SPIR-V kernel", "[spirv]") {
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
    ProgramPtr program = build_il_program(f, "kernels");
    KernelPtr kernel = make_kernel(program.get(), "group_sum");
    CHECK(kernel_info<cl_uint>(kernel.get(), CL_KERNEL_NUM_ARGS) == 3);
    CHECK(kernel_info_string(kernel.get(), CL_KERNEL_FUNCTION_NAME) == "group_sum");
    CHECK(arg_info<cl_kernel_arg_address_qualifier>(
              kernel.get(), 0, CL_KERNEL_ARG_ADDRESS_QUALIFIER) == CL_KERNEL_ARG_ADDRESS_GLOBAL);
    CHECK(arg_info<cl_kernel_arg_address_qualifier>(
              kernel.get(), 2, CL_KERNEL_ARG_ADDRESS_QUALIFIER) == CL_KERNEL_ARG_ADDRESS_LOCAL);
    CHECK(arg_info_string(kernel.get(), 0, CL_KERNEL_ARG_TYPE_NAME) == "int*");
    KernelPtr vectors = make_kernel(program.get(), "vectors");
    CHECK(arg_info_string(vectors.get(), 2, CL_KERNEL_ARG_TYPE_NAME) == "float4");
    // A by-value argument of the wrong size.
    const cl_float2 small = {{1.0f, 2.0f}};
    CHECK_CL(clSetKernelArg(vectors.get(), 2, sizeof small, &small), CL_INVALID_ARG_SIZE);
}

TEST_CASE("CL_PROGRAM_IL gives the module back; binaries of SPIR-V programs", "[spirv]") {
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
    const std::string il = spirv_module("kernels");
    ProgramPtr program = create_il_program(f.ctx(), il);
    size_t size = 0;
    REQUIRE_OK(clGetProgramInfo(program.get(), CL_PROGRAM_IL, 0, nullptr, &size));
    REQUIRE(size == il.size());
    std::string back(size, '\0');
    REQUIRE_OK(clGetProgramInfo(program.get(), CL_PROGRAM_IL, size, back.data(), nullptr));
    CHECK(back == il);
    char small[4];
    CHECK_CL(clGetProgramInfo(program.get(), CL_PROGRAM_IL, sizeof small, small, nullptr),
             CL_INVALID_VALUE);
    CHECK(program_info_string(program.get(), CL_PROGRAM_SOURCE).empty());

    // The executable's binary makes a program that runs without SPIR-V.
    build(program.get(), f.device);
    const size_t binary_size = program_info<size_t>(program.get(), CL_PROGRAM_BINARY_SIZES);
    std::vector<unsigned char> binary(binary_size);
    unsigned char* binaries[] = {binary.data()};
    REQUIRE_OK(
        clGetProgramInfo(program.get(), CL_PROGRAM_BINARIES, sizeof binaries, binaries, nullptr));
    const unsigned char* bytes = binary.data();
    cl_int status = CL_OUT_OF_RESOURCES, error = CL_OUT_OF_RESOURCES;
    ProgramPtr reloaded(
        clCreateProgramWithBinary(f.ctx(), 1, &f.device, &binary_size, &bytes, &status, &error));
    REQUIRE_OK(error);
    build(reloaded.get(), f.device);
    std::vector<cl_int> in(128);
    std::iota(in.begin(), in.end(), 0);
    MemPtr input = make_buffer(f.ctx(), in);
    MemPtr output = make_buffer<cl_int>(f.ctx(), in.size());
    KernelPtr kernel = make_kernel(reloaded.get(), "reverse_in_group");
    set_arg(kernel.get(), 0, input);
    set_arg(kernel.get(), 1, output);
    run_1d(f.q(), kernel.get(), in.size(), 16);
    const std::vector<cl_int> out = read_buffer<cl_int>(f.q(), output.get(), in.size());
    for (size_t i = 0; i < in.size(); ++i)
        CHECK(out[i] == static_cast<cl_int>((i / 16) * 16 + 15 - i % 16));
}

TEST_CASE("clCreateProgramWithILKHR is found by name and works as the core function", "[spirv]") {
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
    cl_platform_id platform = cl_test::platform();
    auto create = reinterpret_cast<clCreateProgramWithILKHR_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clCreateProgramWithILKHR"));
    REQUIRE(create != nullptr);
    const std::string il = spirv_module("usm");
    cl_int error = CL_OUT_OF_RESOURCES;
    ProgramPtr program(create(f.ctx(), il.data(), il.size(), &error));
    REQUIRE_OK(error);
    build(program.get(), f.device);
    CHECK(kernel_names(program.get()) == std::set<std::string>{"saxpy_usm"});
    size_t size = 0;
    REQUIRE_OK(clGetProgramInfo(program.get(), CL_PROGRAM_IL_KHR, 0, nullptr, &size));
    CHECK(size == il.size());
    // The same errors as clCreateProgramWithIL.
    CHECK(create(f.ctx(), nullptr, 4, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_VALUE);
}

TEST_CASE("specialization constants of every scalar type change the results", "[spirv]") {
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
    ProgramPtr program = create_il_program(f.ctx(), spirv_module("spec_constants"));

    auto run_values = [&] {
        build(program.get(), f.device);
        KernelPtr kernel = make_kernel(program.get(), "spec_values");
        MemPtr out = make_buffer<cl_long>(f.ctx(), 13);
        set_arg(kernel.get(), 0, out);
        run_1d(f.q(), kernel.get(), 1);
        return read_buffer<cl_long>(f.q(), out.get(), 13);
    };
    auto float_bits = [](float v) {
        cl_int bits;
        std::memcpy(&bits, &v, sizeof bits);
        return static_cast<cl_long>(bits);
    };
    auto double_bits = [](double v) {
        cl_long bits;
        std::memcpy(&bits, &v, sizeof bits);
        return bits;
    };

    SECTION("the defaults without clSetProgramSpecializationConstant") {
        const std::vector<cl_long> expected = {-3,
                                               200,
                                               -1234,
                                               60000,
                                               -100000,
                                               4000000000ll,
                                               -5000000000ll,
                                               static_cast<cl_long>(18000000000000000000ull),
                                               float_bits(1.5f),
                                               double_bits(2.25),
                                               1,
                                               0,
                                               float_bits(0.75f)};
        CHECK(run_values() == expected);
    }

    SECTION("new values") {
        const cl_char c = -100;
        const cl_uchar uc = 7;
        const cl_short s = 31000;
        const cl_ushort us = 65535;
        const cl_int i = -2147483647;
        const cl_uint ui = 123456789u;
        const cl_long l = -9000000000000000000ll;
        const cl_ulong ul = 42;
        const cl_float fl = -0.375f;
        const cl_double d = 1e300;
        const cl_uchar yes = 1, no = 0;
        REQUIRE_OK(clSetProgramSpecializationConstant(program.get(), 1, sizeof c, &c));
        REQUIRE_OK(clSetProgramSpecializationConstant(program.get(), 2, sizeof uc, &uc));
        REQUIRE_OK(clSetProgramSpecializationConstant(program.get(), 3, sizeof s, &s));
        REQUIRE_OK(clSetProgramSpecializationConstant(program.get(), 4, sizeof us, &us));
        REQUIRE_OK(clSetProgramSpecializationConstant(program.get(), 5, sizeof i, &i));
        REQUIRE_OK(clSetProgramSpecializationConstant(program.get(), 6, sizeof ui, &ui));
        REQUIRE_OK(clSetProgramSpecializationConstant(program.get(), 7, sizeof l, &l));
        REQUIRE_OK(clSetProgramSpecializationConstant(program.get(), 8, sizeof ul, &ul));
        REQUIRE_OK(clSetProgramSpecializationConstant(program.get(), 9, sizeof fl, &fl));
        REQUIRE_OK(clSetProgramSpecializationConstant(program.get(), 10, sizeof d, &d));
        REQUIRE_OK(clSetProgramSpecializationConstant(program.get(), 11, 1, &no));
        REQUIRE_OK(clSetProgramSpecializationConstant(program.get(), 12, 1, &yes));
        const cl_half minus_two_and_a_half = 0xC100; // -2.5 in binary16
        REQUIRE_OK(clSetProgramSpecializationConstant(program.get(), 13, sizeof(cl_half),
                                                      &minus_two_and_a_half));
        const std::vector<cl_long> expected = {-100,
                                               7,
                                               31000,
                                               65535,
                                               -2147483647,
                                               123456789,
                                               -9000000000000000000ll,
                                               42,
                                               float_bits(-0.375f),
                                               double_bits(1e300),
                                               0,
                                               1,
                                               float_bits(-2.5f)};
        CHECK(run_values() == expected);
    }

    SECTION("a constant used in arithmetic, set between builds") {
        std::vector<cl_int> in(64);
        std::iota(in.begin(), in.end(), -10);
        MemPtr input = make_buffer(f.ctx(), in);
        auto scaled = [&] {
            build(program.get(), f.device);
            KernelPtr kernel = make_kernel(program.get(), "scaled");
            MemPtr out = make_buffer<cl_int>(f.ctx(), in.size());
            set_arg(kernel.get(), 0, input);
            set_arg(kernel.get(), 1, out);
            run_1d(f.q(), kernel.get(), in.size());
            return read_buffer<cl_int>(f.q(), out.get(), in.size());
        };
        std::vector<cl_int> twice = scaled();
        for (size_t k = 0; k < in.size(); ++k)
            CHECK(twice[k] == 2 * in[k]);
        const cl_int factor = -7;
        REQUIRE_OK(clSetProgramSpecializationConstant(program.get(), 20, sizeof factor, &factor));
        std::vector<cl_int> seven = scaled();
        for (size_t k = 0; k < in.size(); ++k)
            CHECK(seven[k] == -7 * in[k]);
    }

    SECTION("errors") {
        const cl_int value = 1;
        // CL_INVALID_SPEC_ID for an id the module does not have.
        CHECK_CL(clSetProgramSpecializationConstant(program.get(), 99, sizeof value, &value),
                 CL_INVALID_SPEC_ID);
        // CL_INVALID_VALUE for a size that is not the constant's, or no value.
        CHECK_CL(clSetProgramSpecializationConstant(program.get(), 5, 8, &value), CL_INVALID_VALUE);
        CHECK_CL(clSetProgramSpecializationConstant(program.get(), 1, 4, &value), CL_INVALID_VALUE);
        CHECK_CL(clSetProgramSpecializationConstant(program.get(), 5, sizeof value, nullptr),
                 CL_INVALID_VALUE);
        // CL_INVALID_PROGRAM for a program not created from IL, or no program.
        ProgramPtr from_source = create_program(f.ctx(), "kernel void k() {}");
        CHECK_CL(clSetProgramSpecializationConstant(from_source.get(), 5, sizeof value, &value),
                 CL_INVALID_PROGRAM);
        CHECK_CL(clSetProgramSpecializationConstant(nullptr, 5, sizeof value, &value),
                 CL_INVALID_PROGRAM);
    }
}

TEST_CASE("a SPIR-V kernel with USM pointers set by clSetKernelArgMemPointerINTEL", "[spirv]") {
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
    cl_platform_id platform = cl_test::platform();
    auto shared_alloc = reinterpret_cast<clSharedMemAllocINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clSharedMemAllocINTEL"));
    auto device_alloc = reinterpret_cast<clDeviceMemAllocINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clDeviceMemAllocINTEL"));
    auto mem_free = reinterpret_cast<clMemBlockingFreeINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clMemBlockingFreeINTEL"));
    auto set_pointer = reinterpret_cast<clSetKernelArgMemPointerINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clSetKernelArgMemPointerINTEL"));
    auto memcpy_usm = reinterpret_cast<clEnqueueMemcpyINTEL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueMemcpyINTEL"));
    REQUIRE(shared_alloc);
    REQUIRE(device_alloc);
    REQUIRE(mem_free);
    REQUIRE(set_pointer);
    REQUIRE(memcpy_usm);

    const size_t n = 1000;
    cl_int error = CL_OUT_OF_RESOURCES;
    auto* x =
        static_cast<float*>(shared_alloc(f.ctx(), f.device, nullptr, n * sizeof(float), 0, &error));
    REQUIRE_OK(error);
    auto* y =
        static_cast<float*>(device_alloc(f.ctx(), f.device, nullptr, n * sizeof(float), 0, &error));
    REQUIRE_OK(error);
    std::vector<float> host_y(n);
    for (size_t i = 0; i < n; ++i) {
        x[i] = static_cast<float>(i);
        host_y[i] = 1000.0f - static_cast<float>(i);
    }
    REQUIRE_OK(
        memcpy_usm(f.q(), CL_TRUE, y, host_y.data(), n * sizeof(float), 0, nullptr, nullptr));

    ProgramPtr program = build_il_program(f, "usm");
    KernelPtr kernel = make_kernel(program.get(), "saxpy_usm");
    REQUIRE_OK(set_pointer(kernel.get(), 0, x));
    REQUIRE_OK(set_pointer(kernel.get(), 1, y));
    set_arg(kernel.get(), 2, 2.0f);
    set_arg(kernel.get(), 3, cl_ulong{n});
    run_1d(f.q(), kernel.get(), 1024);
    std::vector<float> result(n);
    REQUIRE_OK(
        memcpy_usm(f.q(), CL_TRUE, result.data(), y, n * sizeof(float), 0, nullptr, nullptr));
    for (size_t i = 0; i < n; ++i)
        CHECK(result[i] == 2.0f * static_cast<float>(i) + 1000.0f - static_cast<float>(i));
    CHECK_OK(mem_free(f.ctx(), x));
    CHECK_OK(mem_free(f.ctx(), y));
}

TEST_CASE("images and samplers in a SPIR-V kernel", "[spirv]") {
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
    ProgramPtr program = build_il_program(f, "images");
    KernelPtr kernel = make_kernel(program.get(), "sample_and_write");
    std::vector<float> texels(16);
    std::iota(texels.begin(), texels.end(), 0.0f);
    const cl_image_format format{CL_RGBA, CL_FLOAT};
    cl_image_desc desc{};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = 4;
    desc.image_height = 1;
    cl_int error = CL_OUT_OF_RESOURCES;
    MemPtr in(clCreateImage(f.ctx(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &format, &desc,
                            texels.data(), &error));
    REQUIRE_OK(error);
    MemPtr out(clCreateImage(f.ctx(), CL_MEM_WRITE_ONLY, &format, &desc, nullptr, &error));
    REQUIRE_OK(error);
    const cl_sampler_properties properties[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, 0};
    cl_sampler sampler = clCreateSamplerWithProperties(f.ctx(), properties, &error);
    REQUIRE_OK(error);
    MemPtr results = make_buffer<float>(f.ctx(), 12 * 4);
    set_arg(kernel.get(), 0, in);
    set_arg(kernel.get(), 1, sampler);
    set_arg(kernel.get(), 2, out);
    set_arg(kernel.get(), 3, results);
    run_1d(f.q(), kernel.get(), 4);
    const auto got = read_buffer<float>(f.q(), results.get(), 12 * 4);
    for (size_t i = 0; i < 4; ++i)
        for (size_t c = 0; c < 4; ++c) {
            CHECK(got[i * 4 + c] == texels[i * 4 + c]); // texel i
            CHECK(got[16 + i * 4 + c] == texels[c]);    // clamped to texel 0
        }
    for (size_t i = 0; i < 4; ++i) {
        CHECK(got[32 + i * 4] == 4.0f);
        CHECK(got[32 + i * 4 + 1] == 1.0f);
        CHECK(got[32 + i * 4 + 2] == 1.0f);
    }
    std::vector<float> written(16);
    const size_t origin[3] = {0, 0, 0};
    const size_t region[3] = {4, 1, 1};
    REQUIRE_OK(clEnqueueReadImage(f.q(), out.get(), CL_TRUE, origin, region, 0, 0, written.data(),
                                  0, nullptr, nullptr));
    for (size_t i = 0; i < 16; ++i)
        CHECK(written[i] == 2.0f * texels[i]);
    CHECK_OK(clReleaseSampler(sampler));
}

TEST_CASE("SPIR-V modules link with each other and with OpenCL C objects", "[spirv]") {
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
    std::vector<cl_int> in(96);
    std::iota(in.begin(), in.end(), -40);
    MemPtr input = make_buffer(f.ctx(), in);
    auto compile = [&](cl_program program) {
        REQUIRE_OK(clCompileProgram(program, 1, &f.device, nullptr, 0, nullptr, nullptr, nullptr,
                                    nullptr));
        CHECK(binary_type(program, f.device) == CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT);
    };
    auto link_and_run = [&](std::vector<cl_program> inputs) {
        cl_int error = CL_OUT_OF_RESOURCES;
        ProgramPtr linked(clLinkProgram(f.ctx(), 1, &f.device, nullptr,
                                        static_cast<cl_uint>(inputs.size()), inputs.data(), nullptr,
                                        nullptr, &error));
        if (error != CL_SUCCESS && linked)
            INFO("link log:\n" << build_log(linked.get(), f.device));
        REQUIRE_OK(error);
        KernelPtr kernel = make_kernel(linked.get(), "use_helpers");
        MemPtr output = make_buffer<cl_int>(f.ctx(), in.size());
        set_arg(kernel.get(), 0, input);
        set_arg(kernel.get(), 1, output);
        run_1d(f.q(), kernel.get(), in.size());
        const std::vector<cl_int> out = read_buffer<cl_int>(f.q(), output.get(), in.size());
        for (size_t i = 0; i < in.size(); ++i)
            CHECK(out[i] == 3 * in[i] + 11);
    };

    ProgramPtr user = create_il_program(f.ctx(), spirv_module("link_user"));
    compile(user.get());

    SECTION("SPIR-V with SPIR-V") {
        ProgramPtr helper = create_il_program(f.ctx(), spirv_module("link_helper"));
        compile(helper.get());
        link_and_run({user.get(), helper.get()});
    }
    SECTION("SPIR-V with an OpenCL C object from clCompileProgram") {
        ProgramPtr helper = create_program(f.ctx(), kernel_source("link_helper"));
        compile(helper.get());
        link_and_run({helper.get(), user.get()});
    }
    SECTION("a missing function fails the link with a log") {
        cl_program only_user = user.get();
        cl_int error = CL_SUCCESS;
        ProgramPtr linked(
            clLinkProgram(f.ctx(), 1, &f.device, nullptr, 1, &only_user, nullptr, nullptr, &error));
        CHECK_CL(error, CL_LINK_PROGRAM_FAILURE);
        REQUIRE(linked != nullptr);
        CHECK(build_log(linked.get(), f.device).find("helper_scale") != std::string::npos);
    }
}

TEST_CASE("clCreateProgramWithIL rejects bad arguments and malformed modules", "[spirv]") {
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
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
        // Wrong magic, SPIR-V 2.0 and 1.5, a non-zero schema, a zero id bound.
        for (const std::string& bad : {with_word(0, 0x07230204), with_word(1, 0x00020000),
                                       with_word(1, 0x00010500), with_word(4, 1), with_word(3, 0)})
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
    SECTION("a module the translator rejects fails the build with its diagnostics") {
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
        CHECK(log.find("SPIR-V translator") != std::string::npos);
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

TEST_CASE("a kernel written as SYCL compilers write it", "[spirv]") {
    // __spirv_BuiltIn* variables, __spirv_ControlBarrier, __spirv_AtomicIAdd
    // and __spirv_ocl_sqrt/fma in the LLVM IR the module was made from.
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
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
    SKIP_WITHOUT_IL(f.device);
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

TEST_CASE("SPIR-V builds in a process that ignores SIGCHLD", "[spirv]") {
    // The translator's exit status is lost (its child is reaped by the
    // kernel); the build still works from the bitcode it wrote.
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
    auto previous = std::signal(SIGCHLD, SIG_IGN);
    ProgramPtr program = create_il_program(f.ctx(), spirv_module("usm"));
    const cl_int built = clBuildProgram(program.get(), 1, &f.device, nullptr, nullptr, nullptr);
    std::signal(SIGCHLD, previous);
    CHECK_OK(built);
    CHECK(kernel_names(program.get()) == std::set<std::string>{"saxpy_usm"});
}

TEST_CASE("corrupted SPIR-V is rejected or fails to build, never crashes", "[spirv]") {
    // Words of a valid module changed at random (fixed seed): creation
    // answers CL_INVALID_VALUE or succeeds, the build succeeds or fails
    // with CL_BUILD_PROGRAM_FAILURE and a log.
    Fixture f;
    SKIP_WITHOUT_IL(f.device);
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

// Run with USMCL_LLVM_SPIRV naming no file (meson test api_spirv_no_translator).
TEST_CASE("without a translator the device takes no SPIR-V", "[.][no-translator]") {
    Fixture f;
    CHECK(cl_test::device_info_string(f.device, CL_DEVICE_IL_VERSION).empty());
    CHECK(
        cl_test::device_info_array<cl_name_version>(f.device, CL_DEVICE_ILS_WITH_VERSION).empty());
    // Nor does the device or the platform offer cl_khr_il_program.
    const auto extensions =
        cl_test::split_words(cl_test::device_info_string(f.device, CL_DEVICE_EXTENSIONS));
    CHECK(std::find(extensions.begin(), extensions.end(), "cl_khr_il_program") == extensions.end());
    for (const cl_name_version& extension :
         cl_test::device_info_array<cl_name_version>(f.device, CL_DEVICE_EXTENSIONS_WITH_VERSION))
        CHECK(std::string(extension.name) != "cl_khr_il_program");
    cl_platform_id platform = nullptr;
    REQUIRE_OK(clGetDeviceInfo(f.device, CL_DEVICE_PLATFORM, sizeof platform, &platform, nullptr));
    size_t size = 0;
    REQUIRE_OK(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, 0, nullptr, &size));
    std::string platform_extensions(size, '\0');
    REQUIRE_OK(clGetPlatformInfo(platform, CL_PLATFORM_EXTENSIONS, size, platform_extensions.data(),
                                 nullptr));
    CHECK(platform_extensions.find("cl_khr_il_program") == std::string::npos);
    // "CL_INVALID_OPERATION if no devices in context support intermediate
    // language programs."
    const std::string il = spirv_module("kernels");
    cl_int error = CL_SUCCESS;
    CHECK(clCreateProgramWithIL(f.ctx(), il.data(), il.size(), &error) == nullptr);
    CHECK_CL(error, CL_INVALID_OPERATION);
}
