// clMemBlockingFreeINTEL waits for the commands that may use the allocation
// and for no others: kernels given a pointer into it as an argument, through
// CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, or through the indirect-access flag of
// its type; fills and copies on it. Each pending command is held back by a
// user event; the free runs on another thread, must not return while the
// command is held, and must return (with the command complete and its
// results right) once the event completes. clMemFreeINTEL does not wait.
// Also the errors of both frees.
#include "usm_test.hpp"

#include <atomic>
#include <optional>

using namespace cl_test;
using namespace usm_test;

namespace {

const char* const kernel_source = R"CLC(
__kernel void plus_one(__global const int* src, __global int* dst) {
    size_t i = get_global_id(0);
    dst[i] = src[i] + 1;
}

__kernel void plus_one_hidden(ulong src_address, __global int* dst) {
    __global const int* src = (__global const int*)src_address;
    size_t i = get_global_id(0);
    dst[i] = src[i] + 1;
}
)CLC";

// How long the free must stay blocked while its command is held back.
constexpr auto held = 200ms;
// How soon a free that has nothing to wait for must return.
constexpr auto prompt = 3s;

struct FreeFixture : Fixture {
    ProgramPtr program = build_program(ctx(), device, kernel_source);

    // Writes values into an allocation of any kind (blocking copy).
    void write(void* to, const std::vector<int>& values) const {
        REQUIRE_OK(usm.memcpy(q(), CL_TRUE, to, values.data(), values.size() * sizeof(int), 0,
                              nullptr, nullptr));
    }
};

// Completes a user event at scope exit whatever happened, so that nothing is
// left waiting on it.
struct Release {
    cl_event event;
    ~Release() { clSetUserEventStatus(event, CL_COMPLETE); }
};

// Runs a free on its own thread. Records the result and the status of a
// watched event at the moment the free returned.
class BackgroundFree {
public:
    BackgroundFree(clMemBlockingFreeINTEL_fn free, cl_context context, void* ptr,
                   cl_event watched = nullptr)
        : thread_([this, free, context, ptr, watched] {
              const cl_int result = free(context, ptr);
              cl_int status = CL_COMPLETE;
              if (watched)
                  clGetEventInfo(watched, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status,
                                 nullptr);
              status_at_return_ = status;
              result_ = result;
              done_ = true;
          }) {}
    BackgroundFree(const BackgroundFree&) = delete;
    BackgroundFree& operator=(const BackgroundFree&) = delete;

    // Waits up to limit for the free to return.
    bool returned_within(std::chrono::steady_clock::duration limit) const {
        const auto deadline = std::chrono::steady_clock::now() + limit;
        while (!done_) {
            if (std::chrono::steady_clock::now() > deadline)
                return false;
            std::this_thread::sleep_for(1ms);
        }
        return true;
    }
    bool returned() const { return done_; }
    cl_int result() const { return result_; }
    cl_int status_at_return() const { return status_at_return_; }

    ~BackgroundFree() {
        // A free that never returns is a failed test; do not hang on it.
        if (returned_within(hang_limit))
            thread_.join();
        else
            thread_.detach();
    }

private:
    std::atomic<bool> done_{false};
    std::atomic<cl_int> result_{CL_OUT_OF_RESOURCES};
    std::atomic<cl_int> status_at_return_{CL_QUEUED};
    std::thread thread_;
};

// Frees ptr (clMemBlockingFreeINTEL, on another thread) while command, which
// uses it, is held back by the user event gate: the free must still be
// waiting after `held`, and return CL_SUCCESS once the gate opens, with the
// command complete by then.
void check_free_waits_for_command(const Fixture& f, void* ptr, cl_event gate, cl_event command) {
    std::optional<BackgroundFree> freeing;
    Release release{gate};
    freeing.emplace(f.usm.blocking_free, f.ctx(), ptr, command);
    std::this_thread::sleep_for(held);
    CHECK_FALSE(freeing->returned());
    CHECK(event_status(command) > CL_COMPLETE);

    REQUIRE_OK(clSetUserEventStatus(gate, CL_COMPLETE));
    REQUIRE(freeing->returned_within(hang_limit));
    CHECK_CL(freeing->result(), CL_SUCCESS);
    CHECK(freeing->status_at_return() == CL_COMPLETE);
}

std::vector<int> values(size_t n, int start) {
    std::vector<int> v(n);
    for (size_t i = 0; i < n; ++i)
        v[i] = start + static_cast<int>(i) * 3;
    return v;
}

// Checks dst == src + 1 element by element.
void check_plus_one(const std::vector<int>& src, const int* dst) {
    size_t wrong = 0;
    for (size_t i = 0; i < src.size(); ++i)
        wrong += dst[i] != src[i] + 1;
    CHECK(wrong == 0);
}

// How a held kernel reaches the allocation being freed.
enum class Reach { argument, interior_argument, usm_ptrs, usm_ptrs_interior, indirect_flag };

const char* reach_name(Reach reach) {
    switch (reach) {
    case Reach::argument: return "a pointer argument";
    case Reach::interior_argument: return "an interior pointer argument";
    case Reach::usm_ptrs: return "CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL";
    case Reach::usm_ptrs_interior: return "CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL (interior)";
    case Reach::indirect_flag: return "the indirect-access flag of its type";
    }
    return "?";
}

} // namespace

TEST_CASE("clMemBlockingFreeINTEL waits for a held kernel that uses the allocation",
          "[blocking-free][kernel]") {
    FreeFixture f;
    constexpr size_t n = 1024, skip = 16; // interior pointers start skip elements in
    for (Kind kind : {Kind::host, Kind::device, Kind::shared}) {
        for (Reach reach : {Reach::argument, Reach::interior_argument, Reach::usm_ptrs,
                            Reach::usm_ptrs_interior, Reach::indirect_flag}) {
            INFO(kind_name(kind) << " allocation reached through " << reach_name(reach));
            void* src = f.alloc(kind, (n + skip) * sizeof(int));
            const std::vector<int> data = values(n + skip, -500);
            f.write(src, data);
            // The results go to malloc'd memory: not USM, so no free is
            // concerned with it.
            std::vector<int> dst(n, 0);
            const bool interior =
                reach == Reach::interior_argument || reach == Reach::usm_ptrs_interior;
            const int* first = static_cast<const int*>(src) + (interior ? skip : 0);

            KernelPtr k;
            if (reach == Reach::argument || reach == Reach::interior_argument) {
                k = make_kernel(f.program.get(), "plus_one");
                REQUIRE_OK(f.usm.set_arg_pointer(k.get(), 0, first));
            } else {
                k = make_kernel(f.program.get(), "plus_one_hidden");
                const cl_ulong address = reinterpret_cast<uintptr_t>(first);
                REQUIRE_OK(clSetKernelArg(k.get(), 0, sizeof address, &address));
                if (reach == Reach::indirect_flag) {
                    const cl_bool yes = CL_TRUE;
                    REQUIRE_OK(
                        clSetKernelExecInfo(k.get(), indirect_access_flag(kind), sizeof yes, &yes));
                } else {
                    const void* ptrs[] = {first};
                    REQUIRE_OK(clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL,
                                                   sizeof ptrs, ptrs));
                }
            }
            REQUIRE_OK(f.usm.set_arg_pointer(k.get(), 1, dst.data()));

            EventPtr gate = make_user_event(f.ctx());
            cl_event g = gate.get();
            cl_event raw = nullptr;
            const size_t global = n;
            REQUIRE_OK(
                clEnqueueNDRangeKernel(f.q(), k.get(), 1, nullptr, &global, nullptr, 1, &g, &raw));
            EventPtr launched(raw);
            check_free_waits_for_command(f, src, g, raw);
            std::vector<int> used(data.begin() + (interior ? skip : 0),
                                  data.begin() + (interior ? skip : 0) + n);
            check_plus_one(used, dst.data());
            REQUIRE_OK(clFinish(f.q()));
        }
    }
}

TEST_CASE("clMemBlockingFreeINTEL waits for a held fill or copy on the allocation",
          "[blocking-free][commands]") {
    FreeFixture f;
    constexpr size_t n = 4096;
    for (Kind kind : {Kind::host, Kind::device, Kind::shared}) {
        for (int command = 0; command < 4; ++command) {
            const char* names[] = {"fill", "memset", "memcpy from it", "memcpy into it"};
            INFO(kind_name(kind) << " allocation, held " << names[command]);
            void* memory = f.alloc(kind, n * sizeof(int));
            const std::vector<int> data = values(n, 7);
            f.write(memory, data);
            std::vector<int> outside(n, 0);
            const std::vector<int> incoming = values(n, 100000);

            EventPtr gate = make_user_event(f.ctx());
            cl_event g = gate.get();
            cl_event raw = nullptr;
            const int pattern = 0x01020304;
            switch (command) {
            case 0:
                REQUIRE_OK(f.usm.fill(f.q(), static_cast<int*>(memory) + 8, &pattern,
                                      sizeof pattern, 64 * sizeof(int), 1, &g, &raw));
                break;
            case 1:
                REQUIRE_OK(
                    f.usm.memset(f.q(), static_cast<char*>(memory) + 5, 0x77, 99, 1, &g, &raw));
                break;
            case 2:
                REQUIRE_OK(f.usm.memcpy(f.q(), CL_FALSE, outside.data(), memory, n * sizeof(int), 1,
                                        &g, &raw));
                break;
            case 3:
                REQUIRE_OK(f.usm.memcpy(f.q(), CL_FALSE, static_cast<int*>(memory) + 1,
                                        incoming.data(), (n - 1) * sizeof(int), 1, &g, &raw));
                break;
            }
            EventPtr held_command(raw);
            check_free_waits_for_command(f, memory, g, raw);
            if (command == 2)
                CHECK(outside == data);
            REQUIRE_OK(clFinish(f.q()));
        }
    }
}

TEST_CASE("clMemBlockingFreeINTEL does not wait for commands that cannot use the allocation",
          "[blocking-free][unrelated]") {
    FreeFixture f;
    constexpr size_t n = 256;
    // The held kernel reads a host allocation given as an argument; the
    // freed allocation is of each kind in turn, and the kernel has the
    // indirect flags of every other type, never of the freed one's.
    for (Kind freed_kind : {Kind::host, Kind::device, Kind::shared}) {
        INFO("freeing a " << kind_name(freed_kind) << " allocation");
        void* used = f.host(n * sizeof(int));
        const std::vector<int> data = values(n, 1);
        f.write(used, data);
        std::vector<int> dst(n, 0);
        void* unrelated = f.alloc(freed_kind, 4096);

        KernelPtr k = make_kernel(f.program.get(), "plus_one");
        REQUIRE_OK(f.usm.set_arg_pointer(k.get(), 0, used));
        REQUIRE_OK(f.usm.set_arg_pointer(k.get(), 1, dst.data()));
        for (Kind other : {Kind::host, Kind::device, Kind::shared}) {
            if (other != freed_kind) {
                const cl_bool yes = CL_TRUE;
                REQUIRE_OK(
                    clSetKernelExecInfo(k.get(), indirect_access_flag(other), sizeof yes, &yes));
            }
        }
        // An explicit set of allocations that leaves the freed one out.
        const void* ptrs[] = {used};
        REQUIRE_OK(
            clSetKernelExecInfo(k.get(), CL_KERNEL_EXEC_INFO_USM_PTRS_INTEL, sizeof ptrs, ptrs));

        EventPtr gate = make_user_event(f.ctx());
        cl_event g = gate.get();
        Release release{g};
        cl_event raw = nullptr;
        const size_t global = n;
        REQUIRE_OK(
            clEnqueueNDRangeKernel(f.q(), k.get(), 1, nullptr, &global, nullptr, 1, &g, &raw));
        EventPtr launched(raw);
        // A held fill on another allocation too.
        void* other_fill = f.alloc(freed_kind, 256);
        const unsigned char byte = 5;
        cl_event fill_raw = nullptr;
        REQUIRE_OK(f.usm.fill(f.q(), other_fill, &byte, 1, 256, 1, &g, &fill_raw));
        EventPtr fill_event(fill_raw);

        bool quick = false;
        {
            BackgroundFree freeing(f.usm.blocking_free, f.ctx(), unrelated);
            quick = freeing.returned_within(prompt);
            CHECK(quick);
            if (quick) {
                CHECK_CL(freeing.result(), CL_SUCCESS);
                CHECK(event_status(raw) > CL_COMPLETE); // still held
                CHECK(event_status(fill_raw) > CL_COMPLETE);
            }
            REQUIRE_OK(clSetUserEventStatus(g, CL_COMPLETE)); // lets a stuck free end
        }

        REQUIRE(wait_bounded(raw));
        REQUIRE(wait_bounded(fill_raw));
        check_plus_one(data, dst.data());
        CHECK_OK(f.usm.blocking_free(f.ctx(), used));
        CHECK_OK(f.usm.blocking_free(f.ctx(), other_fill));
    }
}

TEST_CASE("a blocking free in another context does not wait for this context's commands",
          "[blocking-free][unrelated]") {
    FreeFixture f;
    cl_test::ContextPtr other = make_context({f.device});
    cl_int error = CL_OUT_OF_RESOURCES;
    void* theirs = f.usm.shared_alloc(other.get(), nullptr, nullptr, 4096, 0, &error);
    REQUIRE_OK(error);
    void* mine = f.shared(4096);

    KernelPtr k = make_kernel(f.program.get(), "plus_one_hidden");
    const cl_ulong address = reinterpret_cast<uintptr_t>(mine);
    REQUIRE_OK(clSetKernelArg(k.get(), 0, sizeof address, &address));
    std::vector<int> dst(16, 0);
    REQUIRE_OK(f.usm.set_arg_pointer(k.get(), 1, dst.data()));
    const cl_bool yes = CL_TRUE;
    for (Kind kind : {Kind::host, Kind::device, Kind::shared})
        REQUIRE_OK(clSetKernelExecInfo(k.get(), indirect_access_flag(kind), sizeof yes, &yes));

    EventPtr gate = make_user_event(f.ctx());
    cl_event g = gate.get();
    Release release{g};
    cl_event raw = nullptr;
    const size_t global = 16;
    REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), k.get(), 1, nullptr, &global, nullptr, 1, &g, &raw));
    EventPtr launched(raw);
    {
        BackgroundFree freeing(f.usm.blocking_free, other.get(), theirs);
        const bool quick = freeing.returned_within(prompt);
        CHECK(quick);
        if (quick) {
            CHECK_CL(freeing.result(), CL_SUCCESS);
            CHECK(event_status(raw) > CL_COMPLETE);
        }
        REQUIRE_OK(clSetUserEventStatus(g, CL_COMPLETE)); // lets a stuck free end
    }
    REQUIRE(wait_bounded(raw));
    CHECK_OK(f.usm.blocking_free(f.ctx(), mine));
}

TEST_CASE("clMemFreeINTEL does not wait for held commands", "[free]") {
    FreeFixture f;
    void* used = f.shared(1024 * sizeof(int));
    const std::vector<int> data = values(1024, 3);
    f.write(used, data);
    std::vector<int> dst(1024, 0);
    KernelPtr k = make_kernel(f.program.get(), "plus_one");
    REQUIRE_OK(f.usm.set_arg_pointer(k.get(), 0, used));
    REQUIRE_OK(f.usm.set_arg_pointer(k.get(), 1, dst.data()));
    // Indirect access to every type: a blocking free of any allocation would
    // wait for this kernel; clMemFreeINTEL must not.
    const cl_bool yes = CL_TRUE;
    for (Kind kind : {Kind::host, Kind::device, Kind::shared})
        REQUIRE_OK(clSetKernelExecInfo(k.get(), indirect_access_flag(kind), sizeof yes, &yes));

    EventPtr gate = make_user_event(f.ctx());
    cl_event g = gate.get();
    Release release{g};
    cl_event raw = nullptr;
    const size_t global = 1024;
    REQUIRE_OK(clEnqueueNDRangeKernel(f.q(), k.get(), 1, nullptr, &global, nullptr, 1, &g, &raw));
    EventPtr launched(raw);

    bool all_quick = true;
    for (Kind kind : {Kind::host, Kind::device, Kind::shared}) {
        INFO("freeing a " << kind_name(kind) << " allocation");
        void* unrelated = f.alloc(kind, 8192);
        BackgroundFree freeing(f.usm.free, f.ctx(), unrelated);
        const bool quick = freeing.returned_within(prompt);
        CHECK(quick);
        if (!quick) {
            all_quick = false;
            clSetUserEventStatus(g, CL_COMPLETE); // lets a stuck free end
            break;
        }
        CHECK_CL(freeing.result(), CL_SUCCESS);
        // Freed: not an allocation any more.
        cl_unified_shared_memory_type_intel type = 0;
        REQUIRE_OK(f.usm.alloc_info(f.ctx(), unrelated, CL_MEM_ALLOC_TYPE_INTEL, sizeof type, &type,
                                    nullptr));
        CHECK(type == CL_MEM_TYPE_UNKNOWN_INTEL);
    }
    if (all_quick) {
        CHECK(event_status(raw) > CL_COMPLETE);
        REQUIRE_OK(clSetUserEventStatus(g, CL_COMPLETE));
    }
    REQUIRE(wait_bounded(raw));
    check_plus_one(data, dst.data());
    CHECK_OK(f.usm.free(f.ctx(), used));
}

TEST_CASE("clMemBlockingFreeINTEL and clMemFreeINTEL errors", "[blocking-free][errors]") {
    FreeFixture f;
    for (clMemBlockingFreeINTEL_fn free : {f.usm.blocking_free, f.usm.free}) {
        const bool blocking = free == f.usm.blocking_free;
        INFO((blocking ? "clMemBlockingFreeINTEL" : "clMemFreeINTEL"));
        CHECK_OK(free(f.ctx(), nullptr));

        int on_stack = 0;
        std::vector<int> on_heap(16);
        CHECK_CL(free(f.ctx(), &on_stack), CL_INVALID_VALUE);
        CHECK_CL(free(f.ctx(), on_heap.data()), CL_INVALID_VALUE);

        void* p = f.shared(256);
        CHECK_CL(free(f.ctx(), static_cast<char*>(p) + 1), CL_INVALID_VALUE);   // interior
        CHECK_CL(free(f.ctx(), static_cast<char*>(p) + 255), CL_INVALID_VALUE); // last byte
        // An allocation of another context.
        cl_test::ContextPtr other = make_context({f.device});
        cl_int error = CL_OUT_OF_RESOURCES;
        void* theirs = f.usm.host_alloc(other.get(), nullptr, 64, 0, &error);
        REQUIRE_OK(error);
        CHECK_CL(free(f.ctx(), theirs), CL_INVALID_VALUE);
        CHECK_OK(free(other.get(), theirs));

        // Invalid contexts.
        CHECK_CL(free(nullptr, p), CL_INVALID_CONTEXT);
        FakeObject fake(f.ctx(), 0x4d);
        CHECK_CL(free(fake.as<cl_context>(), p), CL_INVALID_CONTEXT);
        CHECK_CL(free(reinterpret_cast<cl_context>(f.q()), p), CL_INVALID_CONTEXT);

        // None of the failed calls freed p.
        size_t size = 0;
        REQUIRE_OK(
            f.usm.alloc_info(f.ctx(), p, CL_MEM_ALLOC_SIZE_INTEL, sizeof size, &size, nullptr));
        CHECK(size == 256);
        CHECK_OK(free(f.ctx(), p));
        CHECK_CL(free(f.ctx(), p), CL_INVALID_VALUE); // freed already
    }
}
