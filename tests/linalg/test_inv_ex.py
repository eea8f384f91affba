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


@pytest.mark.parametrize("backend", BACKENDS)
def test_ex_fails_wherever_numpy_fails(backend):
    """Matrices with a repeated row, one at a time and stacked: wherever NumPy's inv raises,
    inv_ex and solve_ex report info > 0 (and check_errors=True raises), also where SciPy's
    getrf (another LAPACK build, which the lapack backend asks for the pivot) rounds the
    zero pivot to 1e-16; wherever NumPy succeeds, info == 0."""
    rng = np.random.default_rng(12)
    for n in (3, 4, 5, 6):  # the last: SciPy's getrf ends on |U[5,5]| = 1.1e-16, NumPy's on 0
        x = rng.standard_normal((n, n))
        x[-1] = x[0]
    mats = [x]
    for _ in range(150):
        n = int(rng.integers(3, 7))
        x = rng.standard_normal((n, n))
        x[-1] = x[int(rng.integers(0, n - 1))] * rng.choice([1.0, 2.0, 0.5, 3.0])
        mats.append(x)
    for x in mats:
        try:
            np.linalg.inv(x)
            fails = False
        except LinAlgError:
            fails = True
        b = np.ones((x.shape[0], 1))
        with linalgx.backend(backend):
            for inv_info in (LA.inv_ex(x)[1], LA.solve_ex(x, b)[1],
                             LA.inv_ex(np.stack([x] * 20))[1][7]):
                assert (inv_info > 0) == fails, x
            if fails:
                with pytest.raises(LinAlgError):
                    LA.inv_ex(x, check_errors=True)
