// OpenCL 2.0 shared virtual memory through the ICD loader: clSVMAlloc's
// checks, kernels on SVM buffers (direct, through pointers stored in SVM
// memory, and on plain host memory), the SVM commands and their types,
// clEnqueueSVMFree with and without a callback, buffers over SVM pointers,
// where SVM meets USM (one registry), and chipStar's call sequence with its
// SVM allocation strategy (CHIP_OCL_USE_ALLOC_STRATEGY=svm).
#include "usm_test.hpp"

#include <atomic>
#include <cstring>
#include <numeric>
#include <vector>

using namespace usm_test;

namespace {

const char* const svm_source = R"CLC(
__kernel void scale(__global int* data, int factor) {
    size_t i = get_global_id(0);
    data[i] *= factor;
}
// Follows pointers stored in SVM memory (CL_KERNEL_EXEC_INFO_SVM_PTRS).
__kernel void gather(__global const ulong* sources, __global int* out) {
    size_t i = get_global_id(0);
    out[i] = ((__global const int*)sources[0])[i] + ((__global const int*)sources[1])[i];
}
)CLC";

constexpr cl_device_svm_capabilities all_svm =
    CL_DEVICE_SVM_COARSE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_BUFFER |
    CL_DEVICE_SVM_FINE_GRAIN_SYSTEM | CL_DEVICE_SVM_ATOMICS;

cl_command_type command_type(cl_event event) {
    cl_command_type type = 0;
    REQUIRE_OK(clGetEventInfo(event, CL_EVENT_COMMAND_TYPE, sizeof type, &type, nullptr));
    return type;
}

struct FreeRecord {
    std::atomic<int> calls{0};
    cl_command_queue queue = nullptr;
    std::vector<void*> pointers;
};

void CL_CALLBACK record_free(cl_command_queue queue, cl_uint count, void* pointers[],
                             void* user_data) {
    auto* record = static_cast<FreeRecord*>(user_data);
    record->queue = queue;
    record->pointers.assign(pointers, pointers + count);
    // As the CTS's callback does: the API from the callback, then the frees.
    cl_context context = nullptr;
    if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, nullptr) ==
        CL_SUCCESS)
        for (cl_uint i = 0; i < count; ++i)
            clSVMFree(context, pointers[i]);
    record->calls.fetch_add(1);
}

} // namespace

TEST_CASE("the device reports every kind of SVM", "[svm]") {
    const cl_device_id device = cl_test::device();
    CHECK(cl_test::device_info<cl_device_svm_capabilities>(device, CL_DEVICE_SVM_CAPABILITIES) ==
          all_svm);
}

TEST_CASE("clSVMAlloc returns NULL for what the spec forbids", "[svm]") {
    Fixture f;
    const size_t max_alloc = cl_test::device_info<cl_ulong>(f.device, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
    CHECK(clSVMAlloc(nullptr, CL_MEM_READ_WRITE, 64, 0) == nullptr);
    CHECK(clSVMAlloc(f.ctx(), CL_MEM_READ_WRITE, 0, 0) == nullptr);
    CHECK(clSVMAlloc(f.ctx(), CL_MEM_READ_WRITE, max_alloc + 1, 0) == nullptr);
    CHECK(clSVMAlloc(f.ctx(), CL_MEM_READ_WRITE | CL_MEM_READ_ONLY, 64, 0) == nullptr);
    CHECK(clSVMAlloc(f.ctx(), CL_MEM_SVM_ATOMICS, 64, 0) == nullptr);
    CHECK(clSVMAlloc(f.ctx(), CL_MEM_USE_HOST_PTR, 64, 0) == nullptr);
    CHECK(clSVMAlloc(f.ctx(), CL_MEM_READ_WRITE, 64, 3) == nullptr);
    CHECK(clSVMAlloc(f.ctx(), CL_MEM_READ_WRITE, 64, 256) == nullptr);
    // Flags 0 are CL_MEM_READ_WRITE; alignment 0 is the largest type's (128).
    for (cl_svm_mem_flags flags :
         {cl_svm_mem_flags{0}, cl_svm_mem_flags{CL_MEM_READ_ONLY},
          cl_svm_mem_flags{CL_MEM_WRITE_ONLY | CL_MEM_SVM_FINE_GRAIN_BUFFER},
          cl_svm_mem_flags{CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER |
                           CL_MEM_SVM_ATOMICS}}) {
        void* p = clSVMAlloc(f.ctx(), flags, 100, 0);
        REQUIRE(p != nullptr);
        CHECK(reinterpret_cast<uintptr_t>(p) % 128 == 0);
        clSVMFree(f.ctx(), p);
    }
    // NULL and unknown pointers are no-ops.
    clSVMFree(f.ctx(), nullptr);
    int local = 0;
    clSVMFree(f.ctx(), &local);
}

TEST_CASE("kernels on SVM buffers, on pointers stored in them and on host memory", "[svm]") {
    Fixture f;
    ProgramPtr program = cl_test::build_program(f.ctx(), f.device, svm_source);
    constexpr int n = 1000;
    auto* a = static_cast<int*>(clSVMAlloc(f.ctx(), CL_MEM_READ_WRITE, n * sizeof(int), 0));
    auto* b = static_cast<int*>(
        clSVMAlloc(f.ctx(), CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER, n * sizeof(int), 0));
    auto* table = static_cast<int**>(clSVMAlloc(f.ctx(), CL_MEM_READ_ONLY, 2 * sizeof(int*), 0));
    REQUIRE((a && b && table));
    // Coarse grain: the host writes between a map and an unmap.
    REQUIRE_OK(
        clEnqueueSVMMap(f.q(), CL_TRUE, CL_MAP_WRITE, a, n * sizeof(int), 0, nullptr, nullptr));
    for (int i = 0; i < n; ++i) {
        a[i] = i;
        b[i] = 3 * i;
    }
    table[0] = a;
    table[1] = b;
    REQUIRE_OK(clEnqueueSVMUnmap(f.q(), a, 0, nullptr, nullptr));

    KernelPtr scale = cl_test::make_kernel(program.get(), "scale");
    const int factor = -2;
    REQUIRE_OK(clSetKernelArgSVMPointer(scale.get(), 0, a));
    REQUIRE_OK(clSetKernelArg(scale.get(), 1, sizeof factor, &factor));
    const size_t global = n;
    REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), scale.get(), 1, nullptr, &global, nullptr, 0, nullptr,
                                      nullptr));

    KernelPtr gather = cl_test::make_kernel(program.get(), "gather");
    std::vector<int> out(n, 0);
    void* indirect[] = {a, b};
    REQUIRE_OK(
        clSetKernelExecInfo(gather.get(), CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof indirect, indirect));
    const cl_bool system = CL_TRUE;
    REQUIRE_OK(clSetKernelExecInfo(gather.get(), CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM,
                                   sizeof system, &system));
    REQUIRE_OK(clSetKernelArgSVMPointer(gather.get(), 0, table));
    // Fine-grain system SVM: a plain host vector is a valid argument.
    REQUIRE_OK(clSetKernelArgSVMPointer(gather.get(), 1, out.data()));
    REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), gather.get(), 1, nullptr, &global, nullptr, 0, nullptr,
                                      nullptr));
    REQUIRE_OK(clFinish(f.q()));
    size_t wrong = 0;
    for (int i = 0; i < n; ++i)
        wrong += out[i] != -2 * i + 3 * i;
    CHECK(wrong == 0);

    // Argument errors: a non-pointer argument, an index out of range.
    CHECK_CL(clSetKernelArgSVMPointer(scale.get(), 1, a), CL_INVALID_ARG_VALUE);
    CHECK_CL(clSetKernelArgSVMPointer(scale.get(), 2, a), CL_INVALID_ARG_INDEX);
    CHECK_CL(clSetKernelArgSVMPointer(nullptr, 0, a), CL_INVALID_KERNEL);
    CHECK_CL(clSetKernelExecInfo(gather.get(), CL_KERNEL_EXEC_INFO_SVM_PTRS, 3, indirect),
             CL_INVALID_VALUE);
    CHECK_CL(
        clSetKernelExecInfo(gather.get(), CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof indirect, nullptr),
        CL_INVALID_VALUE);
    CHECK_CL(
        clSetKernelExecInfo(gather.get(), CL_KERNEL_EXEC_INFO_SVM_FINE_GRAIN_SYSTEM, 1, &system),
        CL_INVALID_VALUE);
    clSVMFree(f.ctx(), a);
    clSVMFree(f.ctx(), b);
    clSVMFree(f.ctx(), table);
}

TEST_CASE("SVM commands: fill, copy, map, unmap, migrate, free and their types", "[svm]") {
    Fixture f;
    constexpr size_t bytes = 4096;
    auto* p = static_cast<unsigned char*>(clSVMAlloc(f.ctx(), CL_MEM_READ_WRITE, bytes, 16));
    auto* q = static_cast<unsigned char*>(clSVMAlloc(f.ctx(), CL_MEM_READ_WRITE, bytes, 16));
    REQUIRE((p && q));
    EventPtr gate = cl_test::make_user_event(f.ctx());
    cl_event gate_event = gate.get();

    // Every pattern size up to 128 bytes, behind a user event.
    unsigned char pattern[128];
    std::iota(pattern, pattern + 128, static_cast<unsigned char>(1));
    std::vector<EventPtr> events;
    cl_event e = nullptr;
    for (size_t size = 1; size <= 128; size *= 2) {
        REQUIRE_OK(clEnqueueSVMMemFill(f.q(), p, pattern, size, bytes, 1, &gate_event, &e));
        events.emplace_back(e);
        CHECK(command_type(e) == CL_COMMAND_SVM_MEMFILL);
    }
    REQUIRE_OK(clSetUserEventStatus(gate_event, CL_COMPLETE));
    REQUIRE_OK(clEnqueueSVMMemcpy(f.q(), CL_TRUE, q, p, bytes, 0, nullptr, &e));
    events.emplace_back(e);
    CHECK(command_type(e) == CL_COMMAND_SVM_MEMCPY);
    for (size_t i = 0; i < bytes; ++i)
        REQUIRE(q[i] == pattern[i % 128]);
    // Host to host, size 0, overlap.
    std::vector<unsigned char> host(bytes, 7), host2(bytes, 0);
    REQUIRE_OK(
        clEnqueueSVMMemcpy(f.q(), CL_TRUE, host2.data(), host.data(), bytes, 0, nullptr, nullptr));
    CHECK(host2 == host);
    CHECK_OK(clEnqueueSVMMemcpy(f.q(), CL_TRUE, q, p, 0, 0, nullptr, nullptr));
    CHECK_CL(clEnqueueSVMMemcpy(f.q(), CL_TRUE, p + 1, p, 16, 0, nullptr, nullptr),
             CL_MEM_COPY_OVERLAP);
    CHECK_CL(clEnqueueSVMMemcpy(f.q(), CL_TRUE, nullptr, p, 16, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    // Fill errors.
    CHECK_CL(clEnqueueSVMMemFill(f.q(), p + 1, pattern, 4, 64, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueSVMMemFill(f.q(), p, pattern, 3, 63, 0, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_CL(clEnqueueSVMMemFill(f.q(), p, pattern, 4, 6, 0, nullptr, nullptr), CL_INVALID_VALUE);
    CHECK_CL(clEnqueueSVMMemFill(f.q(), p, nullptr, 4, 64, 0, nullptr, nullptr), CL_INVALID_VALUE);

    // Map and unmap.
    REQUIRE_OK(clEnqueueSVMMap(f.q(), CL_FALSE, CL_MAP_READ, p, bytes, 0, nullptr, &e));
    events.emplace_back(e);
    CHECK(command_type(e) == CL_COMMAND_SVM_MAP);
    REQUIRE_OK(clEnqueueSVMUnmap(f.q(), p, 0, nullptr, &e));
    events.emplace_back(e);
    CHECK(command_type(e) == CL_COMMAND_SVM_UNMAP);
    CHECK_CL(clEnqueueSVMMap(f.q(), CL_TRUE, CL_MAP_READ, p, 0, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueSVMMap(f.q(), CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, p, 16, 0,
                             nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueSVMUnmap(f.q(), nullptr, 0, nullptr, nullptr), CL_INVALID_VALUE);

    // Migrate: interior pointers with sizes, 0 for the whole allocation.
    const void* ranges[] = {p + 10, q};
    const size_t sizes[] = {1, 0};
    REQUIRE_OK(clEnqueueSVMMigrateMem(f.q(), 2, ranges, sizes, CL_MIGRATE_MEM_OBJECT_HOST, 0,
                                      nullptr, &e));
    events.emplace_back(e);
    CHECK(command_type(e) == CL_COMMAND_SVM_MIGRATE_MEM);
    REQUIRE_OK(clEnqueueSVMMigrateMem(
        f.q(), 2, ranges, nullptr, CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED, 0, nullptr, nullptr));
    const size_t too_long[] = {bytes, 0};
    CHECK_CL(clEnqueueSVMMigrateMem(f.q(), 2, ranges, too_long, 0, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueSVMMigrateMem(f.q(), 0, ranges, nullptr, 0, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    CHECK_CL(clEnqueueSVMMigrateMem(f.q(), 1, ranges, nullptr, 0x100, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    int unknown = 0;
    const void* outside[] = {&unknown};
    CHECK_CL(clEnqueueSVMMigrateMem(f.q(), 1, outside, nullptr, 0, 0, nullptr, nullptr),
             CL_INVALID_VALUE);

    // clEnqueueSVMFree with a callback: it gets the queue and a copy of the
    // list, and may call the API.
    FreeRecord record;
    {
        void* list[] = {p, q};
        REQUIRE_OK(clEnqueueSVMFree(f.q(), 2, list, record_free, &record, 0, nullptr, &e));
        list[0] = list[1] = nullptr; // the driver copied the array
    }
    events.emplace_back(e);
    CHECK(command_type(e) == CL_COMMAND_SVM_FREE);
    REQUIRE_OK(clFinish(f.q()));
    REQUIRE(wait_bounded(e));
    CHECK(record.calls.load() == 1);
    CHECK(record.queue == f.q());
    CHECK(record.pointers == std::vector<void*>{p, q});
    // Without a callback the driver frees; (0, NULL) is an empty list.
    void* r = clSVMAlloc(f.ctx(), CL_MEM_READ_WRITE, 64, 0);
    REQUIRE(r != nullptr);
    REQUIRE_OK(clEnqueueSVMFree(f.q(), 1, &r, nullptr, nullptr, 0, nullptr, nullptr));
    REQUIRE_OK(clEnqueueSVMFree(f.q(), 0, nullptr, nullptr, nullptr, 0, nullptr, nullptr));
    CHECK_CL(clEnqueueSVMFree(f.q(), 1, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
             CL_INVALID_VALUE);
    REQUIRE_OK(clFinish(f.q()));
    cl_unified_shared_memory_type_intel type = 0;
    REQUIRE_OK(f.usm.alloc_info(f.ctx(), r, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, nullptr));
    CHECK(type == CL_MEM_TYPE_UNKNOWN_INTEL);
}

TEST_CASE("buffers over SVM pointers and where SVM meets USM", "[svm]") {
    Fixture f;
    constexpr size_t bytes = 1024;
    auto* svm = static_cast<int*>(clSVMAlloc(f.ctx(), CL_MEM_READ_WRITE, bytes, 0));
    REQUIRE(svm != nullptr);
    cl_int error = CL_SUCCESS;
    // A buffer over the SVM memory is that memory: a map returns the pointer.
    MemPtr buffer(clCreateBuffer(f.ctx(), CL_MEM_USE_HOST_PTR, bytes, svm, &error));
    REQUIRE_OK(error);
    cl_bool uses = CL_FALSE;
    REQUIRE_OK(
        clGetMemObjectInfo(buffer.get(), CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr));
    CHECK(uses == CL_TRUE);
    const cl_buffer_region region{bytes / 2, bytes / 2};
    MemPtr sub(clCreateSubBuffer(buffer.get(), 0, CL_BUFFER_CREATE_TYPE_REGION, &region, &error));
    REQUIRE_OK(error);
    uses = CL_FALSE;
    REQUIRE_OK(clGetMemObjectInfo(sub.get(), CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr));
    CHECK(uses == CL_TRUE);
    void* mapped = clEnqueueMapBuffer(f.q(), buffer.get(), CL_TRUE, CL_MAP_WRITE, 0, bytes, 0,
                                      nullptr, nullptr, &error);
    REQUIRE_OK(error);
    CHECK(mapped == svm);
    REQUIRE_OK(clEnqueueUnmapMemObject(f.q(), buffer.get(), mapped, 0, nullptr, nullptr));
    // Larger than the SVM allocation behind the pointer.
    CHECK(clCreateBuffer(f.ctx(), CL_MEM_USE_HOST_PTR, 2 * bytes, svm, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_BUFFER_SIZE);
    CHECK(clCreateBuffer(f.ctx(), CL_MEM_USE_HOST_PTR, bytes, svm + 1, &error) == nullptr);
    CHECK_CL(error, CL_INVALID_BUFFER_SIZE);
    // An ordinary buffer does not use an SVM pointer.
    MemPtr plain(clCreateBuffer(f.ctx(), CL_MEM_READ_WRITE, bytes, nullptr, &error));
    REQUIRE_OK(error);
    REQUIRE_OK(
        clGetMemObjectInfo(plain.get(), CL_MEM_USES_SVM_POINTER, sizeof uses, &uses, nullptr));
    CHECK(uses == CL_FALSE);
    buffer.reset();
    sub.reset();

    // One registry: an SVM buffer answers the USM queries as shared memory
    // of no device; clMemFreeINTEL frees it, clSVMFree frees USM.
    cl_unified_shared_memory_type_intel type = 0;
    REQUIRE_OK(
        f.usm.alloc_info(f.ctx(), svm + 3, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, nullptr));
    CHECK(type == CL_MEM_TYPE_SHARED_INTEL);
    void* base = nullptr;
    REQUIRE_OK(f.usm.alloc_info(f.ctx(), svm + 3, CL_MEM_ALLOC_BASE_PTR_INTEL, sizeof base, &base,
                                nullptr));
    CHECK(base == svm);
    REQUIRE_OK(f.usm.free(f.ctx(), svm));
    void* device = f.dev(256);
    clSVMFree(f.ctx(), device);
    REQUIRE_OK(
        f.usm.alloc_info(f.ctx(), device, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type, nullptr));
    CHECK(type == CL_MEM_TYPE_UNKNOWN_INTEL);
}

// chipStar with CHIP_OCL_USE_ALLOC_STRATEGY=svm (MemoryManager::allocate,
// CHIPExecItemOpenCL::setupAllArgs, annotateIndirectPointers,
// memPrefetchImpl, kernelEventCallback): fine-grain clSVMAlloc with
// alignment 0, pointer arguments and the live allocations as SVM_PTRS, a
// prefetch to the host, and clSVMFree from the kernel's completion callback.
TEST_CASE("chipStar: SVM allocation strategy", "[svm][clients][chipstar]") {
    Fixture f;
    const auto caps =
        cl_test::device_info<cl_device_svm_capabilities>(f.device, CL_DEVICE_SVM_CAPABILITIES);
    REQUIRE((caps & (CL_DEVICE_SVM_FINE_GRAIN_BUFFER | CL_DEVICE_SVM_FINE_GRAIN_SYSTEM)) != 0);
    ProgramPtr program = cl_test::build_program(f.ctx(), f.device, svm_source);
    constexpr int n = 512;
    const cl_svm_mem_flags flags = CL_MEM_READ_WRITE | CL_MEM_SVM_FINE_GRAIN_BUFFER;
    auto* a = static_cast<int*>(clSVMAlloc(f.ctx(), flags, n * sizeof(int), 0));
    auto* b = static_cast<int*>(clSVMAlloc(f.ctx(), flags, n * sizeof(int), 0));
    auto* table = static_cast<int**>(clSVMAlloc(f.ctx(), flags, 2 * sizeof(int*), 0));
    auto* out = static_cast<int*>(clSVMAlloc(f.ctx(), flags, n * sizeof(int), 0));
    REQUIRE((a && b && table && out));
    std::vector<int> av(n), bv(n);
    std::iota(av.begin(), av.end(), 5);
    std::iota(bv.begin(), bv.end(), -100);
    REQUIRE_OK(
        clEnqueueSVMMemcpy(f.q(), CL_FALSE, a, av.data(), n * sizeof(int), 0, nullptr, nullptr));
    REQUIRE_OK(
        clEnqueueSVMMemcpy(f.q(), CL_FALSE, b, bv.data(), n * sizeof(int), 0, nullptr, nullptr));
    int* pointers[] = {a, b};
    REQUIRE_OK(
        clEnqueueSVMMemcpy(f.q(), CL_FALSE, table, pointers, sizeof pointers, 0, nullptr, nullptr));
    KernelPtr kernel = cl_test::make_kernel(program.get(), "gather");
    REQUIRE_OK(clSetKernelExecInfo(kernel.get(), CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr));
    REQUIRE_OK(clSetKernelArgSVMPointer(kernel.get(), 0, table));
    REQUIRE_OK(clSetKernelArgSVMPointer(kernel.get(), 1, out));
    void* live[] = {a, b, table, out};
    REQUIRE_OK(clSetKernelExecInfo(kernel.get(), CL_KERNEL_EXEC_INFO_SVM_PTRS, sizeof live, live));
    const size_t global = n, local = 64;
    cl_event done = nullptr;
    REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), kernel.get(), 1, nullptr, &global, &local, 0, nullptr,
                                      &done));
    EventPtr done_owner(done);
    // The keep-alive list is dropped in the completion callback: the table
    // is freed there.
    struct KeepAlive {
        cl_context context;
        void* table;
        std::atomic<int> freed{0};
    } keep{f.ctx(), table, {}};
    REQUIRE_OK(clSetEventCallback(
        done, CL_COMPLETE,
        [](cl_event, cl_int, void* data) {
            auto* k = static_cast<KeepAlive*>(data);
            clSVMFree(k->context, k->table);
            k->freed.fetch_add(1);
        },
        &keep));
    // hipMemPrefetchAsync to the host.
    const void* prefetch[] = {out};
    const size_t prefetch_size[] = {n * sizeof(int)};
    REQUIRE_OK(clEnqueueSVMMigrateMem(f.q(), 1, prefetch, prefetch_size, CL_MIGRATE_MEM_OBJECT_HOST,
                                      0, nullptr, nullptr));
    REQUIRE_OK(clFinish(f.q()));
    const auto deadline = std::chrono::steady_clock::now() + cl_test::hang_limit;
    while (keep.freed.load() == 0 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    CHECK(keep.freed.load() == 1);
    size_t wrong = 0;
    for (int i = 0; i < n; ++i)
        wrong += out[i] != av[i] + bv[i];
    CHECK(wrong == 0);
    clSVMFree(f.ctx(), a);
    clSVMFree(f.ctx(), b);
    clSVMFree(f.ctx(), out);
}
