"""ellipk, ellipkm1, ellipe, ellipkinc, ellipeinc and spence against scipy.special (special
values, random points, dtypes, ufunc keywords) and mpmath (values: 2,000 points each, error
<= max(4 ulp, SciPy's error at that point); derivatives, also second ones, in every region
of the rules: the series about m = 0 and m = 1, DLMF's formulas, several periods).
"""
import math

import numpy as np
import pytest
import scipy.special as sc

import linalgx
import linalgx.special as ls
from linalgx.special import _ellip as EL

mp = pytest.importorskip("mpmath")

UNARY = ["ellipk", "ellipkm1", "ellipe", "spence"]
BINARY = ["ellipkinc", "ellipeinc"]
NEW = UNARY + BINARY

EDGE = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 2.0, -2.0, 0.5, -0.5,
                 1e-300, -1e-300, 5e-324, 1e-170, 1e300, -1e300, 1 - 2 ** -53, 1 + 2 ** -52,
                 1e-16, 2.2e-16, 0.135, math.pi / 2, -math.pi / 2, math.pi, 3 * math.pi / 2,
                 10.0, -10.0, 1e6, -1e6, 4e7, -4e7, 1e10, 0.25, -0.25, 0.999999, -1e-6])


def _same(a, b):
    """Bitwise equal up to NaN == NaN, with the same sign of zeros and infinities."""
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    with np.errstate(invalid="ignore"):
        return (np.isnan(a) & np.isnan(b)) | ((a == b) & (np.signbit(a) == np.signbit(b)))


def _report(ok, *args):
    return [tuple(float(np.ravel(a)[i]) for a in args) for i in np.flatnonzero(~np.ravel(ok))[:8]]


# -- values against SciPy --------------------------------------------------------------------
@pytest.mark.parametrize("name", UNARY)
def test_unary_edge_values_match_scipy(name):
    ours = getattr(ls, name)(EDGE)
    ref = getattr(sc, name)(EDGE)
    ok = _same(ours, ref)
    assert ok.all(), _report(ok, EDGE, ours, ref)


@pytest.mark.parametrize("name", BINARY)
def test_binary_edge_values_match_scipy(name):
    a, b = np.meshgrid(EDGE, EDGE)
    ours = getattr(ls, name)(a, b)
    ref = getattr(sc, name)(a, b)
    ok = _same(ours, ref)
    assert ok.all(), _report(ok, a, b, ours, ref)


def _ellip_m(rng, n):
    return np.concatenate([rng.uniform(-10, 1, n), -np.exp(rng.uniform(-700, 700, n)),
                           1 - np.exp(rng.uniform(-40, 0, n)),
                           np.exp(rng.uniform(-700, 0, n)) * rng.choice([-1, 1], n)])


@pytest.mark.parametrize("name", NEW)
def test_random_points_are_scipys_bitwise(name):
    # the same Cephes algorithms, operation for operation
    rng = np.random.default_rng(11)
    n = 5000
    m = _ellip_m(rng, n)
    if name in BINARY:
        phi = np.concatenate([rng.uniform(-10, 10, n), rng.uniform(-1e3, 1e3, n),
                              np.exp(rng.uniform(-700, 5, n)) * rng.choice([-1, 1], n),
                              math.pi / 2 * rng.integers(-9, 10, n) + rng.normal(0, 1e-6, n)])
        args = (phi, rng.permutation(m))
    elif name == "ellipkm1":
        args = (np.abs(m),)
    elif name == "spence":
        args = (np.concatenate([np.abs(m), rng.uniform(0, 4, n), 1 + rng.normal(0, 1e-3, n)]),)
    else:
        args = (m,)
    ours = getattr(ls, name)(*args)
    ref = getattr(sc, name)(*args)
    ok = _same(ours, ref)
    assert ok.all(), _report(ok, *args, ours, ref)


def test_special_values():
    assert ls.ellipk(0.0) == ls.ellipe(0.0) == math.pi / 2
    assert ls.ellipk(1.0) == math.inf and ls.ellipe(1.0) == 1.0
    assert np.isnan(ls.ellipk(1.5)) and np.isnan(ls.ellipe(1.5)) and np.isnan(ls.ellipkm1(-0.5))
    assert ls.ellipk(-np.inf) == 0.0 and ls.ellipe(-np.inf) == math.inf
    assert ls.ellipkm1(0.0) == math.inf and ls.ellipkm1(np.inf) == 0.0
    assert ls.ellipkinc(0.7, 0.0) == 0.7 == ls.ellipeinc(0.7, 0.0)
    assert ls.ellipkinc(math.pi / 2, 1.0) == math.inf
    assert ls.ellipkinc(0.5, 1.0) == pytest.approx(math.asinh(math.tan(0.5)), rel=1e-15)
    assert ls.spence(1.0) == 0.0 and ls.spence(0.0) == math.pi ** 2 / 6
    assert np.isnan(ls.spence(-1.0))
    # the incomplete integrals over whole periods are the complete ones
    for m in (-3.0, 0.3, 0.9):
        assert float(ls.ellipkinc(math.pi, m)) == pytest.approx(2 * float(ls.ellipk(m)),
                                                                rel=1e-15)
        assert float(ls.ellipeinc(-math.pi, m)) == pytest.approx(-2 * float(ls.ellipe(m)),
                                                                 rel=1e-15)


# -- dtypes, scalars, out=, where=, dtype= ---------------------------------------------------
DTYPES = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
          np.uint8, np.bool_]


@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
@pytest.mark.parametrize("name", NEW)
def test_result_dtype_matches_scipy(name, dtype):
    x = np.array([1, 0, 1], dtype=dtype)
    args = (x,) if name in UNARY else (x, np.array([0, 1, 0], dtype=dtype))
    want = getattr(sc, name)(*args)
    got = getattr(ls, name)(*args)
    assert got.dtype == want.dtype
    assert _same(got, want).all(), (got, want)


@pytest.mark.parametrize("name", NEW)
def test_float32_is_rounded_once_from_float64(name):
    rng = np.random.default_rng(3)
    x = rng.uniform(0.05, 0.95, 300).astype(np.float32)
    args = (x,) if name in UNARY else (rng.uniform(-3, 3, 300).astype(np.float32), x)
    got = getattr(ls, name)(*args)
    want = getattr(sc, name)(*args)
    assert got.dtype == want.dtype == np.float32
    np.testing.assert_array_equal(got, want)
    exact = getattr(sc, name)(*(a.astype(np.float64) for a in args)).astype(np.float32)
    np.testing.assert_array_equal(got, exact)


@pytest.mark.parametrize("name", NEW)
def test_scalars_give_numpy_scalars(name):
    args = (0.7,) if name in UNARY else (0.7, 0.3)
    got = getattr(ls, name)(*args)
    want = getattr(sc, name)(*args)
    assert type(got) is type(want) is np.float64
    assert got == want
    assert type(getattr(ls, name)(*(np.float32(a) for a in args))) is np.float32


@pytest.mark.parametrize("name", NEW)
def test_out_where_dtype_and_broadcasting(name):
    rng = np.random.default_rng(5)
    if name in UNARY:
        args = (rng.uniform(0.05, 0.95, (3, 4)),)
    else:
        args = (rng.uniform(-3, 3, (3, 1)), rng.uniform(-2, 0.9, (1, 4)))
    f = getattr(ls, name)
    want = f(*args)
    np.testing.assert_array_equal(want, getattr(sc, name)(*args))
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
    got32 = f(*args, dtype=np.float32)
    assert got32.dtype == getattr(sc, name)(*args, dtype=np.float32).dtype == np.float32
    np.testing.assert_array_equal(got32, getattr(sc, name)(*args, dtype=np.float32))


def test_complex_spence_goes_to_scipys_loop():
    z = np.array([0.3 + 0.4j, -1.7 + 0.2j, 5.0 - 3.0j, -2.0 + 0j, 1 + 0j], dtype=np.complex128)
    np.testing.assert_array_equal(ls.spence(z), sc.spence(z))
    assert ls.spence(z.astype(np.complex64)).dtype == np.complex64


@pytest.mark.parametrize("name", ["ellipk", "ellipkm1", "ellipe"] + BINARY)
def test_complex_and_long_double_raise_as_scipy(name):
    for arg in (np.array([1 + 1j]), np.array([0.5], dtype=np.longdouble)):
        args = (arg,) * (1 if name in UNARY else 2)
        with pytest.raises(TypeError):
            getattr(sc, name)(*args)
        with pytest.raises(TypeError):
            getattr(ls, name)(*args)


# -- accuracy against mpmath -----------------------------------------------------------------
@pytest.mark.parametrize("name", NEW)
def test_accuracy_against_mpmath(name):
    from benchmarks.special_accuracy import cases, measure, violations
    e_ours, e_ref, args = measure(cases()[name], 2000, seed=1)
    bad = np.flatnonzero(violations(e_ours, e_ref))
    assert bad.size == 0, [(tuple(float(np.asarray(a)[i]) for a in args), e_ours[i], e_ref[i])
                           for i in bad[:5]]
    good = e_ref <= 4
    assert np.nanmax(np.where(good, e_ours, 0)) <= 4


# -- derivatives -----------------------------------------------------------------------------
def _jvp(op, args, i):
    out = op(*args)
    t = [None] * len(args)
    t[i] = np.ones(np.shape(args[i]))
    return op.jvp_rule(np, tuple(t), out, *args)


def _mp_dinc(kind, phi, m):
    """d/dm of F or E(phi | m) by quadrature of the m-derivative of the integrand."""
    phi, m = mp.mpf(float(phi)), mp.mpf(float(m))
    pts = [mp.mpf(0)]
    k = 1
    while k * mp.pi / 2 < abs(phi):
        pts.append(mp.sign(phi) * k * mp.pi / 2)
        k += 1
    pts.append(phi)
    if kind == "F":
        def f(t):
            return mp.sin(t) ** 2 / (1 - m * mp.sin(t) ** 2) ** 1.5 / 2
    else:
        def f(t):
            return -mp.sin(t) ** 2 / (1 - m * mp.sin(t) ** 2) ** 0.5 / 2
    return mp.quad(f, pts)


def test_complete_derivatives_against_mpmath():
    # across the series' boundary |m| = 1/4, at 0 (pi/8, -pi/8), near 1, and far out
    m = np.array([0.0, 1e-300, -1e-12, 1e-5, 0.1, -0.2, 0.25, np.nextafter(0.25, 1), -0.2500001,
                  0.5, 0.9, 1 - 1e-9, -5.0, -1e6])
    dk = _jvp(EL._ellipk, (m,), 0)
    de = _jvp(EL._ellipe, (m,), 0)
    assert dk[0] == pytest.approx(math.pi / 8, rel=1e-16)
    assert de[0] == pytest.approx(-math.pi / 8, rel=1e-16)
    with mp.workdps(40):
        for x, a, b in zip(m, dk, de):
            x = mp.mpf(float(x))
            ra = mp.diff(mp.ellipk, x)
            rb = mp.diff(mp.ellipe, x)
            assert abs(a - ra) <= 4e-15 * abs(ra), (x, a, ra)
            assert abs(b - rb) <= 4e-15 * abs(rb), (x, b, rb)
    # ellipkm1 keeps the derivative's accuracy for tiny p: -1/(2p) to leading order
    p = np.array([1e-300, 1e-20, 1e-5, 0.3, 0.9, 1.0, 4.0])
    d = _jvp(EL._ellipkm1, (p,), 0)
    with mp.workdps(40):
        for x, g in zip(p, d):
            x = mp.mpf(float(x))
            ref = -mp.diff(mp.ellipk, 1 - x) if x > 1e-30 else -1 / (2 * x)
            assert abs(g - ref) <= 4e-15 * abs(ref), (x, g, ref)
    # the poles and the far left
    assert _jvp(EL._ellipk, (np.array([1.0]),), 0)[0] == math.inf
    assert _jvp(EL._ellipe, (np.array([1.0]),), 0)[0] == -math.inf
    assert np.isnan(_jvp(EL._ellipk, (np.array([1.5]),), 0)[0])
    assert _jvp(EL._ellipk, (np.array([-np.inf]),), 0)[0] == 0.0


# (phi, m) in each region of the m-derivative's rule: the m-series (including m = 0 and small
# phi, where DLMF's formulas cancel completely), the p-series about m = 1 (F only), the
# formulas, several periods, and m = 1 itself
INC_POINTS = [(1e-8, 0.3), (1e-3, -50.0), (0.3, 0.0), (0.7, 1e-9), (2.0, 0.2), (-7.0, 0.24),
              (0.05, -200.0), (0.2, -10.0), (1.0, 0.6), (1.5, 0.999), (1.2, 1 - 1e-9),
              (-1.4, 1 - 1e-13), (0.5, 1.0), (-0.9, 1.0), (4.0, 0.97), (10.0, -3.0),
              (1.5707, 0.95), (0.9, -1e4)]


@pytest.mark.parametrize("kind", ["F", "E"])
def test_incomplete_derivatives_against_mpmath(kind):
    op = EL._ellipkinc if kind == "F" else EL._ellipeinc
    fn = mp.ellipf if kind == "F" else mp.ellipe
    phi = np.array([p for p, _ in INC_POINTS])
    m = np.array([q for _, q in INC_POINTS])
    dphi = _jvp(op, (phi, m), 0)
    dm = _jvp(op, (phi, m), 1)
    with mp.workdps(40):
        for p, q, a, b in zip(phi, m, dphi, dm):
            ra = mp.diff(lambda t, q=q: fn(t, mp.mpf(float(q))), mp.mpf(float(p)))
            rb = _mp_dinc(kind, p, q)
            assert abs(a - ra) <= 4e-16 * abs(ra), (p, q, a, ra)
            assert abs(b - rb) <= 1e-14 * abs(rb), (p, q, b, rb)


def test_incomplete_derivative_special_points():
    # m > 1: NaN (as the value); m = 1 beyond pi/2: the poles
    d = _jvp(EL._ellipkinc, (np.array([0.5, 2.0]), np.array([1.5, 1.0])), 1)
    assert np.isnan(d[0]) and d[1] == math.inf
    d = _jvp(EL._ellipeinc, (np.array([0.5, 2.0]), np.array([1.5, 1.0])), 1)
    assert np.isnan(d[0]) and d[1] == -math.inf
    # at m = 0: dF/dm = (phi - sin cos) / 4 = -dE/dm
    phi = np.array([1e-6, 0.4, 3.0])
    with mp.workdps(40):
        want = [float((mp.mpf(float(p)) - mp.sin(p) * mp.cos(p)) / 4) for p in phi]
    np.testing.assert_allclose(_jvp(EL._ellipkinc, (phi, np.zeros(3)), 1), want, rtol=2e-16)
    np.testing.assert_allclose(_jvp(EL._ellipeinc, (phi, np.zeros(3)), 1), np.negative(want),
                               rtol=2e-16)


def test_spence_derivative():
    z = np.array([1e-300, 1e-8, 0.5, 0.875, 1 - 1e-9, 1.0, 1 + 1e-12, 1.125, 1.13, 2.0, 1e10])
    d = _jvp(EL._spence, (z,), 0)
    with mp.workdps(40):
        for x, g in zip(z, d):
            x = mp.mpf(float(x))
            ref = -1 if x == 1 else mp.log(x) / (1 - x)
            assert abs(g - ref) <= 4e-16 * abs(ref), (x, g, ref)
    assert np.isnan(_jvp(EL._spence, (np.array([-1.0]),), 0)[0])
    zc = np.array([0.5 + 0.5j, 1.05 + 0.05j, -3.0 + 1e-3j])
    d = _jvp(EL._spence, (zc,), 0)
    with mp.workdps(40):
        for x, g in zip(zc, d):
            ref = complex(mp.log(mp.mpc(x)) / (1 - mp.mpc(x)))
            assert abs(g - ref) <= 4e-16 * abs(ref)


def test_second_derivatives_against_mpmath():
    m = np.array([0.0, 1e-9, -0.1, 0.3, 0.99, -3.0])
    for name, fn in (("ellipk", mp.ellipk), ("ellipe", mp.ellipe)):
        h = np.diag(linalgx.hessian(lambda v, n=name: getattr(ls, n)(v).sum())(m))
        with mp.workdps(40):
            ref = [mp.diff(fn, mp.mpf(float(x)), 2) for x in m]
        np.testing.assert_allclose(h, np.array(ref, dtype=float), rtol=2e-14)
    for name, fn in (("ellipkinc", mp.ellipf), ("ellipeinc", mp.ellipe)):
        for p, q in [(0.3, 0.0), (1e-4, 0.5), (2.0, 0.95), (1.2, 1 - 1e-9), (0.5, -50.0),
                     (5.0, -0.3)]:
            h = linalgx.hessian(lambda v, n=name: getattr(ls, n)(v[0], v[1]))(np.array([p, q]))
            with mp.workdps(40):
                x = (mp.mpf(p), mp.mpf(q))
                ref = np.array([[mp.diff(fn, x, (2, 0)), mp.diff(fn, x, (1, 1))],
                                [mp.diff(fn, x, (1, 1)), mp.diff(fn, x, (0, 2))]], dtype=float)
            np.testing.assert_allclose(h, ref, rtol=5e-14, err_msg=f"{name} {p} {q}")
    z = np.array([0.3, 1.0, 1 + 1e-9, 3.0])
    h = np.diag(linalgx.hessian(lambda v: ls.spence(v).sum())(z))
    with mp.workdps(40):
        ref = [mp.diff(lambda x: mp.polylog(2, 1 - x), mp.mpf(float(x)), 2) for x in z]
    np.testing.assert_allclose(h, np.array(ref, dtype=float), rtol=1e-14)


def test_grad_through_the_engine():
    m = np.array([-2.0, 0.0, 0.5])
    np.testing.assert_allclose(linalgx.grad(lambda v: ls.ellipk(v).sum())(m),
                               _jvp(EL._ellipk, (m,), 0), rtol=1e-15)
    g = linalgx.grad(lambda v: ls.ellipkinc(v, 0.5).sum())(np.array([0.3, 2.0]))
    np.testing.assert_allclose(g, 1 / np.sqrt(1 - 0.5 * np.sin([0.3, 2.0]) ** 2), rtol=1e-15)
    # float32 input: derivatives in float32, as the values
    g32 = linalgx.grad(lambda v: ls.ellipe(v).sum())(np.array([0.2, 0.7], dtype=np.float32))
    assert g32.dtype == np.float32
    with pytest.raises(TypeError, match="out= and other ufunc keywords"):
        linalgx.grad(lambda v: ls.ellipk(v, out=np.empty(2)).sum())(m[:2])


@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
@pytest.mark.parametrize("name", NEW)
def test_tangent_has_the_output_dtype(name, dtype):
    x = np.array([0.25, 0.5, 0.75], dtype=dtype)
    args = (x,) if name in UNARY else (x, x[::-1].copy())
    f = getattr(ls, name)
    out, t = linalgx.jvp(f, args, tuple(np.ones_like(a) for a in args))
    assert t.dtype == out.dtype, (t.dtype, out.dtype)
    _, pullback = linalgx.vjp(f, *args)
    for g in pullback(np.ones_like(out)):
        assert g.dtype == dtype
    ref = linalgx.jvp(f, tuple(a.astype(np.float64) for a in args),
                      tuple(np.ones(3) for _ in args))[1]
    np.testing.assert_allclose(t, ref, rtol=10 * np.finfo(out.dtype).eps)
