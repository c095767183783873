// Names of OpenCL enums for logs and diagnostics.
#pragma once

namespace usmcl::support {

// "CL_INVALID_VALUE" for -30; "unknown error" for codes OpenCL does not define.
const char* error_name(int code);

} // namespace usmcl::support
