// A small CTS-style harness: named sub-tests, checks that record the failing
// file:line with the values seen, a watchdog that turns a hang into a failure,
// and the OpenCL environment (platform, device, context, queues and the
// extension's functions) shared by the sub-tests.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif

#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

namespace usmconf {

// ---------------------------------------------------------------- checks --

// The name of an OpenCL error code ("CL_INVALID_VALUE (-30)").
std::string error_name(cl_int code);

// Records a failed check of the running sub-test (printed at once).
void record_failure(const char* file, int line, const std::string& what);

// Thrown by REQUIRE_* to stop the running sub-test after a failure.
struct Abort {};
// Thrown by SKIP: the sub-test cannot run on this device (not a failure).
struct Skipped {
    std::string why;
};

template <class T>
std::string show(const T& value) {
    std::ostringstream out;
    if constexpr (std::is_pointer_v<T>) {
        out << static_cast<const void*>(value);
    } else if constexpr (sizeof(T) == 1 && std::is_integral_v<T>) {
        out << static_cast<int>(value);
    } else {
        out << value;
    }
    return out.str();
}

} // namespace usmconf

#define USMCONF_STR2(x) #x
#define USMCONF_STR(x) USMCONF_STR2(x)

// CHECK(cond): the condition must hold.
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ::usmconf::record_failure(__FILE__, __LINE__, "CHECK(" #cond ")");                     \
    } while (0)

// CHECK_MSG(cond, message-stream-expression)
#define CHECK_MSG(cond, msg)                                                                       \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            std::ostringstream usmconf_m;                                                          \
            usmconf_m << "CHECK(" #cond "): " << msg;                                              \
            ::usmconf::record_failure(__FILE__, __LINE__, usmconf_m.str());                        \
        }                                                                                          \
    } while (0)

// CHECK_EQ(actual, expected): prints both values.
#define CHECK_EQ(actual, expected)                                                                 \
    do {                                                                                           \
        const auto usmconf_a = (actual);                                                           \
        const auto usmconf_e = (expected);                                                         \
        if (!(usmconf_a == usmconf_e))                                                             \
            ::usmconf::record_failure(__FILE__, __LINE__,                                          \
                                      #actual " == " #expected ": got " +                          \
                                          ::usmconf::show(usmconf_a) + ", expected " +             \
                                          ::usmconf::show(usmconf_e));                             \
    } while (0)

// CHECK_ERR(call, expected-cl_int): prints error names.
#define CHECK_ERR(call, expected)                                                                  \
    do {                                                                                           \
        const cl_int usmconf_a = (call);                                                           \
        const cl_int usmconf_e = (expected);                                                       \
        if (usmconf_a != usmconf_e)                                                                \
            ::usmconf::record_failure(__FILE__, __LINE__,                                          \
                                      #call ": returned " + ::usmconf::error_name(usmconf_a) +     \
                                          ", expected " + ::usmconf::error_name(usmconf_e));       \
    } while (0)

#define CHECK_OK(call) CHECK_ERR(call, CL_SUCCESS)

// REQUIRE_OK(call): like CHECK_OK, but stops the sub-test on failure.
#define REQUIRE_OK(call)                                                                           \
    do {                                                                                           \
        const cl_int usmconf_a = (call);                                                           \
        if (usmconf_a != CL_SUCCESS) {                                                             \
            ::usmconf::record_failure(__FILE__, __LINE__,                                          \
                                      #call ": returned " + ::usmconf::error_name(usmconf_a) +     \
                                          ", expected CL_SUCCESS");                                \
            throw ::usmconf::Abort{};                                                              \
        }                                                                                          \
    } while (0)

#define REQUIRE(cond)                                                                              \
    do {                                                                                           \
        if (!(cond)) {                                                                             \
            ::usmconf::record_failure(__FILE__, __LINE__, "REQUIRE(" #cond ")");                   \
            throw ::usmconf::Abort{};                                                              \
        }                                                                                          \
    } while (0)

#define SKIP(why)                                                                                  \
    throw ::usmconf::Skipped {                                                                     \
        why                                                                                        \
    }

namespace usmconf {

// ----------------------------------------------------- sub-test registry --

struct Env;

struct TestCase {
    const char* name;
    const char* description;
    void (*run)(Env&);
};

std::vector<TestCase>& registry();

struct Register {
    Register(const char* name, const char* description, void (*run)(Env&)) {
        registry().push_back({name, description, run});
    }
};

#define USMCONF_CAT2(a, b) a##b
#define USMCONF_CAT(a, b) USMCONF_CAT2(a, b)
// TEST(name, "description") { ... env ... }
#define TEST(name, description)                                                                    \
    static void usmconf_test_##name(::usmconf::Env& env);                                          \
    static ::usmconf::Register USMCONF_CAT(usmconf_reg_, name)(#name, description,                 \
                                                               usmconf_test_##name);               \
    static void usmconf_test_##name([[maybe_unused]] ::usmconf::Env& env)

// A note printed under the running sub-test (for answers the spec leaves
// open, and checks that could not be made on this device).
void note(const std::string& text);

} // namespace usmconf
