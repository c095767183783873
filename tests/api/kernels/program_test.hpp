// Helpers of the program API tests: a source with three kernels, running an
// int-to-int kernel, binaries, compile and link with the log on failure.
#pragma once

#include "kernel_test.hpp"

#include <numeric>
#include <vector>

namespace program_test {

using namespace cl_test;
using namespace kernel_test;

// Three kernels; scale's factor is FACTOR (2 unless -D gives another one).
inline const char* const three_kernels = R"CLC(
#ifndef FACTOR
#define FACTOR 2
#endif
__kernel void scale(__global const int* in, __global int* out) {
    size_t i = get_global_id(0);
    out[i] = in[i] * FACTOR;
}
__kernel void add_one(__global int* data) {
    data[get_global_id(0)] += 1;
}
__kernel void square(__global const int* in, __global int* out) {
    size_t i = get_global_id(0);
    out[i] = in[i] * in[i];
}
)CLC";

inline std::vector<int> iota_vector(size_t count, int first) {
    std::vector<int> values(count);
    std::iota(values.begin(), values.end(), first);
    return values;
}

// Runs kernel name (arguments: __global const int* in, __global int* out)
// of program on count work-items and returns out.
inline std::vector<int> run_in_out(const Fixture& f, cl_program program, const char* name,
                                   const std::vector<int>& in) {
    KernelPtr kernel = make_kernel(program, name);
    MemPtr input = make_buffer(f.ctx(), in);
    MemPtr output = make_buffer<int>(f.ctx(), in.size());
    set_arg(kernel.get(), 0, input);
    set_arg(kernel.get(), 1, output);
    run_1d(f.q(), kernel.get(), in.size());
    return read_buffer<int>(f.q(), output.get(), in.size());
}

// out[i] = f(in[i]) on the host.
template <class F>
std::vector<int> host_map(const std::vector<int>& in, F function) {
    std::vector<int> out;
    for (int value : in)
        out.push_back(function(value));
    return out;
}

inline std::vector<unsigned char> program_binary(cl_program program) {
    const auto sizes = info_array<size_t>(clGetProgramInfo, program, CL_PROGRAM_BINARY_SIZES);
    REQUIRE(sizes.size() == 1);
    REQUIRE(sizes[0] > 0);
    std::vector<unsigned char> binary(sizes[0]);
    unsigned char* pointers[] = {binary.data()};
    size_t size_ret = 0;
    REQUIRE_OK(
        clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof pointers, pointers, &size_ret));
    REQUIRE(size_ret == sizeof pointers);
    return binary;
}

inline ProgramPtr program_from_binary(const Fixture& f, const std::vector<unsigned char>& binary) {
    const unsigned char* binaries[] = {binary.data()};
    const size_t lengths[] = {binary.size()};
    cl_int status = CL_OUT_OF_RESOURCES;
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_program program =
        clCreateProgramWithBinary(f.ctx(), 1, &f.device, lengths, binaries, &status, &error);
    REQUIRE_OK(error);
    REQUIRE_OK(status);
    REQUIRE(program != nullptr);
    return ProgramPtr(program);
}

// Compiles program (no headers) for the fixture's device.
inline void compile(const Fixture& f, cl_program program, const char* options = nullptr) {
    const cl_int compiled =
        clCompileProgram(program, 1, &f.device, options, 0, nullptr, nullptr, nullptr, nullptr);
    INFO("compile log:\n" << build_log(program, f.device));
    REQUIRE_CL(compiled, CL_SUCCESS);
}

inline ProgramPtr link(const Fixture& f, const std::vector<cl_program>& inputs,
                       const char* options = nullptr) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_program linked =
        clLinkProgram(f.ctx(), 1, &f.device, options, static_cast<cl_uint>(inputs.size()),
                      inputs.data(), nullptr, nullptr, &error);
    if (linked)
        INFO("link log:\n" << build_log(linked, f.device));
    REQUIRE_OK(error);
    REQUIRE(linked != nullptr);
    return ProgramPtr(linked);
}

inline const char* const helper_source = "int helper(int x) { return x * 3 + 1; }\n";
inline const char* const user_source = R"CLC(
int helper(int x);
__kernel void use_helper(__global const int* in, __global int* out) {
    size_t i = get_global_id(0);
    out[i] = helper(in[i]) - 5;
}
)CLC";
inline int helper_reference(int x) {
    return x * 3 + 1 - 5;
}

} // namespace program_test
