"""Orthogonal polynomials of integer degree, by their three-term recurrences.

The integer-degree algorithms of SciPy's ``orthogonal_eval`` (Chebyshev T/U by Clenshaw-type
recurrence with T_-n = T_n and U_-n-2 = -U_n; Legendre by the difference recurrence, with
the hypergeometric power series for |x| < 1e-5; probabilists' Hermite by backward
recurrence and physicists' Hermite through it; Laguerre by the recurrence of its
differences). Gegenbauer, generalized Laguerre and Chebyshev V/W (third and fourth kinds;
J. C. Mason & D. C. Handscomb, "Chebyshev Polynomials", 2003, ch. 1.2) use their standard
three-term recurrences (DLMF 18.9.1). A non-integer degree gives NaN.

Overflow: the recurrences are linear, so their state is rescaled by 2**-400 (exactly)
whenever it passes 2**400 and the result scaled back at the end; a value beyond the double
range then comes out as the correctly signed infinity (not inf - inf = NaN), and a finite one
is unchanged. For |x| >= 2**600 (and x = +-inf) the leading term decides: degree 0 and 1 are
evaluated exactly, any higher degree overflows, with the sign of the leading term.
"""
import math

import numpy as np

from .common import INF, NAN, dd_mul, dd_sub, jit, lgam, two_sum

POLY_BIG = 2.0 ** 400      # rescale the recurrence state above this ...
POLY_SMALL = 2.0 ** -400   # ... by this factor (exact), counting the rescalings
POLY_HUGE = 2.0 ** 600     # |x| from here on: the leading term alone (n >= 2 overflows)
# From this degree on, Chebyshev polynomials are evaluated in closed form (T_n = cos(n t) with
# x = cos t, cosh and sinh beyond [-1, 1], as torch does from n = 6): the recurrence costs a
# millisecond here per 2**20 steps, and eval_chebyt(1e12, 0.3) would run for hours
# (uninterruptibly, in a jitted loop). The closed form's error is about n eps (1e-10 at
# 2**20, measured against mpmath; the recurrence's was 1e-13-1e-8 there).
CHEB_CLOSED_FROM = 2 ** 20


@jit
def _cheb_closed(k, x, kind):
    """T_k (kind 0), U_k (1), V_k (2) or W_k (3) at x for a large degree k >= 0, in closed
    form: x = cos(t) inside (-1, 1), x = +-cosh(t) outside, the endpoints exactly."""
    if x != x:
        return NAN
    if x == 1.0 or x == -1.0:
        # at 1: T = V = 1, U = k + 1, W = 2k + 1; at -1 the same times (-1)^k with V and W
        # swapped
        if kind == 0:
            r = 1.0
        elif kind == 1:
            r = k + 1.0
        else:
            r = 1.0 if (kind == 2) == (x > 0.0) else 2.0 * k + 1.0
        return -r if x < 0.0 and k % 2 == 1 else r
    if abs(x) < 1.0:
        t = math.acos(x)
        if kind == 0:
            return math.cos(k * t)
        if kind == 1:
            return math.sin((k + 1.0) * t) / math.sin(t)
        if kind == 2:
            return math.cos((k + 0.5) * t) / math.cos(t / 2.0)
        return math.sin((k + 0.5) * t) / math.sin(t / 2.0)
    # |x| > 1: every term grows; the result keeps the sign its leading behaviour gives
    t = math.acosh(abs(x))
    neg = x < 0.0
    odd = k % 2 == 1
    if kind == 0:
        r = math.cosh(k * t) if k * t < 710.0 else INF
        return -r if neg and odd else r
    if kind == 1:
        r = math.sinh((k + 1.0) * t) / math.sinh(t) if (k + 1.0) * t < 710.0 else INF
        return -r if neg and odd else r
    # V and W: V_k(-x) = (-1)^k W_k(x); for x > 1, V_k = cosh((k+1/2) t) / cosh(t/2) and
    # W_k = sinh((k+1/2) t) / sinh(t/2)
    kind_pos = kind if not neg else 5 - kind
    if (k + 0.5) * t >= 710.0:
        r = INF
    elif kind_pos == 2:
        r = math.cosh((k + 0.5) * t) / math.cosh(t / 2.0)
    else:
        r = math.sinh((k + 0.5) * t) / math.sinh(t / 2.0)
    return -r if neg and odd else r


@jit
def _unscale(r, c):
    # r * 2**(400 c), overflowing to a signed inf
    for _ in range(c):
        r *= POLY_BIG
    return r


@jit
def _huge(n, x):
    # +-inf with the sign of x**n (a polynomial of degree n >= 2 with a positive leading
    # coefficient, at |x| >= POLY_HUGE)
    return -INF if (x < 0.0 and n % 2 == 1) else INF


@jit
def _as_int(n):
    # integer degree from a float, -1 sentinel flag for non-integers
    if n != n or n != np.floor(n) or abs(n) > 9.0e15:
        return 0, False
    return int(n), True


@jit
def chebyt_l(k, x):
    if k < 0:
        k = -k
    if abs(x) >= POLY_HUGE:
        if k <= 1:
            return x if k == 1 else 1.0
        return _huge(k, x)
    if k >= CHEB_CLOSED_FROM:
        return _cheb_closed(k, x, 0)
    b2 = 0.0
    b1 = -1.0
    b0 = 0.0
    x = 2.0 * x
    c = 0
    for _ in range(k + 1):
        b2 = b1
        b1 = b0
        b0 = x * b1 - b2
        while POLY_BIG < abs(b0) < INF:
            b0 *= POLY_SMALL
            b1 *= POLY_SMALL
            b2 *= POLY_SMALL
            c += 1
        if c >= 3:
            # |2x| > 2: the terms grow with the degree, so past 2**1200 the result is
            # +-inf whatever degree remains (a huge degree would loop for minutes)
            return _huge(k, x)
    return _unscale((b0 - b2) / 2.0, c)


@jit
def chebyu_l(k, x):
    if k == -1:
        return 0.0
    sign = 1.0
    if k < -1:
        k = -k - 2
        sign = -1.0
    if abs(x) >= POLY_HUGE:
        if k <= 1:
            return sign * 2.0 * x if k == 1 else sign
        return sign * _huge(k, x)
    if k >= CHEB_CLOSED_FROM:
        return sign * _cheb_closed(k, x, 1)
    b2 = 0.0
    b1 = -1.0
    b0 = 0.0
    x = 2.0 * x
    c = 0
    for _ in range(k + 1):
        b2 = b1
        b1 = b0
        b0 = x * b1 - b2
        while POLY_BIG < abs(b0) < INF:
            b0 *= POLY_SMALL
            b1 *= POLY_SMALL
            c += 1
        if c >= 3:
            return sign * _huge(k, x)      # as chebyt_l: growing terms, the result overflows
    return _unscale(b0 * sign, c)


@jit
def legendre_l(n, x):
    if n < 0:
        n = -n - 1
    if n == 0:
        return 1.0
    if n == 1:
        return x
    if abs(x) >= POLY_HUGE:
        return _huge(n, x)
    if abs(x) < 1e-5:
        # power series (functions.wolfram.com/Polynomials/LegendreP/02/)
        # leading term P_n(0) = (-1)^a (2a-1)!!/(2a)!! (n = 2a), or
        # P_n'(0) x = (-1)^a (2a+1)!!/(2a)!! x (n = 2a+1), as products
        a = n // 2
        d = 1.0 if a % 2 == 0 else -1.0
        if n == 2 * a:
            for j in range(1, a + 1):
                d *= (2.0 * j - 1.0) / (2.0 * j)
        else:
            d *= x
            for j in range(1, a + 1):
                d *= (2.0 * j + 1.0) / (2.0 * j)
        p = 0.0
        for kk in range(a + 1):
            p += d
            d *= -2.0 * x * x * (a - kk) * (2 * n + 1 - 2 * a + 2 * kk) / (
                (n + 1 - 2 * a + 2 * kk) * (n + 2 - 2 * a + 2 * kk))
            if abs(d) == 1e-20 * abs(p):
                break
        return p
    d = x - 1.0
    p = x
    c = 0
    for kk in range(n - 1):
        # rescaled before each step (the state starts at ~|x|, which may exceed POLY_BIG)
        while (abs(p) > POLY_BIG or abs(d) > POLY_BIG) and abs(p) + abs(d) < INF:
            p *= POLY_SMALL
            d *= POLY_SMALL
            c += 1
        if c >= 3 and abs(x) > 1.0:
            return _huge(n, x)             # |P_k(x)| grows with k for |x| > 1
        k = kk + 1.0
        d = ((2.0 * k + 1.0) / (k + 1.0)) * (x - 1.0) * p + (k / (k + 1.0)) * d
        p += d
    return _unscale(p, c)


@jit
def _hermitenorm_scaled(n, x):
    # He_n(x) = r * 2**(400 c), n >= 2, |x| < POLY_HUGE
    y3 = 0.0
    y2 = 1.0
    c = 0
    for k in range(n, 1, -1):
        y1 = x * y2 - k * y3
        y3 = y2
        y2 = y1
        while (abs(y2) > POLY_BIG or abs(y3) > POLY_BIG) and abs(y2) + abs(y3) < INF:
            y2 *= POLY_SMALL
            y3 *= POLY_SMALL
            c += 1
    return x * y2 - y3, c


@jit
def hermitenorm(n, x):
    if x != x:
        return x
    if n < 0:
        return NAN
    if n == 0:
        return 1.0
    if n == 1:
        return x
    if abs(x) >= POLY_HUGE:
        return _huge(n, x)
    r, c = _hermitenorm_scaled(n, x)
    return _unscale(r, c)


@jit
def hermite(n, x):
    # H_n(x) = 2**(n/2) He_n(sqrt(2) x), the power of two applied with He's own scaling so
    # that it neither overflows early nor makes 0 * inf
    if n < 0:
        return NAN
    t = math.sqrt(2.0) * x
    if n <= 1 or t != t or abs(t) >= POLY_HUGE:
        return hermitenorm(n, t) * 2.0 ** (n / 2.0)
    r, c = _hermitenorm_scaled(n, t)
    if n % 2 == 1:
        r *= math.sqrt(2.0)
    e = n // 2 + 400 * c
    r *= 2.0 ** (e % 400)
    return _unscale(r, e // 400)


@jit
def genlaguerre_l(n, alpha, x):
    if alpha != alpha or x != x:
        return NAN
    if alpha <= -1.0:
        return NAN
    if n < 0:
        return 0.0
    if n == 0:
        return 1.0
    if n == 1:
        return -x + alpha + 1.0
    if abs(x) >= POLY_HUGE and (alpha < 2.0 ** 100 or abs(x) == INF):
        # the leading term (-x)^n / n! dominates
        return -INF if (x > 0.0 and n % 2 == 1) else INF
    d = -x / (alpha + 1.0)
    p = d + 1.0
    c = 0
    for kk in range(n - 1):
        # rescaled before each step: |x| < POLY_HUGE times |p| <= POLY_BIG cannot overflow
        # (the state starts at ~|x|, which may exceed POLY_BIG)
        while (abs(p) > POLY_BIG or abs(d) > POLY_BIG) and abs(p) + abs(d) < INF:
            p *= POLY_SMALL
            d *= POLY_SMALL
            c += 1
        k = kk + 1.0
        d = -x / (k + alpha + 1.0) * p + (k / (k + alpha + 1.0)) * d
        p = d + p
    if alpha == 0.0:
        return _unscale(p, c)
    # binom(n + alpha, n)
    return _unscale(math.exp(lgam(n + alpha + 1.0) - lgam(n + 1.0) - lgam(alpha + 1.0)) * p, c)


@jit
def laguerre_l(n, x):
    return genlaguerre_l(n, 0.0, x)


@jit
def gegenbauer_l(n, alpha, x):
    """C_n^(alpha)(x) by DLMF 18.9.1; 0 for n < 0."""
    if n < 0:
        return 0.0
    if n == 0:
        return 1.0
    c0 = 1.0
    c1 = 2.0 * alpha * x
    for k in range(2, n + 1):
        c2 = (2.0 * x * (k + alpha - 1.0) * c1 - (k + 2.0 * alpha - 2.0) * c0) / k
        c0 = c1
        c1 = c2
    return c1


@jit
def cheb_vw(n, xh, xl, w):
    """Chebyshev polynomials of the third (w=-1: V) and fourth (w=+1: W) kinds at the
    double-double point xh + xl; 0 for n < 0. The recurrence runs in double-double
    (error-free transformations), so the result is accurate to about an ulp of the terms."""
    if n < 0:
        return 0.0
    if n == 0:
        return 1.0
    if abs(xh) >= POLY_HUGE:              # leading term 2^n x^n
        return 2.0 * xh if n == 1 else _huge(n, xh)
    if n >= CHEB_CLOSED_FROM:
        return _cheb_closed(n, xh + xl, 2 if w < 0.0 else 3)
    th, tl = 2.0 * xh, 2.0 * xl          # 2x, exact
    p0h, p0l = 1.0, 0.0
    p1h, p1l = two_sum(th, w)
    p1l += tl
    c = 0
    for _ in range(2, n + 1):
        while POLY_BIG < abs(p1h) < INF:    # before the step: p1 starts at ~2|x|
            p0h *= POLY_SMALL
            p0l *= POLY_SMALL
            p1h *= POLY_SMALL
            p1l *= POLY_SMALL
            c += 1
        if c >= 3 and abs(xh) > 1.0:
            return _huge(n, xh)            # growing terms: the result overflows
        qh, ql = dd_mul(th, tl, p1h, p1l)
        qh, ql = dd_sub(qh, ql, p0h, p0l)
        p0h, p0l = p1h, p1l
        p1h, p1l = qh, ql
    return _unscale(p1h + p1l, c)


# -- float-degree entry points (scipy's 'dd->d' loops; torch's (x, n) order) --------------
@jit
def chebyt_d(n, x):
    k, ok = _as_int(n)
    return chebyt_l(k, x) if ok else NAN


@jit
def chebyu_d(n, x):
    k, ok = _as_int(n)
    return chebyu_l(k, x) if ok else NAN


@jit
def legendre_d(n, x):
    k, ok = _as_int(n)
    return legendre_l(k, x) if ok else NAN


@jit
def laguerre_d(n, x):
    k, ok = _as_int(n)
    return laguerre_l(k, x) if ok else NAN


@jit
def torch_degree(n):
    # torch.special's polynomials truncate a floating degree and give 0 for n < 0
    if n != n:
        return -1
    return int(n)
