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

// pow: |x|^y = 2^(y log2 |x|) in double, whose 53 bits hold y log2 |x|
// to 2^-28 absolute wherever the result is a finite float other than 0.
// No division, two small tables (the form of ARM's optimized-routines
// powf): log2 |x| = k + log2 c + log2(1 + r), z = c (1 + r) with z in
// [0.699, 1.398) the mantissa of |x|, c the center of one of 16
// subintervals (1 for the one holding 1: log2 1 is exactly 0; 1/c and
// log2 c from the tables), |r| < 0.0297, log2(1 + r)
// of degree 5 (relative error 2^-31.9); t = y log2 |x| = n/32 + r',
// |r'| <= 1/64, 2^(n/32) from the second table with n div 32 added to its
// exponent, 2^r' of degree 3 (2^-32.7). One rounding to float at the end:
// below 1 ulp (the spec allows 16). The loop vectorizer reads the tables
// with gathers. Coefficients and tables: tools/fit_pow_tables.py. Signs,
// zeros, infinities and NaNs with selects at the end (C99's F.9.4.4).
constant double PowInvC[16] = {
    0x1.661ec79f8f3bep+0, 0x1.571ed4aaf883dp+0, 0x1.49539f0f010b0p+0,
    0x1.3c995b0b80385p+0, 0x1.30d190c8864a5p+0, 0x1.25e227b0b8ea0p+0,
    0x1.1bb4a4a1a343fp+0, 0x1.12358f08ae5bap+0, 0x1.0953f419900a7p+0,
    1.0,                  0x1.e573ae5c66190p-1, 0x1.ca4b31f026aa0p-1,
    0x1.b2036576afce6p-1, 0x1.9c2d163a1aa2dp-1, 0x1.886e6037841edp-1,
    0x1.767dcf5534862p-1};
constant double PowLog2C[16] = {
    -0x1.efec65b963019p-2, -0x1.b0b6832d4fca4p-2, -0x1.7418b0a1fb77bp-2,
    -0x1.39de91a6dcf7bp-2, -0x1.01d9bf3f2b631p-2, -0x1.97c1d1b3b7af0p-3,
    -0x1.2f9e393af3c9fp-3, -0x1.960cbbf788d5cp-4, -0x1.a6f9db6475fcep-5,
    0.0,                   0x1.3aa2e7ef9fe13p-4,  0x1.476a9543891bap-3,
    0x1.e840b4ac4e4d2p-3,  0x1.40645f0c6651cp-2,  0x1.88e9c2c1b9ff8p-2,
    0x1.ce0a44eb17bccp-2};
// 2^(i/32) with i << 47 subtracted from its bits (added back with n).
constant ulong PowExp2[32] = {
    0x3ff0000000000000UL, 0x3fefd9b0d3158574UL, 0x3fefb5586cf9890fUL,
    0x3fef9301d0125b51UL, 0x3fef72b83c7d517bUL, 0x3fef54873168b9aaUL,
    0x3fef387a6e756238UL, 0x3fef1e9df51fdee1UL, 0x3fef06fe0a31b715UL,
    0x3feef1a7373aa9cbUL, 0x3feedea64c123422UL, 0x3feece086061892dUL,
    0x3feebfdad5362a27UL, 0x3feeb42b569d4f82UL, 0x3feeab07dd485429UL,
    0x3feea47eb03a5585UL, 0x3feea09e667f3bcdUL, 0x3fee9f75e8ec5f74UL,
    0x3feea11473eb0187UL, 0x3feea589994cce13UL, 0x3feeace5422aa0dbUL,
    0x3feeb737b0cdc5e5UL, 0x3feec49182a3f090UL, 0x3feed503b23e255dUL,
    0x3feee89f995ad3adUL, 0x3feeff76f2fb5e47UL, 0x3fef199bdd85529cUL,
    0x3fef3720dcef9069UL, 0x3fef5818dcfba487UL, 0x3fef7c97337b9b5fUL,
    0x3fefa4afa2a490daUL, 0x3fefd0765b6e4540UL};

OVERLOAD float pow(float x, float y) {
  const float Ax = fabs(x);
  const int Sub = as_int(Ax) < 0x00800000;
  // Subnormals scaled by 2^23, the exponent lowered by 23 again: the bits
  // of a float whose exponent field may be negative (signed arithmetic).
  const int Bits = Sub ? as_int(Ax * 0x1p23f) - (23 << 23) : as_int(Ax);
  const int Tmp = Bits - 0x3f330000;
  const int I = (Tmp >> 19) & 15;
  const int Top = Tmp & (int)0xff800000;
  const double Z = (double)as_float(Bits - Top);
  const double R = Z * PowInvC[I] - 1.0;
  double L = 0x1.27b21c90333a4p-2;
  L = L * R - 0x1.7199b1501a569p-2;
  L = L * R + 0x1.ec709a6dc117dp-2;
  L = L * R - 0x1.71547460a4917p-1;
  L = L * R + 0x1.71547652b82fep+0;
  const double Log2 = (PowLog2C[I] + (double)(Top >> 23)) + L * R;
  const double T = fmin(fmax((double)y * Log2, -200.0), 200.0);
  const double N = rint(T * 32.0);
  const long Ni = (long)N;
  const double Rt = T - N * 0x1p-5;
  const double Scale = as_double(PowExp2[Ni & 31] + ((ulong)Ni << 47));
  double P = 0x1.c6b1108a11935p-5;
  P = P * Rt + 0x1.ebfccc647d66ap-3;
  P = P * Rt + 0x1.62e42fefa39efp-1;
  float Result = (float)((P * Rt + 1.0) * Scale);
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
