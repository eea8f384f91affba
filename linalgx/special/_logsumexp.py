"""logsumexp, softmax and log_softmax with scipy.special's signatures.

logsumexp follows SciPy's algorithm: the largest terms are taken out of the sum (their
weights summed exactly) and the rest enters through log1p, so a sum dominated by one term
keeps full relative accuracy.
"""
import operator

import numpy as np
from numpy.lib.array_utils import normalize_axis_tuple

from .._core.basic import align
from .._core.op import Op
from ._ufunc import ndim, unbroadcast

__all__ = ["logsumexp", "softmax", "log_softmax"]

_lse = Op("logsumexp")
_lse_sign = Op("logsumexp_sign", nout=2)
_softmax = Op("softmax")
_log_softmax = Op("log_softmax")


def _neg_axes(axis, ndim):
    """The axes as sorted negative numbers; NumPy's errors for an axis out of range
    (AxisError), a non-integer axis (TypeError) or a repeated one (ValueError)."""
    if axis is None:
        return tuple(range(-ndim, 0))
    if any(isinstance(ax, (bool, np.bool_)) for ax in (axis if isinstance(axis, tuple)
                                                     else (axis,))):
        raise TypeError("an integer is required for the axis, not bool")   # as SciPy
    if not isinstance(axis, tuple):
        axis = operator.index(axis)   # a list is a TypeError, as in NumPy's reductions
        if ndim == 0 and axis in (0, -1):
            return ()   # NumPy's reductions take an integer axis 0 or -1 of a 0-d array
    return tuple(sorted(a - ndim for a in normalize_axis_tuple(axis, ndim)))


def _weak_or_array(v):
    # Python numbers stay weak in the promotion (NEP 50); anything else becomes an array
    # first (np.result_type would read a string as a dtype name)
    return isinstance(v, (int, float, complex, np.ndarray, np.generic))


def _lse_core(a, b, axis, keepdims, return_sign):
    # SciPy's promotion: NumPy's result type of a, b and a Python float, Python scalars
    # weak (NEP 50: float32 `a` with b=2.0 stays float32)
    a = a if _weak_or_array(a) else np.asarray(a)
    b = b if b is None or _weak_or_array(b) else np.asarray(b)
    for v in (a, b):
        if v is not None and np.result_type(v).kind not in "biufc":
            raise TypeError(f"linalgx.special.logsumexp: unsupported input dtype "
                            f"{np.result_type(v)}; expected a numeric array")
    dt = np.result_type(*(v for v in (a, b) if v is not None), 1.0)
    a = np.asarray(a, dtype=dt)
    if b is not None:
        a, b = np.broadcast_arrays(a, np.asarray(b, dtype=dt))
    a = np.atleast_1d(a)
    b = np.atleast_1d(b) if b is not None else None
    axes = _neg_axes(axis, a.ndim)
    cplx = a.dtype.kind == "c"
    if a.size == 0:
        shape = list(a.shape)
        for ax in axes:
            shape[ax] = 1
        out = np.full(shape, -np.inf, dtype=a.dtype)
        sgn = np.sign(out)
    else:
        with np.errstate(all="ignore"):
            terms = np.exp(a) if b is None else b * np.exp(a)
            s_naive = np.sum(terms, axis=axes, keepdims=True)
            sgn_naive = np.sign(s_naive)
            out_naive = np.log(np.abs(s_naive) if return_sign else s_naive)
            out, sgn = _lse_split(a, b, axes, cplx)
        if return_sign:
            out = np.real(out)
        elif not cplx:
            out = np.where(sgn < 0, np.nan, out)
        finite = np.isfinite(out)
        out = np.where(finite, out, out_naive)
        sgn = np.where(finite, sgn, sgn_naive)
    if cplx:
        if return_sign:
            sgn = np.real(sgn) + 1j * _wrap(np.imag(sgn))
        else:
            out = np.real(out) + 1j * _wrap(np.imag(out))
    if not keepdims:
        out = np.squeeze(out, axis=axes)
        sgn = np.squeeze(sgn, axis=axes)
    out = out[()] if out.ndim == 0 else out
    sgn = sgn[()] if sgn.ndim == 0 else sgn
    return out, sgn


def _wrap(x):
    return np.where(np.abs(x) < np.pi, x, -((-x + np.pi) % (2 * np.pi) - np.pi))


def _lse_split(a, b, axes, cplx):
    # log(sum b e^a) = a_max + log(m) + log1p(s / m): m = sum of the weights of the maximal
    # terms, s = the sum of the other terms scaled by e^-a_max
    if b is not None:
        a = np.where(b == 0, -np.inf, a)
    if cplx:
        re = np.real(a)
        mx = np.max(re, axis=axes, keepdims=True)
        idx = np.arange(a.size).reshape(a.shape)
        idx = np.where(re == mx, idx, -1)
        mask = idx == np.max(idx, axis=axes, keepdims=True)
        a_max = np.sum(np.where(mask, a, 0), axis=axes, keepdims=True)
    else:
        a_max = np.max(a, axis=axes, keepdims=True)
        mask = a == a_max
    rest = np.where(mask, -np.inf, a)
    w = mask.astype(a.dtype) if b is None else b * mask
    m = np.sum(w, axis=axes, keepdims=True)
    e = np.exp(rest - a_max) if b is None else b * np.exp(rest - a_max)
    s = np.sum(e, axis=axes, keepdims=True)
    s = np.where(s == 0, s, s / m)
    sgn = np.sign(s + 1) * np.sign(m)
    if cplx:
        sgn = sgn * np.exp(1j * np.imag(a_max))
    else:
        s = np.where(s < -1, -s - 2, s)
        m = np.abs(m)
    return np.log1p(s) + np.log(m) + a_max, sgn


@_lse.impl("numba", "lapack")
def _lse_numpy(a, b=None, *, axis=None, keepdims=False):
    return _lse_core(a, b, axis, keepdims, False)[0]


@_lse_sign.impl("numba", "lapack")
def _lse_sign_numpy(a, b=None, *, axis=None, keepdims=False):
    return _lse_core(a, b, axis, keepdims, True)


@_lse.impl("cupy")
def _lse_cupy(a, b=None, *, axis=None, keepdims=False):
    import cupyx.scipy.special as cs
    return cs.logsumexp(a, axis=axis, b=b, keepdims=keepdims)


@_lse_sign.impl("cupy")
def _lse_sign_cupy(a, b=None, *, axis=None, keepdims=False):
    import cupyx.scipy.special as cs
    return cs.logsumexp(a, axis=axis, b=b, keepdims=keepdims, return_sign=True)


def _max_finite(x, axes):
    # in m's own type, so that boolean x fails in x - m with NumPy's TypeError (as SciPy)
    m = np.max(np.real(x), axis=axes, keepdims=True)
    return np.where(np.isfinite(m), m, np.zeros_like(m))


@_softmax.impl("numba", "lapack")
def _softmax_numpy(x, *, axis=None):
    x = np.asarray(x)
    axes = _neg_axes(axis, x.ndim)
    with np.errstate(all="ignore"):
        e = np.exp(x - np.max(x, axis=axes, keepdims=True))
        return e / np.sum(e, axis=axes, keepdims=True)


@_log_softmax.impl("numba", "lapack")
def _log_softmax_numpy(x, *, axis=None):
    x = np.asarray(x)
    axes = _neg_axes(axis, x.ndim)
    with np.errstate(all="ignore"):
        tmp = x - _max_finite(x, axes)
        out = tmp - np.log(np.sum(np.exp(tmp), axis=axes, keepdims=True))
    return out[()] if out.ndim == 0 else out


@_softmax.impl("cupy")
def _softmax_cupy(x, *, axis=None):
    import cupyx.scipy.special as cs
    return cs.softmax(x, axis=axis)


@_log_softmax.impl("cupy")
def _log_softmax_cupy(x, *, axis=None):
    import cupyx.scipy.special as cs
    return cs.log_softmax(x, axis=axis)


# -- rules ---------------------------------------------------------------------------------
def _lse_weights(xp, lse, sgn, a, b, axes, keepdims):
    # d lse / da = b e^(a - lse) / sgn, d lse / db = e^(a - lse) / sgn
    lk = lse if keepdims else xp.expand_dims(lse, axis=axes)
    with np.errstate(invalid="ignore"):  # all -inf: lse = -inf, a weight NaN as torch's
        e = xp.exp(a - lk)
    if sgn is not None:
        sk = sgn if keepdims else xp.expand_dims(sgn, axis=axes)
        e = e * sk
    return (e if b is None else b * e), e


def _lse_jvp_common(xp, tangents, lse, sgn, a, b, axis, keepdims):
    nd = max(ndim(a), 0 if b is None else ndim(b))
    axes = _neg_axes(axis, nd) if nd else ()
    wa, wb = _lse_weights(xp, lse, sgn, a, b, axes, keepdims)
    total = 0.0
    ta = tangents[0]
    tb = tangents[1] if len(tangents) > 1 else None
    if ta is not None:
        total = total + wa * align(ta, ndim(a), nd)
    if tb is not None and b is not None:
        total = total + wb * align(tb, ndim(b), nd)
    return xp.sum(total, axis=axes, keepdims=keepdims)


def _lse_vjp_common(xp, g, lse, sgn, a, b, axis, keepdims):
    nd = max(ndim(a), 0 if b is None else ndim(b))
    axes = _neg_axes(axis, nd) if nd else ()
    wa, wb = _lse_weights(xp, lse, sgn, a, b, axes, keepdims)
    gk = g if keepdims else xp.expand_dims(g, axis=axes)
    ga = unbroadcast(xp, gk * xp.conj(wa), a, wa)
    gb = None if b is None else unbroadcast(xp, gk * xp.conj(wb), b, wb)
    return ga, gb


@_lse.def_jvp
def _logsumexp_jvp(xp, tangents, out, a, b=None, *, axis=None, keepdims=False):
    return _lse_jvp_common(xp, tangents, out, None, a, b, axis, keepdims)


@_lse.def_vjp
def _logsumexp_vjp(xp, g, out, a, b=None, *, axis=None, keepdims=False):
    return _lse_vjp_common(xp, g, out, None, a, b, axis, keepdims)


@_lse_sign.def_jvp
def _logsumexp_sign_jvp(xp, tangents, out, a, b=None, *, axis=None, keepdims=False):
    lse, sgn = out
    # the sign is piecewise constant: no tangent (None, as for any output that has none)
    return _lse_jvp_common(xp, tangents, lse, sgn, a, b, axis, keepdims), None


@_lse_sign.def_vjp
def _logsumexp_sign_vjp(xp, g, out, a, b=None, *, axis=None, keepdims=False):
    lse, sgn = out
    if g[0] is None:
        return None, None
    return _lse_vjp_common(xp, g[0], lse, sgn, a, b, axis, keepdims)


@_softmax.def_jvp
def _softmax_jvp(xp, tangents, out, x, *, axis=None):
    (t,) = tangents
    axes = _neg_axes(axis, ndim(x))
    return out * (t - xp.sum(out * t, axis=axes, keepdims=True))


@_softmax.def_vjp
def _softmax_vjp(xp, g, out, x, *, axis=None):
    axes = _neg_axes(axis, ndim(x))
    sc = xp.conj(out)
    return (sc * (g - xp.sum(g * sc, axis=axes, keepdims=True)),)


@_log_softmax.def_jvp
def _log_softmax_jvp(xp, tangents, out, x, *, axis=None):
    (t,) = tangents
    axes = _neg_axes(axis, ndim(x))
    return t - xp.sum(xp.exp(out) * t, axis=axes, keepdims=True)


@_log_softmax.def_vjp
def _log_softmax_vjp(xp, g, out, x, *, axis=None):
    axes = _neg_axes(axis, ndim(x))
    return (g - xp.conj(xp.exp(out)) * xp.sum(g, axis=axes, keepdims=True),)


def _torch_keywords(func, axis, dim, keepdims=None, keepdim=None):
    """torch.special's keyword names ``dim`` and ``keepdim`` for SciPy's ``axis`` and
    ``keepdims`` (positional arguments are the same in both), one spelling at a time."""
    if dim is not None:
        if axis is not None:
            raise TypeError(f"{func}: got both axis= and dim= (torch's name for axis)")
        axis = dim
    if keepdim is not None:
        if keepdims:
            raise TypeError(f"{func}: got both keepdims= and keepdim= (torch's name)")
        keepdims = keepdim
    return axis, keepdims


def _cast(x, dtype):
    """torch's ``dtype=``: the input cast to it before the operation."""
    if dtype is None:
        return x
    x = x if hasattr(x, "astype") else np.asarray(x)
    return x.astype(dtype)


def logsumexp(a, axis=None, b=None, keepdims=False, return_sign=False, *, dim=None,
              keepdim=None):
    """
    Compute the log of the sum of exponentials of input elements.

    Parameters
    ----------
    a : array_like
        Input array (real or complex).
    axis : None or int or tuple of ints, optional
        Axis or axes over which the sum is taken; by default all axes.
    b : array_like, optional
        Scaling factor for ``exp(a)``, broadcast against `a`; may be negative.
    keepdims : bool, optional
        If True, the reduced axes are left in the result with size one.
    return_sign : bool, optional
        If True, return ``(res, sgn)`` with the sign of the sum, so that negative sums
        (from negative `b`) are representable.
    dim, keepdim : optional, keyword-only
        torch.special.logsumexp's names for `axis` and `keepdims`.

    Returns
    -------
    res : ndarray or scalar
        ``log(sum(b * exp(a)))`` (``log(abs(...))`` with `return_sign`), of the result type
        of `a`, `b` and a Python float; Python scalars do not promote (float32 `a` with
        ``b=2.0`` gives float32), as in SciPy.
    sgn : ndarray or scalar
        Only with `return_sign`: the sign of the sum (a unit complex number for complex
        input).

    See Also
    --------
    scipy.special.logsumexp, torch.special.logsumexp, softmax

    Notes
    -----
    Autodiff: differentiable in `a` and `b`: ``d res = sum(b exp(a - res) da
    + exp(a - res) db) / sgn``; holomorphic in complex `a`.

    Examples
    --------
    >>> import numpy as np
    >>> from linalgx.special import logsumexp
    >>> float(logsumexp(np.array([1000.0, 1000.0])))
    1000.6931471805599
    """
    axis, keepdims = _torch_keywords("logsumexp", axis, dim, keepdims, keepdim)
    if isinstance(a, (list, tuple)):
        a = np.asarray(a)
    if isinstance(b, (list, tuple)):
        b = np.asarray(b)
    if return_sign:
        return tuple(_lse_sign(a, b, axis=axis, keepdims=keepdims))
    return _lse(a, b, axis=axis, keepdims=keepdims)


def softmax(x, axis=None, *, dim=None, dtype=None):
    """
    Softmax: ``exp(x) / sum(exp(x))`` along `axis`.

    Parameters
    ----------
    x : array_like
        Input array (real or complex).
    axis : int or tuple of ints, optional
        Axis or axes to normalize over; by default the whole array. A 0-d `x` also takes
        the integer axis 0 or -1, as NumPy's reductions.
    dim : int, optional, keyword-only
        torch.special.softmax's name for `axis`.
    dtype : dtype, optional, keyword-only
        As torch's: `x` is cast to it first.

    Returns
    -------
    s : ndarray
        The softmax, summing to one along `axis`.

    See Also
    --------
    scipy.special.softmax, torch.special.softmax, log_softmax

    Notes
    -----
    Autodiff: differentiable; ``ds = s (dx - sum(s dx))``.

    Examples
    --------
    >>> import numpy as np
    >>> from linalgx.special import softmax
    >>> softmax(np.array([0.0, np.log(3.0)]))
    array([0.25, 0.75])
    """
    axis, _ = _torch_keywords("softmax", axis, dim)
    if isinstance(x, (list, tuple)):
        x = np.asarray(x)
    return _softmax(_cast(x, dtype), axis=axis)


def log_softmax(x, axis=None, *, dim=None, dtype=None):
    """
    Logarithm of the softmax, ``x - logsumexp(x)`` along `axis`, computed stably.

    Parameters
    ----------
    x : array_like
        Input array (real or complex; boolean input is a TypeError, as in SciPy).
    axis : int or tuple of ints, optional
        Axis or axes to normalize over; by default the whole array. A 0-d `x` also takes
        the integer axis 0 or -1, as NumPy's reductions.
    dim : int, optional, keyword-only
        torch.special.log_softmax's name for `axis`.
    dtype : dtype, optional, keyword-only
        As torch's: `x` is cast to it first.

    Returns
    -------
    res : ndarray or scalar
        ``log(softmax(x, axis))``.

    See Also
    --------
    scipy.special.log_softmax, torch.special.log_softmax, softmax

    Notes
    -----
    Autodiff: differentiable; ``d res = dx - sum(softmax(x) dx)``.

    Examples
    --------
    >>> import numpy as np
    >>> from linalgx.special import log_softmax
    >>> log_softmax(np.array([0.0, 0.0]))
    array([-0.69314718, -0.69314718])
    """
    axis, _ = _torch_keywords("log_softmax", axis, dim)
    if isinstance(x, (list, tuple)):
        x = np.asarray(x)
    return _log_softmax(_cast(x, dtype), axis=axis)
