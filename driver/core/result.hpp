// Results that flow through core: an OpenCL status, optionally a value, and a
// short reason for the debug log when the status is an error.
#pragma once

#include <CL/cl.h>

#include <optional>
#include <utility>

namespace usmcl::core {

// A status with the reason it was not CL_SUCCESS (a string literal, or null).
class [[nodiscard]] Status {
public:
    Status() = default;
    Status(cl_int code, const char* reason = nullptr) : code_(code), reason_(reason) {}

    static Status success() { return {}; }
    bool ok() const { return code_ == CL_SUCCESS; }
    cl_int code() const { return code_; }
    const char* reason() const { return reason_ ? reason_ : ""; }

private:
    cl_int code_ = CL_SUCCESS;
    const char* reason_ = nullptr;
};

// A value, or the Status that explains why there is none.
template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : value_(std::move(value)) {}
    Result(Status error) : status_(error) {}
    Result(cl_int code, const char* reason) : status_(code, reason) {}

    bool ok() const { return status_.ok(); }
    const Status& status() const { return status_; }
    T& value() & { return *value_; }
    const T& value() const& { return *value_; }
    T&& value() && { return std::move(*value_); }
    T* operator->() { return &*value_; }

private:
    Status status_;
    std::optional<T> value_;
};

} // namespace usmcl::core

// Returns from the enclosing function when a Status-returning expression fails.
#define USMCL_TRY(expression)                                                                      \
    do {                                                                                           \
        if (::usmcl::core::Status usmcl_status_ = (expression); !usmcl_status_.ok())               \
            return usmcl_status_;                                                                  \
    } while (0)

// Returns the status from the enclosing body when check fails.
#define USMCL_CHECK(condition, code, reason)                                                       \
    do {                                                                                           \
        if (!(condition))                                                                          \
            return ::usmcl::core::Status((code), (reason));                                        \
    } while (0)
