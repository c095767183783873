// A reference model for the migration planner, shared by the Validity and
// Storage tests.
//
// The model keeps, per byte of the buffer: the last value written ("truth"),
// whether the byte has content at all ("defined"), and per domain whether
// that domain's instance holds the byte up to date ("current"). A Backend
// (the planner alone over plain byte arrays, or a Storage with real
// instances) plans each access; the model checks every planned copy before
// it runs it:
//   - it goes into the accessed domain, from another one, inside the range;
//   - every byte it moves is defined, stale in the target and current in
//     the source (so no copy moves undefined bytes, and none is redundant);
//   - copies from one source are maximal (never adjacent to each other);
//   - the bytes copied equal the minimum: the defined bytes of the range
//     that are stale in the target (zero for overwrite and discard).
// After the copies, a reading access must see truth on every defined byte
// of its range: every read sees the last write, and nothing is lost.
//
// Workload::step() issues random API-shaped operations (read, write, fill,
// map/unmap, copy, rect writes, kernel arguments, migrations with and without
// CONTENT_UNDEFINED), each through the whole buffer or a sub-buffer view,
// mapped to planner accesses the way driver/api does.
#pragma once

#include "memory/migration_planner.hpp"
#include "memory/storage.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace usmcl::test {

using memory::Access;
using memory::ByteRange;
using memory::DomainId;
using memory::PlannedCopy;

inline std::string show(ByteRange range) {
    return "[" + std::to_string(range.begin) + "," + std::to_string(range.end) + ")";
}

inline std::string show(const std::vector<ByteRange>& ranges) {
    std::string text = "{";
    for (const ByteRange& range : ranges)
        text += " " + show(range);
    return text + " }";
}

// What the model drives: a planner plus one byte array per domain.
class Backend {
public:
    virtual ~Backend() = default;
    // Plans an access; the copies carry the addresses they copy between.
    virtual std::vector<PlannedCopy> plan(DomainId domain, ByteRange range, Access access) = 0;
    // The instance of a domain (only asked for after an access there).
    virtual std::byte* bytes(DomainId domain) = 0;
    // The planner state to compare with the model, or nullptr.
    virtual const memory::Validity* validity() const = 0;
};

// The planner alone, over byte arrays owned here.
class ValidityBackend final : public Backend {
public:
    ValidityBackend(size_t size, unsigned domains, bool content_defined, DomainId initial)
        : validity_(size, domains, content_defined, initial),
          instances_(domains, std::vector<std::byte>(size == 0 ? 1 : size)) {}

    std::vector<PlannedCopy> plan(DomainId domain, ByteRange range, Access access) override {
        std::vector<PlannedCopy> planned;
        for (const memory::Copy& copy : validity_.plan(domain, range, access))
            planned.push_back({instances_[copy.from].data() + copy.range.begin,
                               instances_[copy.to].data() + copy.range.begin, copy.range.size(),
                               copy});
        return planned;
    }
    std::byte* bytes(DomainId domain) override { return instances_[domain].data(); }
    const memory::Validity* validity() const override { return &validity_; }

private:
    memory::Validity validity_;
    std::vector<std::vector<std::byte>> instances_;
};

class Model {
public:
    // initial: the content given at creation, held by initial_domain's
    // instance (already there), or nullopt for a buffer without content.
    Model(Backend& backend, size_t size, unsigned domains,
          const std::optional<std::vector<std::byte>>& initial, DomainId initial_domain)
        : backend_(backend), size_(size), domains_(domains), truth_(size),
          defined_(size, initial.has_value()), current_(domains, std::vector<char>(size, 0)) {
        if (initial) {
            truth_ = *initial;
            std::fill(current_[initial_domain].begin(), current_[initial_domain].end(), 1);
        }
    }

    size_t size() const { return size_; }
    unsigned domains() const { return domains_; }
    std::uint64_t bytes_copied() const { return bytes_copied_; }
    std::uint64_t bytes_minimum() const { return bytes_minimum_; }
    std::uint64_t copies() const { return copies_; }
    std::uint64_t bytes_checked() const { return bytes_checked_; }

    // Plans an access, checks and runs its copies, and for a reading access
    // checks the content it sees. Records the access's effect on
    // current/defined (not on the bytes: see write() and copy_within()).
    // Returns what went wrong, or "".
    std::string access(DomainId domain, ByteRange range, Access access) {
        std::ostringstream problem;
        const bool reads = access == Access::read || access == Access::read_write;
        std::uint64_t minimum = 0;
        if (reads)
            for (size_t i = range.begin; i < range.end; ++i)
                minimum += defined_[i] && !current_[domain][i];

        const std::vector<PlannedCopy> planned = backend_.plan(domain, range, access);
        std::byte* target = backend_.bytes(domain);
        std::uint64_t moved = 0;
        std::map<DomainId, std::vector<ByteRange>> by_source;
        for (const PlannedCopy& p : planned) {
            const memory::Copy& c = p.copy;
            problem << check_copy(p, domain, range, target);
            if (!problem.str().empty())
                return describe(domain, range, access) + ": " + problem.str();
            std::memcpy(p.to, p.from, p.size);
            std::fill(current_[domain].begin() + static_cast<std::ptrdiff_t>(c.range.begin),
                      current_[domain].begin() + static_cast<std::ptrdiff_t>(c.range.end), 1);
            moved += c.range.size();
            by_source[c.from].push_back(c.range);
            ++copies_;
        }
        for (auto& [source, ranges] : by_source) {
            std::sort(ranges.begin(), ranges.end(),
                      [](ByteRange a, ByteRange b) { return a.begin < b.begin; });
            for (size_t i = 1; i < ranges.size(); ++i)
                if (ranges[i - 1].end >= ranges[i].begin)
                    return describe(domain, range, access) + ": copies " + show(ranges[i - 1]) +
                           " and " + show(ranges[i]) + " from domain " + std::to_string(source) +
                           " touch (one copy would do)";
        }
        if (moved != minimum)
            return describe(domain, range, access) + ": copied " + std::to_string(moved) +
                   " bytes, the minimum is " + std::to_string(minimum);
        bytes_copied_ += moved;
        bytes_minimum_ += minimum;

        if (reads) {
            for (size_t i = range.begin; i < range.end; ++i) {
                if (!defined_[i])
                    continue;
                ++bytes_checked_;
                if (!current_[domain][i])
                    return describe(domain, range, access) + ": byte " + std::to_string(i) +
                           " is defined but was not brought up to date";
                if (target[i] != truth_[i])
                    return describe(domain, range, access) + ": byte " + std::to_string(i) +
                           " reads " + std::to_string(int(target[i])) + ", last written " +
                           std::to_string(int(truth_[i]));
            }
        }

        switch (access) {
        case Access::read: break;
        case Access::read_write:
        case Access::overwrite:
            for (DomainId other = 0; other < domains_; ++other)
                fill(current_[other], range, other == domain);
            fill(defined_, range, true);
            break;
        case Access::discard:
            for (auto& current : current_)
                fill(current, range, false);
            fill(defined_, range, false);
            break;
        }
        return {};
    }

    // The device or host writes bytes of range in domain (every byte, or a
    // random part of them); after a read_write or overwrite access there.
    void write(DomainId domain, ByteRange range, bool every_byte, std::mt19937_64& rng) {
        std::byte* bytes = backend_.bytes(domain);
        std::uint64_t values = 0;
        std::uint64_t mask = 0;
        for (size_t i = range.begin; i < range.end; ++i) {
            const size_t n = i - range.begin;
            if (n % 8 == 0)
                values = rng();
            if (n % 64 == 0)
                mask = every_byte ? ~std::uint64_t(0) : rng();
            if ((mask >> (n % 64)) & 1)
                bytes[i] = std::byte(values >> (8 * (n % 8)));
        }
        // The range's content is now whatever the instance holds (bytes not
        // written keep what was there, even if it was undefined).
        std::memcpy(truth_.data() + range.begin, bytes + range.begin, range.size());
    }

    // A copy inside domain's instance, after a read of source and an
    // overwrite of the destination there.
    void copy_within(DomainId domain, ByteRange source, size_t destination) {
        std::byte* bytes = backend_.bytes(domain);
        std::memmove(bytes + destination, bytes + source.begin, source.size());
        std::memcpy(truth_.data() + destination, bytes + destination, source.size());
    }

    // The planner's state equals the model's (when the backend shows it),
    // and every defined byte is current somewhere.
    std::string compare_state() const {
        for (size_t i = 0; i < size_; ++i) {
            if (!defined_[i])
                continue;
            bool somewhere = false;
            for (const auto& current : current_)
                somewhere = somewhere || current[i];
            if (!somewhere)
                return "byte " + std::to_string(i) + " is defined but current nowhere (lost)";
        }
        const memory::Validity* validity = backend_.validity();
        if (!validity)
            return {};
        if (runs(defined_) != validity->defined().ranges())
            return "defined ranges differ: planner " + show(validity->defined().ranges()) +
                   ", model " + show(runs(defined_));
        for (DomainId domain = 0; domain < domains_; ++domain)
            if (runs(current_[domain]) != validity->valid(domain).ranges())
                return "valid ranges of domain " + std::to_string(domain) + " differ: planner " +
                       show(validity->valid(domain).ranges()) + ", model " +
                       show(runs(current_[domain]));
        return {};
    }

private:
    std::string describe(DomainId domain, ByteRange range, Access access) const {
        return std::string(access_name(access)) + " of " + show(range) + " in domain " +
               std::to_string(domain);
    }

    std::string check_copy(const PlannedCopy& p, DomainId domain, ByteRange range,
                           std::byte* target) const {
        const memory::Copy& c = p.copy;
        std::ostringstream out;
        if (c.to != domain || c.from == domain || c.from >= domains_)
            out << "copy " << c.from << "->" << c.to << " is not into the accessed domain";
        else if (c.range.empty() || c.range.begin < range.begin || c.range.end > range.end)
            out << "copy of " << show(c.range) << " is empty or outside the access";
        else if (p.to != target + c.range.begin || p.size != c.range.size() ||
                 p.from != backend_.bytes(c.from) + c.range.begin)
            out << "copy of " << show(c.range) << " has the wrong addresses or size";
        if (!out.str().empty())
            return out.str();
        for (size_t i = c.range.begin; i < c.range.end; ++i) {
            if (!defined_[i])
                out << "copy " << c.from << "->" << c.to << " of " << show(c.range)
                    << " moves byte " << i << ", which has no content";
            else if (current_[domain][i])
                out << "copy " << c.from << "->" << c.to << " of " << show(c.range)
                    << " moves byte " << i << ", already current in the target (redundant)";
            else if (!current_[c.from][i])
                out << "copy " << c.from << "->" << c.to << " of " << show(c.range)
                    << " moves byte " << i << ", which is stale in the source";
            if (!out.str().empty())
                return out.str();
        }
        return {};
    }

    static void fill(std::vector<char>& bits, ByteRange range, bool value) {
        std::fill(bits.begin() + static_cast<std::ptrdiff_t>(range.begin),
                  bits.begin() + static_cast<std::ptrdiff_t>(range.end), value ? 1 : 0);
    }

    static std::vector<ByteRange> runs(const std::vector<char>& bits) {
        std::vector<ByteRange> list;
        for (size_t i = 0; i < bits.size();) {
            if (!bits[i]) {
                ++i;
                continue;
            }
            size_t j = i;
            while (j < bits.size() && bits[j])
                ++j;
            list.push_back({i, j});
            i = j;
        }
        return list;
    }

    Backend& backend_;
    size_t size_;
    unsigned domains_;
    std::vector<std::byte> truth_;
    std::vector<char> defined_;
    std::vector<std::vector<char>> current_; // [domain][byte]
    std::uint64_t bytes_copied_ = 0;
    std::uint64_t bytes_minimum_ = 0;
    std::uint64_t copies_ = 0;
    std::uint64_t bytes_checked_ = 0;
};

// Random API-shaped operations on one buffer and a few sub-buffers of it.
class Workload {
public:
    static constexpr DomainId host = 0;

    Workload(Model& model, std::mt19937_64& rng) : model_(model), rng_(rng) {
        const size_t size = model.size();
        views_.push_back({0, size});
        const size_t sub_buffers = rng_() % 4;
        for (size_t i = 0; i < sub_buffers; ++i) {
            const size_t offset = rng_() % size;
            views_.push_back({offset, offset + 1 + rng_() % (size - offset)});
        }
    }

    // One operation; returns what went wrong, or "".
    std::string step() {
        const DomainId domain = static_cast<DomainId>(rng_() % model_.domains());
        const ByteRange view = views_[rng_() % views_.size()];
        const ByteRange range = pick(view);
        const unsigned dice = static_cast<unsigned>(rng_() % 100);
        last_ = {};
        if (dice < 20) // clEnqueueReadBuffer
            return run("read", domain, range, Access::read);
        if (dice < 30) // clEnqueueWriteBuffer
            return write("write", domain, range, Access::overwrite, true);
        if (dice < 35) // clEnqueueFillBuffer
            return write("fill", domain, range, Access::overwrite, true);
        if (dice < 40) { // map for reading, unmap
            if (auto problem = run("map read", host, range, Access::read); !problem.empty())
                return problem;
            return run("unmap", host, range, Access::read);
        }
        if (dice < 46) { // map for writing: the host changes some bytes, unmap
            if (auto problem = write("map write", host, range, Access::read_write, false);
                !problem.empty())
                return problem;
            return run("unmap", host, range, Access::read_write);
        }
        if (dice < 49) { // map with CL_MAP_WRITE_INVALIDATE_REGION
            if (auto problem = write("map invalidate", host, range, Access::overwrite, false);
                !problem.empty())
                return problem;
            return run("unmap", host, range, Access::read_write);
        }
        if (dice < 57)
            return copy(domain);
        if (dice < 62) // a write rect with gaps between rows: read_write of the span
            return write("write rect", domain, range, Access::read_write, false);
        if (dice < 74) // a kernel argument that is read and written
            return write("kernel read_write", domain, range, Access::read_write, false);
        if (dice < 86) // a kernel argument that is only read
            return run("kernel read", domain, range, Access::read);
        if (dice < 92) // a kernel argument proven write-only
            return write("kernel write-only", domain, range, Access::overwrite, true);
        if (dice < 98) // clEnqueueMigrateMemObjects of a whole (sub-)buffer
            return run("migrate", rng_() % 2 ? host : domain, view, Access::read);
        // clEnqueueMigrateMemObjects with CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED
        return run("migrate undefined", domain, view, Access::discard);
    }

    // Reads the whole buffer in every domain.
    std::string read_everywhere() {
        for (DomainId domain = 0; domain < model_.domains(); ++domain)
            if (auto problem = run("final read", domain, views_[0], Access::read); !problem.empty())
                return problem;
        return {};
    }

    const std::string& last() const { return last_; }

private:
    ByteRange pick(ByteRange view) {
        const size_t n = view.size();
        size_t length = n;
        switch (rng_() % 10) {
        case 0: break;
        case 1:
        case 2:
        case 3: length = 1 + rng_() % std::min<size_t>(n, 16); break;
        case 4:
        case 5:
        case 6:
        case 7: length = 1 + rng_() % std::max<size_t>(1, n / 8); break;
        default: length = 1 + rng_() % n; break;
        }
        const size_t begin = view.begin + rng_() % (n - length + 1);
        return {begin, begin + length};
    }

    std::string run(const char* what, DomainId domain, ByteRange range, Access access) {
        last_ += std::string(what) + " " + show(range) + " in " + std::to_string(domain) + "; ";
        return model_.access(domain, range, access);
    }

    std::string write(const char* what, DomainId domain, ByteRange range, Access access,
                      bool every_byte) {
        if (auto problem = run(what, domain, range, access); !problem.empty())
            return problem;
        model_.write(domain, range, every_byte, rng_);
        return {};
    }

    // clEnqueueCopyBuffer between two views, in one domain: a read of the
    // source, an overwrite of the destination (never overlapping).
    std::string copy(DomainId domain) {
        const ByteRange from_view = views_[rng_() % views_.size()];
        const ByteRange to_view = views_[rng_() % views_.size()];
        const ByteRange source = pick(from_view);
        const size_t length = source.size();
        if (length > to_view.size())
            return {};
        const size_t destination = to_view.begin + rng_() % (to_view.size() - length + 1);
        if (destination < source.end && source.begin < destination + length)
            return {}; // CL_MEM_COPY_OVERLAP
        if (auto problem = run("copy from", domain, source, Access::read); !problem.empty())
            return problem;
        if (auto problem =
                run("copy to", domain, {destination, destination + length}, Access::overwrite);
            !problem.empty())
            return problem;
        model_.copy_within(domain, source, destination);
        return {};
    }

    Model& model_;
    std::mt19937_64& rng_;
    std::vector<ByteRange> views_; // [0]: the whole buffer; then sub-buffers
    std::string last_;
};

} // namespace usmcl::test
