// Event entry points: clWaitForEvents, clGetEventInfo, clRetainEvent,
// clReleaseEvent, clCreateUserEvent, clSetUserEventStatus,
// clSetEventCallback, clGetEventProfilingInfo.
#include "api/boundary.hpp"
#include "api/entrypoints.hpp"
#include "api/info_writer.hpp"
#include "api/validate.hpp"
#include "core/queue.hpp"

namespace usmcl::api {

cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event* event_list) {
    return guarded(__func__, [&]() -> Status {
        // CL_INVALID_VALUE if num_events is 0 or event_list is NULL;
        // CL_INVALID_EVENT for an invalid event; CL_INVALID_CONTEXT if the
        // events are not all of one context.
        USMCL_CHECK(num_events != 0 && event_list, CL_INVALID_VALUE, "no events");
        std::vector<core::Event*> events;
        events.reserve(num_events);
        for (cl_uint i = 0; i < num_events; ++i) {
            core::Event* event = core::Event::from_handle(event_list[i]);
            USMCL_CHECK(event, CL_INVALID_EVENT, "an entry of event_list is not an event");
            USMCL_CHECK(events.empty() || &event->context() == &events.front()->context(),
                        CL_INVALID_CONTEXT, "events of different contexts");
            events.push_back(event);
        }
        bool failed = false;
        for (core::Event* event : events)
            failed |= event->wait() < 0;
        USMCL_CHECK(!failed, CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST,
                    "an event of the list failed");
        return {};
    });
}

cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                                  void* param_value, size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        core::Event* object = core::Event::from_handle(event);
        USMCL_CHECK(object, CL_INVALID_EVENT, "not an event");
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        core::CommandQueue* queue = object->queue();
        switch (param_name) {
        case CL_EVENT_COMMAND_QUEUE:
            return out.scalar<cl_command_queue>(queue ? queue->handle() : nullptr);
        case CL_EVENT_CONTEXT: return out.scalar<cl_context>(object->context().handle());
        case CL_EVENT_COMMAND_TYPE: return out.scalar<cl_command_type>(object->command_type());
        case CL_EVENT_COMMAND_EXECUTION_STATUS: return out.scalar<cl_int>(object->status());
        case CL_EVENT_REFERENCE_COUNT: return out.scalar<cl_uint>(object->api_reference_count());
        default: return {CL_INVALID_VALUE, "unknown cl_event_info"};
        }
    });
}

cl_int CL_API_CALL clRetainEvent(cl_event event) {
    return guarded(__func__, [&]() -> Status {
        core::Event* object = core::Event::from_handle(event);
        USMCL_CHECK(object, CL_INVALID_EVENT, "not an event");
        object->retain_api();
        return {};
    });
}

cl_int CL_API_CALL clReleaseEvent(cl_event event) {
    return guarded(__func__, [&]() -> Status {
        core::Event* object = core::Event::from_handle(event);
        USMCL_CHECK(object, CL_INVALID_EVENT, "not an event");
        object->release_api();
        return {};
    });
}

cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int* errcode_ret) {
    return guarded_create<cl_event>(__func__, errcode_ret, [&]() -> Result<cl_event> {
        core::Context* object = core::Context::from_handle(context);
        if (!object)
            return Status(CL_INVALID_CONTEXT, "not a context");
        return (new core::Event(*object))->handle();
    });
}

cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) {
    return guarded(__func__, [&]() -> Status {
        core::Event* object = core::Event::from_handle(event);
        USMCL_CHECK(object && object->is_user_event(), CL_INVALID_EVENT, "not a user event");
        // CL_INVALID_VALUE unless CL_COMPLETE or a negative error code;
        // CL_INVALID_OPERATION if the status was already set.
        USMCL_CHECK(execution_status == CL_COMPLETE || execution_status < 0, CL_INVALID_VALUE,
                    "execution_status is neither CL_COMPLETE nor negative");
        USMCL_CHECK(object->finish_externally(execution_status), CL_INVALID_OPERATION,
                    "the user event's status was already set");
        return {};
    });
}

cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                      core::EventCallback pfn_notify, void* user_data) {
    return guarded(__func__, [&]() -> Status {
        core::Event* object = core::Event::from_handle(event);
        USMCL_CHECK(object, CL_INVALID_EVENT, "not an event");
        USMCL_CHECK(pfn_notify, CL_INVALID_VALUE, "pfn_notify is NULL");
        USMCL_CHECK(command_exec_callback_type == CL_SUBMITTED ||
                        command_exec_callback_type == CL_RUNNING ||
                        command_exec_callback_type == CL_COMPLETE,
                    CL_INVALID_VALUE, "callback type is not SUBMITTED, RUNNING or COMPLETE");
        object->add_callback(command_exec_callback_type, pfn_notify, user_data);
        return {};
    });
}

cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                                           size_t param_value_size, void* param_value,
                                           size_t* param_value_size_ret) {
    return guarded(__func__, [&]() -> Status {
        core::Event* object = core::Event::from_handle(event);
        USMCL_CHECK(object, CL_INVALID_EVENT, "not an event");
        // Not available for user events, for queues without profiling, and
        // before the command is complete.
        USMCL_CHECK(!object->is_user_event() && object->profiling_enabled(),
                    CL_PROFILING_INFO_NOT_AVAILABLE, "the queue does not profile");
        using runtime::Timestamp;
        Timestamp which;
        switch (param_name) {
        case CL_PROFILING_COMMAND_QUEUED: which = Timestamp::queued; break;
        case CL_PROFILING_COMMAND_SUBMIT: which = Timestamp::submit; break;
        case CL_PROFILING_COMMAND_START: which = Timestamp::start; break;
        case CL_PROFILING_COMMAND_END: which = Timestamp::end; break;
        case CL_PROFILING_COMMAND_COMPLETE: which = Timestamp::complete; break;
        default: return {CL_INVALID_VALUE, "unknown cl_profiling_info"};
        }
        USMCL_CHECK(object->status() == CL_COMPLETE, CL_PROFILING_INFO_NOT_AVAILABLE,
                    "the command is not complete");
        InfoWriter out(param_value_size, param_value, param_value_size_ret);
        return out.scalar<cl_ulong>(object->timestamp(which));
    });
}

} // namespace usmcl::api
