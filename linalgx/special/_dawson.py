"""Imaginary error function and Dawson's integral: erfi, dawsn.

Kernels in ``kernels/special/dawson.py`` (Johnson's Faddeeva scheme with our own tables);
complex input goes to SciPy's complex loops (Faddeeva's ``w``). Derivatives: ``erfi'(x) =
2/sqrt(pi) exp(x**2)`` (with the rounding error of ``x**2`` compensated, ``exp_square``) and
``D'(x) = 1 - 2 x D(x)``, for real x from a kernel of its own (``dawsn_d``): from D it
cancels to ``-1/(2 x**2)`` as x grows (all digits lost by x = 1e8). Both are holomorphic;
complex input uses ``1 - 2 z D(z)``.
"""
import math

from .._core.xputil import dtype_of
from ._ufunc import apply, def_elementwise_rules, exp_square, ufunc_op

__all__ = ["erfi", "dawsn"]

_2_SQRTPI = 2.0 / math.sqrt(math.pi)

_erfi = ufunc_op("erfi")
_dawsn = ufunc_op("dawsn")
_dawsn_d = ufunc_op("dawsn_d")      # D'(x) = 1 - 2 x D(x), real x (private)


def _d_erfi(xp, out, x):
    return _2_SQRTPI * exp_square(xp, x, 1.0)


def _d_dawsn(xp, out, x):
    if dtype_of(x).kind == "c":
        return 1.0 - 2.0 * x * out
    return _dawsn_d(x)


def _d_dawsn_d(xp, out, x):
    # D'' = -2 D - 2 x D'
    return -2.0 * (_dawsn(x) + x * out)


def_elementwise_rules(_erfi, _d_erfi)
def_elementwise_rules(_dawsn, _d_dawsn)
def_elementwise_rules(_dawsn_d, _d_dawsn_d)


def erfi(z, out=None, **kwargs):
    """
    Imaginary error function, ``-i erf(i z)``.

    Parameters
    ----------
    z : array_like
        Real or complex argument.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords (``where``, ``casting``, ``dtype``, ...).

    Returns
    -------
    res : scalar or ndarray
        ``erfi(x) = 2/sqrt(pi) int_0^x exp(t**2) dt`` in the input's precision (float64 for
        integers); odd, overflowing to ``+-inf`` beyond ``|x| = 26.71``.

    See Also
    --------
    scipy.special.erfi, dawsn, erf

    Notes
    -----
    ``erfi(x) = 2/sqrt(pi) exp(x**2) D(x)`` with Dawson's integral `D` (:func:`dawsn`), as
    SciPy's Faddeeva package; a Taylor series for ``|x| < 1/2``. ``exp(x**2)`` is taken
    from the exact square of `x` (SciPy's ``exp(x*x)`` carries the rounding error of
    ``x*x``, up to ``x**2/2`` ulp: about 300 ulp near the overflow), and is scaled where it
    overflows before the product does: finite results up to ``|x| = 26.71``, where SciPy
    returns inf from ``|x| = 26.64``. Complex input goes to SciPy's complex loop.

    Autodiff: differentiable (holomorphic for complex input); the derivative is
    ``2/sqrt(pi) exp(z**2)``.

    Examples
    --------
    >>> from linalgx.special import erfi
    >>> erfi(np.array([0.0, 0.5, 2.0]))
    array([ 0.        ,  0.61495209, 18.56480241])
    >>> complex(erfi(1j))                 # -i erf(-1)
    0.8427007929497149j
    """
    return apply(_erfi, (z,), out, kwargs)


def dawsn(x, out=None, **kwargs):
    """
    Dawson's integral, ``exp(-x**2) int_0^x exp(t**2) dt``.

    Parameters
    ----------
    x : array_like
        Real or complex argument.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords (``where``, ``casting``, ``dtype``, ...).

    Returns
    -------
    res : scalar or ndarray
        ``D(x) = sqrt(pi)/2 exp(-x**2) erfi(x)``: odd, largest (0.5410) at ``x = 0.9241``,
        ``~ 1/(2x)`` for large ``|x|``.

    See Also
    --------
    scipy.special.dawsn, erfi

    Notes
    -----
    Johnson's Faddeeva scheme (as SciPy's ``sqrt(pi)/2 w_im(x)``) with our own tables: a
    Taylor series for ``|x| < 1/2``, piecewise polynomials (degree 10, 16 per binade) up
    to 64 in a variable that is exact in floating point, and the asymptotic series beyond.
    Complex input goes to SciPy's complex loop.

    Autodiff: differentiable (holomorphic for complex input); the derivative is ``1 - 2 x
    dawsn(x)``, for real `x` evaluated by its own kernel without the cancellation of that
    formula.

    Examples
    --------
    >>> from linalgx.special import dawsn
    >>> dawsn(np.array([0.5, 0.9241388730, 10.0]))
    array([0.42443638, 0.54104422, 0.05025385])
    """
    return apply(_dawsn, (x,), out, kwargs)
