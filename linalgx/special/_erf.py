"""Error function family: erf, erfc, erfcx, erfinv, ndtr, ndtri, log_ndtr.

The derivatives' Gaussians ``exp(-x**2)``, ``exp(-x**2/2)`` (and ``exp(+x**2)`` for the
inverses) take the rounding error of ``x**2`` into account (``exp_square``), which would
otherwise cost ``x**2`` ulp (~1e-13 relative in the tails); erfcx' uses Laplace's continued
fraction where ``2 x erfcx(x) - 2/sqrt(pi)`` cancels.
"""
import math

from .._core.xputil import dtype_of, unbox_all
from ._ufunc import apply, def_elementwise_rules, exp_square, smallest_from, ufunc_op

__all__ = ["erf", "erfc", "erfcx", "erfinv", "ndtr", "ndtri", "log_ndtr"]

_2_SQRTPI = 2.0 / math.sqrt(math.pi)
_SQRT2PI = math.sqrt(2.0 * math.pi)

_erf = ufunc_op("erf")
_erfc = ufunc_op("erfc")
_erfcx = ufunc_op("erfcx")
_erfinv = ufunc_op("erfinv")
_ndtr = ufunc_op("ndtr")
_ndtri = ufunc_op("ndtri")
_log_ndtr = ufunc_op("log_ndtr")


def _d_erf(xp, out, x):
    return _2_SQRTPI * exp_square(xp, x, -1.0)


def _d_erfc(xp, out, x):
    return -_2_SQRTPI * exp_square(xp, x, -1.0)


_CF_FROM = 2.0   # erfcx' by the continued fraction for x >= 2


def _d_erfcx(xp, out, x):
    # 2 x erfcx(x) - 2/sqrt(pi) loses ~2 x**2 ulp for large x (all digits by 1e8). With
    # Laplace's continued fraction sqrt(pi) erfcx(x) = 1/(x + K), K = (1/2)/(x + 1/(x +
    # (3/2)/(x + 2/(x + ...)))) (DLMF 7.9.2), the derivative is -2/sqrt(pi) K/(x + K),
    # free of cancellation; at x >= 2 60 terms are exact to an ulp, fewer further out.
    direct = 2.0 * x * out - _2_SQRTPI
    if dtype_of(x).kind == "c":
        return direct
    big = x >= _CF_FROM
    lo = smallest_from(unbox_all(x), _CF_FROM)
    n = 60 if lo < 3 else 40 if lo < 4 else 30 if lo < 8 else 12 if lo < 16 else 8
    xb = xp.where(big, x, _CF_FROM)
    k = 0.0
    for j in range(n, 0, -1):
        k = (0.5 * j) / (xb + k)
    return xp.where(big, -_2_SQRTPI * k / (xb + k), direct)


def _d_erfinv(xp, out, y):
    # 1/erf'(x) = sqrt(pi)/2 exp(x**2), x = erfinv(y), as sqrt(pi)/2 erfcx(x) / (1 - y) for
    # y > 0 (1 - y = erfc(x), exact where it is small) and erfcx(-x) / (1 + y) otherwise:
    # exp(x**2) would turn x's own rounding error into a relative error of 2 x**2 ulp,
    # erfcx(|x|) changes by about the same relative amount as x. (One predicate picks both
    # signs, so each piece is a smooth identity and second derivatives see no kink.)
    # Near y = 0 (|y| < 1/2, |x| < 0.48) the plain exp(x**2), whose x**2 ulp are harmless
    # there: the erfcx form differentiates to two terms of size 1 that cancel to O(x), a
    # relative error eps/|x| in erfinv'' (4e-9 at y = 1e-8).
    pos = y > 0
    mid = xp.abs(y) < 0.5
    q = xp.where(pos, 1.0 - y, 1.0 + y)
    one = q == 0.0
    a = xp.where(one | mid, 0.0, xp.where(pos, out, -out))
    d = (0.5 * math.sqrt(math.pi)) * erfcx(a) / xp.where(one | mid, 1.0, q)
    near = (0.5 * math.sqrt(math.pi)) * exp_square(xp, xp.where(mid, out, 0.0), 1.0)
    return xp.where(one, math.inf, xp.where(mid, near, d))


def _d_ndtr(xp, out, x):
    return exp_square(xp, x, -0.5) / _SQRT2PI


def _d_ndtri(xp, out, p):
    # 1/phi(x) = sqrt(2 pi) exp(x**2/2), x = ndtri(p), as erfcx(-x/sqrt 2) / (p sqrt(2/pi))
    # for p <= 1/2 and erfcx(x/sqrt 2) / ((1 - p) sqrt(2/pi)) above (1 - p exact there):
    # well conditioned in x, where exp(x**2/2) turns x's own rounding error into x**2 ulp
    # (3e-13 relative at p = 1e-237). One predicate picks both signs (see _d_erfinv).
    # Near p = 1/2 (|x| < 0.68) sqrt(2 pi) exp(x**2/2), as erfinv's rule does near 0 (the
    # erfcx form's derivative cancels to O(x) there: relative error eps/|x| in ndtri'').
    up = p > 0.5
    mid = xp.abs(p - 0.5) < 0.25
    q = xp.where(up, 1.0 - p, p)
    zero = q == 0.0
    a = xp.where(zero | mid, 0.0, xp.where(up, out, -out)) * math.sqrt(0.5)
    d = erfcx(a) / (xp.where(zero | mid, 1.0, q) * math.sqrt(2.0 / math.pi))
    near = _SQRT2PI * exp_square(xp, xp.where(mid, out, 0.0), 0.5)
    return xp.where(zero, math.inf, xp.where(mid, near, d))


def _d_log_ndtr(xp, out, x):
    # phi(x)/Phi(x): as sqrt(2/pi) / erfcx(-x/sqrt(2)) for x <= 0 (no underflow far out);
    # for x > 0, where erfcx(-x/sqrt(2)) ~ 2 exp(x**2/2) would turn the rounding of its
    # argument into x**2 ulp (6e-14 relative at x = 28), phi(x) / ndtr(x) directly
    if dtype_of(x).kind == "c":
        return math.sqrt(2.0 / math.pi) / erfcx(-x * math.sqrt(0.5))
    pos = x > 0
    xr = xp.where(pos, x, 1.0)
    xl = xp.where(pos, -1.0, x)
    left = math.sqrt(2.0 / math.pi) / erfcx(-xl * math.sqrt(0.5))
    return xp.where(pos, exp_square(xp, xr, -0.5) / (_SQRT2PI * ndtr(xr)), left)


def_elementwise_rules(_erf, _d_erf)
def_elementwise_rules(_erfc, _d_erfc)
def_elementwise_rules(_erfcx, _d_erfcx)
def_elementwise_rules(_erfinv, _d_erfinv)
def_elementwise_rules(_ndtr, _d_ndtr)
def_elementwise_rules(_ndtri, _d_ndtri)
def_elementwise_rules(_log_ndtr, _d_log_ndtr)


def erf(z, out=None, **kwargs):
    """
    Error function, ``2/sqrt(pi) * integral(exp(-t**2), t=0..z)``.

    Parameters
    ----------
    z : array_like
        Real input.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords (``where``, ``casting``, ``dtype``, ...).

    Returns
    -------
    res : scalar or ndarray
        The error function at `z`; float32 for float32 input, float64 otherwise.

    See Also
    --------
    scipy.special.erf, torch.special.erf

    Notes
    -----
    Cephes' rational approximations (as in SciPy). Complex input, or a complex ``dtype`` or
    ``signature`` for real input, goes to SciPy's complex loop (Faddeeva), as do the other
    real-kernel functions that SciPy defines for complex arguments (erfc, erfcx, ndtr,
    log_ndtr, digamma, zeta, spherical_jn, airy, the orthogonal polynomials).

    Autodiff: differentiable in `z`; ``d erf(z) = 2/sqrt(pi) exp(-z**2) dz``, the rounding
    error of ``z**2`` accounted for (it would cost ``z**2`` ulp).

    Examples
    --------
    >>> from linalgx.special import erf
    >>> float(erf(0.5))
    0.5204998778130465
    """
    return apply(_erf, (z,), out, kwargs)


def erfc(x, out=None, **kwargs):
    """
    Complementary error function, ``1 - erf(x)``.

    Parameters
    ----------
    x : array_like
        Real input.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords.

    Returns
    -------
    res : scalar or ndarray
        ``erfc(x)``, accurate also where it is tiny (large `x`).

    See Also
    --------
    scipy.special.erfc, torch.special.erfc

    Notes
    -----
    Autodiff: differentiable in `x`; ``d erfc(x) = -2/sqrt(pi) exp(-x**2) dx``, the rounding
    error of ``x**2`` accounted for.

    Examples
    --------
    >>> from linalgx.special import erfc
    >>> float(erfc(10.0))
    2.0884875837625446e-45
    """
    return apply(_erfc, (x,), out, kwargs)


def erfcx(x, out=None, **kwargs):
    """
    Scaled complementary error function, ``exp(x**2) * erfc(x)``.

    Parameters
    ----------
    x : array_like
        Real input.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords.

    Returns
    -------
    res : scalar or ndarray
        ``erfcx(x)``; overflows to inf below about -26.7.

    See Also
    --------
    scipy.special.erfcx, torch.special.erfcx

    Notes
    -----
    Piecewise polynomials in the variable ``400/(4+x)`` (S. G. Johnson's Faddeeva scheme),
    a continued fraction for ``x >= 50``, and ``2 exp(x**2) - erfcx(-x)`` with an exact
    square for negative `x`.

    Autodiff: differentiable in `x`; ``d erfcx(x) = (2 x erfcx(x) - 2/sqrt(pi)) dx``, for
    ``x >= 2`` from Laplace's continued fraction (no cancellation for large `x`).

    Examples
    --------
    >>> from linalgx.special import erfcx
    >>> float(erfcx(100.0))
    0.005641613782989433
    """
    return apply(_erfcx, (x,), out, kwargs)


def erfinv(y, out=None, **kwargs):
    """
    Inverse of the error function on (-1, 1).

    Parameters
    ----------
    y : array_like
        Values in [-1, 1]; ``erfinv(+-1) = +-inf``, NaN outside.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords.

    Returns
    -------
    res : scalar or ndarray
        `x` with ``erf(x) == y``.

    See Also
    --------
    scipy.special.erfinv, torch.special.erfinv

    Notes
    -----
    Boost's rational approximations (J. Maddock), as SciPy uses.

    Autodiff: differentiable in `y`; ``d erfinv(y) = sqrt(pi)/2 exp(erfinv(y)**2) dy``,
    evaluated as ``sqrt(pi)/2 erfcx(|x|) / (1 - |y|)`` (``x = erfinv(y)``) for ``|y| >= 1/2``,
    which keeps its relative accuracy as ``|y| -> 1``, and directly below (where the erfcx
    form's own derivative would cancel).

    Examples
    --------
    >>> from linalgx.special import erfinv
    >>> float(erfinv(0.5))
    0.4769362762044699
    """
    return apply(_erfinv, (y,), out, kwargs)


def ndtr(x, out=None, **kwargs):
    """
    Standard normal cumulative distribution function.

    Parameters
    ----------
    x : array_like
        Real input.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords.

    Returns
    -------
    res : scalar or ndarray
        ``integral(exp(-t**2/2), t=-inf..x) / sqrt(2 pi)``.

    See Also
    --------
    scipy.special.ndtr, torch.special.ndtr

    Notes
    -----
    Autodiff: differentiable in `x`; the derivative is the normal density, the rounding error
    of ``x**2`` accounted for.

    Examples
    --------
    >>> from linalgx.special import ndtr
    >>> float(ndtr(1.0))
    0.8413447460685429
    """
    return apply(_ndtr, (x,), out, kwargs)


def ndtri(y, out=None, **kwargs):
    """
    Inverse of :func:`ndtr`: the standard normal quantile.

    Parameters
    ----------
    y : array_like
        Probabilities in [0, 1]; ``ndtri(0) = -inf``, ``ndtri(1) = inf``, NaN outside.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords.

    Returns
    -------
    x : scalar or ndarray
        `x` with ``ndtr(x) == y``.

    See Also
    --------
    scipy.special.ndtri, torch.special.ndtri

    Notes
    -----
    Autodiff: differentiable in `y`; ``d ndtri(y) = sqrt(2 pi) exp(ndtri(y)**2 / 2) dy``,
    evaluated as ``erfcx(|x|/sqrt(2)) / (min(y, 1-y) sqrt(2/pi))`` (``x = ndtri(y)``), which
    keeps its relative accuracy in both tails, and directly for ``|y - 1/2| < 1/4`` (where the
    erfcx form's own derivative would cancel).

    Examples
    --------
    >>> from linalgx.special import ndtri
    >>> float(ndtri(0.975))
    1.959963984540054
    """
    return apply(_ndtri, (y,), out, kwargs)


def log_ndtr(x, out=None, **kwargs):
    """
    Logarithm of the standard normal CDF, accurate far into both tails.

    Parameters
    ----------
    x : array_like
        Real input.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords.

    Returns
    -------
    res : scalar or ndarray
        ``log(ndtr(x))``.

    See Also
    --------
    scipy.special.log_ndtr, torch.special.log_ndtr

    Notes
    -----
    Autodiff: differentiable in `x`; the derivative ``ndtr'(x) / ndtr(x)``, as
    ``sqrt(2/pi) / erfcx(-x/sqrt(2))`` for ``x <= 0``, is evaluated without underflow.

    Examples
    --------
    >>> from linalgx.special import log_ndtr
    >>> float(log_ndtr(-40.0))
    -804.6084420137539
    """
    return apply(_log_ndtr, (x,), out, kwargs)
