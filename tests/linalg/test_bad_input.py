"""A bad-input sweep: every NumPy-named function on every input class of the contract,
compared with NumPy itself (same public exception class, NumPy's message as prefix, or the
same result), on both CPU backends. Inputs are never modified."""
import warnings

import numpy as np
import pytest

import linalgx
import linalgx.linalg as LA
from tests.helpers import assert_unchanged, public_exception

# functions of one array argument (plus fixed parameters)
UNARY = {
    "inv": lambda f, a: f(a), "det": lambda f, a: f(a), "slogdet": lambda f, a: f(a),
    "cholesky": lambda f, a: f(a), "eig": lambda f, a: f(a), "eigvals": lambda f, a: f(a),
    "eigh": lambda f, a: f(a), "eigvalsh": lambda f, a: f(a), "svd": lambda f, a: f(a),
    "svdvals": lambda f, a: f(a), "pinv": lambda f, a: f(a), "matrix_rank": lambda f, a: f(a),
    "cond": lambda f, a: f(a), "norm": lambda f, a: f(a), "qr": lambda f, a: f(a),
    "matrix_power": lambda f, a: f(a, 2), "matrix_norm": lambda f, a: f(a),
    "vector_norm": lambda f, a: f(a), "trace": lambda f, a: f(a),
    "diagonal": lambda f, a: f(a), "matrix_transpose": lambda f, a: f(a),
    "tensorinv": lambda f, a: f(a, ind=1), "solve": lambda f, a: f(a, np.ones(
        np.shape(a)[-1:] or (1,))),
    "lstsq": lambda f, a: f(a, np.ones(np.shape(a)[:1] or (1,))),
    "matmul": lambda f, a: f(a, a), "outer": lambda f, a: f(a, a),
    "tensordot": lambda f, a: f(a, a, axes=0), "vecdot": lambda f, a: f(a, a),
    "cross": lambda f, a: f(a, a), "multi_dot": lambda f, a: f([a, a, a]),
    "tensorsolve": lambda f, a: f(a, np.ones(np.shape(a)[:1] or (1,))),
}


def _readonly(x):
    x = np.array(x)
    x.flags.writeable = False
    return x


INPUTS = {
    "scalar": np.float64(2.0),
    "0d": np.array(2.0),
    "1d": np.array([1.0, 2.0, 3.0]),
    "nonsquare": np.arange(6.0).reshape(2, 3) + 1,
    "square3": np.array([[4.0, 1, 0], [1, 3, 1], [0, 1, 2]]),
    "singular": np.array([[1.0, 2], [2, 4]]),
    "nan": np.array([[1.0, np.nan], [0, 1]]),
    "inf": np.array([[1.0, np.inf], [0, 1]]),
    "empty_0x0": np.zeros((0, 0)),
    "empty_3x0": np.zeros((3, 0)),
    "empty_batch": np.zeros((0, 2, 2)),
    "float16": np.eye(2, dtype=np.float16),
    "longdouble": np.eye(2, dtype=np.longdouble),
    "object": np.eye(2).astype(object),
    "bool": np.eye(2, dtype=bool),
    "int8": np.array([[2, 1], [1, 3]], dtype=np.int8),
    "bigendian": np.array([[4.0, 1], [1, 3]], dtype=">f8"),
    "readonly": _readonly([[4.0, 1], [1, 3]]),
    "fortran": np.asfortranarray([[4.0, 1, 0], [1, 3, 1], [0, 1, 2]]),
    "negstride": np.array([[4.0, 1, 0], [1, 3, 1], [0, 1, 2]])[::-1, ::-1],
    "complex64": np.array([[2, 1j], [-1j, 3]], dtype=np.complex64),
    "stack_singular": np.stack([np.eye(2), np.zeros((2, 2)), np.eye(2)]),
    "list": [[4.0, 1.0], [1.0, 3.0]],
}


def _same(ours, theirs):
    if isinstance(theirs, tuple):
        assert type(ours) is type(theirs) or (type(theirs) is tuple and isinstance(ours, tuple))
        for o, t in zip(ours, theirs):
            _same(o, t)
        return
    if isinstance(theirs, (np.ndarray, np.generic)):
        assert isinstance(ours, (np.ndarray, np.generic)), type(ours)
        assert type(ours) is type(theirs), (type(ours), type(theirs))
        assert ours.dtype == theirs.dtype, (ours.dtype, theirs.dtype)
        assert np.shape(ours) == np.shape(theirs)
        if theirs.dtype.kind in "fc" and theirs.size:
            # NaN/inf positions agree; finite values close (vectors may differ in gauge)
            assert np.array_equal(np.isfinite(ours), np.isfinite(theirs)) or not np.all(
                np.isfinite(theirs))
    else:
        assert type(ours) is type(theirs) or ours == theirs


# Documented deviations (contract.md "where linalgx should be better"): these raise
# LinAlgError where NumPy returns NaN or garbage.
BETTER = {("eigvalsh", "nan"), ("eigh", "nan"), ("cholesky", "nan"), ("svd", "inf"),
          ("svdvals", "inf"), ("pinv", "inf"), ("matrix_rank", "inf")}


@pytest.mark.parametrize("backend", ["lapack", "numba"])
@pytest.mark.parametrize("inp", sorted(INPUTS))
@pytest.mark.parametrize("name", sorted(UNARY))
def test_sweep(name, inp, backend):
    call = UNARY[name]
    x = INPUTS[inp]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            expect = call(getattr(np.linalg, name), x)
            raised = None
        except Exception as e:  # noqa: BLE001  (NumPy's behaviour is the reference)
            raised = e
        with linalgx.backend(backend):
            if raised is not None:
                with pytest.raises(public_exception(type(raised))) as got:
                    assert_unchanged(call, getattr(LA, name), x)
                assert str(got.value).startswith(str(raised)), (str(got.value), str(raised))
                assert str(got.value), "empty message"
                return
            if (name, inp) in BETTER:
                try:
                    ours = assert_unchanged(call, getattr(LA, name), x)
                except np.linalg.LinAlgError:
                    return
            else:
                ours = assert_unchanged(call, getattr(LA, name), x)
    _same(ours, expect)


@pytest.mark.parametrize("name", ["eigvalsh", "slogdet", "svdvals", "eigvals", "inv", "solve"])
def test_memory_error_has_a_message(name):
    """A broadcast view NumPy cannot factor: MemoryError at once (a finiteness check summed
    all 4e10 entries of such a view first), never with an empty message (NumPy's gufuncs
    raise a bare MemoryError where their LAPACK workspace cannot be allocated)."""
    big = np.broadcast_to(np.float64(1.0), (200_000, 200_000))
    args = (big, big[:, :1]) if name == "solve" else (big,)
    with pytest.raises(MemoryError, match="."):
        getattr(LA, name)(*args)


@pytest.mark.parametrize("b", [np.eye(3).astype(object), np.array([["1"] * 3] * 3)])
def test_lstsq_refuses_b_dtype_before_checking_a(b):
    """NumPy's gufunc refuses b's dtype before LAPACK sees a's NaN: its TypeError, not the
    convergence error."""
    a = np.full((3, 3), np.nan)
    with pytest.raises(TypeError) as want:
        np.linalg.lstsq(a, b)
    with pytest.raises(TypeError) as got:
        LA.lstsq(a, b)
    assert str(got.value) == str(want.value)


@pytest.mark.parametrize("fn", ["norm", "vector_norm"])
@pytest.mark.parametrize("ord", [None, 1, 2, 3])
def test_norm_of_0d_object_array_with_axis(fn, ord):
    x = np.array(1.5, dtype=object)
    with pytest.raises(np.exceptions.AxisError):
        getattr(np.linalg, fn)(x, ord=ord, axis=0)
    with pytest.raises(np.exceptions.AxisError):
        getattr(LA, fn)(x, ord=ord, axis=0)
