// Random sequences of writes, fills, kernels, reads, maps and migrations of
// one buffer over three devices (the CPU device and two discrete-memory
// devices, USMCL_DEVICES=cpu,discrete:2), each command ordered after the
// previous one by an event only. A host model keeps every byte's value and,
// per memory domain, whether the domain holds it up to date; every read is
// compared byte by byte, and the bytes migrated between every pair of
// domains are compared with the model's minimum after every step.
#include "discrete_test.hpp"

#include <cstdint>
#include <random>
#include <sstream>

using namespace cl_test;
using namespace discrete_test;

namespace {

constexpr size_t buffer_size = 64 * 1024;
constexpr size_t align = 128;        // CL_DEVICE_MEM_BASE_ADDR_ALIGN, for sub-buffers
constexpr unsigned domain_count = 3; // host, discrete 0, discrete 1

const char* const source = R"(
kernel void scramble(global uchar* data, uchar k) {
    size_t i = get_global_id(0);
    data[i] = (uchar)(data[i] * 3 + k);
}
)";

// What usmcl's planner must do, byte by byte.
struct Model {
    std::vector<unsigned char> value = std::vector<unsigned char>(buffer_size, 0);
    std::vector<bool> known = std::vector<bool>(buffer_size, false);   // value is predictable
    std::vector<bool> defined = std::vector<bool>(buffer_size, false); // has content
    std::vector<bool> valid[domain_count];
    // moved[from][to]: bytes copied.
    std::uint64_t moved[domain_count][domain_count] = {};

    Model() {
        for (auto& set : valid)
            set.assign(buffer_size, false);
    }

    // Copies needed before an access that needs the old content, then its effect.
    void access(unsigned domain, size_t begin, size_t end, bool reads, bool writes) {
        for (size_t i = begin; i < end; ++i) {
            if (reads && defined[i] && !valid[domain][i]) {
                unsigned source = 0;
                while (!valid[source][i])
                    ++source;
                ++moved[source][domain];
                valid[domain][i] = true;
            }
            if (writes) {
                for (unsigned other = 0; other < domain_count; ++other)
                    valid[other][i] = other == domain;
                defined[i] = true;
            }
        }
    }
    void discard() {
        for (size_t i = 0; i < buffer_size; ++i) {
            for (auto& set : valid)
                set[i] = false;
            defined[i] = false;
            known[i] = false;
        }
    }
};

struct Rig {
    cl_device_id devices[domain_count];
    ContextPtr context;
    QueuePtr queues[domain_count];
    ProgramPtr program;
    KernelPtr kernel;
    MemPtr buffer;
    EventPtr last;
    cl_event last_event = nullptr; // last.get(), addressable as a wait list

    Rig() {
        devices[0] = cpu_device();
        const auto discrete = discrete_devices();
        devices[1] = discrete[0];
        devices[2] = discrete[1];
        context = make_context({devices[0], devices[1], devices[2]});
        for (unsigned d = 0; d < domain_count; ++d)
            queues[d] = make_queue(context.get(), devices[d]);
        program = build_for(context.get(), {devices[0], devices[1], devices[2]}, source);
        kernel = make_kernel(program.get(), "scramble");
        buffer = buffer_test::make_buffer(context.get(), CL_MEM_READ_WRITE, buffer_size);
    }

    // The wait list of the next command: the previous one.
    cl_uint wait_count() const { return last_event ? 1 : 0; }
    const cl_event* wait_list() const { return last_event ? &last_event : nullptr; }
    void chain(cl_event event) {
        last.reset(event);
        last_event = event;
    }
};

// Bytes moved per pair as the driver counted them, from the counters of the
// two discrete devices (host <-> each, and between them).
struct Moved {
    std::uint64_t host_to[domain_count] = {};
    std::uint64_t to_host[domain_count] = {};
    std::uint64_t between = 0; // device to device, either way
    bool operator==(const Moved&) const = default;
};

Moved driver_moved(const Rig& rig, const Counters start[domain_count]) {
    Moved moved;
    std::uint64_t from_devices = 0;
    for (unsigned d = 1; d < domain_count; ++d) {
        const Counters delta = since(start[d], counters(rig.devices[d]));
        moved.host_to[d] = delta[CL_MIGRATED_BYTES_FROM_HOST_USMCL];
        moved.to_host[d] = delta[CL_MIGRATED_BYTES_TO_HOST_USMCL];
        from_devices += delta[CL_MIGRATED_BYTES_FROM_DEVICES_USMCL];
    }
    moved.between = from_devices;
    return moved;
}

Moved model_moved(const Model& model) {
    Moved moved;
    for (unsigned d = 1; d < domain_count; ++d) {
        moved.host_to[d] = model.moved[0][d];
        moved.to_host[d] = model.moved[d][0];
    }
    moved.between = model.moved[1][2] + model.moved[2][1];
    return moved;
}

std::string describe(const Moved& moved) {
    std::ostringstream text;
    for (unsigned d = 1; d < domain_count; ++d)
        text << "host->" << d << " " << moved.host_to[d] << ", " << d << "->host "
             << moved.to_host[d] << "; ";
    text << "between devices " << moved.between;
    return text.str();
}

} // namespace

TEST_CASE("random commands over the CPU device and two discrete-memory devices") {
    Rig rig;
    Model model;
    Counters start[domain_count];
    for (unsigned d = 0; d < domain_count; ++d)
        start[d] = counters(rig.devices[d]);
    std::mt19937_64 random(Catch::rngSeed() * 0x9e3779b97f4a7c15ull + 23);
    auto pick = [&](size_t bound) { return static_cast<size_t>(random() % bound); };
    // A range [begin, end) of whole alignment units.
    auto aligned_range = [&](size_t& begin, size_t& end) {
        const size_t units = buffer_size / align;
        begin = pick(units) * align;
        end = begin + (1 + pick(units - begin / align)) * align;
    };

    constexpr int steps = 300;
    for (int step = 0; step < steps; ++step) {
        const auto domain = static_cast<unsigned>(pick(domain_count));
        cl_command_queue queue = rig.queues[domain].get();
        size_t begin = 0;
        size_t end = 0;
        aligned_range(begin, end);
        const size_t size = end - begin;
        // Writes 4 in 20, fills 2, kernels 4, reads 3, maps 3, migrations 3,
        // content declared undefined 1.
        static constexpr int kinds[20] = {0, 0, 0, 0, 1, 1, 2, 2, 2, 2,
                                          3, 3, 3, 4, 4, 4, 5, 5, 5, 6};
        const int op = kinds[pick(20)];
        cl_event event = nullptr;
        std::string what;
        if (op == 0) { // write
            what = "write";
            std::vector<unsigned char> data(size);
            for (auto& byte : data)
                byte = static_cast<unsigned char>(random());
            REQUIRE_OK(clEnqueueWriteBuffer(queue, rig.buffer.get(), CL_TRUE, begin, size,
                                            data.data(), rig.wait_count(), rig.wait_list(),
                                            &event));
            model.access(domain, begin, end, false, true);
            for (size_t i = 0; i < size; ++i) {
                model.value[begin + i] = data[i];
                model.known[begin + i] = true;
            }
        } else if (op == 1) { // fill
            what = "fill";
            const cl_uint pattern = static_cast<cl_uint>(random());
            REQUIRE_OK(clEnqueueFillBuffer(queue, rig.buffer.get(), &pattern, 4, begin, size,
                                           rig.wait_count(), rig.wait_list(), &event));
            model.access(domain, begin, end, false, true);
            for (size_t i = begin; i < end; ++i) {
                model.value[i] = static_cast<unsigned char>(pattern >> (8 * (i % 4)));
                model.known[i] = true;
            }
        } else if (op == 2) { // a kernel reads and writes a sub-buffer
            what = "kernel";
            const MemPtr sub = sub_buffer(rig.buffer.get(), begin, size);
            const auto k = static_cast<cl_uchar>(random());
            set_arg(rig.kernel.get(), 0, sub.get());
            set_arg(rig.kernel.get(), 1, k);
            run_1d(queue, rig.kernel.get(), size, &event,
                   rig.last_event ? std::vector<cl_event>{rig.last_event}
                                  : std::vector<cl_event>{});
            model.access(domain, begin, end, true, true);
            for (size_t i = begin; i < end; ++i)
                model.value[i] = static_cast<unsigned char>(model.value[i] * 3 + k);
        } else if (op == 3) { // read
            what = "read";
            std::vector<unsigned char> data(size);
            REQUIRE_OK(clEnqueueReadBuffer(queue, rig.buffer.get(), CL_TRUE, begin, size,
                                           data.data(), rig.wait_count(), rig.wait_list(), &event));
            model.access(domain, begin, end, true, false);
            for (size_t i = 0; i < size; ++i)
                if (model.known[begin + i] && data[i] != model.value[begin + i])
                    FAIL("step " << step << ": byte " << begin + i << " read on device " << domain
                                 << " is " << int(data[i]) << ", expected "
                                 << int(model.value[begin + i]));
        } else if (op == 4) { // map for reading or writing, on the host
            what = "map";
            const bool write = pick(2) == 0;
            const bool invalidate = write && pick(2) == 0;
            const cl_map_flags flags = invalidate ? CL_MAP_WRITE_INVALIDATE_REGION
                                       : write    ? CL_MAP_READ | CL_MAP_WRITE
                                                  : CL_MAP_READ;
            cl_int error = CL_SUCCESS;
            auto* mapped = static_cast<unsigned char*>(
                clEnqueueMapBuffer(queue, rig.buffer.get(), CL_TRUE, flags, begin, size,
                                   rig.wait_count(), rig.wait_list(), nullptr, &error));
            REQUIRE_OK(error);
            model.access(0, begin, end, !invalidate, write);
            if (!invalidate)
                for (size_t i = 0; i < size; ++i)
                    if (model.known[begin + i] && mapped[i] != model.value[begin + i])
                        FAIL("step " << step << ": mapped byte " << begin + i << " is "
                                     << int(mapped[i]) << ", expected "
                                     << int(model.value[begin + i]));
            if (write)
                for (size_t i = 0; i < size; ++i)
                    if (invalidate || pick(4) == 0) {
                        mapped[i] = static_cast<unsigned char>(random());
                        model.value[begin + i] = mapped[i];
                        model.known[begin + i] = true;
                    }
            REQUIRE_OK(
                clEnqueueUnmapMemObject(queue, rig.buffer.get(), mapped, 0, nullptr, &event));
        } else { // migrate: to the queue's device, to the host, or content undefined
            const cl_mem_migration_flags flags = op == 6 ? CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED
                                                 : pick(2) == 0 ? CL_MIGRATE_MEM_OBJECT_HOST
                                                                : 0;
            what = "migrate " + std::to_string(flags);
            cl_mem mem = rig.buffer.get();
            REQUIRE_OK(clEnqueueMigrateMemObjects(queue, 1, &mem, flags, rig.wait_count(),
                                                  rig.wait_list(), &event));
            if (flags == CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)
                model.discard();
            else
                model.access(flags == CL_MIGRATE_MEM_OBJECT_HOST ? 0 : domain, 0, buffer_size, true,
                             false);
        }
        rig.chain(event);
        REQUIRE(wait_bounded(event));
        REQUIRE(event_status(event) == CL_COMPLETE);
        const Moved expected = model_moved(model);
        const Moved counted = driver_moved(rig, start);
        INFO("step " << step << " (" << what << " on device " << domain << ", [" << begin << ", "
                     << end << "))");
        INFO("driver: " << describe(counted));
        INFO("model:  " << describe(expected));
        REQUIRE(counted == expected);
    }
    // Every known byte, read on the host at the end.
    std::vector<unsigned char> data(buffer_size);
    REQUIRE_OK(clEnqueueReadBuffer(rig.queues[0].get(), rig.buffer.get(), CL_TRUE, 0, buffer_size,
                                   data.data(), rig.wait_count(), rig.wait_list(), nullptr));
    size_t compared = 0;
    for (size_t i = 0; i < buffer_size; ++i)
        if (model.known[i]) {
            REQUIRE(data[i] == model.value[i]);
            ++compared;
        }
    const Moved total = model_moved(model);
    WARN("bytes compared at the end: " << compared << "; moved: " << describe(total));
    CHECK(total.host_to[1] + total.host_to[2] > 0);
    CHECK(total.to_host[1] + total.to_host[2] > 0);
    CHECK(total.between > 0);
}
