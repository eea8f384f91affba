"""Gamma family: gammaln, digamma, polygamma, Hurwitz and Riemann zeta, and the
derivative kernels that the autodiff rules of zeta and gammainc need.

Sources: Cephes ``gamma.c``, ``psi.c`` (with Boost's rational approximation on [1, 2]),
``zeta.c``, ``unity.c`` (S. L. Moshier, via SciPy's xsf) and xsf's ``digamma.h``
(J. Wilson; Taylor series at the negative root). The incomplete gamma functions live in
:mod:`.igam`.
"""
import math

import numpy as np

from .common import (
    EULER,
    INF,
    LOGPI,
    MACHEP,
    NAN,
    cospi,
    gamma,
    jit,
    lgam,
    polevl,
    sinpi,
)

PSI_A = np.array([8.33333333333333333333e-2, -2.10927960927960927961e-2,
                  7.57575757575757575758e-3, -4.16666666666666666667e-3,
                  3.96825396825396825397e-3, -8.33333333333333333333e-3,
                  8.33333333333333333333e-2])
PSI_P = np.array([-0.0020713321167745952, -0.045251321448739056, -0.28919126444774784,
                  -0.65031853770896507, -0.32555031186804491, 0.25479851061131551])
PSI_Q = np.array([-0.55789841321675513e-6, 0.0021284987017821144, 0.054151797245674225,
                  0.43593529692665969, 1.4606242909763515, 2.0767117023730469, 1.0])
PSI_Y = 0.99558162689208984
PSI_ROOT1 = 1569415565.0 / 1073741824.0
PSI_ROOT2 = (381566830.0 / 1073741824.0) / 1073741824.0
PSI_ROOT3 = 0.9016312093258695918615325266959189453125e-19

# (2k)! / B_2k for the Euler-Maclaurin sum (Cephes zeta.c)
ZETA_A = np.array([12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
                   7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
                   -4.5979787224074726105e15, 1.8152105401943546773e17,
                   -7.1661652561756670113e18])


@jit
def gammaln(x):
    return lgam(x)


@jit
def _psi_1_2(x):
    g = x - PSI_ROOT1
    g -= PSI_ROOT2
    g -= PSI_ROOT3
    r = polevl(x - 1.0, PSI_P) / polevl(x - 1.0, PSI_Q)
    return g * PSI_Y + g * r


@jit
def psi(x):
    """Cephes psi (digamma) with Boost's rational approximation on [1, 2]."""
    y = 0.0
    if x != x:
        return x
    if x == INF:
        return x
    if x == -INF:
        return NAN
    if x == 0.0:
        return math.copysign(INF, -x)
    if x < 0.0:
        r = x - np.trunc(x)
        if r == 0.0:
            return NAN
        y = -math.pi / math.tan(math.pi * r)
        x = 1.0 - x
    if x <= 10.0 and x == np.floor(x):
        n = int(x)
        for i in range(1, n):
            y += 1.0 / i
        return y - EULER
    if x < 1.0:
        y -= 1.0 / x
        x += 1.0
    elif x < 10.0:
        while x > 2.0:
            x -= 1.0
            y += 1.0 / x
    if 1.0 <= x <= 2.0:
        return y + _psi_1_2(x)
    if x < 1.0e17:
        z = 1.0 / (x * x)
        yy = z * polevl(z, PSI_A)
    else:
        yy = 0.0
    return y + (math.log(x) - (0.5 / x) - yy)


@jit
def zeta(x, q):
    """Hurwitz zeta function sum_k (k + q)**-x (Cephes zeta, Euler-Maclaurin)."""
    if x == 1.0:
        return INF
    if x < 1.0 or q != q:
        return NAN
    if q <= 0.0:
        if q == np.floor(q):
            return INF   # a pole of every term, for any x (NaN too), as Cephes
        if x != np.floor(x):
            return NAN
    if x != x:
        return NAN
    if q > 1e8:
        return (1.0 / (x - 1.0) + 1.0 / (2.0 * q)) * q ** (1.0 - x)
    s = q ** -x
    a = q
    i = 0
    b = 0.0
    while i < 9 or a <= 9.0:
        i += 1
        a += 1.0
        b = a ** -x
        s += b
        if abs(b / s) < MACHEP:
            return s
    w = a
    s += b * w / (x - 1.0)
    s -= 0.5 * b
    a = 1.0
    k = 0.0
    for j in range(12):
        a *= x + k
        b /= w
        t = a * b / ZETA_A[j]
        s = s + t
        t = abs(t / s)
        if t < MACHEP:
            break
        k += 1.0
        a *= x + k
        b /= w
        k += 1.0
    return s


DIGAMMA_NEGROOT = -0.504083008264455409
DIGAMMA_NEGROOTVAL = 7.2897639029768949e-17


@jit
def digamma(x):
    """xsf digamma: a Taylor series at the negative root, Cephes psi elsewhere."""
    if abs(x - DIGAMMA_NEGROOT) < 0.3:
        res = DIGAMMA_NEGROOTVAL
        coeff = -1.0
        z = x - DIGAMMA_NEGROOT
        for n in range(1, 100):
            coeff *= -z
            term = coeff * zeta(n + 1.0, DIGAMMA_NEGROOT)
            res += term
            if abs(term) < 2.220446049250313e-16 * abs(res):
                break
        return res
    return psi(x)


@jit
def polygamma(n, x):
    """(-1)**(n+1) n! zeta(n+1, x), digamma for n == 0 (scipy.special.polygamma)."""
    if n == 0.0:
        return digamma(x)
    if n != np.floor(n):
        return NAN
    # (-1)**(n+1) as SciPy's float power: n + 1 of 2**53 or more (inf included) is even
    m = n + 1.0
    sign = -1.0 if abs(m) < 9007199254740992.0 and m % 2.0 != 0.0 else 1.0
    return sign * gamma(n + 1.0) * zeta(n + 1.0, x)


# Taylor coefficients k = 1, 2, ... of the entire function E(x) = zeta(x) - 1/(x - 1) about
# x = 0 (ZETA_E0) and about x = -1 (ZETA_EM1), in ascending order; computed once with mpmath
# at 60 digits as mpmath.zeta(c, 1, k) / k! - (-1)**k / (c - 1)**(k + 1).
ZETA_E0 = np.array([
    0.08106146679532726, -0.0031782279542924255, -0.000785194477042408,
    0.00012070049942883505, -1.940896320456038e-06, -1.3011460139596242e-06,
    1.6861582638922007e-07, -5.764675979949394e-09, -9.110164892314166e-10,
    1.4970075941901138e-10, -9.406895665666177e-12, -4.092582630415831e-14,
    6.539904805891015e-14, -6.54396874989192e-15, 3.0124248713667866e-16,
    3.988894706311055e-18, -1.858215043378503e-18, 1.602885638529224e-19,
    -7.115582739216006e-21, 7.930311915096389e-24, 2.6558642186988446e-23,
    -2.39515544093665e-24, 1.180327883917824e-25])
ZETA_EM1 = np.array([
    0.08457885629954907, -0.00010221205480019465, -0.0012552541532953822,
    0.0001047319651240807, 9.573005874646384e-06, -2.5307303371308865e-06,
    1.610372221054161e-07, 1.0597231546159615e-08, -2.8551298487503214e-09,
    2.2439197882800687e-10, -1.0675090865420094e-12, -1.601595899899408e-12,
    1.8042844713174008e-13, -8.750776166744663e-15, -1.7188571889417757e-16,
    6.628683374968579e-17, -5.7347441871319454e-18, 2.3999079558716037e-19])
# (pi - fl(pi)) / fl(pi): pi**y = fl(pi)**y * (1 + y * PI_REL_LO) to first order
PI_REL_LO = 3.8981718325193755e-17


@jit
def _horner_up(c, t):
    s = c[c.shape[0] - 1]
    for i in range(c.shape[0] - 2, -1, -1):
        s = s * t + c[i]
    return s


@jit
def riemann_zeta(x):
    """Riemann zeta: Hurwitz at q=1 for x > 1, Taylor series of the regular part about 0
    and -1 for -1.25 <= x < 1, the functional equation below."""
    if x != x:
        return x
    if x == 1.0:
        return INF
    if x == -INF:
        return NAN
    if x >= 1.0:
        return zeta(x, 1.0)
    # zeta(x) = zeta(c) + (x - c) [-1/((x - 1)(c - 1)) + sum_k>=1 E_k (x - c)**(k-1)], with
    # the pole 1/(x - 1) subtracted exactly: no cancellation between large terms, and the
    # small correction to zeta(c) keeps its relative accuracy as x -> c (x - c is exact)
    if x >= -0.5:
        return -0.5 + x * (1.0 / (x - 1.0) + _horner_up(ZETA_E0, x))
    if x >= -1.25:
        t = x + 1.0
        return -0.08333333333333333 + t * (0.5 / (x - 1.0) + _horner_up(ZETA_EM1, t))
    # zeta(x) = 2^x pi^(x-1) sin(pi x / 2) Gamma(1-x) zeta(1-x)  (DLMF 25.4.1)
    s = sinpi(0.5 * x)
    if s == 0.0:
        return 0.0
    if x > -170.0:
        f = math.pow(2.0, x) * math.pow(math.pi, x - 1.0) * (1.0 + (x - 1.0) * PI_REL_LO)
        return s * f * gamma(1.0 - x) * zeta(1.0 - x, 1.0)
    y = 1.0 - x
    if x > -300.0:
        # Gamma(y) overflows, zeta(x) not (up to x ~ -260.5): Legendre's duplication
        # Gamma(y) = Gamma(y/2) Gamma(y/2 + 1/2) 2^(y-1) / sqrt(pi) cancels 2^x, leaving
        # zeta(x) = sin(pi x/2) pi^(x - 3/2) Gamma(y/2) Gamma(y/2 + 1/2) zeta(y), multiplied
        # in an order that overflows only where the result does
        f = math.pow(math.pi, x - 1.5) * (1.0 + (x - 1.5) * PI_REL_LO)
        return ((f * gamma(0.5 * y)) * (s * zeta(y, 1.0))) * gamma(0.5 * y + 0.5)
    lg = x * math.log(2.0) + (x - 1.0) * LOGPI + lgam(y)
    return s * math.exp(lg) * zeta(y, 1.0)


# -- Taylor-mode ("jet") arithmetic: arrays c[0..K] of d^m f / m!  --------------------------
@jit
def jet_mul(a, b):
    n = a.shape[0]
    c = np.zeros(n)
    for i in range(n):
        for j in range(n - i):
            c[i + j] += a[i] * b[j]
    return c


@jit
def jet_div(a, b):
    n = a.shape[0]
    c = np.zeros(n)
    for m in range(n):
        s = a[m]
        for j in range(1, m + 1):
            s -= b[j] * c[m - j]
        c[m] = s / b[0]
    return c


@jit
def jet_exp(u):
    n = u.shape[0]
    e = np.zeros(n)
    e[0] = math.exp(u[0])
    for m in range(1, n):
        s = 0.0
        for j in range(1, m + 1):
            s += j * u[j] * e[m - j]
        e[m] = s / m
    return e


@jit
def jet_pow_const(w, s, n):
    # w**-s as a jet in s: w**-s (-log w)**m / m!
    c = np.empty(n)
    lw = -math.log(w)
    c[0] = w ** -s
    for m in range(1, n):
        c[m] = c[m - 1] * lw / m
    return c


@jit
def _zeta_jet(n, s, q):
    """Taylor coefficients ``c[m] = (d/ds)**m zeta(s, q) / m!``, ``m < n``, by Taylor-mode
    differentiation of the Euler-Maclaurin formula
    zeta(s, q) = sum_{j<N} (j+q)^-s + w^(1-s)/(s-1) + w^-s/2
                 + sum_i B_2i/(2i)! (s)_{2i-1} w^(-s-2i+1),   w = N + q,
    with N large enough that the correction terms decrease geometrically. Where the terms
    of the sum die out first (large s), the sum alone is returned."""
    acc = np.zeros(n)
    w0 = max(10.0, 0.5 * (abs(s) + 24.0))
    j = 0
    while q + j < w0:
        term = jet_pow_const(q + j, s, n)
        acc += term
        j += 1
        if j > 1:
            small = True
            for m in range(n):
                if abs(term[m]) > 1e-18 * abs(acc[m]):
                    small = False
                    break
            if small:
                # the terms fall off faster than geometrically from here on (large s):
                # the rest of the sum, and with it the Euler-Maclaurin tail, is negligible
                return acc
    w = q + j
    ws = jet_pow_const(w, s, n)               # w^-s
    inv = np.empty(n)                         # 1/(s-1) as a jet
    for m in range(n):
        inv[m] = (-1.0) ** m / (s - 1.0) ** (m + 1)
    acc += jet_mul(ws * w, inv) + 0.5 * ws
    poch = np.zeros(n)                        # (s)_{2i-1} as a jet
    poch[0] = 1.0
    lin = np.zeros(n)
    if n > 1:
        lin[1] = 1.0
    wp = ws / w                               # w^(-s-2i+1), starting at i=1
    for i in range(12):
        lin[0] = s + 2 * i
        poch = jet_mul(poch, lin)
        if i > 0:
            lin[0] = s + 2 * i - 1
            poch = jet_mul(poch, lin)
            wp = wp / (w * w)
        term = jet_mul(poch, wp) / ZETA_A[i]
        acc += term
        if np.max(np.abs(term)) < 1e-17 * np.max(np.abs(acc)):
            break
    return acc


@jit
def zeta_ds(k, s, q):
    """k-th derivative of the Hurwitz zeta function in s (Euler-Maclaurin, ``_zeta_jet``)."""
    kk = int(k)
    if kk < 0 or s != s or q != q or q <= 0.0:
        return NAN
    if s == 1.0:
        return NAN
    return _zeta_jet(kk + 1, s, q)[kk] * math.gamma(kk + 1.0)


LOG2PI = 1.8378770664093454836   # log(2 pi)


@jit
def _taylor_ds(k, t, coef):
    # k-th derivative (k >= 1) of sum_{j>=1} coef[j-1] t**j
    n = coef.shape[0]
    if k > n:
        return 0.0
    acc = 0.0
    for j in range(n, k - 1, -1):
        f = 1.0                               # j! / (j-k)!
        for i in range(j - k + 1, j + 1):
            f *= i
        acc = acc * t + coef[j - 1] * f
    return acc


@jit
def _riemann_fe_ds(kk, s):
    # k-th derivative, s < -1.25, of zeta(s) = F(s) sin(pi s/2) zeta(1-s) (DLMF 25.4.1),
    # F = 2^s pi^(s-1) Gamma(1-s), as a product of jets (Taylor coefficients in s):
    # F(s + h) / F(s) = exp(u(h)), u_1 = log(2 pi) - psi(1-s), u_m = zeta(m, 1-s) / m
    # (m >= 2); the sine's (pi/2)^m sin(pi s/2 + m pi/2) / m!, with exactly reduced
    # arguments, so the trivial zeros need no special case; and zeta(1-s)'s from
    # Euler-Maclaurin (1 - s > 2.25). The product's k-th coefficient is scaled by F(s),
    # computed as the value does: directly above -170, by the duplication formula to -300,
    # through logarithms below (inf once the derivative overflows, as the value does a
    # little further out).
    n = kk + 1
    y = 1.0 - s
    u = np.zeros(n)
    if n > 1:
        u[1] = LOG2PI - psi(y)
    for m in range(2, n):
        u[m] = zeta(float(m), y) / m
    e = jet_exp(u)
    sn = np.empty(n)
    sp = sinpi(0.5 * s)
    cp = cospi(0.5 * s)
    f = 1.0
    for m in range(n):
        r = m % 4
        if r == 0:
            sn[m] = f * sp
        elif r == 1:
            sn[m] = f * cp
        elif r == 2:
            sn[m] = -f * sp
        else:
            sn[m] = -f * cp
        f *= 0.5 * math.pi / (m + 1)
    z = _zeta_jet(n, y, 1.0)
    z[0] = zeta(y, 1.0)
    for m in range(1, n, 2):
        z[m] = -z[m]                          # d/ds = -d/dy
    p = jet_mul(jet_mul(e, sn), z)[kk] * math.gamma(kk + 1.0)
    if p == 0.0 or p != p:
        return p
    if s > -170.0:
        f = math.pow(2.0, s) * math.pow(math.pi, s - 1.0) * (1.0 + (s - 1.0) * PI_REL_LO)
        return f * gamma(y) * p
    if s > -300.0:
        # Legendre's duplication, as riemann_zeta does
        f = math.pow(math.pi, s - 1.5) * (1.0 + (s - 1.5) * PI_REL_LO)
        return ((f * gamma(0.5 * y)) * p) * gamma(0.5 * y + 0.5)
    if s < -1e6:
        return math.copysign(INF, p)
    lg = s * math.log(2.0) + (s - 1.0) * LOGPI + lgam(y) + math.log(abs(p))
    return math.copysign(math.exp(lg), p)


@jit
def riemann_zeta_ds(k, s):
    """k-th derivative of the Riemann zeta function, for every real s != 1.

    The value's own pieces, differentiated: Euler-Maclaurin (``zeta_ds`` at q = 1) for
    s > 1, the Taylor series of zeta(s) - 1/(s-1) about 0 and -1 on [-1.25, 1) with the
    pole's derivative added exactly, and Taylor-mode differentiation of the functional
    equation below (``_riemann_fe_ds``)."""
    kk = int(k)
    if kk < 0 or s != s or s == -INF:
        return NAN
    if kk == 0:
        return riemann_zeta(s)
    if s == 1.0:
        # the pole: -inf from both sides for odd k, +-inf for even k
        return -INF if kk % 2 == 1 else NAN
    if s == INF:
        return 0.0
    if s > 1.0:
        return zeta_ds(kk, s, 1.0)
    # the pole's k-th derivative (-1)^k k! / (s-1)^(k+1), for s < 1
    pole = -math.gamma(kk + 1.0) / (1.0 - s) ** (kk + 1)
    if s >= -0.5:
        return pole + _taylor_ds(kk, s, ZETA_E0)
    if s >= -1.25:
        return pole + _taylor_ds(kk, s + 1.0, ZETA_EM1)
    return _riemann_fe_ds(kk, s)
