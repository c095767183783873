// usm_bench's children: each runs in a process of its own, with
// OCL_ICD_VENDORS naming one ICD, and prints lines for the parent
// (usm_bench.cpp) to parse. Wrong data and failing OpenCL calls end the
// child with a non-zero status.
#include "usm_bench.hpp"

#include "cl_check.hpp"
#include "memory/device_pool.hpp"
#include "memory/usm_registry.hpp"

#include <CL/cl.h>
#include <CL/cl_ext.h>
#include <CL/usm_functions.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <time.h>
#include <unistd.h>

namespace usm_bench {
namespace {

using usmcl::memory::DevicePool;
using usmcl::memory::UsmKind;
using usmcl::memory::UsmRegistry;

// Page-aligned host memory, touched so that no page fault is timed.
struct HostMemory {
    explicit HostMemory(size_t size) : size(size) {
        bytes = static_cast<std::byte*>(std::aligned_alloc(4096, (size + 4095) / 4096 * 4096));
        if (!bytes)
            fail("aligned_alloc");
        std::memset(bytes, 0x11, size);
    }
    ~HostMemory() { std::free(bytes); }
    HostMemory(const HostMemory&) = delete;
    HostMemory& operator=(const HostMemory&) = delete;
    std::byte* bytes;
    size_t size;
};

// The functions of cl_intel_unified_shared_memory (CL/usm_functions.h),
// when the device has the extension.
struct Usm : usm_functions {
    bool available = false;
};

struct Setup {
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    Usm usm;
    std::string name;

    Setup(const Setup&) = delete;
    Setup& operator=(const Setup&) = delete;

    // The loader's only platform, its first device, a context and an
    // in-order queue. need_usm: exits when the device lacks the extension.
    explicit Setup(bool need_usm) {
        cl_uint count = 0;
        CL_CHECK(clGetPlatformIDs(0, nullptr, &count));
        if (count != 1) {
            std::fprintf(stderr, "usm_bench: expected one platform, the loader found %u\n", count);
            std::exit(2);
        }
        CL_CHECK(clGetPlatformIDs(1, &platform, nullptr));
        char text[256] = {};
        CL_CHECK(clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof text - 1, text, nullptr));
        name = text;
        CL_CHECK(clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr));
        size_t length = 0;
        CL_CHECK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, 0, nullptr, &length));
        std::string extensions(length, '\0');
        CL_CHECK(clGetDeviceInfo(device, CL_DEVICE_EXTENSIONS, length, extensions.data(), nullptr));
        usm.available = extensions.find("cl_intel_unified_shared_memory") != std::string::npos;
        if (need_usm && !usm.available) {
            std::fprintf(stderr, "usm_bench: %s has no cl_intel_unified_shared_memory\n",
                         name.c_str());
            std::exit(2);
        }
        if (usm.available) {
            if (const char* missing = load_usm_functions(platform, &usm)) {
                std::fprintf(stderr, "usm_bench: the platform advertises USM but has no %s\n",
                             missing);
                std::exit(2);
            }
        }
        cl_int status = CL_SUCCESS;
        context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
        CL_CHECK(status);
        queue = clCreateCommandQueueWithProperties(context, device, nullptr, &status);
        CL_CHECK(status);
        std::printf("platform %s\n", name.c_str());
        std::printf("usm %d\n", usm.available ? 1 : 0);
    }

    ~Setup() {
        clReleaseCommandQueue(queue);
        clReleaseContext(context);
    }

    // One USM allocation of kind (alignment 0: the default); exits on failure.
    void* allocate(UsmKind kind, size_t size) const {
        cl_int status = CL_SUCCESS;
        void* pointer = nullptr;
        switch (kind) {
        case UsmKind::host: pointer = usm.host_alloc(context, nullptr, size, 0, &status); break;
        case UsmKind::device:
            pointer = usm.device_alloc(context, device, nullptr, size, 0, &status);
            break;
        case UsmKind::shared:
            pointer = usm.shared_alloc(context, device, nullptr, size, 0, &status);
            break;
        case UsmKind::svm:
            pointer = clSVMAlloc(context, CL_MEM_READ_WRITE, size, 0);
            status = pointer ? CL_SUCCESS : CL_OUT_OF_RESOURCES;
            break;
        }
        if (status != CL_SUCCESS)
            bench::exit_with_cl_error("USM allocation", status);
        if (!pointer)
            fail("USM allocation returned NULL with CL_SUCCESS");
        return pointer;
    }

    void free(void* pointer) const { CL_CHECK(usm.free(context, pointer)); }

    // Blocking: [pointer, pointer + size) filled with the pattern.
    void fill(void* pointer, const void* pattern, size_t pattern_size, size_t size) const {
        CL_CHECK(usm.fill(queue, pointer, pattern, pattern_size, size, 0, nullptr, nullptr));
        CL_CHECK(clFinish(queue));
    }

    void copy(void* destination, const void* source, size_t size) const {
        CL_CHECK(usm.memcpy(queue, CL_TRUE, destination, source, size, 0, nullptr, nullptr));
    }
};

const char* kind_name(UsmKind kind) {
    switch (kind) {
    case UsmKind::host: return "host";
    case UsmKind::device: return "device";
    case UsmKind::shared: return "shared";
    case UsmKind::svm: return "svm";
    }
    return "?";
}

constexpr UsmKind all_kinds[] = {UsmKind::host, UsmKind::device, UsmKind::shared};

usmcl::memory::UsmAllocation record(std::byte* base, size_t size, UsmKind kind) {
    usmcl::memory::UsmAllocation allocation;
    allocation.base = base;
    allocation.size = size;
    allocation.kind = kind;
    return allocation;
}

// Defeats the compiler's removal of malloc/free pairs whose memory is unused.
void* (*volatile malloc_function)(size_t) = std::malloc;
void (*volatile free_function)(void*) = std::free;
const void* volatile sink = nullptr;

// Resident bytes of this process (/proc/self/statm).
long long resident_bytes() {
    std::FILE* file = std::fopen("/proc/self/statm", "r");
    if (!file)
        fail("open /proc/self/statm");
    long long size = 0, resident = 0;
    const int fields = std::fscanf(file, "%lld %lld", &size, &resident);
    std::fclose(file);
    if (fields != 2)
        fail("read /proc/self/statm");
    return resident * static_cast<long long>(sysconf(_SC_PAGESIZE));
}

double thread_seconds() {
    timespec now{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
    return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

size_t machine_memory() {
    return static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) *
           static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

} // namespace

// ---- part 1: allocation + free latency ---------------------------------------

// Per size: malloc+free, clCreateBuffer+clReleaseMemObject and, when the
// device has USM, each kind's allocation + clMemFreeINTEL. malloc+free is
// the reference timed in alternation with each; its best counts.
int child_alloc() {
    const Setup setup(false);
    for (const size_t size : alloc_sizes) {
        double malloc_best = 1e30, reference = 0;
        auto native = [size] {
            void* pointer = malloc_function(size);
            if (!pointer)
                fail("malloc");
            free_function(pointer);
        };
        const double buffer = time_per_op(
            [&] {
                cl_int status = CL_SUCCESS;
                cl_mem mem =
                    clCreateBuffer(setup.context, CL_MEM_READ_WRITE, size, nullptr, &status);
                CL_CHECK(status);
                CL_CHECK(clReleaseMemObject(mem));
            },
            native, &reference);
        malloc_best = std::min(malloc_best, reference);
        std::printf("alloc buffer %zu %.9e\n", size, buffer);
        if (setup.usm.available) {
            for (const UsmKind kind : all_kinds) {
                const double usm = time_per_op(
                    [&] {
                        void* pointer = setup.allocate(kind, size);
                        setup.free(pointer);
                    },
                    native, &reference);
                malloc_best = std::min(malloc_best, reference);
                std::printf("alloc %s %zu %.9e\n", kind_name(kind), size, usm);
            }
        }
        std::printf("alloc malloc %zu %.9e\n", size, malloc_best);
        std::fflush(stdout);
    }
    return 0;
}

// ---- part 2: clGetMemAllocInfoINTEL lookups ----------------------------------

// Per count: that many live allocations (kinds in turn, 64 B … 4 KiB), and
// random interior pointers, precomputed. Each lookup asks for
// CL_MEM_ALLOC_BASE_PTR_INTEL; every pointer's answer is checked once before
// the timing. The same lookups straight on a memory::UsmRegistry holding the
// same ranges give the registry's own share.
int child_lookup(unsigned long long seed) {
    const Setup setup(true);
    std::mt19937_64 rng(seed);
    constexpr size_t pointer_count = size_t(1) << 17;
    for (const size_t count : lookup_counts) {
        struct Live {
            std::byte* base;
            size_t size;
            UsmKind kind;
        };
        std::vector<Live> live;
        live.reserve(count);
        for (size_t i = 0; i < count; ++i) {
            const UsmKind kind = all_kinds[i % 3];
            const size_t size = size_t(64) << (rng() % 7);
            live.push_back({static_cast<std::byte*>(setup.allocate(kind, size)), size, kind});
        }
        std::vector<const void*> pointers(pointer_count), bases(pointer_count);
        for (size_t i = 0; i < pointer_count; ++i) {
            const Live& allocation = live[rng() % count];
            pointers[i] = allocation.base + rng() % allocation.size;
            bases[i] = allocation.base;
        }
        for (size_t i = 0; i < pointer_count; ++i) {
            void* base = nullptr;
            size_t returned = 0;
            CL_CHECK(setup.usm.alloc_info(setup.context, pointers[i], CL_MEM_ALLOC_BASE_PTR_INTEL,
                                          sizeof base, &base, &returned));
            if (base != bases[i] || returned != sizeof base)
                fail("clGetMemAllocInfoINTEL(CL_MEM_ALLOC_BASE_PTR_INTEL) gave a wrong base");
        }
        size_t next = 0;
        const double api = time_per_op([&] {
            void* base = nullptr;
            CL_CHECK(setup.usm.alloc_info(setup.context, pointers[next],
                                          CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof base, &base,
                                          nullptr));
            sink = base;
            next = (next + 1) & (pointer_count - 1);
        });

        UsmRegistry registry;
        for (const Live& allocation : live)
            registry.insert(record(allocation.base, allocation.size, allocation.kind));
        for (size_t i = 0; i < pointer_count; ++i) {
            const auto found = registry.find(pointers[i]);
            if (!found || found->base != bases[i])
                fail("memory::UsmRegistry::find gave a wrong base");
        }
        next = 0;
        const double direct = time_per_op([&] {
            sink = registry.find(pointers[next])->base;
            next = (next + 1) & (pointer_count - 1);
        });
        std::printf("lookup %zu %.9e %.9e\n", count, api, direct);
        std::fflush(stdout);
        for (const Live& allocation : live)
            setup.free(allocation.base);
    }
    return 0;
}

// The registry alone, without an ICD: the lookups of child_lookup on a
// memory::UsmRegistry whose ranges come from aligned_alloc (host and shared,
// as the driver's domains allocate them) and from a memory::DevicePool
// (device). Prints "registry <count> <seconds per find> <CPU seconds per
// find>".
int child_registry(unsigned long long seed) {
    std::mt19937_64 rng(seed);
    constexpr size_t pointer_count = size_t(1) << 17;
    DevicePool pool(size_t(4) << 30, usmcl::memory::Domain::Binder{});
    for (const size_t count : lookup_counts) {
        struct Live {
            std::byte* base;
            size_t size;
            UsmKind kind;
        };
        std::vector<Live> live;
        live.reserve(count);
        UsmRegistry registry;
        for (size_t i = 0; i < count; ++i) {
            const UsmKind kind = all_kinds[i % 3];
            const size_t size = size_t(64) << (rng() % 7);
            auto* base = kind == UsmKind::device
                             ? pool.allocate(size, 128)
                             : static_cast<std::byte*>(std::aligned_alloc(128, size));
            if (!base)
                fail("allocation for the registry lookups");
            live.push_back({base, size, kind});
            registry.insert(record(base, size, kind));
        }
        std::vector<const void*> pointers(pointer_count);
        for (size_t i = 0; i < pointer_count; ++i) {
            const Live& allocation = live[rng() % count];
            pointers[i] = allocation.base + rng() % allocation.size;
            const auto found = registry.find(pointers[i]);
            if (!found || found->base != allocation.base)
                fail("memory::UsmRegistry::find gave a wrong base");
        }
        size_t next = 0;
        const double direct = time_per_op([&] {
            sink = registry.find(pointers[next])->base;
            next = (next + 1) & (pointer_count - 1);
        });
        // The same in this thread's CPU time, which time taken by other
        // processes on a loaded machine does not inflate: the best of 7
        // passes over all the pointers.
        double cpu = 1e30;
        for (int pass = 0; pass < 7; ++pass) {
            const double start = thread_seconds();
            for (const void* pointer : pointers)
                sink = registry.find(pointer)->base;
            cpu = std::min(cpu, (thread_seconds() - start) / pointer_count);
        }
        std::printf("registry %zu %.9e %.9e\n", count, direct, cpu);
        std::fflush(stdout);
        for (const Live& allocation : live) {
            if (allocation.kind == UsmKind::device) {
                if (!pool.free(allocation.base, allocation.size))
                    fail("DevicePool::free");
            } else {
                std::free(allocation.base);
            }
        }
    }
    return 0;
}

// ---- part 3: fill and copy bandwidth -----------------------------------------

// For sizes 4 KiB … max_size (×4): clEnqueueMemFillINTEL + clFinish and
// blocking clEnqueueMemcpyINTEL on pre-faulted device and shared allocations
// of max_size bytes, each timed in alternation with memset (fills) or memcpy
// (copies) of the same size on pre-faulted host memory. Each operation's
// result is checked once per size, outside the timing: a fresh pattern or
// the copy's source, and the 64 bytes after the range left alone.
int child_bandwidth(size_t max_size, unsigned long long seed) {
    const Setup setup(true);
    constexpr size_t guard = 64;
    std::mt19937_64 rng(seed);
    HostMemory source(max_size), destination(max_size), check(max_size);
    for (size_t i = 0; i + 8 <= max_size; i += 8) {
        const std::uint64_t word = rng();
        std::memcpy(source.bytes + i, &word, 8);
    }
    auto* device_a = static_cast<std::byte*>(setup.allocate(UsmKind::device, max_size));
    auto* device_b = static_cast<std::byte*>(setup.allocate(UsmKind::device, max_size));
    auto* shared_a = static_cast<std::byte*>(setup.allocate(UsmKind::shared, max_size));
    auto* shared_b = static_cast<std::byte*>(setup.allocate(UsmKind::shared, max_size));
    // Every page faulted in: the destinations filled whole, the sources
    // copied whole from the random host data.
    const unsigned char zero = 0;
    setup.fill(device_b, &zero, 1, max_size);
    setup.fill(shared_b, &zero, 1, max_size);
    setup.copy(device_a, source.bytes, max_size);
    setup.copy(shared_a, source.bytes, max_size);

    struct Operation {
        const char* name;
        bool fill;
        std::byte* destination;
        const std::byte* source; // copies
        size_t pattern_size;     // fills
        bool shared;             // the destination is readable by the host
    };
    const Operation operations[] = {
        {"fill-device-1", true, device_b, nullptr, 1, false},
        {"fill-device-4", true, device_b, nullptr, 4, false},
        {"fill-device-16", true, device_b, nullptr, 16, false},
        {"fill-device-128", true, device_b, nullptr, 128, false},
        {"fill-shared-1", true, shared_b, nullptr, 1, true},
        {"copy-device-device", false, device_b, device_a, 0, false},
        {"copy-shared-shared", false, shared_b, shared_a, 0, true},
        {"copy-host-device", false, device_b, source.bytes, 0, false},
    };
    unsigned char timed_pattern[128];
    for (size_t i = 0; i < sizeof timed_pattern; ++i)
        timed_pattern[i] = static_cast<unsigned char>(0xA0 + i);

    // The cost of a command that moves nothing (size 0 is a command that
    // does nothing): fill + clFinish, blocking copy.
    const double empty_fill = time_per_op([&] {
        CL_CHECK(setup.usm.fill(setup.queue, device_b, timed_pattern, 1, 0, 0, nullptr, nullptr));
        CL_CHECK(clFinish(setup.queue));
    });
    const double empty_copy = time_per_op([&] {
        CL_CHECK(
            setup.usm.memcpy(setup.queue, CL_TRUE, device_b, device_a, 0, 0, nullptr, nullptr));
    });
    std::printf("bw-empty %.9e %.9e\n", empty_fill, empty_copy);

    for (size_t size = 4 * KiB; size <= max_size; size *= 4) {
        auto memset_native = [&] { std::memset(destination.bytes, 0xA0, size); };
        auto memcpy_native = [&] { std::memcpy(destination.bytes, source.bytes, size); };
        for (const Operation& operation : operations) {
            double native = 0, timed = 0;
            if (operation.fill)
                timed = time_per_op(
                    [&] {
                        CL_CHECK(setup.usm.fill(setup.queue, operation.destination, timed_pattern,
                                                operation.pattern_size, size, 0, nullptr, nullptr));
                        CL_CHECK(clFinish(setup.queue));
                    },
                    memset_native, &native, bandwidth_batches);
            else
                timed = time_per_op(
                    [&] {
                        CL_CHECK(setup.usm.memcpy(setup.queue, CL_TRUE, operation.destination,
                                                  operation.source, size, 0, nullptr, nullptr));
                    },
                    memcpy_native, &native, bandwidth_batches);

            // The check: the range and the guard after it (when inside the
            // allocation) set to a known state, the operation, the result read.
            const size_t guarded = std::min(size + guard, max_size);
            const unsigned char guard_byte = 0xEE;
            setup.fill(operation.destination, &guard_byte, 1, guarded);
            unsigned char pattern[128];
            for (size_t i = 0; i < sizeof pattern; ++i)
                pattern[i] = static_cast<unsigned char>(rng() % 0xE0);
            if (operation.fill)
                setup.fill(operation.destination, pattern, operation.pattern_size, size);
            else
                setup.copy(operation.destination, operation.source, size);
            const std::byte* result = operation.destination;
            if (!operation.shared) {
                setup.copy(check.bytes, operation.destination, guarded);
                result = check.bytes;
            }
            bool right = true;
            for (size_t i = 0; i < size && right; ++i) {
                const std::byte expected = operation.fill
                                               ? std::byte(pattern[i % operation.pattern_size])
                                               : source.bytes[i];
                right = result[i] == expected;
            }
            for (size_t i = size; i < guarded && right; ++i)
                right = result[i] == std::byte(guard_byte);
            if (!right) {
                std::fprintf(stderr, "usm_bench: %s of %zu bytes: wrong data\n", operation.name,
                             size);
                fail("data check");
            }
            std::printf("bw %s %zu %.9e %.9e\n", operation.name, size, native, timed);
            std::fflush(stdout);
        }
    }
    for (std::byte* pointer : {device_a, device_b, shared_a, shared_b})
        setup.free(pointer);
    return 0;
}

// ---- part 4: bookkeeping and resident memory ---------------------------------

// A. A DevicePool as large as the machine's memory: resident growth on
//    creation, after touching touch_total bytes in touch_chunk allocations,
//    after freeing them, after destroying the pool.
// B. bookkeeping_count allocations of 64 B from a DevicePool, their ranges
//    inserted into a UsmRegistry: each structure's bookkeeping per allocation.
//    Also: the same ranges inserted in random order, and a pool holding
//    bookkeeping_count live allocations of mixed sizes after as many frees.
// C. The same as A through the ICD: device allocations of one context.
int child_memory(unsigned long long seed) {
    const size_t physical = machine_memory();
    std::printf("mem machine %zu\n", physical);
    {
        const long long before = resident_bytes();
        auto pool = std::make_unique<DevicePool>(physical, usmcl::memory::Domain::Binder{});
        const long long created = resident_bytes();
        std::vector<std::byte*> chunks;
        for (size_t done = 0; done < touch_total; done += touch_chunk) {
            std::byte* chunk = pool->allocate(touch_chunk, 128);
            if (!chunk)
                fail("DevicePool::allocate of a 16 MiB chunk");
            std::memset(chunk, 0x5A, touch_chunk);
            chunks.push_back(chunk);
        }
        const long long touched = resident_bytes();
        for (std::byte* chunk : chunks)
            if (!pool->free(chunk, touch_chunk))
                fail("DevicePool::free");
        const long long freed = resident_bytes();
        const size_t reserved = pool->usage().reserved;
        pool.reset();
        const long long destroyed = resident_bytes();
        std::printf("mem pool_reserved %zu\n", reserved);
        std::printf("mem pool_rss_create %lld\n", created - before);
        std::printf("mem pool_rss_touched %lld\n", touched - before);
        std::printf("mem pool_rss_freed %lld\n", freed - before);
        std::printf("mem pool_rss_destroyed %lld\n", destroyed - before);
        std::fflush(stdout);
    }
    {
        const size_t n = bookkeeping_count;
        DevicePool pool(physical, usmcl::memory::Domain::Binder{});
        const size_t pool_empty = pool.usage().bookkeeping;
        std::vector<std::byte*> addresses;
        addresses.reserve(n);
        for (size_t i = 0; i < n; ++i) {
            std::byte* address = pool.allocate(64, 128);
            if (!address)
                fail("DevicePool::allocate of 64 bytes");
            addresses.push_back(address);
        }
        const DevicePool::Usage usage = pool.usage();
        UsmRegistry registry;
        const size_t registry_empty = registry.bookkeeping_bytes();
        for (std::byte* address : addresses)
            registry.insert(record(address, 64, UsmKind::device));
        if (registry.size() != n)
            fail("UsmRegistry::size after the inserts");
        std::printf("mem count %zu\n", n);
        std::printf("mem pool_bookkeeping_empty %zu\n", pool_empty);
        std::printf("mem pool_bookkeeping %zu\n", usage.bookkeeping);
        std::printf("mem pool_free_ranges %zu\n", usage.free_ranges);
        std::printf("mem registry_bookkeeping_empty %zu\n", registry_empty);
        std::printf("mem registry_bookkeeping %zu\n", registry.bookkeeping_bytes());

        std::mt19937_64 rng(seed);
        std::vector<std::byte*> shuffled = addresses;
        std::shuffle(shuffled.begin(), shuffled.end(), rng);
        UsmRegistry random_order;
        for (std::byte* address : shuffled)
            random_order.insert(record(address, 64, UsmKind::device));
        std::printf("mem registry_bookkeeping_random %zu\n", random_order.bookkeeping_bytes());

        DevicePool mixed(physical, usmcl::memory::Domain::Binder{});
        std::vector<std::pair<std::byte*, size_t>> all;
        all.reserve(2 * n);
        for (size_t i = 0; i < 2 * n; ++i) {
            const size_t size = size_t(64) << (rng() % 11);
            std::byte* address = mixed.allocate(size, 128);
            if (!address)
                fail("DevicePool::allocate of mixed sizes");
            all.emplace_back(address, size);
        }
        std::shuffle(all.begin(), all.end(), rng);
        for (size_t i = 0; i < n; ++i)
            if (!mixed.free(all[i].first, all[i].second))
                fail("DevicePool::free of mixed sizes");
        const DevicePool::Usage mixed_usage = mixed.usage();
        std::printf("mem mixed_bookkeeping %zu\n", mixed_usage.bookkeeping);
        std::printf("mem mixed_free_ranges %zu\n", mixed_usage.free_ranges);
        std::fflush(stdout);
        for (std::byte* address : addresses)
            if (!pool.free(address, 64))
                fail("DevicePool::free of 64 bytes");
    }
    {
        const Setup setup(true);
        const long long before = resident_bytes();
        // The first device allocation creates the device's pool.
        setup.free(setup.allocate(UsmKind::device, 64));
        const long long created = resident_bytes();
        std::vector<void*> chunks;
        const unsigned char pattern = 0x5A;
        for (size_t done = 0; done < touch_total; done += touch_chunk) {
            void* chunk = setup.allocate(UsmKind::device, touch_chunk);
            setup.fill(chunk, &pattern, 1, touch_chunk);
            chunks.push_back(chunk);
        }
        const long long touched = resident_bytes();
        for (void* chunk : chunks)
            setup.free(chunk);
        const long long freed = resident_bytes();
        std::printf("mem api_rss_create %lld\n", created - before);
        std::printf("mem api_rss_touched %lld\n", touched - before);
        std::printf("mem api_rss_freed %lld\n", freed - before);
        std::fflush(stdout);
    }
    return 0;
}

} // namespace usm_bench
