"""Bessel functions of real order: J_v, Y_v, I_v, K_v (and the scaled I_v, K_v) of a real
argument, and the integer-order Y_n, K_n.

SciPy evaluates these (real arguments) with AMOS, except iv (Cephes ``iv``: Temme's method
through K and the Wronskian, which loses all digits where K overflows) and yn (Cephes ``yn``).
Y_n here is Cephes ``yn`` (forward recurrence from Y_0 and Y_1, SciPy's values); the others
are evaluated by Temme's and Steed's methods (N. M. Temme, J. Comput. Phys. 19 (1975) 324
and 21 (1976) 343; Barnett et al., Comput. Phys. Commun. 8 (1974) 377; as in Boost.Math's
``bessel_jy.hpp``/``bessel_ik.hpp`` and Numerical Recipes' ``bessjy``/``bessik``), with:

- 1/Gamma(1 +- u) for |u| <= 1/2 from its Taylor series, so that Temme's gamma_1, gamma_2
  carry no cancellation (Cephes computes Gamma(1 + u) - 1 by subtraction), and e^(u log(2/x))
  as pow(x/2, -u);
- the three-term recurrences in order carried in double-double (rescaled by powers of two),
  so that the O(v) steps add no rounding error; Miller's backward recurrence for J from an
  order past max(v, x), whose signs are J's own;
- Steed's continued fraction CF2 evaluated from the tail (no error build-up), and J_v from the
  Wronskian as ``J_v = J~_v sqrt(W q) / hypot(q J~_u, p J~_u - J~'_u)`` (J~ unnormalised),
  which has no cancellation;
- the power series for J_v and I_v where x^2/4 is small against v + 1, with the prefactor
  (x/2)^v / Gamma(v + 1) as (x/2)^u / Gamma(1 + u) times double-double factors;
- Hankel's expansion (DLMF 10.17.3) in double-double, the phase x - v pi/2 by addition
  formulas from a double-double sin/cos of x and cospi/sinpi of v/2, at the order itself or,
  for 20 <= x and |v| <= x, at the orders w, w + 1 (|w| <= 1/2) and the recurrence to v:
  J and Y keep their relative accuracy near their zeros; the expansions DLMF 10.40.1-2
  (in double-double) for I and K at large x;
- for |v| > 1e6 the uniform expansions (A&S 9.3.35-36 with 9.3.23-24 near the turning point,
  Cephes' jnx/jnt with Y added; A&S 9.7.7-8 for I and K), whose phase ~ v limits them to a
  relative error of ~v eps; and those for I where x > max(8 |v|, 1e5), |v| >= 1000 (the
  continued fraction for I_{v+1}/I_v would take ~x terms).

Negative orders use DLMF 10.4.7-8 (J, Y), 10.27.2-3 (I, K) with cospi/sinpi.
"""
import math

import numpy as np

from .airy import airy
from .bessel import y0, y1
from .common import (
    INF,
    MACHEP,
    NAN,
    SQRT1OPI,
    cospi,
    dd_mul,
    fast_two_sum,
    jit,
    lgam,
    sinpi,
    two_prod,
    two_sum,
)
from .gammafn import rgamma

PI = math.pi
# 1 / Gamma(1 + z) = sum_k RG1P[k] z^k (DLMF 5.7.1; coefficients from mpmath, 50 digits)
RG1P = np.array([
    1.0, 0.57721566490153286061, -0.65587807152025388108, -0.042002635034095235529,
    0.1665386113822914895, -0.042197734555544336748, -0.0096219715278769735621,
    0.0072189432466630995424, -0.0011651675918590651121, -0.00021524167411495097282,
    0.00012805028238811618615, -0.000020134854780788238656, -1.2504934821426706573e-6,
    1.1330272319816958824e-6, -2.0563384169776071035e-7, 6.1160951044814158179e-9,
    5.0020076444692229301e-9, -1.1812745704870201446e-9, 1.0434267116911005105e-10,
    7.782263439905071254e-12, -3.6968056186422057082e-12, 5.100370287454475979e-13,
    -2.0583260535665067832e-14, -5.3481225394230179824e-15, 1.2267786282382607902e-15,
    -1.1812593016974587695e-16, 1.1866922547516003326e-18, 1.4123806553180317816e-18])

# -- the uniform expansion's polynomials --------------------------------------------------------
# nonzero coefficients of the polynomials u_n(t) of the uniform expansion (AMS 9.3.9-10),
# highest power first (SciPy's xsf iv_asymptotic_ufactors; row n holds n + 1 of them)
IV_UF = np.zeros((11, 11))
for _n, _row in enumerate((
        [1.0],
        [-0.20833333333333334, 0.125],
        [0.3342013888888889, -0.40104166666666669, 0.0703125],
        [-1.0258125964506173, 1.8464626736111112, -0.89121093750000002, 0.0732421875],
        [4.6695844234262474, -11.207002616222995, 8.78912353515625, -2.3640869140624998,
         0.112152099609375],
        [-28.212072558200244, 84.636217674600744, -91.818241543240035, 42.534998745388457,
         -7.3687943594796312, 0.22710800170898438],
        [212.5701300392171, -765.25246814118157, 1059.9904525279999, -699.57962737613275,
         218.19051174421159, -26.491430486951554, 0.57250142097473145],
        [-1919.4576623184068, 8061.7221817373083, -13586.550006434136, 11655.393336864536,
         -5305.6469786134048, 1200.9029132163525, -108.09091978839464, 1.7277275025844574],
        [20204.291330966149, -96980.598388637503, 192547.0012325315, -203400.17728041555,
         122200.46498301747, -41192.654968897557, 7109.5143024893641, -493.915304773088,
         6.074042001273483],
        [-242919.18790055133, 1311763.6146629769, -2998015.9185381061, 3763271.2976564039,
         -2813563.2265865342, 1268365.2733216248, -331645.17248456361, 45218.768981362737,
         -2499.8304818112092, 24.380529699556064],
        [3284469.8530720375, -19706819.11843222, 50952602.492664628, -74105148.211532637,
         66344512.274729028, -37567176.660763353, 13288767.166421819, -2785618.1280864552,
         308186.40461266245, -13886.089753717039, 110.01714026924674])):
    IV_UF[_n, :len(_row)] = _row
TINY_CF = 1.0 / math.sqrt(np.finfo(np.float64).max)


@jit
def _round_half_away(v):
    # C's round() for v >= 0
    n = np.floor(v)
    if v - n >= 0.5:
        n += 1.0
    return n


# -- shared pieces -----------------------------------------------------------------------------
EPS = 2.220446049250313e-16
SCALE_UP = 2.0 ** 600        # recurrences rescale by exact powers of two beyond this
SCALE_DOWN = 2.0 ** -600
SCALE_STEP = 2.0 ** 900       # ... and before a step whose product would pass this
TINY_X = 1e-250              # below: no recurrences (only orders < 1.5 stay finite)
LN2_HI = 0.6931471805599453
LN2_LO = 2.3190468138462996e-17
W_PI = 2.0 / PI
HANKEL_MIN = 20.0            # Hankel's expansion is tried from here
TEMME_K_MAX = 1.0            # Temme's series for K below, Steed's CF2 above
TEMME_Y_MAX = 1.0            # Temme's series for Y below, Steed's method above
I_SERIES_K = 4.0             # I_v by its power series (positive terms) for x^2 < I_SERIES_K (v+1)


@jit
def _rgamma_pm(u):
    """(gam1, gam2, 1/Gamma(1+u), 1/Gamma(1-u)) for |u| <= 1/2, with Temme's
    gam1 = (1/Gamma(1-u) - 1/Gamma(1+u)) / (2u) and gam2 = (1/Gamma(1-u) + 1/Gamma(1+u)) / 2
    from the Taylor series of 1/Gamma(1+z): no cancellation."""
    u2 = u * u
    n = RG1P.shape[0]
    odd = RG1P[n - 1]
    for k in range(n - 3, 0, -2):
        odd = odd * u2 + RG1P[k]
    even = RG1P[n - 2]
    for k in range(n - 4, -1, -2):
        even = even * u2 + RG1P[k]
    return -odd, even, even + u * odd, even - u * odd


@jit
def _dd_div_int(m, x):
    # m / x as a double-double (m, x doubles)
    ch = m / x
    p, e = two_prod(ch, x)
    return ch, ((m - p) - e) / x


@jit
def _dd_step(m, x, ch, cl, ah, al):
    # (m / x) * (ch + cl) - (ah + al) in double-double; the recurrences' one step
    fh, fl = _dd_div_int(m, x)
    th, tl = dd_mul(fh, fl, ch, cl)
    s, e = two_sum(th, -ah)
    e += tl - al
    return fast_two_sum(s, e)


@jit
def _dd_step_plus(m, x, ch, cl, ah, al):
    # (m / x) * (ch + cl) + (ah + al): the K recurrence
    fh, fl = _dd_div_int(m, x)
    th, tl = dd_mul(fh, fl, ch, cl)
    s, e = two_sum(th, ah)
    e += tl + al
    return fast_two_sum(s, e)


@jit
def _pow_half(x, a):
    """(x/2)**a for x > 0: x/2 is inexact for subnormal x (a lost bit there is a relative
    error of up to 2**-22 at 1e-310), so such x go through x 2**200 first."""
    if x >= 2.0 ** -1000:
        return math.pow(0.5 * x, a)
    if abs(a) > 4.0:
        return math.exp(a * (math.log(x) - LN2_HI))   # under/overflows anyway
    return math.pow(x * 2.0 ** 199, a) * math.pow(2.0, -200.0 * a)


@jit
def _log_half(x):
    # log(x/2), exact-argument for subnormal x too
    if x >= 2.0 ** -1000:
        return math.log(0.5 * x)
    return math.log(x * 2.0 ** 199) - 200.0 * LN2_HI


@jit
def _pow_half_over_gamma(x, v):
    """(x/2)**v / Gamma(v + 1) for x > 0, v >= 0, without spurious over/underflow. For
    v = n + u (|u| <= 1/2, n <= 300) as (x/2)**u / Gamma(1 + u) times the n factors
    (x/2) / (u + k) in double-double (Cephes' Gamma multiplies up to 30 rounded factors
    itself: ~10 ulp at v ~ 30); beyond, pow and rgamma or lgam."""
    n = _round_half_away(v)
    if n <= 300.0 and x >= 2.0 ** -1000:
        u = v - n
        g1, g2, gampl, gammi = _rgamma_pm(u)
        ph, pl = two_prod(math.pow(0.5 * x, u), gampl)
        h = 0.5 * x
        ex = 0
        for k in range(1, int(n) + 1):
            ph, pl = dd_mul(ph, pl, h, 0.0)
            ph, pl = _dd_div(ph, pl, u + k, 0.0)
            if abs(ph) < SCALE_DOWN:
                ph *= SCALE_UP
                pl *= SCALE_UP
                ex -= 600
                if ex < -1200:
                    return 0.0
        return math.ldexp(ph + pl, ex)
    if v < 170.0:
        p = _pow_half(x, v)
        if 1e-290 < p < 1e290:
            return p * rgamma(v + 1.0)
        q = _pow_half(x, 0.5 * v)
        return (q * rgamma(v + 1.0)) * q
    t = v * _log_half(x) - lgam(v + 1.0)
    if t > 709.78:
        return INF
    return math.exp(t)


@jit
def _j_series(v, x):
    """J_v(x) by its power series (DLMF 10.2.2), v >= 0, x > 0; returns (value, ratio of the
    sum of |terms| to |sum|)."""
    z = -0.25 * x * x
    term = 1.0
    s = 1.0
    a = 1.0
    k = 1.0
    while True:
        term *= z / (k * (v + k))
        s += term
        a += abs(term)
        if abs(term) <= 0.25 * EPS * abs(s) or k > 500:
            break
        k += 1.0
    return _pow_half_over_gamma(x, v) * s, a / abs(s)


@jit
def _temme_prefactors(u, x):
    """Temme's pi u / sin(pi u), cosh(s), sinh(s) / u and e^s for s = u log(2/x): e^s as
    pow(x/2, -u) (rounded once; exp(u log(2/x)) would carry log's error times |s|), and
    cosh, sinh from it where |s| >= 1/2."""
    fact = 1.0 if u == 0.0 else PI * u / sinpi(u)
    d = -_log_half(x)
    sg = u * d
    ee = _pow_half(x, -u)
    if abs(sg) < 0.5:
        ch = math.cosh(sg)
        if abs(sg) < 1e-8:
            f2d = (1.0 + sg * sg / 6.0) * d
        else:
            f2d = math.sinh(sg) / sg * d
    else:
        ei = 1.0 / ee
        ch = 0.5 * (ee + ei)
        f2d = (ee - ei) / (2.0 * u)
    return fact, ch, f2d, ee


@jit
def _temme_y(u, x):
    """(Y_u(x), Y_{u+1}(x)) 2**-e and e for |u| <= 1/2, 0 < x <= 2 by Temme's series (NR
    bessjy); see :func:`_start_exp` for e."""
    gam1, gam2, gampl, gammi = _rgamma_pm(u)
    fact, ch, f2d, ee = _temme_prefactors(u, x)
    ff = W_PI * fact * (gam1 * ch + gam2 * f2d)
    p = ee / (gampl * PI)
    q = 1.0 / (ee * PI * gammi)
    x2 = 0.5 * x
    # r = 2 sin^2(pi u / 2) / u
    su = sinpi(0.5 * u)
    r = 0.0 if u == 0.0 else 2.0 * su * su / u
    c = 1.0
    dd = -x2 * x2
    s = ff + r * q
    s1 = p
    u2 = u * u
    i = 1.0
    while i < 500.0:
        ff = (i * ff + p + q) / (i * i - u2)
        c *= dd / i
        p /= i - u
        q /= i + u
        de = c * (ff + r * q)
        s += de
        de1 = c * p - i * de
        s1 += de1
        if abs(de) < 0.25 * EPS * abs(s) and abs(de1) < 0.25 * EPS * abs(s1):
            break
        i += 1.0
    return _start_exp(-s, -2.0 * s1, x)


@jit
def _start_exp(c0, c1x, x):
    """(c0, c1x / x) 2**-e and e: the recurrences' starting values C_u, C_{u+1} from Temme's
    series, where C_{u+1} ~ (2/x)^(u+1) overflows below x ~ 1e-205 (u = 1/2) though the
    recurrence, which carries an exponent, could go on."""
    if x < 1e-150:
        return c0 * SCALE_DOWN, c1x * (SCALE_DOWN / x), 600
    return c0, c1x / x, 0


@jit
def _cf1_jy(v, x):
    """(J_{v+1}(x) / J_v(x), sign of J_v(x)) by the continued fraction A&S 9.1.73 (modified
    Lentz); the sign from the signs of the denominators (Boost CF1_jy)."""
    tiny = TINY_CF
    C = tiny
    f = tiny
    D = 0.0
    sgn = 1.0
    k = 1.0
    while k < 1e7:
        b = 2.0 * (v + k) / x
        C = b - 1.0 / C
        D = b - D
        if C == 0.0:
            C = tiny
        if D == 0.0:
            D = tiny
        D = 1.0 / D
        if D < 0.0:
            sgn = -sgn
        delta = C * D
        f *= delta
        if abs(delta - 1.0) < EPS:
            break
        k += 1.0
    return -f, sgn


@jit
def _cf2_jy_terms(u, x):
    """How many terms Steed's continued fraction CF2 (below) needs, by the modified Lentz
    method (Boost CF2_jy) run to convergence."""
    tiny = TINY_CF
    fr = -0.5 / x
    v2 = u * u
    a = (0.25 - v2) / x
    br = 2.0 * x
    bi = 2.0
    temp = fr * fr + 1.0
    Ci = bi + a * fr / temp
    Cr = br + a / temp
    Dr = br
    Di = bi
    temp = Dr * Dr + Di * Di
    Dr = Dr / temp
    Di = -Di / temp
    k = 2
    while k < 100000:
        a = (k - 0.5) * (k - 0.5) - v2
        bi += 2.0
        temp = Cr * Cr + Ci * Ci
        Cr = br + a * Cr / temp
        Ci = bi - a * Ci / temp
        Dr = br + a * Dr
        Di = bi + a * Di
        if abs(Cr) + abs(Ci) < tiny:
            Cr = tiny
        if abs(Dr) + abs(Di) < tiny:
            Dr = tiny
        temp = Dr * Dr + Di * Di
        Dr = Dr / temp
        Di = -Di / temp
        dr = Cr * Dr - Ci * Di
        di = Ci * Dr + Cr * Di
        if abs(dr - 1.0) + abs(di) < EPS:
            break
        k += 1
    return k


@jit
def _cf2_jy(u, x):
    """p + i q = (J'_u + i Y'_u) / (J_u + i Y_u), x > 0, by Steed's continued fraction (NR 6.7;
    A&S 9.1.27 for H^(1)): -1/(2x) + i + a_1 / (b_1 + a_2 / (b_2 + ...)), a_1 = i (1/4 - u^2)/x,
    a_k = (k - 1/2)^2 - u^2, b_k = 2 (x + i k), evaluated from the tail up (no error builds
    up, unlike the forward Lentz evaluation), from a depth past Lentz's convergence."""
    m = _cf2_jy_terms(u, x)
    m = m + m // 4 + 8
    v2 = u * u
    t = complex(2.0 * x, 2.0 * m)
    for k in range(m - 1, 0, -1):
        t = complex(2.0 * x, 2.0 * k) + ((k + 0.5) * (k + 0.5) - v2) / t
    r = complex(-0.5 / x, 1.0) + complex(0.0, (0.25 - v2) / x) / t
    return r.real, r.imag


@jit
def _hankel_pq(v, x):
    """(ok, P, Q) of Hankel's expansion DLMF 10.17.3 (a_k(v) / x^k summed to ~eps), ok when
    the terms fall below eps before they grow and without cancellation."""
    p = 1.0
    q = 0.0
    term = 1.0
    tv = 2.0 * v
    big = 1.0
    k = 1
    while k < 200:
        j = 2.0 * k - 1.0
        term *= (tv - j) * (tv + j) / (8.0 * k * x)
        if abs(term) > big:
            big = abs(term)
        r = k % 4
        if r == 1:
            q += term
        elif r == 2:
            p -= term
        elif r == 3:
            q -= term
        else:
            p += term
        if abs(term) < 0.125 * EPS * (abs(p) + abs(q)):
            return big < 2.0, p, q
        if k > 2 and abs((tv - j - 2.0) * (tv + j + 2.0)) > 8.0 * (k + 1) * x:
            return False, p, q       # the next term grows: the series diverges from here
        k += 1
    return False, p, q


@jit
def _hankel_jy(v, x, p, q):
    """J, Y from Hankel's P, Q. With w = x - v pi/2, the phase is w - pi/4, so
    sqrt(pi x) J = (P + Q) cos w + (P - Q) sin w and sqrt(pi x) Y = (P + Q) sin w - (P - Q) cos w;
    cos w and sin w by the addition formulas from cos x, sin x and cospi/sinpi(v/2), which
    keeps the phase exact (v/2 is exact, v/2 + 1/4 would not be)."""
    h = 0.5 * v
    ch = cospi(h)
    sh = sinpi(h)
    cx = math.cos(x)
    sx = math.sin(x)
    cw = cx * ch + sx * sh
    sw = sx * ch - cx * sh
    amp = SQRT1OPI / math.sqrt(x)
    a = p + q
    b = p - q
    return amp * (a * cw + b * sw), amp * (a * sw - b * cw)


# -- double-double trigonometry for the phase of Hankel's expansion ---------------------------
# (-1)^k / (2k+1)! and (-1)^k / (2k)! as double-doubles (mpmath, 60 digits)
SIN_DD = np.array([
    (1.0, 0.0),
    (-0.16666666666666666, -9.25185853854297e-18),
    (0.008333333333333333, 1.1564823173178714e-19),
    (-0.0001984126984126984, -1.7209558293420705e-22),
    (2.7557319223985893e-06, -1.858393274046472e-22),
    (-2.505210838544172e-08, 1.448814070935912e-24),
    (1.6059043836821613e-10, 1.2585294588752098e-26),
    (-7.647163731819816e-13, -7.03872877733453e-30),
    (2.8114572543455206e-15, 1.6508842730861433e-31),
    (-8.22063524662433e-18, -2.2141894119604265e-34),
    (1.9572941063391263e-20, -1.3643503830087908e-36),
    (-3.868170170630684e-23, 8.843177655482344e-40),
    (6.446950284384474e-26, -1.9330404233703465e-42),
    (-9.183689863795546e-29, -1.4303150396787322e-45),
])
COS_DD = np.array([
    (1.0, 0.0),
    (-0.5, 0.0),
    (0.041666666666666664, 2.3129646346357427e-18),
    (-0.001388888888888889, 5.300543954373577e-20),
    (2.48015873015873e-05, 2.1511947866775882e-23),
    (-2.755731922398589e-07, -2.3767714622250297e-23),
    (2.08767569878681e-09, -1.20734505911326e-25),
    (-1.1470745597729725e-11, -2.0655512752830745e-28),
    (4.779477332387385e-14, 4.399205485834081e-31),
    (-1.5619206968586225e-16, -1.1910679660273754e-32),
    (4.110317623312165e-19, 1.4412973378659527e-36),
    (-8.896791392450574e-22, 7.911402614872376e-38),
    (1.6117375710961184e-24, -3.6846573564509766e-41),
    (-2.4795962632247976e-27, 1.2953730964765229e-43),
    (3.279889237069838e-30, 1.5117542744029879e-46),
])
PIO2_1 = 1.5707963267948966      # pi/2 as a triple-double
PIO2_2 = 6.123233995736766e-17
PIO2_3 = -1.4973849048591698e-33
PI_HI = 3.141592653589793
PI_LO = 1.2246467991473532e-16
INVPI_HI = 0.3183098861837907
INVPI_LO = -1.9678676675182486e-17
TWO_OVER_PI = 0.6366197723675814
DD_TRIG_MAX = 2.0 ** 40          # x beyond: libm's sin/cos (double precision phase)


@jit
def _dd_add(ah, al, bh, bl):
    s, e = two_sum(ah, bh)
    e += al + bl
    return fast_two_sum(s, e)


@jit
def _dd_sincos_small(rh, rl):
    """(sin r, cos r) as double-doubles for |r| <= pi/4 (Taylor series in r^2, Horner in
    double-double; the truncation error is below 1e-30)."""
    r2h, r2l = dd_mul(rh, rl, rh, rl)
    sh, sl = SIN_DD[13, 0], SIN_DD[13, 1]
    for k in range(12, -1, -1):
        sh, sl = dd_mul(sh, sl, r2h, r2l)
        sh, sl = _dd_add(sh, sl, SIN_DD[k, 0], SIN_DD[k, 1])
    sh, sl = dd_mul(sh, sl, rh, rl)
    ch, cl = COS_DD[14, 0], COS_DD[14, 1]
    for k in range(13, -1, -1):
        ch, cl = dd_mul(ch, cl, r2h, r2l)
        ch, cl = _dd_add(ch, cl, COS_DD[k, 0], COS_DD[k, 1])
    return sh, sl, ch, cl


@jit
def _dd_quadrant(q, sh, sl, ch, cl):
    # (sin, cos) of r + q pi/2 from those of r
    q = q & 3
    if q == 0:
        return sh, sl, ch, cl
    if q == 1:
        return ch, cl, -sh, -sl
    if q == 2:
        return -sh, -sl, -ch, -cl
    return -ch, -cl, sh, sl


@jit
def _dd_sincos(x):
    """(sin x, cos x) as double-doubles for |x| <= DD_TRIG_MAX: x - k pi/2 with pi/2 as a
    triple-double (the products k * PIO2_i exact by two_prod), then the series."""
    k = np.floor(x * TWO_OVER_PI + 0.5)
    p1, e1 = two_prod(k, PIO2_1)
    rh, rl = two_sum(x, -p1)          # x - p1 is exact when x ~ p1; two_sum keeps it anyway
    rh, rl = _dd_add(rh, rl, -e1, 0.0)
    p2, e2 = two_prod(k, PIO2_2)
    rh, rl = _dd_add(rh, rl, -p2, -e2)
    rh, rl = _dd_add(rh, rl, -k * PIO2_3, 0.0)
    sh, sl, ch, cl = _dd_sincos_small(rh, rl)
    return _dd_quadrant(int(k - 4.0 * np.floor(0.25 * k)), sh, sl, ch, cl)


@jit
def _dd_sincospi(h):
    """(sin pi h, cos pi h) as double-doubles: h reduced exactly to h = q/2 + t, |t| <= 1/4."""
    t = h - 2.0 * np.floor(0.5 * h)   # [0, 2), exact
    q = np.floor(2.0 * t + 0.5)
    t = t - 0.5 * q                   # exact
    ph, pl = two_prod(PI_HI, t)
    pl += PI_LO * t
    ph, pl = fast_two_sum(ph, pl)
    sh, sl, ch, cl = _dd_sincos_small(ph, pl)
    return _dd_quadrant(int(q), sh, sl, ch, cl)


@jit
def _dd_div(ah, al, bh, bl):
    q1 = ah / bh
    p, e = two_prod(q1, bh)
    r = ((ah - p) - e + al - q1 * bl) / bh
    return fast_two_sum(q1, r)


@jit
def _hankel_pq_dd(v, x):
    """(ok, P, Q) of Hankel's expansion DLMF 10.17.3 as double-doubles (terms and sums in
    double-double), ok when the terms fall below 1e-19 relative before they grow and none
    exceeds 1 (no cancellation)."""
    ph, pl = 1.0, 0.0
    qh, ql = 0.0, 0.0
    th, tl = 1.0, 0.0
    tv = 2.0 * v
    x8h, x8l = two_prod(8.0, x)
    k = 1
    while k < 400:
        j = 2.0 * k - 1.0
        nh, nl = two_prod(tv - j, tv + j)
        th, tl = dd_mul(th, tl, nh, nl)
        th, tl = _dd_div(th, tl, x8h * k, x8l * k)
        if abs(th) > 1.0:
            return False, ph, pl, qh, ql
        r = k % 4
        if r == 1:
            qh, ql = _dd_add(qh, ql, th, tl)
        elif r == 2:
            ph, pl = _dd_add(ph, pl, -th, -tl)
        elif r == 3:
            qh, ql = _dd_add(qh, ql, -th, -tl)
        else:
            ph, pl = _dd_add(ph, pl, th, tl)
        if abs(th) < 1e-19 * (abs(ph) + abs(qh)):
            return True, ph, pl, qh, ql
        if k > 2 and abs((tv - j - 2.0) * (tv + j + 2.0)) > 8.0 * (k + 1) * x:
            return False, ph, pl, qh, ql
        k += 1
    return False, ph, pl, qh, ql


@jit
def _hankel_jy_dd(v, x, ph, pl, qh, ql):
    """J_v(x), Y_v(x) as double-doubles from Hankel's P, Q: with w = x - v pi/2,
    sqrt(pi x) J = (P + Q) cos w + (P - Q) sin w, sqrt(pi x) Y = (P + Q) sin w - (P - Q) cos w,
    everything in double-double so that J and Y keep their relative accuracy near their
    zeros (x <= DD_TRIG_MAX)."""
    sxh, sxl, cxh, cxl = _dd_sincos(x)
    shh, shl, chh, chl = _dd_sincospi(0.5 * v)
    t1h, t1l = dd_mul(cxh, cxl, chh, chl)
    t2h, t2l = dd_mul(sxh, sxl, shh, shl)
    cwh, cwl = _dd_add(t1h, t1l, t2h, t2l)
    t1h, t1l = dd_mul(sxh, sxl, chh, chl)
    t2h, t2l = dd_mul(cxh, cxl, shh, shl)
    swh, swl = _dd_add(t1h, t1l, -t2h, -t2l)
    ah, al = _dd_add(ph, pl, qh, ql)
    bh, bl = _dd_add(ph, pl, -qh, -ql)
    t1h, t1l = dd_mul(ah, al, cwh, cwl)
    t2h, t2l = dd_mul(bh, bl, swh, swl)
    jh, jl = _dd_add(t1h, t1l, t2h, t2l)
    t1h, t1l = dd_mul(ah, al, swh, swl)
    t2h, t2l = dd_mul(bh, bl, cwh, cwl)
    yh, yl = _dd_add(t1h, t1l, -t2h, -t2l)
    # 1 / sqrt(pi x) as a double-double
    th = INVPI_HI / x
    p, e = two_prod(th, x)
    tl = ((INVPI_HI - p) - e + INVPI_LO) / x
    mh = math.sqrt(th)
    p, e = two_prod(mh, mh)
    ml = ((th - p) - e + tl) / (2.0 * mh)
    jh, jl = dd_mul(jh, jl, mh, ml)
    yh, yl = dd_mul(yh, yl, mh, ml)
    return jh, jl, yh, yl


@jit
def _jy_hankel_rec(v, x, need_j, need_y):
    """(ok, J_v(x), Y_v(x)) for 20 <= x <= DD_TRIG_MAX and |v| <= x, any sign of v: Hankel's
    expansion at v if it converges, else at the orders w, w + 1 (|w| <= 1/2, v - w an
    integer) and the three-term recurrence from there to v (upward for v > w, downward for
    v < w), all in double-double. While |order| <= x both J and Y oscillate and neither
    recurrence direction amplifies errors."""
    ok, ph, pl, qh, ql = _hankel_pq_dd(v, x)
    if ok:
        jh, jl, yh, yl = _hankel_jy_dd(v, x, ph, pl, qh, ql)
        return True, jh + jl, yh + yl
    if v >= 0.0:
        n = _round_half_away(v)
        w = v - n
    else:
        n = -_round_half_away(-v)
        w = v - n
    ok0, p0h, p0l, q0h, q0l = _hankel_pq_dd(w, x)
    ok1, p1h, p1l, q1h, q1l = _hankel_pq_dd(w + 1.0, x)
    if not (ok0 and ok1):
        return False, NAN, NAN
    j0h, j0l, y0h, y0l = _hankel_jy_dd(w, x, p0h, p0l, q0h, q0l)
    j1h, j1l, y1h, y1l = _hankel_jy_dd(w + 1.0, x, p1h, p1l, q1h, q1l)
    jv = NAN
    yv = NAN
    if n >= 0.0:
        ni = int(n)
        if need_j:
            jv = _recur_up(w, ni, x, j0h, j0l, j1h, j1l)
        if need_y:      # Y grows past x: the rescaling forward recurrence
            ym, ym1, ey = _forward(w, ni, x, y0h, y1h, False, y0l, y1l)
            yv = math.ldexp(ym, ey)
    else:
        ni = int(-n)
        if need_j:
            jv = _recur_down(w, ni, x, j0h, j0l, j1h, j1l)
        if need_y:
            yv = _recur_down(w, ni, x, y0h, y0l, y1h, y1l)
    return True, jv, yv


@jit
def _recur_up(w, n, x, ah, al, bh, bl):
    # C_{w+n} from C_w = a, C_{w+1} = b by C_{k+1} = (2k/x) C_k - C_{k-1}, double-double
    if n == 0:
        return ah + al
    for k in range(1, n):
        ch, cl = _dd_step(2.0 * (w + k), x, bh, bl, ah, al)
        ah, al = bh, bl
        bh, bl = ch, cl
    return bh + bl


@jit
def _recur_down(w, n, x, ah, al, bh, bl):
    # C_{w-n} from C_w = a, C_{w+1} = b by C_{k-1} = (2k/x) C_k - C_{k+1}, double-double
    for k in range(n):
        ch, cl = _dd_step(2.0 * (w - k), x, ah, al, bh, bl)
        bh, bl = ah, al
        ah, al = ch, cl
    return ah + al


@jit
def _forward(u, n, x, y0h, y1h, plus, y0l=0.0, y1l=0.0):
    """(C_{u+n}, C_{u+n+1}) from C_u, C_{u+1} by the forward recurrence C_{k+1} =
    (2k/x) C_k - C_{k-1} (``plus``: + C_{k-1}, the K recurrence) in double-double, as
    (mantissa, mantissa, power-of-two exponent); values are rescaled by 2**-600 before a
    step could overflow (x >= TINY_X keeps 2k/x itself in range; for x < ~1e-180 one step
    can need two rescalings)."""
    ah, al = y0h, y0l
    bh, bl = y1h, y1l
    ex = 0
    for k in range(1, n + 1):
        m = 2.0 * (u + k)
        while (abs(bh) * (m / x) > SCALE_STEP or abs(bh) > SCALE_UP) and abs(bh) < INF:
            bh *= SCALE_DOWN
            bl *= SCALE_DOWN
            ah *= SCALE_DOWN
            al *= SCALE_DOWN
            ex += 600
        if plus:
            ch, cl = _dd_step_plus(m, x, bh, bl, ah, al)
        else:
            ch, cl = _dd_step(m, x, bh, bl, ah, al)
        ah, al = bh, bl
        bh, bl = ch, cl
    return ah + al, bh + bl, ex


@jit
def _forward_y(u, n, x, y0h, y1h):
    return _forward(u, n, x, y0h, y1h, False)


@jit
def _jy_pos_me(v, x, need_j, need_y):
    """(J_v(x), m, e) with Y_v(x) = m 2**e, for v >= 0, 0 < x < inf (Y as mantissa and
    exponent: a reflection formula may scale it back into range). Only what is asked for is
    meaningful."""
    jv = NAN
    yv = NAN
    yex = 0
    n = _round_half_away(v)
    u = v - n
    ni = int(n) if n < 2e9 else 2000000000
    w = W_PI / x
    if need_j and x * x < 4.0 * (v + 1.0):
        # the power series converges without (much) cancellation
        jv = _j_series(v, x)[0]
        if not need_y:
            return jv, yv, 0
        need_j = False
    if x < TINY_X:
        # Y_{u+n} for n >= 2 overflows; the recurrence's 2k/x would not be representable
        if ni >= 2:
            return jv, -INF, 0
        yu, yu1, e = _temme_y(u, x)
        return jv, (yu if ni == 0 else yu1), e
    if v > V_BIG:
        ok, p, q = _hankel_pq(v, x)
        if ok:
            jh, yh = _hankel_jy(v, x, p, q)
        else:
            jh, yh = _jy_jnx(v, x)
        return (jh if need_j else jv), yh, 0
    if x >= HANKEL_MIN:
        if x <= DD_TRIG_MAX:
            ok, jh, yh = _jy_hankel_rec(v, x, need_j and v <= x, need_y)
            if ok:
                if v <= x or not need_j:
                    return (jh if need_j else jv), yh, 0
                yv = yh
                need_y = False
        else:
            ok, p, q = _hankel_pq(v, x)
            if ok:
                jh, yh = _hankel_jy(v, x, p, q)
                return (jh if need_j else jv), yh, 0
    if x <= TEMME_Y_MAX:
        yu, yu1, e = _temme_y(u, x)
        yvh, yv1h, ex = _forward_y(u, ni, x, yu, yu1)
        ex += e
        if need_y:
            yv = yvh
            yex = ex
        if need_j:
            f = _cf1_jy(v, x)[0]
            jv = math.ldexp(w / (yvh * f - yv1h), -ex)
        return jv, yv, yex
    # x > 2: Steed's method. Miller's backward recurrence (in double-double, from an order
    # N past max(v, x)) gives unnormalised J~ at the orders v, v + 1 and u, u + 1, with the
    # right signs; CF2 gives p + iq at u; the Wronskian normalises.
    top = _miller_start(u, ni, x)
    ah, al = 0.0, 0.0          # J~_{k+1}
    bh, bl = 1.0, 0.0          # J~_k
    sc = 0
    jvm = 0.0
    jvs = 0
    for k in range(top, 0, -1):
        m = 2.0 * (u + k)
        ch, cl = _dd_step(m, x, bh, bl, ah, al)
        ah, al = bh, bl
        bh, bl = ch, cl
        if abs(bh) > SCALE_UP:
            bh *= SCALE_DOWN
            bl *= SCALE_DOWN
            ah *= SCALE_DOWN
            al *= SCALE_DOWN
            sc += 600
        if k - 1 == ni:
            jvm = bh + bl
            jvs = sc
    ju = bh + bl
    ju1 = ah + al
    if ni == 0:
        jvm = ju
        jvs = sc
    p, q = _cf2_jy(u, x)
    jpu = (u / x) * ju - ju1          # J~'_u
    dq = q * ju
    de = p * ju - jpu
    s = math.sqrt(w * q) / math.hypot(dq, de)   # J_u = J~_u s
    if need_j:
        jv = math.ldexp(jvm * s, jvs - sc)
    if need_y:
        yu = de * s / q
        yu1 = (u / x - p) * yu - q * (ju * s)
        yvh, yv1h, ey = _forward_y(u, ni, x, yu, yu1)
        yv = yvh
        yex = ey
    return jv, yv, yex


@jit
def _jy_pos(v, x, need_j, need_y):
    """(J_v(x), Y_v(x)) for v >= 0, 0 < x < inf. Only those asked for are meaningful."""
    j, m, e = _jy_pos_me(v, x, need_j, need_y)
    return j, (math.ldexp(m, e) if e else m)


@jit
def _miller_start(u, n, x):
    """A starting order u + N (N an integer) for Miller's backward recurrence of J down to
    the orders u + n and u: the test sequence p_(k+1) = (2 (u + k) / x) p_k - p_(k-1),
    started past max(n, x), grows like Y_k / J_k^-1; once it passes 1e13 the relative error
    the start leaves at the orders below, ~1/p^2, is below 1e-26."""
    k = n + 1
    if u + k < x:
        k = int(x - u) + 1
    p0 = 0.0
    p1 = 1.0
    while k < 2000000000:
        p2 = (2.0 * (u + k) / x) * p1 - p0
        p0 = p1
        p1 = p2
        k += 1
        if abs(p1) > 1e13:
            break
    return k + 4


# -- large orders: A&S 9.3.23-24 and 9.3.35-36 (Cephes jv's jnt and jnx, with Y added) -------
JV_PF2 = np.array([-9.0000000000000000000e-2, 8.5714285714285714286e-2])
JV_PF3 = np.array([1.3671428571428571429e-1, -5.4920634920634920635e-2,
                   -4.4444444444444444444e-3])
JV_PF4 = np.array([1.3500000000000000000e-3, -1.6036054421768707483e-1,
                   4.2590187590187590188e-2, 2.7330447330447330447e-3])
JV_PG1 = np.array([-2.4285714285714285714e-1, 1.4285714285714285714e-2])
JV_PG2 = np.array([-9.0000000000000000000e-3, 1.9396825396825396825e-1,
                   -1.1746031746031746032e-2])
JV_PG3 = np.array([1.9607142857142857143e-2, -1.5983694083694083694e-1,
                   6.3838383838383838384e-3])
JV_LAMBDA = np.array([
    1.0, 1.041666666666666666666667E-1, 8.355034722222222222222222E-2,
    1.282265745563271604938272E-1, 2.918490264641404642489712E-1, 8.816272674437576524187671E-1,
    3.321408281862767544702647E+0, 1.499576298686255465867237E+1, 7.892301301158651813848139E+1,
    4.744515388682643231611949E+2, 3.207490090890661934704328E+3])
JV_MU = np.array([
    1.0, -1.458333333333333333333333E-1, -9.874131944444444444444444E-2,
    -1.433120539158950617283951E-1, -3.172272026784135480967078E-1,
    -9.424291479571202491373028E-1, -3.511203040826354261542798E+0,
    -1.572726362036804512982712E+1, -8.228143909718594444224656E+1,
    -4.923553705236705240352022E+2, -3.316218568547972508762102E+3])
# u_k polynomials (A&S 9.3.9-10) in 1/(1 - z^2), highest power first, padded with zeros
JV_P = np.zeros((8, 8))
for _n, _row in enumerate((
        [1.0],
        [-2.083333333333333333333333E-1, 1.250000000000000000000000E-1],
        [3.342013888888888888888889E-1, -4.010416666666666666666667E-1,
         7.031250000000000000000000E-2],
        [-1.025812596450617283950617E+0, 1.846462673611111111111111E+0,
         -8.912109375000000000000000E-1, 7.324218750000000000000000E-2],
        [4.669584423426247427983539E+0, -1.120700261622299382716049E+1,
         8.789123535156250000000000E+0, -2.364086914062500000000000E+0,
         1.121520996093750000000000E-1],
        [-2.8212072558200244877E1, 8.4636217674600734632E1, -9.1818241543240017361E1,
         4.2534998745388454861E1, -7.3687943594796316964E0, 2.27108001708984375E-1],
        [2.1257013003921712286E2, -7.6525246814118164230E2, 1.0599904525279998779E3,
         -6.9957962737613254123E2, 2.1819051174421159048E2, -2.6491430486951555525E1,
         5.7250142097473144531E-1],
        [-1.9194576623184069963E3, 8.0617221817373093845E3, -1.3586550006434137439E4,
         1.1655393336864533248E4, -5.3056469786134031084E3, 1.2009029132163524628E3,
         -1.0809091978839465550E2, 1.7277275025844573975E0])):
    JV_P[_n, :len(_row)] = _row
V_BIG = 1.0e6         # orders beyond: the uniform expansions, not the O(v) recurrences


@jit
def _cbrt(x):
    if x == 0.0 or x != x or x == INF or x == -INF:
        return x
    y = math.copysign(abs(x) ** (1.0 / 3.0), x)
    return y - (y * y * y - x) / (3.0 * y * y)


@jit
def _polevl_n(x, coef, n):
    ans = coef[0]
    for i in range(1, n + 1):
        ans = ans * x + coef[i]
    return ans


@jit
def _s_minus(s, z, hyperbolic):
    """atanh(s) - s (``hyperbolic``; atanh(s) = log((1 + s)/z), z = sqrt(1 - s^2)) or
    s - atan(s), s > 0, without cancellation."""
    if s >= 0.5:
        return math.log((1.0 + s) / z) - s if hyperbolic else s - math.atan(s)
    s2 = s * s
    sign = 1.0 if hyperbolic else -1.0
    term = s * s2
    acc = term / 3.0
    k = 2
    while k < 60:
        term *= sign * s2
        c = term / (2 * k + 1)
        acc += c
        if abs(c) < 1e-17 * abs(acc):
            break
        k += 1
    return acc


@jit
def _jy_jnt(n, x):
    """(J_n(x), Y_n(x)) for large n and x near n (A&S 9.3.23-24; Cephes jnt)."""
    cbn = _cbrt(n)
    z = (x - n) / cbn
    cbtwo = _cbrt(2.0)
    ai, aip, bi, bip = airy(-cbtwo * z)
    zz = z * z
    z3 = zz * z
    f1 = -z / 5.0
    f2 = _polevl_n(z3, JV_PF2, 1) * zz
    f3 = _polevl_n(z3, JV_PF3, 2)
    f4 = _polevl_n(z3, JV_PF4, 3) * z
    g0 = 0.3 * zz
    g1 = _polevl_n(z3, JV_PG1, 1)
    g2 = _polevl_n(z3, JV_PG2, 2) * z
    g3 = _polevl_n(z3, JV_PG3, 2) * zz
    n23 = _cbrt(n * n)
    pp = 1.0 + (f1 + (f2 + (f3 + f4 / n23) / n23) / n23) / n23
    qq = g0 + (g1 + (g2 + g3 / n23) / n23) / n23
    c4 = _cbrt(4.0)
    j = cbtwo * ai * pp / cbn + c4 * aip * qq / n
    y = -(cbtwo * bi * pp / cbn + c4 * bip * qq / n)
    return j, y


@jit
def _jy_jnx(n, x):
    """(J_n(x), Y_n(x)) for large n by the uniform expansion A&S 9.3.35-36 (Cephes jnx);
    near the turning point the transition expansion."""
    cbn = _cbrt(n)
    z = (x - n) / cbn
    if abs(z) <= 0.7:
        return _jy_jnt(n, x)
    z = x / n
    # 1 - z^2 = (n - x)(n + x)/n^2 (n - x exact near the turning point), and t = (3/2) zeta^(3/2)
    # by atanh(s) - s and s - atan(s) (Cephes: log((1 + s)/z) - s, s - acos(1/z)), their
    # series for small s: no cancellation, which the phase n t would multiply
    zz = ((n - x) / n) * ((n + x) / n)
    if zz == 0.0:
        return _jy_jnt(n, x)
    if zz > 0.0:
        sz = math.sqrt(zz)
        t = 1.5 * _s_minus(sz, z, True)
        zeta = _cbrt(t * t)
        nflg = 1
    else:
        sz = math.sqrt(-zz)
        t = 1.5 * _s_minus(sz, z, False)
        zeta = -_cbrt(t * t)
        nflg = -1
    z32i = abs(1.0 / t)
    sqz = _cbrt(t)
    n23 = _cbrt(n * n)
    ai, aip, bi, bip = airy(n23 * zeta)
    u = np.empty(8)
    u[0] = 1.0
    zzi = 1.0 / zz
    u[1] = _polevl_n(zzi, JV_P[1], 1) / sz
    u[2] = _polevl_n(zzi, JV_P[2], 2) / zz
    u[3] = _polevl_n(zzi, JV_P[3], 3) / (sz * zz)
    pp = zz * zz
    u[4] = _polevl_n(zzi, JV_P[4], 4) / pp
    u[5] = _polevl_n(zzi, JV_P[5], 5) / (pp * sz)
    pp *= zz
    u[6] = _polevl_n(zzi, JV_P[6], 6) / pp
    u[7] = _polevl_n(zzi, JV_P[7], 7) / (pp * sz)
    pp = 0.0
    qq = 0.0
    npow = 1.0
    doa = True
    dob = True
    akl = INF
    bkl = INF
    for k in range(4):
        tk = 2 * k
        tkp1 = tk + 1
        zp = 1.0
        ak = 0.0
        bk = 0.0
        for s in range(tk + 1):
            if doa:
                sign = nflg if (s & 3) > 1 else 1
                ak += sign * JV_MU[s] * zp * u[tk - s]
            if dob:
                m = tkp1 - s
                sign = nflg if ((m + 1) & 3) > 1 else 1
                bk += sign * JV_LAMBDA[s] * zp * u[m]
            zp *= z32i
        if doa:
            ak *= npow
            t = abs(ak)
            if t < akl:
                akl = t
                pp += ak
            else:
                doa = False
        if dob:
            bk += JV_LAMBDA[tkp1] * zp * u[0]
            bk *= -npow / sqz
            t = abs(bk)
            if t < bkl:
                bkl = t
                qq += bk
            else:
                dob = False
        if npow < MACHEP:
            break
        npow /= n * n
    t = math.sqrt(math.sqrt(4.0 * zeta / zz))
    j = t * (ai * pp / cbn + aip * qq / (n23 * n))
    y = -t * (bi * pp / cbn + bip * qq / (n23 * n))
    return j, y


# -- I_v, K_v (scaled) -------------------------------------------------------------------------


@jit
def _temme_k(u, x):
    """(K_u(x), K_{u+1}(x)) 2**-e and e for |u| <= 1/2, 0 < x <= 2 by Temme's series (NR
    bessik); see :func:`_start_exp` for e."""
    gam1, gam2, gampl, gammi = _rgamma_pm(u)
    fact, ch, f2d, ee = _temme_prefactors(u, x)
    ff = fact * (gam1 * ch + gam2 * f2d)
    s = ff
    p = 0.5 * ee / gampl
    q = 0.5 / (ee * gammi)
    x2 = 0.5 * x
    c = 1.0
    dd = x2 * x2
    s1 = p
    u2 = u * u
    i = 1.0
    while i < 500.0:
        ff = (i * ff + p + q) / (i * i - u2)
        c *= dd / i
        p /= i - u
        q /= i + u
        de = c * ff
        s += de
        de1 = c * (p - i * ff)
        s1 += de1
        if abs(de) < 0.25 * EPS * abs(s) and abs(de1) < 0.25 * EPS * abs(s1):
            break
        i += 1.0
    return _start_exp(s, 2.0 * s1, x)


@jit
def _cf2_k_scaled(u, x):
    """(e^x K_u(x), e^x K_{u+1}(x)) for |u| <= 1/2, x > 2 by Steed's algorithm for the
    continued fraction of Thompson and Barnett (NR bessik)."""
    # the sums h and s are compensated (two_sum): ~100 terms for x near 1
    b = 2.0 * (1.0 + x)
    d = 1.0 / b
    h = d
    hl = 0.0
    delh = d
    q1 = 0.0
    q2 = 1.0
    a1 = 0.25 - u * u
    q = a1
    c = a1
    a = -a1
    s, sl = two_sum(1.0, q * delh)
    i = 2.0
    while i < 1e6:
        a -= 2.0 * (i - 1.0)
        c = -a * c / i
        qnew = (q1 - b * q2) / a
        q1 = q2
        q2 = qnew
        q += c * qnew
        b += 2.0
        d = 1.0 / (b + a * d)
        delh = (b * d - 1.0) * delh
        h, e = two_sum(h, delh)
        hl += e
        dels = q * delh
        s, e = two_sum(s, dels)
        sl += e
        if abs(dels) < 0.25 * EPS * abs(s):
            break
        i += 1.0
    s += sl
    h = a1 * (h + hl)
    k = math.sqrt(PI / (2.0 * x)) / s
    k1 = k * (u + x + 0.5 - h) / x
    return k, k1


@jit
def _cf1_ik(v, x):
    """I_{v+1}(x) / I_v(x) by the continued fraction A&S 9.1.73, 1 / (b_1 + 1 / (b_2 + ...)),
    b_k = 2 (v + k) / x: its length from the modified Lentz method, then evaluated from the
    tail up (all terms positive; no error builds up over the ~x terms)."""
    tiny = TINY_CF
    C = tiny
    D = 0.0
    k = 1.0
    while k < 1e7:
        b = 2.0 * (v + k) / x
        C = b + 1.0 / C
        D = 1.0 / (b + D)
        if abs(C * D - 1.0) < EPS:
            break
        k += 1.0
    m = k + np.floor(0.25 * k) + 8.0
    t = 2.0 * (v + m) / x
    while m > 1.0:
        m -= 1.0
        t = 2.0 * (v + m) / x + 1.0 / t
    return 1.0 / t


@jit
def _large_x_ik(v, x):
    """(ok, sum_k (-1)^k a_k(v)/x^k, sum_k a_k(v)/x^k) of DLMF 10.40.1-2 for x >= 20, ok when
    the terms fall below eps before they grow."""
    si = 1.0
    sk = 1.0
    term = 1.0
    tv = 2.0 * v
    k = 1
    while k < 200:
        j = 2.0 * k - 1.0
        term *= (tv - j) * (tv + j) / (8.0 * k * x)
        if abs(term) > 1.0:
            return False, si, sk
        sk += term
        si += -term if k % 2 else term
        if abs(term) < 0.125 * EPS * abs(si):
            return True, si, sk
        k += 1
    return False, si, sk


@jit
def _forward_k(u, n, x, k0h, k1h):
    return _forward(u, n, x, k0h, k1h, True)


@jit
def _i_series(v, x):
    """I_v(x) by its power series (DLMF 10.25.2), v >= 0, x > 0 (all terms positive)."""
    z = 0.25 * x * x
    term = 1.0
    s = 1.0
    k = 1.0
    while k < 1000.0:
        term *= z / (k * (v + k))
        s += term
        if term <= 0.25 * EPS * s:
            break
        k += 1.0
    return _pow_half_over_gamma(x, v) * s


@jit
def _ik_uniform(v, x, scaled):
    """(I_v(x), K_v(x)), v > 0 large, by the uniform expansion A&S 9.7.7-8 (the polynomials of
    Cephes' ikv_asymptotic_uniform), the exponents v eta -+ x of the scaled functions formed
    without cancellation: v (sqrt(1 + z^2) - z) = v / (sqrt(1 + z^2) + z), z = x / v."""
    z = x / v
    sq = math.hypot(1.0, z)          # z * z may overflow
    t = 1.0 / sq
    t2 = t * t
    # log(z / (1 + sq)) = -log1p((1 + sq - z)/z), with sq - z = 1 / (sq + z): no cancellation
    # for large z (the argument of log would be near 1, its rounding error times v)
    lg = -math.log1p((1.0 + 1.0 / (sq + z)) / z)
    isum = 1.0
    ksum = 1.0
    divisor = v
    for n in range(1, 11):
        term = 0.0
        for k in range(n + 1):
            term = term * t2 + IV_UF[n, k]
        for _k in range(1, n, 2):
            term *= t2
        if n % 2 == 1:
            term *= t
        term /= divisor
        isum += term
        ksum += term if n % 2 == 0 else -term
        if abs(term) < 1e-17:
            break
        divisor *= v
    if scaled:
        ei = v / (sq + z) + v * lg       # v eta - x
        ek = -ei                          # x - v eta
    else:
        ei = v * sq + v * lg              # v eta
        ek = -ei
    ip = math.sqrt(t / (2.0 * PI * v))
    kp = math.sqrt(PI * t / (2.0 * v))
    if ei > 700.0:
        h = math.exp(0.5 * ei)
        iv_ = (ip * isum * h) * h
    else:
        iv_ = ip * isum * math.exp(ei)
    if ek > 700.0:
        h = math.exp(0.5 * ek)
        kv_ = (kp * ksum * h) * h
    else:
        kv_ = kp * ksum * math.exp(ek)
    return iv_, kv_


@jit
def _sqrt_dd_quot(ch, cl, x):
    """sqrt((ch + cl) / x) as a double-double."""
    scale = 1.0
    if x > 1e300:
        # two_prod's splitting of x would overflow, and ch / x lose bits as a subnormal
        x *= 2.0 ** -600
        scale = 2.0 ** -300
    th = ch / x
    p, e = two_prod(th, x)
    tl = ((ch - p) - e + cl) / x
    mh = math.sqrt(th)
    p, e = two_prod(mh, mh)
    return mh * scale, (((th - p) - e + tl) / (2.0 * mh)) * scale


@jit
def _times_exp(m, ex, y):
    """m * 2**ex * exp(y) without intermediate over- or underflow: exp(y) = 2**k exp(r),
    r = y - k log(2) formed in double-double (|r| <= log(2)/2)."""
    k = np.floor(y / LN2_HI + 0.5)
    e = ex + k
    if not -5000.0 < e < 5000.0:
        # beyond any double (|log2 m| <= 1075): no int conversion of a huge k
        return m * (INF if e > 0.0 else 0.0) if m != 0.0 else m
    ph, pl = two_prod(k, LN2_HI)
    rh, rl = two_sum(y, -ph)
    r = rh + (rl - pl - k * LN2_LO)
    return math.ldexp(m * math.exp(r), int(e))


@jit
def _times_exp_neg(m, ex, x):
    return _times_exp(m, ex, -x)


@jit
def _ik_pos(v, x, need_i, need_k, scaled):
    """(I_v(x), K_v(x)) for v >= 0, 0 < x < inf, both times (e^-x, e^x) when ``scaled``."""
    n = _round_half_away(v)
    u = v - n
    ni = int(n) if n < 2e9 else 2000000000
    iv_ = NAN
    kv_ = NAN
    if need_i and (x <= TEMME_K_MAX or x * x < I_SERIES_K * (v + 1.0)):
        # all terms positive: the power series (DLMF 10.25.2) is accurate
        iv_ = _i_series(v, x)
        if scaled:
            iv_ *= math.exp(-x)
        if not need_k:
            return iv_, kv_
        need_i = False
    if x < TINY_X:
        if ni >= 2:
            return iv_, INF
        ku, ku1, e = _temme_k(u, x)
        return iv_, math.ldexp(ku if ni == 0 else ku1, e)
    if v > V_BIG or (need_i and v >= 1000.0 and x > 8.0 * v and x > 1e5):
        # (CF1 for I_{v+1}/I_v would take ~x terms; the expansion in 1/v is exact to
        # rounding there)
        return _ik_uniform(v, x, scaled)
    if x >= HANKEL_MIN:
        ok, si, sk = _large_x_ik(v, x)
        if ok:
            ah, al = _sqrt_dd_quot(0.5 * INVPI_HI, 0.5 * INVPI_LO, x)     # 1/sqrt(2 pi x)
            ih = dd_mul(ah, al, si, 0.0)[0]
            bh, bl = _sqrt_dd_quot(PIO2_1, PIO2_2, x)                     # sqrt(pi/(2x))
            kh = dd_mul(bh, bl, sk, 0.0)[0]
            if scaled:
                return ih, kh
            return _times_exp(ih, 0, x), _times_exp_neg(kh, 0, x)
    if x <= TEMME_K_MAX and u != -0.5:
        ku, ku1, e = _temme_k(u, x)
        kvm, kv1m, ex = _forward_k(u, ni, x, ku, ku1)
        ex += e
        if need_k:
            kv_ = math.ldexp(kvm * math.exp(x) if scaled else kvm, ex)
        if need_i:
            f = _cf1_ik(v, x)
            iv_ = math.ldexp((1.0 / x) / (kvm * f + kv1m), -ex)
            if scaled:
                iv_ *= math.exp(-x)
        return iv_, kv_
    if u == -0.5:
        # half-integer orders: e^x K_{-1/2} = e^x K_{1/2} = sqrt(pi / (2x)) (DLMF 10.39.2)
        kh, kl = _sqrt_dd_quot(PIO2_1, PIO2_2, x)
        kvm, kv1m, ex = _forward(u, ni, x, kh, kh, True, kl, kl)
    else:
        ku, ku1 = _cf2_k_scaled(u, x)
        kvm, kv1m, ex = _forward_k(u, ni, x, ku, ku1)
    if need_k:
        if scaled:
            kv_ = math.ldexp(kvm, ex)
        else:
            kv_ = _times_exp_neg(kvm, ex, x)
    if need_i:
        f = _cf1_ik(v, x)
        iv_ = (1.0 / x) / (kvm * f + kv1m)
        iv_ = math.ldexp(iv_, -ex) if scaled else _times_exp(iv_, -ex, x)
    return iv_, kv_


# -- the ufunc kernels -------------------------------------------------------------------------
@jit
def _is_int(v):
    return v == np.floor(v)


@jit
def _odd(f):
    # whether the integer-valued double f is odd (exact for any magnitude)
    h = 0.5 * f
    return h != np.floor(h)


@jit
def jv(v, x):
    """Bessel function of the first kind J_v(x) (scipy.special.jv for real arguments)."""
    if v != v or x != x or x == INF or x == -INF:
        return NAN
    if v == INF or v == -INF:
        return 0.0 if x >= 0.0 else NAN    # the limit; the parity of inf is unknown
    if _is_int(v):
        a = abs(v)
        sign = -1.0 if (v < 0.0 and _odd(a)) else 1.0
        if x < 0.0:
            x = -x
            if _odd(a):
                sign = -sign
        if x == 0.0:
            return sign * (1.0 if a == 0.0 else 0.0)
        return sign * _jy_pos(a, x, True, False)[0]
    if x < 0.0:
        return NAN
    if v > 0.0:
        if x == 0.0:
            return 0.0
        return _jy_pos(v, x, True, False)[0]
    a = -v
    s = sinpi(a)
    if x == 0.0:
        return math.copysign(INF, s)
    if HANKEL_MIN <= x <= DD_TRIG_MAX and a <= x:
        ok, jj, yy = _jy_hankel_rec(v, x, True, False)
        if ok:
            return jj
    c = cospi(a)
    jj, ym, ye = _jy_pos_me(a, x, c != 0.0, True)
    sy = math.ldexp(s * ym, ye)          # Y_a may overflow where sin(pi a) Y_a does not
    if c == 0.0:
        return -sy
    return c * jj - sy


@jit
def yv(v, x):
    """Bessel function of the second kind Y_v(x) (scipy.special.yv for real arguments)."""
    if v != v or x != x or x < 0.0 or x == INF:
        return NAN
    if v == INF or v == -INF:
        return -INF if x == 0.0 else NAN
    if _is_int(v):
        a = abs(v)
        sign = -1.0 if (v < 0.0 and _odd(a)) else 1.0
        if x == 0.0:
            return -sign * INF
        return sign * _jy_pos(a, x, False, True)[1]
    if v > 0.0:
        if x == 0.0:
            return -INF
        return _jy_pos(v, x, False, True)[1]
    a = -v
    if x == 0.0:
        # SciPy's value (Cephes yv: (cos(pi v) J_v(0) - J_-v(0)) / sin(pi v))
        t = PI * v
        y = math.cos(t) * math.copysign(INF, sinpi(a)) / math.sin(t)
        if v < -1e10:
            return NAN
        return y
    if HANKEL_MIN <= x <= DD_TRIG_MAX and a <= x:
        ok, jj, yy = _jy_hankel_rec(v, x, False, True)
        if ok:
            return yy
    s = sinpi(a)
    c = cospi(a)
    jj, ym, ye = _jy_pos_me(a, x, True, c != 0.0)
    if c == 0.0:
        return s * jj
    return s * jj + math.ldexp(c * ym, ye)


@jit
def kv(v, x):
    """Modified Bessel function of the second kind K_v(x) (scipy.special.kv, real)."""
    if x != x or x < 0.0:
        return NAN
    if x == 0.0:
        return INF
    if v != v or v == INF or v == -INF:
        return NAN
    if x == INF:
        return 0.0
    return _ik_pos(abs(v), x, False, True, False)[1]


@jit
def kve(v, x):
    """Exponentially scaled K_v: exp(x) K_v(x) (scipy.special.kve, real)."""
    if x != x or x < 0.0:
        return NAN
    if x == 0.0:
        return INF
    if x == INF or v != v or v == INF or v == -INF:
        return NAN
    return _ik_pos(abs(v), x, False, True, True)[1]


@jit
def iv(v, x):
    """Modified Bessel function of the first kind I_v(x) (scipy.special.iv, real)."""
    if v != v or x != x or x == INF or x == -INF:
        return NAN
    if v == INF or v == -INF:
        return 0.0
    if _is_int(v):
        a = abs(v)
        sign = 1.0
        if x < 0.0:
            x = -x
            if _odd(a):
                sign = -1.0
        if x == 0.0:
            return sign * (1.0 if a == 0.0 else 0.0)
        return sign * _ik_pos(a, x, True, False, False)[0]
    if x < 0.0:
        return NAN
    if v > 0.0:
        if x == 0.0:
            return 0.0
        return _ik_pos(v, x, True, False, False)[0]
    if x == 0.0:
        return INF
    a = -v
    ii, kk = _ik_pos(a, x, True, True, False)
    # I_-a = I_a + (2/pi) sin(pi a) K_a (DLMF 10.27.2)
    return ii + (W_PI * sinpi(a)) * kk


@jit
def ive(v, x):
    """Exponentially scaled I_v: exp(-|x|) I_v(x) (scipy.special.ive, real)."""
    if v != v or x != x or x == INF or x == -INF or v == INF or v == -INF:
        return NAN
    if _is_int(v):
        a = abs(v)
        sign = 1.0
        if x < 0.0:
            x = -x
            if _odd(a):
                sign = -1.0
        if x == 0.0:
            return sign * (1.0 if a == 0.0 else 0.0)
        return sign * _ik_pos(a, x, True, False, True)[0]
    if x < 0.0:
        return NAN
    if v > 0.0:
        if x == 0.0:
            return 0.0
        return _ik_pos(v, x, True, False, True)[0]
    if x == 0.0:
        return NAN
    a = -v
    ii, kk = _ik_pos(a, x, True, True, True)
    # I_-a = I_a + (2/pi) sin(pi a) K_a (DLMF 10.27.2), K_a scaled by e^x, I_a by e^-x
    return ii + (W_PI * sinpi(a)) * (kk * math.exp(-2.0 * x))


# -- integer orders: yn (Cephes) and kn ------------------------------------------------------
INT_MIN = -2147483648


@jit
def _cephes_yn(n, x):
    """Y_n(x) for a C int n (xsf/cephes/yn.h: forward recurrence from Y_0, Y_1), as SciPy;
    n = INT_MIN (what SciPy's loops make of orders beyond the int range) and orders so large
    that the recurrence must overflow give its overflow value without running it."""
    sign = 1.0
    if n < 0:
        n = -n
        if n & 1:
            sign = -1.0
    if n == 0:
        return sign * y0(x)
    if n == 1:
        return sign * y1(x)
    if x == 0.0:
        return -INF * sign
    if x < 0.0:
        return NAN
    if x != x or x == INF:
        return NAN        # as the recurrence from y0(inf) = y1(inf) = NaN
    if n >= -INT_MIN or n > 2.0 * x + 1000.0:
        return -INF * sign
    if n > 1000000:
        # not a recurrence of a million steps or more (SciPy's): the kernel of yv
        return sign * _jy_pos(float(n), x, False, True)[1]
    anm2 = y0(x)
    anm1 = y1(x)
    an = anm1
    r = 2.0
    k = 1
    while True:
        an = r * anm1 / x - anm2
        anm2 = anm1
        anm1 = an
        r += 2.0
        k += 1
        if not (k < n and math.isfinite(an)):
            break
    return sign * an


@jit
def yn(n, x):
    """scipy.special.yn: an int64 order wraps to a C int, a float one is truncated toward zero
    (NaN stays NaN; beyond the int range, or infinite, it becomes INT_MIN), as SciPy's loops."""
    if isinstance(n, int):
        m = ((n + 2147483648) & 0xFFFFFFFF) - 2147483648
        return _cephes_yn(m, x)
    f = np.float64(n)
    if f != f:
        return f
    if not (-2147483649.0 < f < 2147483648.0):
        return _cephes_yn(INT_MIN, x)
    return _cephes_yn(int(f), x)


@jit
def kn(n, x):
    """scipy.special.kn: K_n(x) = kv(n, x), a float order truncated toward zero."""
    if isinstance(n, int):
        return kv(np.float64(n), x)
    f = np.float64(n)
    if f != f:
        return f
    if not (-9.2e18 < f < 9.2e18):
        f = -9223372036854775808.0    # SciPy's conversion to a C long
    return kv(np.trunc(f), x)
