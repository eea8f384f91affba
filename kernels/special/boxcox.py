"""Box-Cox transformations and the Huber losses: boxcox, boxcox1p, inv_boxcox,
inv_boxcox1p, huber, pseudo_huber.

Sources: SciPy's ``_boxcox.pxd`` (W. Weckesser; xsf ``boxcox.h``) and ``_convex_analysis.pxd``
(xsf ``convex_analysis.h``); the special values (NaN, inf, out-of-domain arguments, the
thresholds ``|lmbda| < 1e-19`` and the overflow branches) are SciPy's, and so are the
formulas of the Box-Cox functions (numba's ``math.log``/``log1p`` are C's: NaN below the
domain, no exception).

Deviations from SciPy, for accuracy only:

- pseudo_huber evaluates ``delta**2 (sqrt(1 + (r/delta)**2) - 1)`` as
  ``r**2 / (1 + hypot(1, r/delta))`` (or ``delta |r| w / (1 + hypot(1, w))``, w =
  ``|r|/delta`` >= 1), which neither cancels nor overflows: SciPy's
  ``delta**2 expm1(log1p((r/delta)**2) / 2)`` is NaN or 0 where ``(r/delta)**2`` over- or
  underflows (``pseudo_huber(1e-300, 1.0)`` is 1e-300, SciPy's NaN) and loses accuracy where
  ``delta**2`` is subnormal. Non-finite arguments keep SciPy's values.
"""
import math

from .common import INF, jit


@jit
def boxcox(x, lmbda):
    """(x**lmbda - 1) / lmbda, log(x) for lmbda = 0."""
    if abs(lmbda) < 1e-19:
        return math.log(x)
    lx = math.log(x)
    if lmbda * lx < 709.78:
        return math.expm1(lmbda * lx) / lmbda
    return math.copysign(1.0, lmbda) * math.exp(lmbda * lx - math.log(abs(lmbda))) - 1.0 / lmbda


@jit
def boxcox1p(x, lmbda):
    """((1 + x)**lmbda - 1) / lmbda, log1p(x) for lmbda = 0."""
    lgx = math.log1p(x)
    if abs(lmbda) < 1e-19 or (abs(lgx) < 1e-289 and abs(lmbda) < 1e273):
        return lgx
    if lmbda * lgx < 709.78:
        return math.expm1(lmbda * lgx) / lmbda
    return math.copysign(1.0, lmbda) * math.exp(lmbda * lgx - math.log(abs(lmbda))) - 1.0 / lmbda


@jit
def inv_boxcox(y, lmbda):
    """(1 + lmbda y)**(1/lmbda), exp(y) for lmbda = 0."""
    if lmbda == 0.0:
        return math.exp(y)
    if lmbda * y < 1.79e308:
        return math.exp(math.log1p(lmbda * y) / lmbda)
    return math.exp((math.log(math.copysign(1.0, lmbda) * (y + 1.0 / lmbda))
                     + math.log(abs(lmbda))) / lmbda)


@jit
def inv_boxcox1p(y, lmbda):
    """(1 + lmbda y)**(1/lmbda) - 1, expm1(y) for lmbda = 0."""
    if lmbda == 0.0:
        return math.expm1(y)
    if abs(lmbda * y) < 1e-154:
        return y
    if lmbda * y < 1.79e308:
        return math.expm1(math.log1p(lmbda * y) / lmbda)
    return math.expm1((math.log(math.copysign(1.0, lmbda) * (y + 1.0 / lmbda))
                       + math.log(abs(lmbda))) / lmbda)


@jit
def huber(delta, r):
    """r**2 / 2 for |r| <= delta, delta (|r| - delta / 2) beyond; inf for delta < 0."""
    if delta < 0.0:
        return INF
    if abs(r) <= delta:
        return 0.5 * r * r
    return delta * (abs(r) - 0.5 * delta)


@jit
def pseudo_huber(delta, r):
    """delta**2 (sqrt(1 + (r / delta)**2) - 1); inf for delta < 0."""
    if delta < 0.0:
        return INF
    if delta == 0.0 or r == 0.0:
        return 0.0
    if not (abs(delta) < INF and abs(r) < INF):
        # SciPy's formula, for its values at inf and NaN
        v = r / delta
        return delta * delta * math.expm1(0.5 * math.log1p(v * v))
    a = abs(r)
    w = a / delta
    if w < 1.0:
        return a * (a / (1.0 + math.hypot(1.0, w)))
    if w == INF:
        return delta * a
    return delta * (a * (w / (1.0 + math.hypot(1.0, w))))
