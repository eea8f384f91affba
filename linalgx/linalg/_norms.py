"""norm, matrix_norm, vector_norm and cond.

These are compositions (NumPy's own code paths, step for step) of differentiable pieces:
``abs``, ``conj``, products, sums, ``sqrt``, powers, max/min and the singular values, so they
differentiate without rules of their own, except the square root of the 2-norms and the
powers of the general p-norm (below), which take the zero subgradient at zero.
Plain arrays take exactly NumPy's operations.
"""
import math

import numpy as np
from numpy.lib.array_utils import normalize_axis_index, normalize_axis_tuple

from .._core import validate as v
from .._core.box import Box
from .._core.lapack import all_finite, quiet, umath_linalg
from .._core.op import Op
from .._core.xputil import unbox_all
from ._svd import _singular_values

__all__ = ["norm", "matrix_norm", "vector_norm", "cond"]


def _max0(x, axis, keepdims=False):
    """``x.max(axis, keepdims, initial=0)`` for x >= 0 (0 over an empty axis)."""
    if not isinstance(x, Box):
        return x.max(axis=axis, keepdims=keepdims, initial=0)
    axes = axis if isinstance(axis, tuple) else (axis,)
    if any(x.shape[a] == 0 for a in axes):
        return unbox_all(x).max(axis=axis, keepdims=keepdims, initial=0)  # a constant
    return x.max(axis=axis, keepdims=keepdims)


def _sum(x, axis, keepdims=False):
    """``x.sum(axis)``; NumPy's own ``add.reduce`` unless x is traced (as numpy.linalg.norm,
    without the Python layers of the ``sum`` method; also where object arithmetic on a 0-d
    array has left a Python scalar, which add.reduce gives NumPy's AxisError)."""
    if not isinstance(x, Box):
        return np.add.reduce(x, axis=axis, keepdims=keepdims)
    return x.sum(axis=axis, keepdims=keepdims)


def _sum_abs2(x, axis, keepdims):
    """``(x.conj() * x).real.sum(axis)``, NumPy's expression; for a real array the same
    values without the conj and real copies."""
    if type(x) is np.ndarray and x.dtype.char in "fdgFDG":  # (float16 sums in float32)
        s = x * x if x.dtype.kind == "f" else (x.conj() * x).real
        out = _short_rows_sum(s, axis, keepdims)
        return np.add.reduce(s, axis=axis, keepdims=keepdims) if out is None else out
    return _sum((x.conj() * x).real, axis, keepdims)


# `_short_rows_sum` pays for its per-column ufunc calls from this many rows per entry of a
# row (measured: from about 256 rows of 2 or 3 entries, 1,000 of 8 or 9).
_SHORT_ROWS_MIN = 128


def _short_rows_sum(s, axis, keepdims):
    """``np.add.reduce(s, axis, keepdims=keepdims)`` of a float array over rows of 2 to 9
    entries, bit for bit, as whole-column additions; None where this does not apply.

    NumPy reduces each row by itself (a loop call per row: 1.7 ms for the 2-norms of 100,000
    3-vectors), summing a row of fewer than 8 entries in order and one of 8 to 16 with eight
    partial sums (``pairwise_sum``); the same additions on whole columns take a few
    vectorised passes (0.25 ms). Applies to one axis of up to 7 entries (any layout: every
    order NumPy can iterate in adds them in sequence), and to a last axis or the last two
    axes (coalescing into one row, as a stack of 3x3 matrices) of 8 or 9 entries that
    NumPy loops over innermost (their stride the smallest; otherwise it adds in sequence).
    Rows of 16 entries were measured no faster than NumPy's loop."""
    nd = s.ndim
    if type(axis) is tuple and len(axis) == 1:
        axis = axis[0]
    if type(axis) is tuple:  # cheap size tests first: most calls end here
        if len(axis) != 2 or nd < 2:
            return None
        length = s.shape[-2] * s.shape[-1]
    else:
        length = s.shape[axis] if -nd <= axis < nd else 0
    if not 2 <= length <= 9 or s.size < _SHORT_ROWS_MIN * length * length:
        return None
    if type(axis) is tuple:
        if sorted(normalize_axis_tuple(axis, nd)) != [nd - 2, nd - 1] \
                or s.strides[-2] != s.shape[-1] * s.strides[-1]:
            return None
        ax = nd - 1
        rows = s.reshape(s.shape[:-2] + (length,))  # a view
    else:
        ax = normalize_axis_index(axis, nd)
        rows = np.moveaxis(s, ax, -1)
    if length >= 8 and (ax != nd - 1 or any(
            abs(st) < abs(rows.strides[-1]) for st, n in zip(rows.strides[:-1], rows.shape)
            if n > 1)):
        return None
    cols = [rows[..., k] for k in range(length)]
    with np.errstate(over="ignore", invalid="ignore"):
        if length < 8:
            acc = cols[0] + cols[1]
            for c in cols[2:]:
                acc += c
        else:  # pairwise_sum's eight partial sums, then the rest in order
            r = cols[:8]
            acc = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
            for c in cols[8:]:
                acc += c
    if not all_finite(acc):  # NumPy's reduce then reports the overflow (or NaN) its own way
        return None
    if keepdims:
        acc = np.expand_dims(acc, tuple(normalize_axis_tuple(axis, nd)) if type(axis) is tuple
                             else ax)
    return acc


# sqrt of a sum of squares, with derivative 0 where the sum is 0: the 2-norm at x = 0 then
# gets the zero subgradient (as abs and the 1-norm do, and PyTorch's norm), not
# inf * 0 = NaN from sqrt's own rule.
_norm_sqrt = Op("norm_sqrt")


@_norm_sqrt.impl("any")
def _norm_sqrt_any(sq):
    return np.sqrt(sq)


def _half_recip(xp, out):
    zero = unbox_all(out) == 0
    return xp.where(zero, 0, xp.reciprocal(xp.where(zero, 1, out) * 2))


@_norm_sqrt.def_jvp
def _norm_sqrt_jvp(xp, tangents, out, sq):
    return tangents[0] * _half_recip(xp, out)


@_norm_sqrt.def_vjp
def _norm_sqrt_vjp(xp, g, out, sq):
    return (g * _half_recip(xp, out),)


def _sqrt(sq):
    return _norm_sqrt(sq) if isinstance(sq, Box) else np.sqrt(sq)


# The general p-norm (sum |x|**p)**(1/p), traced: |x|**p and the root with derivative 0 where
# their argument is 0, the zero subgradient PyTorch's norm takes at a zero entry (p < 1) and
# at a zero vector (p > 1), where the power rules give inf * 0 = NaN.
_abs_pow = Op("norm_abs_pow")
_root = Op("norm_root")


@_abs_pow.impl("any")
def _abs_pow_any(a, *, p):
    return a ** p


@_root.impl("any")
def _root_any(s, *, p):
    return s ** np.reciprocal(p, dtype=s.dtype)


def _power_slope(xp, base, exponent):
    """``exponent * base**(exponent - 1)``, 0 where base == 0."""
    zero = unbox_all(base) == 0
    return xp.where(zero, 0, exponent * xp.where(zero, 1, base) ** (exponent - 1))


@_abs_pow.def_jvp
def _abs_pow_jvp(xp, tangents, out, a, *, p):
    return tangents[0] * _power_slope(xp, a, p)


@_abs_pow.def_vjp
def _abs_pow_vjp(xp, g, out, a, *, p):
    return (g * _power_slope(xp, a, p),)


@_root.def_jvp
def _root_jvp(xp, tangents, out, s, *, p):
    return tangents[0] * _power_slope(xp, s, 1 / p)


@_root.def_vjp
def _root_vjp(xp, g, out, s, *, p):
    return (g * _power_slope(xp, s, 1 / p),)


def _sum0(x, axis):
    return np.sum(x, axis=axis, initial=0) if not isinstance(x, Box) else x.sum(axis=axis)



def _multi_svd_norm(x, row_axis, col_axis, op):
    """max, min or sum of the singular values of the matrices in axes (row_axis, col_axis)."""
    rest = [i for i in range(x.ndim) if i not in (row_axis, col_axis)]
    s = _singular_values(x.transpose(rest + [row_axis, col_axis]), check_finite=False)
    if op == "max":
        return _max0(s, -1)
    if op == "min":
        return s.min(axis=-1)
    return _sum0(s, -1)


def norm(x, ord=None, axis=None, keepdims=False):
    """
    Matrix or vector norm.

    Returns one of eight matrix norms, or one of an infinite number of vector norms,
    depending on `ord` and `axis` (table below).

    Parameters
    ----------
    x : array_like
        Input array. If `axis` is None, `x` must be 1-D or 2-D, unless `ord` is None; if
        both are None the 2-norm of ``x.ravel()`` is returned.
    ord : {int, float, inf, -inf, 'fro', 'nuc'}, optional
        Order of the norm (see Notes). Default None.
    axis : {None, int, 2-tuple of ints}, optional
        An integer selects vector norms along that axis, a 2-tuple the axes holding
        matrices; None means a vector norm of 1-D `x` or a matrix norm of 2-D `x`.
    keepdims : bool, optional
        If True, the normed axes are kept as dimensions of size one.

    Returns
    -------
    n : float or ndarray
        Norm of the matrix or vector(s), in the real dtype of `x` (float64 for integers).

    Raises
    ------
    ValueError
        For an `ord` invalid for vectors or matrices, duplicate or too many axes.
    AxisError
        For an axis out of range.
    LinAlgError
        For ``ord=2, -2, 'nuc'`` of a matrix with NaN (the SVD does not converge).

    See Also
    --------
    numpy.linalg.norm
    scipy.linalg.norm

    Notes
    -----
    =====  ============================  ==========================
    ord    norm for matrices             norm for vectors
    =====  ============================  ==========================
    None   Frobenius norm                2-norm
    'fro'  Frobenius norm                --
    'nuc'  nuclear norm                  --
    inf    max(sum(abs(x), axis=1))      max(abs(x))
    -inf   min(sum(abs(x), axis=1))      min(abs(x))
    0      --                            sum(x != 0)
    1      max(sum(abs(x), axis=0))      as below
    -1     min(sum(abs(x), axis=0))      as below
    2      2-norm (largest sing. value)  as below
    -2     smallest singular value       as below
    other  --                            sum(abs(x)**ord)**(1./ord)
    =====  ============================  ==========================

    Autodiff: differentiable in `x` away from points where the norm is not (zero
    vectors, ties in max/min, repeated singular values for 2, -2 and 'nuc'); ``ord=0``
    has zero derivative. At a zero vector, and at a zero entry of a vector p-norm, the
    derivative is the zero subgradient, as in PyTorch.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.arange(9) - 4.0
    >>> float(LA.norm(a)), float(LA.norm(a, np.inf)), float(LA.norm(a, 1))
    (7.745966692414834, 4.0, 20.0)
    >>> b = a.reshape((3, 3))
    >>> float(LA.norm(b, 'fro')), float(LA.norm(b, 1)), float(LA.norm(b, -np.inf))
    (7.745966692414834, 7.0, 2.0)
    >>> LA.norm(np.array([[1., 2.], [3., 4.]]), axis=1)
    array([2.23606798, 5.        ])
    """
    plain = type(x) is np.ndarray
    if not plain and not isinstance(x, Box):
        x = np.asarray(x)
        plain = True
    if x.dtype.kind not in "fcO":  # NumPy: not inexact and not object
        x = x.astype(float)

    # Immediately handle some default, simple, fast, and common cases.
    if axis is None:
        ndim = x.ndim
        if (ord is None or (ord in ("f", "fro") and ndim == 2) or (ord == 2 and ndim == 1)):
            x = x.ravel(order="K") if plain else x.ravel()
            if x.dtype.kind == "c":
                x_real = x.real
                x_imag = x.imag
                sqnorm = x_real.dot(x_real) + x_imag.dot(x_imag)
            else:
                sqnorm = x.dot(x)
            if type(sqnorm) is np.float64:
                # np.sqrt's value (both are correctly rounded) without a ufunc call
                ret = np.float64(math.sqrt(sqnorm))
            else:
                ret = _sqrt(sqnorm)
            if keepdims:
                ret = ret.reshape(ndim * [1])
            return ret

    # Normalize the `axis` argument to a tuple.
    nd = x.ndim
    if axis is None:
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = int(axis)
        except Exception as e:
            raise TypeError(v.MESSAGES["norm_axis_type"]) from e
        axis = (axis,)

    if len(axis) == 1:
        if ord == np.inf:
            return _max0(abs(x), axis, keepdims)
        elif ord == -np.inf:
            return abs(x).min(axis=axis, keepdims=keepdims)
        elif ord == 0:
            # Zero norm: a count, no derivative
            real_t = v.real_dtype(x.dtype) if isinstance(x, Box) else x.real.dtype
            return _sum((unbox_all(x) != 0).astype(real_t), axis, keepdims)
        elif ord == 1:
            return _sum(abs(x), axis, keepdims)
        elif ord is None or ord == 2:
            return _sqrt(_sum_abs2(x, axis, keepdims))
        # None of the str-type keywords for ord ('fro', 'nuc') are valid for vectors
        elif isinstance(ord, str):
            raise ValueError(v.MESSAGES["norm_vector_ord"] % (ord,))
        elif isinstance(x, Box):
            return _root(_sum(_abs_pow(abs(x), p=ord), axis, keepdims), p=ord)
        else:
            absx = abs(x)
            absx **= ord
            ret = _sum(absx, axis, keepdims)
            ret **= np.reciprocal(ord, dtype=ret.dtype)
            return ret
    elif len(axis) == 2:
        row_axis, col_axis = axis
        row_axis = normalize_axis_index(row_axis, nd)
        col_axis = normalize_axis_index(col_axis, nd)
        if row_axis == col_axis:
            raise ValueError(v.MESSAGES["norm_dup_axes"])
        if ord == 2:
            ret = _multi_svd_norm(x, row_axis, col_axis, "max")
        elif ord == -2:
            ret = _multi_svd_norm(x, row_axis, col_axis, "min")
        elif ord == 1:
            if col_axis > row_axis:
                col_axis -= 1
            ret = _max0(_sum(abs(x), row_axis), col_axis)
        elif ord == np.inf:
            if row_axis > col_axis:
                row_axis -= 1
            ret = _max0(_sum(abs(x), col_axis), row_axis)
        elif ord == -1:
            if col_axis > row_axis:
                col_axis -= 1
            ret = _sum(abs(x), row_axis).min(axis=col_axis)
        elif ord == -np.inf:
            if row_axis > col_axis:
                row_axis -= 1
            ret = _sum(abs(x), col_axis).min(axis=row_axis)
        elif ord in [None, "fro", "f"]:
            ret = _sqrt(_sum_abs2(x, axis, False))
        elif ord == "nuc":
            ret = _multi_svd_norm(x, row_axis, col_axis, "sum")
        else:
            raise ValueError(v.MESSAGES["norm_matrix_ord"])
        if keepdims:
            ret_shape = list(x.shape)
            ret_shape[axis[0]] = 1
            ret_shape[axis[1]] = 1
            ret = ret.reshape(ret_shape)
        return ret
    else:
        raise ValueError(v.MESSAGES["norm_ndim"])


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """
    Compute the matrix norm of a matrix (or a stack of matrices) ``x``.

    Parameters
    ----------
    x : (..., M, N) array_like
        Input array whose two innermost dimensions form the matrices.
    keepdims : bool, optional
        If True, the normed axes are kept as dimensions of size one. Default False.
    ord : {1, -1, 2, -2, inf, -inf, 'fro', 'nuc'}, optional
        The order of the norm; see `norm`. Default 'fro'.

    Returns
    -------
    out : (...) ndarray
        The norms, in the real dtype of `x`.

    Raises
    ------
    ValueError
        For an invalid `ord`.
    AxisError
        If `x` has fewer than two dimensions.

    See Also
    --------
    norm
    numpy.linalg.matrix_norm

    Notes
    -----
    Autodiff: as for `norm`.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> b = np.arange(9).reshape((3, 3)) - 4.0
    >>> float(LA.matrix_norm(b)), float(LA.matrix_norm(b, ord=np.inf))
    (7.745966692414834, 9.0)
    """
    if not isinstance(x, Box):
        x = np.asanyarray(x)
    return norm(x, axis=(-2, -1), keepdims=keepdims, ord=ord)


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """
    Compute the vector norm of a vector (or batch of vectors) ``x``.

    Parameters
    ----------
    x : array_like
        Input array.
    axis : {None, int, n-tuple of ints}, optional
        The axis or axes along which to compute the norms; None (default) norms the
        flattened array.
    keepdims : bool, optional
        If True, the normed axes are kept as dimensions of size one. Default False.
    ord : {int, float, inf, -inf}, optional
        The order of the norm; see `norm`. Default 2.

    Returns
    -------
    out : ndarray
        The norms, in the real dtype of `x` (float64 for integers).

    Raises
    ------
    ValueError
        For a string `ord`.
    AxisError
        For an axis out of range.

    See Also
    --------
    norm
    numpy.linalg.vector_norm

    Notes
    -----
    Autodiff: as for `norm`.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> b = np.arange(9).reshape((3, 3)) + 1.0
    >>> float(LA.vector_norm(b)), float(LA.vector_norm(b, ord=np.inf))
    (16.881943016134134, 9.0)
    >>> LA.vector_norm(b, axis=(0, 1), ord=1)
    np.float64(45.0)
    """
    if not isinstance(x, Box):
        x = np.asanyarray(x)
    shape = list(x.shape)
    if axis is None:
        # Note: np.linalg.norm() doesn't handle 0-D arrays
        x = x.ravel()
        _axis = 0
    elif isinstance(axis, tuple):
        # any number of axes: move them to the front and flatten them into one
        normalized_axis = normalize_axis_tuple(axis, x.ndim)
        rest = tuple(i for i in range(x.ndim) if i not in normalized_axis)
        newshape = axis + rest
        x = x.transpose(newshape).reshape(
            (np.prod([x.shape[i] for i in axis], dtype=int), *[x.shape[i] for i in rest]))
        _axis = 0
    else:
        _axis = axis
    res = norm(x, axis=_axis, ord=ord)
    if keepdims:
        _axis = normalize_axis_tuple(range(len(shape)) if axis is None else axis, len(shape))
        for i in _axis:
            shape[i] = 1
        res = res.reshape(tuple(shape))
    return res


def cond(x, p=None):
    """
    Compute the condition number of a matrix.

    Parameters
    ----------
    x : (..., M, N) array_like
        The matrix whose condition number is sought.
    p : {None, 1, -1, 2, -2, inf, -inf, 'fro'}, optional
        Order of the norm used: None and 2 use the ratio of the extreme singular values
        (-2 its inverse); the others ``norm(x, p) * norm(inv(x), p)``.

    Returns
    -------
    c : {float, inf}
        The condition number of the matrix (an array for a stack); ``inf`` for a singular
        matrix, NaN where `x` holds NaN.

    Raises
    ------
    LinAlgError
        For empty input (``cond is not defined on empty arrays``); for ``p`` other than
        None and +-2, for non-square input; for ``p in (None, 2, -2)``, when the SVD does
        not converge (NaN input).

    See Also
    --------
    numpy.linalg.cond

    Notes
    -----
    Autodiff: differentiable in `x` where the norms involved are. For ``p`` other than
    None and +-2 the derivative passes through ``inv(x)``, which then raises for an
    exactly singular matrix instead of returning ``inf``.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.array([[1, 0, -1], [0, 1, 0], [1, 0, 1]])
    >>> float(LA.cond(a)), float(LA.cond(a, np.inf)), float(LA.cond(a, -1))
    (1.4142135623730951, 2.0, 1.0)
    """
    if not isinstance(x, Box):
        x = np.asarray(x)  # in case we have a matrix
    if x.size == 0 and np.prod(x.shape[-2:]) == 0:
        raise v.LinAlgError(v.MESSAGES["cond_empty"])
    if p is None or p in {2, -2}:
        s = _singular_values(x, check_finite=False)
        num, den = (s[..., -1], s[..., 0]) if p == -2 else (s[..., 0], s[..., -1])
        if isinstance(s, Box):
            with np.errstate(all="ignore"):
                r = num / den
        else:
            r = quiet(np.divide, num, den)
    else:
        v.assert_stacked_square(x)
        t, result_t = v.common_type(x)
        result_t = v.real_dtype(result_t)  # condition number is always real
        with np.errstate(all="ignore"):
            if isinstance(x, Box):
                from ._inv import inv
                invx = inv(x.astype(t) if x.dtype != t else x)
            else:
                sig = "D->D" if t.kind == "c" else "d->d"
                # NaN where inversion failed, turned into inf below
                invx = umath_linalg.inv(x, signature=sig)
            r = norm(x, p, axis=(-2, -1)) * norm(invx, p, axis=(-2, -1))
        r = r.astype(result_t, copy=False)

    # Convert nans to infs unless the original array had nan entries
    nan_mask = np.isnan(unbox_all(r))
    if nan_mask.any():
        nan_mask &= ~np.isnan(unbox_all(x)).any(axis=(-2, -1))
        if isinstance(r, Box):
            r = np.where(nan_mask, np.inf, r)
        elif r.ndim > 0:
            r[nan_mask] = np.inf
        elif nan_mask:
            # Convention is to return scalars instead of 0d arrays.
            r = r.dtype.type(np.inf)
    return r
