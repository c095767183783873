// The answer of the migration-counter queries of usmcl_ext.h
// (clGetDeviceMigrationCountersUSMCL, clGetMemObjectMigrationCountersUSMCL,
// clGetMemAllocMigrationCountersUSMCL): their argument rules and the
// copy-out, in one place.
#pragma once

#include "api/boundary.hpp"

#include <CL/usmcl_ext.h>

#include <array>

namespace usmcl::api {

// Writes the first min(num_values, N) counters to values and their number
// to num_values_ret (each when not NULL).
template <size_t N>
core::Status write_migration_counters(const std::array<cl_ulong, N>& counters, cl_uint num_values,
                                      cl_ulong* values, cl_uint* num_values_ret) {
    USMCL_CHECK(values || num_values == 0, CL_INVALID_VALUE, "values is NULL");
    USMCL_CHECK(values || num_values_ret, CL_INVALID_VALUE, "values and num_values_ret are NULL");
    for (cl_uint i = 0; values && i < num_values && i < counters.size(); ++i)
        values[i] = counters[i];
    if (num_values_ret)
        *num_values_ret = static_cast<cl_uint>(N);
    return {};
}

} // namespace usmcl::api
