// math_conformance: the precision of the OpenCL C math builtins, measured
// through the ICD loader against any platform. Every function of the spec's
// tables runs in a kernel on edge values and a random sample (or, with
// --long, on all 2^32 floats for the unary float functions); the host
// computes the reference in long double and the error is measured in ULPs as
// the spec defines them. See README.md for the options and exit codes.
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif

#include "math_functions.hpp"

#include <CL/cl.h>

#include <algorithm>
#include <atomic>
#include <cfloat>
#include <chrono>
#include <climits>
#include <cmath>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

namespace mathconf {

namespace {

constexpr int exit_failed = 1;
constexpr int exit_usage = 2;
constexpr int exit_unsupported = 77;

constexpr long double inf_l = std::numeric_limits<long double>::infinity();

struct Options {
    std::string platform;
    size_t device_index = 0;
    bool list = false;
    bool quick = false;
    bool long_mode = false;
    size_t vector_width = 1;
    size_t samples = 0; // random inputs per function and type (0: the mode's default)
    unsigned seed = 12345;
    std::string known_failures;
    std::vector<std::string> selected;
};

// ---------------------------------------------------------------- OpenCL --

struct Device {
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    cl_context context = nullptr;
    cl_command_queue queue = nullptr;
    bool fp64 = false;
    bool float_denormals = false;
    bool double_denormals = false;
};

std::string platform_string(cl_platform_id platform, cl_platform_info name) {
    size_t size = 0;
    if (clGetPlatformInfo(platform, name, 0, nullptr, &size) != CL_SUCCESS)
        return "";
    std::string text(size, '\0');
    clGetPlatformInfo(platform, name, size, text.data(), nullptr);
    while (!text.empty() && text.back() == '\0')
        text.pop_back();
    return text;
}

std::string device_string(cl_device_id device, cl_device_info name) {
    size_t size = 0;
    if (clGetDeviceInfo(device, name, 0, nullptr, &size) != CL_SUCCESS)
        return "";
    std::string text(size, '\0');
    clGetDeviceInfo(device, name, size, text.data(), nullptr);
    while (!text.empty() && text.back() == '\0')
        text.pop_back();
    return text;
}

bool has_word(const std::string& list, const std::string& word) {
    std::istringstream in(list);
    std::string item;
    while (in >> item)
        if (item == word)
            return true;
    return false;
}

// A program with one kernel per function of one type; nullptr and the
// build log when it does not build.
cl_program build_program(const Device& dev, const std::string& source, std::string& log) {
    const char* text = source.c_str();
    cl_int error = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(dev.context, 1, &text, nullptr, &error);
    if (error != CL_SUCCESS) {
        log = "clCreateProgramWithSource: " + std::to_string(error);
        return nullptr;
    }
    error = clBuildProgram(program, 1, &dev.device, "", nullptr, nullptr);
    if (error != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(program, dev.device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        log.assign(size, '\0');
        clGetProgramBuildInfo(program, dev.device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        while (!log.empty() && (log.back() == '\0' || log.back() == '\n'))
            log.pop_back();
        if (log.empty())
            log = "clBuildProgram: " + std::to_string(error);
        clReleaseProgram(program);
        return nullptr;
    }
    return program;
}

std::string kernel_name(const Function& f) {
    return "k_" + f.name;
}

// The vector width of the kernels (--vector-width): 1 calls the scalar
// builtins, 2, 3, 4, 8 or 16 their vector forms (vloadN / vstoreN).
size_t g_vector_width = 1;

std::string kernel_source(const Function& f) {
    std::ostringstream s;
    s << "  kernel void " << kernel_name(f)
      << "(global const T* A, global const T* B, global const T* C, global const int* N,\n"
         "      global T* R, global T* R2, global int* RI) {\n"
         "    size_t i = get_global_id(0);\n"
         "    V a = LOAD(i, A), b = LOAD(i, B), c = LOAD(i, C);\n"
         "    VI n = LOAD(i, N);\n";
    switch (f.shape) {
    case Shape::i_t: s << "    STORE(" << f.expression << ", i, RI);\n"; break;
    case Shape::t_tpt:
        s << "    V p;\n    STORE(" << f.expression << ", i, R);\n    STORE(p, i, R2);\n";
        break;
    case Shape::t_tpi:
    case Shape::t_ttpi:
        s << "    VI p;\n    STORE(" << f.expression << ", i, R);\n    STORE(p, i, RI);\n";
        break;
    default: s << "    STORE(" << f.expression << ", i, R);\n"; break;
    }
    s << "  }\n";
    return s.str();
}

std::string program_source(const std::vector<const Function*>& list, bool is_double) {
    const std::string type = is_double ? "double" : "float";
    const std::string code = is_double ? "ulong" : "uint";
    std::string source;
    if (is_double)
        source += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    source += "typedef " + type + " T;\n";
    if (g_vector_width == 1) {
        source += "typedef T V;\ntypedef int VI;\n#define NANCODE(x) as_" + code +
                  "(x)\n#define LOAD(i, p) (p)[i]\n#define STORE(v, i, p) ((p)[i] = (v))\n";
    } else {
        const std::string w = std::to_string(g_vector_width);
        source += "typedef " + type + w + " V;\ntypedef int" + w + " VI;\n#define NANCODE(x) as_" +
                  code + w + "(x)\n#define LOAD(i, p) vload" + w +
                  "(i, p)\n#define STORE(v, i, p) vstore" + w + "((v), i, p)\n";
    }
    for (const Function* f : list)
        source += kernel_source(*f);
    return source;
}

// ------------------------------------------------------------ ULP error --

template <class T>
constexpr int precision = std::numeric_limits<T>::digits; // 24, 53
template <class T>
constexpr int min_exponent = std::numeric_limits<T>::min_exponent - 1; // -126, -1022
template <class T>
constexpr int max_exponent = std::numeric_limits<T>::max_exponent; // 128, 1024

// The error of `test` against the precise value `ref`, in ULPs of ref: the
// spec's definition (the gap between the floating-point numbers around ref,
// the smaller one below a power of two when the result lies below it),
// measured in an unbounded exponent range so that results beyond the largest
// finite value still have an error; an infinite result counts as 2^emax.
// Wrong NaNs, wrong infinities and wrong signs of zero are infinitely wrong.
template <class T>
long double ulp_error(long double ref, T test, bool zero_sign_free = false) {
    if (std::isnan(ref))
        return std::isnan(test) ? 0 : inf_l;
    if (std::isnan(test))
        return inf_l;
    if (std::isinf(ref))
        return static_cast<long double>(test) == ref ? 0 : inf_l;
    long double t = test;
    if (std::isinf(t)) {
        // Beyond the overflow threshold (the largest finite value plus half
        // its ULP) the correctly rounded result is the infinity.
        const long double threshold = std::ldexp(1.0L, max_exponent<T>) -
                                      std::ldexp(1.0L, max_exponent<T> - precision<T> - 1);
        if (std::fabs(ref) >= threshold && std::signbit(ref) == std::signbit(t))
            return 0;
        t = std::copysign(std::ldexp(1.0L, max_exponent<T>), t);
    }
    if (ref == 0 && t == 0)
        return zero_sign_free || std::signbit(ref) == std::signbit(t) ? 0 : inf_l;
    const int e = ref == 0 ? min_exponent<T> : std::max(std::ilogb(ref), min_exponent<T>);
    long double ulp = std::ldexp(1.0L, e - (precision<T> - 1));
    if (ref != 0 && e > min_exponent<T> && std::fabs(ref) == std::ldexp(1.0L, e) &&
        std::fabs(t) < std::fabs(ref))
        ulp /= 2;
    return std::fabs(t - ref) / ulp;
}

// The error of a function that must be exact: 0 when the result is the
// reference (any NaN for NaN), else its ULP distance (at least 1).
template <class T>
long double exact_error(long double ref, T test, bool zero_sign_free) {
    const T expected = static_cast<T>(ref);
    if (std::isnan(expected))
        return std::isnan(test) ? 0 : inf_l;
    if (std::isnan(test))
        return inf_l;
    if (test == expected &&
        (std::signbit(test) == std::signbit(expected) || (zero_sign_free && test == 0)))
        return 0;
    const long double e = ulp_error<T>(expected, test);
    return e == 0 ? inf_l : std::max(e, 1.0L);
}

template <class T>
bool is_denormal(T x) {
    return x != 0 && std::fabs(x) < std::numeric_limits<T>::min();
}

// --------------------------------------------------------------- inputs --

template <class T>
std::vector<T> edge_values() {
    using L = std::numeric_limits<T>;
    const bool d = std::is_same_v<T, double>;
    std::vector<T> magnitudes = {T(0),
                                 L::denorm_min(),
                                 L::denorm_min() * 3,
                                 L::min() - L::denorm_min(),
                                 L::min(),
                                 L::min() * T(1.5),
                                 L::epsilon(),
                                 T(0.25),
                                 T(0.5),
                                 std::nextafter(T(1), T(0)),
                                 T(1),
                                 std::nextafter(T(1), T(2)),
                                 T(1.5),
                                 T(2),
                                 T(2.5),
                                 T(3),
                                 T(4),
                                 T(10),
                                 T(100),
                                 T(3.14159265358979323846),
                                 T(1.57079632679489661923),
                                 T(0.785398163397448309616),
                                 T(6.28318530717958647692),
                                 T(88.72283935546875),
                                 T(89),
                                 T(87.33654),
                                 T(103.97),
                                 T(150),
                                 T(709.782712893384),
                                 T(745.1332191019412),
                                 T(1e10),
                                 T(1e15),
                                 T(1e22),
                                 T(1) / L::epsilon(),
                                 T(1) / L::epsilon() + 1,
                                 T(2) / L::epsilon(),
                                 T(1e30),
                                 T(1e38),
                                 L::max() / 2,
                                 L::max(),
                                 L::infinity(),
                                 L::quiet_NaN()};
    if (d) {
        magnitudes.push_back(T(1e100));
        magnitudes.push_back(T(1e300));
        magnitudes.push_back(T(4.5e15));
    }
    // Huge arguments of the trigonometric functions near multiples of pi/2.
    magnitudes.push_back(std::ldexp(T(0.785398163397448309616), L::max_exponent - 1));
    magnitudes.push_back(T(12582912));
    std::vector<T> values;
    for (T m : magnitudes) {
        values.push_back(m);
        values.push_back(-m);
    }
    return values;
}

// A few edge values for the three-argument functions (all triples).
template <class T>
std::vector<T> small_edge_values() {
    using L = std::numeric_limits<T>;
    const T magnitudes[] = {
        T(0),         L::denorm_min(),     L::min(), T(0.5),        T(1),          T(3),
        L::epsilon(), T(1) / L::epsilon(), L::max(), L::infinity(), L::quiet_NaN()};
    std::vector<T> values;
    for (T m : magnitudes) {
        values.push_back(m);
        values.push_back(-m);
    }
    return values;
}

template <class T>
T from_bits(uint64_t bits) {
    if constexpr (std::is_same_v<T, float>) {
        const uint32_t b = static_cast<uint32_t>(bits);
        float f;
        std::memcpy(&f, &b, 4);
        return f;
    } else {
        double x;
        std::memcpy(&x, &bits, 8);
        return x;
    }
}

template <class T>
T random_value(std::mt19937_64& rng, double domain) {
    std::uniform_int_distribution<int> kind(0, 9);
    T x;
    switch (kind(rng)) {
    case 0:
    case 1:
    case 2:
    case 3: x = from_bits<T>(rng()); break; // every exponent
    case 4:
    case 5: x = static_cast<T>(std::uniform_real_distribution<double>(-1, 1)(rng)); break;
    case 6:
    case 7: x = static_cast<T>(std::uniform_real_distribution<double>(-10, 10)(rng)); break;
    default: {
        const double e = std::uniform_real_distribution<double>(-40, 40)(rng);
        x = static_cast<T>(std::exp2(e) * (rng() & 1 ? -1 : 1));
        break;
    }
    }
    if (domain > 0 && !(std::fabs(x) <= domain))
        x = std::isfinite(x) ? static_cast<T>(std::fmod(static_cast<double>(x), domain)) : T(0);
    return x;
}

int random_int(std::mt19937_64& rng, const Function& f, bool is_double) {
    std::uniform_int_distribution<int> kind(0, 9);
    const int k = kind(rng);
    if (k == 0)
        return static_cast<int>(rng());
    if (f.name == "ldexp") {
        const int range = is_double ? 2200 : 300;
        return std::uniform_int_distribution<int>(-range, range)(rng);
    }
    return std::uniform_int_distribution<int>(-40, 40)(rng);
}

std::vector<int> edge_ints(const Function& f) {
    std::vector<int> n = {0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 16, -16, 31, -31, INT_MAX, INT_MIN};
    if (f.name == "ldexp")
        for (int v :
             {24, 126, 127, 128, 149, 150, 151, 277, 300, 1022, 1023, 1024, 1074, 1075, 2100})
            n.insert(n.end(), {v, -v});
    return n;
}

template <class T>
struct Inputs {
    std::vector<T> a, b, c;
    std::vector<int> n;
    size_t size() const { return a.size(); }
    void push(T x, T y, T z, int k) {
        a.push_back(x);
        b.push_back(y);
        c.push_back(z);
        n.push_back(k);
    }
};

template <class T>
Inputs<T> make_inputs(const Function& f, size_t samples, unsigned seed) {
    Inputs<T> in;
    std::vector<T> edges = edge_values<T>();
    if (f.domain > 0)
        edges.erase(std::remove_if(edges.begin(), edges.end(),
                                   [&](T x) { return !(std::fabs(x) <= f.domain); }),
                    edges.end());
    std::mt19937_64 rng(seed ^ std::hash<std::string>()(f.name));
    const bool is_double = std::is_same_v<T, double>;
    switch (f.shape) {
    case Shape::t_t:
    case Shape::i_t:
    case Shape::t_tpt:
    case Shape::t_tpi:
    case Shape::t_nancode:
        for (T x : edges)
            in.push(x, 0, 0, 0);
        for (size_t i = 0; i < samples; ++i)
            in.push(random_value<T>(rng, f.domain), 0, 0, 0);
        break;
    case Shape::t_tt:
    case Shape::t_ttpi:
        for (T x : edges)
            for (T y : edges)
                in.push(x, y, 0, 0);
        for (size_t i = 0; i < samples; ++i) {
            // One argument in five from the edge values, to meet the random
            // values of the other.
            const T x =
                rng() % 5 == 0 ? edges[rng() % edges.size()] : random_value<T>(rng, f.domain);
            const T y =
                rng() % 5 == 0 ? edges[rng() % edges.size()] : random_value<T>(rng, f.domain);
            in.push(x, y, 0, 0);
        }
        break;
    case Shape::t_ttt: {
        const std::vector<T> small = small_edge_values<T>();
        for (T x : small)
            for (T y : small)
                for (T z : small)
                    in.push(x, y, z, 0);
        for (size_t i = 0; i < samples; ++i)
            in.push(random_value<T>(rng, 0), random_value<T>(rng, 0), random_value<T>(rng, 0), 0);
        break;
    }
    case Shape::t_ti: {
        const std::vector<int> ints = edge_ints(f);
        for (T x : edges)
            for (int k : ints)
                in.push(x, 0, 0, k);
        for (size_t i = 0; i < samples; ++i)
            in.push(random_value<T>(rng, 0), 0, 0, random_int(rng, f, is_double));
        break;
    }
    }
    return in;
}

// ------------------------------------------------------------- checking --

// The worst result of a function and type.
struct Worst {
    long double error = -1;
    std::string input;
    std::string result;
    std::string expected;
    size_t count = 0;
    size_t over_limit = 0;
};

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

std::string show_error(long double e);

template <class T>
std::string show(T x) {
    char text[64];
    if (std::isnan(x))
        std::snprintf(text, sizeof(text), "%snan", std::signbit(x) ? "-" : "");
    else
        std::snprintf(text, sizeof(text), "%a", static_cast<double>(x));
    return text;
}

// Measures one result; fills `what` with the input, result and expected
// value when asked.
template <class T>
long double measure(const Function& f, Check check, const Args& args, T r, T r2, int ri, Ref& ref) {
    ref = f.ref(args);
    auto err_of = [&](long double value) -> long double {
        if (check == Check::exact)
            return exact_error<T>(value, r, f.zero_sign_free);
        return ulp_error<T>(value, r, f.zero_sign_free);
    };
    long double e = err_of(ref.value);
    if (ref.has_alternative)
        e = std::min(e, err_of(ref.alternative));
    switch (f.shape) {
    case Shape::t_tpt:
        if (f.second_ulps)
            e = std::max(e, ulp_error<T>(ref.value2, r2));
        else
            e = std::max(e, exact_error<T>(ref.value2, r2, false));
        break;
    case Shape::i_t: e = ri == ref.int_value ? 0 : inf_l; break;
    case Shape::t_tpi:
        // frexp's exponent (0 for infinities and NaNs), lgamma_r's sign (0 at
        // the poles; NaN input: not specified).
        if (!std::isnan(args.a) && ri != ref.int_value)
            e = inf_l;
        break;
    case Shape::t_ttpi: {
        // At least the 7 low bits of the quotient with its sign; exactly 0
        // with a NaN result.
        const int low = static_cast<int>((ri < 0 ? -static_cast<long long>(ri) : ri) & 127);
        const int want = std::abs(ref.int_value);
        const bool nan_result = std::isnan(ref.value);
        const bool sign_ok = want == 0 || ((ri < 0) == (ref.int_value < 0));
        if (nan_result ? ri != 0 : (low != want || !sign_ok))
            e = inf_l;
        break;
    }
    default: break;
    }
    return e;
}

template <class T>
Args make_args(const Inputs<T>& in, size_t i) {
    Args args;
    args.a = in.a[i];
    args.b = in.b[i];
    args.c = in.c[i];
    args.n = in.n[i];
    args.is_double = std::is_same_v<T, double>;
    return args;
}

template <class T>
T flush(T x) {
    return is_denormal(x) ? std::copysign(T(0), x) : x;
}

template <class T>
struct Results {
    std::vector<T> r, r2;
    std::vector<int> ri;
};

// Runs the kernel of f on the inputs.
template <class T>
bool run_kernel(const Device& dev, cl_kernel kernel, const Inputs<T>& in, Results<T>& out,
                std::string& error) {
    const size_t count = in.size();
    out.r.assign(count, T(0));
    out.r2.assign(count, T(0));
    out.ri.assign(count, 0);
    cl_int status = CL_SUCCESS;
    auto make = [&](cl_mem_flags flags, size_t bytes, const void* data) {
        return clCreateBuffer(dev.context, flags | (data ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                              const_cast<void*>(data), &status);
    };
    // The vector kernels run count / width work-items: the inputs are padded
    // with zeros to a multiple of the width (the padding is not checked).
    const size_t width = g_vector_width;
    const size_t padded = (count + width - 1) / width * width;
    Inputs<T> copy;
    const Inputs<T>* source = &in;
    if (padded != count) {
        copy = in;
        for (size_t i = count; i < padded; ++i)
            copy.push(T(0), T(0), T(0), 0);
        source = &copy;
    }
    cl_mem buffers[7] = {
        make(CL_MEM_READ_ONLY, padded * sizeof(T), source->a.data()),
        make(CL_MEM_READ_ONLY, padded * sizeof(T), source->b.data()),
        make(CL_MEM_READ_ONLY, padded * sizeof(T), source->c.data()),
        make(CL_MEM_READ_ONLY, padded * sizeof(int), source->n.data()),
        make(CL_MEM_WRITE_ONLY, padded * sizeof(T), nullptr),
        make(CL_MEM_WRITE_ONLY, padded * sizeof(T), nullptr),
        make(CL_MEM_WRITE_ONLY, padded * sizeof(int), nullptr),
    };
    bool ok = true;
    for (cl_mem b : buffers)
        ok = ok && b != nullptr;
    for (cl_uint i = 0; ok && i < 7; ++i)
        ok = clSetKernelArg(kernel, i, sizeof(cl_mem), &buffers[i]) == CL_SUCCESS;
    if (ok) {
        const size_t items = padded / width;
        status = clEnqueueNDRangeKernel(dev.queue, kernel, 1, nullptr, &items, nullptr, 0, nullptr,
                                        nullptr);
        ok = status == CL_SUCCESS;
    }
    ok = ok && clEnqueueReadBuffer(dev.queue, buffers[4], CL_FALSE, 0, count * sizeof(T),
                                   out.r.data(), 0, nullptr, nullptr) == CL_SUCCESS;
    ok = ok && clEnqueueReadBuffer(dev.queue, buffers[5], CL_FALSE, 0, count * sizeof(T),
                                   out.r2.data(), 0, nullptr, nullptr) == CL_SUCCESS;
    ok = ok && clEnqueueReadBuffer(dev.queue, buffers[6], CL_FALSE, 0, count * sizeof(int),
                                   out.ri.data(), 0, nullptr, nullptr) == CL_SUCCESS;
    ok = ok && clFinish(dev.queue) == CL_SUCCESS;
    for (cl_mem b : buffers)
        if (b != nullptr)
            clReleaseMemObject(b);
    if (!ok)
        error = "running the kernel failed (" + std::to_string(status) + ")";
    return ok;
}

// Checks the results of a batch on all host threads; merges into worst.
template <class T>
void check_batch(const Function& f, Check check, double limit, bool flush_allowed,
                 const Inputs<T>& in, const Results<T>& out, Worst& worst) {
    const size_t count = in.size();
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<Worst> partial(threads);
    std::vector<std::thread> pool;
    auto work = [&](unsigned t) {
        Worst& w = partial[t];
        long double worst_error = -1;
        size_t worst_at = 0;
        Ref worst_ref;
        for (size_t i = t; i < count; i += threads) {
            Args args = make_args(in, i);
            Ref ref;
            long double e = measure<T>(f, check, args, out.r[i], out.r2[i], out.ri[i], ref);
            if (e > limit && flush_allowed) {
                // Denormal inputs read as zero, denormal results written as zero.
                const bool denormal_in =
                    is_denormal(in.a[i]) || is_denormal(in.b[i]) || is_denormal(in.c[i]);
                if (denormal_in) {
                    Args flushed = args;
                    flushed.a = flush(in.a[i]);
                    flushed.b = flush(in.b[i]);
                    flushed.c = flush(in.c[i]);
                    Ref ref2;
                    e = std::min(
                        e, measure<T>(f, check, flushed, out.r[i], out.r2[i], out.ri[i], ref2));
                }
                if (out.r[i] == 0 && std::fabs(ref.value) < std::numeric_limits<T>::min() &&
                    f.shape != Shape::t_tpt)
                    e = 0;
            }
            if (e > limit)
                ++w.over_limit;
            if (e > worst_error) {
                worst_error = e;
                worst_at = i;
                worst_ref = ref;
            }
        }
        w.count = count;
        w.error = worst_error;
        if (worst_error >= 0) {
            const size_t i = worst_at;
            std::string input = show(in.a[i]);
            if (f.shape == Shape::t_tt || f.shape == Shape::t_ttpi || f.shape == Shape::t_ttt)
                input += ", " + show(in.b[i]);
            if (f.shape == Shape::t_ttt)
                input += ", " + show(in.c[i]);
            if (f.shape == Shape::t_ti)
                input += ", " + std::to_string(in.n[i]);
            w.input = input;
            switch (f.shape) {
            case Shape::i_t:
                w.result = std::to_string(out.ri[i]);
                w.expected = std::to_string(worst_ref.int_value);
                break;
            case Shape::t_tpt:
                w.result = show(out.r[i]) + ", " + show(out.r2[i]);
                w.expected = show(static_cast<T>(worst_ref.value)) + ", " +
                             show(static_cast<T>(worst_ref.value2));
                break;
            case Shape::t_tpi:
            case Shape::t_ttpi:
                w.result = show(out.r[i]) + ", " + std::to_string(out.ri[i]);
                w.expected = show(static_cast<T>(worst_ref.value)) + ", " +
                             std::to_string(worst_ref.int_value);
                break;
            default:
                w.result = show(out.r[i]);
                w.expected = show(static_cast<T>(worst_ref.value));
                if (worst_ref.has_alternative)
                    w.expected += " or " + show(static_cast<T>(worst_ref.alternative));
                break;
            }
        }
    };
    for (unsigned t = 0; t < threads; ++t)
        pool.emplace_back(work, t);
    for (std::thread& thread : pool)
        thread.join();
    for (const Worst& w : partial) {
        worst.count += w.count;
        worst.over_limit += w.over_limit;
        if (w.error > worst.error) {
            worst.error = w.error;
            worst.input = w.input;
            worst.result = w.result;
            worst.expected = w.expected;
        }
    }
}

// ------------------------------------------------------------- the run --

struct Row {
    std::string function;
    std::string type;
    std::string max_error;
    std::string limit;
    std::string input;
    std::string result;
    std::string expected;
    std::string verdict; // pass, FAIL, known failure, report, skipped
};

std::string show_error(long double e) {
    if (e < 0)
        return "-";
    if (std::isinf(e))
        return "inf";
    char text[32];
    std::snprintf(text, sizeof(text), e >= 100 ? "%.0Lf" : "%.2Lf", e);
    return text;
}

std::string show_limit(Check check, double limit) {
    if (check == Check::report)
        return "(none)";
    if (check == Check::exact)
        return "0 (exact)";
    if (limit >= undefined_limit)
        return "undefined (special values only)";
    char text[32];
    std::snprintf(text, sizeof(text), "%g", limit);
    return text;
}

struct Runner {
    const Options& options;
    Device& dev;
    std::map<std::string, cl_program> programs;    // per type: all kernels
    std::map<std::string, std::string> build_logs; // "function/type" -> log when it does not build
    std::map<std::string, cl_program> single;      // "function/type" -> own program
    std::map<std::pair<std::string, std::string>, std::string> known; // (function, type) -> reason

    std::vector<Row> rows;

    cl_kernel kernel_for(const Function& f, bool is_double, std::string& error) {
        const std::string type = is_double ? "double" : "float";
        const std::string key = f.name + "/" + type;
        cl_int status = CL_SUCCESS;
        if (programs.count(type) && programs[type] != nullptr) {
            cl_kernel k = clCreateKernel(programs[type], kernel_name(f).c_str(), &status);
            if (k != nullptr)
                return k;
        }
        if (!single.count(key)) {
            std::string log;
            single[key] = build_program(dev, program_source({&f}, is_double), log);
            build_logs[key] = log;
        }
        if (single[key] == nullptr) {
            error = "does not build: " + build_logs[key];
            return nullptr;
        }
        cl_kernel k = clCreateKernel(single[key], kernel_name(f).c_str(), &status);
        if (k == nullptr)
            error = "clCreateKernel: " + std::to_string(status);
        return k;
    }

    template <class T>
    Row run_type(const Function& f) {
        const bool is_double = std::is_same_v<T, double>;
        Row row;
        row.function = f.name;
        row.type = is_double ? "double" : "float";
        const Check check = is_double ? f.double_check : f.check;
        const double limit = check == Check::exact    ? 0
                             : check == Check::report ? std::numeric_limits<double>::infinity()
                             : is_double              ? f.double_limit
                                                      : f.float_limit;
        row.limit = show_limit(check, is_double ? f.double_limit : f.float_limit);
        const bool denormals = is_double ? dev.double_denormals : dev.float_denormals;
        const bool flush_allowed = f.may_flush || !denormals;
        std::string error;
        cl_kernel kernel = kernel_for(f, is_double, error);
        if (kernel == nullptr) {
            row.max_error = "inf";
            row.result = error.substr(0, error.find('\n'));
            row.verdict = "FAIL";
            return row;
        }
        Worst worst;
        const bool exhaustive = options.long_mode && !is_double &&
                                (f.shape == Shape::t_t || f.shape == Shape::i_t ||
                                 f.shape == Shape::t_tpt || f.shape == Shape::t_tpi);
        size_t samples = options.samples;
        if (samples == 0)
            samples = options.quick ? (1u << 14) : (1u << 18);
        bool ok = true;
        if (exhaustive) {
            const auto begin = std::chrono::steady_clock::now();
            constexpr uint64_t chunk = uint64_t(1) << 22;
            for (uint64_t start = 0; ok && start < (uint64_t(1) << 32); start += chunk) {
                Inputs<T> in;
                in.a.resize(chunk);
                for (uint64_t i = 0; i < chunk; ++i)
                    in.a[i] = from_bits<T>(start + i);
                in.b.assign(chunk, T(0));
                in.c.assign(chunk, T(0));
                in.n.assign(chunk, 0);
                if (f.domain > 0)
                    for (T& x : in.a)
                        if (!(std::fabs(x) <= f.domain))
                            x = 0;
                Results<T> out;
                ok = run_kernel(dev, kernel, in, out, error);
                if (ok)
                    check_batch(f, check, limit, flush_allowed, in, out, worst);
                // Progress every 2^28 inputs (16 lines per function).
                const uint64_t done = start + chunk;
                if (ok && done % (uint64_t(1) << 28) == 0)
                    std::cout << "    float: " << (done >> 28) << "/16 of the 2^32 inputs, max "
                              << show_error(worst.error) << " ulp so far, "
                              << static_cast<int>(seconds_since(begin)) << " s" << std::endl;
            }
        } else {
            const Inputs<T> all = make_inputs<T>(f, samples, options.seed);
            Results<T> out;
            ok = run_kernel(dev, kernel, all, out, error);
            if (ok)
                check_batch(f, check, limit, flush_allowed, all, out, worst);
        }
        clReleaseKernel(kernel);
        if (!ok) {
            row.max_error = "inf";
            row.result = error;
            row.verdict = "FAIL";
            return row;
        }
        row.max_error = show_error(worst.error);
        row.input = worst.input;
        row.result = worst.result;
        row.expected = worst.expected;
        if (check == Check::report)
            row.verdict = "report";
        else if (worst.error > limit)
            row.verdict = "FAIL (" + std::to_string(worst.over_limit) + " of " +
                          std::to_string(worst.count) + " over)";
        else
            row.verdict = "pass";
        return row;
    }

    // Runs one sub-test (a function, float and double); true when it passes.
    bool run(const Function& f) {
        std::vector<Row> mine;
        mine.push_back(run_type<float>(f));
        if (f.double_limit >= 0 || f.double_check != f.check) {
            if (dev.fp64) {
                mine.push_back(run_type<double>(f));
            } else {
                Row row;
                row.function = f.name;
                row.type = "double";
                row.verdict = "skipped (no cl_khr_fp64)";
                mine.push_back(row);
            }
        }
        bool passed = true;
        for (Row& row : mine) {
            const auto listed = known.find({row.function, row.type});
            const bool failed = row.verdict.rfind("FAIL", 0) == 0;
            if (failed && listed != known.end()) {
                row.verdict = "known failure " + row.verdict.substr(5);
            } else if (failed) {
                passed = false;
            } else if (listed != known.end()) {
                std::cout << "    note: " << row.function << " (" << row.type
                          << ") passes but is listed as a known failure: remove its line"
                          << std::endl;
            }
            std::cout << "    " << row.type << ": max " << row.max_error << " ulp (limit "
                      << row.limit << ") at " << (row.input.empty() ? "-" : row.input) << " -> "
                      << (row.result.empty() ? "-" : row.result) << " (expected "
                      << (row.expected.empty() ? "-" : row.expected) << "): " << row.verdict
                      << std::endl;
            rows.push_back(row);
        }
        return passed;
    }
};

void print_table(const std::vector<Row>& rows) {
    std::cout << "\n| function | type | max ULP | limit | at input | result | expected | verdict "
                 "|\n| --- | --- | --- | --- | --- | --- | --- | --- |\n";
    for (const Row& r : rows)
        std::cout << "| " << r.function << " | " << r.type << " | " << r.max_error << " | "
                  << r.limit << " | " << r.input << " | " << r.result << " | " << r.expected
                  << " | " << r.verdict << " |\n";
    std::cout << std::endl;
}

std::map<std::pair<std::string, std::string>, std::string> read_known(const std::string& path,
                                                                      bool& ok) {
    std::map<std::pair<std::string, std::string>, std::string> known;
    ok = true;
    if (path.empty())
        return known;
    std::ifstream in(path);
    if (!in) {
        ok = false;
        return known;
    }
    auto trim = [](std::string s) {
        const size_t b = s.find_first_not_of(" \t");
        const size_t e = s.find_last_not_of(" \t");
        return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
    };
    std::string line;
    while (std::getline(in, line)) {
        line = trim(line);
        if (line.empty() || line[0] == '#')
            continue;
        const size_t p1 = line.find('|');
        const size_t p2 = p1 == std::string::npos ? p1 : line.find('|', p1 + 1);
        if (p2 == std::string::npos) {
            std::cout << path << ": malformed line (function | type | reason): " << line << "\n";
            ok = false;
            continue;
        }
        known[{trim(line.substr(0, p1)), trim(line.substr(p1 + 1, p2 - p1 - 1))}] =
            trim(line.substr(p2 + 1));
    }
    return known;
}

void usage(const char* program) {
    std::cout << "usage: " << program
              << " [--list] [--platform NAME|INDEX] [--device INDEX] [--quick | --long]\n"
                 "       [--samples N] [--seed N] [--vector-width W] [--known-failures FILE]\n"
                 "       [FUNCTION...]\n"
                 "  --list              print the sub-tests (one per function) and exit\n"
                 "  --platform P        the platform whose name or vendor contains P, or index P\n"
                 "                      (default: platform 0)\n"
                 "  --device N          the device of the platform at index N (default 0)\n"
                 "  --quick             a smaller random sample (2^14 per function and type)\n"
                 "  --long              all 2^32 floats for the one-argument float functions\n"
                 "  --samples N         N random inputs per function and type (default 2^18)\n"
                 "  --seed N            the seed of the random inputs\n"
                 "  --vector-width W    call the vector forms (W = 2, 3, 4, 8, 16; default 1)\n"
                 "  --known-failures F  results over the limit listed in F (function | type |\n"
                 "                      reason) are reported but do not fail\n"
                 "  FUNCTION...         the sub-tests to run (default: all)\n"
                 "exit status: 0 all passed, 1 some failed, 2 usage or setup error,\n"
                 "             77 the device has no online compiler\n";
}

volatile const char* g_current = "";
int g_passed = 0;
int g_failed = 0;

extern "C" void on_crash(int signal) {
    char text[512];
    const int length = std::snprintf(
        text, sizeof(text), "    FAILED: signal %d (crash)\n%s FAILED\n%d passed, %d failed\n",
        signal, g_current, g_passed, g_failed + 1);
    if (length > 0) [[maybe_unused]]
        const ssize_t written = write(STDOUT_FILENO, text, static_cast<size_t>(length));
    std::_Exit(exit_failed);
}

} // namespace
} // namespace mathconf

int main(int argc, char** argv) {
    using namespace mathconf;
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        const bool has_value = i + 1 < argc;
        if (arg == "--list") {
            options.list = true;
        } else if (arg == "--quick") {
            options.quick = true;
        } else if (arg == "--long") {
            options.long_mode = true;
        } else if (arg == "--platform" && has_value) {
            options.platform = argv[++i];
        } else if (arg == "--known-failures" && has_value) {
            options.known_failures = argv[++i];
        } else if ((arg == "--device" || arg == "--samples" || arg == "--seed" ||
                    arg == "--vector-width") &&
                   has_value) {
            const std::string value = argv[++i];
            char* end = nullptr;
            const unsigned long number = std::strtoul(value.c_str(), &end, 10);
            if (value.empty() || *end != '\0') {
                usage(argv[0]);
                return exit_usage;
            }
            if (arg == "--device")
                options.device_index = number;
            else if (arg == "--samples")
                options.samples = number;
            else if (arg == "--vector-width")
                options.vector_width = number;
            else
                options.seed = static_cast<unsigned>(number);
        } else if (arg == "--help" || arg == "-h") {
            usage(argv[0]);
            return 0;
        } else if (!arg.empty() && arg[0] == '-') {
            usage(argv[0]);
            return exit_usage;
        } else {
            options.selected.push_back(arg);
        }
    }
    if (options.vector_width != 1 && options.vector_width != 2 && options.vector_width != 3 &&
        options.vector_width != 4 && options.vector_width != 8 && options.vector_width != 16) {
        usage(argv[0]);
        return exit_usage;
    }
    g_vector_width = options.vector_width;
    if (options.list) {
        for (const Function& f : functions())
            std::cout << f.name << "  " << f.expression << "\n";
        return 0;
    }
    std::vector<const Function*> to_run;
    for (const Function& f : functions())
        if (options.selected.empty() || std::find(options.selected.begin(), options.selected.end(),
                                                  f.name) != options.selected.end())
            to_run.push_back(&f);
    for (const std::string& name : options.selected)
        if (std::none_of(functions().begin(), functions().end(),
                         [&](const Function& f) { return f.name == name; })) {
            std::cout << "unknown sub-test '" << name << "' (see --list)\n";
            return exit_usage;
        }
    bool known_ok = true;
    auto known = read_known(options.known_failures, known_ok);
    if (!known_ok) {
        std::cout << "cannot read the known failures " << options.known_failures << "\n";
        return exit_usage;
    }

    // The platform and device.
    cl_uint count = 0;
    if (clGetPlatformIDs(0, nullptr, &count) != CL_SUCCESS || count == 0) {
        std::cout << "no OpenCL platform found (check OCL_ICD_VENDORS / /etc/OpenCL/vendors)\n";
        return exit_usage;
    }
    std::vector<cl_platform_id> platforms(count);
    clGetPlatformIDs(count, platforms.data(), nullptr);
    Device dev;
    if (options.platform.empty()) {
        dev.platform = platforms[0];
    } else if (options.platform.find_first_not_of("0123456789") == std::string::npos) {
        const size_t index = std::stoul(options.platform);
        if (index >= platforms.size()) {
            std::cout << "platform index " << index << " out of range\n";
            return exit_usage;
        }
        dev.platform = platforms[index];
    } else {
        for (cl_platform_id p : platforms)
            if (platform_string(p, CL_PLATFORM_NAME).find(options.platform) != std::string::npos ||
                platform_string(p, CL_PLATFORM_VENDOR).find(options.platform) !=
                    std::string::npos) {
                dev.platform = p;
                break;
            }
        if (dev.platform == nullptr) {
            std::cout << "no platform whose name or vendor contains '" << options.platform
                      << "'; platforms:\n";
            for (size_t i = 0; i < platforms.size(); ++i)
                std::cout << "  " << i << ": " << platform_string(platforms[i], CL_PLATFORM_NAME)
                          << "\n";
            return exit_usage;
        }
    }
    cl_uint device_count = 0;
    clGetDeviceIDs(dev.platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &device_count);
    if (options.device_index >= device_count) {
        std::cout << "device index " << options.device_index << " out of range (" << device_count
                  << " devices)\n";
        return exit_usage;
    }
    std::vector<cl_device_id> devices(device_count);
    clGetDeviceIDs(dev.platform, CL_DEVICE_TYPE_ALL, device_count, devices.data(), nullptr);
    dev.device = devices[options.device_index];
    std::cout << "Platform: " << platform_string(dev.platform, CL_PLATFORM_NAME) << " ("
              << platform_string(dev.platform, CL_PLATFORM_VERSION) << ")\n"
              << "Device:   " << device_string(dev.device, CL_DEVICE_NAME) << " ("
              << device_string(dev.device, CL_DEVICE_VERSION) << ")\n";
    cl_bool compiler = CL_FALSE;
    clGetDeviceInfo(dev.device, CL_DEVICE_COMPILER_AVAILABLE, sizeof(compiler), &compiler, nullptr);
    if (!compiler) {
        std::cout << "The device has no online compiler: every sub-test is skipped.\n"
                  << "0 passed, 0 failed" << std::endl;
        return exit_unsupported;
    }
    cl_device_fp_config single_config = 0, double_config = 0;
    clGetDeviceInfo(dev.device, CL_DEVICE_SINGLE_FP_CONFIG, sizeof(single_config), &single_config,
                    nullptr);
    clGetDeviceInfo(dev.device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof(double_config), &double_config,
                    nullptr);
    dev.fp64 = has_word(device_string(dev.device, CL_DEVICE_EXTENSIONS), "cl_khr_fp64") &&
               double_config != 0;
    dev.float_denormals = (single_config & CL_FP_DENORM) != 0;
    dev.double_denormals = (double_config & CL_FP_DENORM) != 0;
    std::cout << "Types:    float (denormals " << (dev.float_denormals ? "supported" : "flushed")
              << ")";
    if (dev.fp64)
        std::cout << ", double (denormals " << (dev.double_denormals ? "supported" : "flushed")
                  << ")";
    std::cout << "\nReference: long double (" << std::numeric_limits<long double>::digits
              << "-bit significand); functions the spec wants correctly rounded are computed "
                 "in the target type\n";
    std::cout << "Inputs:   edge values + "
              << (options.samples ? options.samples : (options.quick ? (1u << 14) : (1u << 18)))
              << " random per function and type"
              << (options.long_mode ? "; all 2^32 floats for the one-argument float functions" : "")
              << (options.vector_width > 1
                      ? "; vector forms of width " + std::to_string(options.vector_width)
                      : std::string())
              << "\n";

    cl_int error = CL_SUCCESS;
    const cl_context_properties properties[] = {
        CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(dev.platform), 0};
    dev.context = clCreateContext(properties, 1, &dev.device, nullptr, nullptr, &error);
    if (error != CL_SUCCESS) {
        std::cout << "clCreateContext: " << error << "\n";
        return exit_usage;
    }
    dev.queue = clCreateCommandQueueWithProperties(dev.context, dev.device, nullptr, &error);
    if (error != CL_SUCCESS) {
        std::cout << "clCreateCommandQueueWithProperties: " << error << "\n";
        return exit_usage;
    }

    for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        std::signal(signal, on_crash);

    Runner runner{options, dev, {}, {}, {}, known, {}};
    // One program per type with every selected function; a function whose
    // kernel does not build gets a program of its own, so that one missing
    // builtin does not hide the others.
    const auto start = std::chrono::steady_clock::now();
    for (bool is_double : {false, true}) {
        if (is_double && !dev.fp64)
            continue;
        std::vector<const Function*> list;
        for (const Function* f : to_run)
            if (!is_double || f->double_limit >= 0 || f->double_check != f->check)
                list.push_back(f);
        std::string log;
        runner.programs[is_double ? "double" : "float"] =
            build_program(dev, program_source(list, is_double), log);
        if (runner.programs[is_double ? "double" : "float"] == nullptr)
            std::cout << "note: the " << (is_double ? "double" : "float")
                      << " program with every function does not build; building each function "
                         "alone\n";
    }

    for (const Function* f : to_run) {
        g_current = f->name.c_str();
        std::cout << f->name << "..." << std::endl;
        if (runner.run(*f)) {
            ++g_passed;
            std::cout << f->name << " PASSED" << std::endl;
        } else {
            ++g_failed;
            std::cout << f->name << " FAILED" << std::endl;
        }
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    print_table(runner.rows);
    for (auto& [type, program] : runner.programs)
        if (program != nullptr)
            clReleaseProgram(program);
    for (auto& [key, program] : runner.single)
        if (program != nullptr)
            clReleaseProgram(program);
    clReleaseCommandQueue(dev.queue);
    clReleaseContext(dev.context);
    std::cout << "(" << static_cast<int>(seconds) << " s)\n";
    std::cout << g_passed << " passed, " << g_failed << " failed" << std::endl;
    return g_failed == 0 ? 0 : exit_failed;
}
