// The single precision limits with unsafe math optimizations (OpenCL C 3.0,
// 7.4 "Relative Error as ULPs"). The table allows "derived" implementations
// (acosh as log(x + sqrt(x * x - 1)), pow as exp2(y * log2(x)), ...) and
// bounds a non-derived one by 8192 ULPs; usmcl's functions are not derived
// (they keep the full-profile code), so 8192 is their limit.
#include "relaxed.hpp"

#include <algorithm>
#include <cmath>
#include <map>

namespace mathconf {

namespace {

constexpr double pi = 3.14159265358979323846;
constexpr double non_derived = 8192;

// One ULP of a float result near v (the gap above |v|, at least the
// smallest denormal's).
long double float_ulp(long double v) {
    const int e = v == 0 ? -126 : std::max(std::ilogb(v), -126);
    return std::ldexp(1.0L, e - 23);
}

// An absolute error bound as ULPs of the reference.
double absolute(long double bound, long double ref) {
    return static_cast<double>(bound / float_ulp(ref));
}

bool in(long double x, double lo, double hi) {
    return x >= lo && x <= hi;
}

enum class Rule {
    full,          // the full-profile limit
    ulps,          // a fixed ULP limit
    sincos_domain, // absolute 2^-11 in [-pi, pi] ([-1, 1] for sinpi, cospi)
    exp_rule,      // 3 + floor(|2x|) ULPs
    log_rule,      // absolute 2^-21 in [0.5, 2], 3 ULPs elsewhere
    hyperbolic,    // a fixed limit in [-88, 88], undefined outside
    divide_domain, // 2.5 ULPs for |x| and |y| in [2^-62, 2^62]
    recip_domain,  // 2.5 ULPs for |x| in [2^-126, 2^126]
    pow_domain,    // undefined for pow(0, 0) and x < 0 with |y| > 2^24
    pown_domain,   // undefined for pown(0, 0)
    powr_domain,   // undefined for powr(0, 0)
    rootn_domain,  // defined for x > 0, x < 0 with odd n, x = 0 with n > 0
};

struct Entry {
    Rule rule;
    double limit;
    const char* text;
};

const std::map<std::string, Entry>& table() {
    static const std::map<std::string, Entry> t = {
        {"divide", {Rule::divide_domain, 2.5, "2.5 for x, y in +-[2^-62, 2^62]"}},
        {"recip", {Rule::recip_domain, 2.5, "2.5 for x in +-[2^-126, 2^126]"}},
        {"acos", {Rule::ulps, 4096, "4096"}},
        {"asin", {Rule::ulps, 4096, "4096"}},
        {"atan", {Rule::ulps, 4096, "4096"}},
        {"acosh", {Rule::ulps, non_derived, "8192 (non-derived)"}},
        {"acospi", {Rule::ulps, non_derived, "8192 (non-derived)"}},
        {"asinh", {Rule::ulps, non_derived, "8192 (non-derived)"}},
        {"asinpi", {Rule::ulps, non_derived, "8192 (non-derived)"}},
        {"atanh", {Rule::ulps, non_derived, "8192 (non-derived)"}},
        {"atanpi", {Rule::ulps, non_derived, "8192 (non-derived)"}},
        {"atan2", {Rule::ulps, non_derived, "8192 (non-derived)"}},
        {"atan2pi", {Rule::ulps, non_derived, "8192 (non-derived)"}},
        {"cbrt", {Rule::ulps, non_derived, "8192 (non-derived)"}},
        {"exp10", {Rule::ulps, non_derived, "8192 (non-derived)"}},
        {"expm1", {Rule::ulps, non_derived, "8192 (non-derived)"}},
        {"log1p", {Rule::ulps, non_derived, "8192 (non-derived)"}},
        {"tan", {Rule::ulps, non_derived, "8192 (non-derived)"}},
        {"tanh", {Rule::ulps, non_derived, "8192 (non-derived)"}},
        {"tanpi", {Rule::ulps, non_derived, "8192 (non-derived)"}},
        {"cosh", {Rule::hyperbolic, non_derived, "8192 (non-derived) in [-88, 88]"}},
        {"sinh", {Rule::hyperbolic, non_derived, "8192 (non-derived) in [-88, 88]"}},
        {"pow", {Rule::pow_domain, non_derived, "8192 (non-derived)"}},
        {"pown", {Rule::pown_domain, non_derived, "8192 (non-derived)"}},
        {"powr", {Rule::powr_domain, non_derived, "8192 (non-derived)"}},
        {"rootn", {Rule::rootn_domain, non_derived, "8192 (non-derived)"}},
        {"sin", {Rule::sincos_domain, pi, "absolute 2^-11 in [-pi, pi]"}},
        {"cos", {Rule::sincos_domain, pi, "absolute 2^-11 in [-pi, pi]"}},
        {"sincos", {Rule::sincos_domain, pi, "absolute 2^-11 in [-pi, pi]"}},
        {"sinpi", {Rule::sincos_domain, 1, "absolute 2^-11 in [-1, 1]"}},
        {"cospi", {Rule::sincos_domain, 1, "absolute 2^-11 in [-1, 1]"}},
        {"exp", {Rule::exp_rule, 0, "3 + floor(fabs(2x))"}},
        {"exp2", {Rule::exp_rule, 0, "3 + floor(fabs(2x))"}},
        {"log", {Rule::log_rule, 0, "absolute 2^-21 in [0.5, 2], else 3"}},
        {"log2", {Rule::log_rule, 0, "absolute 2^-21 in [0.5, 2], else 3"}},
        {"log10", {Rule::log_rule, 0, "absolute 2^-21 in [0.5, 2], else 3"}},
    };
    return t;
}

} // namespace

double relaxed_limit(const Function& f, const Args& args, long double ref, long double ref2,
                     double full) {
    const auto found = table().find(f.name);
    if (found == table().end())
        return full;
    const Entry& entry = found->second;
    const long double x = args.a, y = args.b;
    switch (entry.rule) {
    case Rule::full: return full;
    case Rule::ulps: return entry.limit;
    case Rule::sincos_domain: {
        if (!in(x, -entry.limit, entry.limit))
            return -1;
        const long double bound = std::ldexp(1.0L, -11);
        double limit = absolute(bound, ref);
        if (f.shape == Shape::t_tpt) // sincos: both results within the bound
            limit = std::min(limit, absolute(bound, ref2));
        return limit;
    }
    case Rule::exp_rule: return 3 + std::floor(std::fabs(2 * static_cast<double>(x)));
    case Rule::log_rule: return in(x, 0.5, 2) ? absolute(std::ldexp(1.0L, -21), ref) : 3;
    case Rule::hyperbolic: return in(x, -88, 88) ? entry.limit : -1;
    case Rule::divide_domain: {
        const long double lo = std::ldexp(1.0L, -62), hi = std::ldexp(1.0L, 62);
        return in(std::fabs(x), lo, hi) && in(std::fabs(y), lo, hi) ? entry.limit : -1;
    }
    case Rule::recip_domain:
        return in(std::fabs(x), std::ldexp(1.0, -126), std::ldexp(1.0, 126)) ? entry.limit : -1;
    case Rule::pow_domain:
        if ((x == 0 && y == 0) || (x < 0 && std::fabs(y) > 16777216.0L))
            return -1;
        return entry.limit;
    case Rule::pown_domain: return x == 0 && args.n == 0 ? -1 : entry.limit;
    case Rule::powr_domain: return x == 0 && y == 0 ? -1 : entry.limit;
    case Rule::rootn_domain:
        if (args.n == 0 || (x == 0 && args.n < 0))
            return -1;
        return entry.limit;
    }
    return full;
}

std::string relaxed_limit_text(const Function& f) {
    const auto found = table().find(f.name);
    return found == table().end() ? std::string() : found->second.text;
}

} // namespace mathconf
