// clGetDeviceIDs: device types, array and count rules, error cases.
#include "cl_test.hpp"

using namespace cl_test;

TEST_CASE("clGetDeviceIDs finds the CPU device for CPU, DEFAULT and ALL", "[device]") {
    const cl_device_id cpu = device();
    const cl_device_type type = GENERATE(
        cl_device_type{CL_DEVICE_TYPE_CPU}, cl_device_type{CL_DEVICE_TYPE_DEFAULT},
        cl_device_type{CL_DEVICE_TYPE_ALL}, cl_device_type{CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU},
        cl_device_type{CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_ACCELERATOR},
        cl_device_type{CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_CUSTOM});
    INFO("device type 0x" << std::hex << type);

    cl_uint count = 0;
    REQUIRE_OK(clGetDeviceIDs(platform(), type, 0, nullptr, &count));
    CHECK(count == 1);

    cl_device_id id = nullptr;
    REQUIRE_OK(clGetDeviceIDs(platform(), type, 1, &id, nullptr));
    CHECK(id == cpu);

    // A larger array: only the devices found are written.
    const auto sentinel = reinterpret_cast<cl_device_id>(0x5678);
    cl_device_id ids[4] = {sentinel, sentinel, sentinel, sentinel};
    count = 0;
    REQUIRE_OK(clGetDeviceIDs(platform(), type, 4, ids, &count));
    CHECK(count == 1);
    CHECK(ids[0] == cpu);
    CHECK(ids[1] == sentinel);
    CHECK(ids[3] == sentinel);
}

TEST_CASE("clGetDeviceIDs: no GPU, accelerator or custom device", "[device]") {
    const cl_device_type type = GENERATE(
        cl_device_type{CL_DEVICE_TYPE_GPU}, cl_device_type{CL_DEVICE_TYPE_ACCELERATOR},
        cl_device_type{CL_DEVICE_TYPE_CUSTOM},
        cl_device_type{CL_DEVICE_TYPE_GPU | CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM});
    INFO("device type 0x" << std::hex << type);

    cl_uint count = 0;
    CHECK_CL(clGetDeviceIDs(platform(), type, 0, nullptr, &count), CL_DEVICE_NOT_FOUND);
    const auto sentinel = reinterpret_cast<cl_device_id>(0x5678);
    cl_device_id id = sentinel;
    CHECK_CL(clGetDeviceIDs(platform(), type, 1, &id, nullptr), CL_DEVICE_NOT_FOUND);
    CHECK(id == sentinel);
}

TEST_CASE("clGetDeviceIDs rejects unknown device type bits", "[device]") {
    const cl_device_type type =
        GENERATE(cl_device_type{0}, cl_device_type{1} << 5, cl_device_type{1} << 31,
                 CL_DEVICE_TYPE_CPU | (cl_device_type{1} << 20), cl_device_type{1} << 40,
                 ~cl_device_type{0});
    INFO("device type 0x" << std::hex << type);
    cl_uint count = 0;
    cl_device_id id = nullptr;
    CHECK_CL(clGetDeviceIDs(platform(), type, 1, &id, &count), CL_INVALID_DEVICE_TYPE);
    CHECK(id == nullptr);
}

TEST_CASE("clGetDeviceIDs num_entries and NULL rules", "[device]") {
    cl_device_id id = nullptr;
    cl_uint count = 0;
    // num_entries 0 with a devices array.
    CHECK_CL(clGetDeviceIDs(platform(), CL_DEVICE_TYPE_CPU, 0, &id, &count), CL_INVALID_VALUE);
    CHECK_CL(clGetDeviceIDs(platform(), CL_DEVICE_TYPE_ALL, 0, &id, nullptr), CL_INVALID_VALUE);
    // devices and num_devices both NULL.
    CHECK_CL(clGetDeviceIDs(platform(), CL_DEVICE_TYPE_CPU, 1, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_CL(clGetDeviceIDs(platform(), CL_DEVICE_TYPE_CPU, 0, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK(id == nullptr);
}

TEST_CASE("clGetDeviceIDs rejects handles that are not a platform", "[device]") {
    const cl_device_id cpu = device();
    const ContextPtr context = make_context({cpu});
    cl_device_id id = nullptr;
    cl_uint count = 0;
    CHECK_CL(clGetDeviceIDs(reinterpret_cast<cl_platform_id>(context.get()), CL_DEVICE_TYPE_ALL, 1,
                            &id, &count),
             CL_INVALID_PLATFORM);
    CHECK_CL(
        clGetDeviceIDs(reinterpret_cast<cl_platform_id>(cpu), CL_DEVICE_TYPE_ALL, 1, &id, &count),
        CL_INVALID_PLATFORM);
    FakeObject garbage(platform(), 0x3c);
    CHECK_CL(clGetDeviceIDs(garbage.as<cl_platform_id>(), CL_DEVICE_TYPE_ALL, 1, &id, &count),
             CL_INVALID_PLATFORM);
    CHECK(id == nullptr);
}

TEST_CASE("clGetDeviceIDs with a NULL platform selects usmcl's (implementation-defined)",
          "[device]") {
    const cl_icd_dispatch& table = dispatch_of(platform());
    cl_device_id id = nullptr;
    cl_uint count = 0;
    REQUIRE_OK(table.clGetDeviceIDs(nullptr, CL_DEVICE_TYPE_DEFAULT, 1, &id, &count));
    CHECK(count == 1);
    CHECK(id == device());
}

TEST_CASE("the root device is the same handle on every call", "[device]") {
    cl_device_id first = device();
    cl_device_id second = nullptr;
    REQUIRE_OK(clGetDeviceIDs(nullptr, CL_DEVICE_TYPE_DEFAULT, 1, &second, nullptr));
    CHECK(first == second);
}
