// SPIR-V kernels through the ICD loader: the device's IL queries, and kernels
// from SPIR-V against host references and the same kernels built from
// source by usmcl (arithmetic, builtins, atomics, build options, SPIR-V 1.0,
// kernel attributes, metadata and argument info).
#include "spirv_test.hpp"

#include <cmath>
#include <cstdlib>
#include <numeric>
#include <random>
#include <thread>

using namespace spirv_test;

TEST_CASE("the device reports SPIR-V 1.0 to 1.6 and cl_khr_il_program", "[spirv]") {
    cl_device_id device = cl_test::device();
    REQUIRE(il_supported(device));
    const std::string versions = cl_test::device_info_string(device, CL_DEVICE_IL_VERSION);
    CHECK(versions ==
          "SPIR-V_1.0 SPIR-V_1.1 SPIR-V_1.2 SPIR-V_1.3 SPIR-V_1.4 SPIR-V_1.5 SPIR-V_1.6");
    const auto ils =
        cl_test::device_info_array<cl_name_version>(device, CL_DEVICE_ILS_WITH_VERSION);
    REQUIRE(ils.size() == 7u);
    for (cl_uint i = 0; i < ils.size(); ++i) {
        CHECK(std::string(ils[i].name) == "SPIR-V");
        CHECK(ils[i].version == CL_MAKE_VERSION(1, i, 0));
    }
    const auto extensions =
        cl_test::split_words(cl_test::device_info_string(device, CL_DEVICE_EXTENSIONS));
    CHECK(std::find(extensions.begin(), extensions.end(), "cl_khr_il_program") != extensions.end());
}

TEST_CASE("SPIR-V kernels give the results of the same kernels from source", "[spirv]") {
    Fixture f;
    REQUIRE(il_supported(f.device));
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

    SECTION("asynchronous copies, wait_group_events and get_fence") {
        const size_t n = 256, local = 32;
        std::vector<cl_int> in(n);
        std::iota(in.begin(), in.end(), 100);
        MemPtr input = make_buffer(f.ctx(), in);
        const ProgramPair cl3 = both_programs(f, "async", "-cl-std=CL3.0");
        const std::vector<cl_int> out = both_results(cl3, [&](cl_program program) {
            KernelPtr kernel = make_kernel(program, "async_copy");
            MemPtr result = make_buffer(f.ctx(), std::vector<cl_int>(2 * n, -1));
            MemPtr fences = make_buffer(f.ctx(), std::vector<cl_int>(n, -1));
            set_arg(kernel.get(), 0, input);
            set_arg(kernel.get(), 1, result);
            set_local_arg(kernel.get(), 2, local * sizeof(cl_int));
            set_arg(kernel.get(), 3, fences);
            run_1d(f.q(), kernel.get(), n, local);
            std::vector<cl_int> all = read_buffer<cl_int>(f.q(), result.get(), 2 * n);
            const std::vector<cl_int> got = read_buffer<cl_int>(f.q(), fences.get(), n);
            all.insert(all.end(), got.begin(), got.end());
            return all;
        });
        for (size_t g = 0; g < n / local; ++g)
            for (size_t i = 0; i < local; ++i) {
                CHECK(out[g * 2 * local + 2 * i] == in[g * local + local - 1 - i]);
                CHECK(out[g * 2 * local + 2 * i + 1] == -1);
            }
        for (size_t i = 0; i < n; ++i)
            CHECK(out[2 * n + i] == 1); // CLK_LOCAL_MEM_FENCE
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
    REQUIRE(il_supported(f.device));
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
    REQUIRE(il_supported(f.device));
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
    REQUIRE(il_supported(f.device));
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
    REQUIRE(il_supported(f.device));
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
    REQUIRE(il_supported(f.device));
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

TEST_CASE("OpGroupNonUniform instructions in a branch combine the work-items that take it",
          "[spirv]") {
    // non_uniform_groups.spvasm: in a branch on sub-group local id % 3 == 0,
    // OpGroupNonUniformIAdd (Reduce), OpGroupNonUniformBallot and
    // OpGroupNonUniformElect (sub_group_non_uniform_reduce_add,
    // sub_group_ballot, sub_group_elect).
    Fixture f;
    REQUIRE(il_supported(f.device));
    ProgramPtr program = build_il_program(f, "non_uniform_groups");
    KernelPtr kernel = make_kernel(program.get(), "non_uniform");
    const size_t n = 60, local = 20, untouched = 0xdead;
    const size_t in_group = local;
    size_t width = 0;
    REQUIRE_OK(clGetKernelSubGroupInfo(kernel.get(), f.device,
                                       CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof in_group,
                                       &in_group, sizeof width, &width, nullptr));
    REQUIRE(width > 0);
    MemPtr out = make_buffer(f.ctx(), std::vector<cl_uint>(3 * n, untouched));
    set_arg(kernel.get(), 0, out);
    run_1d(f.q(), kernel.get(), n, local);
    const std::vector<cl_uint> got = read_buffer<cl_uint>(f.q(), out.get(), 3 * n);
    for (size_t gid = 0; gid < n; ++gid) {
        // The sub-group's first work-item and the work-items that take the
        // branch in it (lanes 0, 3, 6, ... within the sub-group).
        const size_t group = gid / local * local;
        const size_t first = group + (gid - group) / width * width;
        const size_t end = std::min(first + width, group + local);
        const size_t lane = gid - first;
        cl_uint sum = 0, bits = 0;
        for (size_t other = first; other < end; other += 3) {
            sum += static_cast<cl_uint>(other);
            bits |= 1u << (other - first);
        }
        INFO("work-item " << gid << " lane " << lane << " of " << width);
        if (lane % 3 != 0) {
            CHECK(got[3 * gid] == untouched);
            CHECK(got[3 * gid + 1] == untouched);
            CHECK(got[3 * gid + 2] == untouched);
            continue;
        }
        CHECK(got[3 * gid] == sum);
        CHECK(got[3 * gid + 1] == bits);
        CHECK(got[3 * gid + 2] == (lane == 0 ? 1u : 0u));
    }
}
