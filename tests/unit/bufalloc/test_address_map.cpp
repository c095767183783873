// AddressMap (the hash map behind Region::free) against std::unordered_map.
#include "bufalloc/detail/address_map.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

using bufalloc::detail::AddressMap;

namespace {

struct Value {
    std::uint32_t index;
    std::uint32_t tag;
};

void require_agrees(const AddressMap& map, const std::unordered_map<std::uint64_t, Value>& model,
                    std::uint64_t key) {
    std::size_t pos = map.find(key);
    auto it = model.find(key);
    REQUIRE((pos != AddressMap::npos) == (it != model.end()));
    if (it != model.end()) {
        REQUIRE(map.value(pos) == it->second.index);
        REQUIRE(map.tag(pos) == it->second.tag);
        REQUIRE(map.holds(pos, key));
    }
}

// Random inserts and erases over keys drawn from `key_of`, checked against the model.
template <class KeyOf>
void run(std::uint64_t seed, KeyOf key_of) {
    std::mt19937_64 rng(seed);
    AddressMap map;
    std::unordered_map<std::uint64_t, Value> model;
    std::vector<std::uint64_t> keys;
    REQUIRE(map.find(0) == AddressMap::npos);
    for (int op = 0; op < 200'000; ++op) {
        bool grow = keys.size() < 3000 ? rng() % 3 != 0 : rng() % 3 == 0;
        if (grow || keys.empty()) {
            std::uint64_t key = key_of(rng);
            if (model.count(key) != 0) {
                continue;
            }
            Value value{static_cast<std::uint32_t>(rng() % 1000000),
                        static_cast<std::uint32_t>(rng())};
            map.reserve_for_insert();
            map.insert(key, value.index, value.tag);
            model.emplace(key, value);
            keys.push_back(key);
        } else {
            std::size_t i = rng() % keys.size();
            std::uint64_t key = keys[i];
            keys[i] = keys.back();
            keys.pop_back();
            std::size_t pos = map.find(key);
            REQUIRE(pos != AddressMap::npos);
            if (rng() % 4 == 0) {
                std::uint32_t tag = static_cast<std::uint32_t>(rng());
                map.set_tag(pos, tag);
                model[key].tag = tag;
                keys.push_back(key); // kept
                continue;
            }
            map.erase_at(pos);
            model.erase(key);
            REQUIRE(map.find(key) == AddressMap::npos);
        }
        if (op % 997 == 0) {
            REQUIRE(map.check());
            REQUIRE(map.size() == model.size());
            for (int probe = 0; probe < 20; ++probe) {
                require_agrees(map, model, key_of(rng));
            }
            if (!keys.empty()) {
                require_agrees(map, model, keys[rng() % keys.size()]);
            }
        }
    }
    for (std::uint64_t key : keys) {
        require_agrees(map, model, key);
    }
    REQUIRE(map.check());
    REQUIRE(map.find(AddressMap::empty_key) == AddressMap::npos);
    REQUIRE(map.memory_bytes() >= map.size() * 16);
}

} // namespace

TEST_CASE("AddressMap agrees with std::unordered_map", "[bufalloc][address_map]") {
    SECTION("aligned addresses in a small range (long probe runs)") {
        run(1, [](std::mt19937_64& rng) { return (std::uint64_t{1} << 40) + (rng() % 8192) * 64; });
    }
    SECTION("sparse 4 KiB-aligned addresses") {
        run(2, [](std::mt19937_64& rng) { return (rng() >> 20) << 12; });
    }
    SECTION("any 64-bit key but the empty marker") {
        run(3, [](std::mt19937_64& rng) {
            std::uint64_t key = rng();
            return key == AddressMap::empty_key ? 0 : key;
        });
    }
}
