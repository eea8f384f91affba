"""Regularized incomplete beta functions, their inverses and derivatives.

``betainc``/``betaincc`` (SciPy: Boost.Math's ``ibeta``/``ibetac``) are evaluated in
double-double arithmetic (~32 digits) and rounded once, so that both are within an ulp of the
exact value (SciPy's double ``ibeta`` is off by up to ~1e3 ulp for large parameters):

- the power term ``x^a (1-x)^b / (a B(a, b))`` in Boost's Lanczos form (``ibeta_power_terms``,
  J. Maddock), ``S(a+b) / (a S(a) S(b)) (x cgh/agh)^a (y cgh/bgh)^b sqrt(agh bgh/(e cgh))``,
  with Boost's ``lanczos24m113`` approximation (error 1e-38), double-double log, log1p and
  exp, and the bases' differences from 1 formed as Boost forms them, so that nothing cancels
  for any a, b and no intermediate is subnormal;
- times the continued fraction of DiDonato and Morris's BFRAC (Boost's ``ibeta_fraction2``)
  on the side of the mean where it converges fast: ``I_x(a, b)`` for ``x <= (a+1)/(a+b+2)``,
  ``I_{1-x}(b, a)`` otherwise (``1 - x`` is exact in double-double); the other function is
  ``1 -`` that one, which keeps the digits a double result needs unless it is below ~1e-13:
  that takes a tiny parameter (a < 1e-12 and a < 1e-7 b, or b likewise), and there the
  first-order expansion in it (``_tiny_complement``);
- where the fraction would need more than 1e5 terms (a + b beyond ~1e13, x near the mean),
  the leading term of the uniform asymptotic expansion (as Boost's ``ibeta_large_ab``).

The inverses solve ``P(x) = y`` (or ``Q(x) = y``) for the smaller tail (``1 - y`` is exact for
``y > 1/2``) by Newton's method on ``log P`` (``log Q``) against ``log x`` below 1/2 and
``log(1 - x)`` above, safeguarded by bisection, from the starting values of Cephes ``incbi``
(Abramowitz & Stegun 26.5.22 for a, b > 1) or the leading terms of the tails; where a or b is
1, in closed form (as Boost). With the forward function accurate to ~1e-28 the root is within
an ulp of the exact one even where the inverse is ill-conditioned (small a).

Derivatives in ``a`` and ``b`` (any mixed order; the autodiff rules need them) come from
bivariate Taylor-mode ("jet") differentiation, in double precision, of the same power term
(its logarithm's Taylor coefficients are polygamma values) and continued fraction, cf. R. J.
Boik and J. F. Robison-Cox, "Derivatives of the incomplete beta function", J. Statistical
Software 3 (1998), who differentiate the continued fraction recursively.
"""
import math
from fractions import Fraction

import numpy as np

from .common import INF, NAN, jit
from .erf import erfc, ndtri
from .gamma import digamma, polygamma
from .igami import gammainccinv, gammaincinv


def _dd(text):
    f = Fraction(text)
    hi = float(f)
    return hi, float(f - Fraction(hi))


def _dd_array(texts):
    pairs = [_dd(t) for t in texts]
    return np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])


LN2_HI, LN2_LO = _dd("0.69314718055994530941723212145817656807550013436026")
E_HI, E_LO = _dd("2.7182818284590452353602874713526624977572470937")
# 1/(2k+1), for log's atanh series; 1/k!, for exp's Taylor series
_ODD_HI, _ODD_LO = _dd_array([Fraction(1, 2 * k + 1) for k in range(24)])
_FACT_HI, _FACT_LO = _dd_array([Fraction(1, math.factorial(k)) for k in range(12)])

# Boost.Math lanczos24m113 (N=24, g=20.32...; max error 1.05e-38): lanczos_sum_expG_scaled
LANCZOS_G = 20.3209821879863739013671875
_LZ_NUM_HI, _LZ_NUM_LO = _dd_array([
    "3035162425359883494754.02878223286972654682199012688209026810841953293372712802258398",
    "3496756894406430103600.16057175075063458536101374170860226963245118484234495645518505",
    "1926652656689320888654.01954015145958293168365236755537645929361841917596501251362171",
    "675517066488272766316.083023742440619929434602223726894748181327187670231286180156444",
    "169172853104918752780.086262749564831660238912144573032141700464995906149421555926000",
    "32197935167225605785.6444116302160245528783954573163541751756353183343357329404208062",
    "4837849542714083249.37587447454818124327561966323276633775195138872820542242539845253",
    "588431038090493242.308438203986649553459461798968819276505178004064031201740043314534",
    "58939585141634058.6206417889192563007809470547755357240808035714047014324843817783741",
    "4919561837722192.82991866530802080996138070630296720420704876654726991998309206256077",
    "344916580244240.407442753122831512004021081677987651622305356145640394384006997569631",
    "20413302960687.8250598845969238472629322716685686993835561234733641729957841485003560",
    "1022234822943.78400752460970689311934727763870970686747383486600540378889311406851534",
    "43313787191.9821354846952908076307094286897439975815501673706144217246093900159173598",
    "1549219505.59667418528481770869280437577581951167003505825834192510436144666564648361",
    "46544421.1998761919380541579358096705925369145324466147390364674998568485110045455014",
    "1165278.06807504975090675074910052763026564833951579556132777702952882101173607903881",
    "24024.759267256769471083727721827405338569868270177779485912486668586611981795179894",
    "400.965008113421955824358063769761286758463521789765880962939528760888853281920872064",
    "5.28299015654478269617039029170846385138134929147421558771949982217659507918482272439",
    "0.0528999024412510102409256676599360516359062802002483877724963720047531347449011629",
    "0.000378346710654740685454266569593414561162134092347356968516522170279688139165340746",
    "0.172194142179211139195966608011235161516824700287310869949928393345257114743230967e-5",
    "0.374799931707148855771381263542708435935402853962736029347951399323367765509988401e-8"])
# the denominator z (z+1) ... (z+22), divided by z: coefficients of z^0 .. z^22
_LZ_DEN = [1124000727777607680000, 4148476779335454720000, 6756146673770930688000,
           6548684852703068697600, 4280722865357147142912, 2021687376910682741568,
           720308216440924653696, 199321978221066137360, 43714229649594412832,
           7707401101297361068, 1103230881185949736, 129006659818331295, 12363045847086207,
           971250460939913, 62382416421941, 3256091103430, 136717357942, 4546047198,
           116896626, 2240315, 30107, 253, 1]
_LZ_DEN_HI, _LZ_DEN_LO = _dd_array([Fraction(c) for c in _LZ_DEN])

TINY = 1e-300
EULER = 0.57721566490153286061
ZETA2 = 1.6449340668482264365
CF_EPS = 1e-32
CF_MAXIT = 100000


# -- double-double arithmetic (Dekker 1971, Shewchuk 1997; Bailey's QD library) ------------
@jit
def _split(a):
    if abs(a) > 6.69692879491417e299:       # 2^996: 134217729 a would overflow
        a2 = a * 3.7252902984619140625e-09  # 2^-28
        c = 134217729.0 * a2
        hi = c - (c - a2)
        return hi * 268435456.0, (a2 - hi) * 268435456.0
    c = 134217729.0 * a
    hi = c - (c - a)
    return hi, a - hi


@jit
def two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@jit
def fast_two_sum(a, b):
    s = a + b
    return s, b - (s - a)


@jit
def two_prod(a, b):
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


@jit
def dd_add(ah, al, bh, bl):
    s, e = two_sum(ah, bh)
    t, f = two_sum(al, bl)
    e += t
    s, e = fast_two_sum(s, e)
    e += f
    return fast_two_sum(s, e)


@jit
def dd_add_d(ah, al, b):
    s, e = two_sum(ah, b)
    e += al
    return fast_two_sum(s, e)


@jit
def dd_mul(ah, al, bh, bl):
    p, e = two_prod(ah, bh)
    e += ah * bl + al * bh
    return fast_two_sum(p, e)


@jit
def dd_mul_d(ah, al, b):
    p, e = two_prod(ah, b)
    e += al * b
    return fast_two_sum(p, e)


@jit
def dd_div(ah, al, bh, bl):
    q1 = ah / bh
    ph, pl = dd_mul_d(bh, bl, q1)
    rh, rl = dd_add(ah, al, -ph, -pl)
    q2 = rh / bh
    ph, pl = dd_mul_d(bh, bl, q2)
    rh, rl = dd_add(rh, rl, -ph, -pl)
    q3 = rh / bh
    q1, q2 = fast_two_sum(q1, q2)
    return dd_add_d(q1, q2, q3)


@jit
def dd_sqrt(ah, al):
    if ah <= 0.0:
        return 0.0, 0.0
    s = math.sqrt(ah)
    p, e = two_prod(s, s)
    return fast_two_sum(s, ((ah - p) - e + al) / (2.0 * s))


@jit
def _log1p_core(uh, ul):
    """log(1 + u) for 1 + u in [1/sqrt(2), sqrt(2)]: 2 atanh(s), s = u / (2 + u)."""
    dh, dl = dd_add_d(uh, ul, 2.0)
    sh, sl = dd_div(uh, ul, dh, dl)
    s2h, s2l = dd_mul(sh, sl, sh, sl)
    th = _ODD_HI[23]
    tl = _ODD_LO[23]
    for k in range(22, -1, -1):
        th, tl = dd_mul(th, tl, s2h, s2l)
        th, tl = dd_add(th, tl, _ODD_HI[k], _ODD_LO[k])
    th, tl = dd_mul(th, tl, sh, sl)
    return 2.0 * th, 2.0 * tl


@jit
def dd_log(ah, al):
    """log(ah + al) for ah > 0, to ~1e-32 relative: log(m) + e log 2 with m in
    [1/sqrt(2), sqrt(2)), log(m) = 2 atanh(s), s = (m-1)/(m+1)."""
    m, e = math.frexp(ah)
    if m < 0.7071067811865476:
        m *= 2.0
        e -= 1
    uh, ul = two_sum(m - 1.0, math.ldexp(al, -e))
    th, tl = _log1p_core(uh, ul)
    if e != 0:
        lh, ll = dd_mul_d(LN2_HI, LN2_LO, float(e))
        th, tl = dd_add(th, tl, lh, ll)
    return th, tl


@jit
def dd_log1p(uh, ul):
    """log(1 + u) for u > -1, without forming 1 + u where u is small."""
    if abs(uh) < 1e-200:
        return uh, ul                        # log1p(u) = u (1 - u/2 + ...), also subnormal
    if -0.29 < uh < 0.41:
        return _log1p_core(uh, ul)
    vh, vl = dd_add_d(uh, ul, 1.0)
    return dd_log(vh, vl)


@jit
def dd_exp(h, l):
    """exp(h + l) as (mh, ml, n), the value (mh + ml) 2**n: the exponent apart, so that a
    product with other factors under- or overflows only once, at the end (mh = inf or 0
    only beyond |h| = 1e5)."""
    if h != h:
        return NAN, 0.0, 0
    if h > 1e5:
        return INF, 0.0, 0
    if h < -1e5:
        return 0.0, 0.0, 0
    k = np.floor(h / LN2_HI + 0.5)
    kh, kl = dd_mul_d(LN2_HI, LN2_LO, k)
    rh, rl = dd_add(h, l, -kh, -kl)
    rh *= 0.0009765625
    rl *= 0.0009765625
    th = _FACT_HI[9]
    tl = _FACT_LO[9]
    for i in range(8, 0, -1):
        th, tl = dd_mul(th, tl, rh, rl)
        th, tl = dd_add(th, tl, _FACT_HI[i], _FACT_LO[i])
    ph, pl = dd_mul(th, tl, rh, rl)          # expm1(r / 1024)
    for _ in range(10):                      # expm1(2u) = 2 expm1(u) + expm1(u)^2
        qh, ql = dd_mul(ph, pl, ph, pl)
        ph, pl = dd_add(2.0 * ph, 2.0 * pl, qh, ql)
    mh, ml = dd_add_d(ph, pl, 1.0)
    return mh, ml, int(k)


@jit
def dd_expm1_small(h, l):
    """expm1(h + l) for |h| < 0.35, to ~1e-32 relative (dd_exp's series and squarings)."""
    if abs(h) < 1e-200:
        return h, l                          # also subnormal
    rh = h * 0.0009765625
    rl = l * 0.0009765625
    th = _FACT_HI[9]
    tl = _FACT_LO[9]
    for i in range(8, 0, -1):
        th, tl = dd_mul(th, tl, rh, rl)
        th, tl = dd_add(th, tl, _FACT_HI[i], _FACT_LO[i])
    ph, pl = dd_mul(th, tl, rh, rl)
    for _ in range(10):
        qh, ql = dd_mul(ph, pl, ph, pl)
        ph, pl = dd_add(2.0 * ph, 2.0 * pl, qh, ql)
    return ph, pl


@jit
def dd_ldexp(h, l, n):
    return math.ldexp(h, n), math.ldexp(l, n)


# -- Lanczos form of the power term ------------------------------------------------------
@jit
def _lanczos_inv_zs(zh, zl):
    """1 / (z S(z)) in double-double, S = lanczos_sum_expG_scaled of lanczos24m113
    (Gamma(z) = S(z) (z+g-1/2)^(z-1/2) / e^(z-1/2)): the denominator's factor z taken out,
    so tiny z neither overflows nor loses anything."""
    if zh <= 1.0:
        nh = _LZ_NUM_HI[23]
        nl = _LZ_NUM_LO[23]
        for i in range(22, -1, -1):
            nh, nl = dd_mul(nh, nl, zh, zl)
            nh, nl = dd_add(nh, nl, _LZ_NUM_HI[i], _LZ_NUM_LO[i])
        dh = _LZ_DEN_HI[22]
        dl = _LZ_DEN_LO[22]
        for i in range(21, -1, -1):
            dh, dl = dd_mul(dh, dl, zh, zl)
            dh, dl = dd_add(dh, dl, _LZ_DEN_HI[i], _LZ_DEN_LO[i])
        return dd_div(dh, dl, nh, nl)
    # in 1/z: num(z) = z^23 sum num[i] z^(i-23), den(z)/z = z^22 sum den[i] z^(i-22)
    wh, wl = dd_div(1.0, 0.0, zh, zl)
    nh = _LZ_NUM_HI[0]
    nl = _LZ_NUM_LO[0]
    for i in range(1, 24):
        nh, nl = dd_mul(nh, nl, wh, wl)
        nh, nl = dd_add(nh, nl, _LZ_NUM_HI[i], _LZ_NUM_LO[i])
    dh = _LZ_DEN_HI[0]
    dl = _LZ_DEN_LO[0]
    for i in range(1, 23):
        dh, dl = dd_mul(dh, dl, wh, wl)
        dh, dl = dd_add(dh, dl, _LZ_DEN_HI[i], _LZ_DEN_LO[i])
    rh, rl = dd_div(dh, dl, nh, nl)
    return dd_mul(rh, rl, wh, wl)


@jit
def _pow_log(e, uh, ul, ph, pl, qh, ql, nh, nl):
    """e log(u p / q) with u p / q = 1 + n / q: e (log(u) + log(p / q)) where the base is
    below 1/2 (u may be tiny, even subnormal, and 1 + l cancels); e log1p(n / q) otherwise,
    and (e / q) n where n / q is below 1e-30 (then it may be ~1/e ~ 1e-300 and e huge: no
    subnormal intermediate). n is formed without cancellation by the caller."""
    th, tl = dd_mul(uh, ul, ph, pl)
    if th < 0.5 * qh:
        rh, rl = dd_div(ph, pl, qh, ql)
        ah, al = dd_log(rh, rl)
        bh, bl = dd_log(uh, ul)
        ah, al = dd_add(ah, al, bh, bl)
        return dd_mul_d(ah, al, e)
    if abs(nh) < 1e-30 * qh:
        rh, rl = dd_div(e, 0.0, qh, ql)
        return dd_mul(rh, rl, nh, nl)
    lh, ll = dd_div(nh, nl, qh, ql)
    lh, ll = dd_log1p(lh, ll)
    return dd_mul_d(lh, ll, e)


@jit
def power_term(a, b, xh, xl, yh, yl):
    """x^a y^b / (a B(a, b)) for a, b > 0 and x + y = 1 (double-double x, y), as
    (mh, ml, n): the value (mh + ml) 2**n (mh = 0 where it underflows entirely)."""
    gh = LANCZOS_G - 0.5
    aghh, aghl = two_sum(a, gh)
    bghh, bghl = two_sum(b, gh)
    ch, cl = two_sum(a, b)
    cghh, cghl = dd_add_d(ch, cl, gh)
    # the powers, in logs: a log(x cgh / agh) + b log(y cgh / bgh), the bases 1 + l1 and
    # 1 + l2 with l1 = ((x b - y a) - y gh) / agh, l2 = ((y a - x b) - x gh) / bgh (Boost)
    th, tl = dd_mul_d(xh, xl, b)
    uh, ul = dd_mul_d(yh, yl, a)
    th, tl = dd_add(th, tl, -uh, -ul)
    uh, ul = dd_mul_d(yh, yl, gh)
    n1h, n1l = dd_add(th, tl, -uh, -ul)
    uh, ul = dd_mul_d(xh, xl, gh)
    n2h, n2l = dd_add(-th, -tl, -uh, -ul)
    eh, el = _pow_log(a, xh, xl, cghh, cghl, aghh, aghl, n1h, n1l)
    fh, fl = _pow_log(b, yh, yl, cghh, cghl, bghh, bghl, n2h, n2l)
    if not (math.isfinite(eh) and math.isfinite(fh)):
        return 0.0, 0.0, 0       # a power of a base < 1 with a huge exponent
    eh, el = dd_add(eh, el, fh, fl)
    mh, ml, n = dd_exp(eh, el)
    if mh == 0.0 or mh == INF:
        return mh, 0.0, 0
    # S(c) / (a S(a) S(b)) = (b / c) / invzs(c) * invzs(a) invzs(b), invzs(z) = 1 / (z S(z)):
    # b / c first, so that tiny (subnormal) a and b do not overflow S(c) ~ 1 / c
    # (the partial products renormalised into n, so that none is subnormal)
    ih, il = _lanczos_inv_zs(ch, cl)
    bs = b
    if b < 1e-200:
        bs = math.ldexp(b, 600)
        n -= 600
    sh, sl = dd_div(bs, 0.0, ch, cl)
    sh, sl, n = _renorm(sh, sl, n)
    sh, sl = dd_div(sh, sl, ih, il)
    ih, il = _lanczos_inv_zs(a, 0.0)
    sh, sl = dd_mul(sh, sl, ih, il)
    sh, sl, n = _renorm(sh, sl, n)
    ih, il = _lanczos_inv_zs(b, 0.0)
    sh, sl = dd_mul(sh, sl, ih, il)
    sh, sl, n = _renorm(sh, sl, n)
    # sqrt(agh bgh / (e cgh))
    qh, ql = dd_mul(aghh, aghl, bghh, bghl)
    rh, rl = dd_mul(cghh, cghl, E_HI, E_LO)
    qh, ql = dd_div(qh, ql, rh, rl)
    qh, ql = dd_sqrt(qh, ql)
    sh, sl = dd_mul(sh, sl, qh, ql)
    mh, ml = dd_mul(mh, ml, sh, sl)
    return _renorm(mh, ml, n)


@jit
def _renorm(h, l, n):
    """(h, l) 2**n with h scaled to [0.5, 1) when it is far from 1 (exactly)."""
    if h != 0.0 and (abs(h) < 1e-200 or abs(h) > 1e200):
        m, e = math.frexp(h)
        return m, math.ldexp(l, -e), n + e
    return h, l, n


# -- the continued fraction ----------------------------------------------------------------
@jit
def cont_frac(a, b, xh, xl, yh, yl):
    """h with I_x(a, b) = x^a y^b / (a B(a, b)) h, y = 1 - x: the continued fraction of
    DiDonato and Morris's BFRAC (Boost's ibeta_fraction2; the even part of DLMF 8.17.22),
    I_x = x^a y^b / B / (b0 + a1 / (b1 + a2 / (b2 + ...))), by the modified Lentz algorithm
    in double-double; fast for x <= (a + 1) / (a + b + 2). Its terms involve a y - b x + 1,
    formed from x and y without cancellation, and products of ratios (no overflow).
    Returns (hh, hl, converged): CF_MAXIT terms are enough up to a + b ~ 1e13."""
    # k = a y - b x + 1
    kh, kl = dd_mul_d(yh, yl, a)
    th, tl = dd_mul_d(xh, xl, b)
    kh, kl = dd_add(kh, kl, -th, -tl)
    kh, kl = dd_add_d(kh, kl, 1.0)
    sh, sl = two_sum(a, b)
    oh, ol = dd_add_d(yh, yl, 1.0)              # 2 - x
    # the fraction divided by a (for tiny a): b0 / a = k / (a + 1), a_1 / a = (a + b)
    # (b - 1) x^2 / (a + 1)^2, the rest as they are
    ph, pl = two_sum(a, 1.0)
    fh, fl = dd_div(kh, kl, ph, pl)
    if abs(fh) < TINY:
        fh, fl = TINY, 0.0
    ch, cl = fh, fl
    dh, dl = 0.0, 0.0
    for m in range(1, CF_MAXIT):
        fm = float(m)
        # a_m = m (a + m - 1) / (a + 2m - 1) * (a + b + m - 1) x / (a + 2m - 1) * (b - m) x
        e1h, e1l = two_sum(a, 2.0 * fm - 1.0)
        if m == 1:
            nh, nl = dd_div(1.0, 0.0, e1h, e1l)
        else:
            nh, nl = two_sum(a, fm - 1.0)
            nh, nl = dd_mul_d(nh, nl, fm)
            nh, nl = dd_div(nh, nl, e1h, e1l)
        qh, ql = dd_add_d(sh, sl, fm - 1.0)
        qh, ql = dd_mul(qh, ql, xh, xl)
        qh, ql = dd_div(qh, ql, e1h, e1l)
        nh, nl = dd_mul(nh, nl, qh, ql)
        qh, ql = two_sum(b, -fm)
        th, tl = dd_mul(qh, ql, xh, xl)
        ah_, al_ = dd_mul(nh, nl, th, tl)
        # b_m = m + m (b - m) x / (a + 2m - 1) + (a + m) (k + m (2 - x)) / (a + 2m + 1)
        th, tl = dd_mul_d(qh, ql, fm)
        th, tl = dd_mul(th, tl, xh, xl)
        th, tl = dd_div(th, tl, e1h, e1l)
        uh, ul = dd_mul_d(oh, ol, fm)
        uh, ul = dd_add(uh, ul, kh, kl)
        vh, vl = two_sum(a, fm)
        wh, wl = two_sum(a, 2.0 * fm + 1.0)
        vh, vl = dd_div(vh, vl, wh, wl)
        uh, ul = dd_mul(uh, ul, vh, vl)
        bh_, bl_ = dd_add(th, tl, uh, ul)
        bh_, bl_ = dd_add_d(bh_, bl_, fm)
        # modified Lentz: D = 1 / (b_m + a_m D), C = b_m + a_m / C, f *= C D
        th, tl = dd_mul(ah_, al_, dh, dl)
        dh, dl = dd_add(bh_, bl_, th, tl)
        if abs(dh) < TINY:
            dh, dl = TINY, 0.0
        th, tl = dd_div(ah_, al_, ch, cl)
        ch, cl = dd_add(bh_, bl_, th, tl)
        if abs(ch) < TINY:
            ch, cl = TINY, 0.0
        dh, dl = dd_div(1.0, 0.0, dh, dl)
        th, tl = dd_mul(ch, cl, dh, dl)
        fh, fl = dd_mul(fh, fl, th, tl)
        if abs((th - 1.0) + tl) < CF_EPS:
            hh, hl = dd_div(1.0, 0.0, fh, fl)
            return hh, hl, True
    hh, hl = dd_div(1.0, 0.0, fh, fl)
    return hh, hl, False


# -- the regularized functions -------------------------------------------------------------
@jit
def _large_ab(a, b, x):
    """(P, Q) from the leading term of the uniform expansion for large a + b (DLMF 8.18.9,
    Boost's ibeta_large_ab): erfc(-+eta sqrt((a+b)/2)) / 2, -eta^2/2 = x0 log(x/x0) +
    y0 log(y/y0), x0 = a/(a+b); only where the continued fraction needs more than CF_MAXIT
    terms (a + b beyond ~1e13, x within a few standard deviations of the mean)."""
    c = a + b
    x0 = a / c
    y0 = b / c
    d = x - x0
    nu = x0 * math.log1p(d / x0) + y0 * math.log1p(-d / y0)
    eta = math.sqrt(max(-2.0 * nu, 0.0))
    if d < 0.0:
        eta = -eta
    s = eta * math.sqrt(0.5 * c)
    return 0.5 * erfc(-s), 0.5 * erfc(s)


@jit
def _psi_minus_log(b):
    """psi(b) - log(b), without cancellation for large b (DLMF 5.11.2)."""
    if b < 10.0:
        return digamma(b) - math.log(b)
    w = 1.0 / (b * b)
    s = w * (1.0 / 12.0 - w * (1.0 / 120.0 - w * (1.0 / 252.0 - w * (
        1.0 / 240.0 - w * (1.0 / 132.0 - w * (691.0 / 32760.0 - w / 12.0))))))
    return -0.5 / b - s


@jit
def _tiny_complement(a, b, xh, xl):
    """1 - I_x(a, b) for tiny a (a < 1e-12, a < 1e-7 b), where 1 - I_x cancels: Q = a R J
    with R = Gamma(a+b) / (Gamma(1+a) Gamma(b)) and J = int_x^1 t^(a-1) (1-t)^(b-1) dt =
    (B(a, b) - 1/a) + (1 - x^a)/a - sum_n c_n x^(n+a)/(n+a), c_n = (1-b)_n / n!, each part to
    first order in a (the neglected terms are O((a log x)^2, (a/b)^3)). For tiny b as well,
    psi(b) + gamma ~ -1/b: then Q = (a/b) R (b J), b J = 1 - b (log x + L0) + O(b^2)."""
    lxh, lxl = dd_log(xh, xl)
    lx = lxh + lxl
    t = 1.0
    l0 = 0.0
    l2 = 0.0
    for n in range(1, 100000):
        fn = float(n)
        t *= (fn - b) / fn * xh
        l0 += t / fn
        l2 += t / (fn * fn)
        if t == 0.0 or abs(t) < 1e-18 * abs(l0):
            break
    if b < 1e-8:
        r = a / b
        return r * math.exp(-r + 0.5 * r * r) * (1.0 - b * (lx + l0))
    psi_g = digamma(b) + EULER
    tri = polygamma(1.0, b) - ZETA2
    if b > 2.0:
        # -log x - psi(b) = -log(x b) - (psi(b) - log b), which cancel for x ~ 1/b
        if xh > 1e-290:
            ph, pl = dd_mul_d(xh, xl, b)
            lh, ll = dd_log(ph, pl)
        else:
            lh, ll = dd_add_d(lxh, lxl, math.log(b))
        j0 = -(lh + ll) - _psi_minus_log(b) - EULER
    else:
        j0 = -lx - psi_g
    j0 -= l0
    j1 = -0.5 * lx * lx + 0.5 * (psi_g * psi_g - tri) - lx * l0 + l2
    log_r = a * psi_g + 0.5 * a * a * tri
    return a * math.exp(log_r) * (j0 + a * j1)


@jit
def ibeta_pq(a, b, x):
    """(ph, pl, qh, ql, dh, dl): P = I_x(a, b), Q = 1 - P and the power term
    x^a y^b / B(a, b), all double-double, for finite a, b > 0 and 0 < x < 1."""
    yh, yl = two_sum(1.0, -x)
    if x * (a + b + 2.0) <= a + 1.0:
        mh, ml, n = power_term(a, b, x, 0.0, yh, yl)
        if mh == 0.0:
            return 0.0, 0.0, 1.0, 0.0, 0.0, 0.0
        hh, hl, ok = cont_frac(a, b, x, 0.0, yh, yl)
        if not ok:
            p, q = _large_ab(a, b, x)
            dh, dl = dd_ldexp(mh, ml, n)
            dh, dl = dd_mul_d(dh, dl, a)
            return p, 0.0, q, 0.0, dh, dl
        ph, pl = dd_mul(mh, ml, hh, hl)
        ph, pl = dd_ldexp(ph, pl, n)
        if a < 1e-12 and a < 1e-7 * b:
            qh, ql = _tiny_complement(a, b, x, 0.0), 0.0
        else:
            qh, ql = dd_add_d(-ph, -pl, 1.0)
        dh, dl = dd_ldexp(mh, ml, n)
        dh, dl = dd_mul_d(dh, dl, a)
    else:
        mh, ml, n = power_term(b, a, yh, yl, x, 0.0)
        if mh == 0.0:
            return 1.0, 0.0, 0.0, 0.0, 0.0, 0.0
        hh, hl, ok = cont_frac(b, a, yh, yl, x, 0.0)
        if not ok:
            p, q = _large_ab(a, b, x)
            dh, dl = dd_ldexp(mh, ml, n)
            dh, dl = dd_mul_d(dh, dl, b)
            return p, 0.0, q, 0.0, dh, dl
        qh, ql = dd_mul(mh, ml, hh, hl)
        qh, ql = dd_ldexp(qh, ql, n)
        if b < 1e-12 and b < 1e-7 * a:
            ph, pl = _tiny_complement(b, a, yh, yl), 0.0
        else:
            ph, pl = dd_add_d(-qh, -ql, 1.0)
        dh, dl = dd_ldexp(mh, ml, n)
        dh, dl = dd_mul_d(dh, dl, b)
    return ph, pl, qh, ql, dh, dl


@jit
def _edge(a, b, x, upper):
    """SciPy's ibeta_wrap/ibetac_wrap cases before Boost: (done, value)."""
    if a != a or b != b or x != x:
        return True, NAN
    if a < 0.0 or b < 0.0 or x < 0.0 or x > 1.0:
        return True, NAN
    if (a == 0.0 and b == 0.0) or (math.isinf(a) and math.isinf(b)):
        return True, NAN
    if a == 0.0 or math.isinf(b):
        p = 1.0 if x > 0.0 else 0.0
        return True, (1.0 - p if upper else p)
    if b == 0.0 or math.isinf(a):
        p = 0.0 if x < 1.0 else 1.0
        return True, (1.0 - p if upper else p)
    if x == 0.0:
        return True, (1.0 if upper else 0.0)
    if x == 1.0:
        return True, (0.0 if upper else 1.0)
    return False, 0.0


@jit
def betainc(a, b, x):
    """Regularized incomplete beta function I_x(a, b)."""
    done, v = _edge(a, b, x, False)
    if done:
        return v
    ph, pl, qh, ql, dh, dl = ibeta_pq(a, b, x)
    return ph + pl


@jit
def betaincc(a, b, x):
    """Complement 1 - I_x(a, b)."""
    done, v = _edge(a, b, x, True)
    if done:
        return v
    ph, pl, qh, ql, dh, dl = ibeta_pq(a, b, x)
    return qh + ql


# -- inverses ------------------------------------------------------------------------------
@jit
def _inv_start(a, b, t, lower):
    """Starting value for the root x of P(x) = t (lower) or Q(x) = t (t <= 1/2): Cephes
    incbi's Abramowitz & Stegun 26.5.22 for a, b > 1, the leading term of the tail
    (x^a / (a B) or (1-x)^b / (b B)) otherwise."""
    if a > 1.0 and b > 1.0:
        yp = -ndtri(t)
        p, q = (a, b) if lower else (b, a)
        lgm = (yp * yp - 3.0) / 6.0
        h = 2.0 / (1.0 / (2.0 * p - 1.0) + 1.0 / (2.0 * q - 1.0))
        d = yp * math.sqrt(h + lgm) / h - (1.0 / (2.0 * q - 1.0) - 1.0 / (2.0 * p - 1.0)) * (
            lgm + 5.0 / 6.0 - 2.0 / (3.0 * h))
        d = 2.0 * d
        if d > 700.0:
            z = 0.0
        else:
            z = p / (p + q * math.exp(d))
        return z if lower else 1.0 - z
    lbeta = math.lgamma(a) + math.lgamma(b) - math.lgamma(a + b)
    lp = math.log(t) if lower else math.log1p(-t)
    lq = math.log1p(-t) if lower else math.log(t)
    x = math.exp((lp + math.log(a) + lbeta) / a)
    z = math.exp((lq + math.log(b) + lbeta) / b)
    # each tail's formula where it gives a point of (0, 1), the requested tail's first
    if lower:
        return x if x < 1.0 else (1.0 - z if z < 1.0 else 0.5)
    return 1.0 - z if z < 1.0 else (x if x < 1.0 else 0.5)


@jit
def _bisect(lo, hi):
    """A point inside (lo, hi): geometric towards 0 below 1/2, towards 1 above."""
    if hi <= 0.5:
        return hi * 0.0625 if lo == 0.0 else (math.sqrt(lo) * math.sqrt(hi) if hi > 4.0 * lo
                                               else 0.5 * (lo + hi))
    if lo >= 0.5:
        zlo = 1.0 - hi
        zhi = 1.0 - lo
        zn = zhi * 0.0625 if zlo == 0.0 else (math.sqrt(zlo) * math.sqrt(zhi)
                                               if zhi > 4.0 * zlo else 0.5 * (zlo + zhi))
        return 1.0 - zn
    return 0.5 * (lo + hi)


@jit
def ibeta_inv(a, b, t, lower):
    return _ibeta_inv(a, b, t, lower)[0]


@jit
def _ibeta_inv(a, b, t, lower):
    """The x in [0, 1] with I_x(a, b) = t (lower) or 1 - I_x(a, b) = t, for finite a, b > 0
    and 0 < t < 1: Newton's method on g = log(F / t) for the smaller tail F (P or Q), against
    log x below 1/2 and log(1-x) above, kept inside the bracket the evaluations establish
    (bisection otherwise). Stops once a step is below 4e-16 x: the function is accurate to
    ~1e-28, so the last step lands within an ulp of the root."""
    if t > 0.5:
        t = 1.0 - t                         # exact
        lower = not lower
    x = _inv_start(a, b, t, lower)
    lo = 0.0
    hi = 1.0
    if not (x < 1.0):
        x = 1.0 - 1.1102230246251565e-16
    if not (x > 0.0):
        x = 5e-324                          # the root may underflow: try the least first
    for it in range(500):
        ph, pl, qh, ql, dh, dl = ibeta_pq(a, b, x)
        fh, fl = (ph, pl) if lower else (qh, ql)
        rh, rl = dd_add_d(fh, fl, -t)
        r = (rh + rl) / t
        if r == 0.0:
            return x, it
        if (r < 0.0) == lower:
            lo = x
        else:
            hi = x
        xn = -1.0
        dens = dh + dl                      # x (1-x) p(x)
        if fh > 0.0 and dens > 0.0:
            g = math.log1p(r) if r > -0.5 else math.log(fh / t)    # log(F / t)
            dfh = dens / fh if lower else -dens / fh     # x (1-x) F'(x) / F
            if x <= 0.5:
                zh, zl = two_sum(1.0, -x)
                step = g * (zh + zl) / dfh                # in log x
                xn = x + x * math.expm1(-step)
            else:
                zh, zl = two_sum(1.0, -x)
                step = -g * x / dfh                       # in log(1 - x)
                xn = 1.0 - (zh + (zh * math.expm1(-step) + zl))
            if abs(xn - x) <= 4e-16 * x and lo <= xn <= hi:
                return xn, it
            if xn != xn:
                xn = -1.0
            elif xn == 0.0 and hi > 5e-324:
                xn = 5e-324                 # Newton's step underflows: the least double
            elif xn == 1.0 and lo < 1.0 - 1.1102230246251565e-16:
                xn = 1.0 - 1.1102230246251565e-16
        if not (lo < xn < hi):
            xn = _bisect(lo, hi)
            if xn <= lo or xn >= hi:
                # the bracket is down to adjacent doubles, or the root under/overflows
                if lo == 0.0:
                    return 0.0, it
                if hi == 1.0:
                    return 1.0, it
                return x, it
        x = xn
    return x, 500


@jit
def _root_power(lh, ll, c, one_minus):
    """exp(L / c) (one_minus: 1 - exp(L / c) = -expm1(L / c)) for the double-double L <= 0,
    rounded once: the inverses where a or b is 1 (x^a = y, (1 - x)^b = 1 - y, ...)."""
    if lh != lh or c != c:
        return NAN
    if math.isinf(c):
        return 0.0 if one_minus else 1.0      # the power 1 / c is 0
    if lh / c < -800.0:                      # exp underflows (c may be tiny, L / c -inf)
        return 1.0 if one_minus else 0.0
    eh, el = dd_div(lh, ll, c, 0.0)
    if one_minus:
        if eh > -0.35:
            mh, ml = dd_expm1_small(eh, el)
            return -(mh + ml)
        mh, ml, n = dd_exp(eh, el)
        mh, ml = dd_ldexp(mh, ml, n)
        mh, ml = dd_add_d(-mh, -ml, 1.0)
        return mh + ml
    mh, ml, n = dd_exp(eh, el)
    return math.ldexp(mh + ml, n)


@jit
def _inv_closed(a, b, y, lower):
    """(done, x): the closed forms where a or b is 1 (infinite values included, as
    Boost's ibeta_inv): I_x(a, 1) = x^a, I_x(1, b) = 1 - (1 - x)^b."""
    if b == 1.0:
        lh, ll = dd_log(y, 0.0) if lower else dd_log1p(-y, 0.0)      # a log x
        return True, _root_power(lh, ll, a, False)
    if a == 1.0:
        lh, ll = dd_log1p(-y, 0.0) if lower else dd_log(y, 0.0)      # b log(1 - x)
        return True, _root_power(lh, ll, b, True)
    return False, 0.0


@jit
def _inv_edge(a, b, y):
    if a != a or b != b or y != y:
        return True, NAN
    if a <= 0.0 or b <= 0.0 or y < 0.0 or y > 1.0:
        return True, NAN
    return False, 0.0


TWO60 = 2.0 ** 60


@jit
def _inv_gamma_limit(a, b, y, lower):
    """(done, x) for b beyond 2**60 max(a^2, 1): there I_x(a, b) = P(a, b x) to a relative
    O((a^2 + (b x)^2) / b) (the gamma limit of the incomplete beta function, DLMF 8.17 /
    Temme), so x = P^-1(a, y) / b (Q^-1 for the upper tail) to rounding. The Newton
    iteration on I_x cannot resolve roots that close to the subnormal range (b ~ 1e302 and
    beyond: it gave 0 or values off by a factor)."""
    if not (b > TWO60 * max(a * a, 1.0)):
        return False, 0.0
    t = gammaincinv(a, y) if lower else gammainccinv(a, y)
    if not (t * t * TWO60 < b):
        return False, 0.0
    return True, t / b


@jit
def _inverse(a, b, y, lower):
    """The x with betainc(a, b, x) = y (lower) or betaincc(a, b, x) = y."""
    done, v = _inv_edge(a, b, y)
    if done:
        return v
    if y == 0.0 or y == 1.0:
        return y if lower else 1.0 - y
    done, v = _inv_closed(a, b, y, lower)
    if done:
        return v
    if math.isinf(a) or math.isinf(b):
        return NAN
    done, v = _inv_gamma_limit(a, b, y, lower)
    if done:
        return v
    return ibeta_inv(a, b, y, lower)


@jit
def betaincinv(a, b, y):
    """The x with betainc(a, b, x) = y."""
    return _inverse(a, b, y, True)


@jit
def betainccinv(a, b, y):
    """The x with betaincc(a, b, x) = y."""
    return _inverse(a, b, y, False)


# -- derivatives in a and b: bivariate Taylor-mode arithmetic -------------------------------
# A jet J[i, j] holds the Taylor coefficient of da^i db^j (the derivative / (i! j!)).
@jit
def jet_mul2(A, B):
    na, nb = A.shape
    C = np.zeros((na, nb))
    for i in range(na):
        for j in range(nb):
            s = 0.0
            for p in range(i + 1):
                for q in range(j + 1):
                    s += A[p, q] * B[i - p, j - q]
            C[i, j] = s
    return C


@jit
def jet_div2(A, B):
    na, nb = A.shape
    C = np.zeros((na, nb))
    for i in range(na):
        for j in range(nb):
            s = A[i, j]
            for p in range(i + 1):
                for q in range(j + 1):
                    if p != 0 or q != 0:
                        s -= B[p, q] * C[i - p, j - q]
            C[i, j] = s / B[0, 0]
    return C


@jit
def jet_exp2(U):
    """exp(U): i E[i, j] = sum_{p >= 1, q} p U[p, q] E[i-p, j-q] (from E_a = U_a E), and the
    same in the second variable on the row i = 0."""
    na, nb = U.shape
    E = np.zeros((na, nb))
    E[0, 0] = math.exp(U[0, 0])
    for i in range(na):
        for j in range(nb):
            if i == 0 and j == 0:
                continue
            s = 0.0
            if i > 0:
                for p in range(1, i + 1):
                    for q in range(j + 1):
                        s += p * U[p, q] * E[i - p, j - q]
                E[i, j] = s / i
            else:
                for q in range(1, j + 1):
                    s += q * U[0, q] * E[0, j - q]
                E[0, j] = s / j
    return E


@jit
def _log_power_jet(p, q, lx, ly, n_p, n_q, shift):
    """log(x^p y^q / B(p, q)) (shift = 1: also / p) as a jet in (p, q), value entry 0:
    p lx + q ly - lgamma(p + shift) - lgamma(q) + lgamma(p + q) (+ log p = lgamma(p+1))."""
    U = np.zeros((n_p, n_q))
    if n_p > 1:
        U[1, 0] += lx
    if n_q > 1:
        U[0, 1] += ly
    fi = 1.0
    for i in range(n_p):
        if i > 0:
            fi *= i
        fj = 1.0
        for j in range(n_q):
            if j > 0:
                fj *= j
            if i + j == 0:
                continue
            v = polygamma(float(i + j - 1), p + q)
            if j == 0:
                v -= polygamma(float(i - 1), p + shift)
            if i == 0:
                v -= polygamma(float(j - 1), q)
            U[i, j] += v / (fi * fj)
    return U


@jit
def _lin(c0, cp, cq, n_p, n_q):
    """The jet of c0 + cp dp + cq dq."""
    J = np.zeros((n_p, n_q))
    J[0, 0] = c0
    if n_p > 1:
        J[1, 0] = cp
    if n_q > 1:
        J[0, 1] = cq
    return J


@jit
def _cf_jet(p, q, x, y, n_p, n_q):
    """``cont_frac``'s h (x^p y^q / (p B(p, q)) h = I_x(p, q)) as a jet in (p, q), in double
    precision: h = 1 / F, F = b0 + a1 / (b1 + ...) divided by p, with a_m = m (p + m - 1) /
    (p + 2m - 1) * (p + q + m - 1) x / (p + 2m - 1) * (q - m) x (a_1 / p: 1 / (p + 1) for
    the first factor), b_m = m + m (q - m) x / (p + 2m - 1) + (p + m) (k + m (2 - x)) /
    (p + 2m + 1), b_0 / p = k / (p + 1), k = p y - q x + 1. Returns (h, converged)."""
    tiny = 1e-300
    one = _lin(1.0, 0.0, 0.0, n_p, n_q)
    k = _lin(p * y - q * x + 1.0, y, -x, n_p, n_q)
    f = jet_div2(k, _lin(p + 1.0, 1.0, 0.0, n_p, n_q))
    if abs(f[0, 0]) < tiny:
        f[0, 0] = tiny
    c = f.copy()
    d = np.zeros((n_p, n_q))
    for m in range(1, CF_MAXIT):
        fm = float(m)
        e1 = _lin(p + 2.0 * fm - 1.0, 1.0, 0.0, n_p, n_q)
        if m == 1:
            r1 = jet_div2(one, e1)
        else:
            r1 = jet_div2(_lin(fm * (p + fm - 1.0), fm, 0.0, n_p, n_q), e1)
        r2 = jet_div2(_lin((p + q + fm - 1.0) * x, x, x, n_p, n_q), e1)
        qm = _lin(q - fm, 0.0, 1.0, n_p, n_q)
        am = jet_mul2(jet_mul2(r1, r2), qm * x)
        t2 = jet_div2(qm * (fm * x), e1)
        km = k.copy()
        km[0, 0] += fm * (1.0 + y)
        t3 = jet_div2(_lin(p + fm, 1.0, 0.0, n_p, n_q),
                      _lin(p + 2.0 * fm + 1.0, 1.0, 0.0, n_p, n_q))
        t3 = jet_mul2(t3, km)
        bm = t2 + t3
        bm[0, 0] += fm
        d = bm + jet_mul2(am, d)
        if abs(d[0, 0]) < tiny:
            d[0, 0] = tiny
        c = bm + jet_div2(am, c)
        if abs(c[0, 0]) < tiny:
            c[0, 0] = tiny
        d = jet_div2(one, d)
        de = jet_mul2(c, d)
        f = jet_mul2(f, de)
        de[0, 0] -= 1.0
        if np.max(np.abs(de)) < 1e-17:
            return jet_div2(one, f), True
    return jet_div2(one, f), False


@jit
def _deriv_args_ok(a, b, x):
    return (a == a and b == b and x == x and 0.0 < a < INF and 0.0 < b < INF
            and 0.0 <= x <= 1.0)


@jit
def betainc_dab(i, j, a, b, x):
    """d^(i+j) I_x(a, b) / da^i db^j, i + j >= 1 (i, j >= 0); -betaincc's. NaN off the
    domain (a or b not positive and finite), 0 at x = 0 and x = 1."""
    ii = int(i)
    jj = int(j)
    if ii < 0 or jj < 0 or ii + jj < 1 or not _deriv_args_ok(a, b, x):
        return NAN
    if x == 0.0 or x == 1.0:
        return 0.0
    yh, yl = two_sum(1.0, -x)
    y = yh + yl
    fact = math.gamma(ii + 1.0) * math.gamma(jj + 1.0)
    if x * (a + b + 2.0) <= a + 1.0:
        mh, ml, n = power_term(a, b, x, 0.0, yh, yl)
        v = math.ldexp(mh + ml, n)
        if v == 0.0:
            return 0.0
        U = _log_power_jet(a, b, math.log(x), math.log1p(-x), ii + 1, jj + 1, 1.0)
        H, ok = _cf_jet(a, b, x, y, ii + 1, jj + 1)
        if not ok:
            return NAN
        J = jet_mul2(jet_exp2(U), H)
        return v * J[ii, jj] * fact
    mh, ml, n = power_term(b, a, yh, yl, x, 0.0)
    v = math.ldexp(mh + ml, n)
    if v == 0.0:
        return 0.0
    ly, lyl = dd_log(yh, yl)
    U = _log_power_jet(b, a, ly + lyl, math.log(x), jj + 1, ii + 1, 1.0)
    H, ok = _cf_jet(b, a, y, x, jj + 1, ii + 1)
    if not ok:
        return NAN
    J = jet_mul2(jet_exp2(U), H)
    return -v * J[jj, ii] * fact


@jit
def ibeta_density_dab(i, j, a, b, x):
    """d^(i+j)/da^i db^j of the density x^(a-1) (1-x)^(b-1) / B(a, b) (i, j >= 0)."""
    ii = int(i)
    jj = int(j)
    if ii < 0 or jj < 0 or not _deriv_args_ok(a, b, x):
        return NAN
    if x == 0.0 or x == 1.0:
        e = a if x == 0.0 else b
        if ii + jj == 0:
            if e < 1.0:
                return INF
            if e > 1.0:
                return 0.0
            return a if x == 1.0 else b      # 1 / B(1, b) = b, 1 / B(a, 1) = a
        return NAN if e <= 1.0 else 0.0
    yh, yl = two_sum(1.0, -x)
    mh, ml, n = power_term(a, b, x, 0.0, yh, yl)
    # x^a y^b / (a B) * a / (x y), x's exponent into n (x may be subnormal, 1/x overflow)
    mx, ex = math.frexp(x)
    ph, pl = dd_mul_d(mh, ml, a)
    ph, pl = dd_div(ph, pl, mx, 0.0)
    ph, pl = dd_div(ph, pl, yh, yl)
    v = math.ldexp(ph + pl, n - ex)
    if ii + jj == 0 or v == 0.0 or math.isinf(v):
        return v
    U = _log_power_jet(a, b, math.log(x), math.log1p(-x), ii + 1, jj + 1, 0.0)
    E = jet_exp2(U)
    return v * E[ii, jj] * math.gamma(ii + 1.0) * math.gamma(jj + 1.0)
