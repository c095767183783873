// Transparent huge pages: the mode file's parser, and what a domain asks the
// system for on a large instance, read back from the flags of the mapping in
// /proc/self/smaps ("hg": huge pages advised, "nh": withdrawn). On a system
// whose mode is not "madvise" the same allocations must leave the flags alone.
#include "memory/domain.hpp"
#include "memory/huge_pages.hpp"
#include "support/config.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

using usmcl::memory::advised_huge_page_size;
using usmcl::memory::Domain;
using usmcl::memory::HugePageMode;
using usmcl::memory::parse_huge_page_mode;

namespace {

// The VmFlags line of the mapping of /proc/self/smaps that holds address.
std::string mapping_flags(const void* address) {
    std::ifstream smaps("/proc/self/smaps");
    const auto where = reinterpret_cast<std::uintptr_t>(address);
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line)) {
        unsigned long begin = 0;
        unsigned long end = 0;
        char dash = 0;
        std::istringstream fields(line);
        if (fields >> std::hex >> begin >> dash >> end && dash == '-') {
            inside = where >= begin && where < end;
            continue;
        }
        if (inside && line.rfind("VmFlags:", 0) == 0)
            return line.substr(8) + " ";
    }
    return "";
}

bool has_flag(const std::string& flags, const char* flag) {
    return flags.find(std::string(" ") + flag + " ") != std::string::npos;
}

std::string system_mode_file() {
    std::ifstream in("/sys/kernel/mm/transparent_hugepage/enabled");
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

TEST_CASE("the transparent huge page mode is the bracketed word", "[huge_pages]") {
    CHECK(parse_huge_page_mode("always [madvise] never\n") == HugePageMode::madvise);
    CHECK(parse_huge_page_mode("[always] madvise never\n") == HugePageMode::always);
    CHECK(parse_huge_page_mode("always madvise [never]\n") == HugePageMode::never);
    CHECK(parse_huge_page_mode("") == HugePageMode::unavailable);
    CHECK(parse_huge_page_mode("always madvise never") == HugePageMode::unavailable);
    CHECK(parse_huge_page_mode("[sometimes]") == HugePageMode::unavailable);
}

TEST_CASE("huge pages are asked for only in madvise mode, unless USMCL_HUGE_PAGES=0",
          "[huge_pages]") {
    const bool madvise_mode = parse_huge_page_mode(system_mode_file()) == HugePageMode::madvise;
    const bool wanted = usmcl::support::config().huge_pages;
    INFO("mode file: " << system_mode_file() << "USMCL_HUGE_PAGES on: " << wanted);
    CHECK((advised_huge_page_size() != 0) == (madvise_mode && wanted));
    if (advised_huge_page_size() != 0)
        CHECK(advised_huge_page_size() >= (std::size_t{2} << 20));
}

TEST_CASE("a large instance advises its whole huge pages and withdraws them on release",
          "[huge_pages]") {
    const std::size_t huge = advised_huge_page_size();
    // A region domain (a discrete device's memory) and the host domain's
    // mapped instances: both paths of Domain::allocate.
    Domain region(1, "region", std::size_t{256} << 20);
    Domain host(0, "host", -1, nullptr);
    for (const Domain* domain : {&region, &host}) {
        INFO("domain " << domain->name());
        const std::size_t size = std::size_t{12} << 20;
        std::byte* instance = domain->allocate(size);
        REQUIRE(instance != nullptr);
        std::memset(instance, 1, size);
        // The middle of the instance lies inside a whole huge page.
        std::byte* middle = instance + size / 2;
        const std::string flags = mapping_flags(middle);
        REQUIRE(!flags.empty());
        INFO("flags while allocated: " << flags);
        CHECK(has_flag(flags, "hg") == (huge != 0));
        if (domain->has_region()) {
            domain->release(instance, size);
            const std::string after = mapping_flags(middle);
            INFO("flags after release: " << after);
            CHECK_FALSE(has_flag(after, "hg"));
            CHECK(has_flag(after, "nh") == (huge != 0));
        } else {
            domain->release(instance, size);
        }
    }
}

TEST_CASE("a small instance asks for nothing", "[huge_pages]") {
    Domain region(1, "region", std::size_t{64} << 20);
    const std::size_t size = std::size_t{1} << 20;
    std::byte* instance = region.allocate(size);
    REQUIRE(instance != nullptr);
    const std::string flags = mapping_flags(instance);
    REQUIRE(!flags.empty());
    INFO("flags: " << flags);
    CHECK_FALSE(has_flag(flags, "hg"));
    CHECK_FALSE(has_flag(flags, "nh"));
    region.release(instance, size);
}
