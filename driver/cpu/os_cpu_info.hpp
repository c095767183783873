// What the operating system says about the CPU: /proc/cpuinfo fields and the
// highest clock frequency.
#pragma once

#include <string>
#include <string_view>

namespace usmcl::cpu {

// text without leading and trailing white space.
std::string trim(std::string_view text);

// The value of the first "key : value" line of /proc/cpuinfo with that key;
// empty if there is none.
std::string cpuinfo_field(std::string_view key);

// The clock in MHz written as "@ 3.60GHz" (or "MHz") in a CPU brand string; 0 if absent.
unsigned clock_from_brand(std::string_view brand);

// The highest clock in MHz: cpufreq's cpuinfo_max_freq, else the "cpu MHz"
// line of /proc/cpuinfo, else the brand string's; 0 if none is known.
unsigned max_clock_mhz(std::string_view brand);

} // namespace usmcl::cpu
