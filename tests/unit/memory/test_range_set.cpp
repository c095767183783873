// RangeSet: edge cases of add/remove/contains/intersect/missing/total_bytes,
// and a randomized comparison against a byte-per-bit model.
#include "memory/range_set.hpp"

#include "seed.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using usmcl::memory::ByteRange;
using usmcl::memory::RangeSet;

namespace {

using Ranges = std::vector<ByteRange>;

std::string show(const Ranges& ranges) {
    std::ostringstream out;
    out << '{';
    for (const ByteRange& range : ranges)
        out << " [" << range.begin << ',' << range.end << ')';
    out << " }";
    return out.str();
}

RangeSet make(std::initializer_list<ByteRange> ranges) {
    RangeSet set;
    for (const ByteRange& range : ranges)
        set.add(range);
    return set;
}

} // namespace

namespace Catch {
template <>
struct StringMaker<ByteRange> {
    static std::string convert(const ByteRange& range) { return show({range}); }
};
} // namespace Catch

TEST_CASE("RangeSet: an empty set", "[range_set]") {
    const RangeSet set;
    CHECK(set.empty());
    CHECK(set.count() == 0);
    CHECK(set.total_bytes() == 0);
    CHECK(set.ranges().empty());
    CHECK(set.contains({}));
    CHECK(set.contains({7, 7}));
    CHECK_FALSE(set.contains({3, 4}));
    CHECK(set.intersect({0, 100}).empty());
    CHECK(set.missing({2, 5}) == Ranges{{2, 5}});
    CHECK(set.missing({5, 5}).empty());
    CHECK(RangeSet(ByteRange{4, 4}).empty());
    CHECK(RangeSet(ByteRange{4, 9}).ranges() == Ranges{{4, 9}});
}

TEST_CASE("RangeSet: add ignores empty and inverted ranges", "[range_set]") {
    RangeSet set;
    set.add({5, 5});
    set.add({9, 3});
    CHECK(set.empty());
    set.add({0, 4});
    set.add({4, 4});
    CHECK(set.ranges() == Ranges{{0, 4}});
}

TEST_CASE("RangeSet: add coalesces touching and overlapping ranges", "[range_set]") {
    SECTION("touching on the right") {
        const RangeSet set = make({{0, 4}, {4, 8}});
        CHECK(set.ranges() == Ranges{{0, 8}});
    }
    SECTION("touching on the left") {
        const RangeSet set = make({{8, 10}, {5, 8}});
        CHECK(set.ranges() == Ranges{{5, 10}});
    }
    SECTION("filling the gap between two ranges exactly") {
        const RangeSet set = make({{0, 2}, {4, 6}, {2, 4}});
        CHECK(set.ranges() == Ranges{{0, 6}});
        CHECK(set.count() == 1);
    }
    SECTION("spanning several ranges") {
        const RangeSet set = make({{0, 2}, {4, 6}, {8, 10}, {12, 14}, {1, 9}});
        CHECK(set.ranges() == Ranges{{0, 10}, {12, 14}});
    }
    SECTION("swallowing inner ranges without touching the outer ones") {
        const RangeSet set = make({{0, 2}, {4, 6}, {8, 10}, {3, 7}});
        CHECK(set.ranges() == Ranges{{0, 2}, {3, 7}, {8, 10}});
    }
    SECTION("a range already inside changes nothing") {
        const RangeSet set = make({{0, 10}, {3, 5}, {0, 10}, {9, 10}});
        CHECK(set.ranges() == Ranges{{0, 10}});
    }
    SECTION("a gap of one byte stays a gap") {
        const RangeSet set = make({{0, 4}, {5, 8}});
        CHECK(set.ranges() == Ranges{{0, 4}, {5, 8}});
        CHECK(set.total_bytes() == 7);
    }
    SECTION("out of order") {
        const RangeSet set = make({{20, 30}, {0, 5}, {10, 15}});
        CHECK(set.ranges() == Ranges{{0, 5}, {10, 15}, {20, 30}});
        CHECK(set.total_bytes() == 20);
        CHECK(set.count() == 3);
    }
}

TEST_CASE("RangeSet: remove", "[range_set]") {
    SECTION("the middle splits a range") {
        RangeSet set({0, 10});
        set.remove({3, 5});
        CHECK(set.ranges() == Ranges{{0, 3}, {5, 10}});
    }
    SECTION("an exact range") {
        RangeSet set = make({{0, 4}, {6, 10}});
        set.remove({6, 10});
        CHECK(set.ranges() == Ranges{{0, 4}});
        set.remove({0, 4});
        CHECK(set.empty());
    }
    SECTION("ranges that only touch are left alone") {
        RangeSet set({4, 10});
        set.remove({10, 12});
        set.remove({0, 4});
        CHECK(set.ranges() == Ranges{{4, 10}});
    }
    SECTION("empty and inverted ranges are no-ops") {
        RangeSet set({4, 10});
        set.remove({6, 6});
        set.remove({9, 5});
        CHECK(set.ranges() == Ranges{{4, 10}});
    }
    SECTION("across several ranges, clipping both ends") {
        RangeSet set = make({{0, 5}, {6, 8}, {10, 15}});
        set.remove({3, 12});
        CHECK(set.ranges() == Ranges{{0, 3}, {12, 15}});
    }
    SECTION("inside a gap") {
        RangeSet set = make({{0, 5}, {10, 15}});
        set.remove({6, 9});
        CHECK(set.ranges() == Ranges{{0, 5}, {10, 15}});
    }
    SECTION("everything") {
        RangeSet set = make({{0, 5}, {10, 15}});
        set.remove({0, std::numeric_limits<size_t>::max()});
        CHECK(set.empty());
    }
    SECTION("clear") {
        RangeSet set = make({{0, 5}, {10, 15}});
        set.clear();
        CHECK(set.empty());
        CHECK(set.total_bytes() == 0);
    }
}

TEST_CASE("RangeSet: contains", "[range_set]") {
    const RangeSet set = make({{10, 20}, {30, 40}});
    CHECK(set.contains({10, 20}));
    CHECK(set.contains({12, 13}));
    CHECK(set.contains({19, 20}));
    CHECK(set.contains({30, 40}));
    CHECK(set.contains({25, 25})); // empty: trivially contained
    CHECK_FALSE(set.contains({9, 11}));
    CHECK_FALSE(set.contains({19, 21}));
    CHECK_FALSE(set.contains({20, 21}));
    CHECK_FALSE(set.contains({10, 40})); // across the gap
    CHECK_FALSE(set.contains({0, 5}));
    CHECK_FALSE(set.contains({45, 50}));
}

TEST_CASE("RangeSet: intersect and missing", "[range_set]") {
    const RangeSet set = make({{10, 20}, {30, 40}, {50, 60}});
    CHECK(set.intersect({0, 100}) == Ranges{{10, 20}, {30, 40}, {50, 60}});
    CHECK(set.intersect({15, 35}) == Ranges{{15, 20}, {30, 35}});
    CHECK(set.intersect({20, 30}).empty()); // exactly a gap
    CHECK(set.intersect({12, 14}) == Ranges{{12, 14}});
    CHECK(set.intersect({59, 61}) == Ranges{{59, 60}});
    CHECK(set.intersect({3, 3}).empty());

    CHECK(set.missing({0, 100}) == Ranges{{0, 10}, {20, 30}, {40, 50}, {60, 100}});
    CHECK(set.missing({15, 35}) == Ranges{{20, 30}});
    CHECK(set.missing({12, 14}).empty());
    CHECK(set.missing({20, 30}) == Ranges{{20, 30}});
    CHECK(set.missing({10, 60}) == Ranges{{20, 30}, {40, 50}});
    CHECK(set.missing({33, 33}).empty());
}

TEST_CASE("RangeSet: offsets near the top of size_t", "[range_set]") {
    constexpr size_t top = std::numeric_limits<size_t>::max();
    RangeSet set({top - 10, top});
    set.add({0, 1});
    CHECK(set.contains({top - 1, top}));
    CHECK(set.total_bytes() == 11);
    CHECK(set.missing({top - 20, top}) == Ranges{{top - 20, top - 10}});
    set.remove({top - 5, top});
    CHECK(set.ranges() == Ranges{{0, 1}, {top - 10, top - 5}});
}

TEST_CASE("RangeSet: randomized against a byte model", "[range_set][random]") {
    const std::uint64_t seed = usmcl::test::seed();
    INFO("seed " << seed << " (USMCL_TEST_SEED to change)");
    std::mt19937_64 rng(seed);
    constexpr size_t universe = 300;
    auto random_range = [&rng]() -> ByteRange {
        // Mostly short ranges, so that the set stays fragmented.
        const size_t begin = rng() % (universe + 1);
        const size_t limit =
            (rng() % 4 == 0) ? universe - begin : std::min<size_t>(12, universe - begin);
        const size_t length = limit == 0 ? 0 : rng() % (limit + 1);
        return {begin, begin + length};
    };

    for (int round = 0; round < 40; ++round) {
        RangeSet set;
        std::vector<bool> model(universe, false);
        for (int step = 0; step < 400; ++step) {
            const ByteRange range = random_range();
            const bool adding = rng() % 2 == 0;
            if (adding)
                set.add(range);
            else
                set.remove(range);
            for (size_t i = range.begin; i < range.end; ++i)
                model[i] = adding;

            // The set's ranges are exactly the runs of the model: sorted,
            // non-empty, disjoint and never touching.
            Ranges runs;
            for (size_t i = 0; i < universe;) {
                if (!model[i]) {
                    ++i;
                    continue;
                }
                size_t j = i;
                while (j < universe && model[j])
                    ++j;
                runs.push_back({i, j});
                i = j;
            }
            INFO("round " << round << " step " << step << (adding ? " add " : " remove ")
                          << show({range}));
            REQUIRE(show(set.ranges()) == show(runs));
            REQUIRE(set.count() == runs.size());
            size_t bytes = 0;
            for (const ByteRange& run : runs)
                bytes += run.size();
            REQUIRE(set.total_bytes() == bytes);
            REQUIRE(set.empty() == runs.empty());

            // Queries over a random range.
            const ByteRange query = random_range();
            Ranges inside, outside;
            bool all = true;
            for (size_t i = query.begin; i < query.end; ++i) {
                Ranges& list = model[i] ? inside : outside;
                if (!list.empty() && list.back().end == i)
                    ++list.back().end;
                else
                    list.push_back({i, i + 1});
                all = all && model[i];
            }
            INFO("query " << show({query}));
            REQUIRE(set.contains(query) == all);
            REQUIRE(show(set.intersect(query)) == show(inside));
            REQUIRE(show(set.missing(query)) == show(outside));
        }
    }
}
