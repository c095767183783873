// Sub-tests of clMemBlockingFreeINTEL: it waits for the commands that may
// use the allocation (kernels using it directly, through the USM pointer set
// or an indirect access flag, fills and copies), here gated by a user event.
#include "usm.hpp"

#include <atomic>
#include <chrono>
#include <functional>
#include <thread>

using namespace usmconf;

namespace {

using Enqueue = std::function<cl_int(cl_event gate, cl_event* done)>;

// Enqueues a command gated by a user event, then frees `ptr` with
// clMemBlockingFreeINTEL on another thread: the call must not return while
// the command waits, and must return CL_SUCCESS with the command complete
// once the gate opens.
void check_blocking_free(Env& env, void* ptr, const Enqueue& enqueue, const std::string& what) {
    UserEvent gate(env.context);
    Event done;
    const cl_int enqueued = enqueue(gate.get(), done.out());
    if (enqueued != CL_SUCCESS) {
        CHECK_MSG(false, what << ": enqueue: " << error_name(enqueued));
        env.usm.free(env.context, ptr);
        throw Abort{};
    }
    std::atomic<bool> returned{false};
    cl_int result = CL_SUCCESS;
    cl_int status_at_return = 1;
    std::thread freer([&] {
        result = env.usm.blocking_free(env.context, ptr);
        status_at_return = event_status(done.get());
        returned = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    const bool early = returned.load();
    CHECK_MSG(!early, what << ": clMemBlockingFreeINTEL returned (" << error_name(result)
                           << ") while a command using the allocation was waiting for its "
                              "user event");
    const cl_int status = event_status(done.get());
    CHECK_MSG(status > CL_RUNNING, what << ": the gated command has status " << status);
    // When the free did not wait, the command must not run on freed
    // memory: its gate fails instead of completing.
    CHECK_OK(gate.set(returned.load() ? -1 : CL_COMPLETE));
    freer.join();
    CHECK_MSG(result == CL_SUCCESS, what << ": clMemBlockingFreeINTEL: " << error_name(result));
    CHECK_MSG(status_at_return == CL_COMPLETE,
              what << ": the command's status when clMemBlockingFreeINTEL returned: "
                   << status_at_return);
}

std::vector<Kind> usm_usable(Env& env) {
    std::vector<Kind> kinds;
    for (Kind kind : env.usable_kinds())
        if (kind != Kind::system)
            kinds.push_back(kind);
    return kinds;
}

cl_kernel_exec_info indirect_flag(Kind kind) {
    switch (kind) {
    case Kind::host: return CL_KERNEL_EXEC_INFO_INDIRECT_HOST_ACCESS_INTEL;
    case Kind::device: return CL_KERNEL_EXEC_INFO_INDIRECT_DEVICE_ACCESS_INTEL;
    default: return CL_KERNEL_EXEC_INFO_INDIRECT_SHARED_ACCESS_INTEL;
    }
}

// How the walk kernel is told about the freed node.
enum class Reach { flag, usm_ptrs };

void blocking_free_walk(Env& env, Reach reach) {
    const std::vector<Kind> kinds = usm_usable(env);
    if (kinds.empty())
        SKIP("no usable USM kind");
    for (Kind kind : kinds) {
        Kernel walk = make_kernel(common_program(env), "walk");
        Alloc node = must_alloc(env, kind, sizeof(Node));
        const Node value{0, 41, 0};
        write_bytes(env, kind, node.get(), &value, sizeof(value));
        Alloc out = must_alloc(env, env.usable_kinds().front(), 2 * sizeof(cl_int));
        const cl_int reset[2] = {0, 0};
        write_bytes(env, out.kind(), out.get(), reset, sizeof(reset));
        void* p = node.get();
        if (reach == Reach::flag) {
            const cl_bool yes = CL_TRUE;
            REQUIRE_OK(clSetKernelExecInfo(walk.get(), indirect_flag(kind), sizeof(yes), &yes));
        } else {
            REQUIRE_OK(
                clSetKernelExecInfo(walk.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof(p), &p));
        }
        const cl_ulong head = reinterpret_cast<uintptr_t>(p);
        REQUIRE_OK(clSetKernelArg(walk.get(), 0, sizeof(head), &head));
        REQUIRE_OK(env.usm.set_arg_pointer(walk.get(), 1, out.get()));
        node.release();
        check_blocking_free(
            env, p,
            [&](cl_event gate, cl_event* done) {
                const size_t global = 1;
                return clEnqueueNDRangeKernel(env.queue, walk.get(), 1, nullptr, &global, nullptr,
                                              1, &gate, done);
            },
            std::string(reach == Reach::flag ? "indirect flag, " : "USM pointer set, ") +
                kind_name(kind));
        const std::vector<cl_int> got = read_vector<cl_int>(env, out.kind(), out.get(), 2);
        CHECK_MSG(got[0] == 41 && got[1] == 1,
                  kind_name(kind) << ": the kernel read " << got[0] << " over " << got[1]);
    }
}

} // namespace

TEST(blocking_free_kernel_arg, "clMemBlockingFreeINTEL waits for a gated kernel that uses the "
                               "allocation as an argument") {
    const std::vector<Kind> kinds = usm_usable(env);
    if (kinds.empty())
        SKIP("no usable USM kind");
    for (Kind kind : kinds) {
        Kernel rw = make_kernel(common_program(env), "rw");
        constexpr size_t n = 256;
        Alloc in = must_alloc(env, kind, n * sizeof(cl_int));
        Alloc out = must_alloc(env, kinds.front(), n * sizeof(cl_int));
        std::vector<cl_int> data(n);
        for (size_t i = 0; i < n; ++i)
            data[i] = static_cast<cl_int>(i);
        write_bytes(env, kind, in.get(), data.data(), n * sizeof(cl_int));
        const cl_int add = 2;
        REQUIRE_OK(env.usm.set_arg_pointer(rw.get(), 0, in.get()));
        REQUIRE_OK(env.usm.set_arg_pointer(rw.get(), 1, out.get()));
        REQUIRE_OK(clSetKernelArg(rw.get(), 2, sizeof(add), &add));
        void* p = in.release();
        check_blocking_free(
            env, p,
            [&](cl_event gate, cl_event* done) {
                const size_t global = n;
                return clEnqueueNDRangeKernel(env.queue, rw.get(), 1, nullptr, &global, nullptr, 1,
                                              &gate, done);
            },
            std::string("kernel argument, ") + kind_name(kind));
        const std::vector<cl_int> got = read_vector<cl_int>(env, out.kind(), out.get(), n);
        for (size_t i = 0; i < n; ++i)
            if (got[i] != data[i] * 3 + add) {
                CHECK_MSG(false, kind_name(kind) << ": out[" << i << "] = " << got[i]);
                break;
            }
    }
}

TEST(blocking_free_indirect_flag, "clMemBlockingFreeINTEL waits for a gated kernel that may reach "
                                  "the allocation through an indirect access flag") {
    blocking_free_walk(env, Reach::flag);
}

TEST(blocking_free_usm_ptrs, "clMemBlockingFreeINTEL waits for a gated kernel whose "
                             "CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL set holds the allocation") {
    blocking_free_walk(env, Reach::usm_ptrs);
}

TEST(blocking_free_commands, "clMemBlockingFreeINTEL waits for a gated fill into and a gated copy "
                             "from the allocation") {
    const std::vector<Kind> kinds = usm_usable(env);
    if (kinds.empty())
        SKIP("no usable USM kind");
    constexpr size_t size = 4096;
    for (Kind kind : kinds) {
        {
            Alloc dst = must_alloc(env, kind, size);
            void* p = dst.release();
            const cl_uint pattern = 7;
            check_blocking_free(
                env, p,
                [&](cl_event gate, cl_event* done) {
                    return env.usm.fill(env.queue, p, &pattern, sizeof(pattern), size, 1, &gate,
                                        done);
                },
                std::string("fill, ") + kind_name(kind));
        }
        {
            Alloc src = must_alloc(env, kind, size);
            Alloc dst = must_alloc(env, kinds.front(), size);
            std::vector<unsigned char> data(size);
            for (size_t i = 0; i < size; ++i)
                data[i] = static_cast<unsigned char>(i * 3);
            write_bytes(env, kind, src.get(), data.data(), size);
            void* p = src.release();
            check_blocking_free(
                env, p,
                [&](cl_event gate, cl_event* done) {
                    return env.usm.memcpy(env.queue, CL_FALSE, dst.get(), p, size, 1, &gate, done);
                },
                std::string("memcpy source, ") + kind_name(kind));
            CHECK(read_vector<unsigned char>(env, dst.kind(), dst.get(), size) == data);
        }
    }
}
