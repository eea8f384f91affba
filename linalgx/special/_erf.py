"""Error function family: erf, erfc, erfcx, erfinv, ndtr, ndtri, log_ndtr."""
import math

from ._ufunc import apply, def_elementwise_rules, ufunc_op

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
    return _2_SQRTPI * xp.exp(-(x * x))


def _d_erfc(xp, out, x):
    return -_2_SQRTPI * xp.exp(-(x * x))


def _d_erfcx(xp, out, x):
    return 2.0 * x * out - _2_SQRTPI


def _d_erfinv(xp, out, y):
    return (0.5 * math.sqrt(math.pi)) * xp.exp(out * out)


def _d_ndtr(xp, out, x):
    return xp.exp(-0.5 * (x * x)) / _SQRT2PI


def _d_ndtri(xp, out, p):
    return _SQRT2PI * xp.exp(0.5 * (out * out))


def _d_log_ndtr(xp, out, x):
    # phi(x)/Phi(x) = sqrt(2/pi) / erfcx(-x/sqrt(2)): no underflow for large negative x
    return math.sqrt(2.0 / math.pi) / erfcx(-x * math.sqrt(0.5))


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

    Autodiff: differentiable in `z`; ``d erf(z) = 2/sqrt(pi) exp(-z**2) dz``.

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
    Autodiff: differentiable in `x`; ``d erfc(x) = -2/sqrt(pi) exp(-x**2) dx``.

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

    Autodiff: differentiable in `x`; ``d erfcx(x) = (2 x erfcx(x) - 2/sqrt(pi)) dx``.

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

    Autodiff: differentiable in `y`; ``d erfinv(y) = sqrt(pi)/2 exp(erfinv(y)**2) dy``.

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
    Autodiff: differentiable in `x`; the derivative is the normal density.

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
    Autodiff: differentiable in `y`; ``d ndtri(y) = sqrt(2 pi) exp(ndtri(y)**2 / 2) dy``.

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
    Autodiff: differentiable in `x`; the derivative ``sqrt(2/pi) / erfcx(-x/sqrt(2))`` is
    evaluated without underflow.

    Examples
    --------
    >>> from linalgx.special import log_ndtr
    >>> float(log_ndtr(-40.0))
    -804.6084420137539
    """
    return apply(_log_ndtr, (x,), out, kwargs)
