#include "support/log.hpp"

#include "support/config.hpp"

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>

namespace usmcl::support {
namespace {

struct CategoryName {
    std::string_view name;
    LogCategory category;
};

constexpr CategoryName category_names[] = {
    {"api", LogCategory::api},         {"device", LogCategory::device},
    {"context", LogCategory::context}, {"memory", LogCategory::memory},
    {"usm", LogCategory::usm},         {"compiler", LogCategory::compiler},
    {"exec", LogCategory::exec},
};

std::string_view name_of(LogCategory category) {
    for (const auto& entry : category_names)
        if (entry.category == category)
            return entry.name;
    return "?";
}

std::mutex log_mutex;
std::FILE* log_file = stderr;

} // namespace

namespace detail {
std::atomic<std::uint32_t> enabled_log_categories{0};

void initialize_log() {
    const Config& cfg = config();
    std::string unknown;
    enabled_log_categories.store(parse_log_categories(cfg.debug, &unknown),
                                 std::memory_order_relaxed);
    if (!cfg.debug_file.empty()) {
        if (std::FILE* file = std::fopen(cfg.debug_file.c_str(), "a"))
            log_file = file;
        else
            std::fprintf(stderr, "usmcl: cannot open USMCL_DEBUG_FILE=%s; logging to stderr\n",
                         cfg.debug_file.c_str());
    }
    if (!unknown.empty())
        std::fprintf(stderr, "usmcl: unknown USMCL_DEBUG categories ignored: %s\n",
                     unknown.c_str());
}
} // namespace detail

std::uint32_t parse_log_categories(std::string_view text, std::string* unknown) {
    std::uint32_t mask = 0;
    while (!text.empty()) {
        const auto comma = text.find(',');
        std::string_view word = text.substr(0, comma);
        text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
        while (!word.empty() && word.front() == ' ')
            word.remove_prefix(1);
        while (!word.empty() && word.back() == ' ')
            word.remove_suffix(1);
        if (word.empty())
            continue;
        if (word == "all" || word == "1") {
            mask = ~0u;
            continue;
        }
        bool known = false;
        for (const auto& entry : category_names) {
            if (entry.name == word) {
                mask |= static_cast<std::uint32_t>(entry.category);
                known = true;
            }
        }
        if (!known && unknown) {
            if (!unknown->empty())
                *unknown += ',';
            *unknown += word;
        }
    }
    return mask;
}

void log_write(LogCategory category, const char* format, ...) {
    char buffer[1024];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    const std::string_view name = name_of(category);
    std::lock_guard lock(log_mutex);
    std::fprintf(log_file, "usmcl[%.*s] %s\n", static_cast<int>(name.size()), name.data(), buffer);
    std::fflush(log_file);
}

} // namespace usmcl::support
