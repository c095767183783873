// The only symbols libusmcl.so exports (see usmcl.map): what an ICD loader
// looks up by name. Everything else is reached through the dispatch table or
// through clGetExtensionFunctionAddress[ForPlatform].
#include "api/entrypoints.hpp"

#include <cstring>

#define USMCL_EXPORT extern "C" __attribute__((visibility("default")))

USMCL_EXPORT cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries,
                                                       cl_platform_id* platforms,
                                                       cl_uint* num_platforms) {
    return usmcl::api::clIcdGetPlatformIDsKHR(num_entries, platforms, num_platforms);
}

USMCL_EXPORT cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform,
                                                  cl_platform_info param_name,
                                                  size_t param_value_size, void* param_value,
                                                  size_t* param_value_size_ret) {
    return usmcl::api::clGetPlatformInfo(platform, param_name, param_value_size, param_value,
                                         param_value_size_ret);
}

USMCL_EXPORT void* CL_API_CALL clGetExtensionFunctionAddress(const char* func_name) {
    return usmcl::api::clGetExtensionFunctionAddress(func_name);
}

USMCL_EXPORT void* CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                        const char* func_name) {
    return usmcl::api::clGetExtensionFunctionAddressForPlatform(platform, func_name);
}
