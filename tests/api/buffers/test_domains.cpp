// Buffers shared by two memory domains. Run with HWLOC_SYNTHETIC="numa:2
// core:1 pu:1" and USMCL_NUMA_DOMAINS=1: the device splits by NUMA affinity
// into two sub-devices, each with a memory domain of its own, so every
// migration path (host to domain, domain to domain, domain to host on read
// and on map) runs for real. The memory debug log (written to a temporary
// file) shows where instances are allocated.
#include "buffer_test.hpp"
#include "debug_log.hpp"

#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <unistd.h>

using namespace cl_test;
using namespace buffer_test;

namespace {

const DebugLog debug_log("usmcl-buffer-domains");

// A context of the two NUMA sub-devices with one in-order queue on each.
struct TwoDomains {
    cl_device_id root = cl_test::device();
    std::vector<DevicePtr> devices = create_sub_devices(
        root, {CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN, CL_DEVICE_AFFINITY_DOMAIN_NUMA, 0});
    ContextPtr context = make_two_device_context();
    QueuePtr queues[2] = {make_queue(context.get(), devices.at(0).get()),
                          make_queue(context.get(), devices.at(1).get())};

    ContextPtr make_two_device_context() {
        INFO("HWLOC_SYNTHETIC=\"numa:2 core:1 pu:1\" must give two NUMA sub-devices");
        REQUIRE(devices.size() == 2);
        return make_context({devices[0].get(), devices[1].get()});
    }
    cl_context ctx() const { return context.get(); }
    cl_command_queue q(int i) const { return queues[i].get(); }
    size_t align() const { return base_address_alignment(root); }
};

void read_into(cl_command_queue queue, cl_mem mem, size_t offset, Bytes& out) {
    REQUIRE_OK(clEnqueueReadBuffer(queue, mem, CL_TRUE, offset, out.size(), out.data(), 0, nullptr,
                                   nullptr));
}

Bytes read_range(cl_command_queue queue, cl_mem mem, size_t offset, size_t size) {
    Bytes out(size);
    read_into(queue, mem, offset, out);
    return out;
}

void write_range(cl_command_queue queue, cl_mem mem, size_t offset, const Bytes& data) {
    REQUIRE_OK(clEnqueueWriteBuffer(queue, mem, CL_TRUE, offset, data.size(), data.data(), 0,
                                    nullptr, nullptr));
}

Bytes slice(const Bytes& bytes, size_t offset, size_t size) {
    return Bytes(bytes.begin() + static_cast<long>(offset),
                 bytes.begin() + static_cast<long>(offset + size));
}

void* map_blocking(cl_command_queue queue, cl_mem mem, cl_map_flags flags, size_t offset,
                   size_t size) {
    cl_int error = CL_OUT_OF_RESOURCES;
    void* pointer =
        clEnqueueMapBuffer(queue, mem, CL_TRUE, flags, offset, size, 0, nullptr, nullptr, &error);
    REQUIRE_OK(error);
    REQUIRE(pointer != nullptr);
    return pointer;
}

void unmap_and_finish(cl_command_queue queue, cl_mem mem, void* pointer) {
    REQUIRE_OK(clEnqueueUnmapMemObject(queue, mem, pointer, 0, nullptr, nullptr));
    finish(queue);
}

} // namespace

TEST_CASE("two NUMA sub-devices have memory domains of their own", "[domains]") {
    TwoDomains d;
    for (const DevicePtr& device : d.devices) {
        const auto nodes =
            device_info_array<cl_device_partition_property>(device.get(), CL_DEVICE_PARTITION_TYPE);
        REQUIRE(nodes.size() >= 2);
        CHECK(nodes[0] == CL_DEVICE_PARTITION_BY_AFFINITY_DOMAIN);
    }
    // A buffer written on one sub-device and read on the other gets one
    // instance in each domain, and none anywhere before it is used.
    constexpr size_t size = 40001;
    MemPtr mem = make_buffer(d.ctx(), CL_MEM_READ_WRITE, size);
    CHECK(debug_log.instances_of(size).empty());
    Random random(40);
    const Bytes data = random.bytes(size);
    write_range(d.q(0), mem.get(), 0, data);
    const auto after_write = debug_log.instances_of(size);
    REQUIRE(after_write.size() == 1);
    CHECK(after_write[0].rfind("numa", 0) == 0);
    CHECK_BYTES(read_range(d.q(0), mem.get(), 0, size), data);
    CHECK(debug_log.instances_of(size).size() == 1);
    CHECK_BYTES(read_range(d.q(1), mem.get(), 0, size), data);
    const auto after_read = debug_log.instances_of(size);
    REQUIRE(after_read.size() == 2);
    CHECK(after_read[1].rfind("numa", 0) == 0);
    CHECK(after_read[1] != after_read[0]);
    // Reading again anywhere allocates nothing more; mapping brings it to the host.
    CHECK_BYTES(read_range(d.q(0), mem.get(), 0, size), data);
    void* mapped = map_blocking(d.q(1), mem.get(), CL_MAP_READ, 0, size);
    CHECK_SAME_BYTES(static_cast<unsigned char*>(mapped), data.data(), size);
    unmap_and_finish(d.q(1), mem.get(), mapped);
    const auto after_map = debug_log.instances_of(size);
    REQUIRE(after_map.size() == 3);
    CHECK(after_map[2] == "host");
}

TEST_CASE("instances are allocated lazily, only where a buffer is used", "[domains]") {
    TwoDomains d;
    Random random(41);
    SECTION("used on one sub-device only") {
        constexpr size_t size = 40003;
        MemPtr mem = make_buffer(d.ctx(), CL_MEM_READ_WRITE, size);
        const Bytes data = random.bytes(size);
        write_range(d.q(1), mem.get(), 0, data);
        CHECK_BYTES(read_range(d.q(1), mem.get(), 0, size), data);
        const unsigned char pattern = 3;
        REQUIRE_OK(clEnqueueFillBuffer(d.q(1), mem.get(), &pattern, 1, 0, 64, 0, nullptr, nullptr));
        finish(d.q(1));
        CHECK(debug_log.instances_of(size).size() == 1);
    }
    SECTION("CL_MEM_COPY_HOST_PTR starts in the host domain") {
        constexpr size_t size = 40005;
        Bytes data = random.bytes(size);
        MemPtr mem = make_buffer(d.ctx(), CL_MEM_COPY_HOST_PTR, size, data.data());
        CHECK(debug_log.instances_of(size) == std::vector<std::string>{"host"});
        CHECK_BYTES(read_range(d.q(0), mem.get(), 0, size), data);
        CHECK(debug_log.instances_of(size).size() == 2);
    }
    SECTION("CL_MEM_USE_HOST_PTR uses the application's memory as the host instance") {
        constexpr size_t size = 40007;
        Bytes host = random.bytes(size);
        const Bytes initial = host;
        MemPtr mem = make_buffer(d.ctx(), CL_MEM_USE_HOST_PTR, size, host.data());
        CHECK(debug_log.instances_of(size).empty());
        CHECK_BYTES(read_range(d.q(0), mem.get(), 0, size), initial);
        CHECK(debug_log.instances_of(size).size() == 1);
        const Bytes data = random.bytes(100);
        write_range(d.q(0), mem.get(), 1000, data);
        // A map brings the domain's bytes back into the application's memory.
        void* mapped = map_blocking(d.q(1), mem.get(), CL_MAP_READ, 900, 300);
        CHECK(mapped == host.data() + 900);
        CHECK_SAME_BYTES(host.data() + 1000, data.data(), data.size());
        CHECK_SAME_BYTES(host.data() + 900, initial.data() + 900, 100);
        unmap_and_finish(d.q(1), mem.get(), mapped);
        CHECK(debug_log.instances_of(size).size() == 1);
    }
}

TEST_CASE("every path between the host and the two domains carries the latest bytes", "[domains]") {
    TwoDomains d;
    Random random(42);
    const size_t align = d.align();
    const size_t size = 64 * align + 5;
    Bytes model = random.bytes(size);
    MemPtr mem = make_buffer(d.ctx(), CL_MEM_COPY_HOST_PTR, size, model.data());
    cl_command_queue q0 = d.q(0);
    cl_command_queue q1 = d.q(1);

    // host -> each domain
    CHECK_BYTES(read_range(q0, mem.get(), 0, size), model);
    CHECK_BYTES(read_range(q1, mem.get(), 0, size), model);
    // domain -> domain, partial: a write on one, a read on the other
    for (int round = 0; round < 20; ++round) {
        const int writer = round % 2;
        const size_t offset = random.between(0, size - 1);
        const Bytes data = random.bytes(random.between(1, std::min<size_t>(size - offset, 3000)));
        write_range(d.q(writer), mem.get(), offset, data);
        std::copy(data.begin(), data.end(), model.begin() + static_cast<long>(offset));
        const size_t read_offset = random.between(0, size - 1);
        const size_t read_size = random.between(1, size - read_offset);
        CHECK(read_range(d.q(1 - writer), mem.get(), read_offset, read_size) ==
              slice(model, read_offset, read_size));
    }
    CHECK_BYTES(read_range(q0, mem.get(), 0, size), model);
    // domain -> host on map
    {
        const Bytes data = random.bytes(500);
        write_range(q1, mem.get(), 200, data);
        std::copy(data.begin(), data.end(), model.begin() + 200);
        void* mapped = map_blocking(q0, mem.get(), CL_MAP_READ, 0, size);
        CHECK_SAME_BYTES(static_cast<unsigned char*>(mapped), model.data(), size);
        unmap_and_finish(q0, mem.get(), mapped);
    }
    // host -> domain after a write mapping, and after an invalidating one
    for (cl_map_flags flags :
         {CL_MAP_WRITE, CL_MAP_READ | CL_MAP_WRITE, CL_MAP_WRITE_INVALIDATE_REGION}) {
        INFO("map flags 0x" << std::hex << flags);
        const size_t offset = random.between(0, size - 1000);
        auto* mapped = static_cast<unsigned char*>(map_blocking(q1, mem.get(), flags, offset, 999));
        const Bytes data = random.bytes(999);
        std::memcpy(mapped, data.data(), data.size());
        std::copy(data.begin(), data.end(), model.begin() + static_cast<long>(offset));
        unmap_and_finish(q1, mem.get(), mapped);
        CHECK_BYTES(read_range(q0, mem.get(), 0, size), model);
        CHECK_BYTES(read_range(q1, mem.get(), 0, size), model);
    }
    // sub-buffers: written through one on one domain, read through an
    // overlapping one and the parent on the other
    {
        MemPtr a = make_sub_buffer(mem.get(), 0, 2 * align, 10 * align);
        MemPtr b = make_sub_buffer(mem.get(), 0, 6 * align, 10 * align);
        const Bytes data = random.bytes(6 * align);
        write_range(q0, a.get(), 3 * align, data);
        std::copy(data.begin(), data.end(), model.begin() + static_cast<long>(5 * align));
        CHECK_BYTES(read_range(q1, b.get(), 0, 10 * align), slice(model, 6 * align, 10 * align));
        const unsigned char pattern[16] = {9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 1, 2, 3, 4, 5, 6};
        REQUIRE_OK(clEnqueueFillBuffer(q1, b.get(), pattern, 16, 16, 64, 0, nullptr, nullptr));
        finish(q1);
        for (size_t i = 0; i < 64; ++i)
            model[6 * align + 16 + i] = pattern[i % 16];
        CHECK_BYTES(read_range(q0, a.get(), 0, 10 * align), slice(model, 2 * align, 10 * align));
        CHECK_BYTES(read_range(q0, mem.get(), 0, size), model);
    }
    // copies: from bytes last written on the other domain
    {
        MemPtr other = make_buffer(d.ctx(), CL_MEM_READ_WRITE, size);
        const Bytes data = random.bytes(300);
        write_range(q1, mem.get(), 1000, data);
        std::copy(data.begin(), data.end(), model.begin() + 1000);
        REQUIRE_OK(
            clEnqueueCopyBuffer(q0, mem.get(), other.get(), 0, 0, size, 0, nullptr, nullptr));
        finish(q0);
        CHECK_BYTES(read_range(q1, other.get(), 0, size), model);
        REQUIRE_OK(clEnqueueCopyBuffer(q1, other.get(), mem.get(), 0, size - 100, 100, 0, nullptr,
                                       nullptr));
        finish(q1);
        std::copy(model.begin(), model.begin() + 100, model.end() - 100);
        CHECK_BYTES(read_range(q0, mem.get(), 0, size), model);
    }
}

namespace {

// The random model: buffers and sub-buffers used from both queues, each
// read checked against the bytes the model says were written last.
struct ModelRoot {
    MemPtr mem;
    size_t size;
    Bytes bytes;
    std::vector<bool> known; // false after CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED
    std::unique_ptr<unsigned char[]> host_memory; // CL_MEM_USE_HOST_PTR
};

struct ModelView {
    cl_mem mem;
    size_t root;
    size_t origin;
    size_t size;
    bool is_sub;
};

struct PendingCheck {
    std::unique_ptr<unsigned char[]> data;
    Bytes expected;
    std::vector<bool> known;
    std::string what;
};

// How the model orders a buffer's use when it moves to the other queue.
enum class Sync {
    finish, // the host waits for the queue that used it
    events, // the new queue waits for a marker of the old one; commands are
            // now and then held back by user events, so both queues have
            // work in flight
};

class Model {
public:
    Model(TwoDomains& d, Random& random, Sync sync) : d_(d), random_(random), sync_(sync) {
        const size_t align = d.align();
        const cl_mem_flags kinds[] = {CL_MEM_READ_WRITE, CL_MEM_COPY_HOST_PTR, CL_MEM_USE_HOST_PTR};
        for (cl_mem_flags flags : kinds) {
            ModelRoot root;
            root.size = 24 * align + random.between(0, 100);
            root.bytes = random.bytes(root.size);
            root.known.assign(root.size, flags != CL_MEM_READ_WRITE);
            void* host_ptr = nullptr;
            if (flags == CL_MEM_USE_HOST_PTR) {
                root.host_memory.reset(new unsigned char[root.size]);
                std::memcpy(root.host_memory.get(), root.bytes.data(), root.size);
                host_ptr = root.host_memory.get();
            } else if (flags == CL_MEM_COPY_HOST_PTR) {
                host_ptr = root.bytes.data();
            }
            root.mem = make_buffer(d.ctx(), flags, root.size, host_ptr);
            roots_.push_back(std::move(root));
        }
        owners_.assign(roots_.size(), -1);
        for (size_t r = 0; r < roots_.size(); ++r) {
            views_.push_back({roots_[r].mem.get(), r, 0, roots_[r].size, false});
            const std::pair<size_t, size_t> regions[] = {
                {2 * align, 8 * align + 7}, {6 * align, 10 * align}, {20 * align, 3 * align}};
            for (const auto& [origin, size] : regions) {
                subs_.push_back(make_sub_buffer(roots_[r].mem.get(), 0, origin, size));
                views_.push_back({subs_.back().get(), r, origin, size, true});
            }
        }
    }

    void step(int index) {
        const int queue = static_cast<int>(random_.between(0, 1));
        if (sync_ == Sync::events)
            move_gates(queue);
        const ModelView& view = random_.pick(views_);
        const ModelView& other = random_.pick(views_); // a copy's destination
        const unsigned op = static_cast<unsigned>(random_.between(0, 11));
        // Commands of the two queues run concurrently on different buffers;
        // a buffer last used on the other queue waits for that queue first.
        claim(queue, view.root);
        if (op == 5)
            claim(queue, other.root);
        queue_ = queue;
        q_ = d_.q(queue);
        const size_t offset = random_.between(0, view.size - 1);
        const size_t length = random_.between(1, std::min<size_t>(view.size - offset, 2000));
        std::ostringstream what;
        what << "step " << index << " on queue " << queue << ": root " << view.root
             << (view.is_sub ? " sub-buffer at " : " at ") << view.origin << ", " << length
             << " bytes at " << offset;
        INFO(what.str());
        switch (op) {
        case 0:
        case 1: write(view, offset, length); break;
        case 2:
        case 3: read(view, offset, length, what.str()); break;
        case 4: fill(view, offset, length); break;
        case 5: copy(view, offset, length, other); break;
        case 6: map_read(view, offset, length); break;
        case 7: map_write(view, offset, length, CL_MAP_WRITE); break;
        case 8: map_write(view, offset, length, CL_MAP_WRITE_INVALIDATE_REGION); break;
        case 9: write_rect(view); break;
        case 10: read_rect(view, what.str()); break;
        default: migrate(view); break;
        }
    }

    void check_everything() {
        open_gates();
        settle(0);
        settle(1);
        for (int queue = 0; queue < 2; ++queue)
            for (const ModelRoot& root : roots_) {
                const Bytes content = read_range(d_.q(queue), root.mem.get(), 0, root.size);
                INFO("final read on queue " << queue);
                CHECK(first_known_difference(content.data(), root.bytes, root.known) == -1);
            }
    }

private:
    struct QueueState {
        std::vector<PendingCheck> pending; // reads to check once the queue is done
        std::deque<Bytes> keep_alive;      // sources of writes not yet run
    };

    QueueState& state() { return states_[queue_]; }

    void claim(int queue, size_t root) {
        const int owner = owners_[root];
        owners_[root] = queue;
        if (owner < 0 || owner == queue)
            return;
        if (sync_ == Sync::finish) {
            settle(owner);
            return;
        }
        cl_event marker = nullptr;
        REQUIRE_OK(clEnqueueMarkerWithWaitList(d_.q(owner), 0, nullptr, &marker));
        EventPtr owned(marker);
        REQUIRE_OK(clEnqueueBarrierWithWaitList(d_.q(queue), 1, &marker, nullptr));
    }

    // Opens gates whose time has come; now and then holds back the queue
    // about to be used behind a new one.
    void move_gates(int queue) {
        for (int i = 0; i < 2; ++i)
            if (gates_[i] && --gate_steps_[i] <= 0)
                open_gate(i);
        if (!gates_[queue] && random_.chance(5)) {
            gates_[queue] = make_user_event(d_.ctx());
            const cl_event gate = gates_[queue].get();
            REQUIRE_OK(clEnqueueBarrierWithWaitList(d_.q(queue), 1, &gate, nullptr));
            gate_steps_[queue] = static_cast<int>(random_.between(1, 12));
        }
    }

    void open_gate(int queue) {
        if (!gates_[queue])
            return;
        REQUIRE_OK(clSetUserEventStatus(gates_[queue].get(), CL_COMPLETE));
        gates_[queue].reset();
    }

    // Before the host blocks on a queue: a closed gate would never open.
    void open_gates() {
        open_gate(0);
        open_gate(1);
    }

    cl_bool blocking(unsigned percent) {
        if (!random_.chance(percent))
            return CL_FALSE;
        open_gates();
        return CL_TRUE;
    }

    // Waits for a queue, checks the reads it ran, and frees its buffers.
    void settle(int queue) {
        finish(d_.q(queue));
        QueueState& done = states_[queue];
        for (const PendingCheck& check : done.pending) {
            INFO(check.what);
            CHECK(first_known_difference(check.data.get(), check.expected, check.known) == -1);
        }
        done.pending.clear();
        done.keep_alive.clear();
        for (int& owner : owners_)
            if (owner == queue)
                owner = -1;
    }

    static long first_known_difference(const unsigned char* data, const Bytes& expected,
                                       const std::vector<bool>& known) {
        for (size_t i = 0; i < expected.size(); ++i)
            if (known[i] && data[i] != expected[i])
                return static_cast<long>(i);
        return -1;
    }

    void record(const ModelView& view, size_t offset, const unsigned char* data, size_t size) {
        ModelRoot& root = roots_[view.root];
        std::memcpy(root.bytes.data() + view.origin + offset, data, size);
        std::fill_n(root.known.begin() + static_cast<long>(view.origin + offset), size, true);
    }

    void expect_later(const ModelView& view, size_t offset, std::unique_ptr<unsigned char[]> data,
                      size_t size, const std::string& what) {
        const ModelRoot& root = roots_[view.root];
        const auto begin = static_cast<long>(view.origin + offset);
        state().pending.push_back(
            {std::move(data),
             Bytes(root.bytes.begin() + begin,
                   root.bytes.begin() + begin + static_cast<long>(size)),
             std::vector<bool>(root.known.begin() + begin,
                               root.known.begin() + begin + static_cast<long>(size)),
             what});
    }

    void write(const ModelView& view, size_t offset, size_t length) {
        state().keep_alive.push_back(random_.bytes(length));
        const Bytes& data = state().keep_alive.back();
        REQUIRE_OK(clEnqueueWriteBuffer(q_, view.mem, blocking(30), offset, length, data.data(), 0,
                                        nullptr, nullptr));
        record(view, offset, data.data(), length);
    }

    void read(const ModelView& view, size_t offset, size_t length, const std::string& what) {
        std::unique_ptr<unsigned char[]> data(new unsigned char[length]);
        REQUIRE_OK(clEnqueueReadBuffer(q_, view.mem, blocking(30), offset, length, data.get(), 0,
                                       nullptr, nullptr));
        expect_later(view, offset, std::move(data), length, what);
    }

    void fill(const ModelView& view, size_t offset, size_t length) {
        const size_t pattern_size = size_t{1} << random_.between(0, 7);
        const size_t first = offset / pattern_size * pattern_size;
        const size_t count = std::max<size_t>(1, length / pattern_size);
        if (first + count * pattern_size > view.size)
            return;
        const Bytes pattern = random_.bytes(pattern_size);
        REQUIRE_OK(clEnqueueFillBuffer(q_, view.mem, pattern.data(), pattern_size, first,
                                       count * pattern_size, 0, nullptr, nullptr));
        Bytes data(count * pattern_size);
        for (size_t i = 0; i < data.size(); ++i)
            data[i] = pattern[i % pattern_size];
        record(view, first, data.data(), data.size());
    }

    void copy(const ModelView& src, size_t offset, size_t length, const ModelView& dst) {
        const size_t dst_offset = random_.between(0, dst.size - 1);
        const size_t size = std::min(length, dst.size - dst_offset);
        if (src.root == dst.root) {
            const size_t a = src.origin + offset;
            const size_t b = dst.origin + dst_offset;
            if (a < b + size && b < a + size)
                return; // overlapping copies are errors, tested elsewhere
        }
        REQUIRE_OK(clEnqueueCopyBuffer(q_, src.mem, dst.mem, offset, dst_offset, size, 0, nullptr,
                                       nullptr));
        // The model copies known-ness along with the bytes.
        ModelRoot& from = roots_[src.root];
        ModelRoot& to = roots_[dst.root];
        for (size_t i = 0; i < size; ++i) {
            to.bytes[dst.origin + dst_offset + i] = from.bytes[src.origin + offset + i];
            to.known[dst.origin + dst_offset + i] = from.known[src.origin + offset + i];
        }
    }

    void map_read(const ModelView& view, size_t offset, size_t length) {
        cl_int error = CL_OUT_OF_RESOURCES;
        cl_event event = nullptr;
        open_gates(); // the host waits for the mapping below
        void* mapped = clEnqueueMapBuffer(q_, view.mem, blocking(50), CL_MAP_READ, offset, length,
                                          0, nullptr, &event, &error);
        REQUIRE_OK(error);
        EventPtr owned(event);
        REQUIRE(wait_final(event) == CL_COMPLETE);
        const ModelRoot& root = roots_[view.root];
        const size_t begin = view.origin + offset;
        CHECK(first_known_difference(
                  static_cast<unsigned char*>(mapped),
                  Bytes(root.bytes.begin() + static_cast<long>(begin),
                        root.bytes.begin() + static_cast<long>(begin + length)),
                  std::vector<bool>(root.known.begin() + static_cast<long>(begin),
                                    root.known.begin() + static_cast<long>(begin + length))) == -1);
        if (root.host_memory)
            CHECK(mapped == root.host_memory.get() + begin);
        REQUIRE_OK(clEnqueueUnmapMemObject(q_, view.mem, mapped, 0, nullptr, nullptr));
    }

    void map_write(const ModelView& view, size_t offset, size_t length, cl_map_flags flags) {
        open_gates(); // the host waits for the mapping
        auto* mapped =
            static_cast<unsigned char*>(map_blocking(q_, view.mem, flags, offset, length));
        // With CL_MAP_WRITE only part of the range is changed; the rest
        // must survive. An invalidating map must write everything.
        const size_t from = flags == CL_MAP_WRITE ? random_.between(0, length - 1) : 0;
        const size_t count = flags == CL_MAP_WRITE ? random_.between(1, length - from) : length;
        const Bytes data = random_.bytes(count);
        std::memcpy(mapped + from, data.data(), count);
        REQUIRE_OK(clEnqueueUnmapMemObject(q_, view.mem, mapped, 0, nullptr, nullptr));
        record(view, offset + from, data.data(), count);
    }

    void write_rect(const ModelView& view) {
        const std::array<size_t, 3> region{random_.between(1, 64), random_.between(1, 8),
                                           random_.between(1, 3)};
        const size_t row = region[0] + random_.between(0, 32);
        const size_t slice_pitch = row * (region[1] + random_.between(0, 2));
        const Layout layout = Layout::resolve(region, row, slice_pitch);
        const std::array<size_t, 3> origin{random_.between(0, 40), random_.between(0, 3),
                                           random_.between(0, 1)};
        if (layout.end(origin, region) > view.size)
            return;
        state().keep_alive.push_back(random_.bytes(region[0] * region[1] * region[2]));
        const Bytes& data = state().keep_alive.back();
        const std::array<size_t, 3> zero{0, 0, 0};
        REQUIRE_OK(clEnqueueWriteBufferRect(q_, view.mem, blocking(30), origin.data(), zero.data(),
                                            region.data(), row, slice_pitch, 0, 0, data.data(), 0,
                                            nullptr, nullptr));
        ModelRoot& root = roots_[view.root];
        const Layout packed = Layout::resolve(region, 0, 0);
        reference_rect_copy(root.bytes.data() + view.origin, origin, layout, data.data(), zero,
                            packed, region);
        for (size_t z = 0; z < region[2]; ++z)
            for (size_t y = 0; y < region[1]; ++y)
                std::fill_n(root.known.begin() +
                                static_cast<long>(view.origin + layout.offset(origin) +
                                                  z * layout.slice_pitch + y * layout.row_pitch),
                            region[0], true);
    }

    void read_rect(const ModelView& view, const std::string& what) {
        const std::array<size_t, 3> region{random_.between(1, 64), random_.between(1, 8),
                                           random_.between(1, 3)};
        const size_t row = region[0] + random_.between(0, 32);
        const size_t slice_pitch = row * (region[1] + random_.between(0, 2));
        const Layout layout = Layout::resolve(region, row, slice_pitch);
        const std::array<size_t, 3> origin{random_.between(0, 40), random_.between(0, 3),
                                           random_.between(0, 1)};
        if (layout.end(origin, region) > view.size)
            return;
        const size_t packed_size = region[0] * region[1] * region[2];
        std::unique_ptr<unsigned char[]> data(new unsigned char[packed_size]);
        const std::array<size_t, 3> zero{0, 0, 0};
        REQUIRE_OK(clEnqueueReadBufferRect(q_, view.mem, blocking(30), origin.data(), zero.data(),
                                           region.data(), row, slice_pitch, 0, 0, data.get(), 0,
                                           nullptr, nullptr));
        // The expected bytes, gathered into the packed layout.
        const ModelRoot& root = roots_[view.root];
        const Layout packed = Layout::resolve(region, 0, 0);
        Bytes expected(packed_size);
        reference_rect_copy(expected.data(), zero, packed, root.bytes.data() + view.origin, origin,
                            layout, region);
        std::vector<bool> known(packed_size);
        for (size_t z = 0; z < region[2]; ++z)
            for (size_t y = 0; y < region[1]; ++y)
                for (size_t x = 0; x < region[0]; ++x)
                    known[z * packed.slice_pitch + y * packed.row_pitch + x] =
                        root.known[view.origin + layout.offset(origin) + z * layout.slice_pitch +
                                   y * layout.row_pitch + x];
        state().pending.push_back(
            {std::move(data), std::move(expected), std::move(known), what + " (rect)"});
    }

    void migrate(const ModelView& view) {
        const unsigned kind = static_cast<unsigned>(random_.between(0, 9));
        cl_mem_migration_flags flags = 0;
        if (kind >= 4)
            flags |= CL_MIGRATE_MEM_OBJECT_HOST;
        const bool undefined = kind == 9;
        if (undefined)
            flags |= CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED;
        REQUIRE_OK(clEnqueueMigrateMemObjects(q_, 1, &view.mem, flags, 0, nullptr, nullptr));
        if (undefined) {
            ModelRoot& root = roots_[view.root];
            std::fill_n(root.known.begin() + static_cast<long>(view.origin), view.size, false);
        }
    }

    TwoDomains& d_;
    Random& random_;
    std::vector<ModelRoot> roots_;
    std::vector<MemPtr> subs_;
    std::vector<ModelView> views_;
    std::vector<int> owners_; // per root: the queue that used it last, or -1
    QueueState states_[2];
    Sync sync_;
    EventPtr gates_[2];
    int gate_steps_[2] = {0, 0};
    int queue_ = 0;
    cl_command_queue q_ = nullptr;
};

} // namespace

TEST_CASE("random sequences over both domains agree with a host model", "[domains][random]") {
    TwoDomains d;
    Random random(43);
    Model model(d, random, Sync::finish);
    for (int step = 0; step < 3000; ++step)
        model.step(step);
    model.check_everything();
}

TEST_CASE("random sequences ordered by events, with commands held back, agree with a host model",
          "[domains][random][ordering]") {
    TwoDomains d;
    Random random(45);
    Model model(d, random, Sync::events);
    for (int step = 0; step < 3000; ++step)
        model.step(step);
    model.check_everything();
}

TEST_CASE("a migration copy waits for the command that wrote its source bytes",
          "[domains][ordering]") {
    // A write W1 on queue 0 (domain A) is held back by a user event. Then
    // queue 1 (domain B) writes other bytes, W2, and completes; only then
    // does the host open the gate, so W1 runs after W2: the order is W2, W1,
    // though W2 was enqueued last (and is the buffer's last writer in
    // enqueue order). A command ordered after W1 that needs W1's bytes in
    // another domain must copy them once W1 ran, not before.
    TwoDomains d;
    Random random(44);
    constexpr size_t size = 8192;
    constexpr size_t held_offset = 0;
    constexpr size_t other_offset = 4096;
    constexpr size_t length = 1024;
    const Bytes zeros(size, 0);
    const Bytes held_data = random.bytes(length);
    const Bytes other_data = random.bytes(length);
    MemPtr mem = make_buffer(d.ctx(), CL_MEM_READ_WRITE, size);
    // Every byte current in domain A, holding zeros.
    write_range(d.q(0), mem.get(), 0, zeros);

    EventPtr gate = make_user_event(d.ctx());
    const cl_event gate_list[] = {gate.get()};
    cl_event held_write = nullptr;
    REQUIRE_OK(clEnqueueWriteBuffer(d.q(0), mem.get(), CL_FALSE, held_offset, length,
                                    held_data.data(), 1, gate_list, &held_write));
    EventPtr held_owned(held_write);
    write_range(d.q(1), mem.get(), other_offset, other_data);
    // Released in any case, so that nothing is left waiting.
    struct Opener {
        cl_event gate;
        ~Opener() { clSetUserEventStatus(gate, CL_COMPLETE); }
    } opener{gate.get()};

    SECTION("a map in order after the held write on its queue") {
        cl_int error = CL_OUT_OF_RESOURCES;
        cl_event map_event = nullptr;
        void* mapped = clEnqueueMapBuffer(d.q(0), mem.get(), CL_FALSE, CL_MAP_READ, held_offset,
                                          length, 0, nullptr, &map_event, &error);
        REQUIRE_OK(error);
        EventPtr map_owned(map_event);
        std::this_thread::sleep_for(20ms);
        REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
        REQUIRE(wait_final(map_event) == CL_COMPLETE);
        CHECK(first_difference(static_cast<unsigned char*>(mapped), held_data.data(), length) ==
              -1);
        unmap_and_finish(d.q(0), mem.get(), mapped);
    }
    SECTION("a read on the other queue that waits for the held write") {
        Bytes out(length, 0xee);
        cl_event read_event = nullptr;
        REQUIRE_OK(clEnqueueReadBuffer(d.q(1), mem.get(), CL_FALSE, held_offset, length, out.data(),
                                       1, &held_write, &read_event));
        EventPtr read_owned(read_event);
        std::this_thread::sleep_for(20ms);
        REQUIRE_OK(clSetUserEventStatus(gate.get(), CL_COMPLETE));
        REQUIRE(wait_final(read_event) == CL_COMPLETE);
        CHECK(first_difference(out.data(), held_data.data(), length) == -1);
    }
    finish(d.q(0));
    finish(d.q(1));
    // Whatever happened above, the buffer holds both writes now.
    Bytes expected = zeros;
    std::copy(held_data.begin(), held_data.end(), expected.begin() + held_offset);
    std::copy(other_data.begin(), other_data.end(), expected.begin() + other_offset);
    CHECK_BYTES(read_range(d.q(1), mem.get(), 0, size), expected);
}
