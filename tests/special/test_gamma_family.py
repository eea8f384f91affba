"""gamma, rgamma, loggamma, gammasgn, poch, beta, betaln, log_expit, exp10, erfcinv,
rel_entr and kl_div against scipy.special (special values, dtypes, ufunc keywords) and
mpmath (accuracy: 2,000 points each, error <= max(4 ulp, SciPy's error at that point)).

The documented deviations from SciPy are checked on their own: gammasgn's exact parity
below -2**31, exp10's subnormal results, erfcinv's accuracy at subnormal arguments and
kl_div where x / y under- or overflows (SciPy: -inf or inf).
"""
import math

import numpy as np
import pytest
import scipy.special as sc

import linalgx.special as ls
from linalgx.special import _entropy as EN
from linalgx.special import _erfcinv as EC
from linalgx.special import _explog as XL
from linalgx.special import _gammafn as GF

UNARY = ["gamma", "rgamma", "loggamma", "gammasgn", "log_expit", "exp10", "erfcinv"]
BINARY = ["poch", "beta", "betaln", "rel_entr", "kl_div"]
NEW = UNARY + BINARY

EDGE = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, -2.0, 2.0, 0.5, -0.5, -2.5,
                 3.0, 1e-300, -1e-300, 1e-310, -1e-310, 1e300, -1e300, 171.0, 171.7, 172.0,
                 -170.5, -180.5, 1e10, -1e10, 33.5, -33.5, 34.5, -34.5, 1e6, 1e7,
                 1.5e7 + 0.5, -1e13, 1e-8, 40.0, -40.0, 1.0 + 2 ** -52, 1.0 - 2 ** -53,
                 1.9999999999999998, 2.0 + 2 ** -51, -3e9])
# points where linalgx deliberately differs from SciPy (checked below)
DEVIATES = {"exp10": lambda x: (x < -308.2547155599167) & (x > -323.6),
            "erfcinv": lambda x: (x > 0) & (x < 2.2250738585072014e-308),
            # and y/2 <= x <= 2y, where SciPy's formula cancels (checked against mpmath)
            "kl_div": lambda x, y: (x > 0) & (y > 0) & ((x / y < 2.2250738585072014e-308)
                                                      | (x / y == np.inf)
                                                      | ((0.5 * y <= x) & (x <= 2 * y)))}


def _same(a, b):
    """Equal bitwise up to 4 ulp, NaN == NaN, and the same sign for zeros and infinities."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    both_nan = np.isnan(a) & np.isnan(b)
    with np.errstate(invalid="ignore"):
        exact = (a == b) & (np.signbit(a) == np.signbit(b))
        close = (np.isfinite(a) & np.isfinite(b)
                 & (np.abs(a - b) <= 4 * np.spacing(np.abs(b))))
    return both_nan | exact | close


def _report(ok, *args):
    bad = ~ok
    return [tuple(float(a[i]) for a in args) for i in np.flatnonzero(bad)[:10]]


@pytest.mark.parametrize("name", UNARY)
def test_unary_edge_values_match_scipy(name):
    ours = getattr(ls, name)(EDGE)
    ref = getattr(sc, name)(EDGE)
    ok = _same(ours, ref)
    if name in DEVIATES:
        ok |= DEVIATES[name](EDGE)
    assert ok.all(), _report(ok, EDGE, ours, ref)


@pytest.mark.parametrize("name", BINARY)
def test_binary_edge_values_match_scipy(name):
    a, b = np.meshgrid(EDGE, EDGE)
    ours = getattr(ls, name)(a, b)
    ref = getattr(sc, name)(a, b)
    ok = _same(ours, ref)
    if name in DEVIATES:
        with np.errstate(all="ignore"):
            ok |= DEVIATES[name](a, b)
    assert ok.all(), _report(ok.ravel(), a.ravel(), b.ravel(), ours.ravel(), ref.ravel())
    if name == "kl_div":
        mp = pytest.importorskip("mpmath")
        from benchmarks.special_accuracy import _kl_div_exact, ulp_error
        with np.errstate(all="ignore"):
            dev = DEVIATES[name](a, b) & np.isfinite(a) & np.isfinite(b)
        for x, y, v in zip(a[dev], b[dev], ours[dev]):
            assert ulp_error(v, _kl_div_exact(mp.mpf(x), mp.mpf(y))) <= 4, (x, y, v)


@pytest.mark.parametrize("name", ["gamma", "rgamma", "loggamma", "gammasgn"])
def test_near_poles_and_negative_integers_match_scipy(name):
    n = np.arange(0.0, 200.0)
    x = np.concatenate([-n, -n + 1e-9, -n - 1e-9, -n + 0.5, np.nextafter(-n, -np.inf),
                        np.nextafter(-n, np.inf)])
    ok = _same(getattr(ls, name)(x), getattr(sc, name)(x))
    assert ok.all(), _report(ok, x, getattr(ls, name)(x), getattr(sc, name)(x))


def test_poch_beta_at_nonpositive_integers_match_scipy():
    k = np.arange(-6.0, 7.0)
    a, b = np.meshgrid(k, np.concatenate([k, k + 0.5]))
    for name in ("poch", "beta", "betaln"):
        ours = getattr(ls, name)(a, b)
        ref = getattr(sc, name)(a, b)
        ok = _same(ours, ref)
        assert ok.all(), (name, _report(ok.ravel(), a.ravel(), b.ravel(), ours.ravel(),
                                        ref.ravel()))


def test_documented_deviations():
    # Gamma's sign on (-n - 1, -n) is (-1)^(n + 1): exact beyond int range
    assert ls.gammasgn(-3e9 - 0.5) == -1.0
    assert ls.gammasgn(-3e9 + 0.5) == 1.0
    # exp10 keeps the subnormal range; SciPy flushes to 0
    assert float(ls.exp10(-310.0)) == pytest.approx(1e-310, rel=1e-12)
    assert float(ls.exp10(-323.0)) == pytest.approx(1e-323, rel=0.1)
    assert ls.exp10(-324.0) == 0.0 and ls.exp10(-np.inf) == 0.0
    # erfcinv keeps relative accuracy at subnormal y (erfc(27.2133) = 4.94e-324)
    assert float(ls.erfcinv(5e-324)) == pytest.approx(27.213293210812949, rel=1e-14)
    assert math.isinf(sc.erfcinv(5e-324))
    # kl_div where x / y underflows: y - x + x log(x/y), not -inf
    assert float(ls.kl_div(5e-324, 2.0)) == 2.0
    assert float(ls.kl_div(1e-10, 1e-320)) == pytest.approx(
        1e-10 * (math.log(1e-10) - math.log(1e-320)) - 1e-10, rel=1e-13)


def test_kl_div_and_rel_entr_near_equal_arguments():
    # kl_div = y g(d), g(d) ~ d^2 / 2: SciPy cancels to 0 or noise, linalgx keeps it
    y = 3.0
    for d in (1e-15, 1e-10, 1e-6, -1e-8):
        x = y * (1 + d)
        dd = (x - y) / y        # exact quotient of the doubles, to 1e-16 relative
        want = y * (dd * dd / 2 - dd ** 3 / 6 + dd ** 4 / 12)
        assert float(ls.kl_div(x, y)) == pytest.approx(want, rel=1e-13)
        assert float(ls.rel_entr(x, y)) == pytest.approx(x * (dd - dd * dd / 2 + dd ** 3 / 3),
                                                         rel=1e-13)


# -- dtypes, scalars, out=, broadcasting ------------------------------------------------------
DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
          np.uint8, np.bool_]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", NEW)
def test_result_dtype_matches_scipy(name, dtype):
    x = np.array([1, 0, 1], dtype=dtype)
    args = (x,) if name in UNARY else (x, np.array([1, 1, 0], dtype=dtype))
    with np.errstate(all="ignore"):
        want = getattr(sc, name)(*args)
    got = getattr(ls, name)(*args)
    assert got.dtype == want.dtype
    assert _same(got, want).all(), (got, want)


@pytest.mark.parametrize("name", NEW)
def test_float32_values_are_scipys_rounded_once(name):
    rng = np.random.default_rng(3)
    x = rng.uniform(0.05, 1.9, 300).astype(np.float32)
    args = (x,) if name in UNARY else (x, rng.uniform(0.05, 1.9, 300).astype(np.float32))
    got = getattr(ls, name)(*args)
    want = getattr(sc, name)(*args)
    assert got.dtype == np.float32 == want.dtype
    exact = getattr(sc, name)(*(a.astype(np.float64) for a in args)).astype(np.float32)
    # rounded once from float64; SciPy's float32 log_expit loop computes in float32
    np.testing.assert_array_max_ulp(got, exact, maxulp=1)
    np.testing.assert_array_max_ulp(got, want, maxulp=2)


@pytest.mark.parametrize("name", NEW)
def test_scalars_give_numpy_scalars(name):
    args = (0.7,) if name in UNARY else (0.7, 1.3)
    got = getattr(ls, name)(*args)
    want = getattr(sc, name)(*args)
    assert type(got) is type(want) is np.float64
    assert got == pytest.approx(want, rel=1e-14)   # kl_div: SciPy's cancellation error
    got32 = getattr(ls, name)(*(np.float32(a) for a in args))
    assert type(got32) is np.float32


@pytest.mark.parametrize("name", NEW)
def test_out_where_and_broadcasting(name):
    rng = np.random.default_rng(5)
    if name in UNARY:
        args = (rng.uniform(0.1, 1.9, (3, 4)),)
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
    # a non-contiguous output
    big = np.zeros((3, 8))
    f(*args, out=big[:, ::2])
    np.testing.assert_array_equal(big[:, ::2], want)


@pytest.mark.parametrize("name", ["gamma", "rgamma", "loggamma"])
def test_complex_input_goes_to_scipys_loop(name):
    z = np.array([0.3 + 0.4j, -1.7 + 0.2j, 5.0 - 3.0j, -2.0 + 0j], dtype=np.complex128)
    np.testing.assert_array_equal(getattr(ls, name)(z), getattr(sc, name)(z))
    z64 = z.astype(np.complex64)
    assert getattr(ls, name)(z64).dtype == getattr(sc, name)(z64).dtype == np.complex64


@pytest.mark.parametrize("name", ["gammasgn", "log_expit", "exp10", "erfcinv"] + BINARY)
def test_complex_input_raises_as_scipy(name):
    args = (np.array([1 + 1j]),) * (1 if name in UNARY else 2)
    with pytest.raises(TypeError):
        getattr(sc, name)(*args)
    with pytest.raises(TypeError):
        getattr(ls, name)(*args)


def test_long_double_log_expit_uses_scipys_loop():
    x = np.array([-3.0, 0.5, 50.0], dtype=np.longdouble)
    got = ls.log_expit(x)
    assert got.dtype == np.longdouble
    np.testing.assert_array_equal(got, sc.log_expit(x))


# -- accuracy against mpmath ------------------------------------------------------------------
@pytest.mark.parametrize("name", NEW)
def test_accuracy_against_mpmath(name):
    pytest.importorskip("mpmath")
    from benchmarks.special_accuracy import cases, measure, violations
    e_ours, e_ref, args = measure(cases()[name], 2000, seed=1)
    bad = np.flatnonzero(violations(e_ours, e_ref))
    assert bad.size == 0, [(tuple(float(np.asarray(a)[i]) for a in args), e_ours[i], e_ref[i])
                           for i in bad[:5]]
    # and where SciPy itself is accurate, so is linalgx
    good = e_ref <= 4
    assert np.nanmax(np.where(good, e_ours, 0)) <= 4


# -- derivatives beyond tests/special/test_derivatives.py ---------------------------------
def _jvp(op, args, i):
    out = op(*args)
    t = [None] * len(args)
    t[i] = np.ones_like(np.asarray(args[i], dtype=float))
    return op.jvp_rule(np, tuple(t), out, *args)


def test_rgamma_derivative_at_its_zeros():
    # d/dx 1/Gamma(x) at x = -n is (-1)^n n!
    x = np.array([0.0, -1.0, -2.0, -3.0, -6.0])
    want = np.array([1.0, -1.0, 2.0, -6.0, 720.0])
    np.testing.assert_allclose(_jvp(GF._rgamma, (x,), 0), want, rtol=1e-15)
    h = 1e-6
    fd = (sc.rgamma(x + h) - sc.rgamma(x - h)) / (2 * h)
    np.testing.assert_allclose(want, fd, rtol=1e-6)


def test_poch_a_derivative_where_poch_vanishes():
    # poch(-n, m) = 0 for m not an integer; d/da = Gamma(m - n) (-1)^n n!
    a = np.array([0.0, -2.0])
    m = np.array([0.5, 3.25])
    got = _jvp(GF._poch, (a, m), 0)
    h = 1e-7
    fd = (sc.poch(a + h, m) - sc.poch(a - h, m)) / (2 * h)
    np.testing.assert_allclose(got, fd, rtol=1e-6)


def test_derivative_special_points():
    # loggamma is NaN for x < 0, and so is its derivative; gammasgn's derivative is 0
    d = _jvp(GF._loggamma, (np.array([-0.5, 0.5]),), 0)
    assert np.isnan(d[0]) and d[1] == pytest.approx(sc.digamma(0.5), rel=1e-15)
    assert np.all(_jvp(GF._gammasgn, (np.array([-0.5, 3.0]),), 0) == 0)
    # the x = 0 conventions of rel_entr / kl_div in y
    x = np.array([0.0, 0.0])
    y = np.array([0.0, 2.0])
    np.testing.assert_array_equal(_jvp(EN._rel_entr, (x, y), 1), [0.0, 0.0])
    np.testing.assert_array_equal(_jvp(EN._kl_div, (x, y), 1), [1.0, 1.0])
    # erfcinv's derivative deep in the tail: -sqrt(pi)/2 exp(x^2) with x^2's rounding
    # compensated (relative error ~ x^2 ulp ~ 1e-13 otherwise)
    y = np.array([1e-300])
    x = float(ls.erfcinv(y[0]))
    import mpmath as mp
    mp.mp.dps = 40
    want = float(-mp.sqrt(mp.pi) / 2 * mp.exp(mp.mpf(x) ** 2))
    assert float(_jvp(EC._erfcinv, (y,), 0)[0]) == pytest.approx(want, rel=4e-16)
    # log_expit's derivative for large x: expit(-x) = e^-x, not 1 - expit(x) = 0
    assert float(_jvp(XL._log_expit, (np.array([50.0]),), 0)[0]) == pytest.approx(
        math.exp(-50.0), rel=1e-15)


def test_grad_through_the_engine():
    import linalgx
    x = np.array([0.7, 2.5, 4.0])
    np.testing.assert_allclose(linalgx.grad(lambda v: ls.gamma(v).sum())(x),
                               sc.gamma(x) * sc.digamma(x), rtol=1e-14)
    np.testing.assert_allclose(linalgx.grad(lambda v: ls.betaln(v, 2.0).sum())(x),
                               sc.digamma(x) - sc.digamma(x + 2.0), rtol=1e-13)
    # second derivative: loggamma'' = polygamma(1, x)
    np.testing.assert_allclose(linalgx.hessian(lambda v: ls.loggamma(v).sum())(x),
                               np.diag(sc.polygamma(1, x)), rtol=1e-12)
