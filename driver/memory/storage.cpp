#include "memory/storage.hpp"

#include "support/log.hpp"

#include <cstring>

namespace usmcl::memory {

Storage::Storage(std::vector<const Domain*> domains, size_t size, std::byte* host_memory,
                 bool content_defined)
    : domains_(std::move(domains)), size_(size), instances_(domains_.size(), nullptr),
      owned_(domains_.size(), false),
      validity_(size, static_cast<unsigned>(domains_.size()), content_defined, 0) {
    instances_[0] = host_memory;
}

Storage::~Storage() {
    // The application's memory (CL_MEM_USE_HOST_PTR) gets what is stale in
    // it before the other instances go: what devices wrote last is not lost
    // when the buffer is released without a map first.
    if (uses_host_memory() && !single_domain()) {
        for (const Copy& copy : validity_.plan(0, {0, size_}, Access::read)) {
            std::memcpy(instances_[0] + copy.range.begin, instances_[copy.from] + copy.range.begin,
                        copy.range.size());
            Domain::count_copy(*domains_[copy.from], *domains_[0], copy.range.size());
            USMCL_LOG(memory, "migrated %zu bytes from %s to host memory of a released buffer",
                      copy.range.size(), domains_[copy.from]->name().c_str());
        }
    }
    for (size_t i = 0; i < instances_.size(); ++i)
        if (owned_[i])
            domains_[i]->release(instances_[i], size_);
}

std::byte* Storage::instance(DomainId domain) {
    if (!instances_[domain]) {
        instances_[domain] = domains_[domain]->allocate(size_);
        owned_[domain] = instances_[domain] != nullptr;
        USMCL_LOG(memory, "instance of %zu bytes in domain %s: %p", size_,
                  domains_[domain]->name().c_str(), static_cast<void*>(instances_[domain]));
    }
    return instances_[domain];
}

std::optional<std::vector<PlannedCopy>> Storage::prepare(DomainId domain, ByteRange range,
                                                         Access access) {
    if (!instance(domain))
        return std::nullopt;
    std::vector<PlannedCopy> planned;
    if (single_domain())
        return planned; // one instance: always up to date
    const std::vector<Copy> copies = validity_.plan(domain, range, access);
    planned.reserve(copies.size());
    for (const Copy& copy : copies) {
        std::byte* source = instance(copy.from);
        if (!source)
            return std::nullopt;
        planned.push_back({source + copy.range.begin, instances_[copy.to] + copy.range.begin,
                           copy.range.size(), copy});
        bytes_planned_ += copy.range.size();
    }
    return planned;
}

} // namespace usmcl::memory
