// Atomics on __local memory run as plain memory operations (LocalAtomics: a
// work-group runs on one thread). The results must be those of some order
// of the work-items: sums, the set of values exchanged, the winner of a
// compare-exchange, minimum and maximum, checked against the host.
#include "compiler_test.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

TEST_CASE("local atomics give the results of sequential work-items", "[compiler][exec][atomics]") {
    auto M = kctest::build(R"CL(
kernel void k(global int *old, global int *final, volatile local atomic_int *l,
              local int *plain) {
  uint lid = get_local_id(0);
  if (lid == 0) {
    for (int i = 0; i < 6; ++i)
      atomic_store_explicit(&l[i], 0, memory_order_relaxed, memory_scope_work_group);
    atomic_store_explicit(&l[4], 1000, memory_order_relaxed, memory_scope_work_group);
    plain[0] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  old[4 * get_global_id(0)] = atomic_fetch_add(&l[0], (int)lid + 1);
  old[4 * get_global_id(0) + 1] = atomic_exchange(&l[1], (int)lid);
  int expected = 0;
  old[4 * get_global_id(0) + 2] = atomic_compare_exchange_strong(&l[2], &expected, (int)lid + 7);
  for (int i = 0; i < 100; ++i)
    atomic_fetch_add_explicit(&l[3], 1, memory_order_relaxed, memory_scope_work_group);
  atomic_fetch_min(&l[4], (int)(lid * 37 % 101));
  atomic_fetch_max(&l[5], (int)(lid * 37 % 101));
  old[4 * get_global_id(0) + 3] = atomic_inc((volatile local int *)plain);
  barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0)
    for (int i = 0; i < 6; ++i)
      final[7 * get_group_id(0) + i] = atomic_load(&l[i]);
  if (lid == 0)
    final[7 * get_group_id(0) + 6] = plain[0];
}
)CL",
                           "-cl-std=CL3.0");
    auto Program = kctest::jit(*M);
    constexpr uint32_t Local = 64, Groups = 3, N = Local * Groups;
    std::vector<int32_t> Old(4 * N, -1), Final(7 * Groups, -1);
    kctest::ArgBuffer Args(M->kernels()[0]);
    Args.set(0, Old.data()).set(1, Final.data());
    // The local arguments: offsets into the arena after the kernel's own.
    const kc::KernelInfo& K = M->kernels()[0];
    uint64_t Offset = (K.StaticLocalMemSize + 127) / 128 * 128;
    Args.set(2, Offset).set(3, Offset + 128);
    kctest::runNDRange(Program->lookup("k"), Args, 1, {N, 1, 1}, {Local, 1, 1}, {0, 0, 0},
                       Offset + 256);
    for (uint32_t G = 0; G < Groups; ++G) {
        INFO("group " << G);
        const int32_t* F = &Final[7 * G];
        CHECK(F[0] == static_cast<int32_t>(Local * (Local + 1) / 2));
        CHECK(F[3] == static_cast<int32_t>(100 * Local));
        int32_t Min = 1000, Max = 0;
        for (uint32_t L = 0; L < Local; ++L) {
            Min = std::min<int32_t>(Min, L * 37 % 101);
            Max = std::max<int32_t>(Max, L * 37 % 101);
        }
        CHECK(F[4] == Min);
        CHECK(F[5] == Max);
        CHECK(F[6] == static_cast<int32_t>(Local));
        // fetch_add: the old values are the prefix sums of some order; the
        // exchanges and the increments form a chain through every value.
        std::vector<int32_t> Adds, Exchanged, Incs;
        int Winners = 0;
        for (uint32_t L = 0; L < Local; ++L) {
            const int32_t* O = &Old[4 * (G * Local + L)];
            Adds.push_back(O[0]);
            Exchanged.push_back(O[1]);
            Winners += O[2];
            Incs.push_back(O[3]);
        }
        Exchanged.push_back(F[1]);
        std::sort(Exchanged.begin(), Exchanged.end());
        std::vector<int32_t> ExpectedExchanged(Local);
        std::iota(ExpectedExchanged.begin(), ExpectedExchanged.end(), 0);
        ExpectedExchanged.insert(ExpectedExchanged.begin(), 0); // the initial 0
        CHECK(Exchanged == ExpectedExchanged);
        CHECK(Winners == 1);
        CHECK(F[2] >= 7);
        CHECK(F[2] < static_cast<int32_t>(Local + 7));
        std::sort(Incs.begin(), Incs.end());
        std::vector<int32_t> ExpectedIncs(Local);
        std::iota(ExpectedIncs.begin(), ExpectedIncs.end(), 0);
        CHECK(Incs == ExpectedIncs);
        std::sort(Adds.begin(), Adds.end());
        CHECK(Adds.front() == 0);
        CHECK(std::adjacent_find(Adds.begin(), Adds.end()) == Adds.end());
    }
}
