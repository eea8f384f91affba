"""eig, eigvals, eigh and eigvalsh against NumPy (vectors by invariants)."""
import numpy as np
import pytest

import linalgx.linalg as LA
from linalgx import ConvergenceError, LinAlgError
from tests.cases import cases
from tests.helpers import assert_raises_like, assert_unchanged

pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix


def _tol(dtype):
    return 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-9


def _sorted(w):
    return np.sort_complex(w) if np.iscomplexobj(w) else np.sort(w, axis=-1)


def _scale(a):
    return max(1.0, float(np.abs(a).max(initial=0)))


@pytest.mark.parametrize("case", cases("square"), ids=repr)
def test_eig_matches_numpy(case):
    a = case.a
    got = assert_unchanged(LA.eig, a)
    want = np.linalg.eig(a)
    assert type(got) is type(want)
    w, v = got
    for g, e in zip((w, v), want):
        assert g.shape == e.shape and g.dtype == e.dtype
    tol = _tol(w.dtype)
    np.testing.assert_allclose(_sorted(w), _sorted(want.eigenvalues), rtol=tol,
                               atol=tol * _scale(a) * 10)
    np.testing.assert_allclose(a @ v, v * w[..., None, :], atol=tol * _scale(a) * 100)
    np.testing.assert_allclose(np.linalg.norm(v, axis=-2), 1, atol=tol)
    wv = assert_unchanged(LA.eigvals, a)
    assert wv.shape == want.eigenvalues.shape and wv.dtype == np.linalg.eigvals(a).dtype
    np.testing.assert_allclose(_sorted(wv), _sorted(want.eigenvalues), rtol=tol,
                               atol=tol * _scale(a) * 10)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=str)
def test_eig_value_dependent_dtype(dtype):
    real = np.diag([1.0, 2.0]).astype(dtype)
    rot = np.array([[0.0, -1.0], [1.0, 0.0]], dtype)
    for a in (real, rot, np.stack([real, rot])):
        assert LA.eig(a).eigenvalues.dtype == np.linalg.eig(a).eigenvalues.dtype
        assert LA.eig(a).eigenvectors.dtype == np.linalg.eig(a).eigenvectors.dtype
        assert LA.eigvals(a).dtype == np.linalg.eigvals(a).dtype


@pytest.mark.parametrize("uplo", ["L", "U", "l", "u"])
@pytest.mark.parametrize("case", cases("hermitian") + cases("empty", "square"), ids=repr)
def test_eigh_matches_numpy(case, uplo):
    a = case.a
    got = assert_unchanged(LA.eigh, a, uplo)
    want = np.linalg.eigh(a, uplo)
    assert type(got) is type(want)
    w, v = got
    for g, e in zip((w, v), want):
        assert g.shape == e.shape and g.dtype == e.dtype
    tol = _tol(v.dtype)
    np.testing.assert_allclose(w, want.eigenvalues, rtol=tol, atol=tol * _scale(a))
    np.testing.assert_allclose(a @ v, v * w[..., None, :], atol=tol * _scale(a) * 10)
    eye = np.broadcast_to(np.eye(a.shape[-1]), v.shape)
    np.testing.assert_allclose(np.conj(np.swapaxes(v, -1, -2)) @ v, eye, atol=tol * 10)
    wv = assert_unchanged(LA.eigvalsh, a, UPLO=uplo)
    want_wv = np.linalg.eigvalsh(a, UPLO=uplo)
    assert wv.shape == want_wv.shape and wv.dtype == want_wv.dtype
    np.testing.assert_allclose(wv, want_wv, rtol=tol, atol=tol * _scale(a))


def test_eigh_reads_one_triangle():
    a = np.array([[2.0, 99.0], [1.0, 3.0]])
    np.testing.assert_allclose(LA.eigvalsh(a), np.linalg.eigvalsh(a))
    np.testing.assert_allclose(LA.eigvalsh(a, "U"), np.linalg.eigvalsh(a, "U"))
    c = np.array([[5 + 2j, 9 - 2j], [0 + 2j, 2 - 1j]])  # imaginary diagonal is ignored
    np.testing.assert_allclose(LA.eigvalsh(c), [1.0, 6.0])


def test_subclass_passthrough():
    m = np.matrix([[2.0, 1.0], [1.0, 3.0]])
    assert type(LA.eigh(m).eigenvectors) is type(np.linalg.eigh(m).eigenvectors)
    assert type(LA.eig(m).eigenvectors) is type(np.linalg.eig(m).eigenvectors)
    assert type(LA.eig(m).eigenvalues) is type(np.linalg.eig(m).eigenvalues)
    assert type(LA.eigvals(m)) is type(np.linalg.eigvals(m))


@pytest.mark.parametrize("fn", ["eigh", "eigvalsh"])
@pytest.mark.parametrize("n", [2, 4, 30])
def test_eigh_nonfinite_in_read_triangle_raises(fn, n):
    # linalgx's policy; NumPy's answer depends on n (NaN, an error, or finite garbage)
    a = np.stack([np.eye(n)] * 3)
    a[1, n - 1, 0] = np.nan
    with pytest.raises(ConvergenceError, match=r"^Eigenvalues did not converge \(") as e:
        getattr(LA, fn)(a)
    assert e.value.batch_index == (1,)
    getattr(LA, fn)(a, UPLO="U")  # the NaN is in the unread triangle
    d = np.diag([1.0, 2.0, 3.0, np.nan])
    with pytest.raises(LinAlgError, match="Eigenvalues did not converge"):
        getattr(LA, fn)(d)


@pytest.mark.parametrize("fn", ["eig", "eigvals"])
@pytest.mark.parametrize("a", [np.array([[1.0, np.nan], [0.0, 1.0]]), np.ones((2, 3)),
                               np.ones(3), np.eye(2, dtype=object), np.eye(2, dtype="m8[s]"),
                               np.eye(2, dtype=np.float16), np.array([[np.inf, 0], [0, 1]])],
                         ids=["nan", "nonsquare", "1d", "object", "timedelta", "float16", "inf"])
def test_eig_bad_input_like_numpy(fn, a):
    assert_raises_like(getattr(np.linalg, fn), getattr(LA, fn), a)


@pytest.mark.parametrize("fn", ["eigh", "eigvalsh"])
@pytest.mark.parametrize("args", [(np.ones((2, 3)),), (np.ones(3),), (np.eye(2), "X"),
                                  (np.eye(2, dtype=object),), (np.eye(2, dtype=np.float16),),
                                  (np.eye(2, dtype=object), "U")],
                         ids=["nonsquare", "1d", "uplo", "object", "float16", "object-U"])
def test_eigh_bad_input_like_numpy(fn, args):
    assert_raises_like(getattr(np.linalg, fn), getattr(LA, fn), *args)


@pytest.mark.parametrize("shape", [(0, 0), (3, 0, 0), (0, 2, 2)], ids=str)
def test_eig_empty(shape):
    a = np.zeros(shape)
    for fn in ("eig", "eigh"):
        for g, w in zip(getattr(LA, fn)(a), getattr(np.linalg, fn)(a)):
            assert g.shape == w.shape and g.dtype == w.dtype
    for fn in ("eigvals", "eigvalsh"):
        g, w = getattr(LA, fn)(a), getattr(np.linalg, fn)(a)
        assert g.shape == w.shape and g.dtype == w.dtype


def test_numba_eigh_near_the_overflow_threshold_as_lapack():
    """Jacobi's rotations overflowed for entries above half the float64 maximum (every
    eigenvalue inf); those elements are redone by LAPACK, which scales first."""
    import linalgx
    a = np.broadcast_to(np.diag([1e308, 2.0, 1.0]), (16, 3, 3)).copy()
    a[3] = np.eye(3)
    with linalgx.backend("numba"):
        w, vecs = LA.eigh(a)
        w1 = LA.eigvalsh(a[0])
    np.testing.assert_array_equal(w, np.linalg.eigh(a).eigenvalues)
    np.testing.assert_allclose(np.abs(vecs[0]), np.abs(np.linalg.eigh(a[0]).eigenvectors))
    np.testing.assert_array_equal(w1, [1.0, 2.0, 1e308])
