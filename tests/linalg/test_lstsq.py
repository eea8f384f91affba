"""lstsq against NumPy: values, NumPy's tuple and scalar types, empties, errors."""
import inspect

import numpy as np
import pytest

import linalgx.linalg as LA
from tests.cases import cases
from tests.helpers import assert_raises_like, assert_unchanged

pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix


def _tol(dtype):
    return 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10


def _check(got, want):
    assert type(got) is tuple and len(got) == 4
    x, res, rank, s = got
    assert type(rank) is type(want[2]) and rank == want[2]
    for g, w in zip((x, res, s), (want[0], want[1], want[3])):
        assert type(g) is type(w) and g.shape == w.shape and g.dtype == w.dtype
        tol = _tol(w.dtype)
        np.testing.assert_allclose(g, w, rtol=tol * 100, atol=tol * 100 * max(1, abs(w).max(
            initial=0)))


def test_signature():
    assert inspect.signature(LA.lstsq) == inspect.signature(np.linalg.lstsq)


@pytest.mark.parametrize("vector_b", [False, True], ids=["matrix_b", "vector_b"])
@pytest.mark.parametrize("case", [c for c in cases(exclude=("stacked",)) if c.b is not None],
                         ids=repr)
def test_matches_numpy(case, vector_b):
    a, b = case.a, case.b
    if vector_b:
        b = b[:, 0]
    got = assert_unchanged(LA.lstsq, a, b)
    _check(got, np.linalg.lstsq(a, b))


@pytest.mark.parametrize("rcond", [None, -1, 0.3, 1e-3], ids=str)
def test_rcond(rcond):
    a = np.array([[0., 1., 0., 1., 2., 0.], [0., 2., 0., 0., 1., 0.],
                  [1., 0., 1., 0., 0., 4.], [0., 0., 0., 2., 3., 0.]]).T
    b = np.array([1, 0, 0, 0, 0, 0])
    _check(LA.lstsq(a, b, rcond=rcond), np.linalg.lstsq(a, b, rcond=rcond))


@pytest.mark.parametrize("m, n, n_rhs", [(4, 2, 2), (0, 4, 1), (0, 4, 2), (4, 0, 1), (4, 0, 2),
                                         (4, 2, 0), (0, 0, 0)], ids=str)
def test_empty(m, n, n_rhs):
    a = np.arange(m * n).reshape(m, n)
    b = np.ones((m, n_rhs))
    _check(LA.lstsq(a, b), np.linalg.lstsq(a, b))


@pytest.mark.parametrize("dta, dtb", [(np.float32, np.float32), (np.float32, np.float64),
                                      (np.int64, np.float32), (np.complex64, np.float32),
                                      (np.float32, np.complex128), (bool, np.int8)], ids=str)
def test_dtypes(dta, dtb):
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((5, 3)) * 3).astype(dta)
    b = (rng.standard_normal((5, 2)) * 3).astype(dtb)
    _check(LA.lstsq(a, b), np.linalg.lstsq(a, b))


def test_matrix_b():
    a = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    b = np.matrix([[1.0], [2.0], [4.0]])
    x, res, rank, s = LA.lstsq(a, b)
    want = np.linalg.lstsq(a, b)
    assert type(x) is np.matrix and type(res) is np.matrix
    np.testing.assert_allclose(x, want[0])


@pytest.mark.parametrize("a, b", [
    (np.ones((5, 2)), np.ones(4)),
    (np.ones(3), np.ones(3)),
    (np.ones((2, 3, 3)), np.ones((2, 3))),
    (np.ones((3, 2)), np.ones((1, 3, 1))),
    (np.ones((3, 2), np.float16), np.ones(3)),
    (np.ones((3, 2), object), np.ones(3)),
], ids=["incompatible", "1d_a", "3d_a", "3d_b", "float16", "object"])
def test_bad_inputs_like_numpy(a, b):
    assert_raises_like(np.linalg.lstsq, LA.lstsq, a, b)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf], ids=str)
def test_nonfinite_a_raises_silently(bad, capfd):
    a = np.ones((4, 2))
    a[0, 0] = bad
    with pytest.raises(np.linalg.LinAlgError,
                       match="^SVD did not converge in Linear Least Squares"):
        LA.lstsq(a, np.ones(4))
    assert capfd.readouterr().out == ""  # NumPy's OpenBLAS prints DLASCL warnings here


def test_nonfinite_b_propagates():
    a = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    b = np.array([np.nan, 1.0, 2.0])
    got, want = LA.lstsq(a, b), np.linalg.lstsq(a, b)
    np.testing.assert_array_equal(np.isnan(got[0]), np.isnan(want[0]))
    assert got[2] == want[2]
