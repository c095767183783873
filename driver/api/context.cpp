// Context entry points: clCreateContext, clCreateContextFromType,
// clRetainContext, clReleaseContext, clGetContextInfo,
// clSetContextDestructorCallback.
#include "core/context.hpp"
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/info_writer.hpp"
#include "api/validate.hpp"

namespace usmcl::api {
namespace {

using Notify = core::ContextNotify;

// Checks a context property list and returns a copy of it (0-terminated), or
// an empty list for NULL properties.
Result<std::vector<cl_context_properties>>
parse_context_properties(const cl_context_properties* properties) {
    std::vector<cl_context_properties> copy;
    if (properties == nullptr)
        return copy;
    bool seen_platform = false;
    bool seen_user_sync = false;
    size_t i = 0;
    for (; properties[i] != 0; i += 2) {
        const cl_context_properties name = properties[i];
        const cl_context_properties value = properties[i + 1];
        switch (name) {
        case CL_CONTEXT_PLATFORM:
            // CL_INVALID_PLATFORM if the platform value is not a valid platform.
            if (!core::Platform::from_handle(reinterpret_cast<cl_platform_id>(value)))
                return Status(CL_INVALID_PLATFORM, "CL_CONTEXT_PLATFORM is not usmcl's platform");
            if (seen_platform)
                return Status(CL_INVALID_PROPERTY, "CL_CONTEXT_PLATFORM given twice");
            seen_platform = true;
            break;
        case CL_CONTEXT_INTEROP_USER_SYNC:
            if (value != CL_TRUE && value != CL_FALSE)
                return Status(CL_INVALID_PROPERTY, "CL_CONTEXT_INTEROP_USER_SYNC is not a cl_bool");
            if (seen_user_sync)
                return Status(CL_INVALID_PROPERTY, "CL_CONTEXT_INTEROP_USER_SYNC given twice");
            seen_user_sync = true;
            break;
        default:
            // CL_INVALID_PROPERTY if a property name is not supported.
            return Status(CL_INVALID_PROPERTY, "unsupported context property");
        }
    }
    copy.assign(properties, properties + i + 1);
    return copy;
}

Result<cl_context> create_context(std::vector<cl_context_properties> properties,
                                  std::vector<core::Device*> devices, Notify notify,
                                  void* user_data) {
    auto* context = new core::Context(std::move(devices), std::move(properties), notify, user_data);
    return context->handle();
}

} // namespace

cl_context CL_API_CALL clCreateContext(const cl_context_properties* properties, cl_uint num_devices,
                                       const cl_device_id* devices, Notify pfn_notify,
                                       void* user_data, cl_int* errcode_ret) {
    return guarded_create<cl_context>(__func__, errcode_ret, [&]() -> Result<cl_context> {
        // CL_INVALID_VALUE if devices is NULL or num_devices is 0, or if
        // pfn_notify is NULL but user_data is not.
        if (devices == nullptr || num_devices == 0)
            return Status(CL_INVALID_VALUE, "no devices");
        if (pfn_notify == nullptr && user_data != nullptr)
            return Status(CL_INVALID_VALUE, "user_data without pfn_notify");
        auto parsed = parse_context_properties(properties);
        if (!parsed.ok())
            return parsed.status();
        std::vector<core::Device*> list;
        for (cl_uint i = 0; i < num_devices; ++i) {
            core::Device* device = core::Device::from_handle(devices[i]);
            if (!device)
                return Status(CL_INVALID_DEVICE, "an entry of devices is not a device");
            // Duplicate devices are ignored.
            if (std::find(list.begin(), list.end(), device) == list.end())
                list.push_back(device);
        }
        return create_context(std::move(parsed).value(), std::move(list), pfn_notify, user_data);
    });
}

cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties* properties,
                                               cl_device_type device_type, Notify pfn_notify,
                                               void* user_data, cl_int* errcode_ret) {
    return guarded_create<cl_context>(__func__, errcode_ret, [&]() -> Result<cl_context> {
        if (pfn_notify == nullptr && user_data != nullptr)
            return Status(CL_INVALID_VALUE, "user_data without pfn_notify");
        auto parsed = parse_context_properties(properties);
        if (!parsed.ok())
            return parsed.status();
        if (!is_valid_device_type(device_type))
            return Status(CL_INVALID_DEVICE_TYPE, "unknown device type bits");
        auto list = devices_of_type(core::Platform::instance(), device_type);
        if (list.empty())
            return Status(CL_DEVICE_NOT_FOUND, "no usmcl device of that type");
        return create_context(std::move(parsed).value(), std::move(list), pfn_notify, user_data);
    });
}

cl_int CL_API_CALL clRetainContext(cl_context context) {
    return guarded(__func__, [&]() -> Status {
        core::Context* object = core::Context::from_handle(context);
        USMCL_CHECK(object, CL_INVALID_CONTEXT, "not a context");
        object->retain_api();
        return {};
    });
}

cl_int CL_API_CALL clReleaseContext(cl_context context) {
    return guarded(__func__, [&]() -> Status {
        core::Context* object = core::Context::from_handle(context);
        USMCL_CHECK(object, CL_INVALID_CONTEXT, "not a context");
        object->release_api();
        return {};
    });
}

cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name,
                                    size_t param_value_size, void* param_value,
                                    size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        core::Context* object = core::Context::from_handle(context);
        USMCL_CHECK(object, CL_INVALID_CONTEXT, "not a context");
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        std::vector<cl_device_id> devices;
        for (const auto& device : object->devices())
            devices.push_back(device->handle());
        switch (param_name) {
        case CL_CONTEXT_REFERENCE_COUNT: return out.scalar<cl_uint>(object->api_reference_count());
        case CL_CONTEXT_NUM_DEVICES:
            return out.scalar<cl_uint>(static_cast<cl_uint>(devices.size()));
        case CL_CONTEXT_DEVICES: return out.array(devices);
        case CL_CONTEXT_PROPERTIES: return out.array(object->properties());
        default: return {CL_INVALID_VALUE, "unknown cl_context_info"};
        }
    });
}

cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context,
                                                  core::ContextDestructorCallback pfn_notify,
                                                  void* user_data) {
    return guarded(__func__, [&]() -> Status {
        core::Context* object = core::Context::from_handle(context);
        USMCL_CHECK(object, CL_INVALID_CONTEXT, "not a context");
        USMCL_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
        object->add_destructor_callback(pfn_notify, user_data);
        return {};
    });
}

} // namespace usmcl::api
