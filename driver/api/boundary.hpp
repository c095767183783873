// The C boundary: every entry point runs its body through one of these, so
// no exception leaves the driver, std::bad_alloc becomes
// CL_OUT_OF_HOST_MEMORY, errcode_ret is written in one place and the debug
// log says why a call was rejected.
#pragma once

#include "core/result.hpp"
#include "support/cl_strings.hpp"
#include "support/log.hpp"

#include <CL/cl.h>

#include <new>

namespace usmcl::api {

using core::Result;
using core::Status;

inline void log_rejection(const char* entry, const Status& status) {
    USMCL_LOG(api, "%s: %s%s%s", entry, support::error_name(status.code()),
              *status.reason() ? ": " : "", status.reason());
}

// For entry points that return a cl_int: body returns a Status.
template <class Body>
cl_int guarded(const char* entry, Body&& body) noexcept {
    try {
        const Status status = body();
        if (!status.ok())
            log_rejection(entry, status);
        return status.code();
    } catch (const std::bad_alloc&) {
        log_rejection(entry, Status(CL_OUT_OF_HOST_MEMORY, "out of host memory"));
        return CL_OUT_OF_HOST_MEMORY;
    } catch (...) {
        log_rejection(entry, Status(CL_OUT_OF_HOST_MEMORY, "unexpected internal error"));
        return CL_OUT_OF_HOST_MEMORY;
    }
}

// For entry points that return an object or pointer and take errcode_ret:
// body returns a Result<T>; on error the entry point returns T{} (null).
template <class T, class Body>
T guarded_create(const char* entry, cl_int* errcode_ret, Body&& body) noexcept {
    auto finish = [&](const Status& status) -> T {
        if (!status.ok())
            log_rejection(entry, status);
        if (errcode_ret)
            *errcode_ret = status.code();
        return T{};
    };
    try {
        Result<T> result = body();
        if (!result.ok())
            return finish(result.status());
        if (errcode_ret)
            *errcode_ret = CL_SUCCESS;
        return std::move(result).value();
    } catch (const std::bad_alloc&) {
        return finish(Status(CL_OUT_OF_HOST_MEMORY, "out of host memory"));
    } catch (...) {
        return finish(Status(CL_OUT_OF_HOST_MEMORY, "unexpected internal error"));
    }
}

} // namespace usmcl::api
