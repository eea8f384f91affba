"""svd, svdvals, pinv and matrix_rank against NumPy (vectors by invariants)."""
import inspect

import numpy as np
import pytest

import linalgx.linalg as LA
from linalgx import LinAlgError
from tests.cases import cases
from tests.helpers import assert_raises_like, assert_unchanged

pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix

NAMES = ["svd", "svdvals", "pinv", "matrix_rank"]


def _tol(dtype):
    return 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10


def _eye_like(x, k):
    return np.broadcast_to(np.eye(k), x.shape[:-2] + (k, k))


@pytest.mark.parametrize("name", NAMES)
def test_signature(name):
    assert inspect.signature(getattr(LA, name)) == inspect.signature(getattr(np.linalg, name))


# -- svd ------------------------------------------------------------------------------------
@pytest.mark.parametrize("full", [True, False], ids=["full", "reduced"])
@pytest.mark.parametrize("case", cases(exclude=("empty",)), ids=repr)
def test_svd_matches_numpy(case, full):
    a = case.a
    got = assert_unchanged(LA.svd, a, full_matrices=full)
    want = np.linalg.svd(a, full_matrices=full)
    assert type(got) is type(want)
    tol = _tol(want.S.dtype)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
    np.testing.assert_allclose(got.S, want.S, rtol=tol, atol=tol * max(1, want.S.max()))
    u, s, vh = got
    k = s.shape[-1]
    recon = (u[..., :k] * s[..., None, :]) @ vh[..., :k, :]
    np.testing.assert_allclose(recon, a, atol=tol * 10 * max(1, np.abs(a).max()))
    np.testing.assert_allclose(u.conj().swapaxes(-1, -2) @ u, _eye_like(u, u.shape[-1]),
                               atol=tol * 10)
    np.testing.assert_allclose(vh @ vh.conj().swapaxes(-1, -2), _eye_like(vh, vh.shape[-2]),
                               atol=tol * 10)
    s_only = LA.svd(a, compute_uv=False)
    np.testing.assert_allclose(s_only, want.S, rtol=tol, atol=tol * max(1, want.S.max()))
    assert s_only.dtype == want.S.dtype


@pytest.mark.parametrize("case", cases("hermitian"), ids=repr)
def test_svd_hermitian(case):
    a = case.a
    u, s, vh = assert_unchanged(LA.svd, a, hermitian=True)
    want = np.linalg.svd(a, hermitian=True)
    tol = _tol(a.dtype)
    assert (u.dtype, s.dtype, vh.dtype) == (want.U.dtype, want.S.dtype, want.Vh.dtype)
    np.testing.assert_allclose(s, want.S, rtol=tol, atol=tol * s.max())
    assert np.all(s[..., :-1] >= s[..., 1:])
    np.testing.assert_allclose((u * s[..., None, :]) @ vh, a, atol=tol * 10 * np.abs(a).max())
    s_only = LA.svd(a, compute_uv=False, hermitian=True)
    np.testing.assert_allclose(s_only, want.S, rtol=tol, atol=tol * s.max())


@pytest.mark.parametrize("shape", [(4, 0), (0, 4), (0, 0), (0, 3, 3), (2, 0, 3), (2, 3, 0)],
                         ids=str)
@pytest.mark.parametrize("full", [True, False], ids=["full", "reduced"])
def test_svd_empty(shape, full):
    a = np.zeros(shape)
    got, want = LA.svd(a, full_matrices=full), np.linalg.svd(a, full_matrices=full)
    for g, w in zip(got, want):
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_array_equal(g, w)
    assert LA.svd(a, compute_uv=False).shape == want.S.shape
    assert LA.svdvals(a).shape == want.S.shape


def test_svd_matrix_passthrough():
    m = np.matrix([[1.0, 2.0], [3.0, 4.0]])
    u, s, vh = LA.svd(m)
    assert type(u) is np.matrix and type(vh) is np.matrix and type(s) is np.ndarray
    u, s, vh = LA.svd(m, hermitian=True)
    assert type(u) is np.matrix and type(vh) is np.matrix


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128, int,
                                   bool], ids=lambda d: np.dtype(d).name)
def test_svd_dtypes(dtype):
    x = np.array([[1, 0.5], [0.5, 1]]).astype(dtype)
    got, want = LA.svd(x), np.linalg.svd(x)
    assert [g.dtype for g in got] == [w.dtype for w in want]
    assert LA.svdvals(x).dtype == np.linalg.svdvals(x).dtype


@pytest.mark.parametrize("bad", [
    np.ones(3), np.float64(1.0), np.ones((2, 2), np.float16), np.ones((2, 2), np.longdouble),
    np.ones((2, 2), object), np.array([[1.0, np.nan], [0.0, 1.0]]), np.array([["a"]]),
], ids=["1d", "0d", "float16", "longdouble", "object", "nan", "str"])
@pytest.mark.parametrize("name", ["svd", "svdvals", "pinv", "matrix_rank"])
def test_bad_inputs_like_numpy(name, bad):
    np_fn, fn = getattr(np.linalg, name), getattr(LA, name)
    try:
        want = np_fn(bad)
    except Exception:
        assert_raises_like(np_fn, fn, bad)
        return
    np.testing.assert_equal(fn(bad), want)


@pytest.mark.parametrize("name", ["svd", "svdvals", "pinv", "matrix_rank"])
def test_inf_raises_naming_the_element(name):
    a = np.stack([np.eye(3), np.eye(3)])
    a[1, 0, 2] = np.inf
    with pytest.raises(LinAlgError, match=r"^SVD did not converge .*batch element \(1,\)"):
        getattr(LA, name)(a)


def test_nan_raises_svd_conv():
    a = np.array([[1.0, np.nan], [0.0, 1.0]])
    assert_raises_like(np.linalg.svd, LA.svd, a)


# -- pinv -----------------------------------------------------------------------------------
@pytest.mark.parametrize("case", cases(exclude=("empty",)), ids=repr)
def test_pinv_matches_numpy(case):
    got = assert_unchanged(LA.pinv, case.a)
    want = np.linalg.pinv(case.a)
    assert got.shape == want.shape and got.dtype == want.dtype
    tol = _tol(want.dtype)
    np.testing.assert_allclose(got, want, rtol=tol * 100, atol=tol * 100 * np.abs(want).max())


@pytest.mark.parametrize("case", cases("hermitian"), ids=repr)
def test_pinv_hermitian(case):
    got = LA.pinv(case.a, hermitian=True)
    want = np.linalg.pinv(case.a, hermitian=True)
    tol = _tol(want.dtype)
    np.testing.assert_allclose(got, want, rtol=tol * 100, atol=tol * 100 * np.abs(want).max())


@pytest.mark.parametrize("kwargs", [dict(rcond=0.5), dict(rtol=0.5), dict(rtol=None),
                                    dict(rcond=np.array([0.1, 0.9])), dict(rcond=-1)], ids=str)
def test_pinv_cutoffs(kwargs):
    a = np.array([[[1, 2, 3], [4, 1, 1], [2, 3, 1]]] * 2, dtype=float)
    np.testing.assert_allclose(LA.pinv(a, **kwargs), np.linalg.pinv(a, **kwargs), atol=1e-12)


def test_pinv_rtol_and_rcond():
    a = np.eye(2)
    assert_raises_like(np.linalg.pinv, LA.pinv, a, rcond=0.5, rtol=0.5)


@pytest.mark.parametrize("shape", [(3, 0), (0, 3), (0, 0), (2, 0, 4)], ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64], ids=lambda d: d.__name__)
def test_pinv_empty(shape, dtype):
    a = np.zeros(shape, dtype)
    got, want = LA.pinv(a), np.linalg.pinv(a)
    assert got.shape == want.shape and got.dtype == want.dtype


def test_pinv_matrix_and_int():
    m = np.matrix([[1, 2], [3, 4]])
    got = LA.pinv(m)
    assert type(got) is np.matrix
    np.testing.assert_allclose(got, np.linalg.pinv(m))
    assert_raises_like(np.linalg.pinv, LA.pinv, np.eye(2, dtype=int), rtol=None)


# -- matrix_rank ----------------------------------------------------------------------------
_I3 = np.diag([1.0, 1.0, 1.0, 0.0])


@pytest.mark.parametrize("a", [
    np.eye(4), _I3, np.zeros((4, 4)), [1, 0, 0, 0], np.zeros(4), [1], 1, 0.0,
    np.array([_I3, np.eye(4), np.zeros((4, 4))]), np.zeros((0, 0)), np.zeros((0, 5)),
    np.zeros((5, 0)), np.zeros((0, 5, 5)), np.zeros((3, 0, 5)), np.zeros((2, 3, 0, 4)),
    np.ones((3, 4), dtype=np.float32), np.ones((3, 4), dtype=complex),
], ids=lambda a: f"{np.shape(a)}-{np.asarray(a).dtype}")
@pytest.mark.parametrize("kwargs", [{}, dict(tol=0.5), dict(rtol=0.5), dict(hermitian=True)],
                         ids=str)
def test_matrix_rank_matches_numpy(a, kwargs):
    if kwargs.get("hermitian") and np.ndim(a) >= 2 and np.shape(a)[-1] != np.shape(a)[-2]:
        assert_raises_like(np.linalg.matrix_rank, LA.matrix_rank, a, **kwargs)
        return
    got = assert_unchanged(LA.matrix_rank, a, **kwargs)
    want = np.linalg.matrix_rank(a, **kwargs)
    assert type(got) is type(want)
    np.testing.assert_array_equal(got, want)
    if isinstance(want, np.ndarray):
        assert got.dtype == want.dtype and got.shape == want.shape


def test_matrix_rank_tol_arrays():
    a = np.stack([np.diag([1.0, 0.1, 0.01]), np.diag([1.0, 0.1, 0.01])])
    for kw in (dict(tol=np.array([0.05, 0.5])), dict(rtol=np.array([0.005, 0.5]))):
        np.testing.assert_array_equal(LA.matrix_rank(a, **kw), np.linalg.matrix_rank(a, **kw))


def test_matrix_rank_tol_and_rtol():
    assert_raises_like(np.linalg.matrix_rank, LA.matrix_rank, np.eye(2), tol=0.1, rtol=0.1)


@pytest.mark.parametrize("case", cases("strided") + cases("float64", "nonsquare"), ids=repr)
def test_inputs_unchanged(case):
    for fn in (LA.svd, LA.svdvals, LA.pinv, LA.matrix_rank):
        assert_unchanged(fn, case.a)


def test_numba_svd_of_rank_deficient_matrices():
    """The QR preconditioner stopped only at an exactly zero column: on rank-deficient
    matrices of order >= 12 its reflector scale overflowed (inf singular values)."""
    import linalgx
    rng = np.random.default_rng(0)
    mats = [np.ones((n, n)) for n in (12, 14, 20)]
    mats += [np.outer(np.arange(1.0, n + 1), np.ones(n)) for n in (13, 16)]
    mats += [rng.standard_normal((n, r)) @ rng.standard_normal((r, n))
             for n, r in ((12, 3), (18, 9), (25, 1), (30, 0))]
    with linalgx.backend("numba"):
        for a in mats:
            ref = np.linalg.svd(a, compute_uv=False)
            np.testing.assert_allclose(LA.svdvals(a), ref, atol=1e-12 * max(1.0, ref[0]))
            u, s, vh = LA.svd(a)
            np.testing.assert_allclose((u * s) @ vh, a, atol=1e-11 * max(1.0, ref[0]))
            assert LA.matrix_rank(a) == np.linalg.matrix_rank(a)
