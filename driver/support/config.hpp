// The driver's configuration, read once from the USMCL_* environment
// variables listed in config.def.
#pragma once

#include <cstdint>
#include <string>

namespace usmcl::support {

struct Config {
#define USMCL_CONFIG(kind, name, member, default_value, doc)                                       \
    USMCL_CONFIG_##kind member = default_value;
#define USMCL_CONFIG_string std::string
#define USMCL_CONFIG_unsigned unsigned
#define USMCL_CONFIG_boolean bool
#define USMCL_CONFIG_bytes std::uint64_t
#include "support/config.def"
#undef USMCL_CONFIG_string
#undef USMCL_CONFIG_unsigned
#undef USMCL_CONFIG_boolean
#undef USMCL_CONFIG_bytes
};

// The configuration of this process, parsed on first use (thread-safe).
const Config& config();

// Parses a configuration from a getenv-like lookup; warnings for values that
// do not parse go to *warnings, one per line. Used by config() and by tests.
Config parse_config(const char* (*lookup)(const char* name), std::string* warnings);

// Warnings for the USMCL_* variables of an environment (NAME=VALUE entries,
// null-terminated, as environ) that config.def does not list, one per line:
// most likely a misspelling. USMCL_TEST_* belongs to usmcl's tests.
std::string unknown_variable_warnings(const char* const* environment);

} // namespace usmcl::support
