// Command queue entry points: clCreateCommandQueue,
// clCreateCommandQueueWithProperties, clGetCommandQueueInfo,
// clRetainCommandQueue, clReleaseCommandQueue, clSetCommandQueueProperty,
// clSetDefaultDeviceCommandQueue, clFlush, clFinish.
#include "core/queue.hpp"
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/info_writer.hpp"
#include "api/validate.hpp"
#include "core/capabilities.hpp"

namespace usmcl::api {
namespace {

constexpr cl_command_queue_properties host_queue_bits =
    CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE;
constexpr cl_command_queue_properties device_queue_bits =
    CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;

struct QueueTarget {
    core::Context* context;
    core::Device* device;
};

Result<QueueTarget> queue_target(cl_context context, cl_device_id device) {
    core::Context* ctx = core::Context::from_handle(context);
    if (!ctx)
        return Status(CL_INVALID_CONTEXT, "not a context");
    core::Device* dev = core::Device::from_handle(device);
    if (!dev || !ctx->has_device(dev))
        return Status(CL_INVALID_DEVICE, "not a device of the context");
    return QueueTarget{ctx, dev};
}

// CL_INVALID_VALUE for unknown bits; CL_INVALID_QUEUE_PROPERTIES for valid
// bits the device does not support (on-device queues).
Status check_queue_bits(cl_command_queue_properties bits, cl_command_queue_properties valid) {
    USMCL_CHECK((bits & ~valid) == 0, CL_INVALID_VALUE, "unknown queue property bits");
    USMCL_CHECK(!(bits & CL_QUEUE_ON_DEVICE_DEFAULT) || (bits & CL_QUEUE_ON_DEVICE),
                CL_INVALID_VALUE, "CL_QUEUE_ON_DEVICE_DEFAULT without CL_QUEUE_ON_DEVICE");
    USMCL_CHECK(!(bits & CL_QUEUE_ON_DEVICE) || (bits & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE),
                CL_INVALID_VALUE, "CL_QUEUE_ON_DEVICE without out-of-order execution");
    USMCL_CHECK((bits & ~core::capabilities::queue_on_host_properties) == 0,
                CL_INVALID_QUEUE_PROPERTIES, "on-device queues are not supported");
    return {};
}

struct ParsedQueueProperties {
    cl_command_queue_properties bits = 0;
    std::vector<cl_queue_properties> array;
};

Result<ParsedQueueProperties> parse_queue_properties(const cl_queue_properties* properties) {
    ParsedQueueProperties parsed;
    if (properties == nullptr)
        return parsed;
    bool seen_properties = false;
    bool seen_size = false;
    size_t i = 0;
    for (; properties[i] != 0; i += 2) {
        switch (properties[i]) {
        case CL_QUEUE_PROPERTIES:
            if (seen_properties)
                return Status(CL_INVALID_VALUE, "CL_QUEUE_PROPERTIES given twice");
            seen_properties = true;
            parsed.bits = properties[i + 1];
            break;
        case CL_QUEUE_SIZE:
            if (seen_size)
                return Status(CL_INVALID_VALUE, "CL_QUEUE_SIZE given twice");
            seen_size = true;
            break;
        default: return Status(CL_INVALID_VALUE, "unknown queue property");
        }
    }
    USMCL_TRY(check_queue_bits(parsed.bits, host_queue_bits | device_queue_bits));
    // CL_QUEUE_SIZE is only valid for on-device queues, which were refused above.
    if (seen_size)
        return Status(CL_INVALID_VALUE, "CL_QUEUE_SIZE for a host queue");
    parsed.array.assign(properties, properties + i + 1);
    return parsed;
}

core::CommandQueue* queue_of(cl_command_queue handle) {
    return core::CommandQueue::from_handle(handle);
}

} // namespace

cl_command_queue CL_API_CALL
clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                   const cl_queue_properties* properties, cl_int* errcode_ret) {
    return guarded_create<cl_command_queue>(
        __func__, errcode_ret, [&]() -> Result<cl_command_queue> {
            Result<QueueTarget> target = queue_target(context, device);
            if (!target.ok())
                return target.status();
            Result<ParsedQueueProperties> parsed = parse_queue_properties(properties);
            if (!parsed.ok())
                return parsed.status();
            auto* queue = new core::CommandQueue(*target->context, *target->device, parsed->bits,
                                                 std::move(parsed->array));
            return queue->handle();
        });
}

cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue_properties properties,
                                                  cl_int* errcode_ret) {
    return guarded_create<cl_command_queue>(
        __func__, errcode_ret, [&]() -> Result<cl_command_queue> {
            Result<QueueTarget> target = queue_target(context, device);
            if (!target.ok())
                return target.status();
            // Only the host queue bits exist for clCreateCommandQueue.
            const Status bits = check_queue_bits(properties, host_queue_bits);
            if (!bits.ok())
                return bits;
            auto* queue = new core::CommandQueue(*target->context, *target->device, properties, {});
            return queue->handle();
        });
}

cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) {
    return guarded(__func__, [&]() -> Status {
        core::CommandQueue* queue = queue_of(command_queue);
        USMCL_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "not a command queue");
        queue->retain_api();
        return {};
    });
}

cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
    return guarded(__func__, [&]() -> Status {
        core::CommandQueue* queue = queue_of(command_queue);
        USMCL_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "not a command queue");
        // An implicit flush; commands in flight finish on their own.
        queue->flush();
        queue->release_api();
        return {};
    });
}

cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue,
                                         cl_command_queue_info param_name, size_t param_value_size,
                                         void* param_value, size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        core::CommandQueue* queue = queue_of(command_queue);
        USMCL_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "not a command queue");
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        switch (param_name) {
        case CL_QUEUE_CONTEXT: return out.scalar<cl_context>(queue->context().handle());
        case CL_QUEUE_DEVICE: return out.scalar<cl_device_id>(queue->device().handle());
        case CL_QUEUE_REFERENCE_COUNT: return out.scalar<cl_uint>(queue->api_reference_count());
        case CL_QUEUE_PROPERTIES:
            return out.scalar<cl_command_queue_properties>(queue->properties());
        case CL_QUEUE_PROPERTIES_ARRAY: return out.array(queue->properties_array());
        case CL_QUEUE_DEVICE_DEFAULT: return out.scalar<cl_command_queue>(nullptr);
        case CL_QUEUE_SIZE:
            // Only device queues have a size.
            return {CL_INVALID_COMMAND_QUEUE, "CL_QUEUE_SIZE of a host queue"};
        default: return {CL_INVALID_VALUE, "unknown cl_command_queue_info"};
        }
    });
}

cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue command_queue,
                                             cl_command_queue_properties properties, cl_bool enable,
                                             cl_command_queue_properties* old_properties) {
    return guarded(__func__, [&]() -> Status {
        core::CommandQueue* queue = queue_of(command_queue);
        USMCL_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "not a command queue");
        USMCL_TRY(check_queue_bits(properties, host_queue_bits));
        const cl_command_queue_properties old = queue->change_properties(properties, enable);
        if (old_properties)
            *old_properties = old;
        return {};
    });
}

cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id device,
                                                  cl_command_queue command_queue) {
    return guarded(__func__, [&]() -> Status {
        Result<QueueTarget> target = queue_target(context, device);
        USMCL_TRY(target.status());
        (void)command_queue;
        // CL_INVALID_OPERATION if device does not support a replaceable
        // default on-device queue: usmcl has no on-device queues.
        return {CL_INVALID_OPERATION, "the device has no on-device queues"};
    });
}

cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
    return guarded(__func__, [&]() -> Status {
        core::CommandQueue* queue = queue_of(command_queue);
        USMCL_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "not a command queue");
        queue->flush();
        return {};
    });
}

cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
    return guarded(__func__, [&]() -> Status {
        core::CommandQueue* queue = queue_of(command_queue);
        USMCL_CHECK(queue, CL_INVALID_COMMAND_QUEUE, "not a command queue");
        queue->finish();
        return {};
    });
}

} // namespace usmcl::api
