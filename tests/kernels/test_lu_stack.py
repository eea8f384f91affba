"""The stacked LU kernels (``kernels._lu_stack`` through ``api.lu_factor``, ``api.lu_solve``
and ``api.solve_triangular``) against SciPy's LAPACK and BLAS, matrix by matrix."""
import numpy as np
import pytest
import scipy.linalg as sla
from linalgx.kernels import _lu_stack, _stack, api

from tests.helpers import random_array

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


_rand = random_array


def _tol(dtype):
    return 2e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-11


def _getrf(a):
    lu, piv, info = sla.lapack.get_lapack_funcs("getrf", dtype=a.dtype)(a)
    return lu, piv + 1, info


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("shape", [(1, 1), (5, 2, 2), (5, 3, 3), (4, 4, 4), (3, 7, 7),
                                   (2, 12, 12), (3, 5, 3), (3, 3, 5), (2, 1, 4), (2, 4, 1)],
                         ids=str)
def test_lu_factor_matches_getrf(shape, dtype):
    rng = np.random.default_rng(sum(shape))
    a = _rand(rng, shape, dtype)
    before = a.copy()
    lu, piv, info = api.lu_factor(a)
    np.testing.assert_array_equal(a, before)
    assert lu.shape == shape and lu.dtype == dtype
    assert piv.shape == shape[:-2] + (min(shape[-2:]),) and piv.dtype == np.int32
    assert info.shape == shape[:-2] and not info.any()
    for idx in np.ndindex(*shape[:-2]):
        wlu, wpiv, _ = _getrf(a[idx])
        np.testing.assert_array_equal(piv[idx], wpiv)  # the same row interchanges
        np.testing.assert_allclose(lu[idx], wlu, rtol=_tol(dtype), atol=_tol(dtype))


def test_lu_factor_exactly_singular_reports_the_first_zero_pivot():
    """An exactly zero pivot is recorded (1-based) and the factorization goes on, as getrf:
    the factors still reproduce the matrix."""
    stack = np.array([
        [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 1.0, 1.0]],  # rows 1 and 2 dependent: U[2, 2] = 0
        [[0.0, 1.0, 2.0], [0.0, 3.0, 4.0], [0.0, 5.0, 7.0]],  # a zero first column
        [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]],  # singular to rounding
        np.zeros((3, 3)),
        np.eye(3),
    ])
    lu, piv, info = api.lu_factor(stack)
    for e in range(len(stack)):
        wlu, wpiv, winfo = _getrf(stack[e])
        assert info[e] == winfo, e
        np.testing.assert_array_equal(piv[e], wpiv)
        np.testing.assert_allclose(lu[e], wlu, atol=1e-15)
        perm = list(range(3))
        for i, p in enumerate(piv[e]):
            perm[i], perm[p - 1] = perm[p - 1], perm[i]
        lower = np.tril(lu[e], -1) + np.eye(3)
        np.testing.assert_allclose(lower @ np.triu(lu[e]), stack[e][perm], atol=1e-14)
    assert info.tolist() == [3, 1, 3, 1, 0]


def test_lu_factor_non_finite_stays_in_its_element():
    rng = np.random.default_rng(1)
    a = _rand(rng, (6, 4, 4), np.float64)
    a[2, 1, 3] = np.nan
    a[4, 0, 0] = np.inf
    lu, piv, info = api.lu_factor(a)
    clean = [0, 1, 3, 5]
    want, _, _ = api.lu_factor(a[clean])
    np.testing.assert_array_equal(lu[clean], want)
    assert np.isnan(lu[2]).any() and not np.isfinite(lu[4]).all()


def test_lu_factor_layouts_and_empty():
    rng = np.random.default_rng(2)
    a = _rand(rng, (4, 5, 5), np.complex128)
    want = api.lu_factor(a)
    for view in (np.asfortranarray(a), a[::-1][::-1], np.swapaxes(np.swapaxes(a, 1, 2), 1, 2)
                 .copy(order="F")):
        for g, w in zip(api.lu_factor(view), want):
            np.testing.assert_array_equal(g, w)
    lu, piv, info = api.lu_factor(np.broadcast_to(a[0], (3, 5, 5)))
    np.testing.assert_array_equal(lu, np.broadcast_to(want[0][0], (3, 5, 5)))
    lu, piv, info = api.lu_factor(np.empty((2, 0, 3)))
    assert lu.shape == (2, 0, 3) and piv.shape == (2, 0) and info.shape == (2,)


def _op(x, trans):
    return x if trans == 0 else (np.swapaxes(x, -1, -2) if trans == 1 else
                                 np.conj(np.swapaxes(x, -1, -2)))


@pytest.mark.parametrize("k", [1, 3, 6], ids=lambda k: f"k{k}")
@pytest.mark.parametrize("trans", [0, 1, 2], ids=["N", "T", "H"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_lu_solve_matches_scipy(dtype, trans, k):
    rng = np.random.default_rng(trans + k)
    n = 6
    a = _rand(rng, (4, n, n), dtype) + 2 * np.eye(n, dtype=dtype)
    b = _rand(rng, (4, n, k), dtype)
    lu, piv, _ = api.lu_factor(a)
    x = api.lu_solve(lu, piv, b, trans)
    assert x.shape == b.shape and x.dtype == dtype
    for e in range(4):
        want = sla.lu_solve(sla.lu_factor(a[e]), b[e], trans=trans)
        np.testing.assert_allclose(x[e], want, rtol=_tol(dtype), atol=_tol(dtype))
    np.testing.assert_allclose(_op(a, trans) @ x, b, atol=20 * _tol(dtype))


@pytest.mark.parametrize("k", [1, 5], ids=lambda k: f"k{k}")
@pytest.mark.parametrize("trans", [0, 1, 2], ids=["N", "T", "H"])
@pytest.mark.parametrize("unit", [False, True], ids=["nonunit", "unit"])
@pytest.mark.parametrize("upper", [False, True], ids=["lower", "upper"])
@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_solve_triangular_matches_scipy(dtype, upper, unit, trans, k):
    rng = np.random.default_rng(k + 2 * trans)
    n = 7
    a = _rand(rng, (3, n, n), dtype) + 3 * np.eye(n, dtype=dtype)
    b = _rand(rng, (3, n, k), dtype)
    x = api.solve_triangular(a, b, upper, unit, trans)
    for e in range(3):
        want = sla.solve_triangular(a[e], b[e], trans=trans, lower=not upper,
                                    unit_diagonal=unit)
        np.testing.assert_allclose(x[e], want, rtol=_tol(dtype), atol=_tol(dtype))


def test_solve_triangular_zero_diagonal_gives_inf_or_nan():
    a = np.array([[[0.0, 1.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]]])
    with np.errstate(all="ignore"):
        x = api.solve_triangular(a, np.ones((2, 2, 1)), True)
    assert not np.isfinite(x[0]).all() and (x[1] == 1).all()


def test_lu_solve_refuses_out_of_range_pivots():
    lu, piv, _ = api.lu_factor(np.eye(3)[None] + 1)
    b = np.ones((1, 3, 1))
    for bad in (0, 4, -1):
        p = piv.copy()
        p[0, 1] = bad
        with pytest.raises(ValueError, match="batch element 0"):
            api.lu_solve(lu, p, b)


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
def test_zero_diagonal_in_every_dtype_gives_non_finite(dtype):
    """A zero U[i, i] or triangle diagonal (a singular factor) gives inf or NaN in every
    dtype, complex included, where numba's own complex division would raise."""
    a = np.zeros((2, 3, 3), dtype=dtype)
    a[1] = np.eye(3)
    for k in (1, 5):
        b = np.ones((2, 3, k), dtype=dtype)
        with np.errstate(all="ignore"):
            x = api.solve_triangular(a, b, True)
            y = api.lu_solve(a, np.tile(np.arange(1, 4, dtype=np.int32), (2, 1)), b, 2)
        for r in (x, y):
            assert not np.isfinite(r[0]).any() and (r[1] == 1).all()
        # the inf / NaN pattern of BLAS's own trsm on the singular element
        trsm = sla.blas.get_blas_funcs("trsm", dtype=a.dtype)
        with np.errstate(all="ignore"):
            want = trsm(1.0, a[0], b[0])
        np.testing.assert_array_equal(np.isnan(x[0]), np.isnan(want))
        np.testing.assert_array_equal(np.isinf(x[0]), np.isinf(want))


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=str)
@pytest.mark.parametrize("n", range(1, _lu_stack.FIXED_MAX_N + 1))
def test_lu_solve_fixed_order_kernels_are_the_generic_ones_bitwise(n, dtype):
    """The kernels compiled per order (real, one right-hand side, no transpose) give the
    generic kernel's bits: row interchanges, a zero diagonal's inf/NaN, and elements whose
    pivots are out of range (left untouched, flagged)."""
    rng = np.random.default_rng(n)
    a = rng.standard_normal((300, n, n)).astype(dtype)
    lu, piv, _ = api.lu_factor(a)
    lu[5, n - 1, n - 1] = 0  # a singular factor
    piv[7, 0] = n + 1  # pivots sytrs/getrs cannot read
    b = rng.standard_normal((300, n, 1)).astype(dtype)
    want, got = b.copy(), b.copy()
    bad_want, bad_got = np.zeros(300, np.int8), np.zeros(300, np.int8)
    with np.errstate(all="ignore"):
        _lu_stack.getrs_stack(lu, piv, want, 0, bad_want)
        _stack.fixed(n).getrs_one(lu, piv, got, 0, bad_got)
    np.testing.assert_array_equal(got.view(np.uint8), want.view(np.uint8))
    np.testing.assert_array_equal(bad_got, bad_want)
    assert bad_got[7] == 1 and (got[7] == b[7]).all()
