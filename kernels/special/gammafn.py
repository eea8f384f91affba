"""Gamma function family: gamma, rgamma, loggamma (real), gammasgn, poch, beta, betaln.

Ported from the Cephes Math Library (S. L. Moshier) as translated to C++ in SciPy's xsf
library: ``xsf/cephes/gamma.h`` (Gamma, lgam_sgn, gammasgn), ``xsf/cephes/rgamma.h``,
``xsf/cephes/poch.h``, ``xsf/cephes/beta.h`` (beta, lbeta) and ``xsf/loggamma.h`` (the real
loggamma). Gamma and lgam themselves are :mod:`.common`'s ports.

Deviations from xsf, all where its C code casts a double beyond int range to ``int``
(undefined behaviour, INT_MIN on x86): the parity of a negative non-integer's floor is
computed exactly (``gammasgn(-3e9 - 0.5)`` is -1, not +1).
"""
import math

import numpy as np

from .common import INF, MAXGAM, MAXLOG, NAN, chbevl, gamma, jit, lgam

# Chebyshev coefficients of 1/(x Gamma(x)) - 1 on [0, 1] (Cephes rgamma.c)
RGAMMA_R = np.array([3.13173458231230000000E-17, -6.70718606477908000000E-16,
                     2.20039078172259550000E-15, 2.47691630348254132600E-13,
                     -6.60074100411295197440E-12, 5.13850186324226978840E-11,
                     1.08965386454418662084E-9, -3.33964630686836942556E-8,
                     2.68975996440595483619E-7, 2.96001177518801696639E-6,
                     -8.04814124978471142852E-5, 4.16609138709688864714E-4,
                     5.06579864028608725080E-3, -6.41925436109158228810E-2,
                     -4.98558728684003594785E-3, 1.27546015610523951063E-1])
BETA_ASYMP_FACTOR = 1e6
INT_MIN = -2147483648.0
INT_MAX = 2147483647.0


@jit
def _odd(f):
    # whether the integer-valued double f is odd (exact for any magnitude)
    h = 0.5 * f
    return h != np.floor(h)


@jit
def gammasgn(x):
    """Sign of the Gamma function (xsf/cephes/gamma.h gammasgn); NaN at the poles."""
    if x != x:
        return x
    if x > 0.0:
        return 1.0
    if x == 0.0:
        return math.copysign(1.0, x)
    if math.isinf(x):
        return NAN
    fx = np.floor(x)
    if x - fx == 0.0:
        return NAN
    # Gamma's sign on (-n, -n + 1) is (-1)^n
    return -1.0 if _odd(fx) else 1.0


@jit
def lgam_sgn(x):
    """(log|Gamma(x)|, sign of Gamma(x)) as Cephes lgam_sgn: the sign is 1 at the poles,
    at +-0, at +-inf and for NaN (where the value is lgam's)."""
    v = lgam(x)
    if not math.isfinite(x) or x == 0.0 or (x < 0.0 and x == np.floor(x)):
        return v, 1.0
    return v, gammasgn(x)


@jit
def rgamma(x):
    """Reciprocal Gamma function (xsf/cephes/rgamma.h)."""
    if x == 0.0:
        return x                      # keeps the sign of zero
    if x < 0.0 and x == np.floor(x):
        return 0.0                    # Gamma's poles (and -inf)
    if abs(x) > 4.0:
        return 1.0 / gamma(x)
    z = 1.0
    w = x
    while w > 1.0:                    # downward recurrence
        w -= 1.0
        z *= w
    while w < 0.0:                    # upward recurrence
        z /= w
        w += 1.0
    if w == 0.0:
        return 0.0
    if w == 1.0:
        return 1.0 / z
    return w * (1.0 + chbevl(4.0 * w - 2.0, RGAMMA_R)) / z


@jit
def loggamma(x):
    """Real log-Gamma (xsf/loggamma.h): NaN for x < 0, Cephes lgam otherwise."""
    if x < 0.0:
        return NAN
    return lgam(x)


@jit
def _is_nonpos_int(x):
    return x <= 0.0 and x == np.ceil(x) and abs(x) < 1e13


@jit
def poch(a, m):
    """Pochhammer symbol (a)_m = Gamma(a + m) / Gamma(a) (xsf/cephes/poch.h)."""
    r = 1.0
    # reduce |m| below 1 by the recurrences; r over/underflowing means the function does
    while m >= 1.0:
        if a + m == 1.0:
            break
        m -= 1.0
        r *= a + m
        if not math.isfinite(r) or r == 0.0:
            break
    while m <= -1.0:
        if a + m == 0.0:
            break
        r /= a + m
        m += 1.0
        if not math.isfinite(r) or r == 0.0:
            break
    if m == 0.0:
        return r
    if a > 1e4 and abs(m) <= 1.0:
        # avoid the loss of precision of exp(lgam(a + m) - lgam(a))
        return r * math.pow(a, m) * (
            1.0 + m * (m - 1.0) / (2.0 * a)
            + m * (m - 1.0) * (m - 2.0) * (3.0 * m - 1.0) / (24.0 * a * a)
            + m * m * (m - 1.0) * (m - 1.0) * (m - 2.0) * (m - 3.0) / (48.0 * a * a * a))
    if _is_nonpos_int(a + m) and not _is_nonpos_int(a) and a + m != m:
        return INF
    if not _is_nonpos_int(a + m) and _is_nonpos_int(a):
        return 0.0
    return r * math.exp(lgam(a + m) - lgam(a)) * gammasgn(a + m) * gammasgn(a)


@jit
def _int_valued(x):
    # C's ``x == (int)x``: true for the integers in int range only (a cast out of range, or
    # of NaN, gives INT_MIN on x86)
    return INT_MIN <= x <= INT_MAX and x == np.floor(x)


@jit
def _lbeta_asymp(a, b):
    # ln|B(a, b)| for a > ASYMP_FACTOR max(|b|, 1), and B's sign (xsf lbeta_asymp)
    r, sgn = lgam_sgn(b)
    r -= b * math.log(a)
    r += b * (1.0 - b) / (2.0 * a)
    r += b * (1.0 - b) * (1.0 - 2.0 * b) / (12.0 * a * a)
    r += -b * b * (1.0 - b) * (1.0 - b) / (12.0 * a * a * a)
    return r, sgn


@jit
def _negint_reduce(a, b):
    """Cephes beta's special case of a nonpositive integer argument ``a``: B(a, b) for an
    integer b with 1 - a - b > 0 is (-1)^b B(1 - a - b, b), otherwise +inf. Returns
    (done, a', b', sign) where done means the value is +inf."""
    if not _int_valued(a):
        return True, a, b, 1.0        # integer-valued but beyond int: xsf's overflow
    if _int_valued(b) and 1.0 - a - b > 0.0:
        return False, 1.0 - a - b, b, (-1.0 if _odd(b) else 1.0)
    return True, a, b, 1.0


@jit
def _beta_reduce(a, b):
    # xsf beta/lbeta's recursion through beta_negint, as a loop (it ends within two steps:
    # the new first argument is positive). Returns (inf, a, b, sign).
    sign = 1.0
    for _ in range(4):
        if a <= 0.0 and a == np.floor(a):
            done, a, b, s = _negint_reduce(a, b)
        elif b <= 0.0 and b == np.floor(b):
            done, b, a, s = _negint_reduce(b, a)
            a, b = b, a
        else:
            return False, a, b, sign
        sign *= s
        if done:
            return True, a, b, sign
    return False, a, b, sign


@jit
def _gamma_ratio(a, b, y):
    # Gamma(a) Gamma(b) / Gamma(a + b) for moderate arguments, y = rgamma(a + b); the
    # product ordered to keep the intermediate near 1 (xsf beta)
    ga = gamma(a)
    gb = gamma(b)
    if abs(abs(ga * y) - 1.0) > abs(abs(gb * y) - 1.0):
        y = gb * y
        y *= ga
    else:
        y = ga * y
        y *= gb
    return y


@jit
def beta(a, b):
    """Beta function (xsf/cephes/beta.h beta)."""
    over, a, b, sign = _beta_reduce(a, b)
    if over:
        return sign * INF
    if abs(a) < abs(b):
        a, b = b, a
    if abs(a) > BETA_ASYMP_FACTOR * abs(b) and a > BETA_ASYMP_FACTOR:
        # avoid the loss of precision of lgam(a + b) - lgam(a)
        y, s = _lbeta_asymp(a, b)
        return sign * s * math.exp(y)
    y = a + b
    if abs(y) > MAXGAM or abs(a) > MAXGAM or abs(b) > MAXGAM:
        ly, s1 = lgam_sgn(y)
        lb, s2 = lgam_sgn(b)
        la, s3 = lgam_sgn(a)
        ly = la + (lb - ly)
        s = s1 * s2 * s3
        if ly > MAXLOG:
            return sign * s * INF
        return sign * s * math.exp(ly)
    y = rgamma(y)
    if math.isinf(y):
        return sign * INF
    return sign * _gamma_ratio(a, b, y)


@jit
def betaln(a, b):
    """log|B(a, b)| (xsf/cephes/beta.h lbeta)."""
    over, a, b, sign = _beta_reduce(a, b)
    if over:
        return INF
    if abs(a) < abs(b):
        a, b = b, a
    if abs(a) > BETA_ASYMP_FACTOR * abs(b) and a > BETA_ASYMP_FACTOR:
        return _lbeta_asymp(a, b)[0]
    y = a + b
    if abs(y) > MAXGAM or abs(a) > MAXGAM or abs(b) > MAXGAM:
        ly = lgam(y)
        return lgam(a) + (lgam(b) - ly)
    y = rgamma(y)
    if math.isinf(y):
        return INF
    return math.log(abs(_gamma_ratio(a, b, y)))
