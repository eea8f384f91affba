"""betainc, betaincc, betaincinv, betainccinv, gammaincinv, gammainccinv and binom against
scipy.special (special values, dtypes, ufunc keywords) and mpmath (accuracy: error <=
max(4 ulp, SciPy's error at that point); the partial derivatives, also in a and b and of the
inverses, to ~1e-12).

Documented deviations from SciPy are checked on their own, against exact values: the
float32 loops of betainc/betaincinv/betainccinv (SciPy computes them in float32, off by up to
~3e3 float32 ulp; here float64 rounded once), inputs where SciPy's Boost kernels fail (NaN,
0 or the smallest normal number where the result is finite, zero or subnormal), NaN for an
infinite parameter with a subnormal y in the inverses (SciPy: inf), and binom's sign beyond
the C int range (as gammasgn's).
"""
import math
import subprocess
import sys

import numpy as np
import pytest
import scipy.special as sc

import linalgx
import linalgx.special as ls
from linalgx.special import _betainc as BI

mp = pytest.importorskip("mpmath")

BETA = ["betainc", "betaincc", "betaincinv", "betainccinv"]
GINV = ["gammaincinv", "gammainccinv"]
NEW = BETA + GINV + ["binom"]
NARGS = {"binom": 2, "gammaincinv": 2, "gammainccinv": 2}

PARAM = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, -1.0, 0.5, 1.0, 2.0, 3.5, 40.0, 1e-12,
                  1e5])
ARG = np.array([np.nan, np.inf, -np.inf, -0.5, 0.0, -0.0, 1e-10, 0.3, 0.5, 0.97, 1.0, 1.5])


def _same(a, b, rtol=0.0):
    """Equal (NaN == NaN, zeros and infinities with their sign), or finite and within 4 ulp
    or ``rtol``."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        exact = (a == b) & (np.signbit(a) == np.signbit(b))
        close = (np.isfinite(a) & np.isfinite(b)
                 & (np.abs(a - b) <= np.maximum(4 * np.spacing(np.abs(b)), rtol * np.abs(b))))
    return (np.isnan(a) & np.isnan(b)) | exact | close


def _report(ok, *args):
    return [tuple(float(np.ravel(a)[i]) for a in args) for i in np.flatnonzero(~np.ravel(ok))[:8]]


def _exact_betainc(a, b, x, upper=False):
    from benchmarks.special_accuracy import _ibeta_exact
    with mp.workdps(40):
        return _ibeta_exact(mp.mpf(a), mp.mpf(b), mp.mpf(x), upper)


# -- special values -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", BETA)
def test_beta_special_values_match_scipy(name):
    # NaN, inf, 0, 1 and out-of-domain arguments give SciPy's values; elsewhere ours agree
    # with SciPy's to 4 ulp, or (where Boost's double betainc is further off: up to ~1e3 ulp,
    # 0 or NaN where the value is finite) are within an ulp of mpmath's and closer than SciPy
    from benchmarks.special_accuracy import _ibeta_exact, _ibeta_inv_exact, ulp_error
    a, b, x = (v.ravel() for v in np.meshgrid(PARAM, PARAM, ARG, indexing="ij"))
    with np.errstate(all="ignore"):
        want = getattr(sc, name)(a, b, x)
    got = getattr(ls, name)(a, b, x)
    ok = _same(got, want)
    special = ~(np.isfinite(a) & np.isfinite(b) & (a > 0) & (b > 0) & (x > 0) & (x < 1))
    assert ok[special].all(), _report(ok[special], a[special], b[special], x[special],
                                      got[special], want[special])
    upper = name in ("betaincc", "betainccinv")
    exact = _ibeta_inv_exact(upper) if name.endswith("inv") else \
        (lambda p, q, t: _ibeta_exact(p, q, t, upper))
    for i in np.flatnonzero(~ok):
        with mp.workdps(40):
            e = exact(mp.mpf(a[i]), mp.mpf(b[i]), mp.mpf(x[i]))
        ours, theirs = ulp_error(got[i], e), ulp_error(want[i], e)
        assert ours <= 1 and ours <= theirs, (a[i], b[i], x[i], got[i], want[i], ours, theirs)


@pytest.mark.parametrize("name", GINV)
def test_gammaincinv_equals_scipy_bitwise(name):
    # the same algorithm (xsf igami/igamci) on the same gammainc: bitwise SciPy's values,
    # domain errors included (xsf computes on: gammaincinv(1e-300, -0.1) is 0)
    rng = np.random.default_rng(0)
    a = np.concatenate([np.exp(rng.uniform(-7, 9, 3000)), rng.uniform(0, 5, 1000)])
    y = np.concatenate([rng.uniform(0, 1, 2000), np.exp(rng.uniform(-690, 0, 2000))])
    grid_a, grid_y = np.meshgrid(PARAM, np.concatenate([ARG, [1e-300, 5e-324, 0.95]]))
    a = np.concatenate([a, grid_a.ravel()])
    y = np.concatenate([y, grid_y.ravel()])
    with np.errstate(all="ignore"):
        want = getattr(sc, name)(a, y)
    got = getattr(ls, name)(a, y)
    ok = (got == want) | (np.isnan(got) & np.isnan(want))
    assert ok.all(), _report(ok, a, y, got, want)


def test_binom_matches_scipy():
    rng = np.random.default_rng(1)
    n = np.concatenate([rng.uniform(-50, 200, 3000), np.round(rng.uniform(-20, 100, 2000)),
                        np.exp(rng.uniform(-20, 20, 2000)) * rng.choice([-1, 1], 2000)])
    k = np.concatenate([rng.uniform(-50, 200, 3000), np.round(rng.uniform(-20, 100, 2000)),
                        np.exp(rng.uniform(-20, 20, 2000)) * rng.choice([-1, 1], 2000)])
    edge = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 0.5, 2.0, -2.5, 1e-300,
                     1e-9, 1e300, -1e300, 3e9, 1e20, 19.0, 20.0, 21.0, 1e-8, 2e-8, 1e10])
    en, ek = np.meshgrid(edge, edge)
    n = np.concatenate([n, en.ravel()])
    k = np.concatenate([k, ek.ravel()])
    with np.errstate(all="ignore"):
        want = sc.binom(n, k)
    got = ls.binom(n, k)
    ok = (got == want) | (np.isnan(got) & np.isnan(want))
    assert ok.all(), _report(ok, n, k, got, want)


def test_binom_sign_beyond_int_range():
    # 1 / Gamma(k + 1) for k + 1 < -2**31: the exact sign (SciPy's Cephes beta casts the
    # floor to int, INT_MIN on x86, and flips it for every other interval)
    for n, k in ((1.3301386458284796, -7501778636836.669), (-4.51906195888617, -555563287720.2982),
                 (5.789959274648398, -76544987338.29134)):
        got = float(ls.binom(n, k))
        assert np.sign(got) == mp.sign(mp.binomial(n, k))
        assert got == -float(sc.binom(n, k))


def test_documented_deviations_where_scipy_fails():
    # betainc(0.5, 2, x) = (3 - x) sqrt(x) / 2 (x subnormal; SciPy 13% low)
    x = 5e-324
    assert float(ls.betainc(0.5, 2.0, x)) == pytest.approx(1.5 * math.sqrt(x), rel=1e-15)
    # Beta(2, b) for huge b: the gamma limit 1 - 2/e at b x = 1 (SciPy: NaN)
    assert math.isnan(sc.betainc(2.0, 1e300, 1e-300))
    assert float(ls.betainc(2.0, 1e300, 1e-300)) == pytest.approx(1 - 2 / math.e, rel=1e-14)
    # the limit of vanishing a and b: mass b / (a + b) at 0 (SciPy: 0)
    assert float(ls.betainc(5e-324, 5e-324, 0.3)) == 0.5
    assert float(ls.betainc(1e-300, 5e-324, 0.3)) == pytest.approx(5e-324 / 1e-300, rel=1e-13)
    # inverses: the root 0.3**2 / 1e600 underflows to 0 (SciPy: the smallest normal);
    # a = 1: x = -expm1(log1p(-y) / b), subnormal (SciPy: the smallest normal)
    assert ls.betaincinv(0.5, 1.0, 1e-300) == 0.0 and sc.betaincinv(0.5, 1.0, 1e-300) > 0
    assert float(ls.betaincinv(1.0, 0.5, 5e-324)) == 1e-323
    assert float(ls.betaincinv(1.0, 1e300, 1e-10)) == pytest.approx(1.00000000005e-310,
                                                                   rel=1e-9)
    # Q(x) = 5e-324 far in the tail: x rounds to 1 (SciPy: NaN)
    assert float(ls.betainccinv(0.5, 2.0, 5e-324)) == 1.0
    # an infinite parameter: NaN for 0 < y < 1, also subnormal y (SciPy: inf there only)
    assert math.isnan(ls.betaincinv(np.inf, 0.5, 5e-324))
    assert math.isinf(sc.betaincinv(np.inf, 0.5, 5e-324))
    # but the closed forms of a or b = 1 keep their limits, as SciPy's
    assert ls.betaincinv(np.inf, 1.0, 0.3) == 1.0 and ls.betaincinv(1.0, np.inf, 0.3) == 0.0


@pytest.mark.parametrize("a,b,x,upper", [
    (1e-20, 2.0, 0.5, True), (1e-300, 2.0, 0.5, True), (1e-13, 50.0, 1e-3, True),
    (1e-15, 0.5, 1e-200, True), (1e-300, 1e10, 1e-10, True), (1e-14, 3.5, 5e-324, True),
    (3.0, 1e-18, 0.99, False), (0.7, 1e-250, 0.2, False), (1e-30, 1e-20, 0.4, True),
    # the directly computed side needs no expansion: small x for betainc with a tiny b, x
    # next to 1 for betaincc with a tiny a (the expansion was used there and was wrong)
    (0.5, 1e-14, 1e-20, False), (0.01, 1e-100, 1e-10, False), (0.9, 1e-20, 1e-300, False),
    (1.0, 1e-13, 1e-100, False), (1e-15, 0.5, 1 - 1e-12, True), (1e-20, 0.9, 1 - 1e-8, True)])
def test_tiny_parameter_complement(a, b, x, upper):
    # 1 - betainc where a (or, for betainc, b) is tiny: the first-order expansion in the
    # small parameter, not the cancelling complement
    want = _exact_betainc(a, b, x, upper)
    got = (ls.betaincc if upper else ls.betainc)(a, b, x)
    assert abs(got - want) <= 4 * np.spacing(float(want)), (got, want)


def test_inverse_with_a_tiny_parameter():
    # I_x(0.01, 1e-300) = 1e-300 at x ~ 1e-200 (from x^a / (a B(a, b)) ~ x^0.01 b / 0.01)
    x = float(ls.betaincinv(0.01, 1e-300, 1e-300))
    assert x == pytest.approx(1e-200, rel=1e-12)
    assert float(_exact_betainc(0.01, 1e-300, x)) == pytest.approx(1e-300, rel=1e-12)


@pytest.mark.parametrize("a,b,k", [(1e4, 1e4, 1.0), (1e6, 2e6, -2.0), (3e8, 1e8, 0.5),
                                   (1e5, 3.0, -1.0)])
def test_large_parameters(a, b, k):
    # k standard deviations from the mean, where the continued fraction needs the most terms
    m = a / (a + b)
    x = m + k * math.sqrt(m * (1 - m) / (a + b + 1))
    for upper in (False, True):
        want = _exact_betainc(a, b, x, upper)
        got = (ls.betaincc if upper else ls.betainc)(a, b, x)
        assert abs(got - want) <= 2 * np.spacing(float(want)), (upper, got, want)


# -- dtypes, scalars, out=, broadcasting ------------------------------------------------------
DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64, np.uint8,
          np.bool_]


def _args(name, dtype):
    vals = [np.array([1, 2, 1], dtype=dtype), np.array([1, 1, 2], dtype=dtype),
            np.array([0, 1, 1], dtype=dtype)]
    return vals[:NARGS.get(name, 3)]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", NEW)
def test_result_dtype_matches_scipy(name, dtype):
    args = _args(name, dtype)
    with np.errstate(all="ignore"):
        want = getattr(sc, name)(*args)
    got = getattr(ls, name)(*args)
    assert got.dtype == want.dtype
    assert _same(got, want).all(), (got, want)


def _sample(name, rng, n=300, dtype=np.float64):
    p = [rng.uniform(0.05, 5.0, n) for _ in range(2)]
    if name == "binom":
        return [rng.uniform(-3, 10, n).astype(dtype), rng.uniform(-2, 6, n).astype(dtype)]
    last = rng.uniform(0, 1, n)
    if name in GINV:
        return [p[0].astype(dtype), last.astype(dtype)]
    return [p[0].astype(dtype), p[1].astype(dtype), last.astype(dtype)]


@pytest.mark.parametrize("name", NEW)
def test_float32_is_float64_rounded_once(name):
    # float32 in: the float64 kernel, rounded once. SciPy's float32 loops of betainc,
    # betaincinv and betainccinv compute in float32 (Boost with promote_float<false>) and
    # differ by up to ~3e3 float32 ulp; the others agree with SciPy's float32 loop.
    args = _sample(name, np.random.default_rng(3), dtype=np.float32)
    got = getattr(ls, name)(*args)
    assert got.dtype == np.float32
    exact = getattr(sc, name)(*(a.astype(np.float64) for a in args))
    with np.errstate(over="ignore"):
        exact = exact.astype(np.float32)
    np.testing.assert_array_max_ulp(got, exact, maxulp=1)
    if name not in ("betainc", "betaincinv", "betainccinv"):
        np.testing.assert_array_max_ulp(got, getattr(sc, name)(*args), maxulp=1)


@pytest.mark.parametrize("name", NEW)
def test_scalars_give_numpy_scalars(name):
    args = (0.7, 1.3, 0.4) if name not in GINV else (0.7, 0.4)
    args = args[:NARGS.get(name, 3)]
    got = getattr(ls, name)(*args)
    want = getattr(sc, name)(*args)
    assert type(got) is type(want) is np.float64
    assert got == pytest.approx(want, rel=1e-14)
    got32 = getattr(ls, name)(*(np.float32(a) for a in args))
    assert type(got32) is np.float32


@pytest.mark.parametrize("name", NEW)
def test_out_where_and_broadcasting(name):
    rng = np.random.default_rng(5)
    nargs = NARGS.get(name, 3)
    args = [rng.uniform(0.2, 3, (3, 1)), rng.uniform(0.2, 3, (1, 4)),
            rng.uniform(0.05, 0.95, (3, 4))][3 - nargs:] if nargs == 3 else \
        [rng.uniform(0.2, 3, (3, 1)), rng.uniform(0.05, 0.95, (1, 4))]
    f = getattr(ls, name)
    want = f(*args)
    np.testing.assert_allclose(want, getattr(sc, name)(*args), rtol=1e-13)
    out = np.full((3, 4), -7.0)
    assert f(*args, out=out) is out
    np.testing.assert_array_equal(out, want)
    mask = rng.random((3, 4)) < 0.5
    out2 = np.full((3, 4), -7.0)
    f(*args, out=out2, where=mask)
    np.testing.assert_array_equal(out2, np.where(mask, want, -7.0))
    big = np.zeros((3, 8))
    f(*args, out=big[:, ::2])
    np.testing.assert_array_equal(big[:, ::2], want)
    # dtype=float32 selects the float32 loop (arguments cast first), as in SciPy
    with np.errstate(all="ignore"):
        w32 = getattr(sc, name)(*args, dtype=np.float32)
    g32 = f(*args, dtype=np.float32)
    assert g32.dtype == w32.dtype == np.float32
    np.testing.assert_allclose(g32, w32, rtol=1e-4)


@pytest.mark.parametrize("name", NEW)
def test_complex_input_raises_as_scipy(name):
    args = (np.array([0.5 + 1j]),) * NARGS.get(name, 3)
    with pytest.raises(TypeError):
        getattr(sc, name)(*args)
    with pytest.raises(TypeError):
        getattr(ls, name)(*args)


def test_import_does_not_import_numba():
    code = ("import sys, linalgx, linalgx.special._betainc; "
            "assert 'numba' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


# -- accuracy against mpmath ------------------------------------------------------------------
@pytest.mark.parametrize("name,n", [("betainc", 1500), ("betaincc", 1500), ("binom", 1500),
                                    ("betaincinv", 300), ("betainccinv", 300),
                                    ("gammaincinv", 200), ("gammainccinv", 100)])
def test_accuracy_against_mpmath(name, n):
    from benchmarks.special_accuracy import cases, measure, violations
    e_ours, e_ref, args = measure(cases()[name], n, seed=1)
    bad = np.flatnonzero(violations(e_ours, e_ref))
    assert bad.size == 0, [(tuple(float(np.asarray(a)[i]) for a in args), e_ours[i], e_ref[i])
                           for i in bad[:5]]
    if name in BETA:
        # double-double kernels: within an ulp everywhere sampled (SciPy: up to ~1e3)
        assert np.nanmax(e_ours) <= 1.0


# -- derivatives against mpmath ------------------------------------------------------------------
def _jvp(op, args, i):
    out = op(*args)
    t = [None] * len(args)
    t[i] = np.ones_like(np.asarray(args[i], dtype=float))
    return op.jvp_rule(np, tuple(t), out, *args)


POINTS = [(2.0, 3.0, 0.4), (0.5, 0.5, 0.3), (10.0, 20.0, 0.5), (0.3, 7.5, 0.9),
          (5.0, 0.2, 0.05), (30.0, 40.0, 0.45), (1.5, 80.0, 0.01), (0.01, 3.0, 0.2),
          (100.0, 150.0, 0.41), (3.0, 4.0, 1e-5), (2.5, 1.5, 0.99999), (0.7, 0.9, 0.999)]


def _mp_betainc(a, b, x):
    return mp.betainc(a, b, 0, x, regularized=True)


@pytest.mark.parametrize("a,b,x", POINTS)
def test_betainc_partials_against_mpmath(a, b, x):
    with mp.workdps(40):
        A, B, X = mp.mpf(a), mp.mpf(b), mp.mpf(x)
        da = mp.diff(lambda s: _mp_betainc(s, B, X), A)
        db = mp.diff(lambda s: _mp_betainc(A, s, X), B)
        dx = X ** (A - 1) * (1 - X) ** (B - 1) / mp.beta(A, B)
    args = (np.array([a]), np.array([b]), np.array([x]))
    for i, want in enumerate((da, db, dx)):
        got = float(_jvp(BI._betainc, args, i)[0])
        assert got == pytest.approx(float(want), rel=1e-12), (i, got, want)
        assert float(_jvp(BI._betaincc, args, i)[0]) == -got
    # second derivatives: d2/da2, d2/dadb, d2/db2 and the x-derivatives of d/da, d/db
    with mp.workdps(40):
        want = {(2, 0): mp.diff(lambda s, t: _mp_betainc(s, t, X), (A, B), (2, 0)),
                (1, 1): mp.diff(lambda s, t: _mp_betainc(s, t, X), (A, B), (1, 1)),
                (0, 2): mp.diff(lambda s, t: _mp_betainc(s, t, X), (A, B), (0, 2))}
    for (i, j), w in want.items():
        got = float(BI._betainc_dab(i, j, a, b, x))
        assert got == pytest.approx(float(w), rel=1e-11, abs=1e-13 * abs(float(da))), (i, j)


def test_betainc_hessian_through_the_engine():
    x = 0.35

    def f(v):
        return ls.betainc(v[0], v[1], x)

    v = np.array([2.5, 4.0])
    h = linalgx.hessian(f)(v)
    with mp.workdps(40):
        A, B, X = mp.mpf(2.5), mp.mpf(4.0), mp.mpf(x)
        want = np.array([[mp.diff(lambda s, t: _mp_betainc(s, t, X), (A, B), (2, 0)),
                          mp.diff(lambda s, t: _mp_betainc(s, t, X), (A, B), (1, 1))],
                         [mp.diff(lambda s, t: _mp_betainc(s, t, X), (A, B), (1, 1)),
                          mp.diff(lambda s, t: _mp_betainc(s, t, X), (A, B), (0, 2))]],
                        dtype=float)
    np.testing.assert_allclose(h, want, rtol=1e-11)
    # and in x: d2/dx2 = p(x) ((a-1)/x - (b-1)/(1-x))
    g = linalgx.hessian(lambda t: ls.betainc(2.5, 4.0, t).sum())(np.array([x]))
    p = x ** 1.5 * (1 - x) ** 3 / sc.beta(2.5, 4.0)
    assert float(g[0, 0]) == pytest.approx(p * (1.5 / x - 3 / (1 - x)), rel=1e-13)


def _inv_exact(a, b, y, upper):
    from benchmarks.special_accuracy import _ibeta_inv_exact
    with mp.workdps(40):
        return _ibeta_inv_exact(upper)(mp.mpf(a), mp.mpf(b), mp.mpf(y))


@pytest.mark.parametrize("a,b,y", [(2.0, 3.0, 0.3), (0.5, 0.8, 0.9), (30.0, 12.0, 0.05),
                                   (0.2, 4.0, 1e-6), (5.0, 0.7, 0.999)])
@pytest.mark.parametrize("upper", [False, True])
def test_betaincinv_partials_against_mpmath(a, b, y, upper):
    # implicit function theorem at the exact root: dx/dy = +-1/p(x), dx/da = -P_a / p
    op = BI._betainccinv if upper else BI._betaincinv
    with mp.workdps(40):
        X = _inv_exact(a, b, y, upper)
        A, B = mp.mpf(a), mp.mpf(b)
        p = X ** (A - 1) * (1 - X) ** (B - 1) / mp.beta(A, B)
        pa = mp.diff(lambda s: _mp_betainc(s, B, X), A)
        pb = mp.diff(lambda s: _mp_betainc(A, s, X), B)
        want = (-pa / p, -pb / p, (-1 if upper else 1) / p)
    args = (np.array([a]), np.array([b]), np.array([y]))
    for i in range(3):
        got = float(_jvp(op, args, i)[0])
        assert got == pytest.approx(float(want[i]), rel=1e-11), (i, got, want[i])


@pytest.mark.parametrize("a,y", [(0.5, 0.3), (3.0, 0.05), (40.0, 0.95), (0.05, 0.7),
                                 (7.5, 1e-8)])
@pytest.mark.parametrize("upper", [False, True])
def test_gammaincinv_partials_against_mpmath(a, y, upper):
    op = BI._gammainccinv if upper else BI._gammaincinv
    x = float(op(a, y))
    with mp.workdps(40):
        A, X = mp.mpf(a), mp.mpf(x)
        p = X ** (A - 1) * mp.exp(-X) / mp.gamma(A)
        pa = mp.diff(lambda s: mp.gammainc(s, 0, X, regularized=True), A)
        want = (-pa / p, (-1 if upper else 1) / p)
    args = (np.array([a]), np.array([y]))
    for i in range(2):
        got = float(_jvp(op, args, i)[0])
        assert got == pytest.approx(float(want[i]), rel=1e-10), (i, got, want[i])


@pytest.mark.parametrize("n,k", [(5.0, 2.0), (10.5, 3.25), (-2.5, 1.5), (2.5, -0.5),
                                 (1e3, 3.0), (0.3, 7.2), (2.0, 3.0), (0.5, 2.5), (2.0, -1.0)])
def test_binom_partials_against_mpmath(n, k):
    # includes zeros of 1/Gamma(n - k + 1) (binom(2, 3), binom(0.5, 2.5)) and of
    # 1/Gamma(k + 1) (binom(2, -1)), where binom vanishes identically in one direction
    args = (np.array([n]), np.array([k]))
    with mp.workdps(40):
        N, K = mp.mpf(n), mp.mpf(k)

        def f(s, t):
            return mp.gamma(s + 1) * mp.rgamma(t + 1) * mp.rgamma(s - t + 1)

        want = (mp.diff(lambda s: f(s, K), N), mp.diff(lambda t: f(N, t), K))
    for i in range(2):
        got = float(_jvp(BI._binom, args, i)[0])
        assert got == pytest.approx(float(want[i]), rel=1e-11, abs=1e-300), (i, got, want[i])


def test_grad_and_hessian_of_inverses_through_the_engine():
    a = np.array([0.7, 2.5, 9.0])
    # x = betaincinv(a, b, betainc(a, b, x0)) is x0: its gradient in a vanishes
    g = linalgx.grad(lambda v: ls.betaincinv(v, 3.0, ls.betainc(2.5, 3.0, 0.4)).sum())(a)
    assert g[1] == pytest.approx(float(_jvp(BI._betaincinv, (np.array([2.5]), np.array([3.0]),
                                                             np.array([sc.betainc(2.5, 3.0,
                                                                                  0.4)])),
                                            0)[0]), rel=1e-13)
    x0 = np.array([0.2, 0.4, 0.7])
    r = linalgx.grad(lambda v: ls.betaincinv(2.5, 3.0, ls.betainc(2.5, 3.0, v)).sum())(x0)
    np.testing.assert_allclose(r, 1.0, rtol=1e-12)
    # second derivative of gammaincinv in y vs mpmath: d2x/dy2 = -p'(x) / p(x)^3
    y = np.array([0.3])
    h = linalgx.hessian(lambda v: ls.gammaincinv(3.0, v).sum())(y)
    x = float(sc.gammaincinv(3.0, 0.3))
    p = x ** 2 * math.exp(-x) / 2.0
    dp = p * (2.0 / x - 1.0)
    assert float(h[0, 0]) == pytest.approx(-dp / p ** 3, rel=1e-12)
