"""Dawson's integral and the imaginary error function: dawsn, erfi, and dawsn's derivative.

SciPy evaluates both through S. G. Johnson's Faddeeva package (``dawsn(x) = sqrt(pi)/2
w_im(x)``, ``erfi(x) = exp(x**2) w_im(x)``), where ``w_im`` is a piecewise Chebyshev fit in
``100 / (1 + x)`` plus a Taylor series near 0 and a continued fraction at large x. The same
scheme here, with our own tables (``_pieces_tables.py``, see ``_precompute_pieces.py``):

- ``|x| < 1/2``: the Taylor series ``D(x) = x sum_k (-2 x**2)**k / (2k+1)!!`` (and for erfi
  ``erfi(x) = 2/sqrt(pi) x sum_k x**(2k) / (k! (2k+1))``, all terms positive);
- ``1/2 <= |x| < 64``: piecewise polynomials on 16 pieces per binade, in a variable ``t``
  that is exact in floating point (no error from a rounded ``1 / (1 + x)``);
- ``|x| >= 64``: the asymptotic series ``D(x) = 1/(2x) sum_k (2k-1)!! / (2 x**2)**k``,
  truncated below 1e-19.

erfi multiplies by ``exp(x**2)`` evaluated from the exact square (``two_prod``), since
``exp(fl(x**2))`` has a relative error of up to ``x**2`` ulp; near the overflow threshold
the exponential is scaled by ``2**-64`` so that erfi stays finite up to ``x = 26.71``
(Faddeeva returns inf from ``x**2 > 720``, i.e. beyond ``x = 26.64`` as its exp overflows).

``dawsn_d(x) = D'(x) = 1 - 2 x D(x)`` is tabulated separately: computed from D it cancels
(``2 x D(x) -> 1`` as x grows, leaving ``-1/(2 x**2)``).
"""
import math

import numpy as np

from ._pieces_tables import DAWSN_D_PIECES, DAWSN_PIECES
from .common import INF, NAN, exp_dd, jit, two_prod
from .pieces import horner, piece

M_2_SQRTPI = 1.12837916709551257390      # 2 / sqrt(pi)
LN2_HI = 0.6931471805598903              # ln 2 to 44 bits: x**2 - 64 LN2_HI is exact
LN2_LO = 5.497923018708371e-14           # ln 2 - LN2_HI

# D(x) / x = sum_k (-2)**k / (2k+1)!! x**(2k), and D'(x) = sum_k (-2)**k / (2k-1)!! x**(2k)
_N_TAYLOR = 16
DAWSN_TAYLOR = np.empty(_N_TAYLOR)
DAWSN_D_TAYLOR = np.empty(_N_TAYLOR)
# erfi(x) / (2/sqrt(pi) x) = sum_k x**(2k) / (k! (2k+1))
ERFI_TAYLOR = np.empty(_N_TAYLOR)


def _fill():
    import fractions
    d = fractions.Fraction(1)        # (2k+1)!! / (-2)**k, reciprocal
    dd = fractions.Fraction(1)       # (2k-1)!! / (-2)**k, reciprocal
    fact = 1
    for k in range(_N_TAYLOR):
        if k:
            d = d * (2 * k + 1) / -2
            dd = dd * (2 * k - 1) / -2
            fact *= k
        DAWSN_TAYLOR[k] = float(1 / d)
        DAWSN_D_TAYLOR[k] = float(1 / dd)
        ERFI_TAYLOR[k] = float(fractions.Fraction(1, fact * (2 * k + 1)))


_fill()


# (2k-1)!! for k = 0..8
_ODD_FACT = np.array([1.0, 1.0, 3.0, 15.0, 105.0, 945.0, 10395.0, 135135.0, 2027025.0])


@jit
def _dawson_pos(x, deriv):
    # D(x) (deriv False) or D'(x) (deriv True) for x >= 0, not NaN
    if x < 0.5:
        x2 = x * x
        if deriv:
            return horner(DAWSN_D_TAYLOR, x2)
        return x * horner(DAWSN_TAYLOR, x2)
    if x < 64.0:
        return piece(DAWSN_D_PIECES if deriv else DAWSN_PIECES, x)
    # asymptotic: D = 1/(2x) sum_k (2k-1)!! s**k, D' = -s sum_k (2k+1)!! s**k, s = 1/(2x**2)
    r = 1.0 / x
    s = 0.5 * r * r
    if deriv:
        p = 2027025.0                 # 15!!
        for k in range(6, -1, -1):
            p = p * s + _ODD_FACT[k + 1]
        return -s * p
    p = 135135.0                      # 13!!
    for k in range(6, -1, -1):
        p = p * s + _ODD_FACT[k]
    return (0.5 / x) * p


@jit
def dawsn(x):
    """Dawson's integral D(x) = exp(-x**2) int_0^x exp(t**2) dt."""
    if x != x:
        return NAN
    if x < 0.0:
        return -_dawson_pos(-x, False)
    return _dawson_pos(x, False)


@jit
def dawsn_d(x):
    """D'(x) = 1 - 2 x D(x), without cancellation."""
    if x != x:
        return NAN
    return _dawson_pos(abs(x), True)


@jit
def erfi(x):
    """Imaginary error function erfi(x) = -i erf(i x) = 2/sqrt(pi) exp(x**2) D(x)."""
    if x != x:
        return NAN
    a = abs(x)
    if a < 0.5:
        return M_2_SQRTPI * (x * horner(ERFI_TAYLOR, x * x))
    if a > 26.75:                     # erfi(26.72) overflows
        return INF if x > 0.0 else -INF
    hi, lo = two_prod(a, a)
    d = M_2_SQRTPI * _dawson_pos(a, False)
    if hi < 709.0:
        r = exp_dd(hi, lo) * d
    else:
        # exp(x**2) 2**-64, then the power of two: finite results up to x = 26.71
        r = math.ldexp(exp_dd(hi - 64.0 * LN2_HI, lo - 64.0 * LN2_LO) * d, 64)
    return r if x > 0.0 else -r
