/* The functions of cl_intel_unified_shared_memory, found as an application
 * finds them: by name, for one platform, through the ICD loader
 * (clGetExtensionFunctionAddressForPlatform). Works with any platform that
 * has the extension; usmcl's tests, conformance programs and benchmarks
 * share it. */
#ifndef USMCL_USM_FUNCTIONS_H
#define USMCL_USM_FUNCTIONS_H

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct usm_functions {
    clHostMemAllocINTEL_fn host_alloc;
    clDeviceMemAllocINTEL_fn device_alloc;
    clSharedMemAllocINTEL_fn shared_alloc;
    clMemFreeINTEL_fn free;
    clMemBlockingFreeINTEL_fn blocking_free;
    clGetMemAllocInfoINTEL_fn alloc_info;
    clSetKernelArgMemPointerINTEL_fn set_arg_pointer;
    clEnqueueMemFillINTEL_fn fill;
    clEnqueueMemcpyINTEL_fn memcpy;
    clEnqueueMigrateMemINTEL_fn migrate;
    clEnqueueMemAdviseINTEL_fn advise;
    clEnqueueMemsetINTEL_fn memset; /* deprecated by the extension, still offered */
} usm_functions;

/* Looks every function up for platform into *functions. Returns NULL when
 * the platform has them all, else the name of the first one it lacks (the
 * others are still looked up). */
static inline const char* load_usm_functions(cl_platform_id platform, usm_functions* functions) {
    const char* missing = NULL;
#define USM_FUNCTIONS_LOOKUP(field, name)                                                          \
    functions->field = (name##_fn)clGetExtensionFunctionAddressForPlatform(platform, #name);       \
    if (!functions->field && !missing)                                                             \
        missing = #name;
    USM_FUNCTIONS_LOOKUP(host_alloc, clHostMemAllocINTEL)
    USM_FUNCTIONS_LOOKUP(device_alloc, clDeviceMemAllocINTEL)
    USM_FUNCTIONS_LOOKUP(shared_alloc, clSharedMemAllocINTEL)
    USM_FUNCTIONS_LOOKUP(free, clMemFreeINTEL)
    USM_FUNCTIONS_LOOKUP(blocking_free, clMemBlockingFreeINTEL)
    USM_FUNCTIONS_LOOKUP(alloc_info, clGetMemAllocInfoINTEL)
    USM_FUNCTIONS_LOOKUP(set_arg_pointer, clSetKernelArgMemPointerINTEL)
    USM_FUNCTIONS_LOOKUP(fill, clEnqueueMemFillINTEL)
    USM_FUNCTIONS_LOOKUP(memcpy, clEnqueueMemcpyINTEL)
    USM_FUNCTIONS_LOOKUP(migrate, clEnqueueMigrateMemINTEL)
    USM_FUNCTIONS_LOOKUP(advise, clEnqueueMemAdviseINTEL)
    USM_FUNCTIONS_LOOKUP(memset, clEnqueueMemsetINTEL)
#undef USM_FUNCTIONS_LOOKUP
    return missing;
}

#ifdef __cplusplus
}
#endif

#endif
