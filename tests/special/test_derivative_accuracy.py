"""Accuracy of linalgx.special's derivatives against mpmath, through the autodiff engine
(``linalgx.jvp`` / ``linalgx.vjp``), where the rules' closed forms used to cancel,
underflow or use a formula outside its domain; the dtypes of tangents and cotangents; and
complex input, which is either differentiated correctly or refused with a clear TypeError.

Each reference is mpmath at 40+ digits (more where a reference formula itself cancels),
never linalgx itself.
"""
import functools
import os
import warnings

import numpy as np
import pytest

import linalgx
import linalgx.special as LS
from linalgx._core.box import Box

mp = pytest.importorskip("mpmath")


def _d1(f, x):
    x = x if isinstance(x, Box) else np.asarray(x)
    return linalgx.jvp(f, (x,), (np.ones(x.shape, x.dtype),))[1]


def _d2(f, x):
    return _d1(lambda v: _d1(f, v), x)


def _mp(fn, x, dps=40):
    # enough digits that the reference's own cancellation (1 - cos for tiny x, products of
    # exponentially large and small factors for huge x) stays far below double precision
    x = float(x)
    extra = 2 * int(abs(np.log10(abs(x)))) if x != 0 and np.isfinite(x) else 0
    with mp.workdps(dps + min(extra, 1300)):
        return fn(mp.mpf(x))


def _rel_errors(got, xs, ref_fn):
    errs = []
    for x, g in zip(np.ravel(xs), np.ravel(got)):
        ref = _mp(ref_fn, x)
        if isinstance(ref, mp.mpc):
            ref = ref.real
        if abs(ref) < 2.3e-308:          # below the normal range: no relative accuracy
            continue
        errs.append((float(abs((mp.mpf(float(g)) - ref) / ref)), float(x), float(g),
                     float(ref)))
    return max(errs)


# -- Riemann zeta: d/ds below s = 1 ------------------------------------------------------------
FULL = os.environ.get("LINALGX_FULL_ACCURACY") == "1"
_K2 = -2.0 * np.arange(1, 31)
_S = np.unique(np.concatenate([
    np.linspace(-60.0, 0.99, 2401 if FULL else 301), _K2, _K2 + 1e-9, _K2 - 1e-9,
    [-1.25, -1.2500000000000002, -0.5, -0.5000000000000001, -1e-300, 0.0, 1.0000001, 1.5,
     3.0, 20.0, 80.0]]))


@functools.cache
def _zeta_ref(s, k):
    with mp.workdps(30):
        return mp.zeta(mp.mpf(s), derivative=k), _zeta_scale(s, k)


def _zeta_scale(s, k):
    # below -1.25, the size of the functional equation's terms: 2^s pi^(s-1) Gamma(1-s)
    # (pi/2 + |log(2 pi) - psi(1-s)|)^k. The k-th derivative has zeros between the trivial
    # zeros, where a relative error means nothing; elsewhere it is of this size.
    if s >= -1.25:
        return mp.mpf(0)
    s = mp.mpf(s)
    return (abs(mp.power(2, s) * mp.power(mp.pi, s - 1) * mp.gamma(1 - s))
            * (mp.pi / 2 + abs(mp.log(2 * mp.pi) - mp.digamma(1 - s))) ** k)


@pytest.mark.parametrize("k", [1, 2])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_riemann_zeta_derivatives_against_mpmath(k, dtype):
    s = _S.astype(dtype)
    got = (_d1 if k == 1 else _d2)(LS.zeta, s)
    assert got.dtype == dtype
    tol = 2e-14 if dtype == np.float64 else np.finfo(np.float32).eps
    worst = (0.0, 0.0)
    for sv, g in zip(s, got):
        ref, scale = _zeta_ref(float(sv), k)
        if abs(ref) > np.finfo(dtype).max:
            assert np.isinf(g) and np.sign(g) == mp.sign(ref)
            continue
        e = float(abs(mp.mpf(float(g)) - ref) / max(abs(ref), scale))
        worst = max(worst, (e, float(sv)))
    assert worst[0] < tol, f"k={k}: error {worst[0]:.3g} (scaled) at s={worst[1]}"


def test_riemann_zeta_derivative_reproducer():
    # the sweep's reproducer: d/ds at -20.5 gave -2.08e12 (Euler-Maclaurin at q=1)
    for s in (-5.0, -9.0, -10.5, -15.5, -20.5):
        got = float(linalgx.grad(LS.zeta)(np.float64(s)))
        ref = mp.zeta(s, derivative=1)
        assert abs(got - ref) <= 1e-14 * abs(ref)


def test_riemann_zeta_derivative_edges():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        s = np.array([1.0, np.inf, -np.inf, np.nan, -300.0, -262.0, -1e300])
        d = _d1(LS.zeta, s)
        vals = LS.zeta(s)
    assert d[0] == -np.inf                      # -1/(s-1)^2 from both sides
    assert d[1] == 0.0 and np.isnan(d[2]) and np.isnan(d[3])
    # beyond the overflow of the value: inf with the sign of the functional equation's
    # derivative [A (log(2 pi) - psi(1-s)) + B] zeta(1-s) - A zeta'(1-s), in mpmath (which
    # takes seconds for mpmath.zeta(s, derivative=1) there)
    for i in (4, 5):
        assert np.isinf(vals[i]) or vals[i] == 0.0
        sv = mp.mpf(s[i])
        f = mp.power(2, sv) * mp.power(mp.pi, sv - 1) * mp.gamma(1 - sv)
        a, b = f * mp.sinpi(sv / 2), f * mp.pi / 2 * mp.cospi(sv / 2)
        ref = ((a * (mp.log(2 * mp.pi) - mp.digamma(1 - sv)) + b) * mp.zeta(1 - sv)
               - a * mp.zeta(1 - sv, derivative=1))
        assert np.isinf(d[i]) and np.sign(d[i]) == mp.sign(ref)
    assert np.isinf(d[6])
    # at the trivial zeros the value is 0 and the derivative finite
    for s0 in (-2.0, -4.0, -40.0):
        assert float(LS.zeta(s0)) == 0.0
        np.testing.assert_allclose(float(linalgx.grad(LS.zeta)(s0)),
                                   float(mp.zeta(s0, derivative=1)), rtol=1e-14)


def test_riemann_zeta_hessian_and_vjp():
    s = np.array([-30.5, -7.25, -1.1, -0.2, 0.6, 4.0])
    h = linalgx.hessian(lambda v: LS.zeta(v).sum())(s)
    want = [float(mp.zeta(v, derivative=2)) for v in s]
    np.testing.assert_allclose(np.diag(h), want, rtol=2e-14)
    out, pullback = linalgx.vjp(LS.zeta, s)
    np.testing.assert_allclose(pullback(np.ones_like(s))[0],
                               [float(mp.zeta(v, derivative=1)) for v in s], rtol=2e-14)


# -- first derivatives where the old closed forms cancelled or underflowed ---------------------
def _g(lo, hi, n=120, sym=False):
    # log-spaced, with n points above 1 (where the tails are) and n // 3 below
    if lo < 1.0 < hi:
        x = np.concatenate([np.geomspace(lo, 1.0, n // 3, endpoint=False),
                            np.geomspace(1.0, hi, n)])
    else:
        x = np.geomspace(lo, hi, n)
    return np.concatenate([-x[::-1], x]) if sym else x


def _erfcx(x):
    return mp.exp(x * x) * mp.erfc(x)


def _erfcx_d(x):
    if x > 1e10:   # the asymptotic series, whose next term is below 1e-60 relative
        return -(x ** -2 - 1.5 * x ** -4 + 3.75 * x ** -6) / mp.sqrt(mp.pi)
    return 2 * x * _erfcx(x) - 2 / mp.sqrt(mp.pi)


_FIRST = {
    # name: (function, points, d/dx in mpmath, rtol)
    "sinc": (LS.sinc, np.concatenate([_g(1e-300, 1e15, 300, sym=True), [0.49, 0.5, 0.51],
                                      1e6 + np.array([0.5, 0.25, 1e-3])]),
             lambda x: (mp.cos(mp.pi * x) - mp.sinc(mp.pi * x)) / x, 1e-15),
    "expit": (LS.expit, _g(1e-300, 745.0, sym=True),
              lambda x: mp.exp(-x) / (1 + mp.exp(-x)) ** 2, 1e-15),
    "expm1": (LS.expm1, _g(1e-300, 709.0, sym=True), mp.exp, 1e-15),
    "erfcx": (LS.erfcx, np.concatenate([_g(1e-300, 1e300, 300), -_g(1e-300, 26.0)]),
              _erfcx_d, 1e-15),
    "erf": (LS.erf, _g(1e-300, 26.5, sym=True),
            lambda x: 2 / mp.sqrt(mp.pi) * mp.exp(-x * x), 1e-15),
    "erfc": (LS.erfc, _g(1e-300, 26.5, sym=True),
             lambda x: -2 / mp.sqrt(mp.pi) * mp.exp(-x * x), 1e-15),
    "ndtr": (LS.ndtr, _g(1e-300, 37.5, sym=True), mp.npdf, 1e-15),
    "log_ndtr": (LS.log_ndtr, _g(1e-300, 37.5, sym=True),
                 lambda x: mp.npdf(x) / mp.ncdf(x), 2e-15),
    "erfinv": (LS.erfinv, np.concatenate([1 - _g(1e-16, 1.0)[:-1], _g(1e-300, 0.9),
                                          -(1 - _g(1e-16, 0.5))]),
               lambda y: mp.sqrt(mp.pi) / 2 * mp.exp(mp.erfinv(y) ** 2), 2e-15),
    "ndtri": (LS.ndtri, np.concatenate([_g(1e-300, 0.5, 40), 1 - _g(1e-16, 0.5, 30)]),
              lambda p: 1 / mp.npdf(mp.findroot(lambda t: mp.ncdf(t) - p,
                                                float(LS.ndtri(float(p))))), 2e-15),
    "i0e": (LS.i0e, _g(1e-3, 1e300, 70, sym=True),
            lambda x: mp.exp(-abs(x)) * (mp.besseli(1, x) - mp.sign(x) * mp.besseli(0, x)),
            1e-14),
    "i1e": (LS.i1e, _g(1e-3, 1e300, 70, sym=True),
            lambda x: mp.exp(-abs(x)) * (mp.besseli(0, x) - mp.sign(x) * mp.besseli(1, x)
                                         - mp.besseli(1, x) / x), 1e-14),
    "k0e": (LS.k0e, _g(1e-3, 1e300, 100),
            lambda x: mp.exp(x) * (mp.besselk(0, x) - mp.besselk(1, x)), 1e-14),
    "k1e": (LS.k1e, _g(1e-3, 1e300, 100),
            lambda x: mp.exp(x) * (mp.besselk(1, x) - mp.besselk(0, x) - mp.besselk(1, x) / x),
            1e-14),
}


@pytest.mark.parametrize("name", list(_FIRST))
def test_first_derivative_against_mpmath(name):
    f, xs, ref, rtol = _FIRST[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = _d1(f, xs)
    err, x, g, r = _rel_errors(got, xs, ref)
    assert err < rtol, f"{name}'({x!r}) = {g!r}, mpmath {r!r}: relative error {err:.3g}"


def test_sweep_reproducers():
    # the points the differential sweep reported: sinc' at 1e-8 was 33% off, expit' at 50
    # and erfcx' at 1e8 were 0, expm1' at -30 1.7e-4 off
    g = lambda f, x: float(linalgx.grad(f)(np.float64(x)))   # noqa: E731
    with mp.workdps(50):
        for f, x, ref in ((LS.sinc, 1e-8, -(mp.pi ** 2) / 3 * mp.mpf(1e-8)),
                          (LS.expit, 50.0, mp.exp(-50) / (1 + mp.exp(-50)) ** 2),
                          (LS.erfcx, 1e8, _erfcx_d(mp.mpf(1e8))),
                          (LS.expm1, -30.0, mp.exp(-30))):
            assert abs(g(f, x) - ref) <= 1e-15 * abs(ref), (f, x)


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_sinc_derivative_small_x_in_low_precision(dtype):
    # the Taylor branch in float32 and float16 (sinc keeps those dtypes)
    x = np.array([1e-4, 3e-3, 0.1, 0.3, 0.49, -0.2, 0.7, 2.5], dtype=dtype)
    got = _d1(LS.sinc, x)
    assert got.dtype == dtype
    for xv, gv in zip(x, got):
        ref = _mp(lambda t: (mp.cos(mp.pi * t) - mp.sinc(mp.pi * t)) / t, xv)
        assert abs(float(gv) - ref) <= 2 * np.finfo(dtype).eps * abs(ref)


def test_gammainc_derivatives_for_large_a():
    # a ~ x: the prefactor x^a e^-x / Gamma(a) from igam_fac's Lanczos form, not the
    # exponential of a ~a log(x)-sized sum (2e-10 relative at a = 1e5)
    pts = [(1e3, 1e3), (1e4, 9e3), (1e4, 1.1e4), (1e5, 1e5), (1e5, 1.01e5), (3e4, 2.9e4)]
    a = np.array([p[0] for p in pts])
    x = np.array([p[1] for p in pts])
    dx = linalgx.jvp(lambda v: LS.gammainc(a, v), (x,), (np.ones_like(x),))[1]
    da = linalgx.jvp(lambda v: LS.gammainc(v, x), (a,), (np.ones_like(a),))[1]
    with mp.workdps(50):
        for i, (ai, xi) in enumerate(pts):
            ai, xi = mp.mpf(ai), mp.mpf(xi)
            dens = mp.exp(-xi) * xi ** (ai - 1) / mp.gamma(ai)
            assert abs(dx[i] - dens) <= 5e-14 * dens, (pts[i], dx[i], dens)
            if xi < ai:
                ref = mp.diff(lambda s, xi=xi: mp.gammainc(s, 0, xi, regularized=True), ai)
            else:
                ref = -mp.diff(lambda s, xi=xi: mp.gammainc(s, xi, mp.inf, regularized=True),
                               ai)
            assert abs(da[i] - ref) <= 3e-13 * abs(ref), (pts[i], da[i], ref)


# -- second derivatives (autodiff of the rules) --------------------------------------------------
_SECOND = {
    "sinc": (LS.sinc, [1e-8, 1e-3, 0.2, 0.49, 0.5, 0.51, 2.5, 1e6 + 0.5],
             lambda x: mp.diff(lambda t: mp.sinc(mp.pi * t), x, 2)),
    "expit": (LS.expit, [-700.0, -50.0, 0.3, 20.0, 50.0, 700.0],
              lambda x: mp.diff(lambda t: 1 / (1 + mp.exp(-t)), x, 2)),
    "erfcx": (LS.erfcx, [-5.0, 0.5, 2.0, 2.1, 5.0, 30.0, 1e4, 1e8],
              lambda x: mp.diff(_erfcx, x, 2)),
    "erf": (LS.erf, [0.1, 1.0, 5.0, 20.0], lambda x: mp.diff(mp.erf, x, 2)),
    "log_ndtr": (LS.log_ndtr, [-1e4, -30.0, -1.0, 0.0, 0.1, 5.0, 30.0],
                 lambda x: mp.diff(lambda t: mp.log(mp.ncdf(t)), x, 2)),
    "erfinv": (LS.erfinv, [-0.999999, -0.5, 0.1, 0.9, 1 - 1e-12],
               lambda y: mp.diff(mp.erfinv, y, 2)),
    "ndtri": (LS.ndtri, [1e-100, 1e-5, 0.3, 0.9, 1 - 1e-12],
              lambda p: mp.diff(lambda t: mp.sqrt(2) * mp.erfinv(2 * t - 1), p, 2)),
    "k0e": (LS.k0e, [0.5, 25.0, 1e3, 1e8],
            lambda x: mp.diff(lambda t: mp.exp(t) * mp.besselk(0, t), x, 2)),
    "i1e": (LS.i1e, [-50.0, -25.0, 0.5, 25.0, 1e3, 1e8],
            lambda x: mp.diff(lambda t: mp.exp(-abs(t)) * mp.besseli(1, t), x, 2)),
}


@pytest.mark.parametrize("name", list(_SECOND))
def test_second_derivative_against_mpmath(name):
    f, xs, ref = _SECOND[name]
    xs = np.array(xs)
    err, x, g, r = _rel_errors(_d2(f, xs), xs, ref)
    assert err < 1e-14, f"{name}''({x!r}) = {g!r}, mpmath {r!r}: relative error {err:.3g}"


def test_second_derivative_at_symmetric_points():
    # erfinv'' and ndtri'' vanish at the centre, where the rules switch formulas
    assert float(_d2(LS.ndtri, np.array(0.5))) == 0.0
    assert abs(float(_d2(LS.erfinv, np.array(0.0)))) <= 2e-16
    assert float(_d2(LS.sinc, np.array(0.0))) == pytest.approx(-np.pi ** 2 / 3, rel=1e-15)


# -- dtypes ------------------------------------------------------------------------------------
_UNARY = ["erf", "erfc", "erfcx", "erfinv", "ndtr", "ndtri", "log_ndtr", "gammaln", "digamma",
          "i0", "i0e", "i1", "i1e", "k0", "k0e", "k1", "k1e", "j0", "j1", "y0", "y1", "expit",
          "logit", "sinc", "entr", "exp2", "expm1", "log1p", "round", "zeta", "airy_ai",
          "gamma", "rgamma", "loggamma", "gammasgn", "log_expit", "exp10", "erfcinv"]


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("name", _UNARY)
def test_tangent_has_the_output_dtype(name, dtype):
    f = getattr(LS, name)
    x = np.array([0.25, 0.5, 0.75], dtype=dtype)
    if name == "zeta":
        x = x + dtype(1.5)
    out, t = linalgx.jvp(f, (x,), (np.ones_like(x),))
    assert t.dtype == out.dtype, (t.dtype, out.dtype)
    _, pullback = linalgx.vjp(f, x)
    (g,) = pullback(np.ones_like(out))
    assert g.dtype == dtype
    if out.dtype.itemsize > x.dtype.itemsize:
        # computed at the output's precision: the same numbers as for the widened input
        t64 = linalgx.jvp(f, (x.astype(out.dtype),), (np.ones(3, out.dtype),))[1]
        np.testing.assert_array_equal(t, t64)


def test_binary_tangent_dtypes():
    x = np.array([0.5, 2.0], dtype=np.float16)
    y = np.array([1.5, 3.0], dtype=np.float16)
    for f in (LS.xlogy, LS.xlog1py, LS.gammainc, LS.gammaincc, LS.zeta):
        out, t = linalgx.jvp(f, (x + np.float16(1.0), y), (np.ones_like(x), np.ones_like(y)))
        assert t.dtype == out.dtype, f


# -- complex input -----------------------------------------------------------------------------
_Z = np.array([0.3 + 0.4j, 1.7 - 0.2j])


def _complex_case(name):
    f = getattr(LS, name)
    if name in ("polygamma", "spherical_jn") or name.startswith("eval_"):
        return lambda w: f(np.array([2, 3]), w)
    if "polynomial" in name:
        return lambda w: f(w, np.array([2, 3]))
    if name in ("xlogy", "xlog1py"):
        return lambda w: f(w, 0.5 * w + 1)
    if name == "airy":
        return lambda w: f(w)[1]
    if name == "multigammaln":
        return lambda w: f(w + 3, 2)
    if name in ("factorial", "factorial2"):
        return lambda w: f(w, extend="complex")     # SciPy's opt-in to complex input
    if name in ("gammainc", "gammaincc"):
        return lambda w: f(w + 1, w + 2)
    if name in ("logsumexp", "softmax", "log_softmax"):
        return None                      # reductions over the array: tests of their own
    return f


@pytest.mark.parametrize("name", LS.__all__)
def test_complex_input_is_differentiated_or_refused_clearly(name):
    f = _complex_case(name)
    if f is None:
        pytest.skip("a reduction")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            f(_Z)
        except TypeError:
            pytest.skip("no complex value either")
        try:
            _, t = linalgx.jvp(f, (_Z,), (np.ones_like(_Z),))
        except TypeError as e:
            assert "complex input is not differentiable" in str(e)
            assert name.split("_")[0] in str(e) or name == "psi"
            with pytest.raises(TypeError, match="complex input is not differentiable"):
                linalgx.vjp(f, _Z)[1](np.ones_like(_Z))
            return
        h = 1e-6
        fd = (np.asarray(f(_Z + h)) - np.asarray(f(_Z - h))) / (2 * h)   # holomorphic
        np.testing.assert_allclose(t, fd, rtol=1e-6)
        _, pullback = linalgx.vjp(f, _Z)
        np.testing.assert_allclose(pullback(np.ones_like(_Z))[0], np.conj(fd), rtol=1e-6)


@pytest.mark.parametrize("f", [LS.digamma, LS.psi, LS.zeta, lambda z: LS.zeta(z, 2.0)])
def test_complex_digamma_and_zeta_raise_a_clear_error(f):
    z = np.array(2.0 + 1j)
    with pytest.raises(TypeError, match=r"linalgx\.special\.(digamma|zeta).*complex input is "
                                        r"not differentiable"):
        linalgx.jvp(f, (z,), (np.array(1 + 0j),))
    with pytest.raises(TypeError, match="complex input is not differentiable"):
        linalgx.grad(lambda w: abs(f(w)) ** 2)(z)


# -- second derivatives near the center/origin (found by the torch.autograd sweep) ----------
def _mp_d2(fn, x):
    with mp.workdps(40):
        return mp.diff(fn, mp.mpf(float(x)), 2, relative=x != 0, addprec=40)


_SMALL = np.array([-0.9, -1e-3, -1e-10, 1e-300, 1e-10, 1e-5, 1e-3, 0.3, 0.99, 1.01, 3.0])


@pytest.mark.parametrize("name,fn", [
    ("i0", lambda x: mp.besseli(0, x)), ("i1", lambda x: mp.besseli(1, x)),
    ("j0", lambda x: mp.besselj(0, x)), ("j1", lambda x: mp.besselj(1, x)),
    ("i1e", lambda x: mp.exp(-abs(x)) * mp.besseli(1, x))])
def test_bessel_second_derivative_near_zero(name, fn):
    # i1' = i0 - i1/x and j1' = j0 - j1/x differentiate to terms of size 1/x that cancel:
    # relative errors eps/x^2 (i1'' at 1e-10 was 4.8e-6 instead of 3.75e-11; i1e'' at
    # 1e-300 was inf); now their Taylor series below |x| = 1
    got = _d2(getattr(LS, name), _SMALL)
    for x, g in zip(_SMALL, got):
        ref = _mp_d2(fn, x)
        if abs(x) < 1e-200:   # mpmath's step underflows: the series' leading term
            ref = {"i0": 0.5, "i1": 0.375 * x, "j0": -0.5, "j1": -0.375 * x,
                   "i1e": -np.sign(x)}[name]
        assert abs(g - ref) <= 1e-13 * abs(ref), (x, g, ref)


def test_spherical_bessel_j0_second_derivative_at_tiny_x():
    x = np.array([-1e-300, 0.0, 1e-300, 1e-10])
    np.testing.assert_allclose(_d2(LS.spherical_bessel_j0, x), -1.0 / 3.0, rtol=1e-15)


@pytest.mark.parametrize("name,fn,pts", [
    ("erfinv", mp.erfinv, [1e-8, -1e-8, 1e-4, -1e-3, 0.3, 0.49, 0.51, 0.9]),
    ("ndtri", lambda p: mp.sqrt(2) * mp.erfinv(2 * p - 1),
     [0.5 + 1e-8, 0.5 - 1e-8, 0.5001, 0.499, 0.3, 0.74, 0.76, 0.9])])
def test_inverse_cdf_second_derivative_at_the_center(name, fn, pts):
    # the erfcx form of 1/erf'(x) differentiates to two terms of size 1 cancelling to O(x):
    # erfinv''(1e-8) was 4e-9 off relative; now exp(x**2) near the center
    x = np.array(pts)
    got = _d2(getattr(LS, name), x)
    for v, g in zip(x, got):
        ref = _mp_d2(fn, v)
        assert abs(g - ref) <= 1e-13 * abs(ref), (v, g, ref)
    assert _d2(getattr(LS, name), np.array([0.0 if name == "erfinv" else 0.5]))[0] == 0.0


def test_multigammaln_hessian():
    # a nested transform's Box reached np.asarray in the domain check (TypeError)
    a = np.array([1.2, 2.5, 40.0])
    h = linalgx.hessian(lambda a: LS.multigammaln(a, 3).sum())(a)
    ref = [float(sum(mp.polygamma(1, v - mp.mpf(j) / 2) for j in range(3))) for v in a]
    np.testing.assert_allclose(h, np.diag(ref), rtol=1e-14)
