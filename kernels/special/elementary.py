"""Elementary special functions: expit, logit, sinc, entr, xlogy, xlog1py, exp2, expm1,
log1p, round, with complex versions where SciPy or torch accept complex input.

expit, logit, entr, xlogy and xlog1py follow xsf (``log_exp.h``, ``convex_analysis.h``,
``xlogy.h``); round is Cephes ``round.c`` (half to even). The complex expm1 uses
expm1(x) cos(y) + cosm1(y) as xsf does; the complex log1p computes log|1+z| as
log1p(2x + x^2 + y^2) / 2 with the argument summed in double-double, so it keeps relative
accuracy where |1+z| ~ 1.
"""
import cmath
import math

import numpy as np

from .common import INF, NAN, cospi, jit, sinpi, two_prod, two_sum

LN2 = 0.6931471805599453
LN2_LO = 2.3190468138462996e-17
PI_LO = 1.2246467991473532e-16


@jit
def expit(x):
    return 1.0 / (1.0 + math.exp(-x))


@jit
def _one_plus_exp(a, b):
    # 1 + e^(a + ib) for a <= 0, without cancellation near the zeros at b = pi (mod 2 pi):
    # 1 + e^a cos b = -expm1(a) + 2 e^a cos^2(b/2)
    e = math.exp(a)
    c = math.cos(0.5 * b)
    return complex(-math.expm1(a) + 2.0 * e * c * c, e * math.sin(b))


@jit
def cexpit(z):
    x = z.real
    y = z.imag
    if not (math.isfinite(x) and math.isfinite(y)):
        return 1.0 / (1.0 + cmath.exp(-z))
    if x >= 0:
        return 1.0 / _one_plus_exp(-x, -y)
    e = math.exp(x)
    return complex(e * math.cos(y), e * math.sin(y)) / _one_plus_exp(x, y)


@jit
def logit(x):
    if x < 0.3 or x > 0.65:
        return math.log(x / (1.0 - x))
    s = 2.0 * (x - 0.5)
    return math.log1p(s) - math.log1p(-s)


@jit
def sinc(x):
    """Normalized sinc sin(pi x)/(pi x) with exact argument reduction."""
    if x == 0.0:
        return 1.0
    if math.isinf(x):
        return NAN
    return sinpi(x) / (math.pi * x) + 0.0  # + 0.0: +0 (not -0) at the integers


@jit
def csinc(z):
    # sin(pi z) = sin(pi x) cosh(pi y) + i cos(pi x) sinh(pi y): exact reduction of x, and
    # pi*y carried in double-double so cosh/sinh keep their relative accuracy
    if z == 0:
        return complex(1.0, 0.0)
    x = z.real
    y = z.imag
    ph, pl = two_prod(math.pi, y)
    pl += PI_LO * y
    ch = math.cosh(ph)
    sh = math.sinh(ph)
    c = ch + pl * sh
    s = sh + pl * ch
    return complex(sinpi(x) * c, cospi(x) * s) / z / math.pi


@jit
def entr(x):
    if x != x:
        return x
    if x > 0:
        return -x * math.log(x)
    if x == 0:
        return 0.0
    return -INF


@jit
def xlogy(x, y):
    if x == 0 and y == y:
        return 0.0
    return x * math.log(y)


@jit
def cxlogy(x, y):
    if x == 0 and y == y:
        return complex(0.0, 0.0)
    return x * cmath.log(y)


@jit
def xlog1py(x, y):
    if x == 0 and y == y:
        return 0.0
    return x * math.log1p(y)


@jit
def exp2(x):
    return 2.0 ** x


@jit
def cexp2(z):
    # 2^x (cos t + i sin t), t = y log 2 carried in double-double
    r = 2.0 ** z.real
    y = z.imag
    if y == 0:
        return complex(r, y)
    th, tl = two_prod(y, LN2)
    tl += y * LN2_LO
    c = math.cos(th)
    s = math.sin(th)
    return complex(r * (c - tl * s), r * (s + tl * c))


@jit
def expm1(x):
    return math.expm1(x)


@jit
def cexpm1(z):
    x = z.real
    y = z.imag
    if not (math.isfinite(x) and math.isfinite(y)):
        return cmath.exp(z) - 1.0
    if x > -40.0:
        s = math.sin(0.5 * y)
        re = math.expm1(x) * math.cos(y) - 2.0 * s * s
    else:
        re = -1.0
    return complex(re, math.exp(x) * math.sin(y))


@jit
def log1p(x):
    return math.log1p(x)


@jit
def clog1p(z):
    x = z.real
    y = z.imag
    if not (math.isfinite(x) and math.isfinite(y)):
        return cmath.log(z + 1.0)
    if y == 0.0 and x >= -1.0:
        return complex(math.log1p(x), y)
    # |1+z|^2 - 1 = 2x + x^2 + y^2, summed exactly enough to survive cancellation
    p1, e1 = two_prod(x, x)
    p2, e2 = two_prod(y, y)
    s, e = two_sum(2.0 * x, p1)
    s, e3 = two_sum(s, p2)
    t = s + (e + e3 + e1 + e2)
    if -0.5 < t < 1.0:
        re = 0.5 * math.log1p(t)
    else:
        re = math.log(math.hypot(1.0 + x, y))
    return complex(re, math.atan2(y, 1.0 + x))


@jit
def round_half_even(x):
    """Round half to even (Cephes round)."""
    if not math.isfinite(x):
        return x
    y = np.floor(x)
    r = x - y
    if r > 0.5:
        y += 1.0
    elif r == 0.5:
        if y - 2.0 * np.floor(0.5 * y) == 1.0:
            y += 1.0
    return y
