#!/usr/bin/env python3
"""The tables and polynomials of float pow (builtins/exp_log.cl).

log2 |x| = k + log2 c + log2(1 + r): the mantissa z of |x| in [0.699, 1.398)
(bits 0x3f330000 on) falls in one of 16 subintervals of 2^19 float bit
patterns; c is its center (1 for the subinterval that holds 1, so that
log2 1 is exactly 0), 1/c rounded to double and log2 c = -log2(1/c);
log2(1 + r) = r P(r), P of degree 4 interpolating log2(1 + r) / r at the
Chebyshev nodes of [-rmax, rmax].

2^t = 2^(n/32) 2^r', |r'| <= 1/64: 2^(i/32) as the bits of a double with
i << 47 subtracted (n << 47 adds n div 32 to the exponent and i back);
2^r' = 1 + r' Q(r'), Q of degree 2 at the Chebyshev nodes of [-1/64, 1/64].

Prints the tables, the coefficients and the largest relative errors of both
polynomials (checked on 4001 points). Python's decimal at 60 digits, no
other module.
"""
import math
import struct
from decimal import Decimal, getcontext

getcontext().prec = 60
LN2 = Decimal(2).ln()
OFFSET = 0x3F330000
LOG_ENTRIES = 16
EXP_ENTRIES = 32


def float_of_bits(bits):
    return struct.unpack('<f', struct.pack('<I', bits))[0]


def bits_of_double(value):
    return struct.unpack('<Q', struct.pack('<d', value))[0]


def log2(value):
    return Decimal(value).ln() / LN2


def solve(matrix, rhs):
    """Gauss-Jordan elimination with partial pivoting, in Decimal."""
    n = len(rhs)
    rows = [row[:] + [b] for row, b in zip(matrix, rhs)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(n):
            if r != col:
                factor = rows[r][col] / rows[col][col]
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col])]
    return [rows[i][n] / rows[i][i] for i in range(n)]


def chebyshev_fit(function, half_width, degree):
    """Coefficients c0..c_degree interpolating function at Chebyshev nodes."""
    n = degree + 1
    nodes = [Decimal(half_width) * Decimal(math.cos(math.pi * (2 * k + 1) / (2 * n)))
             for k in range(n)]
    return solve([[x ** j for j in range(n)] for x in nodes], [function(x) for x in nodes])


def worst_relative_error(coefficients, half_width, exact, constant):
    worst = 0.0
    for step in range(-2000, 2001):
        r = Decimal(half_width) * step / 2000
        if r == 0:
            continue
        value = sum(float(c) * float(r) ** j for j, c in enumerate(coefficients)) * float(r)
        want = exact(r)
        worst = max(worst, abs(float((Decimal(constant + value) - want) / want)))
    return worst


def main():
    inverse, log_c, r_max = [], [], 0.0
    for i in range(LOG_ENTRIES):
        low = float_of_bits(OFFSET + (i << 19))
        high = float_of_bits(OFFSET + ((i + 1) << 19) - 1)
        center = 1.0 if low <= 1.0 < high else (Decimal(low) + Decimal(high)) / 2
        inverse_c = float(1 / Decimal(center))
        inverse.append(inverse_c)
        log_c.append(float(-log2(inverse_c)))
        for z in (low, high):
            r_max = max(r_max, abs(float(Decimal(z) * Decimal(inverse_c) - 1)))
    half_width = r_max * 1.0001
    log_poly = chebyshev_fit(lambda r: (1 + r).ln() / LN2 / r, half_width, 4)
    exp_poly = chebyshev_fit(lambda r: ((r * LN2).exp() - 1) / r, 1 / 64 * 1.0001, 2)
    log_error = worst_relative_error(log_poly, half_width, lambda r: (1 + r).ln() / LN2, 0)
    exp_error = worst_relative_error(exp_poly, 1 / 64, lambda r: (r * LN2).exp(), 1)
    exp_table = [(bits_of_double(float((LN2 * i / EXP_ENTRIES).exp())) - (i << 47)) % 2**64
                 for i in range(EXP_ENTRIES)]

    print(f'// |r| <= {r_max:.6f}; log2(1 + r) relative error 2^{math.log2(log_error):.1f}, '
          f'2^r\' 2^{math.log2(exp_error):.1f}')
    print('// 1/c:', ', '.join(float.hex(v) for v in inverse))
    print('// log2 c:', ', '.join(float.hex(v) for v in log_c))
    print('// log2(1 + r) / r, r^0 to r^4:', ', '.join(float.hex(float(c)) for c in log_poly))
    print('// (2^r\' - 1) / r\', r\'^0 to r\'^2:', ', '.join(float.hex(float(c)) for c in exp_poly))
    print('// 2^(i/32) - (i << 47):', ', '.join(f'0x{v:016x}UL' for v in exp_table))


if __name__ == '__main__':
    main()
