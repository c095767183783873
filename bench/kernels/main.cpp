// kernel_bench: program build time and kernel throughput, usmcl side by side
// with its peers (PoCL, Intel's CPU runtime) in one run.
//
// Usage
//   ninja -C build-bench bench-kernels            (configured with -Dbenchmarks=true)
// or directly
//   build-bench/bench/kernels/kernel_bench --usmcl build-bench/driver/icd
//       [--pocl /etc/OpenCL/vendors/pocl.icd] [--peer Intel=<folder>/icd] [--cpus 0]
//       [--rounds 2] [--build-rounds 3] [--form-repeats 5] [--batches 10] [--budget 1.5]
//       [--only build|forms|kernels]
// The driver options (--usmcl, --peer, --pocl, --cpus) are bench/common's
// (drivers.hpp): an ICD vendors folder or a single .icd file each.
//
// Every measurement runs in a child process (this program, started again with
// --child and OCL_ICD_VENDORS naming one ICD), so the drivers never share a
// process and their worker threads never compete. Every child gets its own
// compiled-code cache folder: USMCL_CACHE_DIR for usmcl, POCL_CACHE_DIR for
// PoCL (each driver ignores the other's variable; Intel's runtime keeps no
// cache of compiled programs on disk); the user's caches are not touched. All on an in-order queue
// without profiling of the first device.
//
// --only runs part 1, 1b, or 2 and 3 alone.
//
// Part 1, program build of a small kernel (vector add), timed from
//   clCreateProgramWithSource to the return of clBuildProgram ("build"), and
//   on to the completion of a first launch of 4096 work-items ("build + first
//   launch": PoCL compiles the work-group function at the first enqueue, so
//   only this column compares like with like). Per round and ICD, a child
//   with a fresh, empty cache folder ("cold": nothing compiled on disk; the
//   compiler's own start-up in the process counts too), then a second child
//   with the same, now filled, folder ("cached": a new process reading the
//   disk cache). The cold child also builds the same source a second time
//   ("same process"). --build-rounds rounds, every driver first in turn; the
//   best time counts.
// Part 1b, the same programs built from OpenCL C and from SPIR-V: vector add
//   (spirv/vector_add.cl) and four kernels with loops, __local tiles and
//   barriers (spirv/compute.cl: naive and tiled matrix multiply, Mandelbrot,
//   n-body), each also as SPIR-V made from it by clang-15 and llvm-spirv-15
//   (spirv/<program>.spvasm, assembled by spirv-as at build time). Timed from
//   clCreateProgramWithSource or clCreateProgramWithIL to the return of
//   clBuildProgram (usmcl generates native code there; PoCL and Intel's
//   runtime may defer some of it to the first launch, not timed here). Per
//   round, ICD, program and form, a child with the driver's cache off
//   (USMCL_CACHE=0, POCL_KERNEL_CACHE=0) builds the program once ("cold": the
//   first build in a new process, the compiler's start-up included), then
//   --form-repeats times more ("warm": the same process, every build compiled
//   again); a second child with the cache on and a fresh folder builds it as
//   often ("cached": the builds after the first, whose native code the cache
//   holds). Medians over all rounds; n/a where clCreateProgramWithIL fails.
// Part 2, throughput (one child per ICD and round, --rounds rounds, every
//   driver first in turn; the best child counts). Each kernel is built (not timed), run
//   once as a warm-up whose result is checked against a host reference, then
//   timed in up to --batches batches: a first of one launch, which sets k,
//   then batches of k launches followed by clFinish, k chosen so that a batch
//   takes about 50 ms; once --budget seconds have passed, 2 batches suffice.
//   The best batch gives the time per launch (other load on the machine only
//   adds time).
//   - vector add c = a + b, 16M floats: GB/s counting 12 bytes per element;
//   - SAXPY y = alpha * x + y in place, 16M floats: GB/s, 12 bytes per element;
//   - STREAM triad a = b + s * c, 32M floats (128 MiB per array): GB/s at 12
//     bytes per element, and the same loop run natively in the same child by
//     one host thread per hardware thread (best of 10), and the kernel's share
//     of that native bandwidth in per cent;
//   - matrix multiply, 1024 x 1024 floats: naive (one dot product per
//     work-item, local size chosen by the driver), naive with a bounds guard
//     (24 x 8 work-groups over a global size rounded up to 1032 x 1024: the
//     last column of groups has work-items that return at once) and tiled
//     (16 x 16 tiles of both matrices in __local memory, two barriers per
//     tile): GFLOP/s counting 2 * 1024^3 operations;
//   - Mandelbrot, 1024 x 1024 pixels over [-2, 1] x [-1.5, 1.5], up to 256
//     iterations (divergent work-items): Mpixel/s; up to 1% of the pixels may
//     differ from the host's count (fused multiply-adds near the boundary);
//   - n-body step, 8192 bodies, every pair with one rsqrt: Gpair/s; 256
//     bodies checked against a double-precision host sum (relative 1e-3);
//   - collectives (child_collectives.cpp), 16M elements in work-groups of
//     256 work-items: sub_group_reduce_add of floats (the sub-group leader
//     writes one partial sum per sub-group) and sub_group_scan_inclusive_add
//     of floats, needing __opencl_c_subgroups; work_group_reduce_add of ints
//     (one partial sum per group) and work_group_scan_inclusive_add of ints
//     and of floats, needing __opencl_c_work_group_collective_functions;
//     GB/s counting 4 bytes per element for the reductions, 8 for the scans
//     (read and written), and the sub-group size the driver chose. A driver
//     without the feature (CL_DEVICE_OPENCL_C_FEATURES) shows "n/a";
//   - reduction, sum of 64M ints: work-groups of 256 work-items, each adding
//     two elements, then a tree in __local memory with a barrier per level,
//     one partial sum per group (summed on the host for the check, not timed):
//     GB/s counting 4 bytes per element;
//   - 1M tiny work-items (each writes one int), local size chosen by the
//     driver: launch plus per-work-item overhead, ns per work-item.
// Part 3, round trip of an empty kernel (1 work-item): clEnqueueNDRangeKernel
//   then clFinish, timed one by one after a warm-up; median and 90th
//   percentile (nearest rank) of each child, the best child counts.
//
// Data are small integers (also as floats) where the kernel allows it, so
// most results are exact in any order of summation and are compared for
// equality (Mandelbrot and n-body: see above). A wrong result makes the
// child, and so the program, exit non-zero; speed never does. The usmcl/<peer>
// columns are usmcl's speed-up (higher is better for usmcl), summarized per
// peer and group at the end.

// Files: main.cpp (options), parent.cpp (children, table), child_common.cpp
// (OpenCL set-up and timing), child_build.cpp (part 1), child_build_forms.cpp
// (part 1b, with the programs in spirv/), child_memory_bound.cpp,
// child_compute.cpp, child_collectives.cpp, child_barriers_launch.cpp (parts
// 2 and 3).

#include "kernel_bench.hpp"

#include "drivers.hpp"

#include <cstring>
#include <string_view>

namespace {

using namespace kernel_bench;

[[noreturn]] void usage(const char* problem) {
    if (problem)
        std::fprintf(stderr, "kernel_bench: %s\n", problem);
    std::fprintf(stderr,
                 "usage: kernel_bench <driver options> [--rounds N] [--build-rounds N]\n"
                 "         [--form-repeats N] [--batches N] [--budget seconds]\n"
                 "         [--only build|forms|kernels]\n%s",
                 bench::driver_options_usage());
    std::exit(2);
}

int count_of(const char* text) {
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (end == text || *end != '\0' || value < 1 || value > 1000000)
        usage("counts are positive numbers");
    return static_cast<int>(value);
}

int child_kernels(const Sizes& sizes) {
    Device device;
    std::printf("platform %s\n", device.platform_name().c_str());
    measure_memory_bound(device, sizes);
    measure_compute(device, sizes);
    measure_collectives(device, sizes);
    measure_barriers_and_launch(device, sizes);
    return any_wrong() ? 1 : 0;
}

} // namespace

int main(int argc, char** argv) {
    Options options;
    FormBuild form_build;
    bench::Drivers drivers("kernel_bench");
    const char* child = nullptr;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "-h" || arg == "--help")
            usage(nullptr);
        if (i + 1 >= argc)
            usage("every option takes a value");
        const char* value = argv[++i];
        if (arg == "--child")
            child = value;
        else if (drivers.take_option(arg, value))
            continue;
        else if (arg == "--rounds")
            options.rounds = count_of(value);
        else if (arg == "--build-rounds")
            options.build_rounds = count_of(value);
        else if (arg == "--form-repeats")
            options.form_repeats = form_build.repeats = count_of(value);
        else if (arg == "--only")
            options.only = value;
        // The options of a build_forms child (parent.cpp passes them).
        else if (arg == "--program")
            form_build.program = value;
        else if (arg == "--form")
            form_build.il = std::string_view(value) == "spirv";
        else if (arg == "--cache")
            form_build.cache = std::string_view(value) == "on";
        else if (arg == "--batches")
            options.sizes.batches = count_of(value);
        else if (arg == "--budget")
            options.sizes.budget = std::strtod(value, nullptr);
        else
            usage("unknown option");
    }
    if (child && std::string_view(child) == "build")
        return child_build();
    if (child && std::string_view(child) == "build_forms")
        return child_build_forms(form_build);
    if (child && std::string_view(child) == "kernels")
        return child_kernels(options.sizes);
    if (child)
        usage("unknown child mode");
    if (!options.only.empty() && options.only != "build" && options.only != "forms" &&
        options.only != "kernels")
        usage("--only takes build, forms or kernels");
    drivers.resolve();
    return parent(options, drivers);
}
