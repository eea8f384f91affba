"""solve_triangular (torch.linalg semantics, NumPy's dtype rules)."""
import numpy as np

from .._core import routing
from .._core import validate as v
from .._core.op import Op
from .._core.xputil import ndim_of
from ._solve import broadcast_batch

__all__ = ["solve_triangular"]

_TRI_MASKS = {}


def _tri_mask(m, n, k):
    key = (m, n, k)
    mask = _TRI_MASKS.get(key)
    if mask is None:
        mask = np.tri(m, n, k, dtype=bool)
        if len(_TRI_MASKS) < 128:
            _TRI_MASKS[key] = mask
    return mask


def tril_np(x, k=0):
    """``np.tril(x, k)`` of an ndarray: NumPy's own ``where``, the mask cached by shape
    (np.tri rebuilds it on every call, most of np.tril's time on small matrices)."""
    return np.where(_tri_mask(x.shape[-2], x.shape[-1], k), x, np.zeros(1, x.dtype))


def triu_np(x, k=0):
    """``np.triu(x, k)`` of an ndarray, with the cached mask (see `tril_np`)."""
    return np.where(_tri_mask(x.shape[-2], x.shape[-1], k - 1), np.zeros(1, x.dtype), x)


def batch_indices(batch):
    """``np.ndindex(*batch)``, without its cost for a single matrix (batch ``()``)."""
    return ((),) if not batch else np.ndindex(*batch)

_solve_triangular = Op("solve_triangular")
# Largest order the numba kernel serves (the router takes single matrices up to 16 only).
# Measured here, float64, one right-hand side, numba time / LAPACK's (a Python loop over
# SciPy's trsm): 0.02-0.14 on 1,000 matrices of order 3-32, 0.57 at 48, 1.1 at 64.
NUMBA_MAX_N = 48
_solve_triangular.def_route(routing.order_router(NUMBA_MAX_N))


def _mh(xp, x):
    return xp.conj(xp.matrix_transpose(x))


@_solve_triangular.impl("lapack")
def _solve_triangular_lapack(a, b, upper, left, unitriangular):
    # BLAS trsm, like torch: no singularity check, a zero diagonal gives inf/NaN
    from scipy.linalg import blas
    a, b, batch = broadcast_batch(a, b)
    out = np.empty(b.shape, dtype=b.dtype)
    if out.size == 0:
        return out
    trsm = blas.get_blas_funcs("trsm", dtype=a.dtype)
    side = 0 if left else 1
    # (trsm is not a ufunc: a zero diagonal gives inf/NaN silently, no errstate needed)
    for idx in batch_indices(batch):
        ai, bi = a[idx], b[idx]
        if ai.flags.c_contiguous:
            # T through its Fortran-ordered view T^T (trans_a): SciPy's wrapper would copy
            # a C-ordered T to Fortran order, at n = 256 in 6x the time of the solve.
            # X T = B is solved as T^T X^T = B^T on the view B^T: no copy of C-ordered B
            # either but the output's
            if left:
                out[idx] = trsm(1.0, ai.T, bi, side=0, lower=int(upper), trans_a=1,
                                diag=int(unitriangular))
            else:
                out[idx] = trsm(1.0, ai.T, bi.T, side=0, lower=int(upper),
                                diag=int(unitriangular)).T
        else:
            out[idx] = trsm(1.0, ai, bi, side=side, lower=int(not upper),
                            diag=int(unitriangular))
    return out


@_solve_triangular.impl("numba")
def _solve_triangular_numba(a, b, upper, left, unitriangular):
    if a.shape[-1] > NUMBA_MAX_N:
        return _solve_triangular_lapack(a, b, upper, left, unitriangular)
    a, b, _ = broadcast_batch(a, b)
    solve = routing.kernels_api().solve_triangular
    if left:
        x = solve(a, b, upper, unitriangular, 0)
    else:  # X T = B  <=>  T^T X^T = B^T
        x = np.swapaxes(solve(a, np.swapaxes(b, -1, -2), upper, unitriangular, 1), -1, -2)
    routing.mark_loaded("solve_triangular")
    return np.ascontiguousarray(x)


def _triangle(xp, x, upper, unitriangular):
    """The part of a matrix that solve_triangular reads (strict when the diagonal is unit)."""
    k = 0 if not unitriangular else (1 if upper else -1)
    return xp.triu(x, k) if upper else xp.tril(x, k)


# Giles (2008) section 2.3.1 with A replaced by the triangle T that is read: for T X = B,
# dX = T^{-1} (dB - dT X), B_bar = T^{-H} X_bar, T_bar = -B_bar X^H projected on the triangle;
# for X T = B, dX = (dB - X dT) T^{-1}, B_bar = X_bar T^{-H}, T_bar = -X^H B_bar.
@_solve_triangular.def_jvp
def _solve_triangular_jvp(xp, tangents, out, a, b, upper, left, unitriangular):
    ta, tb = tangents
    nd = ndim_of(out)
    rhs = None if tb is None else xp.align(tb, ndim_of(b), nd)
    if ta is not None:
        dt = _triangle(xp, xp.align(ta, ndim_of(a), nd), upper, unitriangular)
        r = -(dt @ out) if left else -(out @ dt)
        rhs = r if rhs is None else rhs + r
    return solve_triangular(a, rhs, upper=upper, left=left, unitriangular=unitriangular)


@_solve_triangular.def_vjp
def _solve_triangular_vjp(xp, g, out, a, b, upper, left, unitriangular):
    nb = ndim_of(g) - ndim_of(out)
    gb = solve_triangular(_mh(xp, a), g, upper=not upper, left=left,
                          unitriangular=unitriangular)
    ga = -(gb @ _mh(xp, out)) if left else -(_mh(xp, out) @ gb)
    ga = _triangle(xp, ga, upper, unitriangular)
    return xp.unbroadcast(ga, a.shape, nb), xp.unbroadcast(gb, b.shape, nb)


def solve_triangular(a, b, *, upper, left=True, unitriangular=False):
    """
    Solve a triangular system ``a x = b`` (or ``x a = b``) for a stack of matrices.

    Parameters
    ----------
    a : (..., N, N) array_like
        Triangular coefficient matrices. Only the triangle selected by `upper`
        is read (and not its diagonal when `unitriangular` is True).
    b : (..., N, K) or (..., K, N) array_like
        Right-hand sides: ``(..., N, K)`` when `left` is True, ``(..., K, N)``
        otherwise. Batch dimensions broadcast against those of `a`.
    upper : bool
        Whether `a` is upper (True) or lower (False) triangular. Keyword-only
        and required, as in ``torch.linalg.solve_triangular``.
    left : bool, optional
        Solve ``a x = b`` (True, default) or ``x a = b`` (False).
    unitriangular : bool, optional
        If True, the diagonal of `a` is taken to be all ones and not read.

    Returns
    -------
    x : ndarray
        The solution, of the broadcast batch shape and `b`'s core shape.

    Raises
    ------
    LinAlgError
        If `a` is not a stack of square matrices or `b` is less than 2-D.
    ValueError
        If the core shapes do not match or the batch shapes do not broadcast.

    See Also
    --------
    solve, scipy.linalg.solve_triangular

    Notes
    -----
    As ``torch.linalg.solve_triangular``: no check for a zero diagonal, which
    gives inf or NaN. Dtypes follow NumPy's linalg rules (compute in double or
    cdouble, return in the input precision).

    Autodiff: differentiable in `a` (its read triangle) and `b`.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.array([[2., 1.], [0., 4.]])
    >>> LA.solve_triangular(a, np.array([[3.], [4.]]), upper=True)
    array([[1.],
           [1.]])
    >>> LA.solve_triangular(a, np.array([[2., 5.]]), upper=True, left=False)
    array([[1., 1.]])
    """
    a, _ = v.makearray(a)
    b, wrap = v.makearray(b)
    v.assert_stacked_square(a)
    v.assert_stacked_2d(b)
    v.check_numeric("solve_triangular", a, b)
    v.check_bool("solve_triangular", upper=upper, left=left, unitriangular=unitriangular)
    n = a.shape[-1]
    if (b.shape[-2] if left else b.shape[-1]) != n:
        raise ValueError(v.MESSAGES["core_mismatch"] % (
            "solve_triangular", a.shape[-2:], b.shape[-2:], "A X = B" if left else "X A = B"))
    if a.shape[:-2] != b.shape[:-2]:
        np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    t, result_t = v.common_type(a, b)
    x = _solve_triangular.call(a.astype(t, copy=False), b.astype(t, copy=False),
                               upper=bool(upper), left=bool(left),
                               unitriangular=bool(unitriangular))
    if result_t is not t:
        x = x.astype(result_t, copy=False)
    return wrap(x)
