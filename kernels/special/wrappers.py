"""Scalar wrappers that ``ufuncs`` vectorizes: float32 and integer arguments are widened to
float64 (or int64) before the float64 kernel runs, so every loop computes in double."""
import numpy as np

from . import airy as _airy
from . import bessel as _b
from . import bessel_v as _bv
from . import binom as _bn
from . import boxcox as _bc
from . import common as _c
from . import dawson as _dw
from . import elementary as _el
from . import ellip as _ell
from . import erf as _erf
from . import expint as _ei
from . import explog as _xl
from . import gamma as _g
from . import gammafn as _gf
from . import igam as _ig
from . import igami as _igi
from . import incbeta as _ibt
from . import poly as _p


def erf(x): return _erf.erf(np.float64(x))
def erfc(x): return _erf.erfc(np.float64(x))
def erfcx(x): return _erf.erfcx(np.float64(x))
def erfinv(x): return _erf.erfinv(np.float64(x))
def ndtr(x): return _erf.ndtr(np.float64(x))
def ndtri(x): return _erf.ndtri(np.float64(x))
def log_ndtr(x): return _erf.log_ndtr(np.float64(x))
def gammaln(x): return _g.gammaln(np.float64(x))
def digamma(x): return _g.digamma(np.float64(x))
def polygamma(n, x): return _g.polygamma(np.float64(n), np.float64(x))
def gammainc(a, x): return _ig.gammainc(np.float64(a), np.float64(x))
def gammaincc(a, x): return _ig.gammaincc(np.float64(a), np.float64(x))
def zeta(x, q): return _g.zeta(np.float64(x), np.float64(q))
def riemann_zeta(x): return _g.riemann_zeta(np.float64(x))
def zeta_ds(k, s, q): return _g.zeta_ds(k, np.float64(s), np.float64(q))
def riemann_zeta_ds(k, s): return _g.riemann_zeta_ds(k, np.float64(s))
def gammainc_da(k, a, x): return _ig.gammainc_da(k, np.float64(a), np.float64(x))
def igam_density_da(k, a, x): return _ig.igam_density_da(k, np.float64(a), np.float64(x))
def i0(x): return _b.i0(np.float64(x))
def i0e(x): return _b.i0e(np.float64(x))
def i1(x): return _b.i1(np.float64(x))
def i1e(x): return _b.i1e(np.float64(x))
def k0(x): return _b.k0(np.float64(x))
def k0e(x): return _b.k0e(np.float64(x))
def k1(x): return _b.k1(np.float64(x))
def k1e(x): return _b.k1e(np.float64(x))
def j0(x): return _b.j0(np.float64(x))
def j1(x): return _b.j1(np.float64(x))
def y0(x): return _b.y0(np.float64(x))
def y1(x): return _b.y1(np.float64(x))
def spherical_jn(n, x): return _b.spherical_jn(n, np.float64(x))
def spherical_jn_d(n, x): return _b.spherical_jn_d(n, np.float64(x))
def jv(v, x): return _bv.jv(np.float64(v), np.float64(x))
def yv(v, x): return _bv.yv(np.float64(v), np.float64(x))
def iv(v, x): return _bv.iv(np.float64(v), np.float64(x))
def ive(v, x): return _bv.ive(np.float64(v), np.float64(x))
def kv(v, x): return _bv.kv(np.float64(v), np.float64(x))
def kve(v, x): return _bv.kve(np.float64(v), np.float64(x))
def yn(n, x): return _bv.yn(n, np.float64(x))     # int64 n wraps, float n truncates
def kn(n, x): return _bv.kn(n, np.float64(x))


def airy(x, ai, aip, bi, bip):
    ai[0], aip[0], bi[0], bip[0] = _airy.airy(np.float64(x))


def chebyt(n, x): return _p.chebyt_d(np.float64(n), np.float64(x))
def chebyu(n, x): return _p.chebyu_d(np.float64(n), np.float64(x))
def sh_chebyt(n, x): return _p.chebyt_d(np.float64(n), 2.0 * np.float64(x) - 1.0)
def sh_chebyu(n, x): return _p.chebyu_d(np.float64(n), 2.0 * np.float64(x) - 1.0)
def legendre(n, x): return _p.legendre_d(np.float64(n), np.float64(x))
def laguerre(n, x): return _p.laguerre_d(np.float64(n), np.float64(x))
def hermite(n, x): return _p.hermite(n, np.float64(x))
def hermitenorm(n, x): return _p.hermitenorm(n, np.float64(x))
def gegenbauer(n, alpha, x): return _p.gegenbauer_l(n, np.float64(alpha), np.float64(x))
def genlaguerre(n, alpha, x): return _p.genlaguerre_l(n, np.float64(alpha), np.float64(x))




def t_chebyt(x, n):
    k = _p.torch_degree(np.float64(n))
    return _p.chebyt_l(k, np.float64(x)) if k >= 0 else 0.0


def t_chebyu(x, n):
    k = _p.torch_degree(np.float64(n))
    return _p.chebyu_l(k, np.float64(x)) if k >= 0 else 0.0


def t_chebyv(x, n): return _p.cheb_vw(_p.torch_degree(np.float64(n)), np.float64(x), 0.0, -1.0)
def t_chebyw(x, n): return _p.cheb_vw(_p.torch_degree(np.float64(n)), np.float64(x), 0.0, 1.0)


def t_sh_chebyt(x, n):
    k = _p.torch_degree(np.float64(n))
    return _p.chebyt_l(k, 2.0 * np.float64(x) - 1.0) if k >= 0 else 0.0


def t_sh_chebyu(x, n):
    k = _p.torch_degree(np.float64(n))
    return _p.chebyu_l(k, 2.0 * np.float64(x) - 1.0) if k >= 0 else 0.0


def t_sh_chebyv(x, n):
    h, lo = _c.two_sum(2.0 * np.float64(x), -1.0)
    return _p.cheb_vw(_p.torch_degree(np.float64(n)), h, lo, -1.0)
def t_sh_chebyw(x, n):
    h, lo = _c.two_sum(2.0 * np.float64(x), -1.0)
    return _p.cheb_vw(_p.torch_degree(np.float64(n)), h, lo, 1.0)


def t_hermite(x, n):
    k = _p.torch_degree(np.float64(n))
    return _p.hermite(k, np.float64(x)) if k >= 0 else 0.0


def t_hermitenorm(x, n):
    k = _p.torch_degree(np.float64(n))
    return _p.hermitenorm(k, np.float64(x)) if k >= 0 else 0.0


def t_laguerre(x, n):
    k = _p.torch_degree(np.float64(n))
    return _p.laguerre_l(k, np.float64(x)) if k >= 0 else 0.0


def t_legendre(x, n):
    k = _p.torch_degree(np.float64(n))
    return _p.legendre_l(k, np.float64(x)) if k >= 0 else 0.0


def expit(x): return _el.expit(np.float64(x))
def cexpit(z): return _el.cexpit(np.complex128(z))
def logit(x): return _el.logit(np.float64(x))
def sinc(x): return _el.sinc(np.float64(x))
def csinc(z): return _el.csinc(np.complex128(z))
def entr(x): return _el.entr(np.float64(x))
def xlogy(x, y): return _el.xlogy(np.float64(x), np.float64(y))
def cxlogy(x, y): return _el.cxlogy(np.complex128(x), np.complex128(y))
def xlog1py(x, y): return _el.xlog1py(np.float64(x), np.float64(y))


def cxlog1py(x, y):
    x = np.complex128(x)
    if x == 0 and y == y:
        return complex(0.0, 0.0)
    return x * _el.clog1p(np.complex128(y))


def exp2(x): return _el.exp2(np.float64(x))
def cexp2(z): return _el.cexp2(np.complex128(z))
def expm1(x): return _el.expm1(np.float64(x))
def cexpm1(z): return _el.cexpm1(np.complex128(z))
def log1p(x): return _el.log1p(np.float64(x))
def clog1p(z): return _el.clog1p(np.complex128(z))
def round_(x): return _el.round_half_even(np.float64(x))


def gamma(x): return _c.gamma(np.float64(x))
def rgamma(x): return _gf.rgamma(np.float64(x))
def loggamma(x): return _gf.loggamma(np.float64(x))
def gammasgn(x): return _gf.gammasgn(np.float64(x))
def poch(a, m): return _gf.poch(np.float64(a), np.float64(m))
def beta(a, b): return _gf.beta(np.float64(a), np.float64(b))
def betaln(a, b): return _gf.betaln(np.float64(a), np.float64(b))
def log_expit(x): return _xl.log_expit(np.float64(x))
def exp10(x): return _xl.exp10(np.float64(x))
def erfcinv(x): return _xl.erfcinv(np.float64(x))
def rel_entr(x, y): return _xl.rel_entr(np.float64(x), np.float64(y))
def kl_div(x, y): return _xl.kl_div(np.float64(x), np.float64(y))


def exp1(x): return _ei.exp1(np.float64(x))
def expi(x): return _ei.expi(np.float64(x))
def expn(n, x): return _ei.expn(np.float64(n), np.float64(x))
def erfi(x): return _dw.erfi(np.float64(x))
def dawsn(x): return _dw.dawsn(np.float64(x))
def dawsn_d(x): return _dw.dawsn_d(np.float64(x))
def huber(delta, r): return _bc.huber(np.float64(delta), np.float64(r))
def pseudo_huber(delta, r): return _bc.pseudo_huber(np.float64(delta), np.float64(r))
def boxcox(x, lmbda): return _bc.boxcox(np.float64(x), np.float64(lmbda))
def boxcox1p(x, lmbda): return _bc.boxcox1p(np.float64(x), np.float64(lmbda))
def inv_boxcox(x, lmbda): return _bc.inv_boxcox(np.float64(x), np.float64(lmbda))
def inv_boxcox1p(x, lmbda): return _bc.inv_boxcox1p(np.float64(x), np.float64(lmbda))


def ellipk(m): return _ell.ellipk(np.float64(m))
def ellipkm1(p): return _ell.ellpk(np.float64(p))
def ellipe(m): return _ell.ellpe(np.float64(m))
def ellipkinc(phi, m): return _ell.ellik(np.float64(phi), np.float64(m))
def ellipeinc(phi, m): return _ell.ellie(np.float64(phi), np.float64(m))
def spence(x): return _ell.spence(np.float64(x))
def comb_binom(n, k): return _bn.binom(np.float64(n), np.float64(k))


def betainc(a, b, x): return _ibt.betainc(np.float64(a), np.float64(b), np.float64(x))
def betaincc(a, b, x): return _ibt.betaincc(np.float64(a), np.float64(b), np.float64(x))
def betaincinv(a, b, y): return _ibt.betaincinv(np.float64(a), np.float64(b), np.float64(y))
def betainccinv(a, b, y): return _ibt.betainccinv(np.float64(a), np.float64(b), np.float64(y))
def betainc_dab(i, j, a, b, x):
    return _ibt.betainc_dab(i, j, np.float64(a), np.float64(b), np.float64(x))
def ibeta_density_dab(i, j, a, b, x):
    return _ibt.ibeta_density_dab(i, j, np.float64(a), np.float64(b), np.float64(x))
def gammaincinv(a, y): return _igi.gammaincinv(np.float64(a), np.float64(y))
def gammainccinv(a, y): return _igi.gammainccinv(np.float64(a), np.float64(y))
def binom(n, k): return _bn.binom(np.float64(n), np.float64(k))
