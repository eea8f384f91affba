"""qr (every mode) and householder_product against NumPy and SciPy, on both CPU backends
(the numba kernels serve finite matrices up to order 16; larger ones and non-finite input
fall back to LAPACK)."""
import warnings

import numpy as np
import pytest
import scipy.linalg as sla

import linalgx
import linalgx.linalg as LA
from tests.cases import cases
from tests.helpers import assert_raises_like, assert_unchanged, random_array

pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix

MODES = ["reduced", "complete", "r", "raw"]
SHAPES = [(5, 3), (3, 5), (4, 4), (2, 5, 3), (2, 3, 5), (0, 3), (3, 0), (0, 0), (2, 0, 3),
          (0, 2, 2)]


@pytest.fixture(params=["lapack", "numba"])
def backend(request):
    with linalgx.backend(request.param):
        yield request.param


def _tol(dtype):
    return 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-10


def _as_tuple(r):
    return r if isinstance(r, tuple) else (r,)


def _check_like(got, want):
    assert type(got) is type(want)
    for g, w in zip(_as_tuple(got), _as_tuple(want)):
        assert type(g) is type(w) and g.shape == w.shape and g.dtype == w.dtype
        tol = _tol(w.dtype)
        scale = max(1.0, float(np.abs(np.asarray(w)).max(initial=0)))
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol * scale)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", cases(exclude=("int",)), ids=repr)
def test_qr_matches_numpy(case, mode, backend):
    # the same LAPACK calls as NumPy: Q and R agree elementwise, not only up to signs
    got = assert_unchanged(LA.qr, case.a, mode)
    _check_like(got, np.linalg.qr(case.a, mode))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shape", SHAPES, ids=str)
def test_qr_shapes_and_invariants(shape, mode, backend):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shape) + 1j * rng.standard_normal(shape)
    got = LA.qr(a, mode)
    _check_like(got, np.linalg.qr(a, mode))
    if mode in ("reduced", "complete"):
        q, r = got
        np.testing.assert_allclose(q @ r, a, atol=1e-12)
        eye = np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2)
        np.testing.assert_allclose(np.conj(np.swapaxes(q, -1, -2)) @ q, eye, atol=1e-12)
        np.testing.assert_array_equal(np.tril(r, -1), 0)


def _with_vectors_checked(a, q, r):
    tol = _tol(a.dtype) * 10
    scale = max(1.0, float(np.abs(a).max()))
    np.testing.assert_allclose(q @ r, a, rtol=tol, atol=tol * scale)
    eye = np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2)
    np.testing.assert_allclose(np.conj(np.swapaxes(q, -1, -2)) @ q, eye, atol=tol)


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128], ids=str)
@pytest.mark.parametrize("kind", ["tiny", "huge", "zero_column", "real_diagonal", "rank1",
                                  "subnormal"])
def test_qr_reflector_edge_cases(kind, dtype, backend):
    """?larfg's branches: a zero column below the diagonal (tau = 0; complex: only with a
    real alpha), columns whose norm needs rescaling (below tiny / eps, where ?larfg scales
    up), near overflow, rank deficiency; stacks of 16 small matrices and a single 12x12
    one, against NumPy's LAPACK (R's diagonal signs included) and the identities."""
    rng = np.random.default_rng(7)
    a = random_array(rng, (16, 5, 4), dtype)
    big = random_array(rng, (12, 12), dtype)
    info = np.finfo(dtype)
    for x in (a, big):
        if kind == "tiny":
            x *= info.tiny * 4
        elif kind == "huge":
            x *= info.max / 8
        elif kind == "zero_column":
            x[..., 1:, 0] = 0
            x[..., 2:, 2] = 0
        elif kind == "real_diagonal":
            x[..., 1:, 0] = 0
            x[..., 0, 0] = x[..., 0, 0].real
        elif kind == "rank1":
            x[...] = x[..., :, :1] * x[..., :1, :]
        else:
            x *= info.smallest_subnormal * 64
        for mode in MODES:
            got = LA.qr(x, mode)
            want = np.linalg.qr(x, mode)
            if kind not in ("tiny", "huge", "subnormal"):
                _check_like(got, want)
            else:  # each output relative to its own scale, however small or large
                for g, w in zip(_as_tuple(got), _as_tuple(want)):
                    assert g.shape == w.shape and g.dtype == w.dtype
                    assert np.isfinite(g).all() and np.isfinite(w).all()
                    tol = _tol(dtype) * (1e3 if kind == "subnormal" else 10)
                    np.testing.assert_allclose(g, w, rtol=tol, atol=tol * np.abs(w).max())
        if kind not in ("tiny", "subnormal", "huge"):
            _with_vectors_checked(x, *LA.qr(x))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128], ids=str)
@pytest.mark.parametrize("shape", [(400, 3, 3), (400, 2, 2), (200, 4, 3), (200, 3, 4),
                                   (100, 6, 6)], ids=str)
def test_qr_integer_valued_as_numpys(shape, dtype, backend):
    """Integer-valued matrices make Householder steps whose alpha, or whose entries below
    the diagonal, are exactly zero in exact arithmetic: which of +-beta (or tau = 0) comes
    out is then a matter of rounding. The numba path hands those elements to LAPACK (about
    one in six here), so Q, R and tau are NumPy's elementwise, signs included."""
    rng = np.random.default_rng(sum(shape))
    a = rng.integers(-2, 3, shape).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.integers(-1, 2, shape)
    for mode in MODES:
        _check_like(LA.qr(a, mode), np.linalg.qr(a, mode))


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
def test_qr_nonfinite_as_numpys(bad, backend):
    a = np.random.default_rng(3).standard_normal((6, 4, 3))
    a[1, 2, 0] = bad
    a[4, 0, 2] = bad
    for mode in MODES:
        for g, w in zip(_as_tuple(LA.qr(a, mode)), _as_tuple(np.linalg.qr(a, mode))):
            np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
            np.testing.assert_allclose(g, w, rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("a", [np.array([[1, 2], [3, 4]], dtype=object),
                               np.array([["1", "2"], ["3", "4.5"]]),
                               np.array([[1, 2], [3, 4]], dtype="M8[D]"),
                               np.array([[True, False], [True, True]]),
                               np.array([[1, 2], [3, 4]], dtype=np.int8)],
                         ids=["object", "str", "datetime", "bool", "int8"])
def test_qr_accepts_what_astype_accepts(a):
    for mode in MODES:
        _check_like(LA.qr(a, mode), np.linalg.qr(a, mode))


def test_qr_subclass_and_deprecated_modes():
    m = np.matrix([[1.0, 2.0], [3.0, 4.0]])
    for mode in MODES:
        _check_like(LA.qr(m, mode), np.linalg.qr(m, mode))
    for mode in ("f", "full", "e", "economic"):
        with warnings.catch_warnings(record=True) as got_w:
            warnings.simplefilter("always")
            got = LA.qr(m, mode)
        with warnings.catch_warnings(record=True) as want_w:
            warnings.simplefilter("always")
            want = np.linalg.qr(m, mode)
        _check_like(got, want)
        assert [(w.category, str(w.message)) for w in got_w] == [
            (w.category, str(w.message)) for w in want_w]
        assert got_w[0].filename == __file__  # stacklevel points at the caller


@pytest.mark.parametrize("args", [(np.eye(2), "bogus"), (np.eye(2), "R"), (np.ones(3),),
                                  (np.eye(2, dtype=np.float16),), (np.eye(2), ("x",))],
                         ids=["bogus", "case", "1d", "float16", "tuple-mode"])
def test_qr_bad_input_like_numpy(args):
    assert_raises_like(np.linalg.qr, LA.qr, *args)


# -- householder_product --------------------------------------------------------------------
@pytest.mark.parametrize("k", [0, 1, 3], ids=lambda k: f"k{k}")
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64, np.complex128], ids=str)
def test_householder_product_matches_lapack(dtype, k, backend):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((2, 5, 3))
    tau = rng.standard_normal((2, k))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(a.shape)
        tau = tau + 1j * rng.standard_normal(tau.shape)
    a, tau = a.astype(dtype), tau.astype(dtype)
    q = assert_unchanged(LA.householder_product, a, tau)
    assert q.shape == a.shape and q.dtype == dtype
    wide = np.result_type(dtype, np.float64)
    orgqr = sla.lapack.get_lapack_funcs("orgqr" if a.dtype.kind == "f" else "ungqr", dtype=wide)
    for i in range(2):
        want = np.eye(5, 3) if k == 0 else orgqr(a[i].astype(wide), tau[i].astype(wide),
                                                  lwork=64)[0]
        np.testing.assert_allclose(q[i], want, rtol=_tol(dtype), atol=_tol(dtype))


def test_householder_product_inverts_raw_qr(backend):
    a = np.random.default_rng(2).standard_normal((3, 6, 4))
    h, tau = LA.qr(a, mode="raw")
    np.testing.assert_allclose(LA.householder_product(np.swapaxes(h, -1, -2), tau),
                               np.linalg.qr(a).Q, atol=1e-12)


@pytest.mark.parametrize("shapes", [((3, 4), (2,)), ((5, 3), (4,)), ((2, 5, 3), (3, 2)),
                                    ((5, 3), ())], ids=str)
def test_householder_product_bad_shapes(shapes):
    with pytest.raises(ValueError, match="householder_product: expected input"):
        LA.householder_product(np.ones(shapes[0]), np.ones(shapes[1]))
