"""matrix_exp against scipy.linalg.expm (an independent implementation per matrix), on
both CPU backends (the numba kernel, ``kernels/_expm.py``, serves orders 2 to 48 and hands
triangular matrices that need squarings, and results that overflow, to the NumPy path)."""
import warnings

import numpy as np
import pytest
import scipy.linalg

import linalgx
import linalgx.linalg as LA
from tests.cases import cases
from tests.helpers import assert_unchanged

_rng = np.random.default_rng(11)


@pytest.fixture(autouse=True, params=["lapack", "numba"])
def backend(request):
    with linalgx.backend(request.param):
        yield request.param


def _close(got, want, rtol):
    err = np.abs(got - want).max(axis=(-2, -1))
    scale = np.abs(want).max(axis=(-2, -1))
    assert (err <= rtol * scale).all(), f"relative errors {err / scale}"


@pytest.mark.parametrize("case", cases("square"), ids=repr)
def test_matches_scipy(case):
    got = assert_unchanged(LA.matrix_exp, case.a)
    if case.a.size == 0:  # scipy.linalg.expm rejects empty input
        assert got.shape == case.a.shape and got.dtype == np.float64
        return
    want = scipy.linalg.expm(np.asarray(case.a, dtype=np.result_type(case.a, np.float64)))
    single = np.dtype(case.a.dtype) in (np.float32, np.complex64)
    assert got.shape == case.a.shape
    assert got.dtype == (case.a.dtype.newbyteorder("=") if case.a.dtype.kind in "fc"
                         else np.float64)
    _close(got, want, 1e-5 if single else 1e-11)


@pytest.mark.parametrize("scale", [0.0, 1e-8, 1e-3, 0.05, 0.5, 1.5, 4.0, 20.0, 40.0], ids=str)
@pytest.mark.parametrize("kind", ["real", "complex", "upper", "normal"])
def test_every_pade_degree_and_scaling(scale, kind):
    # stacks whose elements pick different degrees and numbers of squarings
    n = 5
    a = _rng.standard_normal((4, n, n))
    if kind == "complex":
        a = a + 1j * _rng.standard_normal((4, n, n))
    elif kind == "upper":
        a = np.triu(a)
    elif kind == "normal":
        q, _ = np.linalg.qr(a)
        a = q @ (np.arange(n) * np.eye(n)) @ q.swapaxes(-1, -2)
    a = a * (scale * np.array([1.0, 0.3, 0.01, 2.0])[:, None, None])
    got = LA.matrix_exp(a)
    want = scipy.linalg.expm(a)
    _close(got, want, 1e-10 if scale < 30 else 1e-9)


@pytest.mark.parametrize("scale", [0.0, 1e-8, 1e-3, 0.05, 0.5, 1.5, 4.0, 20.0, 40.0], ids=str)
@pytest.mark.parametrize("n", [2, 3, 20])
def test_single_matrix_path(scale, n):
    # one matrix takes a scalar-bookkeeping path of its own: same degrees, same squarings
    a = (_rng.standard_normal((n, n)) + 1j * _rng.standard_normal((n, n))) * scale
    for x in (a, a.real):
        _close(LA.matrix_exp(x), scipy.linalg.expm(x), 1e-10 if scale < 30 else 1e-9)


@pytest.mark.parametrize("a, want", [
    (np.array([[0.0, 1.0], [0.0, 0.0]]), np.array([[1.0, 1.0], [0.0, 1.0]])),
    (np.diag([1.0, -2.0, 0.5]), np.diag(np.exp([1.0, -2.0, 0.5]))),
    (np.array([[0.0, -np.pi], [np.pi, 0.0]]), -np.eye(2)),
    (np.array([[3.0]]), np.array([[np.exp(3.0)]])),
], ids=["nilpotent", "diagonal", "rotation", "1x1"])
def test_closed_forms(a, want):
    np.testing.assert_allclose(LA.matrix_exp(a), want, atol=1e-14 * np.abs(want).max())


@pytest.mark.parametrize("shape", [(0, 0), (3, 0, 0), (0, 4, 4), (2, 1, 1)], ids=str)
def test_empty_and_tiny(shape):
    a = _rng.standard_normal(shape)
    got = LA.matrix_exp(a)
    assert got.shape == shape and got.dtype == np.float64
    np.testing.assert_allclose(got, np.exp(a) if shape[-1] == 1 else a)


def test_dtypes_and_subclass():
    assert LA.matrix_exp(np.eye(2, dtype=np.float32)).dtype == np.float32
    assert LA.matrix_exp(np.eye(2, dtype=np.complex64)).dtype == np.complex64
    np.testing.assert_allclose(LA.matrix_exp(np.eye(2, dtype=int)), np.e * np.eye(2))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PendingDeprecationWarning)
        m = np.matrix([[0.0, 1.0], [0.0, 0.0]])
    assert type(LA.matrix_exp(m)) is np.matrix


def test_nonfinite_elements_are_nan_only_there():
    a = np.stack([np.eye(3), np.eye(3), np.eye(3)])
    a[1, 0, 2] = np.nan
    a[2, 1, 1] = np.inf
    got = LA.matrix_exp(a)
    assert np.isnan(got[1:]).all()
    np.testing.assert_allclose(got[0], np.e * np.eye(3))


@pytest.mark.parametrize("bad, exc, msg", [
    (np.ones(3), np.linalg.LinAlgError, "1-dimensional array given"),
    (np.ones((2, 3)), np.linalg.LinAlgError, "Last 2 dimensions of the array must be square"),
    (np.ones((2, 2), np.float16), TypeError, "array type float16 is unsupported in linalg"),
], ids=["1d", "nonsquare", "float16"])
def test_errors(bad, exc, msg):
    with pytest.raises(exc, match=f"^{msg}"):
        LA.matrix_exp(bad)


_STIFF_TRIANGULAR = [
    np.array([[-1e4, 1], [0, -1.0]]),
    np.array([[-1e4, 0], [1, -1.0]]),                       # lower triangular
    np.array([[1.0, 2, 3], [0, -50, 4], [0, 0, 30]]),
    np.array([[-100.0, 1e3], [0, -100.0000001]]),           # nearly equal diagonal entries
    np.array([[2 + 1j, 5], [0, -30 - 2j]]),
    np.array([[-700.0, 3, 1], [0, -1, 2], [0, 0, -300]]),
]


@pytest.mark.parametrize("a", _STIFF_TRIANGULAR, ids=range(len(_STIFF_TRIANGULAR)))
def test_triangular_matrix_exp_to_a_few_ulp(a):
    """A triangular matrix with a stiff diagonal: repeated squaring alone lost accuracy
    (6e-13 relative for [[-1e4, 1], [0, -1]]); the diagonal and first off-diagonal are put
    back exactly after each squaring (Al-Mohy & Higham 2009, Code Fragment 2.1), single
    and batched. Reference: mpmath at 50 digits."""
    mpmath = pytest.importorskip("mpmath")
    with mpmath.workdps(50):
        m = mpmath.expm(mpmath.matrix(a.tolist()))
        want = np.array([[complex(m[i, j]) for j in range(a.shape[1])]
                         for i in range(a.shape[0])])
    if a.dtype.kind == "f":
        want = want.real
    for got in (LA.matrix_exp(a), LA.matrix_exp(np.stack([a, a.T]))[0]):
        nz = want != 0
        np.testing.assert_allclose(got[nz], want[nz], rtol=2e-15)
        assert (got[~nz] == 0).all()


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=str)
@pytest.mark.parametrize("n", [2, 3, 4, 7, 16, 40])
def test_large_stacks_every_degree(n, dtype):
    """Stacks large enough for the kernel's multi-threaded path, each element at its own
    scale (every Pade degree, 0 to 12 squarings), against scipy.linalg.expm per element."""
    rng = np.random.default_rng(n)
    count = 3000 if n <= 4 else 300 if n <= 16 else 40
    a = rng.standard_normal((count, n, n))
    if np.dtype(dtype).kind == "c":
        a = a + 1j * rng.standard_normal((count, n, n))
    a = a * np.geomspace(1e-4, 50, count)[:, None, None]
    got = LA.matrix_exp(a)
    want = np.stack([scipy.linalg.expm(x) for x in a])
    _close(got, want, 1e-10)


def test_numba_kernel_serves_general_matrices_itself():
    """The kernel hands back only triangular matrices that need squarings and results
    that overflow: a random stack is computed in the kernel."""
    from linalgx.kernels import api
    a = _rng.standard_normal((500, 4, 4)) * np.geomspace(1e-3, 30, 500)[:, None, None]
    out, flag = api.matrix_exp(a)
    assert not flag.any()
    _close(out, np.stack([scipy.linalg.expm(x) for x in a]), 1e-10)
    t = np.triu(a[-4:])
    t[0] *= 0  # s = 0: no squarings, served by the kernel
    out, flag = api.matrix_exp(t)
    np.testing.assert_array_equal(flag, [0, 1, 1, 1])
    _, flag = api.matrix_exp(np.full((2, 3, 3), 400.0))
    np.testing.assert_array_equal(flag, [1, 1])  # overflows


def test_overflow_as_scipy():
    a = np.stack([np.full((3, 3), 400.0), np.eye(3), -np.full((3, 3), 400.0)])
    with np.errstate(all="ignore"):
        want = np.stack([scipy.linalg.expm(x) for x in a])
        got = LA.matrix_exp(a)
    np.testing.assert_array_equal(got[0], want[0])  # inf (the kernel hands it back)
    np.testing.assert_allclose(got, want, rtol=1e-12)


@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3)], ids=str)
def test_powers_that_overflow_give_nan(shape):
    """||A^k|| overflows, so does exp(A): NaN (the single-matrix path raised OverflowError
    computing the number of squarings), as scipy.linalg.expm."""
    with np.errstate(all="ignore"):
        got = LA.matrix_exp(np.full(shape, 1e300))
        want = scipy.linalg.expm(np.full((3, 3), 1e300))
    assert np.isnan(got).all() and np.isnan(want).all()


@pytest.mark.parametrize("a", [1e100 * np.array([[1.0, 2], [-2, 1]]),   # A^4 is inf - inf
                               -1e100 * np.array([[1.0, 2], [-2, 1]]),
                               1e30 * np.array([[1.0, 1], [-1, -1]]),   # V - U singular
                               np.array([[0.0, 1e300], [-1e-300, 0]])],  # ell underflows
                         ids=["nan-powers", "nan-powers-neg", "singular-pade", "ell-underflow"])
def test_extreme_scales_give_nan_not_garbage_or_errors(a):
    """Powers of A that overflow to NaN (a max() over the column sums used to drop them, and
    the kernel returned -I), a Pade denominator singular in rounding (LinAlgError, or
    garbage from the kernel), a log2 of an underflowed quotient (ValueError): NaN, as
    scipy.linalg.expm gives, never an exception or a finite wrong answer."""
    with np.errstate(all="ignore"):
        for x in (a, np.stack([np.eye(2), a])):
            got = LA.matrix_exp(x)
            assert not np.isfinite(got.reshape(-1, 2, 2)[-1]).all()
    with np.errstate(all="ignore"):
        np.testing.assert_allclose(LA.matrix_exp(np.stack([np.eye(2), a]))[0], np.e * np.eye(2))


@pytest.mark.parametrize("d", [[710.0, 0.0], [-1e200, 1.0], [800.0, -800.0], [1 + 2j, -3j]],
                         ids=str)
def test_diagonal_exactly(d):
    """A diagonal matrix's exponential is exp of its diagonal, also where the Pade path's
    powers overflow (it gave NaN) or exp(d) does (0 * inf gave NaN off the diagonal)."""
    a = np.diag(d)
    with np.errstate(over="ignore"):
        want = np.diag(np.exp(d))
        for got in (LA.matrix_exp(a), LA.matrix_exp(np.stack([a, a]))[1]):
            np.testing.assert_array_equal(got, want)


def test_triangular_overflow_keeps_zeros():
    a = np.array([[710.0, 0.0, 1.0], [0.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    with np.errstate(all="ignore"):
        got = LA.matrix_exp(a)
    assert got[0, 1] == 0 and got[1, 2] == 0 and np.isinf(got[0, 0])
    np.testing.assert_allclose(got[1:, 1:], scipy.linalg.expm(a[1:, 1:]))
