"""Exponential integrals: exp1, expi, expn.

Kernels in ``kernels/special/expint.py`` (Boost's rational approximations near 0, our own
piecewise polynomials beyond, a stable recurrence or continued fraction for E_n); complex
input of exp1 and expi goes to SciPy's complex loops (Zhang & Jin's ``e1z``), as other
functions without a complex kernel do. Derivatives: ``E1'(x) = -exp(-x)/x``, ``Ei'(x) =
exp(x)/x`` (holomorphic, for complex input too), and ``d/dx E_n(x) = -E_{n-1}(x)``
(``-exp(-x) (1 + x) / x**2`` for ``n = 0``); the degree ``n`` is an integer and carries no
derivative.
"""
import math
import warnings

import numpy as np

from .._core.xputil import dtype_of, unbox_all
from ._ufunc import apply, def_elementwise_rules, ufunc_op

__all__ = ["exp1", "expi", "expn"]

_exp1 = ufunc_op("exp1")
_expi = ufunc_op("expi")
_expn = ufunc_op("expn")

_LN2_HI = 0.6931471805598903      # ln 2 to 44 bits: x - 64 _LN2_HI is exact near 709
_EXP_LN2_LO = math.ldexp(math.exp(-64 * 5.497923018708371e-14), 64)   # 2**64 e**(-64 lo)


def _d_exp1(xp, out, x):
    d = -xp.exp(-x) / x
    if dtype_of(x).kind == "c":
        return d
    return xp.where(x < 0, math.nan, d)          # the real E1 is NaN for x < 0


def _d_expi(xp, out, x):
    if dtype_of(x).kind == "c":
        return xp.exp(x) / x
    # exp(x) / x, finite up to x = 716.4 where exp(x) alone overflows from 709.78: there as
    # exp(x - 64 ln2) 2**64 (x - 64 _LN2_HI is exact)
    big = x > 700.0
    xs = xp.where(big, 1.0, x)
    xb = xp.where(big, x, 64.0 * _LN2_HI)     # placeholder: exp(0)
    return xp.where(big, xp.exp(xb - 64.0 * _LN2_HI) / xb * _EXP_LN2_LO, xp.exp(xs) / xs)


def _d_expn_x(xp, out, n, x):
    # -E_{n-1}(x); for the degree 0 (n truncated), d/dx exp(-x)/x = -exp(-x) (1 + x) / x**2
    m = np.trunc(unbox_all(n))
    zero = m == 0
    lower = expn(np.where(zero, 1, m - 1), x)
    xs = xp.where(zero, x, 1.0)
    return xp.where(zero, -xp.exp(-xs) * (1.0 + xs) / (xs * xs), -lower)


def_elementwise_rules(_exp1, _d_exp1)
def_elementwise_rules(_expi, _d_expi)
def_elementwise_rules(_expn, None, _d_expn_x)


def _warn_truncated(n):
    # SciPy's float loops of expn cast n to a C int, warning where that changes it
    v = unbox_all(n)
    if isinstance(v, (list, tuple)):
        v = np.asarray(v)
    dt = getattr(v, "dtype", None)
    if (dt is not None and dt.kind == "f") or isinstance(v, float):
        with np.errstate(invalid="ignore"):
            if np.any(np.asarray(v) != np.trunc(v)):
                warnings.warn("floating point number truncated to an integer", RuntimeWarning,
                              stacklevel=3)


def exp1(x, out=None, **kwargs):
    """
    Exponential integral E1.

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
        ``E1(x) = int_x^inf exp(-t) / t dt`` in the input's precision (float64 for
        integers): ``inf`` at 0, NaN for real ``x < 0`` (where E1 is complex; pass complex
        input for the principal branch), 0 beyond ``x = 745``.

    See Also
    --------
    scipy.special.exp1, expi, expn

    Notes
    -----
    Below ``x = 1/2`` Boost's rational approximation ``R(x) + x - log(x) - Y``
    (``expint_1_rational``); beyond, ``exp(-x) g(x)`` with ``g = exp(x) E1(x)`` from our
    own piecewise polynomials (16 per binade up to 64) and its asymptotic series. SciPy
    evaluates Zhang & Jin's ``e1xb`` (a series and a continued fraction, up to 12 ulp
    off); linalgx stays within 3 ulp. Complex input goes to SciPy's complex loop.

    Autodiff: differentiable in `x` (holomorphic for complex input); the derivative is
    ``-exp(-x) / x``.

    Examples
    --------
    >>> from linalgx.special import exp1
    >>> exp1(np.array([0.5, 1.0, 10.0]))
    array([5.59773595e-01, 2.19383934e-01, 4.15696893e-06])
    >>> complex(exp1(-1.0 + 0j))      # the principal branch: -Ei(1) - i pi
    (-1.895117816355937-3.141592653589793j)
    """
    return apply(_exp1, (x,), out, kwargs)


def expi(x, out=None, **kwargs):
    """
    Exponential integral Ei.

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
        ``Ei(x) = -PV int_{-x}^inf exp(-t) / t dt`` (``-E1(-x)`` for ``x < 0``); ``-inf``
        at 0, ``inf`` beyond ``x = 716.4``.

    See Also
    --------
    scipy.special.expi, exp1

    Notes
    -----
    Below ``x = 1/2`` Boost's ``(x - x0) R(x) + log(x / x0)`` (``expint_i_imp``) with
    Ei's zero ``x0 = 0.37250741...`` to twice double precision, so the relative error
    stays at a few ulp where SciPy's series (Zhang & Jin's ``eix``, ``gamma + log(x) +
    sum``) cancels completely; beyond, ``exp(x) h(x)`` with ``h = exp(-x) Ei(x)`` from our
    own piecewise polynomials and its asymptotic series (SciPy's asymptotic series just
    above ``x = 40`` is cut off at about 1e-14 relative, and its ``exp(x)`` overflows from
    ``x = 709.78``). For ``x < 0``, ``-exp1(-x)``. Complex input goes to SciPy's complex
    loop.

    Autodiff: differentiable in `x` (holomorphic for complex input); the derivative is
    ``exp(x) / x``.

    Examples
    --------
    >>> from linalgx.special import expi
    >>> expi(np.array([-1.0, 0.5, 5.0]))
    array([-0.21938393,  0.4542199 , 40.18527536])
    >>> float(expi(0.37250741078136663))    # next to the zero (SciPy: 0.0)
    -5.119698936555684e-17
    """
    return apply(_expi, (x,), out, kwargs)


def expn(n, x, out=None, **kwargs):
    """
    Generalized exponential integral E_n.

    Parameters
    ----------
    n : array_like of int
        Nonnegative integer order. A floating `n` is truncated toward zero with a
        RuntimeWarning where that changes it, as SciPy's float loops do.
    x : array_like
        Real argument, ``x >= 0``.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords (``where``, ``casting``, ``dtype``, ...).

    Returns
    -------
    res : scalar or ndarray
        ``E_n(x) = int_1^inf exp(-x t) / t**n dt``; NaN for ``n < 0`` or ``x < 0``, at
        ``x = 0`` ``inf`` for ``n < 2`` and ``1/(n - 1)`` otherwise. float64 for integer
        input, float32 for float32 (and float16) `n` and `x`.

    See Also
    --------
    scipy.special.expn, exp1

    Notes
    -----
    For ``x < 1/2`` and ``n < 20`` the recurrence ``E_{k+1} = (exp(-x) - x E_k) / k``
    from ``E_1`` (:func:`exp1`), which is stable upwards there; otherwise the continued
    fraction DLMF 8.19.17 evaluated from its tail: within 3 ulp, where SciPy's Cephes
    ``expn`` (a power series, the continued fraction's convergents, an expansion in ``1/n``
    for ``n > 50``) is up to 16 ulp off near ``x = 1``. The special values are SciPy's.
    Unlike SciPy, which returns 0 from ``x > 709.78``, the subnormal values up to ``x =
    745`` are returned, and a degree beyond the C ``int`` range is taken as it is (SciPy
    gives NaN for floating ``n >= 2**31`` and wraps integer `n` modulo 2**32).

    Autodiff: differentiable in `x`; ``d/dx E_n(x) = -E_{n-1}(x)`` (``-exp(-x) (1 + x) /
    x**2`` for ``n = 0``). `n` is an integer and carries no derivative.

    Examples
    --------
    >>> from linalgx.special import expn
    >>> expn(np.array([0, 1, 2, 5]), 1.0)
    array([0.36787944, 0.21938393, 0.14849551, 0.07045424])
    >>> float(expn(3, 0.0))
    0.5
    """
    _warn_truncated(n)
    return apply(_expn, (n, x), out, kwargs)
