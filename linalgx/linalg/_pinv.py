"""pinv and matrix_rank: compositions of the SVD."""
import numpy as np
from numpy._globals import _NoValue

from .._core import validate as v
from .._core.box import Box
from .._core.op import Op
from .._core.xputil import ns, unbox_all
from ._svd import svd

__all__ = ["pinv", "matrix_rank"]


def _shape_text(shape):
    """A shape as NumPy's error messages print it: ``(2,)``, ``(1,3,2)``."""
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def pinv(a, rcond=None, hermitian=False, *, rtol=_NoValue):
    """
    Compute the (Moore-Penrose) pseudo-inverse of a matrix.

    Computed from the singular value decomposition, keeping the singular values larger
    than ``rcond`` times the largest one.

    Parameters
    ----------
    a : (..., M, N) array_like
        Matrix or stack of matrices to be pseudo-inverted.
    rcond : (...) array_like of float, optional
        Cutoff for small singular values: those less than or equal to
        ``rcond * largest_singular_value`` are set to zero. Broadcasts against the stack.
        Default: ``1e-15``.
    hermitian : bool, optional
        If True, `a` is assumed to be Hermitian (symmetric if real-valued). Default False.
    rtol : (...) array_like of float, optional
        Same as `rcond`, the Array API name. Only one of `rcond` and `rtol` may be set.
        ``rtol=None`` selects the API standard default ``max(M, N) * eps``.

    Returns
    -------
    B : (..., N, M) ndarray or matrix
        The pseudo-inverse of `a`; an ``np.matrix`` if `a` is one.

    Raises
    ------
    LinAlgError
        If the SVD does not converge, including for NaN or inf entries.
    ValueError
        If both `rcond` and `rtol` are given.

    See Also
    --------
    numpy.linalg.pinv
    scipy.linalg.pinv

    Notes
    -----
    Autodiff: differentiable in `a` where the rank does not change (the derivative on the
    matrices of that rank, as PyTorch's; also where singular values are exactly zero); with
    ``hermitian=True`` through `svd`, in the triangle of `a` that is read, where the kept
    singular values are distinct.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.array([[1., 2.], [3., 4.], [5., 6.]])
    >>> B = LA.pinv(a)
    >>> np.allclose(a @ B @ a, a), B.shape
    (True, (2, 3))
    """
    a, wrap = v.makearray(a)
    if rcond is None:
        if rtol is _NoValue:
            rcond = 1e-15
        elif rtol is None:
            rcond = max(a.shape[-2:]) * v.eps(a.dtype)
        else:
            rcond = rtol
    elif rtol is not _NoValue:
        raise ValueError(v.MESSAGES["rtol_rcond"])
    rcond = np.asarray(rcond)
    if a.size == 0 and np.prod(a.shape[-2:]) == 0:
        m, n = a.shape[-2:]
        return wrap(np.empty(a.shape[:-2] + (n, m), dtype=a.dtype))
    if isinstance(a, Box) and not hermitian:
        return _pinv(a, rcond=rcond)
    res = _pinv_svd(a, rcond, hermitian)
    return res if isinstance(res, Box) else wrap(res)


def _pinv_svd(a, rcond, hermitian):
    a = a.conjugate()
    u, s, vt = svd(a, full_matrices=False, hermitian=hermitian)
    # discard small singular values (1 / (s + 1) * 0 == 0 keeps Boxes free of in-place writes)
    cutoff = rcond[..., np.newaxis] * np.amax(unbox_all(s), axis=-1, keepdims=True)
    sv = unbox_all(s)
    # the common case (a scalar rcond, or one of the stack's shape) skips the shape check
    if cutoff.shape[:-1] != sv.shape[:-1] and (
            full := np.broadcast_shapes(cutoff.shape, sv.shape)) != sv.shape:
        # NumPy filters s in place (out=s): an rcond that would enlarge the stack is an error
        raise ValueError(f"non-broadcastable output operand with shape {_shape_text(sv.shape)}"
                         f" doesn't match the broadcast shape {_shape_text(full)}")
    large = sv > cutoff
    s = large * (1 / (s + ~large))
    return vt.swapaxes(-1, -2) @ (s[..., np.newaxis] * u.swapaxes(-1, -2))


# -- autodiff rules ---------------------------------------------------------------------------
# pinv's own rules, for constant rank (Golub & Pereyra 1973; PyTorch's pinv_backward), with
# P = pinv(A):  dP = -P dA P + P P^H dA^H (I - A P) + (I - P A) dA^H P^H P.
# Differentiating through the SVD instead divides the zero cotangent of each discarded
# singular vector by its singular value: 0 / 0 = NaN wherever a singular value is exactly
# zero (a zero row or column, a zero-padded block, the zero matrix) for complex or rectangular
# A. hermitian=True keeps the SVD (eigh) route, whose derivative reads one triangle of `a`.
_pinv = Op("pinv")


@_pinv.impl("any")
def _pinv_any(a, *, rcond):
    return _pinv_svd(a, rcond, False)


def _mh(xp, x):
    return xp.conj(xp.matrix_transpose(x))


@_pinv.def_jvp
def _pinv_jvp(xp, tangents, out, a, *, rcond):
    (da,) = tangents
    p, dah = out, _mh(xp, da)
    ph = _mh(xp, p)
    return (-(p @ da) @ p + (p @ ph) @ (dah - (dah @ a) @ p)
            + (dah - p @ (a @ dah)) @ (ph @ p))


@_pinv.def_vjp
def _pinv_vjp(xp, g, out, a, *, rcond):
    p, gh = out, _mh(xp, g)
    ph = _mh(xp, p)
    return (-(ph @ g) @ ph + (gh - a @ (p @ gh)) @ (p @ ph)
            + (ph @ p) @ (gh - (gh @ p) @ a),)


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """
    Return the matrix rank of an array using the SVD method.

    The rank is the number of singular values greater than `tol`.

    Parameters
    ----------
    A : {(M,), (..., M, N)} array_like
        Input vector or stack of matrices.
    tol : (...) array_like, float, optional
        Threshold below which singular values are considered zero. Default
        ``S.max() * max(M, N) * eps``.
    hermitian : bool, optional
        If True, `A` is assumed to be Hermitian (symmetric if real-valued). Default False.
    rtol : (...) array_like, float, optional
        Relative tolerance; only one of `tol` and `rtol` may be set. Default
        ``max(M, N) * eps``.

    Returns
    -------
    rank : (...) array_like
        Rank of `A`: a Python ``int`` for 0-d and 1-d input, else an ``intp`` array or
        scalar.

    Raises
    ------
    LinAlgError
        If the SVD does not converge, including for NaN or inf entries (NumPy returns a
        rank of 0 for inf).
    ValueError
        If both `tol` and `rtol` are set.

    See Also
    --------
    numpy.linalg.matrix_rank

    Notes
    -----
    Autodiff: the rank is integer valued and carries no derivative.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> LA.matrix_rank(np.eye(4))
    np.int64(4)
    >>> LA.matrix_rank(np.array([[1., 2.], [2., 4.]]))
    np.int64(1)
    >>> LA.matrix_rank(np.zeros(4))
    0
    """
    if rtol is not None and tol is not None:
        raise ValueError(v.MESSAGES["tol_rtol"])
    A = np.asarray(unbox_all(A))
    if A.ndim < 2:
        return int(not np.all(A == 0))
    S = svd(A, compute_uv=False, hermitian=hermitian)
    if tol is None:
        if rtol is None:
            rtol = max(A.shape[-2:]) * v.eps(S.dtype)
        else:
            rtol = np.asarray(rtol)[..., np.newaxis]
        tol = S.max(axis=-1, keepdims=True, initial=0) * rtol
    else:
        tol = np.asarray(tol)[..., np.newaxis]
    if type(S) is np.ndarray:  # np.count_nonzero(..., axis=-1) without its Python layers
        return np.add.reduce(S > tol, axis=-1, dtype=np.intp)
    return ns(S).count_nonzero(S > tol, axis=-1)
