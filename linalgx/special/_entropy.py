"""Relative entropy and Kullback-Leibler divergence: rel_entr, kl_div.

Kernels in ``kernels/special/explog.py`` (xsf ``convex_analysis.h``, with cancellation-free
evaluation for ``x ~ y``). The partial derivatives follow the functions' conventions at
``x = 0``: the value there is ``0`` (rel_entr) or ``y`` (kl_div) for every ``y >= 0``, so
the ``y``-derivative is 0 (rel_entr) or 1 (kl_div) there, as xlogy's is.
"""
from ._ufunc import apply, def_elementwise_rules, ufunc_op

__all__ = ["rel_entr", "kl_div"]

_rel_entr = ufunc_op("rel_entr")
_kl_div = ufunc_op("kl_div")


def _log_ratio(xp, x, y):
    # log(x / y), through log1p of the exact difference where x and y are close
    close = xp.abs(x - y) <= 0.5 * y
    ys = xp.where(close, y, 1.0)
    near = xp.log1p((x - ys) / ys)
    return xp.where(close, near, xp.log(x) - xp.log(y))


def _d_rel_entr_x(xp, out, x, y):
    return _log_ratio(xp, x, y) + 1.0


def _d_rel_entr_y(xp, out, x, y):
    ys = xp.where(x == 0, 1.0, y)
    return xp.where(x == 0, 0.0, -x / ys)


def _d_kl_div_x(xp, out, x, y):
    return _log_ratio(xp, x, y)


def _d_kl_div_y(xp, out, x, y):
    ys = xp.where(x == 0, 1.0, y)
    return xp.where(x == 0, 1.0, (ys - x) / ys)


def_elementwise_rules(_rel_entr, _d_rel_entr_x, _d_rel_entr_y)
def_elementwise_rules(_kl_div, _d_kl_div_x, _d_kl_div_y)


def rel_entr(x, y, out=None, **kwargs):
    """
    Elementwise function for computing relative entropy.

    Parameters
    ----------
    x, y : array_like
        Real input.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords (``where``, ``casting``, ``dtype``, ...).

    Returns
    -------
    res : scalar or ndarray
        ``x log(x / y)`` for ``x > 0, y > 0``; 0 for ``x = 0, y >= 0``; ``inf`` otherwise.

    See Also
    --------
    scipy.special.rel_entr, kl_div, entr

    Notes
    -----
    xsf's ``rel_entr`` (``log1p((x - y) / y)`` for ``y/2 < x < 2y``; ``log(x) - log(y)``
    where ``x / y`` under- or overflows), with the rounding error of ``(x - y) / y``
    carried as a correction term.

    Autodiff: differentiable in both; ``d/dx = log(x / y) + 1``, ``d/dy = -x / y`` (0 at
    ``x = 0``, where the function is 0 for all ``y >= 0``).

    Examples
    --------
    >>> from linalgx.special import rel_entr
    >>> rel_entr(np.array([0.5, 0.0]), np.array([0.25, 3.0]))
    array([0.34657359, 0.        ])
    """
    return apply(_rel_entr, (x, y), out, kwargs)


def kl_div(x, y, out=None, **kwargs):
    """
    Elementwise function for computing Kullback-Leibler divergence.

    Parameters
    ----------
    x, y : array_like
        Real input.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords (``where``, ``casting``, ``dtype``, ...).

    Returns
    -------
    res : scalar or ndarray
        ``x log(x / y) - x + y`` for ``x > 0, y > 0``; `y` for ``x = 0, y >= 0``; ``inf``
        otherwise.

    See Also
    --------
    scipy.special.kl_div, rel_entr

    Notes
    -----
    SciPy's special values. Where ``y/2 <= x <= 2y`` the value is evaluated as
    ``y g(d)``, ``d = (x - y) / y``, ``g(d) = (1 + d) log1p(d) - d`` (a series for
    ``|d| <= 1/2``), with the rounding error of `d` carried to first order: SciPy's
    ``x log(x / y) - x + y`` cancels as ``x -> y`` (all digits lost for ``x / y - 1 <
    1e-8``). Where ``x / y`` under- or overflows, ``log(x) - log(y)`` replaces
    ``log(x / y)`` (SciPy returns ``-inf`` or ``inf`` there).

    Autodiff: differentiable in both; ``d/dx = log(x / y)``, ``d/dy = 1 - x / y`` (1 at
    ``x = 0``, where the function is `y`).

    Examples
    --------
    >>> from linalgx.special import kl_div
    >>> float(kl_div(1.0 + 2.0**-30, 1.0))   # d**2/2 - d**3/6 for d = 2**-30; SciPy: 0.0
    4.336808688595695e-19
    """
    return apply(_kl_div, (x, y), out, kwargs)
