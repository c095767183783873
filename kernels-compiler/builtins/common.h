// Shared definitions of the builtin library sources.
#pragma once

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define OVERLOAD __attribute__((overloadable))
#define CONST_FN __attribute__((const))
