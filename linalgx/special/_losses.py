"""Smooth and robust losses: huber, pseudo_huber, softplus.

huber and pseudo_huber: kernels in ``kernels/special/boxcox.py`` (xsf ``convex_analysis.h``;
pseudo_huber without its cancellation and overflow). softplus is, as in SciPy, NumPy's
``logaddexp(0, x)`` with NumPy's ufunc keywords and result types.

Derivatives: huber's are piecewise (``r`` and 0 inside ``|r| <= delta``, ``delta sign(r)``
and ``|r| - delta`` outside); pseudo_huber's, with ``w = |r| / delta`` and ``S = sqrt(1 +
w**2)``, are ``d/dr = r / S`` and ``d/ddelta = delta w**4 / (S (S + 1)**2)`` (the form of
``2 delta (S - 1) - r w / S`` that does not cancel), written for ``w >= 1`` in ``1/w`` so
that they stay finite as ``w`` overflows; softplus' is ``expit(x)``. At ``delta = 0``
(pseudo_huber is 0 for every r there) the ``delta``-derivative is the one-sided ``|r|``;
for ``delta < 0`` (the losses are inf) both are 0.
"""
import numpy as np

from .._core.op import Op
from ._basic import expit
from ._ufunc import apply, def_elementwise_rules, ufunc_op

__all__ = ["huber", "pseudo_huber", "softplus"]

_huber = ufunc_op("huber")
_pseudo_huber = ufunc_op("pseudo_huber")
_softplus = Op("softplus")


@_softplus.impl("numba", "lapack")
def _softplus_numpy(x, **kwargs):
    return np.logaddexp(0, x, **kwargs)


@_softplus.impl("cupy")
def _softplus_cupy(x, **kwargs):
    import cupy
    return cupy.logaddexp(0, x, **kwargs)


def _d_huber_delta(xp, out, delta, r):
    a = xp.abs(r)
    return xp.where((delta < 0) | (a <= delta), 0.0, a - delta)


def _d_huber_r(xp, out, delta, r):
    return xp.where(delta < 0, 0.0, xp.where(xp.abs(r) <= delta, r, delta * xp.sign(r)))


def _ph_parts(xp, delta, r):
    pos = delta > 0
    ds = xp.where(pos, delta, 1.0)
    a = xp.abs(r)
    w = a / ds
    small = w < 1.0
    ws = xp.where(small, w, 0.5)              # placeholders keep unused branches finite
    iw = 1.0 / xp.where(small, 2.0, w)        # 1/w for w >= 1 (0 where w overflows)
    hb = xp.hypot(iw, 1.0)                    # S / w
    return pos, ds, a, small, ws, iw, hb


def _d_pseudo_huber_delta(xp, out, delta, r):
    pos, ds, a, small, ws, iw, hb = _ph_parts(xp, delta, r)
    s = xp.hypot(1.0, ws)
    inner = a * ws * ws * ws / (s * (s + 1.0) ** 2)     # delta w**4 / (S (S+1)**2)
    outer = a / (hb * (hb + iw) ** 2)                   # the same, in 1/w
    return xp.where(pos, xp.where(small, inner, outer), xp.where(delta == 0, a, 0.0))


def _d_pseudo_huber_r(xp, out, delta, r):
    pos, ds, a, small, ws, iw, hb = _ph_parts(xp, delta, r)
    inner = r / xp.hypot(1.0, ws)
    outer = xp.sign(r) * ds / hb
    return xp.where(pos, xp.where(small, inner, outer), 0.0)


def _d_softplus(xp, out, x):
    return expit(x)


def_elementwise_rules(_huber, _d_huber_delta, _d_huber_r)
def_elementwise_rules(_pseudo_huber, _d_pseudo_huber_delta, _d_pseudo_huber_r)
def_elementwise_rules(_softplus, _d_softplus)


def huber(delta, r, out=None, **kwargs):
    """
    Huber loss function.

    Parameters
    ----------
    delta : array_like
        Input array, indicating the quadratic vs. linear loss changepoint.
    r : array_like
        Input array, possibly representing residuals.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords (``where``, ``casting``, ``dtype``, ...).

    Returns
    -------
    res : scalar or ndarray
        ``r**2 / 2`` for ``|r| <= delta``, ``delta (|r| - delta / 2)`` otherwise, ``inf``
        for ``delta < 0``.

    See Also
    --------
    scipy.special.huber, pseudo_huber

    Notes
    -----
    xsf's ``huber`` (as SciPy), bit for bit.

    Autodiff: differentiable in both; ``d/dr = r`` inside, ``delta sign(r)`` outside;
    ``d/ddelta = 0`` inside, ``|r| - delta`` outside (both continuous at ``|r| = delta``);
    0 for ``delta < 0``.

    Examples
    --------
    >>> from linalgx.special import huber
    >>> huber(1.0, np.array([-2.0, 0.5, 3.0]))
    array([1.5  , 0.125, 2.5  ])
    """
    return apply(_huber, (delta, r), out, kwargs)


def pseudo_huber(delta, r, out=None, **kwargs):
    """
    Pseudo-Huber loss function.

    Parameters
    ----------
    delta : array_like
        Input array, indicating the soft quadratic vs. linear loss changepoint.
    r : array_like
        Input array, possibly representing residuals.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords (``where``, ``casting``, ``dtype``, ...).

    Returns
    -------
    res : scalar or ndarray
        ``delta**2 (sqrt(1 + (r/delta)**2) - 1)``; 0 for ``delta = 0`` or ``r = 0``, ``inf``
        for ``delta < 0``.

    See Also
    --------
    scipy.special.pseudo_huber, huber

    Notes
    -----
    Evaluated as ``r**2 / (1 + sqrt(1 + w**2))``, ``w = |r| / delta``, for ``w < 1`` and
    as ``delta |r| w / (1 + sqrt(1 + w**2))`` otherwise (``hypot`` for the root), which
    neither cancels nor overflows. SciPy's ``delta**2 expm1(log1p((r/delta)**2) / 2)``
    gives NaN where ``(r/delta)**2`` overflows and ``delta**2`` underflows
    (``pseudo_huber(1e-300, 1.0)``: SciPy NaN, linalgx 1e-300) and loses digits where
    ``delta**2`` is subnormal. At infinities and NaN the values are SciPy's.

    Autodiff: differentiable in both; ``d/dr = r / sqrt(1 + (r/delta)**2)``,
    ``d/ddelta = 2 delta (sqrt(1 + w**2) - 1) - r w / sqrt(1 + w**2)`` evaluated without
    cancellation; at ``delta = 0`` ``d/ddelta = |r|`` (one-sided), for ``delta < 0`` both
    are 0.

    Examples
    --------
    >>> from linalgx.special import pseudo_huber
    >>> pseudo_huber(1.0, np.array([0.0, 1e-8, 1.0, 1e10]))
    array([0.00000000e+00, 5.00000000e-17, 4.14213562e-01, 1.00000000e+10])
    """
    return apply(_pseudo_huber, (delta, r), out, kwargs)


def softplus(x, **kwargs):
    r"""
    Compute the softplus function element-wise, ``log(1 + exp(x))``.

    Parameters
    ----------
    x : array_like
        Input value.
    **kwargs
        For other keyword-only arguments (``out``, ``where``, ``dtype``, ...), see the
        ufunc docs of :func:`numpy.logaddexp`.

    Returns
    -------
    softplus : ndarray
        Logarithm of ``exp(0) + exp(x)``, NumPy's ``logaddexp(0, x)``: the result type of
        `x` and a Python int (float16 stays float16, integers give float64).

    See Also
    --------
    scipy.special.softplus, expit, log_expit

    Notes
    -----
    As SciPy (a Python function, not a ufunc): ``np.logaddexp(0, x, **kwargs)``, which is
    ``max(0, x) + log1p(exp(-|x|))``, accurate for all real `x`. Complex input raises
    NumPy's TypeError, as in SciPy.

    Autodiff: differentiable; the derivative is ``expit(x)``.

    Examples
    --------
    >>> from linalgx.special import softplus
    >>> float(softplus(0))
    0.6931471805599453
    >>> softplus([-1, 0, 1])
    array([0.31326169, 0.69314718, 1.31326169])
    """
    out = kwargs.pop("out", None)
    return apply(_softplus, (x,), out, kwargs)
