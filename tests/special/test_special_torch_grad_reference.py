"""First and second derivatives of linalgx.special against torch.autograd (torch.special),
at points in both tails, near 0 and near poles and edges.

Where torch is the inaccurate one (its closed forms lose digits in tails: expit and expm1
far out, digamma's trigamma, i0e/i1e for large |x|, sinc near 0, erfcx'' for large x) the
point is compared with mpmath instead; those points are listed in ``MPMATH_ONLY``. Functions
without a derivative in torch (Bessel J/Y/K, Airy, the polynomials) are covered against
mpmath in test_derivative_accuracy.py.
"""
import warnings

import numpy as np
import pytest

import linalgx
import linalgx.special as S

torch = pytest.importorskip("torch")
mp = pytest.importorskip("mpmath")
TS = torch.special

REAL = [-30.0, -10.0, -2.5, -1.0, -0.5, -1e-3, -1e-8, 0.0, 1e-8, 1e-3, 0.3, 0.5, 1.0, 2.0,
        3.7, 10.0, 30.0]
POS = [1e-10, 1e-3, 0.1, 0.5, 1.0, 1.5, 2.0, 3.7, 10.0, 50.0, 100.0]
UNIT = [1e-20, 1e-8, 1e-3, 0.1, 0.3, 0.5, 0.5 + 1e-6, 0.7, 0.9, 0.999, 1 - 1e-8]
SYM = [-0.999, -0.9, -0.5, -1e-5, 0.0, 1e-5, 0.5, 0.9, 0.999, 1 - 1e-12]
GAMX = [1e-3, 0.1, 0.5, 1.0, 2.5, 10.0, 100.0, -0.5, -1.5, -2.5, -3.3, -10.7]
BES = [-50.0, -5.0, -1.0, -1e-3, 0.0, 1e-3, 0.5, 1.0, 2.0, 5.0, 50.0, 500.0]


def _poly(f, n):
    return lambda x: f(n, x)


# name: (linalgx function, torch function, mpmath function, points, second derivative?)
CASES = {
    "erf": (S.erf, TS.erf, mp.erf, REAL, True),
    "erfc": (S.erfc, TS.erfc, mp.erfc, REAL, True),
    "erfcx": (S.erfcx, TS.erfcx, lambda x: mp.exp(x * x) * mp.erfc(x), REAL[2:], True),
    "erfinv": (S.erfinv, TS.erfinv, mp.erfinv, SYM, True),
    "expit": (S.expit, TS.expit, lambda x: 1 / (1 + mp.exp(-x)), REAL, True),
    "logit": (S.logit, TS.logit, lambda x: mp.log(x / (1 - x)), UNIT, True),
    "gammaln": (S.gammaln, TS.gammaln, lambda x: mp.log(abs(mp.gamma(x))), GAMX, True),
    "digamma": (S.digamma, TS.digamma, mp.digamma, GAMX, True),
    "polygamma1": (lambda x: S.polygamma(1, x), lambda x: TS.polygamma(1, x),
                   lambda x: mp.polygamma(1, x), GAMX, True),
    "polygamma3": (lambda x: S.polygamma(3, x), lambda x: TS.polygamma(3, x),
                   lambda x: mp.polygamma(3, x), GAMX, False),
    "multigammaln": (lambda x: S.multigammaln(x, 3), lambda x: TS.multigammaln(x, 3),
                     lambda x: sum(mp.loggamma(x - mp.mpf(j) / 2) for j in range(3)),
                     [1.001, 1.5, 2.0, 7.5, 100.0], True),
    "i0": (S.i0, TS.i0, lambda x: mp.besseli(0, x), BES[1:-1], True),
    "i0e": (S.i0e, TS.i0e, lambda x: mp.exp(-abs(x)) * mp.besseli(0, x), BES, True),
    "i1": (S.i1, TS.i1, lambda x: mp.besseli(1, x), BES[1:-1], True),
    "i1e": (S.i1e, TS.i1e, lambda x: mp.exp(-abs(x)) * mp.besseli(1, x), BES, False),
    "ndtr": (S.ndtr, TS.ndtr, mp.ncdf, REAL, True),
    "ndtri": (S.ndtri, TS.ndtri, lambda p: mp.sqrt(2) * mp.erfinv(2 * p - 1), UNIT, True),
    "log_ndtr": (S.log_ndtr, TS.log_ndtr, lambda x: mp.log(mp.ncdf(x)), REAL, True),
    "sinc": (S.sinc, TS.sinc, lambda x: mp.sinc(mp.pi * x), REAL + [1e6 + 0.5], True),
    "entr": (S.entr, TS.entr, lambda x: -x * mp.log(x), POS, True),
    "exp2": (S.exp2, torch.exp2, lambda x: mp.mpf(2) ** x, REAL, True),
    "expm1": (S.expm1, TS.expm1, mp.expm1, REAL, True),
    "log1p": (S.log1p, TS.log1p, mp.log1p, POS + [-0.5, -0.999], True),
    "zeta_q": (lambda q: S.zeta(2.5, q), lambda q: TS.zeta(torch.full_like(q, 2.5), q),
               lambda q: mp.zeta(2.5, q), POS[1:], False),
    "gammainc_x": (lambda x: S.gammainc(3.0, x), lambda x: TS.gammainc(torch.full_like(x, 3.0), x),
                   lambda x: mp.gammainc(3, 0, x, regularized=True), POS, False),
    "gammaincc_x": (lambda x: S.gammaincc(0.5, x),
                    lambda x: TS.gammaincc(torch.full_like(x, 0.5), x),
                    lambda x: mp.gammainc(0.5, x, mp.inf, regularized=True), POS, False),
    "xlogy_x": (lambda x: S.xlogy(x, 3.0), lambda x: TS.xlogy(x, torch.tensor(3.0)),
                lambda x: x * mp.log(3), REAL, False),
    "xlogy_y": (lambda y: S.xlogy(2.0, y), lambda y: TS.xlogy(torch.tensor(2.0), y),
                lambda y: 2 * mp.log(y), POS, True),
    "xlog1py_y": (lambda y: S.xlog1py(2.0, y), lambda y: TS.xlog1py(torch.tensor(2.0), y),
                  lambda y: 2 * mp.log1p(y), POS + [-0.5, -0.999], True),
}

RTOL = 1e-10


def _lx(f, x, order):
    g = linalgx.grad(lambda v: f(v).sum())
    if order == 1:
        return g(x)
    return linalgx.jvp(g, (x,), (np.ones_like(x),))[1]


def _torch(f, x, order):
    xt = torch.tensor(x, requires_grad=True)
    (g,) = torch.autograd.grad(f(xt).sum(), xt, create_graph=order > 1)
    if order == 2:
        (g,) = torch.autograd.grad(g.sum(), xt)
    return g.detach().numpy()


def _mp(fn, x, order):
    with mp.workdps(40):
        return float(mp.diff(fn, mp.mpf(x), order, relative=x != 0, addprec=40))


@pytest.mark.parametrize("order", [1, 2])
@pytest.mark.parametrize("name", sorted(CASES))
def test_against_torch(name, order):
    f, tf, mf, pts, second = CASES[name]
    if order == 2 and not second:
        pytest.skip("first derivative only")
    x = np.array(pts, dtype=np.float64)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = _lx(f, x, order)
        ref = _torch(tf, x, order)
    bad = []
    for xi, g, r in zip(x, got, ref):
        if g == r or abs(g - r) <= RTOL * abs(r):
            continue
        m = _mp(mf, xi, order)     # torch differs: mpmath decides, linalgx must be right
        if not abs(g - m) <= RTOL * abs(m) + 1e-300:
            bad.append((float(xi), float(g), float(r), m))
    assert not bad, bad


@pytest.mark.parametrize("name", ["erf", "expit", "gammaln", "i0e", "log_ndtr", "sinc",
                                  "logit", "ndtri"])
def test_float32_gradient_dtype(name):
    f, tf, mf, pts, _ = CASES[name]
    x = np.array([p for p in pts if abs(p) < 20 and p != 0], dtype=np.float32)
    x = x[x != 1]                      # 1 - 1e-8 rounds to 1 in float32
    got = _lx(f, x, 1)
    assert got.dtype == _torch(tf, x, 1).dtype == np.float32
    # values against mpmath at the float32 points: torch's own float32 derivatives of expit
    # (x = 10: 5e-4 off) and sinc (x = 1e-3: 1.4e-2 off) are the inaccurate ones
    ref = [_mp(mf, float(v), 1) for v in x]
    np.testing.assert_allclose(got, ref, rtol=2e-5, atol=1e-30)


def test_special_points():
    # conventions at the edges: torch's where it is the true derivative, the true one else
    z = np.array([0.0])
    assert _lx(S.sinc, z, 1)[0] == 0.0 == _torch(TS.sinc, z, 1)[0]
    assert _lx(S.sinc, z, 2)[0] == pytest.approx(-np.pi ** 2 / 3, rel=1e-15)  # torch: NaN
    assert _lx(lambda x: S.xlogy(x, 2.0), z, 1)[0] == pytest.approx(np.log(2.0))
    # x = 0: xlogy(0, y) = 0 for every y, so d/dy is 0 (torch: 0/y = 0 too, NaN at y = 0)
    assert _lx(lambda y: S.xlogy(0.0, y), np.array([0.5, 0.0]), 1).tolist() == [0.0, 0.0]
    assert _lx(lambda y: S.xlog1py(0.0, y), np.array([0.5, -1.0]), 1).tolist() == [0.0, 0.0]
    assert _lx(S.entr, z, 1)[0] == np.inf == _torch(TS.entr, z, 1)[0]
    assert np.isinf(_lx(S.logit, np.array([0.0, 1.0]), 1)).all()
    assert np.isinf(_lx(S.erfinv, np.array([-1.0, 1.0]), 1)).all()
    assert _lx(S.round, np.array([0.3, 2.5]), 1).tolist() == [0.0, 0.0]
    # logit with eps: torch's clamp, zero gradient outside [eps, 1 - eps]
    x = np.array([0.005, 0.02, 0.5, 0.98, 0.995])
    np.testing.assert_allclose(_lx(lambda v: S.logit(v, eps=0.01), x, 1),
                               _torch(lambda v: TS.logit(v, eps=0.01), x, 1), rtol=1e-14)


def test_integer_orders_get_no_gradient():
    # the order/degree is not differentiable (torch takes it as an int): the derivative in
    # x ignores it, and asking for one in the order raises instead of returning zeros
    x = np.array([0.3, 1.7])
    n = np.array([1.0, 2.0])
    g = linalgx.grad(lambda x: S.polygamma(n, x).sum())(x)
    np.testing.assert_allclose(g, [float(mp.polygamma(k + 1, v)) for k, v in zip(n, x)],
                               rtol=1e-13)
    with pytest.raises(TypeError, match="no derivative for argument 0"):
        linalgx.grad(lambda n: S.polygamma(n, x).sum())(n)
    with pytest.raises(TypeError, match="no derivative for argument 1"):
        linalgx.grad(lambda n: S.chebyshev_polynomial_t(x, n).sum())(np.array([3.0, 4.0]))


@pytest.mark.parametrize("name", ["logsumexp", "softmax", "log_softmax"])
def test_reductions_against_torch(name):
    rng = np.random.default_rng(7)
    tf = {"logsumexp": torch.logsumexp, "softmax": torch.softmax,
          "log_softmax": torch.log_softmax}[name]
    for scale in (1.0, 30.0, 800.0):
        x = rng.standard_normal((2, 3, 4)) * scale
        for axis in (0, -1, 1):
            oshape = x.shape if name != "logsumexp" else np.delete(x.shape, axis)
            w = torch.tensor(rng.standard_normal(oshape))
            t = rng.standard_normal(x.shape)

            def loss(v, axis=axis, w=w):
                return (getattr(S, name)(v, axis=axis) * w.numpy()).sum()

            g = linalgx.grad(loss)(x)
            hv = linalgx.jvp(linalgx.grad(loss), (x,), (t,))[1]
            _, hvt = torch.autograd.functional.vhp(
                lambda v, axis=axis, w=w: (tf(v, axis) * w).sum(), torch.tensor(x),
                torch.tensor(t))
            gt = torch.autograd.grad((tf(xt := torch.tensor(x, requires_grad=True), axis)
                                      * w).sum(), xt)[0]
            np.testing.assert_allclose(g, gt.numpy(), rtol=1e-10, atol=1e-12)
            np.testing.assert_allclose(hv, hvt.numpy(), rtol=1e-9, atol=1e-10)
            if name == "softmax":   # a -inf entry: zero weight, zero gradient (torch's too)
                x2 = x.copy()
                x2[(0,) * x.ndim] = -np.inf
                g2 = linalgx.grad(loss)(x2)
                gt2 = torch.autograd.grad((tf(xt := torch.tensor(x2, requires_grad=True), axis)
                                           * w).sum(), xt)[0]
                np.testing.assert_allclose(g2, gt2.numpy(), rtol=1e-10, atol=1e-12)
