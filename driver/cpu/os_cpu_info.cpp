#include "cpu/os_cpu_info.hpp"

#include <charconv>
#include <cmath>
#include <fstream>

namespace usmcl::cpu {

namespace {

constexpr std::string_view white_space = " \t\n\r\f\v";

// The number text starts with; 0 if it does not start with one.
double leading_number(std::string_view text) {
    double value = 0;
    const auto result = std::from_chars(text.data(), text.data() + text.size(), value);
    return result.ec == std::errc() && value > 0 ? value : 0;
}

unsigned round_to_unsigned(double value) {
    return value > 0 && value < 1e9 ? static_cast<unsigned>(std::lround(value)) : 0;
}

unsigned cpufreq_max_mhz() {
    std::ifstream file("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
    std::string line;
    if (!std::getline(file, line)) {
        return 0;
    }
    return round_to_unsigned(leading_number(trim(line)) / 1000.0); // the file holds kHz
}

} // namespace

std::string trim(std::string_view text) {
    const auto first = text.find_first_not_of(white_space);
    if (first == std::string_view::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(white_space);
    return std::string(text.substr(first, last - first + 1));
}

std::string cpuinfo_field(std::string_view key) {
    std::ifstream file("/proc/cpuinfo");
    std::string line;
    while (std::getline(file, line)) {
        const auto colon = line.find(':');
        if (colon != std::string::npos && trim(std::string_view(line).substr(0, colon)) == key) {
            return trim(std::string_view(line).substr(colon + 1));
        }
    }
    return {};
}

unsigned clock_from_brand(std::string_view brand) {
    const auto at = brand.rfind('@');
    if (at == std::string_view::npos) {
        return 0;
    }
    const std::string rest = trim(brand.substr(at + 1));
    const double value = leading_number(rest);
    if (rest.find("GHz") != std::string::npos) {
        return round_to_unsigned(value * 1000.0);
    }
    if (rest.find("MHz") != std::string::npos) {
        return round_to_unsigned(value);
    }
    return 0;
}

unsigned max_clock_mhz(std::string_view brand) {
    if (const unsigned mhz = cpufreq_max_mhz(); mhz != 0) {
        return mhz;
    }
    if (const unsigned mhz = round_to_unsigned(leading_number(cpuinfo_field("cpu MHz")));
        mhz != 0) {
        return mhz;
    }
    return clock_from_brand(brand);
}

} // namespace usmcl::cpu
