// Double precision (cl_khr_fp64, __opencl_c_fp64): the device queries agree
// with the extension and the feature (the full FP config, non-zero vector
// widths); kernels using double, built as OpenCL C 1.2 and 3.0, compute
// correctly rounded arithmetic (denormals kept), math builtins within the
// spec's ULP bounds of a long double host reference, conversions in every
// rounding mode and with saturation, and vectors of every width.
#include "features_test.hpp"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace cl_test;
using namespace kernel_test;
using namespace features_test;

namespace {

// The spacing of doubles around r (the smallest denormal near zero).
long double ulp_of(double r) {
    const double a = std::fabs(r);
    if (!std::isfinite(a))
        return 1.0L;
    return static_cast<long double>(std::nextafter(a, std::numeric_limits<double>::infinity())) -
           static_cast<long double>(a);
}

// The error of got against the exact value reference, in ULPs of the result.
// Infinities and NaNs must match exactly (0 or infinity).
long double ulp_error(double got, long double reference) {
    const double rounded = static_cast<double>(reference);
    if (std::isnan(rounded))
        return std::isnan(got) ? 0.0L : std::numeric_limits<long double>::infinity();
    if (std::isinf(rounded) || std::isinf(got) || std::isnan(got))
        return got == rounded ? 0.0L : std::numeric_limits<long double>::infinity();
    return std::fabs(static_cast<long double>(got) - reference) / ulp_of(rounded);
}

std::vector<double> random_doubles(size_t count, double low, double high, unsigned seed) {
    std::mt19937_64 random(seed);
    std::uniform_real_distribution<double> value(low, high);
    std::vector<double> values(count);
    for (double& v : values)
        v = value(random);
    return values;
}

const char* const arithmetic_source = R"CLC(
__kernel void arithmetic(__global const double* a, __global const double* b,
                         __global double* out) {
    size_t i = get_global_id(0);
    double x = a[i], y = b[i];
    __global double* r = out + 6 * i;
    r[0] = x + y;
    r[1] = x - y;
    r[2] = x * y;
    r[3] = x / y;
    r[4] = sqrt(fabs(x));
    r[5] = fma(x, y, x);
}
)CLC";

const char* const math_source = R"CLC(
__kernel void math(__global const double* a, __global double* out) {
    size_t i = get_global_id(0);
    double x = a[i];
    __global double* r = out + 4 * i;
    r[0] = sin(x);
    r[1] = cos(x);
    r[2] = exp(x / 16.0);
    r[3] = log(fabs(x));
}
)CLC";

const char* const conversion_source = R"CLC(
__kernel void conversions(__global const double* a, __global int* ints,
                          __global long* longs, __global float* floats,
                          __global double* doubles, __global const long* l) {
    size_t i = get_global_id(0);
    double x = a[i];
    ints[4 * i + 0] = convert_int_rtz(x);
    ints[4 * i + 1] = convert_int_sat_rte(x);
    ints[4 * i + 2] = convert_int_sat_rtp(x);
    ints[4 * i + 3] = convert_int_sat_rtn(x);
    longs[i] = convert_long_sat(x * 1.0e10);
    floats[3 * i + 0] = convert_float(x);
    floats[3 * i + 1] = convert_float_rtz(x);
    floats[3 * i + 2] = (float)x;
    doubles[2 * i + 0] = convert_double(l[i]);
    doubles[2 * i + 1] = convert_double((float)x);
}
)CLC";

const char* const vector_source = R"CLC(
__kernel void vectors(__global const double* a, __global double* out) {
    size_t i = get_global_id(0);
    double2 v2 = vload2(i, a);
    double3 v3 = vload3(i, a);
    double4 v4 = vload4(i, a);
    double8 v8 = vload8(i, a);
    double16 v16 = vload16(i, a);
    __global double* r = out + 8 * i;
    r[0] = v2.x * v2.y + v2.s1;
    double3 w3 = v3 * 2.0 - v3.zxy;
    r[1] = w3.x + w3.y + w3.z;
    double4 w4 = sqrt(fabs(v4)) + v4.wzyx;
    r[2] = w4.s0 + w4.s1 + w4.s2 + w4.s3;
    double8 w8 = fma(v8, v8, (double8)(1.0));
    r[3] = w8.s7 - w8.s0;
    r[4] = dot(v4, v4.yxwz);
    double16 w16 = v16 / (double16)(3.0);
    r[5] = w16.sf + w16.s8;
    r[6] = fmax(v4, 0.5).s2;
    vstore3(v3 * 4.0, i, out + 8 * get_global_size(0));
    r[7] = convert_double4(convert_int4_rtz(v4 * 100.0)).s3;
}
)CLC";

} // namespace

TEST_CASE("the device reports double precision consistently", "[fp64]") {
    cl_device_id id = device();
    REQUIRE(has(extensions(id), "cl_khr_fp64"));
    REQUIRE(has(opencl_c_features(id), "__opencl_c_fp64"));
    constexpr cl_device_fp_config minimum = CL_FP_FMA | CL_FP_ROUND_TO_NEAREST |
                                            CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF |
                                            CL_FP_INF_NAN | CL_FP_DENORM;
    CHECK((device_info<cl_device_fp_config>(id, CL_DEVICE_DOUBLE_FP_CONFIG) & minimum) == minimum);
    CHECK(device_info<cl_uint>(id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE) >= 1);
    CHECK(device_info<cl_uint>(id, CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE) >= 1);
    bool listed = false;
    for (const cl_name_version& e :
         device_info_array<cl_name_version>(id, CL_DEVICE_EXTENSIONS_WITH_VERSION))
        listed = listed || std::string(e.name) == "cl_khr_fp64";
    CHECK(listed);
}

TEST_CASE("the fp64 macros are defined in OpenCL C 1.2 and 3.0", "[fp64]") {
    Fixture f;
    const std::string source = R"CLC(
#ifndef cl_khr_fp64
#error cl_khr_fp64 not defined
#endif
#if __OPENCL_C_VERSION__ >= 300 && !defined(__opencl_c_fp64)
#error __opencl_c_fp64 not defined
#endif
__kernel void k(__global double* out) { out[0] = 1.5; }
)CLC";
    for (const char* options : {"", "-cl-std=CL1.2", "-cl-std=CL3.0"}) {
        INFO("options " << options);
        ProgramPtr program = f.build(source, options);
        KernelPtr kernel = make_kernel(program.get(), "k");
        MemPtr out = make_buffer<double>(f.ctx(), 1);
        set_arg(kernel.get(), 0, out);
        run_1d(f.q(), kernel.get(), 1);
        CHECK(read_buffer<double>(f.q(), out.get(), 1)[0] == 1.5);
    }
}

TEST_CASE("double arithmetic, sqrt and fma are correctly rounded", "[fp64]") {
    Fixture f;
    std::vector<double> a = random_doubles(4096, -1.0e6, 1.0e6, 1);
    std::vector<double> b = random_doubles(a.size(), -1.0e3, 1.0e3, 2);
    // Denormals, tiny and huge values, signed zeros, infinities, NaN.
    const double denormal = std::numeric_limits<double>::denorm_min();
    const double specials[][2] = {{denormal * 3, denormal * 5},
                                  {2.2250738585072014e-308, 0.5},
                                  {1.0e-310, 1.0e-310},
                                  {-1.0e-310, 4.0},
                                  {1.0e308, 10.0},
                                  {0.0, -0.0},
                                  {1.0, 0.0},
                                  {std::numeric_limits<double>::infinity(), 2.0},
                                  {-1.0, std::numeric_limits<double>::quiet_NaN()},
                                  {1.0 / 3.0, 3.0}};
    for (size_t i = 0; i < std::size(specials); ++i) {
        a[i] = specials[i][0];
        b[i] = specials[i][1];
    }
    MemPtr in_a = make_buffer(f.ctx(), a);
    MemPtr in_b = make_buffer(f.ctx(), b);
    MemPtr out = make_buffer<double>(f.ctx(), 6 * a.size());
    for (const char* options : {"", "-cl-std=CL3.0"}) {
        INFO("options " << options);
        ProgramPtr program = f.build(arithmetic_source, options);
        KernelPtr kernel = make_kernel(program.get(), "arithmetic");
        set_arg(kernel.get(), 0, in_a);
        set_arg(kernel.get(), 1, in_b);
        set_arg(kernel.get(), 2, out);
        run_1d(f.q(), kernel.get(), a.size());
        const auto r = read_buffer<double>(f.q(), out.get(), 6 * a.size());
        size_t wrong = 0;
        for (size_t i = 0; i < a.size(); ++i) {
            const double x = a[i], y = b[i];
            const double expected[6] = {
                x + y, x - y, x * y, x / y, std::sqrt(std::fabs(x)), std::fma(x, y, x)};
            for (size_t k = 0; k < 6; ++k) {
                const double got = r[6 * i + k];
                const bool same =
                    (std::isnan(got) && std::isnan(expected[k])) ||
                    (got == expected[k] && std::signbit(got) == std::signbit(expected[k]));
                if (!same && wrong++ < 10)
                    UNSCOPED_INFO("item " << i << " op " << k << ": " << got << " expected "
                                          << expected[k] << " (x " << x << ", y " << y << ")");
            }
        }
        CHECK(wrong == 0);
    }
}

TEST_CASE("double math builtins are within the spec's ULP bounds", "[fp64]") {
    Fixture f;
    std::vector<double> a = random_doubles(8192, -200.0, 200.0, 3);
    const double specials[] = {0.0,
                               -0.0,
                               1.0e-310,
                               std::numeric_limits<double>::infinity(),
                               -std::numeric_limits<double>::infinity(),
                               std::numeric_limits<double>::quiet_NaN(),
                               1.0e5,
                               -3.0e4,
                               11000.0,
                               -11500.0,
                               M_PI,
                               M_PI / 2};
    std::copy(std::begin(specials), std::end(specials), a.begin());
    // Large arguments of sin and cos (argument reduction).
    for (size_t i = 0; i < 256; ++i)
        a[64 + i] = std::ldexp(a[64 + i], 20);
    // OpenCL C 3.0, 7.4 (full profile, double): sin, cos 4 ULP; exp, log 3.
    const long double bounds[4] = {4, 4, 3, 3};
    const char* names[4] = {"sin", "cos", "exp", "log"};

    MemPtr in = make_buffer(f.ctx(), a);
    MemPtr out = make_buffer<double>(f.ctx(), 4 * a.size());
    ProgramPtr program = f.build(math_source);
    KernelPtr kernel = make_kernel(program.get(), "math");
    set_arg(kernel.get(), 0, in);
    set_arg(kernel.get(), 1, out);
    run_1d(f.q(), kernel.get(), a.size());
    const auto r = read_buffer<double>(f.q(), out.get(), 4 * a.size());
    long double worst[4] = {};
    for (size_t i = 0; i < a.size(); ++i) {
        const long double x = a[i];
        const long double reference[4] = {std::sin(x), std::cos(x),
                                          std::exp(static_cast<long double>(a[i] / 16.0)),
                                          std::log(std::fabs(x))};
        for (size_t k = 0; k < 4; ++k) {
            const long double error = ulp_error(r[4 * i + k], reference[k]);
            if (error > bounds[k] && worst[k] <= bounds[k])
                UNSCOPED_INFO(names[k] << "(" << a[i] << ") = " << r[4 * i + k] << ", expected "
                                       << static_cast<double>(reference[k]) << ": " << error
                                       << " ulp");
            worst[k] = std::max(worst[k], error);
        }
    }
    for (size_t k = 0; k < 4; ++k) {
        INFO(names[k] << " worst error " << static_cast<double>(worst[k]) << " ulp");
        CHECK(worst[k] <= bounds[k]);
    }
}

TEST_CASE("double conversions round and saturate as asked", "[fp64]") {
    Fixture f;
    std::vector<double> a = random_doubles(2048, -3.0e9, 3.0e9, 4);
    const std::vector<double> specials = {0.5,      1.5,          2.5,          -0.5,   -1.5,
                                          -2.5,     0.49999,      1.0e-40,      3.0e38, 1.0e300,
                                          -1.0e300, 2147483647.5, -2147483648.5};
    std::copy(specials.begin(), specials.end(), a.begin());
    for (size_t i = specials.size(); i < 1024; ++i)
        a[i] /= 1.0e7; // values around the int range's small end
    std::vector<int64_t> l(a.size());
    std::mt19937_64 random(5);
    for (int64_t& v : l)
        v = static_cast<int64_t>(random());
    const size_t n = a.size();
    MemPtr in = make_buffer(f.ctx(), a);
    MemPtr in_l = make_buffer(f.ctx(), l);
    MemPtr ints = make_buffer<cl_int>(f.ctx(), 4 * n);
    MemPtr longs = make_buffer<cl_long>(f.ctx(), n);
    MemPtr floats = make_buffer<float>(f.ctx(), 3 * n);
    MemPtr doubles = make_buffer<double>(f.ctx(), 2 * n);
    ProgramPtr program = f.build(conversion_source);
    KernelPtr kernel = make_kernel(program.get(), "conversions");
    set_arg(kernel.get(), 0, in);
    set_arg(kernel.get(), 1, ints);
    set_arg(kernel.get(), 2, longs);
    set_arg(kernel.get(), 3, floats);
    set_arg(kernel.get(), 4, doubles);
    set_arg(kernel.get(), 5, in_l);
    run_1d(f.q(), kernel.get(), n);
    const auto ri = read_buffer<cl_int>(f.q(), ints.get(), 4 * n);
    const auto rl = read_buffer<cl_long>(f.q(), longs.get(), n);
    const auto rf = read_buffer<float>(f.q(), floats.get(), 3 * n);
    const auto rd = read_buffer<double>(f.q(), doubles.get(), 2 * n);

    auto saturate_int = [](long double v) -> cl_int {
        if (v >= 2147483647.0L)
            return 2147483647;
        if (v <= -2147483648.0L)
            return -2147483647 - 1;
        return static_cast<cl_int>(v);
    };
    auto float_toward_zero = [](double v) {
        float g = static_cast<float>(v);
        if (std::fabs(static_cast<double>(g)) > std::fabs(v))
            g = std::nextafter(g, 0.0f);
        return g;
    };
    size_t wrong = 0;
    auto expect = [&](bool ok, size_t i, const char* what) {
        if (!ok && wrong++ < 10)
            UNSCOPED_INFO(what << " of " << a[i] << " wrong (item " << i << ")");
    };
    for (size_t i = 0; i < n; ++i) {
        const double x = a[i];
        if (std::fabs(x) < 2147483647.0)
            expect(ri[4 * i + 0] == static_cast<cl_int>(std::trunc(x)), i, "convert_int_rtz");
        expect(ri[4 * i + 1] == saturate_int(std::nearbyint(x)), i, "convert_int_sat_rte");
        expect(ri[4 * i + 2] == saturate_int(std::ceil(x)), i, "convert_int_sat_rtp");
        expect(ri[4 * i + 3] == saturate_int(std::floor(x)), i, "convert_int_sat_rtn");
        const long double scaled = static_cast<long double>(x * 1.0e10);
        const cl_long long_expected = scaled >= 9223372036854775807.0L ? INT64_MAX
                                      : scaled <= -9223372036854775808.0L
                                          ? INT64_MIN
                                          : static_cast<cl_long>(std::trunc(scaled));
        expect(rl[i] == long_expected, i, "convert_long_sat");
        const float nearest = static_cast<float>(x);
        expect(rf[3 * i + 0] == nearest || (std::isinf(rf[3 * i]) && std::isinf(nearest)), i,
               "convert_float");
        const float toward_zero = float_toward_zero(x);
        expect(rf[3 * i + 1] == toward_zero ||
                   (std::fabs(x) > 3.5e38 && rf[3 * i + 1] == std::copysign(FLT_MAX, x)),
               i, "convert_float_rtz");
        expect(rf[3 * i + 2] == nearest || (std::isinf(rf[3 * i + 2]) && std::isinf(nearest)), i,
               "(float)");
        expect(rd[2 * i + 0] == static_cast<double>(l[i]), i, "convert_double(long)");
        expect(rd[2 * i + 1] == static_cast<double>(static_cast<float>(x)) ||
                   (std::isinf(rd[2 * i + 1]) && std::isinf(static_cast<float>(x))),
               i, "convert_double(float)");
    }
    CHECK(wrong == 0);
}

TEST_CASE("double vectors of every width", "[fp64]") {
    Fixture f;
    const size_t n = 256;
    std::vector<double> a = random_doubles(n * 16 + 16, -10.0, 10.0, 6);
    MemPtr in = make_buffer(f.ctx(), a);
    // 8 results per item, then 3 per item from vstore3.
    MemPtr out = make_buffer<double>(f.ctx(), 8 * n + 3 * n);
    for (const char* options : {"", "-cl-std=CL3.0"}) {
        INFO("options " << options);
        ProgramPtr program = f.build(vector_source, options);
        KernelPtr kernel = make_kernel(program.get(), "vectors");
        set_arg(kernel.get(), 0, in);
        set_arg(kernel.get(), 1, out);
        run_1d(f.q(), kernel.get(), n);
        const auto r = read_buffer<double>(f.q(), out.get(), 8 * n + 3 * n);
        size_t wrong = 0;
        auto close = [](double got, double expected) {
            return std::fabs(got - expected) <= 1e-12 * std::max(1.0, std::fabs(expected));
        };
        for (size_t i = 0; i < n; ++i) {
            const double* v2 = &a[2 * i];
            const double* v3 = &a[3 * i];
            const double* v4 = &a[4 * i];
            const double* v8 = &a[8 * i];
            const double* v16 = &a[16 * i];
            double expected[8];
            expected[0] = v2[0] * v2[1] + v2[1];
            expected[1] = (v3[0] * 2 - v3[2]) + (v3[1] * 2 - v3[0]) + (v3[2] * 2 - v3[1]);
            expected[2] = 0;
            for (int k = 0; k < 4; ++k)
                expected[2] += std::sqrt(std::fabs(v4[k])) + v4[3 - k];
            expected[3] = std::fma(v8[7], v8[7], 1.0) - std::fma(v8[0], v8[0], 1.0);
            expected[4] = v4[0] * v4[1] + v4[1] * v4[0] + v4[2] * v4[3] + v4[3] * v4[2];
            expected[5] = v16[15] / 3.0 + v16[8] / 3.0;
            expected[6] = std::fmax(v4[2], 0.5);
            expected[7] = static_cast<double>(static_cast<int>(v4[3] * 100.0));
            for (int k = 0; k < 8; ++k)
                if (!close(r[8 * i + k], expected[k]) && wrong++ < 10)
                    UNSCOPED_INFO("item " << i << " result " << k << ": " << r[8 * i + k]
                                          << " expected " << expected[k]);
            for (int k = 0; k < 3; ++k)
                if (r[8 * n + 3 * i + k] != v3[k] * 4.0 && wrong++ < 10)
                    UNSCOPED_INFO("item " << i << " vstore3 " << k);
        }
        CHECK(wrong == 0);
    }
}
