"""The SciPy LAPACK drivers that routing picks for one large matrix (``DRIVERS`` in the
routing table, written by ``make tune``), forced on small matrices and checked against
NumPy: same values, dtypes and errors as NumPy's own drivers. Every candidate that
benchmarks/drivers.py can choose is here (test_every_candidate_is_tested)."""
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
        monkeypatch.setattr(table, "DRIVERS", {op: ((2, driver),)})
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


def _hermitian(n, dtype, UPLO):
    a = _matrix(n, dtype)
    h = a + a.conj().T
    if UPLO == "L":  # garbage in the triangle that is not read
        return h + np.triu(_matrix(n, dtype), 1)
    return h + np.tril(_matrix(n, dtype), -1)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
@pytest.mark.parametrize("UPLO", ["L", "U"])
@pytest.mark.parametrize("driver", ["scipy_syevd", "scipy_syevr"])
def test_eigvalsh_scipy(force, dtype, UPLO, driver):
    force("eigvalsh", driver)
    h = _hermitian(50, dtype, UPLO)
    got = assert_unchanged(LA.eigvalsh, h, UPLO)
    want = np.linalg.eigvalsh(h, UPLO)
    assert got.dtype == want.dtype and got.shape == want.shape
    eps = np.finfo(want.dtype).eps
    np.testing.assert_allclose(got, want, rtol=0, atol=50 * 4 * eps * np.abs(want).max())


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
@pytest.mark.parametrize("UPLO", ["L", "U"])
def test_eigh_syevd(force, dtype, UPLO):
    force("eigh", "scipy_syevd")
    n = 50
    h = _hermitian(n, dtype, UPLO)
    w, vecs = assert_unchanged(LA.eigh, h, UPLO)
    want_w, want_v = np.linalg.eigh(h, UPLO)
    assert (w.dtype, vecs.dtype, vecs.shape) == (want_w.dtype, want_v.dtype, want_v.shape)
    assert vecs.flags.c_contiguous  # as NumPy's
    eps = np.finfo(w.dtype).eps
    scale = np.abs(want_w).max()
    np.testing.assert_allclose(w, want_w, rtol=0, atol=4 * n * eps * scale)
    full = np.tril(h) + np.tril(h, -1).conj().T if UPLO == "L" else \
        np.triu(h) + np.triu(h, 1).conj().T
    np.testing.assert_allclose(full @ vecs, vecs * w, rtol=0, atol=4 * n * eps * scale)
    np.testing.assert_allclose(vecs.conj().T @ vecs, np.eye(n), rtol=0, atol=4 * n * eps)
    # NumPy's driver on the same matrix: the same eigenvectors, signs (phases) included
    np.testing.assert_allclose(vecs, want_v, rtol=0, atol=100 * n * eps)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
@pytest.mark.parametrize("full_matrices", [True, False])
def test_svd_gesdd(force, dtype, full_matrices):
    force("svd", "scipy_gesdd")
    n = 40
    a = _matrix(n, dtype)
    u, s, vh = assert_unchanged(LA.svd, a, full_matrices)
    want = np.linalg.svd(a, full_matrices)
    for got_x, want_x in zip((u, s, vh), want):
        assert got_x.dtype == want_x.dtype and got_x.shape == want_x.shape
    assert u.flags.c_contiguous and vh.flags.c_contiguous
    eps = np.finfo(s.dtype).eps
    # NumPy's driver on the same matrix: the same singular vectors, signs included
    np.testing.assert_allclose(u, want.U, rtol=0, atol=100 * n * eps)
    np.testing.assert_allclose(vh, want.Vh, rtol=0, atol=100 * n * eps)
    np.testing.assert_allclose(s, want.S, rtol=0, atol=4 * n * eps * s[0])
    np.testing.assert_allclose((u * s) @ vh, a, rtol=0, atol=4 * n * eps * s[0])
    np.testing.assert_allclose(u.conj().T @ u, np.eye(n), rtol=0, atol=4 * n * eps)
    np.testing.assert_allclose(vh @ vh.conj().T, np.eye(n), rtol=0, atol=4 * n * eps)


def test_svd_gesdd_leaves_nan_to_numpys_error(force):
    force("svd", "scipy_gesdd")
    a = np.eye(6)
    a[2, 4] = np.nan
    with pytest.raises(np.linalg.LinAlgError, match="^SVD did not converge"):
        np.linalg.svd(a)
    with pytest.raises(np.linalg.LinAlgError, match="^SVD did not converge"):
        LA.svd(a)


@pytest.mark.parametrize("func, driver", [
    ("eigh", "scipy_syevd"), ("eigvalsh", "scipy_syevd"), ("eigvalsh", "scipy_syevr")])
def test_eigh_scipy_nan_raises_like_lapack_path(force, func, driver):
    force(func, driver)
    a = np.eye(6)
    a[4, 1] = np.nan
    with pytest.raises(np.linalg.LinAlgError, match="^Eigenvalues did not converge"):
        getattr(LA, func)(a)


def test_drivers_only_for_single_large_double_matrices(force, monkeypatch):
    from linalgx._core import routing

    force("eigvalsh", "scipy_syevr")
    monkeypatch.setattr(table, "DRIVER_MIN_N", 30)
    assert routing.large_driver("eigvalsh", np.eye(30)) == "scipy_syevr"
    assert routing.large_driver("eigvalsh", np.eye(30, dtype=complex)) == "scipy_syevr"
    assert routing.large_driver("eigvalsh", np.eye(29)) is None
    assert routing.large_driver("eigvalsh", np.eye(30)[None]) is None  # stacks: NumPy's loop
    assert routing.large_driver("eigvalsh", np.ones((30, 31))) is None  # measured square
    # single precision: NumPy computes in double, and so does linalgx
    assert routing.large_driver("eigvalsh", np.eye(30, dtype=np.float32)) is None
    assert routing.large_driver("eigvalsh", np.eye(30, dtype=np.complex64)) is None
    assert routing.large_driver("cholesky", np.eye(30)) is None


def test_driver_size_ranges(monkeypatch):
    from linalgx._core import routing

    monkeypatch.setattr(table, "DRIVER_MIN_N", 10)
    monkeypatch.setattr(table, "DRIVERS", {
        "eigh": ((10, "scipy_syevr"), (20, "scipy_syevd"), (30, "numpy"))})
    got = {n: routing.large_driver("eigh", np.eye(n)) for n in (9, 10, 19, 20, 29, 30, 99)}
    assert got == {9: None, 10: "scipy_syevr", 19: "scipy_syevr", 20: "scipy_syevd",
                   29: "scipy_syevd", 30: None, 99: None}


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


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_inv_getri(force, dtype):
    force("inv", "scipy_getri")
    n = 40
    a = _matrix(n, dtype)
    got = assert_unchanged(LA.inv, a)
    want = np.linalg.inv(a)
    assert got.dtype == want.dtype and got.shape == want.shape and got.flags.c_contiguous
    eps = np.finfo(got.dtype).eps
    cond = np.linalg.cond(a)
    np.testing.assert_allclose(got, want, rtol=0, atol=4 * n * eps * cond * np.abs(want).max())
    np.testing.assert_allclose(a @ got, np.eye(n), rtol=0, atol=4 * n * eps * cond)


@pytest.mark.parametrize("kind", ["singular", "nan", "inf"])
def test_inv_getri_bad_input_as_numpy(force, kind):
    force("inv", "scipy_getri")
    a = _matrix(12, np.float64)
    if kind == "singular":
        a[:, 5] = 0
        with pytest.raises(np.linalg.LinAlgError, match="^Singular matrix"):
            np.linalg.inv(a)
        with pytest.raises(np.linalg.LinAlgError, match="^Singular matrix"):
            LA.inv(a)
        return
    a[3, 7] = np.nan if kind == "nan" else np.inf
    with np.errstate(all="ignore"):
        want = np.linalg.inv(a)
        got = LA.inv(a)
    np.testing.assert_array_equal(np.isnan(got), np.isnan(want))


def test_every_candidate_is_tested():
    """A driver ``make tune`` can choose must be one this file checks (and the lapack backend
    calls: an unknown name in DRIVERS would silently stay on NumPy's path)."""
    from benchmarks.drivers import candidates

    tested = {("inv", "scipy_getri"),
              ("cholesky", "scipy_potrf"), ("det", "scipy_getrf"), ("eigh", "scipy_syevd"),
              ("eigvalsh", "scipy_syevd"), ("eigvalsh", "scipy_syevr"), ("svd", "scipy_gesdd")}
    offered = {(op, d) for op, row in candidates(4, _rng).items() for d in row if d != "numpy"}
    assert offered == tested


@pytest.mark.parametrize("kind, compute_v, minimum", [
    ("syevr", 0, lambda n: {"lwork": 26 * n, "liwork": 10 * n}),
    ("syevd", 1, lambda n: {"lwork": 1 + 6 * n + 2 * n * n, "liwork": 3 + 5 * n}),
    ("heevr", 0, lambda n: {"lwork": 2 * n, "lrwork": 24 * n, "liwork": 10 * n}),
    ("heevd", 1, lambda n: {"lwork": 2 * n + n * n, "lrwork": 1 + 5 * n + 2 * n * n,
                            "liwork": 3 + 5 * n}),
])
def test_eigen_drivers_get_lapacks_workspace(kind, compute_v, minimum):
    """The SciPy wrappers' default workspace is LAPACK's minimum, with which ?hetrd runs
    unblocked (heevr's eigvalsh at n = 2000 took 1.4 s against 1.06 s); linalgx passes the
    sizes LAPACK's workspace query asks for: at least the documented minimums, and for
    heevr (minimum 2n) a blocked reduction's."""
    from scipy.linalg import get_lapack_funcs

    from linalgx.linalg._eig import _workspace

    n = 1000
    solver = get_lapack_funcs(kind, dtype=np.complex128 if kind.startswith("he") else np.float64)
    sizes = _workspace(solver, kind, n, compute_v, 1)
    assert set(sizes) == set(minimum(n))
    for name, least in minimum(n).items():
        assert sizes[name] >= least, name
    if kind == "heevr":
        assert sizes["lwork"] >= 8 * n
