#include "memory/migration_planner.hpp"

namespace usmcl::memory {

Validity::Validity(size_t size, unsigned domains, bool content_defined, DomainId initial_domain)
    : size_(size), valid_(domains) {
    if (content_defined) {
        defined_.add({0, size});
        valid_[initial_domain].add({0, size});
    }
}

std::vector<Copy> Validity::plan(DomainId domain, ByteRange range, Access access) {
    std::vector<Copy> copies;
    if (access == Access::read || access == Access::read_write) {
        // Bytes with content that this domain does not hold up to date.
        std::vector<ByteRange> gaps;
        for (const ByteRange& wanted : defined_.intersect(range))
            for (const ByteRange& gap : valid_[domain].missing(wanted))
                gaps.push_back(gap);
        // Every byte with content is up to date in some domain; take each
        // piece from the first domain that has it, host first.
        for (DomainId source = 0; source < valid_.size() && !gaps.empty(); ++source) {
            if (source == domain)
                continue;
            std::vector<ByteRange> still_missing;
            for (const ByteRange& gap : gaps) {
                RangeSet covered;
                for (const ByteRange& piece : valid_[source].intersect(gap)) {
                    copies.push_back({source, domain, piece});
                    covered.add(piece);
                }
                for (const ByteRange& rest : covered.missing(gap))
                    still_missing.push_back(rest);
            }
            gaps.swap(still_missing);
        }
        for (const Copy& copy : copies)
            valid_[domain].add(copy.range);
    }
    switch (access) {
    case Access::read: break;
    case Access::read_write:
    case Access::overwrite:
        for (DomainId other = 0; other < valid_.size(); ++other)
            if (other != domain)
                valid_[other].remove(range);
        valid_[domain].add(range);
        defined_.add(range);
        break;
    case Access::discard:
        for (RangeSet& set : valid_)
            set.remove(range);
        defined_.remove(range);
        break;
    }
    return copies;
}

} // namespace usmcl::memory
