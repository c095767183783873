// Names of OpenCL enums for logs and diagnostics.
#pragma once

namespace usmcl::support {

// "CL_INVALID_VALUE" for -30; "unknown error" for codes OpenCL does not define.
const char* error_name(int code);

// "CL_COMMAND_READ_BUFFER" for 0x11F3; "unknown command" for other values.
const char* command_name(unsigned type);

} // namespace usmcl::support
