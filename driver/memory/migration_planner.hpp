// The migration planner: which bytes of a buffer are up to date in which
// memory domain, and which copies an access needs.
//
// State per buffer: for every domain, the ranges its instance holds up to
// date; and the ranges that have content at all (written, or given at
// creation). An access in a domain first copies in what it needs and is
// stale there (never bytes without content, never bytes the access
// overwrites), then a write makes the written ranges stale everywhere else.
// Pure bookkeeping: no memory is touched, so it is tested on its own.
#pragma once

#include "memory/range_set.hpp"

#include <vector>

namespace usmcl::memory {

using DomainId = unsigned;

enum class Access {
    read,       // needs current content, changes nothing
    read_write, // needs current content, may change any byte of the range
    overwrite,  // changes every byte of the range: old content not needed
    discard,    // content becomes undefined (CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)
};

inline const char* access_name(Access access) {
    switch (access) {
    case Access::read: return "read";
    case Access::read_write: return "read_write";
    case Access::overwrite: return "overwrite";
    case Access::discard: return "discard";
    }
    return "unknown";
}

struct Copy {
    DomainId from;
    DomainId to;
    ByteRange range;
};

class Validity {
public:
    // domains: how many memory domains exist; content_defined: whether the
    // buffer starts with content (COPY_HOST_PTR / USE_HOST_PTR), held in
    // initial_domain.
    Validity(size_t size, unsigned domains, bool content_defined, DomainId initial_domain);

    // Plans an access of range in domain and records its effect. Returns
    // the copies that must run before the access, in order.
    std::vector<Copy> plan(DomainId domain, ByteRange range, Access access);

    const RangeSet& valid(DomainId domain) const { return valid_[domain]; }
    const RangeSet& defined() const { return defined_; }
    size_t size() const { return size_; }
    unsigned domains() const { return static_cast<unsigned>(valid_.size()); }

private:
    size_t size_;
    std::vector<RangeSet> valid_;
    RangeSet defined_;
};

} // namespace usmcl::memory
