"""Helpers shared by the special-function kernels.

Ported from the Cephes Math Library (S. L. Moshier, as translated to C++ in SciPy's xsf
library, ``xsf/cephes/{polevl,chbevl,trig,gamma,unity,lanczos}.h``) and Boost.Math
(``lanczos.hpp``, J. Maddock). All functions are scalar float64 ``njit`` functions; the
ufunc layer (:mod:`.ufuncs`) broadcasts them.
"""
import math

import numpy as np
from numba import njit

# error_model="numpy": 1/0 gives inf and 0/0 nan instead of raising, as in C.
jit = njit(cache=True, nogil=True, error_model="numpy")
# for the element functions of the vectorised loops (fast.py): inlined at numba IR level, since
# a call LLVM declines to inline would stop the loop vectorizer
ijit = njit(cache=True, nogil=True, error_model="numpy", inline="always")

MACHEP = 1.11022302462515654042e-16
MAXLOG = 7.09782712893383996732e2
MAXGAM = 171.624376956302725
LOGPI = 1.14472988584940017414
SQRT2PI = 2.50662827463100050242
LS2PI = 0.91893853320467274178
EULER = 0.577215664901532860606512090082402431
SQRT1OPI = 5.64189583547756286948e-1
SQRT2OPI = 7.9788456080286535587989e-1
THPIO4 = 2.35619449019234492885
SQRT3 = 1.732050807568877293527
M_2_PI = 0.63661977236758134308
M_2_SQRTPI = 1.12837916709551257390
M_SQRT1_2 = 0.70710678118654752440
NAN = math.nan
INF = math.inf


@jit
def polevl(x, coef):
    """sum coef[i] x**(N-i): Horner with the highest power first (Cephes polevl)."""
    ans = coef[0]
    for i in range(1, coef.shape[0]):
        ans = ans * x + coef[i]
    return ans


@jit
def p1evl(x, coef):
    """Like polevl with an implicit leading coefficient 1 (Cephes p1evl)."""
    ans = x + coef[0]
    for i in range(1, coef.shape[0]):
        ans = ans * x + coef[i]
    return ans


@jit
def chbevl(x, coef):
    """Chebyshev series by Clenshaw's recurrence (Cephes chbevl)."""
    b0 = coef[0]
    b1 = 0.0
    b2 = 0.0
    for i in range(1, coef.shape[0]):
        b2 = b1
        b1 = b0
        b0 = x * b1 - b2 + coef[i]
    return 0.5 * (b0 - b2)


@jit
def ratevl(x, num, den):
    """Rational function, evaluated in 1/x for |x| > 1 (Boost; xsf/cephes/polevl.h)."""
    m = num.shape[0] - 1
    n = den.shape[0] - 1
    if abs(x) > 1.0:
        y = 1.0 / x
        a = num[m]
        for i in range(m - 1, -1, -1):
            a = a * y + num[i]
        b = den[n]
        for i in range(n - 1, -1, -1):
            b = b * y + den[i]
        return x ** (m - n) * a / b
    a = num[0]
    for i in range(1, m + 1):
        a = a * x + num[i]
    b = den[0]
    for i in range(1, n + 1):
        b = b * x + den[i]
    return a / b


@jit
def _fmod2(x):
    # fmod(x, 2) for x >= 0; exact: x/2, floor and the difference are all representable
    return x - 2.0 * np.floor(0.5 * x)


@jit
def sinpi(x):
    """sin(pi x) with exact argument reduction (xsf/cephes/trig.h)."""
    s = 1.0
    if x < 0.0:
        x = -x
        s = -1.0
    r = _fmod2(x)
    if r < 0.5:
        return s * math.sin(math.pi * r)
    if r > 1.5:
        return s * math.sin(math.pi * (r - 2.0))
    return -s * math.sin(math.pi * (r - 1.0))


@jit
def cospi(x):
    """cos(pi x) with exact argument reduction (xsf/cephes/trig.h)."""
    if x < 0.0:
        x = -x
    r = _fmod2(x)
    if r == 0.5:
        return 0.0
    if r < 1.0:
        return -math.sin(math.pi * (r - 0.5))
    return math.sin(math.pi * (r - 1.5))


# -- double-double arithmetic (Dekker 1971; Shewchuk 1997) ------------------------------
@jit
def two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@jit
def split(a):
    c = 134217729.0 * a
    hi = c - (c - a)
    return hi, a - hi


@jit
def two_prod(a, b):
    p = a * b
    ah, al = split(a)
    bh, bl = split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


@jit
def fast_two_sum(a, b):
    s = a + b
    return s, b - (s - a)


@jit
def dd_mul(ah, al, bh, bl):
    p, e = two_prod(ah, bh)
    e += ah * bl + al * bh
    return fast_two_sum(p, e)


@jit
def dd_sub(ah, al, bh, bl):
    s, e = two_sum(ah, -bh)
    e += al - bl
    return fast_two_sum(s, e)


@jit
def exp_dd(hi, lo):
    """exp(hi + lo) for a double-double argument (|lo| <= ulp(hi))."""
    e = math.exp(hi)
    if e == INF:
        return e   # not inf + inf * lo, which is NaN for lo <= 0
    return e + e * lo


# -- Gamma function (Cephes gamma.c) ------------------------------------------------------
GAMMA_P = np.array([1.60119522476751861407e-4, 1.19135147006586384913e-3,
                    1.04213797561761569935e-2, 4.76367800457137231464e-2,
                    2.07448227648435975150e-1, 4.94214826801497100753e-1,
                    9.99999999999999996796e-1])
GAMMA_Q = np.array([-2.31581873324120129819e-5, 5.39605580493303397842e-4,
                    -4.45641913851797240494e-3, 1.18139785222060435552e-2,
                    3.58236398605498653373e-2, -2.34591795718243348568e-1,
                    7.14304917030273074085e-2, 1.00000000000000000320e0])
GAMMA_STIR = np.array([7.87311395793093628397e-4, -2.29549961613378126380e-4,
                       -2.68132617805781232825e-3, 3.47222221605458667310e-3,
                       8.33333333333482257126e-2])
GAMMA_A = np.array([8.11614167470508450300e-4, -5.95061904284301438324e-4,
                    7.93650340457716943945e-4, -2.77777777730099687205e-3,
                    8.33333333333331927722e-2])
GAMMA_B = np.array([-1.37825152569120859100e3, -3.88016315134637840924e4,
                    -3.31612992738871184744e5, -1.16237097492762307383e6,
                    -1.72173700820839662146e6, -8.53555664245765465627e5])
GAMMA_C = np.array([-3.51815701436523470549e2, -1.70642106651881159223e4,
                    -2.20528590553854454839e5, -1.13933444367982507207e6,
                    -2.53252307177582951285e6, -2.01889141433532773231e6])
MAXSTIR = 143.01608
MAXLGM = 2.556348e305


@jit
def stirf(x):
    if x >= MAXGAM:
        return INF
    w = 1.0 / x
    w = 1.0 + w * polevl(w, GAMMA_STIR)
    y = math.exp(x)
    if x > MAXSTIR:
        v = x ** (0.5 * x - 0.25)
        y = v * (v / y)
    else:
        y = x ** (x - 0.5) / y
    return SQRT2PI * y * w


@jit
def gamma(x):
    """Gamma function (Cephes Gamma)."""
    if not math.isfinite(x):
        return x if x > 0 else NAN
    if x == 0.0:
        return math.copysign(INF, x)
    q = abs(x)
    if q > 33.0:
        sgngam = 1.0
        if x < 0.0:
            p = np.floor(q)
            if p == q:
                return NAN
            if int(p) % 2 == 0:
                sgngam = -1.0
            z = q - p
            if z > 0.5:
                p += 1.0
                z = q - p
            z = q * sinpi(z)
            if z == 0.0:
                return sgngam * INF
            z = math.pi / (abs(z) * stirf(q))
        else:
            z = stirf(x)
        return sgngam * z
    z = 1.0
    while x >= 3.0:
        x -= 1.0
        z *= x
    while x < 0.0:
        if x > -1e-9:
            return NAN if x == 0.0 else z / ((1.0 + EULER * x) * x)
        z /= x
        x += 1.0
    while x < 2.0:
        if x < 1e-9:
            return NAN if x == 0.0 else z / ((1.0 + EULER * x) * x)
        z /= x
        x += 1.0
    if x == 2.0:
        return z
    x -= 2.0
    return z * polevl(x, GAMMA_P) / polevl(x, GAMMA_Q)


@jit
def lgam(x):
    """log|Gamma(x)| (Cephes lgam); +inf at the poles."""
    if not math.isfinite(x):
        return x
    if x < -34.0:
        q = -x
        w = _lgam_pos(q)
        p = np.floor(q)
        if p == q:
            return INF
        z = q - p
        if z > 0.5:
            p += 1.0
            z = p - q
        z = q * sinpi(z)
        if z == 0.0:
            return INF
        return LOGPI - math.log(z) - w
    return _lgam_pos(x)


@jit
def _lgam_pos(x):
    # lgam for x >= -34
    if x < 13.0:
        z = 1.0
        p = 0.0
        u = x
        while u >= 3.0:
            p -= 1.0
            u = x + p
            z *= u
        while u < 2.0:
            if u == 0.0:
                return INF
            z /= u
            p += 1.0
            u = x + p
        if z < 0.0:
            z = -z
        if u == 2.0:
            return math.log(z)
        p -= 2.0
        x = x + p
        p = x * polevl(x, GAMMA_B) / p1evl(x, GAMMA_C)
        return math.log(z) + p
    if x > MAXLGM:
        return INF
    if x >= 1000.0:
        q = (x - 0.5) * math.log(x) - x + LS2PI
        if x > 1.0e8:
            return q
        p = 1.0 / (x * x)
        p = ((7.9365079365079365079365e-4 * p - 2.7777777777777777777778e-3) * p
             + 0.0833333333333333333333) / x
        return q + p
    q = (x - 0.5) * math.log(x) - x + LS2PI
    p = 1.0 / (x * x)
    return q + polevl(p, GAMMA_A) / x


@jit
def log1pmx(x):
    """log(1 + x) - x (xsf/cephes/unity.h)."""
    if abs(x) < 0.5:
        xfac = x
        res = 0.0
        for n in range(2, 500):
            xfac *= -x
            term = xfac / n
            res += term
            if abs(term) < MACHEP * abs(res):
                break
        return res
    return math.log1p(x) - x


# -- Lanczos approximation, N=13, g=6.0246800407767296 (Boost lanczos13m53) -----------
LANCZOS_G = 6.024680040776729583740234375
LANCZOS_EXPG_NUM = np.array([
    0.006061842346248906525783753964555936883222, 0.5098416655656676188125178644804694509993,
    19.51992788247617482847860966235652136208, 449.9445569063168119446858607650988409623,
    6955.999602515376140356310115515198987526, 75999.29304014542649875303443598909137092,
    601859.6171681098786670226533699352302507, 3481712.15498064590882071018964774556468,
    14605578.08768506808414169982791359218571, 43338889.32467613834773723740590533316085,
    86363131.28813859145546927288977868422342, 103794043.1163445451906271053616070238554,
    56906521.91347156388090791033559122686859])
LANCZOS_DENOM = np.array([1.0, 66.0, 1925.0, 32670.0, 357423.0, 2637558.0, 13339535.0,
                          45995730.0, 105258076.0, 150917976.0, 120543840.0, 39916800.0,
                          0.0])


@jit
def lanczos_sum_expg_scaled(x):
    return ratevl(x, LANCZOS_EXPG_NUM, LANCZOS_DENOM)
