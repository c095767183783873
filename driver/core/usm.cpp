#include "core/usm.hpp"

#include "core/device.hpp"
#include "core/event.hpp"
#include "core/platform.hpp"
#include "memory/device_pool.hpp"
#include "runtime/launcher.hpp"
#include "support/config.hpp"
#include "support/log.hpp"

#include <algorithm>
#include <new>

namespace usmcl::core {
namespace {

using memory::UsmKind;

// Where host, shared and SVM allocations live: host memory, or the NUMA
// domain of the device. Never a discrete-memory device's region: the host
// must reach shared memory, and the region holds device memory only (the
// shared allocations of a discrete device start on the host and move block
// by block: memory/shared_pages.hpp).
const memory::Domain& domain_of(const Device* device) {
    const auto& domains = Platform::instance().memory_domains();
    const memory::Domain& domain = *domains[device ? device->memory_domain() : 0];
    return domain.has_region() ? *domains[0] : domain;
}

const char* kind_name(UsmKind kind) {
    switch (kind) {
    case UsmKind::host: return "host";
    case UsmKind::device: return "device";
    case UsmKind::shared: return "shared";
    case UsmKind::svm: return "svm";
    }
    return "?";
}

} // namespace

UsmAllocations::UsmAllocations() = default;

UsmAllocations::~UsmAllocations() {
    for (const memory::UsmAllocation& allocation : registry_.take_all())
        release_memory(allocation);
}

Result<void*> UsmAllocations::allocate(const Request& request) {
    std::byte* address = nullptr;
    std::unique_ptr<memory::SharedPages> pages;
    const auto& domains = Platform::instance().memory_domains();
    switch (request.kind) {
    case UsmKind::host:
    case UsmKind::svm: address = domain_of(nullptr).allocate(request.size); break;
    // Shared memory of a device with a NUMA domain of its own is bound to
    // that node, as the domain's buffer instances are.
    case UsmKind::shared:
        if (request.device && domains[request.device->memory_domain()]->has_region() &&
            support::config().discrete_shared_pages) {
            pages =
                memory::SharedPages::create(*domains[0], *domains[request.device->memory_domain()],
                                            request.size, &runtime::kernel_memory_domain);
            address = pages ? pages->base() : nullptr;
        } else {
            address = domain_of(request.device).allocate(request.size);
        }
        break;
    case UsmKind::device:
        address = request.device->usm_pool().allocate(
            request.size, std::max<std::size_t>(request.alignment, memory::instance_alignment));
        break;
    }
    if (!address)
        return Status(CL_OUT_OF_RESOURCES, "no memory for the allocation");
    // The extension's allocation flags are 3 bits (validated by the caller).
    const memory::UsmAllocation allocation{address, request.size, request.device, request.kind,
                                           static_cast<std::uint8_t>(request.flags)};
    try {
        if (pages) {
            std::lock_guard lock(pages_mutex_);
            pages_.emplace(address, std::move(pages));
        }
        registry_.insert(allocation);
    } catch (const std::bad_alloc&) {
        if (!pages) // else the pages were never recorded, and go with it
            release_memory(allocation);
        return Status(CL_OUT_OF_HOST_MEMORY, "no memory for the allocation's bookkeeping");
    }
    USMCL_LOG(usm, "%s allocation %p, %zu bytes", kind_name(request.kind),
              static_cast<void*>(address), request.size);
    return static_cast<void*>(address);
}

void UsmAllocations::release_memory(const memory::UsmAllocation& allocation) {
    const auto* device = static_cast<const Device*>(allocation.owner);
    switch (allocation.kind) {
    case UsmKind::host:
    case UsmKind::svm: domain_of(nullptr).release(allocation.base, allocation.size); break;
    case UsmKind::shared: {
        std::unique_ptr<memory::SharedPages> pages;
        {
            std::lock_guard lock(pages_mutex_);
            if (auto it = pages_.find(allocation.base); it != pages_.end()) {
                pages = std::move(it->second);
                pages_.erase(it);
            }
        }
        if (!pages)
            domain_of(device).release(allocation.base, allocation.size);
        break;
    }
    case UsmKind::device:
        // The pool outlives the allocation: the context holds the device.
        const_cast<Device*>(device)->usm_pool().free(allocation.base, allocation.size);
        break;
    }
}

memory::SharedPages* UsmAllocations::shared_pages(const void* base) const {
    std::lock_guard lock(pages_mutex_);
    const auto it = pages_.find(base);
    return it == pages_.end() ? nullptr : it->second.get();
}

memory::SharedPages::Traffic
UsmAllocations::traffic(const memory::UsmAllocation& allocation) const {
    memory::SharedPages::Traffic traffic;
    const auto* device = static_cast<const Device*>(allocation.owner);
    switch (allocation.kind) {
    case UsmKind::host:
    case UsmKind::svm: break;
    case UsmKind::device:
        if (device->memory_domain() != 0)
            traffic.resident_bytes = allocation.size;
        break;
    case UsmKind::shared: {
        std::lock_guard lock(pages_mutex_);
        if (const auto it = pages_.find(allocation.base); it != pages_.end())
            traffic = it->second->traffic();
        else if (&domain_of(device) != &domain_of(nullptr)) // a NUMA domain's
            traffic.resident_bytes = allocation.size;
        break;
    }
    }
    return traffic;
}

Status UsmAllocations::free(void* base) {
    const std::optional<memory::UsmAllocation> allocation = registry_.erase(base);
    if (!allocation)
        return {CL_INVALID_VALUE, "ptr is not the start of a USM allocation of the context"};
    release_memory(*allocation);
    USMCL_LOG(usm, "freed %p", base);
    return {};
}

Status UsmAllocations::blocking_free(void* base) {
    const std::optional<memory::UsmAllocation> allocation = registry_.find_base(base);
    if (!allocation)
        return {CL_INVALID_VALUE, "ptr is not the start of a USM allocation of the context"};
    const unsigned kind_bit = usm_kind_bit(allocation->kind);
    std::vector<Ref<Event>> pending;
    {
        std::lock_guard lock(uses_mutex_);
        prune_locked();
        for (const Use& use : uses_)
            if ((use.indirect_kinds & kind_bit) ||
                std::find(use.bases.begin(), use.bases.end(), allocation->base) != use.bases.end())
                pending.push_back(use.event);
    }
    USMCL_LOG(usm, "blocking free of %p waits for %zu commands", base, pending.size());
    for (const Ref<Event>& event : pending)
        (void)event->wait();
    return free(base);
}

void UsmAllocations::record_use(Event& event, std::span<const void* const> pointers,
                                unsigned indirect_kinds) {
    Use use;
    use.indirect_kinds = indirect_kinds;
    for (const void* pointer : pointers) {
        if (!pointer)
            continue;
        if (const auto allocation = registry_.find(pointer))
            use.bases.push_back(allocation->base);
    }
    if ((use.bases.empty() && indirect_kinds == 0) || event.is_terminal())
        return;
    use.event = Ref<Event>(&event);
    std::lock_guard lock(uses_mutex_);
    if (uses_.size() >= prune_at_)
        prune_locked();
    uses_.push_back(std::move(use));
}

void UsmAllocations::prune_locked() {
    std::erase_if(uses_, [](const Use& use) { return use.event->is_terminal(); });
    prune_at_ = std::max<std::size_t>(64, 2 * uses_.size());
}

void UsmAllocations::forget_uses() {
    std::vector<Use> uses;
    {
        std::lock_guard lock(uses_mutex_);
        uses.swap(uses_);
    }
}

} // namespace usmcl::core
