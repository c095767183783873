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

const cl_icd_dispatch dispatch_table = make_dispatch_table();

// Hands the table to core when the library is loaded, before any object
// exists (the loader calls nothing before dlopen returns).
[[maybe_unused]] const bool dispatch_installed =
    (core::install_icd_dispatch(&dispatch_table), true);

} // namespace
} // namespace usmcl::api
