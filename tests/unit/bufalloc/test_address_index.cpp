// AddressIndex (the B+tree behind lookups) against std::map.
#include "bufalloc/detail/address_index.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <iterator>
#include <map>
#include <random>

using bufalloc::detail::AddressIndex;

namespace {

constexpr auto absent = AddressIndex::absent;

// What AddressIndex::floor must answer, computed from the reference map.
AddressIndex::Entry model_floor(const std::map<std::uint64_t, std::uint32_t>& model,
                                std::uint64_t key) {
    auto it = model.upper_bound(key);
    if (it == model.begin()) {
        return {};
    }
    --it;
    return {it->first, it->second};
}

void require_same_floor(const AddressIndex& index,
                        const std::map<std::uint64_t, std::uint32_t>& model, std::uint64_t key) {
    auto expected = model_floor(model, key);
    auto actual = index.floor(key);
    REQUIRE(actual.value == expected.value);
    if (expected.value != absent) {
        REQUIRE(actual.key == expected.key);
    }
}

} // namespace

TEST_CASE("empty index finds nothing", "[bufalloc][address_index]") {
    AddressIndex index;
    REQUIRE(index.size() == 0);
    REQUIRE(index.find(0) == absent);
    REQUIRE(index.floor(UINT64_MAX).value == absent);
    REQUIRE(index.erase(5) == absent);
    REQUIRE(index.check());
}

TEST_CASE("ascending and descending keys split and merge cleanly", "[bufalloc][address_index]") {
    constexpr std::uint32_t count = 20000;
    AddressIndex index;
    for (std::uint32_t i = 0; i < count; ++i) {
        index.insert(std::uint64_t{i} * 16, i);
    }
    REQUIRE(index.check());
    REQUIRE(index.size() == count);
    REQUIRE(index.floor(16 * 100 + 7).value == 100);
    REQUIRE(index.floor(0).key == 0);
    for (std::uint32_t i = count; i-- > 0;) {
        REQUIRE(index.erase(std::uint64_t{i} * 16) == i);
    }
    REQUIRE(index.check());
    REQUIRE(index.size() == 0);

    for (std::uint32_t i = count; i-- > 0;) {
        index.insert(UINT64_MAX - 1 - i, i);
    }
    REQUIRE(index.check());
    for (std::uint32_t i = 0; i < count; ++i) {
        REQUIRE(index.erase(UINT64_MAX - 1 - i) == i);
    }
    REQUIRE(index.check());
}

TEST_CASE("random inserts, erases and floors match std::map", "[bufalloc][address_index]") {
    std::mt19937_64 rng(12345);
    AddressIndex index;
    std::map<std::uint64_t, std::uint32_t> model;
    for (int round = 0; round < 200000; ++round) {
        // A small key space makes hits, misses and duplicates all common.
        std::uint64_t key = rng() % 50000 * 64;
        switch (rng() % 4) {
        case 0:
        case 1: {
            auto value = static_cast<std::uint32_t>(rng() % absent);
            if (model.emplace(key, value).second) {
                index.insert(key, value);
            }
            break;
        }
        case 2: {
            auto it = model.find(key);
            auto erased = index.erase(key);
            REQUIRE(erased == (it != model.end() ? it->second : absent));
            if (it != model.end()) {
                model.erase(it);
            }
            break;
        }
        default: require_same_floor(index, model, key + rng() % 128); break;
        }
        if (round % 20000 == 0) {
            REQUIRE(index.check());
            REQUIRE(index.size() == model.size());
        }
    }
    REQUIRE(index.check());
    for (const auto& [key, value] : model) {
        REQUIRE(index.find(key) == value);
    }
}

TEST_CASE("replace_key moves a key up to its neighbours and keeps every search right",
          "[bufalloc][address_index]") {
    std::mt19937_64 rng(777);
    AddressIndex index;
    std::map<std::uint64_t, std::uint32_t> model;
    for (std::uint32_t i = 0; i < 30000; ++i) {
        const std::uint64_t key = rng() % (std::uint64_t{1} << 40) * 4;
        if (model.emplace(key, i).second) {
            index.insert(key, i);
        }
    }
    for (int round = 0; round < 100000; ++round) {
        auto it = model.lower_bound(rng() % (std::uint64_t{1} << 42));
        if (it == model.end()) {
            continue;
        }
        // Any key strictly between the neighbours: below, above or (rarely) unchanged.
        const std::uint64_t low = it == model.begin() ? 0 : std::prev(it)->first + 1;
        const std::uint64_t high =
            std::next(it) == model.end() ? UINT64_MAX - 1 : std::next(it)->first - 1;
        std::uint64_t to = low + rng() % (high - low + 1);
        if (rng() % 4 == 0) {
            to = rng() % 2 == 0 ? low : high; // the extremes
        }
        const std::uint32_t value = it->second;
        index.replace_key(it->first, to);
        model.erase(it);
        model.emplace(to, value);
        REQUIRE(index.find(to) == value);
        if (round % 1000 == 0) {
            REQUIRE(index.check());
        }
        for (int probe = 0; probe < 3; ++probe) {
            const std::uint64_t key = probe == 0 ? to : probe == 1 ? to - 1 : to + 1;
            require_same_floor(index, model, key);
        }
    }
    REQUIRE(index.check());
    for (const auto& [key, value] : model) {
        REQUIRE(index.erase(key) == value);
    }
    REQUIRE(index.check());
}

TEST_CASE("ascending and descending inserts fill the leaves", "[bufalloc][address_index]") {
    constexpr std::uint32_t count = 100000;
    for (const bool ascending : {true, false}) {
        AddressIndex index;
        for (std::uint32_t i = 0; i < count; ++i) {
            const std::uint64_t key = std::uint64_t{ascending ? i : count - 1 - i} * 128;
            index.insert(key, i);
        }
        REQUIRE(index.check());
        // A full leaf holds 32 entries in 392 bytes (12.25 per entry); half-full leaves would
        // need 24.5. The node vectors may hold up to half their size again as spare room.
        const double per_entry = static_cast<double>(index.memory_bytes()) / count;
        INFO((ascending ? "ascending: " : "descending: ") << per_entry << " bytes per entry");
        CHECK(per_entry < 12.25 * 1.5 + 1);
    }
}
