"""Elliptic integrals and the dilogarithm: ellipk, ellipkm1, ellipe, ellipkinc, ellipeinc,
spence (real).

Ported from the Cephes Math Library (S. L. Moshier; the negative-parameter branches by
E. W. Moore, after B. C. Carlson, "Numerical computation of real or complex elliptic
integrals", 1994) as translated to C++ in SciPy's xsf library: ``xsf/cephes/ellpk.h``,
``ellpe.h``, ``ellik.h``, ``ellie.h``, ``spence.h`` and ``unity.h`` (cosm1). The parameter
is ``m = k**2`` throughout; ``ellipk(m)`` is ``ellpk(1 - m)`` as in SciPy.

Deviations from xsf, none of which changes a value SciPy computes with defined behaviour:

- the amplitude transformation of ellik/ellie (a recursive call in C) is a loop;
- Carlson's duplication steps divide by ``4.0**n`` where the C code shifts ``1 << 2 * n``
  in an ``int`` (undefined from n = 16 on; n stays below 16 for every argument tried).
"""
import math

import numpy as np

from .common import MACHEP, NAN, jit, polevl

PI = math.pi
PIO2 = math.pi / 2.0

ELLPK_P = np.array([1.37982864606273237150E-4, 2.28025724005875567385E-3,
                    7.97404013220415179367E-3, 9.85821379021226008714E-3,
                    6.87489687449949877925E-3, 6.18901033637687613229E-3,
                    8.79078273952743772254E-3, 1.49380448916805252718E-2,
                    3.08851465246711995998E-2, 9.65735902811690126535E-2,
                    1.38629436111989062502E0])
ELLPK_Q = np.array([2.94078955048598507511E-5, 9.14184723865917226571E-4,
                    5.94058303753167793257E-3, 1.54850516649762399335E-2,
                    2.39089602715924892727E-2, 3.01204715227604046988E-2,
                    3.73774314173823228969E-2, 4.88280347570998239232E-2,
                    7.03124996963957469739E-2, 1.24999999999870820058E-1,
                    4.99999999999999999821E-1])
ELLPK_C1 = 1.3862943611198906188E0     # log(4)

ELLPE_P = np.array([1.53552577301013293365E-4, 2.50888492163602060990E-3,
                    8.68786816565889628429E-3, 1.07350949056076193403E-2,
                    7.77395492516787092951E-3, 7.58395289413514708519E-3,
                    1.15688436810574127319E-2, 2.18317996015557253103E-2,
                    5.68051945617860553470E-2, 4.43147180560990850618E-1,
                    1.00000000000000000299E0])
ELLPE_Q = np.array([3.27954898576485872656E-5, 1.00962792679356715133E-3,
                    6.50609489976927491433E-3, 1.68862163993311317300E-2,
                    2.61769742454493659583E-2, 3.34833904888224918614E-2,
                    4.27180926518931511717E-2, 5.85936634471101055642E-2,
                    9.37499997197644278445E-2, 2.49999999999888314361E-1])

COSM1_C = np.array([4.7377507964246204691685E-14, -1.1470284843425359765671E-11,
                    2.0876754287081521758361E-9, -2.7557319214999787979814E-7,
                    2.4801587301570552304991E-5, -1.3888888888888872993737E-3,
                    4.1666666666666666609054E-2])

SPENCE_A = np.array([4.65128586073990045278E-5, 7.31589045238094711071E-3,
                     1.33847639578309018650E-1, 8.79691311754530315341E-1,
                     2.71149851196553469920E0, 4.25697156008121755724E0,
                     3.29771340985225106936E0, 1.00000000000000000126E0])
SPENCE_B = np.array([6.90990488912553276999E-4, 2.54043763932544379113E-2,
                     2.82974860602568089943E-1, 1.41172597751831069617E0,
                     3.63800533345137075418E0, 5.03278880143316990390E0,
                     3.54771340985225096217E0, 9.99999999999999998740E-1])


@jit
def _odd(f):
    # whether the integer-valued double f is odd (C's fmod(fabs(f), 2.0) == 1.0)
    h = 0.5 * f
    return h != np.floor(h)


@jit
def cosm1(x):
    """cos(x) - 1 without cancellation for small x (Cephes unity.c)."""
    if x < -0.25 * PI or x > 0.25 * PI:
        return math.cos(x) - 1.0
    xx = x * x
    return -0.5 * xx + xx * xx * polevl(xx, COSM1_C)


@jit
def ellpk(x):
    """Complete elliptic integral of the first kind of parameter ``1 - x`` (Cephes ellpk)."""
    if x < 0.0:
        return NAN
    if x > 1.0:
        if math.isinf(x):
            return 0.0
        return _ellpk_unit(1.0 / x) / math.sqrt(x)
    return _ellpk_unit(x)


@jit
def _ellpk_unit(x):
    # ellpk for 0 <= x <= 1
    if x > MACHEP:
        return polevl(x, ELLPK_P) - math.log(x) * polevl(x, ELLPK_Q)
    if x == 0.0:
        return math.inf
    return ELLPK_C1 - 0.5 * math.log(x)


@jit
def ellipk(m):
    return ellpk(1.0 - m)


@jit
def ellpe(m):
    """Complete elliptic integral of the second kind (Cephes ellpe, called with m)."""
    x = 1.0 - m
    if x <= 0.0:
        if x == 0.0:
            return 1.0
        return NAN
    if x > 1.0:
        return _ellpe_unit(1.0 - 1.0 / x) * math.sqrt(x)
    return polevl(x, ELLPE_P) - math.log(x) * (x * polevl(x, ELLPE_Q))


@jit
def _ellpe_unit(m):
    # ellpe for 0 <= 1 - m <= 1 (the recursive call of ellpe for m < 0)
    x = 1.0 - m
    if x <= 0.0:
        if x == 0.0:
            return 1.0
        return NAN
    return polevl(x, ELLPE_P) - math.log(x) * (x * polevl(x, ELLPE_Q))


@jit
def _ellik_neg_m(phi, m):
    """F(phi | m) for m < 0, 0 <= phi <= pi/2: Carlson's R_F (xsf ellik_neg_m)."""
    mpp = (m * phi) * phi
    if -mpp < 1e-6 and phi < -m:
        return phi + (-mpp * phi * phi / 30.0 + 3.0 * mpp * mpp / 40.0 + mpp / 6.0) * phi
    if -mpp > 4e7:
        sm = math.sqrt(-m)
        sp = math.sin(phi)
        cp = math.cos(phi)
        a = math.log(4.0 * sp * sm / (1.0 + cp))
        b = -(1.0 + cp / sp / sp - a) / 4.0 / m
        return (a + b) / sm
    if phi > 1e-153 and m > -1e305:
        s = math.sin(phi)
        csc2 = 1.0 / (s * s)
        scale = 1.0
        tp = math.tan(phi)
        x = 1.0 / (tp * tp)
        y = csc2 - m
        z = csc2
    else:
        scale = phi
        x = 1.0
        y = 1.0 - m * scale * scale
        z = 1.0
    if x == y and x == z:
        return scale / math.sqrt(x)
    a0 = (x + y + z) / 3.0
    a = a0
    x1 = x
    y1 = y
    z1 = z
    q = 400.0 * max(abs(a0 - x), max(abs(a0 - y), abs(a0 - z)))
    n = 0
    while q > abs(a) and n <= 100:
        sx = math.sqrt(x1)
        sy = math.sqrt(y1)
        sz = math.sqrt(z1)
        lam = sx * sy + sx * sz + sy * sz
        x1 = (x1 + lam) / 4.0
        y1 = (y1 + lam) / 4.0
        z1 = (z1 + lam) / 4.0
        a = (x1 + y1 + z1) / 3.0
        n += 1
        q /= 4.0
    p4 = 4.0 ** n
    xx = (a0 - x) / a / p4
    yy = (a0 - y) / a / p4
    zz = -(xx + yy)
    e2 = xx * yy - zz * zz
    e3 = xx * yy * zz
    return scale * (1.0 - e2 / 10.0 + e3 / 14.0 + e2 * e2 / 24.0
                    - 3.0 * e2 * e3 / 44.0) / math.sqrt(a)


@jit
def _ellik_agm(phi, m, b, t):
    # the descending Landen / AGM iteration of Cephes ellik, 0 < m < 1, b = sqrt(1 - m)
    a = 1.0
    c = math.sqrt(m)
    d = 1
    mod = 0
    while abs(c / a) > MACHEP:
        temp = b / a
        phi = phi + math.atan(t * temp) + mod * PI
        denom = 1.0 - temp * t * t
        if abs(denom) > 10.0 * MACHEP:
            t = t * (1.0 + temp) / denom
            mod = int((phi + PIO2) / PI)
        else:
            t = math.tan(phi)
            mod = int(math.floor((phi - math.atan(t)) / PI))
        c = (a - b) / 2.0
        temp = math.sqrt(a * b)
        a = (a + b) / 2.0
        b = temp
        d += d
    return (math.atan(t) + mod * PI) / (d * a)


@jit
def ellik(phi, m):
    """Incomplete elliptic integral of the first kind F(phi | m) (Cephes ellik)."""
    if math.isnan(phi) or math.isnan(m):
        return NAN
    if m > 1.0:
        return NAN
    if math.isinf(phi) or math.isinf(m):
        if math.isinf(m) and math.isfinite(phi):
            return 0.0
        if math.isinf(phi) and math.isfinite(m):
            return phi
        return NAN
    if m == 0.0:
        return phi
    a = 1.0 - m
    if a == 0.0:
        if abs(phi) >= PIO2:
            return math.inf
        return math.asinh(math.tan(phi))           # DLMF 19.6.8, 4.23.42
    npio2 = np.floor(phi / PIO2)
    if _odd(npio2):
        npio2 += 1.0
    if npio2 != 0.0:
        k = ellpk(a)
        phi = phi - npio2 * PIO2
    else:
        k = 0.0
    sign = 1.0
    if phi < 0.0:
        phi = -phi
        sign = -1.0
    if a > 1.0:
        temp = _ellik_neg_m(phi, m)
    else:
        b = math.sqrt(a)
        # F(phi) = K - F(atan(1 / (b tan phi))): Cephes' transformation near odd multiples
        # of pi/2 (its recursive call, which cannot recur again but by rounding, as a loop)
        acc = 0.0
        s = 1.0
        while True:
            t = math.tan(phi)
            if abs(t) > 10.0:
                e = 1.0 / (b * t)
                if abs(e) < 10.0:
                    if npio2 == 0.0 and k == 0.0:
                        k = ellpk(a)
                    acc += s * k
                    s = -s
                    phi = math.atan(e)
                    continue
            temp = acc + s * _ellik_agm(phi, m, b, t)
            break
    return sign * temp + npio2 * k


@jit
def _ellie_neg_m(phi, m):
    """E(phi | m) for m < 0, 0 <= phi <= pi/2: Carlson's R_F and R_D (xsf ellie_neg_m)."""
    mpp = (m * phi) * phi
    if -mpp < 1e-6 and phi < -m:
        return phi + (mpp * phi * phi / 30.0 - mpp * mpp / 40.0 - mpp / 6.0) * phi
    if -mpp > 1e6:
        sm = math.sqrt(-m)
        sp = math.sin(phi)
        cp = math.cos(phi)
        a = -cosm1(phi)
        b1 = math.log(4.0 * sp * sm / (1.0 + cp))
        b = -(0.5 + b1) / 2.0 / m
        c = (0.75 + cp / sp / sp - b1) / 16.0 / m / m
        return (a + b + c) * sm
    if phi > 1e-153 and m > -1e200:
        s = math.sin(phi)
        csc2 = 1.0 / s / s
        scalef = 1.0
        scaled = m / 3.0
        tp = math.tan(phi)
        x = 1.0 / tp / tp
        y = csc2 - m
        z = csc2
    else:
        scalef = phi
        scaled = mpp * phi / 3.0
        x = 1.0
        y = 1.0 - mpp
        z = 1.0
    if x == y and x == z:
        return (scalef + scaled / x) / math.sqrt(x)
    a0f = (x + y + z) / 3.0
    af = a0f
    a0d = (x + y + 3.0 * z) / 5.0
    ad = a0d
    x1 = x
    y1 = y
    z1 = z
    seriesd = 0.0
    seriesn = 1.0
    q = 400.0 * max(abs(a0f - x), max(abs(a0f - y), abs(a0f - z)))
    n = 0
    while q > abs(af) and q > abs(ad) and n <= 100:
        sx = math.sqrt(x1)
        sy = math.sqrt(y1)
        sz = math.sqrt(z1)
        lam = sx * sy + sx * sz + sy * sz
        seriesd += seriesn / (sz * (z1 + lam))
        x1 = (x1 + lam) / 4.0
        y1 = (y1 + lam) / 4.0
        z1 = (z1 + lam) / 4.0
        af = (x1 + y1 + z1) / 3.0
        ad = (ad + lam) / 4.0
        n += 1
        q /= 4.0
        seriesn /= 4.0
    p4 = 4.0 ** n
    xf = (a0f - x) / af / p4
    yf = (a0f - y) / af / p4
    zf = -(xf + yf)
    e2f = xf * yf - zf * zf
    e3f = xf * yf * zf
    ret = scalef * (1.0 - e2f / 10.0 + e3f / 14.0 + e2f * e2f / 24.0
                    - 3.0 * e2f * e3f / 44.0) / math.sqrt(af)
    xd = (a0d - x) / ad / p4
    yd = (a0d - y) / ad / p4
    zd = -(xd + yd) / 3.0
    e2d = xd * yd - 6.0 * zd * zd
    e3d = (3.0 * xd * yd - 8.0 * zd * zd) * zd
    e4d = 3.0 * (xd * yd - zd * zd) * zd * zd
    e5d = xd * yd * zd * zd * zd
    ret -= scaled * (1.0 - 3.0 * e2d / 14.0 + e3d / 6.0 + 9.0 * e2d * e2d / 88.0
                     - 3.0 * e4d / 22.0 - 9.0 * e2d * e3d / 52.0
                     + 3.0 * e5d / 26.0) / p4 / ad / math.sqrt(ad)
    ret -= 3.0 * scaled * seriesd
    return ret


@jit
def _ellie_series(lphi, m):
    # Cephes ellie's Maclaurin series in phi for phi < 0.135
    m11 = (((((-7.0 / 2816.0) * m + (5.0 / 1056.0)) * m - (7.0 / 2640.0)) * m
            + (17.0 / 41580.0)) * m - (1.0 / 155925.0)) * m
    m9 = ((((-5.0 / 1152.0) * m + (1.0 / 144.0)) * m - (1.0 / 360.0)) * m
          + (1.0 / 5670.0)) * m
    m7 = ((-m / 112.0 + (1.0 / 84.0)) * m - (1.0 / 315.0)) * m
    m5 = (-m / 40.0 + (1.0 / 30.0)) * m
    m3 = -m / 6.0
    p2 = lphi * lphi
    return ((((m11 * p2 + m9) * p2 + m7) * p2 + m5) * p2 + m3) * p2 * lphi + lphi


@jit
def _ellie_agm(lphi, m, b, t, ee):
    # the descending Landen / AGM iteration of Cephes ellie, 0 < m < 1, b = sqrt(1 - m)
    c = math.sqrt(m)
    a = 1.0
    d = 1
    e = 0.0
    mod = 0
    while abs(c / a) > MACHEP:
        temp = b / a
        lphi = lphi + math.atan(t * temp) + mod * PI
        denom = 1.0 - temp * t * t
        if abs(denom) > 10.0 * MACHEP:
            t = t * (1.0 + temp) / denom
            mod = int((lphi + PIO2) / PI)
        else:
            t = math.tan(lphi)
            mod = int(math.floor((lphi - math.atan(t)) / PI))
        c = (a - b) / 2.0
        temp = math.sqrt(a * b)
        a = (a + b) / 2.0
        b = temp
        d += d
        e += c * math.sin(lphi)
    temp = ee / ellpk(1.0 - m)
    temp *= (math.atan(t) + mod * PI) / (d * a)
    return temp + e


@jit
def ellie(phi, m):
    """Incomplete elliptic integral of the second kind E(phi | m) (Cephes ellie)."""
    if math.isnan(phi) or math.isnan(m):
        return NAN
    if m > 1.0:
        return NAN
    if math.isinf(phi):
        return phi
    if math.isinf(m):
        return -m
    if m == 0.0:
        return phi
    lphi = phi
    npio2 = np.floor(lphi / PIO2)
    if _odd(npio2):
        npio2 += 1.0
    lphi = lphi - npio2 * PIO2
    sign = 1.0
    if lphi < 0.0:
        lphi = -lphi
        sign = -1.0
    a = 1.0 - m
    ee = ellpe(m)
    if a == 0.0:
        temp = math.sin(lphi)
    elif a > 1.0:
        temp = _ellie_neg_m(lphi, m)
    else:
        b = math.sqrt(a)
        # E(phi) = E + m sin(phi) sin(e) - E(e), e = atan(1 / (b tan phi)): Cephes'
        # transformation near odd multiples of pi/2 (its recursive call, as a loop)
        acc = 0.0
        s = 1.0
        while True:
            if lphi < 0.135:
                temp = acc + s * _ellie_series(lphi, m)
                break
            t = math.tan(lphi)
            if abs(t) > 10.0:
                e = 1.0 / (b * t)
                if abs(e) < 10.0:
                    e = math.atan(e)
                    acc += s * (ee + m * math.sin(lphi) * math.sin(e))
                    s = -s
                    lphi = e
                    continue
            temp = acc + s * _ellie_agm(lphi, m, b, t, ee)
            break
    return sign * temp + npio2 * ee


@jit
def spence(x):
    """Dilogarithm spence(x) = -int_1^x log(t) / (t - 1) dt for real x >= 0 (Cephes)."""
    if x < 0.0:
        return NAN
    if x == 1.0:
        return 0.0
    if x == 0.0:
        return PI * PI / 6.0
    flag = 0
    if x > 2.0:
        x = 1.0 / x
        flag |= 2
    if x > 1.5:
        w = (1.0 / x) - 1.0
        flag |= 2
    elif x < 0.5:
        w = -x
        flag |= 1
    else:
        w = x - 1.0
    y = -w * polevl(w, SPENCE_A) / polevl(w, SPENCE_B)
    if flag & 1:
        y = (PI * PI) / 6.0 - math.log(x) * math.log(1.0 - x) - y
    if flag & 2:
        z = math.log(x)
        y = -0.5 * z * z - y
    return y
