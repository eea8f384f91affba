"""Regularized incomplete gamma functions and their derivatives in ``a``.

``gammainc``/``gammaincc`` port Cephes ``igam.c`` with SciPy's 2016 improvements (Temme's
uniform asymptotic expansion for a ~ x, DLMF 8.12; the series DLMF 8.7.3 for small x; the
Lanczos-based prefactor of Boost's ``igamma``), as in xsf's ``cephes/igam.h``.

Derivatives in ``a`` (the autodiff rules need them; neither SciPy nor torch provide them) are
computed by Taylor-mode ("jet") differentiation of the same two expansions:

- for x <= a + 1 the power series P = x^a e^-x / Gamma(a+1) sum_n x^n / ((a+1)...(a+n))
  (DLMF 8.11.4), differentiated term by term;
- otherwise the Legendre continued fraction of Gamma(a, x) (DLMF 8.9.2) evaluated by the
  modified Lentz algorithm in jet arithmetic (R. J. Moore, "Algorithm AS 187: Derivatives of
  the incomplete gamma integral", Appl. Statist. 31 (1982) differentiates the same series and
  continued fraction).

The prefactor's jet uses log Gamma's Taylor coefficients, polygamma(m, a) / m!.
"""
import math

import numpy as np

from ._tables import IGAM_D
from .common import (
    INF,
    LANCZOS_G,
    MACHEP,
    MAXLOG,
    NAN,
    jit,
    lanczos_sum_expg_scaled,
    lgam,
    log1pmx,
    polevl,
)
from .erf import erfc
from .gamma import jet_div, jet_exp, jet_mul, polygamma, zeta

IGAM_SMALL = 20.0
IGAM_LARGE = 200.0
IGAM_SMALLRATIO = 0.3
IGAM_LARGERATIO = 4.5
IGAM_BIG = 4.503599627370496e15
IGAM_BIGINV = 2.22044604925031308085e-16
MAXITER = 2000

EXPM1_P = np.array([1.2617719307481059087798e-4, 3.0299440770744196129956e-2,
                    9.9999999999999999991025e-1])
EXPM1_Q = np.array([3.0019850513866445504159e-6, 2.5244834034968410419224e-3,
                    2.2726554820815502876593e-1, 2.0000000000000000000897e0])


@jit
def cephes_expm1(x):
    if not math.isfinite(x):
        if x != x or x > 0:
            return x
        return -1.0
    if x < -0.5 or x > 0.5:
        return math.exp(x) - 1.0
    xx = x * x
    r = x * polevl(xx, EXPM1_P)
    r = r / (polevl(xx, EXPM1_Q) - r)
    return r + r


@jit
def _lgam1p_taylor(x):
    if x == 0.0:
        return 0.0
    res = -0.577215664901532860606512090082402431 * x
    xfac = -x
    for n in range(2, 42):
        xfac *= -x
        coeff = zeta(float(n), 1.0) * xfac / n
        res += coeff
        if abs(coeff) < MACHEP * abs(res):
            break
    return res


@jit
def lgam1p(x):
    if abs(x) <= 0.5:
        return _lgam1p_taylor(x)
    if abs(x - 1.0) < 0.5:
        return math.log(x) + _lgam1p_taylor(x - 1.0)
    return lgam(x + 1.0)


@jit
def igam_fac(a, x):
    """x^a e^-x / Gamma(a), with the Lanczos form near a ~ x."""
    if abs(a - x) > 0.4 * abs(a):
        ax = a * math.log(x) - x - lgam(a)
        if ax < -MAXLOG:
            return 0.0
        return math.exp(ax)
    fac = a + LANCZOS_G - 0.5
    res = math.sqrt(fac / math.exp(1.0)) / lanczos_sum_expg_scaled(a)
    if a < 200 and x < 200:
        res *= math.exp(a - x) * (x / fac) ** a
    else:
        num = x - a - LANCZOS_G + 0.5
        res *= math.exp(a * log1pmx(num / fac) + x * (0.5 - LANCZOS_G) / fac)
    return res


@jit
def igamc_continued_fraction(a, x):
    ax = igam_fac(a, x)
    if ax == 0.0:
        return 0.0
    y = 1.0 - a
    z = x + y + 1.0
    c = 0.0
    pkm2 = 1.0
    qkm2 = x
    pkm1 = x + 1.0
    qkm1 = z * x
    ans = pkm1 / qkm1
    for _ in range(MAXITER):
        c += 1.0
        y += 1.0
        z += 2.0
        yc = y * c
        pk = pkm1 * z - pkm2 * yc
        qk = qkm1 * z - qkm2 * yc
        if qk != 0:
            r = pk / qk
            t = abs((ans - r) / r)
            ans = r
        else:
            t = 1.0
        pkm2 = pkm1
        pkm1 = pk
        qkm2 = qkm1
        qkm1 = qk
        if abs(pk) > IGAM_BIG:
            pkm2 *= IGAM_BIGINV
            pkm1 *= IGAM_BIGINV
            qkm2 *= IGAM_BIGINV
            qkm1 *= IGAM_BIGINV
        if t <= MACHEP:
            break
    return ans * ax


@jit
def igam_series(a, x):
    ax = igam_fac(a, x)
    if ax == 0.0:
        return 0.0
    r = a
    c = 1.0
    ans = 1.0
    for _ in range(MAXITER):
        r += 1.0
        c *= x / r
        ans += c
        if c <= MACHEP * ans:
            break
    return ans * ax / a


@jit
def igamc_series(a, x):
    fac = 1.0
    s = 0.0
    for n in range(1, MAXITER):
        fac *= -x / n
        term = fac / (a + n)
        s += term
        if abs(term) <= MACHEP * abs(s):
            break
    logx = math.log(x)
    term = -cephes_expm1(a * logx - lgam1p(a))
    return term - math.exp(a * logx - lgam(a)) * s


@jit
def asymptotic_series(a, x, igam_sign):
    # igam_sign = -1 for igam, +1 for igamc
    K, N = IGAM_D.shape
    etapow = np.zeros(N)
    etapow[0] = 1.0
    maxpow = 0
    lam = x / a
    sigma = (x - a) / a
    if lam > 1:
        eta = math.sqrt(-2.0 * log1pmx(sigma))
    elif lam < 1:
        eta = -math.sqrt(-2.0 * log1pmx(sigma))
    else:
        eta = 0.0
    res = 0.5 * erfc(igam_sign * eta * math.sqrt(a / 2.0))
    s = 0.0
    afac = 1.0
    absoldterm = INF
    for k in range(K):
        ck = IGAM_D[k, 0]
        for n in range(1, N):
            if n > maxpow:
                etapow[n] = eta * etapow[n - 1]
                maxpow += 1
            ckterm = IGAM_D[k, n] * etapow[n]
            ck += ckterm
            if abs(ckterm) < MACHEP * abs(ck):
                break
        term = ck * afac
        absterm = abs(term)
        if absterm > absoldterm:
            break
        s += term
        if absterm < MACHEP * abs(s):
            break
        absoldterm = absterm
        afac /= a
    res += igam_sign * math.exp(-0.5 * a * eta * eta) * s / math.sqrt(2.0 * math.pi * a)
    return res


@jit
def gammainc(a, x):
    """Regularized lower incomplete gamma function P(a, x) (Cephes igam)."""
    if a != a or x != x:
        return NAN
    if x < 0 or a < 0:
        return NAN
    if a == 0:
        return 1.0 if x > 0 else NAN
    if x == 0:
        return 0.0
    if math.isinf(a):
        return NAN if math.isinf(x) else 0.0
    if math.isinf(x):
        return 1.0
    absxma_a = abs(x - a) / a
    if IGAM_SMALL < a < IGAM_LARGE and absxma_a < IGAM_SMALLRATIO:
        return asymptotic_series(a, x, -1.0)
    if a > IGAM_LARGE and absxma_a < IGAM_LARGERATIO / math.sqrt(a):
        return asymptotic_series(a, x, -1.0)
    if x > 1.0 and x > a:
        return 1.0 - gammaincc(a, x)
    return igam_series(a, x)


@jit
def gammaincc(a, x):
    """Regularized upper incomplete gamma function Q(a, x) (Cephes igamc)."""
    if a != a or x != x:
        return NAN
    if x < 0 or a < 0:
        return NAN
    if a == 0:
        return 0.0 if x > 0 else NAN
    if x == 0:
        return 1.0
    if math.isinf(a):
        return NAN if math.isinf(x) else 1.0
    if math.isinf(x):
        return 0.0
    absxma_a = abs(x - a) / a
    if IGAM_SMALL < a < IGAM_LARGE and absxma_a < IGAM_SMALLRATIO:
        return asymptotic_series(a, x, 1.0)
    if a > IGAM_LARGE and absxma_a < IGAM_LARGERATIO / math.sqrt(a):
        return asymptotic_series(a, x, 1.0)
    if x > 1.1:
        if x < a:
            return 1.0 - igam_series(a, x)
        return igamc_continued_fraction(a, x)
    if x <= 0.5:
        if -0.4 / math.log(x) < a:
            return 1.0 - igam_series(a, x)
        return igamc_series(a, x)
    if x * 1.1 < a:
        return 1.0 - igam_series(a, x)
    return igamc_series(a, x)


# -- derivatives in a ----------------------------------------------------------------------
@jit
def _lgam_jet(a, n):
    c = np.empty(n)
    c[0] = lgam(a)
    fact = 1.0
    for m in range(1, n):
        fact *= m
        c[m] = polygamma(m - 1.0, a) / fact
    return c


@jit
def _prefactor_scale(u, a, x, div):
    """For a ~ x, where exp(a log x - x - lgam(a)) has the rounding error of its
    ~a log(x)-sized exponent (2e-10 relative at a = 1e5), ``igam_fac``'s Lanczos form of
    x^a e^-x / Gamma(a), divided by ``div``, is returned and the jet ``u`` (whose value
    ``u[0]`` is that prefactor's log) is shifted to ``u[0] = 0``; elsewhere 1, ``u`` kept."""
    if abs(a - x) > 0.4 * abs(a):
        return 1.0
    u[0] = 0.0
    return igam_fac(a, x) / div


@jit
def gammainc_da(k, a, x):
    """k-th derivative of P(a, x) in a (k >= 1); -gammaincc's. NaN off the domain."""
    kk = int(k)
    if kk < 1 or a != a or x != x or a <= 0.0 or x < 0.0 or math.isinf(a) or math.isinf(x):
        return NAN
    if x == 0.0:
        return 0.0
    n = kk + 1
    lin = np.zeros(n)
    lin[0] = a
    lin[1] = 1.0
    if x <= a + 1.0:
        # prefactor x^a e^-x / Gamma(a+1), series sum_n x^n / ((a+1)...(a+n))
        u = -_lgam_jet(a + 1.0, n)
        u[0] += a * math.log(x) - x
        u[1] += math.log(x)
        scale = _prefactor_scale(u, a, x, a)
        term = np.zeros(n)
        term[0] = 1.0
        acc = term.copy()
        for i in range(1, 20000):
            lin[0] = a + i
            term = jet_div(term * x, lin)
            acc += term
            if np.max(np.abs(term)) <= 1e-17 * np.max(np.abs(acc)):
                break
        res = jet_mul(jet_exp(u), acc)
        return scale * res[kk] * math.gamma(kk + 1.0)
    # Gamma(a, x) = x^a e^-x / (b0 + a1/(b1 + a2/(b2 + ...))), b_j = x + 2j + 1 - a,
    # a_j = -j (j - a); modified Lentz in jet arithmetic.
    tiny = 1e-300
    f = np.zeros(n)
    f[0] = x + 1.0 - a
    f[1] = -1.0
    if f[0] == 0.0:
        f[0] = tiny
    c = f.copy()
    d = np.zeros(n)
    bj = np.zeros(n)
    aj = np.zeros(n)
    bj[1] = -1.0
    for j in range(1, 20000):
        aj[0] = -j * (j - a)
        aj[1] = j
        bj[0] = x + 2.0 * j + 1.0 - a
        d = bj + jet_mul(aj, d)
        if d[0] == 0.0:
            d[0] = tiny
        c = bj + jet_div(aj, c)
        if c[0] == 0.0:
            c[0] = tiny
        one = np.zeros(n)
        one[0] = 1.0
        d = jet_div(one, d)
        delta = jet_mul(c, d)
        f = jet_mul(f, delta)
        delta[0] -= 1.0
        if np.max(np.abs(delta)) < 1e-16:
            break
    u = -_lgam_jet(a, n)
    u[0] += a * math.log(x) - x
    u[1] += math.log(x)
    scale = _prefactor_scale(u, a, x, 1.0)
    q = jet_div(jet_exp(u), f)
    return -scale * q[kk] * math.gamma(kk + 1.0)


@jit
def igam_density_da(k, a, x):
    """k-th derivative in a of x^(a-1) e^-x / Gamma(a) (= dP/dx)."""
    kk = int(k)
    if kk < 0 or a != a or x != x or a <= 0.0 or x < 0.0:
        return NAN
    if x == 0.0:
        if kk == 0:
            return INF if a < 1.0 else (1.0 if a == 1.0 else 0.0)
        return NAN if a <= 1.0 else 0.0
    n = kk + 1
    u = -_lgam_jet(a, n)
    u[0] += (a - 1.0) * math.log(x) - x
    if n > 1:
        u[1] += math.log(x)
    scale = _prefactor_scale(u, a, x, x)
    return scale * jet_exp(u)[kk] * math.gamma(kk + 1.0)
