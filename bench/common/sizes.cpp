#include "sizes.hpp"

#include <cstdio>
#include <cstdlib>

namespace bench {

std::string human_size(std::uint64_t bytes) {
    char text[32];
    const auto whole = [&](std::uint64_t unit, const char* name) {
        std::snprintf(text, sizeof text, "%llu %s", static_cast<unsigned long long>(bytes / unit),
                      name);
    };
    if (bytes >= GiB && bytes % GiB == 0)
        whole(GiB, "GiB");
    else if (bytes >= MiB && bytes % MiB == 0)
        whole(MiB, "MiB");
    else if (bytes >= MiB)
        std::snprintf(text, sizeof text, "%.2f MiB", static_cast<double>(bytes) / MiB);
    else if (bytes >= KiB && bytes % KiB == 0)
        whole(KiB, "KiB");
    else
        whole(1, "B");
    return text;
}

std::size_t parse_size(const char* text) {
    char* end = nullptr;
    std::size_t value = std::strtoull(text, &end, 10);
    if (end && (*end == 'K' || *end == 'k'))
        value *= KiB;
    else if (end && (*end == 'M' || *end == 'm'))
        value *= MiB;
    else if (end && (*end == 'G' || *end == 'g'))
        value *= GiB;
    return value;
}

} // namespace bench
