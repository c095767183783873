// Helpers of the SPIR-V program tests: the modules assembled at build time
// from the .spvasm files of this folder, the OpenCL C they were made from,
// and programs built from both.
#pragma once

#include "kernel_test.hpp"

#include <CL/cl_ext.h>

#include <cmath>
#include <fstream>
#include <iterator>

namespace spirv_test {

using namespace kernel_test;

inline std::string read_file(const std::string& path) {
    std::ifstream file(path, std::ios::binary);
    INFO(path);
    REQUIRE(file.good());
    return std::string(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
}

// A module made at build time (SPIRV_DIR/<name>.spv).
inline std::string spirv_module(const std::string& name) {
    return read_file(std::string(SPIRV_DIR) + "/" + name + ".spv");
}

// The OpenCL C the module was made from.
inline std::string kernel_source(const std::string& name) {
    return read_file(std::string(SPIRV_SOURCE_DIR) + "/" + name + ".cl");
}

inline bool il_supported(cl_device_id device) {
    return !cl_test::device_info_string(device, CL_DEVICE_IL_VERSION).empty();
}

inline ProgramPtr create_il_program(cl_context context, const std::string& il) {
    cl_int error = CL_OUT_OF_RESOURCES;
    cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &error);
    REQUIRE_OK(error);
    REQUIRE(program != nullptr);
    return ProgramPtr(program);
}

inline ProgramPtr build_il_program(const Fixture& f, const std::string& name,
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

inline ProgramPair both_programs(const Fixture& f, const std::string& name,
                                 const char* source_options = nullptr) {
    return {build_il_program(f, name), f.build(kernel_source(name), source_options)};
}

inline std::vector<float> float_inputs(size_t count, float start, float step) {
    std::vector<float> values(count);
    for (size_t i = 0; i < count; ++i)
        values[i] = start + step * static_cast<float>(i);
    return values;
}

inline bool close(float a, float b) {
    return std::fabs(a - b) <= 1e-4f * std::max(1.0f, std::fabs(b));
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

} // namespace spirv_test
