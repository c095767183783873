// The kernels of a run: one per function of one type ("float", "double",
// "half"), each computing its function on the inputs A, B, C and N into R
// (and R2 or RI for the functions with a second result).
#pragma once

#include "device.hpp"
#include "math_functions.hpp"

#include <CL/cl.h>

#include <string>
#include <vector>

namespace mathconf {

// The build options of the kernels: -cl-fast-relaxed-math with --relaxed,
// -cl-denorms-are-zero with --daz.
extern std::string g_build_options;

// The vector width of the kernels (--vector-width): 1 calls the scalar
// builtins, 2, 3, 4, 8 or 16 their vector forms (vloadN / vstoreN).
extern size_t g_vector_width;

// A program with one kernel per function of one type; nullptr and the
// build log when it does not build.
cl_program build_program(const Device& dev, const std::string& source, std::string& log);

// The name of f's kernel.
std::string kernel_name(const Function& f);

// The source of the kernels of list, on type.
std::string program_source(const std::vector<const Function*>& list, const std::string& type);

} // namespace mathconf
