"""The numba SVD kernels (one-sided Jacobi) against NumPy, SciPy, mpmath and identities.

Kernel-level tests call ``linalgx.kernels._svd.svd`` in each compute dtype (float32 computes
in float32 there); linalgx-level tests force the numba backend, where NumPy's pipeline
computes in double. Each (dtype, n <= 3 or not, compute_uv) combination compiles once.
"""
import numpy as np
import pytest
from linalgx.kernels import _svd as ksvd

import linalgx
import linalgx.linalg as LA
from tests.helpers import assert_raises_like, assert_unchanged, random_array

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
IDS = {np.float32: "f32", np.float64: "f64", np.complex64: "c64", np.complex128: "c128"}
SHAPES = [(1, 1), (2, 2), (3, 3), (4, 4), (7, 7), (16, 16), (2, 5), (5, 2), (1, 4), (4, 1)]


_rand = random_array


def _wide(dtype):
    return np.complex128 if np.dtype(dtype).kind == "c" else np.float64


def _mH(x):
    return np.conj(np.swapaxes(x, -1, -2))


def check_svd(a, u, s, vh, full_matrices=True, c=8.0, eps=None):
    """LAPACK-level accuracy: residual, orthogonality, order and agreement with numpy."""
    a64 = a.astype(_wide(a.dtype))
    m, n = a.shape[-2:]
    k = min(m, n)
    eps = np.finfo(a.dtype).eps if eps is None else eps
    ref = np.linalg.svd(a64, compute_uv=False)
    smax = ref[..., :1] if k else 0
    size = max(m, n, 1)
    assert s.shape == a.shape[:-2] + (k,)
    assert np.all(s >= 0) and np.all(np.diff(s, axis=-1) <= 0)
    assert np.all(np.abs(s - ref) <= c * size * eps * smax)
    if u is None:
        return
    assert u.shape == a.shape[:-2] + ((m, m) if full_matrices else (m, k))
    assert vh.shape == a.shape[:-2] + ((n, n) if full_matrices else (k, n))
    rec = (u[..., :, :k].astype(a64.dtype) * s[..., None, :]) @ vh[..., :k, :]
    assert np.all(np.abs(rec - a64).max(axis=(-1, -2)) <= c * size * eps * smax[..., 0])
    for q in (_mH(u) @ u, vh @ _mH(vh)):
        assert np.abs(q - np.eye(q.shape[-1])).max(initial=0) <= c * size * eps


# -- kernel level, in the compute dtype ------------------------------------------------------
@pytest.mark.parametrize("dtype", DTYPES, ids=IDS.get)
def test_kernel_random_shapes(dtype):
    rng = np.random.default_rng(0)
    for shape in SHAPES:
        a = _rand(rng, (6,) + shape, dtype)
        for full in (True, False):
            u, s, vh, info = assert_unchanged(ksvd.svd, a, True, full)
            assert u.dtype == dtype and vh.dtype == dtype
            assert s.dtype == np.empty(0, dtype).real.dtype
            assert not info.any()
            check_svd(a, u, s, vh, full)
        _, s2, _, info = ksvd.svd(a, False)
        assert not info.any()
        check_svd(a, None, s2, None)


def _special(rng, n, dtype):
    """name -> a special n x n matrix (float64 or complex128)."""
    q1 = np.linalg.qr(_rand(rng, (n, n), dtype))[0]
    q2 = np.linalg.qr(_rand(rng, (n, n), dtype))[0]
    rep = np.ones(n)
    rep[n // 2:] = 0.5
    rank1 = np.outer(_rand(rng, n, dtype), _rand(rng, n, dtype))
    return {
        "zero": np.zeros((n, n), dtype),
        "identity": np.eye(n, dtype=dtype),
        "rank1": rank1.astype(dtype),
        "rank_deficient": (q1 * np.r_[1.0, 0.5, np.zeros(n - 2)]) @ q2,
        "repeated": (q1 * rep) @ q2,
        "graded": (q1 * np.logspace(0, -12, n)) @ q2,
        "huge": _rand(rng, (n, n), dtype) * 1e300,
        "tiny": _rand(rng, (n, n), dtype) * 1e-300,
        "subnormal": np.eye(n, dtype=dtype) * 4e-320,
        "permuted_diag": np.eye(n, dtype=dtype)[::-1] * np.arange(1, n + 1),
    }


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=IDS.get)
@pytest.mark.parametrize("n", [2, 3, 6])
def test_kernel_special_matrices(dtype, n):
    rng = np.random.default_rng(n)
    for name, a in _special(rng, n, dtype).items():
        a = np.asarray(a, dtype=dtype)
        u, s, vh, info = ksvd.svd(a, True, True)
        assert not info.any(), name
        scale = max(float(np.abs(a).max()), np.finfo(float).tiny)
        if scale > 1e100 or scale < 1e-100:  # compare in a safe range
            ratio = 2.0 ** -np.frexp(scale)[1]
            check_svd(a * ratio, u, s * ratio, vh)
        else:
            check_svd(a, u, s, vh)


def test_kernel_relative_accuracy_graded():
    """Row-graded matrices D B: one-sided Jacobi gets even the tiny singular values to a few
    ulps relative (Demmel & Veselic 1992), checked against 50-digit mpmath."""
    mpmath = pytest.importorskip("mpmath")
    rng = np.random.default_rng(7)
    for n in (3, 5):
        a = np.logspace(0, -14, n)[:, None] * rng.standard_normal((n, n))
        _, s, _, info = ksvd.svd(a, False)
        with mpmath.workdps(50):
            ref = np.array(sorted((float(x) for x in mpmath.svd_r(mpmath.matrix(a.tolist()),
                                                                   compute_uv=False)),
                                  reverse=True))
        assert not info.any()
        np.testing.assert_allclose(s, ref, rtol=200 * n * np.finfo(float).eps)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128, np.float32, np.complex64],
                         ids=IDS.get)
@pytest.mark.parametrize("n", [2, 3, 4, 7])
def test_kernel_squares_underflow(dtype, n):
    """Matrices graded so far that squared row norms and Gram entries underflow (double: rows
    1e+-80 apart; single precision, whose Gram entries are summed in double: 1e+-8, where
    entries stay normal numbers), and
    [[1, 1], [0, 1e-160]]. The rotations used to stop early there (Vh orthonormal only to
    0.1, small singular values off by 2e-3, or no convergence). Against 2000-bit mpmath:
    row-graded matrices D B keep every singular value to a few ulps relative (Demmel &
    Veselic), and graded rows and columns D1 B D2 LAPACK's absolute accuracy; U and Vh stay
    orthonormal."""
    mpmath = pytest.importorskip("mpmath")
    rng = np.random.default_rng(n)
    cplx = np.dtype(dtype).kind == "c"
    g = 80 if np.finfo(dtype).eps < 1e-10 else 8
    a = _rand(rng, (12, n, n), np.complex128 if cplx else np.float64)
    a *= 10.0 ** rng.uniform(-g, g, (12, n, 1))
    a[6:] *= 10.0 ** rng.uniform(-g, g, (6, 1, n))
    two = np.zeros((n, n))
    two[0, :2], two[1, 1] = 1, (1e-160 if g == 80 else 1e-20)
    a = np.concatenate([a, two[None]]).astype(dtype)
    u, s, vh, info = ksvd.svd(a, True, True)
    assert not info.any()
    eps = np.finfo(dtype).eps
    for q in (_mH(u) @ u, vh @ _mH(vh)):
        assert np.abs(q - np.eye(n)).max() <= 8 * n * eps
    with mpmath.workprec(2000):
        for i in range(len(a)):
            m = mpmath.matrix(a[i].astype(_wide(dtype)).tolist())
            ref = (mpmath.svd_c if cplx else mpmath.svd_r)(m, compute_uv=False)
            ref = np.array(sorted((float(x) for x in ref), reverse=True))
            if 6 <= i < 12:
                assert np.abs(s[i] - ref).max() <= 8 * n * eps * ref[0], i
            else:
                np.testing.assert_allclose(s[i], ref, rtol=200 * n * eps, err_msg=str(i))


@pytest.mark.parametrize("n", [2, 3, 5])
def test_kernel_nonfinite(n):
    a = np.stack([np.eye(n)] * 3)
    a[1, 0, -1] = np.nan
    a[2, -1, 0] = np.inf
    u, s, vh, info = ksvd.svd(a, True, True)
    np.testing.assert_array_equal(info, [0, 1, 1])
    assert np.isnan(s[1:]).all() and np.isnan(u[1:]).all() and np.isnan(vh[1:]).all()
    np.testing.assert_allclose(s[0], 1)


@pytest.mark.parametrize("dtype", DTYPES, ids=IDS.get)
@pytest.mark.parametrize("n", [2, 3, 4, 9])
def test_kernel_small_stack_and_one_matrix_paths(dtype, n):
    """A small C-contiguous stack of square matrices, or one such matrix, runs through one
    jitted call (``svd_stack``); the same input in Fortran order takes the general path.
    Same kernels: the same bits and status codes (a NaN element fails, an exactly singular
    one succeeds with a zero singular value), at LAPACK's accuracy."""
    rng = np.random.default_rng(60 + n)
    a = _rand(rng, (5, n, n), dtype)
    a[1, 0] = 0  # a zero row: an exactly zero singular value
    a[3, 0, 1] = np.nan
    for uv in (True, False):
        got = ksvd.svd(a, uv, True)
        general = ksvd.svd(np.asfortranarray(a), uv, True)
        for x, y in zip(got, general):
            np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(got[3], [0, 0, 0, 1, 0])
        assert np.isnan(got[1][3]).all()
        # exactly zero unless the pivoted QR (from QR_MIN rows) mixes the zero row in
        zero = got[1][1, -1] == 0 if n < ksvd.QR_MIN else \
            got[1][1, -1] <= 8 * n * np.finfo(dtype).eps * got[1][1, 0]
        assert zero
    u, s, vh, _ = ksvd.svd(a, True, True)
    ok = [0, 1, 2, 4]
    check_svd(a[ok], u[ok], s[ok], vh[ok])
    one = a[2].copy()
    u1, s1, vh1, info1 = ksvd.svd(one, True, True)
    assert u1.shape == vh1.shape == (n, n) and s1.shape == (n,) and info1.shape == ()
    for x, y in zip((u1, s1, vh1), ksvd.svd(np.asfortranarray(one), True, True)):
        np.testing.assert_array_equal(x, y)
    check_svd(one, u1, s1, vh1)
    _, s1_only, _, _ = ksvd.svd(one, False)
    np.testing.assert_array_equal(s1_only, s1)


def test_kernel_layouts_and_empty():
    rng = np.random.default_rng(3)
    a = _rand(rng, (4, 3, 3), np.float64)
    want = ksvd.svd(a, False)[1]
    for x in (np.asfortranarray(a), a[::-1][::-1], a.astype(">f8"), a.copy()[:, ::-1, ::-1]):
        x.flags.writeable = False
        got = assert_unchanged(ksvd.svd, x, False)[1]
        np.testing.assert_allclose(got, ksvd.svd(np.ascontiguousarray(x), False)[1])
    np.testing.assert_allclose(ksvd.svd(a.copy()[:, ::-1, ::-1], False)[1], want, rtol=1e-14)
    u, s, vh, info = ksvd.svd(np.zeros((2, 3, 0)), True, True)
    assert u.shape == (2, 3, 3) and s.shape == (2, 0) and vh.shape == (2, 0, 0)
    np.testing.assert_array_equal(u, np.broadcast_to(np.eye(3), (2, 3, 3)))
    u, s, vh, info = ksvd.svd(np.zeros((0, 4, 4)), True, False)
    assert u.shape == (0, 4, 4) and s.shape == (0, 4) and info.shape == (0,)


# -- linalgx level, numba backend ------------------------------------------------------------
def _numpy_svd(a, **kw):
    return np.linalg.svd(a, **kw)


@pytest.mark.parametrize("dtype", DTYPES + [np.int64], ids=lambda d: np.dtype(d).name)
def test_linalg_svd_numba_matches_numpy(dtype):
    rng = np.random.default_rng(11)
    for shape in [(5, 2, 2), (5, 3, 3), (2, 3, 6, 6), (4, 2, 5), (4, 5, 3), (1, 1)]:
        a = (_rand(rng, shape, dtype) * 3).astype(dtype)
        for full in (True, False):
            want = np.linalg.svd(a, full_matrices=full)
            with linalgx.backend("numba"):
                got = assert_unchanged(LA.svd, a, full_matrices=full)
                sv = LA.svdvals(a)
            assert type(got).__name__ == "SVDResult"
            for g, w in zip(got, want):
                assert g.dtype == w.dtype and g.shape == w.shape
            eps = np.finfo(want.S.dtype).eps
            check_svd(a, got.U, got.S, got.Vh, full, eps=eps)
            np.testing.assert_allclose(sv, got.S, rtol=0, atol=20 * eps * float(got.S.max()))


def test_linalg_norms_cond_rank_numba():
    rng = np.random.default_rng(5)
    a = rng.standard_normal((6, 3, 3))
    a[2] = np.outer([1, 2, 3], [1, 0, 1])
    with linalgx.backend("numba"):
        for ord in (2, -2, "nuc"):
            np.testing.assert_allclose(LA.matrix_norm(a, ord=ord),
                                       np.linalg.matrix_norm(a, ord=ord), rtol=1e-13,
                                       atol=1e-14)
        np.testing.assert_array_equal(LA.matrix_rank(a), np.linalg.matrix_rank(a))
        c = LA.cond(a[[0, 1, 3]])
    np.testing.assert_allclose(c, np.linalg.cond(a[[0, 1, 3]]), rtol=1e-12)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_linalg_tiny_singular_value_numba(dtype):
    """[[1, 1], [0, e]] with e = 1e-160 (the second singular value's square underflows), in a
    stack that takes the kernels: s = (sqrt(2), e / sqrt(2)) to first order in e**2, so svd,
    svdvals, cond and norm(ord=-2) are exact to rounding; Vh is orthonormal."""
    e = 1e-160
    a = np.zeros((64, 2, 2), dtype)
    a[:, 0, :] = 1
    a[:, 1, 1] = e
    a[1::2] *= np.exp(0.5j) if np.dtype(dtype).kind == "c" else -1
    want = np.array([np.sqrt(2), e / np.sqrt(2)])
    with linalgx.backend("numba"):
        u, s, vh = LA.svd(a)
        np.testing.assert_allclose(s, np.broadcast_to(want, s.shape), rtol=4e-16)
        np.testing.assert_allclose(LA.svdvals(a), s, rtol=4e-16)
        np.testing.assert_allclose(LA.cond(a), 2 / e, rtol=4e-16)
        np.testing.assert_allclose(LA.matrix_norm(a, ord=-2), e / np.sqrt(2), rtol=4e-16)
    assert np.abs(vh @ _mH(vh) - np.eye(2)).max() <= 4e-16
    np.testing.assert_allclose((u * s[:, None, :]) @ vh, a, rtol=0, atol=4e-16)


def test_linalg_bad_input_numba():
    a = np.stack([np.eye(3)] * 4)
    a[2, 1, 1] = np.nan
    with linalgx.backend("numba"):
        for fn in (LA.svd, LA.svdvals, lambda x: LA.matrix_norm(x, ord=2)):
            e = assert_raises_like(lambda x: np.linalg.svd(x, compute_uv=False), fn, a)
            assert "batch element (2,)" in str(e)
        b = np.stack([np.eye(3)] * 2)
        b[1, 0, 2] = np.inf
        s = LA.matrix_norm(b, ord=2)  # NumPy: NaN for inf, no error
        assert s[0] == 1 and np.isnan(s[1])
        assert_raises_like(np.linalg.svd, LA.svd, np.ones((2, 2), dtype=object))
        assert_raises_like(np.linalg.svd, LA.svd, np.ones(3))


def test_linalg_empty_and_tiny_numba():
    for shape in [(0, 3, 3), (3, 0), (0, 3), (2, 0, 0), (1, 1), (2, 1, 1)]:
        a = np.ones(shape)
        want = np.linalg.svd(a)
        with linalgx.backend("numba"):
            got = LA.svd(a)
        for g, w in zip(got, want):
            assert g.shape == w.shape and g.dtype == w.dtype
            np.testing.assert_allclose(np.abs(g), np.abs(w))


def test_linalg_not_converged_falls_back(monkeypatch):
    """An element Jacobi did not converge on (info 2) is recomputed by LAPACK."""
    monkeypatch.setattr(ksvd, "MAX_SWEEPS", 1)
    a = np.random.default_rng(2).standard_normal((3, 5, 5))
    with linalgx.backend("numba"):
        got = LA.svd(a)
    check_svd(a, got.U, got.S, got.Vh)
