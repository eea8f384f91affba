"""ldl_factor and ldl_solve: Bunch-Kaufman LDL^T / LDL^H (torch.linalg semantics)."""
import numpy as np

from .._core import routing
from .._core import validate as v
from .._core.lapack import all_finite, optimal_workspace
from .._core.op import Op
from .._core.results import LDLFactorExResult, LDLFactorResult
from .._core.xputil import ndim_of, unbox_all
from ._solve import broadcast_batch
from ._triangular import batch_indices, tril_np

__all__ = ["ldl_factor", "ldl_factor_ex", "ldl_solve"]

_ldl_factor = Op("ldl_factor", nout=3)
_ldl_solve = Op("ldl_solve")


def _ldl_name(name, dtype, hermitian):
    return name.replace("sy", "he") if hermitian and dtype.kind == "c" else name


def _ldl_routine(name, dtype, hermitian):
    from scipy.linalg import lapack
    return lapack.get_lapack_funcs(_ldl_name(name, dtype, hermitian), dtype=dtype)


def _sytrf_workspace(sytrf, kind, n):
    # the wrapper's default (n) is ?sytrf's minimum, with which it runs unblocked (?sytf2):
    # 2.3x slower than with the queried size at n = 1000, 5.5x at 2000
    return optimal_workspace(sytrf, kind, n, ("lwork",), lower=1)


@_ldl_factor.impl("lapack")
def _ldl_factor_lapack(a, hermitian):
    batch = a.shape[:-2]
    n = a.shape[-1]
    # each factor column-major, as sytrf returns it (and as torch's): ldl_solve's sytrs
    # then takes it without a copy (at n = 256 the copy of a C-ordered LD took 3x the solve)
    ld = np.zeros(batch + (n, n), dtype=a.dtype).swapaxes(-1, -2)
    piv = np.zeros(batch + (n,), dtype=np.int32)
    info = np.zeros(batch, dtype=np.int32)
    if ld.size == 0:
        return ld, piv, info
    sytrf = _ldl_routine("sytrf", a.dtype, hermitian)
    workspace = _sytrf_workspace(sytrf, _ldl_name("sytrf", a.dtype, hermitian), n)
    for idx in batch_indices(batch):
        f, piv[idx], code = sytrf(a[idx], lower=1, **workspace)
        ld[idx] = tril_np(f)  # sytrf leaves the other triangle untouched; torch zeroes it
        info[idx] = max(code, 0)
    return ld, piv, info


@_ldl_solve.impl("lapack")
def _ldl_solve_lapack(ld, pivots, b, hermitian):
    v.check_pivots("ldl_solve", pivots, ld.shape[-1], blocks=True)
    ld, b, batch = broadcast_batch(ld, b)
    pivots = np.broadcast_to(pivots, batch + pivots.shape[-1:])
    out = np.empty(b.shape, dtype=b.dtype)
    if out.size == 0:
        return out
    sytrs = _ldl_routine("sytrs", ld.dtype, hermitian)
    for idx in batch_indices(batch):
        out[idx] = sytrs(ld[idx], pivots[idx], b[idx], lower=1)[0]
    return out


# Largest order the numba kernels (``kernels/_ldl.py``, LAPACK's unblocked ?sytf2/?hetf2 and
# ?sytrs/?hetrs) serve, stacks and single matrices alike. Up to 64 ?sytrf runs ?sytf2
# itself, and the LAPACK path calls SciPy's wrappers once per matrix from Python. Measured
# here, LAPACK path / numba (float64; complex128 within 0.2 of it): 20,000 3x3 ldl_factor
# 30x, ldl_solve 13x; 200 stacked 16x16 3.4x / 3.6x, 64x64 1.9x / 1.3x; one 16x16 1.4x /
# 3.8x, one 64x64 1.1x / 1.5x.
NUMBA_MAX_N = 64
for _op in (_ldl_factor, _ldl_solve):
    _op.def_route(routing.order_router(NUMBA_MAX_N, single_max_n=NUMBA_MAX_N))


def _small(a):
    return 0 < a.shape[-1] <= NUMBA_MAX_N and a.size and all_finite(a)


@_ldl_factor.impl("numba")
def _ldl_factor_numba(a, hermitian):
    if not _small(a):
        return _ldl_factor_lapack(a, hermitian)
    ld, piv, info, near = routing.kernels_api().ldl_factor(a, hermitian)
    routing.mark_loaded("ldl_factor")
    if near.any():  # rounding could have chosen a pivot: LAPACK's choice (see kernels/_ldl)
        return routing.redo_flagged(near, (ld, piv, info), _ldl_factor_lapack, (a,), hermitian)
    return ld, piv, info


@_ldl_solve.impl("numba")
def _ldl_solve_numba(ld, pivots, b, hermitian):
    if not (_small(ld) and b.size and all_finite(b)):
        return _ldl_solve_lapack(ld, pivots, b, hermitian)
    x, bad = routing.kernels_api().ldl_solve(ld, pivots, b, hermitian)
    routing.mark_loaded("ldl_solve")
    if bad.any():
        if (bad == 2).any():  # pivots sytrs cannot read: the LAPACK path's check names one
            return _ldl_solve_lapack(ld, pivots, b, hermitian)
        # singular blocks of D, overflows: LAPACK's inf/NaN
        ld, b, batch = broadcast_batch(ld, b)
        pivots = np.broadcast_to(pivots, batch + pivots.shape[-1:])
        return routing.redo_flagged(bad, x, _ldl_solve_lapack, (ld, pivots, b), hermitian)
    return x


def _no_ldl_derivative(*args, **params):
    raise NotImplementedError(
        "ldl_factor is not differentiable (Bunch-Kaufman pivoting, as in torch.linalg); "
        "differentiate through solve or cholesky instead")


_ldl_factor.def_jvp(_no_ldl_derivative)
_ldl_factor.def_vjp(_no_ldl_derivative)


# ldl_solve is linear in B: X = A^{-1} B with A symmetric (A^H = conj(A)) or Hermitian
# (A^H = A), so B_bar = A^{-H} X_bar. The derivative in LD is not implemented: the VJP
# says NotImplemented and the engine raises NotImplementedError if LD is traced.
@_ldl_solve.def_jvp
def _ldl_solve_jvp(xp, tangents, out, ld, pivots, b, hermitian):
    t_ld, _, t_b = tangents
    if t_ld is not None:
        _no_ldl_derivative()
    return ldl_solve(ld, pivots, xp.align(t_b, ndim_of(b), ndim_of(out)), hermitian=hermitian)


@_ldl_solve.def_vjp
def _ldl_solve_vjp(xp, g, out, ld, pivots, b, hermitian):
    nb = ndim_of(g) - ndim_of(out)
    if hermitian or ld.dtype.kind != "c":
        gb = ldl_solve(ld, pivots, g, hermitian=hermitian)
    else:
        gb = xp.conj(ldl_solve(ld, pivots, xp.conj(g), hermitian=hermitian))
    return NotImplemented, None, xp.unbroadcast(gb, b.shape, nb)


def ldl_factor(a, *, hermitian=False):
    """
    Compact LDL factorization of symmetric or Hermitian (possibly indefinite) matrices.

    Parameters
    ----------
    a : (..., N, N) array_like
        Symmetric (or Hermitian, with `hermitian`) matrices; only the lower
        triangle is read.
    hermitian : bool, optional
        For complex input, factor ``a = L D L^H`` (True) instead of
        ``a = L D L^T`` (False, default). No effect for real input.

    Returns
    -------
    A namedtuple ``LDLFactorResult`` with the attributes:

    LD : (..., N, N) ndarray
        ``L`` and the block-diagonal ``D`` in LAPACK sytrf's compact lower
        form (the strict upper triangle is zero).
    pivots : (..., N) ndarray of int32
        LAPACK sytrf's pivots (1-based; negative entries mark 2x2 blocks).

    Raises
    ------
    LinAlgError
        If `a` is not a stack of square matrices, or ``D`` is exactly singular
        (as torch.linalg.ldl_factor).

    See Also
    --------
    ldl_solve, scipy.linalg.ldl

    Notes
    -----
    Autodiff: not differentiable (as in torch.linalg).

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.array([[4., 2.], [2., 3.]])
    >>> LD, pivots = LA.ldl_factor(a)
    >>> LD
    array([[4. , 0. ],
           [0.5, 2. ]])
    >>> pivots
    array([1, 2], dtype=int32)
    """
    ld, piv, info = _factor("ldl_factor", a, hermitian)
    v.raise_on_info(info, "singular_d", "ldl_factor", info.shape)
    return LDLFactorResult(ld, piv)


def _factor(func, a, hermitian):
    a, wrap = v.makearray(a)
    v.assert_stacked_square(a)
    v.check_numeric(func, a)
    v.check_bool(func, hermitian=hermitian)
    t, result_t = v.common_type(a)
    ld, piv, info = _ldl_factor(a.astype(t, copy=False), hermitian=bool(hermitian))
    return wrap(ld.astype(result_t, copy=False)), unbox_all(piv), unbox_all(info)


def ldl_factor_ex(a, *, hermitian=False, check_errors=False):
    """
    Compact LDL factorization with a per-element status instead of an exception.

    Parameters
    ----------
    a : (..., N, N) array_like
        Symmetric (or Hermitian, with `hermitian`) matrices; only the lower
        triangle is read.
    hermitian : bool, optional
        As `ldl_factor`.
    check_errors : bool, optional
        Raise `ldl_factor`'s exception for the first element whose ``D`` is exactly
        singular instead (torch's keyword). Default False.

    Returns
    -------
    A namedtuple ``LDLFactorExResult`` with the attributes:

    LD, pivots : ndarray
        As `ldl_factor`, for every element.
    info : (...) ndarray of int32
        0 where ``D`` is nonsingular, ``i > 0`` where ``D[i-1, i-1]`` is exactly zero
        (LAPACK sytrf's and torch.linalg.ldl_factor_ex's convention).

    Raises
    ------
    LinAlgError
        If `a` is not a stack of square matrices; for a singular ``D`` only with
        ``check_errors=True``.

    See Also
    --------
    ldl_factor, ldl_solve, torch.linalg.ldl_factor_ex

    Notes
    -----
    Autodiff: not differentiable (as in torch.linalg).

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> LD, pivots, info = LA.ldl_factor_ex(np.stack([np.eye(2), np.zeros((2, 2))]))
    >>> info
    array([0, 1], dtype=int32)
    """
    v.check_bool("ldl_factor_ex", check_errors=check_errors)
    ld, piv, info = _factor("ldl_factor_ex", a, hermitian)
    if check_errors:
        v.raise_on_info(info, "singular_d", "ldl_factor_ex", info.shape)
    return LDLFactorExResult(ld, piv, info)


def ldl_solve(LD, pivots, B, *, hermitian=False):
    """
    Solve ``A X = B`` given the compact LDL factorization of `A` from `ldl_factor`.

    Parameters
    ----------
    LD : (..., N, N) array_like
        The compact factor from `ldl_factor`.
    pivots : (..., N) array_like of int
        The pivots from `ldl_factor`.
    B : (..., N, K) array_like
        Right-hand sides; batch dimensions broadcast against those of `LD`.
    hermitian : bool, optional
        Must match the value given to `ldl_factor`.

    Returns
    -------
    X : (..., N, K) ndarray
        The solutions.

    Raises
    ------
    LinAlgError
        If `LD` is not a stack of square matrices or `B` is less than 2-D.
    ValueError
        If the shapes of `LD`, `pivots` and `B` do not fit together.
    TypeError
        If `pivots` is not an integer array.

    See Also
    --------
    ldl_factor, solve

    Notes
    -----
    Autodiff: differentiable in `B` only.

    Examples
    --------
    >>> import numpy as np
    >>> import linalgx.linalg as LA
    >>> a = np.array([[4., 2.], [2., 3.]])
    >>> LD, pivots = LA.ldl_factor(a)
    >>> LA.ldl_solve(LD, pivots, np.array([[6.], [5.]]))
    array([[1.],
           [1.]])
    """
    LD, _ = v.makearray(LD)
    B, wrap = v.makearray(B)
    pivots = np.asarray(unbox_all(pivots))
    v.assert_stacked_square(LD)
    v.assert_stacked_2d(B)
    v.check_numeric("ldl_solve", LD, B)
    v.check_bool("ldl_solve", hermitian=hermitian)
    if pivots.dtype.kind not in "iu":
        raise TypeError(v.MESSAGES["pivots_dtype"] % ("ldl_solve", pivots.dtype))
    if pivots.shape != LD.shape[:-1]:
        raise ValueError(v.MESSAGES["pivots_shape"] % ("ldl_solve", "LD", LD.shape[:-1],
                                                       pivots.shape))
    if B.shape[-2] != LD.shape[-1]:
        raise ValueError(v.MESSAGES["core_mismatch"] % (
            "ldl_solve", LD.shape[-2:], B.shape[-2:], "A X = B"))
    np.broadcast_shapes(LD.shape[:-2], B.shape[:-2])
    if pivots.dtype != np.int32:  # checked before the cast could wrap them into range
        v.check_pivots("ldl_solve", pivots, LD.shape[-1], blocks=True)
    t, result_t = v.common_type(LD, B)
    x = _ldl_solve(LD.astype(t, copy=False), pivots.astype(np.int32, copy=False),
                   B.astype(t, copy=False), hermitian=bool(hermitian))
    return wrap(x.astype(result_t, copy=False))
