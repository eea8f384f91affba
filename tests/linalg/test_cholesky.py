"""cholesky, cholesky_ex, ldl_factor and ldl_solve against NumPy and SciPy."""
import importlib.util

import numpy as np
import pytest
import scipy.linalg as sla

import linalgx
import linalgx.linalg as LA
from linalgx import LinAlgError, NotPositiveDefiniteError
from tests.cases import cases
from tests.helpers import assert_raises_like, assert_unchanged

pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix

HAS_KERNELS = importlib.util.find_spec("linalgx.kernels.api") is not None
BACKENDS = ["lapack", pytest.param("numba", marks=pytest.mark.skipif(
    not HAS_KERNELS, reason="linalgx.kernels.api not available"))]


def _tol(dtype):
    return 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-9


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("upper", [False, True], ids=["lower", "upper"])
@pytest.mark.parametrize("case", cases("spd") + cases("empty", "square"), ids=repr)
def test_cholesky_matches_numpy(case, upper, backend):
    a = case.a
    with linalgx.backend(backend):
        got = assert_unchanged(LA.cholesky, a, upper=upper)
        got_ex, info = assert_unchanged(LA.cholesky_ex, a, upper=upper)
    want = np.linalg.cholesky(a, upper=upper)
    for g in (got, got_ex):
        assert g.shape == want.shape and g.dtype == want.dtype
        tol = _tol(want.dtype)
        np.testing.assert_allclose(g, want, rtol=tol, atol=tol * max(1.0, np.abs(want).max(
            initial=0)))
    assert info.shape == a.shape[:-2] and info.dtype == np.int32 and not info.any()


def test_cholesky_reads_one_triangle_and_keeps_matrix():
    a = np.array([[4.0, 99.0], [2.0, 3.0]])
    np.testing.assert_allclose(LA.cholesky(a), np.linalg.cholesky(a))
    np.testing.assert_allclose(LA.cholesky(a.T, upper=True), np.linalg.cholesky(a.T, upper=True))
    m = np.matrix([[4.0, 2.0], [2.0, 3.0]])
    assert type(LA.cholesky(m)) is type(np.linalg.cholesky(m))


@pytest.mark.parametrize("backend", BACKENDS)
def test_not_positive_definite_names_element(backend):
    a = np.stack([np.eye(3)] * 4)
    a[2, 1, 1] = -1.0
    with linalgx.backend(backend), pytest.raises(NotPositiveDefiniteError) as e:
        LA.cholesky(a)
    assert str(e.value).startswith("Matrix is not positive definite (cholesky: ")
    assert e.value.batch_index == (2,)
    with linalgx.backend(backend):
        L, info = LA.cholesky_ex(a)
    assert info.tolist() == [0, 0, 2, 0]
    assert np.isnan(L[2]).all() and not np.isnan(L[[0, 1, 3]]).any()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("upper", [False, True], ids=["lower", "upper"])
def test_nan_in_read_triangle_raises(upper, backend):
    # linalgx's policy (NumPy on OpenBLAS returns a partly NaN factor instead)
    a = np.stack([np.eye(3)] * 3)
    i, j = (0, 2) if upper else (2, 0)
    a[1, i, j] = np.nan
    with linalgx.backend(backend), pytest.raises(NotPositiveDefiniteError) as e:
        LA.cholesky(a, upper=upper)
    assert e.value.batch_index == (1,)
    with linalgx.backend(backend):
        _, info = LA.cholesky_ex(a, upper=upper)
    assert info.tolist() == [0, 3, 0]
    a[1, i, j] = 0.0
    a[1, j, i] = np.nan  # the unread triangle is ignored, as by NumPy
    with linalgx.backend(backend):
        np.testing.assert_allclose(LA.cholesky(a, upper=upper)[1], np.eye(3))


@pytest.mark.parametrize("a", [np.ones((2, 3)), np.ones(3), -np.eye(2), np.eye(2, dtype=object),
                               np.eye(2, dtype=np.float16)],
                         ids=["nonsquare", "1d", "notpd", "object", "float16"])
def test_bad_input_like_numpy(a):
    assert_raises_like(np.linalg.cholesky, LA.cholesky, a)


# -- LDL ------------------------------------------------------------------------------------
@pytest.mark.parametrize("hermitian", [False, True], ids=["symmetric", "hermitian"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128], ids=str)
def test_ldl_factor_and_solve(dtype, hermitian):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, 5, 5))
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(x.shape)
    xt = np.swapaxes(x, -1, -2)
    a = (x + (np.conj(xt) if hermitian else xt)).astype(dtype)  # indefinite
    LD, piv = assert_unchanged(LA.ldl_factor, a, hermitian=hermitian)
    assert LD.dtype == dtype and piv.dtype == np.int32 and piv.shape == (3, 5)
    np.testing.assert_array_equal(np.triu(LD, 1), 0)
    name = "hetrf" if hermitian and a.dtype.kind == "c" else "sytrf"
    for k in range(3):
        wld, wpiv, _ = sla.lapack.get_lapack_funcs(name, dtype=a.dtype)(
            a[k].astype(np.result_type(a.dtype, np.float64)), lower=1)
        np.testing.assert_array_equal(piv[k], wpiv)
        np.testing.assert_allclose(LD[k], np.tril(wld), rtol=_tol(dtype), atol=_tol(dtype))
    b = rng.standard_normal((2, 1, 5, 2)).astype(dtype)
    sol = assert_unchanged(LA.ldl_solve, LD, piv, b, hermitian=hermitian)
    assert sol.shape == (2, 3, 5, 2) and sol.dtype == dtype
    np.testing.assert_allclose(a @ sol, np.broadcast_to(b, sol.shape), atol=100 * _tol(dtype))


@pytest.mark.parametrize("dtype, hermitian", [(np.float64, False), (np.complex128, True),
                                              (np.complex128, False)])
def test_ldl_factor_blocked(dtype, hermitian):
    """A matrix large enough for LAPACK's blocked Bunch-Kaufman (?lasyf): the factors and
    pivots of ?sytrf/?hetrf called with their queried workspace, and a solve to rounding."""
    rng = np.random.default_rng(1)
    n = 300
    x = rng.standard_normal((n, n))
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal((n, n))
    a = x + (x.conj().T if hermitian else x.T)
    LD, piv = assert_unchanged(LA.ldl_factor, a, hermitian=hermitian)
    assert LD.flags.f_contiguous  # as sytrf's and torch's: ldl_solve's sytrs copies no LD
    name = ("he" if hermitian and a.dtype.kind == "c" else "sy") + "trf"
    trf, query = sla.lapack.get_lapack_funcs((name, name + "_lwork"), dtype=a.dtype)
    lwork = int(np.real(query(n, lower=1)[0]))
    assert lwork > n  # blocked
    from linalgx.linalg._ldl import _sytrf_workspace  # linalgx asks for the same size
    assert _sytrf_workspace(trf, name, n) == {"lwork": lwork}
    wld, wpiv, info = trf(a, lower=1, lwork=lwork)
    assert info == 0
    np.testing.assert_array_equal(piv, wpiv)
    np.testing.assert_allclose(LD, np.tril(wld), rtol=1e-12, atol=1e-12 * np.abs(wld).max())
    b = rng.standard_normal((n, 3)).astype(dtype)
    sol = LA.ldl_solve(LD, piv, b, hermitian=hermitian)
    np.testing.assert_allclose(a @ sol, b, atol=1e-9 * np.abs(a).max() * np.abs(sol).max())


def test_ldl_errors():
    with pytest.raises(LinAlgError,
                       match=r"^Singular matrix \(ldl_factor: .*D\[0,0\] is zero or NaN"):
        LA.ldl_factor(np.zeros((2, 2, 2)))
    LD, piv = LA.ldl_factor(np.eye(3))
    with pytest.raises(ValueError, match="incompatible shapes"):
        LA.ldl_solve(LD, piv, np.ones((2, 1)))
    with pytest.raises(TypeError, match="pivots must be an integer array"):
        LA.ldl_solve(LD, piv.astype(float), np.ones((3, 1)))
    with pytest.raises(LinAlgError, match="must be square"):
        LA.ldl_factor(np.ones((2, 3)))


def test_cholesky_ex_of_one_matrix_that_is_not_positive_definite():
    """A single matrix (batch shape ()) that fails: info as potrf's, NaN factor, no error."""
    for a, upper, code in ((-np.eye(2), False, 1), (np.array([[1.0, 2.0], [2.0, 1.0]]), True, 2)):
        L, info = LA.cholesky_ex(a, upper=upper)
        assert info.shape == () and int(info) == code
        assert np.isnan(L).all()
