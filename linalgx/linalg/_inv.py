"""inv, inv_ex and tensorinv."""
import numpy as np

from .._core import routing
from .._core import validate as v
from .._core.lapack import attempt, gufunc1, quiet, surely_finite, umath_linalg
from .._core.op import Op
from .._core.results import InvExResult
from .._core.xputil import unbox_all

__all__ = ["inv", "inv_ex", "tensorinv"]

_inv = Op("inv")
_inv.def_route(routing.square_router("inv"))
_inv_ex = Op("inv_ex", nout=2)
_inv_ex.def_route(routing.square_router("inv"))


_SIGS = ("d->d", "D->D")


def _sig(dtype, n_in=1):
    c = "D" if dtype.kind == "c" else "d"
    return c * n_in + "->" + c


def inv_getri(a):
    """One large matrix through SciPy's ?getrf + ?getri (SciPy's ``inv``), given ``a.T``
    (Fortran order, no copy): inv(a) = inv(a.T).T, C-ordered. A zero pivot raises NumPy's
    "Singular matrix"."""
    from scipy.linalg import get_lapack_funcs

    getrf, getri, getri_lwork = get_lapack_funcs(("getrf", "getri", "getri_lwork"), (a,))
    lu, piv, info = getrf(a.T, overwrite_a=0)
    if info == 0:
        work, info = getri_lwork(a.shape[0])
        lwork = int(1.01 * work.real) if info == 0 else 3 * a.shape[0]
        lu, info = getri(lu, piv, lwork=lwork, overwrite_lu=1)
    v.raise_on_info(max(info, 0), "singular", "inv", ())
    return lu.T


@_inv.impl("lapack")
def _inv_lapack(a):
    # NaN / inf: NumPy's gufunc (NaN out, no error), which getrf's pivoting may not match
    if a.ndim == 2 and routing.large_driver("inv", a) == "scipy_getri" and surely_finite(a):
        return inv_getri(a)
    return gufunc1(umath_linalg.inv, "D->D" if a.dtype.kind == "c" else "d->d", a,
                   "singular", "inv")


@_inv.impl("numba")
def _inv_numba(a):
    api = routing.kernels_api()
    out, info = api.inv(v.as_compute(a))
    routing.mark_loaded("inv")
    if np.count_nonzero(info):
        v.raise_on_info(info, "singular", "inv", a.shape[:-2])
    return out


def failed_elements(out, batch_shape):
    """Boolean mask over the batch: elements NumPy's gufunc filled entirely with NaN."""
    batch_shape = tuple(batch_shape)
    core_size = 1
    for d in out.shape[len(batch_shape):]:
        core_size *= d
    if out.size == 0 or core_size == 0:
        return np.zeros(batch_shape, dtype=bool)
    return np.isnan(out.reshape(batch_shape + (core_size,))).all(axis=-1)


def getrf_info(a, candidates, nan_filled=True):
    """LAPACK getrf's status per batch element, computed only where ``candidates`` is set.

    NumPy's gufuncs report a failure for a whole call, not per element; the elements they
    NaN-filled are refactored here one by one to tell a zero pivot (``info = i > 0``:
    ``U[i-1, i-1] == 0``) from NaN propagated from the input (``info = 0``).

    SciPy's getrf is another OpenBLAS build, whose rounding can leave a pivot of 1e-16 where
    NumPy's met an exact zero. A finite element NumPy NaN-filled (``nan_filled``: the
    candidates are such elements, not merely unknown ones) has failed all the same: it gets
    the order of the pivot that is smallest against the column of U above it (the kernels'
    negligible-pivot measure), never ``info = 0`` with a NaN result.
    """
    from scipy.linalg import lapack
    info = np.zeros(candidates.shape, dtype=np.int32)
    idx = np.flatnonzero(candidates)
    if idx.size:
        getrf = lapack.get_lapack_funcs("getrf", dtype=a.dtype)
        a = np.broadcast_to(a, candidates.shape + a.shape[-2:])
        flat = info.reshape(-1)
        for i in idx:
            m = a[np.unravel_index(i, candidates.shape)]
            lu, _, code = getrf(m)
            if code <= 0 and nan_filled and m.size and np.isfinite(m).all():
                u = np.abs(np.triu(lu))
                with np.errstate(divide="ignore", invalid="ignore"):
                    rel = np.diagonal(u) / u.sum(axis=0)
                code = int(np.argmin(np.where(np.isnan(rel), 0, rel))) + 1
            flat[i] = max(code, 0)
    return info


@_inv_ex.impl("lapack")
def _inv_ex_lapack(a):
    batch = a.shape[:-2]
    out = attempt(umath_linalg.inv, _sig(a.dtype), a)
    if out is not None:  # no element failed
        return out, np.zeros(batch, dtype=np.int32)
    out = quiet(umath_linalg.inv, a, signature=_sig(a.dtype))
    return out, getrf_info(v.as_compute(a), failed_elements(out, batch))


@_inv_ex.impl("numba")
def _inv_ex_numba(a):
    api = routing.kernels_api()
    out, info = api.inv(v.as_compute(a))
    routing.mark_loaded("inv")
    return out, info


# Giles (2008), "An extended collection of matrix derivative results for forward and reverse
# mode AD", section 2.2.3: d inv(A) = -inv(A) dA inv(A).
@_inv.def_jvp
def _inv_jvp(xp, tangents, out, a):
    (t,) = tangents
    return -(out @ t @ out)


@_inv.def_vjp
def _inv_vjp(xp, g, out, a):
    out_h = xp.conj(xp.matrix_transpose(out))
    return (-(out_h @ g @ out_h),)


@_inv_ex.def_jvp
def _inv_ex_jvp(xp, tangents, out, a):
    return _inv_jvp(xp, tangents, out[0], a), None


@_inv_ex.def_vjp
def _inv_ex_vjp(xp, g, out, a):
    if g[0] is None:  # only the integer status has a cotangent: it carries no derivative
        return (xp.zeros_like(a),)
    return _inv_vjp(xp, g[0], out[0], a)


def inv(a):
    """
    Compute the inverse of a matrix.

    Given a square matrix `a`, return the matrix `ainv` satisfying
    ``a @ ainv = ainv @ a = eye(a.shape[0])``.

    Parameters
    ----------
    a : (..., M, M) array_like
        Matrix to be inverted.

    Returns
    -------
    ainv : (..., M, M) ndarray or matrix
        Inverse of the matrix `a`.

    Raises
    ------
    LinAlgError
        If `a` is not square or inversion fails. For a stack, the message names the
        failing batch element (``SingularMatrixError.batch_index``).

    See Also
    --------
    inv_ex : the same, returning a per-element status instead of raising.
    numpy.linalg.inv

    Notes
    -----
    Stacks of small matrices run on numba kernels where measured faster than LAPACK.

    Autodiff: differentiable in `a`; ``d(inv(A)) = -inv(A) dA inv(A)``.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.array([[1., 2.], [3., 4.]])
    >>> LA.inv(a)
    array([[-2. ,  1. ],
           [ 1.5, -0.5]])
    """
    a, wrap, t, result_t = v.prepare_square(a, umath_linalg.inv, _SIGS)
    ainv = _inv.call1(a)
    if result_t is not t:
        ainv = ainv.astype(result_t, copy=False)
    return wrap(ainv)


def inv_ex(a, *, check_errors=False):
    """
    Inverse of a (stacked) matrix with a per-element status instead of an exception.

    Parameters
    ----------
    a : (..., M, M) array_like
        Matrices to be inverted.
    check_errors : bool, optional
        Raise `inv`'s exception for the first singular element instead (torch's
        keyword). Default False.

    Returns
    -------
    A namedtuple ``InvExResult`` with the attributes:

    inverse : (..., M, M) ndarray
        The inverses; an element whose matrix is singular holds NaN.
    info : (...) ndarray of int32
        0 where the inversion succeeded, ``i > 0`` where ``U[i-1, i-1]`` of the LU
        factorization is exactly zero (torch.linalg.inv_ex's convention).

    Raises
    ------
    LinAlgError
        For a non-square or lower-than-2-D input; for a singular matrix only with
        ``check_errors=True``.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.stack([np.eye(2), np.zeros((2, 2))])
    >>> inverse, info = LA.inv_ex(a)
    >>> info
    array([0, 1], dtype=int32)
    """
    v.check_bool("inv_ex", check_errors=check_errors)
    a, wrap, t, result_t = v.prepare_square(a, umath_linalg.inv, _SIGS)
    out, info = _inv_ex.call1(a)
    info = unbox_all(info)
    if check_errors:
        v.raise_on_info(info, "singular", "inv_ex", info.shape)
    if result_t is not t:
        out = out.astype(result_t, copy=False)
    return InvExResult(wrap(out), info)


def tensorinv(a, ind=2):
    """
    Compute the 'inverse' of an N-dimensional array.

    The result is an inverse for `a` relative to the tensordot operation
    ``tensordot(a, b, ind)``, i. e., up to floating-point accuracy,
    ``tensordot(tensorinv(a), a, ind)`` is the "identity" tensor for the
    tensordot operation.

    Parameters
    ----------
    a : array_like
        Tensor to 'invert'. Its shape must be 'square', i. e.,
        ``prod(a.shape[:ind]) == prod(a.shape[ind:])``.
    ind : int, optional
        Number of first indices that are involved in the inverse sum.
        Must be a positive integer, default is 2.

    Returns
    -------
    b : ndarray
        `a`'s tensordot inverse, shape ``a.shape[ind:] + a.shape[:ind]``.

    Raises
    ------
    LinAlgError
        If `a` is singular or not 'square' (in the above sense).

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.eye(4 * 6).reshape((4, 6, 8, 3))
    >>> LA.tensorinv(a, ind=2).shape
    (8, 3, 4, 6)
    """
    a, _ = v.makearray(a)  # NumPy's asarray: a matrix or masked array in, an ndarray out
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    oldshape = a.shape
    prod = 1
    invshape = oldshape[ind:] + oldshape[:ind]
    for k in oldshape[ind:]:
        prod *= k
    a = a.reshape(prod, -1)
    ia = inv(a)
    return ia.reshape(*invshape)
