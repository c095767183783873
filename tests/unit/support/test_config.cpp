// driver/support: the USMCL_* configuration and the debug log categories.
#include "support/config.hpp"
#include "support/log.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <utility>

using usmcl::support::Config;
using usmcl::support::LogCategory;
using usmcl::support::parse_config;
using usmcl::support::parse_log_categories;

namespace {

std::map<std::string, std::string> environment;

const char* lookup(const char* name) {
    auto it = environment.find(name);
    return it == environment.end() ? nullptr : it->second.c_str();
}

} // namespace

TEST_CASE("configuration values parse, bad ones are reported and ignored") {
    environment = {{"USMCL_DEBUG", "api,usm"}, {"USMCL_NUMA_DOMAINS", "1"}};
    std::string warnings;
    Config config = parse_config(lookup, &warnings);
    CHECK(config.debug == "api,usm");
    CHECK(config.numa_domains);
    CHECK(warnings.empty());

    environment = {{"USMCL_NUMA_DOMAINS", "maybe"}};
    warnings.clear();
    config = parse_config(lookup, &warnings);
    CHECK_FALSE(config.numa_domains);
    CHECK(warnings.find("USMCL_NUMA_DOMAINS=maybe") != std::string::npos);
}

TEST_CASE("unknown USMCL_ variables are warned about") {
    const char* const environment[] = {"PATH=/usr/bin",     "USMCL_DEBUG=api",    "USMCL_DEBGU=api",
                                       "USMCL_TEST_SEED=7", "XUSMCL_CACHE_DIR=x", nullptr};
    const std::string warnings = usmcl::support::unknown_variable_warnings(environment);
    CHECK(warnings.find("USMCL_DEBGU") != std::string::npos);
    CHECK(warnings.find("USMCL_DEBUG,") == std::string::npos);
    CHECK(warnings.find("USMCL_TEST_SEED") == std::string::npos);
    CHECK(warnings.find("XUSMCL") == std::string::npos);
    CHECK(std::count(warnings.begin(), warnings.end(), '\n') == 1);
    const char* const clean[] = {"USMCL_CACHE=0", nullptr};
    CHECK(usmcl::support::unknown_variable_warnings(clean).empty());
}

TEST_CASE("sizes parse with binary suffixes, overflow and junk are rejected") {
    const std::pair<const char*, std::uint64_t> good[] = {
        {"1048576", 1048576},     {"64KiB", 64u << 10},   {"64k", 64u << 10},
        {"512MiB", 512ull << 20}, {"512M", 512ull << 20}, {"1GiB", 1ull << 30},
        {"3GB", 3ull << 30},      {"2TiB", 2ull << 40},   {"0", 0},
    };
    for (const auto& [text, value] : good) {
        environment = {{"USMCL_DISCRETE_MEMORY", text}};
        std::string warnings;
        const Config config = parse_config(lookup, &warnings);
        INFO(text);
        CHECK(config.discrete_memory == value);
        CHECK(warnings.empty());
    }
    for (const char* text :
         {"", "GiB", "1X", "1 GiB", "1GiBs", "1Gb", "-1", "99999999999999999999", "17179869184T"}) {
        environment = {{"USMCL_DISCRETE_MEMORY", text}};
        std::string warnings;
        const Config config = parse_config(lookup, &warnings);
        INFO(text);
        CHECK(config.discrete_memory == (std::uint64_t(1) << 30)); // the default
        CHECK(warnings.find("USMCL_DISCRETE_MEMORY") != std::string::npos);
    }
}

TEST_CASE("debug categories") {
    std::string unknown;
    CHECK(parse_log_categories("", &unknown) == 0);
    CHECK(parse_log_categories("api", &unknown) == static_cast<std::uint32_t>(LogCategory::api));
    CHECK(parse_log_categories(" api , exec ", &unknown) ==
          (static_cast<std::uint32_t>(LogCategory::api) |
           static_cast<std::uint32_t>(LogCategory::exec)));
    CHECK(unknown.empty());
    CHECK(parse_log_categories("all", &unknown) == ~0u);
    CHECK(parse_log_categories("api,bogus,nope", &unknown) ==
          static_cast<std::uint32_t>(LogCategory::api));
    CHECK(unknown == "bogus,nope");
}
