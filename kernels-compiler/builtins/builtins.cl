// The OpenCL C builtin library (conversions apart: gen_conversions.py), one
// translation unit compiled at build time to bitcode (see ../meson.build)
// and linked into programs as needed.
#include "common.h"

#include "async.cl"
#include "atomics.cl"
#include "collectives.cl"
#include "common.cl"
#include "geometric.cl"
#include "images.cl"
#include "integer.cl"
#include "math.cl"
// After the float functions it calls, before the users of its own.
#include "half.cl"
#include "relational.cl"
#include "shuffle.cl"
#include "subgroups.cl"
#include "subgroups_non_uniform.cl"
#include "sync.cl"
#include "vload.cl"
