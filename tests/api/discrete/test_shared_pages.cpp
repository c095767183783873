// USM shared allocations of a discrete-memory device migrate block by block
// (64 KiB) on access (docs/memory-model.md, "Shared allocations"): a kernel
// of the device brings the blocks it touches there, the host's first touch
// of a block brings it back, clEnqueueMigrateMemINTEL moves blocks ahead.
// Run with USMCL_DEVICES=cpu,discrete:2 and USMCL_DISCRETE_MEMORY=64MiB.
// Every value the host reads is compared with a host model, and the bytes
// moved, read from the device's migration counters, with the blocks
// touched.
#include "discrete_test.hpp"
#include "usm/usm_test.hpp"

#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

using namespace cl_test;
using namespace discrete_test;

namespace {

constexpr size_t kib = 1024;
constexpr size_t block = 64 * kib;
constexpr size_t words_per_block = block / sizeof(cl_uint);

const char* const source = R"(
kernel void add(global uint* data, uint value) {
    data[get_global_id(0)] += value;
}
typedef struct node { global struct node* next; uint value; uint pad; } node;
// Walks the list from head, adding each node's value to a sum stored at the
// last node, and doubles every value on the way.
kernel void walk(global node* head, global uint* sum) {
    uint total = 0;
    for (global node* n = head; n; n = n->next) {
        total += n->value;
        n->value *= 2;
    }
    *sum = total;
}
)";

// Bytes from the host to the device and back since before.
struct Moved {
    cl_ulong to_device = 0;
    cl_ulong to_host = 0;
};

Moved moved_since(const Counters& before, cl_device_id device) {
    const Counters delta = since(before, counters(device));
    return {delta[CL_MIGRATED_BYTES_FROM_HOST_USMCL], delta[CL_MIGRATED_BYTES_TO_HOST_USMCL]};
}

// An allocation's own counters (clGetMemAllocMigrationCountersUSMCL).
Counters alloc_counters(cl_context context, const void* ptr) {
    auto* function = reinterpret_cast<clGetMemAllocMigrationCountersUSMCL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform(),
                                                 "clGetMemAllocMigrationCountersUSMCL"));
    REQUIRE(function != nullptr);
    Counters values{};
    cl_uint count = 0;
    REQUIRE_OK(function(context, ptr, CL_MIGRATION_COUNTERS_USMCL, values.data(), &count));
    REQUIRE(count == CL_MIGRATION_COUNTERS_USMCL);
    return values;
}

// The bytes of the allocation in its device's memory now.
cl_ulong resident_bytes(const usm_functions& usm, cl_context context, const void* ptr) {
    cl_ulong bytes = ~cl_ulong(0);
    size_t size = 0;
    REQUIRE_OK(usm.alloc_info(context, ptr, CL_MEM_ALLOC_RESIDENT_BYTES_USMCL, sizeof(bytes),
                              &bytes, &size));
    REQUIRE(size == sizeof(bytes));
    return bytes;
}

void add_on(cl_command_queue queue, cl_kernel kernel, const usm_functions& usm, void* data,
            size_t first_word, size_t words, cl_uint value) {
    REQUIRE_OK(usm.set_arg_pointer(kernel, 0, static_cast<cl_uint*>(data) + first_word));
    set_arg(kernel, 1, value);
    run_1d(queue, kernel, words);
    REQUIRE_OK(clFinish(queue));
}

// A context of the CPU device and the first discrete device, a queue on
// each, the program built for both.
struct CpuAndDiscrete {
    const usm_functions usm = usm_test::load_usm(platform());
    const cl_device_id cpu = cpu_device();
    const cl_device_id device = discrete_devices()[0];
    const ContextPtr context = make_context({cpu, device});
    const QueuePtr on_device = make_queue(context.get(), device);
    const QueuePtr on_cpu = make_queue(context.get(), cpu);
    const ProgramPtr program = build_for(context.get(), {cpu, device}, source);
    const KernelPtr add = make_kernel(program.get(), "add");

    // A shared allocation of the discrete device for words values.
    cl_uint* shared_words(size_t words) const {
        cl_int error = CL_OUT_OF_RESOURCES;
        auto* data = static_cast<cl_uint*>(
            usm.shared_alloc(context.get(), device, nullptr, words * 4, 0, &error));
        REQUIRE_OK(error);
        return data;
    }
};

} // namespace

TEST_CASE_METHOD(CpuAndDiscrete,
                 "a shared allocation of a discrete-memory device moves by the blocks touched") {
    constexpr size_t blocks = 16;
    constexpr size_t words = blocks * words_per_block;
    cl_uint* data = shared_words(words);
    std::vector<cl_uint> model(words);
    for (size_t i = 0; i < words; ++i)
        data[i] = model[i] = static_cast<cl_uint>(i * 3);
    auto check_all = [&] {
        for (size_t i = 0; i < words; ++i)
            if (data[i] != model[i])
                FAIL("word " << i << ": " << data[i] << ", expected " << model[i]);
    };

    // The kernel touches the first half: those 8 blocks come to the device.
    Counters before = counters(device);
    add_on(on_device.get(), add.get(), usm, data, 0, words / 2, 1);
    for (size_t i = 0; i < words / 2; ++i)
        model[i] += 1;
    Moved moved = moved_since(before, device);
    CHECK(moved.to_device == 8 * block);
    CHECK(moved.to_host == 0);

    // The host reads the first quarter: 4 blocks come back, the rest stay.
    before = counters(device);
    for (size_t i = 0; i < words / 4; ++i)
        REQUIRE(data[i] == model[i]);
    moved = moved_since(before, device);
    CHECK(moved.to_device == 0);
    CHECK(moved.to_host == 4 * block);

    // The same kernel again: only the 4 blocks the host took back move.
    before = counters(device);
    add_on(on_device.get(), add.get(), usm, data, 0, words / 2, 5);
    for (size_t i = 0; i < words / 2; ++i)
        model[i] += 5;
    moved = moved_since(before, device);
    CHECK(moved.to_device == 4 * block);
    CHECK(moved.to_host == 0);

    // One word written in block 6: that block alone comes back.
    before = counters(device);
    data[6 * words_per_block + 10] = model[6 * words_per_block + 10] = 77;
    moved = moved_since(before, device);
    CHECK(moved.to_host == block);

    // The host reads everything: the 7 blocks still on the device come back.
    before = counters(device);
    check_all();
    moved = moved_since(before, device);
    CHECK(moved.to_device == 0);
    CHECK(moved.to_host == 7 * block);

    // A kernel of the CPU device uses host memory: nothing moves.
    before = counters(device);
    add_on(on_cpu.get(), add.get(), usm, data, 0, words, 2);
    for (cl_uint& value : model)
        value += 2;
    CHECK(moved_since(before, device).to_device == 0);
    CHECK(moved_since(before, device).to_host == 0);
    check_all();

    // A kernel over blocks 2 to 4, then clEnqueueMigrateMemINTEL with
    // CL_MIGRATE_MEM_OBJECT_HOST moves back the blocks its range touches
    // (it starts inside block 2 and ends inside block 4), ahead of any
    // access.
    add_on(on_device.get(), add.get(), usm, data, 2 * words_per_block, 3 * words_per_block, 4);
    for (size_t i = 2 * words_per_block; i < 5 * words_per_block; ++i)
        model[i] += 4;
    before = counters(device);
    REQUIRE_OK(usm.migrate(on_device.get(), data + 2 * words_per_block + 5, 2 * block + 4,
                           CL_MIGRATE_MEM_OBJECT_HOST, 0, nullptr, nullptr));
    REQUIRE_OK(clFinish(on_device.get()));
    moved = moved_since(before, device);
    CHECK(moved.to_host == 3 * block);
    CHECK(moved.to_device == 0);
    before = counters(device);
    check_all();
    CHECK(moved_since(before, device).to_host == 0);

    // The extension refuses flags 0: CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED
    // is how an application asks for a move to the device (a prefetch), and
    // usmcl keeps the content.
    before = counters(device);
    REQUIRE_OK(usm.migrate(on_device.get(), data, 2 * block,
                           CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, nullptr, nullptr));
    REQUIRE_OK(clFinish(on_device.get()));
    CHECK(moved_since(before, device).to_device == 2 * block);
    before = counters(device);
    add_on(on_device.get(), add.get(), usm, data, 0, 2 * words_per_block, 9);
    for (size_t i = 0; i < 2 * words_per_block; ++i)
        model[i] += 9;
    CHECK(moved_since(before, device).to_device == 0);
    check_all();

    REQUIRE_OK(usm.blocking_free(context.get(), data));
}

TEST_CASE_METHOD(CpuAndDiscrete,
                 "an allocation's own counters and resident bytes follow its blocks") {
    constexpr size_t blocks = 8;
    constexpr size_t words = blocks * words_per_block;
    cl_uint* data = shared_words(words);
    cl_uint* other = shared_words(words);
    for (size_t i = 0; i < words; ++i)
        data[i] = other[i] = static_cast<cl_uint>(i);
    CHECK(resident_bytes(usm, context.get(), data) == 0);
    CHECK(alloc_counters(context.get(), data) == Counters{});

    // A kernel over blocks 0 to 2 of data, asked by an interior pointer.
    add_on(on_device.get(), add.get(), usm, data, 0, 3 * words_per_block, 1);
    CHECK(resident_bytes(usm, context.get(), data + 100) == 3 * block);
    Counters c = alloc_counters(context.get(), data + words - 1);
    CHECK(c[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == 3 * block);
    CHECK(c[CL_MIGRATIONS_FROM_HOST_USMCL] == 3);
    CHECK(c[CL_MIGRATED_BYTES_TO_HOST_USMCL] == 0);
    // The other allocation was not touched.
    CHECK(resident_bytes(usm, context.get(), other) == 0);
    CHECK(alloc_counters(context.get(), other) == Counters{});

    // The host reads block 1: it comes back, blocks 0 and 2 stay.
    CHECK(data[words_per_block + 5] == words_per_block + 6);
    CHECK(resident_bytes(usm, context.get(), data) == 2 * block);
    c = alloc_counters(context.get(), data);
    CHECK(c[CL_MIGRATED_BYTES_TO_HOST_USMCL] == block);
    CHECK(c[CL_MIGRATIONS_TO_HOST_USMCL] == 1);
    CHECK(c[CL_MIGRATED_BYTES_FROM_DEVICES_USMCL] == 0);
    CHECK(c[CL_MIGRATED_BYTES_TO_DEVICES_USMCL] == 0);

    // clEnqueueMigrateMemINTEL to the device, the whole allocation.
    cl_event done = nullptr;
    REQUIRE_OK(usm.migrate(on_device.get(), data, words * 4,
                           CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, nullptr, &done));
    REQUIRE_OK(clWaitForEvents(1, &done));
    REQUIRE_OK(clReleaseEvent(done));
    CHECK(resident_bytes(usm, context.get(), data) == blocks * block);
    c = alloc_counters(context.get(), data);
    CHECK(c[CL_MIGRATED_BYTES_FROM_HOST_USMCL] == (3 + 6) * block);
    CHECK(c[CL_MIGRATIONS_FROM_HOST_USMCL] == 9);

    // Everything back to the host by reading it, the values kept.
    for (size_t i = 0; i < words; ++i)
        REQUIRE(data[i] == static_cast<cl_uint>(i + (i < 3 * words_per_block ? 1 : 0)));
    CHECK(resident_bytes(usm, context.get(), data) == 0);
    c = alloc_counters(context.get(), data);
    CHECK(c[CL_MIGRATED_BYTES_TO_HOST_USMCL] == (1 + blocks) * block);
    CHECK(c[CL_MIGRATIONS_TO_HOST_USMCL] == 1 + blocks);

    // A device allocation of the discrete device is all in its memory, a
    // host allocation and the CPU device's allocations never are; none of
    // them moves.
    cl_int error = CL_OUT_OF_RESOURCES;
    void* on_card = usm.device_alloc(context.get(), device, nullptr, 3 * kib, 0, &error);
    REQUIRE_OK(error);
    void* host = usm.host_alloc(context.get(), nullptr, 3 * kib, 0, &error);
    REQUIRE_OK(error);
    void* cpu_shared = usm.shared_alloc(context.get(), cpu, nullptr, 3 * kib, 0, &error);
    REQUIRE_OK(error);
    CHECK(resident_bytes(usm, context.get(), on_card) == 3 * kib);
    CHECK(resident_bytes(usm, context.get(), host) == 0);
    CHECK(resident_bytes(usm, context.get(), cpu_shared) == 0);
    for (void* p : {on_card, host, cpu_shared})
        CHECK(alloc_counters(context.get(), p) == Counters{});

    // Errors: a pointer outside every allocation, no room for the answer,
    // not a context. The residency of an unknown pointer is 0, as its type
    // is CL_MEM_TYPE_UNKNOWN_INTEL.
    auto* function = reinterpret_cast<clGetMemAllocMigrationCountersUSMCL_fn>(
        clGetExtensionFunctionAddressForPlatform(platform(),
                                                 "clGetMemAllocMigrationCountersUSMCL"));
    cl_ulong values[CL_MIGRATION_COUNTERS_USMCL] = {};
    cl_uint count = 0;
    int stack_value = 0;
    CHECK(function(context.get(), &stack_value, CL_MIGRATION_COUNTERS_USMCL, values, &count) ==
          CL_INVALID_VALUE);
    CHECK(function(context.get(), data, 1, nullptr, &count) == CL_INVALID_VALUE);
    CHECK(function(context.get(), data, 0, nullptr, nullptr) == CL_INVALID_VALUE);
    CHECK(function(nullptr, data, CL_MIGRATION_COUNTERS_USMCL, values, &count) ==
          CL_INVALID_CONTEXT);
    REQUIRE_OK(function(context.get(), data, 0, nullptr, &count));
    CHECK(count == CL_MIGRATION_COUNTERS_USMCL);
    CHECK(resident_bytes(usm, context.get(), &stack_value) == 0);
    cl_uint too_small = 0;
    CHECK(usm.alloc_info(context.get(), data, CL_MEM_ALLOC_RESIDENT_BYTES_USMCL, sizeof(too_small),
                         &too_small, nullptr) == CL_INVALID_VALUE);

    for (void* p : {static_cast<void*>(data), static_cast<void*>(other), on_card, host, cpu_shared})
        REQUIRE_OK(usm.blocking_free(context.get(), p));
}

TEST_CASE("a kernel of a discrete-memory device walks a list of shared pointers the host built") {
    const usm_functions usm = usm_test::load_usm(platform());
    const cl_device_id device = discrete_devices()[0];
    const ContextPtr context = make_context({device});
    const QueuePtr queue = make_queue(context.get(), device);
    const ProgramPtr program = build_for(context.get(), {device}, source);
    const KernelPtr walk = make_kernel(program.get(), "walk");

    struct Node {
        Node* next;
        cl_uint value;
        cl_uint pad;
    };
    // Nodes spread over 40 blocks, linked in a scattered order, and a sum
    // in a separate allocation.
    constexpr size_t node_count = 40 * block / sizeof(Node);
    cl_int error = CL_OUT_OF_RESOURCES;
    auto* nodes = static_cast<Node*>(
        usm.shared_alloc(context.get(), device, nullptr, node_count * sizeof(Node), 0, &error));
    REQUIRE_OK(error);
    auto* sum = static_cast<cl_uint*>(
        usm.shared_alloc(context.get(), device, nullptr, sizeof(cl_uint), 0, &error));
    REQUIRE_OK(error);
    // Every 7th node (node_count is not a multiple of 7), in that order.
    std::vector<size_t> order;
    for (size_t k = 0, i = 0; k < node_count; ++k, i = (i + 7) % node_count)
        order.push_back(i);
    for (size_t k = 0; k < node_count; ++k) {
        Node& n = nodes[order[k]];
        n.next = k + 1 < node_count ? &nodes[order[k + 1]] : nullptr;
        n.value = static_cast<cl_uint>(order[k] % 1000);
    }
    cl_uint expected = 0;
    for (size_t i = 0; i < node_count; ++i)
        expected += static_cast<cl_uint>(i % 1000);

    REQUIRE_OK(usm.set_arg_pointer(walk.get(), 0, &nodes[order[0]]));
    REQUIRE_OK(usm.set_arg_pointer(walk.get(), 1, sum));
    // The kernel reaches the nodes through pointers stored in them.
    const cl_bool indirect = CL_TRUE;
    REQUIRE_OK(clSetKernelExecInfo(walk.get(), CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL,
                                   sizeof indirect, &indirect));
    const Counters before = counters(device);
    const size_t one = 1;
    REQUIRE_OK(clEnqueueNDRangeKernel(queue.get(), walk.get(), 1, nullptr, &one, nullptr, 0,
                                      nullptr, nullptr));
    REQUIRE_OK(clFinish(queue.get()));
    // Every block of the list and the sum's block came to the device.
    CHECK(moved_since(before, device).to_device == 40 * block + 4096);
    CHECK(*sum == expected);
    for (size_t i = 0; i < node_count; ++i)
        REQUIRE(nodes[i].value == static_cast<cl_uint>(2 * (i % 1000)));
    CHECK(moved_since(before, device).to_host == 40 * block + 4096);
    REQUIRE_OK(usm.blocking_free(context.get(), nodes));
    REQUIRE_OK(usm.blocking_free(context.get(), sum));
}

TEST_CASE("a shared allocation of one discrete-memory device used by another") {
    const usm_functions usm = usm_test::load_usm(platform());
    const auto devices = discrete_devices();
    const ContextPtr context = make_context(devices);
    const QueuePtr first = make_queue(context.get(), devices[0]);
    const QueuePtr second = make_queue(context.get(), devices[1]);
    const ProgramPtr program = build_for(context.get(), devices, source);
    const KernelPtr add = make_kernel(program.get(), "add");
    constexpr size_t words = 4 * words_per_block;
    cl_int error = CL_OUT_OF_RESOURCES;
    auto* data = static_cast<cl_uint*>(
        usm.shared_alloc(context.get(), devices[0], nullptr, words * 4, 0, &error));
    REQUIRE_OK(error);
    for (size_t i = 0; i < words; ++i)
        data[i] = static_cast<cl_uint>(i);

    Counters before = counters(devices[0]);
    add_on(first.get(), add.get(), usm, data, 0, words, 1);
    CHECK(moved_since(before, devices[0]).to_device == 4 * block);
    // The second device reaches the first one's blocks through the host:
    // they go back there, nothing moves into the second device.
    before = counters(devices[0]);
    const Counters second_before = counters(devices[1]);
    add_on(second.get(), add.get(), usm, data, 0, words, 10);
    CHECK(moved_since(before, devices[0]).to_host == 4 * block);
    CHECK(moved_since(second_before, devices[1]).to_device == 0);
    for (size_t i = 0; i < words; ++i)
        REQUIRE(data[i] == static_cast<cl_uint>(i + 11));
    REQUIRE_OK(usm.blocking_free(context.get(), data));
}

TEST_CASE("blocks stay on the host when a discrete-memory device's memory is full") {
    const usm_functions usm = usm_test::load_usm(platform());
    const cl_device_id device = discrete_devices()[0];
    const ContextPtr context = make_context({device});
    const QueuePtr queue = make_queue(context.get(), device);
    const ProgramPtr program = build_for(context.get(), {device}, source);
    const KernelPtr add = make_kernel(program.get(), "add");
    constexpr size_t words = 8 * words_per_block;
    cl_int error = CL_OUT_OF_RESOURCES;
    auto* data = static_cast<cl_uint*>(
        usm.shared_alloc(context.get(), device, nullptr, words * 4, 0, &error));
    REQUIRE_OK(error);
    for (size_t i = 0; i < words; ++i)
        data[i] = static_cast<cl_uint>(i);

    // Fill the device's memory with device allocations, biggest first.
    std::vector<void*> filler;
    for (size_t size = 16 << 20; size >= 4096; size /= 2)
        for (;;) {
            void* p = usm.device_alloc(context.get(), device, nullptr, size, 0, &error);
            if (!p)
                break;
            filler.push_back(p);
        }
    CHECK(error == CL_OUT_OF_RESOURCES);
    const Counters before = counters(device);
    add_on(queue.get(), add.get(), usm, data, 0, words, 3);
    CHECK(moved_since(before, device).to_device == 0);
    for (size_t i = 0; i < words; ++i)
        REQUIRE(data[i] == static_cast<cl_uint>(i + 3));
    for (void* p : filler)
        REQUIRE_OK(usm.free(context.get(), p));

    // With room again, the next kernel brings them.
    const Counters again = counters(device);
    add_on(queue.get(), add.get(), usm, data, 0, words, 1);
    CHECK(moved_since(again, device).to_device == 8 * block);
    for (size_t i = 0; i < words; ++i)
        REQUIRE(data[i] == static_cast<cl_uint>(i + 4));
    REQUIRE_OK(usm.blocking_free(context.get(), data));
}

TEST_CASE("threads use their shared allocations on the host and two discrete devices at once") {
    const usm_functions usm = usm_test::load_usm(platform());
    const auto discrete = discrete_devices();
    const std::vector<cl_device_id> devices{cpu_device(), discrete[0], discrete[1]};
    const ContextPtr context = make_context(devices);
    const ProgramPtr program = build_for(context.get(), devices, source);

    // Each thread owns one allocation of the first discrete device (16
    // blocks and 3 pages) and, in turns, adds on the host, or runs a kernel
    // adding to a random range on one of the three devices, then checks
    // every word against its model. The threads' kernels and host accesses
    // overlap in time: one thread's kernels put the first device's shared
    // allocations in their device phase while the others use theirs.
    constexpr int thread_count = 4;
    constexpr int rounds = 40;
    constexpr size_t words = 16 * words_per_block + 3 * 1024;
    std::vector<std::string> failures(thread_count);
    auto run = [&](int index) {
        std::string& failure = failures[index];
        cl_int error = CL_OUT_OF_RESOURCES;
        auto* data = static_cast<cl_uint*>(
            usm.shared_alloc(context.get(), discrete[0], nullptr, words * 4, 0, &error));
        if (!data) {
            failure = "clSharedMemAllocINTEL: " + std::to_string(error);
            return;
        }
        std::vector<cl_command_queue> queues;
        for (cl_device_id device : devices)
            queues.push_back(
                clCreateCommandQueueWithProperties(context.get(), device, nullptr, &error));
        cl_kernel kernel = clCreateKernel(program.get(), "add", &error);
        std::vector<cl_uint> model(words);
        for (size_t i = 0; i < words; ++i)
            data[i] = model[i] = static_cast<cl_uint>(i + index);
        std::uint64_t state = 0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(index + 1);
        auto next = [&](std::uint64_t bound) {
            state = state * 6364136223846793005ull + 1442695040888963407ull;
            return (state >> 33) % bound;
        };
        for (int round = 0; round < rounds && failure.empty(); ++round) {
            const size_t first = next(words);
            const size_t count = 1 + next(words - first);
            const auto value = static_cast<cl_uint>(1 + next(100));
            const std::uint64_t where = next(4);
            if (where == 3) {
                for (size_t i = first; i < first + count; ++i)
                    data[i] += value;
            } else {
                cl_int status = usm.set_arg_pointer(kernel, 0, data + first);
                status |= clSetKernelArg(kernel, 1, sizeof value, &value);
                status |= clEnqueueNDRangeKernel(queues[where], kernel, 1, nullptr, &count, nullptr,
                                                 0, nullptr, nullptr);
                status |= clFinish(queues[where]);
                if (status != CL_SUCCESS)
                    failure = "kernel on device " + std::to_string(where) + " failed";
            }
            for (size_t i = first; i < first + count; ++i)
                model[i] += value;
            for (size_t i = 0; i < words && failure.empty(); ++i)
                if (data[i] != model[i])
                    failure = "round " + std::to_string(round) + ", word " + std::to_string(i) +
                              ": " + std::to_string(data[i]) + ", expected " +
                              std::to_string(model[i]);
        }
        clReleaseKernel(kernel);
        for (cl_command_queue queue : queues)
            clReleaseCommandQueue(queue);
        if (usm.blocking_free(context.get(), data) != CL_SUCCESS)
            failure += " (and the free failed)";
    };
    const Counters before = counters(discrete[0]);
    std::vector<std::thread> threads;
    for (int i = 0; i < thread_count; ++i)
        threads.emplace_back(run, i);
    for (std::thread& thread : threads)
        thread.join();
    for (int i = 0; i < thread_count; ++i) {
        INFO("thread " << i);
        CHECK(failures[i].empty());
        if (!failures[i].empty())
            WARN(failures[i]);
    }
    // Kernels of the first discrete device brought blocks there. Not all
    // need come back: while one thread's kernel runs on that device,
    // another thread's host reads reach its blocks where they are (the
    // protection is the process's, not a thread's).
    const Moved moved = moved_since(before, discrete[0]);
    CHECK(moved.to_device > 0);
    CHECK(moved.to_host <= moved.to_device);
}
