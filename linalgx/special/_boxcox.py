"""Box-Cox transformations: boxcox, boxcox1p, inv_boxcox, inv_boxcox1p.

Kernels in ``kernels/special/boxcox.py`` (SciPy's formulas). The derivatives in ``lmbda``
stay accurate at and near ``lmbda = 0``: with ``L = log(x)`` (``log1p(x)``) and ``u =
lmbda L``,

- ``d/dlmbda boxcox = L**2 exp(u) phi(-u)``,
- ``d/dlmbda inv_boxcox = -R v**2 phi(-lmbda v)``, ``R = inv_boxcox``, ``v = log(R)``
  (``log1p(lmbda y) / lmbda``, or ``y`` at ``lmbda = 0``),

where ``phi(s) = (exp(s) - 1 - s) / s**2`` is summed as its Taylor series for ``|s| < 1``
(the closed forms ``(lmbda x**lmbda log(x) - x**lmbda + 1) / lmbda**2`` cancel completely
as ``lmbda -> 0``). The derivatives in the first argument are ``x**(lmbda - 1)`` (of
``1 + x`` for boxcox1p) and ``R / (1 + lmbda y)``.
"""
import math

import numpy as np

from .._core.xputil import unbox_all
from ._ufunc import apply, def_elementwise_rules, ufunc_op

__all__ = ["boxcox", "boxcox1p", "inv_boxcox", "inv_boxcox1p"]

_boxcox = ufunc_op("boxcox")
_boxcox1p = ufunc_op("boxcox1p")
_inv_boxcox = ufunc_op("inv_boxcox")
_inv_boxcox1p = ufunc_op("inv_boxcox1p")

# phi(s) = sum_k s**k / (k + 2)!, k < 20: below 1e-20 for |s| < 1
_PHI = [1.0 / math.factorial(k + 2) for k in range(20)]


def _phi(xp, s):
    """(exp(s) - 1 - s) / s**2, without cancellation for small |s|."""
    small = xp.abs(s) < 1.0
    ss = xp.where(small, s, 0.0)
    series = _PHI[-1]
    for c in _PHI[-2::-1]:
        series = series * ss + c
    sd = xp.where(small, 1.0, s)
    return xp.where(small, series, (xp.expm1(sd) - sd) / (sd * sd))


def _d_lmbda(xp, logx, lmbda, at_zero):
    # L**2 exp(u) phi(-u), u = lmbda L (L = log x or log1p x); where u > 700 exp(u)
    # overflows first: there exp(u - 2 log|lmbda|) (u - 1 + exp(-u)). at_zero: x = 0 (or
    # -1), where the value is -1/lmbda for lmbda > 0 and the derivative 1/lmbda**2
    big = (lmbda * logx > 700.0) & ~at_zero
    edge = at_zero | big
    ls = xp.where(edge, 0.0, logx)      # placeholders keep the unused branches finite
    u = lmbda * ls
    main = ls * ls * xp.exp(u) * _phi(xp, -u)
    lb = xp.where(big, lmbda, 1.0)
    ub = xp.where(big, lmbda * logx, 1.0)
    over = xp.exp(ub - 2.0 * xp.log(xp.abs(lb))) * (ub - 1.0 + xp.exp(-ub))
    lz = xp.where(at_zero, lmbda, 1.0)
    zero = xp.where(lmbda > 0, 1.0 / (lz * lz), xp.where(lmbda == 0, math.inf, math.nan))
    return xp.where(at_zero, zero, xp.where(big, over, main))


def _d_boxcox_x(xp, out, x, lmbda):
    return xp.where(x < 0, math.nan, xp.power(x, lmbda - 1.0))


def _d_boxcox_l(xp, out, x, lmbda):
    xs = xp.where(x > 0, x, 1.0)
    d = _d_lmbda(xp, xp.log(xs), lmbda, x == 0)
    return xp.where(x < 0, math.nan, d)


def _d_boxcox1p_x(xp, out, x, lmbda):
    return xp.where(x < -1, math.nan, xp.power(1.0 + x, lmbda - 1.0))


def _d_boxcox1p_l(xp, out, x, lmbda):
    xs = xp.where(x > -1, x, 0.0)
    d = _d_lmbda(xp, xp.log1p(xs), lmbda, x == -1)
    return xp.where(x < -1, math.nan, d)


def _v(xp, y, lmbda):
    # log(inv_boxcox(y, lmbda)) = log1p(lmbda y) / lmbda, y at lmbda = 0
    zero = lmbda == 0
    ls = xp.where(zero, 1.0, lmbda)
    return xp.where(zero, y, xp.log1p(xp.where(zero, 0.0, lmbda * y)) / ls)


def _d_inv_y(xp, r, y, lmbda):
    # R / (1 + lmbda y) = (1 + lmbda y)**(1/lmbda - 1); at 1 + lmbda y = 0 that power of 0
    # (0, 1 or inf), a constant
    base = 1.0 + lmbda * y
    flat = base == 0
    lv = np.asarray(unbox_all(lmbda), dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        edge = np.power(0.0, 1.0 / np.where(lv == 0, 1.0, lv) - 1.0)
    return xp.where(flat, edge, r / xp.where(flat, 1.0, base))


def _d_inv_boxcox_y(xp, out, y, lmbda):
    return _d_inv_y(xp, out, y, lmbda)


def _d_inv_boxcox_l(xp, out, y, lmbda):
    v = _v(xp, y, lmbda)
    return -out * v * v * _phi(xp, -lmbda * v)


def _d_inv_boxcox1p_y(xp, out, y, lmbda):
    return _d_inv_y(xp, out + 1.0, y, lmbda)


def _d_inv_boxcox1p_l(xp, out, y, lmbda):
    v = _v(xp, y, lmbda)
    return -(out + 1.0) * v * v * _phi(xp, -lmbda * v)


def_elementwise_rules(_boxcox, _d_boxcox_x, _d_boxcox_l)
def_elementwise_rules(_boxcox1p, _d_boxcox1p_x, _d_boxcox1p_l)
def_elementwise_rules(_inv_boxcox, _d_inv_boxcox_y, _d_inv_boxcox_l)
def_elementwise_rules(_inv_boxcox1p, _d_inv_boxcox1p_y, _d_inv_boxcox1p_l)

_KW = """
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords (``where``, ``casting``, ``dtype``, ...)."""


def _doc(text):
    return text.replace("%(kw)s", _KW.strip("\n"))


def boxcox(x, lmbda, out=None, **kwargs):
    return apply(_boxcox, (x, lmbda), out, kwargs)


def boxcox1p(x, lmbda, out=None, **kwargs):
    return apply(_boxcox1p, (x, lmbda), out, kwargs)


def inv_boxcox(y, lmbda, out=None, **kwargs):
    return apply(_inv_boxcox, (y, lmbda), out, kwargs)


def inv_boxcox1p(y, lmbda, out=None, **kwargs):
    return apply(_inv_boxcox1p, (y, lmbda), out, kwargs)


boxcox.__doc__ = _doc("""
    Compute the Box-Cox transformation.

    Parameters
    ----------
    x : array_like
        Data to be transformed.
    lmbda : array_like
        Power parameter of the Box-Cox transform.
%(kw)s

    Returns
    -------
    y : scalar or ndarray
        ``(x**lmbda - 1) / lmbda`` if ``lmbda != 0``, ``log(x)`` if ``lmbda == 0`` (and
        for ``|lmbda| < 1e-19``); NaN for ``x < 0``. float32 for float32 (and float16)
        input, float64 otherwise.

    See Also
    --------
    scipy.special.boxcox, boxcox1p, inv_boxcox

    Notes
    -----
    SciPy's formula: ``expm1(lmbda log(x)) / lmbda``, and where ``lmbda log(x)`` exceeds
    709.78 ``sign(lmbda) exp(lmbda log(x) - log|lmbda|) - 1/lmbda``.

    Autodiff: differentiable in both; ``d/dx = x**(lmbda - 1)``, ``d/dlmbda = (lmbda
    x**lmbda log(x) - x**lmbda + 1) / lmbda**2``, evaluated without its cancellation near
    ``lmbda = 0`` (where it is ``log(x)**2 / 2``).

    Examples
    --------
    >>> from linalgx.special import boxcox
    >>> boxcox(np.array([1.0, 4.0, 10.0]), 0.5)
    array([0.        , 2.        , 4.32455532])
    >>> float(boxcox(np.e, 0.0))
    1.0
    """)
boxcox1p.__doc__ = _doc("""
    Compute the Box-Cox transformation of 1 + `x`.

    Parameters
    ----------
    x : array_like
        Data to be transformed.
    lmbda : array_like
        Power parameter of the Box-Cox transform.
%(kw)s

    Returns
    -------
    y : scalar or ndarray
        ``((1 + x)**lmbda - 1) / lmbda`` if ``lmbda != 0``, ``log1p(x)`` if ``lmbda == 0``;
        NaN for ``x < -1``.

    See Also
    --------
    scipy.special.boxcox1p, boxcox, inv_boxcox1p

    Notes
    -----
    SciPy's formula: ``expm1(lmbda log1p(x)) / lmbda``, accurate for small `x`.

    Autodiff: differentiable in both; ``d/dx = (1 + x)**(lmbda - 1)``, ``d/dlmbda`` as
    for :func:`boxcox` with ``log1p(x)`` for ``log(x)``.

    Examples
    --------
    >>> from linalgx.special import boxcox1p
    >>> boxcox1p(np.array([1e-20, 3.0]), 0.5)
    array([1.e-20, 2.e+00])
    """)
inv_boxcox.__doc__ = _doc("""
    Compute the inverse of the Box-Cox transformation.

    Parameters
    ----------
    y : array_like
        Data to be transformed.
    lmbda : array_like
        Power parameter of the Box-Cox transform.
%(kw)s

    Returns
    -------
    x : scalar or ndarray
        ``(1 + lmbda y)**(1 / lmbda)`` if ``lmbda != 0``, ``exp(y)`` if ``lmbda == 0``.

    See Also
    --------
    scipy.special.inv_boxcox, boxcox

    Notes
    -----
    SciPy's formula: ``exp(log1p(lmbda y) / lmbda)``.

    Autodiff: differentiable in both; ``d/dy = x / (1 + lmbda y)``, ``d/dlmbda = -x v**2
    phi(-lmbda v)`` with ``v = log1p(lmbda y) / lmbda`` and ``phi(s) = (exp(s) - 1 - s) /
    s**2`` (a series for small ``|s|``): ``-x y**2 / 2`` at ``lmbda = 0``.

    Examples
    --------
    >>> from linalgx.special import inv_boxcox
    >>> inv_boxcox(np.array([0.0, 2.0, 4.32455532]), 0.5)
    array([ 1.,  4., 10.])
    """)
inv_boxcox1p.__doc__ = _doc("""
    Compute the inverse of the Box-Cox transformation of 1 + `x`.

    Parameters
    ----------
    y : array_like
        Data to be transformed.
    lmbda : array_like
        Power parameter of the Box-Cox transform.
%(kw)s

    Returns
    -------
    x : scalar or ndarray
        ``(1 + lmbda y)**(1 / lmbda) - 1`` if ``lmbda != 0``, ``expm1(y)`` if ``lmbda ==
        0``.

    See Also
    --------
    scipy.special.inv_boxcox1p, boxcox1p

    Notes
    -----
    SciPy's formula: ``expm1(log1p(lmbda y) / lmbda)``, ``y`` where ``|lmbda y| <
    1e-154``.

    Autodiff: differentiable in both, as :func:`inv_boxcox` (the derivatives of ``x + 1``).

    Examples
    --------
    >>> from linalgx.special import inv_boxcox1p
    >>> inv_boxcox1p(np.array([1e-20, 2.0]), 0.5)
    array([1.e-20, 3.e+00])
    """)
