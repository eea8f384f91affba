"""Edge values of linalgx.special that were wrong: the Riemann zeta function near 0,
spherical_jn at tiny arguments, Airy functions for large negative arguments, erfcx near its
overflow, orthogonal polynomials that overflow, and the result dtypes of polygamma,
multigammaln and spherical_bessel_j0.

The reference values were computed once with mpmath 1.3 (``mp.mp.dps = 60``; 80 for the
polynomials) and rounded to the nearest double:

- zeta: ``mpmath.zeta(x)``;
- spherical_jn: ``sqrt(pi / (2 x)) * besselj(n + 1/2, x)``, the derivative as
  ``j_(n-1)(x) - (n+1) j_n(x) / x`` (``-j_1`` for n = 0), in mpmath arithmetic;
- airy: ``airyai(x)``, ``airyai(x, 1)``, ``airybi(x)``, ``airybi(x, 1)``;
- polynomials: their three-term recurrences run in mpmath arithmetic (no overflow there).
"""
import math
import subprocess
import sys

import numpy as np
import pytest
import scipy.special as sc

import linalgx.special as ls

TINY = 2.2250738585072014e-308

# (x, zeta(x))
ZETA_REF = [
    (-1e-300, -0.5),
    (-1e-20, -0.5),
    (-1e-15, -0.49999999999999906),
    (-1e-10, -0.4999999999081062),
    (-1e-05, -0.4999908107149848),
    (-0.001, -0.49908206364523694),
    (-0.1, -0.41722804076736686),
    (-0.3, -0.29381306812972124),
    (-0.5, -0.20788622497735457),
    (-0.7, -0.14623719172590807),
    (-1.0, -0.08333333333333333),
    (-1.2, -0.05478844124388043),
    (-1.25, -0.04890886762685481),
    (-1.3, -0.04346408295449848),
    (1e-300, -0.5),
    (1e-15, -0.5000000000000009),
    (1e-10, -0.5000000000918938),
    (1e-05, -0.5000091894856509),
    (0.001, -0.5009199427132187),
    (0.1, -0.6030375198562418),
    (0.3, -0.904559257253984),
    (0.5, -1.4603545088095868),
    (0.7, -2.7783884455536954),
    (0.9, -9.430114019402255),
    (0.999, -999.4228571557879),
]

# (n, x, j_n(x), j_n'(x)); values below the normal range are left out
SPH_REF = [
    (1, 1e-300, 3.3333333333333334e-301, 0.3333333333333333),
    (1, 1e-200, 3.3333333333333335e-201, 0.3333333333333333),
    (1, 1e-100, 3.3333333333333336e-101, 0.3333333333333333),
    (1, 1e-60, 3.3333333333333335e-61, 0.3333333333333333),
    (1, 1e-20, 3.3333333333333333e-21, 0.3333333333333333),
    (1, 0.0005, 0.00016666666250000003, 0.3333333083333337),
    (2, 1e-300, 0.0, 1.3333333333333333e-301),
    (2, 1e-200, 0.0, 1.3333333333333333e-201),
    (2, 1e-100, 6.666666666666667e-202, 1.3333333333333333e-101),
    (2, 1e-60, 6.666666666666666e-122, 1.3333333333333332e-61),
    (2, 1e-20, 6.666666666666665e-42, 1.3333333333333333e-21),
    (2, 0.0005, 1.6666666369047622e-08, 6.666666428571431e-05),
    (3, 1e-100, 9.523809523809524e-303, 2.857142857142857e-202),
    (3, 1e-60, 9.523809523809523e-183, 2.857142857142857e-122),
    (3, 1e-20, 9.523809523809522e-63, 2.857142857142857e-42),
    (3, 0.0005, 1.1904761739417991e-12, 7.142856977513229e-09),
    (5, 1e-60, 9.620009620009618e-305, 4.8100048100048094e-244),
    (5, 1e-20, 9.620009620009618e-105, 4.810004810004809e-84),
    (5, 0.0005, 3.0062529773467277e-21, 3.006252965784216e-17),
    (10, 1e-20, 7.273091945557419e-211, 7.273091945557419e-190),
    (10, 0.0005, 7.102628814482178e-44, 1.420525761352386e-39),
    (0, 1e-300, 1.0, -3.3333333333333334e-301),
    (0, 1e-100, 1.0, -3.3333333333333336e-101),
    (0, 0.0005, 0.9999999583333339, -0.00016666666250000003),
]

# (x, Ai, Ai', Bi, Bi'); the last x is the most negative one SciPy (AMOS) evaluates
AIRY_REF = [
    (-1000.0, 0.05597189577301992, 2.6330710195241287, -0.08326457411708063,
     1.769965940135989),
    (-12345.678, 0.011457890743303643, 5.8092155682946505, -0.052282940170047344,
     1.2730978605516041),
    (-100000.0, -0.013152978737498166, -9.130078851932488, 0.02887184428505844,
     -4.1593370104464045),
    (-654321.5, -0.01982731347991797, -0.5028969493103874, 0.00062170362432016,
     -16.038341939256032),
    (-1000000.0, -0.0021912611413430574, 17.706164485139947, -0.017706164485687764,
     -2.1912611457695985),
    (-1048575.9996744783, 0.00014993428707056277, -18.053413835263854, 0.017630286951271355,
     0.15353271413981276),
]
AIRY_NEG_MAX = 1048575.9996744783

# (name, n, x, value): finite values whose recurrences pass 2**400 (rescaled), and values
# that overflow or are 0 where 2**(n/2) overflows
POLY_REF = [
    ("eval_chebyt", 200, 3.0, 6.445314883137058e+152),
    ("eval_chebyt", 400, -3.0, 8.308416788557613e+305),
    ("eval_chebyu", 390, 3.0, 3.7845212231195295e+298),
    ("eval_chebyu", 391, -3.0, -2.2057806151007493e+299),
    ("eval_legendre", 250, -7.0, 3.3661709995121994e+284),
    ("eval_legendre", 7, 1e+43, 2.68125e+302),
    ("eval_laguerre", 3000, 1300.0, 2.5554718293369704e+280),
    ("eval_laguerre", 3000, 1418.0, -2.165264702127674e+305),
    ("eval_laguerre", 150, -300.0, 1.0228240916740131e+132),
    ("eval_laguerre", 60, 100000.0, 1.1592610318858618e+218),
    ("eval_hermitenorm", 250, 7.5, 1.174050543272327e+251),
    ("eval_hermite", 201, -7.5, -1.794631191312299e+230),
    ("eval_chebyt", 10, 1e+30, 5.120000000000001e+302),
    ("eval_chebyu", 3, -1e+100, -8e+300),
    ("eval_hermite", 1001, 0.0, 0.0),
    ("eval_hermite", 3001, 0.0, 0.0),
    ("eval_hermite", 1000, 0.0, math.inf),
    # overflow between the zeros, where the sign is not the leading term's
    ("eval_hermitenorm", 1000, 1.5, -math.inf),
    ("eval_hermitenorm", 1001, -10.0, -math.inf),
    ("eval_hermite", 301, 10.0, -math.inf),
    ("eval_hermite", 1000, -2.0, math.inf),
]


def _ulps(got, want):
    return abs(got - want) / np.spacing(abs(want))


# -- 1. Riemann zeta near 0 -----------------------------------------------------------------
@pytest.mark.parametrize("x,want", ZETA_REF)
def test_riemann_zeta_near_zero_to_a_few_ulp(x, want):
    got = ls.zeta(x)
    assert _ulps(got, want) <= 4, (x, got, want)


# (x, zeta(x)) and (x, zeta'(x)) where Gamma(1 - x) overflows but zeta does not (mpmath, 60
# digits): the functional equation's product was formed through logarithms (5e-14 relative
# errors, and -inf at -260.00000000001 where a tiny sin(pi x / 2) met an overflowed exp)
ZETA_LARGE_NEGATIVE = [
    (-170.5, 1.7363215609094552e+171),
    (-171.3, 3.080994881691528e+172),
    (-200.00000000001, -9.12174298516683e+203),
    (-230.7, 7.1903340776141155e+261),
    (-259.5, 3.982766118112322e+307),
    (-260.00000000001, -5.696630784440268e+297),
]
ZETA_PRIME_LARGE_NEGATIVE = [
    (-200.5, 1.1684045804255807e+216),
    (-259.5, -8.570947950307811e+307),
    (-250.2, -1.614701276466421e+293),
]


@pytest.mark.parametrize("x,want", ZETA_LARGE_NEGATIVE)
def test_riemann_zeta_large_negative(x, want):
    assert _ulps(ls.zeta(x), want) <= 8, (x, ls.zeta(x), want)


@pytest.mark.parametrize("x,want", ZETA_PRIME_LARGE_NEGATIVE)
def test_riemann_zeta_derivative_large_negative(x, want):
    import linalgx
    got = linalgx.grad(ls.zeta)(x)
    assert _ulps(got, want) <= 8, (x, got, want)


def test_riemann_zeta_overflow_and_trivial_zeros_far_out():
    assert ls.zeta(-260.6) == -np.inf and ls.zeta(-299.99) == np.inf
    np.testing.assert_array_equal(ls.zeta(np.array([-200.0, -260.0, -298.0, -400.0])), 0.0)


def test_riemann_zeta_small_negative_is_not_minus_inf():
    # the functional equation divided out the pole of zeta(1 - x) at 1 - x == 1: -inf, and
    # 1e-17/|x| relative errors before
    x = -np.logspace(-300, -1, 600)
    got = ls.zeta(x)
    assert np.all(np.isfinite(got))
    np.testing.assert_allclose(got, sc.zeta(x), rtol=1e-14)
    np.testing.assert_allclose(ls.zeta(-x), sc.zeta(-x), rtol=1e-14)
    assert ls.zeta(-0.0) == -0.5 and ls.zeta(np.float32(-1e-20)) == np.float32(-0.5)


def test_hurwitz_zeta_special_values_as_scipy():
    # a pole in q (q a non-positive integer) is inf even for x = NaN, as Cephes/SciPy
    v = np.array([np.nan, 1.0, 0.5, 2.0, 3.0, -1.0, np.inf, -np.inf, 0.0, -0.0, 1.5, 1e300])
    q = np.array([-1.0, 0.0, -0.0, -2.0, np.nan, -0.5, 0.5, 1.0, 2.5, np.inf, -np.inf, 1e9,
                  -1e20, 1e-300])
    x, q = np.meshgrid(v, q)
    np.testing.assert_allclose(ls.zeta(x, q), sc.zeta(x, q), rtol=1e-13)


def test_riemann_zeta_is_continuous_at_the_branch_points():
    for b in (-1.25, -0.5):
        xs = np.array([np.nextafter(b, -np.inf), b, np.nextafter(b, np.inf)])
        v = ls.zeta(xs)
        assert np.all(np.abs(np.diff(v)) <= 1e-14 * np.abs(v[1])), (b, v)


# -- 2. spherical_jn at tiny z --------------------------------------------------------------
@pytest.mark.parametrize("n,x,val,der", SPH_REF)
def test_spherical_jn_tiny_argument(n, x, val, der):
    got = ls.spherical_jn(n, x)
    gotd = ls.spherical_jn(n, x, derivative=True)
    if abs(val) >= TINY:
        np.testing.assert_allclose(got, val, rtol=4e-16)
    else:
        assert got == 0.0 and not np.signbit(got)
    np.testing.assert_allclose(gotd, der, rtol=4e-16)
    # j_n(-x) = (-1)^n j_n(x), j_n'(-x) = (-1)^(n+1) j_n'(x), signed zeros included
    neg, negd = ls.spherical_jn(n, -x), ls.spherical_jn(n, -x, derivative=True)
    assert neg == (-1) ** n * got and np.signbit(neg) == (n % 2 == 1)
    assert negd == (-1) ** (n + 1) * gotd


def test_spherical_jn_tiny_argument_against_scipy_and_no_nan():
    z = np.logspace(-300, -3, 200)
    for n in (0, 1, 2, 4, 7, 20, 60):
        for d in (False, True):
            got = ls.spherical_jn(n, z, derivative=d)
            assert not np.any(np.isnan(got)), (n, d)
            want = sc.spherical_jn(n, z, derivative=d)
            # where SciPy (AMOS) has not flushed its j_n to zero; near 1e-300 it returns 0
            # for values down to ~1e-308, and j_(n-1) for the derivative there. AMOS is
            # good to ~3e-13 here (linalgx's series to ~2e-16 of mpmath: SPH_REF)
            ok = (np.abs(want) > 1e-280) & (np.abs(sc.spherical_jn(n, z)) > 1e-280)
            np.testing.assert_allclose(got[ok], want[ok], rtol=5e-13)


def test_spherical_jn_signed_zeros():
    # underflowed values keep the sign of the function: scipy's -0.0 for odd n at -z
    assert np.signbit(ls.spherical_jn(3, -1e-200)) and ls.spherical_jn(3, -1e-200) == 0
    assert not np.signbit(ls.spherical_jn(3, 1e-200))
    assert np.signbit(ls.spherical_jn(2, -1e-300, derivative=True))
    assert ls.spherical_jn(0, -0.0, derivative=True) == 0 and np.signbit(
        ls.spherical_jn(0, 0.0, derivative=True))
    assert ls.spherical_jn(1, 0.0, derivative=True) == 1.0 / 3.0
    assert ls.spherical_jn(5, 0.0) == 0.0 and ls.spherical_jn(0, 0.0) == 1.0


# -- 3. Airy for large negative z -------------------------------------------------------------
@pytest.mark.parametrize("row", AIRY_REF)
def test_airy_large_negative_accurate_to_scipys_cutoff(row):
    x, want = row[0], np.array(row[1:])
    got = np.array(ls.airy(x))
    # error against the modulus (the functions oscillate through zero)
    env = np.hypot(want[0], want[2]), np.hypot(want[1], want[3])
    env = np.array([env[0], env[1], env[0], env[1]])
    assert np.all(np.abs(got - want) <= 2e-15 * env), (x, got, want)
    assert ls.airy_ai(x) == got[0]


def test_airy_nan_below_scipys_cutoff():
    xs = np.array([-np.nextafter(AIRY_NEG_MAX, np.inf), -1.05e6, -1e7, -1e8, -1e10, -1e12,
                   -1e15, -1e300, -np.inf])
    for got in ls.airy(xs):
        assert np.all(np.isnan(got))
    for want in sc.airy(xs):
        assert np.all(np.isnan(want))
    assert np.all(np.isnan(ls.airy_ai(xs)))
    assert np.all(np.isnan(ls.airy(np.float32(-2e6))))
    # the cut-off is SciPy's to the last bit
    assert not np.any(np.isnan(ls.airy(-AIRY_NEG_MAX)))
    assert not np.any(np.isnan(sc.airy(-AIRY_NEG_MAX)))


def test_airy_agrees_with_scipy_up_to_the_cutoff():
    x = -np.logspace(1, np.log10(AIRY_NEG_MAX), 300)
    for got, want in zip(ls.airy(x), sc.airy(x)):
        # AMOS loses ~1e-16 |x|^(3/2) in the phase; both NaN-free up to the cut-off
        assert not np.any(np.isnan(got)) and not np.any(np.isnan(want))
        scale = np.max(np.abs(want))
        np.testing.assert_allclose(got, want, rtol=0, atol=2e-7 * scale)


# -- 4. erfcx near its overflow ---------------------------------------------------------------
def test_erfcx_overflows_to_inf_not_nan():
    x = np.linspace(-26.8, -26.55, 501)
    got = ls.erfcx(x)
    want = sc.erfcx(x)
    assert not np.any(np.isnan(got))
    np.testing.assert_array_equal(np.isinf(got), np.isinf(want))
    fin = np.isfinite(want)
    np.testing.assert_allclose(got[fin], want[fin], rtol=1e-13)
    assert ls.erfcx(-26.65) == np.inf
    f = ls.erfcx(np.float32(-26.65))
    assert f.dtype == np.float32 and f == np.inf
    assert np.all(np.isinf(ls.erfcx(x.astype(np.float32))[x < -13.2]))


# -- 5. orthogonal polynomials that overflow ------------------------------------------------
POLY_FUNCS = ["eval_chebyt", "eval_chebyu", "eval_sh_chebyt", "eval_sh_chebyu",
              "eval_legendre", "eval_laguerre", "eval_hermite", "eval_hermitenorm"]
POLY_NS = [0, 1, 2, 3, 4, 5, 10, 11, 50, 51, 100, 101, 300, 301, 1000, 1001]
# 1e130 .. 1e170: above the recurrences' rescaling threshold (2**400) and below the leading-
# term shortcut (2**600): Laguerre's first step overflowed there and its rescaling loop spun
POLY_XS = [np.inf, -np.inf, 1.7e308, -1.7e308, 1e300, -1e300, 1e200, -1e200, 1e170, -1e170,
           3.2e165, -3.2e165, 1e150, -1e150, 1e130, -1e130, 1e100, -1e100,
           1e10, -1e10, 1e3, -1e3, 10.0, -10.0, 2.0, -2.0, 1.5, -1.5, 1.0, -1.0, 0.5, 0.0]


def _overflow_value(name, n, x):
    # where SciPy's recurrence made NaN: degrees 0 and 1 exactly; beyond the zeros, the
    # polynomial leaves the double range with the sign of its leading term (T, U, P, He, H
    # have positive leading coefficients, L_n (-1)^n); None between the zeros
    if name.startswith("eval_sh_"):
        x = 2.0 * x - 1.0
        name = name.replace("_sh", "")
    if n == 0:
        return 1.0
    if n == 1:
        return {"eval_chebyu": 2.0 * x, "eval_hermite": 2.0 * x,
                "eval_laguerre": 1.0 - x}.get(name, x)
    if name == "eval_laguerre":
        if 0 <= x <= 4 * n + 2:
            return None
        return -math.inf if (x > 0 and n % 2 == 1) else math.inf
    if abs(x) <= {"eval_hermite": math.sqrt(2 * n + 1),
                  "eval_hermitenorm": math.sqrt(4 * n + 2)}.get(name, 1.0):
        return None
    return -math.inf if (x < 0 and n % 2 == 1) else math.inf


@pytest.mark.parametrize("name", POLY_FUNCS)
def test_polynomial_overflow_gives_signed_inf(name):
    f, ref = getattr(ls, name), getattr(sc, name)
    degrees = [np.int64] if name.startswith("eval_hermite") else [np.int64, float]
    for n in POLY_NS:
        for x in POLY_XS:
            want = ref(np.int64(n), x)   # SciPy's integer-degree loop
            for deg in degrees:
                got = f(deg(n), x)
                assert not np.isnan(got), (name, deg, n, x)
                if np.isnan(want):
                    # SciPy's recurrence made inf - inf (or inf * 0) from an overflow
                    expect = _overflow_value(name, n, x)
                    if expect is None:   # signs between the zeros: POLY_REF
                        odd_at_0 = x == 0 and n % 2 == 1 and name.startswith("eval_herm")
                        assert np.isinf(got) or (odd_at_0 and got == 0), (name, deg, n, x, got)
                    else:
                        assert got == expect, (name, deg, n, x, got)
                elif np.isinf(want):
                    assert got == want, (name, deg, n, x, got, want)
                else:
                    scale = max(abs(want), 1.0)
                    assert abs(got - want) <= 1e-12 * scale, (name, deg, n, x, got, want)


def test_polynomial_overflow_examples():
    assert ls.eval_chebyt(2.0, np.inf) == np.inf
    assert ls.eval_chebyt(1000.0, -10.0) == np.inf
    assert ls.eval_chebyt(1001, -10.0) == -np.inf
    assert ls.eval_chebyt(0, np.inf) == 1.0 and ls.eval_chebyt(1, -np.inf) == -np.inf
    assert ls.eval_chebyu(-5, 1e300) == -np.inf          # U_-5 = -U_3
    assert ls.eval_legendre(-4, -1e300) == -np.inf       # P_-4 = P_3
    assert ls.eval_laguerre(3.0, 1e300) == -np.inf
    assert ls.eval_laguerre(3.0, -1e300) == np.inf
    assert ls.eval_sh_chebyu(3.0, -np.inf) == -np.inf
    # float32 loops compute in double and round once
    r = ls.eval_chebyt(np.float32(30), np.float32(-40))
    assert r.dtype == np.float32 and r == np.inf


@pytest.mark.parametrize("name,n,x,want", POLY_REF)
def test_polynomial_values_past_the_rescaling(name, n, x, want):
    got = getattr(ls, name)(n, x)
    if math.isinf(want) or want == 0.0:
        assert got == want
    else:
        np.testing.assert_allclose(got, want, rtol=1e-13)


TORCH_POLYS = {
    "chebyshev_polynomial_t": ("eval_chebyt", False),
    "chebyshev_polynomial_u": ("eval_chebyu", False),
    "shifted_chebyshev_polynomial_t": ("eval_sh_chebyt", False),
    "shifted_chebyshev_polynomial_u": ("eval_sh_chebyu", False),
    "legendre_polynomial_p": ("eval_legendre", False),
    "laguerre_polynomial_l": ("eval_laguerre", False),
    "hermite_polynomial_h": ("eval_hermite", False),
    "hermite_polynomial_he": ("eval_hermitenorm", False),
    "chebyshev_polynomial_v": (None, -1.0),
    "chebyshev_polynomial_w": (None, 1.0),
    "shifted_chebyshev_polynomial_v": (None, -1.0),
    "shifted_chebyshev_polynomial_w": (None, 1.0),
}


@pytest.mark.parametrize("name", sorted(TORCH_POLYS))
def test_torch_polynomials_overflow_and_infinite_input(name):
    torch = pytest.importorskip("torch")
    f = getattr(ls, name)
    tf = getattr(torch.special, name)
    xs = np.array([np.inf, -np.inf, 1e300, -1e300, 1e100, -1e100, 1e10, -1e10, 30.0, -30.0])
    for n in (0, 1, 2, 3, 4, 7, 50, 51, 300, 301):
        got = f(xs, n)
        want = tf(torch.from_numpy(xs), n).numpy()
        assert not np.any(np.isnan(got)), (name, n, got)
        # torch's recurrences make NaN from inf - inf; elsewhere its values are ours
        ok = ~np.isnan(want)
        np.testing.assert_allclose(got[ok], want[ok], rtol=1e-12)
        # V_n, W_n, T, U, P, H, He: sign of x^n beyond the zeros; L_n: (-1)^n for x > 0
        x = 2 * xs - 1 if name.startswith("shifted") else xs
        big = np.abs(x) > 1e50
        sign = np.where((x < 0) & (n % 2 == 1), -1.0, 1.0)
        if name == "laguerre_polynomial_l":
            sign = np.where((x > 0) & (n % 2 == 1), -1.0, 1.0)
        if n >= 7:
            np.testing.assert_array_equal(got[big], sign[big] * np.inf)
    assert ls.chebyshev_polynomial_t(np.inf, 1) == np.inf
    assert ls.chebyshev_polynomial_t(np.inf, 0) == 1.0


# -- 6. result dtypes ------------------------------------------------------------------------
@pytest.mark.parametrize("n,x", [
    (1, 2.0), (np.float32(50), np.float32(2)), (np.float32(3), np.float32(2.5)),
    (1, np.float32(2)), (np.float32(1), 2.0), (np.int32(1), np.float32(2)),
    (np.float32([0, 1, 2]), np.float32([2, 3, 0.5])), ([1, 2], 3.0), (0, 2.0),
    (np.float32(0), np.float32(-0.5)), (np.array([1.0, 2.0], np.float32), 2.0)])
def test_polygamma_result_type_matches_scipy(n, x):
    want = sc.polygamma(n, x)
    got = ls.polygamma(n, x)
    assert type(got) is type(want) is np.ndarray       # 0-d for scalars, as SciPy
    assert got.dtype == want.dtype and got.shape == want.shape
    rtol = 1e-6 if want.dtype == np.float32 else 1e-14
    np.testing.assert_allclose(got, want, rtol=rtol)


def test_polygamma_float32_overflow_is_silent_inf():
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = ls.polygamma(np.float32(50), np.float32(2))
    assert r.dtype == np.float32 and r == -np.inf
    assert r == sc.polygamma(np.float32(50), np.float32(2))


@pytest.mark.parametrize("a", [np.float32(3), 3.0, 3, np.float16(3),
                               np.array([3.0, 4.5], np.float32), np.array([3.0, 4.5])])
def test_multigammaln_result_type_matches_scipy(a):
    want = sc.multigammaln(a, 2)
    got = ls.multigammaln(a, 2)
    assert got.dtype == want.dtype == np.float64
    assert np.shape(got) == np.shape(want)
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_spherical_bessel_j0_keeps_float32_as_torch():
    torch = pytest.importorskip("torch")
    for x in (np.float32(1), np.array([0.0, 1.5, -7.25], np.float32), np.float64(1),
              np.array([0.0, 1.5, -7.25])):
        got = ls.spherical_bessel_j0(x)
        want = torch.special.spherical_bessel_j0(torch.as_tensor(x)).numpy()
        assert got.dtype == want.dtype, (x, got.dtype, want.dtype)
        np.testing.assert_allclose(got, want, rtol=2e-7 if want.dtype == np.float32 else 1e-14)
    assert ls.spherical_bessel_j0([1.0, 2.0]).dtype == np.float64
    out = np.empty(2, np.float32)
    r = ls.spherical_bessel_j0(np.array([1.0, 2.0], np.float32), out=out)
    assert r is out and out.dtype == np.float32


def test_polygamma_sign_for_infinite_and_huge_order():
    # (-1)**(n+1) for n + 1 beyond 2**53 is +1 (an even float), as SciPy's float power
    n = np.array([np.inf, -np.inf, np.nan, 2.0**53, 2.0**53 - 1, 2.0**53 - 2, -2.0**53, 1e300,
                  3.0, 4.0])[:, None]
    x = np.array([0.5, 2.0, -1.5, 1e-5])
    want = sc.polygamma(n, x)
    np.testing.assert_array_equal(ls.polygamma(n, x), want)
    assert ls.polygamma(np.inf, 0.5) == np.inf
    assert np.isnan(ls.polygamma(np.inf, 2.0))
    assert np.isnan(ls.polygamma(-np.inf, 0.5)) and np.isnan(ls.polygamma(np.nan, 0.5))


@pytest.mark.parametrize("fn", ["chebyshev_polynomial_v", "chebyshev_polynomial_w"])
def test_chebyshev_vw_beyond_the_rescaling_threshold(fn):
    # V_n, W_n (leading coefficient 2^n) overflow to inf with the sign of x^n; below the
    # overflow, V_2 = 4x^2 - 2x - 1 and W_2 = 4x^2 + 2x - 1 (the first step of the
    # double-double recurrence overflowed for 2**400 < |x| < 2**600: NaN)
    f = getattr(ls, fn)
    for x in (1e130, -1e130, 1e150, -1e150):
        assert abs(f(x, 2) - 4 * x * x) <= 4 * np.spacing(4 * x * x)
    for x in (1e170, -1e170, 3.2e165, -3.2e165, 1e200):
        for n in (2, 3, 4, 7):
            assert f(x, n) == (-np.inf if x < 0 and n % 2 else np.inf), (x, n, f(x, n))


def test_huge_degree_outside_the_interval_overflows_without_iterating():
    # |x| > 1: the terms grow with the degree, so once past any double the result is a
    # signed inf; a degree of 1e12 would otherwise loop ~1e12 times (SciPy and torch do)
    code = """if True:
        import numpy as np, linalgx.special as ls
        n = 10 ** 12
        assert ls.eval_chebyt(n, 1.0001) == np.inf and ls.eval_chebyt(n + 1, -1.0001) == -np.inf
        assert ls.eval_chebyu(n, -1.5) == np.inf and ls.eval_legendre(n + 1, -1.01) == -np.inf
        assert ls.eval_sh_chebyt(n + 1, -0.01) == -np.inf
        assert ls.chebyshev_polynomial_t(2.0, float(n)) == np.inf
        assert ls.chebyshev_polynomial_v(-3.0, float(n + 1)) == -np.inf
        assert ls.shifted_chebyshev_polynomial_w(3.0, float(n)) == np.inf
        assert ls.legendre_polynomial_p(1.5, float(n)) == np.inf
    """
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


@pytest.mark.parametrize("name", ["eval_chebyt", "eval_chebyu", "eval_sh_chebyt",
                                  "eval_sh_chebyu", "eval_legendre", "eval_laguerre",
                                  "eval_hermite", "eval_hermitenorm"])
def test_polynomials_take_their_limits_at_infinity(name):
    # the limit from NumPy's power-series coefficients (SciPy answers NaN, or for some float
    # degrees a wrong sign: see linalgx.special._orthopoly)
    P = np.polynomial
    basis = {"eval_chebyt": P.Chebyshev.basis, "eval_legendre": P.Legendre.basis,
             "eval_laguerre": P.Laguerre.basis, "eval_hermite": P.Hermite.basis,
             "eval_hermitenorm": P.HermiteE.basis}
    shifted = name.startswith("eval_sh_")
    base = "eval_cheby" + name[-1] if shifted else name
    f = getattr(ls, name)
    for n in range(6):
        coef = (_cheb_u(n) if base == "eval_chebyu"
                else basis[base](n).convert(kind=P.Polynomial).coef)
        lead = coef[-1] * (2.0 ** n if shifted else 1.0)   # shifted: T*_n(x) = T_n(2x - 1)
        for x in (np.inf, -np.inf):
            want = coef[0] if n == 0 else math.copysign(math.inf, lead * (1 if x > 0 else
                                                                          (-1) ** n))
            for deg in (n,) if "hermite" in name else (n, float(n)):   # as SciPy: int only
                assert f(deg, x) == want, (name, deg, x)


def _cheb_u(n):
    # U_n in the power basis: U_0 = 1, U_1 = 2x, U_{k+1} = 2x U_k - U_{k-1}
    u0, u1 = np.array([1.0]), np.array([0.0, 2.0])
    if n == 0:
        return u0
    for _ in range(n - 1):
        u0, u1 = u1, np.polynomial.polynomial.polysub(np.polynomial.polynomial.polymulx(2 * u1), u0)
    return u1


def _cheb_reference(kind, n, x):
    """T, U, V, W of degree n at x in [-1, 1], from the trigonometric forms in 60 digits."""
    mpmath = pytest.importorskip("mpmath")
    with mpmath.workdps(60):
        t = mpmath.acos(mpmath.mpf(x))
        value = {"T": lambda: mpmath.cos(n * t),
                 "U": lambda: mpmath.sin((n + 1) * t) / mpmath.sin(t),
                 "V": lambda: mpmath.cos((n + 0.5) * t) / mpmath.cos(t / 2),
                 "W": lambda: mpmath.sin((n + 0.5) * t) / mpmath.sin(t / 2)}[kind]()
        return float(value)


_CHEB = {
    "T": lambda n, x: ls.eval_chebyt(n, x), "U": lambda n, x: ls.eval_chebyu(n, x),
    "sh T": lambda n, x: ls.eval_sh_chebyt(n, (x + 1) / 2),
    "V": lambda n, x: ls.chebyshev_polynomial_v(x, n),
    "W": lambda n, x: ls.chebyshev_polynomial_w(x, n),
    "torch T": lambda n, x: ls.chebyshev_polynomial_t(x, n),
}


@pytest.mark.parametrize("name", list(_CHEB))
def test_chebyshev_of_huge_degree_in_closed_form(name):
    """From degree 2**20 on the closed forms replace the recurrence, whose cost grows with
    the degree (eval_chebyt(1e12, 0.3) ran for hours): values within degree * eps of the
    trigonometric form, and the limits at +-1 exact."""
    kind = name[-1]
    for n in (2 ** 20 - 1, 2 ** 20, 10 ** 9 + 7, 10 ** 12):
        for x in (0.3, -0.7, 0.999):
            want = _cheb_reference(kind, n, x)
            t = math.acos(x)  # the angle's rounding, times the degree and the 1/sin factor
            amp = {"T": 1.0, "U": 1 / math.sin(t), "V": 1 / math.cos(t / 2),
                   "W": 1 / math.sin(t / 2)}[kind]
            np.testing.assert_allclose(_CHEB[name](n, x), want, rtol=0,
                                       atol=64 * (n + 1) * amp * np.finfo(float).eps,
                                       err_msg=str(n))
    n = 10 ** 12 + 1  # odd
    ends = {"T": (1.0, -1.0), "U": (n + 1.0, -(n + 1.0)), "V": (1.0, -(2.0 * n + 1)),
            "W": (2.0 * n + 1, -1.0)}[kind]
    assert (_CHEB[name](n, 1.0), _CHEB[name](n, -1.0)) == ends
    assert np.isinf(_CHEB[name](n, 1.5))
