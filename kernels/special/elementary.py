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

from .common import INF, NAN, jit, sinpi, two_prod, two_sum

LN2 = 0.693147180559945309417232121458176568


@jit
def expit(x):
    return 1.0 / (1.0 + math.exp(-x))


@jit
def cexpit(z):
    return 1.0 / (1.0 + cmath.exp(-z))


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
    return sinpi(x) / (math.pi * x)


@jit
def csinc(z):
    if z == 0:
        return complex(1.0, 0.0)
    w = math.pi * z
    return cmath.sin(w) / w


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
    r = 2.0 ** z.real
    t = z.imag * LN2
    if z.imag == 0:
        return complex(r, z.imag)
    return complex(r * math.cos(t), r * math.sin(t))


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
    y = math.floor(x)
    r = x - y
    if r > 0.5:
        y += 1.0
    elif r == 0.5:
        if y - 2.0 * math.floor(0.5 * y) == 1.0:
            y += 1.0
    return y
