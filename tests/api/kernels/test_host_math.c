/* Kernels calling math functions that usmcl implements with the host's libm
 * (exp, hypot, cbrt, sin, lgamma_r, ...) build and run in an application
 * that does not link libm itself: a C program (C++ programs get libm through
 * libstdc++), built without -lm. The ICD loader opens the driver without
 * RTLD_GLOBAL, so libm is not in the process's global scope here. Exit 0 when
 * every result is right, 1 otherwise. */
#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>

#include <stdio.h>

static const char* source = "__kernel void k(__global float* out, __global double* dout) {\n"
                            "    int sign;\n"
                            "    out[0] = exp(1.0f);\n"
                            "    out[1] = hypot(3.0f, 4.0f);\n"
                            "    out[2] = cbrt(27.0f);\n"
                            "    out[3] = sin(0.5f);\n"
                            "    out[4] = lgamma_r(-0.5f, &sign) * (float)sign;\n"
                            "    out[5] = pow(2.0f, 10.0f);\n"
                            "    dout[0] = exp(1.0);\n"
                            "    dout[1] = tgamma(5.0);\n"
                            "}\n";

static int failures = 0;

static void check(const char* what, double got, double expected, double tolerance) {
    const double error = got > expected ? got - expected : expected - got;
    if (!(error <= tolerance)) {
        printf("FAILED: %s = %.17g, expected %.17g\n", what, got, expected);
        ++failures;
    }
}

#define REQUIRE_OK(call)                                                                           \
    do {                                                                                           \
        cl_int status_ = (call);                                                                   \
        if (status_ != CL_SUCCESS) {                                                               \
            printf("FAILED: %s: %d\n", #call, status_);                                            \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(void) {
    cl_platform_id platform;
    cl_device_id device;
    cl_int status = CL_SUCCESS;
    REQUIRE_OK(clGetPlatformIDs(1, &platform, NULL));
    REQUIRE_OK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, NULL));
    cl_context context = clCreateContext(NULL, 1, &device, NULL, NULL, &status);
    REQUIRE_OK(status);
    cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, NULL, &status);
    REQUIRE_OK(status);
    cl_program program = clCreateProgramWithSource(context, 1, &source, NULL, &status);
    REQUIRE_OK(status);
    status = clBuildProgram(program, 1, &device, "", NULL, NULL);
    if (status != CL_SUCCESS) {
        char log[8192] = {0};
        clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, sizeof log - 1, log, NULL);
        printf("FAILED: clBuildProgram: %d\n%s\n", status, log);
        return 1;
    }
    cl_kernel kernel = clCreateKernel(program, "k", &status);
    REQUIRE_OK(status);
    cl_mem out = clCreateBuffer(context, CL_MEM_READ_WRITE, 6 * sizeof(cl_float), NULL, &status);
    REQUIRE_OK(status);
    cl_mem dout = clCreateBuffer(context, CL_MEM_READ_WRITE, 2 * sizeof(cl_double), NULL, &status);
    REQUIRE_OK(status);
    REQUIRE_OK(clSetKernelArg(kernel, 0, sizeof out, &out));
    REQUIRE_OK(clSetKernelArg(kernel, 1, sizeof dout, &dout));
    const size_t one = 1;
    REQUIRE_OK(clEnqueueNDRangeKernel(queue, kernel, 1, NULL, &one, NULL, 0, NULL, NULL));
    cl_float results[6];
    cl_double dresults[2];
    REQUIRE_OK(clEnqueueReadBuffer(queue, out, CL_TRUE, 0, sizeof results, results, 0, NULL, NULL));
    REQUIRE_OK(
        clEnqueueReadBuffer(queue, dout, CL_TRUE, 0, sizeof dresults, dresults, 0, NULL, NULL));
    /* The values, to the float's or double's precision. */
    check("exp(1.0f)", results[0], 2.718281828459045, 1e-6);
    check("hypot(3.0f, 4.0f)", results[1], 5.0, 0.0);
    check("cbrt(27.0f)", results[2], 3.0, 1e-6);
    check("sin(0.5f)", results[3], 0.479425538604203, 1e-6);
    /* lgamma(-0.5) = log(2 sqrt(pi)) = 1.2655121234846454, and Gamma(-0.5) < 0. */
    check("lgamma_r(-0.5f) * sign", results[4], -1.2655121234846454, 1e-6);
    check("pow(2.0f, 10.0f)", results[5], 1024.0, 0.0);
    check("exp(1.0)", dresults[0], 2.718281828459045, 1e-15);
    check("tgamma(5.0)", dresults[1], 24.0, 1e-12);
    clReleaseMemObject(out);
    clReleaseMemObject(dout);
    clReleaseKernel(kernel);
    clReleaseProgram(program);
    clReleaseCommandQueue(queue);
    clReleaseContext(context);
    printf("%s\n", failures ? "FAILED" : "all host math results right");
    return failures ? 1 : 0;
}
