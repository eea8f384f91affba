"""Bessel functions of orders 0 and 1, the spherical Bessel function j_n and the Airy
functions.

Derivatives (DLMF 10.6, 10.29, 10.51, 9.2): J0' = -J1, J1' = J0 - J1/x (likewise Y),
I0' = I1, I1' = I0 - I1/x, K0' = -K1, K1' = -K0 - K1/x, the scaled forms by the product
rule, j_n' from the recurrence and j_n'' from Bessel's equation, Ai'' = x Ai, Bi'' = x Bi.

For ``|x| >= 20`` the derivatives of the scaled functions i0e, i1e, k0e and k1e come from
their asymptotic expansions (DLMF 10.40.1-2) combined term by term: the product rule's
``i1e - i0e`` and ``k0e - k1e`` are ~1/(2x) of each term, which loses ~2x ulp (all digits
by x ~ 1e16).
"""
import functools
import math

import numpy as np

from .._core.op import Op
from .._core.xputil import dtype_of, unbox_all
from ._ufunc import apply, def_elementwise_rules, smallest_from, ufunc_op, unbroadcast

__all__ = ["i0", "i0e", "i1", "i1e", "k0", "k0e", "k1", "k1e", "j0", "j1", "y0", "y1",
           "spherical_jn", "airy", "airy_ai"]

_i0, _i0e, _i1, _i1e = (ufunc_op(n) for n in ("i0", "i0e", "i1", "i1e"))
_k0, _k0e, _k1, _k1e = (ufunc_op(n) for n in ("k0", "k0e", "k1", "k1e"))
_j0, _j1, _y0, _y1 = (ufunc_op(n) for n in ("j0", "j1", "y0", "y1"))
_spherical_jn = ufunc_op("spherical_jn")
_spherical_jn_d = ufunc_op("spherical_jn_d")
_airy = ufunc_op("airy", nout=4)
_airy_ai = Op("airy_ai")


@_airy_ai.impl("numba", "lapack")
def _airy_ai_numba(x, **kwargs):
    from ..kernels.special import ufuncs
    out = kwargs.pop("out", None)
    ai = ufuncs.call("airy", x, **kwargs)[0]
    if out is not None:
        out[...] = ai
        return out
    return ai


@_airy_ai.impl("cupy")
def _airy_ai_cupy(x, **kwargs):
    import cupyx.scipy.special as cs
    return cs.airy(x)[0]


def _safe(xp, x):
    # x with zeros replaced by ones, so 1/x in an unselected where() branch stays finite
    return xp.where(x == 0, 1.0, x)


_ASYM = 20.0           # |x| from which the scaled derivatives use the expansions
_NTERMS = 45           # terms enough at |x| = 20 (the smallest term there is ~e^-40)


@functools.cache
def _asym_coefs():
    """Coefficients c_k of x**-k in sqrt(2x/pi) (d/dx) k0e(x) and in sqrt(2x/pi) (d/dx)
    k1e(x) for x -> inf, from a_k(nu) = prod_{j<=k} (4 nu^2 - (2j-1)^2) / (k! 8^k) (DLMF
    10.40.2): a_k(0) - a_k(1) and a_k(1) - a_k(0) - a_{k-1}(1). Those of sqrt(2 pi x) i0e'
    and i1e' (DLMF 10.40.1) are the same with the signs of the even-k terms flipped."""
    from fractions import Fraction  # here, not at import: keeps ``import linalgx`` cheap
    a = {0: [Fraction(1)], 1: [Fraction(1)]}
    for nu in (0, 1):
        for k in range(1, _NTERMS):
            a[nu].append(a[nu][-1] * (4 * nu * nu - (2 * k - 1) ** 2) / (8 * k))
    k0 = np.array([float(a[0][k] - a[1][k]) for k in range(_NTERMS)])
    k1 = np.array([float(a[1][k] - a[0][k] - (a[1][k - 1] if k else 0))
                   for k in range(_NTERMS)])
    flip = np.where(np.arange(_NTERMS) % 2 == 1, -1.0, 1.0)
    return {"k0e": k0, "k1e": k1, "i0e": -flip * k0, "i1e": -flip * k1}


def _asym_d(xp, name, x):
    """(big, d): where ``|x| >= 20`` (``x >= 20`` for k0e, k1e), the derivative of ``name``
    from its expansion in ``1/|x|``; ``d`` is finite (and unused) elsewhere. Only as many
    terms as the smallest such ``|x|`` needs are summed."""
    a = xp.abs(x)
    big = (a if name[0] == "i" else x) >= _ASYM
    xa = xp.where(big, a, _ASYM)
    c = _asym_coefs()[name]
    lo = smallest_from(np.abs(unbox_all(x)), _ASYM)
    tol = 0.01 * np.finfo(dtype_of(x)).eps if dtype_of(x).kind == "f" else 1e-18
    n = 2
    while n < _NTERMS and abs(c[n]) * lo ** -(n - 1) > tol * abs(c[1]):
        n += 1
    inv = 1.0 / xa
    series = float(c[n - 1])
    for k in range(n - 2, -1, -1):
        series = series * inv + float(c[k])
    pref = (math.sqrt(0.5 * math.pi) if name[0] == "k" else 1 / math.sqrt(2 * math.pi))
    d = pref / xp.sqrt(xa) * series
    if name == "i0e":
        d = xp.where(x < 0, -d, d)   # i0e is even, i1e odd: i1e' is even
    return big, d


def _d_i0(xp, out, x):
    return i1(x)


def _d_i0e(xp, out, x):
    big, asym = _asym_d(xp, "i0e", x)
    return xp.where(big, asym, i1e(x) - xp.sign(x) * out)


# I1'(x) = sum_k c_k x^(2k), c_k = (2k+1) / (2 4^k k! (k+1)!); J1' has the signs (-1)^k.
# For |x| < 1 the 12 terms are exact to below 1e-20 relative. The closed forms I0 - I1/x and
# J0 - J1/x are accurate themselves, but their derivatives (the second derivatives of
# i0, i1, j0, j1) cancel terms of size 1/x: relative error eps/x^2 (5e-6 at x = 1e-5).
_SERIES_BELOW = 1.0
_I1P = tuple((2 * k + 1) / (2.0 * 4.0 ** k * math.factorial(k) * math.factorial(k + 1))
             for k in range(12))
_J1P = tuple((-1) ** k * c for k, c in enumerate(_I1P))


def _small_split(xp, x):
    """(small, xt, xs): ``|x| < 1``, x there (0 elsewhere), x elsewhere (1 there): each
    branch of a where() is evaluated only where it is finite and accurate."""
    small = xp.abs(x) < _SERIES_BELOW
    return small, xp.where(small, x, 0.0), xp.where(small, _SERIES_BELOW, x)


def _even_series(xp, xt, coefs):
    x2 = xt * xt
    acc = coefs[-1]
    for c in coefs[-2::-1]:
        acc = acc * x2 + c
    return acc


def _d_i1(xp, out, x):
    small, xt, xs = _small_split(xp, x)
    return xp.where(small, _even_series(xp, xt, _I1P), i0(xs) - out / xs)


def _d_i1e(xp, out, x):
    # i1e = e^-|x| I1: i1e' = e^-|x| I1' - sign(x) i1e
    small, xt, xs = _small_split(xp, x)
    big, asym = _asym_d(xp, "i1e", x)
    near = xp.exp(-xp.abs(xt)) * _even_series(xp, xt, _I1P) - xp.sign(xt) * out
    return xp.where(big, asym, xp.where(small, near,
                                        i0e(xs) - out * (xp.sign(xs) + 1.0 / xs)))


def _d_k0(xp, out, x):
    return -k1(x)


def _d_k0e(xp, out, x):
    big, asym = _asym_d(xp, "k0e", x)
    return xp.where(big, asym, out - k1e(x))


def _d_k1(xp, out, x):
    return -k0(x) - out / x


def _d_k1e(xp, out, x):
    big, asym = _asym_d(xp, "k1e", x)
    return xp.where(big, asym, out - k0e(x) - out / x)


def _d_j0(xp, out, x):
    return -j1(x)


def _d_j1(xp, out, x):
    small, xt, xs = _small_split(xp, x)
    return xp.where(small, _even_series(xp, xt, _J1P), j0(xs) - out / xs)


def _d_y0(xp, out, x):
    return -y1(x)


def _d_y1(xp, out, x):
    return y0(x) - out / x


def _d_sph(xp, out, n, x):
    return _spherical_jn_d(n, x)


def _d_sph_d(xp, out, n, x):
    # Bessel's equation: j'' = -(2/x) j' - (1 - n(n+1)/x^2) j; j''(0) = -1/3, 2/15, 0
    xs = _safe(xp, x)
    jn = _spherical_jn(n, x)
    second = -2.0 / xs * out - (1.0 - n * (n + 1) / xs / xs) * jn   # n = 0: no 0 * inf
    at0 = xp.where(n == 0, -1.0 / 3.0, xp.where(n == 2, 2.0 / 15.0, 0.0))
    return xp.where(x == 0, at0, second)


def _d_airy_ai(xp, out, x):
    return airy(x)[1]


for _op, _d in ((_i0, _d_i0), (_i0e, _d_i0e), (_i1, _d_i1), (_i1e, _d_i1e), (_k0, _d_k0),
                (_k0e, _d_k0e), (_k1, _d_k1), (_k1e, _d_k1e), (_j0, _d_j0), (_j1, _d_j1),
                (_y0, _d_y0), (_y1, _d_y1), (_airy_ai, _d_airy_ai)):
    def_elementwise_rules(_op, _d)
def_elementwise_rules(_spherical_jn, None, _d_sph)
def_elementwise_rules(_spherical_jn_d, None, _d_sph_d)


@_airy.def_jvp
def _airy_jvp(xp, tangents, out, x):
    (t,) = tangents
    ai, aip, bi, bip = out
    return (t * aip, t * (x * ai), t * bip, t * (x * bi))


@_airy.def_vjp
def _airy_vjp(xp, g, out, x):
    ai, aip, bi, bip = out
    total = None
    for gk, dk in zip(g, (aip, x * ai, bip, x * bi)):
        if gk is not None:
            term = gk * xp.conj(dk)
            total = term if total is None else total + term
    if total is None:
        return (None,)
    return (unbroadcast(xp, total, x, ai),)


def _doc(name, formula, deriv, example, value):
    return f"""
    {formula}

    Parameters
    ----------
    x : array_like
        Real input.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords (``where``, ``casting``, ``dtype``, ...).

    Returns
    -------
    res : scalar or ndarray
        The function values; float32 for float32 input, float64 otherwise.

    See Also
    --------
    scipy.special.{name}

    Notes
    -----
    Cephes' Chebyshev and rational approximations (as in SciPy).

    Autodiff: differentiable in `x`; {deriv}.

    Examples
    --------
    >>> from linalgx.special import {name}
    >>> float({name}({example}))
    {value}
    """


def i0(x, out=None, **kwargs):
    return apply(_i0, (x,), out, kwargs)


def i0e(x, out=None, **kwargs):
    return apply(_i0e, (x,), out, kwargs)


def i1(x, out=None, **kwargs):
    return apply(_i1, (x,), out, kwargs)


def i1e(x, out=None, **kwargs):
    return apply(_i1e, (x,), out, kwargs)


def k0(x, out=None, **kwargs):
    return apply(_k0, (x,), out, kwargs)


def k0e(x, out=None, **kwargs):
    return apply(_k0e, (x,), out, kwargs)


def k1(x, out=None, **kwargs):
    return apply(_k1, (x,), out, kwargs)


def k1e(x, out=None, **kwargs):
    return apply(_k1e, (x,), out, kwargs)


def j0(x, out=None, **kwargs):
    return apply(_j0, (x,), out, kwargs)


def j1(x, out=None, **kwargs):
    return apply(_j1, (x,), out, kwargs)


def y0(x, out=None, **kwargs):
    return apply(_y0, (x,), out, kwargs)


def y1(x, out=None, **kwargs):
    return apply(_y1, (x,), out, kwargs)


i0.__doc__ = _doc("i0", "Modified Bessel function of the first kind of order 0.",
                  "``d i0 = i1 dx``", "1.0", "1.2660658777520082")
i0e.__doc__ = _doc("i0e", "Exponentially scaled modified Bessel function ``exp(-|x|) i0(x)``.",
                   "``d i0e = (i1e - sign(x) i0e) dx``,\n    for ``|x| >= 20`` from "
                   "the asymptotic expansion (no cancellation)", "1.0", "0.46575960759364043")
i1.__doc__ = _doc("i1", "Modified Bessel function of the first kind of order 1.",
                  "``d i1 = (i0 - i1/x) dx``,\n    for ``|x| < 1`` its Taylor series "
                  "(accurate second derivatives)", "1.0", "0.5651591039924851")
i1e.__doc__ = _doc("i1e", "Exponentially scaled modified Bessel function ``exp(-|x|) i1(x)``.",
                   "``d i1e = (i0e - i1e (sign(x) + 1/x)) dx``,\n    for ``|x| >= 20`` from "
                   "the asymptotic expansion, for ``|x| < 1`` from the Taylor series of i1' "
                   "(no cancellation)", "1.0", "0.2079104153497085")
k0.__doc__ = _doc("k0", "Modified Bessel function of the second kind of order 0 (x > 0).",
                  "``d k0 = -k1 dx``", "1.0", "0.42102443824070823")
k0e.__doc__ = _doc("k0e", "Exponentially scaled modified Bessel function ``exp(x) k0(x)``.",
                   "``d k0e = (k0e - k1e) dx``,\n    for ``x >= 20`` from the "
                   "asymptotic expansion (no cancellation)", "1.0", "1.1444630798068947")
k1.__doc__ = _doc("k1", "Modified Bessel function of the second kind of order 1 (x > 0).",
                  "``d k1 = (-k0 - k1/x) dx``", "1.0", "0.6019072301972346")
k1e.__doc__ = _doc("k1e", "Exponentially scaled modified Bessel function ``exp(x) k1(x)``.",
                   "``d k1e = (k1e - k0e - k1e/x) dx``,\n    for ``x >= 20`` from the "
                   "asymptotic expansion (no cancellation)", "1.0", "1.636153486263258")
j0.__doc__ = _doc("j0", "Bessel function of the first kind of order 0.",
                  "``d j0 = -j1 dx``", "1.0", "0.7651976865579665")
j1.__doc__ = _doc("j1", "Bessel function of the first kind of order 1.",
                  "``d j1 = (j0 - j1/x) dx``,\n    for ``|x| < 1`` its Taylor series "
                  "(accurate second derivatives)", "1.0", "0.44005058574493355")
y0.__doc__ = _doc("y0", "Bessel function of the second kind of order 0 (x > 0).",
                  "``d y0 = -y1 dx``", "1.0", "0.08825696421567697")
y1.__doc__ = _doc("y1", "Bessel function of the second kind of order 1 (x > 0).",
                  "``d y1 = (y0 - y1/x) dx``", "1.0", "-0.7812128213002888")


def spherical_jn(n, z, derivative=False):
    """
    Spherical Bessel function of the first kind ``j_n(z)`` or its derivative.

    Parameters
    ----------
    n : int, array_like
        Order (nonnegative; converted to an integer as SciPy does).
    z : array_like
        Real or complex argument (complex `z` goes to SciPy's complex loop).
    derivative : bool, optional
        If True, return the derivative ``j_n'(z)`` instead.

    Returns
    -------
    jn : scalar or ndarray
        ``sqrt(pi/(2z)) J_{n+1/2}(z)`` or its derivative.

    See Also
    --------
    scipy.special.spherical_jn, torch.special.spherical_bessel_j0

    Notes
    -----
    For ``z > n`` the upward recurrence from ``j_0`` and ``j_1`` (as SciPy); for
    ``0 < z <= n`` Miller's downward recurrence; for ``|z| < 1e-3`` and ``n >= 1`` the power
    series ``z**n / (2n+1)!! (1 - z**2 / (2 (2n+3)) + ...)`` (and its derivative), which
    stays accurate down to the smallest `z` (SciPy flushes values below ~1e-300 to zero).

    Autodiff: differentiable in `z`: ``j_n'`` is ``spherical_jn(n, z, derivative=True)``,
    and the derivative of that follows from Bessel's equation.

    Examples
    --------
    >>> from linalgx.special import spherical_jn
    >>> float(spherical_jn(0, 1.0))
    0.8414709848078965
    """
    n = np.asarray(getattr(n, "value", n))
    if n.dtype.kind == "O":
        n = n.astype(np.int64)   # Python ints beyond int64: OverflowError, as in SciPy
    if n.dtype.kind not in "biuf":
        raise TypeError(f"linalgx.special.spherical_jn: the order must be an integer (or real) "
                        f"array, not {n.dtype}")
    with np.errstate(invalid="ignore"):
        # SciPy's conversion: a float order is truncated; inf and NaN become a negative
        # integer, whose value is NaN
        n = n.astype(np.int64)
    if isinstance(z, (list, tuple)) or isinstance(z, np.ndarray) and type(z) is not np.ndarray:
        z = np.asarray(z)   # plain ndarray results for matrix and masked input, as SciPy
    if derivative:
        return _spherical_jn_d(n, z)
    return _spherical_jn(n, z)


def airy(z, *outs, out=None, **kwargs):
    """
    Airy functions and their derivatives, ``(Ai, Ai', Bi, Bi')``.

    Parameters
    ----------
    z : array_like
        Real argument.
    *outs : ndarray, optional
        Output arrays given positionally, as to a ufunc (the first one to four).
    out : tuple of ndarray, optional
        Optional output arrays for the four function values.
    **kwargs
        Other NumPy ufunc keywords.

    Returns
    -------
    Ai, Aip, Bi, Bip : scalars or ndarrays
        The Airy functions Ai and Bi and their derivatives at `z`.

    See Also
    --------
    scipy.special.airy, airy_ai

    Notes
    -----
    Cephes for ``|z| <= 10``; beyond, the asymptotic expansions DLMF 9.7 (SciPy uses AMOS
    there), in modulus-phase form for negative `z`, with the phase ``2/3 |z|**1.5`` and the
    final products carried in double-double. Below ``z = -1048575.9996744783`` all four are
    NaN, exactly where SciPy's AMOS gives up: there the phase (> 7e8) would need reducing
    mod 2 pi beyond double precision, and no value would be better than a guess.

    Autodiff: differentiable in `z`, from ``Ai'' = z Ai`` and ``Bi'' = z Bi``.

    Examples
    --------
    >>> from linalgx.special import airy
    >>> [round(float(v), 12) for v in airy(0.0)]
    [0.355028053888, -0.258819403793, 0.614926627446, 0.448288357354]
    """
    if outs:   # a ufunc's positional outputs: airy(z, ai, aip, bi, bip), or the first few
        if out is not None:
            raise TypeError("cannot specify 'out' as both a positional and keyword argument")
        if len(outs) > 4:
            raise TypeError(f"airy() takes from 1 to 5 positional arguments but "
                            f"{len(outs) + 1} were given")
        out = (outs[0] if len(outs) == 1 and isinstance(outs[0], tuple)
               else tuple(outs) + (None,) * (4 - len(outs)))
    if out is not None:
        kwargs["out"] = out
    res = apply(_airy, (z,), None, kwargs)
    return tuple(res)


def airy_ai(input, *, out=None):
    """
    The Airy function Ai (torch.special.airy_ai).

    Parameters
    ----------
    input : array_like
        Real argument.
    out : ndarray, optional
        Optional output array.

    Returns
    -------
    res : scalar or ndarray
        ``Ai(input)``.

    See Also
    --------
    airy

    Notes
    -----
    Autodiff: differentiable; the derivative Ai' is the second output of :func:`airy`.

    Examples
    --------
    >>> from linalgx.special import airy_ai
    >>> round(float(airy_ai(1.0)), 12)
    0.135292416313
    """
    return apply(_airy_ai, (input,), out)
