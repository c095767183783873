// Helpers of the optional-feature tests: whether the device reports an
// extension or an OpenCL C feature, and a context with one queue that builds
// programs (kernel_test::Fixture).
#pragma once

#include "kernels/kernel_test.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace features_test {

inline bool has(const std::vector<std::string>& list, const std::string& name) {
    return std::find(list.begin(), list.end(), name) != list.end();
}

inline std::vector<std::string> extensions(cl_device_id device) {
    return cl_test::split_words(cl_test::device_info_string(device, CL_DEVICE_EXTENSIONS));
}

inline std::vector<std::string> opencl_c_features(cl_device_id device) {
    return cl_test::names_of(
        cl_test::device_info_array<cl_name_version>(device, CL_DEVICE_OPENCL_C_FEATURES));
}

} // namespace features_test
