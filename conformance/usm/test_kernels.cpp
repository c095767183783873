// Sub-tests of kernels on USM: the capabilities of each kind against
// behaviour (direct access, atomics), clSetKernelArgMemPointerINTEL and its
// errors, clSetKernelExecInfo with the USM names, and linked lists reached
// only indirectly.
#include "usm.hpp"

#include <cstdlib>
#include <cstring>

using namespace usmconf;

namespace {

cl_int run_1d(Env& env, const Kernel& kernel, size_t global, cl_event* event = nullptr) {
    return clEnqueueNDRangeKernel(env.queue, kernel.get(), 1, nullptr, &global, nullptr, 0, nullptr,
                                  event);
}

// For a kind: with ACCESS, a kernel reads and writes it (through base and
// interior pointers) and, with ATOMIC_ACCESS, counts with atomics in it;
// with capabilities 0, its allocation fails with CL_INVALID_OPERATION.
void kernel_access(Env& env, Kind kind) {
    if (!env.allocatable(kind)) {
        cl_int error = CL_SUCCESS;
        void* p = nullptr;
        if (kind == Kind::host)
            p = env.usm.host_alloc(env.context, nullptr, 64, 0, &error);
        else if (kind == Kind::device)
            p = env.usm.device_alloc(env.context, env.device, nullptr, 64, 0, &error);
        else
            p = env.usm.shared_alloc(env.context, kind == Kind::shared ? env.device : nullptr,
                                     nullptr, 64, 0, &error);
        CHECK_MSG(error == CL_INVALID_OPERATION && p == nullptr,
                  "capabilities 0: allocation returned " << error_name(error) << " and " << p
                                                         << ", expected CL_INVALID_OPERATION");
        note(std::string("capabilities of ") + kind_name(kind) +
             " are 0: its allocation fails with CL_INVALID_OPERATION as required");
        return;
    }
    if (!env.accessible(kind)) {
        if (kind != Kind::system) {
            Alloc alloc(env, kind, 64);
            CHECK_MSG(alloc.error() == CL_SUCCESS && alloc.get() != nullptr,
                      "capabilities non-zero: allocation failed with "
                          << error_name(alloc.error()));
        }
        SKIP(std::string("the device does not report ACCESS for ") + kind_name(kind));
    }
    const Program& program = common_program(env);
    Kernel rw = make_kernel(program, "rw");
    constexpr size_t n = 1000;
    constexpr size_t out_offset = n + 5; // an interior pointer, not aligned to 128
    Alloc alloc = must_alloc(env, kind, (out_offset + n) * sizeof(cl_int));
    std::vector<cl_int> input(n);
    for (size_t i = 0; i < n; ++i)
        input[i] = static_cast<cl_int>(i * 13 - 400);
    write_bytes(env, kind, alloc.get(), input.data(), n * sizeof(cl_int));
    cl_int* out = alloc.as<cl_int>() + out_offset;
    const cl_int add = 17;
    REQUIRE_OK(env.usm.set_arg_pointer(rw.get(), 0, alloc.get()));
    REQUIRE_OK(env.usm.set_arg_pointer(rw.get(), 1, out));
    REQUIRE_OK(clSetKernelArg(rw.get(), 2, sizeof(add), &add));
    REQUIRE_OK(run_1d(env, rw, n));
    REQUIRE_OK(clFinish(env.queue));
    const std::vector<cl_int> got = read_vector<cl_int>(env, kind, out, n);
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i)
        if (got[i] != input[i] * 3 + add && wrong++ < 5)
            CHECK_MSG(false, kind_name(kind) << " out[" << i << "] = " << got[i] << ", expected "
                                             << input[i] * 3 + add);
    // The input is untouched.
    CHECK(read_vector<cl_int>(env, kind, alloc.get(), n) == input);

    if (env.atomic_accessible(kind)) {
        Kernel atomic = make_kernel(program, "atomic_count");
        Alloc counter = must_alloc(env, kind, 64);
        const cl_int zero[2] = {0, 0};
        write_bytes(env, kind, counter.get(), zero, sizeof(zero));
        REQUIRE_OK(env.usm.set_arg_pointer(atomic.get(), 0, counter.as<cl_int>() + 1));
        constexpr size_t items = 4096;
        REQUIRE_OK(run_1d(env, atomic, items));
        REQUIRE_OK(clFinish(env.queue));
        const std::vector<cl_int> count = read_vector<cl_int>(env, kind, counter.get(), 2);
        CHECK_EQ(count[0], 0);
        CHECK_EQ(count[1], static_cast<cl_int>(items));
    } else {
        note(std::string("no ATOMIC_ACCESS for ") + kind_name(kind) + ": atomics not run");
    }
}

// Builds a linked list of `count` nodes, node i in its own allocation of
// kinds[i % kinds.size()], values i * 5 + 1. Returns the head.
cl_ulong build_list(Env& env, const std::vector<Kind>& kinds, size_t count,
                    std::vector<Alloc>& nodes, cl_int& expected_sum) {
    nodes.clear();
    for (size_t i = 0; i < count; ++i)
        nodes.push_back(must_alloc(env, kinds[i % kinds.size()], sizeof(Node)));
    expected_sum = 0;
    for (size_t i = 0; i < count; ++i) {
        Node node{};
        node.next = i + 1 < count ? reinterpret_cast<uintptr_t>(nodes[i + 1].get()) : 0;
        node.value = static_cast<cl_int>(i * 5 + 1);
        expected_sum += node.value;
        write_bytes(env, nodes[i].kind(), nodes[i].get(), &node, sizeof(node));
    }
    return reinterpret_cast<uintptr_t>(nodes[0].get());
}

void check_walk(Env& env, const Kernel& walk, cl_ulong head, const Alloc& out, cl_int expected_sum,
                size_t count, const std::string& what) {
    const cl_int reset[2] = {-1, -1};
    write_bytes(env, out.kind(), out.get(), reset, sizeof(reset));
    REQUIRE_OK(clSetKernelArg(walk.get(), 0, sizeof(head), &head));
    REQUIRE_OK(env.usm.set_arg_pointer(walk.get(), 1, out.get()));
    REQUIRE_OK(run_1d(env, walk, 1));
    REQUIRE_OK(clFinish(env.queue));
    const std::vector<cl_int> got = read_vector<cl_int>(env, out.kind(), out.get(), 2);
    CHECK_MSG(got[0] == expected_sum && got[1] == static_cast<cl_int>(count),
              what << ": sum " << got[0] << " over " << got[1] << " nodes, expected "
                   << expected_sum << " over " << count);
}

cl_kernel_exec_info indirect_flag(Kind kind) {
    switch (kind) {
    case Kind::host: return CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL;
    case Kind::device: return CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL;
    default: return CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL;
    }
}

// The kind of the output of a list walk: the first usable kind.
Kind out_kind(Env& env) {
    return env.usable_kinds().front();
}

} // namespace

TEST(kernel_access_host, "host allocations: capabilities against behaviour (kernel read/write, "
                         "atomics)") {
    kernel_access(env, Kind::host);
}
TEST(kernel_access_device, "device allocations: capabilities against behaviour") {
    kernel_access(env, Kind::device);
}
TEST(kernel_access_shared, "shared allocations on the device: capabilities against behaviour") {
    kernel_access(env, Kind::shared);
}
TEST(kernel_access_shared_null_device,
     "shared allocations with no device: cross-device capabilities against behaviour") {
    kernel_access(env, Kind::shared_null_device);
}
TEST(kernel_access_system, "system allocator memory: shared system capabilities against "
                           "behaviour") {
    kernel_access(env, Kind::system);
}

TEST(set_kernel_arg_mem_pointer, "clSetKernelArgMemPointerINTEL: global and constant pointers, "
                                 "NULL, re-setting, and every listed error") {
    const Program& program = common_program(env);
    const std::vector<Kind> kinds = env.usable_kinds();
    REQUIRE(!kinds.empty());
    const Kind kind = kinds.front();
    // A constant pointer argument.
    {
        Kernel k = make_kernel(program, "read_const");
        constexpr size_t n = 64;
        Alloc in = must_alloc(env, kind, n * sizeof(cl_int));
        Alloc out = must_alloc(env, kind, n * sizeof(cl_int));
        std::vector<cl_int> data(n);
        for (size_t i = 0; i < n; ++i)
            data[i] = static_cast<cl_int>(i * i);
        write_bytes(env, kind, in.get(), data.data(), n * sizeof(cl_int));
        CHECK_OK(env.usm.set_arg_pointer(k.get(), 0, in.get()));
        CHECK_OK(env.usm.set_arg_pointer(k.get(), 1, out.get()));
        REQUIRE_OK(run_1d(env, k, n));
        REQUIRE_OK(clFinish(env.queue));
        const std::vector<cl_int> got = read_vector<cl_int>(env, kind, out.get(), n);
        for (size_t i = 0; i < n; ++i)
            if (got[i] != data[i] + 1) {
                CHECK_MSG(false, "read_const out[" << i << "] = " << got[i]);
                break;
            }
    }
    // The value stays until set again: two launches with different pointers.
    {
        Kernel k = make_kernel(program, "rw");
        Alloc a = must_alloc(env, kind, 4 * sizeof(cl_int));
        Alloc b = must_alloc(env, kind, 4 * sizeof(cl_int));
        const cl_int values[4] = {1, 2, 3, 4};
        write_bytes(env, kind, a.get(), values, sizeof(values));
        const cl_int add = 0;
        CHECK_OK(env.usm.set_arg_pointer(k.get(), 0, a.get()));
        CHECK_OK(env.usm.set_arg_pointer(k.get(), 1, b.get()));
        CHECK_OK(clSetKernelArg(k.get(), 2, sizeof(add), &add));
        REQUIRE_OK(run_1d(env, k, 4)); // b = 3a
        CHECK_OK(env.usm.set_arg_pointer(k.get(), 0, b.get()));
        CHECK_OK(env.usm.set_arg_pointer(k.get(), 1, a.get()));
        REQUIRE_OK(run_1d(env, k, 4)); // a = 3b = 9a
        REQUIRE_OK(clFinish(env.queue));
        const std::vector<cl_int> got_a = read_vector<cl_int>(env, kind, a.get(), 4);
        const std::vector<cl_int> got_b = read_vector<cl_int>(env, kind, b.get(), 4);
        for (int i = 0; i < 4; ++i) {
            CHECK_EQ(got_b[i], 3 * values[i]);
            CHECK_EQ(got_a[i], 9 * values[i]);
        }
    }
    // Errors.
    Kernel k = make_kernel(program, "args_mix"); // (global int*, local int*, int)
    Alloc p = must_alloc(env, kind, 256);
    CHECK_OK(env.usm.set_arg_pointer(k.get(), 0, p.get()));
    CHECK_OK(env.usm.set_arg_pointer(k.get(), 0, p.bytes() + 16)); // interior pointer
    CHECK_OK(env.usm.set_arg_pointer(k.get(), 0, nullptr));        // NULL is valid
    CHECK_ERR(env.usm.set_arg_pointer(nullptr, 0, p.get()), CL_INVALID_KERNEL);
    CHECK_ERR(env.usm.set_arg_pointer(k.get(), 3, p.get()), CL_INVALID_ARG_INDEX);
    CHECK_ERR(env.usm.set_arg_pointer(k.get(), 1000, p.get()), CL_INVALID_ARG_INDEX);
    // "may only be set as an argument value for an argument declared to be a
    // pointer to global or constant memory"
    CHECK_ERR(env.usm.set_arg_pointer(k.get(), 1, p.get()), CL_INVALID_ARG_VALUE);
    CHECK_ERR(env.usm.set_arg_pointer(k.get(), 2, p.get()), CL_INVALID_ARG_VALUE);
    // A pointer that is in no USM allocation: valid when the device supports
    // shared system allocations; otherwise open (issue 26).
    int on_stack = 0;
    const cl_int error = env.usm.set_arg_pointer(k.get(), 0, &on_stack);
    if (env.accessible(Kind::system)) {
        CHECK_MSG(error == CL_SUCCESS,
                  "a system pointer with shared system ACCESS: " << error_name(error));
    } else {
        CHECK_MSG(error == CL_SUCCESS || error == CL_INVALID_ARG_VALUE,
                  "a system pointer: " << error_name(error));
        note("a system pointer argument without shared system support answered " +
             error_name(error) + " (open: issue 26)");
    }
}

TEST(set_kernel_exec_info, "clSetKernelExecInfo: CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL and the three "
                           "indirect access flags") {
    const Program& program = common_program(env);
    Kernel k = make_kernel(program, "walk");
    std::vector<Alloc> allocs;
    for (Kind kind : env.usable_kinds())
        if (kind != Kind::system)
            allocs.push_back(must_alloc(env, kind, 64));
    std::vector<void*> ptrs;
    for (const Alloc& a : allocs)
        ptrs.push_back(a.get());
    if (!ptrs.empty()) {
        CHECK_OK(clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL,
                                     ptrs.size() * sizeof(void*), ptrs.data()));
        // Interior pointers, and a new set that replaces the previous one.
        void* interior = allocs[0].bytes() + 8;
        CHECK_OK(clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof(void*),
                                     &interior));
    }
    for (cl_kernel_exec_info name : {CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
                                     CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL,
                                     CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL}) {
        for (cl_bool value : {CL_TRUE, CL_FALSE}) {
            const cl_int error = clSetKernelExecInfo(k.get(), name, sizeof(value), &value);
            CHECK_MSG(error == CL_SUCCESS, "clSetKernelExecInfo(0x" << std::hex << name << std::dec
                                                                    << ", " << value
                                                                    << "): " << error_name(error));
        }
        // clSetKernelExecInfo: "CL_INVALID_VALUE ... if param_value is NULL".
        CHECK_ERR(clSetKernelExecInfo(k.get(), name, sizeof(cl_bool), nullptr), CL_INVALID_VALUE);
    }
    if (!ptrs.empty())
        CHECK_ERR(clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof(void*),
                                      nullptr),
                  CL_INVALID_VALUE);
}

TEST(indirect_access_flags, "linked lists in every usable kind reached only through a ulong head, "
                            "with the kind's CL_KERNEL_EXEC_INFO_INDIRECT_*_ACCESS_INTEL flag") {
    const Program& program = common_program(env);
    size_t done = 0;
    for (Kind kind : env.usable_kinds()) {
        Kernel walk = make_kernel(program, "walk");
        if (kind != Kind::system) {
            const cl_bool yes = CL_TRUE;
            REQUIRE_OK(clSetKernelExecInfo(walk.get(), indirect_flag(kind), sizeof(yes), &yes));
        }
        std::vector<Alloc> nodes;
        cl_int sum = 0;
        const cl_ulong head = build_list(env, {kind}, 24, nodes, sum);
        Alloc out = must_alloc(env, out_kind(env), 2 * sizeof(cl_int));
        check_walk(env, walk, head, out, sum, 24, std::string("list of ") + kind_name(kind));
        ++done;
    }
    if (done == 0)
        SKIP("no usable kind");
}

TEST(indirect_usm_ptrs, "linked lists in every usable USM kind reached only through a ulong "
                        "head, listed with CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL") {
    const Program& program = common_program(env);
    size_t done = 0;
    for (Kind kind : env.usable_kinds()) {
        if (kind == Kind::system)
            continue;
        Kernel walk = make_kernel(program, "walk");
        std::vector<Alloc> nodes;
        cl_int sum = 0;
        const cl_ulong head = build_list(env, {kind}, 16, nodes, sum);
        std::vector<void*> ptrs;
        for (const Alloc& node : nodes)
            ptrs.push_back(node.get());
        REQUIRE_OK(clSetKernelExecInfo(walk.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL,
                                       ptrs.size() * sizeof(void*), ptrs.data()));
        Alloc out = must_alloc(env, out_kind(env), 2 * sizeof(cl_int));
        check_walk(env, walk, head, out, sum, 16, std::string("list of ") + kind_name(kind));
        // A shorter list: the set replaced by the first half of the nodes,
        // the list cut there.
        const size_t half = nodes.size() / 2;
        Node last{};
        read_bytes(env, kind, &last, nodes[half - 1].get(), sizeof(last));
        last.next = 0;
        write_bytes(env, kind, nodes[half - 1].get(), &last, sizeof(last));
        REQUIRE_OK(clSetKernelExecInfo(walk.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL,
                                       half * sizeof(void*), ptrs.data()));
        cl_int half_sum = 0;
        for (size_t i = 0; i < half; ++i)
            half_sum += static_cast<cl_int>(i * 5 + 1);
        check_walk(env, walk, head, out, half_sum, half,
                   std::string("replaced set, list of ") + kind_name(kind));
        ++done;
    }
    if (done == 0)
        SKIP("no usable USM kind");
}

TEST(indirect_mixed_list, "one linked list whose nodes alternate between every usable kind, with "
                          "all indirect access flags") {
    const std::vector<Kind> kinds = env.usable_kinds();
    if (kinds.size() < 2)
        SKIP("fewer than two usable kinds");
    const Program& program = common_program(env);
    Kernel walk = make_kernel(program, "walk");
    const cl_bool yes = CL_TRUE;
    for (cl_kernel_exec_info name : {CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL,
                                     CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL,
                                     CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL})
        REQUIRE_OK(clSetKernelExecInfo(walk.get(), name, sizeof(yes), &yes));
    std::vector<Alloc> nodes;
    cl_int sum = 0;
    const size_t count = kinds.size() * 6;
    const cl_ulong head = build_list(env, kinds, count, nodes, sum);
    Alloc out = must_alloc(env, out_kind(env), 2 * sizeof(cl_int));
    check_walk(env, walk, head, out, sum, count, "mixed list");
}
