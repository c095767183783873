// The generic address space queries (OpenCL C 2.0 and 3.0 with
// __opencl_c_generic_address_space): to_global, to_local, to_private and
// get_fence answer exactly for pointers to global buffers, __local
// variables, __local arguments, private variables (also ones that live
// across a barrier) and NULL; the pointer they return is the one given.
#include "kernel_test.hpp"

using namespace cl_test;
using namespace kernel_test;

namespace {

// Per pointer: bit 0 to_global, bit 1 to_local, bit 2 to_private non-null,
// bits 4.. get_fence (for non-null pointers).
const char* const source = R"CLC(
int classify(generic int* p) {
    int r = 0;
    if (to_global(p)) r |= 1;
    if (to_local(p)) r |= 2;
    if (to_private(p)) r |= 4;
    if (p) r |= (int)get_fence(p) << 4;
    return r;
}

int classify_const(const generic int* p) { return (int)get_fence(p); }

__kernel void spaces(__global int* out, __global int* g, __local int* larg) {
    __local int lvar[4];
    int pv[4];
    int id = get_global_id(0);
    int lid = get_local_id(0);
    pv[id % 4] = id;
    lvar[lid % 4] = id;
    larg[lid] = id;
    __global int* o = out + 16 * id;
    o[0] = classify(g + id);
    o[1] = classify(lvar + lid % 4);
    o[2] = classify(larg + lid);
    o[3] = classify(pv + id % 4);
    o[4] = classify(0);
    o[5] = to_global((generic int*)(g + id)) == g + id;
    o[6] = to_local((generic int*)(larg + lid)) == larg + lid;
    o[7] = to_local((generic int*)(lvar + 1)) == lvar + 1;
    int x = 5;
    generic int* gp = &x;
    *to_private(gp) = 7;
    o[8] = x;
    o[9] = classify_const(g) | classify_const(larg) << 8;
    // A private variable that lives across a barrier.
    int across = id;
    generic int* ap = &across;
    barrier(CLK_LOCAL_MEM_FENCE);
    o[10] = classify(ap);
    o[11] = *ap;
    o[12] = to_global(ap) == 0 && to_local(ap) == 0;
    o[13] = to_private((generic int*)(g + id)) == 0 && to_local((generic int*)(g + id)) == 0;
}
)CLC";

// The OpenCL C values of CLK_LOCAL_MEM_FENCE and CLK_GLOBAL_MEM_FENCE.
constexpr int local_fence = 1;
constexpr int global_fence = 2;
constexpr int global_bits = 1 | (global_fence << 4);
constexpr int local_bits = 2 | (local_fence << 4);
constexpr int private_bits = 4;

void check_spaces(Fixture& f, const char* options) {
    INFO("options: " << options);
    ProgramPtr program = f.build(source, options);
    KernelPtr kernel = make_kernel(program.get(), "spaces");
    constexpr size_t items = 64;
    constexpr size_t local = 8;
    MemPtr out = make_buffer<cl_int>(f.ctx(), 16 * items);
    MemPtr g = make_buffer<cl_int>(f.ctx(), items);
    set_arg(kernel.get(), 0, out);
    set_arg(kernel.get(), 1, g);
    set_local_arg(kernel.get(), 2, local * sizeof(cl_int));
    run_1d(f.q(), kernel.get(), items, local);
    const std::vector<cl_int> r = read_buffer<cl_int>(f.q(), out.get(), 16 * items);
    for (size_t id = 0; id < items; ++id) {
        INFO("work-item " << id);
        const cl_int* o = r.data() + 16 * id;
        CHECK(o[0] == global_bits);
        CHECK(o[1] == local_bits);
        CHECK(o[2] == local_bits);
        CHECK(o[3] == private_bits);
        CHECK(o[4] == 0);
        CHECK(o[5] == 1);
        CHECK(o[6] == 1);
        CHECK(o[7] == 1);
        CHECK(o[8] == 7);
        CHECK(o[9] == (global_fence | local_fence << 8));
        CHECK(o[10] == private_bits);
        CHECK(o[11] == static_cast<cl_int>(id));
        CHECK(o[12] == 1);
        CHECK(o[13] == 1);
    }
}

bool supports_c_version(cl_device_id device, cl_uint major, cl_uint minor) {
    for (const cl_name_version& v :
         device_info_array<cl_name_version>(device, CL_DEVICE_OPENCL_C_ALL_VERSIONS))
        if (CL_VERSION_MAJOR(v.version) == major && CL_VERSION_MINOR(v.version) == minor)
            return true;
    return false;
}

} // namespace

TEST_CASE("generic address space: the device reports the feature") {
    Fixture f;
    bool found = false;
    for (const cl_name_version& v :
         device_info_array<cl_name_version>(f.device, CL_DEVICE_OPENCL_C_FEATURES))
        found |= std::string(v.name) == "__opencl_c_generic_address_space";
    CHECK(found);
}

TEST_CASE("generic address space: to_global/to_local/to_private/get_fence, OpenCL C 3.0") {
    Fixture f;
    check_spaces(f, "-cl-std=CL3.0");
    check_spaces(f, "-cl-std=CL3.0 -cl-opt-disable");
}

TEST_CASE("generic address space: to_global/to_local/to_private/get_fence, OpenCL C 2.0") {
    Fixture f;
    if (supports_c_version(f.device, 2, 0)) {
        check_spaces(f, "-cl-std=CL2.0");
    } else {
        // The device does not offer OpenCL C 2.0 (it lacks features 2.0
        // makes mandatory): the build option is refused.
        ProgramPtr program = create_program(f.ctx(), source);
        CHECK_CL(clBuildProgram(program.get(), 1, &f.device, "-cl-std=CL2.0", nullptr, nullptr),
                 CL_INVALID_BUILD_OPTIONS);
    }
}
