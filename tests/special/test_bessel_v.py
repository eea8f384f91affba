"""Bessel functions of real order (jv, jn, yv, iv, ive, kv, kve) and integer order (yn, kn)
against scipy.special (special values, dtypes, ufunc keywords, complex arguments) and mpmath
(accuracy, derivatives).

Accuracy: at each sampled point the error must be within max(4 ulp, SciPy's error there);
where the function is near one of its zeros (J, Y, and I of negative order), within 4 ulp of
the size of the terms it is made of (the amplitude ``sqrt(J_v^2 + Y_v^2)``, or the two terms of
DLMF 10.27.2), a criterion no method evaluating them in double precision can beat.

The documented deviations from SciPy are checked against mpmath on their own: SciPy's AMOS
gives NaN (or 0, or inf) for orders or arguments beyond ~1.07e9, for subnormal arguments and
orders, and flushes tiny results; SciPy's real iv (Cephes) loses digits where linalgx's
kernel does not.
"""
import math
import warnings

import numpy as np
import pytest
import scipy.special as sc

import linalgx.special as ls
from linalgx.special import _bessel_v as BV

REAL = ["jv", "yv", "iv", "ive", "kv", "kve"]
INTEGER = ["yn", "kn"]
ALL = REAL + INTEGER

# special and moderate values; beyond ~1e9 (orders or arguments) and for subnormal numbers
# SciPy's AMOS gives up (checked separately below)
EDGE = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 3.0, -3.0, 0.5,
                 -0.5, 1e-300, -1e-300, 20.0, 51.0, -51.0, 50.5, -50.5, 36.5, -36.5, 7.0, -7.0,
                 1e-5, 1e4, 700.0, 710.0, -800.0, 0.25, 1e5])


def _same(a, b, rtol=1e-13):
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    with np.errstate(all="ignore"):
        exact = (a == b) & (np.signbit(a) == np.signbit(b))
        close = np.isfinite(a) & np.isfinite(b) & (np.abs(a - b) <= rtol * np.abs(b))
    return (np.isnan(a) & np.isnan(b)) | exact | close


def _report(ok, *args):
    return [tuple(float(np.ravel(a)[i]) for a in args) for i in np.flatnonzero(~np.ravel(ok))[:10]]


def _scipy_deviates(name, v, x):
    """Points of the EDGE grid where linalgx deliberately differs from SciPy (each checked
    against mpmath below): v = +-inf (SciPy: 0 for some small x, NaN for others), tiny x
    where SciPy flushes to 0 or overflows to +-inf, and Y_v(0) for negative half-integers."""
    with np.errstate(all="ignore"):
        tiny = (np.abs(x) == 1e-300)
        dev = tiny.copy()
        if name == "jv":
            dev |= np.isinf(v) & np.isfinite(x)
        if name == "yv":
            dev |= (v == 1e5) & (x == 1e-5)
        if name == "yv":
            # Y_-v = +-J_v at negative half-integers, which underflows at tiny x; SciPy's
            # reflection gives 0 * inf there (its -inf)
            dev |= (v < 0) & (v - 0.5 == np.floor(v - 0.5)) & (x > 0) & (x < 1e-3)
        if name == "ive":
            # I_-v overflows for negative non-integer v at small x: SciPy's AMOS gives NaN
            dev |= (v < 0) & (v != np.floor(v)) & (np.abs(x) < 1) & (x > 0)
    return dev


@pytest.mark.parametrize("name", REAL)
def test_edge_values_match_scipy(name):
    v, x = np.meshgrid(EDGE, EDGE)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = getattr(ls, name)(v, x)
        ref = getattr(sc, name)(v, x)
    ok = _same(ours, ref, rtol=1e-12) | _scipy_deviates(name, v, x)
    # finite values that differ: SciPy's AMOS loses digits for large orders and arguments
    # (jv(700, 1e4): 1.6e-11); mpmath decides
    with np.errstate(all="ignore"):
        both = ~ok & np.isfinite(ours) & np.isfinite(ref)
    mpm = pytest.importorskip("mpmath")
    mpm.mp.dps = 30
    for i in np.flatnonzero(both.ravel()):
        vi, xi, oi = float(v.ravel()[i]), float(x.ravel()[i]), float(ours.ravel()[i])
        try:
            e = _exact(name, vi, xi)
            s = _scale(name, vi, xi) or abs(e)
        except mpm.libmp.NoConvergence:     # mpmath cannot tell: close to SciPy will do
            ok.ravel()[i] = abs(oi - ref.ravel()[i]) <= 1e-9 * abs(ref.ravel()[i])
            continue
        ok.ravel()[i] = abs(mpm.mpf(oi) - e) <= 1e-14 * abs(e) + 4 * np.spacing(float(s))
    assert ok.all(), _report(ok, v, x, ours, ref)


@pytest.mark.parametrize("name", INTEGER)
def test_integer_order_edge_values_match_scipy(name):
    n = np.array([0, 1, 2, 3, -1, -2, -3, 7, -7, 50, -51, 200])
    x = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.5, 1e-5, 30.0, 99.0,
                  1e-300])
    nn, xx = np.meshgrid(n, x)
    with np.errstate(all="ignore"):
        ours = getattr(ls, name)(nn, xx)
        ref = getattr(sc, name)(nn, xx)
    if name == "yn":      # the same algorithm as SciPy's
        ok = _same(ours, ref, rtol=0.0)
    else:                 # kn is kv (SciPy's AMOS has errors of ~1e-14 here)
        ok = _same(ours, ref, rtol=1e-12)
        np.testing.assert_array_equal(ours, ls.kv(nn.astype(float), xx))
    assert ok.all(), _report(ok, nn, xx, ours, ref)


def test_special_points_by_hand():
    # the conventions SciPy has, spelled out
    assert ls.jv(0.0, 0.0) == 1.0 and ls.jv(2.5, 0.0) == 0.0
    assert math.copysign(1.0, ls.jv(-3.0, 0.0)) == -1.0          # (-1)^3 * 0
    assert ls.jv(-0.5, 0.0) == np.inf and ls.jv(-1.5, 0.0) == -np.inf   # sign of sin(pi v)
    assert np.isnan(ls.jv(0.5, -1.0)) and ls.jv(3.0, -2.0) == -ls.jv(3.0, 2.0)
    assert np.isnan(ls.jv(1.0, np.inf)) and np.isnan(ls.yv(1.0, np.inf))
    assert ls.yv(1.0, 0.0) == -np.inf and ls.yv(-1.0, 0.0) == np.inf
    assert np.isnan(ls.yv(1.0, -1.0))
    assert ls.iv(0.0, 0.0) == 1.0 and ls.iv(-2.5, 0.0) == np.inf
    assert ls.iv(3.0, -2.0) == -ls.iv(3.0, 2.0) and np.isnan(ls.iv(2.5, -2.0))
    assert ls.kv(np.nan, 0.0) == np.inf and ls.kv(2.0, np.inf) == 0.0
    assert np.isnan(ls.kv(np.nan, np.inf)) and np.isnan(ls.kv(2.0, -1.0))
    assert ls.kve(2.0, 0.0) == np.inf and np.isnan(ls.kve(2.0, np.inf))
    assert ls.ive(0.0, 0.0) == 1.0 and np.isnan(ls.ive(-0.5, 0.0))
    assert ls.ive(3.0, -2.0) == -ls.ive(3.0, 2.0)
    assert ls.kv(-2.3, 1.7) == ls.kv(2.3, 1.7)                  # K_-v = K_v


def test_jn_is_jv():
    assert ls.jn is ls.jv
    assert sc.jn is sc.jv


def test_reflection_formulas():
    # negative orders against DLMF 10.4.7-8 and 10.27.2 evaluated with SciPy
    v = np.array([0.3, 1.7, 2.5, 6.25, 13.9])
    for x in (0.4, 3.3, 17.0, 45.0):
        c, s = np.cos(np.pi * v), np.sin(np.pi * v)
        np.testing.assert_allclose(ls.jv(-v, x), c * sc.jv(v, x) - s * sc.yv(v, x),
                                   rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(ls.yv(-v, x), s * sc.jv(v, x) + c * sc.yv(v, x),
                                   rtol=1e-12, atol=1e-14)
        np.testing.assert_allclose(ls.iv(-v, x), sc.iv(v, x) + 2 / np.pi * s * sc.kv(v, x),
                                   rtol=1e-12)


# -- dtypes, scalars, keywords --------------------------------------------------------------
DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
          np.uint8, np.bool_]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", ALL)
def test_result_dtype_matches_scipy(name, dtype):
    v = np.array([1, 0, 1], dtype=dtype)
    x = np.array([1, 1, 0], dtype=dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = getattr(sc, name)(v, x)
        got = getattr(ls, name)(v, x)
    assert got.dtype == want.dtype
    assert _same(got, want).all(), (got, want)


@pytest.mark.parametrize("name", ALL)
def test_mixed_dtypes_match_scipy(name):
    for v, x in ((np.int32(2), np.float32(1.5)), (2, np.float32(1.5)), (np.float32(2), 1.5),
                 (np.int64(2), np.float16(1.5)), (np.float16(2), np.float32(1.5))):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = getattr(sc, name)(v, x)
            got = getattr(ls, name)(v, x)
        assert np.asarray(got).dtype == np.asarray(want).dtype, (name, v, x)


@pytest.mark.parametrize("name", REAL)
def test_float32_values_are_rounded_once(name):
    rng = np.random.default_rng(3)
    v = rng.uniform(-5, 5, 300).astype(np.float32)
    x = rng.uniform(0.05, 30, 300).astype(np.float32)
    got = getattr(ls, name)(v, x)
    assert got.dtype == np.float32
    exact = getattr(ls, name)(v.astype(np.float64), x.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(got, exact)
    want = getattr(sc, name)(v, x)
    ok = _same(got, want, rtol=4e-6)    # float32 near the zeros of J, Y: SciPy's loop
    assert ok.mean() > 0.99


@pytest.mark.parametrize("name", ALL)
def test_scalars_give_numpy_scalars(name):
    got = getattr(ls, name)(2, 1.3)
    want = getattr(sc, name)(2, 1.3)
    assert type(got) is type(want) is np.float64
    assert got == pytest.approx(want, rel=1e-14)
    assert type(getattr(ls, name)(np.float32(2), np.float32(1.3))) is np.float32


@pytest.mark.parametrize("name", ALL)
def test_out_where_and_broadcasting(name):
    rng = np.random.default_rng(5)
    v = rng.integers(-4, 6, (3, 1)).astype(float)
    x = rng.uniform(0.1, 9, (1, 4))
    f = getattr(ls, name)
    want = f(v, x)
    np.testing.assert_allclose(want, getattr(sc, name)(v, x), rtol=1e-13)
    out = np.full((3, 4), -7.0)
    assert f(v, x, out=out) is out
    np.testing.assert_array_equal(out, want)
    mask = rng.random((3, 4)) < 0.5
    out2 = np.full((3, 4), -7.0)
    f(v, x, out=out2, where=mask)
    np.testing.assert_array_equal(out2, np.where(mask, want, -7.0))
    big = np.zeros((3, 8))
    f(v, x, out=big[:, ::2])
    np.testing.assert_array_equal(big[:, ::2], want)
    np.testing.assert_array_equal(f(v, x, dtype=np.float32),
                                  f(v.astype(np.float32), x.astype(np.float32)))


@pytest.mark.parametrize("name", REAL)
def test_complex_arguments_go_to_scipys_loop(name):
    v = np.array([0.5, -1.3, 2.0, 7.25])
    z = np.array([0.3 + 0.4j, -1.7 + 0.2j, 5.0 - 3.0j, 20.0 + 1j])
    np.testing.assert_array_equal(getattr(ls, name)(v, z), getattr(sc, name)(v, z))
    got = getattr(ls, name)(v.astype(np.float32), z.astype(np.complex64))
    assert got.dtype == getattr(sc, name)(v.astype(np.float32), z.astype(np.complex64)).dtype
    assert got.dtype == np.complex64


@pytest.mark.parametrize("name", INTEGER)
def test_integer_orders_reject_complex_as_scipy(name):
    with pytest.raises(TypeError):
        sc.__dict__[name](2, np.array([1 + 1j]))
    with pytest.raises(TypeError):
        getattr(ls, name)(2, np.array([1 + 1j]))


@pytest.mark.parametrize("name", INTEGER)
def test_float_orders_are_truncated_with_scipys_warning(name):
    x = np.array([0.5, 3.0, 12.0])
    for n in (2.7, -2.7, 1.9, -0.5):
        with pytest.warns(RuntimeWarning, match="truncated to an integer"):
            got = getattr(ls, name)(n, x)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = getattr(sc, name)(n, x)
        np.testing.assert_array_equal(got, getattr(ls, name)(np.trunc(n), x))
        np.testing.assert_allclose(got, want, rtol=1e-14 if name == "yn" else 1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error")     # integer-valued floats: no warning
        getattr(ls, name)(3.0, x)
    assert np.isnan(getattr(ls, name)(np.nan, 1.0))


def test_yn_order_conversions_as_scipys_loops():
    # int64 orders wrap to a C int, float orders beyond it act as INT_MIN (a huge order)
    x = np.array([0.5, 3.0, 30.0])
    for n in (2 ** 40, 2 ** 40 + 3, 2 ** 31, 3_000_000_000, -2 ** 31 - 1):
        np.testing.assert_array_equal(ls.yn(np.int64(n), x), sc.yn(np.int64(n), x))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for n in (2.0 ** 31, 1e20, -1e20, np.inf, -np.inf):
            np.testing.assert_array_equal(ls.yn(n, x), sc.yn(n, x))


def test_yn_is_scipys_cephes_yn():
    # the same algorithm as SciPy (forward recurrence from y0, y1): bitwise equal where
    # linalgx's y0/y1 are SciPy's (x <= 100; beyond, y0/y1 keep their phase exact)
    rng = np.random.default_rng(0)
    n = rng.integers(-60, 60, 5000)
    x = np.exp(rng.uniform(math.log(1e-5), math.log(100.0), 5000))
    np.testing.assert_array_equal(ls.yn(n, x), sc.yn(n, x))


def test_kn_is_kv():
    rng = np.random.default_rng(1)
    n = rng.integers(-60, 60, 2000)
    x = np.exp(rng.uniform(math.log(1e-5), math.log(1e3), 2000))
    got = ls.kn(n, x)
    np.testing.assert_array_equal(got, ls.kv(n.astype(float), x))
    want = sc.kn(n, x)
    fin = (np.abs(want) < 1e300) & (np.abs(want) > 1e-300)   # SciPy: 0 for x > 710 (1 + |n|)
    np.testing.assert_allclose(got[fin], want[fin], rtol=1e-12)


def test_iv_where_scipys_cephes_iv_fails():
    # SciPy's real iv is Cephes' (Temme's method through K and the Wronskian): it loses all
    # digits where K overflows (and ~600 ulp elsewhere); linalgx's power series does not
    mpm = pytest.importorskip("mpmath")
    mpm.mp.dps = 40
    for v, x in ((49.76404852341089, 3.054706553734017e-05), (21.2479032206016, 0.0264435),
                 (-37.5, 2e-4), (30.0, 1e-3)):
        exact = mpm.besseli(v, x)
        assert _ulps(ls.iv(v, x), exact) <= 4, (v, x)
    assert _ulps(sc.iv(49.76404852341089, 3.054706553734017e-05),
                 mpm.besseli(49.76404852341089, 3.054706553734017e-05)) > 1e6


# -- accuracy against mpmath ---------------------------------------------------------------
mp = pytest.importorskip("mpmath")


def _exact(name, v, x):
    return _exact_mp(name, mp.mpf(float(v)), mp.mpf(float(x)))


def _exact_mp(name, v, x):
    if name == "jv":
        return mp.besselj(v, x)
    if name == "yv":
        return mp.bessely(v, x)
    if name in ("iv", "ive"):
        if v == int(v):
            v = abs(v)            # mpmath's besseli fails at some negative integer orders
        f = mp.besseli(v, x)
        return f * mp.exp(-abs(x)) if name == "ive" else f
    f = mp.besselk(v, x)
    return f * mp.exp(x) if name == "kve" else f


def _scale(name, v, x):
    """The size of the terms the function value is made of (see the module docstring)."""
    v = mp.mpf(float(v))
    x = mp.mpf(float(x))
    if name in ("jv", "yv"):
        return mp.sqrt(mp.besselj(v, abs(x)) ** 2 + mp.bessely(v, abs(x)) ** 2)
    if name in ("iv", "ive") and v < 0 and v != int(v):
        a = -v
        f = mp.exp(-x) if name == "ive" else 1
        return f * (mp.besseli(a, x) + abs(2 / mp.pi * mp.sinpi(a) * mp.besselk(a, x)))
    return None


def _ulps(value, exact):
    value = float(value)
    ef = float(exact)
    if not math.isfinite(ef) or ef == 0.0:
        return 0.0 if value == ef else math.inf
    return float(abs(mp.mpf(value) - exact)) / max(np.spacing(abs(ef)), 5e-324)


def _sample(name, n, seed):
    rng = np.random.default_rng(seed)
    v = rng.uniform(-50, 50, n)
    k = n // 4
    v[:k] = np.round(v[:k])
    v[k:2 * k] = np.round(v[k:2 * k]) + 0.5
    x = np.exp(rng.uniform(math.log(1e-5), math.log(1e4), n))
    if name in ("jv", "iv", "ive"):
        neg = rng.random(n) < 0.1
        v[neg] = np.round(v[neg])
        x[neg] = -x[neg]
    return v, x


@pytest.mark.parametrize("name,n", [("jv", 1500), ("yv", 1500), ("kv", 1500), ("kve", 1500),
                                    ("iv", 600), ("ive", 600)])
def test_accuracy_against_mpmath(name, n):
    # at all but a few points within max(4 ulp, SciPy's error) (or, near the zeros, 4 ulp of
    # the terms' size); never beyond 8 ulp away from the zeros (20,000-point runs: at most
    # 0.1% of the points are over the first bound, all of them below 6 ulp)
    mp.mp.dps = 40
    v, x = _sample(name, n, seed=11)
    with np.errstate(all="ignore"):
        ours = getattr(ls, name)(v, x)
        ref = getattr(sc, name)(v, x)
    over = []
    for i in range(n):
        try:
            e = _exact(name, v[i], x[i])
        except (ValueError, ZeroDivisionError, mp.libmp.NoConvergence):
            continue
        if not mp.isfinite(e) or abs(e) > 1.7e308 or (e != 0 and abs(e) < 2.3e-308):
            continue                    # over/underflow: the edge tests cover those
        eo = _ulps(ours[i], e)
        if eo <= max(4.0, _ulps(ref[i], e)) * (1 + 1e-9):
            continue
        s = _scale(name, v[i], x[i])
        if s is not None and abs(mp.mpf(float(ours[i])) - e) <= 4 * np.spacing(float(s)):
            continue
        over.append((float(v[i]), float(x[i]), eo))
    assert len(over) <= 0.003 * n, over[:5]
    assert all(eo <= 8.0 for _, _, eo in over), over


def test_iv_tiny_argument_branch_against_mpmath():
    # x^2 < |v + 1| eps: (x/2)^v / Gamma(v + 1); SciPy's build goes through Temme's method
    # (1e-15 relative) and flushes results below ~1e-302 to zero
    mp.mp.dps = 40
    for v, x in ((1.0, 1e-160), (1.0, 1e-300), (0.5, 1e-300), (29.7, 1.6e-9), (-6.79, 2.8e-12),
                 (13.25, 1e-9)):
        exact = mp.besseli(v, x)
        assert _ulps(ls.iv(v, x), exact) <= 4, (v, x)
    assert sc.iv(1.0, 1e-160) == 0.0


# Between x ~ 1e-250 and 1e-180 Temme's starting value C_{u+1} ~ (2/x)^(u+1) overflows
# while the exponent-carrying recurrence could go on; that gave NaN for orders >= 2
@pytest.mark.parametrize("name", ["jv", "yv", "iv", "kv", "kve"])
def test_tiny_arguments_overflow_to_inf_not_nan(name):
    f, mf = getattr(ls, name), {"jv": mp.besselj, "yv": mp.bessely, "iv": mp.besseli,
                                "kv": mp.besselk, "kve": mp.besselk}[name]
    mp.mp.dps = 40
    v = np.array([1.3, 1.5, 2.3, 10.0, 50.0, 50.5, -2.3, -10.4, -50.5])[:, None]
    x = np.array([1.1e-250, 1e-240, 1e-220, 1e-205, 1e-200, 1e-185, 1e-160])[None, :]
    if name in ("kv", "kve"):
        v = np.abs(v)
    got = f(v, x)
    assert not np.isnan(got).any()
    for (i, j), g in np.ndenumerate(got):
        exact = mf(mp.mpf(v[i, 0]), mp.mpf(x[0, j]))
        if abs(exact) > 1.7976931348623157e308:
            assert g == (math.inf if exact > 0 else -math.inf), (v[i, 0], x[0, j], g)
        elif abs(exact) > 1e-300:
            assert _ulps(g, exact) <= 64, (v[i, 0], x[0, j], g, exact)


def test_documented_deviations_against_mpmath():
    mp.mp.dps = 40
    # subnormal arguments and orders: SciPy's AMOS returns 0, inf or NaN
    for name, v, x in (("jv", 1.0, 1e-310), ("jv", -0.5, 1e-310), ("yv", 0.0, 1e-310),
                       ("yv", 1e-310, 1.0), ("kv", 0.5, 1e-310), ("kve", 1e-310, 1.0),
                       ("iv", 1.0, 1e-310), ("ive", 0.5, 1e-310)):
        assert _ulps(getattr(ls, name)(v, x), _exact(name, v, x)) <= 4, (name, v, x)
    # Y_-v(0) = J_v(0) = 0 for half-integers is what SciPy does not give either, but at
    # x = 1e-300 the value underflows to 0 (SciPy: -inf)
    assert ls.yv(-2.5, 1e-300) == 0.0 and sc.yv(-2.5, 1e-300) == -np.inf
    # orders beyond AMOS's limit: the limit values (SciPy: NaN)
    assert ls.jv(1e10, 3.0) == 0.0 and ls.ive(1e10, 3.0) == 0.0
    assert ls.kv(1e10, 3.0) == np.inf and ls.yv(1e10, 3.0) == -np.inf
    assert np.isnan(sc.kv(1e10, 3.0))
    # J_v for v = +-inf: the limit 0 for x >= 0 (SciPy: 0 for x <= 1, NaN beyond)
    assert ls.jv(np.inf, 5.0) == 0.0 and ls.jv(-np.inf, 0.5) == 0.0
    assert np.isnan(ls.jv(np.inf, -1.0))
    # large arguments beyond AMOS's 1.07e9: values (DLMF 10.40.1-2)
    x = 3e9
    assert float(ls.kve(0.0, x)) == pytest.approx(math.sqrt(math.pi / (2 * x)), rel=1e-15)
    assert float(ls.ive(0.0, x)) == pytest.approx(1 / math.sqrt(2 * math.pi * x), rel=1e-15)


def test_large_orders():
    # the recurrences up to |v| = 1e5 against mpmath (where it converges) ...
    mp.mp.dps = 30
    for v, x in ((500.0, 400.0), (400.0, 430.0), (450.0, 450.5), (300.0, 250.0)):
        assert _ulps(ls.iv(v, x), mp.besseli(v, x)) <= 8
        assert _ulps(ls.kv(v, x), mp.besselk(v, x)) <= 8
        assert _ulps(ls.kve(v, x), mp.besselk(v, x) * mp.exp(x)) <= 8
        assert _ulps(ls.ive(v, x), mp.besseli(v, x) * mp.exp(-x)) <= 8
        j, y = mp.besselj(v, x), mp.bessely(v, x)
        amp = float(mp.sqrt(j * j + y * y))
        assert abs(ls.jv(v, x) - j) <= 4 * np.spacing(max(abs(float(j)), amp)), (v, x)
        assert abs(ls.yv(v, x) - y) <= 4 * np.spacing(max(abs(float(y)), amp)), (v, x)
    # ... and beyond, by the Wronskians (DLMF 10.5.2, 10.28.2) and against SciPy (AMOS flags a
    # "loss of half the digits" at such orders): the recurrences up to |v| = 1e6, the uniform
    # expansions (phase ~ v, so ~v eps at best) beyond
    for v, tol, tol_sc in ((2.0e5, 1e-14, 1e-9), (3.0e6, 2e-9, 1e-8), (1.0e8, 3e-8, 1e-7)):
        for x in (0.999 * v, v, 1.0002 * v, 1.001 * v, 1.01 * v, 1.3 * v, 2.0 * v):
            j0, j1 = ls.jv(v, x), ls.jv(v + 1, x)
            y0, y1 = ls.yv(v, x), ls.yv(v + 1, x)
            if not np.isfinite(y1):
                assert j0 == 0.0 or abs(j0) < 1e-300      # far below the turning point
                continue
            w = 2 / (np.pi * x)
            assert abs(j1 * y0 - j0 * y1 - w) <= tol * w, (v, x)
            amp = math.hypot(j0, y0)
            assert abs(j0 - sc.jv(v, x)) <= tol_sc * amp, (v, x)
            assert abs(y0 - sc.yv(v, x)) <= tol_sc * amp, (v, x)
    for v in (2.0e5, 3.0e6):
        for x in (v * v / 200, v * v / 50):    # where both are in range: v^2/(2x) < 700
            i0, i1 = ls.ive(v, x), ls.ive(v + 1, x)
            k0, k1 = ls.kve(v, x), ls.kve(v + 1, x)
            assert abs(i0 * k1 + i1 * k0 - 1 / x) <= 1e-12 / x, (v, x)


# -- derivatives beyond tests/special/test_derivatives.py ---------------------------------
def _jvp(op, args, i=1):
    out = op(*args)
    t = [None] * len(args)
    t[i] = np.ones(np.shape(args[i]))
    return op.jvp_rule(np, tuple(t), out, *args)


@pytest.mark.parametrize("name", REAL)
def test_first_derivatives_against_mpmath(name):
    mp.mp.dps = 30
    v = np.array([0.0, 1.0, 2.5, -1.3, 7.25, -4.0])
    x = np.array([0.3, 2.2, 9.0, 26.0, 4.1, 1.1])
    got = _jvp(getattr(BV, "_" + name), (v, x))
    for vi, xi, gi in zip(v, x, got):
        want = mp.diff(lambda t, vi=vi: _exact_mp(name, mp.mpf(vi), t), mp.mpf(xi))
        assert abs(gi - want) <= 1e-13 * max(abs(want), 1e-300) + 1e-15, (name, vi, xi, gi)


def test_scaled_derivatives_at_large_x():
    # ive' and kve' for x >= max(20, v^2) from the expansions DLMF 10.40.1-2 term by term:
    # the recurrence forms cancel to ~x ulp (1e-12 at x = 3e3); second derivatives too
    import linalgx
    mp.mp.dps = 40
    v = np.array([0.0, 2.5, -3.7, 11.0])
    x = np.array([150.0, 3000.0, 40.0, 2.5e5])
    for name in ("ive", "kve"):
        got = _jvp(getattr(BV, "_" + name), (v, x))
        h = linalgx.hessian(lambda t, name=name: getattr(ls, name)(v, t).sum())(x)
        for i, (vi, xi) in enumerate(zip(v, x)):
            def f(t, vi=vi, name=name):
                return _exact_mp(name, mp.mpf(vi), t)
            d1 = mp.diff(f, mp.mpf(xi))
            d2 = mp.diff(f, mp.mpf(xi), 2)
            assert abs(got[i] - d1) <= 2e-15 * abs(d1), (name, vi, xi)
            assert abs(h[i, i] - d2) <= 1e-14 * abs(d2), (name, vi, xi)


def test_second_derivatives_through_the_engine():
    import linalgx
    mp.mp.dps = 30
    x = np.array([0.7, 3.5, 11.0])
    for name, v in (("jv", 2.5), ("yv", -1.3), ("iv", 0.5), ("kv", 3.0), ("kve", 1.5),
                    ("ive", 2.0)):
        f = getattr(ls, name)
        h = linalgx.hessian(lambda t, f=f, v=v: f(v, t).sum())(x)
        for i, xi in enumerate(x):
            want = mp.diff(lambda t, name=name, v=v: _exact_mp(name, mp.mpf(v), t),
                           mp.mpf(xi), 2)
            assert float(h[i, i]) == pytest.approx(float(want), rel=1e-11, abs=1e-14), (name,)
    g = linalgx.grad(lambda t: ls.yn(3, t).sum())(x)
    np.testing.assert_allclose(g, [float(mp.bessely(3, t, derivative=1)) for t in x], rtol=1e-13)
    g = linalgx.grad(lambda t: ls.kn(2, t).sum())(x)
    np.testing.assert_allclose(g, [float(mp.diff(lambda s: mp.besselk(2, s), t)) for t in x],
                               rtol=1e-13)


@pytest.mark.parametrize("name", REAL)
def test_order_is_not_differentiable(name):
    import linalgx
    f = getattr(ls, name)
    with pytest.raises(NotImplementedError, match=f"{name}.*order"):
        linalgx.grad(lambda v: f(v, 2.0).sum())(np.array([0.5, 1.5]))
    with pytest.raises(NotImplementedError, match="order"):
        linalgx.jacobian(lambda v: f(v, np.array([1.0, 3.0])))(np.array([0.5, 1.5]))
    # differentiating in x alone is fine
    linalgx.grad(lambda x: f(0.5, x).sum())(np.array([0.7, 2.0]))


def test_complex_derivatives():
    import linalgx
    z = np.array([0.7 + 0.3j, 3.0 - 1.0j])
    for name in ("jv", "yv", "iv", "kv", "kve"):
        f = getattr(sc, name)
        d = _jvp(getattr(BV, "_" + name), (np.array([1.5, 1.5]), z))
        h = 1e-7
        fd = (f(1.5, z + h) - f(1.5, z - h)) / (2 * h)
        np.testing.assert_allclose(d, fd, rtol=1e-7)
    with pytest.raises(TypeError, match="ive"):
        linalgx.grad(lambda t: abs(ls.ive(1.5, t)).sum())(z)


@pytest.mark.parametrize("v", [0.0, 1.0, 0.5, 10.0, 1000.5, 1.0e5 + 0.5])
@pytest.mark.parametrize("x", [1e100, 1e300, 1.7e308])
def test_modified_at_huge_arguments(v, x):
    # K_v, I_v under-/overflow; the scaled ones are sqrt(pi/(2x)) and 1/sqrt(2 pi x) to
    # rounding (DLMF 10.40.1-2: the next term is ~v^2/x); SciPy's AMOS gives NaN here
    mp.mp.dps = 30
    assert ls.kv(v, x) == 0.0
    assert ls.iv(v, x) == np.inf
    assert _ulps(ls.kve(v, x), mp.sqrt(mp.pi / (2 * mp.mpf(x)))) <= 2
    assert _ulps(ls.ive(v, x), 1 / mp.sqrt(2 * mp.pi * mp.mpf(x))) <= 2


def test_k_underflows_to_zero_at_large_arguments():
    # exp(-x) beyond any exponent: 0, not a wrapped-around power of two (kv(0, 1e19) gave
    # 1.2e214 when exp(-x) = 2^k e^r had k converted to an integer out of range)
    x = np.array([800.0, 1e5, 1e10, 1e19, 1e30, 1e300])
    for v in (0.0, 1.0, 2.5, 40.0):
        np.testing.assert_array_equal(ls.kv(v, x), 0.0)
        np.testing.assert_array_equal(ls.iv(v, x), np.inf)
    mp.mp.dps = 30
    assert _ulps(ls.kv(0.0, 700.0), mp.besselk(0, 700)) <= 4   # SciPy flushes this to 0
