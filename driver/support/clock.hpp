// The one clock behind host timers, device timers and event profiling:
// CLOCK_MONOTONIC in nanoseconds.
#pragma once

#include <cstdint>
#include <ctime>

namespace usmcl::support {

inline std::uint64_t monotonic_ns() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return static_cast<std::uint64_t>(now.tv_sec) * 1000000000ull +
           static_cast<std::uint64_t>(now.tv_nsec);
}

inline std::uint64_t host_timer_resolution_ns() {
    timespec resolution{};
    clock_getres(CLOCK_MONOTONIC, &resolution);
    const std::uint64_t ns = static_cast<std::uint64_t>(resolution.tv_sec) * 1000000000ull +
                             static_cast<std::uint64_t>(resolution.tv_nsec);
    return ns == 0 ? 1 : ns;
}

} // namespace usmcl::support
