// What the C++ conformance programs (math, usm) ask every platform: its and
// its devices' info strings, and the platform a --platform argument names.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif

#include <CL/cl.h>

#include <iostream>
#include <string>
#include <vector>

namespace conformance {

inline std::string platform_string(cl_platform_id platform, cl_platform_info name) {
    size_t size = 0;
    if (clGetPlatformInfo(platform, name, 0, nullptr, &size) != CL_SUCCESS)
        return "";
    std::string text(size, '\0');
    clGetPlatformInfo(platform, name, size, text.data(), nullptr);
    while (!text.empty() && text.back() == '\0')
        text.pop_back();
    return text;
}

inline std::string device_string(cl_device_id device, cl_device_info name) {
    size_t size = 0;
    if (clGetDeviceInfo(device, name, 0, nullptr, &size) != CL_SUCCESS)
        return "";
    std::string text(size, '\0');
    clGetDeviceInfo(device, name, size, text.data(), nullptr);
    while (!text.empty() && text.back() == '\0')
        text.pop_back();
    return text;
}

// Whether the space-separated list (an extensions string) holds word.
inline bool has_word(const std::string& list, const std::string& word) {
    size_t at = 0;
    while ((at = list.find(word, at)) != std::string::npos) {
        const bool start = at == 0 || list[at - 1] == ' ';
        const bool end = at + word.size() == list.size() || list[at + word.size()] == ' ';
        if (start && end)
            return true;
        at += word.size();
    }
    return false;
}

// The platform a non-empty --platform argument names: an index, or a text
// contained in the name or vendor. nullptr, with the reason (and the
// platforms) printed, when none does.
inline cl_platform_id named_platform(const std::vector<cl_platform_id>& platforms,
                                     const std::string& argument) {
    if (argument.find_first_not_of("0123456789") == std::string::npos) {
        const size_t index = std::stoul(argument);
        if (index < platforms.size())
            return platforms[index];
        std::cout << "platform index " << index << " out of range (" << platforms.size()
                  << " platforms)\n";
        return nullptr;
    }
    for (cl_platform_id platform : platforms)
        if (platform_string(platform, CL_PLATFORM_NAME).find(argument) != std::string::npos ||
            platform_string(platform, CL_PLATFORM_VENDOR).find(argument) != std::string::npos)
            return platform;
    std::cout << "no platform whose name or vendor contains '" << argument << "'; platforms:\n";
    for (size_t i = 0; i < platforms.size(); ++i)
        std::cout << "  " << i << ": " << platform_string(platforms[i], CL_PLATFORM_NAME) << "\n";
    return nullptr;
}

} // namespace conformance
