"""exp1, expi, expn, erfi, dawsn, softplus, huber, pseudo_huber, boxcox, boxcox1p, inv_boxcox
and inv_boxcox1p against scipy.special (special values, dtypes, ufunc keywords) and mpmath
(accuracy: 2,000 points each, error <= max(4 ulp, SciPy's error at that point); the
derivatives).

Where linalgx's finite value differs from SciPy's by more than 4 ulp it must be within 4 ulp
of mpmath; where SciPy's value is NaN or inf and linalgx's is not (or the reverse), the
point must be one of the documented deviations (DEVIATES), also checked against mpmath.
"""
import math
import subprocess
import sys
import warnings

import numpy as np
import pytest
import scipy.special as sc

import linalgx
import linalgx.special as ls
from linalgx.special import _boxcox as BC
from linalgx.special import _dawson as DW
from linalgx.special import _expint as EI
from linalgx.special import _losses as LO

mp = pytest.importorskip("mpmath")

UNARY = ["exp1", "expi", "erfi", "dawsn", "softplus"]
BINARY = ["expn", "huber", "pseudo_huber", "boxcox", "boxcox1p", "inv_boxcox", "inv_boxcox1p"]
NEW = UNARY + BINARY
UFUNCS = [n for n in NEW if n != "softplus"]

EDGE = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, -2.0, 2.0, 0.5, -0.5, 3.0,
                 -3.0, 1e-300, -1e-300, 1e-310, -1e-310, 5e-324, 1e300, -1e300, 1e-19, 2e-19,
                 1e-8, -1e-8, 0.37250741078136663, 0.3725, 26.6, 26.7, -26.7, 26.8, 40.0,
                 40.5, 45.0, 64.0, 100.0, 700.0, 709.9, 712.0, 716.0, 717.0, 720.0, 745.0,
                 746.0, 1e154, 1e-154, 1.79e308, -1.0 + 1e-16, 51.0, 60.0, 1e8])
_TINY = 2.2250738585072014e-308


def _dev_pseudo_huber(d, r):
    # finite delta > 0 and r != 0: cancellation-free formula (SciPy: NaN where (r/delta)**2
    # overflows and delta**2 underflows, 0 where it underflows)
    return np.isfinite(d) & np.isfinite(r) & (d > 0) & (r != 0)


# points where linalgx's value deliberately differs in kind (finite vs inf/NaN/0) from SciPy's
DEVIATES = {
    "erfi": lambda x: (np.abs(x) > 26.63) & (np.abs(x) < 26.72),
    "expi": lambda x: (x > 709.78) & (x < 716.5),
    "expn": lambda n, x: (((x > 709.78) & (x < 745.2))
                          | (np.abs(n) >= 2.0 ** 31) & np.isfinite(n) & (x >= 0)),
    "pseudo_huber": _dev_pseudo_huber,
}


def _exact(name):
    from benchmarks.special_accuracy import cases
    return cases()[name].exact


def _ulp(value, exact):
    from benchmarks.special_accuracy import ulp_error
    return ulp_error(value, exact)


def _same(a, b):
    """Equal up to 4 ulp, NaN == NaN, and the same sign for zeros and infinities."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    both_nan = np.isnan(a) & np.isnan(b)
    with np.errstate(invalid="ignore"):
        exact = (a == b) & (np.signbit(a) == np.signbit(b))
        close = (np.isfinite(a) & np.isfinite(b)
                 & (np.abs(a - b) <= 4 * np.spacing(np.abs(b))))
    return both_nan | exact | close


def _check_against_scipy(name, args, ours, ref):
    ok = _same(ours, ref)
    kind = ~(np.isfinite(ours) & np.isfinite(ref))       # NaN or inf on either side
    with np.errstate(all="ignore"):
        dev = DEVIATES[name](*args) if name in DEVIATES else np.zeros(ours.shape, bool)
    bad = ~ok & kind & ~dev
    assert not bad.any(), [tuple(float(a[i]) for a in args) + (ours[i], ref[i])
                           for i in np.flatnonzero(bad)[:8]]
    # every other difference is linalgx being closer to mpmath
    exact = _exact(name)
    mp.mp.dps = 40
    for i in np.flatnonzero(~ok & ~bad):
        pt = [mp.mpf(float(a[i])) for a in args]
        try:
            e = exact(*pt)
        except (ValueError, ZeroDivisionError, OverflowError):
            continue
        err = _ulp(ours[i], e)
        assert err <= 4, (name, [float(a[i]) for a in args], ours[i], ref[i], err)


@pytest.mark.parametrize("name", UNARY)
def test_unary_edge_values_match_scipy(name):
    with np.errstate(all="ignore"):
        ours = np.asarray(getattr(ls, name)(EDGE), dtype=float)
        ref = np.asarray(getattr(sc, name)(EDGE), dtype=float)
    _check_against_scipy(name, (EDGE,), ours, ref)


@pytest.mark.parametrize("name", BINARY)
def test_binary_edge_values_match_scipy(name):
    a, b = np.meshgrid(EDGE, EDGE)
    a, b = a.ravel(), b.ravel()
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)
        ours = getattr(ls, name)(a, b)
        ref = getattr(sc, name)(a, b)
    _check_against_scipy(name, (a, b), ours, ref)


def test_expn_integer_degrees_near_the_special_points_match_scipy():
    n = np.arange(0, 60)[:, None]
    x = np.array([0.0, 5e-324, 1e-300, 1e-10, 0.5, 1.0, 700.0, 709.0, np.inf, np.nan, -1.0])
    ours = ls.expn(n, x)
    ref = sc.expn(n, x)
    nn, xx = np.broadcast_arrays(n.astype(float), x)
    _check_against_scipy("expn", (nn.ravel(), xx.ravel()), ours.ravel(), ref.ravel())


# -- documented deviations -------------------------------------------------------------------
def test_documented_deviations_are_accurate():
    mp.mp.dps = 40
    # erfi stays finite up to 26.71 (SciPy: inf from 26.64)
    for x in (26.65, 26.7, 26.71):
        assert math.isinf(sc.erfi(x))
        assert _ulp(float(ls.erfi(x)), mp.erfi(mp.mpf(x))) <= 4
    assert ls.erfi(26.72) == np.inf and ls.erfi(-26.72) == -np.inf
    # expi stays finite up to 716.4 (SciPy: inf from 709.78)
    for x in (710.0, 714.0, 716.3):
        assert math.isinf(sc.expi(x))
        assert _ulp(float(ls.expi(x)), mp.ei(mp.mpf(x))) <= 4
    assert ls.expi(716.5) == np.inf
    # expn's subnormal values beyond 709.78 (SciPy: 0)
    for n, x in ((0, 712.0), (3, 720.0), (40, 730.0)):
        assert sc.expn(n, x) == 0.0
        v = float(ls.expn(n, x))
        assert 0 < v < _TINY
        assert _ulp(v, mp.expint(n, mp.mpf(x))) <= 1
    # expn's degree beyond the int range: SciPy NaN (float) or wrapped mod 2**32 (integer)
    exact = _exact("expn")
    for n in (2.0 ** 31 + 4, 1e12):
        assert math.isnan(sc.expn(n, 2.0))
        assert _ulp(float(ls.expn(n, 2.0)), exact(mp.mpf(n), mp.mpf(2))) <= 4
    big = np.int64(2 ** 32 + 2)
    assert sc.expn(big, 1.0) == sc.expn(2, 1.0)
    assert _ulp(float(ls.expn(big, 1.0)), exact(mp.mpf(int(big)), mp.mpf(1))) <= 4
    # Ei near its zero keeps its relative accuracy (SciPy's series cancels)
    for x in (0.37250741078136663, 0.3725074107813666, 0.372507410781367, 0.3725):
        assert _ulp(float(ls.expi(x)), mp.ei(mp.mpf(x))) <= 4
    assert _ulp(float(sc.expi(0.37250741078136663)), mp.ei(mp.mpf(0.37250741078136663))) > 1e6
    # pseudo_huber where (r/delta)**2 overflows or delta**2 underflows
    assert math.isnan(sc.pseudo_huber(1e-300, 1.0))
    assert float(ls.pseudo_huber(1e-300, 1.0)) == pytest.approx(1e-300, rel=1e-15)
    assert float(ls.pseudo_huber(1e-160, 1e-150)) == pytest.approx(1e-310, rel=1e-6)


def test_expn_truncates_a_floating_degree_with_scipys_warning():
    with pytest.warns(RuntimeWarning, match="truncated to an integer"):
        got = ls.expn(np.array([2.5, -0.5, 3.0]), 1.5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        want = sc.expn(np.array([2.5, -0.5, 3.0]), 1.5)
    np.testing.assert_allclose(got, want, rtol=1e-14)       # SciPy: a few ulp off
    mp.mp.dps = 40
    for g, n in zip(got, (2, 0, 3)):
        assert _ulp(g, mp.expint(n, 1.5)) <= 4
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ls.expn(np.array([2.0, 3.0]), 1.5)       # integer-valued: no warning
        ls.expn(np.array([2, 3]), 1.5)


# -- dtypes, scalars, out=, broadcasting ------------------------------------------------------
DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
          np.uint8, np.bool_]


def _args(name, x, y):
    return (x,) if name in UNARY else (y, x) if name == "expn" else (x, y)


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", NEW)
def test_result_dtype_matches_scipy(name, dtype):
    x = np.array([1, 0, 1], dtype=dtype)
    args = _args(name, x, np.array([1, 1, 0], dtype=dtype))
    with np.errstate(all="ignore"):
        want = getattr(sc, name)(*args)
    got = getattr(ls, name)(*args)
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=4e-15)     # accuracy: tested below


@pytest.mark.parametrize("name", UFUNCS)
def test_float32_values_are_rounded_once(name):
    rng = np.random.default_rng(3)
    x = rng.uniform(0.05, 1.9, 300).astype(np.float32)
    y = rng.uniform(0.05, 1.9, 300).astype(np.float32)
    if name == "expn":
        y = np.floor(y * 4)
    args = _args(name, x, y)
    got = getattr(ls, name)(*args)
    want = getattr(sc, name)(*args)
    assert got.dtype == np.float32 == want.dtype
    exact = getattr(ls, name)(*(a.astype(np.float64) for a in args)).astype(np.float32)
    np.testing.assert_array_equal(got, exact)
    np.testing.assert_array_max_ulp(got, want, maxulp=1)


def test_softplus_is_numpys_logaddexp():
    rng = np.random.default_rng(4)
    for dt in (np.float16, np.float32, np.float64):
        x = (rng.normal(size=50) * 30).astype(dt)
        got = ls.softplus(x)
        want = sc.softplus(x)
        assert got.dtype == want.dtype
        np.testing.assert_array_equal(got, want)
    assert type(ls.softplus(0.7)) is type(sc.softplus(0.7)) is np.float64
    out = np.zeros(3)
    res = ls.softplus([-1.0, 0.0, 1.0], out=out, where=np.array([True, False, True]))
    assert res is out
    np.testing.assert_array_equal(out, [sc.softplus(-1.0), 0.0, sc.softplus(1.0)])
    assert ls.softplus(np.array([1, 2]), dtype=np.float32).dtype == np.float32
    with pytest.raises(TypeError):
        sc.softplus(np.array([1 + 1j]))
    with pytest.raises(TypeError):
        ls.softplus(np.array([1 + 1j]))


@pytest.mark.parametrize("name", NEW)
def test_scalars_give_numpy_scalars(name):
    args = (2, 0.7) if name == "expn" else _args(name, 0.7, 1.3)
    got = getattr(ls, name)(*args)
    want = getattr(sc, name)(*args)
    assert type(got) is type(want) is np.float64
    assert got == pytest.approx(want, rel=1e-14)


@pytest.mark.parametrize("name", UFUNCS)
def test_out_where_and_broadcasting(name):
    rng = np.random.default_rng(5)
    if name in UNARY:
        args = (rng.uniform(0.1, 1.9, (3, 4)),)
    elif name == "expn":
        args = (np.arange(3)[:, None], rng.uniform(0.1, 3, (1, 4)))
    else:
        args = (rng.uniform(0.1, 3, (3, 1)), rng.uniform(0.1, 3, (1, 4)))
    f = getattr(ls, name)
    want = f(*args)
    np.testing.assert_allclose(want, getattr(sc, name)(*args), rtol=1e-14)
    out = np.full((3, 4), -7.0)
    res = f(*args, out=out)
    assert res is out
    np.testing.assert_array_equal(out, want)
    mask = rng.random((3, 4)) < 0.5
    out2 = np.full((3, 4), -7.0)
    f(*args, out=out2, where=mask)
    np.testing.assert_array_equal(out2, np.where(mask, want, -7.0))
    big = np.zeros((3, 8))
    f(*args, out=big[:, ::2])
    np.testing.assert_array_equal(big[:, ::2], want)
    assert f(*args, dtype=np.float32).dtype == np.float32


@pytest.mark.parametrize("name", ["exp1", "expi", "erfi", "dawsn"])
def test_complex_input_goes_to_scipys_loop(name):
    z = np.array([0.3 + 0.4j, -1.7 + 0.2j, 5.0 - 3.0j, -2.0 + 0j], dtype=np.complex128)
    np.testing.assert_array_equal(getattr(ls, name)(z), getattr(sc, name)(z))
    z64 = z.astype(np.complex64)
    assert getattr(ls, name)(z64).dtype == getattr(sc, name)(z64).dtype == np.complex64


@pytest.mark.parametrize("name", BINARY)
def test_complex_input_raises_as_scipy(name):
    args = (np.array([1 + 1j]),) * 2
    with pytest.raises(TypeError):
        getattr(sc, name)(*args)
    with pytest.raises(TypeError):
        getattr(ls, name)(*args)


def test_import_does_not_load_numba():
    code = "import sys, linalgx, linalgx.special; assert 'numba' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


# -- accuracy against mpmath ------------------------------------------------------------------
@pytest.mark.parametrize("name", NEW)
def test_accuracy_against_mpmath(name):
    from benchmarks.special_accuracy import cases, measure, violations
    e_ours, e_ref, args = measure(cases()[name], 2000, seed=1)
    bad = np.flatnonzero(violations(e_ours, e_ref))
    assert bad.size == 0, [(tuple(float(np.asarray(a)[i]) for a in args), e_ours[i], e_ref[i])
                           for i in bad[:5]]
    good = e_ref <= 4
    assert np.nanmax(np.where(good, e_ours, 0)) <= 4


@pytest.mark.parametrize("name,limit", [("exp1", 3), ("expi", 3), ("expn", 3.5),
                                        ("erfi", 3.5), ("dawsn", 2.5)])
def test_accuracy_where_scipy_is_not(name, limit):
    # these do not inherit SciPy's errors (up to 16 ulp for expn, unbounded for expi)
    from benchmarks.special_accuracy import cases, measure
    e_ours, _, _ = measure(cases()[name], 1000, seed=2)
    assert np.nanmax(e_ours) <= limit


# -- derivatives -----------------------------------------------------------------------------
def _jvp(op, args, i):
    out = op(*args)
    t = [None] * len(args)
    t[i] = np.ones_like(np.asarray(args[i], dtype=float))
    return op.jvp_rule(np, tuple(t), out, *args)


def _mp_diff(f, x, k=1):
    with mp.workdps(50):
        return mp.diff(f, mp.mpf(float(x)), k)


def _rel(got, want):
    return abs(float(got) - float(want)) / abs(float(want))


def test_first_derivatives_against_mpmath():
    mp.mp.dps = 40
    cases = [
        (EI._exp1, mp.e1, [0.01, 0.7, 3.0, 40.0, 700.0]),
        (EI._expi, mp.ei, [-20.0, -0.5, 0.1, 0.37250741078136663, 2.0, 50.0, 712.0]),
        (DW._erfi, mp.erfi, [-3.0, 0.1, 1.0, 10.0, 20.0, 26.0]),
        (DW._dawsn, lambda x: mp.sqrt(mp.pi) / 2 * mp.exp(-x * x) * mp.erfi(x),
         [-3.0, 0.1, 0.9, 1.5, 10.0, 70.0, 1e3]),
        (LO._softplus, lambda x: mp.log1p(mp.exp(x)), [-50.0, -1.0, 0.5, 30.0]),
    ]
    for op, fn, pts in cases:
        x = np.array(pts)
        got = _jvp(op, (x,), 0)
        for v, g in zip(pts, got):
            want = _mp_diff(fn, v)
            assert _rel(g, want) < 4e-15, (op, v, g, want)


def test_dawsn_derivative_without_cancellation():
    # near its zero x = 0.92413887 (D's maximum) D' keeps an absolute error below 1e-17
    mp.mp.dps = 40
    x = np.array([0.924138873, 0.9241388730585709, 0.92414])
    got = _jvp(DW._dawsn, (x,), 0)
    for v, g in zip(x, got):
        v = mp.mpf(float(v))
        want = 1 - 2 * v * mp.sqrt(mp.pi) / 2 * mp.exp(-v * v) * mp.erfi(v)
        assert abs(g - want) < 1e-17, (v, g, want)
    # 1 - 2 x D(x) = -1/(2 x**2) (1 + 3/(2 x**2) + ...): from D it loses all digits by 1e8
    x = np.array([1e3, 1e8, 1e20, 1e200])
    s = 1 / (2 * x ** 2)
    want = -s * (1 + 3 * s + 15 * s ** 2 + 105 * s ** 3)
    np.testing.assert_allclose(_jvp(DW._dawsn, (x,), 0), want, rtol=3e-16)
    assert np.all(1 - 2 * x[1:3] * sc.dawsn(x[1:3]) != want[1:3])    # the naive formula


def test_second_derivatives_against_mpmath():
    mp.mp.dps = 40
    d = lambda x: mp.sqrt(mp.pi) / 2 * mp.exp(-x * x) * mp.erfi(x)    # noqa: E731
    for f, fn, pts in [(ls.dawsn, d, [0.1, 0.9, 2.0, 9.0]),
                       (ls.erfi, mp.erfi, [0.1, 1.0, 5.0]),
                       (ls.exp1, mp.e1, [0.3, 2.0, 30.0]),
                       (ls.expi, mp.ei, [-3.0, 0.3, 2.0, 30.0]),
                       (ls.softplus, lambda x: mp.log1p(mp.exp(x)), [-5.0, 0.0, 3.0])]:
        x = np.array(pts)
        h = np.diag(linalgx.hessian(lambda v, f=f: f(v).sum())(x))
        for v, g in zip(pts, h):
            want = _mp_diff(fn, v, 2)
            assert abs(float(g) - float(want)) <= 1e-13 * abs(float(want)) + 1e-300, (f, v, g)


def test_expn_derivative():
    x = np.array([0.2, 1.0, 7.5])
    n = np.array([[0], [1], [2], [7], [80]])
    got = EI._expn.jvp_rule(np, (None, np.ones(3)), ls.expn(n, x), n, x)
    want = np.where(n == 0, -np.exp(-x) * (1 + x) / x ** 2, -sc.expn(np.maximum(n - 1, 0), x))
    np.testing.assert_allclose(got, want, rtol=1e-14)
    # through the engine, for a floating degree (truncated) and to second order
    g = linalgx.grad(lambda v: ls.expn(3.0, v).sum())(x)
    np.testing.assert_allclose(g, -sc.expn(2, x), rtol=1e-14)
    h = linalgx.hessian(lambda v: ls.expn(3, v).sum())(x)
    np.testing.assert_allclose(np.diag(h), sc.expn(1, x), rtol=1e-13)
    # no derivative in the degree
    assert EI._expn.vjp_rule(np, np.ones(3), ls.expn(2, x), 2, x)[0] is None


def _boxcox_mp(x, lm, one_p=False):
    lx = mp.log1p(x) if one_p else mp.log(x)
    return mp.expm1(lm * lx) / lm if lm != 0 else lx


@pytest.mark.parametrize("one_p", [False, True])
def test_boxcox_lambda_derivative_at_and_near_zero(one_p):
    op = BC._boxcox1p if one_p else BC._boxcox
    x = np.array([0.3, 2.5, 40.0])
    for lm in (0.0, 1e-300, -1e-12, 1e-9, 3e-5, 0.4, -2.0):
        got = op.jvp_rule(np, (None, np.ones(3)), op(x, lm), x, np.full(3, lm))
        for v, g in zip(x, got):
            with mp.workdps(60):
                if lm == 0 or abs(lm) < 1e-100:
                    want = (mp.log1p(v) if one_p else mp.log(v)) ** 2 / 2
                else:
                    want = mp.diff(lambda t, v=v: _boxcox_mp(mp.mpf(v), t, one_p), mp.mpf(lm))
            assert _rel(g, want) < 1e-14, (v, lm, g, want)
    # x derivative, and the value -1/lmbda at x = 0 (-1 for boxcox1p) in lambda
    gx = op.jvp_rule(np, (np.ones(3), None), op(x, 0.5), x, np.full(3, 0.5))
    base = 1 + x if one_p else x
    np.testing.assert_allclose(gx, base ** -0.5, rtol=1e-15)
    zero = np.array([-1.0 if one_p else 0.0])
    gl = op.jvp_rule(np, (None, np.ones(1)), op(zero, 0.5), zero, np.array([0.5]))
    np.testing.assert_allclose(gl, [4.0], rtol=1e-15)


@pytest.mark.parametrize("one_p", [False, True])
def test_inv_boxcox_lambda_derivative_at_and_near_zero(one_p):
    op = BC._inv_boxcox1p if one_p else BC._inv_boxcox
    y = np.array([-0.4, 0.3, 2.0])

    def f(yv, t):
        r = mp.exp(yv) if t == 0 else mp.exp(mp.log1p(t * yv) / t)
        return r - 1 if one_p else r

    for lm in (0.0, -1e-12, 1e-9, 3e-5, 0.4, -0.3):
        got = op.jvp_rule(np, (None, np.ones(3)), op(y, lm), y, np.full(3, lm))
        for v, g in zip(y, got):
            with mp.workdps(60):
                if lm == 0:
                    want = -mp.exp(mp.mpf(v)) * mp.mpf(v) ** 2 / 2
                else:
                    want = mp.diff(lambda t, v=v: f(mp.mpf(v), t), mp.mpf(lm))
            assert _rel(g, want) < 1e-14, (v, lm, g, want)
        gy = op.jvp_rule(np, (np.ones(3), None), op(y, lm), y, np.full(3, lm))
        for v, g in zip(y, gy):
            with mp.workdps(60):
                want = mp.diff(lambda s, lm=lm: f(s, mp.mpf(lm)), mp.mpf(v))
            assert _rel(g, want) < 1e-14, (v, lm, g, want)


def test_boxcox_second_derivative_in_lambda():
    # hessian through the rules (they call public linalgx functions)
    x = 2.5
    lm = np.array([0.0, 1e-8, 0.7])
    h = np.diag(linalgx.hessian(lambda t: ls.boxcox(x, t).sum())(lm))
    for t, g in zip(lm, h):
        with mp.workdps(60):
            want = mp.diff(lambda s: _boxcox_mp(mp.mpf(x), s), mp.mpf(t), 2)
        assert _rel(g, want) < 1e-12, (t, g, want)


def test_huber_derivatives():
    d = np.array([1.0, 1.0, 1.0, 2.0, -1.0])
    r = np.array([0.5, -3.0, 2.0, -1.0, 3.0])
    gd = _jvp(LO._huber, (d, r), 0)
    gr = _jvp(LO._huber, (d, r), 1)
    np.testing.assert_array_equal(gd, [0.0, 2.0, 1.0, 0.0, 0.0])
    np.testing.assert_array_equal(gr, [0.5, -1.0, 1.0, -1.0, 0.0])


def test_pseudo_huber_derivatives():
    mp.mp.dps = 40
    pts = [(1.0, 0.5), (2.0, -3.0), (1e-3, 1e5), (1e5, 1e-3), (1e-200, 1e100), (3.0, 1e-70)]
    d = np.array([p[0] for p in pts])
    r = np.array([p[1] for p in pts])
    gd = _jvp(LO._pseudo_huber, (d, r), 0)
    gr = _jvp(LO._pseudo_huber, (d, r), 1)

    def f(dv, rv):
        return rv * rv / (1 + mp.sqrt(1 + (rv / dv) ** 2))

    for (dv, rv), a, b in zip(pts, gd, gr):
        dv, rv = mp.mpf(dv), mp.mpf(rv)
        w2 = (rv / dv) ** 2
        s = mp.sqrt(1 + w2)
        want_d = dv * w2 * w2 / (s * (s + 1) ** 2)
        want_r = rv / s
        assert _rel(a, want_d) < 1e-14, (dv, rv, a, want_d)
        assert _rel(b, want_r) < 1e-14, (dv, rv, b, want_r)
        # and the closed forms are the derivatives of the function
        if not 1e-5 < abs(rv / dv) < 1e5:
            continue
        with mp.workdps(60):
            assert _rel(want_d, mp.diff(lambda t, rv=rv: f(t, rv), dv, relative=True,
                                        addprec=40)) < 1e-20
    # delta = 0: the value is 0 for all r; one-sided derivative |r| in delta
    g0 = _jvp(LO._pseudo_huber, (np.array([0.0]), np.array([-2.0])), 0)
    assert g0[0] == 2.0


def test_tangent_dtype_is_the_outputs():
    x = np.array([0.25, 0.5, 0.75], dtype=np.float32)
    for f in (ls.exp1, ls.expi, ls.erfi, ls.dawsn, ls.softplus,
              lambda v: ls.boxcox(v, np.float32(0.5)), lambda v: ls.huber(np.float32(0.5), v),
              lambda v: ls.expn(2, v)):
        out, t = linalgx.jvp(f, (x,), (np.ones_like(x),))
        assert t.dtype == out.dtype
