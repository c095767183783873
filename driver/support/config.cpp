#include "support/config.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string_view>

#include <unistd.h>

namespace usmcl::support {
namespace {

bool parse_value(std::string_view text, std::string& out) {
    out = std::string(text);
    return true;
}

[[maybe_unused]] bool parse_value(std::string_view text, unsigned& out) {
    unsigned value = 0;
    if (text.empty())
        return false;
    for (char c : text) {
        if (c < '0' || c > '9' || value > (~0u - 9) / 10)
            return false;
        value = value * 10 + static_cast<unsigned>(c - '0');
    }
    out = value;
    return true;
}

[[maybe_unused]] bool parse_value(std::string_view text, bool& out) {
    if (text == "1" || text == "true" || text == "yes" || text == "on") {
        out = true;
        return true;
    }
    if (text == "0" || text == "false" || text == "no" || text == "off") {
        out = false;
        return true;
    }
    return false;
}

// A size in bytes: digits, then optionally K, M, G or T (binary multiples),
// alone or followed by B or iB.
[[maybe_unused]] bool parse_value(std::string_view text, std::uint64_t& out) {
    size_t digits = 0;
    std::uint64_t value = 0;
    while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9') {
        if (value > (~std::uint64_t(0) - 9) / 10)
            return false;
        value = value * 10 + static_cast<std::uint64_t>(text[digits] - '0');
        ++digits;
    }
    if (digits == 0)
        return false;
    std::string_view suffix = text.substr(digits);
    unsigned shift = 0;
    if (!suffix.empty()) {
        const std::string_view units = "KMGT";
        const size_t unit = units.find(static_cast<char>(suffix[0] & ~0x20));
        if (unit == std::string_view::npos)
            return false;
        shift = 10 * static_cast<unsigned>(unit + 1);
        suffix.remove_prefix(1);
        if (suffix != "" && suffix != "B" && suffix != "iB")
            return false;
    }
    if (shift != 0 && value > (~std::uint64_t(0) >> shift))
        return false;
    out = value << shift;
    return true;
}

} // namespace

Config parse_config(const char* (*lookup)(const char* name), std::string* warnings) {
    Config config;
#define USMCL_CONFIG(kind, name, member, default_value, doc)                                       \
    if (const char* text = lookup("USMCL_" #name)) {                                               \
        if (!parse_value(text, config.member) && warnings)                                         \
            *warnings += "usmcl: ignoring USMCL_" #name "=" + std::string(text) +                  \
                         " (expected a " #kind ")\n";                                              \
    }
#include "support/config.def"
    return config;
}

std::string unknown_variable_warnings(const char* const* environment) {
    static constexpr std::string_view known[] = {
#define USMCL_CONFIG(kind, name, member, default_value, doc) "USMCL_" #name,
#include "support/config.def"
    };
    std::string warnings;
    for (const char* const* entry = environment; entry && *entry; ++entry) {
        const std::string_view text(*entry);
        if (!text.starts_with("USMCL_") || text.starts_with("USMCL_TEST_"))
            continue;
        const std::string_view name = text.substr(0, text.find('='));
        if (std::find(std::begin(known), std::end(known), name) == std::end(known))
            warnings += "usmcl: ignoring " + std::string(name) +
                        ", which is not one of usmcl's variables (docs/configuration.md)\n";
    }
    return warnings;
}

const Config& config() {
    static const Config parsed = [] {
        std::string warnings = unknown_variable_warnings(environ);
        Config result = parse_config(
            [](const char* name) -> const char* { return std::getenv(name); }, &warnings);
        if (!warnings.empty())
            std::fputs(warnings.c_str(), stderr);
        return result;
    }();
    return parsed;
}

} // namespace usmcl::support
