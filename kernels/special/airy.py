"""Airy functions Ai, Ai', Bi, Bi' of a real argument.

|x| <= 10: Cephes ``airy.c`` (S. L. Moshier; power series and rational approximations), as
SciPy's xsf uses there. |x| > 10, where xsf calls AMOS: the asymptotic expansions DLMF
9.7.5-9.7.12 with zeta = 2/3 |x|^(3/2) carried in double-double, so that exp(-zeta) and the
phase zeta - pi/4 keep full relative accuracy for large |x|; for x < -10 in modulus-phase
form R cos(zeta - pi/4 - phi) (cf. DLMF 9.8), which keeps the zeros accurate too. NaN for
x < -AIRY_NEG_MAX, where SciPy's AMOS stops.
"""
import math

from .bessel_tables import (
    AIRY_AD,
    AIRY_AFD,
    AIRY_AFN,
    AIRY_AGD,
    AIRY_AGN,
    AIRY_AN,
    AIRY_APD,
    AIRY_APFD,
    AIRY_APFN,
    AIRY_APGD,
    AIRY_APGN,
    AIRY_APN,
    AIRY_BD16,
    AIRY_BN16,
    AIRY_BPPD,
    AIRY_BPPN,
)
from .common import (
    INF,
    MACHEP,
    NAN,
    SQRT1OPI,
    SQRT3,
    dd_mul,
    fast_two_sum,
    jit,
    p1evl,
    polevl,
    two_prod,
    two_sum,
)

AIRY_C1 = 0.35502805388781723926
AIRY_C2 = 0.258819403792806798405
MAXAIRY = 103.892
SQRT1OPI_HI = 0.5641895835477563        # 1/sqrt(pi) as a double-double
SQRT1OPI_LO = 7.66772980658294e-18
HALF_SQRT1OPI_HI = 0.28209479177387814  # 1/(2 sqrt(pi))
HALF_SQRT1OPI_LO = 3.83386490329147e-18
# SciPy's AMOS zairy gives up (NaN, ierr 4) for |z| > (0.5 * (2**31 - 1))**(2/3); below
# -AIRY_NEG_MAX linalgx returns NaN too, so that the two agree everywhere. Up to there the
# phase zeta - pi/4 - phi below is good to ~1e-16 absolute; further out its double-double
# form (and the first terms of cos/sin of its low part) would not be, and the oscillating
# values would silently lose digits (Ai(-1e15) came out as 64.8, not -7.2e-5). The large
# positive side (Ai underflowing to 0, Bi overflowing to inf) is unaffected.
AIRY_NEG_MAX = 1048575.9996744783
PIO4_HI = 0.7853981633974483
PIO4_LO = 3.061616997868383e-17


@jit
def cephes_airy(x):
    domflg = 0
    ai = aip = bi = bip = 0.0
    if x > MAXAIRY:
        return 0.0, 0.0, INF, INF
    if x < -2.09:
        t = math.sqrt(-x)
        zeta = -2.0 * x * t / 3.0
        t = math.sqrt(t)
        k = SQRT1OPI / t
        z = 1.0 / zeta
        zz = z * z
        uf = 1.0 + zz * polevl(zz, AIRY_AFN) / p1evl(zz, AIRY_AFD)
        ug = z * polevl(zz, AIRY_AGN) / p1evl(zz, AIRY_AGD)
        theta = zeta + 0.25 * math.pi
        f = math.sin(theta)
        g = math.cos(theta)
        ai = k * (f * uf - g * ug)
        bi = k * (g * uf + f * ug)
        uf = 1.0 + zz * polevl(zz, AIRY_APFN) / p1evl(zz, AIRY_APFD)
        ug = z * polevl(zz, AIRY_APGN) / p1evl(zz, AIRY_APGD)
        k = SQRT1OPI * t
        aip = -k * (g * uf + f * ug)
        bip = k * (f * uf - g * ug)
        return ai, aip, bi, bip
    if x >= 2.09:
        domflg = 5
        t = math.sqrt(x)
        zeta = 2.0 * x * t / 3.0
        g = math.exp(zeta)
        t = math.sqrt(t)
        k = 2.0 * t * g
        z = 1.0 / zeta
        f = polevl(z, AIRY_AN) / polevl(z, AIRY_AD)
        ai = SQRT1OPI * f / k
        k = -0.5 * SQRT1OPI * t / g
        f = polevl(z, AIRY_APN) / polevl(z, AIRY_APD)
        aip = f * k
        if x > 8.3203353:
            f = z * polevl(z, AIRY_BN16) / p1evl(z, AIRY_BD16)
            k = SQRT1OPI * g
            bi = k * (1.0 + f) / t
            f = z * polevl(z, AIRY_BPPN) / p1evl(z, AIRY_BPPD)
            bip = k * t * (1.0 + f)
            return ai, aip, bi, bip
    f = 1.0
    g = x
    t = 1.0
    uf = 1.0
    ug = x
    k = 1.0
    z = x * x * x
    while t > MACHEP:
        uf *= z
        k += 1.0
        uf /= k
        ug *= z
        k += 1.0
        ug /= k
        uf /= k
        f += uf
        k += 1.0
        ug /= k
        g += ug
        t = abs(uf / f)
    uf = AIRY_C1 * f
    ug = AIRY_C2 * g
    if (domflg & 1) == 0:
        ai = uf - ug
    if (domflg & 2) == 0:
        bi = SQRT3 * (uf + ug)
    k = 4.0
    uf = x * x / 2.0
    ug = z / 3.0
    f = uf
    g = 1.0 + ug
    uf /= 3.0
    t = 1.0
    while t > MACHEP:
        uf *= z
        ug /= k
        k += 1.0
        ug *= z
        uf /= k
        f += uf
        k += 1.0
        ug /= k
        uf /= k
        g += ug
        k += 1.0
        t = abs(ug / g)
    uf = AIRY_C1 * f
    ug = AIRY_C2 * g
    if (domflg & 4) == 0:
        aip = uf - ug
    if (domflg & 8) == 0:
        bip = SQRT3 * (uf + ug)
    return ai, aip, bi, bip


@jit
def _zeta_dd(z):
    # 2/3 z^(3/2) as a double-double (hi, lo)
    s = math.sqrt(z)
    p, e = two_prod(s, s)
    sl = ((z - p) - e) / (2.0 * s)
    h, l = two_prod(z, s)
    l += z * sl
    c_hi = 0.6666666666666666
    c_lo = 3.700743415417188e-17
    h2, l2 = two_prod(h, c_hi)
    l2 += h * c_lo + l * c_hi
    return two_sum(h2, l2)


@jit
def _asym_sums(zeta, alternate, parity):
    # sum_k s_k u_k zeta^-k and the same with v_k; parity 0 -> all k, 1 -> even k only,
    # 2 -> odd k only (with the (-1)^(k//2) signs of DLMF 9.7.9-9.7.12). The k = 0 term (1)
    # is added last, so the small tail is summed without the rounding error of 1.
    su = 0.0
    sv = 0.0
    u = 1.0
    zp = 1.0
    last = INF
    for k in range(1, 60):
        u *= (6.0 * k - 5.0) * (6.0 * k - 3.0) * (6.0 * k - 1.0) / ((2.0 * k - 1.0) * 216.0 * k)
        zp /= zeta
        v = -(6.0 * k + 1.0) / (6.0 * k - 1.0) * u
        if parity == 0:
            sign = -1.0 if (alternate and k % 2 == 1) else 1.0
        else:
            if k % 2 != parity - 1:
                continue
            sign = -1.0 if (k // 2) % 2 == 1 else 1.0
        tu = sign * u * zp
        tv = sign * v * zp
        mag = abs(tu) + abs(tv)
        if mag > last:
            break
        su += tu
        sv += tv
        last = mag
        if mag < 1e-18:
            break
    if parity != 2:
        su += 1.0
        sv += 1.0
    return su, sv


@jit
def _quarter_root(z):
    """z^(1/4) and z^(-1/4) as double-doubles (one Newton step on the rounded roots)."""
    q = math.sqrt(math.sqrt(z))
    a, b = dd_mul(q, 0.0, q, 0.0)
    a, b = dd_mul(a, b, a, b)               # q^4
    qh, ql = fast_two_sum(q, ((z - a) - b) / (4.0 * q * q * q))
    r = 1.0 / q
    a, b = dd_mul(r, 0.0, r, 0.0)
    a, b = dd_mul(a, b, a, b)               # r^4
    a, b = dd_mul(a, b, z, 0.0)             # r^4 z ~ 1
    rh, rl = fast_two_sum(r, r * ((1.0 - a) - b) / 4.0)
    return qh, ql, rh, rl


@jit
def _scale(h, lo, e):
    # (h + lo) * e, overflowing to inf (not inf - inf = nan)
    t = h * e
    return t + lo * e if math.isfinite(t) else t


@jit
def _shifted_phase(zh, zl, phi):
    # cos and sin of zeta - pi/4 - phi with zeta = zh + zl carried in double-double
    s, e = two_sum(zh, -PIO4_HI)
    e += zl - PIO4_LO - phi
    s, e = fast_two_sum(s, e)
    # |e| <= ulp(s)/2, up to 6e-8 below AIRY_NEG_MAX: cos(e) = 1 - e^2/2 is not 1 there
    c0 = math.cos(s)
    s0 = math.sin(s)
    ce = 1.0 - 0.5 * e * e
    return c0 * ce - e * s0, s0 * ce + e * c0


@jit
def airy(x):
    """(Ai, Ai', Bi, Bi') at real x."""
    if x != x:
        return NAN, NAN, NAN, NAN
    if -10.0 <= x <= 10.0:
        return cephes_airy(x)
    if x == INF or x == -INF or x < -AIRY_NEG_MAX:
        return NAN, NAN, NAN, NAN   # as SciPy (AMOS reports an error there)
    z = abs(x)
    zh, zl = _zeta_dd(z)
    qh, ql, rh, rl = _quarter_root(z)          # z^(1/4), z^(-1/4)
    if x > 0:
        # DLMF 9.7.5-9.7.8; the products are formed in double-double so the result carries
        # only the roundings of exp and of the series sums
        su, sv = _asym_sums(zh, True, 0)
        em = math.exp(-zh)
        h, lo = dd_mul(em, -em * zl, su, 0.0)
        h, lo = dd_mul(h, lo, HALF_SQRT1OPI_HI, HALF_SQRT1OPI_LO)
        ai = dd_mul(h, lo, rh, rl)[0]
        h, lo = dd_mul(em, -em * zl, sv, 0.0)
        h, lo = dd_mul(h, lo, HALF_SQRT1OPI_HI, HALF_SQRT1OPI_LO)
        aip = -dd_mul(h, lo, qh, ql)[0]
        su, sv = _asym_sums(zh, False, 0)
        if zh > 1400.0:
            return ai, aip, INF, INF
        e1 = math.exp(0.5 * zh)                 # e^zeta = e1 * e1 without overflow
        h, lo = dd_mul(e1, e1 * zl, su, 0.0)
        h, lo = dd_mul(h, lo, SQRT1OPI_HI, SQRT1OPI_LO)
        h, lo = dd_mul(h, lo, rh, rl)
        bi = _scale(h, lo, e1)
        h, lo = dd_mul(e1, e1 * zl, sv, 0.0)
        h, lo = dd_mul(h, lo, SQRT1OPI_HI, SQRT1OPI_LO)
        h, lo = dd_mul(h, lo, qh, ql)
        bip = _scale(h, lo, e1)
        return ai, aip, bi, bip
    # DLMF 9.7.9-9.7.12 in modulus-phase form: cos(t) U_even + sin(t) U_odd =
    # R cos(t - phi) with R = hypot(U_even, U_odd), phi = atan2(U_odd, U_even); the phase is
    # summed in double-double, so the zeros of Ai, Bi keep their relative accuracy
    ue, ve = _asym_sums(zh, True, 1)
    uo, vo = _asym_sums(zh, True, 2)
    cu, su_ = _shifted_phase(zh, zl, math.atan2(uo, ue))
    cv, sv_ = _shifted_phase(zh, zl, math.atan2(vo, ve))
    h, lo = dd_mul(SQRT1OPI_HI, SQRT1OPI_LO, rh, rl)
    h, lo = dd_mul(h, lo, math.hypot(ue, uo), 0.0)
    ai = h * cu + lo * cu
    bi = -(h * su_ + lo * su_)
    h, lo = dd_mul(SQRT1OPI_HI, SQRT1OPI_LO, qh, ql)
    h, lo = dd_mul(h, lo, math.hypot(ve, vo), 0.0)
    aip = h * sv_ + lo * sv_
    bip = h * cv + lo * cv
    return ai, aip, bi, bip
