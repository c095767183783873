// clCreateSubDevices, clRetainDevice, clReleaseDevice and the info of
// sub-devices. The untagged tests adapt to the machine they run on; the
// hidden ones ([synthetic-*], [one-cpu]) are selected by meson test entries
// that fake a bigger machine with HWLOC_SYNTHETIC or restrict the process to
// one CPU with taskset.
#include "cl_test.hpp"
#include "device_queries.hpp"

#include <algorithm>
#include <atomic>
#include <numeric>
#include <thread>

using namespace cl_test;

namespace {

using Properties = std::vector<cl_device_partition_property>;

constexpr cl_device_affinity_domain numa = CL_DEVICE_AFFINITY_DOMAIN_NUMA;
constexpr cl_device_affinity_domain l3 = CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE;
constexpr cl_device_affinity_domain l2 = CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE;
constexpr cl_device_affinity_domain next = CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE;
constexpr cl_device_affinity_domain concrete_domains[] = {
    CL_DEVICE_AFFINITY_DOMAIN_NUMA, CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L3_CACHE, CL_DEVICE_AFFINITY_DOMAIN_L2_CACHE,
    CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE};

Properties equally(cl_device_partition_property units) {
    return {CL_DEVICE_PARTITION_EQUALLY, units, 0};
}

Properties by_counts(std::vector<cl_device_partition_property> counts) {
    Properties properties{CL_DEVICE_PARTITION_BY_COUNTS};
    properties.insert(properties.end(), counts.begin(), counts.end());
    properties.push_back(CL_DEVICE_PARTITION_BY_COUNTS_LIST_END);
    properties.push_back(0);
    return properties;
}

Properties by_domain(cl_device_affinity_domain domain) {
    return {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
            static_cast<cl_device_partition_property>(domain), 0};
}

cl_uint units_of(cl_device_id id) {
    return device_info<cl_uint>(id, CL_DEVICE_MAX_COMPUTE_UNITS);
}

Properties partition_type(cl_device_id id) {
    return device_info_array<cl_device_partition_property>(id, CL_DEVICE_PARTITION_TYPE);
}

Properties partition_schemes(cl_device_id id) {
    return device_info_array<cl_device_partition_property>(id, CL_DEVICE_PARTITION_PROPERTIES);
}

cl_device_affinity_domain affinity_domains(cl_device_id id) {
    return device_info<cl_device_affinity_domain>(id, CL_DEVICE_PARTITION_AFFINITY_DOMAIN);
}

cl_uint reference_count(cl_device_id id) {
    return device_info<cl_uint>(id, CL_DEVICE_REFERENCE_COUNT);
}

std::vector<cl_uint> units_of(const std::vector<DevicePtr>& devices) {
    std::vector<cl_uint> units;
    for (const auto& device_ptr : devices)
        units.push_back(units_of(device_ptr.get()));
    return units;
}

// What clCreateSubDevices answers when only asked for the count.
cl_int partition_status(cl_device_id id, const Properties& properties) {
    cl_uint count = 0;
    return clCreateSubDevices(id, properties.data(), 0, nullptr, &count);
}

// Asks for the sub-devices themselves, releasing any that a wrong success
// would create, and returns the error.
cl_int partition_status_with_devices(cl_device_id id, const Properties& properties) {
    std::vector<cl_device_id> out(std::max(256u, units_of(id) + 1), nullptr);
    cl_uint count = 0;
    const cl_int status = clCreateSubDevices(id, properties.data(),
                                             static_cast<cl_uint>(out.size()), out.data(), &count);
    for (cl_device_id created : out)
        if (created)
            clReleaseDevice(created);
    return status;
}

// CL_INVALID_VALUE ("values specified in properties are valid but not
// supported by the device") and CL_DEVICE_PARTITION_FAILED ("the partition
// name is supported by the implementation but in_device could not be further
// partitioned") both describe a device that cannot be split that way.
void check_refused(cl_device_id id, const Properties& properties) {
    for (cl_int status :
         {partition_status(id, properties), partition_status_with_devices(id, properties)}) {
        INFO(error_name(status));
        CHECK((status == CL_INVALID_VALUE || status == CL_DEVICE_PARTITION_FAILED));
    }
}

void check_status(cl_device_id id, const Properties& properties, cl_int expected) {
    CHECK_CL(partition_status(id, properties), expected);
    CHECK_CL(partition_status_with_devices(id, properties), expected);
}

// The common promises of every sub-device.
void check_sub_devices(cl_device_id parent, const std::vector<DevicePtr>& subs,
                       const Properties& properties) {
    for (const auto& sub : subs) {
        cl_device_id id = sub.get();
        CHECK(id != parent);
        CHECK(device_info<cl_device_id>(id, CL_DEVICE_PARENT_DEVICE) == parent);
        CHECK(device_info<cl_platform_id>(id, CL_DEVICE_PLATFORM) == platform());
        CHECK((device_info<cl_device_type>(id, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) != 0);
        CHECK(reference_count(id) == 1);
        CHECK(units_of(id) >= 1);
        CHECK(device_info<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE) <=
              device_info<cl_ulong>(parent, CL_DEVICE_GLOBAL_MEM_SIZE));
        if (properties[0] != CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN ||
            properties[1] != static_cast<cl_device_partition_property>(next))
            CHECK(partition_type(id) == properties);
    }
    // Sibling sub-devices own disjoint compute units: each is a distinct
    // device, and one smaller than its parent is distinct from the parent.
    std::vector<std::vector<cl_uchar>> uuids;
    for (const auto& sub : subs) {
        uuids.push_back(device_info_array<cl_uchar>(sub.get(), CL_DEVICE_UUID_KHR));
        if (units_of(sub.get()) < units_of(parent))
            CHECK(uuids.back() != device_info_array<cl_uchar>(parent, CL_DEVICE_UUID_KHR));
    }
    std::sort(uuids.begin(), uuids.end());
    CHECK(std::adjacent_find(uuids.begin(), uuids.end()) == uuids.end());
}

std::vector<DevicePtr> partition(cl_device_id parent, const Properties& properties) {
    auto subs = create_sub_devices(parent, properties);
    check_sub_devices(parent, subs, properties);
    return subs;
}

// A device that cannot be split at all.
void check_unpartitionable(cl_device_id id) {
    CHECK(units_of(id) == 1);
    CHECK(partition_schemes(id) == Properties{0});
    CHECK(device_info<cl_uint>(id, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == 0);
    CHECK(affinity_domains(id) == 0);
    check_refused(id, equally(1));
    check_refused(id, by_counts({1}));
    check_refused(id, by_domain(next));
}

unsigned root_units() {
    return units_of(device());
}

} // namespace

TEST_CASE("partition equally into single compute units", "[sub_devices]") {
    const cl_uint units = root_units();
    if (units < 2) {
        WARN("one compute unit: nothing to partition");
        return;
    }
    const auto subs = partition(device(), equally(1));
    CHECK(subs.size() == units);
    CHECK(units_of(subs) == std::vector<cl_uint>(units, 1));
    for (const auto& sub : subs)
        check_unpartitionable(sub.get());
}

TEST_CASE("every query answers on a sub-device", "[sub_devices]") {
    if (root_units() < 2)
        return;
    const auto subs = partition(device(), equally(1));
    check_every_device_query(subs.front().get());
}

TEST_CASE("partition equally by the whole device", "[sub_devices]") {
    const cl_uint units = root_units();
    if (units < 2)
        return;
    const auto subs = partition(device(), equally(units));
    REQUIRE(subs.size() == 1);
    CHECK(units_of(subs[0].get()) == units);
}

TEST_CASE("partition by counts", "[sub_devices]") {
    const cl_uint units = root_units();
    if (units < 2)
        return;
    SECTION("one compute unit each") {
        const auto subs = partition(device(), by_counts({1, 1}));
        CHECK(units_of(subs) == std::vector<cl_uint>{1, 1});
    }
    SECTION("a single sub-device of one compute unit") {
        const auto subs = partition(device(), by_counts({1}));
        CHECK(units_of(subs) == std::vector<cl_uint>{1});
    }
    SECTION("a single sub-device of every compute unit") {
        const auto subs = partition(device(), by_counts({units}));
        CHECK(units_of(subs) == std::vector<cl_uint>{units});
    }
    SECTION("as many sub-devices as compute units") {
        const auto subs = partition(device(), by_counts(Properties(units, 1)));
        CHECK(subs.size() == units);
    }
    // Intel's Unified Runtime ends the counts and the properties with one 0:
    // nothing past it is read (a vector of exactly that size; ASan sees a
    // read past it).
    SECTION("one 0 ending both the count list and the property list") {
        const auto subs =
            create_sub_devices(device(), Properties{CL_DEVICE_PARTITION_BY_COUNTS, 1, 1,
                                                    CL_DEVICE_PARTITION_BY_COUNTS_LIST_END});
        CHECK(units_of(subs) == std::vector<cl_uint>{1, 1});
        CHECK(partition_type(subs[0].get()) == by_counts({1, 1}));
    }
}

TEST_CASE("partition by every affinity domain the device reports", "[sub_devices]") {
    const cl_uint units = root_units();
    const cl_device_affinity_domain domains = affinity_domains(device());
    for (cl_device_affinity_domain domain : concrete_domains) {
        if ((domains & domain) == 0)
            continue;
        INFO("affinity domain 0x" << std::hex << domain);
        const auto subs = partition(device(), by_domain(domain));
        CHECK(subs.size() >= 2);
        const auto sizes = units_of(subs);
        CHECK(std::accumulate(sizes.begin(), sizes.end(), 0u) == units);
    }
    if ((domains & next) != 0) {
        const auto subs = partition(device(), by_domain(next));
        CHECK(subs.size() >= 2);
        const auto sizes = units_of(subs);
        CHECK(std::accumulate(sizes.begin(), sizes.end(), 0u) == units);
    }
}

// OpenCL 3.0, CL_DEVICE_PARTITION_TYPE: "In the case where the properties
// argument to clCreateSubDevices is CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN,
// CL_DEVICE_AFFINITY_DOMAIN_NEXT_PARTITIONABLE, the affinity domain used to
// perform the partition will be returned."
TEST_CASE("NEXT_PARTITIONABLE sub-devices report the domain used", "[sub_devices]") {
    const cl_device_affinity_domain domains = affinity_domains(device());
    if ((domains & next) == 0)
        return;
    const auto subs = partition(device(), by_domain(next));
    for (const auto& sub : subs) {
        const Properties type = partition_type(sub.get());
        REQUIRE(type.size() == 3);
        CHECK(type[0] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
        const auto used = static_cast<cl_device_affinity_domain>(type[1]);
        CHECK(std::count(std::begin(concrete_domains), std::end(concrete_domains), used) == 1);
        CHECK((domains & used) != 0);
        CHECK(type[2] == 0);
    }
}

TEST_CASE("sub-device reference counts", "[sub_devices]") {
    if (root_units() < 2)
        return;
    const auto subs = partition(device(), equally(1));
    cl_device_id sub = subs[0].get();
    CHECK(reference_count(sub) == 1);
    REQUIRE_OK(clRetainDevice(sub));
    CHECK(reference_count(sub) == 2);
    REQUIRE_OK(clRetainDevice(sub));
    CHECK(reference_count(sub) == 3);
    REQUIRE_OK(clReleaseDevice(sub));
    REQUIRE_OK(clReleaseDevice(sub));
    CHECK(reference_count(sub) == 1);
    // The other sub-devices are counted apart.
    CHECK(reference_count(subs[1].get()) == 1);
}

TEST_CASE("the root device is not reference counted", "[sub_devices]") {
    cl_device_id root = device();
    CHECK(reference_count(root) == 1);
    CHECK_OK(clRetainDevice(root));
    CHECK(reference_count(root) == 1);
    CHECK_OK(clReleaseDevice(root));
    CHECK_OK(clReleaseDevice(root));
    CHECK(reference_count(root) == 1);
    CHECK(units_of(root) >= 1);
}

TEST_CASE("retain and release reject handles that are not a device", "[sub_devices]") {
    const ContextPtr context = make_context({device()});
    auto not_device = reinterpret_cast<cl_device_id>(context.get());
    CHECK_CL(clRetainDevice(not_device), CL_INVALID_DEVICE);
    CHECK_CL(clReleaseDevice(not_device), CL_INVALID_DEVICE);
    CHECK_CL(clRetainDevice(reinterpret_cast<cl_device_id>(platform())), CL_INVALID_DEVICE);
    CHECK_CL(clRetainDevice(nullptr), CL_INVALID_DEVICE);
    FakeObject garbage(device(), 0x77);
    CHECK_CL(clRetainDevice(garbage.as<cl_device_id>()), CL_INVALID_DEVICE);
    CHECK_CL(clReleaseDevice(garbage.as<cl_device_id>()), CL_INVALID_DEVICE);
    CHECK(context_info<cl_uint>(context.get(), CL_CONTEXT_REFERENCE_COUNT) == 1);
}

TEST_CASE("clCreateSubDevices error cases", "[sub_devices]") {
    cl_device_id root = device();
    const cl_uint units = root_units();
    const auto n = static_cast<cl_device_partition_property>(units);

    SECTION("NULL or empty properties: CL_INVALID_VALUE") {
        cl_uint count = 0;
        CHECK_CL(clCreateSubDevices(root, nullptr, 0, nullptr, &count), CL_INVALID_VALUE);
        check_status(root, {0}, CL_INVALID_VALUE);
    }
    SECTION("an unknown partition scheme: CL_INVALID_VALUE") {
        check_status(root, {0x4242, 1, 0}, CL_INVALID_VALUE);
        check_status(root, {CL_DEVICE_PARTITION_EQUALLY_EXT, 1, 0}, CL_INVALID_VALUE);
    }
    if (units < 2)
        return;
    SECTION("CL_DEVICE_PARTITION_EQUALLY of 0 or fewer compute units: CL_INVALID_VALUE") {
        check_status(root, equally(0), CL_INVALID_VALUE);
        check_status(root, equally(-1), CL_INVALID_VALUE);
    }
    SECTION("CL_DEVICE_PARTITION_EQUALLY of more compute units than the device has") {
        check_refused(root, equally(n + 1));
    }
    SECTION("a property list not terminated after its value: CL_INVALID_VALUE") {
        check_status(root, {CL_DEVICE_PARTITION_EQUALLY, 1, 77}, CL_INVALID_VALUE);
    }
    SECTION("counts above the compute units: CL_INVALID_DEVICE_PARTITION_COUNT") {
        check_status(root, by_counts({n, 1}), CL_INVALID_DEVICE_PARTITION_COUNT);
        check_status(root, by_counts({n + 1}), CL_INVALID_DEVICE_PARTITION_COUNT);
    }
    SECTION("more sub-devices than CL_DEVICE_PARTITION_MAX_SUB_DEVICES") {
        const auto max_sub_devices =
            device_info<cl_uint>(root, CL_DEVICE_PARTITION_MAX_SUB_DEVICES);
        check_status(root, by_counts(Properties(max_sub_devices + 1, 1)),
                     CL_INVALID_DEVICE_PARTITION_COUNT);
    }
    SECTION("a negative count: CL_INVALID_DEVICE_PARTITION_COUNT") {
        check_status(root, by_counts({-1}), CL_INVALID_DEVICE_PARTITION_COUNT);
        check_status(root, by_counts({1, -1}), CL_INVALID_DEVICE_PARTITION_COUNT);
    }
    SECTION("no count at all: CL_INVALID_VALUE") {
        check_status(root, by_counts({}), CL_INVALID_VALUE);
    }
    SECTION("affinity domains the device does not report: CL_INVALID_VALUE") {
        const cl_device_affinity_domain domains = affinity_domains(root);
        for (cl_device_affinity_domain domain : concrete_domains) {
            INFO("affinity domain 0x" << std::hex << domain);
            if ((domains & domain) == 0)
                check_status(root, by_domain(domain), CL_INVALID_VALUE);
        }
        check_status(root, by_domain(0), CL_INVALID_VALUE);
        check_status(root, by_domain(cl_device_affinity_domain{1} << 10), CL_INVALID_VALUE);
        check_status(root, by_domain(l2 | CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE), CL_INVALID_VALUE);
    }
    SECTION("num_devices below the number of sub-devices: CL_INVALID_VALUE") {
        const auto sentinel = reinterpret_cast<cl_device_id>(0x9999);
        std::vector<cl_device_id> out(units, sentinel);
        cl_uint count = 0;
        const Properties properties = equally(1);
        CHECK_CL(clCreateSubDevices(root, properties.data(), units - 1, out.data(), &count),
                 CL_INVALID_VALUE);
        CHECK(std::all_of(out.begin(), out.end(), [&](cl_device_id d) { return d == sentinel; }));
        CHECK_CL(clCreateSubDevices(root, properties.data(), 0, out.data(), &count),
                 CL_INVALID_VALUE);
    }
    SECTION("the count alone creates nothing") {
        cl_uint count = 0;
        const Properties properties = equally(1);
        REQUIRE_OK(clCreateSubDevices(root, properties.data(), 0, nullptr, &count));
        CHECK(count == units);
        REQUIRE_OK(clCreateSubDevices(root, properties.data(), 0, nullptr, nullptr));
    }
}

TEST_CASE("clCreateSubDevices rejects handles that are not a device", "[sub_devices]") {
    const ContextPtr context = make_context({device()});
    const Properties properties = equally(1);
    cl_uint count = 0;
    CHECK_CL(clCreateSubDevices(reinterpret_cast<cl_device_id>(context.get()), properties.data(), 0,
                                nullptr, &count),
             CL_INVALID_DEVICE);
    CHECK_CL(clCreateSubDevices(nullptr, properties.data(), 0, nullptr, &count), CL_INVALID_DEVICE);
    FakeObject garbage(device(), 0x42);
    CHECK_CL(clCreateSubDevices(garbage.as<cl_device_id>(), properties.data(), 0, nullptr, &count),
             CL_INVALID_DEVICE);
    CHECK(count == 0);
}

TEST_CASE("sub-devices of sub-devices", "[sub_devices]") {
    if (root_units() < 2)
        return;
    const auto subs = partition(device(), by_counts({root_units()}));
    cl_device_id sub = subs[0].get();
    const auto nested = partition(sub, equally(1));
    CHECK(nested.size() == root_units());
    for (const auto& leaf : nested)
        check_unpartitionable(leaf.get());
    // The parent keeps its own count while it has children.
    CHECK(reference_count(sub) == 1);
}

TEST_CASE("contexts on sub-devices", "[sub_devices]") {
    if (root_units() < 2)
        return;
    auto subs = partition(device(), equally(1));
    std::vector<cl_device_id> ids;
    for (const auto& sub : subs)
        ids.push_back(sub.get());

    SECTION("every sub-device") {
        const ContextPtr context = make_context(ids);
        CHECK(context_info<cl_uint>(context.get(), CL_CONTEXT_NUM_DEVICES) == ids.size());
        CHECK(context_info_array<cl_device_id>(context.get(), CL_CONTEXT_DEVICES) == ids);
    }
    SECTION("the root device and a sub-device together") {
        const ContextPtr context = make_context({device(), ids[0]});
        CHECK(context_info<cl_uint>(context.get(), CL_CONTEXT_NUM_DEVICES) == 2);
    }
    SECTION("the context outlives the application's last reference to its device") {
        const ContextPtr context = make_context({ids[1]});
        REQUIRE_OK(clReleaseDevice(subs[1].release()));
        CHECK(context_info<cl_uint>(context.get(), CL_CONTEXT_NUM_DEVICES) == 1);
        CHECK(context_info<cl_uint>(context.get(), CL_CONTEXT_REFERENCE_COUNT) == 1);
    }
}

TEST_CASE("concurrent partitioning and release", "[sub_devices]") {
    if (root_units() < 2)
        return;
    cl_device_id root = device();
    const cl_uint units = root_units();
    const Properties properties = equally(1);
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 4; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 25; ++i) {
                std::vector<cl_device_id> out(units);
                cl_uint count = 0;
                if (clCreateSubDevices(root, properties.data(), units, out.data(), &count) !=
                    CL_SUCCESS) {
                    ++failures;
                    continue;
                }
                for (cl_uint d = 0; d < count; ++d) {
                    cl_uint sub_units = 0;
                    if (clRetainDevice(out[d]) != CL_SUCCESS ||
                        clGetDeviceInfo(out[d], CL_DEVICE_MAX_COMPUTE_UNITS, sizeof sub_units,
                                        &sub_units, nullptr) != CL_SUCCESS ||
                        sub_units != 1 || clReleaseDevice(out[d]) != CL_SUCCESS ||
                        clReleaseDevice(out[d]) != CL_SUCCESS)
                        ++failures;
                }
            }
        });
    }
    for (auto& thread : threads)
        thread.join();
    CHECK(failures == 0);
}

// HWLOC_SYNTHETIC="package:2 numa:2 l3:1 core:4 pu:1"
TEST_CASE("synthetic NUMA machine: 16 compute units in 4 NUMA nodes", "[.][synthetic-numa]") {
    cl_device_id root = device();
    REQUIRE(units_of(root) == 16);
    CHECK(device_info<cl_uint>(root, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == 16);
    CHECK(affinity_domains(root) == (numa | l3 | next));
    CHECK(partition_schemes(root) == Properties{CL_DEVICE_PARTITION_EQUALLY,
                                                CL_DEVICE_PARTITION_BY_COUNTS,
                                                CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN});

    SECTION("by NUMA node") {
        const auto nodes = partition(root, by_domain(numa));
        CHECK(units_of(nodes) == std::vector<cl_uint>{4, 4, 4, 4});
        const auto memory = device_info<cl_ulong>(nodes[0].get(), CL_DEVICE_GLOBAL_MEM_SIZE);
        CHECK(memory > 0);
        for (const auto& node : nodes) {
            cl_device_id id = node.get();
            // One L3 per node: nothing left to split along a domain.
            CHECK(affinity_domains(id) == 0);
            CHECK(partition_schemes(id) ==
                  Properties{CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS});
            CHECK(device_info<cl_uint>(id, CL_DEVICE_PARTITION_MAX_SUB_DEVICES) == 4);
            CHECK(device_info<cl_ulong>(id, CL_DEVICE_GLOBAL_MEM_SIZE) == memory);
            check_refused(id, by_domain(numa));
            check_refused(id, by_domain(next));
        }
        check_every_device_query(nodes[3].get());
    }
    SECTION("by L3 cache") {
        const auto caches = partition(root, by_domain(l3));
        CHECK(units_of(caches) == std::vector<cl_uint>{4, 4, 4, 4});
    }
    SECTION("no L2 or L1 level to split along") {
        check_status(root, by_domain(l2), CL_INVALID_VALUE);
        check_status(root, by_domain(CL_DEVICE_AFFINITY_DOMAIN_L1_CACHE), CL_INVALID_VALUE);
        check_status(root, by_domain(CL_DEVICE_AFFINITY_DOMAIN_L4_CACHE), CL_INVALID_VALUE);
    }
    SECTION("equally: as many sub-devices as fit") {
        CHECK(units_of(partition(root, equally(4))) == std::vector<cl_uint>(4, 4));
        CHECK(units_of(partition(root, equally(5))) == std::vector<cl_uint>(3, 5));
        CHECK(units_of(partition(root, equally(3))) == std::vector<cl_uint>(5, 3));
        CHECK(units_of(partition(root, equally(16))) == std::vector<cl_uint>{16});
        CHECK(units_of(partition(root, equally(1))) == std::vector<cl_uint>(16, 1));
        check_refused(root, equally(17));
    }
    SECTION("by counts") {
        CHECK(units_of(partition(root, by_counts({8, 4, 4}))) == std::vector<cl_uint>{8, 4, 4});
        CHECK(units_of(partition(root, by_counts({1, 15}))) == std::vector<cl_uint>{1, 15});
        CHECK(partition(root, by_counts(Properties(16, 1))).size() == 16);
        check_status(root, by_counts({16, 1}), CL_INVALID_DEVICE_PARTITION_COUNT);
        check_status(root, by_counts({9, 8}), CL_INVALID_DEVICE_PARTITION_COUNT);
        check_status(root, by_counts(Properties(17, 1)), CL_INVALID_DEVICE_PARTITION_COUNT);
    }
    SECTION("sub-devices of sub-devices of a NUMA node") {
        const auto nodes = partition(root, by_domain(numa));
        cl_device_id node = nodes[2].get();
        const auto halves = partition(node, equally(2));
        CHECK(units_of(halves) == std::vector<cl_uint>{2, 2});
        const auto uneven = partition(node, by_counts({3, 1}));
        CHECK(units_of(uneven) == std::vector<cl_uint>{3, 1});
        check_unpartitionable(uneven[1].get());
        check_status(node, by_counts({4, 1}), CL_INVALID_DEVICE_PARTITION_COUNT);
        check_refused(node, equally(5));
        const auto quarters = partition(halves[1].get(), equally(1));
        CHECK(units_of(quarters) == std::vector<cl_uint>{1, 1});
        for (const auto& quarter : quarters)
            check_unpartitionable(quarter.get());
    }
    SECTION("a context on every NUMA node") {
        const auto nodes = partition(root, by_domain(numa));
        std::vector<cl_device_id> ids;
        for (const auto& node : nodes)
            ids.push_back(node.get());
        const ContextPtr context = make_context(ids);
        CHECK(context_info_array<cl_device_id>(context.get(), CL_CONTEXT_DEVICES) == ids);
    }
}

TEST_CASE("synthetic NUMA machine: NEXT_PARTITIONABLE splits along NUMA nodes",
          "[.][synthetic-numa]") {
    const auto subs = partition(device(), by_domain(next));
    CHECK(units_of(subs) == std::vector<cl_uint>{4, 4, 4, 4});
    for (const auto& sub : subs)
        CHECK(partition_type(sub.get()) == by_domain(numa));
}

// HWLOC_SYNTHETIC="package:1 l3:2 l2:2 core:2 pu:2"
TEST_CASE("synthetic cache machine: 16 hardware threads under 2 L3 and 4 L2 caches",
          "[.][synthetic-caches]") {
    cl_device_id root = device();
    REQUIRE(units_of(root) == 16);
    CHECK(affinity_domains(root) == (l3 | l2 | next));
    check_status(root, by_domain(numa), CL_INVALID_VALUE);

    SECTION("by L3 cache, then by L2 cache") {
        const auto l3_caches = partition(root, by_domain(l3));
        CHECK(units_of(l3_caches) == std::vector<cl_uint>{8, 8});
        cl_device_id half = l3_caches[1].get();
        CHECK(affinity_domains(half) == (l2 | next));
        check_status(half, by_domain(l3), CL_INVALID_VALUE);
        const auto l2_caches = partition(half, by_domain(l2));
        CHECK(units_of(l2_caches) == std::vector<cl_uint>{4, 4});
        cl_device_id quarter = l2_caches[0].get();
        CHECK(affinity_domains(quarter) == 0);
        CHECK(partition_schemes(quarter) ==
              Properties{CL_DEVICE_PARTITION_EQUALLY, CL_DEVICE_PARTITION_BY_COUNTS});
        CHECK(units_of(partition(quarter, equally(2))) == std::vector<cl_uint>{2, 2});
    }
    SECTION("by L2 cache") {
        CHECK(units_of(partition(root, by_domain(l2))) == std::vector<cl_uint>(4, 4));
    }
}

TEST_CASE("synthetic cache machine: NEXT_PARTITIONABLE goes L3, then L2", "[.][synthetic-caches]") {
    const auto l3_caches = partition(device(), by_domain(next));
    REQUIRE(units_of(l3_caches) == std::vector<cl_uint>{8, 8});
    CHECK(partition_type(l3_caches[0].get()) == by_domain(l3));
    const auto l2_caches = partition(l3_caches[0].get(), by_domain(next));
    REQUIRE(units_of(l2_caches) == std::vector<cl_uint>{4, 4});
    CHECK(partition_type(l2_caches[0].get()) == by_domain(l2));
}

// Run under "taskset --cpu-list 0".
TEST_CASE("one allowed CPU: one compute unit, no partition", "[.][one-cpu]") {
    REQUIRE(allowed_cpu_count() == 1);
    cl_device_id root = device();
    check_unpartitionable(root);
    const ContextPtr context = make_context({root});
    CHECK(context_info<cl_uint>(context.get(), CL_CONTEXT_NUM_DEVICES) == 1);
}
