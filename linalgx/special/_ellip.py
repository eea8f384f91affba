"""Elliptic integrals and the dilogarithm: ellipk, ellipkm1, ellipe, ellipkinc, ellipeinc,
spence.

Kernels: Cephes (via SciPy's xsf) in ``kernels/special/ellip.py``; complex input of spence
goes to SciPy's complex loop, as other functions without a complex kernel do. The parameter
is ``m = k**2`` (SciPy's convention).

Derivatives (DLMF 19.4.1, 19.4.2, 19.4.4 in terms of m; ``p = 1 - m``, ``Delta =
sqrt(1 - m sin(phi)**2)``)::

    dK/dm = (E - p K) / (2 m p)            dE/dm = (E - K) / (2 m)
    dF/dphi = 1 / Delta                    dE(phi)/dphi = Delta
    dF/dm = (E(phi) - p F - m sin cos / Delta) / (2 m p)
    dE(phi)/dm = (E(phi) - F) / (2 m)
    spence'(z) = log(z) / (1 - z)

The differences cancel for small ``|m| sin(phi)**2`` (all digits at m = 0, where the
formulas are 0/0) and, for dF/dm, for m near 1 away from the poles of tan(phi). There the
rules sum series that are exact to rounding and differentiable again (so hessians are as
accurate): for the complete integrals the hypergeometric series in m; for the incomplete
ones, with ``phi = r + k pi``, ``|r| <= pi/2``, ``F(phi) = 2k K + F(r)`` and

    dF(r)/dm = sum_n n a_n m**(n-1) I_n(r),  dE(r)/dm = sum_n n a_n/(1-2n) m**(n-1) I_n(r)

(``a_n = (1/2)_n / n!``, ``I_n(r) = int_0^r sin(t)**(2n) dt`` by its recurrence, backwards
where it would cancel forwards), and near m = 1 the series in p of Jacobi's imaginary
transformation (``u = tan t``): ``dF(r)/dm = 1/2 sum_k (3/2)_k/k! (-p)**k J_(k+1)(tan r)``,
``J_j(U) = int_0^U u**(2j) / sqrt(1 + u**2) du``. spence' is summed as a series about 1.
"""
import math

import numpy as np

from .._core.xputil import unbox_all
from ._ufunc import apply, def_elementwise_rules, ufunc_op

__all__ = ["ellipk", "ellipkm1", "ellipe", "ellipkinc", "ellipeinc", "spence"]

_ellipk = ufunc_op("ellipk")
_ellipkm1 = ufunc_op("ellipkm1")
_ellipe = ufunc_op("ellipe")
_ellipkinc = ufunc_op("ellipkinc")
_ellipeinc = ufunc_op("ellipeinc")
_spence = ufunc_op("spence")

_NS = 30          # terms of the series (ratio <= 0.25 -> 0.25**30 ~ 1e-18)
_NB = 90          # start of the backward recurrence of I_n (sin(r)**2 <= 1/2)
_A = np.ones(_NB + 1)        # a_n = (1/2)_n / n!
for _n in range(1, _NB + 1):
    _A[_n] = _A[_n - 1] * (2 * _n - 1) / (2 * _n)
_N = np.arange(_NB + 1, dtype=float)
_DK = (_N * _A * _A)[1:_NS + 1] * (math.pi / 2)                  # dK/dm = sum DK[i] m**i
_DE = (_N * _A * _A / (1 - 2 * _N))[1:_NS + 1] * (math.pi / 2)   # dE/dm
_GF = (_N * _A)[1:_NS + 1]                                       # dF/dm = sum GF[n] m**n I_(n+1)
_GE = (_N * _A / (1 - 2 * _N))[1:_NS + 1]                        # dE(phi)/dm
_BETA = ((2 * _N + 1) * _A)[:_NS]                                # (3/2)_k / k!
_SMALL = 0.25     # |m| (complete) or |m| sin(r)**2 (incomplete) below which the series run


def _quiet(rule):
    # the rules' formulas overflow or divide by zero at the edges (inf, the poles) as
    # the functions do; like the ufuncs, silently
    def wrapped(xp, out, *args):
        with np.errstate(all="ignore"):
            return rule(xp, out, *args)
    wrapped.__name__ = wrapped.__qualname__ = rule.__name__
    return wrapped


def _plain(x):
    return np.asarray(unbox_all(x))


def _horner(coef, x):
    res = coef[-1]
    for c in coef[-2::-1]:
        res = res * x + c
    return res


def _d_complete(xp, m, p):
    """(dK/dm, dE/dm) at m, with ``p = 1 - m`` given exactly (ellipkm1's argument)."""
    mv = _plain(m)
    with np.errstate(invalid="ignore"):
        small = np.abs(mv) <= _SMALL
        one = _plain(p) == 0
        inf = np.isinf(mv)
    fine = ~(small | one | inf)
    ms = xp.where(small, m, 0.0)
    mf = xp.where(fine, m, 0.5)
    pf = xp.where(fine, p, 0.5)
    k = ellipkm1(pf)
    e = ellipe(mf)
    dk = xp.where(small, _horner(_DK, ms), (e - pf * k) / (2.0 * mf * pf))
    de = xp.where(small, _horner(_DE, ms), (e - k) / (2.0 * mf))
    # dK/dm -> inf and dE/dm -> -inf at m = 1; both -> 0 as m -> -inf
    dk = xp.where(one, math.inf, xp.where(inf, 0.0, dk))
    de = xp.where(one, -math.inf, xp.where(inf, 0.0, de))
    return dk, de


@_quiet
def _d_ellipk(xp, out, m):
    return _d_complete(xp, m, 1.0 - m)[0]


@_quiet
def _d_ellipkm1(xp, out, p):
    return -_d_complete(xp, 1.0 - p, p)[0]


@_quiet
def _d_ellipe(xp, out, m):
    return _d_complete(xp, m, 1.0 - m)[1]


def _reduce(xp, phi):
    """(k, r): phi = r + k pi, |r| <= pi/2, k a plain array (Cephes' reduction)."""
    pv = _plain(phi)
    with np.errstate(invalid="ignore"):
        n = np.floor(pv / (math.pi / 2))
        n = n + (np.floor(0.5 * n) != 0.5 * n)      # odd multiples of pi/2: the next one
        n = np.where(np.isfinite(n), n, 0.0)
    k = 0.5 * n
    return k, phi - n * (math.pi / 2)


def _i_n(xp, r, count):
    """[I_1(r), ..., I_count(r)], I_n(r) = int_0^r sin(t)**(2n) dt, for |r| <= pi/2:
    forwards for sin(r)**2 > 1/2, backwards from I_90 = 0 otherwise (the forward recurrence
    cancels as sin(r) -> 0, the backward one only adds positive terms)."""
    s = xp.sin(r)
    c = xp.cos(r)
    s2 = s * s
    back = _plain(s2) <= 0.5
    need_b, need_f = bool(np.any(back)), not np.all(back)
    terms = []                   # terms[n - 1] = sin**(2n-1) cos / (2n)
    t = s * c
    for n in range(1, (_NB if need_b else count) + 1):
        terms.append(t / (2.0 * n))
        t = t * s2
    fwd = []
    if need_f:
        i = r
        for n in range(1, count + 1):
            i = (2.0 * n - 1.0) / (2.0 * n) * i - terms[n - 1]
            fwd.append(i)
        if not need_b:
            return fwd
    bwd = [None] * count
    i = 0.0 * r
    for n in range(_NB, 1, -1):
        i = (2.0 * n) / (2.0 * n - 1.0) * (i + terms[n - 1])
        if n - 1 <= count:
            bwd[n - 2] = i
    if not need_f:
        return bwd
    return [xp.where(back, b, f) for b, f in zip(bwd, fwd)]


def _h_n(xp, u, p, count):
    """[H_1, ..., H_count], H_j = p**(j-1) J_j(u), J_j(u) = int_0^u t**(2j) / sqrt(1 + t**2)
    dt, forwards (used where u**2 > 1/3 and p u**2 <= 1/4, so that the scaled powers
    p**(j-1) u**(2j-1) stay bounded and the recurrence's errors shrink with p <= 1/10)."""
    w = xp.sqrt(1.0 + u * u)
    pu2 = p * (u * u)
    h = 0.5 * (u * w - xp.arcsinh(u))
    res = [h]
    pw = u * w
    for n in range(2, count + 1):
        pw = pw * pu2
        h = (pw - (2.0 * n - 1.0) * p * h) / (2.0 * n)
        res.append(h)
    return res


def _regions(phi, m):
    """Plain masks: the m-series (|m| sin(r)**2 <= 1/4), the p-series (m > 0.9, (1 - m)
    tan(r)**2 <= 1/4, not the m-series) and the rest (DLMF's formulas)."""
    pv, mv = _plain(phi), _plain(m)
    with np.errstate(all="ignore"):
        n = np.floor(pv / (math.pi / 2))
        n = n + (np.floor(0.5 * n) != 0.5 * n)
        r = pv - n * (math.pi / 2)
        s2 = np.sin(r) ** 2
        ser = np.isfinite(pv) & (np.abs(mv) * s2 <= _SMALL)
        tan2 = np.tan(r) ** 2
        pser = (np.isfinite(pv) & ~ser & (mv > 0.9) & (mv <= 1.0)
                & ((1.0 - mv) * tan2 <= _SMALL) & (np.abs(r) < math.pi / 2))
    return ser, pser, ~(ser | pser)


def _periods(xp, k, m, which):
    """2k dK/dm (which 0) or 2k dE/dm (which 1), 0 where k = 0."""
    has = k != 0
    mk = xp.where(has, m, 0.5)
    d = _d_complete(xp, mk, 1.0 - mk)[which]
    return xp.where(has, (2.0 * k) * d, 0.0)


def _d_inc_m(xp, phi, m, kind):
    """d/dm of F(phi | m) (kind "F") or E(phi | m) (kind "E")."""
    ser, pser, rest = _regions(phi, m)
    if kind == "E":
        pser, rest = pser & False, ~ser
    mv, pv = _plain(m), _plain(phi)
    with np.errstate(invalid="ignore"):
        bad = mv > 1.0
        pole = (mv == 1.0) & (np.abs(pv) >= math.pi / 2)     # F = inf there
    rest = rest & ~pole
    k, r = _reduce(xp, phi)
    parts = []
    if np.any(ser):
        # the m-series (placeholders elsewhere keep every branch finite, also under hessian)
        ms = xp.where(ser, m, 0.0)
        rs = xp.where(ser, r, 0.5)
        ks = np.where(ser, k, 0.0)
        coef = _GF if kind == "F" else _GE
        ins = _i_n(xp, rs, _NS)
        acc = coef[-1] * ins[-1]
        for n in range(_NS - 2, -1, -1):
            acc = acc * ms + coef[n] * ins[n]
        parts.append((ser, acc + _periods(xp, ks, ms, 0 if kind == "F" else 1)))
    if np.any(rest):
        # DLMF 19.4.2 / 19.4.4
        mf = xp.where(rest, m, 0.5)
        phif = xp.where(rest, phi, 1.0)
        f = ellipkinc(phif, mf)
        if kind == "F":
            e = ellipeinc(phif, mf)
            s = xp.sin(phif)
            c = xp.cos(phif)
            delta = xp.sqrt(c * c + (1.0 - mf) * (s * s))
            formula = (e - (1.0 - mf) * f - mf * s * c / delta) / (2.0 * mf * (1.0 - mf))
        else:
            formula = (ellipeinc(phif, mf) - f) / (2.0 * mf)
        parts.append((rest, formula))
    if kind == "F" and np.any(pser):
        # Jacobi's imaginary transformation: a series in p = 1 - m
        pp = xp.where(pser, 1.0 - m, 0.0)
        rp = xp.where(pser, r, 0.5)
        kp = np.where(pser, k, 0.0)
        hs = _h_n(xp, xp.tan(rp), pp, _NS)
        acc = _BETA[-1] * hs[-1]
        for n in range(_NS - 2, -1, -1):
            acc = _BETA[n] * hs[n] - acc
        parts.append((pser, 0.5 * acc + _periods(xp, kp, 1.0 - pp, 0)))
    if not parts:
        res = 0.0 * (phi + m)          # all poles or NaN: set below
    else:
        res = parts[0][1]
        for mask, val in parts[1:]:
            res = xp.where(mask, val, res)
    if np.any(pole):
        res = xp.where(pole, math.inf if kind == "F" else -math.inf, res)
    return xp.where(bad, math.nan, res) if np.any(bad) else res


def _delta(xp, phi, m):
    s = xp.sin(phi)
    c = xp.cos(phi)
    return xp.sqrt(c * c + (1.0 - m) * (s * s))     # 1 - m sin**2 without cancellation


@_quiet
def _d_ellipkinc_phi(xp, out, phi, m):
    return 1.0 / _delta(xp, phi, m)


@_quiet
def _d_ellipkinc_m(xp, out, phi, m):
    return _d_inc_m(xp, phi, m, "F")


@_quiet
def _d_ellipeinc_phi(xp, out, phi, m):
    return _delta(xp, phi, m)


@_quiet
def _d_ellipeinc_m(xp, out, phi, m):
    return _d_inc_m(xp, phi, m, "E")


_SPENCE_SERIES = -1.0 / np.arange(1, 21) * (-1.0) ** np.arange(20)   # log(z)/(1-z), d = z-1


@_quiet
def _d_spence(xp, out, z):
    # spence'(z) = log(z) / (1 - z); about z = 1 the series -sum (-d)**j / (j + 1)
    zv = _plain(z)
    with np.errstate(invalid="ignore"):
        near = np.abs(zv - 1.0) <= 0.125
        neg = (zv < 0) if zv.dtype.kind != "c" else np.zeros(zv.shape, bool)
    d = xp.where(near, z - 1.0, 0.0)
    series = _horner(_SPENCE_SERIES, d)
    zf = xp.where(near | neg, 2.0, z)
    res = xp.where(near, series, xp.log(zf) / (1.0 - zf))
    return xp.where(neg, math.nan, res) if np.any(neg) else res


def_elementwise_rules(_ellipk, _d_ellipk)
def_elementwise_rules(_ellipkm1, _d_ellipkm1)
def_elementwise_rules(_ellipe, _d_ellipe)
def_elementwise_rules(_ellipkinc, _d_ellipkinc_phi, _d_ellipkinc_m)
def_elementwise_rules(_ellipeinc, _d_ellipeinc_phi, _d_ellipeinc_m)
def_elementwise_rules(_spence, _d_spence)


_KW = """
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords (``where``, ``casting``, ``dtype``, ...)."""


def _doc(text):
    return text.replace("%(kw)s", _KW.strip("\n"))


def ellipk(m, out=None, **kwargs):
    return apply(_ellipk, (m,), out, kwargs)


def ellipkm1(p, out=None, **kwargs):
    return apply(_ellipkm1, (p,), out, kwargs)


def ellipe(m, out=None, **kwargs):
    return apply(_ellipe, (m,), out, kwargs)


def ellipkinc(phi, m, out=None, **kwargs):
    return apply(_ellipkinc, (phi, m), out, kwargs)


def ellipeinc(phi, m, out=None, **kwargs):
    return apply(_ellipeinc, (phi, m), out, kwargs)


def spence(z, out=None, **kwargs):
    return apply(_spence, (z,), out, kwargs)



ellipk.__doc__ = _doc("""
    Complete elliptic integral of the first kind.

    ``K(m) = int_0^(pi/2) (1 - m sin(t)**2)**(-1/2) dt``.

    Parameters
    ----------
    m : array_like
        The parameter (``m = k**2``), real.
%(kw)s

    Returns
    -------
    K : scalar or ndarray
        ``K(m)`` in the input's precision (float64 for integers); ``pi/2`` at 0, ``inf``
        at 1, NaN for ``m > 1``, 0 at ``-inf``.

    See Also
    --------
    scipy.special.ellipk, ellipkm1, ellipe, ellipkinc

    Notes
    -----
    Cephes ``ellpk(1 - m)`` (as SciPy): ``P(p) - log(p) Q(p)`` in ``p = 1 - m`` on
    [0, 1], ``K(1/p) / sqrt(p)`` beyond. Near ``m = 1`` the rounding of ``1 - m`` limits
    the accuracy; :func:`ellipkm1` takes ``p`` itself.

    Autodiff: differentiable; ``dK/dm = (E - (1 - m) K) / (2 m (1 - m))`` (its series at
    small ``|m|``: ``pi/8`` at 0).

    Examples
    --------
    >>> from linalgx.special import ellipk
    >>> float(ellipk(0.5))
    1.8540746773013719
    >>> ellipk(np.array([0.0, 0.9, 1.0, -1.0], dtype=np.float32))
    array([1.5707964, 2.578092 ,       inf, 1.3110287], dtype=float32)
    """)
ellipkm1.__doc__ = _doc("""
    Complete elliptic integral of the first kind around ``m = 1``: ``K(1 - p)``.

    Parameters
    ----------
    p : array_like
        The complementary parameter ``p = 1 - m``, real.
%(kw)s

    Returns
    -------
    K : scalar or ndarray
        ``K(1 - p)``, accurate for tiny `p` (``log(4) - log(p)/2`` below the epsilon);
        ``inf`` at 0, NaN for ``p < 0``, 0 at ``inf``.

    See Also
    --------
    scipy.special.ellipkm1, ellipk

    Notes
    -----
    Cephes ``ellpk`` (as SciPy).

    Autodiff: differentiable; ``d/dp = -K'(1 - p)`` from `p` itself (``-1/(2p)`` to
    leading order for tiny `p`).

    Examples
    --------
    >>> from linalgx.special import ellipkm1
    >>> float(ellipkm1(1e-10))
    12.8992198263876
    """)
ellipe.__doc__ = _doc("""
    Complete elliptic integral of the second kind.

    ``E(m) = int_0^(pi/2) (1 - m sin(t)**2)**(1/2) dt``.

    Parameters
    ----------
    m : array_like
        The parameter (``m = k**2``), real.
%(kw)s

    Returns
    -------
    E : scalar or ndarray
        ``E(m)``; ``pi/2`` at 0, 1 at 1, NaN for ``m > 1``, ``inf`` at ``-inf``.

    See Also
    --------
    scipy.special.ellipe, ellipk, ellipeinc

    Notes
    -----
    Cephes ``ellpe`` (as SciPy): ``P(p) - p log(p) Q(p)`` in ``p = 1 - m`` on [0, 1],
    ``E(1 - 1/p) sqrt(p)`` beyond.

    Autodiff: differentiable; ``dE/dm = (E - K) / (2 m)`` (its series at small ``|m|``:
    ``-pi/8`` at 0; ``-inf`` at 1).

    Examples
    --------
    >>> from linalgx.special import ellipe
    >>> ellipe(np.array([0.0, 1.0, -3.0]))
    array([1.57079633, 1.        , 2.42211206])
    """)
ellipkinc.__doc__ = _doc("""
    Incomplete elliptic integral of the first kind.

    ``F(phi | m) = int_0^phi (1 - m sin(t)**2)**(-1/2) dt``.

    Parameters
    ----------
    phi : array_like
        The amplitude, real.
    m : array_like
        The parameter (``m = k**2``), real.
%(kw)s

    Returns
    -------
    F : scalar or ndarray
        ``F(phi | m)``; ``phi`` at ``m = 0``, ``asinh(tan(phi))`` at ``m = 1`` (``inf`` for
        ``|phi| >= pi/2``), NaN for ``m > 1``, ``+-inf`` at ``phi = +-inf``, 0 at
        ``m = -inf``.

    See Also
    --------
    scipy.special.ellipkinc, ellipk, ellipeinc

    Notes
    -----
    Cephes ``ellik`` (as SciPy): ``2k K(m) + F(r | m)`` with ``phi = r + k pi``, the
    arithmetic-geometric mean for ``0 < m < 1`` and Carlson's ``R_F`` for ``m < 0``.

    Autodiff: differentiable in both; ``dF/dphi = (1 - m sin(phi)**2)**(-1/2)``, ``dF/dm``
    by DLMF 19.4.2 (its series where that cancels: small ``|m| sin(phi)**2`` and ``m``
    near 1).

    Examples
    --------
    >>> from linalgx.special import ellipkinc, ellipk
    >>> ellipkinc(np.array([0.5, 1.0, 10.0]), 0.3)
    array([ 0.50614021,  1.04573644, 10.86784865])
    >>> bool(ellipkinc(np.pi / 2, 0.5) == ellipk(0.5))
    True
    """)
ellipeinc.__doc__ = _doc("""
    Incomplete elliptic integral of the second kind.

    ``E(phi | m) = int_0^phi (1 - m sin(t)**2)**(1/2) dt``.

    Parameters
    ----------
    phi : array_like
        The amplitude, real.
    m : array_like
        The parameter (``m = k**2``), real.
%(kw)s

    Returns
    -------
    E : scalar or ndarray
        ``E(phi | m)``; ``phi`` at ``m = 0``, NaN for ``m > 1``, ``phi`` at
        ``phi = +-inf``, ``inf`` at ``m = -inf``.

    See Also
    --------
    scipy.special.ellipeinc, ellipe, ellipkinc

    Notes
    -----
    Cephes ``ellie`` (as SciPy): ``2k E(m) + E(r | m)`` with ``phi = r + k pi``, a
    Maclaurin series for small ``r``, the arithmetic-geometric mean for ``0 < m < 1`` and
    Carlson's ``R_F``, ``R_D`` for ``m < 0``.

    Autodiff: differentiable in both; ``dE/dphi = (1 - m sin(phi)**2)**(1/2)``,
    ``dE/dm = (E(phi | m) - F(phi | m)) / (2 m)`` (its series for small
    ``|m| sin(phi)**2``).

    Examples
    --------
    >>> from linalgx.special import ellipeinc
    >>> ellipeinc(np.array([0.5, 1.0, 10.0]), 0.3)
    array([0.49399114, 0.95757966, 9.23836915])
    """)
spence.__doc__ = _doc("""
    Spence's function (the dilogarithm in SciPy's convention).

    ``spence(z) = int_1^z log(t) / (1 - t) dt = Li2(1 - z)``.

    Parameters
    ----------
    z : array_like
        Real or complex input.
%(kw)s

    Returns
    -------
    res : scalar or ndarray
        ``spence(z)``; ``pi**2/6`` at 0, 0 at 1, NaN for real ``z < 0`` and at ``inf``.

    See Also
    --------
    scipy.special.spence

    Notes
    -----
    Real input: Cephes ``spence`` (as SciPy), a rational approximation on [0.5, 1.5] with
    the reflection and inversion formulas. Complex input goes to SciPy's complex loop.

    Autodiff: differentiable (holomorphic for complex input); the derivative is
    ``log(z) / (1 - z)`` (-1 at ``z = 1``, summed as a series around it).

    Examples
    --------
    >>> from linalgx.special import spence
    >>> spence(np.array([0.0, 0.5, 1.0, 2.0]))
    array([ 1.64493407,  0.58224053,  0.        , -0.82246703])
    >>> complex(spence(-1 + 0j))
    (2.46740110027234-2.177586090303602j)
    """)
