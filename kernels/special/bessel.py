"""Bessel functions of integer order 0 and 1 (J, Y, I, K and the scaled I, K) and the
spherical Bessel function j_n.

Ported from Cephes ``j0.c``, ``j1.c``, ``i0.c``, ``i1.c``, ``k0.c``, ``k1.c`` (S. L. Moshier,
as in SciPy's xsf). ``spherical_jn`` follows xsf's ``sph_bessel_j`` for x > n (upward
recurrence from j0 and j1); for 0 < x <= n, where xsf calls AMOS, it uses Miller's downward
recurrence normalised by j0 or j1 (Abramowitz & Stegun 10.5; W. Gautschi, SIAM Rev. 9
(1967)); for |x| < 1e-3 (n >= 1), where both recurrences overflow, the power series DLMF
10.53.1.
"""
import math

from .bessel_tables import (
    I0_A,
    I0_B,
    I1_A,
    I1_B,
    J0_DR1,
    J0_DR2,
    J0_PP,
    J0_PQ,
    J0_QP,
    J0_QQ,
    J0_RP,
    J0_RQ,
    J0_YP,
    J0_YQ,
    J1_PP,
    J1_PQ,
    J1_QP,
    J1_QQ,
    J1_RP,
    J1_RQ,
    J1_YP,
    J1_YQ,
    J1_Z1,
    J1_Z2,
    K0_A,
    K0_B,
    K1_A,
    K1_B,
)
from .common import (
    INF,
    M_2_PI,
    MAXLOG,
    NAN,
    SQRT1OPI,
    SQRT2OPI,
    THPIO4,
    chbevl,
    dd_mul,
    dd_sub,
    fast_two_sum,
    jit,
    p1evl,
    polevl,
    two_prod,
)

SQRT1_2 = 0.70710678118654752440
PIO4 = 0.78539816339744830962
# Below LARGE the Hankel form uses the phase x - pi/4 (x - 3pi/4) as SciPy 1.17 does, so the
# values are SciPy's; above, where that rounded phase costs ~ulp(x) absolute, xsf's newer
# form a cos(x) + b sin(x) keeps the phase exact.
LARGE = 100.0


@jit
def j0(x):
    if x < 0:
        x = -x
    if x <= 5.0:
        z = x * x
        if x < 1.0e-5:
            return 1.0 - z / 4.0
        p = (z - J0_DR1) * (z - J0_DR2)
        return p * polevl(z, J0_RP) / p1evl(z, J0_RQ)
    w = 5.0 / x
    q = 25.0 / (x * x)
    p = polevl(q, J0_PP) / polevl(q, J0_PQ)
    q = polevl(q, J0_QP) / p1evl(q, J0_QQ)
    if x < LARGE:
        xn = x - PIO4
        p = p * math.cos(xn) - w * q * math.sin(xn)
        return p * SQRT2OPI / math.sqrt(x)
    p = (p + w * q) * math.cos(x) + (p - w * q) * math.sin(x)
    return p * SQRT1OPI / math.sqrt(x)


@jit
def y0(x):
    if x <= 5.0:
        if x == 0.0:
            return -INF
        if x < 0.0 or x != x:
            return NAN
        z = x * x
        w = polevl(z, J0_YP) / p1evl(z, J0_YQ)
        return w + M_2_PI * math.log(x) * j0(x)
    w = 5.0 / x
    z = 25.0 / (x * x)
    p = polevl(z, J0_PP) / polevl(z, J0_PQ)
    q = polevl(z, J0_QP) / p1evl(z, J0_QQ)
    if x < LARGE:
        xn = x - PIO4
        p = p * math.sin(xn) + w * q * math.cos(xn)
        return p * SQRT2OPI / math.sqrt(x)
    p = (w * q - p) * math.cos(x) + (p + w * q) * math.sin(x)
    return p * SQRT1OPI / math.sqrt(x)


@jit
def j1(x):
    if x < 0:
        return -_j1_pos(-x)
    return _j1_pos(x)


@jit
def _j1_pos(x):
    if x < 1.490116119384765625e-8:
        return 0.5 * x
    if x <= 5.0:
        z = x * x
        w = polevl(z, J1_RP) / p1evl(z, J1_RQ)
        return w * x * (z - J1_Z1) * (z - J1_Z2)
    w = 5.0 / x
    z = w * w
    p = polevl(z, J1_PP) / polevl(z, J1_PQ)
    q = polevl(z, J1_QP) / p1evl(z, J1_QQ)
    if x < LARGE:
        xn = x - THPIO4
        p = p * math.cos(xn) - w * q * math.sin(xn)
        return p * SQRT2OPI / math.sqrt(x)
    a = SQRT1_2 * (w * q - p)
    b = SQRT1_2 * (p + w * q)
    return (a * math.cos(x) + b * math.sin(x)) * SQRT2OPI / math.sqrt(x)


@jit
def y1(x):
    if x <= 5.0:
        if x == 0.0:
            return -INF
        if x <= 0.0 or x != x:
            return NAN
        z = x * x
        w = x * (polevl(z, J1_YP) / p1evl(z, J1_YQ))
        return w + M_2_PI * (j1(x) * math.log(x) - 1.0 / x)
    w = 5.0 / x
    z = w * w
    p = polevl(z, J1_PP) / polevl(z, J1_PQ)
    q = polevl(z, J1_QP) / p1evl(z, J1_QQ)
    if x < LARGE:
        xn = x - THPIO4
        p = p * math.sin(xn) + w * q * math.cos(xn)
        return p * SQRT2OPI / math.sqrt(x)
    p = (w * q - p) * math.sin(x) - (p + w * q) * math.cos(x)
    return p * SQRT1OPI / math.sqrt(x)


@jit
def i0(x):
    if x < 0:
        x = -x
    if x <= 8.0:
        return math.exp(x) * chbevl(x / 2.0 - 2.0, I0_A)
    if x > MAXLOG:
        e = math.exp(x / 2.0)
        return e * chbevl(32.0 / x - 2.0, I0_B) / math.sqrt(x) * e
    return math.exp(x) * chbevl(32.0 / x - 2.0, I0_B) / math.sqrt(x)


@jit
def i0e(x):
    if x < 0:
        x = -x
    if x <= 8.0:
        return chbevl(x / 2.0 - 2.0, I0_A)
    return chbevl(32.0 / x - 2.0, I0_B) / math.sqrt(x)


@jit
def i1(x):
    z = abs(x)
    if z <= 8.0:
        z = chbevl(z / 2.0 - 2.0, I1_A) * z * math.exp(z)
    elif z > MAXLOG:
        e = math.exp(z / 2.0)
        z = e * chbevl(32.0 / z - 2.0, I1_B) / math.sqrt(z) * e
    else:
        z = math.exp(z) * chbevl(32.0 / z - 2.0, I1_B) / math.sqrt(z)
    return -z if x < 0.0 else z


@jit
def i1e(x):
    z = abs(x)
    if z <= 8.0:
        z = chbevl(z / 2.0 - 2.0, I1_A) * z
    else:
        z = chbevl(32.0 / z - 2.0, I1_B) / math.sqrt(z)
    return -z if x < 0.0 else z


@jit
def k0(x):
    if x == 0.0:
        return INF
    if x < 0.0 or x != x:
        return NAN
    if x <= 2.0:
        y = x * x - 2.0
        return chbevl(y, K0_A) - math.log(0.5 * x) * i0(x)
    z = 8.0 / x - 2.0
    return math.exp(-x) * chbevl(z, K0_B) / math.sqrt(x)


@jit
def k0e(x):
    if x == 0.0:
        return INF
    if x < 0.0 or x != x:
        return NAN
    if x <= 2.0:
        y = x * x - 2.0
        y = chbevl(y, K0_A) - math.log(0.5 * x) * i0(x)
        return y * math.exp(x)
    return chbevl(8.0 / x - 2.0, K0_B) / math.sqrt(x)


@jit
def k1(x):
    if x == 0.0:
        return INF
    if x < 0.0 or x != x:
        return NAN
    z = 0.5 * x
    if x <= 2.0:
        y = x * x - 2.0
        return math.log(z) * i1(x) + chbevl(y, K1_A) / x
    return math.exp(-x) * chbevl(8.0 / x - 2.0, K1_B) / math.sqrt(x)


@jit
def k1e(x):
    if x == 0.0:
        return INF
    if x < 0.0 or x != x:
        return NAN
    if x <= 2.0:
        y = x * x - 2.0
        y = math.log(0.5 * x) * i1(x) + chbevl(y, K1_A) / x
        return y * math.exp(x)
    return chbevl(8.0 / x - 2.0, K1_B) / math.sqrt(x)


@jit
def _sph_jn_miller(n, x):
    # 0 < x <= n: Miller's downward recurrence j_{k-1} = (2k+1)/x j_k - j_{k+1} from
    # k = n + 30 + sqrt(40 n), in double-double so the result keeps ~1 ulp, rescaled by
    # powers of two against overflow, normalised by the larger of j0 and j1.
    top = n + 30 + int(math.sqrt(40.0 * n))
    big = 2.0 ** 830
    small = 2.0 ** -830
    ah = 0.0   # j_{k+1}
    al = 0.0
    bh = 1e-290  # j_k
    bl = 0.0
    nh = 0.0
    nl = 0.0
    for k in range(top, 0, -1):
        m = 2.0 * k + 1.0
        ch = m / x
        p, e = two_prod(ch, x)
        cl = ((m - p) - e) / x
        th, tl = dd_mul(ch, cl, bh, bl)
        th, tl = dd_sub(th, tl, ah, al)
        ah, al = bh, bl
        bh, bl = th, tl
        if k - 1 == n:
            nh, nl = bh, bl
        if abs(bh) > big:
            bh *= small
            bl *= small
            ah *= small
            al *= small
            nh *= small
            nl *= small
    # now (bh, bl) ~ j0 and (ah, al) ~ j1, unnormalised
    s0 = math.sin(x) / x
    if x >= 1.0:
        s1 = (s0 - math.cos(x)) / x
        if abs(s1) > abs(s0):
            return _dd_ratio(nh, nl, ah, al) * s1
    return _dd_ratio(nh, nl, bh, bl) * s0


@jit
def _dd_ratio(nh, nl, dh, dl):
    # (nh + nl) / (dh + dl) to about one rounding
    q = nh / dh
    r1, r2 = two_prod(q, dh)
    return q + (((nh - r1) - r2) + nl - q * dl) / dh


# below this |x| (and for n >= 1) j_n and j_n' come from their power series: the
# recurrences divide by x, and overflow (NaN) once (2n+1)/x nears the top of the range
SPH_SERIES_MAX = 1e-3


@jit
def _sph_jn_series(n, x, deriv):
    # 0 < x < SPH_SERIES_MAX, n >= 1 (DLMF 10.53.1):
    #   j_n(x)  = x^n / (2n+1)!! sum_k t_k,
    #   j_n'(x) = n x^(n-1) / (2n+1)!! sum_k (n+2k)/n t_k,
    #   t_0 = 1, t_k = t_(k-1) (-x^2/2) / (k (2n+2k+1)).
    # The prefactor is a running product that only decreases (x < 3), carried in
    # double-double so that it keeps ~1 ulp for any n; once it underflows, so does the result.
    ph = float(n) if deriv else 1.0
    pl = 0.0
    for k in range(1, n + 1):
        if k > 1 or not deriv:
            ph, pl = dd_mul(ph, pl, x, 0.0)
        m = 2.0 * k + 1.0
        q = ph / m
        r1, r2 = two_prod(q, m)
        ph, pl = fast_two_sum(q, (((ph - r1) - r2) + pl) / m)
        if ph == 0.0:
            return 0.0
    h = -0.5 * x * x
    t = 1.0
    s = 1.0
    for k in range(1, 30):
        t *= h / (k * (2.0 * n + 2.0 * k + 1.0))
        w = (n + 2.0 * k) / n if deriv else 1.0
        s += w * t
        if abs(t) < 1e-17:
            break
    return ph * s + pl * s


@jit
def _sph_jn_pos(n, x):
    if n > 0 and x < SPH_SERIES_MAX:
        return _sph_jn_series(n, x, False)
    if n > 0 and n >= x:
        if n > 64 and (n * math.log(x * 2.0) + math.lgamma(n + 1.0)
                       - math.lgamma(2.0 * n + 2.0) < -746.0):
            # |j_n(x)| <= x^n / (2n+1)!! underflows: zero, without Miller's O(n) loop
            # (which would not end for n ~ 2**62)
            return 0.0
        return _sph_jn_miller(n, x)
    s0 = math.sin(x) / x
    if n == 0:
        return s0
    s1 = (s0 - math.cos(x)) / x
    if n == 1:
        return s1
    sn = s1
    for k in range(n - 1):
        sn = (2 * k + 3) * s1 / x - s0
        s0 = s1
        s1 = sn
        if math.isinf(sn):
            return sn
    return sn


@jit
def spherical_jn(n, x):
    """Spherical Bessel function of the first kind j_n(x), integer n >= 0."""
    if x != x:
        return x
    if n < 0:
        return NAN
    if x == INF or x == -INF:
        return 0.0
    if x == 0.0:
        return 1.0 if n == 0 else 0.0
    if x < 0.0:
        v = _sph_jn_pos(n, -x)
        return -v if n % 2 else v
    return _sph_jn_pos(n, x)


@jit
def spherical_jn_d(n, x):
    """Derivative of j_n (scipy's spherical_jn(..., derivative=True))."""
    if n == 0:
        return -spherical_jn(1, x)
    if x == 0.0:
        return 1.0 / 3.0 if n == 1 else 0.0
    if n > 0 and abs(x) < SPH_SERIES_MAX:
        # j_(n-1) - (n+1) j_n / x cancels and overflows as x -> 0; j_n'(-x) = (-1)^(n+1) j_n'(x)
        v = _sph_jn_series(n, abs(x), True)
        return -v if x < 0.0 and n % 2 == 0 else v
    return spherical_jn(n - 1, x) - (n + 1) * spherical_jn(n, x) / x

