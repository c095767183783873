// The bytes of a buffer: one instance per memory domain where it was used,
// allocated on first use there, and the planner's record of which is up to
// date. Sub-buffers share their parent's storage.
//
// Not thread-safe: the owner (core::MemObject) serializes access, since a
// plan and the commands it creates must be recorded together.
#pragma once

#include "memory/domain.hpp"
#include "memory/migration_planner.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace usmcl::memory {

struct PlannedCopy {
    const std::byte* from;
    std::byte* to;
    size_t size;
    Copy copy;
};

class Storage {
public:
    // domains: every domain of the platform, index = id, [0] = host.
    // host_memory: the application's memory (CL_MEM_USE_HOST_PTR), used in
    // place as the host instance; content_defined: whether the buffer starts
    // with content (USE_HOST_PTR, or COPY_HOST_PTR once copied in);
    // host_memory_everywhere: host_memory is memory every device reaches at
    // its own address (an SVM allocation: the buffer must be that memory on
    // every device), so every domain uses the host instance and nothing is
    // ever copied.
    Storage(std::vector<const Domain*> domains, size_t size, std::byte* host_memory,
            bool content_defined, bool host_memory_everywhere = false);
    ~Storage();
    Storage(const Storage&) = delete;
    Storage& operator=(const Storage&) = delete;

    size_t size() const { return size_; }
    // One instance serves every domain (one domain, or host memory everywhere).
    bool single_domain() const { return domains_.size() == 1 || host_everywhere_; }
    bool uses_host_memory() const { return !owned_[0] && instances_[0] != nullptr; }

    // The instance of a domain, allocated on first use; nullptr if it cannot be.
    std::byte* instance(DomainId domain);

    // Makes range of domain's instance ready for access: allocates it and
    // returns the copies that must run first (nullopt: out of memory).
    std::optional<std::vector<PlannedCopy>> prepare(DomainId domain, ByteRange range,
                                                    Access access);

    const Validity& validity() const { return validity_; }
    // Bytes of every copy planned so far (for tests and benchmarks).
    std::uint64_t bytes_planned() const { return bytes_planned_; }
    // The copies planned so far by direction: from the host domain to
    // another, back to the host, and between two other domains.
    struct Planned {
        std::uint64_t bytes_from_host = 0;
        std::uint64_t bytes_to_host = 0;
        std::uint64_t bytes_between_devices = 0;
        std::uint64_t copies_from_host = 0;
        std::uint64_t copies_to_host = 0;
        std::uint64_t copies_between_devices = 0;
    };
    const Planned& planned() const { return planned_; }

private:
    std::vector<const Domain*> domains_;
    size_t size_;
    bool host_everywhere_;
    std::vector<std::byte*> instances_;
    std::vector<bool> owned_;
    Validity validity_;
    std::uint64_t bytes_planned_ = 0;
    Planned planned_;
};

} // namespace usmcl::memory
