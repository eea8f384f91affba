"""Gamma function and relatives: gamma, rgamma, loggamma, gammasgn, poch, beta, betaln.

Kernels: Cephes (via SciPy's xsf) in ``kernels/special/gammafn.py``; complex input of gamma,
rgamma and loggamma goes to SciPy's complex loops (Hare's principal-branch log-gamma), as
other functions without a complex kernel do. The derivatives are all psi-based:
``gamma' = gamma psi``, ``rgamma' = -rgamma psi`` (``(-1)^n n!`` at ``x = -n``, where rgamma
has its zeros), ``loggamma' = psi``, and the partials of poch, beta and betaln are their
values times differences of psi (DLMF 5.2.2, 5.12.1).
"""
import math

from .._core.xputil import dtype_of
from ._gamma import digamma
from ._ufunc import apply, def_elementwise_rules, ufunc_op

__all__ = ["gamma", "rgamma", "loggamma", "gammasgn", "poch", "beta", "betaln"]

_gamma = ufunc_op("gamma")
_rgamma = ufunc_op("rgamma")
_loggamma = ufunc_op("loggamma")
_gammasgn = ufunc_op("gammasgn")
_poch = ufunc_op("poch")
_beta = ufunc_op("beta")
_betaln = ufunc_op("betaln")


def _nonpos_int(xp, x):
    return (x <= 0) & (x == xp.floor(x))


def _rgamma_slope_at_zeros(xp, x):
    # d/dx 1/Gamma(x) at x = -n: (-1)^n n! (the residue of Gamma there is (-1)^n / n!);
    # evaluated at n = 0 elsewhere (a finite placeholder for xp.where)
    n = xp.where(_nonpos_int(xp, x), -x, 0.0)
    sign = 1.0 - 2.0 * (n - 2.0 * xp.floor(0.5 * n))
    return sign * gamma(n + 1.0)


def _d_gamma(xp, out, x):
    return out * digamma(x)


def _d_rgamma(xp, out, x):
    if dtype_of(x).kind == "c":
        return -out * digamma(x)
    zero = _nonpos_int(xp, x)
    xs = xp.where(zero, 0.5, x)          # psi is infinite at the zeros, where out is 0
    return xp.where(zero, _rgamma_slope_at_zeros(xp, x), -out * digamma(xs))


def _d_loggamma(xp, out, x):
    if dtype_of(x).kind == "c":
        return digamma(x)
    return xp.where(x < 0, math.nan, digamma(x))   # the real loggamma is NaN for x < 0


def _d_gammasgn(xp, out, x):
    return xp.zeros_like(out)


def _d_poch_a(xp, out, a, m):
    # d/da Gamma(a + m) / Gamma(a) = poch (psi(a + m) - psi(a)); at a = -n (with a + m no
    # pole) poch vanishes identically in m and the a-derivative is Gamma(a + m) rgamma'(a)
    zero = _nonpos_int(xp, a) & ~_nonpos_int(xp, a + m)
    a_s = xp.where(zero, 0.5, a)
    at_zero = gamma(xp.where(zero, a + m, 1.0)) * _rgamma_slope_at_zeros(xp, a)
    return xp.where(zero, at_zero, out * (digamma(a_s + m) - digamma(a_s)))


def _d_poch_m(xp, out, a, m):
    return out * digamma(a + m)


def _d_beta_a(xp, out, a, b):
    return out * (digamma(a) - digamma(a + b))


def _d_beta_b(xp, out, a, b):
    return out * (digamma(b) - digamma(a + b))


def _d_betaln_a(xp, out, a, b):
    return digamma(a) - digamma(a + b)


def _d_betaln_b(xp, out, a, b):
    return digamma(b) - digamma(a + b)


def_elementwise_rules(_gamma, _d_gamma)
def_elementwise_rules(_rgamma, _d_rgamma)
def_elementwise_rules(_loggamma, _d_loggamma)
def_elementwise_rules(_gammasgn, _d_gammasgn)
def_elementwise_rules(_poch, _d_poch_a, _d_poch_m)
def_elementwise_rules(_beta, _d_beta_a, _d_beta_b)
def_elementwise_rules(_betaln, _d_betaln_a, _d_betaln_b)

_KW = """
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords (``where``, ``casting``, ``dtype``, ...)."""


def _doc(text):
    return text.replace("%(kw)s", _KW.strip("\n"))


def gamma(x, out=None, **kwargs):
    return apply(_gamma, (x,), out, kwargs)


def rgamma(x, out=None, **kwargs):
    return apply(_rgamma, (x,), out, kwargs)


def loggamma(x, out=None, **kwargs):
    return apply(_loggamma, (x,), out, kwargs)


def gammasgn(x, out=None, **kwargs):
    return apply(_gammasgn, (x,), out, kwargs)


def poch(z, m, out=None, **kwargs):
    return apply(_poch, (z, m), out, kwargs)


def beta(a, b, out=None, **kwargs):
    return apply(_beta, (a, b), out, kwargs)


def betaln(a, b, out=None, **kwargs):
    return apply(_betaln, (a, b), out, kwargs)


gamma.__doc__ = _doc("""
    The gamma function.

    Parameters
    ----------
    x : array_like
        Real or complex input.
%(kw)s

    Returns
    -------
    res : scalar or ndarray
        ``Gamma(x)`` in the input's precision (float64 for integers); ``+inf``/``-inf`` at
        ``+0``/``-0``, NaN at the negative integers and at ``-inf``, overflow to ``inf``
        beyond x = 171.6.

    See Also
    --------
    scipy.special.gamma, rgamma, loggamma, gammasgn

    Notes
    -----
    Cephes ``Gamma`` (as in SciPy): a rational approximation on [2, 3] with the
    recurrence, Stirling's formula beyond 33 and the reflection formula below -33. Complex
    input goes to SciPy's complex loop.

    Autodiff: differentiable in `x` (holomorphic for complex input); the derivative is
    ``gamma(x) * digamma(x)``.

    Examples
    --------
    >>> from linalgx.special import gamma
    >>> float(gamma(5.0))
    24.0
    >>> gamma(np.array([0.5, -1.5], dtype=np.float32))
    array([1.7724539, 2.3632717], dtype=float32)
    """)
rgamma.__doc__ = _doc("""
    The reciprocal of the gamma function, ``1 / Gamma(x)``.

    Parameters
    ----------
    x : array_like
        Real or complex input.
%(kw)s

    Returns
    -------
    res : scalar or ndarray
        ``1 / Gamma(x)``: an entire function, 0 at the nonpositive integers (with the sign
        of a zero argument) and at ``+-inf``.

    See Also
    --------
    scipy.special.rgamma, gamma

    Notes
    -----
    Cephes ``rgamma`` (as in SciPy): a Chebyshev expansion on [0, 1] with the recurrence,
    ``1 / gamma(x)`` for ``|x| > 4``. Complex input goes to SciPy's complex loop.

    Autodiff: differentiable in `x` (holomorphic for complex input); the derivative is
    ``-rgamma(x) * digamma(x)``, and ``(-1)**n * n!`` at the zeros ``x = -n``.

    Examples
    --------
    >>> from linalgx.special import rgamma
    >>> rgamma(np.array([4.0, 0.0, -2.0]))
    array([0.16666667, 0.        , 0.        ])
    """)
loggamma.__doc__ = _doc("""
    Principal branch of the logarithm of the gamma function.

    Parameters
    ----------
    x : array_like
        Real or complex input.
%(kw)s

    Returns
    -------
    res : scalar or ndarray
        For real input, ``log(Gamma(x))`` for ``x >= 0`` (``inf`` at 0) and NaN for
        ``x < 0``, where Gamma may be negative (:func:`gammaln` gives ``log|Gamma|``
        there); for complex input the principal branch, analytic off the negative real
        axis.

    See Also
    --------
    scipy.special.loggamma, gammaln, gamma

    Notes
    -----
    Real input: Cephes ``lgam`` (as SciPy). Complex input goes to SciPy's complex loop
    (Hare's algorithm).

    Autodiff: differentiable in `x` (holomorphic for complex input); the derivative is
    ``digamma(x)`` (NaN for real ``x < 0``).

    Examples
    --------
    >>> from linalgx.special import loggamma
    >>> float(loggamma(10.0))
    12.801827480081469
    >>> complex(loggamma(-0.5 + 0j))
    (1.265512123484647-3.141592653589793j)
    """)
gammasgn.__doc__ = _doc("""
    Sign of the gamma function.

    Parameters
    ----------
    x : array_like
        Real input.
%(kw)s

    Returns
    -------
    res : scalar or ndarray
        1 or -1; the sign of a zero argument at ``+-0``, NaN at the negative integers, at
        ``-inf`` and for NaN.

    See Also
    --------
    scipy.special.gammasgn, gamma

    Notes
    -----
    Cephes ``gammasgn`` (as SciPy), except that the parity of a negative argument's floor
    beyond the C ``int`` range is exact (SciPy's cast gives ``+1`` for every non-integer
    below ``-2**31``).

    Autodiff: piecewise constant; the derivative is zero.

    Examples
    --------
    >>> from linalgx.special import gammasgn
    >>> gammasgn(np.array([2.5, -0.5, -1.5, -0.0]))
    array([ 1., -1.,  1., -1.])
    """)
poch.__doc__ = _doc("""
    Pochhammer symbol (rising factorial), ``Gamma(z + m) / Gamma(z)``.

    Parameters
    ----------
    z : array_like
        Real base.
    m : array_like
        Real order.
%(kw)s

    Returns
    -------
    res : scalar or ndarray
        ``(z)_m``; 1 for ``m = 0``, 0 where only `z` is a nonpositive integer, ``inf``
        where only ``z + m`` is.

    See Also
    --------
    scipy.special.poch, gamma

    Notes
    -----
    Cephes/xsf ``poch`` (as SciPy): the recurrences reduce ``|m|`` below 1, then a series
    in ``1/z`` for ``z > 1e4`` or ``exp(lgam(z + m) - lgam(z))`` with the signs.

    Autodiff: differentiable in both; ``d/dm = poch * digamma(z + m)``, ``d/dz = poch *
    (digamma(z + m) - digamma(z))`` (at ``z = -n`` with ``z + m`` no pole:
    ``Gamma(z + m) (-1)**n n!``). NaN where both `z` and ``z + m`` are nonpositive
    integers.

    Examples
    --------
    >>> from linalgx.special import poch
    >>> float(poch(3.0, 4.0))
    360.0
    """)
beta.__doc__ = _doc("""
    The beta function, ``Gamma(a) Gamma(b) / Gamma(a + b)``.

    Parameters
    ----------
    a, b : array_like
        Real arguments.
%(kw)s

    Returns
    -------
    res : scalar or ndarray
        ``B(a, b)``; at a nonpositive integer argument, the finite limit where Cephes has
        one (``(-1)**b B(1 - a - b, b)`` for an integer `b` with ``1 - a - b > 0``), else
        ``inf``.

    See Also
    --------
    scipy.special.beta, betaln

    Notes
    -----
    Cephes ``beta`` (as SciPy): a product of gamma functions for moderate arguments, an
    asymptotic expansion for ``a > 1e6 max(|b|, 1)``, ``lgam`` beyond.

    Autodiff: differentiable in both; ``d/da = B (digamma(a) - digamma(a + b))``, and the
    same with `b`.

    Examples
    --------
    >>> from linalgx.special import beta
    >>> float(beta(2.0, 3.0))
    0.08333333333333333
    """)
betaln.__doc__ = _doc("""
    Natural logarithm of the absolute value of the beta function.

    Parameters
    ----------
    a, b : array_like
        Real arguments.
%(kw)s

    Returns
    -------
    res : scalar or ndarray
        ``log|B(a, b)|``, without the overflow of ``log(beta(a, b))``.

    See Also
    --------
    scipy.special.betaln, beta, gammaln

    Notes
    -----
    Cephes ``lbeta`` (as SciPy).

    Autodiff: differentiable in both; ``d/da = digamma(a) - digamma(a + b)``, and the
    same with `b`.

    Examples
    --------
    >>> from linalgx.special import betaln
    >>> float(betaln(1000.0, 2000.0))
    -1911.8746142144482
    """)
