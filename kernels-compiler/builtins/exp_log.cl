// exp (float and double), log (float) and pow (float) as straight-line
// arithmetic: range reduction, a polynomial, special cases chosen with
// selects at the end. Inlined into a work-item loop, the loop vectorizer
// widens them like any other arithmetic, with no call in the loop.
// Included by math.cl. (Measured with bench/math against libmvec's
// variants, 8M floats in [0.5, 4), 2 threads of a Zen 5: float exp 4.3 ->
// 5.6 Gelem/s, float log 1.5 -> 3.9, double exp 2.1 -> 2.3; of an Intel
// Xeon with AVX-512: float pow 0.77 -> 1.15 -> 1.30 with tables (0.58 ->
// 0.62 ulp), float log without its division 4.9 -> 6.0, with fewer
// operations 5.25 -> 6.30. A double log of fdlibm's form, 1.5 against
// libmvec's 1.7, was slower and is left to libmvec.)

// log: x = 2^k z with sqrt(2)/2 <= z < sqrt(2), k and z from one
// subtraction of the bits (musl's logf), f = z - 1 (exact), log(1 + f) =
// f - f^2/2 + f^3 Q(f), Q of degree 7 (Chebyshev interpolation on that
// interval; fdlibm's s = f / (2 + f) cost a division, slower than the
// longer polynomial), plus k ln 2 in one fused multiply-add (ln 2's
// rounding to float is 0.03 ulp of the result at most: |k ln 2| >= 0.69 >
// 2 |log z| when k is not 0); subnormals scaled up first; the special
// inputs (0, negative, infinite, NaN: all whose bits, scaled, are not a
// positive finite float's) from one unsigned comparison. 0.95 ulp over all
// 2^32 floats (math_conformance --long, also --daz; limit 3). (The same
// polynomial with k and z from the mantissa and the exponent apart, k ln 2
// in two parts and four selects for the special inputs, 36 vector
// operations against 29: 2.54 -> 2.80 Gelem/s on one core of the Xeon,
// 5.25 -> 6.30 on two.)
OVERLOAD float log(float x) {
  const int Sub = as_int(x) < 0x00800000; // also zero and negative
  const int Bits = as_int(Sub ? x * 0x1p25f : x);
  const int Tmp = Bits - 0x3f3504f3; // sqrt(2)/2
  const int K = (Tmp >> 23) + (Sub ? -25 : 0);
  const float F = as_float(Bits - (Tmp & (int)0xff800000)) - 1.0f;
  float Q = -0x1.43b246p-4f;
  Q = Q * F + 0x1.02814ep-3f;
  Q = Q * F - 0x1.0a33eap-3f;
  Q = Q * F + 0x1.231ce6p-3f;
  Q = Q * F - 0x1.54d03ep-3f;
  Q = Q * F + 0x1.999f14p-3f;
  Q = Q * F - 0x1.0000cep-2f;
  Q = Q * F + 0x1.555554p-2f;
  const float R = (F * F) * (Q * F - 0.5f) + F;
  const float Result = fma((float)K, 0x1.62e430p-1f, R);
  const float Special = x == 0.0f ? -INFINITY : (x < 0.0f ? NAN : x);
  // Bits, not x: with -cl-denorms-are-zero a subnormal x scaled is 0, and
  // x == 0 holds for it.
  return (uint)Bits - 1u < 0x7f7fffffu ? Result : Special;
}

// exp: k = rint(x / ln 2), r = x - k ln 2 (ln 2 in two parts, the first
// with few enough bits that k times it is exact), exp(r) a polynomial on
// |r| <= ln 2 / 2, times 2^k in two steps (subnormal results, overflow to
// infinity). float: SLEEF's coefficients, 1 ulp; double: Taylor's to r^13.
OVERLOAD float exp(float x) {
  const float X = fmin(fmax(x, -104.0f), 104.0f); // keeps K in range
  const float Kf = rint(X * 0x1.715476p+0f);
  const int K = (int)Kf;
  float R = X - Kf * 0x1.62e400p-1f;
  R = R - Kf * 0x1.7f7d1cp-20f;
  float P = 0x1.a057b4p-13f;
  P = P * R + 0x1.6d2d92p-10f;
  P = P * R + 0x1.11114cp-7f;
  P = P * R + 0x1.5554f4p-5f;
  P = P * R + 0x1.555556p-3f;
  P = P * R + 0.5f;
  P = 1.0f + R + R * R * P;
  const int K1 = K >> 1;
  float Result = P * as_float((K1 + 127) << 23) * as_float((K - K1 + 127) << 23);
  return isnan(x) ? x : Result;
}

OVERLOAD double exp(double x) {
  const double X = fmin(fmax(x, -750.0), 750.0); // keeps K in range
  const double Kd = rint(X * 0x1.71547652b82fep+0);
  const long K = (long)Kd;
  const double R = (X - Kd * 0x1.62e42feep-1) - Kd * 0x1.a39ef35793c76p-33;
  double P = 0x1.6124613a86d09p-33; // 1 / 13!
  P = P * R + 0x1.1eed8eff8d898p-29;
  P = P * R + 0x1.ae64567f544e4p-26;
  P = P * R + 0x1.27e4fb7789f5cp-22;
  P = P * R + 0x1.71de3a556c734p-19;
  P = P * R + 0x1.a01a01a01a01ap-16;
  P = P * R + 0x1.a01a01a01a01ap-13;
  P = P * R + 0x1.6c16c16c16c17p-10;
  P = P * R + 0x1.1111111111111p-7;
  P = P * R + 0x1.5555555555555p-5;
  P = P * R + 0x1.5555555555555p-3;
  P = P * R + 0.5;
  P = 1.0 + R + R * R * P;
  const long K1 = K >> 1;
  double Result = P * as_double((K1 + 1023) << 52) *
                  as_double((K - K1 + 1023) << 52);
  return isnan(x) ? x : Result;
}

// pow: |x|^y = 2^(y log2 |x|), all in float, 16 lanes to a 512-bit vector:
// log2 |x| as a sum of two floats (hi + lo, about 2^-28 relative), its
// product with y split the same way with an fma, and 2^t from there; no
// table, no gather, no double. log: x = 2^k z as in log above, z brought
// into [2^-1/4, 2^1/4) by c = 2^+-1/4 rounded to float (three intervals;
// c = 1 in the middle one, so log2 of x near 1 keeps its relative
// accuracy), z c = p + e exactly (a product and an fma), f = p - 1
// (exact), ln(1 + f) = f - f^2/2 + f^3 Q(f) with f - f^2/2 summed exactly
// and Q of degree 6, e / (1 + f) as e (1 - f + f^2), ln(1/c) as two
// floats; times 1/ln 2 (two floats), plus k. exp: t = n + r, |r| <= 1/2,
// 2^r = 1 + r E(r), E of degree 5, times 2^n in two steps (subnormal
// results, overflow). 2.1 ulp at most over 10^8 random pairs and
// math_conformance (the spec allows 16). Coefficients: tools/fit_pow.py.
// Zeros and infinities of x give k = -inf and +inf, so t saturates to 0
// or infinity with y's sign like every other large |t|; signs, NaNs and
// the ones with selects at the end (C99's F.9.4.4). (The same in double
// with a 16- and a 32-entry table read by gathers, 8 lanes to a vector:
// 0.49 Gelem/s on one core of an AVX-512 Xeon.)
// |x|^y for y = YHi + YLo (YLo: the part of an integer exponent a float
// cannot hold, for pown; HasLo 0 for pow, where the terms of YLo fold
// away once inlined), x's sign ignored; zero and infinite |x| saturate.
static float pow_magnitude(float Ax, float YHi, float YLo, const int HasLo) {
  const int Sub = as_int(Ax) < 0x00800000;
  // Subnormals scaled by 2^23, the exponent lowered by 23 again: the bits
  // of a float whose exponent field may be negative (signed arithmetic).
  const int Bits = Sub ? as_int(Ax * 0x1p23f) - (23 << 23) : as_int(Ax);
  const int Tmp = Bits - 0x3f3504f3; // sqrt(2)/2
  const float Z = as_float(Bits - (Tmp & (int)0xff800000));
  const int Low = Z < 0x1.ae89fap-1f;
  const int High = Z >= 0x1.306fe0p+0f;
  const float C = Low ? 0x1.306fe0p+0f : (High ? 0x1.ae89fap-1f : 1.0f);
  const float LnCHi = Low ? -0x1.62e42cp-3f : (High ? 0x1.62e42ep-3f : 0.0f);
  const float LnCLo = Low ? 0x1.66719ap-29f : (High ? -0x1.43ecc2p-32f : 0.0f);
  const float P = Z * C;
  const float E = fma(Z, C, -P);
  const float F = P - 1.0f;
  float Q = 0x1.b0402cp-4f;
  Q = Q * F - 0x1.09fc9ep-3f;
  Q = Q * F + 0x1.253344p-3f;
  Q = Q * F - 0x1.55318ep-3f;
  Q = Q * F + 0x1.9997fcp-3f;
  Q = Q * F - 0x1.000010p-2f;
  Q = Q * F + 0x1.555556p-2f;
  const float F2 = F * F;
  const float F2Lo = fma(F, F, -F2);
  const float Half = -0.5f * F2;
  const float S = F + Half;
  // The rounding errors of f^2/2 and of the sum, e / (1 + f), f^3 Q(f).
  const float Errors = ((F - S) + Half) + fma(-0.5f, F2Lo, fma(E, F2 - F, E));
  const float Tail = fma(F2 * F, Q, Errors);
  const float MHi = LnCHi + S;
  const float MLo = ((LnCHi - MHi) + S) + (Tail + LnCLo);
  const float LnHi = MHi + MLo;
  const float LnLo = (MHi - LnHi) + MLo;
  const float Log2Hi = LnHi * 0x1.715476p+0f;
  const float Log2Lo = fma(LnHi, 0x1.715476p+0f, -Log2Hi) +
                       fma(LnLo, 0x1.715476p+0f, LnHi * 0x1.4ae0c0p-26f);
  const float K = Ax == 0.0f ? -INFINITY
                             : (Ax == INFINITY ? INFINITY : (float)(Tmp >> 23));
  const float AHi = K + Log2Hi;
  const float ALo = ((K - AHi) + Log2Hi) + Log2Lo;
  const float THi = YHi * AHi;
  const float TLoHi = fma(YHi, AHi, -THi) + YHi * ALo;
  const float TLoAll = HasLo ? fma(YLo, AHi, TLoHi) : TLoHi;
  const float TLo = fabs(THi) < 256.0f ? TLoAll : 0.0f;
  const float T = fmin(fmax(THi, -200.0f), 200.0f);
  const float N = rint(T);
  const float R = (T - N) + TLo;
  float Ex = 0x1.4415aep-13f;
  Ex = Ex * R + 0x1.5f0ba6p-10f;
  Ex = Ex * R + 0x1.3b2a52p-7f;
  Ex = Ex * R + 0x1.c6af68p-5f;
  Ex = Ex * R + 0x1.ebfbe0p-3f;
  Ex = Ex * R + 0x1.62e430p-1f;
  const int Ni = (int)N;
  const int N1 = Ni >> 1;
  return fma(Ex, R, 1.0f) * as_float((N1 + 127) << 23) *
         as_float((Ni - N1 + 127) << 23);
}

OVERLOAD float pow(float x, float y) {
  const float Ax = fabs(x);
  float Result = pow_magnitude(Ax, y, 0.0f, 0);
  // The sign for y an odd integer, NaN for x < 0 and y not an integer
  // (infinities are even integers here), NaNs, and the ones whatever the
  // other operand (y = 0, x = 1, x = -1 and y infinite).
  const int YInteger = rint(y) == y;
  const int YOdd = YInteger & ((int)fmin(fabs(y), 0x1p24f) & 1);
  Result = (signbit(x) & YOdd) ? -Result : Result;
  Result = (x < 0.0f & x != -INFINITY & !YInteger) ? NAN : Result;
  Result = (isnan(x) | isnan(y)) ? x + y : Result;
  return (y == 0.0f | x == 1.0f | ((Ax == 1.0f) & isinf(y))) ? 1.0f : Result;
}

// pown: n as the float nearest it plus the rest (exact: at most 64 in
// magnitude), the sign from n's own parity, 1 for n = 0 whatever x.
OVERLOAD float pown(float x, int n) {
  const float NHi = (float)n;
  const float NLo = (float)((long)n - (long)NHi);
  float Result = pow_magnitude(fabs(x), NHi, NLo, 1);
  Result = (signbit(x) & (n & 1)) ? -Result : Result;
  Result = isnan(x) ? x : Result;
  return n == 0 ? 1.0f : Result;
}

VEC_1(float, log, float)
VEC_1(float, exp, float)
VEC_1(double, exp, double)
VEC_2(float, pow, float, float)
VEC_2(float, pown, float, int)
