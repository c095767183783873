// exp (float and double), log (float) and pow (float) as straight-line
// arithmetic: range reduction, a polynomial, special cases chosen with
// selects at the end. Inlined into a work-item loop, the loop vectorizer
// widens them like any other arithmetic, with no call in the loop.
// Included by math.cl. (Measured with bench/math against libmvec's
// variants, 8M floats in [0.5, 4), 2 threads of a Zen 5: float exp 4.3 ->
// 5.6 Gelem/s, float log 1.5 -> 3.9, double exp 2.1 -> 2.3; of an Intel
// Xeon with AVX-512: float pow 0.77 -> 1.15, float log without its
// division 4.9 -> 6.0. A double log of fdlibm's form, 1.5 against
// libmvec's 1.7, was slower and is left to libmvec.)

// log: x = 2^k (1 + f) with sqrt(2)/2 <= 1 + f < sqrt(2) (f exact),
// log(1 + f) = f - f^2/2 + f^3 Q(f), Q of degree 7 (Chebyshev interpolation
// on that interval; fdlibm's s = f / (2 + f) cost a division, slower than
// the longer polynomial), k ln 2 added in two parts; subnormals scaled up
// first. 0.95 ulp over all 2^32 floats (math_conformance --long; limit 3).
OVERLOAD float log(float x) {
  const int Sub = as_int(x) < 0x00800000; // also zero and negative
  const float Scaled = Sub ? x * 0x1p25f : x;
  const int Bits = as_int(Scaled);
  const int Mantissa = Bits & 0x007fffff;
  const int Half = (Mantissa + 0x4afb0d) & 0x800000; // 1 + f < sqrt(2)
  const int K = (Sub ? -25 : 0) + ((Bits >> 23) - 127) + (Half >> 23);
  const float F = as_float(Mantissa | (Half ^ 0x3f800000)) - 1.0f;
  float Q = -0x1.43b246p-4f;
  Q = Q * F + 0x1.02814ep-3f;
  Q = Q * F - 0x1.0a33eap-3f;
  Q = Q * F + 0x1.231ce6p-3f;
  Q = Q * F - 0x1.54d03ep-3f;
  Q = Q * F + 0x1.999f14p-3f;
  Q = Q * F - 0x1.0000cep-2f;
  Q = Q * F + 0x1.555554p-2f;
  const float R = (F * F) * (Q * F - 0.5f) + F;
  const float Dk = (float)K;
  float Result = Dk * 0x1.62e300p-1f + (R + Dk * 0x1.2fefa2p-17f);
  Result = x == 0.0f ? -INFINITY : Result;
  Result = x < 0.0f ? NAN : Result;
  Result = x == INFINITY ? x : Result;
  return isnan(x) ? x : Result;
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

// pow: |x|^y = 2^(y log2 |x|) in double, whose 53 bits hold y log2 |x|
// to 2^-26 absolute wherever the result is a finite float other than 0:
// log2 |x| = k + log2(1 + f) with sqrt(2)/2 <= 1 + f < sqrt(2) (f exact
// in double), log2(1 + f) = 2/ln 2 atanh(s), s = f / (2 + f), to s^11
// (|s| < 0.172: relative error 2^-34); t = y log2 |x| = n + r, |r| <= 1/2,
// 2^r Taylor's to r^7 (2^-27.5), 2^n by the exponent. One rounding to
// float at the end: below 1 ulp (the spec allows 16). Signs, zeros,
// infinities and NaNs with selects at the end (C99's F.9.4.4).
OVERLOAD float pow(float x, float y) {
  const float Ax = fabs(x);
  const int Sub = as_int(Ax) < 0x00800000;
  const int Bits = as_int(Sub ? Ax * 0x1p23f : Ax);
  const int Mantissa = Bits & 0x007fffff;
  const int Half = (Mantissa + 0x4afb0d) & 0x800000; // 1 + f < sqrt(2)
  const int K = (Sub ? -23 : 0) + ((Bits >> 23) - 127) + (Half >> 23);
  const double F = (double)as_float(Mantissa | (Half ^ 0x3f800000)) - 1.0;
  const double S = F / (2.0 + F);
  const double Z = S * S;
  double L = 0x1.0c9a84994022dp-2; // 2 / (11 ln 2)
  L = L * Z + 0x1.484b13d7c02a9p-2;
  L = L * Z + 0x1.a61762a7aded9p-2;
  L = L * Z + 0x1.2776c50ef9bfep-1;
  L = L * Z + 0x1.ec709dc3a03fdp-1;
  L = L * Z + 0x1.71547652b82fep+1; // 2 / ln 2
  const double T = fmin(fmax((double)y * ((double)K + S * L), -200.0), 200.0);
  const double N = rint(T);
  const double R = T - N;
  double P = 0x1.ffcbfc588b0c5p-17; // ln(2)^7 / 7!
  P = P * R + 0x1.430912f86c786p-13;
  P = P * R + 0x1.5d87fe78a6730p-10;
  P = P * R + 0x1.3b2ab6fba4e77p-7;
  P = P * R + 0x1.c6b08d704a0bfp-5;
  P = P * R + 0x1.ebfbdff82c58ep-3;
  P = P * R + 0x1.62e42fefa39efp-1;
  P = P * R + 1.0;
  float Result = (float)(P * as_double(((long)N + 1023) << 52));
  // Special cases: zero and infinite |x|, then the sign for y an odd
  // integer, NaN for x < 0 and y not an integer, y infinite, NaNs, and
  // the two that are 1 whatever the other operand (y = 0, x = 1).
  Result = Ax == 0.0f ? (y < 0.0f ? INFINITY : 0.0f) : Result;
  Result = Ax == INFINITY ? (y < 0.0f ? 0.0f : INFINITY) : Result;
  const int YInteger = rint(y) == y; // infinities too
  const int YOdd = YInteger & ((int)fmin(fabs(y), 0x1p24f) & 1);
  Result = (signbit(x) & YOdd) ? -Result : Result;
  Result = (x < 0.0f & x != -INFINITY & !YInteger) ? NAN : Result;
  const float YInfinite = Ax == 1.0f ? 1.0f : ((Ax < 1.0f) == (y < 0.0f) ? INFINITY : 0.0f);
  Result = isinf(y) ? YInfinite : Result;
  Result = (isnan(x) | isnan(y)) ? x + y : Result;
  return (y == 0.0f | x == 1.0f) ? 1.0f : Result;
}

VEC_1(float, log, float)
VEC_1(float, exp, float)
VEC_1(double, exp, double)
VEC_2(float, pow, float, float)
