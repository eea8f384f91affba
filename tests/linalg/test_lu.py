"""lu, lu_factor and lu_solve against SciPy (torch.linalg semantics)."""
import numpy as np
import pytest
import scipy.linalg as sla

import linalgx
import linalgx.linalg as LA
from linalgx import LinAlgError, SingularMatrixError
from tests.helpers import assert_unchanged, random_array

# Forcing numba runs its kernels for the orders it serves (linalg._lu.NUMBA_MAX_N) and
# LAPACK above; the automatic routing reaches the kernels only once numba is loaded.
BACKENDS = ["lapack", "numba"]


@pytest.fixture(params=BACKENDS)
def backend(request):
    with linalgx.backend(request.param):
        yield request.param

SHAPES = [(4, 4), (5, 3), (3, 5), (2, 4, 4), (2, 3, 5, 2), (1, 1), (0, 0), (3, 0), (2, 0, 3)]


def _rand(shape, dtype, seed=0):
    return random_array(np.random.default_rng(seed), shape, dtype)


def _tol(dtype):
    return 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128], ids=str)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_lu_matches_scipy(shape, dtype, backend):
    a = _rand(shape, dtype)
    P, L, U = assert_unchanged(LA.lu, a)
    m, n = shape[-2:]
    k = min(m, n)
    assert P.shape == shape[:-2] + (m, m) and L.shape == shape[:-2] + (m, k)
    assert U.shape == shape[:-2] + (k, n)
    assert P.dtype == L.dtype == U.dtype == dtype
    if a.size == 0:  # SciPy returns an empty P here; torch (and linalgx) the identity
        np.testing.assert_array_equal(P, np.broadcast_to(np.eye(m), P.shape))
        return
    tol = _tol(dtype)
    wp, wl, wu = sla.lu(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64))
    np.testing.assert_allclose(P, wp, atol=0)
    np.testing.assert_allclose(L, wl, rtol=tol, atol=tol)
    np.testing.assert_allclose(U, wu, rtol=tol, atol=tol)
    np.testing.assert_allclose(P @ L @ U, a, rtol=tol, atol=10 * tol)


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5), (2, 4, 4)], ids=str)
def test_lu_without_pivoting(shape):
    a = _rand(shape, np.float64) + 4 * np.eye(*shape[-2:])
    P, L, U = LA.lu(a, pivot=False)
    assert P.shape == (0,)
    np.testing.assert_allclose(L @ U, a, atol=1e-12)
    np.testing.assert_allclose(np.diagonal(L, axis1=-2, axis2=-1), 1)
    LU, piv = LA.lu_factor(a, pivot=False)
    np.testing.assert_array_equal(piv, np.broadcast_to(np.arange(1, min(shape[-2:]) + 1),
                                                       piv.shape))


def test_lu_singular_does_not_raise(backend):
    a = np.array([[1.0, 2.0], [2.0, 4.0]])
    P, L, U = LA.lu(a)
    assert U[1, 1] == 0
    np.testing.assert_allclose(P @ L @ U, a)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128], ids=str)
@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5), (2, 4, 4), (3, 40, 40), (2, 33, 7)],
                         ids=str)
def test_lu_factor_matches_scipy(shape, dtype, backend):
    a = _rand(shape, dtype)
    LU, piv = assert_unchanged(LA.lu_factor, a)
    assert LU.dtype == dtype and piv.dtype == np.int32
    assert piv.shape == shape[:-2] + (min(shape[-2:]),)
    for idx in np.ndindex(*shape[:-2]):
        wlu, wpiv, _ = sla.lapack.get_lapack_funcs("getrf", dtype=a.dtype)(
            a[idx].astype(np.complex128 if a.dtype.kind == "c" else np.float64))
        np.testing.assert_allclose(LU[idx], wlu, rtol=_tol(dtype), atol=_tol(dtype))
        np.testing.assert_array_equal(piv[idx], wpiv + 1)  # 1-based, as LAPACK and torch


@pytest.mark.parametrize("shape", [(50, 50), (3, 50, 40)], ids=str)
def test_lu_factor_lapack_is_column_major(shape):
    """As getrf returns it and torch's: lu_solve hands it to getrs without a copy. LU given
    in the other order (C, or a numba-path factor) solves the same."""
    a = _rand(shape, np.float64) + 5 * np.eye(*shape[-2:])
    with linalgx.backend("lapack"):
        LU, piv = LA.lu_factor(a)
    for idx in np.ndindex(*shape[:-2]):
        assert LU[idx].flags.f_contiguous
    if shape[-1] == shape[-2]:
        b = _rand(shape[:-1] + (2,), np.float64, seed=2)
        want = np.linalg.solve(a, b)
        with linalgx.backend("lapack"):
            for lu_ in (LU, np.ascontiguousarray(LU)):
                np.testing.assert_allclose(LA.lu_solve(lu_, piv, b), want, rtol=1e-10)


def test_lu_factor_raises_for_exactly_singular(backend):
    a = np.stack([np.eye(2), [[1.0, 2.0], [2.0, 4.0]]])
    with pytest.raises(SingularMatrixError, match=r"^Singular matrix \(lu_factor: ") as e:
        LA.lu_factor(a)
    assert e.value.batch_index == (1,)
    with pytest.raises(LinAlgError, match="at least two-dimensional"):
        LA.lu_factor(np.ones(3))


@pytest.mark.parametrize("adjoint", [False, True], ids=["plain", "adjoint"])
@pytest.mark.parametrize("left", [True, False], ids=["left", "right"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128], ids=str)
def test_lu_solve_matches_solve(dtype, left, adjoint, backend):
    a = _rand((2, 1, 4, 4), dtype) + 2 * np.eye(4, dtype=dtype)
    b = _rand((3, 4, 2) if left else (3, 2, 4), dtype, seed=1)
    LU, piv = LA.lu_factor(a)
    x = assert_unchanged(LA.lu_solve, LU, piv, b, left=left, adjoint=adjoint)
    m = np.conj(np.swapaxes(a, -1, -2)) if adjoint else a
    assert x.shape == (2, 3) + b.shape[-2:] and x.dtype == dtype
    residual = m @ x - b if left else x @ m - b
    np.testing.assert_allclose(residual, 0, atol=50 * _tol(dtype))


def test_lu_solve_bad_input(backend):
    LU, piv = LA.lu_factor(np.eye(3) + 1)
    with pytest.raises(ValueError, match="incompatible shapes"):
        LA.lu_solve(LU, piv, np.ones((2, 1)))
    with pytest.raises(ValueError, match="expected pivots of shape"):
        LA.lu_solve(LU, piv[:2], np.ones((3, 1)))
    with pytest.raises(TypeError, match="pivots must be an integer array"):
        LA.lu_solve(LU, piv.astype(float), np.ones((3, 1)))
    with pytest.raises(LinAlgError, match="at least two-dimensional"):
        LA.lu_solve(LU, piv, np.ones(3))
