// The limits of the relaxed math mode (--relaxed): kernels built with
// -cl-fast-relaxed-math, which implies -cl-unsafe-math-optimizations,
// -cl-finite-math-only and -cl-no-signed-zeros. The float limits are those
// of the OpenCL C 3.0 table "ULP values for single precision built-in math
// functions with unsafe math optimizations" (relaxed_limit); the functions
// the table does not name keep their full-profile limit, and so does double.
#pragma once

#include "math_functions.hpp"

#include <string>

namespace mathconf {

// The error allowed for a float result of f at these arguments, in ULPs of
// the reference `ref` (an absolute error bound of the table converted to
// ULPs there); -1 when the table leaves the result undefined at these
// arguments (outside a function's domain, pow(0, 0), ...). `full` is the
// function's full-profile limit, returned for the functions the relaxed
// table does not change.
double relaxed_limit(const Function& f, const Args& args, long double ref, long double ref2,
                     double full);

// The relaxed limit of f as the table words it (for the report); empty when
// it is the full-profile limit.
std::string relaxed_limit_text(const Function& f);

} // namespace mathconf
