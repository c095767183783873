/*
 * hello_usmcl: the smallest complete OpenCL host program for usmcl.
 *
 * It goes through the ICD loader (libOpenCL) exactly like any application:
 *   1. find the platform whose CL_PLATFORM_NAME contains "usmcl"
 *      (or the name given as the first argument),
 *   2. print the platform and its first device,
 *   3. create a context on that device, query it back and release it.
 *
 * Every OpenCL call is checked; on failure the program names the call and the
 * error code and exits with status 1.
 *
 * Run it against the build tree without installing anything:
 *   OCL_ICD_VENDORS=$PWD/build/driver/icd ./build/examples/hello_usmcl
 * or against another ICD for comparison:
 *   ./build/examples/hello_usmcl "Portable Computing Language"
 */

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- error reporting ---------------------------------------------------- */

static const char* error_name(cl_int err) {
    switch (err) {
    case CL_SUCCESS: return "CL_SUCCESS";
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_DEVICE_TYPE: return "CL_INVALID_DEVICE_TYPE";
    case CL_INVALID_PLATFORM: return "CL_INVALID_PLATFORM";
    case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
    case CL_INVALID_CONTEXT: return "CL_INVALID_CONTEXT";
    case CL_INVALID_PROPERTY: return "CL_INVALID_PROPERTY";
    case CL_INVALID_OPERATION: return "CL_INVALID_OPERATION";
    case CL_PLATFORM_NOT_FOUND_KHR: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "unknown error";
    }
}

/* Returns 1 when err is CL_SUCCESS; otherwise explains which call failed. */
static int check(cl_int err, const char* call) {
    if (err == CL_SUCCESS) {
        return 1;
    }
    fprintf(stderr, "hello_usmcl: %s failed: %s (%d)\n", call, error_name(err), (int)err);
    if (err == CL_PLATFORM_NOT_FOUND_KHR) {
        fprintf(stderr, "hello_usmcl: the ICD loader found no OpenCL driver; register usmcl in "
                        "/etc/OpenCL/vendors or set OCL_ICD_VENDORS=<build>/driver/icd\n");
    }
    return 0;
}

/* Errors the driver reports asynchronously for this context. */
static void CL_CALLBACK on_context_error(const char* errinfo, const void* private_info,
                                         size_t private_info_size, void* user_data) {
    (void)private_info;
    (void)private_info_size;
    (void)user_data;
    fprintf(stderr, "hello_usmcl: context error reported by the driver: %s\n", errinfo);
}

/* ---- string queries ------------------------------------------------------ */

/* clGetPlatformInfo / clGetDeviceInfo for a string: ask for the size, then the
 * value. The caller frees the result; NULL means the query failed (reported). */
static char* platform_string(cl_platform_id platform, cl_platform_info param, const char* what) {
    size_t size = 0;
    if (!check(clGetPlatformInfo(platform, param, 0, NULL, &size), what)) {
        return NULL;
    }
    char* value = malloc(size);
    if (value == NULL) {
        fprintf(stderr, "hello_usmcl: out of memory\n");
        return NULL;
    }
    if (!check(clGetPlatformInfo(platform, param, size, value, NULL), what)) {
        free(value);
        return NULL;
    }
    return value;
}

static char* device_string(cl_device_id device, cl_device_info param, const char* what) {
    size_t size = 0;
    if (!check(clGetDeviceInfo(device, param, 0, NULL, &size), what)) {
        return NULL;
    }
    char* value = malloc(size);
    if (value == NULL) {
        fprintf(stderr, "hello_usmcl: out of memory\n");
        return NULL;
    }
    if (!check(clGetDeviceInfo(device, param, size, value, NULL), what)) {
        free(value);
        return NULL;
    }
    return value;
}

/* ---- platform ------------------------------------------------------------ */

/* Finds the first platform whose name contains `wanted`. */
static int find_platform(const char* wanted, cl_platform_id* found) {
    cl_uint count = 0;
    if (!check(clGetPlatformIDs(0, NULL, &count), "clGetPlatformIDs(count)")) {
        return 0;
    }
    if (count == 0) {
        fprintf(stderr, "hello_usmcl: the ICD loader found no OpenCL platform\n");
        return 0;
    }
    cl_platform_id* platforms = malloc(sizeof(cl_platform_id) * count);
    if (platforms == NULL) {
        fprintf(stderr, "hello_usmcl: out of memory\n");
        return 0;
    }
    int ok = check(clGetPlatformIDs(count, platforms, NULL), "clGetPlatformIDs(list)");
    int matched = 0;
    for (cl_uint i = 0; ok && !matched && i < count; ++i) {
        char* name = platform_string(platforms[i], CL_PLATFORM_NAME, "clGetPlatformInfo(NAME)");
        if (name == NULL) {
            ok = 0;
            break;
        }
        if (strstr(name, wanted) != NULL) {
            *found = platforms[i];
            matched = 1;
        }
        free(name);
    }
    free(platforms);
    if (ok && !matched) {
        fprintf(stderr,
                "hello_usmcl: no platform named \"%s\" among the %u the loader found; "
                "check OCL_ICD_VENDORS or /etc/OpenCL/vendors\n",
                wanted, (unsigned)count);
    }
    return ok && matched;
}

static int print_platform(cl_platform_id platform) {
    char* name = platform_string(platform, CL_PLATFORM_NAME, "clGetPlatformInfo(NAME)");
    char* vendor = platform_string(platform, CL_PLATFORM_VENDOR, "clGetPlatformInfo(VENDOR)");
    char* version = platform_string(platform, CL_PLATFORM_VERSION, "clGetPlatformInfo(VERSION)");
    int ok = name != NULL && vendor != NULL && version != NULL;
    if (ok) {
        printf("Platform:        %s\n", name);
        printf("  vendor:        %s\n", vendor);
        printf("  version:       %s\n", version);
    }
    free(name);
    free(vendor);
    free(version);
    return ok;
}

/* ---- device -------------------------------------------------------------- */

static int pick_device(cl_platform_id platform, cl_device_id* device) {
    return check(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, device, NULL), "clGetDeviceIDs");
}

static int print_device(cl_device_id device) {
    cl_uint compute_units = 0;
    cl_ulong global_mem = 0;
    if (!check(clGetDeviceInfo(device, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof compute_units,
                               &compute_units, NULL),
               "clGetDeviceInfo(MAX_COMPUTE_UNITS)") ||
        !check(clGetDeviceInfo(device, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof global_mem, &global_mem,
                               NULL),
               "clGetDeviceInfo(GLOBAL_MEM_SIZE)")) {
        return 0;
    }
    char* name = device_string(device, CL_DEVICE_NAME, "clGetDeviceInfo(NAME)");
    char* version = device_string(device, CL_DEVICE_VERSION, "clGetDeviceInfo(VERSION)");
    char* driver = device_string(device, CL_DRIVER_VERSION, "clGetDeviceInfo(DRIVER_VERSION)");
    int ok = name != NULL && version != NULL && driver != NULL;
    if (ok) {
        printf("Device:          %s\n", name);
        printf("  version:       %s\n", version);
        printf("  driver:        %s\n", driver);
        printf("  compute units: %u\n", (unsigned)compute_units);
        printf("  global memory: %llu MiB\n", (unsigned long long)(global_mem >> 20));
    }
    free(name);
    free(version);
    free(driver);
    return ok;
}

/* ---- context ------------------------------------------------------------- */

static int create_context(cl_platform_id platform, cl_device_id device, cl_context* context) {
    const cl_context_properties properties[] = {CL_CONTEXT_PLATFORM,
                                                (cl_context_properties)platform, 0};
    cl_int err = CL_SUCCESS;
    *context = clCreateContext(properties, 1, &device, on_context_error, NULL, &err);
    return check(err, "clCreateContext");
}

/* Reads the context back: it must hold exactly the device it was created with. */
static int print_context(cl_context context, cl_device_id device) {
    cl_uint num_devices = 0;
    cl_device_id context_device = NULL;
    cl_uint refcount = 0;
    if (!check(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof num_devices, &num_devices,
                                NULL),
               "clGetContextInfo(NUM_DEVICES)") ||
        !check(clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof context_device, &context_device,
                                NULL),
               "clGetContextInfo(DEVICES)") ||
        !check(
            clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof refcount, &refcount, NULL),
            "clGetContextInfo(REFERENCE_COUNT)")) {
        return 0;
    }
    if (num_devices != 1 || context_device != device) {
        fprintf(stderr,
                "hello_usmcl: the context reports %u device(s), expected the one it was "
                "created with\n",
                (unsigned)num_devices);
        return 0;
    }
    printf("Context:         created with %u device, reference count %u\n", (unsigned)num_devices,
           (unsigned)refcount);
    return 1;
}

/* ---- main ---------------------------------------------------------------- */

/* Each step is one function returning 1 on success; new steps that need the
 * context (buffers, USM allocations, kernels) go between print_context and
 * the release. */
int main(int argc, char** argv) {
    const char* wanted = argc > 1 ? argv[1] : "usmcl";
    cl_platform_id platform = NULL;
    cl_device_id device = NULL;
    cl_context context = NULL;

    if (!find_platform(wanted, &platform) || !print_platform(platform) ||
        !pick_device(platform, &device) || !print_device(device) ||
        !create_context(platform, device, &context)) {
        return EXIT_FAILURE;
    }
    int ok = print_context(context, device);
    if (!check(clReleaseContext(context), "clReleaseContext")) {
        ok = 0;
    }
    if (!ok) {
        return EXIT_FAILURE;
    }
    printf("OK\n");
    return EXIT_SUCCESS;
}
