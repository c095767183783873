// SPIR-V programs through the ICD loader: CL_PROGRAM_IL and binaries,
// cl_khr_il_program's clCreateProgramWithILKHR, specialization constants,
// USM pointer arguments, images and samplers, linking, a SYCL-style kernel.
#include "spirv_test.hpp"

#include <cmath>
#include <numeric>
#include <random>
#include <thread>

using namespace spirv_test;

TEST_CASE("CL_PROGRAM_IL gives the module back; binaries of SPIR-V programs", "[spirv]") {
    Fixture f;
    REQUIRE(il_supported(f.device));
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
    REQUIRE(il_supported(f.device));
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
    REQUIRE(il_supported(f.device));
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
    REQUIRE(il_supported(f.device));
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
    REQUIRE(il_supported(f.device));
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
    REQUIRE(il_supported(f.device));
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
