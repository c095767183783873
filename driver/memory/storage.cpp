#include "memory/storage.hpp"

#include "support/log.hpp"

namespace usmcl::memory {

Storage::Storage(std::vector<const Domain*> domains, size_t size, std::byte* host_memory,
                 bool content_defined, bool host_memory_everywhere)
    : domains_(std::move(domains)), size_(size),
      host_everywhere_(host_memory_everywhere && host_memory), instances_(domains_.size(), nullptr),
      owned_(domains_.size(), false),
      validity_(size, static_cast<unsigned>(domains_.size()), content_defined, 0) {
    instances_[0] = host_memory;
}

Storage::~Storage() {
    for (size_t i = 0; i < instances_.size(); ++i)
        if (owned_[i])
            domains_[i]->release(instances_[i], size_);
}

std::byte* Storage::instance(DomainId domain) {
    if (host_everywhere_)
        return instances_[0];
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
        const std::uint64_t size = copy.range.size();
        if (copy.from == 0) {
            planned_.bytes_from_host += size;
            ++planned_.copies_from_host;
        } else if (copy.to == 0) {
            planned_.bytes_to_host += size;
            ++planned_.copies_to_host;
        } else {
            planned_.bytes_between_devices += size;
            ++planned_.copies_between_devices;
        }
    }
    return planned;
}

} // namespace usmcl::memory
