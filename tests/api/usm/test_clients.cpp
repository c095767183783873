// The call sequences of runtimes that use cl_intel_unified_shared_memory,
// replayed against usmcl with small kernels whose results are checked:
// DPC++'s OpenCL adapter (Unified Runtime), AdaptiveCpp's OpenCL backend and
// chipStar's OpenCL backend. Each test names the source file and function
// whose calls it follows (argument values, property lists, alignments and
// order); where a runtime calls something usmcl does not provide, the comment
// says what the replay does instead.
#include "usm_test.hpp"

#include <atomic>
#include <mutex>
#include <set>

using namespace cl_test;
using namespace usm_test;

namespace {

const char* const kernel_source = R"CLC(
__kernel void axpy(__global int* out, __global const int* x, __global const int* y, int a) {
    size_t i = get_global_id(0);
    out[i] = a * x[i] + y[i];
}

typedef struct {
    ulong hidden;
    int n;
    int scale;
} Params;

__kernel void wrapped(__global int* out, __global const int* in, Params p) {
    size_t i = get_global_id(0);
    __global const int* hidden = (__global const int*)p.hidden;
    if (i < (size_t)p.n)
        out[i] = in[i] * p.scale + hidden[i];
}

typedef struct {
    int coef[4];
    int n;
    int pad[3];
} Big;

__kernel void gather(__global int* out, __global const ulong* table, __global const Big* big) {
    size_t i = get_global_id(0);
    if (i >= (size_t)big->n)
        return;
    __global const int* h = (__global const int*)table[0];
    __global const int* s = (__global const int*)table[1];
    __global const int* d = (__global const int*)table[2];
    out[i] = big->coef[0] * h[i] + big->coef[1] * s[i] + big->coef[2] * d[i] + big->coef[3];
}
)CLC";

struct Params {
    cl_ulong hidden;
    cl_int n;
    cl_int scale;
};
static_assert(sizeof(Params) == 16);

struct Big {
    cl_int coef[4];
    cl_int n;
    cl_int pad[3];
};
static_assert(sizeof(Big) == 32);

bool aligned(const void* p, size_t alignment) {
    return alignment == 0 || reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

bool has_extension(cl_device_id device, const std::string& name) {
    const std::vector<std::string> words =
        split_words(device_info_string(device, CL_DEVICE_EXTENSIONS));
    return std::find(words.begin(), words.end(), name) != words.end();
}

// --- DPC++ / Unified Runtime ------------------------------------------------

// cl_ext::getExtFuncFromContext (oneapi-src/unified-runtime,
// source/adapters/opencl/common.hpp): the context's device count, its
// devices, the first device's platform, then
// clGetExtensionFunctionAddressForPlatform.
template <class F>
F ur_lookup(cl_context context, const char* name) {
    INFO(name);
    cl_uint count = 0;
    REQUIRE_OK(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof(cl_uint), &count, nullptr));
    REQUIRE(count >= 1);
    std::vector<cl_device_id> devices(count);
    REQUIRE_OK(clGetContextInfo(context, CL_CONTEXT_DEVICES, count * sizeof(cl_device_id),
                                devices.data(), nullptr));
    cl_platform_id platform = nullptr;
    REQUIRE_OK(clGetDeviceInfo(devices[0], CL_DEVICE_PLATFORM, sizeof(cl_platform_id), &platform,
                               nullptr));
    F function = reinterpret_cast<F>(clGetExtensionFunctionAddressForPlatform(platform, name));
    REQUIRE(function != nullptr);
    return function;
}

// The USM functions as the UR adapter holds them (one lookup per name).
struct UrUsm {
    clHostMemAllocINTEL_fn host_alloc;
    clDeviceMemAllocINTEL_fn device_alloc;
    clSharedMemAllocINTEL_fn shared_alloc;
    clMemBlockingFreeINTEL_fn blocking_free;
    clEnqueueMemFillINTEL_fn fill;
    clEnqueueMemcpyINTEL_fn memcpy;
    clSetKernelArgMemPointerINTEL_fn set_arg_pointer;

    explicit UrUsm(cl_context c)
        : host_alloc(ur_lookup<clHostMemAllocINTEL_fn>(c, "clHostMemAllocINTEL")),
          device_alloc(ur_lookup<clDeviceMemAllocINTEL_fn>(c, "clDeviceMemAllocINTEL")),
          shared_alloc(ur_lookup<clSharedMemAllocINTEL_fn>(c, "clSharedMemAllocINTEL")),
          blocking_free(ur_lookup<clMemBlockingFreeINTEL_fn>(c, "clMemBlockingFreeINTEL")),
          fill(ur_lookup<clEnqueueMemFillINTEL_fn>(c, "clEnqueueMemFillINTEL")),
          memcpy(ur_lookup<clEnqueueMemcpyINTEL_fn>(c, "clEnqueueMemcpyINTEL")),
          set_arg_pointer(
              ur_lookup<clSetKernelArgMemPointerINTEL_fn>(c, "clSetKernelArgMemPointerINTEL")) {}
};

// usmDescToCLMemProperties (source/adapters/opencl/usm.cpp): no flags gives
// an empty list, passed as NULL; otherwise {CL_MEM_ALLOC_FLAGS_INTEL, flags,
// 0}.
std::vector<cl_mem_properties_intel> ur_properties(cl_mem_alloc_flags_intel flags) {
    std::vector<cl_mem_properties_intel> properties;
    if (flags) {
        properties.push_back(CL_MEM_ALLOC_FLAGS_INTEL);
        properties.push_back(flags);
        properties.push_back(0);
    }
    return properties;
}

const cl_mem_properties_intel* list_or_null(const std::vector<cl_mem_properties_intel>& list) {
    return list.empty() ? nullptr : list.data();
}

// usmSetIndirectAccess (source/adapters/opencl/kernel.cpp): the kernel's
// context, then for host, device and shared in that order: look the
// allocation function up and, when found, set the indirect flag to CL_TRUE.
void ur_set_indirect_access(cl_kernel kernel) {
    cl_bool true_value = CL_TRUE;
    cl_context context = nullptr;
    REQUIRE_OK(clGetKernelInfo(kernel, CL_KERNEL_CONTEXT, sizeof(cl_context), &context, nullptr));
    if (ur_lookup<clHostMemAllocINTEL_fn>(context, "clHostMemAllocINTEL"))
        REQUIRE_OK(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
                                       sizeof(cl_bool), &true_value));
    if (ur_lookup<clDeviceMemAllocINTEL_fn>(context, "clDeviceMemAllocINTEL"))
        REQUIRE_OK(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL,
                                       sizeof(cl_bool), &true_value));
    if (ur_lookup<clSharedMemAllocINTEL_fn>(context, "clSharedMemAllocINTEL"))
        REQUIRE_OK(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL,
                                       sizeof(cl_bool), &true_value));
}

cl_mem_alloc_flags_intel alloc_flags(const Usm& usm, cl_context context, const void* p) {
    cl_mem_alloc_flags_intel flags = ~cl_mem_alloc_flags_intel{0};
    REQUIRE_OK(usm.alloc_info(context, p, CL_MEM_ALLOC_FLAGS_INTEL, sizeof flags, &flags, nullptr));
    return flags;
}

} // namespace

TEST_CASE("DPC++ (Unified Runtime): USM allocations with alignments and flag properties",
          "[clients][dpcpp]") {
    Fixture f;
    UrUsm ur(f.ctx());
    // urUSMHostAlloc / urUSMDeviceAlloc / urUSMSharedAlloc
    // (source/adapters/opencl/usm.cpp): the descriptor's alignment goes to
    // the call unchanged and the adapter asserts the result is aligned to it.
    for (cl_uint alignment : {0u, 1u, 2u, 8u, 16u, 64u, 128u}) {
        INFO("alignment " << alignment);
        cl_int result = CL_SUCCESS;
        const auto none = ur_properties(0);
        void* h = ur.host_alloc(f.ctx(), list_or_null(none), 1000, alignment, &result);
        REQUIRE_OK(result);
        CHECK(aligned(h, alignment));

        // A device descriptor with UR_USM_DEVICE_MEM_FLAG_WRITE_COMBINED.
        const auto wc = ur_properties(CL_MEM_ALLOC_WRITE_COMBINED_INTEL);
        void* d = ur.device_alloc(f.ctx(), f.device, list_or_null(wc), 4096, alignment, &result);
        REQUIRE_OK(result);
        CHECK(aligned(d, alignment));
        CHECK(alloc_flags(f.usm, f.ctx(), d) == CL_MEM_ALLOC_WRITE_COMBINED_INTEL);

        // A shared allocation with a device descriptor asking for
        // UR_USM_DEVICE_MEM_FLAG_INITIAL_PLACEMENT.
        const auto placed = ur_properties(CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL);
        void* s = ur.shared_alloc(f.ctx(), f.device, list_or_null(placed), 333, alignment, &result);
        REQUIRE_OK(result);
        CHECK(aligned(s, alignment));
        CHECK(alloc_flags(f.usm, f.ctx(), s) == CL_MEM_ALLOC_INITIAL_PLACEMENT_DEVICE_INTEL);

        // A shared allocation with a host descriptor asking for
        // UR_USM_HOST_MEM_FLAG_INITIAL_PLACEMENT.
        const auto host_placed = ur_properties(CL_MEM_ALLOC_INITIAL_PLACEMENT_HOST_INTEL);
        void* s2 =
            ur.shared_alloc(f.ctx(), f.device, list_or_null(host_placed), 64, alignment, &result);
        REQUIRE_OK(result);
        CHECK(aligned(s2, alignment));

        // urUSMFree: always clMemBlockingFreeINTEL.
        for (void* p : {h, d, s, s2})
            CHECK_OK(ur.blocking_free(f.ctx(), p));
    }
}

TEST_CASE("DPC++ (Unified Runtime): fill, kernel launch with indirect access, copy, free",
          "[clients][dpcpp]") {
    Fixture f;
    UrUsm ur(f.ctx());
    ProgramPtr program = build_program(f.ctx(), f.device, kernel_source);
    constexpr size_t n = 4096;
    cl_int result = CL_SUCCESS;
    // sycl::malloc_device / malloc_shared / malloc_host with SYCL's default
    // alignment 0 (no descriptor alignment).
    void* x = ur.device_alloc(f.ctx(), f.device, nullptr, n * sizeof(int), 0, &result);
    REQUIRE_OK(result);
    void* y = ur.shared_alloc(f.ctx(), f.device, nullptr, n * sizeof(int), 0, &result);
    REQUIRE_OK(result);
    void* out = ur.host_alloc(f.ctx(), nullptr, n * sizeof(int), 0, &result);
    REQUIRE_OK(result);
    int* ys = static_cast<int*>(y);
    for (size_t i = 0; i < n; ++i)
        ys[i] = static_cast<int>(i) * 5 - 77;

    // urEnqueueUSMFill: a power-of-two pattern up to 128 bytes goes straight
    // to clEnqueueMemFillINTEL; the adapter always asks for an event and
    // passes its (empty) wait-list vector's data(), NULL here.
    const cl_int pattern = 9;
    cl_event fill_event = nullptr;
    REQUIRE_OK(
        ur.fill(f.q(), x, &pattern, sizeof pattern, n * sizeof(int), 0, nullptr, &fill_event));
    EventPtr fill_owner(fill_event);

    // urKernelCreate, urKernelSetArgPointer (clSetKernelArgMemPointerINTEL
    // with the pointer value), urKernelSetArgValue (clSetKernelArg), and the
    // SYCL runtime's urKernelSetExecInfo(UR_KERNEL_EXEC_INFO_USM_INDIRECT_ACCESS)
    // before the launch.
    KernelPtr kernel = make_kernel(program.get(), "axpy");
    REQUIRE_OK(ur.set_arg_pointer(kernel.get(), 0, out));
    REQUIRE_OK(ur.set_arg_pointer(kernel.get(), 1, x));
    REQUIRE_OK(ur.set_arg_pointer(kernel.get(), 2, y));
    const cl_int a = -3;
    REQUIRE_OK(clSetKernelArg(kernel.get(), 3, sizeof(cl_int), &a));
    ur_set_indirect_access(kernel.get());

    // urEnqueueKernelLaunch: clEnqueueNDRangeKernel with the wait list
    // converted and an event always requested.
    const size_t global = n;
    cl_event kernel_event = nullptr;
    REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), kernel.get(), 1, nullptr, &global, nullptr, 1,
                                      &fill_event, &kernel_event));
    EventPtr kernel_owner(kernel_event);

    // urEnqueueUSMMemcpy, non-blocking, event requested.
    std::vector<int> result_copy(n, 0);
    cl_event copy_event = nullptr;
    REQUIRE_OK(ur.memcpy(f.q(), CL_FALSE, result_copy.data(), out, n * sizeof(int), 1,
                         &kernel_event, &copy_event));
    EventPtr copy_owner(copy_event);

    // sycl::free -> urUSMFree -> clMemBlockingFreeINTEL, here while the kernel
    // may still run: the free waits for it (direct argument and indirect
    // access to every type).
    CHECK_OK(ur.blocking_free(f.ctx(), x));
    CHECK(event_status(kernel_event) == CL_COMPLETE);

    REQUIRE(wait_bounded(copy_event));
    REQUIRE(event_status(copy_event) == CL_COMPLETE);
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i)
        wrong += result_copy[i] != a * pattern + ys[i];
    CHECK(wrong == 0);
    CHECK_OK(ur.blocking_free(f.ctx(), y));
    CHECK_OK(ur.blocking_free(f.ctx(), out));
}

namespace {

struct FillCallbackInfo {
    clMemBlockingFreeINTEL_fn free;
    cl_context context;
    void* host_buffer;
    std::atomic<bool> done{false};
    std::atomic<cl_int> free_result{CL_OUT_OF_RESOURCES};
};

// The adapter's DeleteCallback: frees the staging buffer with
// clMemBlockingFreeINTEL and releases the context it retained.
void CL_CALLBACK delete_staging(cl_event, cl_int, void* user_data) {
    auto* info = static_cast<FillCallbackInfo*>(user_data);
    info->free_result = info->free(info->context, info->host_buffer);
    clReleaseContext(info->context);
    info->done = true;
}

} // namespace

TEST_CASE("DPC++ (Unified Runtime): a fill pattern OpenCL cannot fill goes through a host "
          "staging buffer freed in an event callback",
          "[clients][dpcpp]") {
    Fixture f;
    UrUsm ur(f.ctx());
    // urEnqueueUSMFill, the branch for a pattern that is not a power of two
    // or is larger than 128 bytes.
    for (size_t pattern_size : {size_t{3}, size_t{24}, size_t{256}}) {
        INFO("pattern_size " << pattern_size);
        const size_t size = pattern_size * 100;
        cl_int result = CL_SUCCESS;
        void* target = ur.device_alloc(f.ctx(), f.device, nullptr, size, 0, &result);
        REQUIRE_OK(result);
        std::vector<unsigned char> pattern(pattern_size);
        for (size_t i = 0; i < pattern_size; ++i)
            pattern[i] = static_cast<unsigned char>(i * 7 + 1);

        auto* host_buffer =
            static_cast<unsigned char*>(ur.host_alloc(f.ctx(), nullptr, size, 0, &result));
        REQUIRE_OK(result);
        for (size_t at = 0; at < size; at += pattern_size)
            std::memcpy(host_buffer + at, pattern.data(), pattern_size);
        cl_event copy_event = nullptr;
        REQUIRE_OK(ur.memcpy(f.q(), CL_FALSE, target, host_buffer, size, 0, nullptr, &copy_event));
        FillCallbackInfo info{ur.blocking_free, f.ctx(), host_buffer};
        REQUIRE_OK(clRetainContext(f.ctx()));
        REQUIRE_OK(clSetEventCallback(copy_event, CL_COMPLETE, delete_staging, &info));
        // No event was asked for: the adapter releases the copy's event.
        REQUIRE_OK(clReleaseEvent(copy_event));

        std::vector<unsigned char> check(size);
        REQUIRE_OK(ur.memcpy(f.q(), CL_TRUE, check.data(), target, size, 0, nullptr, nullptr));
        size_t wrong = 0;
        for (size_t i = 0; i < size; ++i)
            wrong += check[i] != pattern[i % pattern_size];
        CHECK(wrong == 0);

        const auto deadline = std::chrono::steady_clock::now() + hang_limit;
        while (!info.done && std::chrono::steady_clock::now() < deadline)
            std::this_thread::sleep_for(1ms);
        REQUIRE(info.done);
        CHECK_CL(info.free_result, CL_SUCCESS);
        CHECK_OK(ur.blocking_free(f.ctx(), target));
    }
}

// --- AdaptiveCpp ------------------------------------------------------------

namespace {

// ocl_usm_intel_extension (AdaptiveCpp/AdaptiveCpp, src/runtime/ocl/ocl_usm.cpp).
struct AcppUsm {
    clHostMemAllocINTEL_fn host_mem_alloc = nullptr;
    clDeviceMemAllocINTEL_fn device_mem_alloc = nullptr;
    clSharedMemAllocINTEL_fn shared_mem_alloc = nullptr;
    clMemFreeINTEL_fn free = nullptr;
    clMemBlockingFreeINTEL_fn blocking_free = nullptr;
    clGetMemAllocInfoINTEL_fn mem_alloc_info = nullptr;
    clSetKernelArgMemPointerINTEL_fn set_kernel_arg_mem_pointer = nullptr;
    clEnqueueMemFillINTEL_fn mem_fill = nullptr;
    clEnqueueMemcpyINTEL_fn mem_copy = nullptr;
    clEnqueueMemAdviseINTEL_fn mem_advise = nullptr;
    clEnqueueMigrateMemINTEL_fn migrate_mem = nullptr;
    cl_context ctx;
    cl_device_id dev;

    // The constructor: the extension in CL_DEVICE_EXTENSIONS, then every
    // function through clGetExtensionFunctionAddressForPlatform, in this
    // order.
    template <class Fn>
    static void initialize_func(Fn& out, const char* name, cl_platform_id id) {
        out = reinterpret_cast<Fn>(clGetExtensionFunctionAddressForPlatform(id, name));
        INFO(name);
        REQUIRE(out != nullptr);
    }
    AcppUsm(cl_platform_id id, cl_device_id device, cl_context context)
        : ctx(context), dev(device) {
        REQUIRE(has_extension(device, "cl_intel_unified_shared_memory"));
        initialize_func(host_mem_alloc, "clHostMemAllocINTEL", id);
        initialize_func(device_mem_alloc, "clDeviceMemAllocINTEL", id);
        initialize_func(shared_mem_alloc, "clSharedMemAllocINTEL", id);
        initialize_func(free, "clMemFreeINTEL", id);
        initialize_func(blocking_free, "clMemBlockingFreeINTEL", id);
        initialize_func(mem_alloc_info, "clGetMemAllocInfoINTEL", id);
        initialize_func(set_kernel_arg_mem_pointer, "clSetKernelArgMemPointerINTEL", id);
        initialize_func(mem_fill, "clEnqueueMemFillINTEL", id);
        initialize_func(mem_copy, "clEnqueueMemcpyINTEL", id);
        initialize_func(mem_advise, "clEnqueueMemAdviseINTEL", id);
        initialize_func(migrate_mem, "clEnqueueMigrateMemINTEL", id);
    }

    // has_usm_*_allocations: the capability queried as a cl_bitfield.
    bool has(cl_device_info query) const {
        cl_bitfield caps = 0;
        REQUIRE_OK(clGetDeviceInfo(dev, query, sizeof caps, &caps, nullptr));
        return caps != 0;
    }

    // malloc_host / malloc_device / malloc_shared: properties point at a
    // single 0, the device is the backend's device.
    void* malloc_host(size_t size, size_t alignment, cl_int& err) const {
        cl_mem_properties_intel props = 0;
        return host_mem_alloc(ctx, &props, size, static_cast<cl_uint>(alignment), &err);
    }
    void* malloc_device(size_t size, size_t alignment, cl_int& err) const {
        cl_mem_properties_intel props = 0;
        return device_mem_alloc(ctx, dev, &props, size, static_cast<cl_uint>(alignment), &err);
    }
    void* malloc_shared(size_t size, size_t alignment, cl_int& err) const {
        cl_mem_properties_intel props = 0;
        return shared_mem_alloc(ctx, dev, &props, size, static_cast<cl_uint>(alignment), &err);
    }

    // enqueue_memcpy / enqueue_memset / enqueue_prefetch: non-blocking, the
    // wait list's front or NULL, an event when one is wanted.
    cl_int enqueue_memcpy(cl_command_queue q, void* d, const void* s, size_t size,
                          const std::vector<cl_event>& wait, cl_event* event) const {
        return mem_copy(q, false, d, s, size, static_cast<cl_uint>(wait.size()),
                        wait.empty() ? nullptr : &wait.front(), event);
    }
    cl_int enqueue_memset(cl_command_queue q, void* ptr, cl_int pattern, size_t bytes,
                          const std::vector<cl_event>& wait, cl_event* event) const {
        unsigned char pattern_byte = static_cast<char>(pattern);
        return mem_fill(q, ptr, &pattern_byte, 1, bytes, static_cast<cl_uint>(wait.size()),
                        wait.empty() ? nullptr : &wait.front(), event);
    }
    cl_int enqueue_prefetch(cl_command_queue q, const void* ptr, size_t bytes,
                            cl_mem_migration_flags flags, cl_event* event) const {
        return migrate_mem(q, ptr, bytes, flags, 0, nullptr, event);
    }

    // enable_indirect_usm_access: cl::Kernel::setExecInfo with a cl_bool
    // for host, device and shared.
    void enable_indirect_usm_access(cl_kernel k) const {
        const cl_bool on = true;
        REQUIRE_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
                                       sizeof(cl_bool), &on));
        REQUIRE_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL,
                                       sizeof(cl_bool), &on));
        REQUIRE_OK(clSetKernelExecInfo(k, CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL,
                                       sizeof(cl_bool), &on));
    }
};

} // namespace

TEST_CASE("AdaptiveCpp: the USM provider's allocations and pointer queries",
          "[clients][adaptivecpp]") {
    Fixture f;
    AcppUsm usm(f.platform, f.device, f.ctx());
    CHECK(usm.has(CL_DEVICE_DEVICE_MEM_CAPABILITIES_INTEL));
    CHECK(usm.has(CL_DEVICE_HOST_MEM_CAPABILITIES_INTEL));
    CHECK(usm.has(CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL));
    CHECK(usm.has(CL_DEVICE_SHARED_SYSTEM_MEM_CAPABILITIES_INTEL));

    // ocl_allocator::allocate / allocate_optimized_host pass the SYCL
    // alignment through; allocate_usm asks for alignment 0.
    cl_int err = CL_SUCCESS;
    void* d = usm.malloc_device(10000, 64, err);
    REQUIRE_OK(err);
    CHECK(aligned(d, 64));
    void* h = usm.malloc_host(5000, 32, err);
    REQUIRE_OK(err);
    CHECK(aligned(h, 32));
    void* s = usm.malloc_shared(7000, 0, err);
    REQUIRE_OK(err);

    // get_alloc_info (query_pointer) on interior pointers: the type, then
    // for shared and device allocations the device.
    struct Case {
        void* base;
        size_t offset;
        cl_unified_shared_memory_type_intel type;
    };
    for (const Case& c :
         {Case{d, 9999, CL_MEM_TYPE_DEVICE_INTEL}, Case{h, 123, CL_MEM_TYPE_HOST_INTEL},
          Case{s, 4096, CL_MEM_TYPE_SHARED_INTEL}, Case{d, 0, CL_MEM_TYPE_DEVICE_INTEL}}) {
        const void* ptr = static_cast<const char*>(c.base) + c.offset;
        INFO("offset " << c.offset << " into an allocation of type 0x" << std::hex << c.type);
        cl_unified_shared_memory_type_intel mem_type;
        REQUIRE_OK(usm.mem_alloc_info(f.ctx(), ptr, CL_MEM_ALLOC_TYPE_INTEL, sizeof(mem_type),
                                      &mem_type, nullptr));
        CHECK(mem_type == c.type);
        if (mem_type == CL_MEM_TYPE_SHARED_INTEL || mem_type == CL_MEM_TYPE_DEVICE_INTEL) {
            cl_device_id dev;
            REQUIRE_OK(usm.mem_alloc_info(f.ctx(), ptr, CL_MEM_ALLOC_DEVICE_INTEL, sizeof(dev),
                                          &dev, nullptr));
            CHECK(dev == f.device);
        }
    }
    // A malloc'd pointer is CL_MEM_TYPE_UNKNOWN_INTEL (AdaptiveCpp then
    // treats it as not USM).
    std::vector<int> system(16);
    cl_unified_shared_memory_type_intel mem_type;
    REQUIRE_OK(usm.mem_alloc_info(f.ctx(), system.data() + 3, CL_MEM_ALLOC_TYPE_INTEL,
                                  sizeof(mem_type), &mem_type, nullptr));
    CHECK(mem_type == CL_MEM_TYPE_UNKNOWN_INTEL);

    // ocl_allocator::free: clMemFreeINTEL.
    CHECK_OK(usm.free(f.ctx(), d));
    CHECK_OK(usm.free(f.ctx(), h));
    CHECK_OK(usm.free(f.ctx(), s));
}

TEST_CASE("AdaptiveCpp: memset, memcpy, prefetch and a kernel submission",
          "[clients][adaptivecpp]") {
    Fixture f;
    AcppUsm usm(f.platform, f.device, f.ctx());
    ProgramPtr program = build_program(f.ctx(), f.device, kernel_source);
    constexpr size_t group = 64, groups = 16, n = group * groups - 5;
    cl_int err = CL_SUCCESS;
    int* in = static_cast<int*>(usm.malloc_device(n * sizeof(int), 0, err));
    REQUIRE_OK(err);
    int* hidden = static_cast<int*>(usm.malloc_shared(n * sizeof(int), 0, err));
    REQUIRE_OK(err);
    int* out = static_cast<int*>(usm.malloc_host(group * groups * sizeof(int), 0, err));
    REQUIRE_OK(err);

    // ocl_queue::submit_memset -> enqueue_memset (a 1-byte fill).
    cl_event memset_event = nullptr;
    REQUIRE_OK(
        usm.enqueue_memset(f.q(), out, 0x7f, group * groups * sizeof(int), {}, &memset_event));
    EventPtr memset_owner(memset_event);

    // ocl_queue::submit_memcpy -> enqueue_memcpy (non-blocking) of the
    // inputs.
    std::vector<int> in_values(n), hidden_values(n);
    for (size_t i = 0; i < n; ++i) {
        in_values[i] = static_cast<int>(i) - 300;
        hidden_values[i] = static_cast<int>(i * i % 1000);
    }
    cl_event copy_event = nullptr;
    REQUIRE_OK(usm.enqueue_memcpy(f.q(), in, in_values.data(), n * sizeof(int), {}, &copy_event));
    EventPtr copy_owner(copy_event);
    cl_event copy2_event = nullptr;
    REQUIRE_OK(usm.enqueue_memcpy(f.q(), hidden, hidden_values.data(), n * sizeof(int),
                                  {copy_event}, &copy2_event));
    EventPtr copy2_owner(copy2_event);

    // ocl_queue::submit_prefetch: to the host with CL_MIGRATE_MEM_OBJECT_HOST,
    // to the device with flags 0. The extension makes flags 0
    // CL_INVALID_VALUE ("if flags is zero"), so the device prefetch fails on
    // usmcl and AdaptiveCpp reports "enqueuing prefetch failed".
    cl_event prefetch_event = nullptr;
    REQUIRE_OK(usm.enqueue_prefetch(f.q(), hidden, n * sizeof(int), CL_MIGRATE_MEM_OBJECT_HOST,
                                    &prefetch_event));
    EventPtr prefetch_owner(prefetch_event);
    cl_event device_prefetch = nullptr;
    CHECK_CL(usm.enqueue_prefetch(f.q(), hidden, n * sizeof(int), 0, &device_prefetch),
             CL_INVALID_VALUE);

    // submit_ocl_kernel: every argument with clSetKernelArg (the pointer
    // hidden in a by-value struct, AdaptiveCpp's fallback for drivers that
    // check pointer arguments), raw pointer arguments with
    // set_kernel_pointer_arg (clSetKernelArgMemPointerINTEL) when the device
    // has shared USM, then enable_indirect_usm_access, then a 1-D NDRange
    // with offset 0 and the group size, no wait list, an event.
    KernelPtr kernel = make_kernel(program.get(), "wrapped");
    const Params params{reinterpret_cast<uintptr_t>(hidden), static_cast<cl_int>(n), 3};
    REQUIRE_OK(clSetKernelArg(kernel.get(), 2, sizeof params, &params));
    REQUIRE(usm.has(CL_DEVICE_SINGLE_DEVICE_SHARED_MEM_CAPABILITIES_INTEL));
    REQUIRE_OK(usm.set_kernel_arg_mem_pointer(kernel.get(), 0, out));
    REQUIRE_OK(usm.set_kernel_arg_mem_pointer(kernel.get(), 1, in));
    usm.enable_indirect_usm_access(kernel.get());
    const size_t offset = 0, global = group * groups, local = group;
    cl_event kernel_event = nullptr;
    REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), kernel.get(), 1, &offset, &global, &local, 0, nullptr,
                                      &kernel_event));
    EventPtr kernel_owner(kernel_event);

    // ocl_queue::wait: clFinish.
    REQUIRE_OK(clFinish(f.q()));
    for (cl_event e : {memset_event, copy_event, copy2_event, prefetch_event, kernel_event})
        CHECK(event_status(e) == CL_COMPLETE);
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i)
        wrong += out[i] != in_values[i] * 3 + hidden_values[i];
    CHECK(wrong == 0);
    for (size_t i = n; i < group * groups; ++i)
        CHECK(out[i] == 0x7f7f7f7f); // beyond p.n: the memset's bytes

    CHECK_OK(usm.free(f.ctx(), in));
    CHECK_OK(usm.free(f.ctx(), hidden));
    CHECK_OK(usm.free(f.ctx(), out));
}

// --- chipStar ---------------------------------------------------------------

namespace {

// MemoryManager (CHIP-SPV/chipStar, src/backend/OpenCL/MemoryManager.cc):
// init looks five functions up for the platform; allocateUSM maps the HIP
// memory types to the three allocation calls with NULL properties and frees
// through a shared_ptr deleter that takes the context's free mutex; the
// allocation records which kinds were used.
class ChipMemoryManager {
public:
    ChipMemoryManager(cl_platform_id platform, cl_device_id device, cl_context context)
        : device_(device), context_(context) {
        REQUIRE(has_extension(device, "cl_intel_unified_shared_memory"));
        shared_alloc_ = reinterpret_cast<clSharedMemAllocINTEL_fn>(
            clGetExtensionFunctionAddressForPlatform(platform, "clSharedMemAllocINTEL"));
        device_alloc_ = reinterpret_cast<clDeviceMemAllocINTEL_fn>(
            clGetExtensionFunctionAddressForPlatform(platform, "clDeviceMemAllocINTEL"));
        host_alloc_ = reinterpret_cast<clHostMemAllocINTEL_fn>(
            clGetExtensionFunctionAddressForPlatform(platform, "clHostMemAllocINTEL"));
        free_ = reinterpret_cast<clMemFreeINTEL_fn>(
            clGetExtensionFunctionAddressForPlatform(platform, "clMemFreeINTEL"));
        migrate_ = reinterpret_cast<clEnqueueMigrateMemINTEL_fn>(
            clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueMigrateMemINTEL"));
        REQUIRE(shared_alloc_ != nullptr);
        REQUIRE(device_alloc_ != nullptr);
        REQUIRE(host_alloc_ != nullptr);
        REQUIRE(free_ != nullptr);
        REQUIRE(migrate_ != nullptr);
    }

    enum class HipType { host, device, managed, unified };

    void* allocate(size_t size, size_t alignment, HipType type) {
        cl_int err = CL_SUCCESS;
        void* raw = nullptr;
        const auto a = static_cast<cl_uint>(alignment);
        switch (type) {
        case HipType::host: raw = host_alloc_(context_, nullptr, size, a, &err); break;
        case HipType::device: raw = device_alloc_(context_, device_, nullptr, size, a, &err); break;
        case HipType::managed: raw = host_alloc_(context_, nullptr, size, a, &err); break;
        case HipType::unified:
            raw = shared_alloc_(context_, device_, nullptr, size, a, &err);
            break;
        }
        REQUIRE_OK(err);
        REQUIRE(raw != nullptr);
        std::shared_ptr<void> owned(raw, [this](void* p) {
            std::lock_guard<std::recursive_mutex> lock(free_mutex_);
            free_results_.push_back(free_(context_, p));
        });
        allocations_.push_back(owned);
        host_used_ |= type == HipType::host || type == HipType::managed;
        device_used_ |= type == HipType::device;
        shared_used_ |= type == HipType::unified;
        return raw;
    }

    // annotateIndirectPointers (src/backend/OpenCL/CHIPBackendOpenCL.cc):
    // every allocation of the context as CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL,
    // then the indirect flag of each kind allocated so far.
    void annotate_indirect_pointers(cl_kernel kernel) const {
        std::vector<void*> list;
        for (const auto& p : allocations_)
            list.push_back(p.get());
        REQUIRE_OK(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL,
                                       list.size() * sizeof(void*), list.data()));
        cl_bool param = CL_TRUE;
        if (host_used_)
            REQUIRE_OK(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
                                           sizeof(cl_bool), &param));
        if (device_used_)
            REQUIRE_OK(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL,
                                           sizeof(cl_bool), &param));
        if (shared_used_)
            REQUIRE_OK(clSetKernelExecInfo(kernel, CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL,
                                           sizeof(cl_bool), &param));
    }

    // MemoryManager::clear: drops every allocation (each deleter frees).
    std::vector<cl_int> clear() {
        allocations_.clear();
        return free_results_;
    }

private:
    cl_device_id device_;
    cl_context context_;
    clSharedMemAllocINTEL_fn shared_alloc_ = nullptr;
    clDeviceMemAllocINTEL_fn device_alloc_ = nullptr;
    clHostMemAllocINTEL_fn host_alloc_ = nullptr;
    clMemFreeINTEL_fn free_ = nullptr;
    clEnqueueMigrateMemINTEL_fn migrate_ = nullptr;
    std::recursive_mutex free_mutex_;
    std::vector<cl_int> free_results_;
    bool host_used_ = false, device_used_ = false, shared_used_ = false;
    // Last: destroyed first, while the mutex and the results still exist.
    std::vector<std::shared_ptr<void>> allocations_;
};

} // namespace

TEST_CASE("chipStar: USM allocations, annotated indirect pointers and a spilled argument",
          "[clients][chipstar]") {
    Fixture f;
    ProgramPtr program = build_program(f.ctx(), f.device, kernel_source);
    // CHIPQueueOpenCL: a regular queue (NULL properties) and a profiling
    // queue ({CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0}).
    cl_int status = CL_SUCCESS;
    QueuePtr regular(clCreateCommandQueueWithProperties(f.ctx(), f.device, nullptr, &status));
    REQUIRE_OK(status);
    const cl_queue_properties profiling_properties[] = {CL_QUEUE_PROPERTIES,
                                                        CL_QUEUE_PROFILING_ENABLE, 0};
    QueuePtr profiling(
        clCreateCommandQueueWithProperties(f.ctx(), f.device, profiling_properties, &status));
    REQUIRE_OK(status);
    cl_command_queue q = regular.get();

    ChipMemoryManager memory(f.platform, f.device, f.ctx());
    constexpr int n = 3000;
    using HipType = ChipMemoryManager::HipType;
    // hipHostMalloc, hipMallocManaged (host USM too), hipMalloc and a
    // unified (shared) allocation; the argument spill buffer is a device
    // allocation aligned to 32 (ArgSpillBuffer::computeAndReserveSpace).
    auto* h = static_cast<int*>(memory.allocate(n * sizeof(int), 0, HipType::host));
    auto* out = static_cast<int*>(memory.allocate(n * sizeof(int), 0, HipType::managed));
    auto* d = static_cast<int*>(memory.allocate(n * sizeof(int), 0, HipType::device));
    auto* s = static_cast<int*>(memory.allocate(n * sizeof(int), 0, HipType::unified));
    auto* table = static_cast<cl_ulong*>(memory.allocate(3 * sizeof(cl_ulong), 0, HipType::device));
    void* spill = memory.allocate(sizeof(Big), 32, HipType::device);
    CHECK(aligned(spill, 32));

    std::vector<int> hv(n), sv(n), dv(n);
    for (int i = 0; i < n; ++i) {
        hv[i] = i;
        sv[i] = 2 * i - 1000;
        dv[i] = (i * 37) % 101;
    }
    std::memcpy(h, hv.data(), n * sizeof(int));
    std::memcpy(s, sv.data(), n * sizeof(int));

    // chipStar moves data with clEnqueueSVMMemcpy (memCopyAsyncImpl) even
    // with the Intel USM strategy: USM pointers and plain host memory
    // (non-blocking, the queue's last events as the wait list, an event).
    // A memset first (memFillAsyncImpl: clEnqueueSVMMemFill on USM).
    cl_event e0 = nullptr, e1 = nullptr, e2 = nullptr, e3 = nullptr;
    const int minus_one = -1;
    REQUIRE_OK(
        clEnqueueSVMMemFill(q, d, &minus_one, sizeof minus_one, n * sizeof(int), 0, nullptr, &e0));
    EventPtr p0(e0);
    REQUIRE_OK(clEnqueueSVMMemcpy(q, CL_FALSE, d, dv.data(), n * sizeof(int), 1, &e0, &e1));
    EventPtr p1(e1);
    const cl_ulong pointers[3] = {reinterpret_cast<uintptr_t>(h), reinterpret_cast<uintptr_t>(s),
                                  reinterpret_cast<uintptr_t>(d)};
    REQUIRE_OK(clEnqueueSVMMemcpy(q, CL_FALSE, table, pointers, sizeof pointers, 1, &e1, &e2));
    EventPtr p2(e2);
    // The PODByRef argument: written to the host side of the spill buffer,
    // copied to the device side before the launch.
    const Big big{{2, -1, 5, 17}, n, {0, 0, 0}};
    REQUIRE_OK(clEnqueueSVMMemcpy(q, CL_FALSE, spill, &big, sizeof big, 1, &e2, &e3));
    EventPtr p3(e3);

    // memCopyAsyncImpl turns a copy onto itself into a marker, because a
    // conforming driver answers CL_MEM_COPY_OVERLAP for it.
    CHECK_CL(clEnqueueSVMMemcpy(q, CL_FALSE, d, d, n * sizeof(int), 0, nullptr, nullptr),
             CL_MEM_COPY_OVERLAP);
    cl_event marker = nullptr;
    REQUIRE_OK(clEnqueueMarkerWithWaitList(q, 0, nullptr, &marker));
    EventPtr marker_owner(marker);

    // CHIPExecItemOpenCL::setupAllArgs: USM pointer arguments through
    // clSetKernelArgSVMPointer; then annotateIndirectPointers before the
    // launch. A kernel handle taken back from chipStar's pool first gets an
    // empty SVM pointer set (borrowUniqueKernelHandle: setSVMPointers({})).
    KernelPtr kernel = make_kernel(program.get(), "gather");
    REQUIRE_OK(clSetKernelExecInfo(kernel.get(), CL_KERNEL_EXEC_INFO_SVM_PTRS, 0, nullptr));
    REQUIRE_OK(clSetKernelArgSVMPointer(kernel.get(), 0, out));
    REQUIRE_OK(clSetKernelArgSVMPointer(kernel.get(), 1, table));
    REQUIRE_OK(clSetKernelArgSVMPointer(kernel.get(), 2, spill));
    memory.annotate_indirect_pointers(kernel.get());
    const size_t local = 64, global = (n + local - 1) / local * local;
    cl_event kernel_event = nullptr;
    REQUIRE_OK(clEnqueueNDRangeKernel(q, kernel.get(), 1, nullptr, &global, &local, 1, &e3,
                                      &kernel_event));
    EventPtr kernel_owner(kernel_event);
    REQUIRE(wait_bounded(kernel_event));
    REQUIRE(event_status(kernel_event) == CL_COMPLETE);
    REQUIRE_OK(clFinish(q));

    size_t wrong = 0;
    for (int i = 0; i < n; ++i)
        wrong += out[i] != 2 * hv[i] - sv[i] + 5 * dv[i] + 17;
    CHECK(wrong == 0);

    // The queues are finished; clear() frees everything with clMemFreeINTEL.
    for (cl_int result : memory.clear())
        CHECK_CL(result, CL_SUCCESS);
}
