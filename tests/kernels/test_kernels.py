"""linalgx.kernels.api against numpy.linalg and scipy.linalg.lapack, per op, dtype and n.

Each (op, dtype, n <= 4 or not) combination compiles once (cached on disk afterwards), so the
cases are grouped to keep the number of distinct compilations at what the kernels need.
"""
import pathlib
import threading
import types
import warnings

import numpy as np
import pytest
import scipy.linalg.lapack as sl
from linalgx.kernels import _gen_small, api

DTYPES = [np.float32, np.float64, np.complex64, np.complex128]
NS = [1, 2, 3, 4, 5, 6, 9, 17]
BATCH = (3, 2)
IDS = {np.float32: "f32", np.float64: "f64", np.complex64: "c64", np.complex128: "c128"}


def _rand(rng, shape, dtype):
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def _well(rng, shape, dtype):
    """Random matrices with a modest condition number (diagonally shifted)."""
    n = shape[-1]
    return (_rand(rng, shape, dtype) + np.sqrt(n) * np.eye(n)).astype(dtype)


def _spd(rng, shape, dtype):
    x = _rand(rng, shape, dtype)
    n = shape[-1]
    return (x @ np.conj(np.swapaxes(x, -1, -2)) + n * np.eye(n)).astype(dtype)


def _tol(dtype, a):
    eps = np.finfo(dtype).eps
    cond = np.linalg.cond(a.astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64))
    return 50 * eps * a.shape[-1] * np.max(cond)


def _getrf(x):
    """Reference LAPACK getrf status of one matrix (scipy's, double precision)."""
    f = sl.zgetrf if np.iscomplexobj(x) else sl.dgetrf
    return f(x.astype(np.complex128 if np.iscomplexobj(x) else np.float64))[2]


dtypes = pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: IDS[d])
ns = pytest.mark.parametrize("n", NS, ids=lambda n: f"n{n}")


@dtypes
@ns
def test_det_slogdet(dtype, n):
    rng = np.random.default_rng(n)
    a = _well(rng, BATCH + (n, n), dtype)
    d = api.det(a)
    sign, logabs = api.slogdet(a)
    assert d.dtype == dtype and d.shape == BATCH
    assert sign.dtype == dtype and logabs.dtype == np.finfo(dtype).dtype
    tol = _tol(dtype, a)
    np.testing.assert_allclose(d, np.linalg.det(a), rtol=tol)
    s_np, l_np = np.linalg.slogdet(a)
    np.testing.assert_allclose(sign, s_np, rtol=tol, atol=tol)
    np.testing.assert_allclose(logabs, l_np, rtol=tol, atol=tol)
    if np.dtype(dtype).kind == "c":
        np.testing.assert_allclose(abs(sign), 1, rtol=10 * np.finfo(dtype).eps)


@dtypes
@ns
def test_inv_solve(dtype, n):
    rng = np.random.default_rng(100 + n)
    a = _well(rng, BATCH + (n, n), dtype)
    b = _rand(rng, BATCH + (n, 3), dtype)
    out, info = api.inv(a)
    x, info_s = api.solve(a, b)
    assert out.dtype == dtype and x.dtype == dtype and info.dtype == np.int32
    assert info.shape == BATCH and not info.any() and not info_s.any()
    tol = _tol(dtype, a)
    ref = np.linalg.inv(a)
    np.testing.assert_allclose(out, ref, rtol=tol, atol=tol * np.abs(ref).max())
    ref = np.linalg.solve(a, b)
    np.testing.assert_allclose(x, ref, rtol=tol, atol=tol * np.abs(ref).max())


@dtypes
@ns
@pytest.mark.parametrize("upper", [False, True], ids=["lower", "upper"])
def test_cholesky(dtype, n, upper):
    rng = np.random.default_rng(200 + n)
    a = _spd(rng, BATCH + (n, n), dtype)
    # garbage in the triangle that must not be read
    junk = np.triu(np.full((n, n), 7.0), 1)
    a_read = (a + (junk.T if upper else junk)).astype(dtype)
    f, info = api.cholesky(a_read, upper=upper)
    assert f.dtype == dtype and not info.any()
    ref = np.linalg.cholesky(a, upper=upper)
    tol = 50 * n * np.finfo(dtype).eps
    np.testing.assert_allclose(f, ref, rtol=tol, atol=tol * np.abs(ref).max())
    assert np.all((np.tril(f, -1) if upper else np.triu(f, 1)) == 0)


SINGULAR = [  # (matrix, 1-based index of the first exactly zero pivot)
    (np.zeros((2, 2)), 1),
    (np.array([[1.0, 2.0], [2.0, 4.0]]), 2),
    (np.array([[2.0, 4, 1], [1, 2, 3], [4, 8, 2]]), 2),
    (np.array([[1.0, 0, 0], [0, 1, 0], [0, 0, 0]]), 3),
    (np.diag([1.0, 2, 0, 4]), 3),
    (np.diag([1.0, 2, 3, 4, 0]), 5),
    (np.block([[np.eye(3), np.ones((3, 3))], [np.ones((3, 3)), np.ones((3, 3))]]), 5),
]


@dtypes
@pytest.mark.parametrize("case", range(len(SINGULAR)), ids=lambda i: f"sing{i}")
def test_singular_element(dtype, case):
    s, expected = SINGULAR[case]
    assert _getrf(s) == expected  # the reference agrees on which pivot vanishes
    n = s.shape[0]
    rng = np.random.default_rng(case)
    a = _well(rng, (4, n, n), dtype)
    a[2] = s
    out, info = api.inv(a)
    np.testing.assert_array_equal(info, [0, 0, expected, 0])
    assert np.isnan(out[2]).all() and np.isfinite(out[[0, 1, 3]]).all()
    np.testing.assert_allclose(out[0], np.linalg.inv(a[0]), rtol=_tol(dtype, a[0]))
    x, info_s = api.solve(a, a[..., :1])
    np.testing.assert_array_equal(info_s, info)
    assert np.isnan(x[2]).all() and np.isfinite(x[[0, 1, 3]]).all()
    d = api.det(a)
    assert d[2] == 0 and np.all(d[[0, 1, 3]] != 0)
    sign, logabs = api.slogdet(a)
    assert sign[2] == 0 and logabs[2] == -np.inf


def _rank_deficient(rng, count, n, dtype):
    """Exactly singular integer matrices of random rank 1 .. n-1: whether an LU's rounding
    lands on an exactly zero pivot (LAPACK's "Singular matrix") depends on its order of
    operations, so only LAPACK itself can say what NumPy does with each."""
    u = rng.integers(-9, 10, (count, n, n - 1)).astype(float)
    v = rng.integers(-9, 10, (count, n - 1, n)).astype(float)
    rank = rng.integers(1, n, count)
    u *= np.arange(n - 1) < rank[:, None, None]
    if np.dtype(dtype).kind == "c":
        u = u + 1j * rng.integers(-9, 10, u.shape)
    return (u @ v).astype(dtype)


def _numpy_fails(f, *args):
    try:
        f(*args)
    except np.linalg.LinAlgError:
        return True
    return False


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex128],
                         ids=["f32", "f64", "c128"])
@pytest.mark.parametrize("n", [3, 4, 7], ids=lambda n: f"n{n}")
def test_singular_to_working_precision_is_numpys_call(dtype, n):
    """Which elements fail, and the det/slogdet of singular ones, are NumPy's exactly."""
    rng = np.random.default_rng(n)
    a = np.concatenate([_rank_deficient(rng, 300, n, dtype), _well(rng, (40, n, n), dtype)])
    a = a[rng.permutation(len(a))]
    b = _rand(rng, (len(a), n, 1), dtype)
    want = np.array([_numpy_fails(np.linalg.inv, m) for m in a])
    assert 0 < want.sum() < 300  # both outcomes occur among the singular ones
    out, info = api.inv(a)
    np.testing.assert_array_equal(info > 0, want)
    assert not (info < 0).any()
    # the failing pivot is LAPACK getrf's, as torch.linalg.inv_ex reports it, where SciPy's
    # LAPACK build fails too (its kernels can differ from NumPy's: on AVX-512 machines a few
    # elements NumPy finds singular pass SciPy's getrf; those keep the kernels' pivot)
    codes = np.array([_getrf(m) for m in a[want]])
    np.testing.assert_array_equal(info[want][codes > 0], codes[codes > 0])
    for i in np.flatnonzero(~want)[:50]:
        if np.abs(np.linalg.inv(a[i])).max() > 1e12:  # NumPy's (rounding) answer, redone
            np.testing.assert_array_equal(out[i], np.linalg.inv(a[i]).astype(dtype))
    x, info_s = api.solve(a, b)
    np.testing.assert_array_equal(info_s > 0, [_numpy_fails(np.linalg.solve, m, r)
                                               for m, r in zip(a, b)])
    codes = np.array([_getrf(m) for m in a[info_s > 0]])
    np.testing.assert_array_equal(info_s[info_s > 0][codes > 0], codes[codes > 0])
    sign, logabs = api.slogdet(a)
    s_np, l_np = np.linalg.slogdet(a)
    np.testing.assert_array_equal(sign == 0, s_np == 0)
    np.testing.assert_array_equal(logabs == -np.inf, l_np == -np.inf)
    np.testing.assert_array_equal(api.det(a) == 0, np.linalg.det(a) == 0)
    # positive semidefinite and singular: whether potrf meets a pivot <= 0 is LAPACK's call
    g = a @ np.conj(np.swapaxes(a, -1, -2))
    f, info_c = api.cholesky(g)
    np.testing.assert_array_equal(info_c > 0, [_numpy_fails(np.linalg.cholesky, m) for m in g])
    potrf = sl.zpotrf if np.iscomplexobj(g) else sl.dpotrf
    wide = np.complex128 if np.iscomplexobj(g) else np.float64
    np.testing.assert_array_equal(info_c[info_c > 0],
                                  [potrf(m.astype(wide), lower=1)[1] for m in g[info_c > 0]])


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["f64", "c128"])
@pytest.mark.parametrize("n", [2, 3, 4, 6, 9], ids=lambda n: f"n{n}")
def test_subnormal_element_is_lapacks_call(dtype, n):
    """A matrix scaled into the subnormals has subnormal pivots, where getf2 divides instead
    of multiplying by the (overflowing) reciprocal and the subnormal rounding decides the
    inf/NaN pattern of inv and even slogdet's sign: NumPy's answers, element for element."""
    rng = np.random.default_rng(n)
    a = _rand(rng, (40, n, n), dtype)
    a[6] *= 1e-310
    a[9, :, 0] *= 1e-310                  # one subnormal column: a subnormal first pivot
    b = _rand(rng, (40, n, 1), dtype)
    with np.errstate(all="ignore"):
        want_inv = np.linalg.inv(a)
        want_x = np.linalg.solve(a, b)
        s_np, l_np = np.linalg.slogdet(a)
        d_np = np.linalg.det(a)
    out, info = api.inv(a)
    assert not info.any()
    x, info = api.solve(a, b)
    sign, logabs = api.slogdet(a)
    for i in (6, 9):
        np.testing.assert_array_equal(np.isnan(out[i]), np.isnan(want_inv[i]))
        np.testing.assert_array_equal(np.isinf(out[i]), np.isinf(want_inv[i]))
        np.testing.assert_array_equal(np.isnan(x[i]), np.isnan(want_x[i]))
        assert sign[i] == s_np[i] and logabs[i] == l_np[i]
    fin = np.isfinite(want_inv)
    np.testing.assert_allclose(out[fin], want_inv[fin], rtol=1e-8)
    np.testing.assert_allclose(api.det(a), d_np, rtol=1e-10)


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["f64", "c128"])
def test_1x1_special_elements_are_numpys_answer_without_warnings(dtype):
    """1x1 stacks divide directly; a zero, subnormal, inf or NaN element gets NumPy's
    gufunc answer (LAPACK's reciprocal of a subnormal pivot overflows: inf or NaN where the
    quotient is finite), and NaN input raises no warning, as NumPy's inv and solve."""
    vals = [2e-310, -3e-310, 3.0, -1e-308, 1e308, np.inf, -np.inf, np.nan, 0.0]
    if dtype == np.complex128:
        vals += [3e-310 + 1e-310j, complex(np.nan, 0), complex(0, np.inf), 3 + 1j, 1e-300j]
    a = np.array(vals, dtype).reshape(-1, 1, 1)
    b = np.full((a.shape[0], 1, 2), 1e-310, dtype)
    b[:, :, 1] = 5
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out, info = api.inv(a)
        x, info_x = api.solve(a, b)
        for i in range(a.shape[0]):
            if a[i, 0, 0] == 0:
                assert info[i] == info_x[i] == 1 and np.isnan(out[i]).all()
                continue
            assert info[i] == info_x[i] == 0
            np.testing.assert_array_equal(out[i], np.linalg.inv(a[i]))
            np.testing.assert_allclose(x[i], np.linalg.solve(a[i], b[i]), rtol=1e-15)
            np.testing.assert_array_equal(np.isfinite(x[i]),
                                          np.isfinite(np.linalg.solve(a[i], b[i])))


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["f64", "c128"])
@pytest.mark.parametrize("n", [2, 3, 4, 5], ids=lambda n: f"n{n}")
def test_det_of_inexact_rank_deficient_stacks(dtype, n):
    """Rank r < n with inexact entries (a rounded product u @ v): the stored matrix is
    within rounding of rank r, so its det is of order eps**(n - r) times scale**n (the det
    of A + E is of order |E|**(n - r) near a matrix of rank r). A closed form whose minors
    are all rounding residue (rank n - 2 or less) gets eps**1 from its last subtraction;
    those elements must go to LU, which gives LAPACK's answer, zeros included."""
    rng = np.random.default_rng(100 + n)
    eps = np.finfo(dtype).eps
    for r in range(1, n):
        u, v = _rand(rng, (2000, n, r), dtype), _rand(rng, (2000, r, n), dtype)
        a = u @ v
        scale = np.abs(a).max(axis=(1, 2)) ** n
        want = np.linalg.det(a)
        d = api.det(a)
        assert np.all(np.abs(d) <= 64 * n * eps ** (n - r) * scale), r
        np.testing.assert_array_equal(d == 0, want == 0)
        sign, logabs = api.slogdet(a)
        s_np, l_np = np.linalg.slogdet(a)
        np.testing.assert_array_equal(sign == 0, s_np == 0)
        finite = np.isfinite(l_np)
        assert np.all(logabs[finite] <= np.log(64 * n * eps ** (n - r) * scale[finite]))

@dtypes
@pytest.mark.parametrize("n", [1, 3, 5], ids=lambda n: f"n{n}")
def test_not_positive_definite(dtype, n):
    rng = np.random.default_rng(n)
    a = _spd(rng, (3, n, n), dtype)
    a[1, n - 1, n - 1] = -abs(a[1, n - 1, n - 1]) - 100  # the last leading minor fails
    f, info = api.cholesky(a)
    ref = (sl.zpotrf if np.iscomplexobj(a) else sl.dpotrf)(a[1], lower=True)[1]
    np.testing.assert_array_equal(info, [0, ref, 0])
    assert ref == n and np.isnan(f[1]).all() and np.isfinite(f[[0, 2]]).all()
    a[2, 0, 0] = np.nan  # reference LAPACK's DISNAN check: a NaN pivot fails too
    assert api.cholesky(a)[1][2] == 1


@dtypes
@pytest.mark.parametrize("n", [2, 3, 4, 7], ids=lambda n: f"n{n}")
def test_nan_inf_propagate(dtype, n):
    rng = np.random.default_rng(n)
    a = _well(rng, (3, n, n), dtype)
    a[1, 0, n - 1] = np.nan
    out, info = api.inv(a)
    assert not info.any() and np.isnan(out[1]).any()
    assert np.isfinite(out[[0, 2]]).all()
    wide = np.complex128 if np.dtype(dtype).kind == "c" else np.float64
    np.testing.assert_array_equal(out[1], np.linalg.inv(a[1].astype(wide)).astype(dtype))
    d = api.det(a)
    assert np.isnan(d[1]) and np.isfinite(d[[0, 2]]).all()
    sign, logabs = api.slogdet(a)
    s_np, l_np = np.linalg.slogdet(a)
    assert np.isnan(logabs[1])
    np.testing.assert_array_equal(np.isnan(sign), np.isnan(s_np))


@pytest.mark.parametrize("n", [1, 2, 3, 5], ids=lambda n: f"n{n}")
@pytest.mark.parametrize("value", [np.inf, -np.inf, complex(np.inf, 1), complex(1, -np.inf)],
                         ids=["inf", "-inf", "inf+1j", "1-infj"])
def test_complex_det_with_inf_is_numpys(n, value):
    """NumPy's complex det is sign * exp(logabsdet), NaN wherever a pivot is infinite."""
    a = np.stack([np.eye(n, dtype=np.complex128)] * 3)
    a[1, 0, 0] = value
    with np.errstate(invalid="ignore"):
        want = np.linalg.det(a)
        want_s = np.linalg.slogdet(a)
    np.testing.assert_array_equal(api.det(a), want)
    for got, w in zip(api.slogdet(a), want_s):
        np.testing.assert_array_equal(got, w)


def test_inv_inf_matches_numpy():
    a = np.array([[1.0, np.inf], [2.0, 3.0]])
    np.testing.assert_array_equal(api.inv(a)[0], np.linalg.inv(a))


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["f64", "c128"])
@pytest.mark.parametrize("n", [2, 3, 4], ids=lambda n: f"n{n}")
@pytest.mark.parametrize("scale", [1e-150, 1e-110, 1e110, 1e200], ids=str)
def test_det_extreme_scale(dtype, n, scale):
    """Closed forms fall back to LU where their products under- or overflow."""
    rng = np.random.default_rng(n)
    a = _well(rng, (2, n, n), dtype) * scale
    sign, logabs = api.slogdet(a)
    s_np, l_np = np.linalg.slogdet(a)
    np.testing.assert_allclose(sign, s_np, rtol=1e-12)
    np.testing.assert_allclose(logabs, l_np, rtol=1e-12)
    d_np = np.linalg.det(a)
    np.testing.assert_allclose(api.det(a), d_np, rtol=1e-11,
                               atol=np.finfo(np.float64).tiny)


LAYOUTS = {
    "fortran": lambda x: np.asfortranarray(x),
    "negstride": lambda x: x[::-1, ::-1, ::-1].copy()[::-1, ::-1, ::-1],
    "noncontig": lambda x: np.repeat(x, 2, axis=-1)[..., ::2],
    "readonly": lambda x: _readonly(x),
    "bigendian": lambda x: x.astype(x.dtype.newbyteorder(">")),
    "broadcast": lambda x: np.broadcast_to(x[:1], x.shape),
}


def _readonly(x):
    x = x.copy()
    x.flags.writeable = False
    return x


@pytest.mark.parametrize("layout", list(LAYOUTS), ids=list(LAYOUTS))
@pytest.mark.parametrize("n", [3, 6], ids=lambda n: f"n{n}")
def test_layouts_and_inputs_untouched(layout, n):
    rng = np.random.default_rng(n)
    base = _spd(rng, (4, n, n), np.float64)
    rhs = _rand(rng, (4, n, 2), np.float64)
    a = LAYOUTS[layout](base)
    b = LAYOUTS[layout](rhs)
    ref_base = np.ascontiguousarray(a, dtype=np.float64)
    ref_rhs = np.ascontiguousarray(b, dtype=np.float64)
    before = (a.tobytes(), a.strides, a.flags.writeable, b.tobytes())
    results = [api.inv(a)[0], api.det(a), *api.slogdet(a), api.solve(a, b)[0],
               api.cholesky(a)[0], api.cholesky(a, upper=True)[0]]
    expect = [api.inv(ref_base)[0], api.det(ref_base), *api.slogdet(ref_base),
              api.solve(ref_base, ref_rhs)[0], api.cholesky(ref_base)[0],
              api.cholesky(ref_base, upper=True)[0]]
    assert (a.tobytes(), a.strides, a.flags.writeable, b.tobytes()) == before
    for got, want in zip(results, expect):
        assert got.dtype.isnative
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("shape", [(0, 3, 3), (2, 0, 0), (0, 0), (5, 0, 4, 4), (1, 1)],
                         ids=str)
def test_empty(shape):
    a = np.ones(shape) + (np.eye(shape[-1]) if shape[-1] else 0)
    batch = shape[:-2]
    out, info = api.inv(a)
    assert out.shape == shape and info.shape == batch
    np.testing.assert_array_equal(api.det(a), np.linalg.det(a))
    sign, logabs = api.slogdet(a)
    s_np, l_np = np.linalg.slogdet(a)
    np.testing.assert_array_equal(sign, s_np)
    np.testing.assert_array_equal(logabs, l_np)
    b = np.ones(shape[:-1] + (2,))
    x, info = api.solve(a, b)
    assert x.shape == b.shape and info.shape == batch
    x, info = api.solve(a, np.ones(shape[:-1] + (0,)))
    assert x.shape == shape[:-1] + (0,)
    assert api.cholesky(a)[0].shape == shape


@dtypes
@pytest.mark.parametrize("n", [1, 2, 3, 4, 6, 17], ids=lambda n: f"n{n}")
def test_small_stack_entry_points(dtype, n, monkeypatch):
    """A small C-contiguous (count, n, n) stack runs through one ``_stack`` call; the same
    matrices as a (1, count, n, n) stack run through the general path (layout conversion,
    then ``_run``). Both run the same kernels, so they agree bit for bit, failures and
    redone elements included, and agree with NumPy."""
    rng = np.random.default_rng(300 + n)
    a = _well(rng, (6, n, n), dtype)
    a[1] = 1.0 if n > 1 else 0.0  # exactly singular
    a[4, 0, n - 1] = np.nan
    spd = _spd(rng, (6, n, n), dtype)
    spd[2, n - 1, n - 1] = -1.0  # its last leading minor is not positive
    b = _rand(rng, (6, n, 2), dtype)
    calls = []
    entry = api._entry

    def recording(name, fn):
        return lambda *args: calls.append(name) or fn(*args)

    def recording_entry(order, dtype):
        real = entry(order, dtype)
        names = ("det_stack", "slogdet_stack", "inv_stack", "solve_stack", "cholesky_stack")
        return types.SimpleNamespace(
            det_gufunc=real.det_gufunc, slogdet_gufunc=real.slogdet_gufunc,
            **{name: recording(name, getattr(real, name)) for name in names})
    monkeypatch.setattr(api, "_entry", recording_entry)
    monkeypatch.setattr(api, "_PLANS", {})  # the small-stack path looks _entry up once
    run = api._run
    monkeypatch.setattr(api, "_run", lambda *args: calls.append("_run") or run(*args))
    small = [api.det(a), *api.slogdet(a), *api.inv(a), *api.solve(a, b), *api.cholesky(spd),
             *api.cholesky(spd, upper=True)]
    # n = 1 has its own NumPy one-liners; solve from n = 16 runs LAPACK on chunks
    expected = ["det_stack", "slogdet_stack"] + ["inv_stack"] * (n > 1) \
        + (["solve_stack"] if n < 16 else ["_run"]) * (n > 1) + ["cholesky_stack"] * 2 * (n > 1)
    assert calls == expected  # no _run (but solve's LAPACK chunks): the one-call path
    del calls[:]
    general = [api.det(a[None])[0], *(r[0] for r in api.slogdet(a[None])),
               *(r[0] for r in api.inv(a[None])), *(r[0] for r in api.solve(a[None], b[None])),
               *(r[0] for r in api.cholesky(spd[None])),
               *(r[0] for r in api.cholesky(spd[None], upper=True))]
    assert "_run" in calls and calls[0] == "_run"  # the general path
    for got, want in zip(small, general):
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
    det, sign, logabs, inv, inv_info, x, solve_info, low, low_info = small[:9]
    wide = np.complex128 if np.dtype(dtype).kind == "c" else np.float64
    ok = [0, 2, 3, 5]
    tol = _tol(dtype, a[ok])
    np.testing.assert_allclose(det[ok], np.linalg.det(a[ok]), rtol=tol)
    assert det[1] == 0 and sign[1] == 0 and logabs[1] == -np.inf and np.isnan(det[4])
    np.testing.assert_array_equal(inv_info, [0, _getrf(a[1]), 0, 0, 0, 0])
    assert np.isnan(inv[1]).all()
    np.testing.assert_allclose(inv[ok], np.linalg.inv(a[ok]), rtol=tol,
                               atol=tol * np.abs(np.linalg.inv(a[ok])).max())
    np.testing.assert_array_equal(inv[4], np.linalg.inv(a[4].astype(wide)).astype(dtype))
    np.testing.assert_array_equal(solve_info, inv_info)
    np.testing.assert_allclose(x[ok], np.linalg.solve(a[ok], b[ok]), rtol=tol,
                               atol=tol * np.abs(np.linalg.solve(a[ok], b[ok])).max())
    potrf = sl.zpotrf if np.iscomplexobj(spd) else sl.dpotrf
    np.testing.assert_array_equal(low_info, [potrf(m, lower=True)[1] for m in spd])
    good = [0, 1, 3, 4, 5]
    ctol = 50 * n * np.finfo(dtype).eps
    ref = np.linalg.cholesky(spd[good])
    np.testing.assert_allclose(low[good], ref, rtol=ctol, atol=ctol * np.abs(ref).max())
    assert np.isnan(low[2]).all()


def test_solve_mixed_dtypes_and_zero_rhs():
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    b = np.array([[1.0 + 1j], [2.0]])
    x, info = api.solve(a, b)
    assert x.dtype == np.complex128
    np.testing.assert_allclose(x, np.linalg.solve(a, b), rtol=1e-14)
    _, info = api.solve(np.zeros((2, 2)), np.zeros((2, 0)))
    assert info == 1


def test_rejects_bad_input():
    with pytest.raises(TypeError, match="unsupported dtype"):
        api.det(np.eye(2, dtype=np.int64))
    with pytest.raises(ValueError):
        api.inv(np.ones((2, 3)))
    with pytest.raises(ValueError):
        api.solve(np.eye(2), np.ones((3, 1)))


def test_threads_agree():
    rng = np.random.default_rng(0)
    a = _well(rng, (2000, 3, 3), np.float64)
    want = api.inv(a)[0]
    results = [None] * 4

    def work(i):
        results[i] = api.inv(a)[0]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for r in results:
        np.testing.assert_array_equal(r, want)


def test_generated_small_kernels_up_to_date():
    path = pathlib.Path(_gen_small.__file__).with_name("_small.py")
    assert path.read_text() == _gen_small.source(), "run python -m linalgx.kernels._gen_small"


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["f64", "c128"])
@pytest.mark.parametrize("n", [5, 9], ids=lambda n: f"n{n}")
def test_fixed_order_kernels_are_the_generic_ones_bit_for_bit(dtype, n):
    """``_stack.fixed(n)`` compiles the generic entry points with n a constant (unrolled
    loops); without fast-math LLVM may not reorder floating-point operations, so every
    output, failures and marked elements included, is the generic kernels' bit for bit."""
    from linalgx.kernels import _stack

    rng = np.random.default_rng(900 + n)
    a = _well(rng, (7, n, n), dtype)
    a[1] = 1.0  # exactly singular
    a[3, 0, n - 1] = np.nan
    a[5] *= 1e-160  # det underflows
    spd = _spd(rng, (7, n, n), dtype)
    spd[2, n - 1, n - 1] = -1.0
    b = _rand(rng, (7, n, 3), dtype)
    tiny, rtol = api._TINY[np.dtype(dtype)], api._rtol(np.dtype(dtype), n)
    real = np.empty(0, dtype).real.dtype

    def run(entry):  # outputs start zeroed: a failed element's result is left unspecified
        outs = []
        out = np.zeros(7, dtype)
        outs += [entry.det_stack(a, n, out, rtol), out]
        sign, logabs = np.zeros(7, dtype), np.zeros(7, real)
        outs += [entry.slogdet_stack(a, n, sign, logabs, tiny, rtol), sign, logabs]
        inv, info = np.zeros_like(a), np.zeros(7, np.int32)
        outs += [entry.inv_stack(a, n, inv, info, tiny, rtol), inv, info]
        for rhs in (b, b[..., :1].copy()):
            x, info = np.zeros_like(rhs), np.zeros(7, np.int32)
            outs += [entry.solve_stack(a, rhs, n, x, info, tiny, rtol), x, info]
        for upper in (False, True):
            c, info = np.zeros_like(spd), np.zeros(7, np.int32)
            outs += [entry.cholesky_stack(spd, n, c, info, upper, rtol), c, info]
        flat = a.reshape(7, n * n)
        out = np.zeros(7, dtype)
        entry.det_gufunc(flat, n, out, rtol)
        sign, logabs = np.zeros(7, dtype), np.zeros(7, real)
        entry.slogdet_gufunc(flat, n, sign, logabs, tiny, rtol)
        return outs + [out, sign, logabs]

    fixed, generic = run(_stack.fixed(n)), run(_stack)
    assert _stack.fixed(n) is _stack.fixed(n)
    for f, g in zip(fixed, generic):
        f, g = np.atleast_1d(f), np.atleast_1d(g)
        np.testing.assert_array_equal(f.view(np.uint8), g.view(np.uint8))
    assert np.isnan(fixed[1][1]) and fixed[0] > 0  # the singular det was marked for LAPACK
    f64, c128 = np.dtype(np.float64), np.dtype(np.complex128)
    assert api._entry(5, f64) is _stack.fixed(5) and api._entry(16, c128) is _stack.fixed(16)
    assert api._entry(4, f64) is _stack and api._entry(17, f64) is _stack
    assert api._entry(9, c128) is _stack


@pytest.mark.parametrize("dtype", [np.float64, np.complex128])
def test_broadcast_stack_is_not_materialized(dtype):
    """A stack that repeats one matrix along a batch axis (stride 0) is computed once per
    distinct matrix, not copied out: 10**7 repeats of a 12x12 (11 GB if copied) take only
    the output's memory, and every result matches NumPy's for the matrix, in a fresh
    writeable array. Also partly repeated stacks, and solve where both a and b repeat."""
    import tracemalloc
    rng = np.random.default_rng(0)
    a = _well(rng, (3, 1, 12, 12), dtype)
    spd = _spd(rng, (3, 1, 12, 12), dtype)
    b = _rand(rng, (3, 1, 12, 2), dtype)
    shape = (3, 5)
    calls = {
        "det": (api.det, (a,), lambda x: (np.linalg.det(x),)),
        "slogdet": (api.slogdet, (a,), lambda x: tuple(np.linalg.slogdet(x))),
        "inv": (lambda x: api.inv(x)[0], (a,), lambda x: (np.linalg.inv(x),)),
        "solve": (lambda x, y: api.solve(x, y)[0], (a, b), lambda x, y: (np.linalg.solve(x, y),)),
        "cholesky": (lambda x: api.cholesky(x)[0], (spd,), lambda x: (np.linalg.cholesky(x),)),
        "eigvalsh": (lambda x: api.eigh(x, False, False)[0], (spd,),
                     lambda x: (np.linalg.eigvalsh(x),)),
        "svdvals": (lambda x: api.svd(x, False)[1], (a,), lambda x: (np.linalg.svdvals(x),)),
    }
    for name, (fn, ins, ref) in calls.items():
        wide = [np.broadcast_to(x, shape + x.shape[2:]) for x in ins]
        got = fn(*wide)
        got = got if isinstance(got, tuple) else (got,)
        for g, r in zip(got, ref(*ins)):
            assert g.shape == shape + r.shape[2:], name
            assert g.flags.writeable and g.flags.c_contiguous, name
            np.testing.assert_allclose(g, np.broadcast_to(r, g.shape), rtol=1e-10, atol=1e-12,
                                       err_msg=name)
    huge = np.broadcast_to(a[0, 0], (10**7, 12, 12))
    tracemalloc.start()
    try:
        d = api.det(huge)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2 * d.nbytes
    np.testing.assert_allclose(d[[0, -1]], np.linalg.det(a[0, 0]), rtol=1e-12)
