// The dispatch table every handle points to, filled from entrypoints.def.
#include "api/entrypoints.hpp"
#include "api/pending.hpp"
#include "core/object.hpp"

namespace usmcl::api {
namespace {

namespace pending_names {
#define USMCL_PENDING(name, issue)                                                                 \
    struct name {                                                                                  \
        static constexpr const char* text = #name;                                                 \
    };
#include "api/entrypoints.def"
} // namespace pending_names

cl_icd_dispatch make_dispatch_table() {
    cl_icd_dispatch table{};
#define USMCL_ENTRY(name) table.name = &usmcl::api::name;
#define USMCL_PENDING(name, issue)                                                                 \
    table.name = &Pending<cl_api_##name, pending_names::name>::answer;
#define USMCL_WINDOWS_ONLY(name) table.name = nullptr;
#include "api/entrypoints.def"
    return table;
}

} // namespace
} // namespace usmcl::api

const cl_icd_dispatch* usmcl::core::icd_dispatch() {
    static const cl_icd_dispatch table = usmcl::api::make_dispatch_table();
    return &table;
}
