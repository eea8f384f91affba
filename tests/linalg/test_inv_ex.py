"""inv_ex: a per-element status instead of an exception, on both backends."""
import importlib.util

import numpy as np
import pytest

import linalgx
import linalgx.linalg as LA
from linalgx import LinAlgError
from tests.cases import cases
from tests.helpers import assert_unchanged

HAS_KERNELS = importlib.util.find_spec("linalgx.kernels.api") is not None
BACKENDS = ["lapack", pytest.param("numba", marks=pytest.mark.skipif(
    not HAS_KERNELS, reason="linalgx.kernels.api not available"))]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", cases("square", "nonsingular"), ids=repr)
def test_inv_ex_matches_inv(case, backend):
    with linalgx.backend(backend):
        inverse, info = assert_unchanged(LA.inv_ex, case.a)
    want = np.linalg.inv(case.a)
    assert inverse.shape == want.shape and inverse.dtype == want.dtype
    assert info.shape == case.a.shape[:-2] and info.dtype == np.int32 and not info.any()
    tol = 1e-4 if want.dtype in (np.float32, np.complex64) else 1e-9
    np.testing.assert_allclose(inverse, want, rtol=tol, atol=tol * max(1.0, np.abs(want).max(
        initial=0)))


@pytest.mark.parametrize("backend", BACKENDS)
def test_inv_ex_singular_elements(backend):
    a = np.stack([np.eye(3), np.zeros((3, 3)), [[1, 2, 3], [2, 4, 6], [1, 1, 1]],
                  np.full((3, 3), np.nan), 2 * np.eye(3)])
    with linalgx.backend(backend):
        inverse, info = LA.inv_ex(a)
    assert info[0] == 0 and info[1] == 1 and info[2] > 0 and info[3] == 0 and info[4] == 0
    assert np.isnan(inverse[1]).all() and np.isnan(inverse[2]).all()
    np.testing.assert_allclose(inverse[4], np.eye(3) / 2)
    assert np.isnan(inverse[3]).any()


def test_inv_ex_empty_and_validation():
    inverse, info = LA.inv_ex(np.zeros((0, 2, 2)))
    assert inverse.shape == (0, 2, 2) and info.shape == (0,)
    inverse, info = LA.inv_ex(np.zeros((0, 0)))
    assert inverse.shape == (0, 0) and info.shape == ()
    with pytest.raises(LinAlgError, match="Last 2 dimensions of the array must be square"):
        LA.inv_ex(np.ones((2, 3)))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'inv' input"):
        LA.inv_ex(np.eye(2, dtype=object))
