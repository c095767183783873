// math_conformance: the precision of the OpenCL C math builtins, measured
// through the ICD loader against any platform. Every function of the spec's
// tables runs in a kernel on edge values and a random sample (or, with
// --long, on all 2^32 floats for the unary float functions; the unary half
// functions always on all 65536 halves), for float, double (cl_khr_fp64)
// and half (cl_khr_fp16); the host
// computes the reference in long double and the error is measured in ULPs as
// the spec defines them. See README.md for the options and exit codes.
#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 300
#endif

#include "device.hpp"
#include "inputs.hpp"
#include "kernels.hpp"
#include "math_functions.hpp"
#include "options.hpp"
#include "relaxed.hpp"
#include "ulp_error.hpp"

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

// ------------------------------------------------------------- checking --

// The worst result of a function and type.
struct Worst {
    long double error = -1;
    std::string input;
    std::string result;
    std::string expected;
    long double limit = 0; // the limit at the worst input
    size_t count = 0;      // the inputs checked
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

// The OpenCL C name of T.
template <class T>
std::string type_name() {
    if constexpr (std::is_same_v<T, Half>)
        return "half";
    else if constexpr (std::is_same_v<T, double>)
        return "double";
    else
        return "float";
}

template <class T>
Args make_args(const Inputs<T>& in, size_t i) {
    Args args;
    args.a = in.a[i];
    args.b = in.b[i];
    args.c = in.c[i];
    args.n = in.n[i];
    args.is_double = std::is_same_v<T, double>;
    args.is_half = std::is_same_v<T, Half>;
    return args;
}

template <class T>
T flush(T x) {
    return is_denormal(x) ? static_cast<T>(std::copysign(T(0), x)) : x;
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

// Which result a row shows: any result over its limit before the others,
// the one furthest over its own limit among those (the limits may differ
// per input with --relaxed), else the largest error.
bool shown_before(long double error, long double limit, long double other_error,
                  long double other_limit) {
    if (other_error < 0)
        return error >= 0;
    const bool over = error > limit, other_over = other_error > other_limit;
    if (over != other_over)
        return over;
    if (over)
        return error - limit > other_error - other_limit;
    return error > other_error;
}

// Checks the results of a batch on all host threads; merges into worst.
// The result shown is the worst one (shown_before).
// With `relaxed`, inputs and references that are not finite are not
// checked (-cl-finite-math-only), and for float each input has the limit
// of the relaxed table (relaxed_limit; -1: undefined there, not checked).
template <class T>
void check_batch(const Function& f, Check check, double limit, bool flush_allowed, bool relaxed,
                 const Inputs<T>& in, const Results<T>& out, Worst& worst) {
    const size_t count = in.size();
    const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
    std::vector<Worst> partial(threads);
    std::vector<std::thread> pool;
    const bool per_input_limit = relaxed && std::is_same_v<T, float> && check != Check::report;
    auto work = [&](unsigned t) {
        Worst& w = partial[t];
        long double worst_error = -1;
        long double worst_limit = limit;
        size_t worst_at = 0;
        size_t checked = 0;
        Ref worst_ref;
        for (size_t i = t; i < count; i += threads) {
            Args args = make_args(in, i);
            if (relaxed &&
                !(std::isfinite(in.a[i]) && std::isfinite(in.b[i]) && std::isfinite(in.c[i])))
                continue;
            Ref ref;
            long double e = measure<T>(f, check, args, out.r[i], out.r2[i], out.ri[i], ref);
            double input_limit = limit;
            if (relaxed) {
                // Results that are not finite in T (overflows included).
                if (!std::isfinite(static_cast<T>(ref.value)) ||
                    (f.shape == Shape::t_tpt && !std::isfinite(static_cast<T>(ref.value2))))
                    continue;
                // Where denormal inputs may be read as zero, the same for the
                // result of the flushed inputs (half_divide(x, denormal)).
                if (flush_allowed &&
                    (is_denormal(in.a[i]) || is_denormal(in.b[i]) || is_denormal(in.c[i]))) {
                    Args flushed = args;
                    flushed.a = flush(in.a[i]);
                    flushed.b = flush(in.b[i]);
                    flushed.c = flush(in.c[i]);
                    if (!std::isfinite(static_cast<T>(f.ref(flushed).value)))
                        continue;
                }
                if (per_input_limit) {
                    input_limit = relaxed_limit(f, args, ref.value, ref.value2, limit);
                    if (input_limit < 0)
                        continue;
                }
            }
            ++checked;
            // Where flushing is allowed, any error it explains is none (so
            // that the largest error shown is one flushing does not explain).
            if (e > 0 && flush_allowed) {
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
                // The smallest normal too: it may be the rounding of a
                // result that was denormal before rounding, which flushing
                // hardware (x86 FTZ) writes as zero.
                if (out.r[i] == 0 && std::fabs(ref.value) <= std::numeric_limits<T>::min() &&
                    f.shape != Shape::t_tpt)
                    e = 0;
            }
            if (e > input_limit)
                ++w.over_limit;
            if (shown_before(e, input_limit, worst_error, worst_limit)) {
                worst_error = e;
                worst_limit = input_limit;
                worst_at = i;
                worst_ref = ref;
            }
        }
        w.count = checked;
        w.error = worst_error;
        w.limit = worst_limit;
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
        if (shown_before(w.error, w.limit, worst.error, worst.limit)) {
            worst.error = w.error;
            worst.limit = w.limit;
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
    KnownFailures known;

    std::vector<Row> rows;

    cl_kernel kernel_for(const Function& f, const std::string& type, std::string& error) {
        const std::string key = f.name + "/" + type;
        cl_int status = CL_SUCCESS;
        if (programs.count(type) && programs[type] != nullptr) {
            cl_kernel k = clCreateKernel(programs[type], kernel_name(f).c_str(), &status);
            if (k != nullptr)
                return k;
        }
        if (!single.count(key)) {
            std::string log;
            single[key] = build_program(dev, program_source({&f}, type), log);
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
    Row run_type(const Function& full_f) {
        const bool is_double = std::is_same_v<T, double>;
        const bool is_half = std::is_same_v<T, Half>;
        const bool is_float = std::is_same_v<T, float>;
        // -cl-no-signed-zeros (implied by -cl-fast-relaxed-math): the sign of
        // a zero result is free.
        Function f = full_f;
        if (options.relaxed)
            f.zero_sign_free = true;
        Row row;
        row.function = f.name;
        row.type = type_name<T>();
        const Check check = is_double ? f.double_check : is_half ? f.half_check : f.check;
        const double type_limit = is_double ? f.double_limit
                                  : is_half ? f.half_limit
                                            : f.float_limit;
        const double limit = check == Check::exact    ? 0
                             : check == Check::report ? std::numeric_limits<double>::infinity()
                                                      : type_limit;
        row.limit = show_limit(check, type_limit);
        // The relaxed table is float's: half and double keep their limits.
        if (options.relaxed && is_float && check != Check::report && !relaxed_limit_text(f).empty())
            row.limit = "relaxed: " + relaxed_limit_text(f);
        const bool denormals = is_double ? dev.double_denormals
                               : is_half ? dev.half_denormals
                                         : dev.float_denormals;
        // -cl-denorms-are-zero: float and double denormals may be flushed, in
        // the inputs and the results, whatever the device reports; the option
        // does not apply to half (OpenCL 3.0, 5.8.6.2, names single and double
        // precision only).
        const bool flush_allowed = f.may_flush || !denormals || (options.daz && !is_half);
        std::string error;
        cl_kernel kernel = kernel_for(f, row.type, error);
        if (kernel == nullptr) {
            row.max_error = "inf";
            row.result = error.substr(0, error.find('\n'));
            row.verdict = "FAIL";
            return row;
        }
        Worst worst;
        const bool exhaustive = options.long_mode && is_float &&
                                (f.shape == Shape::t_t || f.shape == Shape::i_t ||
                                 f.shape == Shape::t_tpt || f.shape == Shape::t_tpi);
        size_t samples = options.samples;
        // By default, half's two- and three-argument functions take a quarter
        // of the sample (2^16, 2^12 with --quick): their one-argument
        // functions run on all 65536 halves and the run stays short.
        if (samples == 0)
            samples = (options.quick ? (1u << 14) : (1u << 18)) >> (is_half ? 2 : 0);
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
                            x = T(0);
                Results<T> out;
                ok = run_kernel(dev, kernel, in, out, error);
                if (ok)
                    check_batch(f, check, limit, flush_allowed, options.relaxed, in, out, worst);
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
                check_batch(f, check, limit, flush_allowed, options.relaxed, all, out, worst);
        }
        clReleaseKernel(kernel);
        if (!ok) {
            row.max_error = "inf";
            row.result = error;
            row.verdict = "FAIL";
            return row;
        }
        row.max_error = show_error(worst.error);
        if (options.relaxed && is_float && row.limit.rfind("relaxed: ", 0) == 0 && worst.error >= 0)
            row.limit += " (" + show_error(worst.limit) + " at that input)";
        row.input = worst.input;
        row.result = worst.result;
        row.expected = worst.expected;
        if (check == Check::report)
            row.verdict = "report";
        else if (worst.over_limit > 0)
            row.verdict = "FAIL (" + std::to_string(worst.over_limit) + " of " +
                          std::to_string(worst.count) + " over)";
        else
            row.verdict = "pass";
        return row;
    }

    // Runs one sub-test (a function: float, double, half); true when it
    // passes.
    bool run(const Function& f) {
        std::vector<Row> mine;
        mine.push_back(run_type<float>(f));
        auto skipped = [&](const char* type, const char* why) {
            Row row;
            row.function = f.name;
            row.type = type;
            row.verdict = why;
            mine.push_back(row);
        };
        if (f.double_limit >= 0 || f.double_check != f.check) {
            if (dev.fp64)
                mine.push_back(run_type<double>(f));
            else
                skipped("double", "skipped (no cl_khr_fp64)");
        }
        if (f.half_limit >= 0) {
            if (dev.fp16)
                mine.push_back(run_type<Half>(f));
            else
                skipped("half", "skipped (no cl_khr_fp16)");
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
    if (const int status = parse_options(argc, argv, options); status >= 0)
        return status;
    g_vector_width = options.vector_width;
    g_build_options = kernel_build_options(options);
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
    KnownFailures known = read_known(options.known_failures, known_ok);
    if (!known_ok) {
        std::cout << "cannot read the known failures " << options.known_failures << "\n";
        return exit_usage;
    }

    Device dev;
    if (const int status = open_device(options, dev); status >= 0)
        return status;
    std::cout << "Types:    float (denormals " << (dev.float_denormals ? "supported" : "flushed")
              << ")";
    if (dev.fp64)
        std::cout << ", double (denormals " << (dev.double_denormals ? "supported" : "flushed")
                  << ")";
    if (dev.fp16)
        std::cout << ", half (denormals " << (dev.half_denormals ? "supported" : "flushed") << ")";
    std::cout << "\nReference: long double (" << std::numeric_limits<long double>::digits
              << "-bit significand); functions the spec wants correctly rounded are computed "
                 "in the target type\n";
    std::cout << "Inputs:   edge values + "
              << (options.samples ? options.samples : (options.quick ? (1u << 14) : (1u << 18)))
              << " random per function and type"
              << (options.long_mode ? "; all 2^32 floats for the one-argument float functions" : "")
              << (dev.fp16 ? "; all 65536 halves for the one-argument half functions" +
                                 std::string(options.samples ? ""
                                                             : ", a quarter of the sample "
                                                               "for the others")
                           : "")
              << (options.relaxed ? "; -cl-fast-relaxed-math, finite inputs and results, the "
                                    "relaxed limits for float"
                                  : "")
              << (options.daz ? "; -cl-denorms-are-zero, denormal inputs and results may be "
                                "flushed to zero"
                              : "")
              << (options.vector_width > 1
                      ? "; vector forms of width " + std::to_string(options.vector_width)
                      : std::string())
              << "\n";

    for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT})
        std::signal(signal, on_crash);

    Runner runner{options, dev, {}, {}, {}, known, {}};
    // One program per type with every selected function; a function whose
    // kernel does not build gets a program of its own, so that one missing
    // builtin does not hide the others.
    const auto start = std::chrono::steady_clock::now();
    for (const std::string type : {"float", "double", "half"}) {
        if ((type == "double" && !dev.fp64) || (type == "half" && !dev.fp16))
            continue;
        std::vector<const Function*> list;
        for (const Function* f : to_run)
            if (type == "float" ||
                (type == "double" && (f->double_limit >= 0 || f->double_check != f->check)) ||
                (type == "half" && f->half_limit >= 0))
                list.push_back(f);
        std::string log;
        runner.programs[type] = build_program(dev, program_source(list, type), log);
        if (runner.programs[type] == nullptr)
            std::cout << "note: the " << type
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
