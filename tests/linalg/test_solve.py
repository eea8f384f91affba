"""solve, solve_ex, tensorsolve and solve_triangular against NumPy and SciPy."""
import importlib.util

import numpy as np
import pytest
import scipy.linalg as sla

import linalgx
import linalgx.linalg as LA
from linalgx import LinAlgError, SingularMatrixError
from tests.cases import cases
from tests.helpers import assert_raises_like, assert_unchanged

pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix

HAS_KERNELS = importlib.util.find_spec("linalgx.kernels.api") is not None
BACKENDS = ["lapack", pytest.param("numba", marks=pytest.mark.skipif(
    not HAS_KERNELS, reason="linalgx.kernels.api not available"))]


def _tol(dtype):
    return 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-9


def assert_close(got, want):
    assert got.shape == want.shape and got.dtype == want.dtype
    tol = _tol(want.dtype)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, np.abs(want).max(
        initial=0)))


def _rhs(case):
    return case.b if case.b is not None else np.ones(case.a.shape[:-1] + (2,), case.a.dtype)


# -- solve ----------------------------------------------------------------------------------
@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", cases("square", "nonsingular"), ids=repr)
def test_solve_matches_numpy(case, backend):
    a, b = case.a, _rhs(case)
    with linalgx.backend(backend):
        got = assert_unchanged(LA.solve, a, b)
        got_vec = assert_unchanged(LA.solve, a, b[(0,) * (b.ndim - 2) + (slice(None), 0)])
    assert_close(got, np.linalg.solve(a, b))
    assert_close(got_vec, np.linalg.solve(a, b[(0,) * (b.ndim - 2) + (slice(None), 0)]))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("shapes", [((1, 3, 3), (2, 3, 1)), ((3, 3), (4, 3, 2)),
                                    ((4, 3, 3), (3,)), ((2, 1, 3, 3), (5, 3, 2)),
                                    ((0, 3, 3), (0, 3, 1)), ((0, 0), (0, 2)), ((3, 3), (3, 0))],
                         ids=str)
def test_solve_broadcasting_and_empty(shapes, backend):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shapes[0]) + 3 * np.eye(shapes[0][-1])
    b = rng.standard_normal(shapes[1])
    with linalgx.backend(backend):
        got = LA.solve(a, b)
    assert_close(got, np.linalg.solve(a, b))


@pytest.mark.parametrize("args", [
    (np.ones((4, 3, 3)), np.ones((4, 3))),
    (np.ones((4, 3, 3)), np.ones((5, 3, 1))),
    (np.eye(3), np.ones(4)),
    (np.eye(3), 5.0),
    (np.ones((3, 4)), np.ones(3)),
    (np.ones(3), np.ones(3)),
    (np.eye(2, dtype=object), np.ones(2)),
    (np.eye(2), np.array(["1", "2"])),
    (np.eye(2, dtype=np.float16), np.ones(2)),
    (np.array([[1.0, 2.0], [2.0, 4.0]]), np.ones(2)),
], ids=["core-mismatch", "batch-mismatch", "vector-mismatch", "scalar-b", "nonsquare", "1d",
        "object", "str-b", "float16", "singular"])
def test_solve_bad_input_like_numpy(args):
    assert_raises_like(np.linalg.solve, LA.solve, *args)


@pytest.mark.parametrize("backend", BACKENDS)
def test_solve_names_singular_batch_element(backend):
    a = np.stack([np.eye(3)] * 5)
    a[3] = 0
    with linalgx.backend(backend), pytest.raises(SingularMatrixError,
                                                  match=r"^Singular matrix \(solve: ") as e:
        LA.solve(a, np.ones((5, 3, 1)))
    assert e.value.batch_index == (3,)
    assert "batch element (3,) of batch shape (5,)" in str(e.value)


@pytest.mark.parametrize("backend", BACKENDS)
def test_solve_nan_propagates_per_element(backend):
    a = np.stack([np.eye(2), np.eye(2)])
    a[1, 0, 1] = np.nan
    b = np.ones((2, 2, 1))
    with linalgx.backend(backend):
        got = LA.solve(a, b)
    np.testing.assert_array_equal(got[0], np.ones((2, 1)))
    assert np.isnan(got[1]).any()


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_solve_and_inv_1x1_overflow_inf_nan_as_numpy(backend, dtype):
    """1x1 stacks (a division on the numba path) where the quotient overflows, or b or a
    holds inf or NaN: NumPy's values (complex LAPACK gives NaN + NaN j where a plain
    division gives inf) and no warning (NumPy's linalg ignores overflow)."""
    vals = [1e-300, 0.3, 7.0, 1e300, 1.7e308, np.inf, -np.inf, np.nan]
    if np.dtype(dtype).kind == "c":
        vals = [complex(x, y) for x in vals for y in (0.0, 0.3, 1.7e308, np.inf, np.nan)]
    a, b = np.meshgrid(np.array(vals, dtype), np.array([0.0] + vals, dtype))
    a, b = a.reshape(-1, 1, 1), b.reshape(-1, 1, 1)
    with np.errstate(all="ignore"):
        want_x, want_inv = np.linalg.solve(a, b), np.linalg.inv(a)
    with linalgx.backend(backend), np.errstate(all="raise"):
        x, ai = LA.solve(a, b), LA.inv(a)
    fin = np.isfinite(want_x)
    np.testing.assert_array_equal(np.isfinite(x), fin)
    np.testing.assert_array_equal(x[~fin], want_x[~fin])
    np.testing.assert_allclose(x[fin], want_x[fin], rtol=4e-16, atol=1e-320)
    np.testing.assert_allclose(ai, want_inv, rtol=4e-16, atol=0)


def test_solve_subclass_and_dtypes():
    a = np.matrix([[2.0, 1.0], [1.0, 3.0]])
    b = np.matrix([[1.0], [2.0]])
    assert type(LA.solve(a, b)) is type(np.linalg.solve(a, b))
    for da, db in [(np.float32, np.float64), (np.float32, np.int32), (np.float32, np.complex64),
                   (np.int64, np.int64), (np.bool_, np.float32)]:
        x = np.eye(2, dtype=da)
        y = np.ones((2, 1), dtype=db)
        assert LA.solve(x, y).dtype == np.linalg.solve(x, y).dtype


# -- solve_ex -------------------------------------------------------------------------------
@pytest.mark.parametrize("backend", BACKENDS)
def test_solve_ex_reports_info_instead_of_raising(backend):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 3, 3))
    a[1] = 0
    a[2] = [[1, 2, 3], [2, 4, 6], [1, 1, 1]]  # exactly singular after one elimination step
    b = rng.standard_normal((4, 3, 2))
    with linalgx.backend(backend):
        x, info = assert_unchanged(LA.solve_ex, a, b)
    assert info.dtype == np.int32 and info.shape == (4,)
    want_info = [max(sla.lapack.dgetrf(m)[2], 0) for m in a]
    np.testing.assert_array_equal(info, want_info)
    assert info[1] == 1 and info[2] > 0 and info[0] == info[3] == 0
    for i in (0, 3):
        assert_close(x[i], np.linalg.solve(a[i], b[i]))
    assert np.isnan(x[1]).all() and np.isnan(x[2]).all()
    x1, info1 = LA.solve_ex(a, b[0, :, 0])
    assert x1.shape == (4, 3) and info1.tolist() == info.tolist()


@pytest.mark.parametrize("backend", BACKENDS)
def test_solve_ex_without_right_hand_side_still_factors(backend):
    # NumPy's solve raises "Singular matrix" here too: the factorization runs regardless
    a = np.stack([np.eye(2), np.zeros((2, 2))])
    with linalgx.backend(backend):
        x, info = LA.solve_ex(a, np.zeros((2, 2, 0)))
    assert x.shape == (2, 2, 0) and info.tolist() == [0, 1]


def test_solve_ex_nan_input_is_not_singular():
    a = np.stack([np.eye(2), np.full((2, 2), np.nan)])
    x, info = LA.solve_ex(a, np.ones(2))
    assert info.tolist() == [0, 0]
    assert np.isnan(x[1]).all()


def test_solve_ex_still_validates_shape():
    with pytest.raises(LinAlgError, match="Last 2 dimensions of the array must be square"):
        LA.solve_ex(np.ones((2, 3)), np.ones(2))


# -- tensorsolve ----------------------------------------------------------------------------
@pytest.mark.parametrize("axes", [None, (0, 2)], ids=["noaxes", "axes"])
def test_tensorsolve_matches_numpy(axes):
    rng = np.random.default_rng(2)
    if axes is None:
        a, b = rng.standard_normal((6, 4, 2, 3, 4)), rng.standard_normal((6, 4))
    else:  # a is transposed to (2, 6, 3, 4) before the solve
        a, b = rng.standard_normal((3, 2, 4, 6)), rng.standard_normal((2, 6))
    got = assert_unchanged(LA.tensorsolve, a, b, axes)
    assert_close(got, np.linalg.tensorsolve(a, b, axes))


@pytest.mark.parametrize("args", [(np.ones((2, 3)), np.ones(2)),
                                  (np.ones((2, 3)), np.ones(2), (5,))], ids=["nonsquare", "axes"])
def test_tensorsolve_bad_input_like_numpy(args):
    assert_raises_like(np.linalg.tensorsolve, LA.tensorsolve, *args)


# -- solve_triangular -----------------------------------------------------------------------
def _scipy_triangular(a, b, upper, left, unit):
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = np.broadcast_to(a, batch + a.shape[-2:])
    b = np.broadcast_to(b, batch + b.shape[-2:])
    out = np.empty(b.shape, np.result_type(a, b))
    for idx in np.ndindex(*batch):
        if left:
            out[idx] = sla.solve_triangular(a[idx], b[idx], lower=not upper, unit_diagonal=unit)
        else:  # X A = B  <=>  A^T X^T = B^T
            out[idx] = sla.solve_triangular(a[idx], b[idx].T, trans=1, lower=not upper,
                                            unit_diagonal=unit).T
    return out


@pytest.mark.parametrize("unit", [False, True], ids=["nonunit", "unit"])
@pytest.mark.parametrize("left", [True, False], ids=["left", "right"])
@pytest.mark.parametrize("upper", [True, False], ids=["upper", "lower"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128], ids=str)
def test_solve_triangular_matches_scipy(dtype, upper, left, unit):
    rng = np.random.default_rng(3)
    a = (rng.standard_normal((2, 1, 4, 4)) + 4 * np.eye(4)).astype(dtype)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(a.shape)
    b = rng.standard_normal((3, 4, 2) if left else (3, 2, 4)).astype(dtype)
    got = assert_unchanged(LA.solve_triangular, a, b, upper=upper, left=left,
                           unitriangular=unit)
    want = _scipy_triangular(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64),
                             b, upper, left, unit)
    assert got.shape == (2, 3) + b.shape[-2:]
    assert got.dtype == np.result_type(a.dtype, b.dtype)
    np.testing.assert_allclose(got, want, rtol=_tol(got.dtype), atol=_tol(got.dtype))


@pytest.mark.parametrize("layout", ["C", "F", "strided"])
@pytest.mark.parametrize("left", [True, False], ids=["left", "right"])
@pytest.mark.parametrize("upper", [True, False], ids=["upper", "lower"])
@pytest.mark.parametrize("dtype", [np.float64, np.complex64], ids=str)
def test_solve_triangular_lapack_layouts(dtype, upper, left, layout):
    """The LAPACK path (BLAS trsm) takes a C-ordered triangle through its transposed view;
    every layout of a and b gives SciPy's solution, unit diagonal or not."""
    rng = np.random.default_rng(4)
    n = 60
    a = rng.standard_normal((2, n, n)) + n * np.eye(n)
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal(a.shape)
    a = a.astype(dtype)
    b = rng.standard_normal((2, n, 3) if left else (2, 3, n)).astype(dtype)
    if layout == "F":
        a, b = np.asfortranarray(a), np.asfortranarray(b)
    elif layout == "strided":
        a = np.repeat(a, 2, axis=-1)[..., ::2]
        b = np.repeat(b, 2, axis=-2)[..., ::2, :]
    for unit in (False, True):
        with linalgx.backend("lapack"):
            got = assert_unchanged(LA.solve_triangular, a, b, upper=upper, left=left,
                                   unitriangular=unit)
        want = _scipy_triangular(a, b, upper, left, unit)
        assert got.shape == b.shape and got.dtype == dtype and got.flags.c_contiguous
        np.testing.assert_allclose(got, want, rtol=_tol(got.dtype), atol=_tol(got.dtype))


def test_solve_triangular_zero_diagonal_does_not_raise():
    a = np.array([[0.0, 1.0], [0.0, 1.0]])
    with np.errstate(all="ignore"):
        x = LA.solve_triangular(a, np.ones((2, 1)), upper=True)
    assert not np.isfinite(x).all()


def test_solve_triangular_bad_input():
    with pytest.raises(ValueError, match="incompatible shapes"):
        LA.solve_triangular(np.eye(3), np.ones((2, 1)), upper=True)
    with pytest.raises(ValueError, match="incompatible shapes"):
        LA.solve_triangular(np.eye(3), np.ones((3, 2)), upper=True, left=False)
    with pytest.raises(LinAlgError, match="must be square"):
        LA.solve_triangular(np.ones((3, 2)), np.ones((3, 1)), upper=True)
    with pytest.raises(LinAlgError, match="at least two-dimensional"):
        LA.solve_triangular(np.eye(3), np.ones(3), upper=True)
    with pytest.raises(ValueError):
        LA.solve_triangular(np.ones((2, 3, 3)), np.ones((4, 3, 1)), upper=True)
    with pytest.raises(TypeError):
        LA.solve_triangular(np.eye(3), np.ones((3, 1)))  # upper is required


def test_solve_triangular_empty():
    assert LA.solve_triangular(np.zeros((0, 0)), np.zeros((0, 3)), upper=False).shape == (0, 3)
    assert LA.solve_triangular(np.eye(2), np.zeros((2, 0)), upper=False).shape == (2, 0)


def test_solve_ex_derivatives_are_nan_not_an_error_at_a_singular_matrix():
    """Like its value: solve_ex reports, it does not raise, also inside grad."""
    import linalgx
    s = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])
    s[2] = s[0] + s[1] - s[0]  # exactly singular
    g = linalgx.grad(lambda a: LA.solve_ex(a, np.ones(3))[0].sum())(s)
    assert g.shape == (3, 3) and np.isnan(g).all()
    # a regular matrix: the solve rule's value (A^-T applied to the cotangent)
    a = np.eye(3) * 2 + 0.1
    g = linalgx.grad(lambda a: LA.solve_ex(a, np.ones(3))[0].sum())(a)
    x = np.linalg.solve(a, np.ones(3))
    np.testing.assert_allclose(g, -np.outer(np.linalg.solve(a.T, np.ones(3)), x))
