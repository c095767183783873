// The OpenCL error checks of the benchmarks: a failed OpenCL call prints
// "<program>: <the call> failed: <OpenCL error code>" to stderr and exits
// with 2.
//
//   CL_CHECK(clFinish(queue));                   the call's text is the message
//   bench::check_cl(status, "clCreateContext");  a status from an out-parameter
#pragma once

#include <CL/cl.h>

#include <cerrno> // program_invocation_short_name (glibc): the program name without its folder
#include <cstdio>
#include <cstdlib>

namespace bench {

[[noreturn]] inline void exit_with_cl_error(const char* what, cl_int status) {
    std::fprintf(stderr, "%s: %s failed: %d\n", program_invocation_short_name, what, status);
    std::exit(2);
}

inline void check_cl(cl_int status, const char* what) {
    if (status != CL_SUCCESS)
        exit_with_cl_error(what, status);
}

} // namespace bench

#define CL_CHECK(call) ::bench::check_cl((call), #call)
