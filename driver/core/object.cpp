#include "core/object.hpp"

#include <atomic>

namespace usmcl::core {
namespace {

std::atomic<const _cl_icd_dispatch*> installed_table{nullptr};

} // namespace

void install_icd_dispatch(const _cl_icd_dispatch* table) {
    installed_table.store(table, std::memory_order_release);
}

const _cl_icd_dispatch* icd_dispatch() {
    return installed_table.load(std::memory_order_acquire);
}

} // namespace usmcl::core
