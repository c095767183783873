// The declarations of usmcl::api's entry points, with the exact signatures of
// the dispatch table's slot types in CL/cl_icd.h.
#pragma once

#include <CL/cl_ext.h>
#include <CL/cl_icd.h>
#include <CL/usmcl_ext.h>

#include <type_traits>

namespace usmcl::api {

#define USMCL_ENTRY(name) std::remove_pointer_t<cl_api_##name> name;
#define USMCL_EXTENSION_FN(name) std::remove_pointer_t<name##_fn> name;
#include "api/entrypoints.def"

// cl_khr_icd: how a loader enumerates the platforms of this ICD.
cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id* platforms,
                                          cl_uint* num_platforms);

// The address of an extension function by name, or nullptr.
void* extension_function(const char* name);

} // namespace usmcl::api
