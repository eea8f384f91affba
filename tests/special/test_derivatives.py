"""JVP and VJP rules of linalgx.special against central finite differences.

The rules are called directly with ``xp = numpy`` (``op.jvp_rule`` / ``op.vjp_rule``): the
JVP must match a central difference of the op along a random direction, the VJP must be its
adjoint (``Re<g, J t> == Re<J* g, t>``), and both must broadcast over a leading batch axis
of tangents / cotangents. Derivative kernels that exist only for the rules (zeta in s,
gammainc in a, Gegenbauer, generalized Laguerre) are checked the same way, which also checks
the second derivatives of the public functions.
"""
import numpy as np
import pytest

from linalgx.special import _basic as B
from linalgx.special import _bessel as BE
from linalgx.special import _bessel_v as BV
from linalgx.special import _betainc as BI
from linalgx.special import _boxcox as BC
from linalgx.special import _combinatorics as CB
from linalgx.special import _dawson as DW
from linalgx.special import _ellip as EL
from linalgx.special import _entropy as EN
from linalgx.special import _erf as E
from linalgx.special import _erfcinv as EC
from linalgx.special import _expint as EI
from linalgx.special import _explog as XL
from linalgx.special import _gamma as G
from linalgx.special import _gammafn as GF
from linalgx.special import _logsumexp as L
from linalgx.special import _losses as LO
from linalgx.special import _orthopoly as P
from linalgx.special import _torch as T

RNG = np.random.default_rng(7)
X_SMALL = np.array([0.3, -1.2, 2.5])

# (id, op, args, differentiable positions, params, complex directions)
CASES = [
    ("erf", E._erf, [X_SMALL], [0], {}, False),
    ("erfc", E._erfc, [X_SMALL], [0], {}, False),
    ("erfcx", E._erfcx, [np.array([-1.5, 0.3, 4.0, 60.0])], [0], {}, False),
    ("erfinv", E._erfinv, [np.array([-0.9, 0.1, 0.7])], [0], {}, False),
    ("erfinv_tails", E._erfinv, [np.array([-0.999, 0.0, 0.999])], [0], {}, False),
    ("ndtri_tails", E._ndtri, [np.array([0.01, 0.5, 0.99])], [0], {}, False),
    ("ndtr", E._ndtr, [X_SMALL], [0], {}, False),
    ("ndtri", E._ndtri, [np.array([0.01, 0.5, 0.97])], [0], {}, False),
    ("log_ndtr", E._log_ndtr, [np.array([-30.0, -2.0, 0.5, 3.0])], [0], {}, False),
    ("gammaln", G._gammaln, [np.array([0.3, 2.5, -1.5, 40.0])], [0], {}, False),
    ("digamma", G._digamma, [np.array([0.3, 2.5, -1.5, 40.0])], [0], {}, False),
    ("polygamma", G._polygamma, [np.array([[1.0], [2.0]]), np.array([0.7, 3.0, -2.5])], [1],
     {}, False),
    ("multigammaln", G._multigammaln, [np.array([3.0, 5.5]), 3], [0], {}, False),
    ("gammainc", G._gammainc, [np.array([0.5, 3.0, 30.0, 2.0]), np.array([0.7, 1.5, 25.0, 9.0])],
     [0, 1], {}, False),
    ("gammaincc", G._gammaincc, [np.array([0.5, 3.0, 30.0, 2.0]),
                                 np.array([0.7, 1.5, 25.0, 9.0])], [0, 1], {}, False),
    ("gammainc_da_k1", G._gammainc_da, [1, np.array([0.5, 3.0, 12.0, 2.0]),
                                        np.array([0.7, 1.5, 9.0, 9.0])], [1, 2], {}, False),
    ("gammainc_da_k2", G._gammainc_da, [2, np.array([0.5, 3.0, 12.0]),
                                        np.array([0.7, 1.5, 20.0])], [1, 2], {}, False),
    ("igam_density_k0", G._igam_density, [0, np.array([0.5, 3.0]), np.array([0.7, 4.0])],
     [1, 2], {}, False),
    ("igam_density_k1", G._igam_density, [1, np.array([0.5, 3.0]), np.array([0.7, 4.0])],
     [1, 2], {}, False),
    ("zeta", G._zeta, [np.array([2.5, 4.0, 1.5]), np.array([0.5, 3.0, 10.0])], [0, 1], {},
     False),
    ("riemann_zeta", G._riemann_zeta, [np.array([2.5, 4.0, 1.5])], [0], {}, False),
    ("riemann_zeta_below_1", G._riemann_zeta, [np.array([-20.5, -7.3, -2.0, -1.1, -0.3, 0.5])],
     [0], {}, False),
    ("riemann_zeta_ds_k1", G._riemann_zeta_ds, [1, np.array([-20.5, -7.3, -1.1, -0.3, 0.5, 2.5])],
     [1], {}, False),
    ("riemann_zeta_ds_k3", G._riemann_zeta_ds, [3, np.array([-20.5, -7.3, -1.1, -0.3, 0.5, 2.5])],
     [1], {}, False),
    ("zeta_ds_k1", G._zeta_ds, [1, np.array([2.5, 4.0]), np.array([0.5, 3.0])], [1, 2], {},
     False),
    ("zeta_ds_k2", G._zeta_ds, [2, np.array([2.5, 4.0]), np.array([0.5, 3.0])], [1, 2], {},
     False),
    ("spherical_jn", BE._spherical_jn, [np.array([0, 1, 3]), np.array([0.5, 2.0, 7.0])], [1],
     {}, False),
    ("spherical_jn_d", BE._spherical_jn_d, [np.array([0, 1, 3]), np.array([0.5, 2.0, 7.0])],
     [1], {}, False),
    ("airy_ai", BE._airy_ai, [np.array([-12.0, -3.0, 0.5, 3.0, 12.0])], [0], {}, False),
    ("gegenbauer", P.gegenbauer_op, [np.array([0, 3, 5]), np.array([0.5, 2.0, 1.5]),
                                     np.array([-0.3, 0.6, 1.2])], [2], {}, False),
    ("genlaguerre", P.genlaguerre_op, [np.array([0, 3, 5]), np.array([0.0, 1.0, 2.5]),
                                       np.array([0.3, 2.6, 7.0])], [2], {}, False),
    ("expit", B._expit, [X_SMALL], [0], {}, False),
    ("expit_complex", B._expit, [X_SMALL + 0.4j], [0], {}, True),
    ("logit", B._logit, [np.array([0.1, 0.5, 0.93])], [0], {}, False),
    ("sinc", B._sinc, [np.array([0.0, 0.3, -2.7, 11.2])], [0], {}, False),
    ("sinc_near_branches", B._sinc, [np.array([1e-3, -0.2, 0.49, 0.51, 7.5])], [0], {},
     False),
    ("sinc_complex", B._sinc, [np.array([0.3 + 0.2j, -2.7 + 1j])], [0], {}, True),
    ("entr", B._entr, [np.array([0.1, 1.5, 7.0])], [0], {}, False),
    ("xlogy", B._xlogy, [np.array([[0.0], [2.5]]), np.array([0.5, 3.0])], [0, 1], {}, False),
    ("xlogy_complex", B._xlogy, [np.array([1.0 + 1j, 2.5]), np.array([0.5 - 1j, 3.0 + 2j])],
     [0, 1], {}, True),
    ("xlog1py", B._xlog1py, [np.array([[0.0], [2.5]]), np.array([-0.5, 3.0])], [0, 1], {},
     False),
    ("exp2", B._exp2, [X_SMALL], [0], {}, False),
    ("exp2_complex", B._exp2, [X_SMALL + 1.3j], [0], {}, True),
    ("expm1", B._expm1, [X_SMALL], [0], {}, False),
    ("expm1_complex", B._expm1, [X_SMALL - 0.7j], [0], {}, True),
    ("log1p", B._log1p, [X_SMALL * 0.3], [0], {}, False),
    ("log1p_complex", B._log1p, [X_SMALL * 0.3 + 0.2j], [0], {}, True),
    ("round", B._round, [np.array([0.3, 1.7, -2.2])], [0], {}, False),
    ("gamma", GF._gamma, [np.array([0.3, 2.5, -1.5, 7.2, -20.3])], [0], {}, False),
    ("gamma_complex", GF._gamma, [np.array([0.3 + 0.4j, 2.5 - 1j])], [0], {}, True),
    ("rgamma", GF._rgamma, [np.array([0.3, 2.5, -1.5, 7.2, -20.3])], [0], {}, False),
    ("rgamma_zeros", GF._rgamma, [np.array([0.0, -1.0, -4.0])], [0], {}, False),
    ("loggamma", GF._loggamma, [np.array([0.3, 2.5, 40.0])], [0], {}, False),
    ("loggamma_complex", GF._loggamma, [np.array([0.3 + 0.4j, -2.5 - 1j])], [0], {}, True),
    ("gammasgn", GF._gammasgn, [np.array([0.3, -1.5, -2.5])], [0], {}, False),
    ("poch", GF._poch, [np.array([[0.5], [3.0], [-2.5]]), np.array([0.7, 2.0, -1.3])], [0, 1],
     {}, False),
    ("beta", GF._beta, [np.array([[0.5], [3.0]]), np.array([0.7, 2.0, 4.5])], [0, 1], {},
     False),
    ("betaln", GF._betaln, [np.array([[0.5], [3.0]]), np.array([0.7, 2.0, 4.5])], [0, 1], {},
     False),
    ("log_expit", XL._log_expit, [np.array([-30.0, -1.2, 0.3, 25.0])], [0], {}, False),
    ("exp10", XL._exp10, [X_SMALL], [0], {}, False),
    ("erfcinv", EC._erfcinv, [np.array([0.01, 0.7, 1.0, 1.4, 1.99])], [0], {}, False),
    ("rel_entr", EN._rel_entr, [np.array([[0.2], [1.5]]), np.array([0.3, 1.4, 9.0])], [0, 1],
     {}, False),
    ("kl_div", EN._kl_div, [np.array([[0.2], [1.5]]), np.array([0.3, 1.4, 9.0])], [0, 1], {},
     False),
    ("exp1", EI._exp1, [np.array([0.05, 0.7, 1.0, 3.0, 30.0])], [0], {}, False),
    ("exp1_complex", EI._exp1, [np.array([0.3 + 0.4j, -2.0 + 1.0j, 6.0 - 2.0j])], [0], {}, True),
    ("expi", EI._expi, [np.array([-5.0, -0.3, 0.2, 0.3725, 2.0, 45.0])], [0], {}, False),
    ("expi_complex", EI._expi, [np.array([0.3 + 0.4j, -2.0 + 1.0j, 6.0 - 2.0j])], [0], {}, True),
    ("expn", EI._expn, [np.array([[0], [1], [2], [5], [60]]), np.array([0.3, 1.5, 7.0])], [1], {},
     False),
    ("erfi", DW._erfi, [np.array([-2.0, -0.3, 0.1, 0.7, 3.0])], [0], {}, False),
    ("erfi_complex", DW._erfi, [np.array([0.3 + 0.4j, -1.0 + 0.5j])], [0], {}, True),
    ("dawsn", DW._dawsn, [np.array([-3.0, -0.3, 0.2, 0.92, 1.5, 8.0, 70.0])], [0], {}, False),
    ("dawsn_complex", DW._dawsn, [np.array([0.3 + 0.4j, -1.0 + 0.5j])], [0], {}, True),
    ("dawsn_d", DW._dawsn_d, [np.array([-3.0, 0.2, 0.92, 1.5, 8.0, 70.0])], [0], {}, False),
    ("softplus", LO._softplus, [np.array([-30.0, -1.2, 0.3, 25.0])], [0], {}, False),
    ("huber", LO._huber, [np.array([[0.5], [2.0]]), np.array([-3.0, -0.2, 0.4, 1.2, 2.5])],
     [0, 1], {}, False),
    ("pseudo_huber", LO._pseudo_huber, [np.array([[0.5], [2.0]]),
                                        np.array([-3.0, -0.2, 0.4, 1.2, 2.5])], [0, 1], {}, False),
    ("boxcox", BC._boxcox, [np.array([[0.3], [1.7], [40.0]]),
                            np.array([-1.5, -1e-9, 0.0, 1e-7, 0.5, 2.0])], [0, 1], {}, False),
    ("boxcox1p", BC._boxcox1p, [np.array([[-0.7], [0.3], [5.0]]),
                                np.array([-1.5, -1e-9, 0.0, 1e-7, 0.5, 2.0])], [0, 1], {}, False),
    ("inv_boxcox", BC._inv_boxcox, [np.array([[-0.4], [0.3], [2.0]]),
                                    np.array([-0.3, -1e-9, 0.0, 1e-7, 0.5, 1.5])], [0, 1], {},
     False),
    ("inv_boxcox1p", BC._inv_boxcox1p, [np.array([[-0.4], [0.3], [2.0]]),
                                        np.array([-0.3, -1e-9, 0.0, 1e-7, 0.5, 1.5])], [0, 1],
     {}, False),
    ("ellipk", EL._ellipk, [np.array([-30.0, -0.7, -0.1, 0.0, 0.2, 0.6, 0.95])], [0], {}, False),
    ("ellipkm1", EL._ellipkm1, [np.array([0.01, 0.05, 0.4, 1.0, 1.3, 3.0])], [0], {}, False),
    ("ellipe", EL._ellipe, [np.array([-30.0, -0.7, -0.1, 0.0, 0.2, 0.6, 0.95])], [0], {}, False),
    ("ellipkinc", EL._ellipkinc, [np.array([[0.05], [0.7], [1.5], [-2.6], [7.0]]),
                                  np.array([-4.0, -0.5, 0.0, 0.3, 0.8, 0.99])], [0, 1], {},
     False),
    ("ellipeinc", EL._ellipeinc, [np.array([[0.05], [0.7], [1.5], [-2.6], [7.0]]),
                                  np.array([-4.0, -0.5, 0.0, 0.3, 0.8, 0.99])], [0, 1], {},
     False),
    ("spence", EL._spence, [np.array([0.05, 0.6, 0.95, 1.0, 1.1, 2.0, 7.0])], [0], {}, False),
    ("spence_complex", EL._spence, [np.array([0.5 + 0.5j, 1.02 - 0.05j, -2.0 + 1.0j])], [0], {},
     True),
    ("comb_binom", CB._binom, [np.array([[3.0], [10.5], [1e3]]), np.array([0.5, 2.0, 3.25])],
     [0, 1], {}, False),
    ("comb_binom_at_zeros", CB._binom, [np.array([0.0, 0.5, 2.0]), np.array([1.0, 2.5, -1.0])],
     [0, 1], {}, False),
    ("perm_poch", CB._perm_poch, [np.array([[1.0], [4.5], [40.0]]), np.array([0.5, 2.0, 3.25])],
     [0, 1], {}, False),
    ("betainc", BI._betainc, [np.array([[0.5], [3.0], [40.0]]), np.array([0.7, 2.5, 30.0]),
                              np.array([0.3, 0.55, 0.6])], [0, 1, 2], {}, False),
    ("betaincc", BI._betaincc, [np.array([[0.5], [3.0], [40.0]]), np.array([0.7, 2.5, 30.0]),
                                np.array([0.3, 0.55, 0.6])], [0, 1, 2], {}, False),
    ("betainc_dab_10", BI._betainc_dab, [1, 0, np.array([[0.5], [3.0]]), np.array([0.7, 2.5]),
                                         np.array([0.3, 0.8])], [2, 3, 4], {}, False),
    ("betainc_dab_11", BI._betainc_dab, [1, 1, np.array([[0.5], [3.0]]), np.array([0.7, 2.5]),
                                         np.array([0.3, 0.8])], [2, 3, 4], {}, False),
    ("ibeta_density_00", BI._ibeta_density, [0, 0, np.array([[0.5], [3.0]]),
                                             np.array([0.7, 2.5]), np.array([0.3, 0.8])],
     [2, 3, 4], {}, False),
    ("ibeta_density_01", BI._ibeta_density, [0, 1, np.array([[0.5], [3.0]]),
                                             np.array([0.7, 2.5]), np.array([0.3, 0.8])],
     [2, 3, 4], {}, False),
    ("betaincinv", BI._betaincinv, [np.array([[0.5], [3.0], [40.0]]), np.array([0.7, 2.5, 30.0]),
                                    np.array([0.1, 0.5, 0.9])], [0, 1, 2], {}, False),
    ("betainccinv", BI._betainccinv, [np.array([[0.5], [3.0], [40.0]]),
                                      np.array([0.7, 2.5, 30.0]), np.array([0.1, 0.5, 0.9])],
     [0, 1, 2], {}, False),
    ("gammaincinv", BI._gammaincinv, [np.array([[0.5], [3.0], [40.0]]),
                                      np.array([0.05, 0.5, 0.95])], [0, 1], {}, False),
    ("gammainccinv", BI._gammainccinv, [np.array([[0.5], [3.0], [40.0]]),
                                        np.array([0.05, 0.5, 0.95])], [0, 1], {}, False),
    ("binom", BI._binom, [np.array([[3.0], [10.5], [-2.5]]), np.array([0.5, 2.0, 3.25])],
     [0, 1], {}, False),
    ("logsumexp_axis", L._lse, [RNG.normal(size=(3, 4)), None], [0], {"axis": -1}, False),
    ("logsumexp_all_keep", L._lse, [RNG.normal(size=(3, 4)), None], [0],
     {"axis": None, "keepdims": True}, False),
    ("logsumexp_b", L._lse, [RNG.normal(size=(3, 4)), RNG.uniform(0.5, 2, size=(4,))], [0, 1],
     {"axis": 0}, False),
    ("logsumexp_complex", L._lse, [RNG.normal(size=(2, 3)) + 1j * RNG.normal(size=(2, 3)),
                                   None], [0], {"axis": 1}, True),
    ("softmax", L._softmax, [RNG.normal(size=(3, 4))], [0], {"axis": 1}, False),
    ("softmax_all", L._softmax, [RNG.normal(size=(3, 4))], [0], {}, False),
    ("softmax_complex", L._softmax, [RNG.normal(size=(2, 3)) + 0.3j * RNG.normal(size=(2, 3))],
     [0], {"axis": 0}, True),
    ("log_softmax", L._log_softmax, [RNG.normal(size=(3, 4))], [0], {"axis": (0, 1)}, False),
]
# Bessel functions of real order: in x only (the order is not differentiable); real orders
# (integer, half-integer, negative), x on the series, Steed and Hankel paths, complex z
_BV_V = np.array([[0.0], [1.0], [2.5], [-1.3], [7.25]])
_BV_X = np.array([0.4, 3.0, 12.0, 31.0])
_BV_Z = np.array([0.7 + 0.3j, 3.0 - 1.0j, -2.0 + 0.5j])
for _name in ("jv", "yv", "iv", "kv", "kve", "ive"):
    _op = getattr(BV, "_" + _name)
    CASES.append((_name, _op, [_BV_V, _BV_X], [1], {}, False))
    if _name != "ive":            # exp(-|Re z|) is not holomorphic
        CASES.append((_name + "_complex", _op, [np.array([[0.5], [2.0], [-1.3]]), _BV_Z], [1],
                      {}, True))
CASES += [
    ("jv_negative_x", BV._jv, [np.array([[0.0], [1.0], [-3.0]]), np.array([-5.0, -0.6])], [1], {},
     False),
    ("ive_negative_x", BV._ive, [np.array([[0.0], [1.0], [-3.0]]), np.array([-25.0, -0.6])], [1],
     {}, False),
    ("yn", BV._yn, [np.array([[0], [1], [4], [-3]]), np.array([0.4, 3.0, 12.0, 31.0])], [1], {},
     False),
    ("kn", BV._kn, [np.array([[0], [1], [4], [-3]]), np.array([0.4, 3.0, 12.0, 31.0])], [1], {},
     False),
]
for _name in ("i0", "i0e", "i1", "i1e", "j0", "j1"):
    CASES.append((_name, getattr(BE, "_" + _name), [np.array([-25.0, -7.0, -0.4, 0.5, 2.0, 30.0])],
                  [0], {}, False))
for _name in ("k0", "k0e", "k1", "k1e", "y0", "y1"):
    CASES.append((_name, getattr(BE, "_" + _name), [np.array([0.5, 2.0, 9.0, 30.0])], [0], {},
                  False))
_N = np.array([0, 1, 3, 7, -4])
_NH = np.array([0.5, 1.5, 2.5, 6.5, -3.5])  # non-integer degrees: SciPy's continuation,
_XH = np.array([0.15, 0.3, 0.55, 0.7, 0.9])   # real on (0, 1) (a branch cut beyond -1)
_XP = np.array([-0.7, 0.2, 0.9, 1.5, 0.35])
for _name, _op in (("eval_chebyt", P._chebyt), ("eval_chebyu", P._chebyu),
                   ("eval_sh_chebyt", P._sh_chebyt), ("eval_sh_chebyu", P._sh_chebyu),
                   ("eval_legendre", P._legendre)):
    CASES.append((_name, _op, [_N, _XP], [1], {}, False))
    CASES.append((_name + "_noninteger", _op, [_NH, _XH], [1], {}, False))
for _name, _op in (("eval_laguerre", P._laguerre), ("eval_hermite", P._hermite),
                   ("eval_hermitenorm", P._hermitenorm)):
    CASES.append((_name, _op, [np.abs(_N), _XP * 3], [1], {}, False))
for _name, _op in T._OPS.items():
    CASES.append((_name, _op, [_XP * 0.8 + 0.1, np.array([0.0, 1.0, 4.0, 6.7, -2.0])], [0], {},
                  False))


def _perturb(args, i, d):
    a = list(args)
    a[i] = args[i] + d
    return a


def _fd(op, args, i, t, params, h):
    hi = op(*_perturb(args, i, h * t), **params)
    lo = op(*_perturb(args, i, -h * t), **params)
    return (np.asarray(hi) - np.asarray(lo)) / (2 * h)


def _direction(a, complex_dir):
    t = RNG.standard_normal(np.shape(a))
    if complex_dir:
        t = t + 1j * RNG.standard_normal(np.shape(a))
    return t


@pytest.mark.parametrize("name, op, args, wrt, params, cplx", CASES, ids=[c[0] for c in CASES])
def test_jvp_matches_finite_differences(name, op, args, wrt, params, cplx):
    out = op(*args, **params)
    for i in wrt:
        t = _direction(args[i], cplx)
        tangents = [None] * len(args)
        tangents[i] = t
        jvp = op.jvp_rule(np, tuple(tangents), out, *args, **params)
        scale = np.max(np.abs(args[i])) if np.size(args[i]) else 1.0
        fd = _fd(op, args, i, t, params, 1e-6 * max(1.0, scale))
        np.testing.assert_allclose(jvp, fd, rtol=2e-6, atol=1e-8 * max(1.0, np.max(np.abs(fd))))


@pytest.mark.parametrize("name, op, args, wrt, params, cplx", CASES, ids=[c[0] for c in CASES])
def test_vjp_is_adjoint_of_jvp(name, op, args, wrt, params, cplx):
    out = op(*args, **params)
    g = _direction(out, cplx or np.iscomplexobj(out))
    for i in wrt:
        t = _direction(args[i], cplx)
        tangents = [None] * len(args)
        tangents[i] = t
        jvp = op.jvp_rule(np, tuple(tangents), out, *args, **params)
        vjp = op.vjp_rule(np, g, out, *args, **params)[i]
        assert np.shape(vjp) == np.shape(args[i])
        lhs = np.sum(np.real(np.conj(g) * jvp))
        rhs = np.sum(np.real(np.conj(vjp) * t))
        np.testing.assert_allclose(lhs, rhs, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("name, op, args, wrt, params, cplx", CASES, ids=[c[0] for c in CASES])
def test_rules_broadcast_over_leading_batch_axis(name, op, args, wrt, params, cplx):
    out = op(*args, **params)
    i = wrt[0]
    ts = np.stack([_direction(args[i], cplx) for _ in range(2)])
    tangents = [None] * len(args)
    tangents[i] = ts
    batched = op.jvp_rule(np, tuple(tangents), out, *args, **params)
    for k in range(2):
        tangents[i] = ts[k]
        np.testing.assert_allclose(batched[k], op.jvp_rule(np, tuple(tangents), out, *args,
                                                           **params), rtol=1e-12, atol=1e-300)
    gs = np.stack([_direction(out, cplx or np.iscomplexobj(out)) for _ in range(2)])
    batched = op.vjp_rule(np, gs, out, *args, **params)[i]
    for k in range(2):
        np.testing.assert_allclose(batched[k], op.vjp_rule(np, gs[k], out, *args, **params)[i],
                                   rtol=1e-12, atol=1e-300)


def test_airy_rules():
    x = np.array([-12.0, -3.0, 0.5, 3.0, 12.0])
    op = BE._airy
    out = op(x)
    t = RNG.standard_normal(x.shape)
    jvp = op.jvp_rule(np, (t,), out, x)
    fd = _fd(op, [x], 0, t, {}, 1e-6 * 12)
    for k in range(4):
        np.testing.assert_allclose(jvp[k], fd[k], rtol=2e-6, atol=1e-10)
    g = (RNG.standard_normal(x.shape), None, RNG.standard_normal(x.shape), None)
    (vjp,) = op.vjp_rule(np, g, out, x)
    lhs = np.sum(g[0] * jvp[0]) + np.sum(g[2] * jvp[2])
    np.testing.assert_allclose(lhs, np.sum(vjp * t), rtol=1e-10)


def test_logsumexp_sign_rules():
    a = RNG.normal(size=(3, 4))
    b = np.array([1.0, -2.0, 0.5, 1.5])
    op = L._lse_sign
    out = op(a, b, axis=1)
    t = RNG.standard_normal(a.shape)
    jvp, _ = op.jvp_rule(np, (t, None), out, a, b, axis=1)
    fd = _fd(op, [a, b], 0, t, {"axis": 1}, 1e-6)[0]
    np.testing.assert_allclose(jvp, fd, rtol=2e-6)
    g = RNG.standard_normal(out[0].shape)
    ga, gb = op.vjp_rule(np, (g, None), out, a, b, axis=1)
    np.testing.assert_allclose(np.sum(g * jvp), np.sum(ga * t), rtol=1e-10)
    assert gb.shape == b.shape


@pytest.mark.parametrize("x", [0.0])
def test_derivatives_at_zero(x):
    # removable singularities of the rules: j1'(0) = i1'(0) = 1/2, sinc'(0) = 0,
    # j_n''(0) from Bessel's equation
    for op, want in ((BE._j1, 0.5), (BE._i1, 0.5), (BE._i1e, 0.5), (B._sinc, 0.0)):
        out = op(np.array([x]))
        np.testing.assert_allclose(op.jvp_rule(np, (np.ones(1),), out, np.array([x])), [want])
    n = np.array([0, 1, 2, 3])
    xs = np.zeros(4)
    d2 = BE._spherical_jn_d.jvp_rule(np, (None, np.ones(4)), BE._spherical_jn_d(n, xs), n, xs)
    np.testing.assert_allclose(d2, [-1 / 3, 0.0, 2 / 15, 0.0])


def test_gammainc_da_against_quadrature():
    # d/da P(a, x) = int_0^x t^(a-1) e^-t (log t - psi(a)) dt / Gamma(a)
    mp = pytest.importorskip("mpmath")
    for a, x in ((0.5, 0.7), (3.0, 1.5), (2.0, 9.0), (30.0, 25.0)):
        exact = mp.diff(lambda s, x=x: mp.gammainc(s, 0, x, regularized=True), a)
        got = G._gammainc_da(1, a, x)
        np.testing.assert_allclose(got, float(exact), rtol=1e-9)


def test_zeta_ds_against_mpmath():
    mp = pytest.importorskip("mpmath")
    for s, q in ((2.5, 0.5), (4.0, 3.0), (1.2, 10.0), (30.0, 1.5)):
        for k in (1, 2, 3):
            exact = mp.zeta(s, q, derivative=k)
            np.testing.assert_allclose(G._zeta_ds(k, s, q), float(exact), rtol=1e-11)


def test_riemann_zeta_ds_against_mpmath():
    # every order, on each of the kernel's pieces: the functional equation (s < -1.25), the
    # Taylor series about -1 and 0, Euler-Maclaurin (s > 1); tolerance relative to the
    # functional equation's term size below -1.25 (the derivatives have zeros there)
    mp = pytest.importorskip("mpmath")
    for s in (-57.3, -30.0, -20.5, -9.75, -2.0, -1.3, -1.0, -0.6, -0.2, 0.0, 0.4, 0.9, 1.1,
              7.5):
        for k in (1, 2, 3, 4):
            exact = mp.zeta(s, derivative=k)
            scale = abs(exact)
            if s < -1.25:
                f = abs(mp.power(2 * mp.pi, s) / mp.pi * mp.gamma(1 - s))
                scale = max(scale, f * (mp.pi / 2 + abs(mp.log(2 * mp.pi)
                                                        - mp.digamma(1 - s))) ** k)
            got = G._riemann_zeta_ds(k, s)
            assert abs(got - exact) <= 2e-14 * scale, (s, k, got, exact)


def test_end_to_end_through_the_autodiff_engine():
    linalgx = pytest.importorskip("linalgx")
    import linalgx.special as ls
    try:
        grad = linalgx.grad
    except (AttributeError, ImportError):
        pytest.skip("autodiff engine not available")
    x = np.array([0.3, 1.7])
    np.testing.assert_allclose(grad(lambda v: ls.erf(v).sum())(x),
                               2 / np.sqrt(np.pi) * np.exp(-x * x), rtol=1e-14)
    # second derivatives through the rules: j0'' = -j0 + j1/x, lgamma'' = polygamma(1)
    second = grad(lambda v: grad(lambda y: ls.j0(y).sum())(v).sum())(x)
    np.testing.assert_allclose(second, -ls.j0(x) + ls.j1(x) / x, rtol=1e-12)
    np.testing.assert_allclose(linalgx.hessian(lambda v: ls.gammaln(v).sum())(x),
                               np.diag(ls.polygamma(1, x)), rtol=1e-12)
    # PyTorch's complex convention: grad of a real loss is dL/dRe + i dL/dIm
    z = np.array([0.3 + 0.4j, -1.0 + 0.2j])

    def loss(w):
        return (abs(ls.expm1(w)) ** 2).sum()

    h = 1e-7
    fd = np.array([(loss(z + h * e) - loss(z - h * e)) / (2 * h)
                   + 1j * (loss(z + 1j * h * e) - loss(z - 1j * h * e)) / (2 * h)
                   for e in np.eye(2)])
    np.testing.assert_allclose(grad(loss)(z), fd, rtol=1e-6)


def test_every_special_op_has_both_rules():
    import importlib
    import pkgutil

    import linalgx.special
    from linalgx._core.op import Op

    ops = []
    for m in pkgutil.iter_modules(linalgx.special.__path__):
        mod = importlib.import_module(f"linalgx.special.{m.name}")
        ops += [o for o in vars(mod).values() if isinstance(o, Op)]
    ops += list(T._OPS.values())
    assert len(ops) > 60
    missing = sorted({o.name for o in ops if o.jvp_rule is None or o.vjp_rule is None})
    assert missing == []


def test_rules_at_their_singular_points_do_not_warn():
    """At y = 0 the derivatives of xlogy are log(0) = -inf in x and x / 0 = inf in y, and
    logsumexp of all -inf input has NaN weights (torch's values for all three); computing
    them raises no NumPy RuntimeWarning, under warnings-as-errors."""
    import warnings

    import linalgx
    from linalgx import special as S
    x, y = np.array([1.0, 3.0]), np.array([0.0, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        gx, gy = linalgx.grad(lambda x, y: S.xlogy(x, y).sum(), argnums=(0, 1))(x, y)
        np.testing.assert_array_equal(gx, [-np.inf, np.log(2.0)])
        np.testing.assert_array_equal(gy, [np.inf, 1.5])
        ga = linalgx.grad(lambda a: S.logsumexp(a))(np.full(3, -np.inf))
        assert np.isnan(ga).all()
