// memory::UsmRegistry against a std::map model: random inserts and erases of
// non-overlapping ranges, lookups of interior, boundary and outside
// addresses; and memory::DevicePool: alignment, no overlap, writable memory,
// frees of unknown addresses refused.
#include "memory/device_pool.hpp"
#include "memory/usm_registry.hpp"
#include "seed.hpp"

#include <catch2/catch.hpp>

#include <atomic>
#include <cstring>
#include <map>
#include <random>
#include <set>
#include <thread>
#include <vector>

namespace {

using usmcl::memory::DevicePool;
using usmcl::memory::UsmAllocation;
using usmcl::memory::UsmKind;
using usmcl::memory::UsmRegistry;

std::byte* at(std::uintptr_t address) {
    return reinterpret_cast<std::byte*>(address);
}

} // namespace

TEST_CASE("UsmRegistry finds the allocation of every interior address", "[usm]") {
    std::mt19937_64 random(usmcl::test::seed());
    UsmRegistry registry;
    // Slots of 4 KiB in a fake address range; an allocation takes part of
    // one or more consecutive free slots.
    constexpr std::uintptr_t origin = 0x7000'0000'0000;
    constexpr std::uintptr_t slot = 4096;
    constexpr unsigned slots = 20000;
    std::vector<bool> used(slots, false);
    std::map<std::uintptr_t, UsmAllocation> model;

    auto check = [&](std::uintptr_t address) {
        const auto found = registry.find(at(address));
        auto it = model.upper_bound(address);
        const UsmAllocation* expected = nullptr;
        if (it != model.begin()) {
            --it;
            if (it->second.contains(at(address)))
                expected = &it->second;
        }
        INFO("address 0x" << std::hex << address);
        REQUIRE(found.has_value() == (expected != nullptr));
        if (expected) {
            CHECK(found->base == expected->base);
            CHECK(found->size == expected->size);
            CHECK(found->kind == expected->kind);
            CHECK(found->flags == expected->flags);
            CHECK(found->owner == expected->owner);
        }
    };

    for (int step = 0; step < 200000; ++step) {
        const unsigned first = static_cast<unsigned>(random() % slots);
        if (random() % 3 != 0 && !used[first]) {
            unsigned length = 1 + static_cast<unsigned>(random() % 3);
            while (first + length > slots)
                --length;
            bool free = true;
            for (unsigned i = 0; i < length; ++i)
                free = free && !used[first + i];
            if (!free)
                continue;
            for (unsigned i = 0; i < length; ++i)
                used[first + i] = true;
            const std::uintptr_t base = origin + first * slot + (random() % 8) * 128;
            UsmAllocation allocation;
            allocation.base = at(base);
            allocation.size = 1 + random() % (length * slot - (base - origin - first * slot));
            allocation.kind = static_cast<UsmKind>(random() % 3);
            allocation.flags = random() % 8;
            allocation.owner = reinterpret_cast<const void*>(random() % 4 * 64);
            registry.insert(allocation);
            model[base] = allocation;
        } else if (!model.empty()) {
            auto it = model.lower_bound(origin + first * slot);
            if (it == model.end())
                it = model.begin();
            const UsmAllocation allocation = it->second;
            // An interior address is not a base: nothing is erased.
            if (allocation.size > 1)
                CHECK_FALSE(registry.erase(allocation.base + 1).has_value());
            const auto erased = registry.erase(allocation.base);
            REQUIRE(erased.has_value());
            CHECK(erased->size == allocation.size);
            CHECK_FALSE(registry.erase(allocation.base).has_value());
            const auto begin = (reinterpret_cast<std::uintptr_t>(allocation.base) - origin) / slot;
            const auto end =
                (reinterpret_cast<std::uintptr_t>(allocation.base) + allocation.size - 1 - origin) /
                    slot +
                1;
            for (auto i = begin; i < end; ++i)
                used[i] = false;
            model.erase(it);
        }
        const std::uintptr_t probe = origin + random() % (slots * slot);
        check(probe);
        if (!model.empty() && step % 16 == 0) {
            auto it = model.lower_bound(probe);
            if (it == model.end())
                it = model.begin();
            const auto base = reinterpret_cast<std::uintptr_t>(it->second.base);
            check(base);
            check(base + it->second.size - 1);
            check(base + it->second.size); // one past the end
            check(base - 1);
        }
    }
    REQUIRE(registry.size() == model.size());
    for (const auto& [base, allocation] : model)
        REQUIRE(registry.find_base(at(base)).has_value());
    const auto all = registry.take_all();
    CHECK(all.size() == model.size());
    CHECK(registry.size() == 0);
    CHECK_FALSE(registry.find(at(origin + slot)).has_value());
}

TEST_CASE("UsmRegistry bookkeeping stays small per allocation", "[usm]") {
    UsmRegistry registry;
    constexpr unsigned count = 100000;
    for (unsigned i = 0; i < count; ++i) {
        UsmAllocation allocation;
        allocation.base = at(0x1000'0000 + std::uintptr_t(i) * 256);
        allocation.size = 200;
        registry.insert(allocation);
    }
    const double per_allocation = double(registry.bookkeeping_bytes()) / count;
    INFO(per_allocation << " bytes per allocation");
    // A leaf holds 8 records of 24 bytes with their keys in 264 bytes (33
    // bytes each when full); ascending inserts fill the leaves, and the node
    // vectors may hold up to half their size again as spare room.
    CHECK(per_allocation < 56);
}

TEST_CASE("UsmRegistry lookups from several threads while another inserts and erases", "[usm]") {
    UsmRegistry registry;
    // Stable allocations at even slots, transient ones at odd slots.
    constexpr std::uintptr_t origin = 0x7000'0000;
    constexpr std::uintptr_t slot = 4096;
    constexpr unsigned stable = 2000;
    for (unsigned i = 0; i < stable; ++i) {
        UsmAllocation allocation;
        allocation.base = at(origin + 2 * i * slot);
        allocation.size = slot;
        registry.insert(allocation);
    }
    std::atomic<bool> done{false};
    std::atomic<unsigned> wrong{0};
    std::vector<std::thread> readers;
    for (unsigned t = 0; t < 3; ++t) {
        readers.emplace_back([&, t] {
            std::mt19937_64 random(usmcl::test::seed() + t);
            while (!done.load(std::memory_order_relaxed)) {
                const std::uintptr_t index = random() % (2 * stable);
                const std::uintptr_t address = origin + index * slot + random() % slot;
                const auto found = registry.find(at(address));
                const std::uintptr_t base = origin + index * slot;
                if (index % 2 == 0 ? !found || found->base != at(base)
                                   : found && found->base != at(base))
                    ++wrong;
            }
        });
    }
    std::mt19937_64 random(usmcl::test::seed());
    for (int step = 0; step < 20000; ++step) {
        const std::uintptr_t base = origin + (2 * (random() % stable) + 1) * slot;
        if (!registry.erase(at(base))) {
            UsmAllocation allocation;
            allocation.base = at(base);
            allocation.size = 1 + random() % slot;
            registry.insert(allocation);
        }
    }
    done = true;
    for (std::thread& reader : readers)
        reader.join();
    CHECK(wrong == 0);
    CHECK(registry.size() >= stable);
}

TEST_CASE("DevicePool hands out aligned, disjoint, usable ranges", "[usm]") {
    std::mt19937_64 random(usmcl::test::seed());
    DevicePool pool(std::size_t(1) << 30, {});
    REQUIRE(pool.usage().reserved > 0);
    std::map<std::byte*, std::size_t> live;
    for (int step = 0; step < 20000; ++step) {
        if (live.empty() || random() % 2) {
            const std::size_t alignment = std::size_t(1) << (random() % 8); // 1..128
            const std::size_t size = 1 + random() % (random() % 8 == 0 ? (4u << 20) : 4096);
            std::byte* p = pool.allocate(size, alignment);
            REQUIRE(p != nullptr);
            CHECK(reinterpret_cast<std::uintptr_t>(p) % alignment == 0);
            CHECK(pool.owns(p));
            auto next = live.lower_bound(p);
            if (next != live.end())
                REQUIRE(p + size <= next->first);
            if (next != live.begin()) {
                auto previous = std::prev(next);
                REQUIRE(previous->first + previous->second <= p);
            }
            p[0] = std::byte{1};
            p[size - 1] = std::byte{2};
            live[p] = size;
        } else {
            auto it = std::next(live.begin(), static_cast<long>(random() % live.size()));
            if (it->second > 1)
                CHECK_FALSE(pool.free(it->first + 1, it->second - 1)); // interior
            CHECK(pool.free(it->first, it->second));
            CHECK_FALSE(pool.free(it->first, it->second)); // twice
            live.erase(it);
        }
    }
    for (const auto& [p, size] : live)
        CHECK(pool.free(p, size));
    CHECK(pool.usage().in_use == 0);
    CHECK(pool.usage().free_ranges == 1);
    int outside = 0;
    CHECK_FALSE(pool.free(reinterpret_cast<std::byte*>(&outside), sizeof outside));
}
