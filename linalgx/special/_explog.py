"""Exponential and logarithmic functions: log_expit, exp10.

Kernels in ``kernels/special/explog.py`` (xsf ``log_exp.h``, Cephes ``exp10.c``).
"""
import math

from ._basic import expit
from ._ufunc import apply, def_elementwise_rules, ufunc_op

__all__ = ["log_expit", "exp10"]

_log_expit = ufunc_op("log_expit")
_exp10 = ufunc_op("exp10")


def _d_log_expit(xp, out, x):
    return expit(-x)   # 1 - expit(x), without its cancellation for large x


def _d_exp10(xp, out, x):
    return math.log(10.0) * out


def_elementwise_rules(_log_expit, _d_log_expit)
def_elementwise_rules(_exp10, _d_exp10)


def log_expit(x, out=None, **kwargs):
    """
    Logarithm of the logistic sigmoid, ``log(expit(x))``.

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
        ``log(1 / (1 + exp(-x)))`` in the input's precision (float64 for integers),
        accurate in both tails (``x`` for large negative `x`, ``-exp(-x)`` for large
        positive `x`).

    See Also
    --------
    scipy.special.log_expit, expit

    Notes
    -----
    xsf's ``log_expit``: ``x - log1p(exp(x))`` for ``x < 0``, ``-log1p(exp(-x))``
    otherwise. float32 input is computed in float64 and rounded once (SciPy's float32 loop
    computes in float32). Long double input goes to SciPy's long double loop.

    Autodiff: differentiable; the derivative is ``expit(-x)``.

    Examples
    --------
    >>> from linalgx.special import log_expit
    >>> log_expit(np.array([-800.0, 0.0, 40.0]))
    array([-8.00000000e+02, -6.93147181e-01, -4.24835426e-18])
    """
    return apply(_log_expit, (x,), out, kwargs)


def exp10(x, out=None, **kwargs):
    """
    Base-10 exponential, ``10**x``.

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
        ``10**x`` in the input's precision (float64 for integers); ``inf`` beyond
        ``x = 308.2547``, 0 below the subnormal range.

    See Also
    --------
    scipy.special.exp10, exp2

    Notes
    -----
    Cephes ``exp10`` (as SciPy): ``10**x = 2**n 10**g`` with ``|g| <= log10(2) / 2`` and a
    Pade approximation of ``10**g``. Unlike SciPy, which returns 0 for ``x < -308.2547``,
    the subnormal results down to ``x = -323.6`` are returned.

    Autodiff: differentiable; the derivative is ``log(10) * 10**x``.

    Examples
    --------
    >>> from linalgx.special import exp10
    >>> exp10(np.array([3.0, -2.0]))
    array([1.e+03, 1.e-02])
    """
    return apply(_exp10, (x,), out, kwargs)
