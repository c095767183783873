#include "memory/huge_pages.hpp"

#include "support/config.hpp"
#include "support/log.hpp"

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/mman.h>

namespace usmcl::memory {
namespace {

constexpr const char* mode_file = "/sys/kernel/mm/transparent_hugepage/enabled";
constexpr const char* size_file = "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size";

std::string read_file(const char* path) {
    std::ifstream in(path);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::size_t read_huge_page_size() {
    if (!support::config().huge_pages)
        return 0;
    if (parse_huge_page_mode(read_file(mode_file)) != HugePageMode::madvise)
        return 0;
    std::size_t size = 0;
    std::istringstream(read_file(size_file)) >> size;
    // A power of two of at least 64 KiB, or nothing (a file that does not parse).
    if (size < (std::size_t{1} << 16) || (size & (size - 1)) != 0)
        return 0;
    USMCL_LOG(memory, "transparent huge pages of %zu bytes asked for in large allocations", size);
    return size;
}

// The whole huge pages of [address, address + size): their start and
// length (0 when none fits or none is asked for).
std::size_t whole_huge_pages(void* address, std::size_t size, std::byte*& first) {
    const std::size_t huge = advised_huge_page_size();
    if (huge == 0)
        return 0;
    const auto start = reinterpret_cast<std::uintptr_t>(address);
    const std::uintptr_t begin = (start + huge - 1) / huge * huge;
    const std::uintptr_t end = (start + size) / huge * huge;
    if (end <= begin)
        return 0;
    // The address's own pointer, moved: no integer becomes a pointer.
    first = static_cast<std::byte*>(address) + (begin - start);
    return end - begin;
}

} // namespace

HugePageMode parse_huge_page_mode(std::string_view enabled_file) {
    const std::size_t open = enabled_file.find('[');
    const std::size_t close = enabled_file.find(']', open);
    if (open == std::string_view::npos || close == std::string_view::npos)
        return HugePageMode::unavailable;
    const std::string_view word = enabled_file.substr(open + 1, close - open - 1);
    if (word == "always")
        return HugePageMode::always;
    if (word == "madvise")
        return HugePageMode::madvise;
    if (word == "never")
        return HugePageMode::never;
    return HugePageMode::unavailable;
}

std::size_t advised_huge_page_size() {
    static const std::size_t size = read_huge_page_size();
    return size;
}

void advise_huge_pages(void* address, std::size_t size) {
    std::byte* first = nullptr;
    // A refusal (an old kernel, a full map count) leaves small pages: only speed is lost.
    if (const std::size_t length = whole_huge_pages(address, size, first))
        madvise(first, length, MADV_HUGEPAGE);
}

void withdraw_huge_pages(void* address, std::size_t size) {
    std::byte* first = nullptr;
    if (const std::size_t length = whole_huge_pages(address, size, first))
        madvise(first, length, MADV_NOHUGEPAGE);
}

} // namespace usmcl::memory
