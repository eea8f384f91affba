"""comb, perm, factorial and factorial2 against scipy.special (values, result types, the
exceptions and their messages, over a grid of argument types and options), mpmath (the
floating values: 2,000 points each, error <= max(4 ulp, SciPy's error there); derivatives,
also second ones) and finite differences.

Documented deviation: the binomial coefficient behind ``comb(..., exact=False)`` takes the
sign of Gamma exactly beyond the C int range (as linalgx's gammasgn/beta do), where SciPy's
cast gives +1; it only shows with ``repetition=True`` and an argument below -2**31.
"""
import itertools
import math
import warnings

import numpy as np
import pytest
import scipy.special as sc

import linalgx
import linalgx.special as ls
from linalgx.special import _combinatorics as CB

mp = pytest.importorskip("mpmath")


def _run(f, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ("ok", f(*args, **kwargs))
        except Exception as e:  # noqa: BLE001  (the exception itself is compared)
            return ("err", type(e), str(e))


def _same(r1, r2):
    """The same result type and value (bitwise, NaN == NaN), or the same exception."""
    if r1[0] != r2[0]:
        return False
    if r1[0] == "err":
        return r1[1:] == r2[1:]
    a, b = r1[1], r2[1]
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        if a.dtype == object:
            return all(x == y and type(x) is type(y) for x, y in zip(a.ravel(), b.ravel()))
        return np.array_equal(a, b, equal_nan=True)
    if isinstance(a, (float, complex, np.inexact)):
        return bool(a == b) or bool(np.isnan(a) and np.isnan(b))
    return a == b


N_VALUES = [0, 1, 2, 5, 10, 20, 21, 33, 34, 50, 100, 170, 171, 200, -1, -2, 3.0, 3.5, -0.5, 2.5,
            np.nan, np.inf, -np.inf, 0.0, -0.0, True, np.int8(5), np.uint8(200), np.int64(7),
            np.float32(4.5), np.float16(3), np.float32(6), 1 + 1j, 3 + 0j, None, "a",
            np.array(5), np.array(2.5), np.array([1, 2, 30]), np.array([1.5, -2.0, 4.0]),
            np.array([], dtype=float), np.array([3, 5], dtype=np.float32),
            np.array([[0, 1], [25, 40]]), np.array([1 + 1j, 2]),
            np.array([-3, 5, 7], dtype=np.int8), np.array([np.nan, 1.0]), [1, 2, 3],
            np.array([255], dtype=np.uint8), np.array([-1.0, 0.5], dtype=np.float16)]


@pytest.mark.parametrize("name", ["factorial", "factorial2"])
def test_factorials_match_scipy(name):
    bad = []
    for n, exact, extend in itertools.product(N_VALUES, (False, True),
                                              ("zero", "complex", "bogus")):
        r1 = _run(getattr(ls, name), n, exact=exact, extend=extend)
        r2 = _run(getattr(sc, name), n, exact=exact, extend=extend)
        if not _same(r1, r2):
            bad.append((repr(n), exact, extend, r1, r2))
    assert not bad, bad[:5]


NK_VALUES = [0, 1, 3, 10, -1, 2.5, 3.0, np.nan, 60, np.int8(5), np.float32(7), np.float16(4),
             True, np.array(6), np.array([10, 4, -2]), np.array([3.5, 2, 8], dtype=np.float32),
             [5, 6, 7], np.array([1e15, 30, 0.5]), 1e10, 1e20, np.inf]


@pytest.mark.parametrize("name,options", [
    ("comb", [dict(exact=e, repetition=r) for e in (False, True) for r in (False, True)]),
    ("perm", [dict(exact=e) for e in (False, True)])])
def test_comb_and_perm_match_scipy(name, options):
    bad = []
    for n, k in itertools.product(NK_VALUES, NK_VALUES):
        for o in options:
            if o["exact"] and any(isinstance(v, float) and 1e5 < v < np.inf for v in (n, k)):
                continue     # a 1e10-digit integer
            r1 = _run(getattr(ls, name), n, k, **o)
            r2 = _run(getattr(sc, name), n, k, **o)
            if not _same(r1, r2):
                bad.append((repr(n), repr(k), o, r1, r2))
    assert not bad, bad[:5]


def test_exact_results():
    assert ls.comb(100, 50, exact=True) == math.comb(100, 50)
    assert ls.comb(10**30, 3, exact=True) == math.comb(10**30, 3)
    assert ls.perm(60, 30, exact=True) == math.perm(60, 30)
    assert ls.factorial(30, exact=True) == math.factorial(30)
    got = ls.factorial(np.array([3, 25, 0, -2]), exact=True)
    assert got.dtype == object and list(got) == [6, math.factorial(25), 1, 0]
    got = ls.factorial2(np.array([7, 8, 40]), exact=True)
    assert got.dtype == object
    assert list(got) == [105, 384, math.prod(range(40, 0, -2))]
    assert ls.factorial2(np.array([5, 6]), exact=True).dtype == np.dtype("long")
    with pytest.raises(ValueError, match="Non-integer"):
        ls.comb(5.5, 2, exact=True)
    with pytest.raises(ValueError, match="scalar integers"):
        ls.perm(np.array([5, 6]), 2, exact=True)


def test_binomial_kernel_is_scipys():
    rng = np.random.default_rng(0)
    n = 50000
    a = np.concatenate([rng.uniform(-50, 200, n), np.round(rng.uniform(-10, 300, n)),
                        np.exp(rng.uniform(-30, 40, n)), rng.uniform(-1e-7, 1e-7, n)])
    b = np.concatenate([rng.uniform(-20, 100, n), np.round(rng.uniform(-5, 60, n)),
                        np.exp(rng.uniform(-30, 20, n)) * rng.choice([-1, 1], n),
                        np.round(rng.uniform(-5, 30, n))])
    b = rng.permutation(b)
    ours = CB._binom(a, b)
    ref = sc.binom(a, b)
    ok = (ours == ref) | (np.isnan(ours) & np.isnan(ref))
    # the documented deviation: the sign of Gamma beyond the int range
    far = np.maximum(np.abs(b), np.abs(a - b)) > 2.0 ** 31
    assert np.all(ok | (far & (np.abs(ours) == np.abs(ref))))
    assert np.mean(ok) > 0.99
    with mp.workdps(30):
        for x, y in [(-1.2231503857987462, -569200816644.4275)]:
            want = mp.binomial(x, y)
            got = float(CB._binom(x, y))
            assert np.sign(got) == np.sign(float(want)) != np.sign(float(sc.binom(x, y)))


@pytest.mark.parametrize("name", ["comb", "perm", "factorial", "factorial2"])
def test_accuracy_against_mpmath(name):
    from benchmarks.special_accuracy import cases, measure, violations
    e_ours, e_ref, args = measure(cases()[name], 2000, seed=1)
    bad = np.flatnonzero(violations(e_ours, e_ref))
    assert bad.size == 0, [(tuple(float(np.asarray(a)[i]) for a in args), e_ours[i], e_ref[i])
                           for i in bad[:5]]
    good = e_ref <= 4
    assert np.nanmax(np.where(good, e_ours, 0)) <= 4


# -- derivatives -----------------------------------------------------------------------------
def _mp_d(f, x):
    with mp.workdps(40):
        return float(mp.diff(f, mp.mpf(float(x))))


def test_comb_gradient_against_mpmath():
    n = np.array([5.0, 10.5, 0.7, 100.0, 1e12, 40.0, 7.0])
    k = np.array([2.0, 3.25, 0.3, 40.0, 3.0, 20.0, 7.0])
    gn = linalgx.grad(lambda v: ls.comb(v, k).sum())(n)
    gk = linalgx.grad(lambda v: ls.comb(n, v).sum())(k)
    for i in range(n.size):
        rn = _mp_d(lambda x, i=i: mp.binomial(x, k[i]), n[i])
        rk = _mp_d(lambda x, i=i: mp.binomial(n[i], x), k[i])
        # psi(N + 1) - psi(N - k + 1) ~ 3e-12 at N = 1e12: no cancellation
        assert gn[i] == pytest.approx(rn, rel=1e-14), (n[i], k[i])
        assert gk[i] == pytest.approx(rk, rel=1e-14, abs=1e-14 * abs(float(ls.comb(n[i], k[i])))
                                      ), (n[i], k[i])


def test_comb_gradient_where_scipy_sets_constants():
    # k > N, k < 0, N < 0 are 0 (binom itself is NaN or not 0 there): derivative 0, no NaN
    n = np.array([3.0, 2.0, -2.0, -1.5])
    k = np.array([5.0, -1.0, 1.0, 2.0])
    assert np.array_equal(linalgx.grad(lambda v: ls.comb(v, k).sum())(n), np.zeros(4))
    assert np.array_equal(linalgx.grad(lambda v: ls.comb(n, v).sum())(k), np.zeros(4))
    # repetition: 1 at k = 0, N >= 0, binom(N + k - 1, k) elsewhere, also at N = 0 where
    # 1/Gamma(N) vanishes: comb(N, k, rep) ~ N / k
    n = np.array([0.0, 0.0, 2.5, 4.0, 0.0])
    k = np.array([1.0, 2.5, 1.5, 0.0, 0.0])
    gn = linalgx.grad(lambda v: ls.comb(v, k, repetition=True).sum())(n)
    gk = linalgx.grad(lambda v: ls.comb(n, v, repetition=True).sum())(k)

    def rep(a, b):
        return mp.binomial(a + b - 1, b)

    for i in range(4):
        assert gn[i] == pytest.approx(_mp_d(lambda x, i=i: rep(x, k[i]), n[i]), rel=1e-14)
        if n[i] != 0:
            assert gk[i] == pytest.approx(_mp_d(lambda x, i=i: rep(n[i], x), k[i]), rel=1e-14)
    assert gn[4] == 0.0 and gk[4] == 0.0      # comb(0, 0, repetition=True) = 1: a constant


def test_binomial_rule_at_the_zeros_of_reciprocal_gamma():
    # binom(n, k) = 0 on the lines n - k + 1 = -j and k + 1 = -j: the rule's limits
    n = np.array([0.0, 0.5, 2.0, 3.5])
    k = np.array([1.0, 2.5, -1.0, -2.0])
    out = CB._binom(n, k)
    assert np.all(out == 0)
    for i, wrt in itertools.product(range(4), (0, 1)):
        t = [None, None]
        t[wrt] = np.eye(4)[i]
        got = CB._binom.jvp_rule(np, tuple(t), out, n, k)[i]

        def f(x, i=i, wrt=wrt):
            a, b = (x, mp.mpf(k[i])) if wrt == 0 else (mp.mpf(n[i]), x)
            return mp.gamma(a + 1) * mp.rgamma(b + 1) * mp.rgamma(a - b + 1)

        want = _mp_d(f, n[i] if wrt == 0 else k[i])
        assert got == pytest.approx(want, rel=1e-14, abs=1e-300), (i, wrt, got, want)


def test_perm_gradient_against_mpmath():
    n = np.array([5.0, 10.5, 4.2, 1e9, 3.0])
    k = np.array([2.0, 3.25, 1.1, 2.5, 5.0])
    gn = linalgx.grad(lambda v: ls.perm(v, k).sum())(n)
    gk = linalgx.grad(lambda v: ls.perm(n, v).sum())(k)
    for i in range(4):
        rn = _mp_d(lambda x, i=i: mp.rf(x - k[i] + 1, k[i]), n[i])
        rk = _mp_d(lambda x, i=i: mp.rf(n[i] - x + 1, x), k[i])
        assert gn[i] == pytest.approx(rn, rel=1e-14)
        assert gk[i] == pytest.approx(rk, rel=1e-13)
    assert gn[4] == gk[4] == 0.0                  # k > N: 0


def test_factorial_gradients():
    x = np.array([-1.5, 0.5, 3.0, 7.25])
    g = linalgx.grad(lambda v: ls.factorial(v).sum())(x)
    want = [0.0] + [_mp_d(lambda t: mp.gamma(t + 1), v) for v in x[1:]]
    np.testing.assert_allclose(g, want, rtol=1e-14)
    g = linalgx.grad(lambda v: ls.factorial(v, extend="complex").sum())(x)
    np.testing.assert_allclose(g, [_mp_d(lambda t: mp.gamma(t + 1), v) for v in x], rtol=1e-14)

    def f2(t):
        return mp.mpf(2) ** (t / 2) * mp.gamma(t / 2 + 1) * mp.sqrt(2 / mp.pi)

    g = linalgx.grad(lambda v: ls.factorial2(v, extend="complex").sum())(x)
    np.testing.assert_allclose(g, [_mp_d(f2, v) for v in x], rtol=1e-14)
    # NaN stays NaN; second derivatives
    g = linalgx.grad(lambda v: ls.factorial(v).sum())(np.array([np.nan, 2.0]))
    assert np.isnan(g[0]) and np.isfinite(g[1])
    h = linalgx.hessian(lambda v: ls.factorial(v).sum())(x)
    with mp.workdps(40):
        want = [0.0] + [float(mp.diff(lambda t: mp.gamma(t + 1), mp.mpf(v), 2)) for v in x[1:]]
    np.testing.assert_allclose(np.diag(h), want, rtol=1e-13)
    h = linalgx.hessian(lambda v: ls.comb(v, 2.5).sum())(np.array([4.0, 7.5]))
    with mp.workdps(40):
        want = [float(mp.diff(lambda t: mp.binomial(t, 2.5), mp.mpf(v), 2)) for v in (4.0, 7.5)]
    np.testing.assert_allclose(np.diag(h), want, rtol=1e-13)


def test_traced_values_equal_plain_ones():
    # the values a transform computes (placeholders, where instead of SciPy's item
    # assignment) are the plain call's, and the Jacobians finite
    cases = [(lambda v: ls.comb(v, np.array([2.0, 3.25, 5.0, 1.0])),
              np.array([5.0, 10.5, 3.0, -1.0])),
             (lambda v: ls.comb(v, np.array([0.0, 0.0, 2.0]), repetition=True),
              np.array([0.0, 3.0, 1.5])),
             (lambda v: ls.perm(v, 2.0), np.array([5.0, 1.0, -3.0])),
             (lambda v: ls.factorial(v), np.array([2.5, -1.0, 4.0, 0.0])),
             (lambda v: ls.factorial2(v, extend="complex"), np.array([2.5, 7.0, -3.5]))]
    for fn, x in cases:
        val, _ = linalgx.value_and_grad(lambda v, fn=fn: fn(v).sum())(x)
        assert float(val) == float(np.sum(fn(x)))
        assert np.all(np.isfinite(linalgx.jacobian(fn)(x)))


def test_exact_true_is_not_differentiable():
    # floats with exact=True are SciPy's ValueError, under a transform too
    with pytest.raises(ValueError, match="only supports integers"):
        linalgx.grad(lambda v: ls.factorial(v, exact=True).sum())(np.array([3.0]))
