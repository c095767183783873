// -cl-denorms-are-zero: the device reports denormals (CL_FP_DENORM) for
// float and double, and kernels keep them by default; built with the option
// (clBuildProgram, or clLinkProgram of an object compiled without it), a
// kernel flushes denormal operands and results to zero of the same sign, in
// float and, as the option allows when double denormals are supported, in
// double. Results are compared bit for bit with host models of both
// behaviours, and the application thread's MXCSR is the same after the
// kernels as before.
#include "features_test.hpp"

#include <bit>
#include <cmath>
#include <cstdint>
#include <vector>
#include <xmmintrin.h>

using namespace cl_test;
using namespace kernel_test;
using namespace features_test;

namespace {

const char* const source = R"CLC(
__kernel void denormals(__global const float* a, __global const float* b, __global float* sum,
                        __global float* product, __global const double* d,
                        __global double* scaled) {
    size_t i = get_global_id(0);
    sum[i] = a[i] + b[i];
    product[i] = a[i] * b[i];
    scaled[i] = d[i] * 0x1p-1000;
}
)CLC";

template <class T>
T flush(T x) {
    return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(T(0), x) : x;
}

struct Inputs {
    std::vector<float> a, b;
    std::vector<double> d;
};

Inputs inputs() {
    const float denormal = std::bit_cast<float>(uint32_t{64}); // piglit's as_float(64)
    Inputs in;
    in.a = {0.0f, denormal, -denormal, 1e-20f, 1.0f, 0x1p-126f, -1e-20f, 0x1.8p-126f, 3.0f, -0.0f};
    in.b = {denormal, 0.0f, 0.0f, 1e-20f, denormal, 0.5f, 1e-20f, -0x1p-126f, 0x1p-140f, -denormal};
    in.d = {0x1p-50, 1.0, -0x1p-30, 0x1p-22, 0x1p+100, 0.0, 0x1p-60, -0x1p-23, 5.0, 0x1.8p-40};
    return in;
}

struct Results {
    std::vector<uint32_t> sum, product;
    std::vector<uint64_t> scaled;
};

Results run_program(const Fixture& f, cl_program program, const Inputs& in) {
    const size_t n = in.a.size();
    KernelPtr kernel = make_kernel(program, "denormals");
    MemPtr a = make_buffer(f.ctx(), in.a);
    MemPtr b = make_buffer(f.ctx(), in.b);
    MemPtr d = make_buffer(f.ctx(), in.d);
    MemPtr sum = make_buffer<float>(f.ctx(), n);
    MemPtr product = make_buffer<float>(f.ctx(), n);
    MemPtr scaled = make_buffer<double>(f.ctx(), n);
    set_arg(kernel.get(), 0, a);
    set_arg(kernel.get(), 1, b);
    set_arg(kernel.get(), 2, sum);
    set_arg(kernel.get(), 3, product);
    set_arg(kernel.get(), 4, d);
    set_arg(kernel.get(), 5, scaled);
    run_1d(f.q(), kernel.get(), n);
    Results r;
    r.sum = read_buffer<uint32_t>(f.q(), sum.get(), n);
    r.product = read_buffer<uint32_t>(f.q(), product.get(), n);
    r.scaled = read_buffer<uint64_t>(f.q(), scaled.get(), n);
    return r;
}

// What the kernel must give: IEEE arithmetic, or with every denormal
// operand and result flushed.
Results model(const Inputs& in, bool flushing) {
    Results r;
    for (size_t i = 0; i < in.a.size(); ++i) {
        const float a = flushing ? flush(in.a[i]) : in.a[i];
        const float b = flushing ? flush(in.b[i]) : in.b[i];
        const float sum = a + b;
        const float product = a * b;
        const double scaled = in.d[i] * 0x1p-1000;
        r.sum.push_back(std::bit_cast<uint32_t>(flushing ? flush(sum) : sum));
        r.product.push_back(std::bit_cast<uint32_t>(flushing ? flush(product) : product));
        r.scaled.push_back(std::bit_cast<uint64_t>(flushing ? flush(scaled) : scaled));
    }
    return r;
}

void check_results(const Results& got, const Results& want) {
    for (size_t i = 0; i < want.sum.size(); ++i) {
        INFO("element " << i);
        CHECK(got.sum[i] == want.sum[i]);
        CHECK(got.product[i] == want.product[i]);
        CHECK(got.scaled[i] == want.scaled[i]);
    }
}

} // namespace

TEST_CASE("the device reports denormals for float and double", "[denormals]") {
    const cl_device_id id = device();
    CHECK((device_info<cl_device_fp_config>(id, CL_DEVICE_SINGLE_FP_CONFIG) & CL_FP_DENORM) != 0);
    CHECK((device_info<cl_device_fp_config>(id, CL_DEVICE_DOUBLE_FP_CONFIG) & CL_FP_DENORM) != 0);
}

TEST_CASE("-cl-denorms-are-zero flushes denormals, and only where it is given", "[denormals]") {
    Fixture f;
    const Inputs in = inputs();
    // MXCSR's control bits (rounding, masks, FTZ, DAZ); the low six are
    // exception flags.
    const unsigned int control = ~0x3fu;
    const unsigned int before = _mm_getcsr() & control;
    // The models differ: the inputs exercise flushing.
    REQUIRE(model(in, true).sum != model(in, false).sum);
    REQUIRE(model(in, true).scaled != model(in, false).scaled);

    ProgramPtr keeping = f.build(source, "-cl-std=CL3.0");
    ProgramPtr flushing = f.build(source, "-cl-std=CL3.0 -cl-denorms-are-zero");
    ProgramPtr flushing12 = f.build(source, "-cl-denorms-are-zero");
    // Alternately, so a worker that ran a flushing kernel runs a keeping one.
    for (int round = 0; round < 3; ++round) {
        INFO("round " << round);
        check_results(run_program(f, keeping.get(), in), model(in, false));
        check_results(run_program(f, flushing.get(), in), model(in, true));
        check_results(run_program(f, flushing12.get(), in), model(in, true));
    }
    CHECK((_mm_getcsr() & control) == before);
}

TEST_CASE("-cl-denorms-are-zero as a link option", "[denormals]") {
    Fixture f;
    const Inputs in = inputs();
    ProgramPtr object = create_program(f.ctx(), source);
    REQUIRE_OK(clCompileProgram(object.get(), 1, &f.device, "-cl-std=CL3.0", 0, nullptr, nullptr,
                                nullptr, nullptr));
    cl_program inputs_list[] = {object.get()};
    for (const bool flushing : {false, true}) {
        INFO("flushing " << flushing);
        cl_int error = CL_OUT_OF_RESOURCES;
        ProgramPtr linked(clLinkProgram(f.ctx(), 1, &f.device,
                                        flushing ? "-cl-denorms-are-zero" : "", 1, inputs_list,
                                        nullptr, nullptr, &error));
        REQUIRE_OK(error);
        check_results(run_program(f, linked.get(), in), model(in, flushing));
    }
}
