#!/usr/bin/env python3
"""The constants and polynomials of float pow (builtins/exp_log.cl).

log: the mantissa z of |x| in [sqrt(2)/2, sqrt(2)) is brought into
[2^-1/4, 2^1/4) by c = 2^1/4 below 2^-1/4, c = 2^-1/4 from 2^1/4 on (both
rounded to float) and c = 1 between; ln(1/c) of the rounded c as a sum of
two floats; f = z c - 1 and ln(1 + f) = f - f^2/2 + f^3 Q(f), Q of degree 6
interpolating at the Chebyshev nodes of f's interval. 1/ln 2 as two floats.

exp: 2^r = 1 + r E(r) for |r| <= 1/2 (a little more: r carries the low part
of t), E of degree 5 at the Chebyshev nodes.

Prints the constants and coefficients (float, C99 hex) and the largest
relative errors of both polynomials with their coefficients rounded to
float (checked on 4001 points). Python's decimal at 60 digits, no other
module.
"""
import math
import struct
from decimal import Decimal, getcontext

getcontext().prec = 60
LN2 = Decimal(2).ln()


def to_float(value):
    return struct.unpack('<f', struct.pack('<f', float(value)))[0]


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


def chebyshev_fit(function, low, high, degree):
    """Coefficients c0..c_degree interpolating function at Chebyshev nodes."""
    n = degree + 1
    low, high = Decimal(low), Decimal(high)
    nodes = [(low + high) / 2 + (high - low) / 2 *
             Decimal(math.cos(math.pi * (2 * k + 1) / (2 * n))) for k in range(n)]
    coefficients = solve([[x ** j for j in range(n)] for x in nodes],
                         [function(x) for x in nodes])
    return [to_float(c) for c in coefficients]


def worst_relative_error(value, exact, low, high, steps=4000):
    worst = Decimal(0)
    for step in range(steps + 1):
        x = Decimal(low) + (Decimal(high) - Decimal(low)) * step / steps
        if x != 0:
            worst = max(worst, abs(value(x) / exact(x) - 1))
    return float(worst)


def horner(coefficients, x):
    return sum(Decimal(c) * x ** j for j, c in enumerate(coefficients))


def two_floats(value):
    high = to_float(value)
    return high, to_float(value - Decimal(high))


def main():
    root = Decimal(2).sqrt().sqrt()
    c_low, c_high = to_float(root), to_float(1 / root)
    f_low = min(math.sqrt(2) / 2 * c_low, c_high) - 1
    f_high = max(math.sqrt(2) * c_high, c_low) - 1

    def q_exact(f):
        return ((1 + f).ln() - f + f * f / 2) / f ** 3

    q = chebyshev_fit(q_exact, f_low * 1.001, f_high * 1.001, 6)
    q_error = worst_relative_error(lambda f: horner(q, f), q_exact, f_low, f_high)

    def exp_exact(r):
        return (r * LN2).exp()

    e = chebyshev_fit(lambda r: ((r * LN2).exp() - 1) / r, -0.502, 0.502, 5)
    e_error = worst_relative_error(lambda r: 1 + r * horner(e, r), exp_exact, -0.502, 0.502)

    def hex_list(values):
        return ', '.join(float.hex(v) for v in values)

    print(f'// f in [{f_low:.6f}, {f_high:.6f}]; Q relative error 2^{math.log2(q_error):.1f}, '
          f'1 + r E(r) 2^{math.log2(e_error):.1f}')
    print('// c below 2^-1/4, c from 2^1/4 on:', hex_list([c_low, c_high]))
    print('// ln(1/c) of each, high and low:',
          hex_list(two_floats(-Decimal(c_low).ln()) + two_floats(-Decimal(c_high).ln())))
    print('// 1/ln 2, high and low:', hex_list(two_floats(1 / LN2)))
    print('// Q, f^0 to f^6:', hex_list(q))
    print('// E, r^0 to r^5:', hex_list(e))


if __name__ == '__main__':
    main()
