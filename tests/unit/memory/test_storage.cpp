// Storage and Domain: lazy allocation per domain, CL_MEM_USE_HOST_PTR
// memory used in place, bytes_planned() accounting, and random sequences
// over real instances whose planned copies are run with the addresses the
// Storage hands out.
#include "memory/domain.hpp"
#include "memory/storage.hpp"

#include "planner_model.hpp"
#include "seed.hpp"

#include <catch2/catch.hpp>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using usmcl::memory::Access;
using usmcl::memory::ByteRange;
using usmcl::memory::Domain;
using usmcl::memory::DomainId;
using usmcl::memory::PlannedCopy;
using usmcl::memory::Storage;

namespace {

// Domains 0 .. count-1 whose binder counts the instances allocated in each
// (a binder is called once per allocation).
struct CountingDomains {
    explicit CountingDomains(unsigned count, bool bind_succeeds = true)
        : allocations(std::make_shared<std::vector<int>>(count, 0)) {
        for (unsigned id = 0; id < count; ++id)
            domains.push_back(std::make_unique<Domain>(
                id, "domain" + std::to_string(id), -1,
                [counts = allocations, id, bind_succeeds](void*, std::size_t) {
                    ++(*counts)[id];
                    return bind_succeeds;
                }));
    }
    std::vector<const Domain*> list() const {
        std::vector<const Domain*> result;
        for (const auto& domain : domains)
            result.push_back(domain.get());
        return result;
    }
    std::vector<std::unique_ptr<Domain>> domains;
    std::shared_ptr<std::vector<int>> allocations;
};

// Domains 0 .. count-1 without a binder (plain host memory).
struct PlainDomains {
    explicit PlainDomains(unsigned count) {
        for (unsigned id = 0; id < count; ++id)
            domains.push_back(
                std::make_unique<Domain>(id, "plain" + std::to_string(id), -1, nullptr));
    }
    std::vector<const Domain*> list() const {
        std::vector<const Domain*> result;
        for (const auto& domain : domains)
            result.push_back(domain.get());
        return result;
    }
    std::vector<std::unique_ptr<Domain>> domains;
};

bool aligned(const void* pointer) {
    return reinterpret_cast<std::uintptr_t>(pointer) % usmcl::memory::instance_alignment == 0;
}

std::vector<std::byte> pattern(std::size_t size, unsigned seed) {
    std::vector<std::byte> bytes(size);
    for (std::size_t i = 0; i < size; ++i)
        bytes[i] = std::byte((i * 31 + seed) & 0xff);
    return bytes;
}

void run(const std::vector<PlannedCopy>& copies) {
    for (const PlannedCopy& copy : copies)
        std::memcpy(copy.to, copy.from, copy.size);
}

} // namespace

TEST_CASE("Domain: identity and aligned allocations", "[storage][domain]") {
    const Domain host(0, "host", -1, nullptr);
    CHECK(host.is_host());
    CHECK(host.id() == 0);
    CHECK(host.name() == "host");
    CHECK(host.numa_node() == -1);
    const Domain node(3, "numa1", 1, nullptr);
    CHECK_FALSE(node.is_host());
    CHECK(node.numa_node() == 1);

    // Small (aligned_alloc) and large (own pages) instances, with and without a binder.
    CountingDomains bound(2, false);
    for (const std::size_t size : {std::size_t(0), std::size_t(1), std::size_t(200),
                                   std::size_t(1) << 20, (std::size_t(3) << 20) + 5}) {
        INFO("size " << size);
        for (const Domain* domain : {&host, static_cast<const Domain*>(bound.domains[1].get())}) {
            std::byte* bytes = domain->allocate(size);
            REQUIRE(bytes != nullptr);
            CHECK(aligned(bytes));
            std::memset(bytes, 0xab, size);
            domain->release(bytes, size);
        }
    }
    // A binder that fails leaves the memory usable; it was asked once per allocation.
    CHECK((*bound.allocations)[1] == 5);
    CHECK((*bound.allocations)[0] == 0);
    host.release(nullptr, 16);
}

TEST_CASE("Storage: nothing is allocated before first use in a domain", "[storage]") {
    CountingDomains domains(3);
    auto& allocations = *domains.allocations;
    {
        Storage storage(domains.list(), 4096, nullptr, false);
        CHECK(storage.size() == 4096);
        CHECK_FALSE(storage.single_domain());
        CHECK_FALSE(storage.uses_host_memory());
        CHECK(allocations == std::vector<int>{0, 0, 0});

        // A write in domain 1 allocates there only, and copies nothing.
        auto planned = storage.prepare(1, {0, 4096}, Access::overwrite);
        REQUIRE(planned);
        CHECK(planned->empty());
        CHECK(allocations == std::vector<int>{0, 1, 0});
        std::byte* one = storage.instance(1);
        CHECK(aligned(one));

        // A read in domain 2 allocates there and copies from domain 1; the
        // host domain is still never touched.
        planned = storage.prepare(2, {100, 200}, Access::read);
        REQUIRE(planned);
        REQUIRE(planned->size() == 1);
        CHECK(planned->front().from == one + 100);
        CHECK(planned->front().to == storage.instance(2) + 100);
        CHECK(planned->front().size == 100);
        CHECK(allocations == std::vector<int>{0, 1, 1});

        // Instances stay where they are.
        CHECK(storage.prepare(1, {0, 10}, Access::read));
        CHECK(storage.instance(1) == one);
        CHECK(allocations == std::vector<int>{0, 1, 1});
        CHECK(storage.bytes_planned() == 100);
    }
    // Released with the storage (ASan reports a leak or a bad free otherwise).
}

TEST_CASE("Storage: an instance that cannot be allocated fails the access", "[storage]") {
    PlainDomains domains(2);
    // Far more than any address space: creating the storage is fine (lazy),
    // preparing an access is not, and records nothing.
    Storage storage(domains.list(), std::size_t(1) << 62, nullptr, false);
    CHECK_FALSE(storage.prepare(1, {0, 64}, Access::overwrite).has_value());
    CHECK(storage.instance(1) == nullptr);
    CHECK(storage.validity().valid(1).empty());
    CHECK(storage.validity().defined().empty());
    CHECK(storage.bytes_planned() == 0);
}

TEST_CASE("Storage: CL_MEM_USE_HOST_PTR memory is the host instance", "[storage]") {
    std::vector<std::byte> host = pattern(1000, 7);
    const std::vector<std::byte> original = host;

    SECTION("one domain: used in place, nothing copied or allocated") {
        CountingDomains domains(1);
        Storage storage(domains.list(), host.size(), host.data(), true);
        CHECK(storage.single_domain());
        CHECK(storage.uses_host_memory());
        CHECK(storage.instance(0) == host.data());
        for (const Access access :
             {Access::read, Access::read_write, Access::overwrite, Access::discard}) {
            auto planned = storage.prepare(0, {10, 500}, access);
            REQUIRE(planned);
            CHECK(planned->empty());
        }
        CHECK(storage.instance(0) == host.data());
        CHECK(storage.bytes_planned() == 0);
        CHECK((*domains.allocations)[0] == 0);
    }
    SECTION("several domains: copies go from and to the application's memory") {
        CountingDomains domains(2);
        {
            Storage storage(domains.list(), host.size(), host.data(), true);
            CHECK(storage.uses_host_memory());
            CHECK(storage.prepare(0, {0, 1000}, Access::read)->empty());

            auto planned = storage.prepare(1, {200, 600}, Access::read);
            REQUIRE(planned);
            REQUIRE(planned->size() == 1);
            CHECK(planned->front().from == host.data() + 200);
            CHECK(planned->front().size == 400);
            run(*planned);
            CHECK(std::memcmp(storage.instance(1) + 200, host.data() + 200, 400) == 0);

            // A write in domain 1, then a map (host read) brings back only it.
            CHECK(storage.prepare(1, {300, 310}, Access::overwrite)->empty());
            std::memset(storage.instance(1) + 300, 0x5a, 10);
            planned = storage.prepare(0, {0, 1000}, Access::read);
            REQUIRE(planned);
            REQUIRE(planned->size() == 1);
            CHECK(planned->front().to == host.data() + 300);
            CHECK(planned->front().size == 10);
            run(*planned);
            CHECK(host[305] == std::byte(0x5a));
            CHECK(std::memcmp(host.data(), original.data(), 300) == 0);
            CHECK(std::memcmp(host.data() + 310, original.data() + 310, 690) == 0);
            CHECK(storage.bytes_planned() == 410);
            CHECK(storage.instance(0) == host.data());
        }
        // The application's memory is not the storage's to free; the host
        // domain never allocated.
        CHECK((*domains.allocations)[0] == 0);
        CHECK((*domains.allocations)[1] == 1);
    }
}

TEST_CASE("Storage: bytes_planned() counts every planned copy", "[storage]") {
    PlainDomains domains(3);
    constexpr std::size_t size = 3 << 20; // large instances: own pages
    Storage storage(domains.list(), size, nullptr, false);
    std::uint64_t expected = 0;
    auto prepare = [&](DomainId domain, ByteRange range, Access access) {
        auto planned = storage.prepare(domain, range, access);
        REQUIRE(planned);
        for (const PlannedCopy& copy : *planned)
            expected += copy.size;
        run(*planned);
        return planned->size();
    };
    CHECK(prepare(0, {0, size}, Access::read) == 0); // no content yet
    CHECK(prepare(0, {0, size}, Access::overwrite) == 0);
    CHECK(prepare(1, {0, size}, Access::read) == 1);
    CHECK(storage.bytes_planned() == size);
    CHECK(prepare(2, {1000, 2000}, Access::read_write) == 1);
    CHECK(prepare(1, {0, size}, Access::read) == 1);
    CHECK(storage.bytes_planned() == size + 2000);
    CHECK(prepare(0, {0, size}, Access::discard) == 0);
    CHECK(prepare(2, {0, size}, Access::read) == 0);
    CHECK(storage.bytes_planned() == expected);
}

TEST_CASE("Storage: a zero-byte buffer", "[storage]") {
    PlainDomains domains(2);
    Storage storage(domains.list(), 0, nullptr, false);
    auto planned = storage.prepare(1, {0, 0}, Access::read_write);
    REQUIRE(planned);
    CHECK(planned->empty());
    CHECK(storage.instance(1) != nullptr);
}

namespace {

class StorageBackend final : public usmcl::test::Backend {
public:
    explicit StorageBackend(Storage& storage) : storage_(storage) {}
    std::vector<PlannedCopy> plan(DomainId domain, ByteRange range, Access access) override {
        auto planned = storage_.prepare(domain, range, access);
        if (!planned)
            throw std::runtime_error("prepare failed");
        return *planned;
    }
    std::byte* bytes(DomainId domain) override { return storage_.instance(domain); }
    const usmcl::memory::Validity* validity() const override {
        return storage_.single_domain() ? nullptr : &storage_.validity();
    }

private:
    Storage& storage_;
};

} // namespace

TEST_CASE("Storage: random sequences over real instances", "[storage][random]") {
    const std::uint64_t seed = usmcl::test::seed();
    INFO("seed " << seed << " (USMCL_TEST_SEED to change)");
    std::mt19937_64 rng(seed ^ 0x5707a6e);
    PlainDomains domains(4);
    constexpr std::size_t sizes[] = {1, 100, 4096, 10000};
    constexpr int sequences = 24;
    constexpr int steps = 800;
    std::uint64_t copied = 0;
    for (int sequence = 0; sequence < sequences; ++sequence) {
        const std::size_t size = sizes[rng() % std::size(sizes)];
        const unsigned count = sequence % 6 == 0 ? 1 : 2 + static_cast<unsigned>(rng() % 3);
        // 0: no content; 1: CL_MEM_COPY_HOST_PTR; 2: CL_MEM_USE_HOST_PTR.
        const int creation = static_cast<int>(rng() % 3);
        INFO("sequence " << sequence << ": " << size << " bytes, " << count << " domains, creation "
                         << creation);
        std::vector<const Domain*> list = domains.list();
        list.resize(count);
        std::optional<std::vector<std::byte>> initial;
        std::vector<std::byte> application;
        if (creation != 0) {
            initial.emplace(size);
            for (std::byte& byte : *initial)
                byte = std::byte(rng());
            application = *initial;
        }
        Storage storage(list, size, creation == 2 ? application.data() : nullptr, creation != 0);
        if (creation == 1) // what core::MemObject does for COPY_HOST_PTR
            std::memcpy(storage.instance(0), initial->data(), size);

        StorageBackend backend(storage);
        usmcl::test::Model model(backend, size, count, initial, 0);
        usmcl::test::Workload workload(model, rng);
        for (int step = 0; step < steps; ++step) {
            const std::string problem = workload.step();
            INFO("step " << step << ": " << workload.last());
            REQUIRE(problem == "");
            if (step % 32 == 0)
                REQUIRE(model.compare_state() == "");
        }
        REQUIRE(workload.read_everywhere() == "");
        REQUIRE(model.compare_state() == "");
        REQUIRE(storage.bytes_planned() == model.bytes_copied());
        REQUIRE(model.bytes_copied() == model.bytes_minimum());
        if (creation == 2)
            REQUIRE(storage.instance(0) == application.data());
        copied += model.bytes_copied();
    }
    CHECK(copied > 0);
}

TEST_CASE("Domain with a region: instances are ranges of it, full means no allocation",
          "[storage][domain][region]") {
    constexpr std::size_t region = std::size_t(4) << 20;
    const Domain device(1, "discrete0", region);
    REQUIRE(device.has_region());
    REQUIRE(device.region_bytes() == region);
    CHECK_FALSE(device.is_host());

    std::vector<std::byte*> quarters;
    for (int i = 0; i < 4; ++i) {
        std::byte* bytes = device.allocate(region / 4);
        REQUIRE(bytes != nullptr);
        CHECK(aligned(bytes));
        CHECK(device.owns(bytes));
        CHECK(device.owns(bytes + region / 4 - 1));
        std::memset(bytes, i + 1, region / 4);
        quarters.push_back(bytes);
    }
    CHECK(device.region_stats().bytes_in_use == region);
    CHECK(device.allocate(1) == nullptr);
    CHECK(device.allocate_aligned(128, 4096) == nullptr);
    // Nothing was lost: every quarter still holds its bytes.
    for (int i = 0; i < 4; ++i)
        CHECK(std::to_integer<int>(quarters[i][region / 4 - 1]) == i + 1);

    // Freeing one makes room; a Storage over the domain takes its instance there.
    device.release(quarters[1], region / 4);
    const Domain host(0, "host", -1, nullptr);
    {
        Storage storage({&host, &device}, region / 4, nullptr, false);
        auto planned = storage.prepare(1, {0, region / 4}, Access::overwrite);
        REQUIRE(planned);
        CHECK(storage.instance(1) == quarters[1]);
        // A second storage finds no room: prepare() reports it, nothing planned.
        Storage other({&host, &device}, 1, nullptr, false);
        CHECK_FALSE(other.instance(1));
        CHECK_FALSE(other.prepare(1, {0, 1}, Access::read));
        CHECK(other.validity().valid(1).empty());
    }
    // The storage gave its instance back.
    std::byte* again = device.allocate_aligned(region / 4, 4096);
    CHECK(again == quarters[1]);
    device.release(again, region / 4);
    for (int i : {0, 2, 3})
        device.release(quarters[static_cast<std::size_t>(i)], region / 4);
    CHECK(device.region_stats().bytes_in_use == 0);
    // A domain without a region hands out no aligned ranges.
    CHECK(host.allocate_aligned(128, 128) == nullptr);
    CHECK_FALSE(host.owns(quarters[0]));
}

TEST_CASE("Domain: copies are counted per direction on both sides", "[storage][domain]") {
    const Domain host(0, "host", -1, nullptr);
    const Domain first(1, "discrete0", std::size_t(1) << 20);
    const Domain second(2, "discrete1", std::size_t(1) << 20);
    Domain::count_copy(host, first, 100);
    Domain::count_copy(first, host, 30);
    Domain::count_copy(first, second, 7);
    Domain::count_copy(first, host, 2);
    const Domain::Traffic a = first.traffic();
    CHECK(a.bytes_from_host == 100);
    CHECK(a.copies_from_host == 1);
    CHECK(a.bytes_to_host == 32);
    CHECK(a.copies_to_host == 2);
    CHECK(a.bytes_to_devices == 7);
    CHECK(a.copies_to_devices == 1);
    CHECK(a.bytes_from_devices == 0);
    const Domain::Traffic b = second.traffic();
    CHECK(b.bytes_from_devices == 7);
    CHECK(b.copies_from_devices == 1);
    CHECK(b.bytes_from_host == 0);
    const Domain::Traffic h = host.traffic();
    CHECK(h.bytes_to_devices == 100);
    CHECK(h.bytes_from_devices == 32);
    CHECK(h.copies_from_devices == 2);
}
