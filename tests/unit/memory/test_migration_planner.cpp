// The migration planner (Validity): behaviour of single accesses, and long
// random sequences checked against the reference model of planner_model.hpp.
#include "memory/migration_planner.hpp"

#include "planner_model.hpp"
#include "seed.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <random>
#include <string>
#include <vector>

using usmcl::memory::Access;
using usmcl::memory::ByteRange;
using usmcl::memory::Copy;
using usmcl::memory::Validity;

namespace {

using Copies = std::vector<Copy>;
using Ranges = std::vector<ByteRange>;

// In the order of the bytes (the planner lists them by source domain; they
// are disjoint, so they may run in any order).
Copies sorted(Copies copies) {
    std::sort(copies.begin(), copies.end(),
              [](const Copy& a, const Copy& b) { return a.range.begin < b.range.begin; });
    return copies;
}

std::size_t bytes(const Copies& copies) {
    std::size_t total = 0;
    for (const Copy& copy : copies)
        total += copy.range.size();
    return total;
}

} // namespace

namespace Catch {
template <>
struct StringMaker<Copy> {
    static std::string convert(const Copy& copy) {
        return std::to_string(copy.from) + "->" + std::to_string(copy.to) + " " +
               usmcl::test::show(copy.range);
    }
};
template <>
struct StringMaker<ByteRange> {
    static std::string convert(const ByteRange& range) { return usmcl::test::show(range); }
};
} // namespace Catch

namespace usmcl::memory {
// For comparisons of copy lists in CHECKs.
bool operator==(const Copy& a, const Copy& b) {
    return a.from == b.from && a.to == b.to && a.range == b.range;
}
} // namespace usmcl::memory

TEST_CASE("Validity: a buffer without content never copies", "[validity]") {
    Validity validity(1000, 4, false, 0);
    CHECK(validity.defined().empty());
    for (unsigned domain = 0; domain < 4; ++domain) {
        CHECK(validity.valid(domain).empty());
        CHECK(validity.plan(domain, {0, 1000}, Access::read).empty());
    }
    CHECK(validity.plan(2, {10, 20}, Access::read_write).empty());
    // The read_write made [10, 20) content, held by domain 2 alone.
    CHECK(validity.defined().ranges() == Ranges{{10, 20}});
    CHECK(validity.valid(2).ranges() == Ranges{{10, 20}});
    CHECK(validity.valid(0).empty());
    CHECK(validity.plan(0, {0, 1000}, Access::read) == Copies{{2, 0, {10, 20}}});
}

TEST_CASE("Validity: content given at creation lives in the initial domain", "[validity]") {
    SECTION("host") {
        Validity validity(64, 3, true, 0);
        CHECK(validity.size() == 64);
        CHECK(validity.domains() == 3);
        CHECK(validity.defined().ranges() == Ranges{{0, 64}});
        CHECK(validity.valid(0).ranges() == Ranges{{0, 64}});
        CHECK(validity.plan(0, {0, 64}, Access::read).empty());
        CHECK(validity.plan(1, {8, 24}, Access::read) == Copies{{0, 1, {8, 24}}});
        CHECK(validity.plan(1, {8, 24}, Access::read).empty()); // now current there
        CHECK(validity.plan(1, {0, 32}, Access::read) == Copies{{0, 1, {0, 8}}, {0, 1, {24, 32}}});
        CHECK(validity.valid(1).ranges() == Ranges{{0, 32}});
        CHECK(validity.valid(0).ranges() == Ranges{{0, 64}}); // reads invalidate nothing
    }
    SECTION("another domain") {
        Validity validity(64, 3, true, 2);
        CHECK(validity.valid(0).empty());
        CHECK(validity.valid(2).ranges() == Ranges{{0, 64}});
        CHECK(validity.plan(0, {0, 64}, Access::read) == Copies{{2, 0, {0, 64}}});
    }
}

TEST_CASE("Validity: one domain never copies", "[validity]") {
    Validity validity(256, 1, true, 0);
    const Access accesses[] = {Access::read, Access::read_write, Access::overwrite,
                               Access::discard};
    std::mt19937_64 rng(usmcl::test::seed());
    for (int i = 0; i < 200; ++i) {
        const std::size_t begin = rng() % 256;
        const ByteRange range{begin, begin + rng() % (256 - begin + 1)};
        CHECK(validity.plan(0, range, accesses[rng() % 4]).empty());
    }
}

TEST_CASE("Validity: overwrite (write-only) plans no copies", "[validity]") {
    Validity validity(100, 2, true, 0);
    CHECK(validity.plan(1, {10, 90}, Access::overwrite).empty());
    CHECK(validity.valid(1).ranges() == Ranges{{10, 90}});
    CHECK(validity.valid(0).ranges() == Ranges{{0, 10}, {90, 100}});
    // A later overwrite back on the host copies nothing either.
    CHECK(validity.plan(0, {0, 100}, Access::overwrite).empty());
    CHECK(validity.valid(1).empty());
}

TEST_CASE("Validity: read_write copies only the stale bytes that have content", "[validity]") {
    Validity validity(100, 2, false, 0);
    CHECK(validity.plan(0, {20, 40}, Access::overwrite).empty());
    CHECK(validity.plan(0, {60, 70}, Access::overwrite).empty());
    CHECK(validity.plan(1, {0, 100}, Access::read_write) ==
          Copies{{0, 1, {20, 40}}, {0, 1, {60, 70}}});
    // The whole range now has content, current only in domain 1.
    CHECK(validity.defined().ranges() == Ranges{{0, 100}});
    CHECK(validity.valid(1).ranges() == Ranges{{0, 100}});
    CHECK(validity.valid(0).empty());
}

TEST_CASE("Validity: discard makes content undefined", "[validity]") {
    SECTION("the whole buffer") {
        Validity validity(4096, 3, true, 0);
        CHECK(validity.plan(1, {0, 4096}, Access::read).size() == 1);
        CHECK(validity.plan(2, {100, 200}, Access::overwrite).empty());
        CHECK(validity.plan(1, {0, 4096}, Access::discard).empty());
        CHECK(validity.defined().empty());
        for (unsigned domain = 0; domain < 3; ++domain)
            CHECK(validity.valid(domain).empty());
        // Nothing to copy afterwards, in any domain.
        for (unsigned domain = 0; domain < 3; ++domain)
            CHECK(validity.plan(domain, {0, 4096}, Access::read).empty());
    }
    SECTION("a part") {
        Validity validity(1000, 2, true, 0);
        CHECK(validity.plan(0, {200, 300}, Access::discard).empty());
        CHECK(validity.plan(1, {0, 1000}, Access::read) ==
              Copies{{0, 1, {0, 200}}, {0, 1, {300, 1000}}});
        // Written again, the part has content once more.
        CHECK(validity.plan(0, {250, 260}, Access::overwrite).empty());
        CHECK(validity.plan(1, {0, 1000}, Access::read) == Copies{{0, 1, {250, 260}}});
    }
}

TEST_CASE("Validity: a partial write moves only what changed", "[validity]") {
    constexpr std::size_t size = 1 << 20;
    Validity validity(size, 2, true, 0);
    CHECK(bytes(validity.plan(1, {0, size}, Access::read)) == size);
    CHECK(validity.plan(1, {5000, 5100}, Access::overwrite).empty());
    CHECK(validity.plan(1, {9000, 9001}, Access::read_write).empty());
    CHECK(validity.plan(0, {0, size}, Access::read) ==
          Copies{{1, 0, {5000, 5100}}, {1, 0, {9000, 9001}}});
    CHECK(validity.plan(1, {0, size}, Access::read).empty());
}

TEST_CASE("Validity: pieces come from where they are current, the host first", "[validity]") {
    Validity validity(300, 4, true, 0);
    CHECK(validity.plan(1, {0, 100}, Access::overwrite).empty());
    CHECK(validity.plan(2, {100, 200}, Access::overwrite).empty());
    CHECK(sorted(validity.plan(3, {0, 300}, Access::read)) ==
          Copies{{1, 3, {0, 100}}, {2, 3, {100, 200}}, {0, 3, {200, 300}}});
    // [0, 100) is now current in 1 and 3, [100, 200) in 2 and 3, [200, 300)
    // in 0 and 3: each piece comes from the lowest domain that has it.
    CHECK(sorted(validity.plan(2, {0, 300}, Access::read)) ==
          Copies{{1, 2, {0, 100}}, {0, 2, {200, 300}}});
    CHECK(sorted(validity.plan(1, {0, 300}, Access::read)) ==
          Copies{{2, 1, {100, 200}}, {0, 1, {200, 300}}});
    CHECK(validity.plan(0, {0, 300}, Access::read) == Copies{{1, 0, {0, 200}}});
}

TEST_CASE("Validity: overlapping sub-buffers see each other's writes", "[validity]") {
    // Sub-buffer A = [100, 200), B = [150, 300) of a 400-byte buffer.
    Validity validity(400, 3, true, 0);
    CHECK(validity.plan(1, {100, 200}, Access::overwrite).empty()); // through A in domain 1
    CHECK(sorted(validity.plan(2, {150, 300}, Access::read)) ==
          Copies{{1, 2, {150, 200}}, {0, 2, {200, 300}}});
    CHECK(validity.plan(0, {0, 400}, Access::read) == Copies{{1, 0, {100, 200}}});
}

TEST_CASE("Validity: empty ranges change nothing", "[validity]") {
    Validity validity(100, 2, true, 0);
    for (const Access access :
         {Access::read, Access::read_write, Access::overwrite, Access::discard})
        CHECK(validity.plan(1, {50, 50}, access).empty());
    CHECK(validity.valid(0).ranges() == Ranges{{0, 100}});
    CHECK(validity.valid(1).empty());
    CHECK(validity.defined().ranges() == Ranges{{0, 100}});
}

TEST_CASE("Validity: random sequences against the model", "[validity][random]") {
    const std::uint64_t seed = usmcl::test::seed();
    INFO("seed " << seed << " (USMCL_TEST_SEED to change)");
    std::mt19937_64 rng(seed);
    constexpr std::size_t sizes[] = {1, 2, 3, 17, 128, 1000, 4096};
#if defined(__OPTIMIZE__) && !defined(__SANITIZE_ADDRESS__)
    constexpr int sequences = 120;
#else
    constexpr int sequences = 30;
#endif
    constexpr int steps = 1500;
    std::uint64_t copied = 0, minimum = 0, copies = 0, checked = 0;
    const auto start = std::chrono::steady_clock::now();
    for (int sequence = 0; sequence < sequences; ++sequence) {
        const std::size_t size = sizes[rng() % std::size(sizes)];
        const unsigned domains = sequence % 8 == 0 ? 1 + static_cast<unsigned>(rng() % 4) : 4;
        const bool content = rng() % 2 == 0;
        const auto initial_domain = static_cast<unsigned>(rng() % domains);
        INFO("sequence " << sequence << ": " << size << " bytes, " << domains << " domains, "
                         << (content ? "content in domain " + std::to_string(initial_domain)
                                     : std::string("no content")));

        usmcl::test::ValidityBackend backend(size, domains, content, initial_domain);
        std::optional<std::vector<std::byte>> initial;
        if (content) {
            initial.emplace(size);
            for (std::byte& byte : *initial)
                byte = std::byte(rng());
            std::memcpy(backend.bytes(initial_domain), initial->data(), size);
        }
        // Stale bytes are junk, so that a missing copy shows.
        for (unsigned domain = 0; domain < domains; ++domain)
            if (!content || domain != initial_domain)
                for (std::size_t i = 0; i < size; ++i)
                    backend.bytes(domain)[i] = std::byte(rng());

        usmcl::test::Model model(backend, size, domains, initial, initial_domain);
        usmcl::test::Workload workload(model, rng);
        REQUIRE(model.compare_state() == "");
        for (int step = 0; step < steps; ++step) {
            const std::string problem = workload.step();
            INFO("step " << step << ": " << workload.last());
            REQUIRE(problem == "");
            if (step % 16 == 0 || step == steps - 1)
                REQUIRE(model.compare_state() == "");
        }
        REQUIRE(workload.read_everywhere() == "");
        REQUIRE(model.compare_state() == "");
        REQUIRE(model.bytes_copied() == model.bytes_minimum());
        copied += model.bytes_copied();
        minimum += model.bytes_minimum();
        copies += model.copies();
        checked += model.bytes_checked();
    }
    const auto elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start);
    // The sequences did exercise migration.
    CHECK(copies > 1000);
    CHECK(checked > 100000);
    CHECK(copied == minimum);
    std::printf("validity model: %d sequences x %d steps, %llu copies, %llu bytes copied "
                "(minimum %llu), %llu bytes checked, %.2f s\n",
                sequences, steps, static_cast<unsigned long long>(copies),
                static_cast<unsigned long long>(copied), static_cast<unsigned long long>(minimum),
                static_cast<unsigned long long>(checked), elapsed.count());
}
