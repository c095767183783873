// The debug log: categories switched on by USMCL_DEBUG, written to standard
// error or USMCL_DEBUG_FILE. Cheap when off: one relaxed atomic load.
#pragma once

#include <atomic>
#include <cstdint>
#include <string_view>

namespace usmcl::support {

enum class LogCategory : std::uint32_t {
    api = 1u << 0,      // rejected calls and why
    device = 1u << 1,   // topology, device info, sub-devices
    context = 1u << 2,  // contexts and their callbacks
    memory = 1u << 3,   // buffers, versions, migrations
    usm = 1u << 4,      // USM allocations
    compiler = 1u << 5, // program builds
    exec = 1u << 6,     // command scheduling and execution
};

// Parses "api,usm" / "all"; unknown names are appended to *unknown, comma-separated.
std::uint32_t parse_log_categories(std::string_view text, std::string* unknown);

namespace detail {
extern std::atomic<std::uint32_t> enabled_log_categories;
void initialize_log();
} // namespace detail

inline bool log_enabled(LogCategory category) {
    static const bool initialized = (detail::initialize_log(), true);
    (void)initialized;
    return (detail::enabled_log_categories.load(std::memory_order_relaxed) &
            static_cast<std::uint32_t>(category)) != 0;
}

// printf-style; one line per call, prefixed with "usmcl[category]".
void log_write(LogCategory category, const char* format, ...) __attribute__((format(printf, 2, 3)));

} // namespace usmcl::support

#define USMCL_LOG(category, ...)                                                                   \
    do {                                                                                           \
        if (::usmcl::support::log_enabled(::usmcl::support::LogCategory::category))                \
            ::usmcl::support::log_write(::usmcl::support::LogCategory::category, __VA_ARGS__);     \
    } while (0)
