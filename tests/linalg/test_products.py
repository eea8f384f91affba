"""Products and matrix views against NumPy; multi_dot's chain order; matrix_power's integer
and subclass semantics; vander against numpy.vander."""
import functools
import inspect
import warnings

import numpy as np
import pytest

import linalgx.linalg as LA
from tests.cases import cases
from tests.helpers import assert_raises_like, assert_unchanged

NUMPY_NAMES = ["matmul", "outer", "cross", "tensordot", "trace", "diagonal",
               "matrix_transpose", "vecdot", "multi_dot", "matrix_power"]
_rng = np.random.default_rng(5)


def _matrix(rows):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        return np.matrix(rows)


def _same(fn, np_fn, *args, **kwargs):
    try:
        want = np_fn(*args, **kwargs)
    except Exception:
        assert_raises_like(np_fn, fn, *args, **kwargs)
        return None
    got = assert_unchanged(fn, *args, **kwargs)
    assert type(got) is type(want)
    assert np.shape(got) == np.shape(want)
    if hasattr(want, "dtype"):
        assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    return got


@pytest.mark.parametrize("name", NUMPY_NAMES)
def test_signature(name):
    assert inspect.signature(getattr(LA, name)) == inspect.signature(getattr(np.linalg, name))


_X = np.arange(24).reshape(2, 3, 4)
_C = _rng.standard_normal((2, 3, 3)) + 1j * _rng.standard_normal((2, 3, 3))


@pytest.mark.parametrize("x1, x2", [
    (_X, _X.swapaxes(-1, -2)), (_X[0], np.arange(4)), (np.arange(3), _X), (np.arange(4),
                                                                           np.arange(4)),
    (_C, _C), (_X.astype(np.uint8), _X.swapaxes(-1, -2).astype(np.uint8)),
    ([[1, 2], [3, 4]], [1, 2]), (_matrix([[1, 2], [3, 4]]), _matrix([[1], [2]])),
    (_X, _X), (np.ones(3), 2.0), (np.ones((2, 1, 3, 3)), np.ones((5, 3, 3))),
    (np.ones((2, 3, 3)), np.ones((5, 3, 3))),
], ids=["stacked", "mat_vec", "vec_stack", "vec_vec", "complex", "uint8", "lists", "matrix",
        "mismatch", "scalar", "broadcast", "bad_broadcast"])
def test_matmul(x1, x2):
    _same(LA.matmul, np.linalg.matmul, x1, x2)


@pytest.mark.parametrize("x1, x2", [
    (np.arange(3), np.arange(4)), ([1, 2], [3.5, 4]), (np.arange(3)[:, None], np.arange(3)),
    (1, np.arange(3)), (np.array(["a", "b"], dtype=object), [1, 2]), (_C[0, 0], _C[0, 1]),
], ids=["int", "lists", "2d", "scalar", "object", "complex"])
def test_outer(x1, x2):
    _same(LA.outer, np.linalg.outer, x1, x2)


@pytest.mark.parametrize("x1, x2, axis", [
    (np.arange(9).reshape(3, 3), np.arange(9).reshape(3, 3) + 1, -1),
    ([1, 2, 3], [4, 5, 6], -1), (np.ones((3, 2)), np.ones(3), 0),
    (np.ones((4, 3)), np.ones((2, 1, 3)), -1), (np.ones((3, 2)), np.ones((3, 2)), -1),
    (np.ones((3, 3)), np.ones((3, 3)), 2), (_C, _C[0, 0], -1),
], ids=["int", "lists", "axis0", "broadcast", "dim2", "badaxis", "complex"])
def test_cross(x1, x2, axis):
    _same(LA.cross, np.linalg.cross, x1, x2, axis=axis)


@pytest.mark.parametrize("axes", [2, 1, 0, [(0, 1), (0, 1)], ([1], [0]), 3, ([0], [0])],
                         ids=str)
def test_tensordot(axes):
    x = np.arange(6).reshape((2, 3))
    _same(LA.tensordot, np.linalg.tensordot, x, x, axes=axes)
    _same(LA.tensordot, np.linalg.tensordot, x, x.T, axes=axes)


@pytest.mark.parametrize("offset", [0, 1, -1, 5], ids=str)
@pytest.mark.parametrize("x", [np.arange(60).reshape(3, 4, 5), _C, np.ones(3),
                               [[1, 2], [3, 4]]], ids=["int", "complex", "1d", "list"])
@pytest.mark.filterwarnings("ignore::numpy.exceptions.ComplexWarning")
def test_trace_and_diagonal(x, offset):
    _same(LA.trace, np.linalg.trace, x, offset=offset)
    _same(LA.trace, np.linalg.trace, x, offset=offset, dtype=np.float32)
    _same(LA.diagonal, np.linalg.diagonal, x, offset=offset)


def test_views_alias_like_numpy():
    x = np.arange(12).reshape(3, 4)
    assert np.shares_memory(LA.diagonal(x), x) and not LA.diagonal(x).flags.writeable
    assert np.shares_memory(LA.matrix_transpose(x), x)


@pytest.mark.parametrize("x", [np.arange(6).reshape(2, 3), _C, np.arange(3), 1.0, [[1, 2]]],
                         ids=["int", "stacked", "1d", "0d", "list"])
def test_matrix_transpose(x):
    _same(LA.matrix_transpose, np.linalg.matrix_transpose, x)


@pytest.mark.parametrize("x1, x2, axis", [
    (_C, _C, -1), (_C, _C[0, 0], -1), (np.ones((3, 2)), np.ones(3), 0),
    (np.arange(6).reshape(2, 3), np.arange(3), -1), (np.ones((2, 3)), np.ones(2), -1),
    (np.ones(3, bool), np.ones(3, bool), -1),
], ids=["complex", "broadcast", "axis0", "int", "mismatch", "bool"])
def test_vecdot(x1, x2, axis):
    _same(LA.vecdot, np.linalg.vecdot, x1, x2, axis=axis)


# -- multi_dot ------------------------------------------------------------------------------
def _chain(shapes):
    return [_rng.random(s) for s in shapes]


@pytest.mark.parametrize("shapes", [
    [(6, 2), (2, 6)], [(6, 2), (2, 6), (6, 2)], [(10, 100), (100, 5), (5, 50)],
    [(6, 2), (2, 6), (6, 2), (2, 1)], [(2,), (2, 6), (6, 2), (2, 2)],
    [(6, 2), (2, 6), (6, 2), (2,)], [(2,), (2, 6), (6, 2), (2,)], [(3,), (3, 4), (4,)],
    [(30, 35), (35, 15), (15, 5), (5, 10), (10, 20), (20, 25)],
], ids=lambda s: "-".join(map(str, s)))
def test_multi_dot(shapes):
    arrays = _chain(shapes)
    got = assert_unchanged(LA.multi_dot, arrays)
    want = functools.reduce(np.dot, arrays)
    assert np.shape(got) == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=1e-12)
    np.testing.assert_array_equal(got, np.linalg.multi_dot(arrays))


@pytest.mark.parametrize("shapes", [[(6, 2), (2, 6)], [(6, 2), (2, 6), (6, 2)],
                                    [(6, 2), (2, 6), (6, 2), (2, 1)]], ids=len)
def test_multi_dot_out(shapes):
    arrays = _chain(shapes)
    out = np.zeros((shapes[0][0], shapes[-1][1]))
    assert LA.multi_dot(arrays, out=out) is out
    np.testing.assert_allclose(out, functools.reduce(np.dot, arrays))


def test_multi_dot_chain_order_is_numpys():
    from numpy.linalg._linalg import _multi_dot_matrix_chain_order

    from linalgx.linalg._products import _chain_order
    arrays = _chain([(30, 35), (35, 15), (15, 5), (5, 10), (10, 20), (20, 25)])
    s = _chain_order(arrays)
    np.testing.assert_array_equal(np.triu(s[:-1, 1:]),
                                  np.triu(_multi_dot_matrix_chain_order(arrays)[:-1, 1:]))


@pytest.mark.parametrize("arrays", [
    [], [np.ones((3, 3))], [np.ones((2, 2)), np.ones((2, 2, 2)), np.ones((2, 2))],
    [np.ones((2, 3)), np.ones((2, 3)), np.ones((3, 2))], [np.ones(2), np.ones(2)],
    [np.ones((2, 2, 2)), np.ones((2, 2))],
], ids=["none", "one", "3d_inner", "mismatch", "two_vectors", "two_3d"])
def test_multi_dot_like_numpy(arrays):
    _same(LA.multi_dot, np.linalg.multi_dot, arrays)


# -- matrix_power ---------------------------------------------------------------------------
_SHIFT = np.eye(4)[[3, 0, 1, 2]]


@pytest.mark.parametrize("n", [0, 1, 2, 3, 4, 5, 7, -1, -2, -3, 2 ** 100 + 2 ** 10 + 2 ** 5 + 3,
                               True, np.int8(3)], ids=str)
@pytest.mark.parametrize("dt", list("?bBhHiIqQefdgFDGO"))
def test_matrix_power_dtypes(dt, n):
    a = _SHIFT.astype(dt)
    for x in (a, np.stack([a, a.T])) if dt != "O" else (a,):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            got = _same(LA.matrix_power, np.linalg.matrix_power, x, n)
        if n == 1 and got is not None:
            assert got is x  # NumPy returns its argument itself


def test_matrix_power_wraps_and_subclasses():
    a = np.array([[200]], dtype=np.uint8)
    assert LA.matrix_power(a, 2)[0, 0] == 64
    m = _matrix([[1, 2], [3, 4]])
    for n in (0, 1, 2, 5, -1):
        got = LA.matrix_power(m, n)
        assert type(got) is np.matrix
        np.testing.assert_allclose(got, np.linalg.matrix_power(m, n))


@pytest.mark.parametrize("a, n", [
    (np.eye(2), 1.5), (np.eye(2), [1]), (np.eye(2), 2.0), (np.ones(3), 1), (np.ones((2, 3)), 1),
    (np.ones((4, 3, 2)), 1), (np.array([[1, 0], [0, 0]]), -1), (np.ones((2, 2, 2), object), 2),
    (np.ones((2, 2), np.float16), -1),
], ids=["float", "list", "float2", "1d", "nonsquare", "3d", "singular", "object_stack", "f16_inv"])
def test_matrix_power_errors_like_numpy(a, n):
    assert_raises_like(np.linalg.matrix_power, LA.matrix_power, a, n)


@pytest.mark.parametrize("case", cases("square", "nonsingular", exclude=("float32", "complex64")),
                         ids=repr)
def test_matrix_power_cases(case):
    for n in (3, -2):
        got = assert_unchanged(LA.matrix_power, case.a, n)
        np.testing.assert_allclose(got, np.linalg.matrix_power(case.a, n), rtol=1e-9,
                                   atol=1e-9 * np.abs(got).max())


# -- vander ---------------------------------------------------------------------------------
@pytest.mark.parametrize("N", [None, 2, 5], ids=str)
@pytest.mark.parametrize("x", [np.array([1, 2, 3, 5]), np.array([[1.5, -2.0, 0.0]] * 2),
                               _C[0], np.arange(4, dtype=np.int8) * 50,
                               np.arange(5, dtype=np.int64) * 10 ** 6,
                               np.ones((2, 3, 2), np.float32), [1, 2, 3]],
                         ids=["int", "stacked", "complex", "int8", "int64_wraps", "float32",
                              "list"])
def test_vander(x, N):
    got = assert_unchanged(LA.vander, x, N)
    x = np.asarray(x)
    n = x.shape[-1] if N is None else N
    flat = x.reshape(-1, x.shape[-1])
    want = np.stack([np.vander(row, n, increasing=True) for row in flat]).reshape(got.shape)
    dtype = x.dtype if x.dtype.kind in "fc" else np.promote_types(x.dtype, np.int64)
    assert got.shape == x.shape + (n,) and got.dtype == dtype
    np.testing.assert_array_equal(got, want.astype(dtype))  # numpy.vander promotes floats


@pytest.mark.parametrize("dtype", ["int8", "uint8", "int32", "int64", "float32", "float64",
                                   "complex64", "complex128"])
def test_vander_like_torch(dtype):
    torch = pytest.importorskip("torch")
    x = (np.arange(-2, 3) * 7).astype(dtype)
    got = LA.vander(np.stack([x, x[::-1]]), N=6)
    want = torch.linalg.vander(torch.from_numpy(np.stack([x, x[::-1]])), N=6).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float64, np.int64, np.int8], ids=str)
@pytest.mark.parametrize("shape, N", [((2000,), 3), ((300, 40), 6), ((100,), 60)], ids=str)
def test_vander_many_rows_bitwise_as_numpy(shape, N, dtype):
    """Many rows (their powers computed a column at a time): numpy.vander's bits, its
    integer wraparound, and its overflow warning (float64 x**60 overflows for |x| > 1e5)."""
    x = (np.random.default_rng(N).standard_normal(shape) * 10.0 ** (6 if N == 60 else 1))
    x = x.astype(dtype)
    with warnings.catch_warnings(record=True) as got_w:
        warnings.simplefilter("always")
        got = assert_unchanged(LA.vander, x, N)
    flat = x.reshape(-1, shape[-1])
    with warnings.catch_warnings(record=True) as want_w:
        warnings.simplefilter("always")
        want = np.stack([np.vander(row, N, increasing=True) for row in flat])
    np.testing.assert_array_equal(got, want.reshape(got.shape))
    assert {str(w.message) for w in got_w} == {str(w.message) for w in want_w}


def test_vander_0d_and_errors():
    np.testing.assert_array_equal(LA.vander(np.float64(3.0), N=3), [[1.0, 3.0, 9.0]])
    for bad in (dict(x=np.ones(1)), dict(x=np.ones(3), N=1), dict(x=np.ones(3), N=0)):
        with pytest.raises(ValueError, match="^N must be greater than 1."):
            LA.vander(**bad)
    for bad in (np.ones(3, bool), np.array(["a", "b"]), np.ones(2, object)):
        with pytest.raises(TypeError, match="^vander supports"):
            LA.vander(bad)
    with pytest.raises(TypeError):
        LA.vander(np.ones(3), N=2.0)
