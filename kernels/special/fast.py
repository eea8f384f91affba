"""Vectorised float loops for the hottest special functions (erf, expit, xlogy, ndtri,
log_ndtr, gammaln, digamma, i0e) on contiguous float64/float32 arrays.

The scalar kernels are branchy and call libm's ``exp``/``log``, so LLVM cannot vectorise a
loop over them. These loops are written so that it can (AVX2/AVX-512 on the build machine):

- every branch of the scalar kernel is computed for every element and the answer chosen with
  ``a if c else b`` on plain values, which LLVM turns into vector selects; polynomial
  branches select their coefficients instead (``_fastpoly``);
- ``exp`` and ``log`` are our own: Cody-Waite reduction with a polynomial, 2**k built from
  its bits (``vexp``), and fdlibm's ``e_log.c`` scheme with the exponent taken from the bits
  (``vlog``), both with their special values (0, subnormals, inf, NaN, overflow) selected in;
- elements outside a function's fast region (where the scalar kernel's exact algorithm must
  be kept: poles, integers, cancellation near zeros, NaN/inf) are counted in the vector loop
  and recomputed afterwards by the scalar kernel itself.

Elsewhere the loops perform the scalar kernel's own operations (same Cephes polynomials in the
same order), so most results are bitwise those of the ufunc path; where ``vlog``/``vexp``
replace libm they stay within an ulp or two, and erf/log_ndtr square their argument exactly,
which is more accurate than Cephes. No fastmath flags: LLVM may not reassociate or contract,
so a result does not depend on whether an element went through the vector body or the scalar
remainder loop (and so not on how an array is split between threads).
"""
import math

import numpy as np

from .._vmath import _LN2_HI, _LN2_LO, _SQRT1_2, _f2i, _i2f, _log_core, vlog
from . import _fastpoly as P
from . import erf as _erf
from . import gamma as _g
from ._tables import ERFCX_Y100
from .common import INF, LS2PI, NAN, SQRT2PI, ijit, jit

_SHIFT = 6755399441055744.0          # 1.5 * 2**52: adding it rounds to an integer
_SHIFT_BITS = 0x4338000000000000      # its bit pattern
_LOG2E = 1.4426950408889634
_EXP_MAX = 709.782712893384           # exp overflows above
_EXP_MIN = -745.1332191019412         # exp underflows to 0 below


@ijit
def vexp(x):
    """exp(x) within 1 ulp, branch-free (subnormal results included)."""
    return _exp_core(x, 0.0)


@ijit
def _exp_core(x, xlo):
    # exp(x + xlo) for |xlo| <= ulp(x)
    xc = 710.0 if x > 710.0 else x
    xc = -746.0 if xc < -746.0 else xc
    t = xc * _LOG2E + _SHIFT
    kf = t - _SHIFT                   # round(x / log 2)
    r = ((xc - kf * _LN2_HI) - kf * _LN2_LO) + xlo
    p = P.exp_taylor(r)
    k = _f2i(t) - _SHIFT_BITS
    # 2**k must be a normal double: scale the extremes in two steps
    lo = k < -1020
    hi = k > 1023
    k2 = k + 60 if lo else (k - 1 if hi else k)
    s2 = 8.673617379884035e-19 if lo else (2.0 if hi else 1.0)
    res = p * _i2f((k2 + 1023) << 52) * s2
    res = INF if x > _EXP_MAX else res
    return 0.0 if x < _EXP_MIN else res   # NaN passes both tests and stays NaN


@ijit
def two_prod(a, b):
    # Dekker: a * b == p + e exactly (no FMA contraction is allowed, see above)
    p = a * b
    c = 134217729.0 * a
    ah = c - (c - a)
    al = a - ah
    c = 134217729.0 * b
    bh = c - (c - b)
    bl = b - bh
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


@ijit
def _exp_neg_dd(hi, lo):
    # exp(-(hi + lo)) for |lo| <= ulp(hi)
    return _exp_core(-hi, -lo)


# -- erf ---------------------------------------------------------------------------------
@ijit
def erf1(x):
    ax = abs(x)
    z = x * x
    small = x * P.erf_t(z) / P.erf_u(z)
    a = 6.0 if ax > 6.0 else ax          # erf(x) rounds to +-1 beyond; NaN stays NaN
    a = 1.0 if a < 1.0 else a
    hi, lo = two_prod(a, a)
    big = 1.0 - (_exp_neg_dd(hi, lo) * P.erfc_num(a, True)) / P.erfc_den(a, True)
    big = -big if x < 0.0 else big
    return small if ax < 1.0 else big


@jit
def erf_loop(x, out):
    for i in range(x.shape[0]):
        out[i] = erf1(np.float64(x[i]))
    return 0


# -- expit, xlogy --------------------------------------------------------------------------
@jit
def expit_loop(x, out):
    for i in range(x.shape[0]):
        out[i] = 1.0 / (1.0 + vexp(-np.float64(x[i])))
    return 0


@ijit
def xlogy1(x, y):
    r = x * vlog(y)
    return 0.0 if (x == 0.0) & (y == y) else r


@jit
def xlogy_loop(x, y, out):
    for i in range(x.shape[0]):
        out[i] = xlogy1(np.float64(x[i]), np.float64(y[i]))
    return 0


# -- ndtri (Cephes ndtri.c) -------------------------------------------------------------------
_NDTRI_C = 0.13533528323661269189     # exp(-2)
_NDTRI_FLIP = 1.0 - 0.13533528323661269189


@ijit
def ndtri1(y0):
    flip = y0 > _NDTRI_FLIP
    y = 1.0 - y0 if flip else y0
    yc = y0 - 0.5
    y2 = yc * yc
    central = (yc + yc * (y2 * P.ndtri_p0(y2) / P.ndtri_q0(y2))) * SQRT2PI
    x = math.sqrt(-2.0 * vlog(y))
    x0 = x - vlog(x) / x
    z = 1.0 / x
    near = x < 8.0
    x1 = z * P.ndtri_pt(z, near) / P.ndtri_qt(z, near)
    tail = x0 - x1
    tail = tail if flip else -tail
    res = central if y > _NDTRI_C else tail
    res = -INF if y0 == 0.0 else res
    res = INF if y0 == 1.0 else res
    return NAN if (y0 < 0.0) | (y0 > 1.0) | (y0 != y0) else res


@jit
def ndtri_loop(x, out):
    for i in range(x.shape[0]):
        out[i] = ndtri1(np.float64(x[i]))
    return 0


# -- i0e (Cephes i0.c) ---------------------------------------------------------------------
@ijit
def i0e1(x):
    ax = abs(x)
    small = ax <= 8.0
    t = ax / 2.0 - 2.0 if small else 32.0 / ax - 2.0
    c = P.i0e_cheb(t, small)
    return c if small else c / math.sqrt(ax)


@jit
def i0e_loop(x, out):
    for i in range(x.shape[0]):
        out[i] = i0e1(np.float64(x[i]))
    return 0


# -- log_ndtr ---------------------------------------------------------------------------------
@ijit
def _erfcx_table(x):
    # erfcx for 0 <= x < 50: erf._erfcx_pos's piecewise polynomials, unrolled (the
    # coefficient loads become gathers)
    # t = 2 y100 - (2i + 1) is computed from y100 = 400 / (4 + x) carried in two doubles:
    # y100's own rounding (up to 64 * 2**-53) would cost several ulp of erfcx
    a = 4.0 + x
    bb = a - x
    a_lo = (x - (a - bb)) + (4.0 - bb)    # two-sum: 4 + x == a + a_lo
    y100 = 400.0 / a
    p, p_lo = two_prod(y100, a)
    y_lo = (((400.0 - p) - p_lo) - y100 * a_lo) / a
    i = int(y100)
    i = 99 if i > 99 else i
    t = (2.0 * y100 - (2 * i + 1)) + 2.0 * y_lo
    r = ERFCX_Y100[i, 9]
    r = r * t + ERFCX_Y100[i, 8]
    r = r * t + ERFCX_Y100[i, 7]
    r = r * t + ERFCX_Y100[i, 6]
    r = r * t + ERFCX_Y100[i, 5]
    r = r * t + ERFCX_Y100[i, 4]
    r = r * t + ERFCX_Y100[i, 3]
    r = r * t + ERFCX_Y100[i, 2]
    r = r * t + ERFCX_Y100[i, 1]
    return r * t + ERFCX_Y100[i, 0]


# --------------------------------------------------------------------------------
@ijit
def log_ndtr_bad(x):
    # NaN, -inf and x < -37 (the scalar kernel's tail formula for erfcx)
    return not (x >= -37.0)


@ijit
def log_ndtr1(x):
    # xsf's split: log Phi(x) = log(erfcx(v) / 2) - v**2 with v = -x/sqrt(2) for x < -1, else
    # log1p(-erfc(t) / 2) with t = x/sqrt(2) and erfc(t) = 1 - erf(t) for t < 1/2, else
    # exp(-t**2) erfcx(t) (Cephes' erfc rational and 1 - erf(t) near t = 1 are several ulp
    # off). v**2 = t**2 = x**2 / 2 is carried exactly in two doubles.
    t = x * _SQRT1_2
    low = x < -1.0
    v = -t if low else t
    ax = abs(x)
    ax = 60.0 if ax > 60.0 else ax
    hi, lo = two_prod(ax, ax)
    hi *= 0.5
    lo *= 0.5
    vz = v * v
    e_small = 1.0 - v * P.erf_t(vz) / P.erf_u(vz)
    va = 0.0 if v < 0.0 else (49.0 if v > 49.0 else v)
    ex = _erfcx_table(va)
    u = -0.5 * (e_small if v < 0.5 else _exp_neg_dd(hi, lo) * ex)
    w = 1.0 + u
    # one log for both branches; the high one is log1p(u) (see vlog1p)
    arg = 0.5 * ex if low else w
    lg = _log_core(arg, 0.0 if low else (u - (w - 1.0)) / w)
    res_low = (lg - lo) - hi
    res_high = u if w == 1.0 else lg
    return res_low if low else res_high


@jit
def log_ndtr_loop(x, out):
    nbad = 0
    for i in range(x.shape[0]):
        xi = np.float64(x[i])
        bad = log_ndtr_bad(xi)
        out[i] = log_ndtr1(0.0 if bad else xi)
        nbad += bad
    if nbad:
        for i in range(x.shape[0]):
            xi = np.float64(x[i])
            if log_ndtr_bad(xi):
                out[i] = _erf.log_ndtr(xi)
    return nbad


# -- gammaln (Cephes lgam) -----------------------------------------------------------------
@ijit
def gammaln_bad(x):
    # near the zeros at 1 and 2 lgam cancels: keep Cephes' exact operations (and libm's log)
    return ((x >= 0.55) & (x < 2.0)) | (not ((x >= 1e-300) & (x <= 1e300)))


@ijit
def _lgam_step(x, z, n, j):
    m = x - j
    c = m >= 2.0
    return (z * m if c else z), (n + 1.0 if c else n)


@ijit
def gammaln1(x):
    # x >= 13: Stirling's series (p = 1/x**2 and /x as products with 1/x: they only touch
    # the correction term, below 1/2000 of the result)
    xl = 13.0 if x < 13.0 else x
    inv = 1.0 / xl
    # x < 13: Cephes' recurrence down (x >= 2) or up (x < 2) to [2, 3)
    xs = x if x < 13.0 else 2.5
    z = 1.0
    n = 0.0
    z, n = _lgam_step(xs, z, n, 1.0)
    z, n = _lgam_step(xs, z, n, 2.0)
    z, n = _lgam_step(xs, z, n, 3.0)
    z, n = _lgam_step(xs, z, n, 4.0)
    z, n = _lgam_step(xs, z, n, 5.0)
    z, n = _lgam_step(xs, z, n, 6.0)
    z, n = _lgam_step(xs, z, n, 7.0)
    z, n = _lgam_step(xs, z, n, 8.0)
    z, n = _lgam_step(xs, z, n, 9.0)
    z, n = _lgam_step(xs, z, n, 10.0)
    up = xs < 2.0          # only x < 0.55 here: two steps up
    z = (1.0 / xs) / (xs + 1.0) if up else z
    xr = xs if up else xs + (-n - 2.0)
    lg = vlog(z if x < 13.0 else xl)      # one log serves both branches
    small = lg + xr * P.lgam_b(xr) / P.lgam_c(xr)
    q = (xl - 0.5) * lg - xl + LS2PI
    big = q + P.lgam_stir(inv * inv, xl < 1000.0) * inv
    return small if x < 13.0 else big


@jit
def gammaln_loop(x, out):
    nbad = 0
    for i in range(x.shape[0]):
        xi = np.float64(x[i])
        bad = gammaln_bad(xi)
        out[i] = gammaln1(2.5 if bad else xi)
        nbad += bad
    if nbad:
        for i in range(x.shape[0]):
            xi = np.float64(x[i])
            if gammaln_bad(xi):
                out[i] = _g.gammaln(xi)
    return nbad


# -- digamma (Cephes psi with Boost's rational on [1, 2]) ------------------------------------
@ijit
def digamma_bad(x):
    # x <= 0 (reflection, poles, xsf's series at the negative root), inf/NaN, and the
    # integers up to 10 (exact harmonic sums)
    return (not ((x > 0.0) & (x < INF))) | ((x <= 10.0) & (x == np.floor(x)))


@ijit
def _psi_step(x, y):
    c = x > 2.0
    x = x - 1.0 if c else x
    return x, (y + 1.0 / x if c else y)


@ijit
def digamma1(x):
    # x >= 10: log(x) - 1/(2x) - z A(z), z = 1/x**2 (1/(2x) == 0.5 * (1/x) exactly)
    xl = 10.0 if x < 10.0 else x
    inv = 1.0 / xl
    z = inv * inv
    big = vlog(xl) - 0.5 * inv - z * P.psi_a(z)
    # x < 10: Cephes' recurrence to [1, 2] (y -= 1/x for x < 1, else y += 1/x while x > 2),
    # operation for operation; the x < 1 lanes take no step, so they share step 1's division
    xs = x if x < 10.0 else 1.5
    lt1 = xs < 1.0
    c = xs > 2.0
    xr = xs - 1.0 if c else xs
    d = 1.0 / (xs if lt1 else xr)
    y = -d if lt1 else (d if c else 0.0)
    xr = xs + 1.0 if lt1 else xr
    xr, y = _psi_step(xr, y)
    xr, y = _psi_step(xr, y)
    xr, y = _psi_step(xr, y)
    xr, y = _psi_step(xr, y)
    xr, y = _psi_step(xr, y)
    xr, y = _psi_step(xr, y)
    xr, y = _psi_step(xr, y)
    g = xr - _g.PSI_ROOT1
    g -= _g.PSI_ROOT2
    g -= _g.PSI_ROOT3
    r = P.psi_p(xr - 1.0) / P.psi_q(xr - 1.0)
    small = y + (g * _g.PSI_Y + g * r)
    return small if x < 10.0 else big


@jit
def digamma_loop(x, out):
    nbad = 0
    for i in range(x.shape[0]):
        xi = np.float64(x[i])
        bad = digamma_bad(xi)
        out[i] = digamma1(1.5 if bad else xi)
        nbad += bad
    if nbad:
        for i in range(x.shape[0]):
            xi = np.float64(x[i])
            if digamma_bad(xi):
                out[i] = _g.digamma(xi)
    return nbad


# name: (loop, number of inputs, loop may rewrite elements after reading them again)
LOOPS = {
    "erf": (erf_loop, 1, False),
    "expit": (expit_loop, 1, False),
    "xlogy": (xlogy_loop, 2, False),
    "ndtri": (ndtri_loop, 1, False),
    "i0e": (i0e_loop, 1, False),
    "log_ndtr": (log_ndtr_loop, 1, True),
    "gammaln": (gammaln_loop, 1, True),
    "digamma": (digamma_loop, 1, True),
}
