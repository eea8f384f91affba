"""Gamma family: gammaln, multigammaln, digamma (psi), polygamma, gammainc, gammaincc, zeta.

Derivatives that neither SciPy nor torch provide are computed by private kernels:

- d/ds of the Hurwitz zeta function: Taylor-mode differentiation of the Euler-Maclaurin
  formula (``_zeta_ds``; any order, so higher derivatives work);
- d/ds of the Riemann zeta function (``_riemann_zeta_ds``; any order): the value's own
  pieces differentiated, Euler-Maclaurin for s > 1, the Taylor series about 0 and -1 on
  [-1.25, 1), and Taylor-mode differentiation of the functional equation below, where
  Euler-Maclaurin's sum cancels (all digits lost by s ~ -15);
- d/da of the regularized incomplete gamma functions: Taylor-mode differentiation of the
  power series DLMF 8.11.4 (x <= a + 1) and of the modified-Lentz evaluation of the
  continued fraction DLMF 8.9.2 (otherwise), after R. J. Moore, Algorithm AS 187, Appl.
  Statist. 31 (1982) (``_gammainc_da``; any order).
"""
import math
import operator

import numpy as np

from .._core import validate as v
from .._core.op import Op
from .._core.xputil import unbox_all
from ._ufunc import apply, def_elementwise_rules, no_complex, ufunc_op

__all__ = ["gammaln", "multigammaln", "digamma", "psi", "polygamma", "gammainc",
           "gammaincc", "zeta"]

_gammaln = ufunc_op("gammaln")
_digamma = ufunc_op("digamma")
_polygamma = Op("polygamma")
_gammainc = ufunc_op("gammainc")
_gammaincc = ufunc_op("gammaincc")
_zeta = ufunc_op("zeta")
_riemann_zeta = ufunc_op("riemann_zeta", cupy_name="zeta")
_zeta_ds = ufunc_op("zeta_ds")
_riemann_zeta_ds = ufunc_op("riemann_zeta_ds")
_gammainc_da = ufunc_op("gammainc_da")
_igam_density = ufunc_op("igam_density_da")
_multigammaln = Op("multigammaln")


@_polygamma.impl("numba", "lapack")
def _polygamma_numba(n, x):
    from ..kernels.special import ufuncs
    res = ufuncs.call("polygamma", n, x)
    # SciPy's polygamma is Python code, asarray(n) and asarray(x) in and np.where(...) out:
    # always an ndarray (0-d for scalars), float32 exactly when both arguments are float32
    if np.asarray(n).dtype == np.float32 and np.asarray(x).dtype == np.float32:
        with np.errstate(over="ignore"):   # overflow to +-inf, silently as the ufuncs
            return np.asarray(res, dtype=np.float32)
    return np.asarray(res)


@_polygamma.impl("cupy")
def _polygamma_cupy(n, x):
    import cupyx.scipy.special as cs
    return cs.polygamma(n, x)


@_multigammaln.impl("numba", "lapack")
def _multigammaln_numba(a, d):
    from ..kernels.special import ufuncs
    # an np.float64 constant as in SciPy, so float32 `a` gives float64 as there
    res = np.float64((d * (d - 1) * 0.25) * math.log(math.pi))
    return res + np.sum([ufuncs.call("gammaln", a - 0.5 * j) for j in range(d)], axis=0)


@_multigammaln.impl("cupy")
def _multigammaln_cupy(a, d):
    import cupyx.scipy.special as cs
    return cs.multigammaln(a, d)


def _d_gammaln(xp, out, x):
    return digamma(x)


def _d_digamma(xp, out, x):
    no_complex(xp, "digamma (psi)", "polygamma(1, z)", x)
    return polygamma(1, x)


def _d_polygamma(xp, out, n, x):
    return polygamma(n + 1, x)


def _d_multigammaln(xp, out, a, d):
    return sum(digamma(a - 0.5 * j) for j in range(d))


def _d_gammainc_a(xp, out, a, x):
    return _gammainc_da(1, a, x)


def _d_gammainc_x(xp, out, a, x):
    return _igam_density(0, a, x)


def _d_gammaincc_a(xp, out, a, x):
    return -_gammainc_da(1, a, x)


def _d_gammaincc_x(xp, out, a, x):
    return -_igam_density(0, a, x)


def _d_da_a(xp, out, k, a, x):
    return _gammainc_da(k + 1, a, x)


def _d_da_x(xp, out, k, a, x):
    return _igam_density(k, a, x)


def _d_density_a(xp, out, k, a, x):
    return _igam_density(k + 1, a, x)


def _d_density_x(xp, out, k, a, x):
    # d/dx of d^k/da^k [x^(a-1) e^-x / Gamma(a)], by Leibniz in a
    prev = _igam_density(xp.maximum(k - 1, 0), a, x)
    return ((a - 1.0) / x - 1.0) * out + k * prev / x


def _d_zeta_s(xp, out, s, q):
    no_complex(xp, "zeta", "d zeta(x, q)/dx", s, q)
    return _zeta_ds(1, s, q)


def _d_zeta_q(xp, out, s, q):
    no_complex(xp, "zeta", "d zeta(x, q)/dx", s, q)
    return -s * zeta(s + 1.0, q)


def _d_riemann_s(xp, out, s):
    no_complex(xp, "zeta", "d zeta(x)/dx", s)
    return _riemann_zeta_ds(1, s)


def _d_riemann_ds_s(xp, out, k, s):
    return _riemann_zeta_ds(k + 1, s)


def _d_zeta_ds_s(xp, out, k, s, q):
    return _zeta_ds(k + 1, s, q)


def _d_zeta_ds_q(xp, out, k, s, q):
    # d/dq (-log(n+q))^k (n+q)^-s = -k (...)_{k-1}(s+1) - s (...)_k(s+1)
    return -k * _zeta_ds(xp.maximum(k - 1, 0), s + 1.0, q) - s * _zeta_ds(k, s + 1.0, q)


def_elementwise_rules(_gammaln, _d_gammaln)
def_elementwise_rules(_digamma, _d_digamma)
def_elementwise_rules(_polygamma, None, _d_polygamma)
def_elementwise_rules(_multigammaln, _d_multigammaln)
def_elementwise_rules(_gammainc, _d_gammainc_a, _d_gammainc_x)
def_elementwise_rules(_gammaincc, _d_gammaincc_a, _d_gammaincc_x)
def_elementwise_rules(_gammainc_da, None, _d_da_a, _d_da_x)
def_elementwise_rules(_igam_density, None, _d_density_a, _d_density_x)
def_elementwise_rules(_zeta, _d_zeta_s, _d_zeta_q)
def_elementwise_rules(_riemann_zeta, _d_riemann_s)
def_elementwise_rules(_riemann_zeta_ds, None, _d_riemann_ds_s)
def_elementwise_rules(_zeta_ds, None, _d_zeta_ds_s, _d_zeta_ds_q)


def gammaln(x, out=None, **kwargs):
    """
    Logarithm of the absolute value of the gamma function.

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
        ``log|Gamma(x)|``; ``inf`` at the poles ``x = 0, -1, -2, ...``.

    See Also
    --------
    scipy.special.gammaln, torch.special.gammaln

    Notes
    -----
    Cephes ``lgam`` (as in SciPy).

    Autodiff: differentiable in `x`; the derivative is :func:`digamma`.

    Examples
    --------
    >>> from linalgx.special import gammaln
    >>> float(gammaln(10.0))
    12.801827480081469
    """
    return apply(_gammaln, (x,), out, kwargs)


def multigammaln(a, d):
    """
    Logarithm of the multivariate gamma function of dimension `d`.

    Parameters
    ----------
    a : array_like
        Real input with ``a > (d - 1) / 2``.
    d : int
        The dimension.

    Returns
    -------
    res : scalar or ndarray
        ``d (d-1)/4 log(pi) + sum_{j<d} gammaln(a - j/2)``; float64 (also for float32 `a`,
        as SciPy).

    Raises
    ------
    ValueError
        If `d` is not an integer, or some ``a <= (d - 1) / 2`` (SciPy's messages).
    TypeError
        If `d` is a float, even with an integer value (as SciPy's ``range(1, d + 1)``).

    See Also
    --------
    scipy.special.multigammaln, torch.special.multigammaln

    Notes
    -----
    Autodiff: differentiable in `a`; the derivative is ``sum_{j<d} digamma(a - j/2)``.

    Examples
    --------
    >>> from linalgx.special import multigammaln
    >>> float(multigammaln(23.5, 10))
    457.1766747829046
    """
    dd = np.asarray(d)[()]
    if not np.isscalar(dd) or (np.floor(dd) != dd):
        raise ValueError(v.MESSAGES["multigammaln_d"])
    aval = unbox_all(a)   # the plain values, also under nested transforms (hessian)
    if np.any(np.asarray(aval) <= 0.5 * (dd - 1)):
        raise ValueError(v.MESSAGES["multigammaln_a"].format(np.asarray(aval), 0.5 * (dd - 1)))
    # SciPy's range(1, d + 1): a float d is a TypeError even with an integer value
    dd = operator.index(dd + 1) - 1
    if isinstance(a, (list, tuple, int, float)):
        a = np.asarray(a, dtype=float)
    return _multigammaln(a, dd)


def digamma(x, out=None, **kwargs):
    """
    The digamma function, the logarithmic derivative of the gamma function.

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
        ``psi(x)``; NaN at the negative integers, ``-inf``/``inf`` at ``+0``/``-0``.

    See Also
    --------
    scipy.special.digamma, torch.special.digamma

    Notes
    -----
    Cephes ``psi`` with Boost's approximation on [1, 2] and a Taylor series about the
    negative root (as in SciPy). ``psi`` is the same function.

    Autodiff: differentiable in real `x`; the derivative is ``polygamma(1, x)``. Complex
    input is not differentiable (``polygamma`` has no complex implementation): JVP and VJP
    raise a TypeError.

    Examples
    --------
    >>> from linalgx.special import digamma
    >>> float(digamma(1.0))
    -0.5772156649015329
    """
    return apply(_digamma, (x,), out, kwargs)


psi = digamma


def polygamma(n, x):
    """
    Polygamma function, the `n`-th derivative of :func:`digamma`.

    Parameters
    ----------
    n : array_like of int
        Order of the derivative (``n = 0`` is digamma).
    x : array_like
        Real input.

    Returns
    -------
    res : ndarray
        ``(-1)**(n+1) n! zeta(n+1, x)``. As in SciPy (whose ``polygamma`` ends in
        ``np.where``) always an ndarray, 0-d for scalar arguments; float32 when both `n` and
        `x` are float32, float64 otherwise.

    See Also
    --------
    scipy.special.polygamma, torch.special.polygamma

    Notes
    -----
    Autodiff: differentiable in `x` (the derivative is ``polygamma(n+1, x)``), not in `n`.

    Examples
    --------
    >>> from linalgx.special import polygamma
    >>> float(polygamma(1, 1.0))
    1.6449340668482266
    """
    return apply(_polygamma, (n, x))


def gammainc(a, x, out=None, **kwargs):
    """
    Regularized lower incomplete gamma function P(a, x).

    Parameters
    ----------
    a : array_like
        Positive parameter.
    x : array_like
        Nonnegative argument.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords.

    Returns
    -------
    res : scalar or ndarray
        ``integral(t**(a-1) exp(-t), t=0..x) / Gamma(a)``.

    See Also
    --------
    gammaincc, scipy.special.gammainc, torch.special.gammainc

    Notes
    -----
    Cephes ``igam`` with SciPy's uniform asymptotic expansion for ``a ~ x``.

    Autodiff: differentiable in both arguments. ``dP/dx = x**(a-1) exp(-x) / Gamma(a)``;
    ``dP/da`` (which torch does not provide) is computed by Taylor-mode differentiation of
    the power series (``x <= a + 1``) and of the continued fraction of the upper function
    (R. J. Moore, Algorithm AS 187, 1982); higher derivatives in `a` work the same way.

    Examples
    --------
    >>> from linalgx.special import gammainc
    >>> float(gammainc(1.0, 2.0))
    0.8646647167633873
    """
    return apply(_gammainc, (a, x), out, kwargs)


def gammaincc(a, x, out=None, **kwargs):
    """
    Regularized upper incomplete gamma function Q(a, x) = 1 - P(a, x).

    Parameters
    ----------
    a : array_like
        Positive parameter.
    x : array_like
        Nonnegative argument.
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords.

    Returns
    -------
    res : scalar or ndarray
        ``integral(t**(a-1) exp(-t), t=x..inf) / Gamma(a)``.

    See Also
    --------
    gammainc, scipy.special.gammaincc, torch.special.gammaincc

    Notes
    -----
    Autodiff: differentiable in both arguments, see :func:`gammainc`.

    Examples
    --------
    >>> from linalgx.special import gammaincc
    >>> float(gammaincc(1.0, 2.0))
    0.1353352832366127
    """
    return apply(_gammaincc, (a, x), out, kwargs)


def zeta(x, q=None, out=None):
    """
    Hurwitz zeta function ``sum_k (k + q)**-x``, or Riemann's when `q` is None.

    Parameters
    ----------
    x : array_like
        Argument (``x > 1`` for the Hurwitz function). Complex `x` goes to SciPy's complex
        loop: the Riemann function, and NaN for the Hurwitz function (as in SciPy).
    q : array_like, optional
        Real shift; None gives the Riemann zeta function (defined for all ``x != 1``).
    out : ndarray, optional
        Optional output array for the function values.

    Returns
    -------
    res : scalar or ndarray
        The zeta function; ``inf`` at ``x = 1``.

    See Also
    --------
    scipy.special.zeta, torch.special.zeta

    Notes
    -----
    Cephes' Euler-Maclaurin summation. The Riemann function (``q=None``) uses the Taylor
    series of ``zeta(x) - 1/(x-1)`` about 0 and -1 for ``-1.25 <= x < 1`` (a few ulp, down to
    the smallest ``|x|``), and the functional equation below.

    Autodiff: differentiable in both (real) arguments. ``d/dq = -x zeta(x+1, q)``; ``d/dx``
    (which torch does not provide) is ``-sum_k log(k+q) (k+q)**-x``, computed by Taylor-mode
    differentiation of the Euler-Maclaurin formula, to any order. For the Riemann function
    below ``x = 1`` the derivatives (any order) are those of the value's Taylor series on
    ``[-1.25, 1)`` and, below, Taylor-mode derivatives of the functional equation, scaled
    as the value is (inf where they overflow). Complex `x` is not differentiable (there is
    no complex derivative kernel): JVP and VJP raise a TypeError.

    Examples
    --------
    >>> from linalgx.special import zeta
    >>> float(zeta(2.0, 1.0))
    1.6449340668482266
    """
    if q is None:
        return apply(_riemann_zeta, (x,), out)
    return apply(_zeta, (x, q), out)
