// The OpenCL C builtin library: one translation unit, compiled at build time
// to bitcode (see ../meson.build) and linked into programs as needed.
#include "common.h"

#include "common.cl"
#include "geometric.cl"
#include "integer.cl"
#include "math.cl"
#include "relational.cl"
