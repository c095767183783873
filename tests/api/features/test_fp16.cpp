// Half precision (cl_khr_fp16): the device queries agree with the extension;
// kernels on half compute correctly rounded arithmetic (denormals kept) and
// fma, math builtins within the specification's half ULP bounds over every
// one of the 65,536 half values, exact relational and classification
// results, conversions in every rounding mode and with saturation, the
// functions that depend on half's own format (nextafter, nan, frexp, ilogb,
// fract), and vectors of every width. Host references are computed in double
// or long double from the exact half values and rounded to half here.
#include "features_test.hpp"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace cl_test;
using namespace kernel_test;
using namespace features_test;

namespace {

using half_bits = std::uint16_t;

double half_to_double(half_bits h) {
    const int exponent = (h >> 10) & 0x1f;
    const int mantissa = h & 0x3ff;
    double magnitude;
    if (exponent == 0)
        magnitude = std::ldexp(static_cast<double>(mantissa), -24);
    else if (exponent == 31)
        magnitude = mantissa ? std::numeric_limits<double>::quiet_NaN()
                             : std::numeric_limits<double>::infinity();
    else
        magnitude = std::ldexp(static_cast<double>(mantissa + 1024), exponent - 25);
    return (h & 0x8000) ? -magnitude : magnitude;
}

// d rounded to half, to nearest even (NaN: the quiet NaN 0x7e00).
half_bits double_to_half(long double d) {
    if (std::isnan(d))
        return 0x7e00;
    const half_bits sign = std::signbit(d) ? 0x8000 : 0;
    const long double a = std::fabs(d);
    if (a >= 65520.0L)
        return sign | 0x7c00;
    if (a < 0x1p-14L) // denormal: a multiple of 2^-24, rounded
        return sign | static_cast<half_bits>(std::nearbyint(a * 0x1p24L));
    int e = 0;
    (void)std::frexp(a, &e);                               // a = m 2^e, m in [0.5, 1)
    long double q = std::nearbyint(std::ldexp(a, 11 - e)); // in [1024, 2048]
    int exponent = e - 1;
    if (q == 2048.0L) {
        q = 1024.0L;
        exponent += 1;
    }
    if (exponent > 15)
        return sign | 0x7c00;
    return sign | static_cast<half_bits>(((exponent + 15) << 10) | (static_cast<int>(q) - 1024));
}

bool is_nan(half_bits h) {
    return (h & 0x7fff) > 0x7c00;
}

// The spacing of halves at r's magnitude (the denormal spacing near zero).
long double half_ulp(long double r) {
    const long double a = std::fabs(r);
    if (a < 0x1p-14L)
        return 0x1p-24L;
    int e = 0;
    (void)std::frexp(a, &e);
    return std::ldexp(1.0L, e - 11);
}

// got's error against the exact reference, in half ULPs; infinities and
// NaNs must match (0 or infinity).
long double ulp_error(half_bits got, long double reference) {
    const half_bits rounded = double_to_half(reference);
    if (is_nan(rounded))
        return is_nan(got) ? 0.0L : std::numeric_limits<long double>::infinity();
    if ((rounded & 0x7fff) == 0x7c00 || (got & 0x7fff) >= 0x7c00)
        return got == rounded ? 0.0L : std::numeric_limits<long double>::infinity();
    return std::fabs(half_to_double(got) - reference) / half_ulp(reference);
}

std::vector<half_bits> every_half() {
    std::vector<half_bits> all(65536);
    for (size_t i = 0; i < all.size(); ++i)
        all[i] = static_cast<half_bits>(i);
    return all;
}

std::vector<half_bits> random_halves(size_t count, unsigned seed) {
    std::mt19937 random(seed);
    std::vector<half_bits> values(count);
    for (half_bits& v : values)
        v = static_cast<half_bits>(random());
    return values;
}

bool same_half(half_bits got, half_bits expected) {
    return got == expected || (is_nan(got) && is_nan(expected));
}

// Builds source and runs its kernel name with one work-item per half value:
// argument 0 is every half in order, the outputs follow.
void run_on_every_half(const Fixture& f, const std::string& source, const char* name,
                       std::initializer_list<cl_mem> outputs) {
    MemPtr in = make_buffer(f.ctx(), every_half());
    ProgramPtr program = f.build(source);
    KernelPtr kernel = make_kernel(program.get(), name);
    set_arg(kernel.get(), 0, in);
    cl_uint index = 1;
    for (cl_mem out : outputs)
        set_arg(kernel.get(), index++, out);
    run_1d(f.q(), kernel.get(), 65536);
}

const char* const arithmetic_source = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void arithmetic(__global const half* a, __global const half* b,
                         __global const half* c, __global half* out) {
    size_t i = get_global_id(0);
    half x = a[i], y = b[i], z = c[i];
    __global half* r = out + 6 * i;
    r[0] = x + y;
    r[1] = x - y;
    r[2] = x * y;
    r[3] = x / y;
    r[4] = sqrt(x);
    r[5] = fma(x, y, z);
}
)CLC";

// Exact a b + c rounded once to half: the double sum with its rounding error
// (two-sum), the error deciding a tie of the half rounding of the sum.
half_bits fma_reference(double a, double b, double c) {
    if (!std::isfinite(a) || !std::isfinite(b) || !std::isfinite(c))
        return double_to_half(a * b + c);
    const double p = a * b; // exact: 22 significant bits
    const double s = p + c;
    const double bb = s - p;
    const double err = (p - (s - bb)) + (c - bb);
    half_bits h = double_to_half(s);
    if (err != 0.0 && (h & 0x7fff) < 0x7c00) {
        // The sum's rounding may have hidden which neighbour is nearest
        // (a tie of the sum that the error breaks): compare all three.
        const long double exact = static_cast<long double>(s) + err;
        const half_bits up = static_cast<half_bits>(h + 1), down = static_cast<half_bits>(h - 1);
        const long double dh = std::fabs(exact - half_to_double(h));
        if ((h & 0x7fff) != 0x7bff && std::fabs(exact - half_to_double(up)) < dh)
            h = up;
        else if ((h & 0x7fff) != 0 && std::fabs(exact - half_to_double(down)) < dh)
            h = down;
    }
    return h;
}

} // namespace

TEST_CASE("the device reports half precision consistently", "[fp16]") {
    cl_device_id id = device();
    REQUIRE(has(extensions(id), "cl_khr_fp16"));
    bool listed = false;
    for (const cl_name_version& e :
         device_info_array<cl_name_version>(id, CL_DEVICE_EXTENSIONS_WITH_VERSION))
        listed = listed ||
                 (std::string(e.name) == "cl_khr_fp16" && e.version == CL_MAKE_VERSION(1, 0, 0));
    CHECK(listed);
    CHECK(device_info<cl_device_fp_config>(id, CL_DEVICE_HALF_FP_CONFIG) ==
          (CL_FP_DENORM | CL_FP_INF_NAN | CL_FP_ROUND_TO_NEAREST | CL_FP_FMA));
    CHECK(device_info<cl_uint>(id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF) ==
          device_info<cl_uint>(id, CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT));
    CHECK(device_info<cl_uint>(id, CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF) ==
          device_info<cl_uint>(id, CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT));
}

TEST_CASE("cl_khr_fp16 is defined and half works in OpenCL C 1.2 and 3.0", "[fp16]") {
    Fixture f;
    const std::string source = R"CLC(
#ifndef cl_khr_fp16
#error cl_khr_fp16 not defined
#endif
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void k(__global half* out, half h, half4 v) {
    out[0] = h * (half)2;
    out[1] = v.w + HALF_EPSILON;
    out[2] = HALF_MAX;
}
)CLC";
    for (const char* options : {"", "-cl-std=CL1.2", "-cl-std=CL3.0"}) {
        INFO("options " << options);
        ProgramPtr program = f.build(source, options);
        KernelPtr kernel = make_kernel(program.get(), "k");
        MemPtr out = make_buffer<half_bits>(f.ctx(), 3);
        set_arg(kernel.get(), 0, out);
        set_arg<half_bits>(kernel.get(), 1, 0x3e00); // 1.5
        const half_bits v[4] = {0, 0, 0, 0x3c00};    // (0, 0, 0, 1)
        REQUIRE_OK(clSetKernelArg(kernel.get(), 2, sizeof(v), v));
        run_1d(f.q(), kernel.get(), 1);
        const auto r = read_buffer<half_bits>(f.q(), out.get(), 3);
        CHECK(r[0] == 0x4200); // 3
        CHECK(r[1] == 0x3c01); // 1 + 2^-10
        CHECK(r[2] == 0x7bff); // 65504
    }
}

TEST_CASE("half arithmetic, sqrt and fma are correctly rounded", "[fp16]") {
    Fixture f;
    const size_t n = 1 << 16;
    std::vector<half_bits> a = random_halves(n, 1), b = random_halves(n, 2),
                           c = random_halves(n, 3);
    // Denormals, the extremes, signed zeros, infinities, NaN, exact ties.
    const half_bits specials[][3] = {{0x0001, 0x0003, 0x8001}, {0x0400, 0x3800, 0x0001},
                                     {0x7bff, 0x3c01, 0x7bff}, {0x0000, 0x8000, 0x8000},
                                     {0x3c00, 0x0000, 0x3c00}, {0x7c00, 0x4000, 0xfc00},
                                     {0xbc00, 0x7e00, 0x3c00}, {0x3555, 0x4200, 0x0000},
                                     {0x3c01, 0x3c01, 0xbc00}, {0x5bff, 0x5bff, 0x0001}};
    for (size_t i = 0; i < std::size(specials); ++i) {
        a[i] = specials[i][0];
        b[i] = specials[i][1];
        c[i] = specials[i][2];
    }
    MemPtr in_a = make_buffer(f.ctx(), a), in_b = make_buffer(f.ctx(), b),
           in_c = make_buffer(f.ctx(), c);
    MemPtr out = make_buffer<half_bits>(f.ctx(), 6 * n);
    ProgramPtr program = f.build(arithmetic_source);
    KernelPtr kernel = make_kernel(program.get(), "arithmetic");
    set_arg(kernel.get(), 0, in_a);
    set_arg(kernel.get(), 1, in_b);
    set_arg(kernel.get(), 2, in_c);
    set_arg(kernel.get(), 3, out);
    run_1d(f.q(), kernel.get(), n);
    const auto r = read_buffer<half_bits>(f.q(), out.get(), 6 * n);
    const char* names[6] = {"+", "-", "*", "/", "sqrt", "fma"};
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i) {
        const double x = half_to_double(a[i]), y = half_to_double(b[i]), z = half_to_double(c[i]);
        // Sums, differences and products are exact in double; the quotient
        // and square root rounded twice are still correctly rounded (53 >=
        // 2 x 11 + 2).
        const half_bits expected[6] = {double_to_half(x + y),        double_to_half(x - y),
                                       double_to_half(x * y),        double_to_half(x / y),
                                       double_to_half(std::sqrt(x)), fma_reference(x, y, z)};
        for (size_t k = 0; k < 6; ++k)
            if (!same_half(r[6 * i + k], expected[k]) && wrong++ < 10)
                UNSCOPED_INFO(names[k] << " of " << x << ", " << y << ", " << z << ": 0x"
                                       << std::hex << r[6 * i + k] << " expected 0x" << expected[k]
                                       << std::dec);
    }
    CHECK(wrong == 0);
}

namespace {

struct UnaryCase {
    const char* name;
    long double (*reference)(long double);
    long double bound; // ULPs (OpenCL C 3.0, 7.4, half precision)
};

long double sinpi_ref(long double x) {
    const long double r = std::fmod(x, 2.0L);
    return (r == 0.0L || std::fabs(r) == 1.0L) ? std::copysign(0.0L, x)
                                               : std::sin(3.14159265358979323846264L * r);
}
long double rsqrt_ref(long double x) {
    return 1.0L / std::sqrt(x);
}
long double exp10_ref(long double x) {
    return std::pow(10.0L, x);
}

const UnaryCase unary_cases[] = {
    {"sin", [](long double x) { return std::sin(x); }, 2},
    {"cos", [](long double x) { return std::cos(x); }, 2},
    {"tan", [](long double x) { return std::tan(x); }, 2},
    {"exp", [](long double x) { return std::exp(x); }, 2},
    {"exp2", [](long double x) { return std::exp2(x); }, 2},
    {"exp10", exp10_ref, 2},
    {"log", [](long double x) { return std::log(x); }, 2},
    {"log2", [](long double x) { return std::log2(x); }, 2},
    {"log1p", [](long double x) { return std::log1p(x); }, 2},
    {"atan", [](long double x) { return std::atan(x); }, 2},
    {"asinh", [](long double x) { return std::asinh(x); }, 2},
    {"tanh", [](long double x) { return std::tanh(x); }, 2},
    {"cbrt", [](long double x) { return std::cbrt(x); }, 2},
    {"erf", [](long double x) { return std::erf(x); }, 4},
    {"rsqrt", rsqrt_ref, 1},
    {"sinpi", sinpi_ref, 2},
    {"floor", [](long double x) { return std::floor(x); }, 0},
    {"round", [](long double x) { return std::round(x); }, 0},
    {"logb", [](long double x) { return std::logb(x); }, 0},
};

} // namespace

TEST_CASE("half math builtins are within the spec's ULP bounds for every half", "[fp16]") {
    Fixture f;
    std::string source = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                         "__kernel void math(__global const half* a, __global half* out) {\n"
                         "    size_t i = get_global_id(0), n = get_global_size(0);\n"
                         "    half x = a[i];\n";
    for (size_t k = 0; k < std::size(unary_cases); ++k)
        source += "    out[" + std::to_string(k) + " * n + i] = " + unary_cases[k].name + "(x);\n";
    source += "}\n";
    const std::vector<half_bits> all = every_half();
    const size_t n = all.size(), functions = std::size(unary_cases);
    MemPtr out = make_buffer<half_bits>(f.ctx(), functions * n);
    run_on_every_half(f, source, "math", {out.get()});
    const auto r = read_buffer<half_bits>(f.q(), out.get(), functions * n);
    for (size_t k = 0; k < functions; ++k) {
        const UnaryCase& c = unary_cases[k];
        long double worst = 0;
        size_t reported = 0;
        for (size_t i = 0; i < n; ++i) {
            const long double x = half_to_double(all[i]);
            const long double error = ulp_error(r[k * n + i], c.reference(x));
            if (error > c.bound && reported++ < 5)
                UNSCOPED_INFO(c.name << "(" << static_cast<double>(x) << ") = 0x" << std::hex
                                     << r[k * n + i] << std::dec << ": "
                                     << static_cast<double>(error) << " ulp");
            worst = std::max(worst, error);
        }
        INFO(c.name << " worst error " << static_cast<double>(worst) << " ulp");
        CHECK(worst <= c.bound);
    }
}

TEST_CASE("half classification and comparisons, scalar and vector", "[fp16]") {
    Fixture f;
    const std::string source = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void classify(__global const half* a, __global int* scalar, __global short* vector) {
    size_t i = get_global_id(0);
    half x = a[i], y = a[i ^ 0x5a5a];
    __global int* s = scalar + 8 * i;
    s[0] = isnan(x);
    s[1] = isinf(x);
    s[2] = isfinite(x);
    s[3] = isnormal(x);
    s[4] = signbit(x);
    s[5] = isless(x, y);
    s[6] = islessgreater(x, y);
    s[7] = isunordered(x, y);
    half4 v = (half4)(x, y, -x, x);
    short4 r = isnormal(v) + isgreaterequal(v, v.yxwz) * (short)2;
    vstore4(r, i, vector);
}
)CLC";
    const std::vector<half_bits> all = every_half();
    const size_t n = all.size();
    MemPtr scalar = make_buffer<cl_int>(f.ctx(), 8 * n);
    MemPtr vector = make_buffer<cl_short>(f.ctx(), 4 * n);
    run_on_every_half(f, source, "classify", {scalar.get(), vector.get()});
    const auto s = read_buffer<cl_int>(f.q(), scalar.get(), 8 * n);
    const auto v = read_buffer<cl_short>(f.q(), vector.get(), 4 * n);
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i) {
        const double x = half_to_double(all[i]), y = half_to_double(all[i ^ 0x5a5a]);
        const int expected[8] = {std::isnan(x),
                                 std::isinf(x),
                                 std::isfinite(x),
                                 std::isfinite(x) && std::fabs(x) >= 0x1p-14,
                                 std::signbit(x),
                                 std::isless(x, y),
                                 std::islessgreater(x, y),
                                 std::isunordered(x, y)};
        for (size_t k = 0; k < 8; ++k)
            if (s[8 * i + k] != expected[k] && wrong++ < 10)
                UNSCOPED_INFO("scalar result " << k << " for 0x" << std::hex << all[i] << std::dec
                                               << ": " << s[8 * i + k]);
        const double lanes[4] = {x, y, -x, x};
        const double swapped[4] = {y, x, x, -x};
        for (size_t k = 0; k < 4; ++k) {
            const double l = lanes[k];
            const int normal = std::isfinite(l) && std::fabs(l) >= 0x1p-14 ? -1 : 0;
            const int ge = std::isgreaterequal(l, swapped[k]) ? -1 : 0;
            if (v[4 * i + k] != normal + 2 * ge && wrong++ < 10)
                UNSCOPED_INFO("vector lane " << k << " for 0x" << std::hex << all[i] << std::dec
                                             << ": " << v[4 * i + k]);
        }
    }
    CHECK(wrong == 0);
}

TEST_CASE("half conversions round and saturate as asked", "[fp16]") {
    Fixture f;
    const std::string source = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void conversions(__global const float* a, __global const double* d,
                          __global const int* k, __global const half* h,
                          __global half* halves, __global int* ints) {
    size_t i = get_global_id(0);
    float x = a[i];
    __global half* r = halves + 8 * i;
    r[0] = convert_half(x);
    r[1] = convert_half_rtz(x);
    r[2] = convert_half_rtp(x);
    r[3] = convert_half_rtn(x);
    r[4] = (half)d[i];
    r[5] = convert_half_rtz(k[i]);
    r[6] = convert_half(k[i]);
    r[7] = convert_half_rtp(d[i]);
    __global int* s = ints + 4 * i;
    s[0] = convert_short_sat(h[i]);
    s[1] = convert_int_rtn(h[i]);
    s[2] = convert_uchar_sat_rte(h[i]);
    s[3] = convert_int4_sat_rtp(vload4(0, h + (i & ~3))).s1;
}
)CLC";
    const size_t n = 1 << 15;
    std::mt19937 random(7);
    std::vector<float> a(n);
    std::vector<double> d(n);
    std::vector<cl_int> k(n);
    std::uniform_real_distribution<float> exponent(-27.0f, 17.0f);
    for (size_t i = 0; i < n; ++i) {
        a[i] = std::exp2(exponent(random)) * ((random() & 1) ? -1.0f : 1.0f);
        d[i] = static_cast<double>(a[i]) * (1.0 + 1e-12 * static_cast<double>(random() % 7));
        k[i] = static_cast<cl_int>(random()) >> (random() % 31);
    }
    const float float_specials[] = {65504.0f,   65519.99f, 65520.0f,   70000.0f,
                                    -65520.0f,  0x1p-25f,  0x1.8p-25f, 0x1p-24f,
                                    0x1.8p-24f, -0x1p-26f, 0.0f,       -0.0f,
                                    INFINITY,   -INFINITY, NAN,        1.00048828125f};
    std::copy(std::begin(float_specials), std::end(float_specials), a.begin());
    const std::vector<half_bits> h = random_halves(n, 8);
    MemPtr in_a = make_buffer(f.ctx(), a), in_d = make_buffer(f.ctx(), d),
           in_k = make_buffer(f.ctx(), k), in_h = make_buffer(f.ctx(), h);
    MemPtr halves = make_buffer<half_bits>(f.ctx(), 8 * n);
    MemPtr ints = make_buffer<cl_int>(f.ctx(), 4 * n);
    ProgramPtr program = f.build(source);
    KernelPtr kernel = make_kernel(program.get(), "conversions");
    set_arg(kernel.get(), 0, in_a);
    set_arg(kernel.get(), 1, in_d);
    set_arg(kernel.get(), 2, in_k);
    set_arg(kernel.get(), 3, in_h);
    set_arg(kernel.get(), 4, halves);
    set_arg(kernel.get(), 5, ints);
    run_1d(f.q(), kernel.get(), n);
    const auto rh = read_buffer<half_bits>(f.q(), halves.get(), 8 * n);
    const auto ri = read_buffer<cl_int>(f.q(), ints.get(), 4 * n);

    // Directed rounding: the nearest half, stepped back when it went the
    // wrong way (toward zero, +inf or -inf).
    auto directed = [](long double v, int mode) -> half_bits {
        half_bits r = double_to_half(v);
        if (std::isnan(v))
            return r;
        const long double got = (r & 0x7fff) == 0x7c00
                                    ? std::copysign(std::numeric_limits<long double>::infinity(), v)
                                    : static_cast<long double>(half_to_double(r));
        auto step = [](half_bits x, bool up) -> half_bits { // toward +inf or -inf
            if ((x & 0x7fff) == 0)
                return up ? 0x0001 : 0x8001;
            const bool negative = x & 0x8000;
            return static_cast<half_bits>(up != negative ? x + 1 : x - 1);
        };
        if (mode == 0 && std::fabs(got) > std::fabs(v))
            r = step(r, v < 0);
        if (mode == 1 && got < v)
            r = step(r, true);
        if (mode == 2 && got > v)
            r = step(r, false);
        return r;
    };
    auto saturate = [](long double v, long double low, long double high) -> cl_int {
        if (std::isnan(v))
            return 0;
        return static_cast<cl_int>(std::fmin(std::fmax(v, low), high));
    };
    size_t wrong = 0;
    auto expect = [&](bool ok, size_t i, const char* what) {
        if (!ok && wrong++ < 10)
            UNSCOPED_INFO(what << " wrong for item " << i << " (" << a[i] << ", " << d[i] << ", "
                               << k[i] << ", 0x" << std::hex << h[i] << std::dec << ")");
    };
    for (size_t i = 0; i < n; ++i) {
        const long double x = a[i];
        expect(same_half(rh[8 * i + 0], double_to_half(x)), i, "convert_half");
        expect(same_half(rh[8 * i + 1], directed(x, 0)), i, "convert_half_rtz");
        expect(same_half(rh[8 * i + 2], directed(x, 1)), i, "convert_half_rtp");
        expect(same_half(rh[8 * i + 3], directed(x, 2)), i, "convert_half_rtn");
        expect(same_half(rh[8 * i + 4], double_to_half(d[i])), i, "(half)double");
        expect(same_half(rh[8 * i + 5], directed(k[i], 0)), i, "convert_half_rtz(int)");
        expect(same_half(rh[8 * i + 6], double_to_half(k[i])), i, "convert_half(int)");
        expect(same_half(rh[8 * i + 7], directed(d[i], 1)), i, "convert_half_rtp(double)");
        const long double y = half_to_double(h[i]);
        expect(ri[4 * i + 0] == saturate(std::trunc(y), -32768, 32767), i, "convert_short_sat");
        if (std::isfinite(y))
            expect(ri[4 * i + 1] == static_cast<cl_int>(std::floor(y)), i, "convert_int_rtn");
        expect(ri[4 * i + 2] == saturate(std::nearbyint(y), 0, 255), i, "convert_uchar_sat_rte");
        const long double y1 = half_to_double(h[(i & ~size_t{3}) + 1]);
        expect(ri[4 * i + 3] == saturate(std::ceil(y1), INT32_MIN, INT32_MAX), i,
               "convert_int4_sat_rtp");
    }
    CHECK(wrong == 0);
}

TEST_CASE("half functions that depend on half's own format", "[fp16]") {
    Fixture f;
    const std::string source = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void format(__global const half* a, __global half* out, __global int* ints) {
    size_t i = get_global_id(0);
    half x = a[i], y = a[i ^ 0x1234];
    __global half* r = out + 6 * i;
    r[0] = nextafter(x, y);
    int e;
    r[1] = frexp(x, &e);
    ints[2 * i] = e;
    ints[2 * i + 1] = ilogb(x);
    half whole;
    r[2] = fract(x, &whole);
    r[3] = whole;
    r[4] = nan((ushort)(i & 0x1ff));
    r[5] = ldexp(x, (int)(i % 41) - 20);
}
)CLC";
    const std::vector<half_bits> all = every_half();
    const size_t n = all.size();
    MemPtr out = make_buffer<half_bits>(f.ctx(), 6 * n);
    MemPtr ints = make_buffer<cl_int>(f.ctx(), 2 * n);
    run_on_every_half(f, source, "format", {out.get(), ints.get()});
    const auto r = read_buffer<half_bits>(f.q(), out.get(), 6 * n);
    const auto ri = read_buffer<cl_int>(f.q(), ints.get(), 2 * n);
    size_t wrong = 0;
    auto expect = [&](bool ok, size_t i, const char* what) {
        if (!ok && wrong++ < 10)
            UNSCOPED_INFO(what << " wrong for 0x" << std::hex << all[i] << std::dec);
    };
    for (size_t i = 0; i < n; ++i) {
        const half_bits hx = all[i], hy = all[i ^ 0x1234];
        const double x = half_to_double(hx), y = half_to_double(hy);
        // nextafter: one step through the halves toward y.
        half_bits next;
        if (is_nan(hx) || is_nan(hy))
            next = 0x7e00;
        else if (x == y)
            next = hy;
        else if ((hx & 0x7fff) == 0)
            next = static_cast<half_bits>((hy & 0x8000) | 1);
        else
            next = static_cast<half_bits>(((y > x) == (x > 0)) ? hx + 1 : hx - 1);
        expect(same_half(r[6 * i], next), i, "nextafter");
        if (std::isfinite(x) && x != 0) {
            int e = 0;
            const double m = std::frexp(x, &e);
            expect(r[6 * i + 1] == double_to_half(m) && ri[2 * i] == e, i, "frexp");
            expect(ri[2 * i + 1] == std::ilogb(x), i, "ilogb");
            const double whole = std::floor(x);
            expect(r[6 * i + 2] == double_to_half(std::fmin(x - whole, 0x1.ffcp-1)) &&
                       r[6 * i + 3] == double_to_half(whole),
                   i, "fract");
        }
        expect(r[6 * i + 4] == (0x7e00 | (i & 0x1ff)), i, "nan");
        const long double scaled = std::ldexp(static_cast<long double>(x), int(i % 41) - 20);
        expect(same_half(r[6 * i + 5], double_to_half(scaled)), i, "ldexp");
    }
    CHECK(wrong == 0);
}

TEST_CASE("half vectors of every width with the common and geometric functions", "[fp16]") {
    Fixture f;
    const std::string source = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void vectors(__global const half* a, __global float* out) {
    size_t i = get_global_id(0);
    half2 v2 = vload2(i, a);
    half3 v3 = vload3(i, a);
    half4 v4 = vload4(i, a);
    half8 v8 = vload8(i, a);
    half16 v16 = vload16(i, a);
    __global float* r = out + 10 * i;
    r[0] = v2.x * v2.y + v2.s1;
    half3 w3 = v3 * (half)2 - v3.zxy;
    r[1] = w3.x + w3.y + w3.z;
    r[2] = dot(v4, v4.yxwz);
    r[3] = length(v3);
    r[4] = normalize(v4).s2;
    r[5] = cross(v3, v3.yzx).s0;
    half8 w8 = clamp(v8, (half)-1, (half)1) + mix(v8, v8.s76543210, (half)0.25);
    r[6] = w8.s5;
    half16 w16 = fmax(v16, (half)0.5) * sign(v16) + select(v16, -v16, isless(v16, (half16)0));
    r[7] = w16.sf;
    r[8] = smoothstep((half)-2, (half)2, v4).w + step((half)0, v4).z;
    r[9] = distance(v2, v2.yx);
}
)CLC";
    const size_t n = 256;
    std::mt19937 random(9);
    std::uniform_real_distribution<float> value(-4.0f, 4.0f);
    std::vector<half_bits> a(16 * n + 16);
    for (half_bits& v : a)
        v = double_to_half(value(random));
    MemPtr in = make_buffer(f.ctx(), a);
    MemPtr out = make_buffer<float>(f.ctx(), 10 * n);
    ProgramPtr program = f.build(source);
    KernelPtr kernel = make_kernel(program.get(), "vectors");
    set_arg(kernel.get(), 0, in);
    set_arg(kernel.get(), 1, out);
    run_1d(f.q(), kernel.get(), n);
    const auto r = read_buffer<float>(f.q(), out.get(), 10 * n);
    // Each result went through a few half roundings: compare within 2^-8
    // relative (a half ULP is 2^-11 relative) plus a small absolute term.
    auto close = [](double got, double expected) {
        return std::fabs(got - expected) <= 0x1p-8 * std::fabs(expected) + 0x1p-9;
    };
    auto h = [&](size_t index) { return half_to_double(a[index]); };
    size_t wrong = 0;
    for (size_t i = 0; i < n; ++i) {
        double v2[2] = {h(2 * i), h(2 * i + 1)};
        double v3[3] = {h(3 * i), h(3 * i + 1), h(3 * i + 2)};
        double v4[4] = {h(4 * i), h(4 * i + 1), h(4 * i + 2), h(4 * i + 3)};
        double v8[8], v16[16];
        for (int k = 0; k < 8; ++k)
            v8[k] = h(8 * i + k);
        for (int k = 0; k < 16; ++k)
            v16[k] = h(16 * i + k);
        double expected[10];
        expected[0] = v2[0] * v2[1] + v2[1];
        // Each operation of w3 and of the sum rounds to half (the sum can
        // cancel: model the roundings).
        auto rh = [](double v) { return half_to_double(double_to_half(v)); };
        const double w3[3] = {rh(v3[0] * 2 - v3[2]), rh(v3[1] * 2 - v3[0]), rh(v3[2] * 2 - v3[1])};
        expected[1] = rh(rh(w3[0] + w3[1]) + w3[2]);
        expected[2] = v4[0] * v4[1] + v4[1] * v4[0] + v4[2] * v4[3] + v4[3] * v4[2];
        expected[3] = std::sqrt(v3[0] * v3[0] + v3[1] * v3[1] + v3[2] * v3[2]);
        const double l4 = std::sqrt(v4[0] * v4[0] + v4[1] * v4[1] + v4[2] * v4[2] + v4[3] * v4[3]);
        expected[4] = v4[2] / l4;
        expected[5] = v3[1] * v3[0] - v3[2] * v3[2]; // a.y b.z - a.z b.y, b = a.yzx
        expected[6] = std::fmin(std::fmax(v8[5], -1.0), 1.0) + (v8[5] + (v8[2] - v8[5]) * 0.25);
        const double s = v16[15];
        expected[7] = std::fmax(s, 0.5) * (s > 0 ? 1 : s < 0 ? -1 : 0) + (s < 0 ? -s : s);
        const double t = std::fmin(std::fmax((v4[3] + 2) / 4, 0.0), 1.0);
        expected[8] = t * t * (3 - 2 * t) + (v4[2] < 0 ? 0 : 1);
        expected[9] = std::fabs(v2[0] - v2[1]) * std::sqrt(2.0);
        for (int k = 0; k < 10; ++k)
            if (!close(r[10 * i + k], expected[k]) && wrong++ < 10)
                UNSCOPED_INFO("item " << i << " result " << k << ": " << r[10 * i + k]
                                      << " expected " << expected[k]);
    }
    CHECK(wrong == 0);
}

TEST_CASE("read_imageh and write_imageh on half and float images", "[fp16]") {
    Fixture f;
    REQUIRE(device_info<cl_bool>(f.device, CL_DEVICE_IMAGE_SUPPORT) == CL_TRUE);
    const std::string source = R"CLC(
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
__kernel void images(__read_only image2d_t in, __write_only image2d_t out,
                     __global half* texels) {
    const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST;
    int2 at = (int2)(get_global_id(0), get_global_id(1));
    half4 a = read_imageh(in, s, at);
    half4 b = read_imageh(in, s, convert_float2(at) + 0.5f);
    vstore4(a + b, at.y * get_image_width(in) + at.x, texels);
    write_imageh(out, at, a * (half)-2);
}
)CLC";
    const size_t width = 8, height = 4, texels = width * height;
    std::vector<float> colors(4 * texels);
    for (size_t i = 0; i < colors.size(); ++i)
        colors[i] = static_cast<float>(i) * 0.3f - 20.0f;
    const cl_image_format float_format = {CL_RGBA, CL_FLOAT};
    const cl_image_format half_format = {CL_RGBA, CL_HALF_FLOAT};
    cl_image_desc desc = {};
    desc.image_type = CL_MEM_OBJECT_IMAGE2D;
    desc.image_width = width;
    desc.image_height = height;
    cl_int error = CL_SUCCESS;
    MemPtr in(clCreateImage(f.ctx(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, &float_format, &desc,
                            colors.data(), &error));
    REQUIRE_OK(error);
    MemPtr out(clCreateImage(f.ctx(), CL_MEM_WRITE_ONLY, &half_format, &desc, nullptr, &error));
    REQUIRE_OK(error);
    MemPtr values = make_buffer<half_bits>(f.ctx(), 4 * texels);
    ProgramPtr program = f.build(source);
    KernelPtr kernel = make_kernel(program.get(), "images");
    set_arg(kernel.get(), 0, in);
    set_arg(kernel.get(), 1, out);
    set_arg(kernel.get(), 2, values);
    const size_t global[2] = {width, height};
    run(f.q(), kernel.get(), 2, global);
    const auto sums = read_buffer<half_bits>(f.q(), values.get(), 4 * texels);
    std::vector<half_bits> written(4 * texels);
    const size_t origin[3] = {0, 0, 0}, region[3] = {width, height, 1};
    REQUIRE_OK(clEnqueueReadImage(f.q(), out.get(), CL_TRUE, origin, region, 0, 0, written.data(),
                                  0, nullptr, nullptr));
    size_t wrong = 0;
    for (size_t i = 0; i < colors.size(); ++i) {
        const half_bits h = double_to_half(colors[i]);
        const half_bits sum = double_to_half(2.0 * half_to_double(h));
        const half_bits doubled = double_to_half(-2.0 * half_to_double(h));
        if ((sums[i] != sum || written[i] != doubled) && wrong++ < 10)
            UNSCOPED_INFO("channel " << i << ": 0x" << std::hex << sums[i] << ", 0x" << written[i]
                                     << " expected 0x" << sum << ", 0x" << doubled << std::dec);
    }
    CHECK(wrong == 0);
}
