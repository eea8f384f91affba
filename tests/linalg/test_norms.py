"""norm, matrix_norm, vector_norm and cond against NumPy: every ord and axis combination of
NumPy's table, keepdims, dtypes, empty and non-finite inputs, errors."""
import inspect
import itertools
import warnings

import numpy as np
import pytest

import linalgx.linalg as LA
from tests.cases import cases
from tests.helpers import assert_raises_like, assert_unchanged

pytestmark = pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # np.matrix

INF = np.inf
VECTOR_ORDS = [None, 0, 1, -1, 2, -2, 3, 0.5, INF, -INF]
MATRIX_ORDS = [None, "fro", "nuc", 1, -1, 2, -2, INF, -INF]
DTYPES = [np.float64, np.float32, np.complex128, np.complex64, np.int64, np.int8, bool]
_rng = np.random.default_rng(3)


def _matrix(rows):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        return np.matrix(rows)


def _sample(shape, dtype):
    x = _rng.standard_normal(shape) * 3
    if np.dtype(dtype).kind == "c":
        x = x + 1j * _rng.standard_normal(shape)
    return x.astype(dtype)


def _same(fn, np_fn, *args, atol=0, **kwargs):
    """fn(*args) equals np_fn(*args) (value, type, dtype, shape) or raises like it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        try:
            want = np_fn(*args, **kwargs)
        except Exception:
            assert_raises_like(np_fn, fn, *args, **kwargs)
            return
        got = assert_unchanged(fn, *args, **kwargs)
    assert type(got) is type(want), (type(got), type(want))
    assert np.shape(got) == np.shape(want)
    if hasattr(want, "dtype"):
        assert got.dtype == want.dtype
    low = getattr(want, "dtype", np.dtype(float)) in (np.float32, np.float16)
    np.testing.assert_allclose(got, want, rtol=1e-5 if low else 1e-12, atol=atol)


@pytest.mark.parametrize("name", ["norm", "matrix_norm", "vector_norm", "cond"])
def test_signature(name):
    assert inspect.signature(getattr(LA, name)) == inspect.signature(getattr(np.linalg, name))


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("ord", VECTOR_ORDS, ids=str)
def test_vector_ords_every_axis(ord, dtype):
    x = _sample((2, 3, 4), dtype)
    for axis, keepdims in itertools.product([0, 1, 2, -1, -3, (1,)], [False, True]):
        _same(LA.norm, np.linalg.norm, x, ord, axis, keepdims)
    for v in (x[0, 0], x[0, 0].tolist()):
        _same(LA.norm, np.linalg.norm, v, ord)
        _same(LA.norm, np.linalg.norm, v, ord, None, True)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("ord", MATRIX_ORDS, ids=str)
def test_matrix_ords_every_axis_pair(ord, dtype):
    x = _sample((2, 3, 4), dtype)
    for axis, keepdims in itertools.product(itertools.permutations(range(-3, 3), 2),
                                            [False, True]):
        _same(LA.norm, np.linalg.norm, x, ord, axis, keepdims)
    _same(LA.norm, np.linalg.norm, x[0], ord)
    _same(LA.norm, np.linalg.norm, x[0], ord, None, True)


@pytest.mark.parametrize("x", [
    [], np.zeros(0), np.zeros((1, 0)), np.zeros((0, 0)), np.zeros((0, 3)), np.zeros((3, 0)),
    np.zeros((2, 0, 3)), np.float64(2.5), 3, np.zeros((0,), np.int32),
], ids=lambda x: f"{np.shape(x)}")
@pytest.mark.parametrize("ord", VECTOR_ORDS + ["fro", "nuc", "bogus"], ids=str)
def test_empty_and_scalars(x, ord):
    _same(LA.norm, np.linalg.norm, x, ord)
    if np.ndim(x) >= 2:
        _same(LA.matrix_norm, np.linalg.matrix_norm, x, ord=ord)
    if not isinstance(ord, str):
        _same(LA.vector_norm, np.linalg.vector_norm, x, ord=ord)


@pytest.mark.parametrize("x", [
    np.arange(10, dtype=np.longdouble), np.array([-2 ** 31], dtype=np.int32),
    np.array([6 + 7j, -6 + 7j], dtype=np.clongdouble), np.arange(4, dtype=np.float16),
    np.arange(4, dtype=np.float16).reshape(2, 2), np.array([1, -2, 3], dtype=object),
    np.array([[1, 2], [3, 4]], dtype=object), np.array(["1", "2"]), np.array([True, False]),
    np.array([1.0, np.nan]), np.array([1.0, np.inf]), np.array([[1.0, np.inf], [0, 1]]),
    np.array([[1.0, np.nan], [0, 1]]), np.array([1e200, 1e200]),
], ids=["longdouble", "intmin", "clongdouble", "f16", "f16_2d", "object", "object_2d", "str",
        "bool", "nan", "inf", "inf_2d", "nan_2d", "overflow"])
@pytest.mark.parametrize("ord", [None, 0, 1, 2, 3, -1, INF, -INF, "fro", "nuc", -2], ids=str)
def test_odd_dtypes_and_nonfinite(x, ord):
    _same(LA.norm, np.linalg.norm, x, ord)


@pytest.mark.parametrize("args", [
    (np.ones((2, 3)), "fro", 0), (np.ones((2, 3)), "nuc", 0), ([3, 4], "fro", None),
    ([3, 4], "test", None), (np.ones((2, 3)), 0, None), (np.ones((2, 3)), 3, (0, 1)),
    (np.ones((2, 3, 4)), 3, (1, 2)), (np.ones((2, 3, 4)), None, 3),
    (np.ones((2, 3, 4)), None, (2, 3)), (np.ones((2, 3, 4)), None, (0, 1, 2)),
    (np.ones((2, 3, 4)), 2, (1, 1)), (np.ones((2, 3, 4)), 2, (1, -2)),
    (np.ones((2, 3)), None, "a"), (np.ones((2, 3)), None, 1.5), (np.ones(3), None, ()),
], ids=lambda a: f"ord={a[1]}-axis={a[2]}")
def test_bad_args_like_numpy(args):
    _same(LA.norm, np.linalg.norm, *args)


@pytest.mark.parametrize("ord", MATRIX_ORDS + [0, 3], ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("x", [np.arange(9).reshape(3, 3), _sample((2, 3, 4), complex),
                               _matrix([[1.0, 2.0], [3.0, 4.0]]), np.ones(3)],
                         ids=["int", "stacked", "matrix", "1d"])
def test_matrix_norm(x, ord, keepdims):
    # "int" is singular: its smallest singular value (ord=-2) is rounding noise of size
    # ~ n * eps * ||x||_2, which another exact-arithmetic-equivalent SVD may round differently
    atol = 0
    if ord == -2 and x.ndim >= 2:
        atol = 4 * x.shape[-1] * np.finfo(float).eps * np.linalg.norm(x, 2, axis=(-2, -1)).max()
    _same(LA.matrix_norm, np.linalg.matrix_norm, x, ord=ord, keepdims=keepdims, atol=atol)


@pytest.mark.parametrize("ord", VECTOR_ORDS + ["fro"], ids=str)
@pytest.mark.parametrize("keepdims", [False, True])
@pytest.mark.parametrize("axis", [None, 0, -1, (0, 1), (2, 0), (0, 1, 2), (-1,)], ids=str)
def test_vector_norm(axis, ord, keepdims):
    x = _sample((2, 3, 4), np.float32)
    _same(LA.vector_norm, np.linalg.vector_norm, x, axis=axis, ord=ord, keepdims=keepdims)


def test_vector_norm_matrix_and_bad_axis():
    m = _matrix([[1.0, 2.0], [3.0, 4.0]])
    _same(LA.vector_norm, np.linalg.vector_norm, m)
    _same(LA.vector_norm, np.linalg.vector_norm, np.ones((2, 3)), axis=(0, 0))
    _same(LA.vector_norm, np.linalg.vector_norm, np.ones((2, 3)), axis=5)


# -- cond -----------------------------------------------------------------------------------
CONDS = [None, 1, -1, 2, -2, INF, -INF, "fro"]


@pytest.mark.parametrize("p", CONDS, ids=str)
@pytest.mark.parametrize("case", cases("square", exclude=("empty",)), ids=repr)
def test_cond_matches_numpy(case, p):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = assert_unchanged(LA.cond, case.a, p)
        want = np.linalg.cond(case.a, p)
    assert type(got) is type(want) and got.dtype == want.dtype and np.shape(got) == np.shape(want)
    single = want.dtype == np.float32
    np.testing.assert_allclose(got, want, rtol=1e-3 if single else 1e-7)


@pytest.mark.parametrize("p", CONDS, ids=str)
@pytest.mark.parametrize("x", [
    np.zeros((2, 2)), np.ones((2, 2)), np.ones((3, 4)), np.ones(3), np.zeros((0, 0)),
    np.zeros((2, 0, 0)), np.zeros((3, 0)), np.array([[1.0, np.nan], [1, 1]]),
    np.array([[1.0, np.inf], [1, 1]]), np.ones((2, 2), np.float16), np.ones((2, 2), object),
    _matrix([[1.0, 2.0], [3.0, 4.0]]), np.array([[1, 2], [3, 4]]),
], ids=["zeros", "ones", "nonsquare", "1d", "empty", "empty_batch", "empty_3x0", "nan", "inf",
        "f16", "object", "matrix", "int"])
def test_cond_edge_cases_like_numpy(x, p):
    _same(LA.cond, np.linalg.cond, x, p)


@pytest.mark.parametrize("p", [None, 1, 2, "fro", -1, -2], ids=str)
def test_cond_stacked_singular(p):
    a = np.random.default_rng(1234).random((2, 2, 2, 2))
    a[0, 0] = 0
    a[1, 1] = 0
    _same(LA.cond, np.linalg.cond, a, p)


def test_cond_empty_message():
    with pytest.raises(np.linalg.LinAlgError, match="^cond is not defined on empty arrays"):
        LA.cond(np.zeros((0, 0)))


@pytest.mark.parametrize("p", [3, 3.5, 0.5, 0.7, -1, -2.5])
@pytest.mark.parametrize("x", [np.array([1.0, -3.0, 2.0]), np.array([1.0, 0.0, -2.0]),
                               np.zeros(3), np.array([1 + 1j, 0, 2 - 1j])],
                         ids=["nonzero", "zero_entry", "zero_vector", "complex"])
def test_general_p_norm_gradient_takes_the_zero_subgradient(x, p):
    """d||x||_p = sum |x|**(p-2) Re(conj(x) dx) / ||x||_p**(p-1), with 0 where x_i = 0
    (p < 1: |x|**(p-1) is infinite there) and at the zero vector (p > 1), as PyTorch's
    norm; the power rules gave inf * 0 = NaN."""
    import linalgx

    with np.errstate(all="ignore"):
        n = np.sum(np.abs(x) ** p) ** (1 / p)
        want = np.where(x == 0, 0, x * np.abs(np.where(x == 0, 1, x)) ** (p - 2)) / n ** (p - 1)
    if n == 0 or not np.isfinite(n):
        want = np.zeros_like(x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # NumPy's own 0 ** -p warning
        for f in (lambda v: LA.vector_norm(v, ord=p), lambda v: np.linalg.norm(v, ord=p)):
            np.testing.assert_allclose(linalgx.grad(f)(x), want, rtol=1e-12, atol=1e-15)
    if (x != 0).all() and x.dtype.kind == "f":   # second order against central differences
        h = 1e-5
        fd = np.array([(linalgx.grad(lambda v: LA.vector_norm(v, ord=p))(x + h * e)
                        - linalgx.grad(lambda v: LA.vector_norm(v, ord=p))(x - h * e)) / (2 * h)
                       for e in np.eye(3)])
        np.testing.assert_allclose(linalgx.hessian(lambda v: LA.vector_norm(v, ord=p))(x), fd,
                                   rtol=1e-6, atol=1e-8)


def test_svd_failure_inside_norm_and_cond_names_them():
    """NumPy's text and exception type, then the function called (not the inner svd) and
    the failing batch element."""
    a = np.stack([np.eye(3), np.full((3, 3), np.nan)])
    for call, name in ((lambda: LA.norm(a, 2, axis=(-2, -1)), "norm"),
                       (lambda: LA.matrix_norm(a, ord="nuc"), "matrix_norm"),
                       (lambda: LA.cond(a), "cond")):
        with pytest.raises(np.linalg.LinAlgError,
                           match=rf"^SVD did not converge \({name}: batch element \(1,\)"):
            call()
    with pytest.raises(np.linalg.LinAlgError, match="^SVD did not converge"):
        np.linalg.cond(a)


def _bits(a):
    return np.ascontiguousarray(np.atleast_1d(a)).view(np.uint8)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.float16], ids=str)
@pytest.mark.parametrize("shape", [(2000, 3), (600, 2), (2000, 8), (8, 2000), (1200, 9),
                                   (400, 7), (3, 2000), (9, 1200), (40, 30, 3), (1200, 3, 3),
                                   (1200, 2, 4), (500, 2, 2), (100, 3, 5), (60, 10, 3)],
                         ids=str)
def test_many_short_rows_bitwise_as_numpy(shape, dtype):
    """2-norms over many short rows (summed column by column, not one reduction loop call
    per row): NumPy's bits, for every axis, axis pair, layout and keepdims, at magnitudes
    from 1e-20 to 1e20; overflow and NaN as NumPy reports them."""
    rng = np.random.default_rng(sum(shape))
    x = rng.standard_normal(shape) * 10.0 ** rng.uniform(-20, 20, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape) * 10.0 ** rng.uniform(-20, 20, shape)
    x = x.astype(dtype)
    nd = len(shape)
    for y in (x, np.asfortranarray(x), x[::-1], x.T.copy().T):
        for axis in [*range(nd), -1, (nd - 2, nd - 1), (-1, -2), (0, 1)]:
            for keepdims in (False, True):
                want = np.linalg.norm(y, axis=axis, keepdims=keepdims)
                got = assert_unchanged(LA.norm, y, axis=axis, keepdims=keepdims)
                assert got.shape == want.shape and got.dtype == want.dtype
                np.testing.assert_array_equal(_bits(got), _bits(want))
                if isinstance(axis, tuple):
                    want = np.linalg.vector_norm(y, axis=axis[::-1], keepdims=keepdims)
                    got = LA.vector_norm(y, axis=axis[::-1], keepdims=keepdims)
                    np.testing.assert_array_equal(_bits(got), _bits(want))
    z = rng.standard_normal((2000, 3)).astype(dtype)
    z[3, 0] = 1e300 if dtype == np.float64 else 1e30 if dtype != np.float16 else np.inf
    z[5, 1] = np.nan
    with warnings.catch_warnings(record=True) as got_w:
        warnings.simplefilter("always")
        got = LA.norm(z, axis=-1)
    with warnings.catch_warnings(record=True) as want_w:
        warnings.simplefilter("always")
        want = np.linalg.norm(z, axis=-1)
    np.testing.assert_array_equal(got, want)
    assert sorted(str(w.message) for w in got_w) == sorted(str(w.message) for w in want_w)
