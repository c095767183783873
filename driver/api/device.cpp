// Device entry points: clGetDeviceIDs, clCreateSubDevices, clRetainDevice,
// clReleaseDevice, clGetDeviceAndHostTimer, clGetHostTimer.
// (clGetDeviceInfo is in device_info.cpp.)
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/migration_counters.hpp"
#include "api/validate.hpp"
#include "core/platform.hpp"
#include "support/clock.hpp"

namespace usmcl::api {
namespace {

Result<core::PartitionRequest> parse_partition(const core::Device& device,
                                               const cl_device_partition_property* properties) {
    // CL_INVALID_VALUE if values specified in properties are not valid or if
    // values specified in properties are valid but not supported by the device.
    if (properties == nullptr)
        return Status(CL_INVALID_VALUE, "properties is NULL");
    const auto& supported = device.description().partition_properties;
    const cl_device_partition_property scheme = properties[0];
    if (std::find(supported.begin(), supported.end(), scheme) == supported.end())
        return Status(CL_INVALID_VALUE, "partition scheme unknown or not supported by the device");

    core::PartitionRequest request;
    size_t length = 0;
    if (scheme == CL_DEVICE_PARTITION_EQUALLY) {
        request.kind = core::PartitionRequest::Kind::equally;
        if (properties[1] < 0 || properties[1] > static_cast<cl_device_partition_property>(~0u))
            return Status(CL_INVALID_VALUE, "CL_DEVICE_PARTITION_EQUALLY count out of range");
        request.units_per_device = static_cast<unsigned>(properties[1]);
        length = 2;
    } else if (scheme == CL_DEVICE_PARTITION_BY_COUNTS) {
        request.kind = core::PartitionRequest::Kind::by_counts;
        length = 1;
        const auto limit = static_cast<size_t>(device.description().compute_units) + 1;
        while (properties[length] != CL_DEVICE_PARTITION_BY_COUNTS_LIST_END) {
            // A negative count: CL_INVALID_DEVICE_PARTITION_COUNT.
            if (properties[length] < 0)
                return Status(CL_INVALID_DEVICE_PARTITION_COUNT, "negative compute unit count");
            if (request.counts.size() >= limit)
                return Status(CL_INVALID_DEVICE_PARTITION_COUNT,
                              "more sub-devices than compute units");
            const cl_device_partition_property count = properties[length];
            request.counts.push_back(count > static_cast<cl_device_partition_property>(~0u)
                                         ? ~0u
                                         : static_cast<unsigned>(count));
            ++length;
        }
        if (request.counts.empty())
            return Status(CL_INVALID_VALUE, "CL_DEVICE_PARTITION_BY_COUNTS with no count");
        // The list end (0) ends the property list too: nothing after it is
        // read. Intel's Unified Runtime sends {BY_COUNTS, 1, 1, 0}, one 0 for
        // both, and Intel's and PoCL's drivers take it; a second 0 is the
        // same list.
        request.properties.assign(properties, properties + length + 1);
        request.properties.push_back(0);
        return request;
    } else {
        request.kind = core::PartitionRequest::Kind::by_affinity_domain;
        const auto domain = static_cast<cl_device_affinity_domain>(properties[1]);
        const auto known = to_affinity_domain(domain);
        if (!known || (domain & device.description().affinity_domains) == 0)
            return Status(CL_INVALID_VALUE, "affinity domain unknown or not supported");
        request.domain = *known;
        length = 2;
    }
    if (properties[length] != 0)
        return Status(CL_INVALID_VALUE, "partition properties are not terminated by 0");
    request.properties.assign(properties, properties + length + 1);
    return request;
}

} // namespace

cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                  cl_uint num_entries, cl_device_id* devices,
                                  cl_uint* num_devices) {
    return guarded(__func__, [&]() -> Status {
        // A NULL platform selects usmcl's (implementation-defined in the spec).
        core::Platform* object =
            platform ? core::Platform::from_handle(platform) : &core::Platform::instance();
        USMCL_CHECK(object, CL_INVALID_PLATFORM, "not a usmcl platform");
        USMCL_CHECK(is_valid_device_type(device_type), CL_INVALID_DEVICE_TYPE,
                    "unknown device type bits");
        USMCL_CHECK(!(num_entries == 0 && devices), CL_INVALID_VALUE, "num_entries is 0");
        USMCL_CHECK(devices || num_devices, CL_INVALID_VALUE, "devices and num_devices are NULL");
        const std::vector<core::Device*> found = devices_of_type(*object, device_type);
        USMCL_CHECK(!found.empty(), CL_DEVICE_NOT_FOUND, "no usmcl device of that type");
        if (devices)
            for (size_t i = 0; i < found.size() && i < num_entries; ++i)
                devices[i] = found[i]->handle();
        if (num_devices)
            *num_devices = static_cast<cl_uint>(found.size());
        return {};
    });
}

cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device,
                                      const cl_device_partition_property* properties,
                                      cl_uint num_devices, cl_device_id* out_devices,
                                      cl_uint* num_devices_ret) {
    return guarded(__func__, [&]() -> Status {
        core::Device* device = core::Device::from_handle(in_device);
        USMCL_CHECK(device, CL_INVALID_DEVICE, "not a device");
        Result<core::PartitionRequest> request = parse_partition(*device, properties);
        USMCL_TRY(request.status());
        Result<std::vector<cpu::CpuSet>> sets = device->plan_partition(request.value());
        USMCL_TRY(sets.status());
        // CL_INVALID_VALUE if out_devices is not NULL and num_devices is less
        // than the number of sub-devices created by the partition scheme.
        USMCL_CHECK(!(out_devices && num_devices < sets.value().size()), CL_INVALID_VALUE,
                    "num_devices is smaller than the number of sub-devices");
        if (out_devices) {
            const auto created = device->create_sub_devices(request.value(), sets.value());
            for (size_t i = 0; i < created.size(); ++i)
                out_devices[i] = created[i]->handle();
        }
        if (num_devices_ret)
            *num_devices_ret = static_cast<cl_uint>(sets.value().size());
        return {};
    });
}

cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
    return guarded(__func__, [&]() -> Status {
        core::Device* object = core::Device::from_handle(device);
        USMCL_CHECK(object, CL_INVALID_DEVICE, "not a device");
        // Root devices are not reference counted: their count stays 1.
        if (!object->is_root())
            object->retain_api();
        return {};
    });
}

cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
    return guarded(__func__, [&]() -> Status {
        core::Device* object = core::Device::from_handle(device);
        USMCL_CHECK(object, CL_INVALID_DEVICE, "not a device");
        if (!object->is_root())
            object->release_api();
        return {};
    });
}

cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong* device_timestamp,
                                           cl_ulong* host_timestamp) {
    return guarded(__func__, [&]() -> Status {
        USMCL_CHECK(core::Device::from_handle(device), CL_INVALID_DEVICE, "not a device");
        USMCL_CHECK(device_timestamp && host_timestamp, CL_INVALID_VALUE,
                    "device_timestamp or host_timestamp is NULL");
        // The device and the host share one clock.
        const cl_ulong now = support::monotonic_ns();
        *device_timestamp = now;
        *host_timestamp = now;
        return {};
    });
}

cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong* host_timestamp) {
    return guarded(__func__, [&]() -> Status {
        USMCL_CHECK(core::Device::from_handle(device), CL_INVALID_DEVICE, "not a device");
        USMCL_CHECK(host_timestamp, CL_INVALID_VALUE, "host_timestamp is NULL");
        *host_timestamp = support::monotonic_ns();
        return {};
    });
}

cl_int CL_API_CALL clGetDeviceMigrationCountersUSMCL(cl_device_id device, cl_uint num_values,
                                                     cl_ulong* values, cl_uint* num_values_ret) {
    return guarded(__func__, [&]() -> Status {
        core::Device* object = core::Device::from_handle(device);
        USMCL_CHECK(object, CL_INVALID_DEVICE, "not a device");
        const auto& domains = object->platform().memory_domains();
        const memory::Domain::Traffic t = domains[object->memory_domain()]->traffic();
        const std::array<cl_ulong, CL_DEVICE_MIGRATION_COUNTERS_USMCL> counters = {
            t.bytes_from_host,     t.bytes_to_host,     t.bytes_from_devices,
            t.bytes_to_devices,    t.copies_from_host,  t.copies_to_host,
            t.copies_from_devices, t.copies_to_devices, t.bytes_written_by_host,
            t.bytes_read_by_host,  t.host_writes,       t.host_reads};
        return write_migration_counters(counters, num_values, values, num_values_ret);
    });
}

} // namespace usmcl::api
