"""Bessel functions of real order: jv (and its alias jn), yv, iv, ive, kv, kve, and the
integer-order yn, kn.

Kernels in ``kernels/special/bessel_v.py``: real arguments by numba kernels of our own
(Cephes' ``yn`` as SciPy has it; Temme's and Steed's methods with double-double recurrences,
the power series and Hankel's expansion for the others), complex arguments by SciPy's complex
(AMOS) loops, as other functions without a complex kernel do.

Accuracy (20,000 points each, orders in [-50, 50] with integers and half-integers, x from
1e-5 to 1e4, negative x): median 0.4-0.7 ulp, 99th percentile below 3.3 ulp (SciPy: 1.4-19
ulp median, up to 1e15 ulp); J and Y stay within 4 ulp of their amplitude near their zeros.

Derivatives in the argument from the recurrences DLMF 10.6.1 and 10.29.1:
``J'_v = (J_{v-1} - J_{v+1}) / 2`` (Y likewise), ``I'_v = (I_{v-1} + I_{v+1}) / 2``,
``K'_v = -(K_{v-1} + K_{v+1}) / 2``, with the derivative of the scaling factor for ive
(``exp(-|x|)``) and kve (``exp(x)``); holomorphic for complex arguments (PyTorch's convention),
except ive, whose scaling ``exp(-|Re z|)`` is not. The order has no practical closed-form
derivative: differentiating with respect to it raises NotImplementedError (as JAX does for
such parameters); the integer orders of yn and kn are not differentiable, like other integer
arguments.
"""
import warnings

import numpy as np

from .._core.box import Box
from .._core.xputil import dtype_of, unbox_all
from ._ufunc import apply, def_elementwise_rules, no_complex, ufunc_op

__all__ = ["jv", "jn", "yv", "iv", "ive", "kv", "kve", "yn", "kn"]

_jv = ufunc_op("jv")
_yv = ufunc_op("yv")
_iv = ufunc_op("iv")
_ive = ufunc_op("ive")
_kv = ufunc_op("kv")
_kve = ufunc_op("kve")
_yn = ufunc_op("yn")
_kn = ufunc_op("kn")


def _order_not_differentiable(name, v):
    if isinstance(v, Box):
        raise NotImplementedError(
            f"linalgx.special.{name}: the order v is not differentiable (there is no "
            f"practical closed form for the derivative with respect to v); only the argument "
            f"is")


def _int_order(xp, n):
    # the order the kernels use: integers as they are, floats truncated toward zero
    if dtype_of(n).kind in "fc":
        return xp.trunc(n)
    return n


def _d_jv(xp, out, v, x):
    return 0.5 * (jv(v - 1, x) - jv(v + 1, x))


def _d_yv(xp, out, v, x):
    return 0.5 * (yv(v - 1, x) - yv(v + 1, x))


def _d_iv(xp, out, v, x):
    return 0.5 * (iv(v - 1, x) + iv(v + 1, x))


def _d_kv(xp, out, v, x):
    return -0.5 * (kv(v - 1, x) + kv(v + 1, x))


_ASYM_X = 20.0        # from here (and x >= v^2) the scaled derivatives use DLMF 10.40.1-2
_ASYM_TERMS = 60


def _asym_scaled_d(xp, v, x, first_kind):
    """(big, d): where ``x >= max(20, v^2)`` (real x > 0), the derivative of kve (ive when
    ``first_kind``) from its expansion in 1/x, ``sqrt(pi/(2x)) sum a_k(v) x^-k`` (ive:
    ``sum (-1)^k a_k(v) x^-k / sqrt(2 pi x)``), differentiated term by term; the recurrence
    form ``kve - (kve_{v-1} + kve_{v+1})/2`` loses ~x ulp to cancellation there (1e-12 at
    x = 3e3). ``d`` is finite (and unused) elsewhere. Only as many terms as the smallest such
    x needs are summed."""
    big = (x >= _ASYM_X) & (x >= v * v)
    xa = xp.where(big, x, _ASYM_X + v * v)
    lo = unbox_all(xa)
    lo = float(np.min(lo)) if np.size(lo) else _ASYM_X
    vmax = float(np.max(np.abs(unbox_all(v)))) if np.size(unbox_all(v)) else 0.0
    mu = 4.0 * v * v
    inv = 1.0 / xa
    term = xp.ones_like(xa)
    total = 0.5 * term
    bound = 1.0
    for k in range(1, _ASYM_TERMS):
        term = term * ((mu - (2 * k - 1) ** 2) * (inv / (8.0 * k)))
        sign = -1.0 if (first_kind and k % 2) else 1.0
        total = total + (sign * (k + 0.5)) * term
        bound *= (4.0 * vmax * vmax + (2 * k - 1) ** 2) / (8.0 * k * lo)
        if bound * (k + 0.5) < 1e-18:
            break
    pref = 1.0 / np.sqrt(2.0 * np.pi) if first_kind else np.sqrt(0.5 * np.pi)
    return big, -pref * total * inv / xp.sqrt(xa)


def _d_ive(xp, out, v, x):
    no_complex(xp, "ive", "the derivative of exp(-|Re z|), which is not holomorphic", x)
    big, asym = _asym_scaled_d(xp, v, x, True)
    return xp.where(big, asym, 0.5 * (ive(v - 1, x) + ive(v + 1, x)) - xp.sign(x) * out)


def _d_kve(xp, out, v, x):
    if dtype_of(x).kind == "c":
        return out - 0.5 * (kve(v - 1, x) + kve(v + 1, x))
    big, asym = _asym_scaled_d(xp, v, x, False)
    return xp.where(big, asym, out - 0.5 * (kve(v - 1, x) + kve(v + 1, x)))


def _d_yn(xp, out, n, x):
    m = _int_order(xp, n)
    return 0.5 * (yn(m - 1, x) - yn(m + 1, x))


def _d_kn(xp, out, n, x):
    m = _int_order(xp, n)
    return -0.5 * (kn(m - 1, x) + kn(m + 1, x))


def_elementwise_rules(_jv, None, _d_jv)
def_elementwise_rules(_yv, None, _d_yv)
def_elementwise_rules(_iv, None, _d_iv)
def_elementwise_rules(_ive, None, _d_ive)
def_elementwise_rules(_kv, None, _d_kv)
def_elementwise_rules(_kve, None, _d_kve)
def_elementwise_rules(_yn, None, _d_yn)
def_elementwise_rules(_kn, None, _d_kn)


def _warn_truncated(n):
    # SciPy's float loops of yn and kn truncate the order, with this warning
    a = np.asarray(unbox_all(n))
    if a.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            if np.any(np.isfinite(a) & (a != np.trunc(a))):
                warnings.warn("floating point number truncated to an integer", RuntimeWarning,
                              stacklevel=3)


def jv(v, z, out=None, **kwargs):
    _order_not_differentiable("jv", v)
    return apply(_jv, (v, z), out, kwargs)


jn = jv


def yv(v, z, out=None, **kwargs):
    _order_not_differentiable("yv", v)
    return apply(_yv, (v, z), out, kwargs)


def iv(v, z, out=None, **kwargs):
    _order_not_differentiable("iv", v)
    return apply(_iv, (v, z), out, kwargs)


def ive(v, z, out=None, **kwargs):
    _order_not_differentiable("ive", v)
    return apply(_ive, (v, z), out, kwargs)


def kv(v, z, out=None, **kwargs):
    _order_not_differentiable("kv", v)
    return apply(_kv, (v, z), out, kwargs)


def kve(v, z, out=None, **kwargs):
    _order_not_differentiable("kve", v)
    return apply(_kve, (v, z), out, kwargs)


def yn(n, x, out=None, **kwargs):
    _warn_truncated(n)
    return apply(_yn, (n, x), out, kwargs)


def kn(n, x, out=None, **kwargs):
    _warn_truncated(n)
    return apply(_kn, (n, x), out, kwargs)


_KW = """
    out : ndarray, optional
        Optional output array for the function values.
    **kwargs
        Other NumPy ufunc keywords (``where``, ``casting``, ``dtype``, ...)."""

_ORDER = """
    Autodiff: differentiable in `z` (holomorphic for complex `z`), %s. Not in the order `v`:
    differentiating with respect to it raises NotImplementedError."""

_REAL_NOTES = """
    For real arguments: Temme's series (small `x`) and Steed's continued fractions with
    Miller's backward recurrence, the three-term recurrences carried in double-double, the
    power series where ``x**2/4`` is small against ``v + 1`` and Hankel's expansion with an
    exactly reduced phase for large `x` (SciPy uses AMOS there). Complex `z` goes to SciPy's
    complex (AMOS) loop. Over orders in [-50, 50] and ``1e-5 <= x <= 1e4`` the error is at
    most a few ulp (median 0.4), within 4 ulp of the amplitude ``sqrt(J**2 + Y**2)`` near the
    function's zeros. The cost grows like ``|v|``; for ``|v| > 1e6`` the uniform asymptotic
    expansions take over, with a relative error of about ``|v|`` times machine epsilon
    (SciPy's AMOS: similar; NaN beyond ``|v| ~ 1.07e9``)."""


def _doc(text, **kw):
    kw.setdefault("kw", _KW.strip("\n"))
    for key, val in kw.items():
        text = text.replace(f"%({key})s", val)
    return text


jv.__doc__ = _doc("""
    Bessel function of the first kind of real order, ``J_v(z)``.

    Parameters
    ----------
    v : array_like
        Order (float).
    z : array_like
        Argument (float or complex).
%(kw)s

    Returns
    -------
    J : scalar or ndarray
        ``J_v(z)``. For real `z`: NaN for ``z < 0`` unless `v` is an integer
        (``J_n(-x) = (-1)**n J_n(x)``), NaN at ``z = +-inf`` and for infinite `v` (0 at
        ``z = 0``), and at ``z = 0``: 1 for ``v = 0``, 0 for ``v > 0`` or a negative integer,
        ``+-inf`` (the sign of ``sin(pi |v|)``) for other negative `v` (as SciPy).

    See Also
    --------
    scipy.special.jv, yv, jn

    Notes
    -----
    Negative orders by DLMF 10.4.7, ``J_-v = cos(pi v) J_v - sin(pi v) Y_v``, or, for
    ``20 <= x`` and ``|v| <= x``, by Hankel's expansion and the recurrence directly.
%(notes)s
%(order)s

    Examples
    --------
    >>> from linalgx.special import jv
    >>> round(float(jv(0.5, np.pi / 2)), 15)  # sqrt(2 / (pi x)) sin(x)
    0.636619772367581
    >>> jv(np.array([0.0, 1.0, 2.5]), 1.0)
    array([0.76519769, 0.44005059, 0.04949681])
    """, notes=_REAL_NOTES, order=_ORDER % "``J'_v = (J_{v-1} - J_{v+1}) / 2``")

yv.__doc__ = _doc("""
    Bessel function of the second kind of real order, ``Y_v(z)``.

    Parameters
    ----------
    v : array_like
        Order (float).
    z : array_like
        Argument (float or complex).
%(kw)s

    Returns
    -------
    Y : scalar or ndarray
        ``Y_v(z)``. For real `z`: NaN for ``z < 0`` and at ``z = inf``; ``-inf`` at ``z = 0``
        (``+inf`` for negative odd integer orders; for other negative orders SciPy's (Cephes)
        value ``cos(pi v) J_v(0) / sin(pi v)``, NaN below ``v = -1e10``).

    See Also
    --------
    scipy.special.yv, jv, yn

    Notes
    -----
    Negative orders by DLMF 10.4.8, ``Y_-v = sin(pi v) J_v + cos(pi v) Y_v``, or, for
    ``20 <= x`` and ``|v| <= x``, by Hankel's expansion and the recurrence directly.
%(notes)s
%(order)s

    Examples
    --------
    >>> from linalgx.special import yv
    >>> round(float(yv(0.5, np.pi)), 15)  # -sqrt(2 / (pi x)) cos(x)
    0.450158158078553
    >>> yv(np.array([0.0, 1.0, 2.5]), 1.0)
    array([ 0.08825696, -0.78121282, -2.87638786])
    """, notes=_REAL_NOTES, order=_ORDER % "``Y'_v = (Y_{v-1} - Y_{v+1}) / 2``")

iv.__doc__ = _doc("""
    Modified Bessel function of the first kind of real order, ``I_v(z)``.

    Parameters
    ----------
    v : array_like
        Order (float).
    z : array_like
        Argument (float or complex).
%(kw)s

    Returns
    -------
    I : scalar or ndarray
        ``I_v(z)``. For real `z`: NaN for ``z < 0`` unless `v` is an integer, NaN at
        ``z = +-inf`` and 0 for infinite `v` (as SciPy); at ``z = 0``: 1 for ``v = 0``, 0 for
        ``v > 0`` or a negative integer, ``inf`` for other negative `v`.

    See Also
    --------
    scipy.special.iv, ive, kv

    Notes
    -----
    Real arguments: the power series (all terms positive) where ``x**2 < 4 (v + 1)``, else
    Temme's method (K by Steed's continued fraction and the double-double recurrence, I from
    the continued fraction for ``I_{v+1}/I_v`` and the Wronskian) or the expansion DLMF
    10.40.1 for large `x`; negative orders by DLMF 10.27.2. Error: median 0.5 ulp, at most
    12 ulp over orders in [-50, 50]. SciPy's real ``iv`` is Cephes' (Temme's method
    throughout), which loses all digits where K overflows (``iv(49.76, 3.05e-5)``), is off
    by up to ~600 ulp elsewhere and flushes results below ~1e-302 to zero; NaN at
    ``x = +-inf`` as there. Complex `z` goes to SciPy's complex (AMOS) loop.
%(order)s

    Examples
    --------
    >>> from linalgx.special import iv
    >>> round(float(iv(0.5, 1.0)), 15)  # sqrt(2 / (pi x)) sinh(x)
    0.937674888245488
    >>> iv(np.array([0.0, 1.0, 2.5]), 1.0)
    array([1.26606588, 0.5651591 , 0.05709891])
    """, order=_ORDER % "``I'_v = (I_{v-1} + I_{v+1}) / 2``")

ive.__doc__ = _doc("""
    Exponentially scaled modified Bessel function of the first kind, ``exp(-|Re z|) I_v(z)``.

    Parameters
    ----------
    v : array_like
        Order (float).
    z : array_like
        Argument (float or complex).
%(kw)s

    Returns
    -------
    res : scalar or ndarray
        ``exp(-|Re z|) I_v(z)``, which neither over- nor underflows for large `z`. For real
        `z`: NaN at ``z = +-inf``, for ``z < 0`` unless `v` is an integer, for infinite `v`,
        and at ``z = 0`` for negative non-integer `v` (as SciPy).

    See Also
    --------
    scipy.special.ive, iv, kve

    Notes
    -----
    Real arguments: Temme's method (K by Temme's series or Steed's continued fraction, I from
    the continued fraction for ``I_{v+1}/I_v`` and the Wronskian), in scaled form, or the
    expansion DLMF 10.40.1 for large `x`; SciPy uses AMOS, which gives NaN beyond
    ``|x| ~ 1.07e9`` and where ``I_-v`` overflows; here the values (and ``inf``).
    Negative orders by DLMF 10.27.2. Complex `z` goes to SciPy's complex loop.

    Autodiff: differentiable in real `z`: ``(ive(v-1, z) + ive(v+1, z)) / 2 -
    sign(z) ive(v, z)``; not for complex `z` (``exp(-|Re z|)`` is not holomorphic: a
    TypeError), and not in the order `v` (NotImplementedError).

    Examples
    --------
    >>> from linalgx.special import ive
    >>> round(float(ive(0.5, 1.0)), 15)  # (1 - exp(-2x)) / sqrt(2 pi x)
    0.344951313888245
    >>> ive(1.0, np.array([-1.0, 1.0]))
    array([-0.20791042,  0.20791042])
    """)

kv.__doc__ = _doc("""
    Modified Bessel function of the second kind of real order, ``K_v(z)``.

    Parameters
    ----------
    v : array_like
        Order (float); ``K_-v = K_v``.
    z : array_like
        Argument (float or complex).
%(kw)s

    Returns
    -------
    K : scalar or ndarray
        ``K_v(z)``. For real `z`: NaN for ``z < 0``, ``inf`` at ``z = 0`` (any `v`, as SciPy),
        0 at ``z = inf``, NaN for infinite `v`.

    See Also
    --------
    scipy.special.kv, kve, iv

    Notes
    -----
    Real arguments: Temme's series for ``x <= 1``, Steed's continued fraction CF2 beyond
    (compensated sums), the closed form at half-integer orders, the forward recurrence in
    double-double, or the expansion DLMF 10.40.2 for large `x`; the uniform expansion for
    ``|v| > 1e6``. Error: median 0.4 ulp, at most 6 ulp over orders in [-50, 50]. SciPy uses
    AMOS, which gives NaN beyond ``v ~ 1.07e9`` and 0 for ``x > 710 (1 + |v|)`` (where
    ``K_v`` is subnormal); here the values. Complex `z` goes to SciPy's complex loop.
%(order)s

    Examples
    --------
    >>> from linalgx.special import kv
    >>> round(float(kv(0.5, 1.0)), 15)  # sqrt(pi / (2 x)) exp(-x)
    0.461068504447895
    >>> kv(np.array([0.0, 1.0, 2.5]), 1.0)
    array([0.42102444, 0.60190723, 3.22747953])
    """, order=_ORDER % "``K'_v = -(K_{v-1} + K_{v+1}) / 2``")

kve.__doc__ = _doc("""
    Exponentially scaled modified Bessel function of the second kind, ``exp(z) K_v(z)``.

    Parameters
    ----------
    v : array_like
        Order (float).
    z : array_like
        Argument (float or complex).
%(kw)s

    Returns
    -------
    res : scalar or ndarray
        ``exp(z) K_v(z)``. For real `z`: NaN for ``z < 0`` and at ``z = inf`` (as SciPy),
        ``inf`` at ``z = 0``.

    See Also
    --------
    scipy.special.kve, kv, ive

    Notes
    -----
    As :func:`kv`, in scaled form. SciPy (AMOS) gives NaN for ``x`` or ``v`` beyond
    ~1.07e9; here the values.
%(order)s

    Examples
    --------
    >>> from linalgx.special import kve
    >>> round(float(kve(0.5, 1.0)), 15)  # sqrt(pi / (2 x))
    1.2533141373155
    >>> kve(1.0, np.array([1.0, 100.0]))
    array([1.63615349, 0.12579995])
    """, order=_ORDER % "``kve(v, z) - (kve(v-1, z) + kve(v+1, z)) / 2``")

yn.__doc__ = _doc("""
    Bessel function of the second kind of integer order, ``Y_n(x)``.

    Parameters
    ----------
    n : array_like of int
        Order. A float order is truncated toward zero with a RuntimeWarning, as SciPy does;
        as in SciPy's loops an int64 order wraps to a C ``int``, and a float one beyond that
        range (or infinite) acts as a huge order (``-inf``).
    x : array_like
        Real argument.
%(kw)s

    Returns
    -------
    Y : scalar or ndarray
        ``Y_n(x)``: ``-inf`` at ``x = 0`` (``+inf`` for negative odd `n`), NaN for ``x < 0``.

    See Also
    --------
    scipy.special.yn, yv

    Notes
    -----
    Cephes ``yn``, as SciPy: the forward recurrence from ``Y_0`` and ``Y_1`` (stable for Y);
    the same values as SciPy.

    Autodiff: differentiable in `x`, ``Y'_n = (Y_{n-1} - Y_{n+1}) / 2``; the integer order is
    not differentiable.

    Examples
    --------
    >>> from linalgx.special import yn
    >>> yn(np.array([0, 1, 2]), 2.0)
    array([ 0.51037567, -0.10703243, -0.6174081 ])
    """)

kn.__doc__ = _doc("""
    Modified Bessel function of the second kind of integer order, ``K_n(x)``.

    Parameters
    ----------
    n : array_like of int
        Order. A float order is truncated toward zero with a RuntimeWarning, as SciPy does.
    x : array_like
        Real argument.
%(kw)s

    Returns
    -------
    K : scalar or ndarray
        ``K_n(x)``, the same values as :func:`kv` at integer orders (as in SciPy).

    See Also
    --------
    scipy.special.kn, kv

    Notes
    -----
    :func:`kv`'s kernel; SciPy's ``kn`` is its ``kv`` (AMOS) too.

    Autodiff: differentiable in `x`, ``K'_n = -(K_{n-1} + K_{n+1}) / 2``; the integer order
    is not differentiable.

    Examples
    --------
    >>> from linalgx.special import kn
    >>> kn(np.array([0, 1, 2]), 2.0)
    array([0.11389387, 0.13986588, 0.25375975])
    """)
