"""Property tests (hypothesis): random batch shapes, sizes, dtypes and layouts give NumPy's
results on both CPU backends, for the ops the numba kernels serve."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import linalgx
import linalgx.linalg as LA

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]


@st.composite
def stacks(draw):
    batch = tuple(draw(st.lists(st.integers(0, 3), max_size=2)))
    n = draw(st.integers(0, 6))
    dtype = np.dtype(draw(st.sampled_from(DTYPES)))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(batch + (n, n)) + 3 * np.eye(n)
    if dtype.kind == "c":
        a = a + 1j * rng.standard_normal(batch + (n, n))
    a = a.astype(dtype)
    layout = draw(st.sampled_from(["C", "F", "neg", "bigendian"]))
    if layout == "F":
        a = np.asfortranarray(a)
    elif layout == "neg":
        a = a[..., ::-1, ::-1]
    elif layout == "bigendian":
        a = a.astype(a.dtype.newbyteorder(">"))
    return a


def _close(ours, theirs, a):
    assert ours.dtype == theirs.dtype and ours.shape == theirs.shape
    tol = 1e-3 if a.dtype in (np.float32, np.complex64) else 1e-9
    scale = max(1.0, float(np.abs(theirs).max())) if theirs.size else 1.0
    np.testing.assert_allclose(ours, theirs, rtol=tol, atol=tol * scale)


@pytest.mark.parametrize("backend", ["lapack", "numba"])
@settings(max_examples=40, deadline=None)
@given(a=stacks())
def test_inv_det_slogdet_solve_cholesky(backend, a):
    spd = a @ np.conj(np.swapaxes(a, -1, -2)) + np.eye(a.shape[-1], dtype=a.dtype)
    b = np.ones(a.shape[:-1] + (2,), dtype=a.dtype)
    with linalgx.backend(backend):
        _close(LA.inv(a), np.linalg.inv(a), a)
        _close(np.asarray(LA.det(a)), np.asarray(np.linalg.det(a)), a)
        s, ld = LA.slogdet(a)
        s_np, ld_np = np.linalg.slogdet(a)
        _close(np.asarray(s), np.asarray(s_np), a)
        _close(np.asarray(ld), np.asarray(ld_np), a)
        _close(LA.solve(a, b), np.linalg.solve(a, b), a)
        _close(LA.cholesky(spd), np.linalg.cholesky(spd), a)
