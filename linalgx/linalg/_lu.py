"""lu, lu_factor and lu_solve (torch.linalg semantics, NumPy's dtype rules)."""
import numpy as np

from .._core import basic, routing
from .._core import validate as v
from .._core.op import Op
from .._core.results import LUFactorExResult, LUFactorResult, LUResult
from .._core.xputil import ndim_of, ns, unbox_all
from ._solve import broadcast_batch
from ._triangular import batch_indices, solve_triangular, tril_np, triu_np

__all__ = ["lu", "lu_factor", "lu_factor_ex", "lu_solve"]

# The primitive is torch's lu_factor_ex: (LU, pivots, info); lu and lu_factor build on it.
_lu_factor = Op("lu_factor", nout=3)
_lu_solve = Op("lu_solve")

# Largest order the numba kernels serve (the router takes single matrices up to 16 only).
# Measured here, float64, through linalgx with either backend forced, numba time / LAPACK's
# (the LAPACK path loops in Python over SciPy's getrf / getrs, one call per matrix):
# lu_factor on 1,000 matrices 0.01 (n = 3), 0.10 (8), 0.14 (16), 0.42 (24), 0.72 (32);
# lu_solve 0.01-0.12 up to n = 32; a single matrix of order 24-32 1.2-1.5 (unblocked loops
# against OpenBLAS). Above, the numba implementations call LAPACK.
NUMBA_MAX_N = {"lu_factor": 32, "lu_solve": 32}
_lu_factor.def_route(routing.order_router(NUMBA_MAX_N["lu_factor"]))
_lu_solve.def_route(routing.order_router(NUMBA_MAX_N["lu_solve"]))


@_lu_factor.impl("lapack")
def _lu_factor_lapack(a, pivot):
    if not pivot:
        return _lu_nopivot(a)
    from scipy.linalg import lapack
    batch = a.shape[:-2]
    m, n = a.shape[-2:]
    k = min(m, n)
    # each factor column-major, as getrf returns it (and as torch's): lu_solve's getrs then
    # takes it without a copy (at n = 1000 the copy of a C-ordered LU took 5x the solve)
    lu = np.empty(batch + (n, m), dtype=a.dtype).swapaxes(-1, -2)
    piv = np.empty(batch + (k,), dtype=np.int32)
    info = np.zeros(batch, dtype=np.int32)
    if k == 0 or lu.size == 0:
        piv[...] = np.arange(1, k + 1, dtype=np.int32)
        return lu, piv, info
    getrf = lapack.get_lapack_funcs("getrf", dtype=a.dtype)
    if not batch:
        lu, p, i = getrf(a)
        return lu, (p + 1).astype(np.int32, copy=False), np.array(max(i, 0), dtype=np.int32)
    for idx in batch_indices(batch):
        lu[idx], p, i = getrf(a[idx])
        piv[idx] = p + 1  # SciPy returns 0-based pivots; LAPACK's and torch's are 1-based
        info[idx] = max(i, 0)
    return lu, piv, info


@_lu_factor.impl("numba")
def _lu_factor_numba(a, pivot):
    if not pivot or max(a.shape[-2:]) > NUMBA_MAX_N["lu_factor"]:
        return _lu_factor_lapack(a, pivot)
    out = routing.kernels_api().lu_factor(a)
    routing.mark_loaded("lu_factor")
    return out


def _lu_nopivot(a):
    """Doolittle LU without row exchanges, vectorized over the batch (torch's pivot=False)."""
    lu = np.array(a, copy=True)
    m, n = a.shape[-2:]
    k = min(m, n)
    info = np.zeros(a.shape[:-2], dtype=np.int32)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore", under="ignore"):
        for j in range(k):
            p = lu[..., j, j]
            info[(p == 0) & (info == 0)] = j + 1
            lu[..., j + 1:, j] /= p[..., None]
            lu[..., j + 1:, j + 1:] -= lu[..., j + 1:, j:j + 1] * lu[..., j:j + 1, j + 1:]
    piv = np.broadcast_to(np.arange(1, k + 1, dtype=np.int32), a.shape[:-2] + (k,)).copy()
    return lu, piv, info


@_lu_solve.impl("lapack")
def _lu_solve_lapack(LU, pivots, B, left, adjoint):
    from scipy.linalg import lapack
    LU, B, batch = broadcast_batch(LU, B)
    pivots = np.broadcast_to(pivots, batch + pivots.shape[-1:])
    out = np.empty(B.shape, dtype=B.dtype)
    if out.size == 0:
        return out
    getrs = lapack.get_lapack_funcs("getrs", dtype=LU.dtype)
    cplx = LU.dtype.kind == "c"
    for idx in batch_indices(batch):
        lu, p, b = LU[idx], pivots[idx] - 1, B[idx]
        if left:
            out[idx] = getrs(lu, p, b, trans=(2 if cplx else 1) if adjoint else 0)[0]
        elif not adjoint:  # X A = B  <=>  A^T X^T = B^T
            out[idx] = getrs(lu, p, b.T, trans=1)[0].T
        else:  # X A^H = B  <=>  A X^H = B^H
            out[idx] = np.conj(getrs(lu, p, np.conj(b.T), trans=0)[0].T)
    return out


@_lu_solve.impl("numba")
def _lu_solve_numba(LU, pivots, B, left, adjoint):
    if LU.shape[-1] > NUMBA_MAX_N["lu_solve"]:
        return _lu_solve_lapack(LU, pivots, B, left, adjoint)
    LU, B, batch = broadcast_batch(LU, B)
    if pivots.shape[:-1] != batch:
        pivots = np.broadcast_to(pivots, batch + pivots.shape[-1:])
    solve = routing.kernels_api().lu_solve
    if left:
        x = solve(LU, pivots, B, (2 if LU.dtype.kind == "c" else 1) if adjoint else 0)
    elif not adjoint:  # X A = B  <=>  A^T X^T = B^T
        x = np.swapaxes(solve(LU, pivots, np.swapaxes(B, -1, -2), 1), -1, -2)
    else:  # X A^H = B  <=>  A X^H = B^H
        x = np.conj(np.swapaxes(solve(LU, pivots, np.conj(np.swapaxes(B, -1, -2)), 0), -1, -2))
    routing.mark_loaded("lu_solve")
    return np.ascontiguousarray(x)


def permutation_matrix(pivots, m, dtype):
    """P with ``A = P L U`` from LAPACK's 1-based row interchanges (a constant, never traced)."""
    pivots = unbox_all(pivots)
    if type(pivots) is np.ndarray and pivots.ndim == 1:
        # one matrix: the row swaps on a Python list (each vectorized swap below costs
        # microseconds of NumPy call overhead)
        perm = list(range(m))
        for i, p in enumerate(pivots.tolist()):
            perm[i], perm[p - 1] = perm[p - 1], perm[i]
        return (np.arange(m)[:, None] == np.array(perm)).astype(dtype)
    mod = ns(pivots)
    batch = pivots.shape[:-1]
    perm = mod.broadcast_to(mod.arange(m), batch + (m,)).copy()
    for i in range(pivots.shape[-1]):
        j = (pivots[..., i:i + 1] - 1).astype(np.intp)
        pi = perm[..., i:i + 1].copy()
        perm[..., i:i + 1] = mod.take_along_axis(perm, j, axis=-1)
        mod.put_along_axis(perm, j, pi, axis=-1)
    # (P^T A)[i] = A[perm[i]], so P[perm[i], i] = 1
    return (mod.arange(m)[:, None] == perm[..., None, :]).astype(dtype)


def _unpack(xp, LU):
    """Unit-lower L (..., M, K) and upper U (..., K, N) from the packed factor."""
    m, n = LU.shape[-2:]
    k = min(m, n)
    eye = xp.eye(m, dtype=LU.dtype, like=LU)[:, :k]
    return xp.tril(LU[..., :, :k], -1) + eye, xp.triu(LU[..., :k, :])


def _mh(xp, x):
    return xp.conj(xp.matrix_transpose(x))


# LU derivative (PyTorch's linalg_lu_jvp / linalg_lu_backward; see also Walter & Lehmann,
# "Algorithmic differentiation of linear algebra functions with application in optimum
# experimental design", 2018). With P^T A = L U, K = min(M, N), L1 = L[:K], U1 = U[:, :K] and
# C = L1^{-1} (P^T dA)_11 U1^{-1}: dL1 = L1 tril(C, -1), dU1 = triu(C) U1; a wide A adds
# dU2 = L1^{-1} (P^T dA)_12 - tril(C, -1) U2, a tall one dL2 = (P^T dA)_21 U1^{-1} - L2 triu(C).
@_lu_factor.def_jvp
def _lu_factor_jvp(xp, tangents, out, a, pivot):
    (t,) = tangents
    LU, pivots = out[0], out[1]
    m, n = LU.shape[-2:]
    k = min(m, n)
    L, U = _unpack(xp, LU)
    dA = xp.align(t, ndim_of(a), ndim_of(LU))
    if pivot:
        dA = xp.matrix_transpose(permutation_matrix(pivots, m, LU.dtype)) @ dA
    L1, U1 = L[..., :k, :], U[..., :, :k]
    c = solve_triangular(L1, dA[..., :k, :k], upper=False, unitriangular=True)
    c = solve_triangular(U1, c, upper=True, left=False)
    c_low, c_up = xp.tril(c, -1), xp.triu(c)
    d11 = L1 @ c_low + c_up @ U1
    if n > k:
        d12 = (solve_triangular(L1, dA[..., :k, k:], upper=False, unitriangular=True)
               - c_low @ U[..., :, k:])
        d11 = xp.concatenate([d11, d12], axis=-1)
    elif m > k:
        d21 = (solve_triangular(U1, dA[..., k:, :k], upper=True, left=False)
               - L[..., k:, :] @ c_up)
        d11 = xp.concatenate([d11, d21], axis=-2)
    return d11, None, None


@_lu_factor.def_vjp
def _lu_factor_vjp(xp, g, out, a, pivot):
    g = g[0]
    if g is None:
        return (xp.zeros_like(a),)
    LU, pivots = out[0], out[1]
    m, n = LU.shape[-2:]
    k = min(m, n)
    L, U = _unpack(xp, LU)
    L1, U1 = L[..., :k, :], U[..., :, :k]
    g11 = g[..., :k, :k]
    low = _mh(xp, L1) @ g11
    up = g11 @ _mh(xp, U1)
    parts = []
    if n > k:
        g12 = g[..., :k, k:]
        low = low - g12 @ _mh(xp, U[..., :, k:])
        parts = [solve_triangular(_mh(xp, L1), g12, upper=True, unitriangular=True)]
    elif m > k:
        g21 = g[..., k:, :k]
        up = up - _mh(xp, L[..., k:, :]) @ g21
        parts = [solve_triangular(_mh(xp, U1), g21, upper=False, left=False)]
    gc = xp.tril(low, -1) + xp.triu(up)
    ga = solve_triangular(_mh(xp, L1), gc, upper=True, unitriangular=True)
    ga = solve_triangular(_mh(xp, U1), ga, upper=False, left=False)
    if parts:
        ga = xp.concatenate([ga] + parts, axis=-1 if n > k else -2)
    if pivot:
        ga = permutation_matrix(pivots, m, LU.dtype) @ ga
    return (ga,)


# lu_solve through A = P L U: with M = A (or A^H when adjoint) and X = M^{-1} B (left) or
# B M^{-1} (right), Giles (2008) gives the derivative in M; the chain to LU is
# dA = P (tril(dLU, -1) U + L triu(dLU)), LU_bar = tril(P^T A_bar U^H, -1) + triu(L^H P^T A_bar).
@_lu_solve.def_jvp
def _lu_solve_jvp(xp, tangents, out, LU, pivots, B, left, adjoint):
    t_lu, _, t_b = tangents
    nd = ndim_of(out)
    rhs = None if t_b is None else xp.align(t_b, ndim_of(B), nd)
    if t_lu is not None:
        n = LU.shape[-1]
        L, U = _unpack(xp, LU)
        t_lu = xp.align(t_lu, ndim_of(LU), nd)
        da = permutation_matrix(pivots, n, LU.dtype) @ (xp.tril(t_lu, -1) @ U
                                                          + L @ xp.triu(t_lu))
        dm = _mh(xp, da) if adjoint else da
        r = -(dm @ out) if left else -(out @ dm)
        rhs = r if rhs is None else rhs + r
    return lu_solve(LU, pivots, rhs, left=left, adjoint=adjoint)


@_lu_solve.def_vjp
def _lu_solve_vjp(xp, g, out, LU, pivots, B, left, adjoint):
    nb = ndim_of(g) - ndim_of(out)
    gb = lu_solve(LU, pivots, g, left=left, adjoint=not adjoint)
    gm = -(gb @ _mh(xp, out)) if left else -(_mh(xp, out) @ gb)
    ga = _mh(xp, gm) if adjoint else gm
    n = LU.shape[-1]
    L, U = _unpack(xp, LU)
    pa = xp.matrix_transpose(permutation_matrix(pivots, n, LU.dtype)) @ ga
    glu = xp.tril(pa @ _mh(xp, U), -1) + xp.triu(_mh(xp, L) @ pa)
    return xp.unbroadcast(glu, LU.shape, nb), None, xp.unbroadcast(gb, B.shape, nb)


def _unpack_np(LU):
    """`_unpack` of an ndarray, with the cached-mask triangles of `_triangular`."""
    m, n = LU.shape[-2:]
    k = min(m, n)
    return tril_np(LU[..., :, :k], -1) + np.eye(m, k, dtype=LU.dtype), triu_np(LU[..., :k, :])


def _factor(func, a, pivot):
    a, wrap = v.makearray(a)
    v.assert_stacked_2d(a)
    v.check_numeric(func, a)
    v.check_bool(func, pivot=pivot)
    t, result_t = v.common_type(a)
    lu_, piv, info = _lu_factor.call(a.astype(t, copy=False), pivot=bool(pivot))
    return lu_, unbox_all(piv), unbox_all(info), result_t, wrap


def lu_factor(a, *, pivot=True):
    """
    LU factorization with partial pivoting, in LAPACK's compact form.

    Parameters
    ----------
    a : (..., M, N) array_like
        Matrices to factor.
    pivot : bool, optional
        Partial pivoting (True, default) or none (False: the pivots are then
        ``1, ..., K``).

    Returns
    -------
    A namedtuple ``LUFactorResult`` with the attributes:

    LU : (..., M, N) ndarray
        ``L`` (unit diagonal not stored) below the diagonal and ``U`` on and above.
    pivots : (..., K) ndarray of int32
        LAPACK's 1-based row interchanges, ``K = min(M, N)``: row ``i`` was
        swapped with row ``pivots[i] - 1``.

    Raises
    ------
    LinAlgError
        If `a` is less than 2-D, or some ``U[i, i]`` is exactly zero (as
        torch.linalg.lu_factor; use `lu` to factor singular matrices).

    See Also
    --------
    lu, lu_solve, scipy.linalg.lu_factor

    Notes
    -----
    Autodiff: differentiable in `a` for square and rectangular inputs (`pivots`
    is piecewise constant).

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> LU, pivots = LA.lu_factor(np.array([[1., 2.], [3., 4.]]))
    >>> LU
    array([[3.        , 4.        ],
           [0.33333333, 0.66666667]])
    >>> pivots
    array([2, 2], dtype=int32)
    """
    lu_, piv, info, result_t, wrap = _factor("lu_factor", a, pivot)
    if info.any():
        v.raise_on_info(info, "singular", "lu_factor", info.shape)
    return LUFactorResult(wrap(lu_.astype(result_t, copy=False)), piv)


def lu_factor_ex(a, *, pivot=True, check_errors=False):
    """
    LU factorization with a per-element status instead of an exception.

    Parameters
    ----------
    a : (..., M, N) array_like
        Matrices to factor.
    pivot : bool, optional
        Partial pivoting (True, default) or none (False).
    check_errors : bool, optional
        Raise `lu_factor`'s exception for the first element with an exactly zero
        ``U[i, i]`` instead (torch's keyword). Default False.

    Returns
    -------
    A namedtuple ``LUFactorExResult`` with the attributes:

    LU : (..., M, N) ndarray
        As `lu_factor`; a singular element's factors are returned too (usable by
        `lu`'s unpacking, not by `lu_solve`).
    pivots : (..., K) ndarray of int32
        As `lu_factor`.
    info : (...) ndarray of int32
        0 where the factorization succeeded, ``i > 0`` where ``U[i-1, i-1]`` is
        exactly zero (LAPACK getrf's and torch.linalg.lu_factor_ex's convention).

    Raises
    ------
    LinAlgError
        If `a` is less than 2-D; for a singular element only with ``check_errors=True``.

    See Also
    --------
    lu_factor, lu, torch.linalg.lu_factor_ex

    Notes
    -----
    Autodiff: as `lu_factor` for `LU`; `pivots` and `info` are not differentiable.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> LU, pivots, info = LA.lu_factor_ex(np.stack([np.eye(2), np.zeros((2, 2))]))
    >>> info
    array([0, 1], dtype=int32)
    """
    v.check_bool("lu_factor_ex", check_errors=check_errors)
    lu_, piv, info, result_t, wrap = _factor("lu_factor_ex", a, pivot)
    if check_errors and info.any():
        v.raise_on_info(info, "singular", "lu_factor_ex", info.shape)
    return LUFactorExResult(wrap(lu_.astype(result_t, copy=False)), piv, info)


def lu(a, *, pivot=True):
    """
    LU decomposition ``a = P @ L @ U`` of a stack of (possibly rectangular) matrices.

    Parameters
    ----------
    a : (..., M, N) array_like
        Matrices to decompose.
    pivot : bool, optional
        Partial pivoting (True, default) or none (False).

    Returns
    -------
    A namedtuple ``LUResult`` with the attributes:

    P : (..., M, M) ndarray
        Permutation matrices, of `a`'s result dtype. An empty array of shape
        ``(0,)`` when `pivot` is False (torch.linalg.lu's convention).
    L : (..., M, K) ndarray
        Unit lower triangular (trapezoidal) factors, ``K = min(M, N)``.
    U : (..., K, N) ndarray
        Upper triangular (trapezoidal) factors.

    Raises
    ------
    LinAlgError
        If `a` is less than 2-D. Singular matrices are factored without error.

    See Also
    --------
    lu_factor, scipy.linalg.lu

    Notes
    -----
    Autodiff: differentiable in `a` (L and U; P is piecewise constant).

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.array([[1., 2.], [3., 4.]])
    >>> P, L, U = LA.lu(a)
    >>> P
    array([[0., 1.],
           [1., 0.]])
    >>> np.allclose(P @ L @ U, a)
    True
    """
    lu_, piv, _, result_t, wrap = _factor("lu", a, pivot)
    L, U = _unpack_np(lu_) if type(lu_) is np.ndarray else _unpack(basic, lu_)
    if pivot:
        P = wrap(permutation_matrix(piv, lu_.shape[-2], result_t))
    else:
        P = np.empty((0,), dtype=result_t)
    return LUResult(P, wrap(L.astype(result_t, copy=False)),
                    wrap(U.astype(result_t, copy=False)))


def lu_solve(LU, pivots, B, *, left=True, adjoint=False):
    """
    Solve ``A X = B`` given the LU factorization of `A` from `lu_factor`.

    Parameters
    ----------
    LU : (..., N, N) array_like
        The compact factor from `lu_factor`.
    pivots : (..., N) array_like of int
        The 1-based pivots from `lu_factor`.
    B : (..., N, K) or (..., K, N) array_like
        Right-hand sides; batch dimensions broadcast against those of `LU`.
    left : bool, optional
        Solve ``A X = B`` (True, default) or ``X A = B`` (False).
    adjoint : bool, optional
        Use ``A^H`` instead of ``A``.

    Returns
    -------
    X : ndarray
        The solution, of the broadcast batch shape and `B`'s core shape.

    Raises
    ------
    LinAlgError
        If `LU` is not a stack of square matrices or `B` is less than 2-D.
    ValueError
        If the shapes of `LU`, `pivots` and `B` do not fit together.
    TypeError
        If `pivots` is not an integer array.

    See Also
    --------
    lu_factor, solve, scipy.linalg.lu_solve

    Notes
    -----
    Autodiff: differentiable in `LU` and `B`.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.array([[1., 2.], [3., 4.]])
    >>> LU, pivots = LA.lu_factor(a)
    >>> LA.lu_solve(LU, pivots, np.array([[5.], [11.]]))
    array([[1.],
           [2.]])
    """
    LU, _ = v.makearray(LU)
    B, wrap = v.makearray(B)
    pivots = np.asarray(unbox_all(pivots))
    v.assert_stacked_square(LU)
    v.assert_stacked_2d(B)
    v.check_numeric("lu_solve", LU, B)
    v.check_bool("lu_solve", left=left, adjoint=adjoint)
    n = LU.shape[-1]
    if pivots.dtype.kind not in "iu":
        raise TypeError(v.MESSAGES["pivots_dtype"] % ("lu_solve", pivots.dtype))
    if pivots.shape != LU.shape[:-1]:
        raise ValueError(v.MESSAGES["pivots_shape"] % ("lu_solve", "LU", LU.shape[:-1],
                                                     pivots.shape))
    v.check_pivots("lu_solve", pivots, n)
    if (B.shape[-2] if left else B.shape[-1]) != n:
        raise ValueError(v.MESSAGES["core_mismatch"] % (
            "lu_solve", LU.shape[-2:], B.shape[-2:], "A X = B" if left else "X A = B"))
    if LU.shape[:-2] != B.shape[:-2]:
        np.broadcast_shapes(LU.shape[:-2], B.shape[:-2])
    t, result_t = v.common_type(LU, B)
    x = _lu_solve.call(LU.astype(t, copy=False), pivots.astype(np.int32, copy=False),
                       B.astype(t, copy=False), left=bool(left), adjoint=bool(adjoint))
    if result_t is not t:
        x = x.astype(result_t, copy=False)
    return wrap(x)
