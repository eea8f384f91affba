"""Exponential and logarithmic functions: log_expit, exp10, erfcinv, rel_entr, kl_div.

Sources: xsf ``log_exp.h`` (log_expit), Cephes ``exp10.c`` (``xsf/cephes/exp10.h``),
Boost.Math ``erf_inv.hpp`` erfc_inv (J. Maddock; :mod:`.erf`'s ``_erf_inv_imp``, the
rational approximations SciPy's erfinv uses), xsf ``convex_analysis.h`` (rel_entr, kl_div).

Deviations from xsf, for accuracy only (the special values are SciPy's):

- exp10 returns the subnormal 10**x for -323.6 < x < -308.25 where Cephes returns 0;
- erfcinv evaluates Boost's erfc_inv, which keeps full relative accuracy for subnormal y
  (SciPy's ``-ndtri(y / 2) / sqrt(2)`` halves y first, losing the last bit, and gives inf
  for the smallest subnormal);
- rel_entr and kl_div take log(x/y) as log1p((x - y) / y) for y/2 <= x <= 2y, with the
  quotient's rounding error carried as a correction term, and kl_div's
  ``x log(x/y) - x + y`` as ``y g((x - y) / y)`` with g(d) = (1 + d) log1p(d) - d summed
  without cancellation (SciPy's formula loses all digits as x -> y); where x / y over- or
  underflows, log(x) - log(y) (SciPy returns -inf or inf there). rel_entr is xsf's, which
  already takes log1p((x - y) / y) there, plus the correction term.
"""
import math

import numpy as np

from .common import INF, NAN, jit, p1evl, polevl, two_prod
from .erf import _erf_inv_imp


@jit
def log_expit(x):
    """log(expit(x)) (xsf log_exp.h)."""
    if x < 0.0:
        return x - math.log1p(math.exp(x))
    return -math.log1p(math.exp(-x))


EXP10_P = np.array([4.09962519798587023075E-2, 1.17452732554344059015E1,
                    4.06717289936872725516E2, 2.39423741207388267439E3])
EXP10_Q = np.array([8.50936160849306532625E1, 1.27209271178345121210E3,
                    2.07960819286001865907E3])
LOG210 = 3.32192809488736234787e0
LG102A = 3.01025390625000000000E-1
LG102B = 4.60503898119521373889E-6
MAXL10 = 308.2547155599167
MINL10 = -323.6072453387798      # log10 of half the smallest subnormal


@jit
def exp10(x):
    """10**x (Cephes exp10)."""
    if x != x:
        return x
    if x > MAXL10:
        return INF
    if x < MINL10:
        return 0.0
    # 10**x = 10**g 2**n with |g| <= log10(2) / 2
    px = np.floor(LOG210 * x + 0.5)
    n = int(px)
    x -= px * LG102A
    x -= px * LG102B
    # 10**g = 1 + 2g P(g**2) / (Q(g**2) - P(g**2))
    xx = x * x
    px = x * polevl(xx, EXP10_P)
    x = px / (p1evl(xx, EXP10_Q) - px)
    x = 1.0 + 2.0 * x
    if n < -1021:
        # two steps, so that only the last one (into the subnormals) rounds
        return math.ldexp(math.ldexp(x, -1021), n + 1021)
    return math.ldexp(x, n)


@jit
def erfcinv(y):
    """Inverse complementary error function (Boost erfc_inv); SciPy's special values."""
    if y != y or y < 0.0 or y > 2.0:
        return NAN
    if y == 0.0:
        return INF
    if y == 2.0:
        return -INF
    if y == 1.0:
        return -0.0                   # SciPy's -ndtri(0.5) / sqrt(2)
    if y > 1.0:
        q = 2.0 - y                   # exact, as is 1 - q
        return -_erf_inv_imp(1.0 - q, q)
    return _erf_inv_imp(1.0 - y, y)


@jit
def _ratio_m1(x, y):
    # d = (x - y) / y as hi + lo, for y/2 <= x <= 2y (x - y is exact by Sterbenz' lemma)
    t = x - y
    d = t / y
    p, e = two_prod(d, y)
    return d, ((t - p) - e) / y


@jit
def rel_entr(x, y):
    """x log(x / y), 0 at x = 0 <= y, inf elsewhere outside x, y > 0 (xsf rel_entr)."""
    if x != x or y != y:
        return NAN
    if x > 0.0 and y > 0.0:
        if 0.5 * y <= x <= 2.0 * y:
            d, lo = _ratio_m1(x, y)
            return x * (math.log1p(d) + lo / (1.0 + d))
        q = x / y
        if q > 2.2250738585072014e-308 and q < INF:
            return x * math.log(q)
        return x * (math.log(x) - math.log(y))
    if x == 0.0 and y >= 0.0:
        return 0.0
    return INF


@jit
def _g(d):
    # (1 + d) log1p(d) - d for -1/2 <= d <= 1, without cancellation: with u = d / (2 + d),
    # log1p(d) = 2 atanh(u) = 2 (u + u^3/3 + u^5/5 + ...), and (1 + d) 2u - d = d^2 / (2 + d),
    # so g = d^2 / (2 + d) + 2 (1 + d) u^3 (1/3 + u^2/5 + ...); |u| <= 1/3 and 18 terms
    # bring the series below 1e-18 relative
    u = d / (2.0 + d)
    w = u * u
    s = 1.0 / 37.0
    for k in range(17, 0, -1):
        s = s * w + 1.0 / (2 * k + 1)
    return d * d / (2.0 + d) + 2.0 * (1.0 + d) * (u * w) * s


@jit
def kl_div(x, y):
    """x log(x / y) - x + y, y at x = 0 <= y, inf elsewhere outside x, y > 0 (xsf kl_div)."""
    if x != x or y != y:
        return NAN
    if x > 0.0 and y > 0.0:
        if 0.5 * y <= x <= 2.0 * y:
            d, lo = _ratio_m1(x, y)
            # g'(d) = log1p(d) carries the rounding error of d
            return y * (_g(d) + math.log1p(d) * lo)
        q = x / y
        if q > 2.2250738585072014e-308 and q < INF:
            return x * math.log(q) - x + y
        return x * (math.log(x) - math.log(y)) - x + y
    if x == 0.0 and y >= 0.0:
        return y
    return INF
