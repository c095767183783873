// clGetDeviceAndHostTimer and clGetHostTimer.
#include "cl_test.hpp"

#include <chrono>
#include <thread>

using namespace cl_test;

TEST_CASE("host timer is monotonic", "[timers]") {
    cl_device_id id = device();
    cl_ulong previous = 0;
    REQUIRE_OK(clGetHostTimer(id, &previous));
    CHECK(previous > 0);
    for (int i = 0; i < 1000; ++i) {
        cl_ulong now = 0;
        REQUIRE_OK(clGetHostTimer(id, &now));
        REQUIRE(now >= previous);
        previous = now;
    }
}

TEST_CASE("device and host timers are monotonic and consistent", "[timers]") {
    cl_device_id id = device();
    cl_ulong host_before = 0;
    cl_ulong device_ts = 0;
    cl_ulong host_ts = 0;
    cl_ulong host_after = 0;
    REQUIRE_OK(clGetHostTimer(id, &host_before));
    REQUIRE_OK(clGetDeviceAndHostTimer(id, &device_ts, &host_ts));
    REQUIRE_OK(clGetHostTimer(id, &host_after));
    CHECK(host_before <= host_ts);
    CHECK(host_ts <= host_after);
    CHECK(device_ts > 0);

    // Both clocks advance by the time slept, in nanoseconds.
    constexpr cl_ulong sleep_ns = 5'000'000;
    std::this_thread::sleep_for(std::chrono::nanoseconds(sleep_ns));
    cl_ulong device_later = 0;
    cl_ulong host_later = 0;
    REQUIRE_OK(clGetDeviceAndHostTimer(id, &device_later, &host_later));
    const cl_ulong device_delta = device_later - device_ts;
    const cl_ulong host_delta = host_later - host_ts;
    CHECK(device_later >= device_ts);
    CHECK(host_delta >= sleep_ns);
    CHECK(device_delta >= sleep_ns);
    CHECK(host_delta < 10'000'000'000ull);
    // The two clocks tick at the same rate (within 1 ms over the interval).
    const cl_ulong skew =
        device_delta > host_delta ? device_delta - host_delta : host_delta - device_delta;
    CHECK(skew < 1'000'000);
}

TEST_CASE("timers answer on sub-devices", "[timers]") {
    cl_device_id root = device();
    if (device_info<cl_uint>(root, CL_DEVICE_MAX_COMPUTE_UNITS) < 2)
        return;
    const auto subs = create_sub_devices(root, {CL_DEVICE_PARTITION_EQUALLY, 1, 0});
    cl_ulong device_ts = 0;
    cl_ulong host_ts = 0;
    CHECK_OK(clGetDeviceAndHostTimer(subs[0].get(), &device_ts, &host_ts));
    CHECK_OK(clGetHostTimer(subs[0].get(), &host_ts));
}

TEST_CASE("timers: NULL arguments are CL_INVALID_VALUE", "[timers]") {
    cl_device_id id = device();
    cl_ulong value = 0;
    CHECK_CL(clGetDeviceAndHostTimer(id, nullptr, &value), CL_INVALID_VALUE);
    CHECK_CL(clGetDeviceAndHostTimer(id, &value, nullptr), CL_INVALID_VALUE);
    CHECK_CL(clGetDeviceAndHostTimer(id, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_CL(clGetHostTimer(id, nullptr), CL_INVALID_VALUE);
    CHECK(value == 0);
}

TEST_CASE("timers reject handles that are not a device", "[timers]") {
    const ContextPtr context = make_context({device()});
    auto not_device = reinterpret_cast<cl_device_id>(context.get());
    cl_ulong device_ts = 0;
    cl_ulong host_ts = 0;
    CHECK_CL(clGetDeviceAndHostTimer(not_device, &device_ts, &host_ts), CL_INVALID_DEVICE);
    CHECK_CL(clGetHostTimer(not_device, &host_ts), CL_INVALID_DEVICE);
    CHECK_CL(clGetHostTimer(nullptr, &host_ts), CL_INVALID_DEVICE);
    FakeObject garbage(device(), 0x99);
    CHECK_CL(clGetDeviceAndHostTimer(garbage.as<cl_device_id>(), &device_ts, &host_ts),
             CL_INVALID_DEVICE);
    CHECK_CL(clGetHostTimer(garbage.as<cl_device_id>(), &host_ts), CL_INVALID_DEVICE);
    CHECK(host_ts == 0);
    CHECK(device_ts == 0);
}
