"""The SciPy LAPACK drivers that routing picks for one large matrix (``DRIVERS`` in the
routing table, written by ``make tune``), forced on small matrices and checked against
NumPy: same values, dtypes and errors as NumPy's own drivers."""
import numpy as np
import pytest

import linalgx.linalg as LA
from linalgx._core import _routing_table as table
from tests.helpers import assert_unchanged

_rng = np.random.default_rng(17)


@pytest.fixture
def force(monkeypatch):
    def set_(op, driver):
        monkeypatch.setattr(table, "DRIVER_MIN_N", 2)
        monkeypatch.setattr(table, "DRIVERS", {op: driver})
    return set_


def _matrix(n, dtype):
    a = _rng.standard_normal((n, n))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * _rng.standard_normal((n, n))
    return a.astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_potrf(force, dtype, upper):
    force("cholesky", "scipy_potrf")
    a = _matrix(40, dtype)
    spd = (a @ a.conj().T + 40 * np.eye(40)).astype(dtype)
    got = assert_unchanged(LA.cholesky, spd, upper=upper)
    want = np.linalg.cholesky(spd, upper=upper)
    assert got.dtype == want.dtype and got.shape == want.shape
    tol = 1e-5 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-12
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * np.abs(want).max())
    lower = got.conj().T if upper else got
    np.testing.assert_allclose(lower @ lower.conj().T, spd, rtol=tol * 10, atol=tol * 100)


@pytest.mark.parametrize("bad", ["negative", "nan_diagonal", "nan_off_diagonal"])
def test_cholesky_potrf_errors(force, bad):
    force("cholesky", "scipy_potrf")
    a = np.eye(8)
    if bad == "negative":
        a[5, 5] = -1.0
    elif bad == "nan_diagonal":
        a[3, 3] = np.nan
    else:
        a[6, 2] = np.nan
    if bad == "negative":
        with pytest.raises(np.linalg.LinAlgError, match="^Matrix is not positive definite"):
            np.linalg.cholesky(a)
    # NaN: NumPy's answer depends on its OpenBLAS (which skips LAPACK's NaN test); linalgx
    # raises on every path, as its docstring says
    with pytest.raises(np.linalg.LinAlgError, match="^Matrix is not positive definite"):
        LA.cholesky(a)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("UPLO", ["L", "U"])
def test_eigvalsh_syevr(force, dtype, UPLO):
    force("eigvalsh", "scipy_syevr")
    a = _matrix(50, dtype)
    h = a + a.conj().T
    if UPLO == "L":  # garbage in the triangle that is not read
        h = h + np.triu(_matrix(50, dtype), 1)
    else:
        h = h + np.tril(_matrix(50, dtype), -1)
    got = assert_unchanged(LA.eigvalsh, h, UPLO)
    want = np.linalg.eigvalsh(h, UPLO)
    assert got.dtype == want.dtype and got.shape == want.shape
    eps = np.finfo(want.dtype).eps
    np.testing.assert_allclose(got, want, rtol=0, atol=50 * 4 * eps * np.abs(want).max())


def test_eigvalsh_syevr_nan_raises_like_lapack_path(force):
    force("eigvalsh", "scipy_syevr")
    a = np.eye(6)
    a[4, 1] = np.nan
    with pytest.raises(np.linalg.LinAlgError, match="^Eigenvalues did not converge"):
        LA.eigvalsh(a)


def test_drivers_only_for_single_large_matrices(force, monkeypatch):
    from linalgx._core import routing

    force("eigvalsh", "scipy_syevr")
    monkeypatch.setattr(table, "DRIVER_MIN_N", 30)
    assert routing.large_driver("eigvalsh", np.eye(30)) == "scipy_syevr"
    assert routing.large_driver("eigvalsh", np.eye(29)) is None
    assert routing.large_driver("eigvalsh", np.eye(30)[None]) is None  # stacks: NumPy's loop
    assert routing.large_driver("cholesky", np.eye(30)) is None


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128])
@pytest.mark.parametrize("kind", ["random", "singular", "huge", "nan"])
def test_det_getrf(force, dtype, kind):
    force("det", "scipy_getrf")
    a = _matrix(30, dtype)
    if kind == "singular":
        a[:, 4] = 0
    elif kind == "huge":
        a = (a * 1e20).astype(dtype)
    elif kind == "nan":
        a[2, 3] = np.nan
    with np.errstate(all="ignore"):
        want = np.linalg.det(a)
        got = assert_unchanged(LA.det, a)
    assert type(got) is type(want)
    tol = 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-11
    np.testing.assert_allclose(got, want, rtol=tol, atol=0, equal_nan=True)
