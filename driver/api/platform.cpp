// Platform entry points: clGetPlatformIDs, clIcdGetPlatformIDsKHR,
// clGetPlatformInfo, clUnloadCompiler, clUnloadPlatformCompiler.
#include "core/platform.hpp"
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/info_writer.hpp"
#include "support/clock.hpp"

#include <CL/cl_ext.h>

namespace usmcl::api {
namespace {

Status get_platform_ids(cl_uint num_entries, cl_platform_id* platforms, cl_uint* num_platforms) {
    // CL_INVALID_VALUE if num_entries is 0 and platforms is not NULL, or if
    // both num_platforms and platforms are NULL.
    USMCL_CHECK(!(num_entries == 0 && platforms), CL_INVALID_VALUE, "num_entries is 0");
    USMCL_CHECK(platforms || num_platforms, CL_INVALID_VALUE,
                "platforms and num_platforms are both NULL");
    core::Platform& platform = core::Platform::instance();
    if (platforms)
        platforms[0] = platform.handle();
    if (num_platforms)
        *num_platforms = 1;
    return {};
}

// A NULL platform selects usmcl's (the spec leaves NULL implementation-defined).
core::Platform* platform_or_default(cl_platform_id handle) {
    if (handle == nullptr)
        return &core::Platform::instance();
    return core::Platform::from_handle(handle);
}

} // namespace

cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms,
                                    cl_uint* num_platforms) {
    return guarded(__func__,
                   [&] { return get_platform_ids(num_entries, platforms, num_platforms); });
}

cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id* platforms,
                                          cl_uint* num_platforms) {
    return guarded(__func__,
                   [&] { return get_platform_ids(num_entries, platforms, num_platforms); });
}

cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                     size_t param_value_size, void* param_value,
                                     size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        core::Platform* object = platform_or_default(platform);
        USMCL_CHECK(object, CL_INVALID_PLATFORM, "not a usmcl platform");
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        switch (param_name) {
        case CL_PLATFORM_PROFILE: return out.string(core::Platform::profile);
        case CL_PLATFORM_VERSION: return out.string(core::Platform::version());
        case CL_PLATFORM_NUMERIC_VERSION:
            return out.scalar<cl_version>(core::Platform::numeric_version);
        case CL_PLATFORM_NAME: return out.string(core::Platform::name);
        case CL_PLATFORM_VENDOR: return out.string(core::Platform::vendor);
        case CL_PLATFORM_EXTENSIONS: return out.string(core::Platform::extensions());
        case CL_PLATFORM_EXTENSIONS_WITH_VERSION:
            return out.name_versions(core::Platform::extensions_with_version());
        case CL_PLATFORM_HOST_TIMER_RESOLUTION:
            return out.scalar<cl_ulong>(support::host_timer_resolution_ns());
        case CL_PLATFORM_ICD_SUFFIX_KHR: return out.string(core::Platform::icd_suffix);
        default: return {CL_INVALID_VALUE, "unknown cl_platform_info"};
        }
    });
}

cl_int CL_API_CALL clUnloadCompiler() {
    // A hint only; the compiler keeps no state worth releasing.
    return CL_SUCCESS;
}

cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
    return guarded(__func__, [&]() -> Status {
        USMCL_CHECK(core::Platform::from_handle(platform), CL_INVALID_PLATFORM,
                    "not a usmcl platform");
        return {};
    });
}

} // namespace usmcl::api
