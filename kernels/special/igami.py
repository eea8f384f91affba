"""Inverses of the regularized incomplete gamma functions: gammaincinv, gammainccinv.

A port of xsf's ``cephes/igami.h`` (SciPy's ``gammaincinv``/``gammainccinv``): the initial
approximations of A. R. DiDonato and A. H. Morris, "Computation of the incomplete gamma
function ratios and their inverse", ACM TOMS 12 (1986) (as in Boost's ``gamma_p_inv``,
J. Maddock), refined by three Halley steps on :func:`.igam.gammainc` / ``gammaincc``. As in
xsf, arguments out of the domain only set an error there and the computation goes on (which
gives NaN or what the formulas give: ``gammaincinv(1e-300, -0.1)`` is 0).
"""
import math

import numpy as np

from .common import EULER, INF, NAN, gamma, jit, lgam, polevl
from .igam import gammainc, gammaincc, igam_fac

INV_S_A = np.array([0.213623493715853, 4.28342155967104, 11.6616720288968, 3.31125922108741])
INV_S_B = np.array([0.3611708101884203e-1, 1.27364489782223, 6.40691597760039,
                    6.61053765625462, 1.0])


@jit
def _find_inverse_s(p, q):
    # DiDonato & Morris eq. 32
    if p < 0.5:
        t = math.sqrt(-2.0 * math.log(p))
    else:
        t = math.sqrt(-2.0 * math.log(q))
    s = t - polevl(t, INV_S_A) / polevl(t, INV_S_B)
    if p < 0.5:
        s = -s
    return s


@jit
def _didonato_sn(a, x, n, tolerance):
    # DiDonato & Morris eq. 34
    total = 1.0
    if n >= 1:
        partial = x / (a + 1.0)
        total += partial
        for i in range(2, n + 1):
            partial *= x / (a + i)
            total += partial
            if partial < tolerance:
                break
    return total


@jit
def _eq25(a, y):
    # DiDonato & Morris eq. 25
    c1 = (a - 1.0) * math.log(y)
    c1_2 = c1 * c1
    c1_3 = c1_2 * c1
    c1_4 = c1_2 * c1_2
    a_2 = a * a
    a_3 = a_2 * a
    c2 = (a - 1.0) * (1.0 + c1)
    c3 = (a - 1.0) * (-(c1_2 / 2.0) + (a - 2.0) * c1 + (3.0 * a - 5.0) / 2.0)
    c4 = (a - 1.0) * ((c1_3 / 3.0) - (3.0 * a - 5.0) * c1_2 / 2.0
                      + (a_2 - 6.0 * a + 7.0) * c1 + (11.0 * a_2 - 46.0 * a + 47.0) / 6.0)
    c5 = (a - 1.0) * (-(c1_4 / 4.0) + (11.0 * a - 17.0) * c1_3 / 6.0
                      + (-3.0 * a_2 + 13.0 * a - 13.0) * c1_2
                      + (2.0 * a_3 - 25.0 * a_2 + 72.0 * a - 61.0) * c1 / 2.0
                      + (25.0 * a_3 - 195.0 * a_2 + 477.0 * a - 379.0) / 12.0)
    y_2 = y * y
    y_3 = y_2 * y
    y_4 = y_2 * y_2
    return y + c1 + (c2 / y) + (c3 / y_2) + (c4 / y_3) + (c5 / y_4)


@jit
def _find_inverse_gamma(a, p, q):
    if a == 1.0:
        if q > 0.9:
            return -math.log1p(-p)
        return -math.log(q)
    if a < 1.0:
        g = gamma(a)
        b = q * g
        if b > 0.6 or (b >= 0.45 and a >= 0.3):
            # eq. 21
            if b * q > 1e-8 and q > 1e-5:
                u = math.pow(p * g * a, 1.0 / a)
            else:
                u = math.exp((-q / a) - EULER)
            return u / (1.0 - (u / (a + 1.0)))
        if a < 0.3 and b >= 0.35:
            # eq. 22
            t = math.exp(-EULER - b)
            u = t * math.exp(t)
            return t * math.exp(u)
        if b > 0.15 or a >= 0.3:
            # eq. 23
            y = -math.log(b)
            u = y - (1.0 - a) * math.log(y)
            return y - (1.0 - a) * math.log(u) - math.log(1.0 + (1.0 - a) / (1.0 + u))
        if b > 0.1:
            # eq. 24
            y = -math.log(b)
            u = y - (1.0 - a) * math.log(y)
            return y - (1.0 - a) * math.log(u) - math.log(
                (u * u + 2.0 * (3.0 - a) * u + (2.0 - a) * (3.0 - a))
                / (u * u + (5.0 - a) * u + 2.0))
        return _eq25(a, -math.log(b))
    # eq. 31
    s = _find_inverse_s(p, q)
    s_2 = s * s
    s_3 = s_2 * s
    s_4 = s_2 * s_2
    s_5 = s_4 * s
    ra = math.sqrt(a)
    w = a + s * ra + (s_2 - 1.0) / 3.0
    w += (s_3 - 7.0 * s) / (36.0 * ra)
    w -= (3.0 * s_4 + 7.0 * s_2 - 16.0) / (810.0 * a)
    w += (9.0 * s_5 + 256.0 * s_3 - 433.0 * s) / (38880.0 * a * ra)
    if a >= 500.0 and abs(1.0 - w / a) < 1e-6:
        return w
    if p > 0.5:
        if w < 3.0 * a:
            return w
        d = max(2.0, a * (a - 1.0))
        lg = lgam(a)
        lb = math.log(q) + lg
        if lb < -d * 2.3:
            return _eq25(a, -lb)
        # eq. 33
        u = -lb + (a - 1.0) * math.log(w) - math.log(1.0 + (1.0 - a) / (1.0 + w))
        return -lb + (a - 1.0) * math.log(u) - math.log(1.0 + (1.0 - a) / (1.0 + u))
    z = w
    ap1 = a + 1.0
    ap2 = a + 2.0
    if w < 0.15 * ap1:
        # eq. 35
        v = math.log(p) + lgam(ap1)
        z = math.exp((v + w) / a)
        s = math.log1p(z / ap1 * (1.0 + z / ap2))
        z = math.exp((v + z - s) / a)
        s = math.log1p(z / ap1 * (1.0 + z / ap2))
        z = math.exp((v + z - s) / a)
        s = math.log1p(z / ap1 * (1.0 + z / ap2 * (1.0 + z / (a + 3.0))))
        z = math.exp((v + z - s) / a)
    if z <= 0.01 * ap1 or z > 0.7 * ap1:
        return z
    # eq. 36
    ls = math.log(_didonato_sn(a, z, 100, 1e-4))
    v = math.log(p) + lgam(ap1)
    z = math.exp((v + z - ls) / a)
    return z * (1.0 - (a * math.log(z) - z - v + ls) / (a - z))


@jit
def _halley(a, x, target, upper):
    for _ in range(3):
        fac = igam_fac(a, x)
        if fac == 0.0:
            return x
        if upper:
            f_fp = (gammaincc(a, x) - target) * x / (-fac)
        else:
            f_fp = (gammainc(a, x) - target) * x / fac
        fpp_fp = -1.0 + (a - 1.0) / x
        if math.isinf(fpp_fp):
            x = x - f_fp                     # Newton's method where the ratio overflows
        else:
            x = x - f_fp / (1.0 - 0.5 * f_fp * fpp_fp)
    return x


@jit
def _igami(a, p):
    return _halley(a, _find_inverse_gamma(a, p, 1.0 - p), p, False)


@jit
def _igamci(a, q):
    return _halley(a, _find_inverse_gamma(a, 1.0 - q, q), q, True)


@jit
def gammaincinv(a, p):
    """The x with gammainc(a, x) = p (xsf/cephes/igami.h igami)."""
    if a != a or p != p:
        return NAN
    if a < 0.0 or p < 0.0 or p > 1.0:
        return _igami(a, p)                  # xsf: a domain error, and on
    if p == 0.0:
        return 0.0
    if p == 1.0:
        return INF
    if p > 0.9:
        return _igamci(a, 1.0 - p)
    return _igami(a, p)


@jit
def gammainccinv(a, q):
    """The x with gammaincc(a, x) = q (xsf/cephes/igami.h igamci)."""
    if a != a or q != q:
        return NAN
    if a < 0.0 or q < 0.0 or q > 1.0:
        return _igamci(a, q)
    if q == 0.0:
        return INF
    if q == 1.0:
        return 0.0
    if q > 0.9:
        return _igami(a, 1.0 - q)
    return _igamci(a, q)
