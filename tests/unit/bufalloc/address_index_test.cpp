// AddressIndex (the B+tree behind lookups) against std::map.
#include "bufalloc/detail/address_index.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
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
