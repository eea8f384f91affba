"""The numba Jacobi eigh kernels (linalgx.kernels._eigh) and the numba eigh/eigvalsh impls.

Accuracy is checked against NumPy's LAPACK and by invariants (residual, orthogonality,
ascending order) at LAPACK's level, c * n * eps * ||A||, on random, graded, nearly and
exactly degenerate, zero, diagonal, tiny and huge matrices, for the four dtypes. Each
(kernel, dtype) pair compiles once (cached on disk afterwards).
"""
import numpy as np
import pytest
from linalgx.kernels import _eigh

import linalgx
import linalgx.linalg as LA
from linalgx import ConvergenceError
from linalgx._core import routing
from linalgx.linalg import _eig
from tests.helpers import assert_unchanged

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
IDS = {np.float32: "f32", np.float64: "f64", np.complex64: "c64", np.complex128: "c128"}
KINDS = ["random", "graded", "near_degenerate", "identity", "repeated", "zero", "diagonal",
         "tiny", "huge"]
BATCH = 6


def _rand(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x


def _unitary(rng, n, dtype):
    q, _ = np.linalg.qr(_rand(rng, (BATCH, n, n), dtype))
    return q


def _from_spectrum(rng, w, dtype):
    q = _unitary(rng, w.shape[-1], dtype)
    return (q * w[..., None, :]) @ np.conj(np.swapaxes(q, -1, -2))


def _matrix(kind, n, dtype, rng):
    """A (BATCH, n, n) Hermitian stack of the given kind, in dtype."""
    real = np.finfo(dtype).dtype
    x = _rand(rng, (BATCH, n, n), dtype)
    herm = x + np.conj(np.swapaxes(x, -1, -2))
    if kind == "random":
        a = herm
    elif kind == "graded":  # entries spanning 10 orders of magnitude
        g = 10.0 ** -np.linspace(0, 10, n)
        a = herm * g[:, None] * g[None, :]
    elif kind == "near_degenerate":
        w = np.ones((BATCH, n)) + 1e-9 * rng.standard_normal((BATCH, n))
        w[:, 0] = -2.0
        a = _from_spectrum(rng, w, dtype)
    elif kind == "identity":
        a = np.broadcast_to(np.eye(n), (BATCH, n, n))
    elif kind == "repeated":  # an exactly repeated eigenvalue in a rotated basis
        w = np.repeat(np.array([[-1.0, 3.0]]), (n + 1) // 2, axis=1)[:, :n]
        a = _from_spectrum(rng, np.broadcast_to(w, (BATCH, n)), dtype)
    elif kind == "zero":
        a = np.zeros((BATCH, n, n))
    elif kind == "diagonal":
        a = np.zeros((BATCH, n, n))
        a[:, np.arange(n), np.arange(n)] = rng.standard_normal((BATCH, n))
    elif kind == "tiny":
        a = herm * (1e-300 if real == np.float64 else 1e-35)
    else:  # huge: squares overflow unless the kernel scales first
        a = herm * (1e300 if real == np.float64 else 1e35)
    return np.ascontiguousarray(a).astype(dtype)


def _check(a, w, v, upper=False):
    """Ascending w, residual, orthogonality and eigenvalues vs NumPy at c * n * eps * ||A||."""
    n = a.shape[-1]
    real = np.finfo(a.dtype).dtype
    eps = np.finfo(real).eps
    big = np.complex128 if a.dtype.kind == "c" else np.float64
    tri = np.triu(a) if upper else np.tril(a)
    ah = tri + np.conj(np.swapaxes(tri, -1, -2))
    ah[..., np.arange(n), np.arange(n)] = a[..., np.arange(n), np.arange(n)].real
    ah = ah.astype(big)
    scale = np.abs(ah).max(axis=(-2, -1), keepdims=True)[..., 0] * n
    scale = np.where(scale > 0, scale, 1)
    tol = 20 * n * eps
    assert np.all(np.diff(w, axis=-1) >= 0)
    want = np.linalg.eigvalsh(ah).astype(real)
    assert np.all(np.abs(w - want) <= tol * scale)
    if v is not None:
        vh = v.astype(big)
        wh = w.astype(np.float64)
        # residual relative to ||A||, computed without overflow for 1e300-scale input
        res = np.abs((ah / scale[..., None]) @ vh - vh * (wh / scale)[..., None, :])
        assert res.max(initial=0) <= tol
        eye = np.eye(n)
        assert np.abs(np.conj(np.swapaxes(vh, -1, -2)) @ vh - eye).max(initial=0) <= tol


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: IDS[d])
@pytest.mark.parametrize("n", [2, 3, 4, 7, 12], ids=lambda n: f"n{n}")
def test_numba_eigh_accuracy(dtype, n):
    rng = np.random.default_rng(n)
    with linalgx.backend("numba"):
        for kind in KINDS:
            a = _matrix(kind, n, dtype, rng)
            for uplo in "LU":
                w, v = assert_unchanged(LA.eigh, a, uplo)
                want = np.linalg.eigh(a, uplo)
                assert (w.dtype, v.dtype, w.shape, v.shape) == (
                    want.eigenvalues.dtype, want.eigenvectors.dtype,
                    want.eigenvalues.shape, want.eigenvectors.shape), kind
                _check(a, w, v, uplo == "U")
                wv = assert_unchanged(LA.eigvalsh, a, uplo)
                assert wv.dtype == want.eigenvalues.dtype
                _check(a, wv, None, uplo == "U")
    assert {"eigh", "eigvalsh"} <= routing._loaded_kernels  # the numba impls ran


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=str)
@pytest.mark.parametrize("n", [2, 3, 4, 7, 12], ids=lambda n: f"n{n}")
def test_scaling_at_the_ends_of_the_exponent_range(dtype, n):
    # the power of two that brings a matrix near 1 must itself be representable: subnormal
    # entries (2**1029 overflowed: all NaN) and entries above 2**1023 (2**1024: all inf)
    rng = np.random.default_rng(n)
    herm = _matrix("random", n, dtype, rng)
    tiny = herm / np.abs(herm).max() * 1e-309
    huge = np.zeros((BATCH, n, n), dtype)
    d = rng.uniform(-1.0, 1.0, (BATCH, n)) * 1.7e308
    huge[:, np.arange(n), np.arange(n)] = d
    with linalgx.backend("numba"):
        for a in (tiny, huge):
            w, v = LA.eigh(a)
            want = np.linalg.eigvalsh(a)
            np.testing.assert_allclose(w, want, rtol=1e-13, atol=64 * n * 5e-324)
            np.testing.assert_allclose(LA.eigvalsh(a), want, rtol=1e-13, atol=64 * n * 5e-324)
            assert np.isfinite(v).all()
        np.testing.assert_array_equal(LA.eigvalsh(huge), np.sort(d, axis=-1))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: IDS[d])
def test_kernel_native_precision_and_triangle(dtype):
    """The kernel in the input's own precision, reading only the selected triangle and the
    real part of the diagonal (NaN in the other triangle is never read)."""
    rng = np.random.default_rng(7)
    for n, kind in [(2, "random"), (3, "random"), (5, "random"), (2, "huge"), (3, "tiny"),
                    (4, "repeated"), (3, "graded")]:
        a = _matrix(kind, n, dtype, rng)
        for upper in (False, True):
            junk = a.copy()
            other = np.tril_indices(n, -1) if upper else np.triu_indices(n, 1)
            junk[:, other[0], other[1]] = np.nan
            if junk.dtype.kind == "c":
                junk[:, np.arange(n), np.arange(n)] += 5j
            w, v, info = _eigh.eigh(junk, upper)
            assert not info.any()
            assert w.dtype == np.finfo(dtype).dtype and v.dtype == dtype
            _check(a, w, v, upper)


def test_kernel_layouts_and_batch_shapes():
    rng = np.random.default_rng(3)
    a = _matrix("random", 3, np.float64, rng).reshape(2, 3, 3, 3)
    w0, v0, _ = _eigh.eigh(a)
    fortran = np.asfortranarray(a)
    readonly = a.copy()
    readonly.flags.writeable = False
    for x in (fortran, a[::-1][::-1], readonly, a.astype(">f8")):
        w, v, info = assert_unchanged(_eigh.eigh, x)
        assert w.shape == (2, 3, 3) and info.shape == (2, 3)
        np.testing.assert_array_equal(w, w0)
        np.testing.assert_array_equal(v, v0)
    w, v, info = _eigh.eigh(a, compute_v=False)
    assert v is None
    np.testing.assert_array_equal(w, w0)
    with pytest.raises(TypeError, match="unsupported dtype"):
        _eigh.eigh(np.eye(3, dtype=np.float16))
    with pytest.raises(ValueError, match="expected a"):
        _eigh.eigh(np.ones((2, 3)))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: IDS[d])
@pytest.mark.parametrize("n", [2, 3, 5])
def test_small_stack_and_one_matrix_paths(dtype, n):
    """A small C-contiguous stack, or one C-contiguous matrix, runs through one jitted call
    (``eigh_stack``); the same input in Fortran order takes the general path. Both run the
    same kernels on the same blocks: the same bits, NumPy's eigenvalues to LAPACK's level
    and one-matrix results of one matrix's shapes."""
    rng = np.random.default_rng(40 + n)
    a = _matrix("random", n, dtype, rng).astype(dtype)
    eps = np.finfo(dtype).eps
    for upper in (False, True):
        w, v, info = _eigh.eigh(a, upper)
        w_g, v_g, info_g = _eigh.eigh(np.asfortranarray(a), upper)
        np.testing.assert_array_equal(w, w_g)
        np.testing.assert_array_equal(v, v_g)
        assert not info.any() and not info_g.any()
        ref = np.linalg.eigvalsh(a.astype(np.complex128 if a.dtype.kind == "c" else float),
                                 UPLO="U" if upper else "L")
        scale = np.abs(ref).max(axis=-1, keepdims=True)
        assert np.all(np.abs(w - ref) <= 8 * n * eps * scale)
        w_only, none, _ = _eigh.eigh(a, upper, compute_v=False)
        assert none is None
        np.testing.assert_array_equal(w_only, w)
        one = a[2].copy()
        w1, v1, info1 = _eigh.eigh(one, upper)
        w1_g, v1_g, _ = _eigh.eigh(np.asfortranarray(one), upper)
        assert w1.shape == (n,) and v1.shape == (n, n) and info1.shape == () and info1 == 0
        np.testing.assert_array_equal(w1, w1_g)
        np.testing.assert_array_equal(v1, v1_g)
        assert np.all(np.abs(w1 - ref[2]) <= 8 * n * eps * scale[2])


@pytest.mark.parametrize("layout", ["stack", "matrix", "fortran"])
def test_overflowed_elements_are_redone_by_lapack(layout):
    """Entries above half the float64 maximum overflow Jacobi's rotations (every eigenvalue
    inf); the kernels' boundary redoes those elements with NumPy's LAPACK, on both paths,
    with and without eigenvectors. An element whose true eigenvalue is inf stays inf."""
    a = np.stack([np.diag([1e308, 2.0, 1.0]), np.full((3, 3), 1e308), np.eye(3)])
    if layout == "matrix":
        a = a[0].copy()
    elif layout == "fortran":
        a = np.asfortranarray(a)
    redone = slice(None) if layout == "matrix" else slice(0, 2)
    want_w, want_v = np.linalg.eigh(a)
    for compute_v in (True, False):
        w, v, info = _eigh.eigh(a, False, compute_v)
        if not compute_v:  # NumPy's eigvalsh: another LAPACK path, other rounding noise
            want_w = np.linalg.eigvalsh(a)
        np.testing.assert_array_equal(w[redone], want_w[redone])  # LAPACK's bits
        np.testing.assert_allclose(w[redone.stop:], want_w[redone.stop:], rtol=1e-15)
        assert not info.any()
        if compute_v:
            np.testing.assert_array_equal(v[redone], want_v[redone])
    if layout != "matrix":
        assert np.isinf(w[1]).any()


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_nonfinite_raises_like_lapack(n):
    a = np.stack([np.eye(n)] * 4)
    a[2, -1, 0] = np.nan if n > 1 else 0
    a[2, -1, -1] = np.inf
    for func in (LA.eigh, LA.eigvalsh):
        with linalgx.backend("lapack"), pytest.raises(ConvergenceError) as want:
            func(a)
        with linalgx.backend("numba"), pytest.raises(ConvergenceError) as got:
            func(a)
        assert str(got.value) == str(want.value)
        assert got.value.batch_index == (2,)
    w, v, info = _eigh.eigh(a)
    np.testing.assert_array_equal(info, [0, 0, 1, 0])
    assert np.isnan(w[2]).all() and np.isnan(v[2]).all() and not np.isnan(w[[0, 1, 3]]).any()
    if n > 1:  # NaN in the triangle that is not read is ignored, as in LAPACK
        b = np.eye(n)
        b[0, -1] = np.nan
        with linalgx.backend("numba"):
            np.testing.assert_allclose(LA.eigvalsh(b), np.ones(n))


def test_nonconvergence_is_reported(monkeypatch):
    rng = np.random.default_rng(5)
    a = _matrix("random", 4, np.float64, rng)
    monkeypatch.setattr(_eigh, "MAX_SWEEPS", 1)
    w, v, info = _eigh.eigh(a)
    assert info.all() and np.isnan(w).all() and np.isnan(v).all()
    with linalgx.backend("numba"), pytest.raises(ConvergenceError,
                                                 match=r"^Eigenvalues did not converge \(eigh: "
                                                       r"batch element \(0,\)"):
        LA.eigh(a)


def test_empty_and_trivial_sizes():
    with linalgx.backend("numba"):
        for shape in [(0, 3, 3), (2, 0, 0), (0, 0), (3, 1, 1), (1, 1)]:
            a = np.full(shape, 2.0)
            w, v = LA.eigh(a)
            want = np.linalg.eigh(a)
            assert w.shape == want.eigenvalues.shape and v.shape == want.eigenvectors.shape
            np.testing.assert_array_equal(w, want.eigenvalues)
            np.testing.assert_array_equal(v, want.eigenvectors)
            assert LA.eigvalsh(a).shape == want.eigenvalues.shape
        with pytest.raises(TypeError):
            LA.eigh(np.eye(2, dtype=object))


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=str)
def test_above_kernel_range_delegates_to_lapack(dtype):
    rng = np.random.default_rng(9)
    big = max(max(v) for v in _eig.NUMBA_MAX_N.values()) + 3
    a = _matrix("random", big, dtype, rng)[:2]
    with linalgx.backend("numba"):
        w, v = LA.eigh(a)
        wv = LA.eigvalsh(a, "U")
    np.testing.assert_array_equal(w, np.linalg.eigh(a).eigenvalues)
    np.testing.assert_array_equal(wv, np.linalg.eigvalsh(a, "U"))
