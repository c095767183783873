// clGetExtensionFunctionAddress[ForPlatform]: extension functions by name.
#include "api/entrypoints.hpp"
#include "core/platform.hpp"

#include <cstring>

namespace usmcl::api {
namespace {

struct ExtensionFunction {
    const char* name;
    void* address;
};

// Every USMCL_EXTENSION of entrypoints.def.
const ExtensionFunction extension_functions[] = {
#define USMCL_EXTENSION(name) {#name, reinterpret_cast<void*>(&usmcl::api::name)},
#define USMCL_EXTENSION_FN(name) USMCL_EXTENSION(name)
#include "api/entrypoints.def"
};

} // namespace

void* extension_function(const char* name) {
    if (name == nullptr)
        return nullptr;
    for (const auto& entry : extension_functions)
        if (std::strcmp(entry.name, name) == 0)
            return entry.address;
    return nullptr;
}

void* CL_API_CALL clGetExtensionFunctionAddress(const char* func_name) {
    return extension_function(func_name);
}

void* CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                           const char* func_name) {
    // The platform must be ours; a NULL or foreign platform finds nothing.
    if (core::Platform::from_handle(platform) == nullptr)
        return nullptr;
    return extension_function(func_name);
}

} // namespace usmcl::api
