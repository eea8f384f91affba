"""det and slogdet against NumPy, on both backends."""
import importlib.util
import warnings

import numpy as np
import pytest

import linalgx
import linalgx.linalg as LA
from tests.cases import cases
from tests.helpers import assert_raises_like, assert_unchanged

HAS_KERNELS = importlib.util.find_spec("linalgx.kernels.api") is not None
BACKENDS = ["lapack", pytest.param("numba", marks=pytest.mark.skipif(
    not HAS_KERNELS, reason="linalgx.kernels.api not available"))]


def _tol(dtype):
    return 1e-4 if np.dtype(dtype) in (np.float32, np.complex64) else 1e-9


def _same_type(got, want):
    assert type(got) is type(want), (type(got), type(want))
    assert np.shape(got) == np.shape(want) and got.dtype == want.dtype


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", cases("square"), ids=repr)
def test_det_matches_numpy(case, backend):
    with linalgx.backend(backend):
        got = assert_unchanged(LA.det, case.a)
    want = np.linalg.det(case.a)
    _same_type(got, want)
    tol = _tol(want.dtype)
    np.testing.assert_allclose(got, want, rtol=tol, atol=tol * max(1.0, np.abs(want).max(
        initial=0)))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("case", cases("square"), ids=repr)
def test_slogdet_matches_numpy(case, backend):
    with linalgx.backend(backend):
        got = assert_unchanged(LA.slogdet, case.a)
    want = np.linalg.slogdet(case.a)
    assert type(got) is type(want)
    tol = _tol(want.logabsdet.dtype)
    for g, w in zip(got, want):
        _same_type(g, w)
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol)


@pytest.mark.parametrize("backend", BACKENDS)
def test_singular_and_nonfinite_per_element(backend):
    a = np.stack([np.eye(3), np.zeros((3, 3)), np.eye(3), np.eye(3)])
    a[2, 0, 1] = np.nan
    a[3, 1, 1] = np.inf
    with linalgx.backend(backend), np.errstate(all="ignore"):
        d = LA.det(a)
        sign, logabs = LA.slogdet(a)
    with np.errstate(all="ignore"):
        want_d = np.linalg.det(a)
        want_sign, want_logabs = np.linalg.slogdet(a)
    np.testing.assert_array_equal(d[:2], [1.0, 0.0])
    np.testing.assert_array_equal(np.isnan(d), np.isnan(want_d))
    np.testing.assert_array_equal(sign[:2], want_sign[:2])
    np.testing.assert_array_equal(logabs[:2], want_logabs[:2])
    assert np.isnan(logabs[2]) == np.isnan(want_logabs[2])


@pytest.mark.parametrize("shape", [(0, 0), (2, 0, 0), (0, 3, 3)], ids=str)
def test_empty(shape):
    a = np.zeros(shape)
    _same_type(LA.det(a), np.linalg.det(a))
    np.testing.assert_array_equal(LA.det(a), np.linalg.det(a))
    for g, w in zip(LA.slogdet(a), np.linalg.slogdet(a)):
        _same_type(g, w)
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("fn", ["det", "slogdet"])
@pytest.mark.parametrize("a", [np.ones((2, 3)), np.ones(3), np.array(5.0),
                               np.eye(2, dtype=object), np.array([["1", "2"], ["3", "4"]]),
                               np.eye(2, dtype="m8[s]"), np.eye(2, dtype=np.float16)],
                         ids=["nonsquare", "1d", "0d", "object", "str", "timedelta", "float16"])
def test_bad_input_like_numpy(fn, a):
    assert_raises_like(getattr(np.linalg, fn), getattr(LA, fn), a)


def test_int_and_bool_compute_in_double():
    a = np.array([[2**62, 1], [1, 1]])
    assert LA.det(a).dtype == np.float64
    assert LA.det(np.eye(2, dtype=bool)) == np.linalg.det(np.eye(2, dtype=bool))


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_det_overflow_warns_as_numpy(backend, n):
    """NumPy's gufunc reports an overflowed det as a RuntimeWarning (under errstate); the
    kernels' inf goes back to it, so that it does."""
    x = np.stack([np.eye(n) * 1e200] * 300)
    x[5] = np.eye(n)
    with pytest.warns(RuntimeWarning, match="overflow encountered in det"):
        want = np.linalg.det(x)
    with linalgx.backend(backend), pytest.warns(RuntimeWarning,
                                                match="overflow encountered in det"):
        got = LA.det(x)
    np.testing.assert_array_equal(got, want)
    with linalgx.backend(backend), np.errstate(over="raise"), pytest.raises(
            FloatingPointError):
        LA.det(x)


def test_large_det_nan_warns_as_numpy():
    """n >= 512 goes to SciPy's getrf (faster than NumPy's gufunc there); a NaN det still
    comes with NumPy's warning."""
    x = np.eye(520)
    x[3, 5] = np.nan
    with pytest.warns(RuntimeWarning, match="invalid value encountered in det"):
        assert np.isnan(LA.det(x))


@pytest.mark.parametrize("mode", ["warn", "raise", "ignore"])
def test_large_det_overflow_reported_as_numpy(mode):
    """The getrf route (n >= 512) reports an overflowed or NaN det under the caller's
    errstate, with NumPy's message, and without NumPy's gufunc redoing the factorization."""
    x = np.random.default_rng(0).standard_normal((600, 600)) * 10   # det ~ 1e1300
    for a, kind in ((x, "over"), (np.where(np.eye(600) > 0, np.nan, x), "invalid")):
        msg = "overflow encountered in det" if kind == "over" else "invalid value"
        with np.errstate(**{kind: mode}):
            if mode == "warn":
                with pytest.warns(RuntimeWarning, match=msg):
                    want = np.linalg.det(a)
                with pytest.warns(RuntimeWarning, match=msg):
                    got = LA.det(a)
                np.testing.assert_array_equal(got, want)
            elif mode == "raise":
                with pytest.raises(FloatingPointError, match=msg):
                    np.linalg.det(a)
                with pytest.raises(FloatingPointError, match=msg):
                    LA.det(a)
            else:
                with warnings.catch_warnings():
                    warnings.simplefilter("error")
                    np.testing.assert_array_equal(LA.det(a), np.linalg.det(a))


@pytest.mark.parametrize("value", [np.inf, -np.inf])
def test_large_det_of_an_infinite_pivot_is_silent_as_numpy(value):
    """An inf entry that becomes a pivot gives an infinite det without any report (nothing
    overflowed: NumPy's gufunc sets no flag), on the getrf route too."""
    x = np.eye(600)
    x[1, 1] = value
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        want = np.linalg.det(x)
        assert LA.det(x) == want and np.isinf(want)


def _exact_det(a):
    """``(det, log|det|)`` of one matrix by elimination in 200-bit arithmetic (mpmath's
    own det rounds a pivot below its epsilon to zero), as a Python complex and a float."""
    mpmath = pytest.importorskip("mpmath")
    with mpmath.workprec(200):
        m = [[mpmath.mpc(complex(x)) for x in row] for row in a]
        n, d = len(m), mpmath.mpc(1)
        for k in range(n):
            p = max(range(k, n), key=lambda i: abs(m[i][k]))
            if m[p][k] == 0:
                return 0j, -np.inf
            if p != k:
                m[k], m[p], d = m[p], m[k], -d
            d *= m[k][k]
            for i in range(k + 1, n):
                f = m[i][k] / m[k][k]
                m[i] = [x - f * y for x, y in zip(m[i], m[k])]
        return complex(d), float(mpmath.log(abs(d)))


def _ill_conditioned(rng, count, n, dtype):
    """Matrices with singular values from 1 down to 10**-k (k up to 12), rows scaled: the
    closed-form cofactor expansion loses up to 1e11 times more digits than LU on these."""
    cplx = np.dtype(dtype).kind == "c"
    out = np.empty((count, n, n), dtype)
    for i in range(count):
        g = rng.standard_normal((2, n, n)) + (1j * rng.standard_normal((2, n, n)) if cplx else 0)
        u, v = np.linalg.qr(g[0])[0], np.linalg.qr(g[1])[0]
        k = rng.uniform(0, 12)
        s = np.sort(10.0 ** (-k * rng.uniform(size=n)))[::-1]
        s[0], s[-1] = 1.0, 10.0 ** -k
        out[i] = (u * s) @ v.conj().T * np.exp(rng.standard_normal((n, 1)))
    return out


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
@pytest.mark.parametrize("n", [2, 3, 4])
def test_ill_conditioned_stack_as_accurate_as_lu(backend, dtype, n):
    """On a stack (the kernels' closed forms for n <= 4) det and slogdet keep LU's accuracy,
    a small multiple of eps times the condition number, against 200-bit dets."""
    a = _ill_conditioned(np.random.default_rng(n), 64, n, dtype)
    with linalgx.backend(backend):
        d = LA.det(a)
        sign, logabs = LA.slogdet(a)
    cond = np.linalg.cond(a)
    for i in range(len(a)):
        want, logwant = _exact_det(a[i])
        tol = 8 * n * np.finfo(float).eps * cond[i]
        assert abs(d[i] - want) <= tol * abs(want), (i, d[i], want, cond[i])
        assert abs(logabs[i] - logwant) <= tol, (i, logabs[i], logwant)
        assert abs(sign[i] * np.exp(logabs[i]) - want) <= 2 * tol * abs(want)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_intermediate_underflow_in_stack(backend, dtype):
    """Entries from 1e-240 to 1e277: every cofactor product of this 3x3 (and 4x4) underflows
    except through the large entries, and the closed form lost every digit (and, complex,
    the sign); LU does not. Checked against 200-bit dets."""
    a3 = np.array([[1e277, 1e-240, 3.0], [2e-240, 1e-200, 5e-240], [7.0, 1e-230, 1e-240]])
    a4 = np.eye(4)
    a4[1:, 1:] = a3
    a4[0, 3] = 1e-230
    for a in (a3, a4):
        a = a.astype(dtype) * (np.exp(0.3j) if np.dtype(dtype).kind == "c" else 1)
        stack = np.broadcast_to(a, (40,) + a.shape).copy()
        with linalgx.backend(backend):
            d = LA.det(stack)
            sign, logabs = LA.slogdet(stack)
        want, logwant = _exact_det(a)
        np.testing.assert_allclose(d, want, rtol=1e-13)
        np.testing.assert_allclose(logabs, logwant, rtol=1e-14)
        np.testing.assert_allclose(sign, want / abs(want), rtol=1e-14)


@pytest.mark.parametrize("backend", BACKENDS)
def test_near_singular_2x2_stack_as_accurate_as_lu(backend):
    """ad - bc of this graded 2x2 cancels to 4e-5 of its terms: plain, its relative error
    was 1.8e-5, where LU's (NumPy's) is 2.6e-7; the stack now redoes it by LU."""
    a = np.array([[-1547.1198106052225, 157.92509690898785],
                  [-5.793985817569817e61, 5.914317465649541e60]])
    want, logwant = _exact_det(a)
    with linalgx.backend(backend):
        d = LA.det(np.stack([a] * 32))
        _, logabs = LA.slogdet(np.stack([a] * 32))
    np.testing.assert_allclose(d, want.real, rtol=1e-6)
    np.testing.assert_allclose(logabs, logwant, rtol=0, atol=1e-6)
